// expect: 5:9: name too long (at most 63 characters)
/*@warpscope
kernel  k
buffer  a  float  4
grid    nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn
block   32
args    a
*/
__global__ void k(float *a) { }
