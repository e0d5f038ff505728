// expect: 4:7: no __global__ function 'copyKernal' in this file; did you mean 'copyKernel'?
/*@warpscope
kernel copy
entry copyKernal
grid 1
block 32
*/
__global__ void copyKernel(float *a) { a[0] = 1.0f; }
