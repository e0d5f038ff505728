// expect: 4:1: 'kernel scale<4>' already names the function
/*@warpscope
kernel scale<4>
entry scale<2>
grid 1
block 32
*/
template <int N> __global__ void scale(float *a) { a[0] = N; }
