/* test_check_validate.c - `check --validate`: the error statistics on values whose median and
 * 90th percentile are worked out by hand, and the report over a small results file written
 * here, whose counts per class follow from first principles (copy_float at its default
 * N = 2^20 floats: 2^20 x 4 B / 32 B = 131,072 load sectors and as many store sectors). */
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

#include "../common/commands.h"
#include "../cuda/check_explain.h"
#include "../cuda/check_others.h"
#include "../cuda/check_validate.h"

static void test_median_and_p90_are_the_middle_and_the_nearest_rank(void **state)
{
    (void)state;
    const double even[] = {0.5, 0.1, 0.3, 0.2};      /* sorted 0.1 0.2 0.3 0.5 */
    const bool w4[] = {false, true, false, true};
    chk_err_stats s;
    chk_err_stats_of(even, w4, 4, &s);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.within, 2);
    assert_true(fabs(s.median - 0.25) < 1e-12);       /* (0.2 + 0.3) / 2 */
    assert_true(s.p90 == 0.5);                        /* rank ceil(3.6) = 4 */
    const double odd[] = {0.4, 0.1, 0.3, 0.2, 0.9};  /* sorted 0.1 0.2 0.3 0.4 0.9 */
    const bool w5[] = {true, true, true, true, false};
    chk_err_stats_of(odd, w5, 5, &s);
    assert_true(s.median == 0.3);
    assert_true(s.p90 == 0.9);                        /* rank ceil(4.5) = 5 */
    assert_int_equal(s.within, 4);
    chk_err_stats_of(NULL, NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.median));
}

static void test_a_rows_error_is_relative_and_a_percentages_in_points(void **state)
{
    (void)state;
    chk_row r;
    chk_row_set(&r, "dram__bytes_read.sum", true, 110, true, 100);
    assert_true(fabs(chk_row_error(&r) - 0.1) < 1e-12);
    chk_row_set(&r, "l1tex__t_sector_hit_rate.pct", true, 30, true, 20);
    assert_true(fabs(chk_row_error(&r) - 0.1) < 1e-12); /* 10 points of 100 */
    chk_row_set(&r, "dram__bytes_write.sum", true, 0, true, 0);
    assert_true(chk_row_error(&r) == 0);
    chk_row_set(&r, "dram__bytes_write.sum", true, 5, true, 0);
    assert_true(isinf(chk_row_error(&r)));
}

/* Two runs: copy_float with four counters (two exact: loads equal, stores one off; two cache:
 * L2 read sectors equal, DRAM reads recorded at twice the 4 MiB the kernel reads), and a
 * GPU-only run of it (no counters: its time alone). By hand: exact 2 judged, 1 within; cache
 * 2 judged, 1 within; one time row, under one bound. */
static void test_the_report_counts_a_small_results_file_by_class(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_validate_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": ["
               "{\"kernel\": \"copy_float\", \"overrides\": \"\", \"sim_basis\": \"ptx\", \"registers\": 10,"
               " \"time\": {\"median_ms\": 0.0074}, \"counters\": ["
               "{\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"sim\": 131072, \"gpu\": 131072},"
               "{\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\", \"sim\": 131072, \"gpu\": 131073},"
               "{\"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\", \"sim\": 131072, \"gpu\": 131072},"
               "{\"metric\": \"dram__bytes_read.sum\", \"sim\": 4194304, \"gpu\": 8388608}]},"
               "{\"kernel\": \"copy_float\", \"overrides\": \"N=8192\", \"registers\": 10,"
               " \"time\": {\"median_ms\": 0.005}}]}\n");
    fclose(f);
    char others[] = "/tmp/ws_test_validate_others_XXXXXX.csv";
    fd = mkstemps(others, 4);
    assert_true(fd >= 0);
    FILE *fo = fdopen(fd, "w");
    assert_non_null(fo);
    fputs("\"corpus kernel\",\"ID\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"not_recorded\",\"0\",\"dram__bytes_read.sum\",\"byte\",\"8,388,608\"\n", fo);
    fclose(fo);
    ws_error err;
    assert_int_equal(chk_others_load(others, &err), 1);
    assert_string_equal(chk_others_file(0), others);
    assert_null(chk_others_file(1));
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    const char *files[] = {path};
    int rc = chk_validate(files, 1, NULL, out, &err);
    fclose(out);
    chk_others_clear();
    unlink(others);
    if (rc) fail_msg("validate: %s", err.msg);
    if (!strstr(buf, "| NVIDIA H200 | 2 | 1 |")) fail_msg("runs line missing:\n%s", buf);
    /* the command that made it is the whole command, the other runs' CSV too (it was loaded first) */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "`warpscope check --validate %s %s`", path, others);
    if (!strstr(buf, cmd)) fail_msg("'%s' missing:\n%s", cmd, buf);
    if (!strstr(buf, "| exact | equal | 2 | 1 (50%) |")) fail_msg("exact line missing:\n%s", buf);
    if (!strstr(buf, "| cache | within 10% | 2 | 1 (50%) |")) fail_msg("cache line missing:\n%s", buf);
    /* the one time row sits under exactly one bound */
    int timed = 0;
    for (int b = 0; b < CHK_VALIDATE_NBOUNDS; b++) {
        char line[64];
        snprintf(line, sizeof line, "| %s | 1 |", chk_validate_bounds[b]);
        timed += strstr(buf, line) != NULL;
    }
    assert_int_equal(timed, 1);
    /* the differing rows appear among the worst with a cause, none the bare word */
    assert_non_null(strstr(buf, "`l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum` | 131072 | 131073 |"));
    assert_non_null(strstr(buf, CHK_UNEXPLAINED));
    assert_null(strstr(buf, "| unexplained |\n")); /* never the bare word as a cause */
    free(buf);
    unlink(path);
}

/* A run recorded on its time alone (check --gpu-only) of a kernel the simulator refuses (it reads
 * past a buffer, tests/data/memcheck/mixed.cu) is listed as not simulated, with the simulator's
 * reason, and the report is still made from the other run. */
static void test_a_time_only_run_the_simulator_refuses_is_listed_with_its_reason(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_validate_refused_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": ["
               "{\"kernel\": \"copy_float\", \"overrides\": \"N=8192\", \"registers\": 10,"
               " \"time\": {\"median_ms\": 0.005}},"
               "{\"kernel\": \"mixed_memory_errors\", \"file\": \"tests/data/memcheck/mixed.cu\", \"overrides\": \"\","
               " \"registers\": 10, \"time\": {\"median_ms\": 0.004}}]}\n");
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    ws_error err;
    const char *files[] = {path};
    int rc = chk_validate(files, 1, NULL, out, &err);
    fclose(out);
    unlink(path);
    if (rc) fail_msg("validate: %s", err.msg);
    if (!strstr(buf, "| NVIDIA H200 | 1 | 1 |")) fail_msg("the one simulated run missing:\n%s", buf);
    const char *row = strstr(buf, "| mixed_memory_errors |");
    if (!row || !strstr(row, "the simulator refuses it:")) fail_msg("the refused run not listed:\n%s", buf);
    free(buf);
}

/* Two runs recorded with check --no-sim (the GPU's counters, "sim" null, "no_sim": true), replayed
 * sampled. copy_float at N = 2^24 floats: 2^24 x 4 / 32 = 2,097,152 L2 read and as many write
 * sectors, 64 MiB read from DRAM (no reuse); copy_32x32 at 4096 x 4096: 2,097,152 L2 read sectors
 * and 524,288 load requests (a warp's row of 32 floats is one), an exact row whose sample is an
 * estimate (edge kinds from one block each). By hand: 3 L2-sector rows and 1 DRAM row in the goals,
 * all within; 2 time rows; the header counts 2 runs, 0 time only, 2 --no-sim; the one estimate
 * is said under it. */
static void test_no_sim_runs_count_their_counters_in_the_goals(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_validate_nosim_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": ["
               "{\"kernel\": \"copy_float\", \"overrides\": \"N=16777216\", \"no_sim\": true, \"registers\": 10,"
               " \"output_ok\": null, \"time\": {\"median_ms\": 0.0509}, \"counters\": ["
               "{\"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\", \"sim\": null, \"gpu\": 2097152},"
               "{\"metric\": \"lts__t_sectors_srcunit_tex_op_write.sum\", \"sim\": null, \"gpu\": 2097152},"
               "{\"metric\": \"dram__bytes_read.sum\", \"sim\": null, \"gpu\": 67108864},"
               "{\"metric\": \"gpu__time_duration.sum\", \"sim\": null, \"gpu\": 50900}]},"
               "{\"kernel\": \"copy_32x32\", \"overrides\": \"W=4096 H=4096\", \"no_sim\": true, \"registers\": 10,"
               " \"output_ok\": null, \"time\": {\"median_ms\": 0.06}, \"counters\": ["
               "{\"metric\": \"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\", \"sim\": null, \"gpu\": 524288},"
               "{\"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\", \"sim\": null, \"gpu\": 2097152},"
               "{\"metric\": \"gpu__time_duration.sum\", \"sim\": null, \"gpu\": 60000}]}]}\n");
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    ws_error err;
    const char *files[] = {path};
    int rc = chk_validate(files, 1, NULL, out, &err);
    fclose(out);
    unlink(path);
    if (rc) fail_msg("validate: %s", err.msg);
    const char *want[] = {"| of them time only | of them --no-sim | sampled | not simulated |",
                          "| NVIDIA H200 | 2 | 0 | 2 | 2 | 0 |",
                          "| L2 sectors within 5%: catalog | 3 | 3 |",
                          "| DRAM bytes within 10%: catalog | 1 | 1 |",
                          "| time within 20%: catalog at realistic sizes | 2 |",
                          "states its exact counters estimated (sim/sample.h): 1, judged within the cache tolerance"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(buf, want[i])) fail_msg("'%s' missing:\n%s", want[i], buf);
    free(buf);
}

#ifdef WS_HAVE_SDL
/* The plot is a PNG file: its eight signature bytes. */
static void test_the_time_plot_is_written_as_png(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_validate_XXXXXX", png[64];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(png, sizeof png, "%s.png", path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [{\"kernel\": \"copy_float\", \"overrides\": "
               "\"N=8192\", \"registers\": 10, \"time\": {\"median_ms\": 0.005}}]}\n");
    fclose(f);
    FILE *devnull = fopen("/dev/null", "w");
    ws_error err;
    const char *files[] = {path};
    int rc = chk_validate(files, 1, png, devnull, &err);
    fclose(devnull);
    if (rc) fail_msg("validate: %s", err.msg);
    unsigned char sig[8] = {0};
    FILE *p = fopen(png, "rb");
    assert_non_null(p);
    assert_int_equal(fread(sig, 1, 8, p), 8);
    fclose(p);
    assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
    unlink(png);
    unlink(path);
}
#else
/* Without the visualizer a plot is refused, named, before anything is replayed. */
static void test_the_time_plot_is_refused_without_the_visualizer(void **state)
{
    (void)state;
    ws_error err;
    const char *files[] = {"results/h200.json"};
    FILE *devnull = fopen("/dev/null", "w");
    assert_int_equal(chk_validate(files, 1, "/tmp/ws_test_validate.png", devnull, &err), WS_EXIT_USAGE);
    fclose(devnull);
    assert_non_null(strstr(err.msg, "no visualizer"));
}
#endif

int main(void)
{
    setenv("WARPSCOPE_SASS", "off", 1); /* PTX-level on every machine, as the replay tests */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_and_p90_are_the_middle_and_the_nearest_rank),
        cmocka_unit_test(test_a_rows_error_is_relative_and_a_percentages_in_points),
        cmocka_unit_test(test_the_report_counts_a_small_results_file_by_class),
        cmocka_unit_test(test_a_time_only_run_the_simulator_refuses_is_listed_with_its_reason),
        cmocka_unit_test(test_no_sim_runs_count_their_counters_in_the_goals),
#ifdef WS_HAVE_SDL
        cmocka_unit_test(test_the_time_plot_is_written_as_png),
#else
        cmocka_unit_test(test_the_time_plot_is_refused_without_the_visualizer),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
