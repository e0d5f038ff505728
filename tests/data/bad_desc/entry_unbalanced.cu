// expect: 4:7: entry 'scale<4': unbalanced '<>' or '()'
/*@warpscope
kernel s4
entry scale<4
grid 1
block 32
*/
template <int N> __global__ void scale(float *a) { a[0] = N; }
