extern "C" __global__ void copy_f(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
__global__ void shared_sum4(const float *in, float *out) {
    __shared__ float t[1024];
    int i = threadIdx.x;
    t[i] = in[blockIdx.x * 1024 + i];
    __syncthreads();
    int b = (i & 255) * 4;
    out[blockIdx.x * 256 + (i & 255)] = t[b] + t[b + 1] + t[b + 2] + t[b + 3];
}
__global__ void local_idx(const int *idx, float *out) {
    float a[16];
    for (int k = 0; k < 16; k++) a[k] = k * 1.5f + threadIdx.x;
    out[threadIdx.x] = a[idx[threadIdx.x] & 15];
}
__global__ void atomics(float *acc, const unsigned char *c, short *s) {
    __shared__ int h[32];
    h[threadIdx.x & 31] = 0;
    __syncthreads();
    atomicAdd(&h[c[threadIdx.x] & 31], 1);
    atomicAdd(acc, 1.0f);
    s[threadIdx.x] = (short)h[threadIdx.x & 31];
}
