/* shared_banks.cu - shared memory banks: 32 banks of 4 bytes, bank =
 * (byte offset / 4) % 32. A warp's access costs as many wavefronts as the most
 * distinct words any one bank must deliver; lanes reading the same word share
 * it (broadcast, multicast). 64-bit accesses go by half-warps, 128-bit by
 * quarter-warps unless pairs of lanes share addresses.
 * Rules and measured H200 numbers: shared/reference/gpu-memory-rules.md 3.2.
 *
 *   variant                     what it changes                                        stars
 *   1  shared_stride_s1..s33    word lane*S: 1, 2, 4, 8, 16, 32 wavefronts; 33 is odd: 1    *
 *   2  tile_column_read         32x32 tile read down a column: 32-way conflict              **
 *   3  tile_column_read_padded  the same with rows of 33 floats: 1 wavefront                **
 *   4  shared_broadcast         all lanes of a warp read one word: 1 wavefront              *
 *   5  shared_multicast         groups of 4 lanes share a word, 8 words: 1 wavefront        *
 *   6  seed_diagonal            the seed's s_data[tid][tid] ("conflicts"): bank = tid, none  **
 *   7  seed_column_zero         the seed's s_data[tid][0] ("broadcast"): 32-way conflict     **
 *   8  shared_double_s1/s2      64-bit words: consecutive 2 wavefronts, 16 bytes apart 4     ***
 *   9  shared_float4_s1/s2      128-bit words: consecutive 4 wavefronts, 32 bytes apart 8    ***
 *  10  static_reverse           reverse a block's elements through a static array           *
 *  11  dynamic_reverse          the same through extern __shared__, sized at launch         *
 *
 * Run one with `warpscope sim shared_stride_s32` (override with -D N=... -D S=...).
 * Data path of 1, 8, 9: each lane writes its element to word lane*S of its
 * warp's region, then (after __syncthreads) reads the word of lane 31-lane, so
 * out[i] = in[i - lane + 31 - lane]. Both the store and the load have the
 * pattern under study; the swap keeps the compiler from forwarding the value. */

#define WARPS_PER_BLOCK 8              /* every 256-thread block below */
#define REGION (32 * 33)               /* words per warp: lane*S for S <= 33 fits */

/* ------------------------------------------------------------------------- */
/* 1. Stride sweep: lane i uses word i*S. Two lanes collide in a bank when
 *    (i*S) % 32 is equal, so wavefronts = gcd(S, 32) capped at 32: S=1 -> 1,
 *    2 -> 2, 4 -> 4, 8 -> 8, 16 -> 16, 32 -> 32, and S=33 (odd) -> 1. */

/*@warpscope
kernel  shared_stride_s1
entry   shared_stride
note    Stride 1: 32 lanes on 32 banks, 1 wavefront per access.
stars   1
param   N = 1<<16
param   S = 1
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s2
entry   shared_stride
note    Stride 2: lanes i and i+16 share a bank, 2 wavefronts.
stars   1
param   N = 1<<16
param   S = 2
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s4
entry   shared_stride
note    Stride 4: 8 banks in use, 4 wavefronts.
stars   1
param   N = 1<<16
param   S = 4
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s8
entry   shared_stride
note    Stride 8: 4 banks in use, 8 wavefronts.
stars   1
param   N = 1<<16
param   S = 8
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s16
entry   shared_stride
note    Stride 16: 2 banks in use, 16 wavefronts.
stars   1
param   N = 1<<16
param   S = 16
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s32
entry   shared_stride
note    Stride 32: every lane in bank 0, 32 wavefronts (fully serialised).
stars   1
param   N = 1<<16
param   S = 32
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_stride_s33
entry   shared_stride
note    Stride 33 (odd): lane i lands in bank i, 1 wavefront - why padding works.
stars   1
param   N = 1<<16
param   S = 33
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
__global__ void shared_stride(const float *in, float *out, int n, int s)
{
    __shared__ float buf[WARPS_PER_BLOCK * REGION];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float *mine = buf + ((threadIdx.x >> 5) % WARPS_PER_BLOCK) * REGION;

    mine[(lane * s) % REGION] = (i < n) ? in[i] : 0.0f;   /* store at stride S */
    __syncthreads();
    float v = mine[((31 - lane) * s) % REGION];           /* load at stride S */
    if (i < n)
        out[i] = v;
}

/* ------------------------------------------------------------------------- */
/* 2-3. A 32x32 tile written by rows, read by columns: tile[tx][ty] puts the 32
 *      lanes (consecutive tx) 32 words apart, all in one bank. Rows of 33
 *      floats move each row one bank over. out = each 32x32 tile transposed
 *      in place (the block does not move), zero where the tile leaves W x H. */

/*@warpscope
kernel  tile_column_read
note    tile[32][32] read down a column: all 32 lanes in one bank, 32 wavefronts per load.
stars   2
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 32
args    in, out, W, H
*/
__global__ void tile_column_read(const float *in, float *out, int w, int h)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = (x < w && y < h) ? in[y * w + x] : 0.0f;  /* row write: 1 wavefront */
    __syncthreads();
    if (x < w && y < h)
        out[y * w + x] = tile[threadIdx.x][threadIdx.y];   /* column read: 32 wavefronts */
}

/*@warpscope
kernel  tile_column_read_padded
note    tile[32][33]: the column read spreads over 32 banks, 1 wavefront per load.
stars   2
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 32
args    in, out, W, H
*/
__global__ void tile_column_read_padded(const float *in, float *out, int w, int h)
{
    __shared__ float tile[32][33];                          /* one pad word per row */
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = (x < w && y < h) ? in[y * w + x] : 0.0f;
    __syncthreads();
    if (x < w && y < h)
        out[y * w + x] = tile[threadIdx.x][threadIdx.y];   /* word tx*33+ty: bank (tx+ty)%32 */
}

/* ------------------------------------------------------------------------- */
/* 4-5. Same word for several lanes costs nothing extra: one word for the whole
 *      warp (broadcast), or 8 words each shared by 4 lanes (multicast). */

/*@warpscope
kernel  shared_broadcast
note    Every lane of a warp reads the warp's first word: a broadcast, 1 wavefront.
stars   1
param   N = 1<<16
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void shared_broadcast(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    float v = s[threadIdx.x & ~31];                         /* one word per warp */
    if (i < n)
        out[i] = v;
}

/*@warpscope
kernel  shared_multicast
note    Lanes 4k..4k+3 read word 4k: 8 words in 8 banks, multicast, 1 wavefront.
stars   1
param   N = 1<<16
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void shared_multicast(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    float v = s[threadIdx.x & ~3];                          /* groups of 4 lanes share a word */
    if (i < n)
        out[i] = v;
}

/* ------------------------------------------------------------------------- */
/* 6-7. The seed's two claims (seeds/004), around its own lines. One warp per
 *      block fills s_data[32][32] from 1024 consecutive inputs by rows, then:
 *      s_data[tid][tid] is word 33*tid, bank tid: NO conflict (the seed says it
 *      conflicts and that threads 0 and 16 share a bank: 528 words % 32 = 16).
 *      s_data[tid][0] is word 32*tid, bank 0 for every lane: a 32-way conflict
 *      (the seed calls it a conflict-free broadcast; a broadcast needs the same
 *      word, not the same column). out[b*32 + tid] = in[b*1024 + word]. */

/*@warpscope
kernel  seed_diagonal
note    Seed's s_data[tid][tid], claimed to conflict: bank = 33*tid % 32 = tid, 1 wavefront.
stars   2
param   N = 1<<16
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N       init=index
buffer  out  int    N/32    init=zero  output
grid    cdiv(N, 1024)
block   32
args    in, out, N
*/
__global__ void seed_diagonal(const float *in, int *out, int n)
{
    __shared__ float s_data[32][32];
    int tid = threadIdx.x;
    int base = blockIdx.x * 1024;
    for (int r = 0; r < 32; r++) {                          /* fill by rows: conflict-free */
        int k = base + r * 32 + tid;
        s_data[r][tid] = (k < n) ? in[k] : 0.0f;
    }
    __syncthreads();
    int val = s_data[tid][tid];  // 所有线程访问同一列，bank冲突严重 (seed's claim; really bank tid)
    if (blockIdx.x * 32 + tid < n / 32)
        out[blockIdx.x * 32 + tid] = val;
}

/*@warpscope
kernel  seed_column_zero
note    Seed's s_data[tid][0], claimed a broadcast: 32 words in bank 0, 32 wavefronts.
stars   2
param   N = 1<<16
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N       init=index
buffer  out  int    N/32    init=zero  output
grid    cdiv(N, 1024)
block   32
args    in, out, N
*/
__global__ void seed_column_zero(const float *in, int *out, int n)
{
    __shared__ float s_data[32][32];
    int tid = threadIdx.x;
    int base = blockIdx.x * 1024;
    for (int r = 0; r < 32; r++) {
        int k = base + r * 32 + tid;
        s_data[r][tid] = (k < n) ? in[k] : 0.0f;
    }
    __syncthreads();
    int val = s_data[tid][0];  // 所有线程访问同一行，广播模式，无冲突 (seed's claim; really bank 0 x 32)
    if (blockIdx.x * 32 + tid < n / 32)
        out[blockIdx.x * 32 + tid] = val;
}

/* ------------------------------------------------------------------------- */
/* 8-9. Wide shared accesses, same data path as the stride sweep. 64-bit: two
 *      half-warps of 16 lanes x 8 bytes = 128 bytes each, so consecutive doubles
 *      need 2 wavefronts (not a conflict) and 16 bytes apart need 4. 128-bit:
 *      four quarter-warps of 8 lanes x 16 bytes, consecutive 4, 32 bytes apart 8.
 *      S <= 2 keeps lanes on distinct elements of the 64-element region. */

#define WIDE_REGION 64                 /* elements per warp */

/*@warpscope
kernel  shared_double_s1
entry   shared_double
note    Consecutive doubles: 2 half-warps of 128 bytes, 2 wavefronts, no conflict.
stars   3
param   N = 1<<16
param   S = 1
realistic N = 1<<24   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   double  N  init=index
buffer  out  double  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_double_s2
entry   shared_double
note    Doubles 16 bytes apart: each half-warp spans 256 bytes, 4 wavefronts.
stars   3
param   N = 1<<16
param   S = 2
realistic N = 1<<24   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   double  N  init=index
buffer  out  double  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
__global__ void shared_double(const double *in, double *out, int n, int s)
{
    __shared__ double buf[WARPS_PER_BLOCK * WIDE_REGION];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    double *mine = buf + ((threadIdx.x >> 5) % WARPS_PER_BLOCK) * WIDE_REGION;

    mine[(lane * s) % WIDE_REGION] = (i < n) ? in[i] : 0.0;
    __syncthreads();
    double v = mine[((31 - lane) * s) % WIDE_REGION];
    if (i < n)
        out[i] = v;
}

/*@warpscope
kernel  shared_float4_s1
entry   shared_float4
note    Consecutive float4: 4 quarter-warps of 128 bytes, 4 wavefronts, no conflict.
stars   3
param   N = 1<<16
param   S = 1
realistic N = 1<<23   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float4  N  init=index
buffer  out  float4  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
/*@warpscope
kernel  shared_float4_s2
entry   shared_float4
note    float4 32 bytes apart: each quarter-warp spans 256 bytes, 8 wavefronts.
stars   3
param   N = 1<<16
param   S = 2
realistic N = 1<<23   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float4  N  init=index
buffer  out  float4  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N, S
*/
__global__ void shared_float4(const float4 *in, float4 *out, int n, int s)
{
    __shared__ float4 buf[WARPS_PER_BLOCK * WIDE_REGION];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float4 *mine = buf + ((threadIdx.x >> 5) % WARPS_PER_BLOCK) * WIDE_REGION;

    float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    mine[(lane * s) % WIDE_REGION] = (i < n) ? in[i] : zero;
    __syncthreads();
    float4 v = mine[((31 - lane) * s) % WIDE_REGION];
    if (i < n)
        out[i] = v;
}

/* ------------------------------------------------------------------------- */
/* 10-11. Reverse each block's elements through shared memory (the classic
 *        static/dynamic pair): out[b*B + t] = in[b*B + B-1-t]. The dynamic
 *        array's size comes from the launch (shared = block * 4 bytes). */

/*@warpscope
kernel  static_reverse
note    Reverse through __shared__ float s[256]: consecutive words both ways, 1 wavefront.
stars   1
param   N = 1<<16
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void static_reverse(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = s[blockDim.x - 1 - t];
}

/*@warpscope
kernel  dynamic_reverse
note    The same reverse through extern __shared__ sized at launch (B*4 bytes).
stars   1
param   N = 1<<16
param   B = 256
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, B)
block   B
shared  B*4
args    in, out, N
*/
__global__ void dynamic_reverse(const float *in, float *out, int n)
{
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = s[blockDim.x - 1 - t];
}
