// expect: 4:15: buffer 'a' needs an element count
/*@warpscope
kernel copy
buffer a float
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
