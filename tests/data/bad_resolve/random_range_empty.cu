// expect: 4:35: random range is empty (lo 10 >= hi 10)
/*@warpscope
kernel  k
buffer  a  int  4  init=random(1, 10, 10)
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
