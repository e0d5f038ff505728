// expect: 4:18: unknown buffer option 'colour='
/*@warpscope
kernel copy
buffer a float 4 colour=red
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
