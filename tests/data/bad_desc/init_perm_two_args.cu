// expect: 4:25: perm() takes 1 argument: perm(seed), not 2
/*@warpscope
kernel copy
buffer a int 4 init=perm(1, 2)
grid 1
block 32
*/
__global__ void copy(int *a) { a[0] = 1; }
