// expect: 5:19: buffer 'a' has a negative element count (-4)
/*@warpscope
kernel  k
param   W = 4
buffer  a  float  W - 8
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
