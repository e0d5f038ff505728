/* l2dram_probe.cu - one kernel launch per run, for ncu to count what L2 and DRAM see
 * (scripts/gpu-l2dram.sh). Each mode isolates one mechanism of sim/models/cache.h:
 *
 *   write BYTES           float4 stores covering BYTES (full sectors, write-only): how much of
 *                         a dirty output is written back while the kernel runs (dram__bytes_write)
 *   copy BYTES            float4 copy of BYTES (reads and writes compete for the L2)
 *   partial BYTES STRIDE  one 4-byte store every STRIDE bytes of a BYTES output (partial sectors:
 *                         the ECC read before a write-back, and when those write-backs happen)
 *   local WORDS ITERS     a per-thread array of WORDS ints updated ITERS times at run-time indices
 *                         (local memory: L1 caching, write-back to L2/DRAM); 2^20 threads
 *   code K                a kernel of about K x 16 bytes of SASS (K unrolled dependent FMAs, one
 *                         store): the launch's instruction fetches (dram__bytes_read)
 *
 * Grid: 1024 threads per block, as many blocks as the mode needs (grid-stride for write/copy).
 * Prints one line "mode bytes stride ok" after checking the output. No clocks are changed. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "probe_check.h"

__global__ void k_write(float4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = make_float4((float)i, 1.f, 2.f, 3.f);
}

__global__ void k_copy(const float4 *in, float4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

/* one 4-byte word every `stride` bytes */
__global__ void k_partial(unsigned *out, size_t n, size_t stride_words)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i * stride_words] = (unsigned)i;
}

template <int WORDS>
__global__ void k_local(const unsigned *seed, unsigned *out, int iters)
{
    unsigned a[WORDS];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (int k = 0; k < WORDS; k++)
        a[k] = 0;
    unsigned h = seed[i];
    for (int k = 0; k < iters; k++) {
        h = h * 1664525u + 1013904223u;
        a[h % WORDS] += k + 1; /* run-time index: the array lives in local memory */
    }
    out[i] = a[h % WORDS];
}

template <int K>
__global__ void k_code(float *out, float x)
{
    float v = x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < K; k++)
        v = v * 1.0001f + (float)k; /* a dependent chain ptxas cannot fold */
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

static void usage(void)
{
    fprintf(stderr, "usage: l2dram_probe write|copy BYTES | partial BYTES STRIDE | local WORDS ITERS | code K\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage();
    const char *mode = argv[1];
    size_t a = strtoull(argv[2], 0, 0), b = argc > 3 ? strtoull(argv[3], 0, 0) : 0;
    int ok = 1;
    if (!strcmp(mode, "write") || !strcmp(mode, "copy")) {
        size_t n = a / sizeof(float4);
        float4 *in = 0, *out;
        CHECK(cudaMalloc(&out, a));
        CHECK(cudaMemset(out, 0, a));
        if (!strcmp(mode, "copy")) {
            CHECK(cudaMalloc(&in, a));
            CHECK(cudaMemset(in, 0, a));
        }
        CHECK(cudaDeviceSynchronize());
        if (in)
            k_copy<<<132 * 16, 1024>>>(in, out, n);
        else
            k_write<<<132 * 16, 1024>>>(out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        float4 last;
        CHECK(cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost));
        ok = in ? last.x == 0.f : last.x == (float)(n - 1);
    } else if (!strcmp(mode, "partial")) {
        if (b < 4 || b % 4)
            usage();
        size_t n = a / b;
        unsigned *out;
        CHECK(cudaMalloc(&out, a));
        CHECK(cudaMemset(out, 0, a));
        CHECK(cudaDeviceSynchronize());
        k_partial<<<(unsigned)((n + 1023) / 1024), 1024>>>(out, n, b / 4);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        unsigned last;
        CHECK(cudaMemcpy(&last, out + (n - 1) * (b / 4), sizeof last, cudaMemcpyDeviceToHost));
        ok = last == (unsigned)(n - 1);
    } else if (!strcmp(mode, "local")) {
        size_t n = 1u << 20;
        unsigned *seed, *out;
        CHECK(cudaMalloc(&seed, n * 4));
        CHECK(cudaMalloc(&out, n * 4));
        CHECK(cudaMemset(seed, 7, n * 4));
        CHECK(cudaDeviceSynchronize());
        int iters = (int)b;
        if (a == 16) k_local<16><<<n / 1024, 1024>>>(seed, out, iters);
        else if (a == 64) k_local<64><<<n / 1024, 1024>>>(seed, out, iters);
        else if (a == 256) k_local<256><<<n / 1024, 1024>>>(seed, out, iters);
        else usage();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    } else if (!strcmp(mode, "code")) {
        float *out;
        CHECK(cudaMalloc(&out, 4096));
        if (a == 0) k_code<0><<<1, 32>>>(out, 1.f);
        else if (a == 64) k_code<64><<<1, 32>>>(out, 1.f);
        else if (a == 256) k_code<256><<<1, 32>>>(out, 1.f);
        else if (a == 1024) k_code<1024><<<1, 32>>>(out, 1.f);
        else usage();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    } else {
        usage();
    }
    printf("%s %zu %zu %s\n", mode, a, b, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
