/* lrc_map_probe.cu - which SM a block lands on, and which SMs share an L2 request coalescer (issue 23:
 * "requests coalesced in step"; scripts/gpu-lrc-map.sh runs it, plain and under ncu).
 *
 * Why: the model places block b on SM b % SMs and puts 4 consecutive SMs in one coalescer group, so
 * neighbouring blocks (a GEMM's row of tiles) always coalesce; the corpus GEMMs coalesced far less on
 * the H200 (cs_wmma_f16: 10 % of the misses, the model 30 %). results/h200-coalesce's probe printed
 * where its blocks went: 4 blocks on SMs 124 126 128 130 (one stream: one group), 16 on 124-131 and
 * 0 2 .. 14 (10 streams): neither the placement nor the groups are consecutive SM numbers.
 *
 *   place BLOCKS SMEM_KB THREADS REPS  BLOCKS blocks of THREADS threads with SMEM_KB of dynamic
 *             shared memory each spin ~20 us (so a whole wave is resident), record %smid; REPS
 *             launches; prints "place BLOCKS SMEM_KB THREADS rep: smid of block 0, 1, .." and
 *             "start_ns ..: each block's %globaltimer at its start, ns after the first's".
 *   solo LINES       132 launches (one block per SM, 150 KB shared each): in launch t only the block
 *             on SM t reads LINES 128-B lines (.cg, 4 lines an instruction); under ncu with
 *             --print-metric-instances values, the lrc__ instance that counts them is SM t's coalescer.
 *   pair A B LINES   one launch: the blocks on SMs A and B read the same LINES lines at once;
 *             lrc__request_sectors_op_read_coalescing_achieved_type_hardware = LINES x 4 if they share
 *             a coalescer, 0 if not (results/h200-coalesce: 2 blocks at once coalesce every request).
 *   set LINES SM..   one launch: the blocks on the listed SMs read the same LINES lines at once, one
 *             load per line (set2, solo and pair: two, the second right after the first): how many
 *             requests one coalesced request can answer (L2 read sectors / (LINES x 4) = streams).
 * Prints "ok" last. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "probe_check.h"

#define SOLO_SMEM (150 * 1024) /* more than half an SM's 228 KB: one block per SM */

static __device__ unsigned smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void k_where(unsigned *out, unsigned long long *start, long long spin)
{
    extern __shared__ unsigned char smem[];
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    if (threadIdx.x == 0)
        start[blockIdx.x] = g;
    long long t0 = clock64();
    while (clock64() - t0 < spin)
        ;
    if (threadIdx.x == 0) {
        smem[0] = 1; /* keep the allocation */
        out[blockIdx.x] = smid() + smem[0] - 1;
    }
}

/* Blocks on an SM whose bit is set in `on` read the lines (4 per instruction: 8 lanes x 16 B each;
 * twice: a second load of the same 16 B right after); the rest exit. */
__global__ void k_read(const uint4 *in, unsigned lines, const unsigned *on, int twice, unsigned *out)
{
    extern __shared__ unsigned char smem[];
    unsigned s = smid(), lane = threadIdx.x, acc = 0;
    if (!(on[s / 32] >> (s % 32) & 1))
        return;
    for (unsigned i = 0; i < lines / 4; i++) {
        unsigned e = i * 32 + lane;
        acc += __ldcg(&in[e].x) ^ (twice ? __ldcg(&in[e].w) : 0u);
    }
    smem[lane] = (unsigned char)acc;
    atomicAdd(&out[s], acc + smem[(lane + 1) % 32]);
}

int main(int argc, char **argv)
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (argc >= 6 && !strcmp(argv[1], "place")) {
        int blocks = atoi(argv[2]), kb = atoi(argv[3]), threads = atoi(argv[4]), reps = atoi(argv[5]);
        if (blocks < 1 || blocks > 4096 || kb < 0 || kb > 227 || threads < 32 || threads > 1024 || reps < 1)
            return 2;
        unsigned *out;
        unsigned long long *start;
        CHECK(cudaMalloc(&out, (size_t)blocks * sizeof(unsigned)));
        CHECK(cudaMalloc(&start, (size_t)blocks * sizeof(unsigned long long)));
        CHECK(cudaFuncSetAttribute(k_where, cudaFuncAttributeMaxDynamicSharedMemorySize, kb * 1024));
        unsigned *h = (unsigned *)malloc((size_t)blocks * sizeof(unsigned));
        unsigned long long *hs = (unsigned long long *)malloc((size_t)blocks * sizeof(unsigned long long));
        for (int r = 0; r < reps; r++) {
            CHECK(cudaMemset(out, 0xff, (size_t)blocks * sizeof(unsigned)));
            k_where<<<blocks, threads, (size_t)kb * 1024>>>(out, start, 40000); /* ~20 us at 1.98 GHz */
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(h, out, (size_t)blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(hs, start, (size_t)blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
            printf("place %d %d %d %d:", blocks, kb, threads, r);
            for (int i = 0; i < blocks; i++)
                printf(" %u", h[i]);
            unsigned long long t0 = hs[0];
            for (int i = 1; i < blocks; i++)
                t0 = hs[i] < t0 ? hs[i] : t0;
            printf("\nstart_ns %d %d %d %d:", blocks, kb, threads, r); /* %globaltimer at each block's start */
            for (int i = 0; i < blocks; i++)
                printf(" %llu", hs[i] - t0);
            printf("\n");
        }
        free(h);
        free(hs);
    } else if ((argc >= 3 && !strcmp(argv[1], "solo")) || (argc >= 5 && !strcmp(argv[1], "pair")) ||
               (argc >= 4 && (!strcmp(argv[1], "set") || !strcmp(argv[1], "set2")))) {
        int solo = !strcmp(argv[1], "solo"), set = !strncmp(argv[1], "set", 3), twice = !set || argv[1][3] == '2';
        unsigned lines = (unsigned)strtoul(argv[solo || set ? 2 : 4], NULL, 0);
        if (lines < 4 || lines % 4 || lines > (1u << 20))
            return 2;
        uint4 *in;
        unsigned *out;
        CHECK(cudaMalloc(&in, (size_t)lines * 128));
        CHECK(cudaMemset(in, 1, (size_t)lines * 128));
        unsigned *on;
        CHECK(cudaMalloc(&out, 1024 * sizeof(unsigned)));
        CHECK(cudaMemset(out, 0, 1024 * sizeof(unsigned)));
        CHECK(cudaMalloc(&on, 32 * sizeof(unsigned)));
        CHECK(cudaFuncSetAttribute(k_read, cudaFuncAttributeMaxDynamicSharedMemorySize, SOLO_SMEM));
        int n = solo ? sms : 1;
        for (int t = 0; t < n; t++) {
            unsigned mask[32] = {0};
            if (solo)
                mask[t / 32] |= 1u << (t % 32);
            for (int i = set ? 3 : 2; !solo && i < (set ? argc : 4); i++) {
                unsigned m = (unsigned)atoi(argv[i]) % 1024;
                mask[m / 32] |= 1u << (m % 32);
            }
            CHECK(cudaMemcpy(on, mask, sizeof mask, cudaMemcpyHostToDevice));
            k_read<<<sms, 32, SOLO_SMEM>>>(in, lines, on, twice, out);
            CHECK(cudaDeviceSynchronize());
        }
        printf("%s %d launches of %d blocks\n", argv[1], n, sms);
    } else {
        fprintf(stderr, "usage: %s place BLOCKS SMEM_KB THREADS REPS | solo LINES | pair A B LINES | set|set2 LINES SM..\n", argv[0]);
        return 2;
    }
    printf("ok\n");
    return 0;
}
