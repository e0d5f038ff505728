// good_multi.cu - three descriptions over two kernels; tests/test_desc.c reads it.
// Checks: several blocks per file, two descriptions of one entry, comments,
// spaces inside expressions, every init kind, vector types, args of all kinds.

/*@warpscope
kernel  transpose_naive            # the first description
note    Naive transpose: reads coalesced, writes strided by H.
stars   2
param   W = 1024
param   H = W
buffer  in   float  W*H    init=index
buffer  out  float  W * H  init=zero  output
grid    (W+31)/32, (H+31)/32
block   32, 32
args    in, out, W, H
*/
__global__ void transpose_naive(const float *in, float *out, int W, int H)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

/*@warpscope
kernel  transpose_wide
entry   transpose_naive
param   W = 2048
param   H = W / 2
buffer  in   float  W*H  init=random(7)
buffer  out  float  W*H  output tol=1e-4
grid    cdiv(W, 32), cdiv(H, 8), 1
block   32, 8
shared  32*33*4
bytes   2*W*H*4
args    in, out, W, H
*/

/*@warpscope
kernel scale
buffer  v    float4   N  init=random(42, -5, 5)  output
buffer  idx  int      N  init=random(9, 0, N)
buffer  c    double2  8  init=const(0.5)
param   N = 1000
grid    cdiv(N, 128)
block   128
args    v, idx, c, 2.5f, N, -1e-3
*/
__global__ void __launch_bounds__(128) scale(float4 *v, const int *idx, double2 *c, float a, int n, double eps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[idx[i]].x *= a + (float)(c[0].x * eps);
}
