// expect: 4:35: unexpected text after init=const(...)
/*@warpscope
kernel  k
buffer  a  float  4  init=const(1)x)
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
