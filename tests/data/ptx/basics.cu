// basics.cu - small kernels whose PTX exercises the parser: global loads and
// stores of several widths, vector loads, doubles, chars, const memory, atomics.
__constant__ float coeffs[4] = {1.0f, 2.0f, 0.5f, -3.25f};
__device__ int counter;

__global__ void copy_float(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void strided(const float *__restrict__ in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i * stride < n)
        out[i] = in[i * stride] * coeffs[i & 3];
}

__global__ void copy_float4(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        v.x += 1.5f;
        out[i] = v;
    }
}

__global__ void widths(const char *c, const short *s, const double *d, char *oc, short *os,
                       double *od, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) {
        oc[i] = c[i] + 1;
        os[i] = s[i] * 3;
        od[i] = d[i] * 0.25 + 1e-3;
    }
}

__global__ void histogram(const unsigned *data, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[data[i] % 64], 1u);
        atomicMax((int *)&bins[64], (int)data[i]);
        unsigned old = atomicCAS(&bins[65], 0u, data[i]);
        if (old == 7u) atomicAdd(&counter, 1);
    }
}
