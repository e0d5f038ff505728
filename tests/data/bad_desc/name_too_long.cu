// expect: 4:7: parameter name too long
/*@warpscope
kernel copy
param xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = 1
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
