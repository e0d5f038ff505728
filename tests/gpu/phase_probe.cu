// phase_probe.cu - do a block's DRAM-latency phase and its bank-conflicted shared phase add, and how
// much do other resident blocks hide (issue 23 item 2, "phases that add rather than overlap")?
// The timing model predicts a 32-way-conflicted 32x32 transpose at 145 us (its shared wavefronts at
// one per cycle) where the H200 takes 266; shared_rate_probe.cu showed the rate itself is right.
//
// Build: nvcc -arch=sm_90 -O3 -o phase_probe tests/gpu/phase_probe.cu
// Run:   phase_probe run DIR     writes DIR/phase.csv, a summary on stdout
//        phase_probe once [M [T]] one launch per configuration of mode M (grid|persist, default
//                                grid) with T threads per block (256|1024, default both), for ncu;
//                                "# once,ID,config" on stdout (ID = launch order)
//
// One tile = 1024 floats (4 KB, a 32x32 float tile). Per tile a block does:
//   1. load: each thread E = 1024/threads coalesced floats from `in` (1 GiB, far beyond the 60 MB L2)
//   2. STS of them into the tile (conflict-free), __syncthreads
//   3. shared phase: each thread E x R LDS of the tile at lane*k + offset: a k-way bank conflict
//      (k = 1: conflict-free; 4, 16, 32: k wavefronts per warp instruction), summed
//   4. one coalesced store of each thread's E sums to `out` (1 GiB); __syncthreads (tile reuse)
// so per tile: 32*R warp LDS instructions of k wavefronts (32*k*R wavefronts), 32 STS wavefronts.
// P = 1 moves the conflict before the barrier: the STS at lane*k + offset (32*k wavefronts, as each
// warp's load arrives), the R LDS conflict-free (32*R): the shape of shared_stride_s*'s STS half.
// k = 0 is the control: load -> store, no shared memory, no barrier.
// Modes: grid = one tile per block, 2^18 blocks (the catalog's shape: blocks retire and launch);
// persist = SMs x B blocks looping over tiles (no launch, the same residency).
// Residency B (blocks per SM) is set with dynamic shared memory (200/100/50/25 KB for 1/2/4/8) and
// checked with cudaOccupancyMaxActiveBlocksPerMultiprocessor (column `occ`); 1024-thread blocks
// only reach B = 1, 2.
// Phase clocks: thread 0 of each block stamps clock64 at tile start (t0), after its STS (t1: its
// load has arrived), after the barrier (t2: every warp's load has), after its store issued (t3);
// sums per block, averaged over all tiles: lat_cyc = t2 - t0 (the load phase as the block sees it),
// shr_cyc = t3 - t2 (warp 0's shared phase; other warps may finish later).
//
// phase.csv columns: mode,threads,blocks_per_sm,occ,k,R,P,smem_kb,tiles,median_us,min_us,
//   gbps (2 GiB / median), shared_wf_per_sm (P = 0: 32*k*R + 32, P = 1: 32*k + 32*R; per tile x tiles / SMs),
//   us_at_1wf_per_clk (that / 1.98 GHz), lat_cyc,sync_cyc,shr_cyc
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned long long u64;
static const size_t NFLOAT = (size_t)1 << 28;   // 1 GiB of floats per buffer
static const int TILE = 1024;
static const int NTILES = (int)(NFLOAT / TILE);  // 2^18

template <int THREADS, int K, int R, int P>
__global__ void __launch_bounds__(THREADS, 2048 / THREADS)
phase(const float *__restrict__ in, float *__restrict__ out, int ntiles, u64 *clk)
{
    extern __shared__ float tile[];
    const int E = TILE / THREADS;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    u64 s_lat = 0, s_sync = 0, s_shr = 0;
    for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        u64 t0 = clock64();
        const float *src = in + (size_t)t * TILE;
        float v[E];
#pragma unroll
        for (int j = 0; j < E; j++) v[j] = src[tid + j * THREADS];
        float acc[E];
        u64 t1, t2;
        if (K == 0) {
#pragma unroll
            for (int j = 0; j < E; j++) acc[j] = v[j] + 1.0f;
            t1 = t2 = clock64();
        } else {
#pragma unroll
            for (int j = 0; j < E; j++) {
                // P = 1: lane*K distinct words on 32/K banks (the offset keeps warps and j apart)
                int w = P ? ((lane * K + warp + j * (THREADS / 32)) & (TILE - 1)) : tid + j * THREADS;
                tile[w] = v[j];
            }
            t1 = clock64();
            __syncthreads();
            t2 = clock64();
            uint32_t base = (uint32_t)__cvta_generic_to_shared(tile);
#pragma unroll
            for (int j = 0; j < E; j++) {
                float a = 0.0f;
#pragma unroll
                for (int r = 0; r < R; r++) {
                    // lane*K distinct words (K*31 < 1024) on 32/K banks; the offset shifts all lanes alike
                    uint32_t w = (uint32_t)((P ? lane : lane * K) + warp + (j * R + r) * (THREADS / 32)) & (TILE - 1);
                    float x;
                    asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(x) : "r"(base + 4 * w));
                    a += x;
                }
                acc[j] = a;
            }
        }
        float *dst = out + (size_t)t * TILE;
#pragma unroll
        for (int j = 0; j < E; j++) dst[tid + j * THREADS] = acc[j];
        u64 t3 = clock64();
        if (K != 0) __syncthreads();   // the tile is rewritten by the next iteration
        s_lat += t1 - t0; s_sync += t2 - t1; s_shr += t3 - t2;
    }
    if (tid == 0) {
        int n = 0;
        for (int t = blockIdx.x; t < ntiles; t += gridDim.x) n++;
        clk[3 * (size_t)blockIdx.x + 0] = n ? s_lat / n : 0;
        clk[3 * (size_t)blockIdx.x + 1] = n ? s_sync / n : 0;
        clk[3 * (size_t)blockIdx.x + 2] = n ? s_shr / n : 0;
    }
}

typedef void (*kfn)(const float *, float *, int, u64 *);
struct Cfg { kfn f; int threads, k, r, p; };
#define C(T, K, R) { phase<T, K, R, 0>, T, K, R, 0 }
#define CP(T, K) { phase<T, K, 1, 1>, T, K, 1, 1 }
static const Cfg cfgs[] = {
    C(256, 0, 1), C(256, 1, 1), C(256, 4, 1), C(256, 16, 1), C(256, 32, 1),
    C(256, 1, 4), C(256, 4, 4), C(256, 16, 4), C(256, 32, 4),
    CP(256, 4), CP(256, 16), CP(256, 32),
    C(1024, 0, 1), C(1024, 1, 1), C(1024, 4, 1), C(1024, 16, 1), C(1024, 32, 1),
    C(1024, 1, 4), C(1024, 4, 4), C(1024, 16, 4), C(1024, 32, 4),
    CP(1024, 16), CP(1024, 32),
};
static const int ncfg = sizeof cfgs / sizeof cfgs[0];
static const int bps_list[] = {1, 2, 4, 8};
static int smem_kb_for(int b) { return b == 1 ? 200 : b == 2 ? 100 : b == 4 ? 50 : 25; }

static float *g_in, *g_out;
static u64 *g_clk;
static int g_sms;

// launch one configuration; returns the grid size (0 if it cannot be placed)
static int launch(const Cfg &c, int bps, bool persist, int *occ)
{
    size_t smem = (size_t)smem_kb_for(bps) * 1024;
    CK(cudaFuncSetAttribute((const void *)c.f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute((const void *)c.f, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(occ, c.f, c.threads, smem));
    if (*occ != bps) return 0;
    int grid = persist ? g_sms * bps : NTILES;
    c.f<<<grid, c.threads, smem>>>(g_in, g_out, NTILES, g_clk);
    CK(cudaGetLastError());
    return grid;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "once"))) {
        fprintf(stderr, "usage: phase_probe run DIR | once [grid|persist]\n");
        return 2;
    }
    bool once = !strcmp(argv[1], "once");
    if (!once && argc < 3) { fprintf(stderr, "phase_probe run: DIR missing\n"); return 2; }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    CK(cudaMalloc(&g_in, NFLOAT * sizeof(float)));
    CK(cudaMalloc(&g_out, NFLOAT * sizeof(float)));
    CK(cudaMalloc(&g_clk, 3 * sizeof(u64) * NTILES));
    CK(cudaMemset(g_in, 0, NFLOAT * sizeof(float)));
    CK(cudaDeviceSynchronize());

    if (once) {
        bool persist = argc > 2 && !strcmp(argv[2], "persist");
        int only_threads = argc > 3 ? atoi(argv[3]) : 0;
        int id = 0;
        for (int ci = 0; ci < ncfg; ci++)
            for (int bi = 0; bi < 4; bi++) {
                int occ;
                if (only_threads && cfgs[ci].threads != only_threads) continue;
                if (!launch(cfgs[ci], bps_list[bi], persist, &occ)) continue;
                CK(cudaDeviceSynchronize());
                printf("# once,%d,%s t%d b%d k%d R%d P%d\n", id++, persist ? "persist" : "grid",
                       cfgs[ci].threads, bps_list[bi], cfgs[ci].k, cfgs[ci].r, cfgs[ci].p);
            }
        return 0;
    }

    char path[4096];
    snprintf(path, sizeof path, "%s/phase.csv", argv[2]);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return 1; }
    fprintf(f, "mode,threads,blocks_per_sm,occ,k,R,P,smem_kb,tiles,median_us,min_us,gbps,shared_wf_per_sm,"
               "us_at_1wf_per_clk,lat_cyc,sync_cyc,shr_cyc\n");
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<u64> clk(3 * (size_t)NTILES);
    for (int m = 0; m < 2; m++)
        for (int ci = 0; ci < ncfg; ci++)
            for (int bi = 0; bi < 4; bi++) {
                const Cfg &c = cfgs[ci];
                int bps = bps_list[bi], occ;
                int grid = launch(c, bps, m == 1, &occ);   // warm-up
                if (!grid) continue;
                CK(cudaDeviceSynchronize());
                std::vector<float> ms;
                for (int rep = 0; rep < 5; rep++) {
                    CK(cudaEventRecord(e0));
                    launch(c, bps, m == 1, &occ);
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    float t;
                    CK(cudaEventElapsedTime(&t, e0, e1));
                    ms.push_back(t);
                }
                std::sort(ms.begin(), ms.end());
                CK(cudaMemcpy(clk.data(), g_clk, 3 * sizeof(u64) * grid, cudaMemcpyDeviceToHost));
                double lat = 0, syn = 0, shr = 0;
                for (int b = 0; b < grid; b++) { lat += clk[3 * b]; syn += clk[3 * b + 1]; shr += clk[3 * b + 2]; }
                lat /= grid; syn /= grid; shr /= grid;
                double med = ms[2] * 1e3;
                double wf = !c.k ? 0 : (double)(c.p ? 32 * c.k + 32 * c.r : 32 * c.k * c.r + 32) * NTILES / g_sms;
                fprintf(f, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.1f,%.0f,%.2f,%.0f,%.0f,%.0f\n",
                        m ? "persist" : "grid", c.threads, bps, occ, c.k, c.r, c.p, smem_kb_for(bps), NTILES,
                        med, ms[0] * 1e3, 2.0 * NFLOAT * 4 / (med * 1e3), wf, wf / 1980.0, lat, syn, shr);
                printf("%-7s t%-4d b%d k%-2d R%d P%d  %8.1f us  (1 wf/clk: %7.1f us)  lat %5.0f sync %5.0f shr %5.0f cyc\n",
                       m ? "persist" : "grid", c.threads, bps, c.k, c.r, c.p, med, wf / 1980.0, lat, syn, shr);
                fflush(f);
            }
    fclose(f);
    return 0;
}
