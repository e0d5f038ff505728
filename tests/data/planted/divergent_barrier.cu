/* divergent_barrier.cu - planted bug: __syncthreads() inside a branch that
 * splits a warp. Threads 0..47 take the branch and wait at its barrier;
 * threads 48..63 (the upper half of warp 1) skip it and wait at the barrier
 * after it, so the block never meets at one barrier.
 * Expected: a barrier error at the "planted-barrier" line naming warp 1. */

/*@warpscope
kernel  divergent_barrier
note    Planted bug: a barrier inside a branch taken by only part of warp 1.
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   64
args    in, out, N
*/
__global__ void divergent_barrier(const float *in, float *out, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = in[tid];
    if (tid < 48) {
        s[tid] *= 2.0f;
        __syncthreads();                   /* planted-barrier */
    }
    __syncthreads();
    if (tid < n) out[tid] = s[63 - tid];
}
