// expect: 4:28: const(300) does not fit in char
/*@warpscope
kernel copy
buffer c char 4 init=const(300)
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
