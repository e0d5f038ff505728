/* drift_probe.cu - do blocks that read the same lines stay in step as a kernel runs, and does it
 * matter how many blocks share an SM (issue 23: the L2 request coalescer's drift; scripts/gpu-drift.sh
 * runs it under ncu, `warpscope sim tests/gpu/drift_probe.cu:k_drift -D BUSY=.. -D ITERS=..` models it).
 *
 * Why: the model's block slots stay in step forever, so it coalesced 37.5 % of mma_cp_async's reads
 * at every size where the GPU's share fell from 58 % (512^3) to 9 % (4096^3) (results/h200-lrc-sizes),
 * while the corpus's GEMMs of one block per SM coalesced every duplicate over 16-24 us. If the blocks
 * drift apart only where several share an SM, the share falls with ITERS for BUSY > 1, not for 1.
 *
 *   k_drift  SMs x BUSY blocks of 128 threads, all resident at once (dynamic shared memory lets BUSY
 *            blocks share an SM); iteration i: the block reads the 16 lines i x 16 .. i x 16 + 15
 *            of S (every block the same lines, in the same order; thread t 4 B at byte 16 t) and 16
 *            lines of its own of P (a ring of 8 iterations), both ld.global.cg (no L1: every
 *            block's request goes out), then WORK dependent FMAs on them, then a block barrier (a
 *            GEMM's step: a tile every block of a row needs, one of its own, compute).
 * Expected: coalesced share = lrc hardware-coalesced / (L1 -> L2 read sectors of S) falls with ITERS
 * for BUSY > 1 and stays for BUSY = 1 (the model: groups of 4 SMs, 3 / 4 of S's sectors at most).
 * Run: probe BUSY ITERS WORK (prints the most blocks any SM ran and "ok"). */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe_check.h"

/*@warpscope
kernel  k_drift
note    SMs x BUSY blocks read the same 16 lines an iteration (.cg) beside 16 of their own, WORK FMAs each
param   BUSY = 1
param   ITERS = 64
param   WORK = 8
buffer  S  uint  ITERS * 16 * 32  init=random(1, 0, 1000)
buffer  P  uint  132 * BUSY * 8 * 16 * 32  init=random(2, 0, 1000)
buffer  O  float  132 * BUSY * 128  init=zero  output
grid    132 * BUSY
block   128
shared  (228 / BUSY - 2) * 1024
args    S, P, ITERS, WORK, O
*/
/* Thread t reads 4 B at byte 16 t of each stream's 2 KB (16 lines) an iteration: a warp's 32 lanes
 * touch every sector of 4 lines. The dynamic shared memory (unused) only holds BUSY blocks per SM. */
__global__ void k_drift(const unsigned *S, const unsigned *P, unsigned iters, unsigned work, float *O)
{
    unsigned t = threadIdx.x;
    const unsigned *own = P + (size_t)blockIdx.x * 8 * 16 * 32; /* 8 iterations x 16 lines */
    float acc = 0;
    for (unsigned i = 0; i < iters; i++) {
        unsigned a = __ldcg(&S[(size_t)i * 512 + t * 4]);
        unsigned b = __ldcg(&own[(size_t)(i % 8) * 512 + t * 4]);
        float x = (float)(a ^ b);
        for (unsigned k = 0; k < work; k++)
            acc = fmaf(acc, 0.999f, x);
        __syncthreads();
    }
    O[(size_t)blockIdx.x * 128 + t] = acc;
}

#ifndef __WARPSCOPE__
__global__ void k_smid(unsigned *sm)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    if (threadIdx.x == 0)
        sm[blockIdx.x] = s;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s BUSY ITERS WORK\n", argv[0]);
        return 2;
    }
    int busy = atoi(argv[1]);
    unsigned iters = (unsigned)strtoul(argv[2], NULL, 0), work = (unsigned)strtoul(argv[3], NULL, 0);
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (busy < 1 || busy > 8 || iters < 1)
        return 2;
    size_t smem = (size_t)(228 / busy - 2) * 1024, blocks = (size_t)sms * (size_t)busy;
    unsigned *S, *P;
    float *O;
    unsigned *sm;
    CHECK(cudaMalloc(&S, (size_t)iters * 16 * 128));
    CHECK(cudaMalloc(&P, blocks * 8 * 16 * 128));
    CHECK(cudaMalloc(&O, blocks * 128 * sizeof(float)));
    CHECK(cudaMalloc(&sm, blocks * sizeof(unsigned)));
    CHECK(cudaMemset(S, 1, (size_t)iters * 16 * 128));
    CHECK(cudaMemset(P, 2, blocks * 8 * 16 * 128));
    CHECK(cudaFuncSetAttribute(k_drift, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CHECK(cudaFuncSetAttribute(k_smid, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    k_drift<<<(unsigned)blocks, 128, smem>>>(S, P, iters, work, O);
    CHECK(cudaDeviceSynchronize());
    k_smid<<<(unsigned)blocks, 128, smem>>>(sm); /* the same occupancy: how many blocks an SM holds */
    CHECK(cudaDeviceSynchronize());
    unsigned *h = (unsigned *)calloc(blocks, sizeof *h), count[1024] = {0}, most = 0;
    CHECK(cudaMemcpy(h, sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (size_t b = 0; b < blocks; b++)
        if (h[b] < 1024 && ++count[h[b]] > most)
            most = count[h[b]];
    printf("sms %d blocks %zu most per SM %u\nok\n", sms, blocks, most);
    free(h);
    return 0;
}
#endif
