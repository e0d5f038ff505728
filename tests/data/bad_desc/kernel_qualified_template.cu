// expect: 3:8: a description name cannot hold '::'
/*@warpscope
kernel ns::scale<4>
grid 1
block 32
*/
namespace ns { template <int N> __global__ void scale(float *a) { a[0] = N; } }
