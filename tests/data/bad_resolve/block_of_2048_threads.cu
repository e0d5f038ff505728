// expect: 6:9: block of 64x32x1 = 2048 threads; at most 1024
/*@warpscope
kernel  k
buffer  a  float  4
grid    1
block   64, 32
args    a, 1
*/
__global__ void k(float *a, int n) { }
