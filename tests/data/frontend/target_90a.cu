// target_90a.cu - the sm_90a target for tests/test_ptxgen.c: one kernel with setmaxnreg (an
// sm_90a-only instruction) described twice, with `target sm_90a` and without it (its PTX is then
// sm_90's, which may not hold setmaxnreg: the error names this file and the line below).
// out[i] = 2 * i.

/*@warpscope
kernel  maxnreg_90a
entry   maxnreg
target  sm_90a
buffer  out  uint  256  init=zero  output
grid    2
block   128
args    out
*/

/*@warpscope
kernel  maxnreg_90
entry   maxnreg
buffer  out  uint  256  init=zero  output
grid    2
block   128
args    out
*/
extern "C" __global__ void maxnreg(unsigned *out)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2 * i;
}
