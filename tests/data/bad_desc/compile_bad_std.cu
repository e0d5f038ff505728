// expect: 4:9: -std=c++99: both NVRTC and nvcc take c++03, c++11, c++14, c++17 or c++20
/*@warpscope
kernel copy
compile -std=c++99
grid 1
block 32
*/
__global__ void copy(float *a) { a[0] = 1.0f; }
