// expect: 4:28: init= given twice
/*@warpscope
kernel copy
buffer a float 4 init=zero init=index
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
