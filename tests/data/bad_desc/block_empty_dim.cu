// expect: 5:10: empty block dimension
/*@warpscope
kernel copy
grid 1
block 32,, 2
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
