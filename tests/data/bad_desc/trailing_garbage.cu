// expect: 6:10: unexpected '4' after the expression
/*@warpscope
kernel copy
grid 1
block 32
shared 4 4
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
