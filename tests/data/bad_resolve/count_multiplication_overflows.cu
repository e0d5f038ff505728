// expect: 5:20: integer overflow in '*'
/*@warpscope
kernel  k
param   W = 1<<40
buffer  a  float  W*W*W
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
