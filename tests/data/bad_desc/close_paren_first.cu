// expect: 5:9: ')' without a matching '('
/*@warpscope
kernel  k
buffer  a  float  4
grid    )
block   32
args    a
*/
__global__ void k(float *a) { }
