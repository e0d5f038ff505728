/* warp_sync_reduce_fixed.cu - the fixed twin of warp_sync_reduce.cu: each unrolled step
 * reads into a register, __syncwarp(), stores, __syncwarp() (NVIDIA, "Using CUDA Warp-Level
 * Primitives"), so every read of another lane's element is ordered after that lane's store
 * and before its next one.
 * Expected: no hazard at all (warpscope and compute-sanitizer racecheck: 0 hazards). */

/*@warpscope
kernel  warp_sync_reduce_fixed
note    Not a bug: the last warp's unrolled reduction with __syncwarp() between each read and write.
param   N = 1024
buffer  in   float  N      init=index
buffer  out  float  N/256  init=zero  output
grid    4
block   256
args    in, out, N
*/
__global__ void warp_sync_reduce_fixed(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid];
        v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp();
        v += sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp();   /* planted-read */
        v += sdata[tid + 8];  __syncwarp(); sdata[tid] = v; __syncwarp();
        v += sdata[tid + 4];  __syncwarp(); sdata[tid] = v; __syncwarp();
        v += sdata[tid + 2];  __syncwarp(); sdata[tid] = v; __syncwarp();
        v += sdata[tid + 1];  __syncwarp(); sdata[tid] = v;
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
