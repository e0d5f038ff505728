/* same_value_flag.cu - planted non-bug: the "any thread found one" flag. Thread 0 clears a
 * shared flag, a barrier, then every thread whose input is positive stores 1 to it, a barrier,
 * and every thread reads it. No order of the stores of 1 changes what memory holds, so
 * compute-sanitizer's racecheck reports nothing.
 * Expected: no hazard at all; out[t] == 1 for every t (in = index: 255 of each block's 256
 * inputs are positive, all 256 in blocks after the first). scripts/sanitizer-compare.sh
 * expects racecheck to stay clean ("same_value_*"). */

/*@warpscope
kernel  same_value_flag
note    Not a bug: threads store the same value to one shared flag, then sync and read it.
param   N = 1024
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    4            # literal: the sanitizer harness builds its host launch from it (N / 256)
block   256
args    in, out, N
*/
__global__ void same_value_flag(const float *in, float *out, int n)
{
    __shared__ int found;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (t < n && in[t] > 0.0f) found = 1;        /* planted-write */
    __syncthreads();
    if (t < n) out[t] = found;
}
