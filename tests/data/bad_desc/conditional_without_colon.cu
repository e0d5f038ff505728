// expect: 6:15: expected ':' to complete '?:'
/*@warpscope
kernel  k
param   W = 4
buffer  a  float  4
grid    W > 2 ? 1
block   32
args    a
*/
__global__ void k(float *a) { }
