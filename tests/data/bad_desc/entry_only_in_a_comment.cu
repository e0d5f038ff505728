// expect: 3:8: no __global__ function 'ghost'
/*@warpscope
kernel ghost
grid 1
block 32
*/
// __global__ void ghost(float *a) {}
/* __global__ void ghost(float *a) {} */
const char *s = "__global__ void ghost(int x) {}";
__global__ void copy(float *a, int n) { if (n) a[0] = 1.0f; }
