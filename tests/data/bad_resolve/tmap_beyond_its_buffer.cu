// expect: 6:9: tmap 't' over buffer 'a': the tensor spans 32768 bytes but its buffer has 16384
/*@warpscope
kernel  k
param   N = 4096
buffer  a  float  N
tmap    t  a  dims=64,128 box=32,8
grid    1
block   32
args    t
*/
__global__ void k(const int *t) { }
