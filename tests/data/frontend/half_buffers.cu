// half_buffers.cu - half and bfloat16 buffers in and out. The simulator and the GPU fill the
// inputs from the same bytes (common/buffers.c), so out must agree bit for bit.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/*@warpscope
kernel  half_axpy
note    out[i] = a * h[i] + b[i] in float, stored as half: 2-byte loads and stores.
param   N = 256
buffer  h    half   N  init=index
buffer  b    bf16   N  init=const(0.5)
buffer  out  half   N  output
grid    cdiv(N, 128)
block   128
args    h, b, out, 3.0f, N
*/
__global__ void half_axpy(const __half *h, const __nv_bfloat16 *b, __half *out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2half_rn(a * __half2float(h[i]) + __bfloat162float(b[i]));
}

/*@warpscope
kernel  half2_copy
note    one half2 (4 bytes) per thread: the vector form of the same type.
param   N = 128
buffer  in   half2  N  init=random(5, -2, 2)
buffer  out  half2  N  output
grid    1
block   N
args    in, out, N
*/
__global__ void half2_copy(const __half2 *in, __half2 *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/*@warpscope
kernel  half_bias
note    __half and __nv_bfloat16 passed by value: their bits come from the kernel's signature.
param   N = 64
buffer  out  float  N  output
grid    1
block   N
args    out, 0.1, -2.0, N
*/
__global__ void half_bias(float *out, __half h, __nv_bfloat16 b, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = __half2float(h) + __bfloat162float(b) + (float)i;
}
