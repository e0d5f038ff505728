// expect: 6:15: block.z = 65; it must be between 1 and 64
/*@warpscope
kernel  k
buffer  a  float  4
grid    1
block   1, 1, 65
args    a, 1
*/
__global__ void k(float *a, int n) { }
