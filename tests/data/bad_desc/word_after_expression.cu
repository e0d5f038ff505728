// expect: 5:11: unexpected 'blocks' after the expression
/*@warpscope
kernel  k
buffer  a  float  4
grid    4 blocks
block   32
args    a
*/
__global__ void k(float *a) { }
