// expect: 4:36: random range beyond +-2^53
/*@warpscope
kernel  k
buffer  a  long  4  init=random(1, 0, 1<<60)
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
