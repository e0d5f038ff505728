// expect: 2:1: no 'kernel' line
/*@warpscope
param N = 4
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
