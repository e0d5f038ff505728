/* divergent_shfl_mask.cu - planted bug: a full-warp shuffle, __shfl_down_sync(0xffffffff,
 * ...), inside a branch that only the lower half of each warp takes. The mask names lanes
 * 16..31, which never execute it: on sm_70 and newer the shuffle waits for them (PTX ISA:
 * undefined), and the values read from them are undefined.
 * Expected: an error at the "planted-mask" line naming lane 0 of warp 0 and lanes
 * 0xffff0000 as absent. */

/*@warpscope
kernel  divergent_shfl_mask
note    Planted bug: a full-mask __shfl_down_sync executed by half of each warp.
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   64
args    in, out, N
*/
__global__ void divergent_shfl_mask(const float *in, float *out, int n)
{
    int tid = threadIdx.x;
    float v = in[tid];
    if (tid % 32 < 16)
        v += __shfl_down_sync(0xffffffffu, v, 16);   /* planted-mask */
    if (tid < n) out[tid] = v;
}
