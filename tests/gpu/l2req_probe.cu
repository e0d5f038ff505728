/* l2req_probe.cu - what an L2 read request and an L2 atomic cost by their pattern (issue 23: the
 * remaining L2-bound and atomics time misses; scripts/gpu-l2req.sh runs it under ncu).
 *
 * Why: gather_random (1.06 M one-sector L2 read requests) ran at ~62 requests per SM cycle on the
 * H200 where the model charges 35 (fitted on the naive transpose's stores, which now have their own
 * write term); tests/gpu/local_probe.cu's L2-resident reads ran at 78. Whether a request that
 * misses L2 costs more is not measured. atomic_per_warp (one word per warp, warps 4 B apart) ran
 * 1.9x slower than the whole-L2 atomic rate says, and 1.6x slower than the same with warps 128 B
 * apart: is it the lines many warps share, or the few L2 slices the warps in flight at one time
 * touch (a window of consecutive words)? atomic_32_bins (lane % 32: one line) runs at one L2
 * cycle per sector-op where hashed bins take 1.25: is it the even spread of lanes over words?
 *
 *   gather N WINDOW        out[i] = in[idx[i]], idx random in [0, WINDOW) (the catalog's gather)
 *   ghash N WINDOW         out[i] = in[hash(i) % WINDOW]: the same one-sector reads, no idx stream
 *   warp N SPACING PERM SMEM   atomicAdd(&buf[slot * SPACING], 1), slot = the thread's warp (PERM=0)
 *                          or a bijective hash of it (PERM=1: neighbours in flight scattered);
 *                          SMEM bytes of dynamic shared memory per block (limits blocks per SM)
 *   bins N MODE            32-lane RED patterns on few words: 0 lane % 32 (one line), 1 (lane + warp)
 *                          % 32, 2 lane ^ (warp % 32) (each word once, per-warp order), 3 lane % 16,
 *                          4 hash(i) % 32, 5 word 32 x lane (32 lines, one word each), 6 hash(i) % 16
 *
 * 256-thread blocks everywhere. Prints one line "... ok" after the launch. No clocks are changed. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "probe_check.h"

__host__ __device__ static inline unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void k_gather(const unsigned *in, const unsigned *idx, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

__global__ void k_ghash(const unsigned *in, unsigned *out, unsigned n, unsigned window)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[mix(i) % window];
}

__global__ void k_warp(unsigned *buf, unsigned n, unsigned spacing, unsigned perm, unsigned warps_mask)
{
    extern __shared__ unsigned pad[];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned w = i / 32u;
        /* an odd multiplier is a bijection mod 2^k: every slot still gets one warp */
        unsigned slot = perm ? (w * 0x9E3779B1u) & warps_mask : w;
        atomicAdd(&buf[(size_t)slot * spacing], 1u);
    }
    if (n == 0)
        pad[threadIdx.x] = 0; /* keeps the dynamic shared memory (never true) */
}

__global__ void k_bins(unsigned *bins, unsigned n, int mode)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned lane = i % 32u, w = i / 32u, word;
    switch (mode) {
    case 0: word = lane; break;
    case 1: word = (lane + w) % 32u; break;
    case 2: word = lane ^ (w % 32u); break;
    case 3: word = lane % 16u; break;
    case 4: word = mix(i) % 32u; break;
    case 5: word = lane * 32u; break;
    default: word = mix(i) % 16u; break;
    }
    atomicAdd(&bins[word], 1u);
}

static void usage(void)
{
    fprintf(stderr, "usage: l2req_probe gather|ghash N WINDOW | warp N SPACING PERM SMEM | bins N MODE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        usage();
    const char *mode = argv[1];
    unsigned n = (unsigned)strtoul(argv[2], NULL, 0);
    unsigned blocks = (n + 255) / 256;
    if (n < 256)
        usage();
    if (!strcmp(mode, "gather") || !strcmp(mode, "ghash")) {
        unsigned window = (unsigned)strtoul(argv[3], NULL, 0);
        if (window < 1)
            usage();
        unsigned *in, *idx = NULL, *out;
        CHECK(cudaMalloc(&in, (size_t)window * 4));
        CHECK(cudaMalloc(&out, (size_t)n * 4));
        CHECK(cudaMemset(in, 1, (size_t)window * 4));
        if (mode[1] == 'a') {
            unsigned *h = (unsigned *)malloc((size_t)n * 4);
            for (unsigned i = 0; i < n; i++)
                h[i] = mix(i * 2654435761u + 7u) % window;
            CHECK(cudaMalloc(&idx, (size_t)n * 4));
            CHECK(cudaMemcpy(idx, h, (size_t)n * 4, cudaMemcpyHostToDevice));
            free(h);
        }
        CHECK(cudaDeviceSynchronize());
        if (idx)
            k_gather<<<blocks, 256>>>(in, idx, out, n);
        else
            k_ghash<<<blocks, 256>>>(in, out, n, window);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("%s %u %u ok\n", mode, n, window);
    } else if (!strcmp(mode, "warp")) {
        if (argc < 6)
            usage();
        unsigned spacing = (unsigned)strtoul(argv[3], NULL, 0), perm = (unsigned)atoi(argv[4]);
        int smem = atoi(argv[5]);
        unsigned warps = n / 32u;
        if (spacing < 1 || (warps & (warps - 1)) || smem < 0)
            usage();
        unsigned *buf;
        CHECK(cudaMalloc(&buf, (size_t)warps * spacing * 4));
        CHECK(cudaMemset(buf, 0, (size_t)warps * spacing * 4));
        if (smem > 48 * 1024)
            CHECK(cudaFuncSetAttribute(k_warp, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CHECK(cudaDeviceSynchronize());
        k_warp<<<blocks, 256, smem>>>(buf, n, spacing, perm, warps - 1);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("warp %u %u %u %d ok\n", n, spacing, perm, smem);
    } else if (!strcmp(mode, "bins")) {
        int m = atoi(argv[3]);
        unsigned *bins;
        CHECK(cudaMalloc(&bins, 32 * 32 * 4));
        CHECK(cudaMemset(bins, 0, 32 * 32 * 4));
        CHECK(cudaDeviceSynchronize());
        k_bins<<<blocks, 256>>>(bins, n, m);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("bins %u %d ok\n", n, m);
    } else
        usage();
    return 0;
}
