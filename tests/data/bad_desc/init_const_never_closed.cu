// expect: 4:32: init=const: '(' is never closed
/*@warpscope
kernel  k
buffer  a  float  4  init=const(1
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
