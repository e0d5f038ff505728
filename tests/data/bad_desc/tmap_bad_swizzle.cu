// expect: 5:44: swizzle must be none, 32B, 64B or 128B
/*@warpscope
kernel  k
buffer  a  float  4096
tmap    t  a  dims=64,64 box=32,32 swizzle=256B
grid    1
block   32
args    t
*/
__global__ void k(const int *t) { }
