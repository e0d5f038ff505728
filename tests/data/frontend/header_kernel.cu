// header_kernel.cu - describes a kernel whose code is in header_kernel.cuh.
#include "header_kernel.cuh"

/*@warpscope
kernel  from_header
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  output
grid    1
block   N
args    in, out, N
*/
