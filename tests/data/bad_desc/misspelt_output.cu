// expect: 4:18: unexpected 'outptu' in buffer options; did you mean 'output'?
/*@warpscope
kernel copy
buffer a float N outptu
param N = 4
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
