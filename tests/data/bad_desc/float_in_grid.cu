// expect: 4:6: floating-point number in an integer expression
/*@warpscope
kernel copy
grid 1.5
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
