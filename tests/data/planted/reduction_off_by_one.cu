/* reduction_off_by_one.cu - planted bug: a shared-memory tree reduction whose
 * guard is `tid <= s` instead of `tid < s`. In the first step (s = 128) thread
 * 128 reads sdata[256], one element past the 256-float array (shared offset
 * 1024 = the end of the block's 1024 bytes), and every step thread s writes
 * sdata[s] while thread 0 reads it: a WAR race between warps.
 * Expected: a shared out-of-bounds load by thread 128 (warp 4 lane 0) at the
 * "planted-read" line; with memory errors as warnings, WAR hazards there too. */

/*@warpscope
kernel  reduction_off_by_one
note    Planted bug: `tid <= s` reads one past the shared array and races.
param   N = 1024
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    4
block   256
args    in, out, N
*/
__global__ void reduction_off_by_one(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid <= s)                        /* the bug: should be tid < s */
            sdata[tid] += sdata[tid + s];    /* planted-read */
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
