/* assert_nvcc.cu - <cassert> makes NVRTC fail, so this compiles through the nvcc fallback;
 * a failed assert prints __FILE__, which must name this file, not the temporary copy nvcc saw
 * (tests/test_ptxgen.c). */
#include <cassert>

/*@warpscope
kernel  assert_small
param   N = 64
buffer  out  int  N  init=zero  output
grid    1
block   N
args    out, N
*/
extern "C" __global__ void assert_small(int *out, int n)
{
    int i = threadIdx.x;
    assert(i < n);
    out[i] = i;
}
