/* test_bufdiff.c - what `check` shows under an output that differs (common/bufdiff.h,
 * cu_verify_diff_text): every differing scalar counted, the first 8 listed at the saved shape's
 * coordinates ([i] or [i, lane]) with the simulator's value before the GPU's, a difference
 * within the tolerance not counted. The GPU's buffer is made by hand here: no GPU needed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bufdiff.h"
#include "../cuda/cu_verify.h"

static ws_buffer buffer(const char *name, ws_type t, uint64_t count, double tol)
{
    ws_buffer b = {.type = t, .count = count, .bytes = count * ws_type_size(t), .output = true, .tol = tol};
    snprintf(b.name, sizeof b.name, "%s", name);
    return b;
}

static void test_a_vector_buffers_differences_are_counted_and_placed_by_element_and_lane(void **state)
{
    (void)state;
    ws_buffer b = buffer("out", WS_TYPE_FLOAT4, 16, 0);
    float sim[64], gpu[64];
    for (int k = 0; k < 64; k++) sim[k] = gpu[k] = (float)k;
    gpu[9] = -1.0f;                 /* element 2, lane 1 */
    gpu[63] = 0.5f;                 /* element 15, lane 3 */
    ws_buffer_diff d;
    assert_int_equal(ws_buffer_diff_of(&b, gpu, sim, NULL, &d), 2);
    assert_int_equal(d.scalars, 64);
    assert_int_equal(d.shown, 2);
    assert_int_equal(d.elem[0].index, 9);
    assert_string_equal(d.elem[0].where, "[2, 1]");
    assert_string_equal(d.elem[0].want, "9");
    assert_string_equal(d.elem[0].got, "-1");
    assert_string_equal(d.elem[1].where, "[15, 3]");
    char text[1024];
    ws_buffer_diff_text(&b, &d, "simulator", "GPU", "    ", text, sizeof text);
    assert_string_equal(text, "    output 'out': 2 of 64 scalars differ:\n"
                              "      [2, 1]   simulator 9  GPU -1\n"
                              "      [15, 3]  simulator 63  GPU 0.5\n");
}

static void test_only_the_first_eight_are_listed_but_all_are_counted(void **state)
{
    (void)state;
    ws_buffer b = buffer("v", WS_TYPE_INT, 100, 0);
    int sim[100], gpu[100];
    for (int k = 0; k < 100; k++) {
        sim[k] = k;
        gpu[k] = k % 3 == 0 ? -k - 1 : k;     /* k = 0, 3, ..., 99: 34 differ */
    }
    ws_buffer_diff d;
    assert_int_equal(ws_buffer_diff_of(&b, gpu, sim, NULL, &d), 34);
    assert_int_equal(d.shown, WS_DIFF_SHOWN);
    assert_string_equal(d.elem[7].where, "[21]");
    char text[2048];
    ws_buffer_diff_text(&b, &d, "simulator", "GPU", "", text, sizeof text);
    assert_non_null(strstr(text, "output 'v': 34 of 100 scalars differ; the first 8:\n"));
    assert_non_null(strstr(text, "  [21]  simulator 21  GPU -22\n"));
    assert_null(strstr(text, "[24]"));
    /* a text buffer too small for every line keeps whole lines only */
    char small[80];
    ws_buffer_diff_text(&b, &d, "simulator", "GPU", "", small, sizeof small);
    /* [0] padded to the width of [21], the widest listed */
    assert_string_equal(small, "output 'v': 34 of 100 scalars differ; the first 8:\n  [0]   simulator 0  GPU -1\n");
}

static void test_a_difference_within_the_tolerance_is_not_one(void **state)
{
    (void)state;
    ws_buffer b = buffer("y", WS_TYPE_FLOAT, 4, 1e-6);
    float sim[4] = {1.0f, 2.0f, 3.0f, 4.0f}, gpu[4] = {1.0f, 2.0f + 1e-7f, 3.1f, 4.0f};
    ws_buffer_diff d;
    assert_int_equal(ws_buffer_diff_of(&b, gpu, sim, NULL, &d), 1);   /* 1e-7 of 2 is within 1e-6 relative */
    assert_string_equal(d.elem[0].where, "[2]");
    assert_int_equal(ws_buffer_compare(&b, gpu, sim, NULL, NULL), 2); /* the first difference is compare's */
}

static void test_the_gpu_check_lists_only_the_outputs_that_differ(void **state)
{
    (void)state;
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.nbuffers = 3;
    L.buffers[0] = buffer("same", WS_TYPE_INT, 4, 0);
    L.buffers[1] = buffer("in", WS_TYPE_INT, 4, 0);
    L.buffers[1].output = false;      /* not an output: not compared */
    L.buffers[2] = buffer("bad", WS_TYPE_UINT, 4, 0);
    int same[4] = {1, 2, 3, 4}, in_s[4] = {0}, in_g[4] = {1, 1, 1, 1};
    unsigned bad_s[4] = {0, 1, 2, 3}, bad_g[4] = {0, 1, 7, 3};
    void *sim[3] = {same, in_s, bad_s}, *gpu[3] = {same, in_g, bad_g};
    char text[1024];
    assert_int_equal(cu_verify_diff_text(&L, NULL, NULL, gpu, sim, "  ", text, sizeof text), 1);
    assert_string_equal(text, "  output 'bad': 1 of 4 scalars differ:\n    [2]  simulator 2  GPU 7\n");
    void *agree[3] = {same, in_s, bad_s};
    assert_int_equal(cu_verify_diff_text(&L, NULL, NULL, agree, sim, "  ", text, sizeof text), 0);
    assert_string_equal(text, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_vector_buffers_differences_are_counted_and_placed_by_element_and_lane),
        cmocka_unit_test(test_only_the_first_eight_are_listed_but_all_are_counted),
        cmocka_unit_test(test_a_difference_within_the_tolerance_is_not_one),
        cmocka_unit_test(test_the_gpu_check_lists_only_the_outputs_that_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
