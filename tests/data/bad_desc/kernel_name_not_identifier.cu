// expect: 3:9: bad kernel name '9lives'
/*@warpscope
kernel  9lives
buffer  a  float  4
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
