// libc_headers.cu - a kernel file that includes C and C++ library headers, as files written
// for nvcc often do. NVRTC has no <cstdio> or <cassert>, so ptxgen falls back to nvcc -ptx
// and says why; the kernel itself uses only device code.
#include <cstdio>
#include <cassert>
#include <climits>

/*@warpscope
kernel  clamp_add
note    out[i] = min(a[i] + 1, INT_MAX - 1): compiles through the nvcc fallback.
param   N = 128
buffer  a    int  N  init=index
buffer  out  int  N  output
grid    1
block   N
args    a, out, N
*/
__global__ void clamp_add(const int *a, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = min(a[i] + 1, INT_MAX - 1);
}
