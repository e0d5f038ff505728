// The tensor-core forms real code emits beyond tensor.cu, for tests/test_tensor.c: wmma of every
// shape and type the PTX ISA has (through the CUDA wmma API, so the PTX is what nvcc writes for
// it), the cvt packing forms of cuda_fp16.h / cuda_bf16.h / cuda_fp8.h, and fp8 mma.
// Regenerate (from the repository root): nvcc -ptx -arch=sm_90 -lineinfo -O3 tests/data/tensor/forms.cu -o
// tests/data/tensor/forms.ptx, then make its .file 1 path relative (tests/data/tensor/forms.cu).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

using namespace nvcuda;

// d (M x N, row-major) = a x b + c; a is M x K and b K x N, each in layout LA / LB with the
// tightest leading dimension; c in layout LC.
template <int M, int N, int K, typename TA, typename TF, typename TC, typename LA, typename LB>
__device__ void gemm(const TA *a, const TA *b, const TC *c, TC *d, wmma::layout_t lc)
{
    wmma::fragment<wmma::matrix_a, M, N, K, TF, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, TF, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
    wmma::load_matrix_sync(fa, a, __is_same(LA, wmma::row_major) ? K : M);
    wmma::load_matrix_sync(fb, b, __is_same(LB, wmma::row_major) ? N : K);
    wmma::load_matrix_sync(fc, c, lc == wmma::mem_row_major ? N : M, lc);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

typedef wmma::row_major R;
typedef wmma::col_major C;

extern "C" __global__ void wmma_m32n8k16_f16_rc(const half *a, const half *b, const float *c, float *d)
{
    gemm<32, 8, 16, half, half, float, R, C>(a, b, c, d, wmma::mem_row_major);
}
extern "C" __global__ void wmma_m8n32k16_f16_cr_f16acc(const half *a, const half *b, const half *c, half *d)
{
    gemm<8, 32, 16, half, half, half, C, R>(a, b, c, d, wmma::mem_col_major);
}
extern "C" __global__ void wmma_m32n8k16_bf16_rr(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{
    gemm<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, R, R>(a, b, c, d, wmma::mem_row_major);
}
extern "C" __global__ void wmma_m8n32k16_bf16_cc(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{
    gemm<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, C, C>(a, b, c, d, wmma::mem_row_major);
}
extern "C" __global__ void wmma_m16n16k16_s8_rc(const signed char *a, const signed char *b, const int *c, int *d)
{
    gemm<16, 16, 16, signed char, signed char, int, R, C>(a, b, c, d, wmma::mem_row_major);
}
extern "C" __global__ void wmma_m32n8k16_u8_rr(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{
    gemm<32, 8, 16, unsigned char, unsigned char, int, R, R>(a, b, c, d, wmma::mem_row_major);
}
extern "C" __global__ void wmma_m8n32k16_s8_cc(const signed char *a, const signed char *b, const int *c, int *d)
{
    gemm<8, 32, 16, signed char, signed char, int, C, C>(a, b, c, d, wmma::mem_col_major);
}
extern "C" __global__ void wmma_m8n8k4_f64_rc(const double *a, const double *b, const double *c, double *d)
{
    gemm<8, 8, 4, double, double, double, R, C>(a, b, c, d, wmma::mem_row_major);
}

// tf32: the fragments' floats are rounded to tf32 first (cvt.rna.tf32.f32), as the wmma docs ask.
extern "C" __global__ void wmma_m16n16k8_tf32_rc(const float *a, const float *b, const float *c, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, R> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, C> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// The output stages of fp16/bf16/fp8 kernels: two floats packed per 32-bit (16-bit for fp8) word.
extern "C" __global__ void cvt_pack(const float *a, const float *b, unsigned *h2, unsigned *bf2, unsigned short *e4,
                                    unsigned short *e5, unsigned *back)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    half2 h = __floats2half2_rn(a[i], b[i]);
    __nv_bfloat162 z = __float22bfloat162_rn(make_float2(a[i], b[i]));
    h2[i] = *reinterpret_cast<unsigned *>(&h);
    bf2[i] = *reinterpret_cast<unsigned *>(&z);
    __nv_fp8x2_storage_t q4 = __nv_cvt_float2_to_fp8x2(make_float2(a[i], b[i]), __NV_SATFINITE, __NV_E4M3);
    e4[i] = q4;
    e5[i] = __nv_cvt_float2_to_fp8x2(make_float2(a[i], b[i]), __NV_SATFINITE, __NV_E5M2);
    __half2_raw w = __nv_cvt_fp8x2_to_halfraw2(q4, __NV_E4M3);
    back[i] = (unsigned)w.x | (unsigned)w.y << 16;
}

// fp8 mma (sm_89+): d = a x b + c, m16n8k32, lane l's registers a[l*4 + i], b[l*2 + i], c/d[l*4 + i].
extern "C" __global__ void mma_fp8(const unsigned *a, const unsigned *b, const float *c, float *d, int form)
{
    int l = threadIdx.x;
    const unsigned *A = a + l * 4, *B = b + l * 2;
    float r0 = c[l * 4], r1 = c[l * 4 + 1], r2 = c[l * 4 + 2], r3 = c[l * 4 + 3];
    if (form == 0)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(r0), "+f"(r1), "+f"(r2), "+f"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(r0), "+f"(r1), "+f"(r2), "+f"(r3) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
    d[l * 4] = r0; d[l * 4 + 1] = r1; d[l * 4 + 2] = r2; d[l * 4 + 3] = r3;
}
