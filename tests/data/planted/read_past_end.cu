/* read_past_end.cu - planted bug: a two-point stencil guarded by i < n that
 * still reads in[i + 1], so the last thread (i = n - 1) reads in[n], the 4
 * bytes just past the end of the buffer.
 * Expected: a global out-of-bounds load at the "planted-read" line by the
 * thread with i = n - 1 = 999: block 3, thread 231 (warp 7 lane 7). */

/*@warpscope
kernel  read_past_end
note    Planted bug: in[i + 1] for i = n - 1 reads past the end of in.
param   N = 1000
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    4
block   256
args    in, out, N
*/
__global__ void read_past_end(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 0.5f * (in[i] + in[i + 1]);   /* planted-read */
}
