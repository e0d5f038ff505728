// expect: 4:23: unknown init kind 'rand'
/*@warpscope
kernel copy
buffer a float 4 init=rand(1)
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
