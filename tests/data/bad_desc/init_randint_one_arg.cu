// expect: 4:28: randint() takes 3 arguments: randint(seed, lo, hi), not 1
/*@warpscope
kernel copy
buffer a int 4 init=randint(1)
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
