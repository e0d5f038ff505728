/* sass_loops.cu - tensor-core loops whose machine code differs from their PTX in the ways the
 * issue-24 corpus showed (tests/test_sass.c reads sass_loops.sass, made from sass_loops.ptx as
 * tests/data/sass/README.md says):
 *   wmma_u8_global   wmma u8 fragments from global memory (1-byte elements: two LDG.E a fragment)
 *   wmma_f64_global  wmma m8n8k4 f64 fragments from global memory (DMMA)
 *   wmma_shared_loop a k loop over shared tiles, 4 A and 4 B fragments a step: nvcc unrolls it
 *                    twice with a remainder copy, and nvdisasm lists some of the copies' LDSMs at
 *                    the source lines of others
 *   mma_k_loop       mma.sync over a runtime k: ptxas unrolls by 4 and keeps a remainder loop
 *   mma_peeled_loop  the same through shared memory and ldmatrix: ptxas unrolls by 4, peels the
 *                    remainder's first pass and loops the rest, code no warp runs when K / 16 is a
 *                    multiple of 4 */

#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

/*@warpscope
kernel  wmma_u8_global
note    one 16x16x16 u8 tile per warp, K / 16 steps, s32 accumulator loaded and stored.
param   K = 64
buffer  A  uchar  16*K  init=random(31, 0, 16)
buffer  B  uchar  16*K  init=random(32, 0, 16)
buffer  C  int    256   init=random(33, -100, 100)
buffer  D  int    256   init=zero  output
grid    1
block   32
args    A, B, C, D, K
*/
__global__ void wmma_u8_global(const unsigned char *A, const unsigned char *B, const int *C, int *D, int K)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

/*@warpscope
kernel  wmma_f64_global
note    one 8x8x4 f64 tile per warp, K / 4 steps.
param   K = 32
buffer  A  double  8*K  init=random(34, -1, 1)
buffer  B  double  8*K  init=random(35, -1, 1)
buffer  D  double  64   init=zero  output
grid    1
block   32
args    A, B, D, K
*/
__global__ void wmma_f64_global(const double *A, const double *B, double *D, int K)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::fill_fragment(c, 0.0);
    for (int k = 0; k < K; k += 4) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

/*@warpscope
kernel  wmma_shared_loop
note    4 warps, each a 64x64 f16 tile of C over K / 16 steps of shared 64x16 A and 16x64 B tiles.
param   K = 128
buffer  A  ushort  64*K  init=random(36, 0x3000, 0x3800)
buffer  B  ushort  K*64  init=random(37, 0x3000, 0x3800)
buffer  C  ushort  4*4096  init=zero  output tol=1e-2
grid    1
block   128
args    A, B, C, K
*/
__global__ void wmma_shared_loop(const __half *A, const __half *B, __half *C, int K)
{
    using namespace nvcuda;
    __shared__ __align__(128) __half as[64][24], bs[16][72];
    int tid = threadIdx.x, w = tid / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[4];
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) wmma::fill_fragment(c[i][j], 0.0f);
    for (int k = 0; k < K; k += 16) {
        for (int e = tid; e < 64 * 16; e += 128) {
            as[e / 16][e % 16] = A[(e / 16) * K + k + e % 16];
            bs[e / 64][e % 64] = B[(k + e / 64) * 64 + e % 64];
        }
        __syncthreads();
        wmma::load_matrix_sync(a[0], &as[0][0], 24);
        wmma::load_matrix_sync(a[1], &as[16][0], 24);
        wmma::load_matrix_sync(a[2], &as[32][0], 24);
        wmma::load_matrix_sync(a[3], &as[48][0], 24);
        wmma::load_matrix_sync(b[0], &bs[0][0], 72);
        wmma::load_matrix_sync(b[1], &bs[0][16], 72);
        wmma::load_matrix_sync(b[2], &bs[0][32], 72);
        wmma::load_matrix_sync(b[3], &bs[0][48], 72);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            wmma::store_matrix_sync(C + w * 4096 + i * 16 * 64 + j * 16, c[i][j], 64, wmma::mem_row_major);
}

/*@warpscope
kernel  mma_k_loop
note    one warp, a 16x8 f16 tile over a runtime K with mma.sync m16n8k16, fragments from global.
param   K = 256
buffer  A  ushort  16*K  init=random(38, 0x3000, 0x3800)
buffer  B  ushort  8*K   init=random(39, 0x3000, 0x3800)
buffer  D  float   128   init=zero  output tol=1e-3
grid    1
block   32
args    A, B, D, K
*/
__global__ void mma_k_loop(const uint32_t *A, const uint32_t *B, float *D, int K)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    const int kw = K / 2; /* 32-bit words (half pairs) a row */
#pragma unroll 4
    for (int k = 0; k < K / 16; k++) {
        uint32_t a0 = A[g * kw + k * 8 + t], a1 = A[(g + 8) * kw + k * 8 + t];
        uint32_t a2 = A[g * kw + k * 8 + t + 4], a3 = A[(g + 8) * kw + k * 8 + t + 4];
        uint32_t b0 = B[g * kw + k * 8 + t], b1 = B[g * kw + k * 8 + t + 4];
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
    D[(g + 8) * 8 + 2 * t] = d2;
    D[(g + 8) * 8 + 2 * t + 1] = d3;
}

/*@warpscope
kernel  mma_peeled_loop
note    one warp, a 16x8 f32 tile over K / 16 steps of A and B staged in shared memory (ldmatrix).
param   K = 256
buffer  A  uint  K*8  init=random(40, 0x30003000, 0x38003800)
buffer  B  uint  K*4  init=random(41, 0x30003000, 0x38003800)
buffer  D  float  128  init=zero  output tol=1e-3
grid    1
block   32
args    A, B, D, K
*/
__global__ void mma_peeled_loop(const uint4 *A, const uint4 *B, float *D, int K)
{
    __shared__ __align__(128) uint4 as[32], bs[16];
    int lane = threadIdx.x;
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    for (int k = 0; k < K / 16; k++) {
        as[lane] = A[k * 32 + lane];
        if (lane < 16) bs[lane] = B[k * 16 + lane];
        __syncthreads();
        uint32_t a0, a1, a2, a3, b0, b1;
        uint32_t pa = (uint32_t)__cvta_generic_to_shared(&as[lane]);
        uint32_t pb = (uint32_t)__cvta_generic_to_shared(&bs[lane % 16]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncthreads();
    }
    D[lane * 4] = d0;
    D[lane * 4 + 1] = d1;
    D[lane * 4 + 2] = d2;
    D[lane * 4 + 3] = d3;
}
