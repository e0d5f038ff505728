// expect: 4:18: ulp= applies to output buffers only
/*@warpscope
kernel copy
buffer a float 4 ulp=1
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1; }
