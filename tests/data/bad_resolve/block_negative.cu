// expect: 6:9: block.x = -32
/*@warpscope
kernel  k
buffer  a  float  4
grid    1
block   -32
args    a, 1
*/
__global__ void k(float *a, int n) { }
