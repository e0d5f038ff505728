// expect: 4:18: tol= applies to output buffers only
/*@warpscope
kernel copy
buffer a float 4 tol=1e-3
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
