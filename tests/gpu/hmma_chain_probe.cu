/* hmma_chain_probe.cu - chains of tensor-core multiply-accumulates (D of one step is C of the
 * next), every intermediate D recorded, for inputs chosen to show how the H200 accumulates when
 * C is itself an f16 (or an f32 far larger than the products), and how tf32 operands whose low 13
 * bits are not zero enter the unit. results/h200-hmma-rule/ fitted the rule of one mma.sync on
 * crafted and random C; the issue-24 corpus's f16-accumulator GEMMs (16 chained mmas) still differ
 * in 31 of 65536 outputs, and the wmma m16n16k8 tf32 sample almost everywhere.
 *
 * The same file runs on both sides through its descriptions (scripts/gpu-hmma-chain.sh: `warpscope
 * gpu --save` there, `warpscope sim --save` here), so the inputs are the same bits: every input is
 * made in the kernel from a hash of (form, chain, step, matrix, row, column) with integer
 * operations only, and written to the record buffers A, B, C0 as the unit reads them. D holds every
 * step's D. scripts/hmma-chain-fit.py then judges rules against the GPU's D (its C at step s is the
 * GPU's D of step s - 1, so one differing step does not spoil the rest of the chain).
 *
 * Records (all uint, one element per word: f16/bf16 bits in the low 16): for chain ch and step s,
 *   A[((ch*S + s)*M + i)*K + k], B[((ch*S + s)*K + k)*N + j], C0[(ch*M + i)*N + j],
 *   D[((ch*S + s)*M + i)*N + j]  (row-major, logical positions; the wmma forms below store A, B, C
 *   and D in memory in the layout they load and store, and say so).
 * Chain ch is family ch % 8 (fam_* below): gemm from 0, gemm, big C, near ties, cancellation,
 * near overflow, subnormals, mixed exponents. One warp per chain, 4 warps per block. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

/* The generators' linkage: inlined by default (what ran on the H200); tests/data/tensor/hmma_chain.ptx
 * is built with -DHMMA_CHAIN_GEN='__device__ __noinline__' (the same arithmetic, a PTX a tenth the size). */
#ifndef HMMA_CHAIN_GEN
#define HMMA_CHAIN_GEN __device__
#endif

enum { T_F16, T_BF16, T_F32 };                   /* element types; T_F32 is also tf32's raw bits */
enum { M_A, M_B, M_C };
enum { FAM_GEMM0, FAM_GEMM, FAM_BIGC, FAM_TIES, FAM_CANCEL, FAM_BIG, FAM_SUB, FAM_MIXED };

__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Bits of a number of type T: sign s, unbiased exponent e, the fraction's top `keep` bits taken
 * from f23 (23 random bits); below the type's smallest normal it is encoded as the subnormal it
 * truncates to, above its largest finite exponent clamped there (no inf or NaN as an input). */
__device__ __forceinline__ uint32_t make_num(int T, uint32_t s, int e, uint32_t f23, int keep)
{
    int fb = T == T_F16 ? 10 : T == T_BF16 ? 7 : 23;
    int bias = T == T_F16 ? 15 : 127, fmax = T == T_F16 ? 30 : 254;
    uint32_t f = f23 >> (23 - fb);
    if (keep < fb) f &= ~((1u << (fb - keep)) - 1u);
    int field = e + bias;
    if (field > fmax) field = fmax;
    if (field <= 0) {
        int sh = 1 - field;
        f = sh > fb ? 0 : ((1u << fb) | f) >> sh;
        field = 0;
    }
    uint32_t w = T == T_F32 ? 31 : 15;
    return s << w | (uint32_t)field << fb | f;
}

/* The exponent of a number uniform in [0.5, 1), [0.25, 0.5), ... with probabilities 1/2, 1/4, ...:
 * with a random sign and fraction, |x| uniform in [0, 1) as the corpus's inputs are. */
__device__ __forceinline__ int uexp(uint32_t r) { return -1 - __clz(r | 1u); }

/* One input element. T its type, DT the type of D (for C's scale), fam the family, h its hash,
 * mat its matrix, pair = it is one of the cancelling pair (A[i][0], A[i][1]); tf32 = the element
 * is a tf32 operand given as raw f32 bits (its low 13 bits made non-zero, a quarter of them at the
 * rounding boundaries 0x1000, 0x0fff, 0x1001). */
HMMA_CHAIN_GEN uint32_t element(int T, int DT, int fam, uint64_t h, int mat, bool tf32, bool pair)
{
    uint32_t s = (uint32_t)(h >> 63), f23 = (uint32_t)(h >> 40) & 0x7fffffu, r = (uint32_t)h;
    uint32_t sel = (uint32_t)(h >> 32) & 0xff;
    bool d16 = DT == T_F16, in16 = T == T_F16;
    int emin = T == T_F16 ? -14 : -126, cemin = d16 ? -14 : -126;
    int e = uexp(r), keep = 23;
    bool zero = false;
    switch (fam) {
    case FAM_GEMM0: zero = mat == M_C; break;
    case FAM_GEMM: break;
    case FAM_BIGC:
        if (mat == M_C) e = d16 ? 8 + (int)(sel % 4) : 8 + (int)(sel % 13);
        break;
    case FAM_TIES:   /* short fractions: sums land on the rounding boundary of D; a few tiny terms */
        if (mat == M_A) {
            e = -(int)(sel % 4), keep = 2;
            if ((sel >> 5) == 0) e = d16 ? -20 + (int)(sel % 10) : -14 + (int)(sel % 8), keep = 23;
        } else if (mat == M_B) e = -(int)(sel % 4), keep = 0;
        else e = d16 ? (int)(sel % 5) : 12 + (int)(sel % 5), keep = 4;
        break;
    case FAM_CANCEL: /* A[i][0] = -A[i][1] large, B[0][j] = B[1][j] (get() pairs their hashes) */
        if (mat == M_A && pair) e = 4 + (int)(sel % 7);
        else if (mat == M_A) e -= (int)(sel % 6);
        break;
    case FAM_BIG:
        if (in16 && d16) e = mat == M_C ? 13 + (int)(sel % 3) : 1 + (int)(sel % 4);
        else if (in16) e = mat == M_C ? 100 + (int)(sel % 28) : 10 + (int)(sel % 6);
        else e = mat == M_C ? 100 + (int)(sel % 28) : 50 + (int)(sel % 14);
        break;
    case FAM_SUB:
        if (mat == M_C) e = cemin - 1 - (int)(sel % 8), zero = (sel & 0x30) == 0;
        else if (mat == M_B && (sel & 0xe0) == 0xe0) e = in16 ? (int)(sel % 8) : (int)(sel % 61);
        else e = (sel & 0x40) ? emin - 1 - (int)(sel % 10) : emin + (int)(sel % 3);
        break;
    case FAM_MIXED:
        if (in16 && mat != M_C) e = -10 + (int)(sel % 18);
        else if (mat == M_C) e = d16 ? -10 + (int)(sel % 21) : -40 + (int)(sel % 81);
        else e = -40 + (int)(sel % 81);
        zero = (r >> 28) == 0;
        break;
    }
    if (zero) return 0;
    uint32_t b = make_num(T, s, e, f23, keep);
    if (tf32) {
        uint32_t lo = (uint32_t)(h >> 8) & 0x1fffu, q = (uint32_t)(h >> 21) & 7;
        lo = q == 0 ? 0x1000u : q == 1 ? 0x0fffu : q == 2 ? 0x1001u : lo ? lo : 1u;
        if (b & 0x7fffffffu) b = (b & ~0x1fffu) | lo;
    }
    return b;
}

/* The hash of an element; the cancellation family pairs A[i][1] with A[i][0] (negated by the
 * caller) and B[1][j] with B[0][j]. */
__device__ __forceinline__ uint64_t ehash(int form, int ch, int s, int mat, int r, int c)
{
    uint64_t k = (uint64_t)form << 56 ^ (uint64_t)ch << 36 ^ (uint64_t)s << 24 ^ (uint64_t)mat << 16 ^ (uint64_t)r << 8 ^ (uint64_t)c;
    return mix64(k * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull);
}

struct chainctx {
    int form, T, DT, fam, ch, S, M, N, K;
    bool tf32;
    uint32_t *A, *B, *C0, *D;
};

/* Element (r, c) of matrix mat at step s, recorded at its logical place (A/B at step s, C = C0). */
HMMA_CHAIN_GEN uint32_t get(const chainctx &x, int s, int mat, int r, int c)
{
    int rr = r, cc = c;
    bool neg = false;
    if (x.fam == FAM_CANCEL && mat == M_A && c == 1) cc = 0, neg = true;
    if (x.fam == FAM_CANCEL && mat == M_B && r == 1) rr = 0;
    int T = mat == M_C ? x.DT : x.T;
    bool pair = x.fam == FAM_CANCEL && mat == M_A && c < 2;
    uint32_t b = element(T, x.DT, x.fam, ehash(x.form, x.ch, mat == M_C ? 0 : s, mat, rr, cc), mat,
                         x.tf32 && mat != M_C, pair);
    if (neg && b) b ^= T == T_F32 ? 0x80000000u : 0x8000u;
    if (mat == M_A) x.A[((size_t)(x.ch * x.S + s) * x.M + r) * x.K + c] = b;
    else if (mat == M_B) x.B[((size_t)(x.ch * x.S + s) * x.K + r) * x.N + c] = b;
    else x.C0[((size_t)x.ch * x.M + r) * x.N + c] = b;
    return b;
}

__device__ __forceinline__ void put_d(const chainctx &x, int s, int r, int c, uint32_t b)
{
    x.D[((size_t)(x.ch * x.S + s) * x.M + r) * x.N + c] = b;
}

__device__ __forceinline__ uint32_t pack(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | hi << 16; }

/* mma.sync m16n8k16 / m16n8k8 with f16 or bf16 A and B, f16 or f32 C and D; fragment layouts of the
 * PTX ISA ("Matrix Fragments for mma.m16n8k16 / m16n8k8"): g = lane / 4, t = lane % 4. */
template <int FORM, int T, int DT, int K>
__device__ void chain16(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    int l = threadIdx.x % 32, g = l / 4, t = l % 4;
    int ch = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (ch >= nch) return;
    chainctx x = {FORM, T, DT, ch % 8, ch, S, 16, 8, K, false, A, B, C0, D};
    uint32_t c[4];
    c[0] = get(x, 0, M_C, g, 2 * t), c[1] = get(x, 0, M_C, g, 2 * t + 1);
    c[2] = get(x, 0, M_C, g + 8, 2 * t), c[3] = get(x, 0, M_C, g + 8, 2 * t + 1);
    uint32_t h0 = pack(c[0], c[1]), h1 = pack(c[2], c[3]);
    for (int s = 0; s < S; s++) {
        uint32_t a0 = pack(get(x, s, M_A, g, 2 * t), get(x, s, M_A, g, 2 * t + 1));
        uint32_t a1 = pack(get(x, s, M_A, g + 8, 2 * t), get(x, s, M_A, g + 8, 2 * t + 1));
        uint32_t b0 = pack(get(x, s, M_B, 2 * t, g), get(x, s, M_B, 2 * t + 1, g));
        if (K == 16) {
            uint32_t a2 = pack(get(x, s, M_A, g, 2 * t + 8), get(x, s, M_A, g, 2 * t + 9));
            uint32_t a3 = pack(get(x, s, M_A, g + 8, 2 * t + 8), get(x, s, M_A, g + 8, 2 * t + 9));
            uint32_t b1 = pack(get(x, s, M_B, 2 * t + 8, g), get(x, s, M_B, 2 * t + 9, g));
            if (DT == T_F16)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                             : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            else if (T == T_BF16)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                             "{%0,%1,%2,%3};"
                             : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            else
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                             "{%0,%1,%2,%3};"
                             : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        } else {
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};"
                         : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(b0));
        }
        if (DT == T_F16) c[0] = h0 & 0xffff, c[1] = h0 >> 16, c[2] = h1 & 0xffff, c[3] = h1 >> 16;
        put_d(x, s, g, 2 * t, c[0]), put_d(x, s, g, 2 * t + 1, c[1]);
        put_d(x, s, g + 8, 2 * t, c[2]), put_d(x, s, g + 8, 2 * t + 1, c[3]);
    }
}

/* mma.sync m16n8k8 / m16n8k4 tf32 into f32, the operands raw f32 bits with non-zero low 13 bits. */
template <int FORM, int K>
__device__ void chain_tf32(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    int l = threadIdx.x % 32, g = l / 4, t = l % 4;
    int ch = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (ch >= nch) return;
    chainctx x = {FORM, T_F32, T_F32, ch % 8, ch, S, 16, 8, K, true, A, B, C0, D};
    uint32_t c[4];
    c[0] = get(x, 0, M_C, g, 2 * t), c[1] = get(x, 0, M_C, g, 2 * t + 1);
    c[2] = get(x, 0, M_C, g + 8, 2 * t), c[3] = get(x, 0, M_C, g + 8, 2 * t + 1);
    for (int s = 0; s < S; s++) {
        uint32_t a0 = get(x, s, M_A, g, t), a1 = get(x, s, M_A, g + 8, t), b0 = get(x, s, M_B, t, g);
        if (K == 8) {
            uint32_t a2 = get(x, s, M_A, g, t + 4), a3 = get(x, s, M_A, g + 8, t + 4), b1 = get(x, s, M_B, t + 4, g);
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                         "{%0,%1,%2,%3};"
                         : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        } else {
            asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(a0), "r"(a1), "r"(b0));
        }
        put_d(x, s, g, 2 * t, c[0]), put_d(x, s, g, 2 * t + 1, c[1]);
        put_d(x, s, g + 8, 2 * t, c[2]), put_d(x, s, g + 8, 2 * t + 1, c[3]);
    }
}

/* wmma m16n16k8 tf32 (the cuda-samples tf32TensorCoreGemm form): A 16 x 8, B 8 x 16, C and D
 * 16 x 16 through load_matrix_sync / mma_sync / store_matrix_sync. COLA = 0: A row-major (ldm 8),
 * B col-major (ldm 8), C0 and D stored mem_row_major (ldm 16); COLA = 1: A col-major (ldm 16), B
 * row-major (ldm 16), C0 and D mem_col_major. So here the records hold each matrix in that memory
 * layout (the fitter knows which). Odd chains pass the operands through wmma::__float_to_tf32
 * (cvt.rna.tf32.f32) before they are stored, as the sample does to its fragments; even chains
 * give the unit the raw f32 bits. */
template <int FORM, int COLA>
__device__ void chain_wmma_tf32(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    using namespace nvcuda;
    int l = threadIdx.x % 32;
    int ch = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (ch >= nch) return;
    chainctx x = {FORM, T_F32, T_F32, ch % 8, ch, S, 16, 16, 8, true, A, B, C0, D};
    bool cvt = ch & 1;
    uint32_t *C0m = C0 + (size_t)ch * 256, cv[8];
    for (int q = 0; q < 8; q++) cv[q] = get(x, 0, M_C, (l + 32 * q) / 16, (l + 32 * q) % 16);
    __syncwarp();    /* get() wrote the logical record; overwrite it in the memory layout */
    for (int q = 0; q < 8; q++) {
        int e = l + 32 * q, i = e / 16, j = e % 16;
        C0m[COLA ? j * 16 + i : i * 16 + j] = cv[q];
    }
    __syncwarp();
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::load_matrix_sync(acc, (const float *)C0m, 16, COLA ? wmma::mem_col_major : wmma::mem_row_major);
    for (int s = 0; s < S; s++) {
        uint32_t *Am = A + (size_t)(ch * S + s) * 128, *Bm = B + (size_t)(ch * S + s) * 128;
        uint32_t av[4], bv[4];
        for (int q = 0; q < 4; q++) {
            int e = l + 32 * q;
            av[q] = get(x, s, M_A, e / 8, e % 8);       /* A (i, k) */
            bv[q] = get(x, s, M_B, e / 16, e % 16);     /* B (k, j) */
            if (cvt) {
                av[q] = __float_as_uint(wmma::__float_to_tf32(__uint_as_float(av[q])));
                bv[q] = __float_as_uint(wmma::__float_to_tf32(__uint_as_float(bv[q])));
            }
        }
        __syncwarp();    /* get() wrote the logical records; overwrite them in the memory layout */
        for (int q = 0; q < 4; q++) {
            int e = l + 32 * q, i = e / 8, k = e % 8, kb = e / 16, j = e % 16;
            Am[COLA ? k * 16 + i : i * 8 + k] = av[q];
            Bm[COLA ? kb * 16 + j : j * 8 + kb] = bv[q];
        }
        __syncwarp();
        if (COLA) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major> a;
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
            wmma::load_matrix_sync(a, (const float *)Am, 16);
            wmma::load_matrix_sync(b, (const float *)Bm, 16);
            wmma::mma_sync(acc, a, b, acc);
        } else {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
            wmma::load_matrix_sync(a, (const float *)Am, 8);
            wmma::load_matrix_sync(b, (const float *)Bm, 8);
            wmma::mma_sync(acc, a, b, acc);
        }
        wmma::store_matrix_sync((float *)(D + (size_t)(ch * S + s) * 256), acc, 16,
                                COLA ? wmma::mem_col_major : wmma::mem_row_major);
        __syncwarp();
    }
}

/*@warpscope
kernel  chain_f16_k16
note    hmma chain probe: mma.sync m16n8k16 f16 x f16 + f16, D of each step the next C
param   NCH = 2048
param   S = 16
buffer  A   uint  NCH*S*256  output
buffer  B   uint  NCH*S*128  output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_f16_k16(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain16<0, T_F16, T_F16, 16>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_f16_k8
note    hmma chain probe: mma.sync m16n8k8 f16 x f16 + f16
param   NCH = 1024
param   S = 16
buffer  A   uint  NCH*S*128  output
buffer  B   uint  NCH*S*64   output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_f16_k8(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain16<1, T_F16, T_F16, 8>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_f16f32_k16
note    hmma chain probe (control): mma.sync m16n8k16 f16 x f16 + f32
param   NCH = 512
param   S = 8
buffer  A   uint  NCH*S*256  output
buffer  B   uint  NCH*S*128  output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_f16f32_k16(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain16<2, T_F16, T_F32, 16>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_bf16_k16
note    hmma chain probe: mma.sync m16n8k16 bf16 x bf16 + f32
param   NCH = 512
param   S = 8
buffer  A   uint  NCH*S*256  output
buffer  B   uint  NCH*S*128  output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_bf16_k16(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain16<3, T_BF16, T_F32, 16>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_tf32_k8
note    hmma chain probe: mma.sync m16n8k8 tf32 (raw f32 bits, low 13 bits set) + f32
param   NCH = 512
param   S = 8
buffer  A   uint  NCH*S*128  output
buffer  B   uint  NCH*S*64   output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_tf32_k8(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain_tf32<4, 8>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_tf32_k4
note    hmma chain probe: mma.sync m16n8k4 tf32 (raw f32 bits, low 13 bits set) + f32
param   NCH = 512
param   S = 8
buffer  A   uint  NCH*S*64   output
buffer  B   uint  NCH*S*32   output
buffer  C0  uint  NCH*128    output
buffer  D   uint  NCH*S*128  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_tf32_k4(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain_tf32<5, 4>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_wmma_tf32_rc
note    hmma chain probe: wmma m16n16k8 tf32, A row-major, B col-major, C/D mem_row_major
param   NCH = 256
param   S = 8
buffer  A   uint  NCH*S*128  output
buffer  B   uint  NCH*S*128  output
buffer  C0  uint  NCH*256    output
buffer  D   uint  NCH*S*256  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_wmma_tf32_rc(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain_wmma_tf32<6, 0>(A, B, C0, D, nch, S);
}

/*@warpscope
kernel  chain_wmma_tf32_cr
note    hmma chain probe: wmma m16n16k8 tf32, A col-major, B row-major, C/D mem_col_major
param   NCH = 256
param   S = 8
buffer  A   uint  NCH*S*128  output
buffer  B   uint  NCH*S*128  output
buffer  C0  uint  NCH*256    output
buffer  D   uint  NCH*S*256  output
grid    NCH / 4
block   128
args    A, B, C0, D, NCH, S
*/
__global__ void chain_wmma_tf32_cr(uint32_t *A, uint32_t *B, uint32_t *C0, uint32_t *D, int nch, int S)
{
    chain_wmma_tf32<7, 1>(A, B, C0, D, nch, S);
}
