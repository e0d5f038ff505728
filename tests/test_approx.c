/* test_approx.c - the approximate instructions a kernel reaches (sim/interp/approx.c), the bound
 * the PTX ISA's stated errors give (in ulps of a float: 2^-k relative is at most 2^(24-k)
 * ulp, plus one for the host's own rounding), and the output comparison that allows it
 * (common/buffers.c ws_buffer_compare_within, cuda/cu_verify.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/buffers.h"
#include "../cuda/cu_verify.h"
#include "../sim/interp/approx.h"
#include "../sim/simulate.h"

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

static ptx_module *parse(const char *text)
{
    ws_error err;
    ptx_module *m = ptx_parse("a.ptx", text, &err);
    if (!m) fail_msg("%d:%d: %s", err.line, err.col, err.msg);
    return m;
}

/* expf() is ex2.approx.ftz.f32 (2^-22 relative: 4 ulp, +1), a helper's sinf() is
 * sin.approx.f32 (2^-20.5 absolute): the bound is the loosest of both. */
static void test_a_kernel_and_its_callees_give_the_loosest_bound_of_their_approximations(void **state)
{
    (void)state;
    ptx_module *m = parse(HEADER ".func (.param .b32 r) h(.param .b32 x)\n{\n\t.reg .f32 %f<3>;\n"
                          "\tld.param.f32 %f1, [x];\n\tsin.approx.f32 %f2, %f1;\n\tst.param.f32 [r], %f2;\n\tret;\n}\n"
                          ".visible .entry k()\n{\n\t.reg .f32 %f<3>;\n\tex2.approx.ftz.f32 %f2, %f1;\n"
                          "\tex2.approx.ftz.f32 %f1, %f2;\n\t{\n\t.param .b32 a;\n\t.param .b32 b;\n"
                          "\tcall.uni (b), h, (a);\n\t}\n\tret;\n}\n"
                          ".visible .entry plain()\n{\n\t.reg .f32 %f<3>;\n\tadd.ftz.f32 %f1, %f2, %f2;\n"
                          "\tsqrt.rn.f32 %f1, %f2;\n\tret;\n}\n");
    ws_approx_use u;
    ws_approx_scan(m, ptx_find_function(m, "k"), &u);
    assert_int_equal(u.n, 2);                               /* ex2 listed once */
    assert_string_equal(u.insn[0].insn, "ex2.approx.ftz.f32");
    assert_string_equal(u.insn[1].insn, "sin.approx.f32");
    assert_int_equal(u.ulps, 4 + 1);
    assert_true(u.abs == exp2(-20.5));
    char text[400];
    ws_approx_describe(&u, text, sizeof text);
    assert_non_null(strstr(text, "within 5 ulp or 6.7e-07 absolute"));
    assert_non_null(strstr(text, "ex2.approx.ftz.f32: PTX ISA max relative error 2^-22"));
    /* .ftz and round-to-nearest are reproduced exactly: no bound */
    ws_approx_scan(m, ptx_find_function(m, "plain"), &u);
    assert_int_equal(u.n, 0);
    assert_int_equal(u.ulps, 0);
    ws_approx_describe(&u, text, sizeof text);
    assert_string_equal(text, "bit-exact");
    ptx_free(m);
}

/* rsqrt 2^-22.9 -> ceil(2^1.1) + 1 = 4; rcp 1 ulp -> 2; div.full 2 ulp -> 3; an f16 ex2
 * has no bound recorded: listed, compared bit-exactly. */
static void test_each_form_turns_its_stated_error_into_ulps(void **state)
{
    (void)state;
    const struct { const char *insn; uint32_t ulps; } rows[] = {
        {"rsqrt.approx.f32 %f1, %f2;", 4}, {"rcp.approx.ftz.f32 %f1, %f2;", 2}, {"div.full.f32 %f1, %f2, %f2;", 3},
        {"sqrt.approx.f32 %f1, %f2;", 3}, {"ex2.approx.f16 %h1, %h2;", 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".visible .entry k()\n{\n\t.reg .f32 %%f<3>;\n\t.reg .b16 %%h<3>;\n\t%s\n"
                 "\tret;\n}\n", rows[i].insn);
        ptx_module *m = parse(text);
        ws_approx_use u;
        ws_approx_scan(m, &m->funcs[0], &u);
        assert_int_equal(u.n, 1);
        assert_int_equal(u.ulps, rows[i].ulps);
        assert_int_equal(u.insn[0].bounded, rows[i].ulps != 0);
        ptx_free(m);
    }
}

static ws_buffer fbuf(ws_type t, uint64_t n)
{
    ws_buffer b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "out");
    b.type = t;
    b.count = n;
    b.bytes = n * ws_type_size(t);
    b.output = true;
    return b;
}

/* Floats 5 ulp apart agree within 5 ulp, 6 do not; a near-zero difference passes the
 * absolute bound; NaN only equals itself; ints stay exact. */
static void test_outputs_agree_within_the_bound_and_no_further(void **state)
{
    (void)state;
    ws_buffer b = fbuf(WS_TYPE_FLOAT, 4);
    float want[4] = {1.0f, -3.5f, 1e-9f, NAN}, got[4];
    memcpy(got, want, sizeof got);
    for (int k = 0; k < 5; k++) got[0] = nextafterf(got[0], 2.0f);
    for (int k = 0; k < 5; k++) got[1] = nextafterf(got[1], 0.0f);
    got[2] = 2e-7f;                                         /* far in ulps, near in absolute terms */
    ws_fp_bound bound = {5, exp2(-20.5)};
    assert_int_equal(ws_buffer_compare_within(&b, got, want, &bound, NULL, NULL), -1);
    assert_int_equal(ws_buffer_compare(&b, got, want, NULL, NULL), 0);     /* bit-exact: differs at once */
    got[0] = nextafterf(got[0], 2.0f);                      /* 6 ulp */
    double g, w;
    assert_int_equal(ws_buffer_compare_within(&b, got, want, &bound, &g, &w), 0);
    assert_true(w == 1.0 && g > 1.0);
    got[0] = want[0];
    got[3] = 0.0f;
    assert_int_equal(ws_buffer_compare_within(&b, got, want, &bound, NULL, NULL), 3);
    ws_buffer ib = fbuf(WS_TYPE_INT, 2);
    int iw[2] = {7, 8}, ig[2] = {7, 9};
    assert_int_equal(ws_buffer_compare_within(&ib, ig, iw, &bound, NULL, NULL), 1);
    ws_buffer db = fbuf(WS_TYPE_DOUBLE, 1);
    double dw = 1000.0, dg = 1000.0 * (1 + 4 * 0x1p-23);   /* 4 f32 ulps relative: within 5 */
    assert_int_equal(ws_buffer_compare_within(&db, &dg, &dw, &bound, NULL, NULL), -1);
    dg = 1000.0 * (1 + 6 * 0x1p-23);
    assert_int_equal(ws_buffer_compare_within(&db, &dg, &dw, &bound, NULL, NULL), 0);
}

/* The GPU check names the bound it used, when outputs agree and in a mismatch. */
static void test_the_output_check_says_which_comparison_it_used(void **state)
{
    (void)state;
    ptx_module *m = parse(HEADER ".visible .entry k()\n{\n\t.reg .f32 %f<3>;\n\trsqrt.approx.f32 %f2, %f1;\n\tret;\n}\n");
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.nbuffers = 1;
    L.buffers[0] = fbuf(WS_TYPE_FLOAT, 1);
    float sim = 0.5f, gpu = nextafterf(nextafterf(0.5f, 1.0f), 1.0f);
    void *got[1] = {&gpu}, *want[1] = {&sim};
    char how[400];
    ws_error err;
    assert_int_equal(cu_verify_outputs_approx(&L, m, &m->funcs[0], got, want, how, sizeof how, &err), 0);
    assert_string_equal(how, "within 4 ulp (rsqrt.approx.f32: PTX ISA max relative error 2^-22.9)");
    assert_int_equal(cu_verify_outputs(&L, got, want, &err), 1);   /* bit-exact, as before */
    for (int k = 0; k < 3; k++) gpu = nextafterf(gpu, 1.0f);       /* 5 ulp */
    assert_int_equal(cu_verify_outputs_approx(&L, m, &m->funcs[0], got, want, how, sizeof how, &err), 1);
    assert_non_null(strstr(err.msg, "output 'out' differs from the simulator at index 0"));
    assert_non_null(strstr(err.msg, "within 4 ulp (rsqrt.approx.f32"));
    ptx_free(m);
}

/* nvcc lowers expf, rsqrtf and __sinf (tests/data/calls/approx.cu, through the default
 * path) to the three approximate forms; the simulator's results are the exact functions,
 * and the kernel's outputs are compared within the loosest bound, 5 ulp or 6.7e-7. */
static void test_nvcc_math_functions_reach_their_approximate_instructions(void **state)
{
    (void)state;
    ws_catalog *cat = NULL;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    ws_simulation s;
    int rc = ws_simulation_open(&s, cat, "tests/data/calls/approx.cu:approx_math", NULL, ws_device_find("h200"), NULL,
                                &err);
    if (!rc) rc = ws_simulation_run(&s, NULL, &err);
    if (rc) ws_error_print(&err);
    assert_int_equal(rc, 0);
    ws_approx_use u;
    ws_approx_scan(s.mod, s.fn, &u);
    const char *want[] = {"ex2.approx.ftz.f32", "rsqrt.approx.f32", "sin.approx.f32"};
    assert_int_equal(u.n, 3);
    for (int i = 0; i < 3; i++) {
        bool found = false;
        for (int k = 0; k < u.n; k++) found |= !strcmp(u.insn[k].insn, want[i]);
        if (!found) fail_msg("%s not found", want[i]);
    }
    assert_int_equal(u.ulps, 5);
    assert_true(u.abs == exp2(-20.5));
    /* the simulator's sin and rsqrt are the host's, on the same float argument */
    const float *x = s.result.buffer_data[0], *out = s.result.buffer_data[1];
    for (int i = 0; i < 1024; i++) {
        assert_true(out[2048 + i] == sinf(x[i]));
        assert_true(out[1024 + i] == 1.0f / sqrtf(fmaf(x[i], x[i], 1.0f)));   /* nvcc contracts v * v + 1 */
    }
    ws_simulation_close(&s);
    ws_catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_kernel_and_its_callees_give_the_loosest_bound_of_their_approximations),
        cmocka_unit_test(test_each_form_turns_its_stated_error_into_ulps),
        cmocka_unit_test(test_outputs_agree_within_the_bound_and_no_further),
        cmocka_unit_test(test_the_output_check_says_which_comparison_it_used),
        cmocka_unit_test(test_nvcc_math_functions_reach_their_approximate_instructions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
