// expect: 4:28: const(70000) does not fit in half
/*@warpscope
kernel copy
buffer a half 4 init=const(70000)
grid 1
block 32
*/
__global__ void copy(short *a) { a[0] = 1; }
