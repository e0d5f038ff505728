// expect: 6:1: 'grid' given twice
/*@warpscope
kernel copy
grid 1
block 32
grid 2
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
