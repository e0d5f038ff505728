/* reference.c - the plain-C model of every catalog kernel (the .cu files in demos/): the
 * expected contents of the output buffers after a correct GPU run.
 * Invariant: every access goes through a buffer checked to be large enough for
 * the launch's arguments first (need_* helpers); a launch outside what a model
 * states it handles returns WS_REF_UNSUPPORTED instead of a guess.
 *
 * Conventions. Kernel integer arguments are 32-bit on the GPU, so they are read
 * as int32_t. A 1-D kernel runs grid.x * block.x threads (T below); an element
 * is written when its index is below both n and T. Float sums are done in
 * double in index order and rounded once to float; each description's tol
 * covers the GPU's different order (see the banner of its .cu). Shared memory a
 * kernel reads without having written is undefined on the GPU; the models
 * start it at zero, and no catalog default reads it. */
#include "reference.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*ref_fn)(const ws_launch *L, void *const *b);

/* ---- access to arguments ------------------------------------------------ */

/* Argument k as a buffer of at least need bytes, else NULL. */
static void *arg_buf(const ws_launch *L, void *const *b, int k, uint64_t need)
{
    if (k < 0 || k >= L->nargs || L->args[k].kind != WS_ARG_BUFFER)
        return NULL;
    int i = L->args[k].buffer;
    if (i < 0 || i >= L->nbuffers || L->buffers[i].bytes < need || !b[i])
        return NULL;
    return b[i];
}

/* Element size of buffer argument k (bytes / count), 0 if not a buffer. */
static uint64_t arg_elem(const ws_launch *L, int k)
{
    if (k < 0 || k >= L->nargs || L->args[k].kind != WS_ARG_BUFFER)
        return 0;
    const ws_buffer *bf = &L->buffers[L->args[k].buffer];
    return bf->count ? bf->bytes / bf->count : 0;
}

/* Integer argument k as the kernel's 32-bit int sees it; 0 if absent. */
static int32_t arg_i32(const ws_launch *L, int k)
{
    if (k < 0 || k >= L->nargs || L->args[k].kind != WS_ARG_INT)
        return 0;
    return (int32_t)L->args[k].ivalue;
}

static int is_int_arg(const ws_launch *L, int k)
{
    return k >= 0 && k < L->nargs && L->args[k].kind == WS_ARG_INT;
}

static float arg_f32(const ws_launch *L, int k)
{
    if (k < 0 || k >= L->nargs)
        return 0.0f;
    if (L->args[k].kind == WS_ARG_FLOAT)
        return (float)L->args[k].fvalue;
    return (float)L->args[k].ivalue;   /* an integer literal passed to a float parameter */
}

/* Threads of a 1-D launch. */
static uint64_t threads_1d(const ws_launch *L)
{
    return (uint64_t)L->grid[0] * L->block[0];
}

/* Elements a 1-D "if (i < n)" kernel writes: min(n, T), 0 for n < 0. */
static uint64_t active_1d(const ws_launch *L, int32_t n)
{
    uint64_t t = threads_1d(L);
    if (n <= 0)
        return 0;
    return (uint64_t)n < t ? (uint64_t)n : t;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

/* cvt.rzi.s32.f32: truncate, saturate, NaN -> 0 (what `int val = float` compiles to). */
static int32_t f2i_rz_sat(float f)
{
    if (f != f)
        return 0;
    if (f >= 2147483648.0f)
        return INT32_MAX;
    if (f <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

/* ---- coalescing.cu, widths.cu: copies ------------------------------------ */

/* copy_float, copy_char ... copy_float4: (in, out, n), out[i] = in[i]. */
static int ref_copy(const ws_launch *L, void *const *b)
{
    uint64_t esz = arg_elem(L, 1), m = active_1d(L, arg_i32(L, 2));
    if (!esz || arg_elem(L, 0) != esz)
        return WS_REF_UNSUPPORTED;
    const char *in = arg_buf(L, b, 0, m * esz);
    char *out = arg_buf(L, b, 1, m * esz);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    memcpy(out, in, m * esz);
    return 0;
}

/* stride_copy(in, out, n, s): out[i*s] = in[i*s]. */
static int ref_stride_copy(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 2));
    int32_t s = arg_i32(L, 3);
    if (s < 0)
        return WS_REF_UNSUPPORTED;
    uint64_t need = m ? ((m - 1) * (uint64_t)s + 1) * 4 : 0;
    const float *in = arg_buf(L, b, 0, need);
    float *out = arg_buf(L, b, 1, need);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        out[i * (uint64_t)s] = in[i * (uint64_t)s];
    return 0;
}

/* offset_copy(in, out, n, off): out[i+off] = in[i+off]. */
static int ref_offset_copy(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 2));
    int32_t off = arg_i32(L, 3);
    if (off < 0)
        return WS_REF_UNSUPPORTED;
    uint64_t need = (m + (uint64_t)off) * 4;
    const float *in = arg_buf(L, b, 0, need);
    float *out = arg_buf(L, b, 1, need);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        out[i + off] = in[i + off];
    return 0;
}

/* kernel_coalesced(A, B, N): B[i] = A[i] * 2.0f (exact in float). */
static int ref_seed_coalesced(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const float *A = arg_buf(L, b, 0, m * 4);
    float *B = arg_buf(L, b, 1, m * 4);
    if (!A || !B)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        B[i] = A[i] * 2.0f;
    return 0;
}

/* kernel_non_coalesced(A, B, N): B[i] = A[2i] * 2.0f. */
static int ref_seed_non_coalesced(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const float *A = arg_buf(L, b, 0, m ? (2 * m - 1) * 4 : 0);
    float *B = arg_buf(L, b, 1, m * 4);
    if (!A || !B)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        B[i] = A[2 * i] * 2.0f;
    return 0;
}

/* ---- layout.cu ------------------------------------------------------------ */

/* aos_scale_x(p, n): p[i].x *= 2 with 3-float particles. */
static int ref_aos_scale_x(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 1));
    float *p = arg_buf(L, b, 0, m * 12);
    if (!p)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        p[3 * i] = p[3 * i] * 2.0f;
    return 0;
}

/* soa_scale_x(x, y, z, n): x[i] *= 2. */
static int ref_soa_scale_x(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 3));
    float *x = arg_buf(L, b, 0, m * 4);
    if (!x)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        x[i] = x[i] * 2.0f;
    return 0;
}

/* aos_sum_xyz(p, out, n): out[i] = (x + y) + z, float adds in that order. */
static int ref_aos_sum_xyz(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const float *p = arg_buf(L, b, 0, m * 12);
    float *out = arg_buf(L, b, 1, m * 4);
    if (!p || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        float s = p[3 * i] + p[3 * i + 1];
        out[i] = s + p[3 * i + 2];
    }
    return 0;
}

/* soa_sum_xyz(x, y, z, out, n). */
static int ref_soa_sum_xyz(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 4));
    const float *x = arg_buf(L, b, 0, m * 4), *y = arg_buf(L, b, 1, m * 4), *z = arg_buf(L, b, 2, m * 4);
    float *out = arg_buf(L, b, 3, m * 4);
    if (!x || !y || !z || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        float s = x[i] + y[i];
        out[i] = s + z[i];
    }
    return 0;
}

/* gather(in, idx, out, n): out[i] = in[idx[i]] when 0 <= idx[i] < n. */
static int ref_gather(const ws_launch *L, void *const *b)
{
    int32_t n = arg_i32(L, 3);
    uint64_t m = active_1d(L, n);
    const float *in = arg_buf(L, b, 0, n > 0 ? (uint64_t)n * 4 : 0);
    const int32_t *idx = arg_buf(L, b, 1, m * 4);
    float *out = arg_buf(L, b, 2, m * 4);
    if (!in || !idx || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        if (idx[i] >= 0 && idx[i] < n)
            out[i] = in[idx[i]];
    return 0;
}

/* ---- shared_banks.cu ------------------------------------------------------ */

/* The 1-D "through shared" kernels: each thread t of a block writes its element
 * (or zero when i >= n) to slot wr(t), then after the barrier reads slot rd(t)
 * into out[i] when i < n. Slots are esz bytes; the block's array has nslots. */
typedef uint64_t (*slot_fn)(uint32_t t, uint32_t B, int32_t s);

static int shared_perm(const ws_launch *L, void *const *b, uint64_t esz, uint64_t nslots,
                       slot_fn wr, slot_fn rd, int32_t s)
{
    int32_t n = arg_i32(L, 2);
    uint64_t m = active_1d(L, n);
    uint32_t B = L->block[0];
    if (arg_elem(L, 0) != esz || arg_elem(L, 1) != esz || L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    const char *in = arg_buf(L, b, 0, m * esz);
    char *out = arg_buf(L, b, 1, m * esz);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint32_t t = 0; t < B; t++)   /* every slot the kernel names must exist */
        if (wr(t, B, s) >= nslots || rd(t, B, s) >= nslots)
            return WS_REF_UNSUPPORTED;
    char *sm = malloc(nslots * esz);
    if (!sm)
        return WS_REF_UNSUPPORTED;
    for (uint64_t blk = 0; blk < L->grid[0] && blk * B < m; blk++) {
        memset(sm, 0, nslots * esz);
        for (uint32_t t = 0; t < B; t++) {
            uint64_t i = blk * B + t;
            char *slot = sm + wr(t, B, s) * esz;
            if (i < m)
                memcpy(slot, in + i * esz, esz);
            else
                memset(slot, 0, esz);
        }
        for (uint32_t t = 0; t < B; t++) {
            uint64_t i = blk * B + t;
            if (i < m)
                memcpy(out + i * esz, sm + rd(t, B, s) * esz, esz);
        }
    }
    free(sm);
    return 0;
}

#define WARPS_PER_BLOCK 8
#define REGION (32 * 33)
#define WIDE_REGION 64

static uint64_t stride_wr(uint32_t t, uint32_t B, int32_t s)
{
    (void)B;
    return ((t >> 5) % WARPS_PER_BLOCK) * REGION + (uint64_t)(((t & 31) * s) % REGION);
}
static uint64_t stride_rd(uint32_t t, uint32_t B, int32_t s)
{
    (void)B;
    return ((t >> 5) % WARPS_PER_BLOCK) * REGION + (uint64_t)(((31 - (t & 31)) * s) % REGION);
}
static uint64_t wide_wr(uint32_t t, uint32_t B, int32_t s)
{
    (void)B;
    return ((t >> 5) % WARPS_PER_BLOCK) * WIDE_REGION + (uint64_t)(((t & 31) * s) % WIDE_REGION);
}
static uint64_t wide_rd(uint32_t t, uint32_t B, int32_t s)
{
    (void)B;
    return ((t >> 5) % WARPS_PER_BLOCK) * WIDE_REGION + (uint64_t)(((31 - (t & 31)) * s) % WIDE_REGION);
}
static uint64_t own_slot(uint32_t t, uint32_t B, int32_t s) { (void)B; (void)s; return t; }
static uint64_t warp_first(uint32_t t, uint32_t B, int32_t s) { (void)B; (void)s; return t & ~31u; }
static uint64_t group4_first(uint32_t t, uint32_t B, int32_t s) { (void)B; (void)s; return t & ~3u; }
static uint64_t reversed(uint32_t t, uint32_t B, int32_t s) { (void)s; return B - 1 - t; }

/* The int products lane*s must not overflow and must stay non-negative. */
static int stride_ok(int32_t s) { return s >= 0 && s <= (1 << 25); }

static int ref_shared_stride(const ws_launch *L, void *const *b)
{
    int32_t s = arg_i32(L, 3);
    if (!stride_ok(s))
        return WS_REF_UNSUPPORTED;
    return shared_perm(L, b, 4, WARPS_PER_BLOCK * REGION, stride_wr, stride_rd, s);
}

static int ref_shared_double(const ws_launch *L, void *const *b)
{
    int32_t s = arg_i32(L, 3);
    if (!stride_ok(s))
        return WS_REF_UNSUPPORTED;
    return shared_perm(L, b, 8, WARPS_PER_BLOCK * WIDE_REGION, wide_wr, wide_rd, s);
}

static int ref_shared_float4(const ws_launch *L, void *const *b)
{
    int32_t s = arg_i32(L, 3);
    if (!stride_ok(s))
        return WS_REF_UNSUPPORTED;
    return shared_perm(L, b, 16, WARPS_PER_BLOCK * WIDE_REGION, wide_wr, wide_rd, s);
}

static int ref_shared_broadcast(const ws_launch *L, void *const *b)
{
    return shared_perm(L, b, 4, 256, own_slot, warp_first, 0);
}

static int ref_shared_multicast(const ws_launch *L, void *const *b)
{
    return shared_perm(L, b, 4, 256, own_slot, group4_first, 0);
}

static int ref_static_reverse(const ws_launch *L, void *const *b)
{
    return shared_perm(L, b, 4, 256, own_slot, reversed, 0);
}

static int ref_dynamic_reverse(const ws_launch *L, void *const *b)
{
    return shared_perm(L, b, 4, L->shared_bytes / 4, own_slot, reversed, 0);
}

/* tile_column_read[_padded](in, out, w, h): 32x32 blocks; out = each 32x32
 * tile transposed in place, zero where the source leaves the matrix. */
static int ref_tile_column_read(const ws_launch *L, void *const *b)
{
    int32_t w = arg_i32(L, 2), h = arg_i32(L, 3);
    if (L->block[0] != 32 || L->block[1] != 32 || L->block[2] != 1 || w < 0 || h < 0 ||
        (int64_t)w * h > INT32_MAX)
        return WS_REF_UNSUPPORTED;
    uint64_t wh = (uint64_t)w * (uint64_t)h;
    const float *in = arg_buf(L, b, 0, wh * 4);
    float *out = arg_buf(L, b, 1, wh * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t by = 0; by < L->grid[1]; by++)
        for (uint64_t bx = 0; bx < L->grid[0]; bx++)
            for (uint32_t ty = 0; ty < 32; ty++)
                for (uint32_t tx = 0; tx < 32; tx++) {
                    uint64_t x = bx * 32 + tx, y = by * 32 + ty;
                    if (x >= (uint64_t)w || y >= (uint64_t)h)
                        continue;
                    uint64_t sx = bx * 32 + ty, sy = by * 32 + tx;   /* tile[tx][ty] */
                    out[y * w + x] = (sx < (uint64_t)w && sy < (uint64_t)h) ? in[sy * w + sx] : 0.0f;
                }
    return 0;
}

/* seed_diagonal / seed_column_zero(in, out, n): one 32-thread block fills
 * s_data[32][32] with in[blk*1024 ...] by rows; out[blk*32 + t] = (int) of
 * s_data[t][t] (diagonal) or s_data[t][0] (column zero), for blk*32+t < n/32. */
static int seed_square(const ws_launch *L, void *const *b, int diagonal)
{
    int32_t n = arg_i32(L, 2);
    if (L->block[0] != 32 || L->block[1] != 1 || L->block[2] != 1 || n < 0)
        return WS_REF_UNSUPPORTED;
    uint64_t g = L->grid[0];
    uint64_t nin = (uint64_t)n < g * 1024 ? (uint64_t)n : g * 1024;
    uint64_t nout = (uint64_t)n / 32 < g * 32 ? (uint64_t)n / 32 : g * 32;
    const float *in = arg_buf(L, b, 0, nin * 4);
    int32_t *out = arg_buf(L, b, 1, nout * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t o = 0; o < nout; o++) {
        uint64_t blk = o / 32, t = o % 32;
        uint64_t k = blk * 1024 + t * 32 + (diagonal ? t : 0);   /* s_data[t][c] = in[blk*1024 + t*32 + c] */
        out[o] = f2i_rz_sat(k < (uint64_t)n ? in[k] : 0.0f);
    }
    return 0;
}

static int ref_seed_diagonal(const ws_launch *L, void *const *b) { return seed_square(L, b, 1); }
static int ref_seed_column_zero(const ws_launch *L, void *const *b) { return seed_square(L, b, 0); }

/* ---- transpose.cu --------------------------------------------------------- */

/* in is W x H (row-major), out[x*H + y] = in[y*W + x] (or the copy out[y*W+x]).
 * Threads cover x < cover_x, y < cover_y; tiled kernels need their block shape. */
enum { TR_ANY_BLOCK, TR_32x32, TR_32x8, TR_8x32 };

static int transpose_like(const ws_launch *L, void *const *b, int block_kind, int copy)
{
    int32_t w = arg_i32(L, 2), h = arg_i32(L, 3);
    uint64_t cx, cy;
    if (w < 0 || h < 0 || (int64_t)w * h > INT32_MAX || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    if (block_kind == TR_ANY_BLOCK) {
        cx = (uint64_t)L->grid[0] * L->block[0];
        cy = (uint64_t)L->grid[1] * L->block[1];
    } else {
        uint32_t cols = block_kind == TR_8x32 ? 8 : 32, rows = block_kind == TR_32x8 ? 8 : 32;
        if (L->block[0] != cols || L->block[1] != rows)
            return WS_REF_UNSUPPORTED;
        cx = (uint64_t)L->grid[0] * 32;
        cy = (uint64_t)L->grid[1] * 32;
    }
    uint64_t wh = (uint64_t)w * (uint64_t)h;
    const float *in = arg_buf(L, b, 0, wh * 4);
    float *out = arg_buf(L, b, 1, wh * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    if (cx > (uint64_t)w) cx = (uint64_t)w;
    if (cy > (uint64_t)h) cy = (uint64_t)h;
    for (uint64_t y = 0; y < cy; y++)
        for (uint64_t x = 0; x < cx; x++)
            out[copy ? y * w + x : x * h + y] = in[y * w + x];
    return 0;
}

static int ref_copy_32x32(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_ANY_BLOCK, 1); }
static int ref_transpose_naive(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_ANY_BLOCK, 0); }
static int ref_transpose_tiled(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_32x32, 0); }
static int ref_copy_32x8(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_32x8, 1); }
static int ref_transpose_32x8(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_32x8, 0); }
static int ref_transpose_8x32(const ws_launch *L, void *const *b) { return transpose_like(L, b, TR_8x32, 0); }

/* ---- matmul.cu ------------------------------------------------------------ */

/* C[r][c] = sum over k of A[r][k] * B[k][c], in double (each float product is
 * exact in double), rounded once. rows < nr, cols < nc. */
static void matmul_rows(const float *A, const float *B, float *C, uint64_t nr, uint64_t nc,
                        uint64_t N, uint64_t K)
{
    for (uint64_t r = 0; r < nr; r++)
        for (uint64_t c = 0; c < nc; c++) {
            double s = 0.0;
            for (uint64_t k = 0; k < K; k++)
                s += (double)A[r * K + k] * (double)B[k * N + c];
            C[r * N + c] = (float)s;
        }
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* matmul_naive / matmul_tiled (A, B, C, M, N, K); tiled needs 32x32 blocks. */
static int matmul_mnk(const ws_launch *L, void *const *b, uint32_t tile)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (M < 0 || N < 0 || K < 0 || L->block[2] != 1 || (int64_t)M * K > INT32_MAX ||
        (int64_t)K * N > INT32_MAX || (int64_t)M * N > INT32_MAX)
        return WS_REF_UNSUPPORTED;
    if (tile && (L->block[0] != tile || L->block[1] != tile))
        return WS_REF_UNSUPPORTED;
    const float *A = arg_buf(L, b, 0, (uint64_t)M * K * 4);
    const float *B = arg_buf(L, b, 1, (uint64_t)K * N * 4);
    float *C = arg_buf(L, b, 2, (uint64_t)M * N * 4);
    if (!A || !B || !C)
        return WS_REF_UNSUPPORTED;
    uint64_t nr = min_u64((uint64_t)M, (uint64_t)L->grid[1] * L->block[1]);
    uint64_t nc = min_u64((uint64_t)N, (uint64_t)L->grid[0] * L->block[0]);
    matmul_rows(A, B, C, nr, nc, (uint64_t)N, (uint64_t)K);
    return 0;
}

static int ref_matmul_naive(const ws_launch *L, void *const *b) { return matmul_mnk(L, b, 0); }
static int ref_matmul_tiled32(const ws_launch *L, void *const *b) { return matmul_mnk(L, b, 32); }

/* matMulShared(A, B, C, N): square, 16x16 blocks, no bounds checks in the
 * kernel, so N % 16 == 0 and the grid inside N / 16 tiles. */
static int ref_matmul_tiled16(const ws_launch *L, void *const *b)
{
    int32_t N = arg_i32(L, 3);
    if (N < 0 || N % 16 || L->block[0] != 16 || L->block[1] != 16 || L->block[2] != 1 ||
        (uint64_t)L->grid[0] * 16 > (uint64_t)N || (uint64_t)L->grid[1] * 16 > (uint64_t)N ||
        (int64_t)N * N > INT32_MAX)
        return WS_REF_UNSUPPORTED;
    uint64_t nn = (uint64_t)N * (uint64_t)N;
    const float *A = arg_buf(L, b, 0, nn * 4), *B = arg_buf(L, b, 1, nn * 4);
    float *C = arg_buf(L, b, 2, nn * 4);
    if (!A || !B || !C)
        return WS_REF_UNSUPPORTED;
    matmul_rows(A, B, C, (uint64_t)L->grid[1] * 16, (uint64_t)L->grid[0] * 16, (uint64_t)N, (uint64_t)N);
    return 0;
}

/* ---- reduction.cu --------------------------------------------------------- */

/* reduceSum(input, output): int, no bounds check: block b sums input[b*B, b*B+B),
 * two's complement wrap-around like the GPU's add.s32. Power-of-two B. */
static int ref_seed_reduce_sum(const ws_launch *L, void *const *b)
{
    uint32_t B = L->block[0];
    uint64_t g = L->grid[0];
    if (!is_pow2(B) || L->block[1] != 1 || L->block[2] != 1 || L->shared_bytes < (uint64_t)B * 4)
        return WS_REF_UNSUPPORTED;
    const int32_t *in = arg_buf(L, b, 0, g * B * 4);
    int32_t *out = arg_buf(L, b, 1, g * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t blk = 0; blk < g; blk++) {
        uint32_t s = 0;
        for (uint32_t t = 0; t < B; t++)
            s += (uint32_t)in[blk * B + t];
        out[blk] = (int32_t)s;
    }
    return 0;
}

/* The float kernels (in, out, n): block blk owns per elements starting at
 * blk*per (per = B, or 2B for the ones that add while loading); elements at or
 * past n count as zero. min_block: smallest B the kernel's unrolling handles;
 * need_pow2: tree loops that halve B; dyn: extern shared array of B floats. */
static int reduce_float(const ws_launch *L, void *const *b, int per_mult, uint32_t min_block,
                        int need_pow2, int dyn)
{
    int32_t n = arg_i32(L, 2);
    uint32_t B = L->block[0];
    uint64_t g = L->grid[0], per = (uint64_t)B * per_mult;
    if (n < 0 || B < min_block || (need_pow2 && !is_pow2(B)) || L->block[1] != 1 || L->block[2] != 1 ||
        (dyn && L->shared_bytes < (uint64_t)B * 4))
        return WS_REF_UNSUPPORTED;
    const float *in = arg_buf(L, b, 0, min_u64((uint64_t)n, g * per) * 4);
    float *out = arg_buf(L, b, 1, g * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t blk = 0; blk < g; blk++) {
        double s = 0.0;
        for (uint64_t k = blk * per; k < (blk + 1) * per && k < (uint64_t)n; k++)
            s += in[k];
        out[blk] = (float)s;
    }
    return 0;
}

static int ref_reduce_one(const ws_launch *L, void *const *b) { return reduce_float(L, b, 1, 1, 1, 1); }
static int ref_reduce_first_add(const ws_launch *L, void *const *b) { return reduce_float(L, b, 2, 1, 1, 1); }
static int ref_reduce_unroll(const ws_launch *L, void *const *b) { return reduce_float(L, b, 2, 64, 1, 1); }

static int ref_reduce_shuffle(const ws_launch *L, void *const *b)
{
    if (L->block[0] % 32)          /* warp_sums[lane < B/32]: whole warps only */
        return WS_REF_UNSUPPORTED;
    return reduce_float(L, b, 2, 32, 0, 0);
}

/* ---- occupancy.cu --------------------------------------------------------- */

/* saxpy(n, a, x, y): y[i] = a * x[i] + y[i]; one rounding (fma), tol covers two. */
static int ref_saxpy(const ws_launch *L, void *const *b)
{
    if (!is_int_arg(L, 0))
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 0));
    float a = arg_f32(L, 1);
    const float *x = arg_buf(L, b, 2, m * 4);
    float *y = arg_buf(L, b, 3, m * 4);
    if (!x || !y)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        y[i] = (float)((double)a * x[i] + y[i]);
    return 0;
}

/* ---- local_memory.cu ------------------------------------------------------ */

/* local_dynamic_index / register_select(seed, sel, out, n): 16 LCG steps from
 * seed[i]; step k adds k+1 to bin h >> 28; out[i] = bin (sel[i] & 15). */
static int ref_lcg_bins(const ws_launch *L, void *const *b)
{
    uint64_t m = active_1d(L, arg_i32(L, 3));
    const uint32_t *seed = arg_buf(L, b, 0, m * 4);
    const int32_t *sel = arg_buf(L, b, 1, m * 4);
    uint32_t *out = arg_buf(L, b, 2, m * 4);
    if (!seed || !sel || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        uint32_t h = seed[i], j = (uint32_t)sel[i] & 15u, v = 0;
        for (uint32_t k = 0; k < 16; k++) {
            h = h * 1664525u + 1013904223u;
            if ((h >> 28) == j)
                v += k + 1;
        }
        out[i] = v;
    }
    return 0;
}

/* ---- tensorcore.cu ------------------------------------------------------------------- */

/* IEEE binary16 bits to its exact value. */
static double half_value(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(1024 + f, e - 25);
    return h >> 15 ? -v : v;
}

/* C (M x N) = A (M x K) x B^T (B is N x K), fp16 inputs, the sum exact in double and rounded
 * once to float; only the 16x16 tiles (t < tiles) are written. */
static void gemm_tn(const uint16_t *A, const uint16_t *B, float *C, uint64_t N, uint64_t K, uint64_t tiles_m,
                    uint64_t tiles_n, uint64_t tiles)
{
    for (uint64_t t = 0; t < tiles && t < tiles_m * tiles_n; t++) {
        uint64_t tm = t / tiles_n, tn = t % tiles_n;
        for (uint64_t i = tm * 16; i < tm * 16 + 16; i++)
            for (uint64_t j = tn * 16; j < tn * 16 + 16; j++) {
                double acc = 0;
                for (uint64_t k = 0; k < K; k++)
                    acc += half_value(A[i * K + k]) * half_value(B[j * K + k]);
                C[i * N + j] = (float)acc;
            }
    }
}

/* wmma_gemm_naive (A, B, C, M, N, K): warp w computes tile w of the (M/16) x (N/16) tiles. */
static int ref_wmma_gemm(const ws_launch *L, void *const *b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (M <= 0 || N <= 0 || K <= 0 || M % 16 || N % 16 || K % 16 || L->block[0] % 32 || L->block[1] != 1 ||
        L->grid[1] != 1)
        return WS_REF_UNSUPPORTED;
    const uint16_t *A = arg_buf(L, b, 0, (uint64_t)M * K * 2), *B = arg_buf(L, b, 1, (uint64_t)N * K * 2);
    float *C = arg_buf(L, b, 2, (uint64_t)M * N * 4);
    if (!A || !B || !C)
        return WS_REF_UNSUPPORTED;
    gemm_tn(A, B, C, (uint64_t)N, (uint64_t)K, (uint64_t)M / 16, (uint64_t)N / 16, threads_1d(L) / 32);
    return 0;
}

/* mma_ldmatrix_* and mma_cp_async (A, B, C, M, N, K[, pad, swz]): block (x, y) computes the
 * 32x32 tile (y, x) of C; 128 threads, the grid covering C exactly. */
static int ref_mma_gemm(const ws_launch *L, void *const *b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (M <= 0 || N <= 0 || K <= 0 || M % 32 || N % 32 || K % 64 || L->block[0] != 128 || L->block[1] != 1 ||
        L->grid[0] != (uint32_t)N / 32 || L->grid[1] != (uint32_t)M / 32)
        return WS_REF_UNSUPPORTED;
    if (L->nargs > 6 && (arg_i32(L, 6) < 0 || arg_i32(L, 6) % 8 || (arg_i32(L, 7) != 0 && arg_i32(L, 7) != 1)))
        return WS_REF_UNSUPPORTED;                   /* pad: 16-byte rows; swz: 0 or 1 */
    const uint16_t *A = arg_buf(L, b, 0, (uint64_t)M * K * 2), *B = arg_buf(L, b, 1, (uint64_t)N * K * 2);
    float *C = arg_buf(L, b, 2, (uint64_t)M * N * 4);
    if (!A || !B || !C)
        return WS_REF_UNSUPPORTED;
    uint64_t tm = (uint64_t)M / 16, tn = (uint64_t)N / 16;
    gemm_tn(A, B, C, (uint64_t)N, (uint64_t)K, tm, tn, tm * tn);
    return 0;
}

/* The three TMA GEMMs (tA, tB, C, M, N, K): C = A x B^T (gemm_tn, every 16x16 tile) where both
 * tensor maps hold their operand densely (K x M and K x N halves) in boxes 64 wide and box_a / box_b
 * rows tall with the 128-byte swizzle: the layout each kernel's addressing assumes. */
static int tmap_gemm_tn(const ws_launch *L, void *const *b, uint32_t box_a, uint32_t box_b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (L->nargs != 6 || L->args[0].kind != WS_ARG_TMAP || L->args[1].kind != WS_ARG_TMAP)
        return WS_REF_UNSUPPORTED;
    const ws_tmap *ta = &L->tmaps[L->args[0].buffer], *tb = &L->tmaps[L->args[1].buffer];
    const int32_t rows[2] = {M, N};
    const uint32_t box[2] = {box_a, box_b};
    const ws_tmap *t2[2] = {ta, tb};
    for (int i = 0; i < 2; i++) {
        const ws_tmap *t = t2[i];
        if (t->rank != 2 || t->elem_size != 2 || t->dims[0] != (uint64_t)K || t->dims[1] != (uint64_t)rows[i] ||
            t->strides[1] != 2 * (uint64_t)K || t->box[0] != 64 || t->box[1] != box[i] || t->swizzle != 128)
            return WS_REF_UNSUPPORTED;
    }
    const uint16_t *A = b[ta->buffer], *B = b[tb->buffer];
    float *C = arg_buf(L, b, 2, (uint64_t)M * N * 4);
    if (!A || !B || !C || L->buffers[ta->buffer].bytes < (uint64_t)M * K * 2 ||
        L->buffers[tb->buffer].bytes < (uint64_t)N * K * 2)
        return WS_REF_UNSUPPORTED;
    uint64_t tm = (uint64_t)M / 16, tn = (uint64_t)N / 16;
    gemm_tn(A, B, C, (uint64_t)N, (uint64_t)K, tm, tn, tm * tn);
    return 0;
}

/* mma_tma (tA, tB, C, M, N, K): ref_mma_gemm's product, A and B read through the two tensor
 * maps, which must map them as the kernel assumes (dense K x M and K x N halves, 64 x 32 boxes
 * with the 128-byte swizzle: the layout its ldmatrix addressing reads). */
static int ref_mma_tma(const ws_launch *L, void *const *b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (L->nargs != 6 || L->args[0].kind != WS_ARG_TMAP || L->args[1].kind != WS_ARG_TMAP || M <= 0 || N <= 0 ||
        K <= 0 || M % 32 || N % 32 || K % 64 || L->block[0] != 128 || L->grid[0] != (uint32_t)N / 32 ||
        L->grid[1] != (uint32_t)M / 32)
        return WS_REF_UNSUPPORTED;
    return tmap_gemm_tn(L, b, 32, 32);
}

/* wgmma_gemm (tA, tB, C, M, N, K): C = A x B^T (gemm_tn, every 16x16 tile), A and B read
 * through 64 x 64 boxes with the 128-byte swizzle, one 64 x 64 tile of C per block of one
 * warpgroup: the layout its matrix descriptors describe. */
static int ref_wgmma_gemm(const ws_launch *L, void *const *b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (L->nargs != 6 || L->args[0].kind != WS_ARG_TMAP || L->args[1].kind != WS_ARG_TMAP || M <= 0 || N <= 0 ||
        K <= 0 || M % 64 || N % 64 || K % 64 || L->block[0] != 128 || L->grid[0] != (uint32_t)N / 64 ||
        L->grid[1] != (uint32_t)M / 64)
        return WS_REF_UNSUPPORTED;
    return tmap_gemm_tn(L, b, 64, 64);
}

/* wgmma_gemm_ws (tA, tB, C, M, N, K): the same product, 128 x 256 tiles shared out over a
 * persistent grid of 384-thread blocks (any grid of 1 .. tiles blocks covers every tile); the
 * tensor maps must hold A and B densely in 64 x 128 and 64 x 256 boxes with the 128-byte swizzle,
 * the layout its matrix descriptors assume. */
static int ref_wgmma_gemm_ws(const ws_launch *L, void *const *b)
{
    int32_t M = arg_i32(L, 3), N = arg_i32(L, 4), K = arg_i32(L, 5);
    if (L->nargs != 6 || L->args[0].kind != WS_ARG_TMAP || L->args[1].kind != WS_ARG_TMAP || M <= 0 || N <= 0 ||
        K <= 0 || M % 128 || N % 256 || K % 64 || L->block[0] != 384 || L->block[1] != 1 || L->grid[1] != 1 ||
        L->grid[0] < 1 || L->grid[0] > (uint32_t)(M / 128) * (uint32_t)(N / 256))
        return WS_REF_UNSUPPORTED;
    return tmap_gemm_tn(L, b, 128, 256);
}

/* swizzle_* (T, out, mode): one block of 4 warps; warp w's ldmatrix.x4 of k-block kb gives lane
 * l in register i the halves (row, col) and (row, col + 1) of the 64x64 tile T with
 * row = 16w + 8(i % 2) + l / 4, col = 16kb + 8(i / 2) + 2(l % 4): the PTX ISA's ldmatrix
 * layout under the addressing "lane l gives row l % 16 at column 8(l / 16)". The layout in
 * shared memory does not change the fragments. */
static int ref_swizzle_gallery(const ws_launch *L, void *const *b)
{
    int32_t mode = arg_i32(L, 2);
    if (mode < 0 || mode > 4 || L->grid[0] * L->grid[1] * L->grid[2] != 1 || L->block[0] != 128 || L->block[1] != 1)
        return WS_REF_UNSUPPORTED;
    const uint16_t *T = arg_buf(L, b, 0, 64 * 64 * 2);
    uint32_t *out = arg_buf(L, b, 1, 2048 * 4);
    if (!T || !out)
        return WS_REF_UNSUPPORTED;
    for (int w = 0; w < 4; w++)
        for (int kb = 0; kb < 4; kb++)
            for (int i = 0; i < 4; i++)
                for (int l = 0; l < 32; l++) {
                    int row = 16 * w + 8 * (i % 2) + l / 4, col = 16 * kb + 8 * (i / 2) + 2 * (l % 4);
                    out[((w * 4 + kb) * 4 + i) * 32 + l] = T[row * 64 + col] | (uint32_t)T[row * 64 + col + 1] << 16;
                }
    return 0;
}

/* spill_forced / spill_free(in, key, out, n, iters): v[k] = in[i + k n] (k < 40); iters
 * rounds of v[k] = v[k] * 1664525 + (v[(k+7) % 40] ^ key[t]), k in order (so v[k+7] is
 * already this round's for k >= 33); out[i] = sum of v[k] (k+1), all mod 2^32. */
static int ref_spill(const ws_launch *L, void *const *b)
{
    enum { W = 40 };
    int32_t n = arg_i32(L, 3), iters = arg_i32(L, 4);
    uint64_t m = active_1d(L, n);
    if (n < 0 || iters < 0)
        return WS_REF_UNSUPPORTED;
    const uint32_t *in = arg_buf(L, b, 0, (uint64_t)n * W * 4);
    const uint32_t *key = arg_buf(L, b, 1, (uint64_t)iters * 4);
    uint32_t *out = arg_buf(L, b, 2, m * 4);
    if (!in || (!key && iters > 0) || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        uint32_t v[W], s = 0;
        for (int k = 0; k < W; k++)
            v[k] = in[i + (uint64_t)k * (uint64_t)n];
        for (int t = 0; t < iters; t++)
            for (int k = 0; k < W; k++)
                v[k] = v[k] * 1664525u + (v[(k + 7) % W] ^ key[t]);
        for (int k = 0; k < W; k++)
            s += v[k] * (uint32_t)(k + 1);
        out[i] = s;
    }
    return 0;
}

/* ---- divergence.cu: branches that could leave ------------------------------ */

/* Thread i of a 1-D launch is threadIdx.x = i % block.x; its lane is that & 31. */
static uint32_t lane_1d(const ws_launch *L, uint64_t i)
{
    return (uint32_t)(i % L->block[0]) & 31u;
}

/* Which leaving branch a divergence.cu kernel takes on lanes 0-7 when in[i] < 0
 * (a trap fails the launch, so its model refuses such data). */
typedef enum { DIV_NONE, DIV_TRAP, DIV_RETURN } div_leave;

static int div_store_i(const ws_launch *L, void *const *b, div_leave leave)
{
    if (L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const int32_t *in = arg_buf(L, b, 0, m * 4);
    int32_t *out = arg_buf(L, b, 1, m * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        bool first8 = lane_1d(L, i) < 8;
        if (leave == DIV_NONE) {
            out[i] = (int32_t)((uint32_t)i + (first8 ? (uint32_t)in[i] : 0u));
            continue;
        }
        if (first8 && in[i] < 0) {
            if (leave == DIV_TRAP)
                return WS_REF_UNSUPPORTED;
            continue;                            /* returned: no store */
        }
        out[i] = (int32_t)i;
    }
    return 0;
}

/* div_copy: out[i] = i + (lane < 8 ? in[i] : 0). */
static int ref_div_copy(const ws_launch *L, void *const *b) { return div_store_i(L, b, DIV_NONE); }
/* div_trap, div_syncwarp: out[i] = i; lanes 0-7 trap on in[i] < 0. */
static int ref_div_trap(const ws_launch *L, void *const *b) { return div_store_i(L, b, DIV_TRAP); }
/* div_return, div_exit: out[i] = i unless lanes 0-7 leave on in[i] < 0. */
static int ref_div_return(const ws_launch *L, void *const *b) { return div_store_i(L, b, DIV_RETURN); }

/* div_return_taken: lanes 0-7 with in[i] % 4 == 3 store -1 and return; out[i] = 2i otherwise. */
static int ref_div_return_taken(const ws_launch *L, void *const *b)
{
    if (L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const int32_t *in = arg_buf(L, b, 0, m * 4);
    int32_t *out = arg_buf(L, b, 1, m * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        out[i] = lane_1d(L, i) < 8 && in[i] % 4 == 3 ? -1 : (int32_t)(2u * (uint32_t)i);
    return 0;
}

/* div_nested(in, aux, out, n): lanes 0-15 set aux[i] = i + 1 unless lanes 0-7 return on
 * in[i] < 0 (then no store at all); out[i] = i. */
static int ref_div_nested(const ws_launch *L, void *const *b)
{
    if (L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 3));
    const int32_t *in = arg_buf(L, b, 0, m * 4);
    int32_t *aux = arg_buf(L, b, 1, m * 4), *out = arg_buf(L, b, 2, m * 4);
    if (!in || !aux || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        uint32_t lane = lane_1d(L, i);
        if (lane < 8 && in[i] < 0)
            continue;
        if (lane < 16)
            aux[i] = (int32_t)((uint32_t)i + 1u);
        out[i] = (int32_t)i;
    }
    return 0;
}

/* div_loop: trips = threadIdx.x % 8 + 1; for k < trips: v = in[i + k]; v < 0 returns,
 * v % 5 == 4 skips, v % 7 == 6 ends the loop, else s += v; out[i] = s. */
static int ref_div_loop(const ws_launch *L, void *const *b)
{
    if (L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2));
    const int32_t *in = arg_buf(L, b, 0, m ? (m + 7) * 4 : 0);
    int32_t *out = arg_buf(L, b, 1, m * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++) {
        uint32_t trips = (uint32_t)(i % L->block[0]) % 8u + 1u, s = 0;
        bool returned = false;
        for (uint32_t k = 0; k < trips; k++) {
            int32_t v = in[i + k];
            if (v < 0) { returned = true; break; }
            if (v % 5 == 4) continue;
            if (v % 7 == 6) break;
            s += (uint32_t)v;
        }
        if (!returned)
            out[i] = (int32_t)s;
    }
    return 0;
}

/* div_barrier: every thread of a block of at most 256 stores its index in shared
 * memory; out[i] = the index of thread blockDim.x - 1 - t of the same block. No bounds
 * check: all grid.x * block.x threads run; lanes 0-7 trap on in[i] < 0. */
static int ref_div_barrier(const ws_launch *L, void *const *b)
{
    uint64_t B = L->block[0], T = threads_1d(L);
    if (B > 256 || L->block[1] != 1 || L->block[2] != 1)
        return WS_REF_UNSUPPORTED;
    const int32_t *in = arg_buf(L, b, 0, T * 4);
    int32_t *out = arg_buf(L, b, 1, T * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < T; i++) {
        if (lane_1d(L, i) < 8 && in[i] < 0)
            return WS_REF_UNSUPPORTED;
        out[i] = (int32_t)(i / B * B + (B - 1 - i % B));
    }
    return 0;
}

/* ---- histogram.cu, atomics.cu: atomics whose sums do not depend on their order -------------- */

/* A launch of one row of blocks of one row of threads. */
static int is_1d(const ws_launch *L)
{
    return L->grid[1] == 1 && L->grid[2] == 1 && L->block[1] == 1 && L->block[2] == 1;
}

/* hist_global / hist_shared / hist_warpagg(in, n, bins): bins[in[i]] += 1 for every byte i the
 * kernel covers - i < min(n, T) for one byte per thread, i < n for the grid-stride hist_shared. The
 * warp-aggregated one calls __match_any_sync with a full mask, so its blocks must be whole warps. */
static int hist_bytes(const ws_launch *L, void *const *b, int grid_stride, int whole_warps)
{
    if (!is_1d(L) || !is_int_arg(L, 1) || (whole_warps && L->block[0] % 32))
        return WS_REF_UNSUPPORTED;
    int32_t n = arg_i32(L, 1);
    uint64_t m = grid_stride ? (n > 0 && threads_1d(L) ? (uint64_t)n : 0) : active_1d(L, n);
    const uint8_t *in = arg_buf(L, b, 0, m);
    uint32_t *bins = arg_buf(L, b, 2, 256 * 4);
    if (!in || !bins)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        bins[in[i]]++;
    return 0;
}
static int ref_hist_global(const ws_launch *L, void *const *b) { return hist_bytes(L, b, 0, 0); }
static int ref_hist_shared(const ws_launch *L, void *const *b) { return hist_bytes(L, b, 1, 0); }
static int ref_hist_warpagg(const ws_launch *L, void *const *b) { return hist_bytes(L, b, 0, 1); }

/* (words, n) kernels: thread i < min(n, T) adds 1 to words[i / div % mod] (mod 0: no modulo). */
static int add_ones(const ws_launch *L, void *const *b, uint64_t div, uint64_t mod)
{
    if (!is_1d(L) || !is_int_arg(L, 1))
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 1));
    uint64_t words = mod ? mod : (m ? (m - 1) / div + 1 : 0);
    uint32_t *w = arg_buf(L, b, 0, words * 4);
    if (!w)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        w[mod ? i / div % mod : i / div]++;
    return 0;
}
static int ref_atomic_one_counter(const ws_launch *L, void *const *b) { return add_ones(L, b, 1, 1); }
static int ref_atomic_per_warp(const ws_launch *L, void *const *b) { return add_ones(L, b, 32, 0); }
static int ref_atomic_32_bins(const ws_launch *L, void *const *b) { return add_ones(L, b, 1, 32); }
static int ref_atomic_distinct(const ws_launch *L, void *const *b) { return add_ones(L, b, 1, 0); }

/* The shared-memory versions flush per block: one word for the counter; words 0..31 by threads
 * 0..31 for the 32 bins (a block of fewer than 32 threads would leave bins unflushed). Their sums
 * are the global versions'. */
static int ref_atomic_shared_counter(const ws_launch *L, void *const *b) { return add_ones(L, b, 1, 1); }
static int ref_atomic_shared_32_bins(const ws_launch *L, void *const *b)
{
    if (L->block[0] < 32)
        return WS_REF_UNSUPPORTED;
    return add_ones(L, b, 1, 32);
}

/* atomic_one_counter_lanes(count, zero, n): count[i & zero] += 1 for i < m (zero = 0 in the catalog). */
static int ref_atomic_one_counter_lanes(const ws_launch *L, void *const *b)
{
    if (!is_1d(L) || !is_int_arg(L, 1) || !is_int_arg(L, 2) || arg_i32(L, 1) < 0)
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2)), mask = (uint64_t)arg_i32(L, 1);
    uint64_t top = 0;                       /* the largest index any thread adds to */
    for (uint64_t i = 0; i < m; i++)
        if ((i & mask) > top)
            top = i & mask;
    uint32_t *w = arg_buf(L, b, 0, m ? (top + 1) * 4 : 0);
    if (!w)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        w[i & mask]++;
    return 0;
}

/* atomic_one_counter_ret(count, ok, n): count += m; ok[i] = (ticket < n) = 1 for i < m. */
static int ref_atomic_one_counter_ret(const ws_launch *L, void *const *b)
{
    if (!is_1d(L) || !is_int_arg(L, 2))
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2));
    uint32_t *count = arg_buf(L, b, 0, 4), *ok = arg_buf(L, b, 1, m * 4);
    if (!count || !ok || *count != 0)       /* tickets start at 0 for "below n" to hold */
        return WS_REF_UNSUPPORTED;
    *count += (uint32_t)m;
    for (uint64_t i = 0; i < m; i++)
        ok[i] = 1;
    return 0;
}

/* atomic_distinct_ret(words, old, n): old[i] = words[i]; words[i] += 1. */
static int ref_atomic_distinct_ret(const ws_launch *L, void *const *b)
{
    if (!is_1d(L) || !is_int_arg(L, 2))
        return WS_REF_UNSUPPORTED;
    uint64_t m = active_1d(L, arg_i32(L, 2));
    uint32_t *w = arg_buf(L, b, 0, m * 4), *old = arg_buf(L, b, 1, m * 4);
    if (!w || !old)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < m; i++)
        old[i] = w[i]++;
    return 0;
}

/* ---- the table ------------------------------------------------------------- */

/* ---- cluster.cu: group sums and the shared table ------------------------------------------ */

/* Block k's sum of its 256 inputs (uint wrap, as the kernel's adds). */
static uint32_t block_sum256(const uint32_t *in, uint64_t k)
{
    uint32_t s = 0;
    for (uint64_t i = 0; i < 256; i++) s += in[k * 256 + i];
    return s;
}

/* reduce_groups_atomic(in, out, g) / cluster_dsmem_reduce(in, out) with g = the cluster size:
 * out[k / g] += block k's sum, for every block of 256 threads. */
static int group_sums(const ws_launch *L, void *const *b, uint64_t g)
{
    if (!is_1d(L) || L->block[0] != 256 || g == 0 || L->grid[0] % g)
        return WS_REF_UNSUPPORTED;
    uint64_t nb = L->grid[0];
    const uint32_t *in = arg_buf(L, b, 0, nb * 256 * 4);
    uint32_t *out = arg_buf(L, b, 1, (nb / g) * 4);
    if (!in || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t k = 0; k < nb; k++) out[k / g] += block_sum256(in, k);
    return 0;
}
static int ref_reduce_groups_atomic(const ws_launch *L, void *const *b)
{
    if (!is_int_arg(L, 2) || arg_i32(L, 2) <= 0) return WS_REF_UNSUPPORTED;
    return group_sums(L, b, (uint64_t)arg_i32(L, 2));
}
static int ref_cluster_dsmem_reduce(const ws_launch *L, void *const *b)
{
    return group_sums(L, b, L->cluster[0] ? (uint64_t)L->cluster[0] * (L->cluster[1] ? L->cluster[1] : 1) *
                                                (L->cluster[2] ? L->cluster[2] : 1) : 1);
}

/* table_per_block / table_multicast(in, table, out): out[i] = in[i] * t[j] + t[1023 - j] with
 * j = threadIdx.x (uint wrap), for blocks of 256 threads and a 1024-word table. */
static int ref_table(const ws_launch *L, void *const *b)
{
    if (!is_1d(L) || L->block[0] != 256)
        return WS_REF_UNSUPPORTED;
    uint64_t n = (uint64_t)L->grid[0] * 256;
    const uint32_t *in = arg_buf(L, b, 0, n * 4), *t = arg_buf(L, b, 1, 4096);
    uint32_t *out = arg_buf(L, b, 2, n * 4);
    if (!in || !t || !out)
        return WS_REF_UNSUPPORTED;
    for (uint64_t i = 0; i < n; i++) out[i] = in[i] * t[i % 256] + t[1023 - i % 256];
    return 0;
}

static const struct {
    const char *name;
    ref_fn fn;
} refs[] = {
    /* coalescing.cu */
    {"copy_float", ref_copy},
    {"stride_copy_s1", ref_stride_copy}, {"stride_copy_s2", ref_stride_copy},
    {"stride_copy_s4", ref_stride_copy}, {"stride_copy_s8", ref_stride_copy},
    {"stride_copy_s16", ref_stride_copy}, {"stride_copy_s32", ref_stride_copy},
    {"offset_copy_o0", ref_offset_copy}, {"offset_copy_o1", ref_offset_copy},
    {"offset_copy_o8", ref_offset_copy}, {"offset_copy_o31", ref_offset_copy},
    {"seed_kernel_coalesced", ref_seed_coalesced},
    {"seed_kernel_non_coalesced", ref_seed_non_coalesced},
    /* widths.cu */
    {"copy_char", ref_copy}, {"copy_short", ref_copy}, {"copy_float_w", ref_copy},
    {"copy_double", ref_copy}, {"copy_float4", ref_copy},
    /* layout.cu */
    {"aos_scale_x", ref_aos_scale_x}, {"soa_scale_x", ref_soa_scale_x},
    {"aos_sum_xyz", ref_aos_sum_xyz}, {"soa_sum_xyz", ref_soa_sum_xyz},
    {"gather_random", ref_gather}, {"gather_identity", ref_gather},
    /* shared_banks.cu */
    {"shared_stride_s1", ref_shared_stride}, {"shared_stride_s2", ref_shared_stride},
    {"shared_stride_s4", ref_shared_stride}, {"shared_stride_s8", ref_shared_stride},
    {"shared_stride_s16", ref_shared_stride}, {"shared_stride_s32", ref_shared_stride},
    {"shared_stride_s33", ref_shared_stride},
    {"tile_column_read", ref_tile_column_read}, {"tile_column_read_padded", ref_tile_column_read},
    {"shared_broadcast", ref_shared_broadcast}, {"shared_multicast", ref_shared_multicast},
    {"seed_diagonal", ref_seed_diagonal}, {"seed_column_zero", ref_seed_column_zero},
    {"shared_double_s1", ref_shared_double}, {"shared_double_s2", ref_shared_double},
    {"shared_float4_s1", ref_shared_float4}, {"shared_float4_s2", ref_shared_float4},
    {"static_reverse", ref_static_reverse}, {"dynamic_reverse", ref_dynamic_reverse},
    /* transpose.cu */
    {"copy_32x32", ref_copy_32x32}, {"transpose_naive", ref_transpose_naive},
    {"transpose_coalesced", ref_transpose_tiled}, {"transpose_padded", ref_transpose_tiled},
    {"copy_32x8", ref_copy_32x8}, {"transpose_naive_32x8", ref_transpose_32x8},
    {"transpose_coalesced_32x8", ref_transpose_32x8}, {"transpose_padded_32x8", ref_transpose_32x8},
    {"transpose_vec4", ref_transpose_8x32},
    /* matmul.cu */
    {"matmul_naive", ref_matmul_naive}, {"matmul_tiled16", ref_matmul_tiled16},
    {"matmul_tiled32", ref_matmul_tiled32},
    /* reduction.cu */
    {"seed_reduce_sum", ref_seed_reduce_sum},
    {"reduce_interleaved", ref_reduce_one}, {"reduce_strided_index", ref_reduce_one},
    {"reduce_sequential", ref_reduce_one}, {"reduce_first_add", ref_reduce_first_add},
    {"reduce_unroll_last_warp", ref_reduce_unroll}, {"reduce_shuffle", ref_reduce_shuffle},
    /* occupancy.cu */
    {"saxpy_block13", ref_saxpy}, {"saxpy_block256", ref_saxpy},
    /* local_memory.cu */
    {"local_dynamic_index", ref_lcg_bins}, {"register_select", ref_lcg_bins},
    {"spill_forced", ref_spill}, {"spill_free", ref_spill},
    /* divergence.cu */
    {"div_copy", ref_div_copy}, {"div_trap", ref_div_trap}, {"div_return", ref_div_return},
    {"div_exit", ref_div_return}, {"div_return_taken", ref_div_return_taken}, {"div_nested", ref_div_nested},
    {"div_loop", ref_div_loop}, {"div_syncwarp", ref_div_trap}, {"div_barrier", ref_div_barrier},
    /* tensorcore.cu */
    {"wmma_gemm_naive", ref_wmma_gemm}, {"mma_ldmatrix_unpadded", ref_mma_gemm},
    {"mma_ldmatrix_padded", ref_mma_gemm}, {"mma_ldmatrix_swizzled", ref_mma_gemm}, {"mma_cp_async", ref_mma_gemm},
    {"mma_tma", ref_mma_tma}, {"wgmma_gemm", ref_wgmma_gemm}, {"wgmma_gemm_ws", ref_wgmma_gemm_ws},
    {"swizzle_none", ref_swizzle_gallery}, {"swizzle_pad8", ref_swizzle_gallery}, {"swizzle_b1", ref_swizzle_gallery},
    {"swizzle_b2", ref_swizzle_gallery}, {"swizzle_b3", ref_swizzle_gallery},
    /* cluster.cu */
    {"reduce_groups_atomic", ref_reduce_groups_atomic}, {"cluster_dsmem_reduce", ref_cluster_dsmem_reduce},
    {"table_per_block", ref_table}, {"table_multicast", ref_table},
    /* histogram.cu */
    {"hist_global_uniform", ref_hist_global}, {"hist_global_skewed", ref_hist_global},
    {"hist_shared_uniform", ref_hist_shared}, {"hist_shared_skewed", ref_hist_shared},
    {"hist_warpagg_uniform", ref_hist_warpagg}, {"hist_warpagg_skewed", ref_hist_warpagg},
    /* atomics.cu */
    {"atomic_one_counter", ref_atomic_one_counter}, {"atomic_one_counter_ret", ref_atomic_one_counter_ret},
    {"atomic_one_counter_lanes", ref_atomic_one_counter_lanes},
    {"atomic_per_warp", ref_atomic_per_warp}, {"atomic_32_bins", ref_atomic_32_bins},
    {"atomic_distinct", ref_atomic_distinct}, {"atomic_distinct_ret", ref_atomic_distinct_ret},
    {"atomic_shared_counter", ref_atomic_shared_counter}, {"atomic_shared_32_bins", ref_atomic_shared_32_bins},
};

#define NREFS ((int)(sizeof refs / sizeof refs[0]))

static ref_fn find_ref(const char *name)
{
    for (int i = 0; i < NREFS; i++)
        if (strcmp(refs[i].name, name) == 0)
            return refs[i].fn;
    return NULL;
}

int ws_reference(const ws_launch *L, void *const *buffers)
{
    if (!L || !L->desc)
        return WS_REF_UNKNOWN;
    ref_fn fn = find_ref(L->desc->name);
    if (!fn)
        return WS_REF_UNKNOWN;
    return fn(L, buffers);
}

bool ws_reference_has(const char *desc_name)
{
    return desc_name && find_ref(desc_name) != NULL;
}

const char *const *ws_reference_names(int *count)
{
    static const char *names[NREFS];
    for (int i = 0; i < NREFS; i++)
        names[i] = refs[i].name;
    if (count)
        *count = NREFS;
    return names;
}
