/* local_probe.cu - what an L2 request costs by its sectors, for writes and reads, and the two
 * local-memory catalog kernels at their realistic sizes (issue 23 item 2, scripts/gpu-local.sh).
 *
 * Why: local_dynamic_index (~14 two-sector partial writes per STL) and spill_forced (one
 * full-line write per STL) run at 25 and 16 L2 write requests per cycle on the H200, the naive
 * transpose's one-sector stores at 35: a write request seems to cost a fixed part plus a part per
 * sector. These modes vary the sectors per request with everything L2-resident (a 16 MB window,
 * below the dirty limit, so DRAM does not bind), for stores and for L1-bypassing loads, and on
 * half the SMs (one 1024-thread block per SM) to tell an SM-side limit from an L2-wide one.
 *
 *   wr SPR FULL BLOCKS   32-bit stores; each 128-B line of an instruction takes SPR sectors
 *                        (SPR = 1, 2, 4): FULL=1 whole sectors (8 lanes each), FULL=0 one lane per
 *                        sector (4 of its 32 bytes); BLOCKS blocks of 1024 threads; ~16.8 M requests
 *   rd SPR FULL BLOCKS   the same addresses loaded with __ldcg (no L1 allocation), xor-summed
 *   ldi N                demos/local_memory.cu's local_dynamic_index at N threads
 *   spill N              demos/spills.cu's spill_forced at N threads (ITERS = 8)
 *
 * Prints one line "mode ... ok" after the launch. No clocks are changed. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "../../demos/local_memory.cu"
#include "../../demos/spills.cu"

#include "probe_check.h"

#define WINDOW_LINES 131072u /* 16 MB of 128-B lines: L2-resident, under the dirty limit */

/* The byte offset lane `lane` of warp `w` touches at instruction `i`: lines_per_insn lines
 * per instruction, spr sectors in each, whole (8 lanes per sector) or one word per sector. */
__device__ __forceinline__ size_t probe_offset(unsigned i, unsigned w, unsigned warps, unsigned lane, int spr,
                                               int full)
{
    unsigned per_line = full ? 8u * spr : (unsigned)spr;     /* lanes per line */
    unsigned lines = 32u / per_line;                          /* lines per instruction */
    unsigned in_line = lane % per_line;
    unsigned byte = full ? in_line * 4u : in_line * 32u;
    unsigned line = ((i * warps + w) * lines + lane / per_line) % WINDOW_LINES;
    return (size_t)line * 128u + byte;
}

__global__ void k_wr(unsigned *buf, int spr, int full, unsigned iters)
{
    unsigned warps = gridDim.x * blockDim.x / 32u;
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, lane = threadIdx.x % 32u;
    for (unsigned i = 0; i < iters; i++)
        buf[probe_offset(i, w, warps, lane, spr, full) / 4] = i + lane;
}

__global__ void k_rd(const unsigned *buf, unsigned *out, int spr, int full, unsigned iters)
{
    unsigned warps = gridDim.x * blockDim.x / 32u;
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, lane = threadIdx.x % 32u;
    unsigned acc = 0;
    for (unsigned i = 0; i < iters; i++)
        acc ^= __ldcg(&buf[probe_offset(i, w, warps, lane, spr, full) / 4]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static void usage(void)
{
    fprintf(stderr, "usage: local_probe wr|rd SPR FULL BLOCKS | ldi N | spill N\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage();
    const char *mode = argv[1];
    if (!strcmp(mode, "wr") || !strcmp(mode, "rd")) {
        if (argc < 5)
            usage();
        int spr = atoi(argv[2]), full = atoi(argv[3]), blocks = atoi(argv[4]);
        if ((spr != 1 && spr != 2 && spr != 4) || blocks < 1)
            usage();
        unsigned warps = (unsigned)blocks * 32u;
        unsigned lines = full ? 4u / spr : 32u / spr;
        unsigned iters = (16u << 20) / (warps * lines); /* ~16.8 M line requests */
        unsigned *buf, *out;
        CHECK(cudaMalloc(&buf, (size_t)WINDOW_LINES * 128));
        CHECK(cudaMalloc(&out, (size_t)blocks * 1024 * 4));
        CHECK(cudaMemset(buf, 1, (size_t)WINDOW_LINES * 128));
        CHECK(cudaDeviceSynchronize());
        if (mode[0] == 'w')
            k_wr<<<blocks, 1024>>>(buf, spr, full, iters);
        else
            k_rd<<<blocks, 1024>>>(buf, out, spr, full, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("%s %d %d %d iters %u ok\n", mode, spr, full, blocks, iters);
    } else if (!strcmp(mode, "ldi") || !strcmp(mode, "spill")) {
        int n = atoi(argv[2]);
        if (n < 256)
            usage();
        int w = mode[0] == 'l' ? 1 : SPILL_W;
        unsigned *a, *b, *out;
        CHECK(cudaMalloc(&a, (size_t)n * w * 4));
        CHECK(cudaMalloc(&b, (size_t)n * 4));
        CHECK(cudaMalloc(&out, (size_t)n * 4));
        CHECK(cudaMemset(a, 3, (size_t)n * w * 4));
        CHECK(cudaMemset(b, 5, (size_t)n * 4));
        CHECK(cudaDeviceSynchronize());
        /* sel = 0x05050505 & 15 = bin 5 for every thread (the output is not checked here) */
        if (mode[0] == 'l') {
            unsigned *h = (unsigned *)malloc((size_t)n * 4);
            for (int i = 0; i < n; i++)
                h[i] = (unsigned)i * 2654435761u; /* per-thread seeds: run-time indices differ per lane */
            CHECK(cudaMemcpy(a, h, (size_t)n * 4, cudaMemcpyHostToDevice));
            free(h);
            local_dynamic_index<<<(n + 255) / 256, 256>>>(a, (const int *)b, out, n);
        } else
            spill_forced<<<(n + 255) / 256, 256>>>(a, b, out, n, 8);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("%s %d ok\n", mode, n);
    } else
        usage();
    return 0;
}
