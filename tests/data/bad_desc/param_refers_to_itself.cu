// expect: 4:11: parameter 'N' refers to itself
/*@warpscope
kernel copy
param N = N + 1
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
