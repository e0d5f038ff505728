// expect: 4:33: init=random needs arguments in parentheses
/*@warpscope
kernel  k
buffer  a  float  4  init=random
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
