/* matmul.cu - matrix multiply C = A x B (A is M x K, B is K x N, row-major),
 * the seeds' three kernels: each output needs a row of A and a column of B;
 * tiling in shared memory turns 2K global loads per output into 2K/T.
 *
 *   variant            what it changes                                              stars
 *   1  matmul_naive    seed: every product straight from global memory: A[row*K+k] is
 *                      one word for the warp (broadcast), B[k*N+col] 4 sectors       *
 *   2  matmul_tiled16  seed (matMulShared): 16x16 tiles in shared memory; needs N % 16 == 0  **
 *   3  matmul_tiled32  seed (matmul_tiled): 32x32 tiles, bounds-checked tile loads        **
 *
 * Run one with `warpscope sim matmul_tiled32` (override with -D M=... etc.).
 * Sizes default to 128 so a simulation stays near 10 million thread-instructions.
 * Tolerance: inputs are random in [0, 1), so every term is positive and a float
 * sum of K products (fused or not, any order) is within K * 2^-24 relative of
 * the exact sum; the reference sums in double. tol = 2 * K * 2^-24 at K = 128,
 * about 1.5e-5, written 2e-5. Larger K needs a looser tol. */

#define TILE_SIZE 32  // 常用值：16或32   (the seed's matmul_tiled)

/* ------------------------------------------------------------------------- */
/* 1. Naive (seeds/000), verbatim. */

/*@warpscope
kernel  matmul_naive
note    Seed: each thread reads a row of A and a column of B from global memory (2K loads).
stars   1
param   M = 128
param   N = 128
param   K = 128
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  float  M*K  init=random(1)
buffer  B  float  K*N  init=random(2)
buffer  C  float  M*N  init=zero  output tol=2e-5
grid    cdiv(N, 16), cdiv(M, 16)
block   16, 16
args    A, B, C, M, N, K
*/
// 朴素矩阵乘法：每个线程计算 C 的一个元素
__global__ void matmul_naive(float *A, float *B, float *C,
                             int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) {
            // 每次循环都从全局内存读取
            sum += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = sum;
    }
}

/* ------------------------------------------------------------------------- */
/* 2. 16x16 tiles (seeds/002 matMulShared), verbatim. Square N x N only and no
 *    bounds checks: N must be a multiple of 16 (otherwise the simulator reports
 *    the out-of-bounds load it makes). */

/*@warpscope
kernel  matmul_tiled16
entry   matMulShared
note    Seed: 16x16 tiles of A and B in shared memory; 2N/16 global loads per output.
stars   2
param   N = 128
realistic compute-bound N = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  float  N*N  init=random(1)
buffer  B  float  N*N  init=random(2)
buffer  C  float  N*N  init=zero  output tol=2e-5
grid    N/16, N/16
block   16, 16
args    A, B, C, N
*/
__global__ void matMulShared(float* A, float* B, float* C, int N) {
    __shared__ float As[16][16], Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty;
    int col = blockIdx.x * 16 + tx;
    float sum = 0.0f;

    for (int k = 0; k < N; k += 16) {
        As[ty][tx] = A[row * N + k + tx];  // 加载到共享内存
        Bs[ty][tx] = B[(k + ty) * N + col];
        __syncthreads();  // 同步确保数据加载完成

        for (int i = 0; i < 16; ++i)
            sum += As[ty][i] * Bs[i][tx];

        __syncthreads();  // 防止后续迭代覆盖数据
    }
    C[row * N + col] = sum;
}

/* ------------------------------------------------------------------------- */
/* 3. 32x32 tiles (seeds/000 matmul_tiled), verbatim. As[ty][k] is a broadcast
 *    (one word per warp), Bs[k][tx] a conflict-free row. */

/*@warpscope
kernel  matmul_tiled32
entry   matmul_tiled
note    Seed: 32x32 tiles with zero fill at the edges; 2K/32 global loads per output.
stars   2
param   M = 128
param   N = 128
param   K = 128
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  float  M*K  init=random(1)
buffer  B  float  K*N  init=random(2)
buffer  C  float  M*N  init=zero  output tol=2e-5
grid    cdiv(N, 32), cdiv(M, 32)
block   32, 32
args    A, B, C, M, N, K
*/
__global__ void matmul_tiled(float *A, float *B, float *C,
                             int M, int N, int K) {
    // 声明共享内存：每个Block有两个Tile
    __shared__ float As[TILE_SIZE][TILE_SIZE];
    __shared__ float Bs[TILE_SIZE][TILE_SIZE];

    // 线程在Block内的索引
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // 线程在全局矩阵中的位置
    int row = blockIdx.y * TILE_SIZE + ty;
    int col = blockIdx.x * TILE_SIZE + tx;

    float sum = 0.0f;

    // 遍历 K 维度上的所有 Tile
    for (int tile = 0; tile < (K + TILE_SIZE - 1) / TILE_SIZE; tile++) {
        // 1. 协作加载 A 的 Tile 到共享内存
        int a_row = row;
        int a_col = tile * TILE_SIZE + tx;
        if (row < M && a_col < K) {
            As[ty][tx] = A[a_row * K + a_col];
        } else {
            As[ty][tx] = 0.0f;  // 边界填充
        }

        // 2. 协作加载 B 的 Tile 到共享内存
        int b_row = tile * TILE_SIZE + ty;
        int b_col = col;
        if (b_row < K && col < N) {
            Bs[ty][tx] = B[b_row * N + b_col];
        } else {
            Bs[ty][tx] = 0.0f;
        }

        __syncthreads();  // 确保所有线程完成加载

        // 3. 从共享内存计算
        for (int k = 0; k < TILE_SIZE; k++) {
            sum += As[ty][k] * Bs[k][tx];
        }

        __syncthreads();  // 确保所有线程完成计算再加载下一Tile
    }

    // 写回结果到全局内存
    if (row < M && col < N) {
        C[row * N + col] = sum;
    }
}
