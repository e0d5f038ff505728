// expect: 3:8: no __global__ function 'scale' in this file
/*@warpscope
kernel scale<4>
grid 1
block 32
*/
template <int N> __device__ void scale(float *a) { a[0] = N; }
