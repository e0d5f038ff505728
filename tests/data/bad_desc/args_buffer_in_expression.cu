// expect: 7:9: buffer 'a' cannot be used in an expression
/*@warpscope
kernel copy
buffer a float 4
grid 1
block 32
args a, a + 1
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
