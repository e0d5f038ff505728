// expect: 5:9: buffer 'a' cannot be used in an expression
/*@warpscope
kernel  k
buffer  a  float  4
grid    a
block   32
args    a
*/
__global__ void k(float *a) { }
