// expect: 4:10: unknown type 'floot'
/*@warpscope
kernel copy
buffer a floot 4
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
