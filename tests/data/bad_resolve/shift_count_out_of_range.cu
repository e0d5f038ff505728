// expect: 5:11: shift count 70 out of range (0..63)
/*@warpscope
kernel  k
buffer  a  float  4
grid    1 << 70
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
