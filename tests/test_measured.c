/* test_measured.c - recorded GPU runs in results/<gpu>.json (fixture tests/data/results):
 * the run with the same -D is the kernel's own; otherwise another run is returned marked
 * as such; runs without a bandwidth do not count; a file is only read for its own GPU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../common/measured.h"

#define DIR "tests/data/results"
#define H200 DIR "/h200.json"

static void test_the_run_with_the_same_overrides_is_the_kernels_own(void **state)
{
    (void)state;
    ws_measured m;
    assert_int_equal(ws_measured_lookup(H200, "transpose_padded", "W=4096 H=4096", &m), 0);
    assert_true(m.exact);
    assert_string_equal(m.overrides, "W=4096 H=4096");
    assert_true(fabs(m.median_us - 77.1) < 1e-9); /* 0.0771 ms */
    assert_int_equal(m.reps, 10);
    assert_true(m.gbs == 1740.8);
    assert_int_equal(m.others, 1); /* the W=8192 run */
    assert_string_equal(m.others_text, "-D W=8192 H=8192");
    assert_string_equal(m.gpu, "NVIDIA H200");
    assert_string_equal(m.device_key, "h200");
    assert_string_equal(m.date, "2026-11-30");
    assert_string_equal(m.file, H200);
}

static void test_without_the_same_overrides_the_first_other_run_is_marked_as_such(void **state)
{
    (void)state;
    ws_measured m;
    assert_int_equal(ws_measured_lookup(H200, "transpose_padded", "W=64 H=64", &m), 0);
    assert_false(m.exact);
    assert_string_equal(m.overrides, "W=8192 H=8192"); /* the first in the file */
    assert_int_equal(m.others, 1);
    assert_string_equal(m.others_text, "-D W=4096 H=4096"); /* named, so the line can say what else ran */
    /* the -D text is compared as recorded: the same sizes in another order are another text */
    assert_int_equal(ws_measured_lookup(H200, "transpose_padded", "H=4096 W=4096", &m), 0);
    assert_false(m.exact);
}

static void test_a_run_without_a_bandwidth_does_not_count(void **state)
{
    (void)state;
    ws_measured m;
    /* copy_float with the defaults failed before it was timed: only the N=4096 run counts */
    assert_int_equal(ws_measured_lookup(H200, "copy_float", "", &m), 0);
    assert_false(m.exact);
    assert_string_equal(m.overrides, "N=4096");
    assert_int_equal(m.others, 0);
    assert_string_equal(m.others_text, ""); /* the untimed defaults run is no measurement to name */
    assert_int_equal(ws_measured_lookup(H200, "copy_float", NULL, &m), 0); /* NULL = the defaults */
    assert_false(m.exact);
}

static void test_missing_kernels_files_and_broken_json_find_nothing(void **state)
{
    (void)state;
    ws_measured m;
    assert_int_equal(ws_measured_lookup(H200, "no_such_kernel", "", &m), -1);
    assert_int_equal(ws_measured_lookup(DIR "/none.json", "copy_float", "", &m), -1);
    assert_int_equal(ws_measured_lookup(DIR "/broken.json", "copy_float", "", &m), -1);
}

static void test_a_device_is_looked_up_in_its_own_file_only(void **state)
{
    (void)state;
    ws_measured m;
    assert_int_equal(ws_measured_find(DIR, "h200", "copy_float", "N=4096", &m), 0);
    assert_true(m.exact);
    assert_int_equal(ws_measured_find(DIR, "h100", "copy_float", "N=4096", &m), -1); /* no h100.json */
    /* t4.json holds a run, but its device is an H200: not a T4 measurement */
    assert_int_equal(ws_measured_find(DIR, "t4", "copy_float", "N=4096", &m), -1);
    /* any GPU: every file in name order (broken.json skipped), h200.json first */
    assert_int_equal(ws_measured_find(DIR, NULL, "copy_float", "N=4096", &m), 0);
    assert_string_equal(m.file, H200);
    assert_int_equal(ws_measured_find("/nonexistent", NULL, "copy_float", "", &m), -1);
}

/* A negative time or bandwidth, or a NaN (written as null), is no measurement: the file holds
 * only such runs of copy_float, so nothing is found in it, and the search of every file still
 * finds h200.json's run although bad_times.json comes first in name order. */
static void test_runs_whose_times_are_not_times_do_not_count(void **state)
{
    (void)state;
    ws_measured m;
    assert_int_equal(ws_measured_lookup(DIR "/bad_times.json", "copy_float", "N=4096", &m), -1);
    assert_int_equal(ws_measured_find(DIR, NULL, "copy_float", "N=4096", &m), 0);
    assert_string_equal(m.file, H200);
    assert_true(m.gbs == 6.4 && fabs(m.median_us - 5.12) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_run_with_the_same_overrides_is_the_kernels_own),
        cmocka_unit_test(test_without_the_same_overrides_the_first_other_run_is_marked_as_such),
        cmocka_unit_test(test_a_run_without_a_bandwidth_does_not_count),
        cmocka_unit_test(test_missing_kernels_files_and_broken_json_find_nothing),
        cmocka_unit_test(test_a_device_is_looked_up_in_its_own_file_only),
        cmocka_unit_test(test_runs_whose_times_are_not_times_do_not_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
