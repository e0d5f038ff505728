// expect: 4:10: unknown type 'size_t'; for 'size_t' use ulong (size_t is 8 bytes on a 64-bit host)
/*@warpscope
kernel copy
buffer a size_t 4
grid 1
block 32
*/
__global__ void copy(unsigned long *a) { a[0] = 1; }
