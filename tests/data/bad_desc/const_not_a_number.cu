// expect: 4:29: const() needs a number (or inf, -inf, nan)
/*@warpscope
kernel copy
buffer a float 4 init=const(abc)
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
