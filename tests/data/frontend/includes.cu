// includes.cu - a kernel that needs the toolkit's own headers: half and bfloat16 types and
// cooperative groups. NVRTC compiles it only when given the CUDA and CCCL include folders
// (ptxgen does that), so this file checks the default compile path needs no nvcc.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/*@warpscope
kernel  widen
note    out[i] = float(h[i]) + float(b[i]): half and bf16 buffers read as the GPU reads them.
param   N = 256
buffer  h    half   N  init=index
buffer  b    bf16   N  init=const(0.5)
buffer  out  float  N  output
grid    cdiv(N, 128)
block   128
args    h, b, out, N
*/
__global__ void widen(const __half *h, const __nv_bfloat16 *b, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + (int)block.thread_rank();
    if (i < n)
        out[i] = __half2float(h[i]) + __bfloat162float(b[i]);
}
