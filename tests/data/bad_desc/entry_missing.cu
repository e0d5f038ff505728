// expect: 4:7: no __global__ function 'copy_kernel' in this file
/*@warpscope
kernel copy
entry copy_kernel
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
