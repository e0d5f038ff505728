/* coalescing.cu - global memory coalescing: how the addresses of one warp turn
 * into 32-byte sectors. Every variant moves 4-byte floats; only the pattern of
 * addresses across the 32 lanes of a warp changes.
 *
 *   variant                        what it changes                                  stars
 *   1  copy_float                  baseline: lane i reads/writes element i (4 sectors/request)   *
 *   2  stride_copy_s1..s32         lane i touches element i*S: 4, 8, 16, 32, 32, 32 sectors/req   *
 *   3  offset_copy_o0..o31         start shifted by 0/1/8/31 elements: 4 -> 5 sectors per request  **
 *   4  seed_kernel_coalesced       the seed's B[idx] = A[idx] * 2.0f                                *
 *   5  seed_kernel_non_coalesced   the seed's B[idx] = A[idx * 2] * 2.0f: reads 8 sectors, uses 4   *
 *
 * Run one with `warpscope sim stride_copy_s8` (override sizes with -D N=...).
 * Rules behind the numbers: shared/reference/gpu-memory-rules.md section 2.2
 * (sectors = distinct 32-byte chunks touched by the active lanes).
 * Every kernel checks idx < n, so any -D N stays inside the buffers. */

/* ------------------------------------------------------------------------- */
/* 1. Baseline copy: lane i of a warp touches bytes [4i, 4i+4) of one 128-byte
 *    line: 1 request, 4 sectors for the load and the same for the store. */

/*@warpscope
kernel  copy_float
note    Baseline copy: consecutive lanes read and write consecutive floats (4 sectors per request).
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_float(const float *in, float *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}

/* ------------------------------------------------------------------------- */
/* 2. Strided copy: lane i touches element i*S. A warp spans 31*S*4+4 bytes, so
 *    sectors = ceil((124*S+4)/32) up to 32 (S=1:4, 2:8, 4:16, 8+:32) while the
 *    useful bytes stay 128: sector efficiency 100%, 50%, 25%, then 12.5% for
 *    every S >= 8. A larger stride spreads the same 32 sectors over more
 *    128-byte lines: the sector count does not show it, L2 requests and DRAM
 *    bytes do (the H200 fetches 64 bytes from DRAM per missed sector pair).
 *    The buffers hold N*S elements; only every S-th one is copied (the rest of
 *    out stays zero). N is smaller than the baseline's so S=32 fits in 32 MB. */

/*@warpscope
kernel  stride_copy_s1
entry   stride_copy
note    Stride 1: the baseline pattern through the strided kernel (4 sectors per request).
stars   1
param   N = 1<<18
param   S = 1
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
/*@warpscope
kernel  stride_copy_s2
entry   stride_copy
note    Stride 2: a warp spans 256 bytes, 8 sectors for 128 useful bytes (50% efficiency).
stars   1
param   N = 1<<18
param   S = 2
realistic N = 1<<24   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
/*@warpscope
kernel  stride_copy_s4
entry   stride_copy
note    Stride 4: 16 sectors per request, one useful float in each (25% efficiency).
stars   1
param   N = 1<<18
param   S = 4
realistic N = 1<<23   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
/*@warpscope
kernel  stride_copy_s8
entry   stride_copy
note    Stride 8: every lane in its own sector, 32 sectors per request (12.5% efficiency).
stars   1
param   N = 1<<18
param   S = 8
realistic N = 1<<22   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
/*@warpscope
kernel  stride_copy_s16
entry   stride_copy
note    Stride 16: still 32 sectors (12.5% of their bytes used), now spread over 16 different 128-byte lines.
stars   1
param   N = 1<<18
param   S = 16
realistic N = 1<<21   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
/*@warpscope
kernel  stride_copy_s32
entry   stride_copy
note    Stride 32: one lane per 128-byte line: 32 sectors in 32 lines per request, still 12.5% of sector bytes used.
stars   1
param   N = 1<<18
param   S = 32
realistic N = 1<<20   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N*S  init=index
buffer  out  float  N*S  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, S
*/
__global__ void stride_copy(const float *in, float *out, int n, int s)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        long long xid = (long long)idx * s;   /* 64-bit: N*S may pass 2^31 with overrides */
        out[xid] = in[xid];
    }
}

/* ------------------------------------------------------------------------- */
/* 3. Misaligned copy: every lane shifted by OFF elements. The buffers start on a
 *    4096-byte boundary, so OFF=0 is sector aligned (4 sectors); OFF=1 and 31
 *    straddle a sector boundary (5 sectors, 2 lines); OFF=8 is 32-byte aligned
 *    but crosses a 128-byte line (4 sectors, 2 lines). */

/*@warpscope
kernel  offset_copy_o0
entry   offset_copy
note    Offset 0: aligned, 4 sectors in 1 line per request.
stars   2
param   N = 1<<20
param   OFF = 0
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N+OFF  init=index
buffer  out  float  N+OFF  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, OFF
*/
/*@warpscope
kernel  offset_copy_o1
entry   offset_copy
note    Offset 1 element (4 bytes): each warp straddles a sector boundary, 5 sectors per request.
stars   2
param   N = 1<<20
param   OFF = 1
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N+OFF  init=index
buffer  out  float  N+OFF  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, OFF
*/
/*@warpscope
kernel  offset_copy_o8
entry   offset_copy
note    Offset 8 elements (32 bytes): sector aligned, 4 sectors but 2 lines per request.
stars   2
param   N = 1<<20
param   OFF = 8
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N+OFF  init=index
buffer  out  float  N+OFF  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, OFF
*/
/*@warpscope
kernel  offset_copy_o31
entry   offset_copy
note    Offset 31 elements: 5 sectors per request, like offset 1.
stars   2
param   N = 1<<20
param   OFF = 31
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N+OFF  init=index
buffer  out  float  N+OFF  init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    in, out, N, OFF
*/
__global__ void offset_copy(const float *in, float *out, int n, int off)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx + off] = in[idx + off];
}

/* ------------------------------------------------------------------------- */
/* 4-5. The seed's pair (seeds/004), verbatim. The seed says the second one
 *      "cannot be coalesced"; in fact each load is still one request, it just
 *      touches 8 sectors (256 bytes) to use 128: half the bandwidth, not 1/32.
 *      A holds 2N elements so A[idx * 2] stays in bounds. */

/*@warpscope
kernel  seed_kernel_coalesced
entry   kernel_coalesced
note    Seed: B[idx] = A[idx] * 2.0f, consecutive lanes on consecutive floats.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  A  float  N  init=index
buffer  B  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    A, B, N
*/
// 合并访问版本（高效）
__global__ void kernel_coalesced(float *A, float *B, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        B[idx] = A[idx] * 2.0f;  // 连续访问
    }
}

/*@warpscope
kernel  seed_kernel_non_coalesced
entry   kernel_non_coalesced
note    Seed: B[idx] = A[idx * 2] * 2.0f; the load spans 256 bytes (8 sectors) per warp.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  A  float  2*N  init=index
buffer  B  float  N    init=zero  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    A, B, N
*/
// 非合并访问版本（低效）
__global__ void kernel_non_coalesced(float *A, float *B, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        B[idx] = A[idx * 2] * 2.0f;  // 跨步访问，无法合并
    }
}
