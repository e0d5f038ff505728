// expect: 3:8: no __global__ function 'histogram' in this file (with no 'entry' line the kernel's name is taken for the function's: add 'entry FUNCTION'; __global__ functions here: histo_kernel)
/*@warpscope
kernel histogram
buffer a int 4
grid 1
block 32
*/
__global__ void histo_kernel(int *a) { a[0] = 1; }
