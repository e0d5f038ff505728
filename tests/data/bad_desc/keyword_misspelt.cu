// expect: 4:1: unknown keyword 'bufer'; did you mean 'buffer'?
/*@warpscope
kernel copy
bufer a float 4
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
