// Divergence, reconvergence and barriers: kernels for tests/test_interp.c.
// Each store writes a distinct region of out, so a test can tell the stores
// apart by address in the memory event stream.

extern "C" __global__ void nested_if(int *out, const int *sel)
{
    int t = threadIdx.x;
    if (sel[t] < 16) {
        out[t] = 1;                                  // lanes 0-15
        if (sel[t] < 8) {
            #pragma unroll 1
            for (int k = 0; k < sel[32 + t]; k++) out[32 + t] += k;   // lanes 0-7
        } else {
            out[64 + t] = 3;                         // lanes 8-15
        }
    } else {
        #pragma unroll 1
        for (int k = 0; k < sel[32 + t]; k++) out[96 + t] += k;       // lanes 16-31
    }
    out[128 + t] = 5;                                // every lane, reconverged
}

extern "C" __global__ void loop_trips(int *out)
{
    int t = threadIdx.x;
    #pragma unroll 1
    for (int k = 0; k < t % 4 + 1; k++) out[k * 32 + t] = k;  // trip count 1..4 by lane
    out[160 + t] = -1;
}

extern "C" __global__ void early_exit(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t % 3 == 0) return;
    out[t] = 1;
    if (t >= n) return;
    out[256 + t] = 2;
}

extern "C" __global__ void barrier_ok(int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t >= 100) return;                            // lanes of the last warp leave: allowed
    s[t] = t;
    __syncthreads();
    out[t] = s[99 - t];
}

extern "C" __global__ void barrier_diverged(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (out[t] > 0) {
        __syncthreads();
    }
    out[t] = s[63 - t];
}

extern "C" __global__ void barrier_exited(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t >= 32) return;                             // warp 1 leaves before the barrier
    s[t] = t;
    __syncthreads();
    out[t] = s[31 - t];
}

extern "C" __global__ void runaway(int *out, const int *flag)
{
    int k = 0;
    while (flag[k & 1] == 0) k++;                    // flag is all zero: never ends
    out[threadIdx.x] = k;
}
