// expect: 4:29: 'output' given twice
/*@warpscope
kernel  k
buffer  a  float  4  output output
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
