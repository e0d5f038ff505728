// expect: 5:21: overflows 64 bits
/*@warpscope
kernel  k
buffer  a  double2  1<<59
buffer  b  double2  1<<59
buffer  c  double2  1<<59
buffer  d  double2  1<<59
grid    1
block   32
args    a, 1
*/
__global__ void k(float *a, int n) { }
