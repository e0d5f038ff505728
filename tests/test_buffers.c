/* test_buffers.c - initial buffer contents and output comparison
 * (common/buffers.c). Every expected value is computed here from the formula in
 * buffers.h with an independent sequential SplitMix64 generator. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/buffers.h"

/* The reference SplitMix64 generator (Steele, Lea, Flood), written as a stream;
 * buffers.h's u(k) = ws_splitmix64(seed + k) is one step from state seed + k. */
typedef struct { uint64_t state; } sm64;
static uint64_t sm64_next(sm64 *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t u_at(uint64_t seed, uint64_t k)
{
    sm64 g = {seed + k};
    return sm64_next(&g);
}

static ws_buffer make(ws_type t, uint64_t count, ws_init_kind init)
{
    ws_buffer b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "b");
    b.type = t;
    b.count = count;
    b.bytes = count * ws_type_size(t);
    b.init = init;
    return b;
}

static void *filled(const ws_buffer *b)
{
    void *p = malloc(b->bytes ? b->bytes : 1);
    assert_non_null(p);
    memset(p, 0xa5, b->bytes);      /* poison, so an unwritten scalar shows */
    ws_buffer_fill(b, p);
    return p;
}

static void test_splitmix64_matches_the_published_sequence(void **state)
{
    (void)state;
    /* first three outputs of SplitMix64 seeded with 0 (reference implementation) */
    assert_true(ws_splitmix64(0) == 0xe220a8397b1dcdafULL);
    assert_true(ws_splitmix64(0x9e3779b97f4a7c15ULL) == 0x6e789e6aa1b965f4ULL);
    assert_true(ws_splitmix64(2 * 0x9e3779b97f4a7c15ULL) == 0x06c45d188009454fULL);
}

static void test_zero_fill_clears_every_byte(void **state)
{
    (void)state;
    for (int t = 0; t < WS_TYPE_COUNT; t++) {
        ws_buffer b = make((ws_type)t, 37, WS_INIT_ZERO);
        unsigned char *p = filled(&b);
        for (uint64_t i = 0; i < b.bytes; i++) assert_int_equal(p[i], 0);
        free(p);
    }
}

static void test_index_fill_converts_k_and_wraps_narrow_ints(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_UCHAR, 600, WS_INIT_INDEX);
    uint8_t *u8 = filled(&b);
    for (uint64_t k = 0; k < 600; k++) assert_int_equal(u8[k], k % 256);
    free(u8);

    b = make(WS_TYPE_CHAR, 300, WS_INIT_INDEX);
    int8_t *i8 = filled(&b);
    assert_int_equal(i8[127], 127);
    assert_int_equal(i8[128], -128);        /* 128 wraps modulo 2^8 */
    assert_int_equal(i8[255], -1);
    assert_int_equal(i8[256], 0);
    free(i8);

    b = make(WS_TYPE_SHORT, 70000, WS_INIT_INDEX);
    int16_t *i16 = filled(&b);
    assert_int_equal(i16[32767], 32767);
    assert_int_equal(i16[32768], -32768);
    assert_int_equal(i16[65536 + 5], 5);
    free(i16);

    b = make(WS_TYPE_ULONG, 10, WS_INIT_INDEX);
    uint64_t *u64 = filled(&b);
    for (uint64_t k = 0; k < 10; k++) assert_true(u64[k] == k);
    free(u64);

    /* vector types count scalars: float4 element e, lane l holds 4e + l */
    b = make(WS_TYPE_FLOAT4, 25, WS_INIT_INDEX);
    float *f = filled(&b);
    for (uint64_t k = 0; k < 100; k++) assert_true(f[k] == (float)k);
    free(f);

    b = make(WS_TYPE_DOUBLE2, 25, WS_INIT_INDEX);
    double *d = filled(&b);
    for (uint64_t k = 0; k < 50; k++) assert_true(d[k] == (double)k);
    free(d);

    b = make(WS_TYPE_INT2, 3, WS_INIT_INDEX);
    int32_t *i32 = filled(&b);
    for (int k = 0; k < 6; k++) assert_int_equal(i32[k], k);
    free(i32);

    /* a float cannot hold 2^24 + 1: index gets C's conversion (round to nearest even) */
    b = make(WS_TYPE_FLOAT, (1u << 24) + 2, WS_INIT_INDEX);
    f = filled(&b);
    assert_true(f[1u << 24] == 16777216.0f);
    assert_true(f[(1u << 24) + 1] == (float)((1u << 24) + 1));
    assert_true(f[(1u << 24) + 1] == 16777216.0f);
    free(f);
}

static void test_const_fill_converts_the_value(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_INT, 9, WS_INIT_CONST);
    b.const_value = -3;
    int32_t *i = filled(&b);
    for (int k = 0; k < 9; k++) assert_int_equal(i[k], -3);
    free(i);

    b = make(WS_TYPE_FLOAT2, 5, WS_INIT_CONST);
    b.const_value = 0.1;
    float *f = filled(&b);
    for (int k = 0; k < 10; k++) assert_true(f[k] == (float)0.1);
    free(f);

    b = make(WS_TYPE_UCHAR, 4, WS_INIT_CONST);
    b.const_value = 255;
    uint8_t *u = filled(&b);
    for (int k = 0; k < 4; k++) assert_int_equal(u[k], 255);
    free(u);

    b = make(WS_TYPE_INT, 2, WS_INIT_CONST);
    b.const_value = 2.9;                    /* C conversion truncates toward zero */
    i = filled(&b);
    assert_int_equal(i[0], 2);
    assert_int_equal(i[1], 2);
    free(i);
}

static void test_random_floats_follow_the_documented_formula(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT, 1000, WS_INIT_RANDOM);
    b.seed = 42;
    b.lo = -5;
    b.hi = 5;
    float *f = filled(&b);
    for (int k = 0; k < 1000; k++) {
        uint64_t u = u_at(42, (uint64_t)k);
        float want = (float)(-5.0 + 10.0 * (double)(u >> 11) * 0x1p-53);
        assert_true(f[k] == want);
        assert_true(f[k] >= -5.0f && f[k] <= 5.0f);
    }
    free(f);

    /* doubles in the default [0, 1) range */
    b = make(WS_TYPE_DOUBLE, 500, WS_INIT_RANDOM);
    b.seed = 7;
    b.lo = 0;
    b.hi = 1;
    double *d = filled(&b);
    double sum = 0;
    for (int k = 0; k < 500; k++) {
        uint64_t u = u_at(7, (uint64_t)k);
        assert_true(d[k] == (double)(u >> 11) * 0x1p-53);
        assert_true(d[k] >= 0 && d[k] < 1);
        sum += d[k];
    }
    assert_true(fabs(sum / 500 - 0.5) < 0.05);  /* 500 uniform draws: mean within 0.05 (about 4 sigma) */
    free(d);
}

/* The lazy fill (ws_buffer_fill_range, the simulator's chunks on first touch) gives the whole fill's bytes:
 * every type and local init, ranges filled out of order at offsets that split scalars, each range's
 * neighbours left alone; and a non-local init (perm) is refused, the bytes untouched. */
static void test_range_fill_equals_the_whole_fill(void **state)
{
    (void)state;
    const ws_init_kind inits[] = {WS_INIT_ZERO, WS_INIT_INDEX, WS_INIT_CONST, WS_INIT_RANDOM, WS_INIT_RANDINT};
    for (int t = 0; t < WS_TYPE_COUNT; t++)
        for (size_t i = 0; i < sizeof inits / sizeof inits[0]; i++) {
            ws_buffer b = make((ws_type)t, 3001, inits[i]);
            b.seed = 99;
            b.lo = ws_type_is_float(b.type) ? -3 : 0;
            b.hi = i == 4 || !ws_type_is_float(b.type) ? (i == 3 ? 256 : 100) : 7;
            b.const_value = 5;
            assert_true(ws_buffer_fill_is_local(&b));
            unsigned char *whole = filled(&b), *lazy = malloc(b.bytes);
            assert_non_null(lazy);
            memset(lazy, 0xa5, b.bytes);
            /* 7 ranges of an odd length, in the order 3, 6, 2, 5, 1, 4, 0 (3k mod 7): every byte once */
            uint64_t len = (b.bytes + 6) / 7 | 1;
            for (int r = 0; r < 7; r++) {
                uint64_t k = (uint64_t)(3 * r + 3) % 7, off = k * len;
                unsigned char before = off ? lazy[off - 1] : 0;
                ws_buffer_fill_range(&b, lazy, off, len);
                size_t sz = ws_type_size(ws_type_scalar(b.type));
                if (off % sz == 0 && off) assert_int_equal(lazy[off - 1], before); /* whole scalars only */
            }
            assert_memory_equal(lazy, whole, b.bytes);
            free(whole);
            free(lazy);
        }
    /* a range far in: random float k = 2^20 + 3 from the formula, not from the whole fill */
    ws_buffer b = make(WS_TYPE_FLOAT, (1u << 20) + 8, WS_INIT_RANDOM);
    b.seed = 5;
    b.lo = 0;
    b.hi = 1;
    float *f = calloc(b.count, 4);
    assert_non_null(f);
    ws_buffer_fill_range(&b, f, 4 * ((1u << 20) + 3), 4);
    assert_true(f[(1u << 20) + 3] == (float)((double)(u_at(5, (1u << 20) + 3) >> 11) * 0x1p-53));
    assert_true(f[(1u << 20) + 2] == 0 && f[(1u << 20) + 4] == 0);
    free(f);
    ws_buffer p = make(WS_TYPE_INT, 16, WS_INIT_PERM);
    assert_false(ws_buffer_fill_is_local(&p));
    int x[16] = {0};
    ws_buffer_fill_range(&p, x, 0, sizeof x);
    for (int k = 0; k < 16; k++) assert_int_equal(x[k], 0);
}

static void test_random_ints_follow_the_documented_formula(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_INT4, 250, WS_INIT_RANDOM);
    b.seed = 9;
    b.lo = -10;
    b.hi = 1000;
    int32_t *v = filled(&b);
    int seen_lo = 0;
    for (int k = 0; k < 1000; k++) {
        uint64_t u = u_at(9, (uint64_t)k);
        int64_t want = -10 + (int64_t)(u % 1010);
        assert_int_equal(v[k], want);
        assert_true(v[k] >= -10 && v[k] < 1000);
        seen_lo |= v[k] < 0;
    }
    assert_true(seen_lo);
    free(v);

    /* narrow type: values then converted (wrap) - range 0..300 into uchar */
    b = make(WS_TYPE_UCHAR, 400, WS_INIT_RANDOM);
    b.seed = 3;
    b.lo = 0;
    b.hi = 300;
    uint8_t *u8 = filled(&b);
    for (int k = 0; k < 400; k++) assert_int_equal(u8[k], (uint8_t)(u_at(3, (uint64_t)k) % 300));
    free(u8);

    /* the seed may sit near 2^64: seed + k wraps modulo 2^64 */
    b = make(WS_TYPE_LONG, 4, WS_INIT_RANDOM);
    b.seed = UINT64_MAX - 1;
    b.lo = 0;
    b.hi = 100;
    int64_t *l = filled(&b);
    for (int k = 0; k < 4; k++) assert_int_equal(l[k], (int64_t)(u_at(UINT64_MAX - 1, (uint64_t)k) % 100));
    assert_int_equal(l[2], (int64_t)(u_at(0, 0) % 100));   /* (2^64 - 1) + 2 wraps to 0 */
    free(l);
}

static void test_vector_buffer_equals_its_scalar_twin(void **state)
{
    (void)state;
    static const ws_type vec[] = {WS_TYPE_FLOAT2, WS_TYPE_FLOAT4, WS_TYPE_INT2, WS_TYPE_INT4, WS_TYPE_DOUBLE2,
                                  WS_TYPE_HALF2, WS_TYPE_BF16X2, WS_TYPE_CHAR4, WS_TYPE_USHORT2, WS_TYPE_UINT4,
                                  WS_TYPE_LONG2};
    static const ws_init_kind kinds[] = {WS_INIT_ZERO, WS_INIT_INDEX, WS_INIT_RANDOM, WS_INIT_CONST, WS_INIT_RANDINT,
                                         WS_INIT_PERM, WS_INIT_LCG};
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
            ws_init_kind init = kinds[ki];
            ws_buffer a = make(vec[i], 33, (ws_init_kind)init);
            ws_buffer s = make(ws_type_scalar(vec[i]), 33 * (uint64_t)ws_type_lanes(vec[i]), (ws_init_kind)init);
            a.seed = s.seed = 1234;
            a.lo = s.lo = -2;
            a.hi = s.hi = 2;
            a.const_value = s.const_value = 1.25;
            a.lcg_a = s.lcg_a = 5;
            a.lcg_c = s.lcg_c = 3;
            a.lcg_m = s.lcg_m = 64;
            if (init == WS_INIT_LCG) a.lo = s.lo = a.hi = s.hi = 0;
            assert_int_equal(a.bytes, s.bytes);
            void *pa = filled(&a), *ps = filled(&s);
            assert_memory_equal(pa, ps, a.bytes);
            free(pa);
            free(ps);
        }
    }
}

static void test_compare_is_bit_exact_without_tolerance(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT, 8, WS_INIT_INDEX);
    float *want = filled(&b), *got = filled(&b);
    assert_int_equal(ws_buffer_compare(&b, got, want, NULL, NULL), -1);
    want[0] = 0.0f;
    got[0] = -0.0f;                         /* equal as numbers, different bits */
    double g = 0, w = 0;
    assert_int_equal(ws_buffer_compare(&b, got, want, &g, &w), 0);
    b.tol = 1e-6;
    assert_int_equal(ws_buffer_compare(&b, got, want, &g, &w), -1);
    b.tol = 0;
    got[0] = 0.0f;
    got[5] = nextafterf(5.0f, 6.0f);        /* one ulp off */
    assert_int_equal(ws_buffer_compare(&b, got, want, &g, &w), 5);
    assert_true(g == (double)nextafterf(5.0f, 6.0f));
    assert_true(w == 5.0);
    free(want);
    free(got);
}

static void test_compare_tolerance_is_relative_above_one_absolute_below(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_DOUBLE, 2, WS_INIT_ZERO);
    b.output = true;
    b.tol = 1e-4;
    double want[2] = {1000.0, 0.5}, got[2];
    /* |got-want| <= tol * max(1, |want|): 0.1 allowed at 1000, 1e-4 at 0.5 */
    got[0] = 1000.09; got[1] = 0.5 + 0.99e-4;
    assert_int_equal(ws_buffer_compare(&b, got, want, NULL, NULL), -1);
    got[0] = 1000.11;
    assert_int_equal(ws_buffer_compare(&b, got, want, NULL, NULL), 0);
    got[0] = 999.91;
    assert_int_equal(ws_buffer_compare(&b, got, want, NULL, NULL), -1);
    got[1] = 0.5 - 1.01e-4;
    double g, w;
    assert_int_equal(ws_buffer_compare(&b, got, want, &g, &w), 1);
    assert_true(g == got[1] && w == 0.5);

    /* integers compare through the same rule */
    ws_buffer bi = make(WS_TYPE_INT, 1, WS_INIT_ZERO);
    bi.tol = 0.01;
    int32_t iw = 100, ig = 101;
    assert_int_equal(ws_buffer_compare(&bi, &ig, &iw, NULL, NULL), -1);
    ig = 102;
    assert_int_equal(ws_buffer_compare(&bi, &ig, &iw, NULL, NULL), 0);
}

static void test_nan_equals_nan_only_bit_exactly(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT, 1, WS_INIT_ZERO);
    b.tol = 0.5;
    uint32_t qnan = 0x7fc00000u, other_nan = 0x7fc00001u;
    float want, got;
    memcpy(&want, &qnan, 4);
    memcpy(&got, &qnan, 4);
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), -1);
    memcpy(&got, &other_nan, 4);
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), 0);
    got = 1.0f;
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), 0);
    want = 1.0f;
    memcpy(&got, &qnan, 4);
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), 0);
    /* infinities: same sign equal, opposite not */
    want = got = INFINITY;
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), -1);
    got = -INFINITY;
    assert_int_equal(ws_buffer_compare(&b, &got, &want, NULL, NULL), 0);
}

static void test_compare_reports_scalar_index_inside_vectors(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT4, 6, WS_INIT_INDEX);
    float *want = filled(&b), *got = filled(&b);
    got[3 * 4 + 2] = -1.0f;                  /* element 3, lane z */
    double g, w;
    assert_int_equal(ws_buffer_compare(&b, got, want, &g, &w), 14);
    assert_true(g == -1.0 && w == 14.0);
    free(want);
    free(got);
}

static void test_format_prints_the_shortest_exact_text(void **state)
{
    (void)state;
    char out[64];
    ws_buffer bf = make(WS_TYPE_FLOAT, 4, WS_INIT_ZERO);
    float f[4] = {3.5f, 0.1f, -7.0f, 1.0f / 3.0f};
    ws_buffer_format_scalar(&bf, f, 0, out, sizeof out);
    assert_string_equal(out, "3.5");
    ws_buffer_format_scalar(&bf, f, 1, out, sizeof out);
    assert_string_equal(out, "0.1");
    ws_buffer_format_scalar(&bf, f, 2, out, sizeof out);
    assert_string_equal(out, "-7");
    ws_buffer_format_scalar(&bf, f, 3, out, sizeof out);
    assert_true(strtof(out, NULL) == f[3]);  /* reads back exactly */
    ws_buffer_format_scalar(&bf, f, 4, out, sizeof out);
    assert_string_equal(out, "(out of range)");

    ws_buffer bd = make(WS_TYPE_DOUBLE2, 1, WS_INIT_ZERO);
    double d[2] = {0.1, NAN};
    ws_buffer_format_scalar(&bd, d, 0, out, sizeof out);
    assert_string_equal(out, "0.1");
    ws_buffer_format_scalar(&bd, d, 1, out, sizeof out);
    assert_string_equal(out, "nan");
    d[0] = -INFINITY;
    ws_buffer_format_scalar(&bd, d, 0, out, sizeof out);
    assert_string_equal(out, "-inf");

    ws_buffer bu = make(WS_TYPE_ULONG, 1, WS_INIT_ZERO);
    uint64_t u = UINT64_MAX;
    ws_buffer_format_scalar(&bu, &u, 0, out, sizeof out);
    assert_string_equal(out, "18446744073709551615");
    ws_buffer bl = make(WS_TYPE_LONG, 1, WS_INIT_ZERO);
    int64_t l = INT64_MIN;
    ws_buffer_format_scalar(&bl, &l, 0, out, sizeof out);
    assert_string_equal(out, "-9223372036854775808");
    ws_buffer bc = make(WS_TYPE_CHAR, 1, WS_INIT_ZERO);
    int8_t c = -128;
    ws_buffer_format_scalar(&bc, &c, 0, out, sizeof out);
    assert_string_equal(out, "-128");
    /* a small destination is truncated, never overrun */
    char tiny[4];
    ws_buffer_format_scalar(&bu, &u, 0, tiny, sizeof tiny);
    assert_string_equal(tiny, "184");
}


/* ---- half and bfloat16 --------------------------------------------------------------- */

static void test_half_conversion_rounds_to_nearest_even_like_the_hardware_format(void **state)
{
    (void)state;
    /* binary16: 1 sign, 5 exponent (bias 15), 10 significand bits */
    assert_int_equal(ws_half_from_double(1.0), 0x3c00);
    assert_int_equal(ws_half_from_double(-2.0), 0xc000);
    assert_int_equal(ws_half_from_double(65504.0), 0x7bff);          /* (2 - 2^-10) * 2^15, the largest */
    assert_int_equal(ws_half_from_double(65519.99), 0x7bff);         /* below the halfway point to 2^16 */
    assert_int_equal(ws_half_from_double(65520.0), 0x7c00);          /* halfway: ties to even = infinity */
    assert_int_equal(ws_half_from_double(0x1p-24), 0x0001);          /* the smallest subnormal */
    assert_int_equal(ws_half_from_double(0x1p-25), 0x0000);          /* half of it: tie, even is 0 */
    assert_int_equal(ws_half_from_double(3 * 0x1p-25), 0x0002);      /* 1.5 units: tie, even is 2 */
    assert_int_equal(ws_half_from_double(0x1p-14), 0x0400);          /* the smallest normal */
    assert_int_equal(ws_half_from_double(2049.0), 0x6800);           /* 2049 is a tie between 2048 and 2050 */
    assert_int_equal(ws_half_from_double(2051.0), 0x6802);           /* ... and 2051 between 2050 and 2052 */
    assert_int_equal(ws_half_from_double(-0.0), 0x8000);
    assert_int_equal(ws_half_from_double(INFINITY), 0x7c00);
    assert_true((ws_half_from_double(NAN) & 0x7c00) == 0x7c00 && (ws_half_from_double(NAN) & 0x3ff));
    /* every half reads back as itself */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;      /* NaNs: any payload */
        assert_int_equal(ws_half_from_double(ws_half_to_double((uint16_t)h)), h);
    }
#ifdef __FLT16_MAX__
    /* and rounding agrees with the compiler's own _Float16 conversion on random doubles */
    for (uint64_t k = 0; k < 200000; k++) {
        uint64_t u = ws_splitmix64(k);
        double d = ldexp((double)(u >> 11) * 0x1p-53, (int)(u % 50) - 30) * ((u >> 7) & 1 ? -1 : 1);
        _Float16 f = (_Float16)d;
        uint16_t bits;
        memcpy(&bits, &f, 2);
        if (ws_half_from_double(d) != bits) fail_msg("%a: got 0x%04x, the compiler 0x%04x", d, ws_half_from_double(d), bits);
    }
#endif
}

/* bfloat16 is the top half of a float; from a float, round to nearest even is the classic bit trick */
static uint16_t bf16_of_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static void test_bf16_conversion_rounds_to_nearest_even(void **state)
{
    (void)state;
    assert_int_equal(ws_bf16_from_double(1.0), 0x3f80);
    assert_int_equal(ws_bf16_from_double(3.14159265358979), 0x4049);   /* pi = 0x40490fdb as a float */
    assert_int_equal(ws_bf16_from_double(0.5), 0x3f00);
    assert_int_equal(ws_bf16_from_double(-0.0), 0x8000);
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) continue;
        assert_int_equal(ws_bf16_from_double(ws_bf16_to_double((uint16_t)h)), h);
    }
    for (uint64_t k = 0; k < 200000; k++) {
        uint32_t u = (uint32_t)ws_splitmix64(k);
        float f;
        memcpy(&f, &u, 4);
        if (isnan(f) || isinf(f)) continue;
        if (ws_bf16_from_double(f) != bf16_of_float(f))
            fail_msg("%a: got 0x%04x, want 0x%04x", (double)f, ws_bf16_from_double(f), bf16_of_float(f));
    }
}

static void test_half_and_bf16_buffers_hold_the_rounded_values(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_HALF, 2100, WS_INIT_INDEX);
    uint16_t *h = filled(&b);
    for (uint64_t k = 0; k <= 2048; k++) assert_true(ws_half_to_double(h[k]) == (double)k);   /* exact to 2^11 */
    assert_true(ws_half_to_double(h[2049]) == 2048.0);     /* spacing 2 above 2048: the tie goes to even */
    assert_true(ws_half_to_double(h[2051]) == 2052.0);
    free(h);
    b = make(WS_TYPE_BF16X2, 4, WS_INIT_CONST);
    b.const_value = 0.1;
    h = filled(&b);
    for (int k = 0; k < 8; k++) assert_int_equal(h[k], bf16_of_float(0.1f)); /* 0.1 is not a tie: same from float */
    free(h);
    /* the format shows the shortest text that reads back as the same half */
    char out[32];
    ws_buffer f = make(WS_TYPE_HALF, 3, WS_INIT_ZERO);
    uint16_t vals[3] = {ws_half_from_double(0.1), 0x3c00, 0x7bff};
    ws_buffer_format_scalar(&f, vals, 0, out, sizeof out);
    assert_string_equal(out, "0.1");
    ws_buffer_format_scalar(&f, vals, 1, out, sizeof out);
    assert_string_equal(out, "1");
    ws_buffer_format_scalar(&f, vals, 2, out, sizeof out);
    assert_string_equal(out, "6.55e+04");   /* 65500 is nearer 65504 than 65472: three digits suffice */
    assert_int_equal(ws_half_from_double(strtod(out, NULL)), 0x7bff);
    /* and compares as numbers within a tolerance */
    uint16_t got[3] = {vals[0], (uint16_t)(vals[1] + 1), vals[2]};
    f.tol = 0;
    assert_int_equal(ws_buffer_compare(&f, got, vals, NULL, NULL), 1);
    f.tol = 5e-4;                                    /* one ulp at 1.0 is 2^-10 = 9.77e-4 */
    assert_int_equal(ws_buffer_compare(&f, got, vals, NULL, NULL), 1);
    f.tol = 1e-3;
    assert_int_equal(ws_buffer_compare(&f, got, vals, NULL, NULL), -1);
}

static void test_ulp_distance_counts_representable_values_between(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT, 6, WS_INIT_ZERO);
    float a[6] = {1.0f, 1.0f, 0.0f, 0x1p-149f, 3.0f, NAN};
    float c[6] = {0, 0, -0.0f, -0x1p-149f, 3.0f, NAN};
    c[0] = nextafterf(1.0f, 2.0f);          /* the next float up: 1 ulp */
    c[1] = nextafterf(nextafterf(1.0f, 0.0f), 0.0f);   /* two below, across the binade edge at 1 */
    assert_int_equal(ws_buffer_ulp_distance(&b, a, c, 0), 1);
    assert_int_equal(ws_buffer_ulp_distance(&b, a, c, 1), 2);
    assert_int_equal(ws_buffer_ulp_distance(&b, a, c, 2), 0);   /* +0 and -0 */
    assert_int_equal(ws_buffer_ulp_distance(&b, a, c, 3), 2);   /* the two smallest subnormals, through 0 */
    assert_int_equal(ws_buffer_ulp_distance(&b, a, c, 4), 0);
    assert_true(ws_buffer_ulp_distance(&b, a, c, 5) == 0);      /* the same NaN bits */
    c[5] = -NAN;
    assert_true(ws_buffer_ulp_distance(&b, a, c, 5) == UINT64_MAX);
    c[5] = NAN;
    assert_int_equal(ws_buffer_max_ulp(&b, c, a), 2);
    /* ulp=1 passes the first scalar and fails at the second, which is 2 away; ulp=2 passes all */
    b.ulp = 1;
    assert_int_equal(ws_buffer_compare(&b, c, a, NULL, NULL), 1);
    b.ulp = 2;
    assert_int_equal(ws_buffer_compare(&b, c, a, NULL, NULL), -1);
    /* half: 0x3c00 (1.0) and 0x3c02 are two values apart; doubles likewise */
    ws_buffer h = make(WS_TYPE_HALF, 1, WS_INIT_ZERO);
    uint16_t x = 0x3c00, y = 0x3c02;
    assert_int_equal(ws_buffer_ulp_distance(&h, &x, &y, 0), 2);
    ws_buffer d = make(WS_TYPE_DOUBLE, 1, WS_INIT_ZERO);
    double p = 1.0, q = nextafter(nextafter(nextafter(1.0, 2.0), 2.0), 2.0);
    assert_int_equal(ws_buffer_ulp_distance(&d, &p, &q, 0), 3);
    /* integers have no ulp */
    ws_buffer i = make(WS_TYPE_INT, 1, WS_INIT_ZERO);
    int32_t u = 1, v = 2;
    assert_true(ws_buffer_ulp_distance(&i, &u, &v, 0) == UINT64_MAX);
}

/* ---- generators ------------------------------------------------------------------------ */

static void test_perm_holds_every_index_once_in_the_documented_order(void **state)
{
    (void)state;
    uint64_t n = 1000;
    ws_buffer b = make(WS_TYPE_INT, n, WS_INIT_PERM);
    b.seed = 11;
    int32_t *p = filled(&b);
    char *seen = calloc(n, 1);
    assert_non_null(seen);
    for (uint64_t k = 0; k < n; k++) {
        assert_true(p[k] >= 0 && (uint64_t)p[k] < n);
        assert_int_equal(seen[p[k]], 0);
        seen[p[k]] = 1;
    }
    free(seen);
    /* the Fisher-Yates loop of buffers.h, written out */
    uint32_t *want = malloc(n * sizeof *want);
    assert_non_null(want);
    for (uint64_t k = 0; k < n; k++) want[k] = (uint32_t)k;
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = u_at(11, i) % (i + 1);
        uint32_t t = want[i];
        want[i] = want[j];
        want[j] = t;
    }
    assert_memory_equal(p, want, n * 4);
    size_t moved = 0;
    for (uint64_t k = 0; k < n; k++) moved += p[k] != (int32_t)k;
    assert_true(moved > n / 2);                     /* a shuffle, not the identity */
    free(want);
    free(p);
    /* another seed, another order; one element is just 0 */
    b.seed = 12;
    p = filled(&b);
    int32_t *q = p;
    b.seed = 11;
    int32_t *r = filled(&b);
    assert_true(memcmp(q, r, n * 4) != 0);
    free(q);
    free(r);
    b = make(WS_TYPE_UCHAR, 1, WS_INIT_PERM);
    uint8_t *one = filled(&b);
    assert_int_equal(one[0], 0);
    free(one);
}

static void test_randint_gives_integers_in_range_for_any_type(void **state)
{
    (void)state;
    ws_buffer b = make(WS_TYPE_FLOAT, 500, WS_INIT_RANDINT);
    b.seed = 5;
    b.lo = -3;
    b.hi = 4;
    float *f = filled(&b);
    for (int k = 0; k < 500; k++) {
        assert_true(f[k] == (float)(-3 + (int64_t)(u_at(5, (uint64_t)k) % 7)));
        assert_true(f[k] == floorf(f[k]) && f[k] >= -3 && f[k] < 4);
    }
    free(f);
    b = make(WS_TYPE_SHORT, 300, WS_INIT_RANDINT);
    b.seed = 5;
    b.lo = 100;
    b.hi = 200;
    int16_t *s = filled(&b);
    for (int k = 0; k < 300; k++) assert_int_equal(s[k], 100 + (int64_t)(u_at(5, (uint64_t)k) % 100));
    free(s);
}

static void test_lcg_matches_the_host_loop_it_documents(void **state)
{
    (void)state;
    /* the C standard library's example rand() state update, m = 2^31, mapped into [0, 64) */
    ws_buffer b = make(WS_TYPE_INT, 256, WS_INIT_LCG);
    b.seed = 7;
    b.lcg_a = 1103515245;
    b.lcg_c = 12345;
    b.lcg_m = 1u << 31;
    b.lo = 0;
    b.hi = 64;
    int32_t *v = filled(&b);
    uint32_t x = 7;
    for (int k = 0; k < 256; k++) {
        x = (1103515245u * x + 12345u) & 0x7fffffffu;    /* mod 2^32, then mod 2^31 */
        assert_int_equal(v[k], (int32_t)(x % 64));
    }
    free(v);
    /* the default: Numerical Recipes' a = 1664525, c = 1013904223, m = 2^32; floats get x / m */
    b = make(WS_TYPE_UINT, 100, WS_INIT_LCG);
    b.seed = 1;
    b.lcg_a = 1664525;
    b.lcg_c = 1013904223;
    b.lcg_m = 1ull << 32;
    uint32_t *u = filled(&b);
    x = 1;
    for (int k = 0; k < 100; k++) {
        x = 1664525u * x + 1013904223u;
        assert_int_equal(u[k], x);
    }
    free(u);
    b.type = WS_TYPE_DOUBLE;
    b.bytes = 100 * 8;
    double *d = filled(&b);
    x = 1;
    for (int k = 0; k < 100; k++) {
        x = 1664525u * x + 1013904223u;
        assert_true(d[k] == (double)x / 4294967296.0);
    }
    free(d);
    /* a modulus near 2^63 needs the 128-bit product: (a*x + c) mod m computed exactly */
    b = make(WS_TYPE_ULONG, 3, WS_INIT_LCG);
    b.seed = 3;
    b.lcg_a = 6364136223846793005ull % ((1ull << 63) - 25);
    b.lcg_c = 1442695040888963407ull % ((1ull << 63) - 25);
    b.lcg_m = (1ull << 63) - 25;
    uint64_t *l = filled(&b);
    unsigned __int128 y = 3;
    for (int k = 0; k < 3; k++) {
        y = (b.lcg_a * y + b.lcg_c) % b.lcg_m;
        assert_true(l[k] == (uint64_t)y);
    }
    free(l);
}

/* ---- files ------------------------------------------------------------------------------ */

static char tmpdir[64];

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* A .npy as NumPy's format.rst specifies it: magic, version, header length (2 bytes in 1.0,
 * 4 in 2.0/3.0), the dict padded with spaces and ended by '\n' to a multiple of 64, data. */
static void write_npy(const char *path, int major, const char *descr, const char *shape, bool fortran, const void *data,
                      size_t n)
{
    char dict[256];
    int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                      fortran ? "True" : "False", shape);
    size_t pre = major == 1 ? 10 : 12, hlen = (size_t)dl + 1;
    while ((pre + hlen) % 64) hlen++;
    unsigned char *buf = malloc(pre + hlen + n);
    assert_non_null(buf);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 0; i < pre - 8; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
    memset(buf + pre, ' ', hlen);
    memcpy(buf + pre, dict, (size_t)dl);
    buf[pre + hlen - 1] = '\n';
    memcpy(buf + pre + hlen, data, n);
    write_bytes(path, buf, pre + hlen + n);
    free(buf);
}

static ws_buffer file_buffer(ws_type t, uint64_t count, const char *name)
{
    ws_buffer b = make(t, count, WS_INIT_FILE);
    snprintf(b.file, sizeof b.file, "%s/%s", tmpdir, name);
    return b;
}

static void check_fails(ws_buffer *b, const char *want)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    if (!ws_buffer_check_file(b, &err)) fail_msg("%s accepted, expected '%s'", b->file, want);
    if (!strstr(err.msg, want)) fail_msg("%s: got '%s', expected '%s'", b->file, err.msg, want);
    assert_non_null(strstr(err.msg, b->file));     /* every message names the file */
}

static void test_raw_and_npy_files_fill_buffers_with_their_bytes(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ws-test-buffers-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    float vals[16];
    for (int k = 0; k < 16; k++) vals[k] = 100.0f + (float)k;
    char path[128];
    snprintf(path, sizeof path, "%s/raw.bin", tmpdir);
    write_bytes(path, vals, sizeof vals);
    ws_error err;
    ws_buffer b = file_buffer(WS_TYPE_FLOAT, 16, "raw.bin");
    assert_int_equal(ws_buffer_check_file(&b, &err), 0);
    assert_int_equal(b.file_offset, 0);
    float *f = filled(&b);
    assert_memory_equal(f, vals, sizeof vals);
    free(f);
    /* versions 1.0, 2.0 and 3.0; a float4 buffer of 4 reads 16 floats of any shape */
    for (int major = 1; major <= 3; major++) {
        char name[32];
        snprintf(name, sizeof name, "v%d.npy", major);
        snprintf(path, sizeof path, "%s/%s", tmpdir, name);
        write_npy(path, major, "<f4", "(4, 4)", false, vals, sizeof vals);
        b = file_buffer(WS_TYPE_FLOAT4, 4, name);
        if (ws_buffer_check_file(&b, &err)) fail_msg("%s", err.msg);
        assert_int_equal(b.file_offset % 64, 0);            /* the data starts on the padded boundary */
        f = filled(&b);
        assert_memory_equal(f, vals, sizeof vals);
        free(f);
    }
    /* half data is '<f2' */
    uint16_t hv[8];
    for (int k = 0; k < 8; k++) hv[k] = ws_half_from_double(k * 0.25);
    snprintf(path, sizeof path, "%s/h.npy", tmpdir);
    write_npy(path, 1, "<f2", "(8,)", false, hv, sizeof hv);
    b = file_buffer(WS_TYPE_HALF, 8, "h.npy");
    assert_int_equal(ws_buffer_check_file(&b, &err), 0);
    uint16_t *h = filled(&b);
    assert_memory_equal(h, hv, sizeof hv);
    free(h);
    /* single-byte types carry no byte order: '|i1' */
    int8_t cv[4] = {-1, 2, -3, 4};
    snprintf(path, sizeof path, "%s/c.npy", tmpdir);
    write_npy(path, 1, "|i1", "(4,)", false, cv, sizeof cv);
    b = file_buffer(WS_TYPE_CHAR, 4, "c.npy");
    assert_int_equal(ws_buffer_check_file(&b, &err), 0);
}

static void test_a_file_that_does_not_fit_its_buffer_says_how(void **state)
{
    (void)state;
    char path[128];
    double d[12] = {0};
    ws_buffer b = file_buffer(WS_TYPE_FLOAT, 12, "missing.bin");
    check_fails(&b, "cannot open");
    snprintf(path, sizeof path, "%s/short.bin", tmpdir);
    write_bytes(path, d, 40);
    b = file_buffer(WS_TYPE_FLOAT, 12, "short.bin");
    check_fails(&b, "has 40 bytes but buffer 'b' is 48 bytes");
    snprintf(path, sizeof path, "%s/f8.npy", tmpdir);
    write_npy(path, 1, "<f8", "(12,)", false, d, sizeof d);
    b = file_buffer(WS_TYPE_FLOAT, 12, "f8.npy");
    check_fails(&b, "holds '<f8' values but buffer 'b' is float (a .npy of dtype '<f4')");
    snprintf(path, sizeof path, "%s/be.npy", tmpdir);
    write_npy(path, 1, ">f4", "(12,)", false, d, 48);
    b = file_buffer(WS_TYPE_FLOAT, 12, "be.npy");
    check_fails(&b, "big-endian");
    snprintf(path, sizeof path, "%s/fo.npy", tmpdir);
    write_npy(path, 1, "<f4", "(3, 4)", true, d, 48);
    b = file_buffer(WS_TYPE_FLOAT, 12, "fo.npy");
    check_fails(&b, "the .npy header's 'fortran_order' is True; save the array in C order");
    snprintf(path, sizeof path, "%s/shape.npy", tmpdir);
    write_npy(path, 1, "<f4", "(3, 4)", false, d, 48);
    b = file_buffer(WS_TYPE_FLOAT, 16, "shape.npy");
    check_fails(&b, "the .npy header's 'shape' (3, 4) holds 12 values but buffer 'b' has 16");
    snprintf(path, sizeof path, "%s/trunc.npy", tmpdir);
    write_npy(path, 1, "<f4", "(12,)", false, d, 44);
    b = file_buffer(WS_TYPE_FLOAT, 12, "trunc.npy");
    check_fails(&b, "44 bytes of data after the .npy header");
    snprintf(path, sizeof path, "%s/v9.npy", tmpdir);
    write_npy(path, 9, "<f4", "(12,)", false, d, 48);
    b = file_buffer(WS_TYPE_FLOAT, 12, "v9.npy");
    check_fails(&b, "format version 9.0");
    /* a file that changed after the check fills zeros and says so */
    snprintf(path, sizeof path, "%s/raw.bin", tmpdir);
    b = file_buffer(WS_TYPE_FLOAT, 16, "raw.bin");
    ws_error err;
    assert_int_equal(ws_buffer_check_file(&b, &err), 0);
    write_bytes(path, d, 8);
    float out[16];
    memset(out, 0xa5, sizeof out);
    assert_int_equal(ws_buffer_fill_checked(&b, out, &err), -1);
    assert_non_null(strstr(err.msg, "shorter than when it was checked"));
    for (int k = 0; k < 16; k++) assert_true(out[k] == 0.0f);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_matches_the_published_sequence),
        cmocka_unit_test(test_zero_fill_clears_every_byte),
        cmocka_unit_test(test_index_fill_converts_k_and_wraps_narrow_ints),
        cmocka_unit_test(test_const_fill_converts_the_value),
        cmocka_unit_test(test_random_floats_follow_the_documented_formula),
        cmocka_unit_test(test_random_ints_follow_the_documented_formula),
        cmocka_unit_test(test_vector_buffer_equals_its_scalar_twin),
        cmocka_unit_test(test_compare_is_bit_exact_without_tolerance),
        cmocka_unit_test(test_compare_tolerance_is_relative_above_one_absolute_below),
        cmocka_unit_test(test_nan_equals_nan_only_bit_exactly),
        cmocka_unit_test(test_compare_reports_scalar_index_inside_vectors),
        cmocka_unit_test(test_format_prints_the_shortest_exact_text),
        cmocka_unit_test(test_half_conversion_rounds_to_nearest_even_like_the_hardware_format),
        cmocka_unit_test(test_bf16_conversion_rounds_to_nearest_even),
        cmocka_unit_test(test_half_and_bf16_buffers_hold_the_rounded_values),
        cmocka_unit_test(test_ulp_distance_counts_representable_values_between),
        cmocka_unit_test(test_perm_holds_every_index_once_in_the_documented_order),
        cmocka_unit_test(test_randint_gives_integers_in_range_for_any_type),
        cmocka_unit_test(test_lcg_matches_the_host_loop_it_documents),
        cmocka_unit_test(test_range_fill_equals_the_whole_fill),
        cmocka_unit_test(test_raw_and_npy_files_fill_buffers_with_their_bytes),
        cmocka_unit_test(test_a_file_that_does_not_fit_its_buffer_says_how),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
