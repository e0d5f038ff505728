// expect: 4:20: buffer 'a' is too large
/*@warpscope
kernel  k
buffer  a  float4  1<<61
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
