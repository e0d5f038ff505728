// expect: 6:9: integer overflow in unary '-'
/*@warpscope
kernel  k
param   M = -9223372036854775807 - 1
buffer  a  float  4
grid    -M
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
