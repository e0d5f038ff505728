// expect: 5:9: tmap 't' over buffer 'a': the inner box dimension (256 bytes) must be at most 128 bytes with a 128-byte swizzle
/*@warpscope
kernel  k
buffer  a  float  4096
tmap    t  a  dims=64,64 box=64,8 swizzle=128B
grid    1
block   32
args    t
*/
__global__ void k(const int *t) { }
