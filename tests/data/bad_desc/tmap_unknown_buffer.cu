// expect: 4:12: tmap 't': no buffer 'b' declared before it
/*@warpscope
kernel  k
tmap    t  b  dims=64,64 box=32,32
buffer  a  float  4096
grid    1
block   32
args    t
*/
__global__ void k(const int *t) { }
