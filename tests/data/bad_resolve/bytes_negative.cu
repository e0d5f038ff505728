// expect: 7:9: bytes = -1; it must not be negative
/*@warpscope
kernel  k
buffer  a  float  4
grid    1
block   32
bytes   -1
args    a, 1
*/
__global__ void k(float *a, int n) { }
