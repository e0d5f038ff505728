// expect: 4:29: ulp= needs a whole number of units in the last place
/*@warpscope
kernel copy
buffer a float 4 output ulp=1.5
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1; }
