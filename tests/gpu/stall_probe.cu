// stall_probe.cu - the short dependent latencies a warp waits on between barriers, for the timing
// model's barrier-chain term (issue 23: block-wide tree reductions ~30 % under-predicted; ncu's stall
// reasons for them are short scoreboard ~4 and barrier ~2.6 warps per issue, results/h200-stalls).
//
// Build: nvcc -O3 -arch=sm_90 -o stall_probe tests/gpu/stall_probe.cu
// Output: CSV on stdout, header line first:
//   kind,threads_per_block,blocks_per_sm,steps,cycles_per_step_median,cycles_per_step_max
// Each block reads clock64() (SM cycles) around its loop after a barrier; cycles_per_step = the
// block's cycles / steps, median and max over the grid's blocks (grid = blocks_per_sm x SMs).
//   lds_chain   one warp: p = s[p], a dependent chain of shared loads (load-to-use latency)
//   fadd_chain  one warp: x = x + y, 64 dependent add.f32 per iteration (dependent FADD latency)
//   iadd_chain  one warp: dependent add.u32 (what ptxas makes of it: IADD3 or IMAD.IADD)
//   shfl_chain  one warp: v += shfl.down(v, 1), dependent shuffles (SHFL + FADD)
//   bar_only    B threads: bar.sync alone, repeated (the barrier's own cost by block size)
//   sts_bar_lds B threads, every warp, one step: s[t] = v; bar.sync; v = s[t ^ 1] + v; bar.sync
//   tree        B threads: the catalog's block reduction loop (s = B/2 .. 1, tid < s: s[tid] +=
//               s[tid + s]; __syncthreads()), repeated; steps = reps x log2(B)
// blocks_per_sm > 1 shows whether co-resident blocks' chains overlap (per-block cycles unchanged)
// or queue. Never changes clocks. About 20 s.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void lds_chain(int steps, long long *cyc, unsigned *sink) {
    __shared__ unsigned s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i * 33 + 1) & 1023; // a cycle
    __syncthreads();
    volatile unsigned *vs = s;
    unsigned p = threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) p = vs[p];
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
    if (p == 0xffffffffu) sink[0] = p;
}

__global__ void fadd_chain(int iters, float y, long long *cyc, float *sink) {
    float x = threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < 64; k++) asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
    if (x == -1.0f) sink[0] = x;
}

__global__ void iadd_chain(int iters, unsigned y, long long *cyc, unsigned *sink) {
    unsigned x = threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < 64; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y));
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
    if (x == 0xffffffffu) sink[0] = x;
}

__global__ void shfl_chain(int steps, long long *cyc, float *sink) {
    float v = threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) v += __shfl_down_sync(0xffffffffu, v, 1);
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
    if (v == -1.0f) sink[0] = v;
}

__global__ void bar_only(int steps, long long *cyc, float *sink) {
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
    (void)sink;
}

__global__ void sts_bar_lds(int steps, long long *cyc, float *sink) {
    extern __shared__ float s[];
    volatile float *vs = s;
    unsigned t = threadIdx.x;
    float v = t;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) {
        vs[t] = v;
        __syncthreads();
        v = vs[t ^ 1] + v;
        __syncthreads(); // the next store must not overwrite what a neighbour still reads
    }
    long long t1 = clock64();
    if (t == 0) cyc[blockIdx.x] = t1 - t0;
    if (v == -1.0f) sink[0] = v;
}

// the catalog's reduce_sequential tree (demos/reduction.cu), repeated reps times
__global__ void tree(int reps, long long *cyc, float *sink) {
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = 1.0f;
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; r++) {
        for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
            if (tid < st) s[tid] += s[tid + st];
            __syncthreads();
        }
    }
    long long t1 = clock64();
    if (tid == 0) { cyc[blockIdx.x] = t1 - t0; sink[blockIdx.x] = s[0]; }
}

static int g_sms;

template <typename F>
static void row(const char *kind, int threads, int bps, int steps, F launch) {
    int blocks = bps * g_sms;
    long long *d;
    CK(cudaMalloc(&d, blocks * sizeof(long long)));
    launch(blocks, d); // warm-up
    CK(cudaDeviceSynchronize());
    launch(blocks, d);
    CK(cudaDeviceSynchronize());
    std::vector<long long> h(blocks);
    CK(cudaMemcpy(h.data(), d, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    std::sort(h.begin(), h.end());
    printf("%s,%d,%d,%d,%.2f,%.2f\n", kind, threads, bps, steps, (double)h[blocks / 2] / steps,
           (double)h[blocks - 1] / steps);
    fflush(stdout);
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    float *fs;
    unsigned *us;
    CK(cudaMalloc(&fs, 1 << 20));
    CK(cudaMalloc(&us, 1 << 20));
    printf("# %s, %d SMs\n", p.name, g_sms);
    printf("kind,threads_per_block,blocks_per_sm,steps,cycles_per_step_median,cycles_per_step_max\n");
    const int S = 4096;
    row("lds_chain", 32, 1, S, [&](int b, long long *d) { lds_chain<<<b, 32>>>(S, d, us); });
    row("fadd_chain", 32, 1, 64 * 64, [&](int b, long long *d) { fadd_chain<<<b, 32>>>(64, 1.0f, d, fs); });
    row("iadd_chain", 32, 1, 64 * 64, [&](int b, long long *d) { iadd_chain<<<b, 32>>>(64, 3u, d, us); });
    row("shfl_chain", 32, 1, S, [&](int b, long long *d) { shfl_chain<<<b, 32>>>(S, d, fs); });
    for (int bs : {32, 64, 128, 256, 512, 1024}) {
        row("bar_only", bs, 1, S, [&](int b, long long *d) { bar_only<<<b, bs>>>(S, d, fs); });
        row("sts_bar_lds", bs, 1, 1024, [&](int b, long long *d) {
            sts_bar_lds<<<b, bs, bs * 4>>>(1024, d, fs); });
        int lg = 0;
        while ((1 << lg) < bs) lg++;
        int reps = 4096 / lg;
        row("tree", bs, 1, reps * lg, [&](int b, long long *d) { tree<<<b, bs, bs * 4>>>(reps, d, fs); });
    }
    for (int bps : {2, 4, 8}) { // 256-thread blocks sharing an SM
        row("tree", 256, bps, 512 * 8, [&](int b, long long *d) { tree<<<b, 256, 1024>>>(512, d, fs); });
        row("bar_only", 256, bps, S, [&](int b, long long *d) { bar_only<<<b, 256>>>(S, d, fs); });
    }
    row("tree", 1024, 2, 409 * 10, [&](int b, long long *d) { tree<<<b, 1024, 4096>>>(409, d, fs); });
    row("tree", 512, 4, 455 * 9, [&](int b, long long *d) { tree<<<b, 512, 2048>>>(455, d, fs); });
    CK(cudaFree(fs));
    CK(cudaFree(us));
    return 0;
}
