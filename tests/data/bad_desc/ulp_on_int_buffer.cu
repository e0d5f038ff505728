// expect: 4:23: ulp= applies to floating-point buffers; 'a' is int
/*@warpscope
kernel copy
buffer a int 4 output ulp=2
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
