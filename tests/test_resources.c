/* test_resources.c - the ptxas resource report beside a .cu: the entry's own line is
 * read (comments and other entries skipped), and without a report the estimate uses
 * the PTX's own shared and local sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/frontend/ptx.h"
#include "../common/files.h"
#include "../sim/frontend/resources.h"

static void test_padded_tile_report_gives_32_rows_of_33_floats_of_shared_memory(void **state)
{
    (void)state;
    ws_resources r;
    memset(&r, 0, sizeof r);
    /* transpose_padded declares float tile[32][33]: 32 x 33 x 4 = 4224 bytes */
    assert_int_equal(ws_resources_read("demos/transpose.cu", "_Z16transpose_paddedPfS_ii", &r), 0);
    assert_int_equal(r.static_smem, 32 * 33 * 4);
    assert_true(r.regs > 0 && r.regs <= 255);
    assert_true(r.from_ptxas);
    assert_string_equal(r.source, "ptxas, demos/transpose.resources");
}

static void test_comments_and_other_entries_are_skipped(void **state)
{
    (void)state;
    char dir[] = "/tmp/ws_test_resources_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cu[64], res[64];
    snprintf(cu, sizeof cu, "%s/k.cu", dir);
    snprintf(res, sizeof res, "%s/k.resources", dir);
    FILE *f = fopen(res, "w");
    assert_non_null(f);
    fputs("# k regs=99 shared=1 local=1\n"
          "kk regs=7 shared=8 local=9\n"
          "k regs=40 shared=2048 local=16 spill_st=0 spill_ld=0\n",
          f);
    fclose(f);
    ws_resources r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ws_resources_read(cu, "k", &r), 0);
    assert_int_equal(r.regs, 40);
    assert_int_equal(r.static_smem, 2048);
    assert_int_equal(r.local_bytes, 16);
    assert_int_equal(ws_resources_read(cu, "absent", &r), -1);
    assert_int_equal(r.regs, 40); /* untouched on a miss */
    unlink(res);
    rmdir(dir);
}

static void test_without_a_report_the_estimate_takes_the_ptx_sizes(void **state)
{
    (void)state;
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.name = "k";
    fn.static_shared_bytes = 4096;
    fn.local_bytes = 64;
    ws_resources r;
    ws_resources_of("/nonexistent/k.cu", &fn, NULL, NULL, &r);
    assert_false(r.from_ptxas);
    assert_int_equal(r.regs, WS_ESTIMATED_REGS);
    assert_int_equal(r.static_smem, 4096);
    assert_int_equal(r.local_bytes, 64);
    assert_non_null(strstr(r.source, "estimate"));
    ws_resources_of("not-a-cu-file.txt", &fn, NULL, NULL, &r); /* a path without .cu has no report */
    assert_false(r.from_ptxas);
}

/* Where a toolkit is installed, ptxas run now must report what `make ptx` recorded for the
 * same PTX in demos/transpose.resources; where none is, the call must say so (-1). */
static void test_ptxas_run_now_agrees_with_the_recorded_report(void **state)
{
    (void)state;
    char *ptx = ws_read_file("demos/transpose.ptx", 0, NULL, NULL);
    assert_non_null(ptx);
    ws_resources recorded, now;
    memset(&now, 0, sizeof now);
    assert_int_equal(ws_resources_read("demos/transpose.cu", "_Z16transpose_paddedPfS_ii", &recorded), 0);
    int rc = ws_resources_ptxas(ptx, "sm_90", "_Z16transpose_paddedPfS_ii", NULL, &now);
    if (rc == 0) {
        assert_true(now.from_ptxas);
        assert_int_equal(now.regs, recorded.regs);
        assert_int_equal(now.static_smem, 32 * 33 * 4); /* float tile[32][33] */
        assert_int_equal(now.local_bytes, 0);
        assert_non_null(strstr(now.source, "run now"));
    } else { /* only acceptable where no toolkit is installed */
        print_message("no ptxas found: checking that none is installed\n");
        assert_int_not_equal(access("/usr/local/cuda/bin/ptxas", X_OK), 0);
    }
    assert_int_equal(ws_resources_ptxas(ptx, "sm_90", "no_such_entry", NULL, &now), -1);
    assert_int_equal(ws_resources_ptxas(ptx, "sm_90; rm -rf /", "_Z16transpose_paddedPfS_ii", NULL, &now), -1);
    free(ptx);
}

int main(void)
{
    setenv("WARPSCOPE_CACHE", "off", 1);  /* tools run now, not products an earlier run kept */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_padded_tile_report_gives_32_rows_of_33_floats_of_shared_memory),
        cmocka_unit_test(test_comments_and_other_entries_are_skipped),
        cmocka_unit_test(test_without_a_report_the_estimate_takes_the_ptx_sizes),
        cmocka_unit_test(test_ptxas_run_now_agrees_with_the_recorded_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
