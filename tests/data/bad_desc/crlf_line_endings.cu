// expect: 4:1: unknown keyword 'kernal'
/*@warpscope
kernel copy
kernal copy2
grid 1
block 32
args a, n
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
