// expect: 5:16: expected ',' between function arguments
/*@warpscope
kernel  k
buffer  a  float  4
grid    cdiv(8 4)
block   32
args    a
*/
__global__ void k(float *a) { }
