/* warp_sync_reduce.cu - planted bug: the classic reduction's last-warp unroll written for
 * lockstep warps, with neither volatile nor __syncwarp(). Lane t adds sdata[t + s] into
 * sdata[t] for s = 32, 16, ... 1, while lane t + s of the same warp writes sdata[t + s]
 * itself: no __syncwarp() orders a lane's read of another lane's element with that lane's
 * write, and since Volta the lanes need not run in lockstep. Without volatile the compiler
 * may also keep sdata[t] in a register and store it once, so lane t reads sdata[t + 16]
 * before lane t + 16 has added into it: a wrong sum on any GPU.
 * Expected: warp-level hazards (compute-sanitizer racecheck: "(Warp Level Programming)
 * Potential ... hazard") between lanes of warp 0 of each block at the unrolled lines;
 * warp_sync_reduce_fixed.cu is the same kernel with __syncwarp() and reports nothing. */

/*@warpscope
kernel  warp_sync_reduce
note    Planted bug: the last warp's unrolled reduction reads other lanes' sums with no __syncwarp (and no volatile).
param   N = 1024
buffer  in   float  N      init=index
buffer  out  float  N/256  init=zero  output
grid    4
block   256
args    in, out, N
*/
__global__ void warp_sync_reduce(const float *in, float *out, int n)
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
    if (tid < 32) {                          /* the last warp, assumed to run in lockstep */
        sdata[tid] += sdata[tid + 32];
        sdata[tid] += sdata[tid + 16];       /* planted-read */
        sdata[tid] += sdata[tid + 8];
        sdata[tid] += sdata[tid + 4];
        sdata[tid] += sdata[tid + 2];
        sdata[tid] += sdata[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
