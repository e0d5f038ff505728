// expect: 5:11: bad character in a number
/*@warpscope
kernel  k
buffer  a  float  4
grid    12abc
block   32
args    a
*/
__global__ void k(float *a) { }
