/* test_catalog_outputs.c - every catalog kernel, run in the simulator on its
 * checked-in PTX, leaves the outputs the plain-C reference (tests/reference.c)
 * predicts; and the references themselves give hand-checked answers on tiny
 * launches. Invariant: a description without a reference fails the suite.
 * Runs from the repository root (reads demos/). The odd sizes run in make test, the default
 * sizes in make test-slow (tests/slow.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/buffers.h"
#include "../common/catalog.h"
#include "../common/desc.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/ptx.h"
#include "../common/files.h"
#include "reference.h"
#include "slow.h"

#define CATALOG_DIR "demos"
#define ARCH "sm_90"
/* Default sizes keep a description near or under 30 million thread-instructions
 * so a simulation finishes well under a second (the widest, the random gather,
 * runs 29.4 million); a little slack for the "~". */
#define DEFAULT_BUDGET 32000000ull

/* ======================================================================== */
/* Tiny hand-built launches for the reference checks (no parser involved).   */

typedef struct {
    ws_kernel_desc desc;
    ws_launch L;
    void *bufs[WS_MAX_BUFFERS];
} tiny;

static tiny *tiny_new(const char *name, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by)
{
    tiny *t = calloc(1, sizeof *t);
    assert_non_null(t);
    snprintf(t->desc.name, sizeof t->desc.name, "%s", name);
    t->L.desc = &t->desc;
    t->L.grid[0] = gx; t->L.grid[1] = gy; t->L.grid[2] = 1;
    t->L.block[0] = bx; t->L.block[1] = by; t->L.block[2] = 1;
    return t;
}

static void tiny_free(tiny *t)
{
    for (int i = 0; i < t->L.nbuffers; i++)
        free(t->bufs[i]);
    free(t);
}

/* Adds a buffer argument of count elements of esize bytes, zero-filled. */
static void *tiny_buf(tiny *t, const char *name, ws_type type, size_t esize, uint64_t count)
{
    int i = t->L.nbuffers++;
    ws_buffer *b = &t->L.buffers[i];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->type = type;
    b->count = count;
    b->bytes = count * esize;
    t->bufs[i] = calloc(count ? count : 1, esize);
    assert_non_null(t->bufs[i]);
    ws_arg *a = &t->L.args[t->L.nargs++];
    a->kind = WS_ARG_BUFFER;
    a->buffer = i;
    return t->bufs[i];
}

static float *tiny_floats(tiny *t, const char *name, uint64_t count)
{
    return tiny_buf(t, name, WS_TYPE_FLOAT, 4, count);
}

/* float buffer holding 0, 1, 2 ... (what init=index gives). */
static float *tiny_index_floats(tiny *t, const char *name, uint64_t count)
{
    float *f = tiny_floats(t, name, count);
    for (uint64_t k = 0; k < count; k++)
        f[k] = (float)k;
    return f;
}

static void tiny_int(tiny *t, int64_t v)
{
    ws_arg *a = &t->L.args[t->L.nargs++];
    a->kind = WS_ARG_INT;
    a->ivalue = v;
}

static void tiny_float(tiny *t, double v)
{
    ws_arg *a = &t->L.args[t->L.nargs++];
    a->kind = WS_ARG_FLOAT;
    a->fvalue = v;
}

static int tiny_run(tiny *t)
{
    return ws_reference(&t->L, t->bufs);
}

/* ---- the references on answers known by hand ------------------------------ */

/* A 4x4 matrix of its own indices transposed: out[r][c] = in[c][r] = 4c + r. */
static void test_reference_transposes_a_4x4_index_matrix(void **state)
{
    (void)state;
    static const float want[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    const char *names[] = {"transpose_naive", "transpose_coalesced", "transpose_padded"};
    for (int k = 0; k < 3; k++) {
        tiny *t = tiny_new(names[k], 1, 1, 32, 32);
        tiny_index_floats(t, "in", 16);
        float *out = tiny_floats(t, "out", 16);
        tiny_int(t, 4);
        tiny_int(t, 4);
        assert_int_equal(tiny_run(t), 0);
        assert_memory_equal(out, want, sizeof want);
        tiny_free(t);
    }
    const char *names8[] = {"transpose_naive_32x8", "transpose_coalesced_32x8", "transpose_padded_32x8"};
    for (int k = 0; k < 3; k++) {
        tiny *t = tiny_new(names8[k], 1, 1, 32, 8);
        tiny_index_floats(t, "in", 16);
        float *out = tiny_floats(t, "out", 16);
        tiny_int(t, 4);
        tiny_int(t, 4);
        assert_int_equal(tiny_run(t), 0);
        assert_memory_equal(out, want, sizeof want);
        tiny_free(t);
    }
}

/* A 3-wide, 2-high matrix [[0,1,2],[3,4,5]] becomes 2-wide, 3-high [[0,3],[1,4],[2,5]]. */
static void test_reference_transposes_a_non_square_matrix(void **state)
{
    (void)state;
    static const float want[6] = {0, 3, 1, 4, 2, 5};
    tiny *t = tiny_new("transpose_padded_32x8", 1, 1, 32, 8);
    tiny_index_floats(t, "in", 6);
    float *out = tiny_floats(t, "out", 6);
    tiny_int(t, 3);
    tiny_int(t, 2);
    assert_int_equal(tiny_run(t), 0);
    assert_memory_equal(out, want, sizeof want);
    tiny_free(t);
}

/* The copy keeps the layout: out == in. */
static void test_reference_tiled_copy_is_the_identity(void **state)
{
    (void)state;
    tiny *t = tiny_new("copy_32x8", 1, 1, 32, 8);
    float *in = tiny_index_floats(t, "in", 12);
    float *out = tiny_floats(t, "out", 12);
    tiny_int(t, 4);
    tiny_int(t, 3);
    assert_int_equal(tiny_run(t), 0);
    assert_memory_equal(out, in, 12 * sizeof(float));
    tiny_free(t);
}

/* Index data 0..15 in blocks of 8: 0+...+7 = 8*7/2 = 28 and 8+...+15 = 120 - 28 = 92. */
static void test_reference_block_sums_of_index_data_are_triangular_numbers(void **state)
{
    (void)state;
    tiny *t = tiny_new("seed_reduce_sum", 2, 1, 8, 1);
    t->L.shared_bytes = 8 * 4;
    int32_t *in = tiny_buf(t, "input", WS_TYPE_INT, 4, 16);
    int32_t *out = tiny_buf(t, "output", WS_TYPE_INT, 4, 2);
    for (int k = 0; k < 16; k++)
        in[k] = k;
    assert_int_equal(tiny_run(t), 0);
    assert_int_equal(out[0], 28);
    assert_int_equal(out[1], 92);
    tiny_free(t);

    const char *one[] = {"reduce_interleaved", "reduce_strided_index", "reduce_sequential"};
    for (int k = 0; k < 3; k++) {
        t = tiny_new(one[k], 2, 1, 8, 1);
        t->L.shared_bytes = 8 * 4;
        tiny_index_floats(t, "in", 16);
        float *o = tiny_floats(t, "out", 2);
        tiny_int(t, 16);
        assert_int_equal(tiny_run(t), 0);
        assert_true(o[0] == 28.0f && o[1] == 92.0f);
        tiny_free(t);
    }

    /* Two elements per thread: one block of 64 threads covers all n = 128: n(n-1)/2 = 8128. */
    const char *two[] = {"reduce_first_add", "reduce_unroll_last_warp", "reduce_shuffle"};
    for (int k = 0; k < 3; k++) {
        t = tiny_new(two[k], 1, 1, 64, 1);
        t->L.shared_bytes = 64 * 4;
        tiny_index_floats(t, "in", 128);
        float *o = tiny_floats(t, "out", 1);
        tiny_int(t, 128);
        assert_int_equal(tiny_run(t), 0);
        assert_true(o[0] == 8128.0f);
        tiny_free(t);
    }
}

/* [1 2; 3 4] x [5 6; 7 8] = [19 22; 43 50]. */
static void test_reference_multiplies_2x2_matrices(void **state)
{
    (void)state;
    static const float want[4] = {19, 22, 43, 50};
    const char *names[] = {"matmul_naive", "matmul_tiled32"};
    for (int k = 0; k < 2; k++) {
        tiny *t = tiny_new(names[k], 1, 1, k ? 32 : 16, k ? 32 : 16);
        float *A = tiny_floats(t, "A", 4), *B = tiny_floats(t, "B", 4);
        float *C = tiny_floats(t, "C", 4);
        for (int i = 0; i < 4; i++) {
            A[i] = (float)(i + 1);
            B[i] = (float)(i + 5);
        }
        tiny_int(t, 2);
        tiny_int(t, 2);
        tiny_int(t, 2);
        assert_int_equal(tiny_run(t), 0);
        assert_memory_equal(C, want, sizeof want);
        tiny_free(t);
    }
}

/* matMulShared has no bounds checks: N = 16 works, N = 2 is refused. With A = I,
 * C = B. */
static void test_reference_tiled16_needs_a_multiple_of_16(void **state)
{
    (void)state;
    tiny *t = tiny_new("matmul_tiled16", 1, 1, 16, 16);
    float *A = tiny_floats(t, "A", 256), *B = tiny_index_floats(t, "B", 256);
    float *C = tiny_floats(t, "C", 256);
    for (int i = 0; i < 16; i++)
        A[i * 16 + i] = 1.0f;
    tiny_int(t, 16);
    assert_int_equal(tiny_run(t), 0);
    assert_memory_equal(C, B, 256 * sizeof(float));
    t->L.args[3].ivalue = 2;
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);
}

/* Stride 2 over n = 4 threads copies elements 0, 2, 4, 6 and leaves the rest. */
static void test_reference_stride_copy_touches_every_sth_element(void **state)
{
    (void)state;
    tiny *t = tiny_new("stride_copy_s2", 1, 1, 256, 1);
    tiny_index_floats(t, "in", 8);
    float *out = tiny_floats(t, "out", 8);
    for (int k = 0; k < 8; k++)
        out[k] = -1.0f;
    tiny_int(t, 4);
    tiny_int(t, 2);
    assert_int_equal(tiny_run(t), 0);
    static const float want[8] = {0, -1, 2, -1, 4, -1, 6, -1};
    assert_memory_equal(out, want, sizeof want);
    tiny_free(t);
}

/* The seed's two claims read s_data[t][t] = word 33t and s_data[t][0] = word 32t. */
static void test_reference_seed_diagonal_and_column_read_words_33t_and_32t(void **state)
{
    (void)state;
    for (int diag = 0; diag < 2; diag++) {
        tiny *t = tiny_new(diag ? "seed_diagonal" : "seed_column_zero", 1, 1, 32, 1);
        tiny_index_floats(t, "in", 1024);
        int32_t *out = tiny_buf(t, "out", WS_TYPE_INT, 4, 32);
        tiny_int(t, 1024);
        assert_int_equal(tiny_run(t), 0);
        for (int k = 0; k < 32; k++)
            assert_int_equal(out[k], (diag ? 33 : 32) * k);
        tiny_free(t);
    }
}

/* Lane l gets the element of lane 31 - l in its warp, whatever the stride. */
static void test_reference_shared_stride_swaps_mirror_lanes(void **state)
{
    (void)state;
    const int strides[] = {1, 2, 32, 33};
    for (int k = 0; k < 4; k++) {
        tiny *t = tiny_new("shared_stride_s33", 1, 1, 64, 1);
        tiny_index_floats(t, "in", 64);
        float *out = tiny_floats(t, "out", 64);
        tiny_int(t, 64);
        tiny_int(t, strides[k]);
        assert_int_equal(tiny_run(t), 0);
        assert_true(out[0] == 31.0f && out[31] == 0.0f && out[32] == 63.0f && out[63] == 32.0f);
        tiny_free(t);
    }
}

/* Broadcast: every lane gets its warp's first element; multicast: its group of 4's. */
static void test_reference_broadcast_and_multicast_copy_the_shared_word(void **state)
{
    (void)state;
    tiny *t = tiny_new("shared_broadcast", 1, 1, 64, 1);
    tiny_index_floats(t, "in", 64);
    float *out = tiny_floats(t, "out", 64);
    tiny_int(t, 64);
    assert_int_equal(tiny_run(t), 0);
    assert_true(out[5] == 0.0f && out[31] == 0.0f && out[40] == 32.0f);
    tiny_free(t);

    t = tiny_new("shared_multicast", 1, 1, 64, 1);
    tiny_index_floats(t, "in", 64);
    out = tiny_floats(t, "out", 64);
    tiny_int(t, 64);
    assert_int_equal(tiny_run(t), 0);
    assert_true(out[7] == 4.0f && out[8] == 8.0f && out[63] == 60.0f);
    tiny_free(t);
}

/* Reversal inside a block of 8 with n = 6: the last two lanes read zeros. */
static void test_reference_reverse_reads_zero_past_n(void **state)
{
    (void)state;
    tiny *t = tiny_new("dynamic_reverse", 1, 1, 8, 1);
    t->L.shared_bytes = 8 * 4;
    tiny_index_floats(t, "in", 6);
    float *out = tiny_floats(t, "out", 6);
    tiny_int(t, 6);
    assert_int_equal(tiny_run(t), 0);
    static const float want[6] = {0, 0, 5, 4, 3, 2};
    assert_memory_equal(out, want, sizeof want);
    t->L.shared_bytes = 4 * 4;   /* extern array smaller than the block: refused */
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);
}

/* One 4x4 tile read by columns is the transpose of that tile. */
static void test_reference_tile_column_read_transposes_inside_the_tile(void **state)
{
    (void)state;
    static const float want[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    tiny *t = tiny_new("tile_column_read_padded", 1, 1, 32, 32);
    tiny_index_floats(t, "in", 16);
    float *out = tiny_floats(t, "out", 16);
    tiny_int(t, 4);
    tiny_int(t, 4);
    assert_int_equal(tiny_run(t), 0);
    assert_memory_equal(out, want, sizeof want);
    tiny_free(t);
}

/* Every LCG step adds k+1 to exactly one of 16 bins, so reading all 16 bins of
 * the same seed gives 1 + 2 + ... + 16 = 136 in total. */
static void test_reference_local_bins_of_one_seed_sum_to_136(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        tiny *t = tiny_new(v ? "register_select" : "local_dynamic_index", 1, 1, 32, 1);
        uint32_t *seed = tiny_buf(t, "seed", WS_TYPE_UINT, 4, 16);
        int32_t *sel = tiny_buf(t, "sel", WS_TYPE_INT, 4, 16);
        uint32_t *out = tiny_buf(t, "out", WS_TYPE_UINT, 4, 16);
        for (int k = 0; k < 16; k++) {
            seed[k] = 12345;
            sel[k] = k + 16 * k;   /* only the low 4 bits select */
        }
        tiny_int(t, 16);
        assert_int_equal(tiny_run(t), 0);
        uint32_t total = 0;
        for (int k = 0; k < 16; k++)
            total += out[k];
        assert_int_equal(total, 136);
        /* Seed 0: the first step gives h = 1013904223 = 0x3C6EF35F, bin 3 gains 1. */
        seed[0] = 0;
        sel[0] = 3;
        assert_int_equal(tiny_run(t), 0);
        assert_true(out[0] >= 1);
        tiny_free(t);
    }
}

static void test_reference_layout_kernels_by_hand(void **state)
{
    (void)state;
    /* Particles 0..3 of index data: x, y, z = 3i, 3i+1, 3i+2, so x+y+z = 9i+3. */
    tiny *t = tiny_new("aos_sum_xyz", 1, 1, 256, 1);
    tiny_index_floats(t, "p", 12);
    float *out = tiny_floats(t, "out", 4);
    tiny_int(t, 4);
    assert_int_equal(tiny_run(t), 0);
    for (int i = 0; i < 4; i++)
        assert_true(out[i] == (float)(9 * i + 3));
    tiny_free(t);

    /* Scaling x only doubles every third float. */
    t = tiny_new("aos_scale_x", 1, 1, 256, 1);
    float *p = tiny_index_floats(t, "p", 6);
    tiny_int(t, 2);
    assert_int_equal(tiny_run(t), 0);
    static const float want[6] = {0, 1, 2, 6, 4, 5};
    assert_memory_equal(p, want, sizeof want);
    tiny_free(t);

    /* Gather through a reversed index; an index outside [0, n) writes nothing. */
    t = tiny_new("gather_random", 1, 1, 256, 1);
    tiny_index_floats(t, "in", 4);
    int32_t *idx = tiny_buf(t, "idx", WS_TYPE_INT, 4, 4);
    out = tiny_floats(t, "out", 4);
    idx[0] = 3; idx[1] = 2; idx[2] = 1; idx[3] = 7;
    out[3] = -1.0f;
    tiny_int(t, 4);
    assert_int_equal(tiny_run(t), 0);
    assert_true(out[0] == 3.0f && out[1] == 2.0f && out[2] == 1.0f && out[3] == -1.0f);
    tiny_free(t);
}

/* 2 * 1.5 + 0.25 = 3.25; threads past n leave y alone. */
static void test_reference_saxpy_by_hand(void **state)
{
    (void)state;
    tiny *t = tiny_new("saxpy_block13", 1, 1, 13, 1);
    tiny_int(t, 1);
    tiny_float(t, 2.0);
    float *x = tiny_floats(t, "x", 2), *y = tiny_floats(t, "y", 2);
    x[0] = 1.5f; y[0] = 0.25f;
    x[1] = 1.0f; y[1] = 7.0f;
    assert_int_equal(tiny_run(t), 0);
    assert_true(y[0] == 3.25f && y[1] == 7.0f);
    tiny_free(t);
}

/* Widths: a char copy moves bytes; a grid of one 2-thread block copies only 2. */
static void test_reference_copy_stops_at_the_last_thread(void **state)
{
    (void)state;
    tiny *t = tiny_new("copy_char", 1, 1, 2, 1);
    char *in = tiny_buf(t, "in", WS_TYPE_CHAR, 1, 4);
    char *out = tiny_buf(t, "out", WS_TYPE_CHAR, 1, 4);
    memcpy(in, "abcd", 4);
    tiny_int(t, 4);
    assert_int_equal(tiny_run(t), 0);
    assert_memory_equal(out, "ab\0\0", 4);
    tiny_free(t);
}

/* Bytes "abcab" + 0xff: a and b twice, c and 0xff once; n = 5 leaves the 0xff out of the
 * one-byte-per-thread kernels (8 threads) and of the grid-stride one (2 threads, n = 5). The bins
 * start at 7 for 'a' so the kernels' += shows. A warp-aggregated block of 8 lanes is refused
 * (__match_any_sync with a full mask needs whole warps). */
static void test_reference_histograms_count_bytes_by_hand(void **state)
{
    (void)state;
    const char *names[] = {"hist_global_uniform", "hist_shared_skewed", "hist_warpagg_uniform"};
    const uint32_t bx[] = {8, 2, 32};
    for (int k = 0; k < 3; k++) {
        tiny *t = tiny_new(names[k], 1, 1, bx[k], 1);
        char *in = tiny_buf(t, "in", WS_TYPE_UCHAR, 1, 6);
        memcpy(in, "abcab\xff", 6);
        tiny_int(t, 5);
        uint32_t *bins = tiny_buf(t, "bins", WS_TYPE_UINT, 4, 256);
        bins['a'] = 7;
        assert_int_equal(tiny_run(t), 0);
        uint32_t want[256] = {0};
        want['a'] = 9;
        want['b'] = 2;
        want['c'] = 1;
        assert_memory_equal(bins, want, sizeof want);
        tiny_free(t);
    }
    tiny *t = tiny_new("hist_warpagg_skewed", 1, 1, 8, 1);
    tiny_buf(t, "in", WS_TYPE_UCHAR, 1, 8);
    tiny_int(t, 8);
    tiny_buf(t, "bins", WS_TYPE_UINT, 4, 256);
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);
}

/* n = 70 threads of 96 (3 blocks of 32): one counter gets 70 (so does i & 0); per warp 32, 32, 6; i % 32 bins
 * get 3 for words 0..5 (i = j, j + 32, j + 64) and 2 for the rest; distinct words 0..69 each
 * gain 1 and 70.. none; the ticket kernel marks 70 lanes. */
static void test_reference_atomic_counts_by_hand(void **state)
{
    (void)state;
    const char *one[] = {"atomic_one_counter", "atomic_shared_counter"};
    for (int k = 0; k < 2; k++) {
        tiny *t = tiny_new(one[k], 3, 1, 32, 1);
        uint32_t *c = tiny_buf(t, "count", WS_TYPE_UINT, 4, 1);
        tiny_int(t, 70);
        assert_int_equal(tiny_run(t), 0);
        assert_int_equal(c[0], 70);
        tiny_free(t);
    }
    /* through i & zero: zero = 0 is the one counter; zero = 1 splits even and odd i (35 each) */
    for (int zero = 0; zero < 2; zero++) {
        tiny *t = tiny_new("atomic_one_counter_lanes", 3, 1, 32, 1);
        uint32_t *c = tiny_buf(t, "count", WS_TYPE_UINT, 4, 2);
        tiny_int(t, zero);
        tiny_int(t, 70);
        assert_int_equal(tiny_run(t), 0);
        assert_true(zero ? c[0] == 35 && c[1] == 35 : c[0] == 70 && c[1] == 0);
        tiny_free(t);
    }
    tiny *t = tiny_new("atomic_per_warp", 3, 1, 32, 1);
    uint32_t *w = tiny_buf(t, "count", WS_TYPE_UINT, 4, 3);
    tiny_int(t, 70);
    assert_int_equal(tiny_run(t), 0);
    assert_true(w[0] == 32 && w[1] == 32 && w[2] == 6);
    tiny_free(t);

    const char *bins32[] = {"atomic_32_bins", "atomic_shared_32_bins"};
    for (int k = 0; k < 2; k++) {
        t = tiny_new(bins32[k], 3, 1, 32, 1);
        w = tiny_buf(t, "bins", WS_TYPE_UINT, 4, 32);
        tiny_int(t, 70);
        assert_int_equal(tiny_run(t), 0);
        for (int j = 0; j < 32; j++)
            assert_int_equal(w[j], j < 6 ? 3 : 2);
        tiny_free(t);
    }
    t = tiny_new("atomic_shared_32_bins", 1, 1, 16, 1);   /* 16 threads cannot flush 32 bins */
    tiny_buf(t, "bins", WS_TYPE_UINT, 4, 32);
    tiny_int(t, 16);
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);

    t = tiny_new("atomic_distinct_ret", 3, 1, 32, 1);
    w = tiny_buf(t, "words", WS_TYPE_UINT, 4, 96);
    uint32_t *old = tiny_buf(t, "old", WS_TYPE_UINT, 4, 96);
    for (int i = 0; i < 96; i++)
        w[i] = (uint32_t)i * 10;
    tiny_int(t, 70);
    assert_int_equal(tiny_run(t), 0);
    for (int i = 0; i < 96; i++) {
        assert_int_equal(w[i], i * 10 + (i < 70));
        assert_int_equal(old[i], i < 70 ? i * 10 : 0);
    }
    tiny_free(t);

    t = tiny_new("atomic_one_counter_ret", 3, 1, 32, 1);
    uint32_t *c = tiny_buf(t, "count", WS_TYPE_UINT, 4, 1);
    uint32_t *ok = tiny_buf(t, "ok", WS_TYPE_UINT, 4, 96);
    tiny_int(t, 70);
    assert_int_equal(tiny_run(t), 0);
    assert_int_equal(c[0], 70);
    for (int i = 0; i < 96; i++)
        assert_int_equal(ok[i], i < 70);
    tiny_free(t);
}

static void test_reference_refuses_unknown_names_and_short_buffers(void **state)
{
    (void)state;
    tiny *t = tiny_new("no_such_kernel", 1, 1, 32, 1);
    assert_int_equal(tiny_run(t), WS_REF_UNKNOWN);
    assert_false(ws_reference_has("no_such_kernel"));
    tiny_free(t);

    t = tiny_new("copy_float", 1, 1, 256, 1);
    tiny_index_floats(t, "in", 4);
    tiny_floats(t, "out", 4);
    tiny_int(t, 8);                  /* n = 8 > 4 elements */
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);

    t = tiny_new("transpose_coalesced", 1, 1, 32, 8);   /* the seed's kernel needs 32x32 */
    tiny_index_floats(t, "in", 16);
    tiny_floats(t, "out", 16);
    tiny_int(t, 4);
    tiny_int(t, 4);
    assert_int_equal(tiny_run(t), WS_REF_UNSUPPORTED);
    tiny_free(t);
}

/* ======================================================================== */
/* The catalog.                                                              */

static ws_catalog *load_catalog(void)
{
    ws_catalog *c = NULL;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (ws_catalog_load(CATALOG_DIR, &c, &err) != 0) {
        char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
        ws_error_format(&err, msg, sizeof msg);
        fail_msg("cannot load the catalog: %s", msg);
    }
    assert_non_null(c);
    assert_true(c->nfiles > 0);
    return c;
}

static void test_every_catalog_description_has_a_reference(void **state)
{
    (void)state;
    ws_catalog *c = load_catalog();
    int missing = 0, total = 0;
    for (int f = 0; f < c->nfiles; f++)
        for (int k = 0; k < c->files[f]->nkernels; k++) {
            const ws_kernel_desc *d = &c->files[f]->kernels[k];
            total++;
            if (!ws_reference_has(d->name)) {
                print_error("%s:%d: description '%s' has no reference in tests/reference.c\n",
                            d->file, d->line, d->name);
                missing++;
            }
        }
    ws_catalog_free(c);
    assert_true(total >= 60);    /* the seed catalog: every family is there */
    assert_int_equal(missing, 0);
}

static void test_every_reference_names_a_catalog_description(void **state)
{
    (void)state;
    ws_catalog *c = load_catalog();
    int n = 0, stale = 0;
    const char *const *names = ws_reference_names(&n);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int f = 0; f < c->nfiles && !found; f++)
            found = ws_desc_find(c->files[f], names[i]) != NULL;
        if (!found) {
            print_error("tests/reference.c: reference '%s' names no catalog description\n", names[i]);
            stale++;
        }
    }
    ws_catalog_free(c);
    assert_int_equal(stale, 0);
}

/* FNV-1a 64, written out here independently of ws_source_hash. */
static uint64_t fnv1a64(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* scripts/gen-ptx.sh output: x.ptx opens with the hash of x.cu's bytes, and
 * x.resources has a "name regs=..." line for every .entry of x.ptx. A stale
 * file means `make ptx` was not run after editing the .cu. */
static void test_every_checked_in_ptx_and_resources_file_is_fresh(void **state)
{
    (void)state;
    ws_catalog *c = load_catalog();
    int stale = 0;
    for (int f = 0; f < c->nfiles; f++) {
        const ws_desc_file *file = c->files[f];
        char path[WS_PATH_MAX + 16], want[64];
        size_t stem = strlen(file->path) - 3;   /* drop ".cu" */
        snprintf(want, sizeof want, "// warpscope-source-hash: %016llx\n",
                 (unsigned long long)fnv1a64(file->source, file->source_len));
        snprintf(path, sizeof path, "%.*s.ptx", (int)stem, file->path);
        char *ptx = ws_read_file(path, 0, NULL, NULL);
        if (!ptx || strncmp(ptx, want, strlen(want)) != 0) {
            print_error("%s: missing or stale (want first line %.42s); run make ptx\n", path, want);
            stale++;
            free(ptx);
            continue;
        }
        snprintf(path, sizeof path, "%.*s.resources", (int)stem, file->path);
        char *res = ws_read_file(path, 0, NULL, NULL);
        if (!res || strncmp(res, "# ptxas ", 8) != 0) {
            print_error("%s: missing or without its '# ptxas' header; run make ptx\n", path);
            stale++;
        } else {
            int entries = 0;
            for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
                char name[PTX_NAME_MAX + 2] = {0}, line[PTX_NAME_MAX + 16];
                sscanf(p + 7, "%129[A-Za-z0-9_$]", name);
                snprintf(line, sizeof line, "\n%s regs=", name);
                entries++;
                if (!strstr(res, line)) {
                    print_error("%s: no line for entry %s\n", path, name);
                    stale++;
                }
            }
            assert_true(entries >= 1);
        }
        free(res);
        free(ptx);
        /* a description's own target (`target sm_90a`): x.sm_90a.ptx and .resources beside them */
        for (int k = 0; k < file->nkernels; k++) {
            const char *t = file->kernels[k].target;
            if (!t[0]) continue;
            snprintf(path, sizeof path, "%.*s.%s.ptx", (int)stem, file->path, t);
            char *tp = ws_read_file(path, 0, NULL, NULL);
            char tgt[40];
            snprintf(tgt, sizeof tgt, "\n.target %s\n", t);
            if (!tp || strncmp(tp, want, strlen(want)) != 0 || !strstr(tp, tgt)) {
                print_error("%s: missing, stale or not for %s; run make ptx\n", path, t);
                stale++;
            }
            free(tp);
            snprintf(path, sizeof path, "%.*s.%s.resources", (int)stem, file->path, t);
            char *tr = ws_read_file(path, 0, NULL, NULL);
            if (!tr || !strstr(tr, t)) {
                print_error("%s: missing; run make ptx\n", path);
                stale++;
            }
            free(tr);
        }
    }
    ws_catalog_free(c);
    assert_int_equal(stale, 0);
}

/* Runs one description in the simulator and compares every output buffer with
 * the reference. Returns the number of mismatching buffers (0 = pass), or 1
 * for a failure to run; prints what went wrong. */
static int check_description(const ws_desc_file *file, const ws_kernel_desc *d, const ptx_module *m,
                             const ws_overrides *ov)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
    ws_launch *L = calloc(1, sizeof *L);
    void *want[WS_MAX_BUFFERS] = {0};
    ws_sim_result res;
    int bad = 0, ran = 0;
    memset(&res, 0, sizeof res);
    assert_non_null(L);

    if (ws_desc_resolve(d, ov, L, &err) != 0) {
        ws_error_format(&err, msg, sizeof msg);
        print_error("%s: resolve failed: %s\n", d->name, msg);
        bad = 1;
        goto out;
    }
    for (int i = 0; i < L->nbuffers; i++) {
        want[i] = malloc(L->buffers[i].bytes ? L->buffers[i].bytes : 1);
        assert_non_null(want[i]);
        ws_buffer_fill(&L->buffers[i], want[i]);
    }
    int r = ws_reference(L, want);
    if (r != 0) {
        print_error("%s: the reference refused the launch (%d)\n", d->name, r);
        bad = 1;
        goto out;
    }

    const ptx_function *fn = ptx_find_function(m, d->entry);
    if (!fn) {
        print_error("%s: entry '%s' not found in the PTX of %s\n", d->name, d->entry, file->path);
        bad = 1;
        goto out;
    }
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = fn;
    cfg.launch = L;
    cfg.source_file = file->path;
    clock_t t0 = clock();
    if (ws_sim_run(&cfg, &res, &err) != 0) {
        ws_error_format(&err, msg, sizeof msg);
        print_error("%s: simulation failed: %s\n", d->name, msg);
        bad = 1;
        goto out;
    }
    ran = 1;
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    int outputs = 0;
    for (int i = 0; i < L->nbuffers; i++) {
        if (!L->buffers[i].output)
            continue;
        outputs++;
        double got = 0, expv = 0;
        int64_t k = ws_buffer_compare(&L->buffers[i], res.buffer_data[i], want[i], &got, &expv);
        if (k >= 0) {
            char gs[64], ws[64];
            ws_buffer_format_scalar(&L->buffers[i], res.buffer_data[i], (uint64_t)k, gs, sizeof gs);
            ws_buffer_format_scalar(&L->buffers[i], want[i], (uint64_t)k, ws, sizeof ws);
            print_error("%s: buffer '%s' scalar %lld: got %s, want %s (tol %g)\n", d->name,
                        L->buffers[i].name, (long long)k, gs, ws, L->buffers[i].tol);
            bad++;
        }
    }
    if (outputs == 0) {
        print_error("%s: no output buffer to compare\n", d->name);
        bad = 1;
    }
    if (!ov && res.thread_insns > DEFAULT_BUDGET) {
        print_error("%s: %llu thread-instructions at the default sizes, over the catalog's budget of %llu\n",
                    d->name, (unsigned long long)res.thread_insns, (unsigned long long)DEFAULT_BUDGET);
        bad++;
    }
    print_message("  %-28s %s  %llu thread-insns, %.2f s\n", d->name, bad ? "MISMATCH" : "ok",
                  (unsigned long long)res.thread_insns, secs);
out:
    if (ran)
        ws_sim_result_free(&res);
    for (int i = 0; i < WS_MAX_BUFFERS; i++)
        free(want[i]);
    free(L);
    return bad;
}

/* Applies fn to every description, one PTX module per file. */
static int for_each_description(const ws_overrides *(*overrides_for)(const ws_kernel_desc *d))
{
    ws_catalog *c = load_catalog();
    int failures = 0, checked = 0;
    for (int f = 0; f < c->nfiles; f++) {
        const ws_desc_file *file = c->files[f];
        ws_error err;
        memset(&err, 0, sizeof err);
        struct ptx_module *m = ws_catalog_ptx(file, ARCH, &err);
        if (!m) {
            char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
            ws_error_format(&err, msg, sizeof msg);
            print_error("%s: no PTX: %s\n", file->path, msg);
            failures += file->nkernels;
            continue;
        }
        for (int k = 0; k < file->nkernels; k++) {
            const ws_kernel_desc *d = &file->kernels[k];
            const ws_overrides *ov = overrides_for(d);
            struct ptx_module *mk = m;
            if (d->target[0] && !(mk = ws_catalog_ptx(file, d->target, &err))) {   /* `target sm_90a`: its own PTX */
                char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
                ws_error_format(&err, msg, sizeof msg);
                print_error("%s: no PTX for %s: %s\n", d->name, d->target, msg);
                failures++;
                continue;
            }
            if (check_description(file, d, mk, ov))
                failures++;
            if (mk != m)
                ptx_free(mk);
            checked++;
        }
        ptx_free(m);
    }
    ws_catalog_free(c);
    print_message("%d descriptions checked, %d failed\n", checked, failures);
    return failures;
}

static const ws_overrides *no_overrides(const ws_kernel_desc *d)
{
    (void)d;
    return NULL;
}

static void test_every_catalog_kernel_simulates_to_its_reference_at_default_sizes(void **state)
{
    (void)state;
    assert_int_equal(for_each_description(no_overrides), 0);
}

/* Odd sizes: sizes that are not multiples of the block or the tile, so the
 * bounds checks in the kernels (and in the references) do the work. Only
 * parameters a description declares are overridden. The two seed kernels
 * without bounds checks get sizes that respect what they need (N a multiple of
 * the block for reduceSum, of 16 for matMulShared) - at an odd multiple; so do
 * the tensor-core GEMMs (whole 32x32 tiles, K in steps of 64) and the cluster kernels (whole
 * clusters of 256-thread blocks). */
static ws_overrides odd_ov;

static void odd_set(const ws_kernel_desc *d, const char *name, const char *value)
{
    for (int i = 0; i < d->nparams; i++)
        if (strcmp(d->params[i].name, name) == 0) {
            char a[160];
            ws_error err;
            snprintf(a, sizeof a, "%s=%s", name, value);
            assert_int_equal(ws_overrides_add(&odd_ov, a, &err), 0);
            return;
        }
}

static const ws_overrides *odd_overrides(const ws_kernel_desc *d)
{
    memset(&odd_ov, 0, sizeof odd_ov);
    if (strcmp(d->name, "seed_reduce_sum") == 0) {
        odd_set(d, "N", "5*256");
    } else if (strcmp(d->name, "matmul_tiled16") == 0) {
        odd_set(d, "N", "48");
    } else if (strcmp(d->name, "wgmma_gemm") == 0) { /* whole 64x64 tiles: odd multiples */
        odd_set(d, "M", "192");
        odd_set(d, "N", "320");
        odd_set(d, "K", "192");
    } else if (strcmp(d->name, "wgmma_gemm_ws") == 0) { /* whole 128x256 tiles: 3 on 2 CTAs, so one */
        odd_set(d, "M", "384");                          /* walks two; 3 k-tiles a tile, so the */
        odd_set(d, "K", "192");                          /* 4-stage ring's phases wrap mid-tile */
        odd_set(d, "SMS", "2");
    } else if (strstr(d->file, "cluster.cu")) {     /* whole blocks of 256 and clusters of G = 4: 3 of them */
        odd_set(d, "N", "3*4*256");
    } else if (strstr(d->file, "tensorcore")) {     /* whole tiles (32x32, k 64): odd multiples */
        odd_set(d, "M", "96");
        odd_set(d, "N", "160");
        odd_set(d, "K", "192");
    } else {
        odd_set(d, "N", strstr(d->file, "matmul") ? "37" : "3001");
        odd_set(d, "M", "45");
        odd_set(d, "K", "70");
        odd_set(d, "W", "97");
        odd_set(d, "H", "45");
        odd_set(d, "BYTES", "4000");
    }
    return &odd_ov;
}

static void test_every_catalog_kernel_simulates_to_its_reference_at_odd_sizes(void **state)
{
    (void)state;
    assert_int_equal(for_each_description(odd_overrides), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_transposes_a_4x4_index_matrix),
        cmocka_unit_test(test_reference_transposes_a_non_square_matrix),
        cmocka_unit_test(test_reference_tiled_copy_is_the_identity),
        cmocka_unit_test(test_reference_block_sums_of_index_data_are_triangular_numbers),
        cmocka_unit_test(test_reference_multiplies_2x2_matrices),
        cmocka_unit_test(test_reference_tiled16_needs_a_multiple_of_16),
        cmocka_unit_test(test_reference_stride_copy_touches_every_sth_element),
        cmocka_unit_test(test_reference_seed_diagonal_and_column_read_words_33t_and_32t),
        cmocka_unit_test(test_reference_shared_stride_swaps_mirror_lanes),
        cmocka_unit_test(test_reference_broadcast_and_multicast_copy_the_shared_word),
        cmocka_unit_test(test_reference_reverse_reads_zero_past_n),
        cmocka_unit_test(test_reference_tile_column_read_transposes_inside_the_tile),
        cmocka_unit_test(test_reference_local_bins_of_one_seed_sum_to_136),
        cmocka_unit_test(test_reference_layout_kernels_by_hand),
        cmocka_unit_test(test_reference_saxpy_by_hand),
        cmocka_unit_test(test_reference_copy_stops_at_the_last_thread),
        cmocka_unit_test(test_reference_histograms_count_bytes_by_hand),
        cmocka_unit_test(test_reference_atomic_counts_by_hand),
        cmocka_unit_test(test_reference_refuses_unknown_names_and_short_buffers),
        cmocka_unit_test(test_every_catalog_description_has_a_reference),
        cmocka_unit_test(test_every_reference_names_a_catalog_description),
        cmocka_unit_test(test_every_checked_in_ptx_and_resources_file_is_fresh),
        cmocka_unit_test(test_every_catalog_kernel_simulates_to_its_reference_at_odd_sizes),
    };
    /* the whole catalog at its default sizes (~700 M thread-instructions under ASan): the sizes a
       user first runs, and the catalog's budget */
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_every_catalog_kernel_simulates_to_its_reference_at_default_sizes),
    };
    return ws_run_tests(tests, slow, NULL, NULL);
}
