// wgmma kernels for tests/test_wgmma.c: one warpgroup (128 threads) computes D (64 x 64, f32 or s32)
// = A (64 x K) * B (K x 64) [+ C] with wgmma.mma_async.m64n64kK, its operands placed in shared
// memory in the layout a swizzle mode describes, as TMA would write them (PTX ISA "Shared Memory
// Matrix Layout"; CUTLASS's canonical GMMA layouts), and D written from the accumulator layout of the
// ISA's figure (warp q holds rows 16q..16q+15 as mma.m16n8 lays out C). The test compares D with a
// matrix product it computes itself.
// The descriptions let scripts/gpu-wgmma.sh run each through `warpscope check` on an sm_90 GPU
// (-D MODE=0..3). Regenerate (from the repository root): nvcc -ptx -arch=sm_90a -lineinfo -O3 tests/data/wgmma/wgmma.cu
// -o tests/data/wgmma/wgmma.ptx, then make its .file 1 path relative (tests/data/wgmma/wgmma.cu).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define D32(i) "+f"(d[i])
#define I32(i) "+r"(d[i])
#define DREGS "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
              "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define DOUTS(X) X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7), X(8), X(9), X(10), X(11), X(12), X(13), X(14), \
                 X(15), X(16), X(17), X(18), X(19), X(20), X(21), X(22), X(23), X(24), X(25), X(26), X(27), X(28), \
                 X(29), X(30), X(31)

// Swizzle modes as the descriptor encodes them: 0 none, 1 128B, 2 64B, 3 32B.
__device__ int swz_bytes(int mode) { return mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0; }

// Swizzle<B,4,3> on a tile offset (the tile is 1024-aligned, so on the shared address too).
__device__ unsigned sw(unsigned off, int W)
{
    unsigned bits = W == 32 ? 1 : W == 64 ? 3 : W == 128 ? 7 : 0;
    return off ^ ((off >> 7 & bits) << 4);
}

// K-major operand (rows x 32 bytes of K): byte kb of row mn. none: 8 x 16-byte core matrices, the
// two K halves LBO = 128 apart, 8-row groups SBO = 256 apart; swizzled: rows W bytes apart, 8-row
// groups SBO = 8W apart.
__device__ unsigned place_k(int mn, int kb, int mode, unsigned *lbo, unsigned *sbo)
{
    int W = swz_bytes(mode);
    if (!W) { *lbo = 128; *sbo = 256; return (mn / 8) * 256 + (mn % 8) * 16 + (kb / 16) * 128 + kb % 16; }
    *lbo = 16; *sbo = 8 * W;
    return sw((mn / 8) * 8 * W + (mn % 8) * W + kb, W);
}

// MN-major operand (16 k rows of 2-byte elements, rows of the MN extent): none: core matrices of
// 8 k x 8 mn, the next 8 mn SBO = 128 apart, the next 8 k LBO = 1024 apart; swizzled: k rows W
// bytes apart, 8 k rows SBO = 8W apart, the next W/2 mn elements LBO = 16W apart.
__device__ unsigned place_mn(int mn, int k, int mode, unsigned *lbo, unsigned *sbo)
{
    int W = swz_bytes(mode);
    if (!W) { *lbo = 1024; *sbo = 128; return (mn / 8) * 128 + (k % 8) * 16 + (k / 8) * 1024 + (mn % 8) * 2; }
    int per = W / 2;                                   // 2-byte elements per row
    *lbo = 16 * W; *sbo = 8 * W;
    return sw((mn / per) * 16 * W + (k / 8) * 8 * W + (k % 8) * W + (mn % per) * 2, W);
}

__device__ unsigned long long make_desc(const void *p, unsigned lbo, unsigned sbo, int mode)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a & 0x3FFFF) >> 4) | (unsigned long long)(lbo >> 4) << 16 |
           (unsigned long long)(sbo >> 4) << 32 | (unsigned long long)mode << 62;
}

// Places the 64 x kbytes operand X (row-major in global, rows = MN, columns = K bytes) in s.
__device__ void stage_k(unsigned char *s, const unsigned char *x, int kbytes, int mode, unsigned *lbo, unsigned *sbo)
{
    for (int i = threadIdx.x; i < 64 * kbytes; i += blockDim.x) s[place_k(i / kbytes, i % kbytes, mode, lbo, sbo)] = x[i];
}
__device__ void stage_mn(unsigned char *s, const unsigned short *x, int mode, unsigned *lbo, unsigned *sbo)
{   // x is 64 (mn) x 16 (k) 2-byte elements, row-major
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
        unsigned o = place_mn(i / 16, i % 16, mode, lbo, sbo);
        s[o] = (unsigned char)x[i]; s[o + 1] = (unsigned char)(x[i] >> 8);
    }
}

// C in, D out: row-major 64 x 64, from and to the accumulator fragment.
__device__ void frag_in(float *d, const float *c)
{
    int q = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    for (int j = 0; j < 8; j++)
        for (int h = 0; h < 4; h++) d[4 * j + h] = c[(16 * q + g + 8 * (h / 2)) * 64 + 8 * j + 2 * t + h % 2];
}
__device__ void frag_out(float *o, const float *d)
{
    int q = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    for (int j = 0; j < 8; j++)
        for (int h = 0; h < 4; h++) o[(16 * q + g + 8 * (h / 2)) * 64 + 8 * j + 2 * t + h % 2] = d[4 * j + h];
}

__device__ void fence_all() { asm volatile("fence.proxy.async.shared::cta;\n" "wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ void commit_wait() { asm volatile("wgmma.commit_group.sync.aligned;\n" "wgmma.wait_group.sync.aligned 0;" ::: "memory"); }

// A and B from shared memory: f16 or bf16, imm-trans-a / -b = TA / TB (B is given K x N row-major,
// i.e. N-major; for TB = 0 the kernel transposes it into its K-major place).
#define SS_KERNEL(NAME, TYPE, TA, TB)                                                                        \
__device__ __forceinline__ void NAME##_body(float *out, const unsigned short *A, const unsigned short *B,     \
                                            const float *C, int mode, int accumulate)                        \
{                                                                                                            \
    __shared__ __align__(1024) unsigned char sa[8192], sb[8192];                                             \
    __shared__ unsigned short bt[64 * 16];                                                                   \
    unsigned la, sa_, lb, sb_;                                                                               \
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) bt[(i % 64) * 16 + i / 64] = B[i]; /* B^T: n x k */ \
    __syncthreads();                                                                                         \
    if (TA) stage_mn(sa, A, mode, &la, &sa_); else stage_k(sa, (const unsigned char *)A, 32, mode, &la, &sa_); \
    if (TB) stage_mn(sb, bt, mode, &lb, &sb_); else stage_k(sb, (const unsigned char *)bt, 32, mode, &lb, &sb_); \
    __syncthreads();                                                                                         \
    float d[32];                                                                                             \
    frag_in(d, C);                                                                                           \
    unsigned long long da = make_desc(sa, la, sa_, mode), db = make_desc(sb, lb, sb_, mode);                 \
    fence_all();                                                                                             \
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %34, 0;\n"                                                  \
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " " DREGS ", %32, %33, p, 1, 1, " \
                 #TA ", " #TB "; }"                                                                          \
                 : DOUTS(D32) : "l"(da), "l"(db), "r"(accumulate));                                          \
    commit_wait();                                                                                           \
    frag_out(out, d);                                                                                        \
}

/*@warpscope
kernel  wgmma_ss_f16
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    half   64*16  init=randint(11, -4, 5)
buffer  B    half   16*64  init=randint(23, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
SS_KERNEL(wgmma_ss_f16, "f16", 0, 0)
extern "C" __global__ void wgmma_ss_f16(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_ss_f16_body(out, A, B, C, mode, accumulate);
}
/*@warpscope
kernel  wgmma_ss_f16_tnsp
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    half   64*16  init=randint(12, -4, 5)
buffer  B    half   16*64  init=randint(24, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
SS_KERNEL(wgmma_ss_f16_tnsp, "f16", 1, 1)
extern "C" __global__ void wgmma_ss_f16_tnsp(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_ss_f16_tnsp_body(out, A, B, C, mode, accumulate);
}
/*@warpscope
kernel  wgmma_ss_bf16
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    bf16   64*16  init=randint(13, -4, 5)
buffer  B    bf16   16*64  init=randint(25, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
SS_KERNEL(wgmma_ss_bf16, "bf16", 0, 0)
extern "C" __global__ void wgmma_ss_bf16(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_ss_bf16_body(out, A, B, C, mode, accumulate);
}
/*@warpscope
kernel  wgmma_ss_bf16_tnsp
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    bf16   64*16  init=randint(14, -4, 5)
buffer  B    bf16   16*64  init=randint(26, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
SS_KERNEL(wgmma_ss_bf16_tnsp, "bf16", 1, 1)
extern "C" __global__ void wgmma_ss_bf16_tnsp(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_ss_bf16_tnsp_body(out, A, B, C, mode, accumulate);
}

// A from registers (the mma.m16n8k16 A layout, warp q's rows 16q..), B from shared (K-major, or
// N-major when TB), imm-scale-a = SA (1 or -1).
#define RS_KERNEL(NAME, TB, SA)                                                                              \
__device__ __forceinline__ void NAME##_body(float *out, const unsigned short *A, const unsigned short *B,     \
                                            const float *C, int mode, int accumulate)                        \
{                                                                                                            \
    __shared__ __align__(1024) unsigned char sb[8192];                                                       \
    __shared__ unsigned short bt[64 * 16];                                                                   \
    unsigned lb, sb_;                                                                                        \
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) bt[(i % 64) * 16 + i / 64] = B[i];               \
    __syncthreads();                                                                                         \
    if (TB) stage_mn(sb, bt, mode, &lb, &sb_); else stage_k(sb, (const unsigned char *)bt, 32, mode, &lb, &sb_); \
    __syncthreads();                                                                                         \
    int q = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4, r0 = 16 * q + g;                  \
    unsigned a[4];                                                                                           \
    for (int h = 0; h < 4; h++) {                                                                            \
        int r = r0 + 8 * (h % 2), k = 2 * t + 8 * (h / 2);                                                   \
        a[h] = (unsigned)A[r * 16 + k] | (unsigned)A[r * 16 + k + 1] << 16;                                  \
    }                                                                                                        \
    float d[32];                                                                                             \
    frag_in(d, C);                                                                                           \
    unsigned long long db = make_desc(sb, lb, sb_, mode);                                                    \
    fence_all();                                                                                             \
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %37, 0;\n"                                                  \
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " DREGS ", {%32, %33, %34, %35}, %36, p, " \
                 #SA ", 1, " #TB "; }"                                                                       \
                 : DOUTS(D32) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));       \
    commit_wait();                                                                                           \
    frag_out(out, d);                                                                                        \
}

/*@warpscope
kernel  wgmma_rs_f16
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    half   64*16  init=randint(15, -4, 5)
buffer  B    half   16*64  init=randint(27, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
RS_KERNEL(wgmma_rs_f16, 0, 1)
extern "C" __global__ void wgmma_rs_f16(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_rs_f16_body(out, A, B, C, mode, accumulate);
}
/*@warpscope
kernel  wgmma_rs_f16_tnsp_neg
note    wgmma from shared memory in swizzle mode MODE (0 none, 1 128B, 2 64B, 3 32B); scale-d = ACC.
target  sm_90a
param   MODE = 1
param   ACC = 1
buffer  out  float  64*64  init=zero  output
buffer  A    half   64*16  init=randint(16, -4, 5)
buffer  B    half   16*64  init=randint(28, -4, 5)
buffer  C    float  64*64  init=randint(5, -50, 50)
grid    1
block   128
args    out, A, B, C, MODE, ACC
*/
RS_KERNEL(wgmma_rs_f16_tnsp_neg, 1, -1)
extern "C" __global__ void wgmma_rs_f16_tnsp_neg(float *out, const unsigned short *A, const unsigned short *B, const float *C,
                                int mode, int accumulate)
{
    wgmma_rs_f16_tnsp_neg_body(out, A, B, C, mode, accumulate);
}

// tf32 (k8), e4m3 (k32, f32) and s8 (k32, s32): K-major only; A and B given row-major by their
// 32 bytes of K (B as N x K), swizzle `mode`.
#define K32_KERNEL(NAME, SHAPE, TYPES, DT, DX)                                                              \
__device__ __forceinline__ void NAME##_body(DT *out, const unsigned char *A, const unsigned char *Bt, int mode) \
{                                                                                                            \
    __shared__ __align__(1024) unsigned char sa[8192], sb[8192];                                             \
    unsigned la, sa_, lb, sb_;                                                                               \
    stage_k(sa, A, 32, mode, &la, &sa_);                                                                     \
    stage_k(sb, Bt, 32, mode, &lb, &sb_);                                                                    \
    __syncthreads();                                                                                         \
    DT d[32];                                                                                                \
    for (int i = 0; i < 32; i++) d[i] = 0;                                                                   \
    unsigned long long da = make_desc(sa, la, sa_, mode), db = make_desc(sb, lb, sb_, mode);                 \
    fence_all();                                                                                             \
    asm volatile("wgmma.mma_async.sync.aligned." SHAPE "." TYPES " " DREGS ", %32, %33, 0" DX ";"           \
                 : DOUTS(D32X) : "l"(da), "l"(db));                                                          \
    commit_wait();                                                                                           \
    int q = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;                                    \
    for (int j = 0; j < 8; j++)                                                                              \
        for (int h = 0; h < 4; h++) out[(16 * q + g + 8 * (h / 2)) * 64 + 8 * j + 2 * t + h % 2] = d[4 * j + h]; \
}

#define D32X D32
/*@warpscope
kernel  wgmma_tf32
note    wgmma K-major in swizzle mode MODE.
target  sm_90a
param   MODE = 1
buffer  out  float  64*64  init=zero  output
buffer  A    float  64*8  init=randint(3, -8, 9)
buffer  Bt   float  64*8  init=randint(4, -8, 9)
grid    1
block   128
args    out, A, Bt, MODE
*/
K32_KERNEL(wgmma_tf32, "m64n64k8", "f32.tf32.tf32", float, ", 1, 1")
extern "C" __global__ void wgmma_tf32(float *out, const unsigned char *A, const unsigned char *Bt, int mode)
{
    wgmma_tf32_body(out, A, Bt, mode);
}
/*@warpscope
kernel  wgmma_e4m3
note    wgmma K-major in swizzle mode MODE.
target  sm_90a
param   MODE = 1
buffer  out  float  64*64  init=zero  output
buffer  A    uchar  64*32  init=randint(3, 0x38, 0x50)
buffer  Bt   uchar  64*32  init=randint(4, 0xb8, 0xd0)
grid    1
block   128
args    out, A, Bt, MODE
*/
K32_KERNEL(wgmma_e4m3, "m64n64k32", "f32.e4m3.e4m3", float, ", 1, 1")
extern "C" __global__ void wgmma_e4m3(float *out, const unsigned char *A, const unsigned char *Bt, int mode)
{
    wgmma_e4m3_body(out, A, Bt, mode);
}
#undef D32X
#define D32X I32
/*@warpscope
kernel  wgmma_s8
note    wgmma K-major in swizzle mode MODE.
target  sm_90a
param   MODE = 1
buffer  out  int    64*64  init=zero  output
buffer  A    char   64*32  init=randint(3, -128, 128)
buffer  Bt   char   64*32  init=randint(4, -128, 128)
grid    1
block   128
args    out, A, Bt, MODE
*/
K32_KERNEL(wgmma_s8, "m64n64k32", "s32.s8.s8", int, "")
extern "C" __global__ void wgmma_s8(int *out, const unsigned char *A, const unsigned char *Bt, int mode)
{
    wgmma_s8_body(out, A, Bt, mode);
}
#undef D32X

// Faults: a B descriptor whose start lies beyond the block's shared memory, and an accumulator read
// before wgmma.wait_group.
extern "C" __global__ void wgmma_desc_outside(float *out)
{
    __shared__ __align__(1024) unsigned char sa[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) sa[i] = 0;
    __syncthreads();
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0;
    unsigned long long da = make_desc(sa, 128, 256, 0), db = da + (0x3000ull >> 4);   // 12 KiB on: outside
    fence_all();
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " DREGS ", %32, %33, 0, 1, 1, 0, 0;"
                 : DOUTS(D32) : "l"(da), "l"(db));     // B outside (nvcc's .loc for the asm is this line)
    commit_wait();
    frag_out(out, d);
}

extern "C" __global__ void wgmma_read_before_wait(float *out)
{
    __shared__ __align__(1024) unsigned char sa[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) sa[i] = 0;
    __syncthreads();
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0;
    unsigned long long da = make_desc(sa, 128, 256, 0);
    fence_all();
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " DREGS ", %32, %33, 0, 1, 1, 0, 0;"
                 : DOUTS(D32) : "l"(da), "l"(da));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    out[threadIdx.x] = d[0];                       // before the wait: undefined
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    out[128 + threadIdx.x] = d[1];
}
