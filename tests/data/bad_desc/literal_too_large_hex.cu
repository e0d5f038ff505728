// expect: 5:9: integer literal too large
/*@warpscope
kernel  k
buffer  a  float  4
grid    0x8000000000000000
block   32
args    a
*/
__global__ void k(float *a) { }
