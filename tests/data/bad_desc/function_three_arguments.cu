// expect: 5:17: max() takes two arguments
/*@warpscope
kernel  k
buffer  a  float  4
grid    max(1, 2, 3)
block   32
args    a
*/
__global__ void k(float *a) { }
