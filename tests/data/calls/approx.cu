// approx.cu - the math library functions whose GPU code uses approximate instructions
// (expf: ex2.approx.ftz.f32; rsqrtf: rsqrt.approx.f32; __sinf: sin.approx.f32), for
// tests/test_approx.c and tests/gpu/calls.sh: the simulator computes them exactly, and
// `check` compares the GPU's outputs within the PTX ISA's stated errors (docs/interp.md).

/*@warpscope
kernel  approx_math
buffer  x    float  1024  init=random(5, -4, 4)
buffer  out  float  3*1024  init=zero  output
grid    4
block   256
args    x, out
*/
__global__ void approx_math(const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    out[i] = expf(v);
    out[1024 + i] = rsqrtf(v * v + 1.0f);
    out[2048 + i] = __sinf(v);
}
