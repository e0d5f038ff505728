/* divergent_syncwarp_mask.cu - planted bug (the pattern of compute-sanitizer's own
 * synccheck sample): the mask of lanes 0..15 is built with a ballot, but lanes 0..16 call
 * __syncwarp(mask), so lane 16 executes it without being in its mask (PTX ISA: undefined).
 * Expected: an error at the "planted-mask" line naming lane 16 of warp 0 and the mask
 * 0x0000ffff ('Invalid arguments' in synccheck's words). */

/*@warpscope
kernel  divergent_syncwarp_mask
note    Planted bug: __syncwarp(mask) called by a lane the mask leaves out.
param   N = 32
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   32
args    in, out, N
*/
__global__ void divergent_syncwarp_mask(const float *in, float *out, int n)
{
    __shared__ float s[32];
    int tid = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffffu, tid < 16);
    if (tid <= 16) {
        s[tid] = in[tid];
        __syncwarp(mask);                  /* planted-mask */
        if (tid < n) out[tid] = s[(tid + 1) % 16];
    }
}
