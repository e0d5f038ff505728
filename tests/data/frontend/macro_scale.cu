// macro_scale.cu - a kernel configured by a preprocessor macro, as builds pass -DSCALE=3.
// SCALE is no description parameter, so "-D SCALE=3" on the command line is the macro.
#ifndef SCALE
#define SCALE 1
#endif

/*@warpscope
kernel  macro_scale
param   N = 64
buffer  in   int  N  init=index
buffer  out  int  N  output
grid    1
block   N
args    in, out, N
*/
__global__ void macro_scale(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i] * SCALE;
}
