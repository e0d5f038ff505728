// Warp-level operations and atomics: kernels for tests/test_interp.c.

extern "C" __global__ void shuffles(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    out[t] = __shfl_down_sync(0xffffffffu, v, 3);          // lanes 29-31 keep their own
    out[32 + t] = __shfl_up_sync(0xffffffffu, v, 5);       // lanes 0-4 keep their own
    out[64 + t] = __shfl_xor_sync(0xffffffffu, v, 9);
    out[96 + t] = __shfl_sync(0xffffffffu, v, (in[t] * 3) & 7, 8); // width 8: index inside the segment
    out[128 + t] = __shfl_down_sync(0xffffffffu, v, 2, 16);  // width 16: clamps at the half-warp end
}

extern "C" __global__ void votes(const int *in, unsigned *out)
{
    int t = threadIdx.x;
    int v = in[t];
    out[t] = __ballot_sync(0xffffffffu, v > 10);
    out[32 + t] = __all_sync(0xffffffffu, v >= 0);
    out[64 + t] = __any_sync(0xffffffffu, v > 30);
    out[96 + t] = __activemask();
    if (t < 20) out[128 + t] = __activemask();
}

extern "C" __global__ void warp_reduce(const float *in, float *out)
{
    float v = in[blockIdx.x * 32 + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

extern "C" __global__ void atomics(int *ci, float *cf, unsigned *cu, int *cas_out, double *cd)
{
    __shared__ int s;
    int t = threadIdx.x;
    if (t == 0) s = 0;
    __syncthreads();
    atomicAdd(&ci[0], t);
    atomicMax(&ci[1], t * 7 % 61);
    atomicMin(&ci[2], 37 - t);
    atomicAdd(&cf[0], 0.5f);
    atomicInc(&cu[0], 9u);
    atomicOr(&cu[1], 1u << (t % 32));
    atomicAdd(&s, 2);
    cas_out[t] = atomicCAS(&ci[3], t, t + 1);      // only the lane that sees its own t wins, in order
    atomicAdd(&cd[0], 0.25);
    int old = atomicExch(&ci[4], t);
    cas_out[64 + t] = old;
    __syncthreads();
    if (t == 0) ci[5] = s;
}
