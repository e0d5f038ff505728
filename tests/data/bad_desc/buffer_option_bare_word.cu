// expect: 4:29: unexpected 'fast' in buffer options
/*@warpscope
kernel  k
buffer  a  float  4  output fast
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
