/* uninit_shared.cu - planted bug: only the first warp fills the shared array,
 * but every thread reads its mirror element, so threads 0..31 read
 * s[63..32], which nobody wrote (the simulator poisons shared memory).
 * Expected: an uninitialised shared read at the "planted-read" line by thread
 * t < 32 of s[63 - t]. */

/*@warpscope
kernel  uninit_shared
note    Planted bug: the upper half of the shared array is read but never written.
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   64
args    in, out, N
*/
__global__ void uninit_shared(const float *in, float *out, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    if (tid < 32) s[tid] = in[tid];        /* the bug: threads 32..63 write nothing */
    __syncthreads();
    if (tid < n) out[tid] = s[63 - tid];   /* planted-read */
}
