// expect: 4:15: unknown parameter 'Q'
/*@warpscope
kernel copy
param A = 2 * Q
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
