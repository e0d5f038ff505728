/* test_csv.c - the RFC 4180 writer (common/csv.c) and the long-format CSV of `sim`,
 * `sim --compare` and `check --replay`, read back by Python's csv module (tests/csv_table.py)
 * into one table with the documented columns (docs/csv.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/commands.h"
#include "../common/csv.h"
#include "../common/ws_error.h"
#include "../cuda/check_replay.h"
#include "../sim/models/metrics.h"

static char *row_text(int n, const char *const *fields)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    ws_csv_row(f, n, fields);
    fclose(f);
    return buf;
}

static void test_plain_fields_are_written_as_they_are(void **state)
{
    (void)state;
    const char *f[] = {"copy_float", "N=4096", "", NULL, "1.5"};
    char *s = row_text(5, f);
    assert_string_equal(s, "copy_float,N=4096,,,1.5\n");
    free(s);
}

static void test_commas_quotes_and_newlines_are_quoted_with_quotes_doubled(void **state)
{
    (void)state;
    /* RFC 4180 2.6/2.7: a field with , " or a line break is enclosed, and an inner " becomes "" */
    const char *f[] = {"a,b", "say \"hi\"", "two\nlines", "cr\r"};
    char *s = row_text(4, f);
    assert_string_equal(s, "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
    free(s);
}

static void test_units_come_from_the_metric_table(void **state)
{
    (void)state;
    /* what each counts, from its definition: a 32-byte sector, a request, a bank conflict */
    assert_string_equal(ws_metric_unit("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), "sector");
    assert_string_equal(ws_metric_unit("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), "request");
    assert_string_equal(ws_metric_unit("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), "conflict");
    assert_string_equal(ws_metric_unit("ws__predicted_time_us"), "us");
    assert_string_equal(ws_metric_unit("gpu__time_duration.sum"), "us"); /* ncu's ns, printed in us */
    assert_string_equal(ws_metric_unit("ws__effective_bandwidth_gbs"), "GB/s");
    assert_string_equal(ws_metric_unit("ws__occupancy_theoretical_pct"), "%");
    assert_string_equal(ws_metric_unit("sectors_ideal"), "sector");
    /* a name without a row has no unit, whatever its spelling suggests */
    assert_string_equal(ws_metric_unit("x_sectors_us"), "");
}

/* Every record of a long-format CSV text names a metric of the table and carries its unit
 * (no field of these documents needs quoting: kernel names, -D text, metric names, numbers). */
static void assert_units_are_the_tables(const char *text)
{
    int records = 0;
    for (const char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        const char *f[10];
        size_t len[10];
        int k = 0;
        for (const char *q = p + 1; k < 10; q++) { /* kernel,variant,scope,line,metric,unit,value,basis,verdict,cause */
            f[k] = q;
            len[k] = strcspn(q, ",\n");
            q += len[k++];
            if (*q != ',') break;
        }
        assert_int_equal(k, 10);
        char metric[160], unit[16];
        snprintf(metric, sizeof metric, "%.*s", (int)len[4], f[4]);
        snprintf(unit, sizeof unit, "%.*s", (int)len[5], f[5]);
        const ws_metric_info *m = ws_metric_find(metric);
        if (!m) fail_msg("CSV metric %s has no row in the table", metric);
        assert_string_equal(unit, ws_unit_name(m->unit));
        records++;
    }
    assert_true(records > 10);
}

/* Runs `warpscope sim` with argv into the file path (stdout redirected). */
static int sim_to(const char *path, int argc, char **argv)
{
    fflush(stdout);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int saved = dup(1);
    dup2(fileno(f), 1);
    int rc = ws_cmd_sim(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(f);
    return rc;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_sim_compare_and_replay_csv_parse_into_one_table(void **state)
{
    (void)state;
    char dir[] = "/tmp/ws_test_csv_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[64], b[64], c[64], cmd[512];
    snprintf(a, sizeof a, "%s/sim.csv", dir);
    snprintf(b, sizeof b, "%s/compare.csv", dir);
    snprintf(c, sizeof c, "%s/replay.csv", dir);

    char *sim[] = {"sim", "copy_float", "-D", "N=4096", "--csv", NULL};
    assert_int_equal(sim_to(a, 5, sim), WS_EXIT_OK);
    /* copy_float's one line loads and stores: 4096 threads = 128 warps, 2 instructions each, as
     * one summed record per metric; 2 x 4096 x 4 B = 32768 B = 1024 sectors of 32 B */
    const char *t = slurp(a);
    assert_non_null(strstr(t, ",N=4096,line,37,warp_instructions,inst,256,exact,,\n"));
    assert_non_null(strstr(t, ",N=4096,line,37,sectors,sector,1024,exact,,\n"));
    /* and, the line holding both, its loads and its stores apart: one request of 4 sectors per
     * warp each way, 128 requests and 16384 B = 512 sectors per side */
    assert_non_null(strstr(t, ",N=4096,line,37,ld_requests,request,128,exact,,\n"));
    assert_non_null(strstr(t, ",N=4096,line,37,ld_sectors,sector,512,exact,,\n"));
    assert_non_null(strstr(t, ",N=4096,line,37,st_requests,request,128,exact,,\n"));
    assert_non_null(strstr(t, ",N=4096,line,37,st_sectors,sector,512,exact,,\n"));
    assert_units_are_the_tables(t);
    /* matmul_naive loads on one line and stores on another: no line is split */
    char *mm[] = {"sim", "matmul_naive", "-D", "M=32", "-D", "N=32", "-D", "K=32", "--csv", NULL};
    assert_int_equal(sim_to(a, 9, mm), WS_EXIT_OK);
    t = slurp(a);
    assert_non_null(strstr(t, ",line,"));
    assert_null(strstr(t, ",ld_"));
    assert_null(strstr(t, ",st_"));
    assert_int_equal(sim_to(a, 5, sim), WS_EXIT_OK);   /* sim.csv joins the table below */

    char *cmp[] = {"sim", "--compare", "shared_stride_s1", "shared_stride_s32", "-D", "N=1024", "--csv", NULL};
    assert_int_equal(sim_to(b, 7, cmp), WS_EXIT_OK);
    t = slurp(b);
    assert_non_null(strstr(t, "\nshared_stride_s1,A,kernel,"));
    assert_non_null(strstr(t, "\nshared_stride_s32,B,kernel,"));
    assert_units_are_the_tables(t);

    FILE *f = fopen(c, "w");
    assert_non_null(f);
    ws_error err;
    const char *k[] = {"copy_float"};
    int rc = chk_replay_as("results/h200.json", k, 1, false, WS_FMT_CSV, f, &err);
    fclose(f);
    assert_true(rc == WS_EXIT_OK || rc == WS_EXIT_MISMATCH);
    t = slurp(c);
    /* copy_float's exact global sectors agree with the H200's (4 per request, as recorded) */
    assert_non_null(strstr(t, ",l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,"));
    assert_non_null(strstr(t, ",measured,agree,\n"));
    assert_null(strstr(t, "| kernel |")); /* no markdown in the CSV */
    assert_units_are_the_tables(t);

    snprintf(cmd, sizeof cmd, "python3 tests/csv_table.py %s %s %s", a, b, c);
    assert_int_equal(system(cmd), 0);
    /* and the checker fails: a header twice is not one table */
    snprintf(cmd, sizeof cmd, "cat %s %s > %s/twice.csv && ! python3 tests/csv_table.py %s/twice.csv 2>/dev/null", a, a,
             dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_fields_are_written_as_they_are),
        cmocka_unit_test(test_commas_quotes_and_newlines_are_quoted_with_quotes_doubled),
        cmocka_unit_test(test_units_come_from_the_metric_table),
        cmocka_unit_test(test_sim_compare_and_replay_csv_parse_into_one_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
