// expect: 2:1: description 'copy' has no 'grid' line
/*@warpscope
kernel copy
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
