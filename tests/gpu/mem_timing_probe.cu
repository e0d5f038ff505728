// mem_timing_probe.cu - runs a few catalog kernels at the sizes docs/timing-model.md compares
// with the simulator: median event time over N launches with L2 flushed (256 MB memset) before
// each. Build and run on a GPU machine from the repository root:
//   nvcc -arch=sm_90 -O2 -std=c++17 -o probe tests/gpu/mem_timing_probe.cu && ./probe 20
//   ncu --csv --print-units base --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,
//       lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum ./probe 1
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "../../demos/coalescing.cu"
#include "../../demos/transpose.cu"
#define CK(x) do { cudaError_t e = (x); if (e) { printf("cuda error %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
static float *buf(size_t n) { float *p; CK(cudaMalloc(&p, n * 4)); CK(cudaMemset(p, 0, n * 4)); return p; }
template <class F> static void timeit(const char *name, F launch, int reps) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> t;
    float *flush = buf(64 << 20); // 256 MB to flush L2
    for (int i = 0; i < reps; i++) {
        CK(cudaMemset(flush, i, 256u << 20));
        cudaEventRecord(a); launch(); cudaEventRecord(b); CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    printf("TIME %s median_us=%.2f min_us=%.2f\n", name, t[t.size() / 2], t[0]);
    cudaFree(flush);
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    int N = 1 << 20;
    float *i1 = buf(N), *o1 = buf(N);
    timeit("copy_float", [&] { copy_float<<<N / 256, 256>>>(i1, o1, N); }, reps);
    int n = 1 << 18;
    for (int s : {2, 8, 32}) {
        float *a = buf((size_t)n * s), *b = buf((size_t)n * s);
        char nm[32]; snprintf(nm, 32, "stride_copy_s%d", s);
        timeit(nm, [&] { stride_copy<<<n / 256, 256>>>(a, b, n, s); }, reps);
        cudaFree(a); cudaFree(b);
    }
    int W = 4096, H = 4096;
    float *ti = buf((size_t)W * H), *to = buf((size_t)W * H);
    dim3 g(W / 32, H / 32), bl(32, 32);
    timeit("copy_32x32_4096", [&] { copy_32x32<<<g, bl>>>(ti, to, W, H); }, reps);
    timeit("transpose_naive_4096", [&] { transpose_naive<<<g, bl>>>(ti, to, W, H); }, reps);
    timeit("transpose_coalesced_4096", [&] { transpose_coalesced<<<g, bl>>>(ti, to, W, H); }, reps);
    timeit("transpose_padded_4096", [&] { transpose_padded<<<g, bl>>>(ti, to, W, H); }, reps);
    CK(cudaDeviceSynchronize());
    return 0;
}
