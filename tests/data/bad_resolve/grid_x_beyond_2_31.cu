// expect: 5:9: grid.x = 2147483648; it must be between 1 and 2147483647
/*@warpscope
kernel  k
buffer  a  float  4
grid    1<<31
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
