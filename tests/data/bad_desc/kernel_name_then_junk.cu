// expect: 3:14: unexpected 'extra' after the kernel name
/*@warpscope
kernel  copy extra
buffer  a  float  4
grid    1
block   32
args    a
*/
__global__ void k(float *a) { }
