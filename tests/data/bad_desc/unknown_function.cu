// expect: 4:6: unknown function 'foo'
/*@warpscope
kernel copy
grid foo(1, 2)
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
