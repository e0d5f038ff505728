// expect: 5:9: floating-point number in an integer expression
/*@warpscope
kernel  k
buffer  a  float  4
grid    1.5
block   32
args    a
*/
__global__ void k(float *a) { }
