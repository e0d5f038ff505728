// expect: 4:11: integer literal too large
/*@warpscope
kernel copy
param N = 99999999999999999999
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
