/* test_cuda_ncu.c - reading ncu's CSV on recorded output (tests/data/ncu/):
 * quoted fields, thousands separators, the program's output interleaved,
 * several launches, ncu's own failures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cuda/ncu_csv.h"
#include "../sim/models/metrics.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static double metric(const cu_counters *c, const char *name)
{
    const cu_metric *m = cu_counters_get(c, name);
    if (!m) fail_msg("metric %s missing", name);
    assert_true(m->numeric);
    return m->value;
}

static void test_quoted_fields_keep_commas_and_doubled_quotes(void **state)
{
    (void)state;
    char *f[8], storage[256];
    int n = cu_csv_split("\"void k<float, 4>(int)\",\"say \"\"hi\"\"\",plain,\"4,194,304\"", f, 8, storage, sizeof storage);
    assert_int_equal(n, 4);
    assert_string_equal(f[0], "void k<float, 4>(int)");
    assert_string_equal(f[1], "say \"hi\"");
    assert_string_equal(f[2], "plain");
    assert_string_equal(f[3], "4,194,304");
    assert_int_equal(cu_csv_split("\"open", f, 8, storage, sizeof storage), -1);
    n = cu_csv_split("a,,\"\"", f, 8, storage, sizeof storage);
    assert_int_equal(n, 3);
    assert_string_equal(f[1], "");
    assert_string_equal(f[2], "");
}

static void test_values_lose_thousands_separators_and_reject_words(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(cu_ncu_number("4,194,304", &v), 0);
    assert_true(v == 4194304.0);
    assert_int_equal(cu_ncu_number("1,234.5", &v), 0);
    assert_true(v == 1234.5);
    assert_int_equal(cu_ncu_number(" 70.68 ", &v), 0);
    assert_true(v == 70.68);
    assert_int_equal(cu_ncu_number("2.5e+06", &v), 0);
    assert_true(v == 2.5e6);
    assert_int_equal(cu_ncu_number("-3", &v), 0);
    assert_true(v == -3);
    assert_int_equal(cu_ncu_number("n/a", &v), -1);
    assert_int_equal(cu_ncu_number("", &v), -1);
    assert_int_equal(cu_ncu_number("12 warps", &v), 0); /* stops at the first blank */
    assert_true(v == 12);
}

/* 1024x1024 floats, 32x32 blocks: 1,048,576 threads = 32,768 warps; each warp
 * loads 32 consecutive floats (128 B = 4 sectors) and stores 32 floats a row
 * apart (32 distinct sectors). */
static void test_transpose_run_reads_every_metric_of_the_launch(void **state)
{
    (void)state;
    char *text = slurp("tests/data/ncu/transpose_naive.csv");
    cu_counters c;
    ws_error err;
    assert_int_equal(cu_ncu_parse(text, &c, &err), 0);
    assert_int_equal(c.n, 19);
    assert_int_equal(c.launches, 1);
    assert_string_equal(c.kernel, "transpose_naive");
    double warps = 1024.0 * 1024.0 / 32.0;
    assert_true(metric(&c, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == warps);
    assert_true(metric(&c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == warps * 4);
    assert_true(metric(&c, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == warps * 32);
    assert_true(metric(&c, "sm__warps_active.avg.pct_of_peak_sustained_active") == 87.93);
    /* one 4 MiB input read from DRAM plus a few KB of background traffic */
    double dram = metric(&c, "dram__bytes_read.sum");
    assert_true(dram >= 4194304.0 && dram < 4194304.0 + 131072.0);
    assert_string_equal(cu_counters_get(&c, "dram__bytes_read.sum")->unit, "byte");
    assert_null(cu_counters_get(&c, "dram__bytes_read"));
    free(text);
}

static void test_only_the_first_launch_is_kept_and_odd_rows_are_skipped(void **state)
{
    (void)state;
    char *text = slurp("tests/data/ncu/two_launches_template_name.csv");
    cu_counters c;
    ws_error err;
    assert_int_equal(cu_ncu_parse(text, &c, &err), 0);
    assert_string_equal(c.kernel, "void scale<float, 4>(float *, int)");
    assert_string_equal(c.id, "0");
    assert_int_equal(c.launches, 3);
    assert_int_equal(c.n, 3);
    assert_true(metric(&c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 131072.0);
    assert_true(metric(&c, "sm__warps_active.avg.pct_of_peak_sustained_active") == 1234.5);
    const cu_metric *na = cu_counters_get(&c, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct");
    assert_non_null(na);
    assert_false(na->numeric);
    assert_string_equal(na->raw, "n/a");
    free(text);
}

static void test_permission_error_is_named_plainly(void **state)
{
    (void)state;
    char *text = slurp("tests/data/ncu/permission_denied.csv");
    cu_counters c;
    ws_error err;
    assert_int_equal(cu_ncu_parse(text, &c, &err), -1);
    assert_true(c.permission);
    assert_non_null(strstr(err.msg, "ERR_NVGPUCTRPERM"));
    assert_non_null(strstr(err.msg, "root"));
    free(text);
}

static void test_no_kernel_profiled_and_unknown_metric_are_errors(void **state)
{
    (void)state;
    cu_counters c;
    ws_error err;
    char *text = slurp("tests/data/ncu/no_kernels.csv");
    assert_int_equal(cu_ncu_parse(text, &c, &err), -1);
    assert_true(c.no_kernels);
    assert_non_null(strstr(err.msg, "no kernel"));
    free(text);
    text = slurp("tests/data/ncu/unknown_metric.csv");
    assert_int_equal(cu_ncu_parse(text, &c, &err), -1);
    assert_non_null(strstr(err.msg, "Failed to find metric"));
    free(text);
    assert_int_equal(cu_ncu_parse("", &c, &err), -1);
    assert_non_null(strstr(err.msg, "no CSV"));
}

static void test_metric_filter_matches_base_names_at_line_start(void **state)
{
    (void)state;
    char *q = slurp("tests/data/ncu/query_metrics_excerpt.txt");
    assert_true(cu_ncu_metric_listed(q, "sm__warps_active.avg.pct_of_peak_sustained_active"));
    assert_true(cu_ncu_metric_listed(q, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_true(cu_ncu_metric_listed(q, "dram__bytes_read.sum"));
    assert_true(cu_ncu_metric_listed(q, "gpu__time_duration.sum"));
    /* a prefix of a listed name, or a name only inside a description, is not listed */
    assert_false(cu_ncu_metric_listed(q, "l1tex__t_sectors_pipe_lsu_mem_global.sum"));
    assert_false(cu_ncu_metric_listed(q, "gpu__time_duration_measured_user.sum"));
    /* listed only with a configuration prefix (SM_B.TriageCompute.) */
    assert_false(cu_ncu_metric_listed(q, "l1tex__t_sector_hit_rate.pct"));
    assert_false(cu_ncu_metric_listed(q, "dram__bytes_write.sum"));
    free(q);
}

/* Every Nsight Compute name of the metric table (COLLECT or NAMED: what check may ask for), as ncu
 * prints them: sorted by name, one row each. The reader must keep them all, each with its own value:
 * the H200 corpus run of 2026-12-02 kept the first 64 by name and lost every later
 * smsp__sass_l1tex_* row (LDGSTS requests, sectors and wavefronts). */
#define NCU_NAME_COLLECT(n) n,
#define NCU_NAME_NAMED(n) n,
#define NCU_NAME_OWN(n)
#define NCU_NAME(id, name, unit, basis, judge, slack, ncu, ...) NCU_NAME_##ncu(name)
static const char *const table_ncu_names[] = {WS_METRICS(NCU_NAME)};
#undef NCU_NAME

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static void test_every_ncu_named_row_of_the_table_is_kept(void **state)
{
    (void)state;
    enum { N = sizeof table_ncu_names / sizeof table_ncu_names[0] };
    const char *names[N];
    int n = 0;
    for (int i = 0; i < N; i++) { /* a name in two scopes is printed once by ncu */
        bool dup = false;
        for (int k = 0; k < n && !dup; k++) dup = !strcmp(names[k], table_ncu_names[i]);
        if (!dup) names[n++] = table_ncu_names[i];
    }
    assert_true(n > 64);  /* the old cap, so this test can fail */
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    size_t cap = 512 + (size_t)n * 256, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "\"0\",\"k\",\"%s\",\"\",\"%d\"\n", names[i], 1000 + i);
    cu_counters c;
    ws_error err;
    assert_int_equal(cu_ncu_parse(text, &c, &err), 0);
    assert_int_equal(c.n, n);
    assert_int_equal(c.dropped, 0);
    for (int i = 0; i < n; i++) assert_true(metric(&c, names[i]) == 1000 + i);
    free(text);
}

/* More rows than the cap: the first CU_MAX_METRICS are kept and the rest counted, not lost unseen. */
static void test_rows_beyond_the_cap_are_counted(void **state)
{
    (void)state;
    size_t cap = 512 + (CU_MAX_METRICS + 3) * 128, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "\"ID\",\"Metric Name\",\"Metric Value\"\n");
    for (int i = 0; i < CU_MAX_METRICS + 3; i++)
        len += (size_t)snprintf(text + len, cap - len, "\"0\",\"m%03d.sum\",\"%d\"\n", i, i);
    cu_counters c;
    ws_error err;
    assert_int_equal(cu_ncu_parse(text, &c, &err), 0);
    assert_int_equal(c.n, CU_MAX_METRICS);
    assert_int_equal(c.dropped, 3);
    assert_true(metric(&c, "m000.sum") == 0);
    assert_null(cu_counters_get(&c, "m130.sum"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields_keep_commas_and_doubled_quotes),
        cmocka_unit_test(test_values_lose_thousands_separators_and_reject_words),
        cmocka_unit_test(test_transpose_run_reads_every_metric_of_the_launch),
        cmocka_unit_test(test_every_ncu_named_row_of_the_table_is_kept),
        cmocka_unit_test(test_rows_beyond_the_cap_are_counted),
        cmocka_unit_test(test_only_the_first_launch_is_kept_and_odd_rows_are_skipped),
        cmocka_unit_test(test_permission_error_is_named_plainly),
        cmocka_unit_test(test_no_kernel_profiled_and_unknown_metric_are_errors),
        cmocka_unit_test(test_metric_filter_matches_base_names_at_line_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
