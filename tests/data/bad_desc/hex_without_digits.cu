// expect: 5:9: hex literal needs digits after 0x
/*@warpscope
kernel  k
buffer  a  float  4
grid    0x
block   32
args    a
*/
__global__ void k(float *a) { }
