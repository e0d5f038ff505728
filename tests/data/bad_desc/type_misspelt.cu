// expect: 4:10: unknown type 'flaot'; did you mean 'float'?
/*@warpscope
kernel copy
buffer a flaot 4
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
