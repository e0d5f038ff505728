// expect: 2:13: must be followed by a space
/*@warpscopekernel copy
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
