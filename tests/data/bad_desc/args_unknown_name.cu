// expect: 8:12: unknown buffer or parameter 'zz'
/*@warpscope
kernel copy
buffer a float 4
param n = 4
grid 1
block 32
args a, n, zz
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
