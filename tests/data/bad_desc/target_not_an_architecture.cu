// expect: 5:8: target must name an architecture such as sm_90a
/*@warpscope
kernel k
buffer a float 4
target sm90a
grid 1
block 32
args a
*/
__global__ void k(float *a) { a[0] = 1; }
