/* sass_forms.cu - the tensor-era instructions as ptxas compiles them for sm_90, one small
 * kernel per form, so the SASS the simulator counts (sim/sass_map.c's tensor rules) and the
 * counters ncu reports can be set side by side (tests/test_sass.c reads their listings;
 * scripts/gpu-tensorcore.sh runs `check` on every kernel here).
 *   wmma_shared      wmma.load a/b from shared (-> LDSM), wmma.store of an f32 C to shared
 *                    (-> STS.64), then a plain copy out
 *   wmma_global_h    wmma.load of an f16 C from global and its store back (f16 accumulator)
 *   ldgsts_*         one cp.async per lane in a named pattern: 16-byte rows (.cg), the same
 *                    rows landing 128 B apart in shared (a bank group per row), 4- and 8-byte
 *                    copies (.ca), half the lanes zero-filled (src-size 0)
 * Fragments: the PTX ISA leaves the wmma layout to the target (sim/fragments.h). */

#include <cuda_fp16.h>
#include <mma.h>

/*@warpscope
kernel  wmma_shared
note    wmma fragments from shared memory (LDSM), the f32 accumulator stored to shared.
param   T = 4
buffer  A  ushort  T*256  init=random(21, 0x3800, 0x4000)
buffer  B  ushort  T*256  init=random(22, 0x3800, 0x4000)
buffer  C  float   T*256  init=zero  output tol=1e-4
grid    T
block   32
args    A, B, C
*/
__global__ void wmma_shared(const __half *A, const __half *B, float *C)
{
    using namespace nvcuda;
    __shared__ __align__(128) __half as[256], bs[256];
    __shared__ __align__(128) float cs[256];
    int lane = threadIdx.x, t = blockIdx.x;
    ((uint4 *)as)[lane] = ((const uint4 *)(A + t * 256))[lane];   /* 16-byte copies: 32 lanes x 8 halves */
    ((uint4 *)bs)[lane] = ((const uint4 *)(B + t * 256))[lane];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, as, 16);
    wmma::load_matrix_sync(b, bs, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(cs, c, 16, wmma::mem_row_major);
    __syncwarp();
    for (int j = 0; j < 8; j++)
        C[t * 256 + 32 * j + lane] = cs[32 * j + lane];
}

/*@warpscope
kernel  wmma_global_h
note    wmma with an f16 accumulator: C loaded from global memory and D stored back.
param   T = 4
buffer  A  ushort  T*256  init=random(23, 0x3800, 0x4000)
buffer  B  ushort  T*256  init=random(24, 0x3800, 0x4000)
buffer  C  ushort  T*256  init=random(25, 0x3800, 0x3c00)
buffer  D  ushort  T*256  init=zero  output tol=1e-2
grid    T
block   32
args    A, B, C, D
*/
__global__ void wmma_global_h(const __half *A, const __half *B, const __half *C, __half *D)
{
    using namespace nvcuda;
    int t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c;
    wmma::load_matrix_sync(a, A + t * 256, 16);
    wmma::load_matrix_sync(b, B + t * 256, 16);
    wmma::load_matrix_sync(c, C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D + t * 256, c, 16, wmma::mem_row_major);
}

/* cp.async of `size` bytes per lane: lane l reads in[l * size] (.cg for 16, .ca otherwise) and
 * writes shared offset l * dstride; lanes >= live copy with src-size 0 (zero fill). Every
 * lane then copies its bytes out, so the output shows what landed. */
__device__ __forceinline__ void cp_async_n(void *smem, const void *gmem, int size, int src_size)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    if (size == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_size) : "memory");
    else if (size == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(gmem), "r"(src_size) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(src_size) : "memory");
}

/*@warpscope
kernel  ldgsts_rows
entry   ldgsts_probe
note    cp.async.cg 16 B per lane, global and shared both contiguous (512 B per warp).
param   SIZE = 16
param   DSTRIDE = 16
param   LIVE = 32
param   W = 8
buffer  in   uchar  W*32*SIZE  init=index
buffer  out  uchar  W*32*SIZE  init=zero  output
grid    W
block   32
args    in, out, SIZE, DSTRIDE, LIVE
*/
/*@warpscope
kernel  ldgsts_row_per_group
entry   ldgsts_probe
note    cp.async.cg 16 B per lane, shared rows 128 B apart: every lane's 16 B in bank group 0.
param   SIZE = 16
param   DSTRIDE = 128
param   LIVE = 32
param   W = 8
buffer  in   uchar  W*32*SIZE  init=index
buffer  out  uchar  W*32*SIZE  init=zero  output
grid    W
block   32
args    in, out, SIZE, DSTRIDE, LIVE
*/
/*@warpscope
kernel  ldgsts_ca4
entry   ldgsts_probe
note    cp.async.ca 4 B per lane, contiguous (128 B per warp).
param   SIZE = 4
param   DSTRIDE = 4
param   LIVE = 32
param   W = 8
buffer  in   uchar  W*32*SIZE  init=index
buffer  out  uchar  W*32*SIZE  init=zero  output
grid    W
block   32
args    in, out, SIZE, DSTRIDE, LIVE
*/
/*@warpscope
kernel  ldgsts_ca8
entry   ldgsts_probe
note    cp.async.ca 8 B per lane, contiguous (256 B per warp).
param   SIZE = 8
param   DSTRIDE = 8
param   LIVE = 32
param   W = 8
buffer  in   uchar  W*32*SIZE  init=index
buffer  out  uchar  W*32*SIZE  init=zero  output
grid    W
block   32
args    in, out, SIZE, DSTRIDE, LIVE
*/
/*@warpscope
kernel  ldgsts_zfill_half
entry   ldgsts_probe
note    cp.async.cg 16 B per lane, lanes 16-31 zero-filled (src-size 0).
param   SIZE = 16
param   DSTRIDE = 16
param   LIVE = 16
param   W = 8
buffer  in   uchar  W*32*SIZE  init=index
buffer  out  uchar  W*32*SIZE  init=zero  output
grid    W
block   32
args    in, out, SIZE, DSTRIDE, LIVE
*/
__global__ void ldgsts_probe(const unsigned char *in, unsigned char *out, int size, int dstride, int live)
{
    __shared__ __align__(128) unsigned char s[32 * 128];
    int lane = threadIdx.x;
    const unsigned char *src = in + ((size_t)blockIdx.x * 32 + lane) * size;
    cp_async_n(s + lane * dstride, src, size, lane < live ? size : 0);
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    for (int b = 0; b < size; b++)
        out[((size_t)blockIdx.x * 32 + lane) * size + b] = s[lane * dstride + b];
}
