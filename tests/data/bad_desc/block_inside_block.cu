// expect: 6:1: a new warpscope block starts inside the one opened at line 2
/*@warpscope
kernel copy
grid 1
block 32
/*@warpscope
kernel copy2
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
