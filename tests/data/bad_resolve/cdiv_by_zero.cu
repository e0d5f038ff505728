// expect: 6:9: by zero
/*@warpscope
kernel  k
param   W = 0
buffer  a  float  4
grid    cdiv(5, W)
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
