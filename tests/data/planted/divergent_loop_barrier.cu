/* divergent_loop_barrier.cu - planted bug: __syncthreads() in a loop whose trip count
 * depends on the warp (warp w runs w + 1 rounds), with another __syncthreads() after it.
 * The GPU lets barrier 0 complete whenever every warp waits at some barrier 0, so the
 * warps pair up different rounds and the block runs on out of step. nvcc unrolls the loop
 * by 4 behind a remainder loop: warps 0..2 (1..3 rounds) meet the remainder's copy of the
 * barrier and warp 3 (4 rounds) the unrolled copy, already in the first round.
 * Expected: a barrier error (divergent threads in block) at the "planted-barrier" line,
 * naming warps 0-2 and warp 3 at two PTX lines of it. */

/*@warpscope
kernel  divergent_loop_barrier
note    Planted bug: __syncthreads() in a loop whose trip count differs by warp.
param   N = 128
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   128
args    in, out, N
*/
__global__ void divergent_loop_barrier(const float *in, float *out, int n)
{
    __shared__ float s[128];
    int tid = threadIdx.x, warp = tid / 32;
    s[tid] = in[tid];
    for (int i = 0; i <= warp; i++) {
        s[tid] += 1.0f;
        __syncthreads();                   /* planted-barrier */
    }
    __syncthreads();                       /* after-loop */
    if (tid < n) out[tid] = s[127 - tid];
}
