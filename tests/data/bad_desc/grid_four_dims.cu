// expect: 4:15: grid has 4 dimensions
/*@warpscope
kernel copy
grid 1, 2, 3, 4
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
