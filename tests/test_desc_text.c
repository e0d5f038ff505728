/* test_desc_text.c - a description's values as written (common/desc_text.c), and what `list`
 * costs: reading one description must not depend on how many others share its file (5000
 * descriptions in one file once took `list` over a minute: each value re-read the file from
 * its first line). Linear work grows 4x for 4x the descriptions, quadratic 16x; the test
 * allows 8x, the best of three timings each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/desc.h"
#include "../common/desc_text.h"

static char *many(int n)
{
    size_t cap = (size_t)n * 400 + 1;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t l = 0;
    for (int i = 0; i < n; i++)
        l += (size_t)snprintf(s + l, cap - l,
                              "/*@warpscope\nkernel  k%d\nparam   N = 1<<10   # size\nbuffer  out  float  N  init=zero  output\n"
                              "grid    (N+255)/256, 1\nblock   256\nshared  4*N\nargs    out, N\n*/\n"
                              "__global__ void k%d(float *out, int n) { }\n\n", i, i);
    return s;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Parses a file of n descriptions and reads every value `list` shows; returns the seconds. */
static double list_cost(int n)
{
    char *text = many(n);
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_s();
        ws_desc_file *f;
        ws_error err;
        if (ws_desc_parse("many.cu", text, &f, &err)) fail_msg("%s", err.msg);
        assert_int_equal(f->nkernels, n);
        char buf[256];
        for (int i = 0; i < f->nkernels; i++) {
            const ws_kernel_desc *d = &f->kernels[i];
            ws_desc_param_text(f, d, 0, buf, sizeof buf);
            ws_desc_keyword_text(f, d, "grid", buf, sizeof buf);
            ws_desc_keyword_text(f, d, "block", buf, sizeof buf);
            ws_desc_keyword_text(f, d, "shared", buf, sizeof buf);
        }
        ws_desc_free(f);
        double t = now_s() - t0;
        if (t < best) best = t;
    }
    free(text);
    return best;
}

static void test_values_read_back_as_written(void **state)
{
    (void)state;
    char *text = many(3);
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_parse("many.cu", text, &f, &err), 0);
    char buf[128];
    const ws_kernel_desc *d = &f->kernels[2];
    ws_desc_param_text(f, d, 0, buf, sizeof buf);
    assert_string_equal(buf, "1<<10");                  /* the comment is not part of it */
    ws_desc_keyword_text(f, d, "grid", buf, sizeof buf);
    assert_string_equal(buf, "(N+255)/256, 1");
    ws_desc_keyword_text(f, d, "block", buf, sizeof buf);
    assert_string_equal(buf, "256");
    ws_desc_keyword_text(f, d, "shared", buf, sizeof buf);
    assert_string_equal(buf, "4*N");
    ws_desc_keyword_text(f, d, "bytes", buf, sizeof buf);
    assert_string_equal(buf, "");                       /* not given */
    ws_desc_param_text(f, d, 5, buf, sizeof buf);
    assert_string_equal(buf, "");
    ws_desc_free(f);
    free(text);
}

static void test_listing_a_file_costs_linear_time_in_its_descriptions(void **state)
{
    (void)state;
    double small = list_cost(1000), large = list_cost(4000);
    print_message("1000 descriptions: %.4f s, 4000: %.4f s (ratio %.1f)\n", small, large, large / small);
    if (large > 8 * small && large > 0.05) fail_msg("4x the descriptions took %.1fx the time", large / small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_read_back_as_written),
        cmocka_unit_test(test_listing_a_file_costs_linear_time_in_its_descriptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
