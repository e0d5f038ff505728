/* halfline_probe.cu - what the second 64-B half of a 128-B line costs after the first half missed
 * (issue 23: mma_cp_async at 256 blocks is predicted 2.7x too slow, its model paying a DRAM latency
 * for every k-step's 64 B of each A/B row; results/h200-lrc-sizes/ksweep). scripts/gpu-halfline.sh
 * runs it plain (clock64 timings) and under ncu (lookups, DRAM bytes).
 *
 * One warp, lane 0 alone, dependent chains (each address depends on the value loaded before, the
 * buffer all zeros) over LINES lines 1 MB + 128 B apart (.cg: no L1), 256 MB written between chains;
 * chain a reads each line's first word, chain a+x also step x after it, per line:
 *   a  its bytes 0-3          (a cold line: a DRAM latency)
 *   b  bytes 32-35            (sector 1: the same 64-B DRAM fetch as a, an L2 hit if the fetch is 64 B)
 *   c  bytes 64-67            (sector 2, the other half: a DRAM latency if the L2 fetched 64 B,
 *                              an L2 hit if it fetched the whole line)
 *   d  bytes 0-3 of the next line 128 B on (is a neighbouring line fetched too?)
 *   e  bytes 0-3 again        (an L2 hit for sure: the reference)
 * Prints each chain's cycles per line and "halfline LINES: a .. e": a's, and what each step adds. */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe_check.h"

#define STEPS 5
#define STRIDE ((1u << 20) + 128u)

__device__ __forceinline__ unsigned ld_cg(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* One chain: per line the loads of steps[0..n) in order, each address waiting for the value before;
 * out[0] = the loop's cycles. The steps' costs come from the differences between chains. */
__global__ void k_half(const unsigned *buf, unsigned lines, unsigned steps, long long *out)
{
    if (threadIdx.x != 0)
        return;
    const unsigned offs[STEPS] = {0, 32, 64, 128, 0}; /* a b c d e: bytes from the line's start */
    unsigned v = 0;
    long long t0 = clock64();
    for (unsigned i = 0; i < lines; i++) {
        const unsigned char *line = (const unsigned char *)buf + (size_t)i * STRIDE;
        for (int s = 0; s < STEPS; s++)
            if (steps >> s & 1)
                v = ld_cg((const unsigned *)(line + offs[s] + v)); /* v is 0: the address waits for it */
    }
    long long t1 = clock64();
    out[0] = t1 - t0 + (v & 1); /* v read: the last load has landed before the store */
    out[1] = v;
}

int main(int argc, char **argv)
{
    unsigned lines = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1024;
    if (lines < 1 || (size_t)lines * STRIDE > (2ull << 30))
        return 2;
    unsigned *buf;
    long long *out;
    size_t bytes = (size_t)lines * STRIDE + 4096;
    CHECK(cudaMalloc(&buf, bytes));
    CHECK(cudaMemset(buf, 0, bytes));
    CHECK(cudaMalloc(&out, 2 * sizeof(long long)));
    unsigned *scrub; /* 256 MB written between chains: none of buf stays in the 60 MB L2 */
    CHECK(cudaMalloc(&scrub, 256u << 20));
    /* chains: a, a+b, a+c, a+d, a+e (bits of the steps a..e) */
    const unsigned chains[] = {1, 1 | 2, 1 | 4, 1 | 8, 1 | 16};
    const char *names[] = {"a", "ab", "ac", "ad", "ae"};
    double per[5];
    for (int c = 0; c < 5; c++) {
        CHECK(cudaMemset(scrub, c + 1, 256u << 20));
        k_half<<<1, 32>>>(buf, lines, chains[c], out);
        CHECK(cudaDeviceSynchronize());
        long long h[2];
        CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        per[c] = (double)h[0] / lines;
        printf("chain %s %u lines: %.1f cycles per line\n", names[c], lines, per[c]);
    }
    printf("halfline %u: a %.1f  b %.1f  c %.1f  d %.1f  e %.1f (cycles: a cold line, then each step's extra)\n", lines,
           per[0], per[1] - per[0], per[2] - per[0], per[3] - per[0], per[4] - per[0]);
    printf("ok\n");
    return 0;
}
