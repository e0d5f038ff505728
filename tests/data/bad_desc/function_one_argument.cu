// expect: 5:14: min() takes two arguments
/*@warpscope
kernel  k
buffer  a  float  4
grid    min(4)
block   32
args    a
*/
__global__ void k(float *a) { }
