/* coalesce_probe.cu - when do two SMs' identical L2 read requests reach L2 once (issue 23 item 2:
 * the L2 request coalescer; scripts/gpu-coalesce.sh runs it under ncu).
 *
 * Why: the corpus GEMMs of 2-4 blocks sent each shared sector to L2 once (0 L2 hits) although every
 * block's L1 missed it, while saxpy_block13's neighbouring blocks, asking for their own parts of a
 * shared line at the same time, sent every request, and gather_random's random coincidences were
 * about 1 % merged. The model coalesces identical requests sent in the same cycle by its SMs'
 * clocks (sim/models/cache.h "Read coalescing"). Not measured: how far apart in time two requests
 * may be and still coalesce (the coalescer's window), whether it depends on the first one hitting
 * or missing L2, and whether a request for part of another's sectors joins it.
 *
 *   pair LINES DELAY BLOCKS PART   BLOCKS blocks (1 per SM: 150 KB of shared memory each), one warp
 *                  each, read the same LINES 128-B lines in the same order, 4 lines per LDG.128
 *                  instruction; block b waits b x DELAY SM cycles (clock64) first. PART = 0: every
 *                  block reads whole lines; 1: blocks b > 0 read the first half (2 sectors) of each;
 *                  2: whole lines, each instruction's address depending on the last one's data, so a
 *                  block has one request in flight at a time (the window without a follower catching
 *                  up on a leader that many outstanding requests slow down); PART = m + 1 > 2: m
 *                  instructions in flight (each group of m waits for the last group's data). With
 *                  PART >= 2, blocks b >= 2 start at once and stream lines of their own (no waiting,
 *                  nothing shared): traffic beside the pair.
 *   repeat LINES DELAY BLOCKS PART the same, launched twice: profile the second launch (ncu
 *                  --launch-skip 1 --cache-control none) for requests whose first one hits L2.
 *
 * Expected if the window is W cycles: L2 read sectors = LINES x 4 x (1 + (BLOCKS - 1) x [DELAY >= W])
 * (PART = 0), the lrc__ hardware-coalescing sectors the rest. Prints each block's SM and "ok". */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe_check.h"

#define SMEM_BYTES (150 * 1024) /* more than half an SM's 228 KB: one block per SM */

__global__ void k_pair(const uint4 *in, unsigned lines, long long delay, int part, unsigned *out)
{
    extern __shared__ unsigned char smem[];
    unsigned b = blockIdx.x, lane = threadIdx.x;
    bool background = part >= 2 && b >= 2;
    long long t0 = clock64();
    while (clock64() - t0 < (background ? 0 : delay * (long long)b)) /* block b starts b x DELAY cycles later */
        ;
    unsigned s = 0, dep = 0, mlp = part >= 2 ? (unsigned)part - 1 : 1;
    bool half = part == 1 && b > 0;
    const uint4 *src = background ? in + (size_t)b * lines * 8 : in;
    for (unsigned i = 0; i < lines / 4; i++) { /* one instruction: 4 lines, 8 lanes x 16 B each */
        unsigned e = i * 32 + lane;            /* uint4 index: line e / 8, 16-B chunk e % 8 */
        if (part >= 2 && !background) {
            if (i % mlp == 0)
                dep = s == 0xFFFFFFFFu;        /* never true (the data is 0x01 bytes), but it waits for s */
            e += dep;
        }
        if (!half || e % 8 < 4)               /* half: chunks 0-3 = the line's sectors 0 and 1 */
            s += src[e].x ^ src[e].w;
    }
    smem[lane] = (unsigned char)s; /* keep the allocation (one block per SM) */
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (lane == 0)
        out[2 * b] = smid;
    atomicAdd(&out[2 * b + 1], s + smem[(lane + 1) % 32]);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s pair|repeat LINES DELAY BLOCKS PART\n", argv[0]);
        return 2;
    }
    int launches = argv[1][0] == 'r' ? 2 : 1;
    unsigned lines = (unsigned)strtoul(argv[2], NULL, 0);
    long long delay = atoll(argv[3]);
    int blocks = atoi(argv[4]), part = atoi(argv[5]);
    if (lines < 4 || lines % 4 || blocks < 1 || blocks > 64)
        return 2;
    uint4 *in;
    unsigned *out;
    size_t bytes = (size_t)lines * 128 * (part >= 2 ? (size_t)blocks : 1); /* the background blocks' own lines */
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMemset(in, 1, bytes));
    CHECK(cudaMalloc(&out, 2 * 64 * sizeof(unsigned)));
    CHECK(cudaFuncSetAttribute(k_pair, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES));
    for (int l = 0; l < launches; l++) {
        CHECK(cudaMemset(out, 0, 2 * 64 * sizeof(unsigned)));
        k_pair<<<blocks, 32, SMEM_BYTES>>>(in, lines, delay, part, out);
        CHECK(cudaDeviceSynchronize());
    }
    unsigned h[128];
    CHECK(cudaMemcpy(h, out, 2 * (size_t)blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("sm:");
    for (int b = 0; b < blocks; b++)
        printf(" %u", h[2 * b]);
    printf("\nok\n");
    return 0;
}
