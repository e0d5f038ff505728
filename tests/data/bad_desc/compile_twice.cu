// expect: 5:1: 'compile' given twice in one block (first at line 4)
/*@warpscope
kernel copy
compile -DA=1
compile -DB=2
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
