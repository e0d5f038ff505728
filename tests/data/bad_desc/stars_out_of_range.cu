// expect: 4:7: stars must be 1, 2 or 3
/*@warpscope
kernel copy
stars 5
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
