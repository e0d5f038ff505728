// Tensor-era instructions one at a time, for tests/test_tensor.c: the test packs every lane's
// fragment registers itself (from the PTX ISA layouts), so these kernels only move registers.
// Regenerate (from the repository root): nvcc -ptx -arch=sm_90 -lineinfo -O3 tests/data/tensor/tensor.cu -o
// tests/data/tensor/tensor.ptx, then make its .file 1 path relative (tests/data/tensor/tensor.cu).
#include <cuda.h>
#include <cuda_fp16.h>
#include <mma.h>

// d = a x b + c for one mma form; lane l's registers are a[l*8 + i], b[l*4 + i], c[l*4 + i],
// d[l*4 + i] (32-bit each).
extern "C" __global__ void mma_form(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d, int form)
{
    int l = threadIdx.x;
    const unsigned *A = a + l * 8, *B = b + l * 4, *C = c + l * 4;
    unsigned *D = d + l * 4;
    unsigned r0 = C[0], r1 = C[1], r2 = C[2], r3 = C[3];
    switch (form) {
    case 0:   // f16 m16n8k16, f32 accumulators
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 1:   // f16 m16n8k16, f16 accumulators (two f16x2 registers)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                     : "+r"(r0), "+r"(r1) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 2:   // bf16 m16n8k16
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 3:   // tf32 m16n8k8
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 4:   // s8 m16n8k32
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 5:   // u8 x s8 m16n8k32, saturating
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
        break;
    case 6:   // f16 m16n8k8
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(A[0]), "r"(A[1]), "r"(B[0]));
        break;
    }
    D[0] = r0; D[1] = r1; D[2] = r2; D[3] = r3;
}

// f64 m8n8k4: one double of A, one of B and two of C/D per lane.
extern "C" __global__ void mma_f64(const double *a, const double *b, const double *c, double *d)
{
    int l = threadIdx.x;
    double d0 = c[2 * l], d1 = c[2 * l + 1];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d0), "+d"(d1) : "d"(a[l]), "d"(b[l]));
    d[2 * l] = d0;
    d[2 * l + 1] = d1;
}

// A tile of 64 rows x `pitch` halves in shared memory; lane l gives the address of tile row
// l (so matrix i is rows 8i..8i+7); register i of lane l goes to out[i * 32 + l].
extern "C" __global__ void ldmatrix_rows(const unsigned short *tile, unsigned *out, int pitch, int form)
{
    __shared__ __align__(16) unsigned short s[64 * 96];
    for (int i = threadIdx.x; i < 64 * pitch; i += 32)
        s[i] = tile[i];
    __syncthreads();
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[l * pitch]);
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    switch (form) {
    case 0: asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); break;
    case 1: asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); break;
    case 2:
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
        break;
    case 3:
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
        break;
    }
    out[l] = r0; out[32 + l] = r1; out[64 + l] = r2; out[96 + l] = r3;
}

// stmatrix: lane l holds in[i * 32 + l] for matrix i and gives the address of tile row l;
// the shared tile (zeroed first) goes back to out.
extern "C" __global__ void stmatrix_rows(const unsigned *in, unsigned short *out, int pitch, int trans)
{
    __shared__ __align__(16) unsigned short s[64 * 96];
    for (int i = threadIdx.x; i < 64 * 96; i += 32)
        s[i] = 0;
    __syncthreads();
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[l * pitch]);
    if (trans)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(in[l]), "r"(in[32 + l]), "r"(in[64 + l]), "r"(in[96 + l]) : "memory");
    else
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(a), "r"(in[l]), "r"(in[32 + l]), "r"(in[64 + l]), "r"(in[96 + l]) : "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < 64 * pitch; i += 32)
        out[i] = s[i];
}

// cp.async: lane l copies `size` bytes from in + l * sstride to shared + l * dstride with
// src-size `size`, or with zfill set l % (size + 1) (the rest zero-filled); then waits. The
// shared bytes (0xee where nothing was copied) go to out.
extern "C" __global__ void cp_async_lanes(const unsigned char *in, unsigned char *out, int size, int sstride,
                                          int dstride, int zfill)
{
    __shared__ __align__(16) unsigned char s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        s[i] = 0xee;
    __syncthreads();
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[l * dstride]);
    const unsigned char *g = in + l * sstride;
    int n = zfill ? l % (size + 1) : size;
    if (size == 4)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(a), "l"(g), "r"(n) : "memory");
    else if (size == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(a), "l"(g), "r"(n) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(g), "r"(n) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        out[i] = s[i];
}

// ignore-src: odd lanes copy nothing and zero-fill their 16 bytes.
extern "C" __global__ void cp_async_ignore(const float *in, float *out)
{
    __shared__ __align__(16) float s[32 * 4];
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[l * 4]);
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, p; }"
                 :: "r"(a), "l"(in + l * 4), "r"(l & 1) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    for (int i = 0; i < 4; i++)
        out[l * 4 + i] = s[l * 4 + i];
}

// Reads its own copy before waiting (wrong: the bytes may not be there yet).
extern "C" __global__ void cp_async_early_read(const float *in, float *out)
{
    __shared__ __align__(16) float s[32 * 4];
    int l = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[l * 4]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(in + l * 4) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    out[l] = s[l * 4];                                 // before cp.async.wait_group
    asm volatile("cp.async.wait_group 0;" ::: "memory");
}

// Two groups, wait_group 1: the first group is complete and may be read, the second not yet.
extern "C" __global__ void cp_async_two_groups(const float *in, float *out, int read_second)
{
    __shared__ __align__(16) float s[2][32 * 4];
    int l = threadIdx.x;
    unsigned a0 = (unsigned)__cvta_generic_to_shared(&s[0][l * 4]), a1 = (unsigned)__cvta_generic_to_shared(&s[1][l * 4]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a0), "l"(in + l * 4) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a1), "l"(in + 128 + l * 4) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    out[l] = s[0][l * 4];                              // group 0: complete
    if (read_second)
        out[32 + l] = s[1][l * 4];                     // group 1: still in flight
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[64 + l] = s[1][l * 4];
}

// A pipeline with more stages in flight than buffers: three groups into two buffers, the third
// refilling buffer 0 while group 0's copy of it may still be landing (two copies in flight to the
// same bytes land in either order). With wait_first, group 0 is waited for before the refill: right.
extern "C" __global__ void cp_async_refill_in_flight(const float *in, float *out, int wait_first)
{
    __shared__ __align__(16) float s[2][32];
    int l = threadIdx.x;
    for (int k = 0; k < 3; k++) {
        if (k == 2 && wait_first) asm volatile("cp.async.wait_group 1;" ::: "memory");
        unsigned a = (unsigned)__cvta_generic_to_shared(&s[k % 2][l]);
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(a), "l"(in + k * 32 + l) : "memory");
        asm volatile("cp.async.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[l] = s[0][l];
}

// Another warp's copy published by a barrier before that warp waited: wrong.
extern "C" __global__ void cp_async_barrier_without_wait(const float *in, float *out)
{
    __shared__ __align__(16) float s[64 * 4];
    int t = threadIdx.x;
    if (t < 32) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&s[t * 4]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(in + t * 4) : "memory");
        asm volatile("cp.async.commit_group;" ::: "memory");
    }
    __syncthreads();
    if (t >= 32)
        out[t] = s[(t - 32) * 4];
}

// mbarrier: every thread of the block arrives; thread 0 also expects `tx` bytes and completes
// them (unless skip_complete: then the phase never ends); everyone waits on phase parity 0,
// then on parity 1 of a second round. out[t*4..] = phase 0 complete before arriving, after
// the wait, test_wait on the first arrival's state, phase 1 complete after the second round.
// mbarrier.init by thread 0, then every thread arrives and waits: with sync a __syncthreads()
// orders the init before the other warps' use; without, nothing does (the GPU may run a warp's
// arrive on the uninitialised object: demos/cluster.cu's table_per_block failed a launch so).
// Sub-byte wmma (nvcuda::wmma::experimental): A 8 x 32 s4/u4 (or 8 x 128 b1) row-major, 16 bytes a
// row; B 32 x 8 (128 x 8) column-major, 16 bytes a column; D 8 x 8 s32 row-major. form 0: s4, 1: u4,
// 2: b1 XOR-popc, 3: b1 AND-popc.
extern "C" __global__ void wmma_subbyte(const unsigned *a, const unsigned *b, int *d, int form)
{
    using namespace nvcuda::wmma;
    namespace ex = nvcuda::wmma::experimental;
    if (form <= 1) {
        fragment<accumulator, 8, 8, 32, int> c;
        fill_fragment(c, 0);
        if (form == 0) {
            fragment<matrix_a, 8, 8, 32, ex::precision::s4, row_major> fa;
            fragment<matrix_b, 8, 8, 32, ex::precision::s4, col_major> fb;
            load_matrix_sync(fa, a, 32);
            load_matrix_sync(fb, b, 32);
            mma_sync(c, fa, fb, c);
        } else {
            fragment<matrix_a, 8, 8, 32, ex::precision::u4, row_major> fa;
            fragment<matrix_b, 8, 8, 32, ex::precision::u4, col_major> fb;
            load_matrix_sync(fa, a, 32);
            load_matrix_sync(fb, b, 32);
            mma_sync(c, fa, fb, c);
        }
        store_matrix_sync(d, c, 8, mem_row_major);
    } else {
        fragment<accumulator, 8, 8, 128, int> c;
        fill_fragment(c, 0);
        fragment<matrix_a, 8, 8, 128, ex::precision::b1, row_major> fa;
        fragment<matrix_b, 8, 8, 128, ex::precision::b1, col_major> fb;
        load_matrix_sync(fa, a, 128);
        load_matrix_sync(fb, b, 128);
        bmma_sync(c, fa, fb, c, form == 2 ? ex::bmmaBitOpXOR : ex::bmmaBitOpAND);
        store_matrix_sync(d, c, 8, mem_row_major);
    }
}

// Sub-byte mma.sync: lane l's A registers a[4l..4l+3], B b[2l..2l+1], C = 0, D to d[4l..4l+3]
// (the m8n8 forms use one A and B register and two of D).
#define MMA4(shape, types, tail)                                                                  \
    asm volatile("mma.sync.aligned." shape ".row.col.s32." types ".s32" tail                      \
                 " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                           \
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])                                   \
                 : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]))
#define MMA2(shape, types, tail)                                                                  \
    asm volatile("mma.sync.aligned." shape ".row.col.s32." types ".s32" tail                      \
                 " {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(c[0]), "+r"(c[1]) : "r"(x[0]), "r"(y[0]))
#define MMA16_2(shape, types, tail)                                                               \
    asm volatile("mma.sync.aligned." shape ".row.col.s32." types ".s32" tail                      \
                 " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                                    \
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(x[0]), "r"(x[1]), "r"(y[0]))
extern "C" __global__ void subbyte_mma(const unsigned *a, const unsigned *b, int *d, int form)
{
    unsigned l = threadIdx.x, x[4], y[2];
    int c[4] = {0, 0, 0, 0};
    for (int r = 0; r < 4; r++) x[r] = a[l * 4 + r];
    for (int r = 0; r < 2; r++) y[r] = b[l * 2 + r];
    switch (form) {
    case 0: MMA4("m16n8k64", "s4.s4", ""); break;
    case 1: MMA4("m16n8k64", "u4.s4", ""); break;
    case 2: MMA4("m16n8k256", "b1.b1", ".and.popc"); break;
    case 3: MMA4("m16n8k256", "b1.b1", ".xor.popc"); break;
    case 4: MMA2("m8n8k32", "s4.u4", ""); break;
    case 5: MMA2("m8n8k128", "b1.b1", ".xor.popc"); break;
    case 6: MMA16_2("m16n8k32", "u4.u4", ""); break;
    default: MMA16_2("m16n8k128", "b1.b1", ".and.popc"); break;
    }
    for (int r = 0; r < 4; r++) d[l * 4 + r] = c[r];
}

extern "C" __global__ void mbarrier_init_order(unsigned *out, int sync)
{
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x) : "memory");
    if (sync) __syncthreads();
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(b) : "memory");
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra W; }" :: "r"(b) : "memory");
    out[threadIdx.x] = 1;
}

extern "C" __global__ void mbarrier_rounds(unsigned *out, int tx, int skip_complete)
{
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x) : "memory");
    __syncthreads();
    unsigned before, after, round2, tested;
    unsigned long long state;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(before) : "r"(b) : "memory");
    if (t == 0 && tx)
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], %2;" : "=l"(state) : "r"(b), "r"(tx) : "memory");
    else
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    if (t == 0 && tx && !skip_complete)
        asm volatile("mbarrier.complete_tx.shared.b64 [%0], %1;" :: "r"(b), "r"(tx) : "memory");
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%1], 0; @!p bra W; selp.u32 %0, 1, 0, p; }"
                 : "=r"(after) : "r"(b) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(tested) : "r"(b), "l"(state) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    asm volatile("{ .reg .pred p; W2: mbarrier.try_wait.parity.shared.b64 p, [%1], 1; @!p bra W2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(round2) : "r"(b) : "memory");
    out[t * 4 + 0] = before;
    out[t * 4 + 1] = after;
    out[t * 4 + 2] = tested;
    out[t * 4 + 3] = round2;
}

// wmma, three ways: f16 row x col with f32 accumulators, row-major; f16 col x row with f16
// accumulators, col-major; bf16 row x row from zero. One warp, 16x16x16, ld 16.
extern "C" __global__ void wmma_forms(const __half *a, const __half *b, const float *c32, float *d32,
                                      const __half *c16, __half *d16, const __nv_bfloat16 *ab,
                                      const __nv_bfloat16 *bb, float *db)
{
    using namespace nvcuda;
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 16);
        wmma::load_matrix_sync(fc, c32, 16, wmma::mem_row_major);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d32, fc, 16, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, __half> fc;
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 16);
        wmma::load_matrix_sync(fc, c16, 16, wmma::mem_col_major);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d16, fc, 16, wmma::mem_col_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
        wmma::fill_fragment(fc, 0.0f);
        wmma::load_matrix_sync(fa, ab, 16);
        wmma::load_matrix_sync(fb, bb, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(db, fc, 16, wmma::mem_row_major);
    }
}

// Shapes the simulator does not implement: refused by name when reached.
extern "C" __global__ void mma_unimplemented(unsigned *d)
{
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3};"
                 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(1u), "r"(2u), "r"(3u), "r"(4u));
    d[threadIdx.x] = r0 + r1 + r2 + r3;
}

// cp.async.bulk: thread 0 copies n bytes of `in` to shared memory (mbarrier completion), everyone
// waits for the phase and copies shared to out; then thread 0 copies the shared bytes to out2
// with a bulk store (bulk group).
extern "C" __global__ void bulk_copy(const float *in, float *out, float *out2, int n)
{
    __shared__ __align__(128) float s[1024];
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(s);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(n) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(d), "l"(in), "r"(n), "r"(b) : "memory");
    }
    __syncthreads();
    asm volatile("{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0; @P1 bra DONE; "
                 "bra LAB_WAIT; DONE: }" :: "r"(b) : "memory");
    for (int i = threadIdx.x; i < n / 4; i += blockDim.x) out[i] = s[i];
    if (threadIdx.x == 0) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(out2), "r"(d), "r"(n) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// cp.async.bulk.tensor.2d: thread 0 loads the box at (c0, c1) of the map into a 1024-aligned tile
// (`bytes` = the box's size); everyone waits and the raw shared bytes go to out. With early set,
// thread 0 reads the tile before waiting (wrong).
extern "C" __global__ void tma_box(const __grid_constant__ CUtensorMap tmap, unsigned char *out, int c0, int c1,
                                   int bytes, int early)
{
    __shared__ __align__(1024) unsigned char tile[8192];
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(tile);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                     "[%0], [%1, {%2, %3}], [%4];" :: "r"(d), "l"(&tmap), "r"(c0), "r"(c1), "r"(b) : "memory");
        if (early) out[0] = tile[0];
    }
    __syncthreads();
    asm volatile("{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0; @P1 bra DONE; "
                 "bra LAB_WAIT; DONE: }" :: "r"(b) : "memory");
    for (int i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = tile[i];
}
