// expect: 4:28: unknown parameter 'A' in an lcg() parameter
/*@warpscope
kernel copy
buffer a int 4 init=lcg(1, A, 3, 16)
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
