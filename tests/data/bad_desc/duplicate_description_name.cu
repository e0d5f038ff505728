// expect: 9:8: duplicate description name 'copy'
/*@warpscope
kernel copy
grid 1
block 32
*/
/*@warpscope
entry copy
kernel copy
grid 2
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
