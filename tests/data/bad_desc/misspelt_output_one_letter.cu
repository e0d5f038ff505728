// expect: 4:18: unexpected 'ouput' in buffer options; did you mean 'output'?
/*@warpscope
kernel copy
buffer a float 4 ouput
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
