// assert.cu - a failed assert(), for tests/test_exec_call.c: nvcc turns it into a
// call to __assertfail(message, file, line, function, char size); the GPU prints one
// line per failing thread and the kernel stops with an error.
#include <cassert>

/*@warpscope
kernel  assert_in_bounds
buffer  idx  int  64  init=index
buffer  out  int  64  init=zero  output
param   N = 40
grid    1
block   64
args    idx, out, N
*/
__global__ void assert_in_bounds(const int *idx, int *out, int n)
{
    int t = threadIdx.x;
    assert(idx[t] < n);
    out[t] = idx[t];
}
