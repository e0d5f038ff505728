// expect: 6:6: too many arguments (25; at most 24)
/*@warpscope
kernel copy
grid 1
block 32
args 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
