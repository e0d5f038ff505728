// overloads.cu - two kernels with one name, told apart by their parameter types. The int
// overload adds 1000, the float one adds 0.5, so the output says which one ran.

/*@warpscope
kernel  bump_int
entry   bump(const int *, int *, int)
param   N = 64
buffer  in   int  N  init=index
buffer  out  int  N  output
grid    1
block   N
args    in, out, N
*/
__global__ void bump(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1000;
}

/*@warpscope
kernel  bump_float
entry   bump(const float*, float*, int)
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  output
grid    1
block   N
args    in, out, N
*/
__global__ void bump(const float *in, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i] + 0.5f;
}

/*@warpscope
kernel  bump
note    no parameter list: ambiguous between the two overloads
param   N = 64
buffer  in   int  N  init=index
buffer  out  int  N  output
grid    1
block   N
args    in, out, N
*/
