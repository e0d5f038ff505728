/* test_ptx_check.c - warpscope's PTX checks (sim/frontend/ptx_check.c) against ptxas itself: each
 * file of tests/data/bad_ptx that ptx_check refuses is refused by ptxas too, and the PTX
 * ptxas accepts (the catalog's, the test PTX) warpscope accepts. Where no toolkit is
 * installed the ptxas half is skipped with a message and only warpscope's half runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/child.h"
#include "../common/files.h"
#include "../sim/frontend/ptx.h"

#define PTXAS "/usr/local/cuda/bin/ptxas"

/* The corpus files whose refusal comes from ptx_check (the rest are the parser's). */
static const char *const CHECKED[] = {
    "wide_register_in_add_s32", "predicate_as_a_value", "value_as_the_selp_predicate",
    "store_into_a_kernel_parameter", "float_literal_in_integer_add", "mul_wide_into_a_32_bit_register",
    "vector_of_mixed_widths", "float_register_in_integer_load", "shift_by_a_64_bit_amount", "version_99_9",
    "version_too_old_for_sm_90",
};

/* ptxas's verdict on path: 0 accepted, 1 refused, -1 no ptxas here. */
static int ptxas_verdict(const char *path, char *why, size_t cap)
{
    if (access(PTXAS, X_OK) != 0) return -1;
    char arch[32] = "-arch=sm_90";               /* a file for sm_90a (wgmma) is compiled for its target */
    char *text = ws_read_file(path, 0, NULL, NULL);
    const char *t = text ? strstr(text, "\n.target sm_") : NULL;
    if (t) snprintf(arch, sizeof arch, "-arch=%.*s", (int)strcspn(t + 9, " ,\n"), t + 9);
    free(text);
    char *argv[] = {PTXAS, arch, "-o", "/dev/null", (char *)path, NULL};
    ws_child_result r;
    ws_error err;
    if (ws_child_run(argv, NULL, &r, &err)) fail_msg("ptxas: %s", err.msg);
    snprintf(why, cap, "%.*s", (int)strcspn(r.output, "\n"), r.output);
    free(r.output);
    if (r.limit) fail_msg("ptxas on %s: %s", path, r.why);
    return r.status != 0;
}

static void test_what_warpscope_refuses_ptxas_refuses_too(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CHECKED / sizeof CHECKED[0]; i++) {
        char path[256], why[512];
        snprintf(path, sizeof path, "tests/data/bad_ptx/%s.ptx", CHECKED[i]);
        ws_error err;
        ptx_module *m = ptx_load(path, &err);
        if (m) fail_msg("%s: warpscope accepted it", path);
        int v = ptxas_verdict(path, why, sizeof why);
        if (v < 0) {
            print_message("no ptxas at " PTXAS ": ptxas's verdicts not compared\n");
            return;
        }
        if (v != 1) fail_msg("%s: ptxas accepts what warpscope refuses (%s)", path, err.msg);
    }
}

static void test_what_ptxas_accepts_warpscope_accepts(void **state)
{
    (void)state;
    const char *pats[] = {"demos/*.ptx", "tests/data/ptx/*.ptx", "tests/data/planted/*.ptx", "tests/data/interp/*.ptx",
                          "tests/data/wgmma/*.ptx"};
    int n = 0;
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        glob_t g;
        if (glob(pats[p], 0, NULL, &g)) continue;
        for (size_t i = 0; i < g.gl_pathc; i++) {
            ws_error err;
            ptx_module *m = ptx_load(g.gl_pathv[i], &err);
            if (!m) fail_msg("%s refused: %d:%d: %s", g.gl_pathv[i], err.line, err.col, err.msg);
            ptx_free(m);
            char why[512];
            if (ptxas_verdict(g.gl_pathv[i], why, sizeof why) == 1)
                fail_msg("%s: ptxas refuses a file the tests take as valid: %s", g.gl_pathv[i], why);
            n++;
        }
        globfree(&g);
    }
    assert_true(n >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_warpscope_refuses_ptxas_refuses_too),
        cmocka_unit_test(test_what_ptxas_accepts_warpscope_accepts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
