// expect: 4:8: expected '=' after the parameter name
/*@warpscope
kernel copy
param N
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
