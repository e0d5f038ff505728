// shared.cu - shared memory kernels: padded transpose, a reduction ending in
// warp shuffles, dynamic shared memory and a dynamically indexed local array.
#define TILE 32

__global__ void transpose_padded(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void __launch_bounds__(256) reduce_shfl(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    __shared__ int flag;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = sum;
    if (threadIdx.x == 0) flag = __any_sync(0xffffffffu, sum > 100.0f);
    __syncthreads();
    if (warp == 0) {
        sum = lane < (blockDim.x >> 5) ? partial[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            sum += __shfl_xor_sync(0xffffffffu, sum, off);
        unsigned b = __ballot_sync(0xffffffffu, sum > 0.0f);
        if (lane == 0) atomicAdd(out, sum + (float)__popc(b) * 0.0f + (float)flag);
    }
}

__global__ void dyn_shared(const double *in, double *out, int n)
{
    extern __shared__ double buf[];
    __shared__ int tag;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) tag = n;
    buf[threadIdx.x] = i < n ? in[i] : 0.0;
    __syncthreads();
    if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x] + tag;
}

__global__ void local_array(const int *idx, float *out, int n)
{
    float a[16];
    for (int k = 0; k < 16; k++) a[k] = k * 0.5f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[idx[i] & 15];
}

__device__ __noinline__ float helper(float a, float b) { return a * b + sinf(a); }

__global__ void calls_helper(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = helper(out[i], (float)i / n);
    __syncwarp();
}
