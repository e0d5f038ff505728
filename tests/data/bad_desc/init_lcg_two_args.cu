// expect: 4:24: lcg() takes 1, 4 or 6 arguments: lcg(seed[, a, c, m[, lo, hi]]), not 2
/*@warpscope
kernel copy
buffer a int 4 init=lcg(1, 2)
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
