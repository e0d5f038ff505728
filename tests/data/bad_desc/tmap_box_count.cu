// expect: 5:9: tmap 't' has 2 dims but 1 box sizes (box=B0[,B1..])
/*@warpscope
kernel  k
buffer  a  float  4096
tmap    t  a  dims=64,64 box=32
grid    1
block   32
args    t
*/
__global__ void k(const int *t) { }
