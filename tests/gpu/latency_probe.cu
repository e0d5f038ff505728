// latency_probe.cu - load latency against load, and issue rate per pipe, for the timing model
// (issue 23: the latency term's DRAM latency under load, the issue term's pipes).
//
// Build: nvcc -O3 -arch=sm_90 -o latency_probe tests/gpu/latency_probe.cu
// Output: CSV on stdout, one row per configuration, columns named in the header lines:
//
//   chase,<level>,<footprint_bytes>,<warps_per_sm>,<lanes>,<loads_per_warp>,<median_ms>,<ns_per_load>,<gbs>
//     A dependent chain per warp through a random cyclic permutation of 128-byte lines: each step
//     loads the line index from lane 0's word (lanes = 32: every lane loads its word of the line,
//     one request of 4 sectors, the whole 128-B line; lanes = 1: one lane, one sector). ns_per_load
//     = time / loads per warp (each warp has exactly one load in flight), i.e. the latency a load sees
//     when warps_per_sm x 132 such chains run at once; gbs = the bytes those loads bring (sectors x 32).
//     level: l1 (footprint within L1, ld.ca), l2 (footprint within L2, ld.cg bypasses L1),
//     dram (footprint 4x the L2, ld.cg).
//   indep,<footprint>,<warps_per_sm>,<loads_in_flight>,...: as chase but each warp keeps K
//     independent chains (K loads in flight per warp): Little's law at higher demand.
//   pipe,<name>,<threads_per_block>,<blocks>,<ops_per_thread>,<median_ms>,<warp_ops_per_clk_per_sm>
//     Independent chains of one instruction kind (8 accumulators per thread, unrolled), at full
//     occupancy; warp instructions per SM cycle at the clock the driver reports (sm clock, MHz, in a
//     "# clock" line). The SASS of each kernel is what ptxas makes of the inline PTX (cuobjdump it).
//
// Every timing is the median of 7 launches after one warm-up, timed with events.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int g_sms, g_clock_khz;

// ---- chases: next[i] holds the next line's index (in 32-word lines); lane 0's word decides.
template <bool CG>
__device__ __forceinline__ unsigned ld_word(const unsigned *p) {
    unsigned v;
    if (CG) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    else asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

template <bool CG, int K>
__global__ void chase(const unsigned *lines, unsigned nlines, int steps, int lanes, unsigned *sink) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    unsigned cur[K];
#pragma unroll
    for (int k = 0; k < K; k++) cur[k] = (unsigned)((warp * 7919u + k * 104729u) % nlines);
    unsigned acc = 0;
    for (int s = 0; s < steps; s++) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            unsigned v = 0;
            if (lane < lanes) v = ld_word<CG>(lines + (size_t)cur[k] * 32 + lane);
            acc += v;
            cur[k] = __shfl_sync(0xffffffffu, v, 0);
        }
    }
    if (acc == 0xdeadbeefu) sink[0] = acc;
}

static std::vector<unsigned> make_cycle(unsigned nlines) {
    std::vector<unsigned> order(nlines);
    for (unsigned i = 0; i < nlines; i++) order[i] = i;
    std::mt19937 rng(12345);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<unsigned> words((size_t)nlines * 32);
    for (unsigned i = 0; i < nlines; i++) {
        unsigned from = order[i], to = order[(i + 1) % nlines];
        for (int w = 0; w < 32; w++) words[(size_t)from * 32 + w] = to;
    }
    return words;
}

template <typename F>
static float median_ms(F launch) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 7; r++) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return t[3];
}

template <bool CG, int K>
static void run_chase(const char *kind, const char *level, unsigned *d, unsigned nlines, size_t bytes,
                      int warps_per_sm, int lanes, unsigned *sink) {
    // one block of warps_per_sm warps per SM (64 warps = 2048 threads: two blocks of 1024)
    int threads = warps_per_sm * 32, blocks = g_sms;
    if (threads > 1024) { threads = 1024; blocks = g_sms * (warps_per_sm / 32); }
    // steps so that each launch moves enough to last >= ~2 ms at the expected latency
    int steps = level[1] == '1' ? 4000 : 1500;
    if (level[0] == 'd') steps = 600;
    float ms = median_ms([&] { chase<CG, K><<<blocks, threads>>>(d, nlines, steps, lanes, sink); });
    CK(cudaGetLastError());
    double loads = (double)steps * K;                 // per warp, K chains
    double ns = ms * 1e6 / steps;                     // per step: each chain's load latency
    int sectors = lanes == 32 ? 4 : 1;
    double total = (double)blocks * threads / 32 * loads * sectors * 32;
    printf("%s,%s,%zu,%d,%d,%d,%.4f,%.2f,%.1f\n", kind, level, bytes, warps_per_sm, lanes, K, ms, ns,
           total / (ms * 1e6));
    fflush(stdout);
}

// ---- pipes: 8 independent accumulators per thread, OPS iterations of 8 instructions
// Each accumulator takes the next one as its operand, so ptxas can neither fold repeated operations
// on a loop-invariant value nor hoist them (it did both with one shared operand).
#define PIPE_KERNEL(NAME, TYPE, INIT, ASM, CONS)                                                   \
    __global__ void pipe_##NAME(TYPE *out, int iters, TYPE seed) {                                 \
        TYPE a0 = seed + (TYPE)INIT, a1 = a0 + (TYPE)1, a2 = a0 + (TYPE)2, a3 = a0 + (TYPE)3;     \
        TYPE a4 = a0 + (TYPE)4, a5 = a0 + (TYPE)5, a6 = a0 + (TYPE)6, a7 = a0 + (TYPE)7;          \
        for (int i = 0; i < iters; i++) {                                                          \
            asm volatile(ASM : "+" CONS(a0) : CONS(a1)); asm volatile(ASM : "+" CONS(a1) : CONS(a2)); \
            asm volatile(ASM : "+" CONS(a2) : CONS(a3)); asm volatile(ASM : "+" CONS(a3) : CONS(a4)); \
            asm volatile(ASM : "+" CONS(a4) : CONS(a5)); asm volatile(ASM : "+" CONS(a5) : CONS(a6)); \
            asm volatile(ASM : "+" CONS(a6) : CONS(a7)); asm volatile(ASM : "+" CONS(a7) : CONS(a0)); \
        }                                                                                          \
        out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;        \
    }
#define R(x) "r"(x)
#define F(x) "f"(x)
#define D(x) "d"(x)
PIPE_KERNEL(iadd, unsigned, 1, "add.u32 %0, %0, %1;", R)
PIPE_KERNEL(xor, unsigned, 1, "xor.b32 %0, %0, %1;", R)
PIPE_KERNEL(shl, unsigned, 1, "shf.l.wrap.b32 %0, %0, %0, %1;", R)
PIPE_KERNEL(imul, unsigned, 1, "mul.lo.u32 %0, %0, %1;", R)
PIPE_KERNEL(imad, unsigned, 1, "mad.lo.u32 %0, %0, %1, %1;", R)
PIPE_KERNEL(fadd, float, 1, "add.f32 %0, %0, %1;", F)
PIPE_KERNEL(ffma, float, 1, "fma.rn.f32 %0, %0, %1, %1;", F)
PIPE_KERNEL(ex2, float, 0.5f, "ex2.approx.ftz.f32 %0, %0;", F)
PIPE_KERNEL(rsqrt, float, 1, "rsqrt.approx.ftz.f32 %0, %0;", F)
PIPE_KERNEL(dfma, double, 1, "fma.rn.f64 %0, %0, %1, %1;", D)
PIPE_KERNEL(cvt_f2i, unsigned, 1, "{ .reg .f32 t; cvt.rn.f32.u32 t, %0; cvt.rni.u32.f32 %0, t; }\n\tadd.u32 %0, %0, %1;", R)

static bool g_once;  // argv[1] == "pipes-once": one launch of each pipe kernel, for ncu

template <typename T>
static void run_pipe(const char *name, void (*k)(T *, int, T), T *out, int per_inst) {
    int threads = 1024, blocks = g_sms * 2, iters = 16384;
    if (g_once) {
        k<<<blocks, threads>>>(out, iters, (T)1);
        CK(cudaDeviceSynchronize());
        return;
    }
    float ms = median_ms([&] { k<<<blocks, threads>>>(out, iters, (T)1); });
    CK(cudaGetLastError());
    double warp_inst = (double)blocks * threads / 32 * iters * 8 * per_inst;
    double cycles = ms * 1e-3 * g_clock_khz * 1e3;
    printf("pipe,%s,%d,%d,%d,%.4f,%.3f\n", name, threads, blocks, iters * 8 * per_inst, ms,
           warp_inst / g_sms / cycles);
    fflush(stdout);
}

int main(int argc, char **argv) {
    g_once = argc > 1 && !strcmp(argv[1], "pipes-once");
    CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&g_clock_khz, cudaDevAttrClockRate, 0));
    int l2;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    printf("# sms %d, clock %d kHz, l2 %d bytes\n", g_sms, g_clock_khz, l2);
    printf("# chase,level,footprint_bytes,warps_per_sm,lanes,chains_per_warp,median_ms,ns_per_step,gbs\n");
    unsigned *sink;
    CK(cudaMalloc(&sink, 4));
    if (!g_once) {
    struct { const char *level; size_t bytes; } levels[] = {
        {"l1", 64 << 10}, {"l2", 16u << 20}, {"dram", (size_t)4 * l2 * 4}};
    int warps[] = {1, 2, 4, 8, 16, 32, 64};
    for (auto &lv : levels) {
        unsigned nlines = (unsigned)(lv.bytes / 128);
        std::vector<unsigned> h = make_cycle(nlines);
        unsigned *d;
        CK(cudaMalloc(&d, lv.bytes));
        CK(cudaMemcpy(d, h.data(), lv.bytes, cudaMemcpyHostToDevice));
        for (int lanes : {32, 1})
            for (int w : warps) {
                if (lv.level[1] == '1') run_chase<false, 1>("chase", lv.level, d, nlines, lv.bytes, w, lanes, sink);
                else run_chase<true, 1>("chase", lv.level, d, nlines, lv.bytes, w, lanes, sink);
            }
        if (lv.level[0] == 'd')
            for (int w : warps) {
                run_chase<true, 4>("indep4", lv.level, d, nlines, lv.bytes, w, 32, sink);
                run_chase<true, 8>("indep8", lv.level, d, nlines, lv.bytes, w, 32, sink);
            }
        CK(cudaFree(d));
    }
    }
    printf("# pipe,name,threads,blocks,insts_per_thread,median_ms,warp_inst_per_clk_per_sm\n");
    unsigned *ou;
    float *of;
    double *od;
    CK(cudaMalloc(&ou, (size_t)g_sms * 2 * 1024 * 8));
    of = (float *)ou;
    od = (double *)ou;
    run_pipe<unsigned>("iadd", pipe_iadd, ou, 1);
    run_pipe<unsigned>("xor", pipe_xor, ou, 1);
    run_pipe<unsigned>("shf", pipe_shl, ou, 1);
    run_pipe<unsigned>("imul", pipe_imul, ou, 1);
    run_pipe<unsigned>("imad", pipe_imad, ou, 1);
    run_pipe<float>("fadd", pipe_fadd, of, 1);
    run_pipe<float>("ffma", pipe_ffma, of, 1);
    run_pipe<float>("ex2", pipe_ex2, of, 1);
    run_pipe<float>("rsqrt", pipe_rsqrt, of, 1);
    run_pipe<double>("dfma", pipe_dfma, od, 1);
    run_pipe<unsigned>("cvt2+iadd", pipe_cvt_f2i, ou, 3);
    return 0;
}
