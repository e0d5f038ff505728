/* tensorcore.cu - tensor-core GEMM building blocks (sm_80 and later): C = A x B^T with A
 * (M x K) and B (N x K, the way linear layers keep their weights) in fp16 and C in fp32.
 * A warp's mma.m16n8k16 reads 16x16 of A and 16x8 of B from registers; what decides the
 * speed is how those fragments get there: ldmatrix reads 8x8 matrices from shared memory,
 * one phase per matrix, and a phase costs as many wavefronts as the most rows of its matrix
 * any 16-byte bank group holds. "Is my swizzle conflict-free?" is that count.
 *
 *   variant                   what it changes                                                 stars
 *   1  wmma_gemm_naive        one warp per 16x16 tile of C, wmma fragments straight from global  **
 *   2  mma_ldmatrix_unpadded  32x64 tiles in shared, rows of 128 B: the 8 rows of every
 *                             ldmatrix matrix share one bank group, 8 wavefronts per phase       ***
 *   3  mma_ldmatrix_padded    rows padded to 144 B: row r in bank group r % 8, 1 per phase      ***
 *   4  mma_ldmatrix_swizzled  no padding; 16-byte chunk c of row r stored at c ^ (r % 8): 1      ***
 *   5  mma_cp_async           4 with cp.async double buffering: tile k+1 copies while k computes ***
 *   6  mma_tma                the tiles by TMA (cp.async.bulk.tensor, sm_90): one thread per copy,
 *                             an mbarrier per stage, the 128-byte swizzle = the XOR layout of 4  ***
 *   7  swizzle_none, _pad8, _b1, _b2, _b3: the gallery, one 64x64 tile read by ldmatrix.x4 in
 *      each layout: none 8 wavefronts per phase, CUTLASS Swizzle<1,3,3> 4, Swizzle<2,3,3> 2,
 *      Swizzle<3,3,3> (= (row ^ chunk) % 8) 1, padding 1                                      **
 *   8  wgmma_gemm             Hopper (sm_90a): TMA loads 64x64 tiles in the 128-byte swizzle and one
 *                             warpgroup (4 warps) multiplies them with wgmma.mma_async m64n64k16 read
 *                             straight from shared memory through matrix descriptors: no ldmatrix,
 *                             no fragments in registers but the accumulators                     ***
 *   9  wgmma_gemm_ws          8 at speed: warp-specialised (a TMA producer warpgroup, two consumer
 *                             warpgroups of wgmma.m64n256k16 on a 128 x 256 tile), a 4-stage
 *                             full/empty mbarrier ring, a persistent grid: 74.7 % of the H200's
 *                             dense FP16 peak at 8192^3, cuBLAS 65 %                             ***
 *
 * Run one with `warpscope sim mma_ldmatrix_padded` (sizes: -D M=... -D N=... -D K=...).
 * Inputs: A and B are fp16 matrices; the descriptions declare them as ushort buffers of fp16
 * bit patterns drawn from 0x3800..0x3fff, which are exactly the halves in [0.5, 2). Products
 * of two halves are exact in fp32, so C differs from the exact sum only by how the tensor core
 * rounds its fp32 partial sums (order and width undocumented): within K * 2^-24 relative, and
 * tol = 1e-4 covers K up to 1600. The GEMMs need M and N multiples of 32 and K of 64.
 * Fragment layouts: PTX ISA "Matrix Fragments for mma.m16n8k16" and "ldmatrix"; sim/fragments.h. */

#include <cuda.h>          /* CUtensorMap */
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

#define TILE_M 32  /* block tile of C: 2 x 2 warps of 16 x 16 */
#define TILE_N 32
#define TILE_K 64  /* halves per shared row: 128 bytes */

/* ---- the three instructions, as CUTLASS spells them ------------------------------------ */

/* Four 8x8 b16 matrices; lane l supplies the address of row l % 8 of matrix l / 8. */
__device__ __forceinline__ void ldmatrix_x4(unsigned r[4], const __half *smem)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}

/* d (16x8 fp32) += a (16x16 fp16, row) x b (16x8 fp16, col). */
__device__ __forceinline__ void mma_16816(float d[4], const unsigned a[4], const unsigned b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void cp_async16(__half *smem, const __half *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}

/* Where element (row, k) of a TILE_K-wide tile lives in shared memory, in halves: rows of
 * TILE_K + pad halves; with swz, the 16-byte chunk k / 8 of row r moves to chunk (k/8) ^ (r%8). */
__device__ __forceinline__ int tile_offset(int row, int k, int pad, int swz)
{
    int chunk = k >> 3;
    if (swz)
        chunk ^= row & 7;
    return row * (TILE_K + pad) + (chunk << 3) + (k & 7);
}

/* One TILE_K step of a warp's 16x16 of C from the block's A and B tiles (rows of A are m,
 * rows of B are n, both along k). A: lane l gives row l % 16 at k + 8 * (l / 16), so matrices
 * 0..3 are a0..a3 of the mma. B: lanes 0-7 and 8-15 give n 0-7 at k and k + 8 (b0, b1 of the
 * left n8 half), lanes 16-31 the same for n 8-15. */
__device__ __forceinline__ void warp_step(float acc[2][4], const __half *As, const __half *Bs, int wm, int wn,
                                          int pad, int swz)
{
    int lane = threadIdx.x & 31;
    for (int kk = 0; kk < TILE_K; kk += 16) {
        unsigned a[4], b[4];
        ldmatrix_x4(a, &As[tile_offset(wm + (lane & 15), kk + ((lane >> 4) << 3), pad, swz)]);
        ldmatrix_x4(b, &Bs[tile_offset(wn + (lane & 7) + ((lane >> 4) << 3), kk + (((lane >> 3) & 1) << 3), pad, swz)]);
        mma_16816(acc[0], a, b);
        mma_16816(acc[1], a, b + 2);
    }
}

/* c0, c1: row g, columns 2t, 2t+1; c2, c3: row g + 8 (g = lane / 4, t = lane % 4). */
__device__ __forceinline__ void warp_store(float *C, int N, int row0, int col0, const float acc[2][4])
{
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    for (int j = 0; j < 2; j++) {
        size_t at = (size_t)(row0 + g) * N + col0 + j * 8 + 2 * t;
        C[at] = acc[j][0];
        C[at + 1] = acc[j][1];
        C[at + 8 * (size_t)N] = acc[j][2];
        C[at + 8 * (size_t)N + 1] = acc[j][3];
    }
}

/* ------------------------------------------------------------------------------------------ */
/* 1. wmma, naive: every fragment from global memory, K/16 times per tile. B (N x K row-major)
 *    is the col-major K x N matrix wmma's matrix_b wants. */

/*@warpscope
kernel  wmma_gemm_naive
note    wmma: one warp per 16x16 tile of C, A and B fragments loaded from global memory every k-step.
stars   2
param   M = 128
param   N = 128
param   K = 128
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
grid    cdiv(M / 16 * (N / 16), 4)
block   128
bytes   2 * (M*K + N*K) + 4 * M*N
args    A, B, C, M, N, K
*/
__global__ void wmma_gemm_naive(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    using namespace nvcuda;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles_n = N / 16, tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16)
        return;                                        /* whole warps only */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + (size_t)tn * 16 * K + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

/* ------------------------------------------------------------------------------------------ */
/* 2-4. ldmatrix + mma from shared tiles: 128 threads, a 32x32 block tile of C, TILE_K = 64.
 *      The tiles are loaded with 16-byte stores, 8 lanes per row (conflict-free in every
 *      layout); the ldmatrix rows of one matrix are 8 consecutive tile rows at one k:
 *        unpadded: 128 B apart -> bank group (8r) % 8 = 0 for all 8: 8 wavefronts per phase;
 *        pad 8:    144 B apart -> bank group 9r % 8 = r: 1 wavefront;
 *        swizzle:  chunk c ^ r  -> 8 distinct chunks of the 128 B: 1 wavefront. */

/*@warpscope
kernel  mma_ldmatrix_unpadded
entry   mma_ldmatrix
note    ldmatrix from 32x64 half tiles with 128-B rows: all 8 rows of a matrix in one bank group, 8 wavefronts per phase.
stars   3
param   M = 128
param   N = 128
param   K = 128
param   PAD = 0
param   SWZ = 0
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
grid    N / 32, M / 32
block   128
shared  2 * 32 * (64 + PAD) * 2
bytes   2 * (M*K + N*K) + 4 * M*N
args    A, B, C, M, N, K, PAD, SWZ
*/
/*@warpscope
kernel  mma_ldmatrix_padded
entry   mma_ldmatrix
note    The same tiles with rows padded by 8 halves (144 B): row r lands in bank group r % 8, 1 wavefront per phase.
stars   3
param   M = 128
param   N = 128
param   K = 128
param   PAD = 8
param   SWZ = 0
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
grid    N / 32, M / 32
block   128
shared  2 * 32 * (64 + PAD) * 2
bytes   2 * (M*K + N*K) + 4 * M*N
args    A, B, C, M, N, K, PAD, SWZ
*/
/*@warpscope
kernel  mma_ldmatrix_swizzled
entry   mma_ldmatrix
note    No padding: 16-byte chunk c of row r stored at chunk c ^ (r % 8) (XOR swizzle), 1 wavefront per phase.
stars   3
param   M = 128
param   N = 128
param   K = 128
param   PAD = 0
param   SWZ = 1
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
grid    N / 32, M / 32
block   128
shared  2 * 32 * (64 + PAD) * 2
bytes   2 * (M*K + N*K) + 4 * M*N
args    A, B, C, M, N, K, PAD, SWZ
*/
__global__ void mma_ldmatrix(const __half *A, const __half *B, float *C, int M, int N, int K, int pad, int swz)
{
    extern __shared__ __align__(16) __half smem[];
    __half *As = smem, *Bs = smem + TILE_M * (TILE_K + pad);
    int tid = threadIdx.x, warp = tid >> 5;
    int bm = blockIdx.y * TILE_M, bn = blockIdx.x * TILE_N;
    int wm = (warp >> 1) * 16, wn = (warp & 1) * 16;
    float acc[2][4] = {};
    for (int k0 = 0; k0 < K; k0 += TILE_K) {
        for (int c = tid; c < TILE_M * TILE_K / 8; c += blockDim.x) {     /* 16-byte chunks */
            int row = c >> 3, k = (c & 7) << 3;
            *(uint4 *)&As[tile_offset(row, k, pad, swz)] = *(const uint4 *)&A[(size_t)(bm + row) * K + k0 + k];
            *(uint4 *)&Bs[tile_offset(row, k, pad, swz)] = *(const uint4 *)&B[(size_t)(bn + row) * K + k0 + k];
        }
        __syncthreads();
        warp_step(acc, As, Bs, wm, wn, pad, swz);
        __syncthreads();
    }
    warp_store(C, N, bm + wm, bn + wn, acc);
}

/* ------------------------------------------------------------------------------------------ */
/* 5. cp.async double buffering (the swizzled layout of 4): the copy of tile t+1 is issued
 *    before tile t is multiplied; cp.async.wait_group 1 waits for all but the newest group,
 *    i.e. for tile t. The empty group committed on the last step keeps that count right. */

/*@warpscope
kernel  mma_cp_async
note    4 with cp.async double buffering: tile k+1 is copied global->shared while tile k is multiplied.
stars   3
param   M = 128
param   N = 128
param   K = 128
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
grid    N / 32, M / 32
block   128
bytes   2 * (M*K + N*K) + 4 * M*N
args    A, B, C, M, N, K
*/
__device__ __forceinline__ void copy_tiles(__half *As, __half *Bs, const __half *A, const __half *B, int K, int bm,
                                           int bn, int k0)
{
    for (int c = threadIdx.x; c < TILE_M * TILE_K / 8; c += blockDim.x) {
        int row = c >> 3, k = (c & 7) << 3;
        cp_async16(&As[tile_offset(row, k, 0, 1)], &A[(size_t)(bm + row) * K + k0 + k]);
        cp_async16(&Bs[tile_offset(row, k, 0, 1)], &B[(size_t)(bn + row) * K + k0 + k]);
    }
}

__global__ void mma_cp_async(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(128) __half As[2][TILE_M * TILE_K], Bs[2][TILE_N * TILE_K];
    int warp = threadIdx.x >> 5;
    int bm = blockIdx.y * TILE_M, bn = blockIdx.x * TILE_N;
    int wm = (warp >> 1) * 16, wn = (warp & 1) * 16;
    int tiles = K / TILE_K;
    float acc[2][4] = {};
    copy_tiles(As[0], Bs[0], A, B, K, bm, bn, 0);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles)
            copy_tiles(As[(t + 1) & 1], Bs[(t + 1) & 1], A, B, K, bm, bn, (t + 1) * TILE_K);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");     /* tile t has landed (this thread's part) */
        __syncthreads();                                           /* ... and every thread's */
        warp_step(acc, As[t & 1], Bs[t & 1], wm, wn, 0, 1);
        __syncthreads();                                           /* before step t+1 refills this stage */
    }
    warp_store(C, N, bm + wm, bn + wn, acc);
}

/* ------------------------------------------------------------------------------------------ */
/* 6. TMA (sm_90): thread 0 copies each 32x64 tile with one cp.async.bulk.tensor.2d; the stage's
 *    mbarrier counts its 2 x 4096 bytes (expect_tx) and completes when both boxes are in, and
 *    everyone waits on its phase parity. The tensor maps' 128-byte swizzle puts 16-byte chunk c
 *    of tile row r at chunk c ^ (r % 8) - the layout of 4, so warp_step reads it unchanged (the
 *    tiles are 1024-byte aligned: the swizzle works on address bits). No thread moves a byte. */

/*@warpscope
kernel  mma_tma
note    TMA: one thread copies each tile (cp.async.bulk.tensor, 128-B swizzle = the XOR layout of 4); mbarriers say when it landed.
stars   3
param   M = 128
param   N = 128
param   K = 128
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  ushort  M*K  init=random(11, 0x3800, 0x4000)
buffer  B  ushort  N*K  init=random(12, 0x3800, 0x4000)
buffer  C  float   M*N  init=zero  output tol=1e-4
tmap    tA  A  dims=K,M box=64,32 swizzle=128B
tmap    tB  B  dims=K,N box=64,32 swizzle=128B
grid    N / 32, M / 32
block   128
bytes   2 * (M*K + N*K) + 4 * M*N
args    tA, tB, C, M, N, K
*/
__device__ __forceinline__ void tma_tile(__half *dst, const CUtensorMap *map, int k0, int row0, unsigned long long *bar)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst), b = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];\n" ::"r"(d), "l"(map), "r"(k0), "r"(row0), "r"(b) : "memory");
}

__device__ __forceinline__ void tma_stage(__half *As, __half *Bs, const CUtensorMap *tA, const CUtensorMap *tB,
                                          int k0, int bm, int bn, unsigned long long *bar)
{
    unsigned b = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(2 * TILE_M * TILE_K * 2)
                 : "memory");
    tma_tile(As, tA, k0, bm, bar);
    tma_tile(Bs, tB, k0, bn, bar);
}

__global__ void mma_tma(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, float *C,
                        int M, int N, int K)
{
    __shared__ __align__(1024) __half As[2][TILE_M * TILE_K], Bs[2][TILE_N * TILE_K];
    __shared__ __align__(8) unsigned long long full[2];
    int warp = threadIdx.x >> 5;
    int bm = blockIdx.y * TILE_M, bn = blockIdx.x * TILE_N;
    int wm = (warp >> 1) * 16, wn = (warp & 1) * 16;
    int tiles = K / TILE_K;
    float acc[2][4] = {};
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"((unsigned)__cvta_generic_to_shared(&full[s]))
                         : "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  /* the inits, visible to the TMA unit */
        tma_stage(As[0], Bs[0], &tA, &tB, 0, bm, bn, &full[0]);
    }
    __syncthreads();
    for (int t = 0; t < tiles; t++) {
        if (threadIdx.x == 0 && t + 1 < tiles)  /* stage (t+1)&1 was freed by the barrier ending step t-1 */
            tma_stage(As[(t + 1) & 1], Bs[(t + 1) & 1], &tA, &tB, (t + 1) * TILE_K, bm, bn, &full[(t + 1) & 1]);
        unsigned b = (unsigned)__cvta_generic_to_shared(&full[t & 1]);
        asm volatile("{\n\t.reg .pred P1;\n"
                     "LAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                     "\t@P1 bra DONE;\n\tbra LAB_WAIT;\nDONE:\n}\n" ::"r"(b), "r"((t >> 1) & 1) : "memory");
        warp_step(acc, As[t & 1], Bs[t & 1], wm, wn, 0, 1);
        __syncthreads();
    }
    warp_store(C, N, bm + wm, bn + wn, acc);
}

/* ------------------------------------------------------------------------------------------ */
/* 7. The swizzle gallery: one block, one 64x64 half tile T copied into shared memory in a
 *    layout, then every warp reads its 16 rows with ldmatrix.x4 (the A-operand addressing of 2)
 *    and writes the fragments out: out[((warp * 4 + k/16) * 4 + i) * 32 + lane] = register i.
 *    The fragments do not depend on the layout; the wavefronts do. CUTLASS's Swizzle<B,M,S>
 *    on a half index x is x ^ ((x >> S) & ((2^B - 1) << M)); with M = S = 3 it XORs the B low
 *    bits of the row (x / 64) into the 16-byte chunk (x / 8 % 8), so the 8 rows of a phase fall
 *    into 2^B bank groups: 8 / 2^B wavefronts per phase. */

/*@warpscope
kernel  swizzle_none
entry   swizzle_gallery
note    Row-major 64x64 halves: the 8 rows of each ldmatrix phase share a bank group, 8 wavefronts per phase.
stars   2
param   MODE = 0
realistic l2-resident   # one fixed 64x64 tile: the shared-memory layout is the lesson
buffer  T    ushort  64*64  init=random(13, 0x3800, 0x4000)
buffer  out  uint    2048   init=zero  output
grid    1
block   128
args    T, out, MODE
*/
/*@warpscope
kernel  swizzle_pad8
entry   swizzle_gallery
note    Rows padded by 8 halves (72 per row): 1 wavefront per phase for 12.5 % more shared memory.
stars   2
param   MODE = 1
realistic l2-resident   # one fixed 64x64 tile: the shared-memory layout is the lesson
buffer  T    ushort  64*64  init=random(13, 0x3800, 0x4000)
buffer  out  uint    2048   init=zero  output
grid    1
block   128
args    T, out, MODE
*/
/*@warpscope
kernel  swizzle_b1
entry   swizzle_gallery
note    CUTLASS Swizzle<1,3,3>: row bit 0 flips chunk bit 0, 2 bank groups per phase, 4 wavefronts.
stars   2
param   MODE = 2
realistic l2-resident   # one fixed 64x64 tile: the shared-memory layout is the lesson
buffer  T    ushort  64*64  init=random(13, 0x3800, 0x4000)
buffer  out  uint    2048   init=zero  output
grid    1
block   128
args    T, out, MODE
*/
/*@warpscope
kernel  swizzle_b2
entry   swizzle_gallery
note    CUTLASS Swizzle<2,3,3>: 2 row bits into the chunk, 4 bank groups per phase, 2 wavefronts.
stars   2
param   MODE = 3
realistic l2-resident   # one fixed 64x64 tile: the shared-memory layout is the lesson
buffer  T    ushort  64*64  init=random(13, 0x3800, 0x4000)
buffer  out  uint    2048   init=zero  output
grid    1
block   128
args    T, out, MODE
*/
/*@warpscope
kernel  swizzle_b3
entry   swizzle_gallery
note    CUTLASS Swizzle<3,3,3> = chunk ^ (row % 8): 8 bank groups, 1 wavefront per phase, no padding.
stars   2
param   MODE = 4
realistic l2-resident   # one fixed 64x64 tile: the shared-memory layout is the lesson
buffer  T    ushort  64*64  init=random(13, 0x3800, 0x4000)
buffer  out  uint    2048   init=zero  output
grid    1
block   128
args    T, out, MODE
*/
__device__ __forceinline__ int gallery_offset(int row, int k, int mode)
{
    if (mode == 1)
        return row * 72 + k;                             /* padded */
    int x = row * 64 + k;
    if (mode >= 2) {
        int b = mode - 1;                                /* Swizzle<b, 3, 3> */
        x ^= (x >> 3) & (((1 << b) - 1) << 3);
    }
    return x;
}

__global__ void swizzle_gallery(const __half *T, unsigned *out, int mode)
{
    __shared__ __align__(128) __half tile[64 * 72];
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    for (int c = tid; c < 64 * 8; c += blockDim.x) {
        int row = c >> 3, k = (c & 7) << 3;
        *(uint4 *)&tile[gallery_offset(row, k, mode)] = *(const uint4 *)&T[row * 64 + k];
    }
    __syncthreads();
    for (int kk = 0; kk < 64; kk += 16) {
        unsigned r[4];
        ldmatrix_x4(r, &tile[gallery_offset(warp * 16 + (lane & 15), kk + ((lane >> 4) << 3), mode)]);
        for (int i = 0; i < 4; i++)
            out[((warp * 4 + kk / 16) * 4 + i) * 32 + lane] = r[i];
    }
}

/* ------------------------------------------------------------------------------------------ */
/* 8. wgmma (sm_90a; the description's `target sm_90a`): C (64 x 64 per block) = A x B^T with one
 *    warpgroup. Thread 0 loads each 64 x 64 half tile of A and of B (B is N x K: K-major, as
 *    wgmma's B wants it with imm-trans-b 0) by TMA with the 128-byte swizzle, two stages, an
 *    mbarrier each. The warpgroup then issues four wgmma.mma_async.m64n64k16 per tile, one per
 *    16 of K, each reading A and B through a matrix descriptor: start address (the tile, +32
 *    bytes per k step inside its 128-byte rows), stride byte offset 1024 (8 rows of 128 B),
 *    swizzle mode 1 (128B); wgmma.commit_group + wait_group 0 before the barrier that frees the
 *    stage. Warp q of the warpgroup holds rows 16q..16q+15 of the 64 x 64 accumulator, 32 floats
 *    per thread (PTX ISA "wgmma .m64nNk16 register fragment layout for the accumulator D").
 *    Inputs are small integers (randint): every sum is exact, so C is bit-exact on any GPU.
 *    Needs M, N multiples of 64 and K of 64. Compiled for sm_90 (the rest of this file), the
 *    kernel is a trap: wgmma exists only on sm_90a. */

/*@warpscope
kernel  wgmma_gemm
note    Hopper: TMA loads 128-B swizzled 64x64 tiles; one warpgroup multiplies them with wgmma.mma_async from shared memory.
stars   3
target  sm_90a
param   M = 128
param   N = 128
param   K = 256
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  half   M*K  init=randint(11, -4, 5)
buffer  B  half   N*K  init=randint(12, -4, 5)
buffer  C  float  M*N  init=zero  output
tmap    tA  A  dims=K,M box=64,64 swizzle=128B
tmap    tB  B  dims=K,N box=64,64 swizzle=128B
grid    N / 64, M / 64
block   128
bytes   2 * (M*K + N*K) + 4 * M*N
args    tA, tB, C, M, N, K
*/
#define WG_TILE 64

/* A 128B-swizzled, K-major operand tile at smem, k step kk (16 halves = 32 bytes into each row). */
__device__ __forceinline__ unsigned long long wg_desc(const __half *smem, int kk)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(smem) + (unsigned)kk * 2;
    return (unsigned long long)((a & 0x3FFFF) >> 4) | 1ull << 16 /* LBO: unused with a swizzle */ |
           (unsigned long long)(1024 >> 4) << 32 /* SBO: 8 rows of 128 B */ | 1ull << 62 /* 128B */;
}

__device__ __forceinline__ void wg_stage(__half *As, __half *Bs, const CUtensorMap *tA, const CUtensorMap *tB, int k0,
                                         int bm, int bn, unsigned long long *bar)
{
    unsigned b = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(2 * WG_TILE * WG_TILE * 2)
                 : "memory");
    tma_tile(As, tA, k0, bm, bar);
    tma_tile(Bs, tB, k0, bn, bar);
}

__global__ void wgmma_gemm(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, float *C,
                           int M, int N, int K)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(1024) __half As[2][WG_TILE * WG_TILE], Bs[2][WG_TILE * WG_TILE];
    __shared__ __align__(8) unsigned long long full[2];
    int bm = blockIdx.y * WG_TILE, bn = blockIdx.x * WG_TILE, tiles = K / WG_TILE;
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"((unsigned)__cvta_generic_to_shared(&full[s]))
                         : "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        wg_stage(As[0], Bs[0], &tA, &tB, 0, bm, bn, &full[0]);
    }
    __syncthreads();
    for (int t = 0; t < tiles; t++) {
        if (threadIdx.x == 0 && t + 1 < tiles)  /* stage (t+1)&1 was freed by the barrier ending step t-1 */
            wg_stage(As[(t + 1) & 1], Bs[(t + 1) & 1], &tA, &tB, (t + 1) * WG_TILE, bm, bn, &full[(t + 1) & 1]);
        unsigned b = (unsigned)__cvta_generic_to_shared(&full[t & 1]);
        asm volatile("{\n\t.reg .pred P1;\n"
                     "WG_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                     "\t@P1 bra WG_DONE;\n\tbra WG_WAIT;\nWG_DONE:\n}\n" ::"r"(b), "r"((t >> 1) & 1) : "memory");
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        for (int kk = 0; kk < WG_TILE; kk += 16) {
            unsigned long long da = wg_desc(As[t & 1], kk), db = wg_desc(Bs[t & 1], kk);
            asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                         "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                         "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                         "%32, %33, 1, 1, 1, 0, 0;\n"
                         : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                           "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                           "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
                           "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
                           "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                         : "l"(da), "l"(db));
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        __syncthreads();
    }
    int q = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, tq = lane & 3;
    for (int j = 0; j < 8; j++)
        for (int h = 0; h < 4; h++)
            C[(bm + 16 * q + g + 8 * (h >> 1)) * N + bn + 8 * j + 2 * tq + (h & 1)] = d[4 * j + h];
#else
    __trap();  /* wgmma is an sm_90a instruction: this kernel's description asks for that target */
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* 9. wgmma_gemm_ws: the Hopper GEMM at speed (sm_90a). 8 shows the instructions; this is how fast
 *    kernels arrange them. A CTA computes a 128 x 256 tile with three warpgroups. Warpgroup 0
 *    produces: setmaxnreg.dec to 40 registers, one thread issues every TMA copy into a ring of 4
 *    stages of 48 KB (A 128 x 64 halves, B 256 x 64, the 128-byte swizzle). Warpgroups 1-2 consume:
 *    setmaxnreg.inc to 232, each owns 64 rows and issues one wgmma.m64n256k16 per 16 of K from the
 *    matrix descriptors of 8 (+32 bytes per k step, SBO 1024, swizzle mode 1). Each stage has two
 *    mbarriers: full[s] (the producer's arrive.expect_tx of 48 KB, completed by the copies' bytes)
 *    and empty[s] (one arrival per consumer warp, 8, once wgmma.wait_group says its wgmmas have read
 *    the stage). Round r of stage s is phase r of both: consumers wait full[s] for parity r & 1, the
 *    producer empty[s] for parity (r & 1) ^ 1, which a fresh barrier reports complete. One k-tile
 *    of wgmmas stays in flight (wait_group 1) while the previous stage is released. The grid is
 *    persistent (SMS CTAs), walking the tiles 16 tile rows at a time (L2 reuse), so the producer
 *    loads the next tile while the consumers store the last one, straight from registers.
 *    Measured on the H200 at 8192^3 (results/h200-gemm/, docs/hopper-gemm.md): 739 TFLOP/s = 74.7 %
 *    of the 989.4 TFLOP/s dense FP16 peak as tests/gpu/gemm_wgmma.cu times it (random inputs,
 *    back-to-back runs; cuBLAS 647 with the same fp32 output); 807 through `warpscope gpu`. That
 *    benchmark is this kernel with its tile / stage / cluster choices as macros, checked against
 *    cuBLAS bit for bit. Inputs are small integers (randint), so C is bit-exact. Needs M % 128,
 *    N % 256 and K % 64 == 0. Compiled for sm_90 (the rest of this file), the kernel is a trap. */

#define BM 128
#define BN 256
#define BK 64
#define STAGES 4
#define GROUP_M 16
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BN * BK * 2)
#define STAGE_BYTES (A_BYTES + B_BYTES)

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

/* Spin until the phase of parity `parity` has completed. */
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

/* One arrival on the empty barrier at `bar`. */
__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* 2-D tile (x = k, y = row) of the tensor map into shared memory, completing on `bar`. */
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

/* Shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address >> 4 in
 * bits 0-13, LBO >> 4 in 16-29 (1: unused for a swizzled K-major operand), SBO >> 4 in 32-45
 * (1024 bytes between 8-row groups), base offset 0 (the tiles are 1024-aligned), swizzle mode 1
 * (128 bytes) in bits 62-63. Advancing k by 16 halves = +32 bytes = +2 in the address field. */
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) |
           ((uint64_t)1 << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/* Keeps the compiler from moving accumulator reads or writes across the asynchronous wgmmas. */
template <int R> __device__ __forceinline__ void fence_acc(float (&d)[R])
{
    for (int i = 0; i < R; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* D (64 x 256 fp32, 128 registers a thread) += A (64 x 16, smem desc) x B (16 x 256, smem desc), both K-major. */
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
                 "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "n"(1));
}

/* Tile t -> (tile row, tile column): GROUP_M tile rows at a time, column by column. */
__device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int *tm, int *tn)
{
    int per_group = GROUP_M * tiles_n, first = (t / per_group) * GROUP_M;
    int rows = min(tiles_m - first, GROUP_M), local = t % per_group;
    *tm = first + local % rows;
    *tn = local / rows;
}

/*@warpscope
kernel  wgmma_gemm_ws
note    Hopper at speed: a TMA producer warpgroup feeds two wgmma.m64n256k16 consumer warpgroups through a 4-stage mbarrier ring.
stars   3
target  sm_90a
param   M = 256
param   N = 256
param   K = 128
param   SMS = 132
realistic compute-bound M = 4096, N = 4096, K = 4096   # 4096^3: beyond the L2, its reuse is the lesson
buffer  A  half   M*K  init=randint(13, -4, 5)
buffer  B  half   N*K  init=randint(14, -4, 5)
buffer  C  float  M*N  init=zero  output
tmap    tA  A  dims=K,M box=64,128 swizzle=128B
tmap    tB  B  dims=K,N box=64,256 swizzle=128B
grid    min(SMS, (M / 128) * (N / 256))
block   384
shared  4 * 49152 + 1024
bytes   2 * (M*K + N*K) + 4 * M*N
args    tA, tB, C, M, N, K
*/
__global__ void __launch_bounds__(384, 1)
wgmma_gemm_ws(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, float *C, int M, int N,
              int K)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t smem_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    const uint32_t ring = (smem_u32(smem_raw) + 1023) & ~1023u;  /* swizzled tiles want 1024-byte alignment */
    const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&full[s]), 1);    /* the producer's expect_tx */
            mbar_init(smem_u32(&empty[s]), 8);   /* every consumer warp */
        }
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  /* the inits, visible to the TMA unit */
    }
    __syncthreads();
    const int tiles_m = M / BM, tiles_n = N / BN, tiles = tiles_m * tiles_n, k_tiles = K / BK;

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (tid == 0) {
            uint32_t it = 0;
            for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
                int tm, tn;
                tile_coords(t, tiles_m, tiles_n, &tm, &tn);
                for (int kt = 0; kt < k_tiles; kt++, it++) {
                    const uint32_t s = it % STAGES, parity = (it / STAGES) & 1;
                    const uint32_t fb = smem_u32(&full[s]), a = ring + s * STAGE_BYTES;
                    mbar_wait(smem_u32(&empty[s]), parity ^ 1);
                    mbar_expect_tx(fb, STAGE_BYTES);
                    tma_load(a, &tA, kt * BK, tm * BM, fb);
                    tma_load(a + A_BYTES, &tB, kt * BK, tn * BN, fb);
                }
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        const int c = wg - 1, warp = tid / 32, lane = tid % 32;
        float acc[BN / 2];
        uint32_t it = 0;
        for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
            int tm, tn;
            tile_coords(t, tiles_m, tiles_n, &tm, &tn);
            for (int i = 0; i < BN / 2; i++)
                acc[i] = 0.0f;
            uint32_t prev = 0;
            for (int kt = 0; kt < k_tiles; kt++, it++) {
                const uint32_t s = it % STAGES, parity = (it / STAGES) & 1;
                const uint32_t a = ring + s * STAGE_BYTES + c * (64 * BK * 2), b = ring + s * STAGE_BYTES + A_BYTES;
                mbar_wait(smem_u32(&full[s]), parity);
                const uint64_t da = smem_desc(a), db = smem_desc(b);
                fence_acc(acc);
                wgmma_fence();
                for (int kk = 0; kk < BK / 16; kk++)
                    wgmma_m64n256k16(acc, da + (uint64_t)(2 * kk), db + (uint64_t)(2 * kk));
                wgmma_commit();
                fence_acc(acc);
                if (kt > 0) {
                    wgmma_wait<1>();   /* the previous k-tile's wgmmas are done: release its stage */
                    if (lane == 0)
                        mbar_arrive(smem_u32(&empty[prev]));
                }
                prev = s;
            }
            wgmma_wait<0>();
            fence_acc(acc);
            if (lane == 0)
                mbar_arrive(smem_u32(&empty[prev]));
            /* D layout: mma.m16n8's per 8 columns; warp w of the warpgroup holds rows 16w..16w+15 */
            const int g = lane / 4, q = lane % 4;
            const int row = tm * BM + c * 64 + warp * 16 + g;
            float *c0 = C + (size_t)row * N + tn * BN + 2 * q, *c8 = c0 + 8 * (size_t)N;
            for (int j = 0; j < BN / 8; j++) {
                *(float2 *)(c0 + 8 * j) = make_float2(acc[4 * j], acc[4 * j + 1]);
                *(float2 *)(c8 + 8 * j) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
            }
        }
    }
#else
    __trap();  /* wgmma and setmaxnreg are sm_90a instructions: this kernel's description asks for that target */
#endif
}
