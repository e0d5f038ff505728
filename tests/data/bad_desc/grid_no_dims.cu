// expect: 4:5: grid needs 1 to 3 dimensions
/*@warpscope
kernel copy
grid
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
