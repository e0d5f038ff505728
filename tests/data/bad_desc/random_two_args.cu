// expect: 4:29: random() takes 1 or 3 arguments
/*@warpscope
kernel copy
buffer a float 4 init=random(1, 2)
grid 1
block 32
*/
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
