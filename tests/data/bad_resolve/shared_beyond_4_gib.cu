// expect: 7:9: shared = 4294967296 bytes; it must be between 0 and 4294967295
/*@warpscope
kernel  k
buffer  a  float  4
grid    1
block   32
shared  1<<32
args    a, 1
*/
__global__ void k(float *a, int n) { }
