// expect: 4:19: unknown compiler option '-O2'
/*@warpscope
kernel copy
compile -DTILE=32 -O2
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
