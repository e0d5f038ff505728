// expect: 4:28: file() needs a path
/*@warpscope
kernel copy
buffer a float 4 init=file( )
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
