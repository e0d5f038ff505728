// expect: 4:6: this '(' is never closed
/*@warpscope
kernel copy
grid (N + 31 / 32
param N = 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
