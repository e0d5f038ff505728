// expect: 5:13: unexpected '*' where an operand was expected
/*@warpscope
kernel  k
buffer  a  float  4
grid    4 * * 2
block   32
args    a
*/
__global__ void k(float *a) { }
