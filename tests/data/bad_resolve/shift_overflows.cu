// expect: 5:19: integer overflow in '<<'
/*@warpscope
kernel  k
buffer  a  float  4
grid    (1 << 62) << 2
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
