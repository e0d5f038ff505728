// expect: 5:8: duplicate name 'a' (parameter at line 4)
/*@warpscope
kernel copy
param a = 4
buffer a float 4
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
