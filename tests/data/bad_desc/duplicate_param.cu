// expect: 5:7: duplicate name 'N'
/*@warpscope
kernel copy
param N = 4
param N = 8
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
