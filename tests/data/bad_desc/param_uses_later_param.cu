// expect: 4:11: parameter 'B' is used before it is declared (line 5)
/*@warpscope
kernel copy
param A = B + 1
param B = 2
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
