/* widths.cu - the same bytes moved with elements of 1, 2, 4, 8 and 16 bytes.
 * Each warp-level load is one request whatever its width, so wider elements
 * move more bytes per request: 32 lanes x width = 32, 64, 128, 256, 512 bytes,
 * i.e. 1, 2, 4, 8, 16 sectors per request, and 16x fewer instructions for
 * float4 than for char. Every variant copies BYTES bytes (default 1 MiB).
 *
 *   variant         what it changes                                        stars
 *   1  copy_char    1-byte elements: 1 sector per request, BYTES threads     *
 *   2  copy_short   2-byte elements: 2 sectors per request                   *
 *   3  copy_float_w 4-byte elements: 4 sectors, one 128-byte line            *
 *   4  copy_double  8-byte elements: 8 sectors per request, 2 lines          *
 *   5  copy_float4  16-byte vector loads (ld.global.v4.f32): 16 sectors      **
 *
 * Run one with `warpscope sim copy_float4` (override with -D BYTES=...).
 * Every kernel checks idx < n, so any -D BYTES stays inside the buffers. */

/* ------------------------------------------------------------------------- */
/* 1. char: a warp touches 32 bytes = exactly one sector. */

/*@warpscope
kernel  copy_char
note    1-byte elements: a warp moves 32 bytes per request (1 sector).
stars   1
param   BYTES = 1<<20
param   N = BYTES/1
realistic BYTES = 1<<27   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   char  N  init=index
buffer  out  char  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_char(const char *in, char *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}

/* ------------------------------------------------------------------------- */
/* 2. short: 64 bytes per warp, 2 sectors. */

/*@warpscope
kernel  copy_short
note    2-byte elements: 64 bytes per request (2 sectors).
stars   1
param   BYTES = 1<<20
param   N = BYTES/2
realistic BYTES = 1<<27   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   short  N  init=index
buffer  out  short  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_short(const short *in, short *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}

/* ------------------------------------------------------------------------- */
/* 3. float: 128 bytes per warp, 4 sectors, one full line. */

/*@warpscope
kernel  copy_float_w
note    4-byte elements: 128 bytes per request (4 sectors, one line).
stars   1
param   BYTES = 1<<20
param   N = BYTES/4
realistic BYTES = 1<<27   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_float_w(const float *in, float *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}

/* ------------------------------------------------------------------------- */
/* 4. double: 256 bytes per warp, 8 sectors in 2 lines. */

/*@warpscope
kernel  copy_double
note    8-byte elements: 256 bytes per request (8 sectors, 2 lines).
stars   1
param   BYTES = 1<<20
param   N = BYTES/8
realistic BYTES = 1<<27   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   double  N  init=index
buffer  out  double  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_double(const double *in, double *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}

/* ------------------------------------------------------------------------- */
/* 5. float4: one 16-byte vector access per lane, 512 bytes per warp: 16
 *    sectors in 4 lines, a quarter of the instructions of the float copy. */

/*@warpscope
kernel  copy_float4
note    16-byte vector elements: 512 bytes per request (16 sectors, 4 lines), 4x fewer loads.
stars   2
param   BYTES = 1<<20
param   N = BYTES/16
realistic BYTES = 1<<27   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float4  N  init=index
buffer  out  float4  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void copy_float4(const float4 *in, float4 *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = in[idx];
}
