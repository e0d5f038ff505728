/* transpose.cu - matrix transpose, the classic study of global coalescing and
 * shared-memory banks together (NVIDIA's "An Efficient Matrix Transpose in CUDA
 * C/C++" set, plus the seed's kernels). in is W columns x H rows, row-major;
 * out is H columns x W rows: out[x*H + y] = in[y*W + x].
 *
 *   variant                         what it changes                                   stars
 *   32x32 blocks (one element per thread, the seed's layout)
 *   1  copy_32x32                  baseline: the same tiling, out[y*W+x] = in[y*W+x]     *
 *   2  transpose_naive             seed: reads coalesced, writes H*4 bytes apart (32 sectors) *
 *   3  transpose_coalesced         seed: through tile[32][32]; both global sides coalesced,
 *                                  but the column read of the tile is a 32-way conflict   **
 *   4  transpose_padded            tile[32][33]: the conflict is gone                     **
 *   32x8 blocks (each thread does 4 rows: TILE_DIM 32, BLOCK_ROWS 8)
 *   5  copy_32x8                   baseline with the same tiling                          *
 *   6  transpose_naive_32x8        strided writes, 4 per thread                           *
 *   7  transpose_coalesced_32x8    shared tile, 32-way conflicts on the read              **
 *   8  transpose_padded_32x8       padded tile: the fast one                              ***
 *   8x32 blocks (each thread moves one float4 in and one float4 out)
 *   9  transpose_vec4              padded tile, 128-bit global loads and stores           ***
 *
 * Run one with `warpscope sim transpose_padded_32x8` (override with -D W=... -D H=...).
 * Every kernel checks x < width and y < height, so any W, H is safe. The
 * default 512 x 512 keeps the slowest variant under ~30 million simulated
 * thread-instructions; -D W=1024 -D H=1024 gives the classic size. */

#define TILE_SIZE 32                   /* the seed's name */
#define TILE_DIM 32                    /* NVIDIA's names for the 32x8 set */
#define BLOCK_ROWS 8

/* ------------------------------------------------------------------------- */
/* 1. Copy with the 32x32 tiling: the bandwidth every transpose aims for. */

/*@warpscope
kernel  copy_32x32
note    Baseline: copy with 32x32 blocks; every load and store is 4 sectors per warp.
stars   1
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 32
args    in, out, W, H
*/
__global__ void copy_32x32(float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x < width && y < height) {
        out[y * width + x] = in[y * width + x];
    }
}

/* ------------------------------------------------------------------------- */
/* 2. The seed's naive transpose (seeds/004), verbatim: a warp's 32 stores are
 *    H*4 bytes apart, 32 sectors for 128 useful bytes. */

/*@warpscope
kernel  transpose_naive
note    Seed: reads rows (4 sectors), writes columns (32 sectors per warp store).
stars   1
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 32
args    in, out, W, H
*/
__global__ void transpose_naive(float *in, float *out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    
    if (x < width && y < height) {
        out[x * height + y] = in[y * width + x];
    }
}

/* ------------------------------------------------------------------------- */
/* 3. The seed's shared-memory transpose (seeds/004), verbatim. Global side
 *    fixed; the read tile[threadIdx.x][threadIdx.y] walks a column: 32 lanes,
 *    words 32 apart, one bank - 32 wavefronts per warp load. */

/*@warpscope
kernel  transpose_coalesced
note    Seed: via tile[32][32]; global reads and writes coalesced, tile column read 32-way conflict.
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
__global__ void transpose_coalesced(float *in, float *out, int width, int height) {
    __shared__ float tile[TILE_SIZE][TILE_SIZE];
    
    int x = blockIdx.x * TILE_SIZE + threadIdx.x;
    int y = blockIdx.y * TILE_SIZE + threadIdx.y;
    
    if (x < width && y < height) {
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    }
    
    __syncthreads();
    
    int x_out = blockIdx.y * TILE_SIZE + threadIdx.x;
    int y_out = blockIdx.x * TILE_SIZE + threadIdx.y;
    
    if (x_out < height && y_out < width) {
        out[y_out * height + x_out] = tile[threadIdx.x][threadIdx.y];
    }
}

/* ------------------------------------------------------------------------- */
/* 4. The seed's kernel with the fix it recommends: rows of 33 floats, so the
 *    column read hits banks (tx + ty) % 32, all different. */

/*@warpscope
kernel  transpose_padded
note    tile[32][33]: coalesced global accesses and a conflict-free tile read.
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
__global__ void transpose_padded(float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE_SIZE][TILE_SIZE + 1];

    int x = blockIdx.x * TILE_SIZE + threadIdx.x;
    int y = blockIdx.y * TILE_SIZE + threadIdx.y;

    if (x < width && y < height) {
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    }

    __syncthreads();

    int x_out = blockIdx.y * TILE_SIZE + threadIdx.x;
    int y_out = blockIdx.x * TILE_SIZE + threadIdx.y;

    if (x_out < height && y_out < width) {
        out[y_out * height + x_out] = tile[threadIdx.x][threadIdx.y];
    }
}

/* ------------------------------------------------------------------------- */
/* 5-8. 32x8 blocks: a block still covers a 32x32 tile, each thread 4 rows
 *      (j = 0, 8, 16, 24). Fewer threads per element amortise index maths and
 *      let more blocks fit on an SM. */

/*@warpscope
kernel  copy_32x8
note    Baseline: copy a 32x32 tile with 32x8 threads, 4 rows each.
stars   1
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 8
args    in, out, W, H
*/
__global__ void copy_32x8(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            out[(y + j) * width + x] = in[(y + j) * width + x];
}

/*@warpscope
kernel  transpose_naive_32x8
note    Naive transpose, 4 rows per thread: each store is still 32 sectors per warp.
stars   1
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 8
args    in, out, W, H
*/
__global__ void transpose_naive_32x8(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            out[x * height + (y + j)] = in[(y + j) * width + x];
}

/*@warpscope
kernel  transpose_coalesced_32x8
note    Shared tile[32][32], 4 rows per thread: coalesced global, 32-way conflicted tile read.
stars   2
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 8
args    in, out, W, H
*/
__global__ void transpose_coalesced_32x8(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;      /* transposed block offset */
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

/*@warpscope
kernel  transpose_padded_32x8
note    Padded tile[32][33], 4 rows per thread: coalesced and conflict-free.
stars   3
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   32, 8
args    in, out, W, H
*/
__global__ void transpose_padded_32x8(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* ------------------------------------------------------------------------- */
/* 9. The padded tile with 128-bit global accesses: an 8x32 block, each thread
 *    loads one float4 of a tile row and stores one float4 of a tile column.
 *    Shared memory stays 4 bytes wide: with the 33-float pitch, lane (tx, ty)
 *    hits bank (ty + 4*tx + k) % 32, all different, on both sides. Tiles that
 *    stick out of the matrix, or rows that are not float4-aligned (W or H not a
 *    multiple of 4), take the element-by-element path. */

/*@warpscope
kernel  transpose_vec4
note    Padded tile, 8x32 threads: one float4 load and one float4 store per thread, 16 sectors per request.
stars   3
param   W = 512
param   H = 512
realistic W = 1<<13, H = 1<<12   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  W*H  init=index
buffer  out  float  W*H  init=zero  output
grid    cdiv(W, 32), cdiv(H, 32)
block   8, 32
args    in, out, W, H
*/
__global__ void transpose_vec4(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int bx = blockIdx.x * TILE_DIM, by = blockIdx.y * TILE_DIM;
    int tx4 = threadIdx.x * 4, ty = threadIdx.y;
    bool whole = width % 4 == 0 && height % 4 == 0 && bx + TILE_DIM <= width && by + TILE_DIM <= height;

    if (whole) {
        float4 v = *(const float4 *)&in[(by + ty) * width + bx + tx4];
        tile[ty][tx4] = v.x;
        tile[ty][tx4 + 1] = v.y;
        tile[ty][tx4 + 2] = v.z;
        tile[ty][tx4 + 3] = v.w;
    } else {
        for (int k = 0; k < 4; k++)
            if (bx + tx4 + k < width && by + ty < height)
                tile[ty][tx4 + k] = in[(by + ty) * width + bx + tx4 + k];
    }

    __syncthreads();

    /* out row bx + ty is column bx + ty of in; its columns by + tx4 .. + 3 */
    if (whole) {
        float4 v;
        v.x = tile[tx4][ty];
        v.y = tile[tx4 + 1][ty];
        v.z = tile[tx4 + 2][ty];
        v.w = tile[tx4 + 3][ty];
        *(float4 *)&out[(bx + ty) * height + by + tx4] = v;
    } else {
        for (int k = 0; k < 4; k++)
            if (by + tx4 + k < height && bx + ty < width)
                out[(bx + ty) * height + by + tx4 + k] = tile[tx4 + k][ty];
    }
}
