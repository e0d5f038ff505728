// expect: 8:9: a braced struct argument is not supported
/*@warpscope
kernel st
buffer a float 4
param n = 4
grid 1
block 32
args a, {2, 3.5f}
*/
struct P { int k; float x; };
__global__ void st(float *a, P p) { a[0] = p.k * p.x; }
