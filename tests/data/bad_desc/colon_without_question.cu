// expect: 5:11: ':' without a matching '?'
/*@warpscope
kernel  k
buffer  a  float  4
grid    1 : 2
block   32
args    a
*/
__global__ void k(float *a) { }
