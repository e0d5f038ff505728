// Memory spaces, bounds and layout: kernels for tests/test_interp.c.

extern "C" __global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void poison_read(unsigned *out)
{
    __shared__ unsigned s[64];
    int t = threadIdx.x;
    out[t] = s[t];                                   // read before any write
    s[t] = t;
}

extern "C" __global__ void ids3d(int *out)
{
    int lin = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    int b = blockIdx.x + blockIdx.y * gridDim.x;
    int lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[b * 256 + lin] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | lane << 24;
}

extern "C" __global__ void local_array(const int *in, int *out)
{
    int a[16];
    int t = threadIdx.x;
    #pragma unroll
    for (int i = 0; i < 16; i++) a[i] = in[i] * t;
    out[t] = a[in[16 + t] & 15];
}

extern "C" __global__ void dyn_shared(const float *in, float *out)
{
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    dyn[t] = in[t];
    __syncthreads();
    out[t] = dyn[blockDim.x - 1 - t];
}

extern "C" __global__ void vec4_copy(const float4 *in, float4 *out)
{
    int t = threadIdx.x;
    float4 v = in[t];
    out[t] = make_float4(v.w, v.z, v.y, v.x);
}

extern "C" __global__ void misaligned(const char *in, float *out)
{
    int t = threadIdx.x;
    out[t] = *(const float *)(in + 4 * t + 2);
}

extern "C" __global__ void shared_oob(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;                                        // threads 32.. write past the array
    __syncthreads();
    out[t] = s[t & 31];
}
