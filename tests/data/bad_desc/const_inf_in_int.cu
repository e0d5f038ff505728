// expect: 4:27: const(-inf): int has no infinity or NaN
/*@warpscope
kernel copy
buffer a int 4 init=const(-inf)
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
