// expect: 5:12: grid.y = 65536; it must be between 1 and 65535
/*@warpscope
kernel  k
buffer  a  float  4
grid    1, 65536
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
