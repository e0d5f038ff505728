/* test_expr.c - the description expression language (common/expr.c): C
 * precedence, checked 64-bit arithmetic, and an exact column for every error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/desc.h"

static const char names[][WS_NAME_MAX] = {"W", "H", "N", "zero"};
static const int64_t values[] = {1024, 768, 7, 0};

/* Parses src as if it started at line 3, column 10 of "k.cu", evaluates it
 * against names/values; returns 0 and *out, or -1 and *err. */
static int eval_at(const char *src, int64_t *out, ws_error *err)
{
    ws_expr *e = ws_expr_parse(src, "k.cu", 3, 10, err);
    if (!e) return -1;
    int rc = ws_expr_eval(e, 4, names, values, out, err);
    ws_expr_free(e);
    return rc;
}

static int64_t ev(const char *src)
{
    int64_t v = 0;
    ws_error err;
    if (eval_at(src, &v, &err)) fail_msg("'%s' failed: %d:%d %s", src, err.line, err.col, err.msg);
    return v;
}

/* Asserts that src fails with the error at column 10 + offset (offset is the
 * 0-based index in src) and a message containing want. */
static void expect_error(const char *src, int offset, const char *want)
{
    int64_t v;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (!eval_at(src, &v, &err)) fail_msg("'%s' evaluated to %lld, expected an error", src, (long long)v);
    assert_string_equal(err.file, "k.cu");
    assert_int_equal(err.line, 3);
    if (err.col != 10 + offset) fail_msg("'%s': column %d, expected %d (%s)", src, err.col, 10 + offset, err.msg);
    if (!strstr(err.msg, want)) fail_msg("'%s': message '%s' lacks '%s'", src, err.msg, want);
}

static void test_arithmetic_follows_c_precedence(void **state)
{
    (void)state;
    assert_int_equal(ev("1+2*3"), 7);
    assert_int_equal(ev("(1+2)*3"), 9);
    assert_int_equal(ev("10-4-3"), 3);          /* left associative */
    assert_int_equal(ev("100/10/5"), 2);
    assert_int_equal(ev("2*3%4"), 2);
    assert_int_equal(ev("1<<4+1"), 32);         /* + binds tighter than << */
    assert_int_equal(ev("1|2^3&6"), 1);         /* & then ^ then | : 3&6=2, 2^2=0, 1|0=1 */
    assert_int_equal(ev("1 < 2 == 1"), 1);      /* relational before equality */
    assert_int_equal(ev("6 & 3 == 3"), 0);      /* == before &, as in C: 6 & 1 */
    assert_int_equal(ev("-2*-3"), 6);
    assert_int_equal(ev("~0"), -1);
    assert_int_equal(ev("+5"), 5);
    assert_int_equal(ev("- -5"), 5);
}

static void test_division_truncates_toward_zero_like_c(void **state)
{
    (void)state;
    assert_int_equal(ev("-7/2"), -3);
    assert_int_equal(ev("-7%2"), -1);
    assert_int_equal(ev("7%-2"), 1);
    assert_int_equal(ev("(-9223372036854775807-1)%-1"), 0);
}

static void test_comparisons_give_zero_or_one(void **state)
{
    (void)state;
    assert_int_equal(ev("3<4"), 1);
    assert_int_equal(ev("4<4"), 0);
    assert_int_equal(ev("4<=4"), 1);
    assert_int_equal(ev("5>4"), 1);
    assert_int_equal(ev("4>=5"), 0);
    assert_int_equal(ev("4==4"), 1);
    assert_int_equal(ev("4!=4"), 0);
}

static void test_conditional_is_right_associative_and_lazy(void **state)
{
    (void)state;
    assert_int_equal(ev("0 ? 1 : 0 ? 2 : 3"), 3);
    assert_int_equal(ev("1 ? 1 : 0 ? 2 : 3"), 1);
    assert_int_equal(ev("zero > 0 ? 100/zero : -1"), -1);   /* the untaken branch would divide by 0 */
    assert_int_equal(ev("W > H ? W : H"), 1024);
}

static void test_min_max_and_ceiling_division(void **state)
{
    (void)state;
    assert_int_equal(ev("min(W, H)"), 768);
    assert_int_equal(ev("max(W, H)"), 1024);
    assert_int_equal(ev("min(max(1,2), 0)"), 0);
    assert_int_equal(ev("cdiv(7, 2)"), 4);
    assert_int_equal(ev("cdiv(8, 2)"), 4);
    assert_int_equal(ev("cdiv(-7, 2)"), -3);    /* ceil(-3.5) */
    assert_int_equal(ev("cdiv(-7, -2)"), 4);    /* ceil(3.5) */
    assert_int_equal(ev("cdiv(7, -2)"), -3);
    assert_int_equal(ev("cdiv(W, 32)"), 32);
    assert_int_equal(ev("cdiv(W+1, 32)"), 33);
}

static void test_literals_in_decimal_and_hex(void **state)
{
    (void)state;
    assert_int_equal(ev("0x10"), 16);
    assert_int_equal(ev("0XfF"), 255);
    assert_int_equal(ev("0"), 0);
    assert_true(ev("9223372036854775807") == INT64_MAX);
    assert_true(ev("0x7fffffffffffffff") == INT64_MAX);
    assert_true(ev("-9223372036854775807-1") == INT64_MIN);
}

static void test_shifts_are_arithmetic_and_checked(void **state)
{
    (void)state;
    assert_true(ev("1<<62") == (int64_t)1 << 62);
    assert_int_equal(ev("-8>>1"), -4);
    assert_int_equal(ev("-7>>1"), -4);          /* floor, as an arithmetic shift */
    assert_int_equal(ev("-1>>63"), -1);
    assert_true(ev("-1<<63") == INT64_MIN);
    assert_int_equal(ev("0<<63"), 0);
    assert_int_equal(ev("-3<<2"), -12);
}

static void test_identifiers_read_parameters(void **state)
{
    (void)state;
    assert_int_equal(ev("W*H"), 1024 * 768);
    assert_int_equal(ev("(W+31)/32"), 32);
    assert_int_equal(ev("\tN  *\t2 "), 14);
}

static void test_every_error_has_its_exact_column(void **state)
{
    (void)state;
    expect_error("W + 1/0", 5, "division by zero");
    expect_error("W % zero", 2, "division by zero");
    expect_error("cdiv(W, zero)", 0, "division by zero");
    expect_error("1 << 64", 2, "shift count 64 out of range");
    expect_error("1 << -1", 2, "shift count -1 out of range");
    expect_error("1 >> 99", 2, "out of range");
    expect_error("1 << 63", 2, "overflow");
    expect_error("3 << 62", 2, "overflow");
    expect_error("1 + 9223372036854775808", 4, "integer literal too large");
    expect_error("0x10000000000000000", 0, "integer literal too large");
    expect_error("9223372036854775807 + 1", 20, "overflow in '+'");
    expect_error("-9223372036854775807 - 2", 21, "overflow in '-'");
    expect_error("W * 9223372036854775807", 2, "overflow in '*'");
    expect_error("(-9223372036854775807-1) / -1", 25, "overflow");
    expect_error("-(-9223372036854775807-1)", 0, "overflow in unary '-'");
    expect_error("W + Q", 4, "unknown parameter 'Q'");
    expect_error("1 2", 2, "unexpected '2'");
    expect_error("W H", 2, "unexpected 'H'");
    expect_error("(1 + 2", 0, "never closed");
    expect_error("min(1, (2 + 3)", 3, "never closed");
    expect_error("1 + 2)", 5, "')' without a matching '('");
    expect_error(")", 0, "')' without a matching '('");
    expect_error("", 0, "expected an expression");
    expect_error("   ", 3, "expected an expression");
    expect_error("1 +", 3, "expected an expression");
    expect_error("1 + * 2", 4, "unexpected '*'");
    expect_error("foo(1, 2)", 0, "unknown function 'foo'");
    expect_error("min(1)", 5, "takes two arguments");
    expect_error("max(1, 2, 3)", 8, "takes two arguments");
    expect_error("2.5 * W", 0, "floating-point");
    expect_error("12abc", 2, "bad character");
    expect_error("0x", 0, "hex literal needs digits");
    expect_error("1 ? 2", 2, "expected ':'");
    expect_error("1 : 2", 2, "':' without a matching '?'");
    expect_error("W && H", 2, "unexpected '&'");
    expect_error("W $ H", 2, "unexpected '$'");
    expect_error("W \x01", 2, "unexpected byte 0x01");
}

static void test_deep_nesting_is_refused_not_a_crash(void **state)
{
    (void)state;
    char *s = malloc(100001);
    assert_non_null(s);
    memset(s, '(', 100000);
    s[100000] = '\0';
    ws_error err;
    assert_null(ws_expr_parse(s, "k.cu", 1, 1, &err));
    assert_non_null(strstr(err.msg, "too deeply nested"));
    /* a long flat chain is a deep left-leaning tree: also bounded */
    for (int i = 0; i < 50000; i++) { s[2 * i] = '1'; s[2 * i + 1] = '+'; }
    s[99999] = '1';
    s[100000] = '\0';
    assert_null(ws_expr_parse(s, "k.cu", 1, 1, &err));
    assert_non_null(strstr(err.msg, "too deeply nested"));
    /* 150 terms are fine and sum to 150 */
    s[299] = '\0';
    int64_t v;
    ws_expr *e = ws_expr_parse(s, "k.cu", 1, 1, &err);
    assert_non_null(e);
    assert_int_equal(ws_expr_eval(e, 0, NULL, NULL, &v, &err), 0);
    assert_int_equal(v, 150);
    ws_expr_free(e);
    /* 150 nested parentheses are fine too */
    memset(s, '(', 150);
    s[150] = '7';
    memset(s + 151, ')', 150);
    s[301] = '\0';
    e = ws_expr_parse(s, "k.cu", 1, 1, &err);
    assert_non_null(e);
    assert_int_equal(ws_expr_eval(e, 0, NULL, NULL, &v, &err), 0);
    assert_int_equal(v, 7);
    ws_expr_free(e);
    free(s);
}

static void test_first_unknown_names_the_leftmost_missing_parameter(void **state)
{
    (void)state;
    ws_error err;
    ws_expr *e = ws_expr_parse("W + min(A, B) * H", "k.cu", 2, 5, &err);
    assert_non_null(e);
    int col = 0;
    const char *bad = ws_expr_first_unknown(e, 2, names, &col);
    assert_non_null(bad);
    assert_string_equal(bad, "A");
    assert_int_equal(col, 5 + 8);
    assert_string_equal(ws_expr_first_unknown(e, 0, names, &col), "W");
    assert_int_equal(col, 5);
    assert_string_equal(ws_expr_source(e), "W + min(A, B) * H");
    ws_expr_free(e);
    e = ws_expr_parse("W*H", "k.cu", 2, 5, &err);
    assert_null(ws_expr_first_unknown(e, 2, names, &col));
    ws_expr_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic_follows_c_precedence),
        cmocka_unit_test(test_division_truncates_toward_zero_like_c),
        cmocka_unit_test(test_comparisons_give_zero_or_one),
        cmocka_unit_test(test_conditional_is_right_associative_and_lazy),
        cmocka_unit_test(test_min_max_and_ceiling_division),
        cmocka_unit_test(test_literals_in_decimal_and_hex),
        cmocka_unit_test(test_shifts_are_arithmetic_and_checked),
        cmocka_unit_test(test_identifiers_read_parameters),
        cmocka_unit_test(test_every_error_has_its_exact_column),
        cmocka_unit_test(test_deep_nesting_is_refused_not_a_crash),
        cmocka_unit_test(test_first_unknown_names_the_leftmost_missing_parameter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
