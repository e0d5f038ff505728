/* gemm_lrc_probe.cu - how GEMM-shaped blocks fall out of step, and what that does to the L2 request
 * coalescer (issue 23: "requests coalesced in step"; sim/models/cache.h "Read coalescing";
 * scripts/gpu-gemm-lrc.sh runs it, `warpscope sim tests/gpu/gemm_lrc_probe.cu:k_gemm -D GX=32 ...`
 * models it).
 *
 * Why: in-step probes coalesce up to 4 requests per coalesced one whenever SMs of one GPC read a line
 * together (results/h200-lrc-map), yet the corpus GEMMs coalesce far less, and less the longer K is
 * at a fixed grid (results/h200-lrc-sizes/ksweep: 37 -> 24 -> 14 %). Either the blocks part in time
 * (a step's loads of two blocks no longer meet in the coalescer's window) or the partners sit in
 * other GPCs. This probe measures both at once: every block stamps %globaltimer at the start of each
 * k-step, and ncu counts the coalesced sectors.
 *
 *   k_gemm  grid GX x GY of THREADS-thread blocks (32, 64 or 128; dynamic shared memory SMEM_KB sets
 *           how many run on an SM at once). Step k of K: the block loads the A panel (by, k) and the B
 *           panel (bx, k), 128 16-B pieces each, with ld.global.cg (no L1): a panel is 2 KB, 16 whole lines, read
 *           by all GX blocks of its row (A: launch neighbours) or all GY of its column (B: blocks GX
 *           apart in launch order). The values go through shared memory, __syncthreads, then a
 *           dependent chain of WORK fma's over shared memory, __syncthreads. STAMP=1: thread 0 writes
 *           %globaltimer at each step's start to T[block * K + k] and %smid to S[block].
 * L2 read sectors the GPU must fetch at least: (GX + GY) x K x 64 (each panel's 64 sectors once);
 * the L1 sends GX x GY x K x 128 sectors; the difference is what the coalescer (or nothing) removed.
 * Run: probe GX GY K WORK SMEM_KB STAMP_FILE|- [THREADS] (prints one summary line; STAMP_FILE gets
 * every block's SM and stamps, relative to the first). */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#include "probe_check.h"

/*@warpscope
kernel  k_gemm
note    GX x GY blocks; step k: the A panel (by, k) and the B panel (bx, k), 2 KB each, .cg; WORK fma's
param   GX = 32
param   GY = 32
param   K = 64
param   WORK = 256
param   SMEM_KB = 8
param   THREADS = 128
buffer  A  uint  GY * K * 512  init=random(1, 0, 1000)
buffer  B  uint  GX * K * 512  init=random(2, 0, 1000)
buffer  T  ulong 1
buffer  S  uint  1
buffer  O  float GX * GY * 128  init=zero  output
grid    GX, GY
block   THREADS
shared  SMEM_KB * 1024
args    A, B, K, WORK, 0, T, S, O
*/

__device__ __forceinline__ unsigned long long gtimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void k_gemm(const uint4 *A, const uint4 *B, unsigned K, unsigned work, unsigned stamp,
                       unsigned long long *T, unsigned *S, float *O)
{
    __shared__ float panel[2][128];
    unsigned t = threadIdx.x, bx = blockIdx.x, by = blockIdx.y;
    unsigned block = by * gridDim.x + bx;
    float acc = 0.f;
    if (stamp && t == 0)
        S[block] = smid();
    for (unsigned k = 0; k < K; k++) {
        if (stamp && t == 0)
            T[(size_t)block * K + k] = gtimer();
        for (unsigned p = t; p < 128; p += blockDim.x) {
            uint4 a = __ldcg(&A[((size_t)by * K + k) * 128 + p]);
            uint4 b = __ldcg(&B[((size_t)bx * K + k) * 128 + p]);
            panel[0][p] = (float)(a.x ^ a.y ^ a.z ^ a.w);
            panel[1][p] = (float)(b.x ^ b.y ^ b.z ^ b.w);
        }
        __syncthreads();
        for (unsigned i = 0; i < work; i++)
            acc = fmaf(acc, panel[0][(t + i) & 127], panel[1][(t + 3 * i) & 127]);
        __syncthreads();
    }
    O[(size_t)block * 128 + t] = acc;
}

static double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s GX GY K WORK SMEM_KB STAMP_FILE|- [THREADS]\n", argv[0]);
        return 2;
    }
    unsigned gx = (unsigned)atoi(argv[1]), gy = (unsigned)atoi(argv[2]), K = (unsigned)atoi(argv[3]);
    unsigned work = (unsigned)atoi(argv[4]), kb = (unsigned)atoi(argv[5]);
    const char *stamp_file = argv[6];
    unsigned threads = argc > 7 ? (unsigned)atoi(argv[7]) : 128;
    if (threads != 32 && threads != 64 && threads != 128)
        return 2;
    if (!gx || !gy || gx * gy > 65536 || !K || K > 4096 || kb > 227 || (size_t)gx * gy * K > (1u << 24))
        return 2;
    int stamp = strcmp(stamp_file, "-") != 0;
    size_t blocks = (size_t)gx * gy, na = (size_t)gy * K * 128, nb = (size_t)gx * K * 128;
    uint4 *A, *B;
    float *O;
    unsigned long long *T;
    unsigned *S;
    CHECK(cudaMalloc(&A, na * sizeof(uint4)));
    CHECK(cudaMalloc(&B, nb * sizeof(uint4)));
    CHECK(cudaMemset(A, 1, na * sizeof(uint4)));
    CHECK(cudaMemset(B, 2, nb * sizeof(uint4)));
    CHECK(cudaMalloc(&O, blocks * 128 * sizeof(float)));
    CHECK(cudaMalloc(&T, blocks * K * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&S, blocks * sizeof(unsigned)));
    CHECK(cudaFuncSetAttribute(k_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kb * 1024));
    dim3 grid(gx, gy);
    k_gemm<<<grid, threads, (size_t)kb * 1024>>>(A, B, K, work, (unsigned)stamp, T, S, O);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (stamp) {
        std::vector<unsigned long long> ht(blocks * K);
        std::vector<unsigned> hs(blocks);
        CHECK(cudaMemcpy(ht.data(), T, ht.size() * sizeof ht[0], cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hs.data(), S, hs.size() * sizeof hs[0], cudaMemcpyDeviceToHost));
        unsigned long long t0 = *std::min_element(ht.begin(), ht.end());
        /* the step period, and how far apart row partners (A: bx, bx + 1) and column partners (B: by,
         * by + 1) start a step, at steps 0, 1, 2, 4, ... K - 1 */
        std::vector<double> period;
        for (size_t b = 0; b < blocks; b++)
            if (K > 1)
                period.push_back((double)(ht[b * K + K - 1] - ht[b * K]) / (K - 1));
        printf("gemm %u %u %u %u %u %u: blocks %zu period_ns %.0f", gx, gy, K, work, kb, threads, blocks, median(period));
        for (unsigned k = 0; k < K; k = k ? (k * 2 < K ? k * 2 : (k == K - 1 ? K : K - 1)) : 1) {
            std::vector<double> row, col;
            size_t row_near = 0, col_near = 0;
            for (size_t by = 0; by < gy; by++)
                for (size_t bx = 0; bx < gx; bx++) {
                    size_t b = by * gx + bx;
                    if (bx + 1 < gx) {
                        double d = fabs((double)ht[b * K + k] - (double)ht[(b + 1) * K + k]);
                        row.push_back(d);
                        row_near += d < 250;
                    }
                    if (by + 1 < gy) {
                        double d = fabs((double)ht[b * K + k] - (double)ht[(b + gx) * K + k]);
                        col.push_back(d);
                        col_near += d < 250;
                    }
                }
            printf(" | k%u row_med %.0f row_lt250 %.2f col_med %.0f col_lt250 %.2f", k, median(row),
                   row.empty() ? 0.0 : (double)row_near / row.size(), median(col),
                   col.empty() ? 0.0 : (double)col_near / col.size());
        }
        printf("\n");
        FILE *f = fopen(stamp_file, "w");
        if (!f) {
            perror(stamp_file);
            return 1;
        }
        fprintf(f, "# gemm %u %u %u %u %u %u: per block: smid, then each step's start in ns after the first\n", gx, gy, K, work, kb,
                threads);
        for (size_t b = 0; b < blocks; b++) {
            fprintf(f, "%u", hs[b]);
            for (unsigned k = 0; k < K; k++)
                fprintf(f, " %llu", ht[b * K + k] - t0);
            fprintf(f, "\n");
        }
        fclose(f);
    }
    printf("ok\n");
    return 0;
}
