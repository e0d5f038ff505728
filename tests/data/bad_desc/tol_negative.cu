// expect: 4:33: tol= needs a number >= 0, not '-1'
/*@warpscope
kernel  k
buffer  a  float  4  output tol=-1
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
