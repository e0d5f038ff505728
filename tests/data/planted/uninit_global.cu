/* uninit_global.cu - planted bug: the output buffer is never initialised (the description
 * says init=none, as a cudaMalloc without a cudaMemset would leave it), yet every thread
 * accumulates into it: out[t] += in[t] reads out[t] before anything wrote it.
 * Expected: an uninitialised global read at the "planted-read" line by every thread, the
 * first by thread (0,0,0) of block (0,0,0) at byte 0 of 'out' (initcheck reports the same). */

/*@warpscope
kernel  uninit_global
note    Planted bug: out is never initialised, yet each thread adds into it.
param   N = 256
buffer  in   float  N  init=index
buffer  out  float  N  init=none  output
grid    2
block   128
args    in, out, N
*/
__global__ void uninit_global(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) out[t] += in[t];              /* planted-read */
}
