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
    static const ws_type vec[] = {WS_TYPE_FLOAT2, WS_TYPE_FLOAT4, WS_TYPE_INT2, WS_TYPE_INT4, WS_TYPE_DOUBLE2};
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        for (int init = WS_INIT_ZERO; init <= WS_INIT_CONST; init++) {
            ws_buffer a = make(vec[i], 33, (ws_init_kind)init);
            ws_buffer s = make(ws_type_scalar(vec[i]), 33 * (uint64_t)ws_type_lanes(vec[i]), (ws_init_kind)init);
            a.seed = s.seed = 1234;
            a.lo = s.lo = -2;
            a.hi = s.hi = 2;
            a.const_value = s.const_value = 1.25;
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
