// templates.cu - one kernel template, two instantiations, each named by its description.
// Before warpscope resolved instantiations exactly, a description meant for scale<4> ran
// scale<2> (the first kernel whose plain name matched); out = in * N shows which ran.

/*@warpscope
kernel  scale<2>
note    out[i] = in[i] * 2
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  output
grid    1
block   N
args    in, out, N
*/

/*@warpscope
kernel  scale4
entry   scale<4>
note    out[i] = in[i] * 4: the same template, the other instantiation
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  output
grid    1
block   N
args    in, out, N
*/

/*@warpscope
kernel  scale_which
entry   scale
note    names the template without its argument: ambiguous between scale<2> and scale<4>
param   N = 64
buffer  in   float  N  init=index
buffer  out  float  N  output
grid    1
block   N
args    in, out, N
*/
template <int F>
__global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * F;
}
