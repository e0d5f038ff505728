/* test_check_goals.c - cuda/check_goals.c: the goals' arithmetic on rows whose shares and
 * medians are worked out by hand (3 of 4 within 20% is 75%, short of 90%), which metrics count
 * as L2 sectors and DRAM bytes, and the goals table of `check --validate` over a small results
 * file written here: copy_float at its default N = 2^20 floats reads 2^20 x 4 B / 32 B = 131,072
 * sectors from L2, so GPU values of 1.00, 1.01, 1.03 and 1.30 times that are 3 of 4 within 5%. */
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
#include "../cuda/check_goals.h"
#include "../cuda/check_validate.h"

/* A goal row without other runs. */
#define R(set_, tensor_, metric_, cls_, err_) \
    ((chk_goal_row){.set = (set_), .tensor = (tensor_), .metric = (metric_), .cls = (cls_), .err = (err_)})

static const chk_goal *find(const chk_goal *g, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(g[i].name, name)) return &g[i];
    fail_msg("no goal '%s'", name);
    return NULL;
}

static void test_three_of_four_times_within_20_percent_is_75_percent_and_not_met(void **state)
{
    (void)state;
    const char *t = "gpu__time_duration.sum";
    chk_goal_row rows[] = {
        R(CHK_SET_REALISTIC, false, t, CHK_TIME, 0.05), R(CHK_SET_REALISTIC, false, t, CHK_TIME, 0.10),
        R(CHK_SET_REALISTIC, false, t, CHK_TIME, 0.19), R(CHK_SET_REALISTIC, false, t, CHK_TIME, 0.50),
        /* default sizes: 2 of 2 within, median (0.02 + 0.04) / 2 = 3% */
        R(CHK_SET_DEFAULT, false, t, CHK_TIME, 0.02), R(CHK_SET_DEFAULT, false, t, CHK_TIME, 0.04),
        /* a corpus kernel, of the tensor family: outside 20% */
        R(CHK_SET_CORPUS, true, t, CHK_TIME, 0.30),
    };
    chk_goal g[CHK_GOALS_MAX];
    int n = chk_goals_of(rows, 7, g);
    const chk_goal *r = find(g, n, "time within 20%: catalog at realistic sizes");
    assert_int_equal(r->n, 4);
    assert_int_equal(r->within, 3);
    assert_true(fabs(r->median - 0.145) < 1e-12); /* (0.10 + 0.19) / 2 */
    assert_false(r->met);                          /* 75% < 90% */
    const chk_goal *d = find(g, n, "time within 20%: catalog at default sizes");
    assert_int_equal(d->n, 2);
    assert_int_equal(d->within, 2);
    assert_true(fabs(d->median - 0.03) < 1e-12);
    assert_true(d->met);
    const chk_goal *all = find(g, n, "time within 20%: all together");
    assert_int_equal(all->n, 7);
    assert_int_equal(all->within, 5);
    assert_true(all->median == 0.10); /* sorted .02 .04 .05 .10 .19 .30 .50 */
    const chk_goal *tc = find(g, n, "tensor-core family time within 20%");
    assert_int_equal(tc->n, 1);
    assert_int_equal(tc->within, 0);
    const chk_goal *l2 = find(g, n, "L2 sectors within 5%: together");
    assert_int_equal(l2->n, 0);
    assert_false(l2->met); /* no rows: nothing shown */
}

static void test_nine_of_ten_meets_90_percent_but_a_median_above_10_percent_does_not(void **state)
{
    (void)state;
    chk_goal_row rows[10];
    for (int i = 0; i < 10; i++)
        rows[i] = R(CHK_SET_DEFAULT, false, "gpu__time_duration.sum", CHK_TIME, i < 9 ? 0.05 : 0.9);
    chk_goal g[CHK_GOALS_MAX];
    int n = chk_goals_of(rows, 10, g);
    assert_true(find(g, n, "time within 20%: catalog at default sizes")->met);
    for (int i = 0; i < 10; i++) rows[i].err = i < 9 ? 0.15 : 0.9; /* 9 of 10 within, median 15% */
    n = chk_goals_of(rows, 10, g);
    const chk_goal *d = find(g, n, "time within 20%: catalog at default sizes");
    assert_int_equal(d->within, 9);
    assert_false(d->met);
}

static void test_l2_sectors_are_the_lts_t_sectors_counts_and_dram_bytes_the_two_byte_counts(void **state)
{
    (void)state;
    assert_true(chk_goal_is_l2_sectors("lts__t_sectors_srcunit_tex_op_read.sum"));
    assert_true(chk_goal_is_l2_sectors("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"));
    assert_true(chk_goal_is_l2_sectors("lts__t_sectors_op_red.sum"));
    assert_false(chk_goal_is_l2_sectors("lts__t_requests_srcunit_tex_op_read.sum"));
    assert_false(chk_goal_is_l2_sectors("lts__t_sector_hit_rate.pct"));
    assert_false(chk_goal_is_l2_sectors("lts__t_sectors.avg.pct_of_peak_sustained_elapsed"));
    assert_true(chk_goal_is_dram_bytes("dram__bytes_read.sum"));
    assert_true(chk_goal_is_dram_bytes("dram__bytes_write.sum"));
    assert_false(chk_goal_is_dram_bytes("dram__sectors_read.sum"));
    /* a timing-dependent row is in no goal */
    chk_goal_row r = R(CHK_SET_DEFAULT, false, "lts__t_sectors_op_atom.sum", CHK_TIMING_DEP, 0);
    chk_goal g[CHK_GOALS_MAX];
    int n = chk_goals_of(&r, 1, g);
    assert_int_equal(find(g, n, "L2 sectors within 5%: catalog")->n, 0);
}

/* The GPU against itself: a row recorded at 8,192 sectors whose other runs read 8,192, 8,400
 * (2.5% off) and 16,384 has 2 of 3 runs within 5% and is not steady; one recorded at 100 with
 * runs 100 and 104 is; a row without other runs is not counted; a time row never is. */
static void test_the_gpu_against_itself_counts_other_runs_within_the_goals_tolerance(void **state)
{
    (void)state;
    const char *rd = "lts__t_sectors_srcunit_tex_op_read.sum";
    chk_goal_row rows[4] = {
        {.set = CHK_SET_CORPUS, .tensor = true, .metric = rd, .cls = CHK_CACHE, .err = 0.00, .gpu = 8192, .nothers = 3, .others = {8192, 8400, 16384}},
        {.set = CHK_SET_CORPUS, .tensor = true, .metric = rd, .cls = CHK_CACHE, .err = 0.20, .gpu = 100, .nothers = 2, .others = {100, 104}},
        {.set = CHK_SET_CORPUS, .tensor = true, .metric = rd, .cls = CHK_CACHE, .err = 0.50, .gpu = 100},
        {.set = CHK_SET_CORPUS, .tensor = true, .metric = "gpu__time_duration.sum", .cls = CHK_TIME, .err = 0.01, .gpu = 10, .nothers = 1, .others = {30}},
    };
    chk_self_goal g[CHK_GOALS_MAX];
    int n = chk_goals_self(rows, 4, g);
    const chk_self_goal *c = NULL;
    for (int i = 0; i < n; i++) {
        assert_null(strstr(g[i].name, "time"));
        if (!strcmp(g[i].name, "L2 sectors within 5%: real-kernel corpus")) c = &g[i];
    }
    assert_non_null(c);
    assert_int_equal(c->rows, 2);
    assert_int_equal(c->runs, 5);
    assert_int_equal(c->runs_within, 4); /* 8192, 8400, 100, 104 */
    assert_int_equal(c->rows_steady, 1);
    assert_int_equal(c->model_within, 1); /* errors 0 and 0.20 */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    chk_goals_self_markdown(out, g, n);
    fclose(out);
    if (!strstr(buf, "| L2 sectors within 5%: real-kernel corpus | 2 | 5 | 4 (80%) | 1 (50%) | 1 (50%) |"))
        fail_msg("table:\n%s", buf);
    free(buf);
}

/* A median of 10.04% against a 10% bound is shown as 10.04%, not as a 10.0% that reads as met. */
static void test_a_median_just_over_its_bound_is_shown_with_two_decimals(void **state)
{
    (void)state;
    chk_goal_row rows[2] = {R(CHK_SET_CORPUS, true, "gpu__time_duration.sum", CHK_TIME, 0.1000),
                            R(CHK_SET_CORPUS, true, "gpu__time_duration.sum", CHK_TIME, 0.1008)};
    chk_goal g[CHK_GOALS_MAX];
    int n = chk_goals_of(rows, 2, g);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    chk_goals_markdown(out, g, n);
    fclose(out);
    if (!strstr(buf, "| time within 20%: real-kernel corpus | 2 | 2 | 100% | 10.04% |")) fail_msg("table:\n%s", buf);
    free(buf);
}

/* Four copy_float runs at default size, L2 read sectors recorded at 1.00, 1.01, 1.03, 1.30 x
 * 131,072 (3 of 4 within 5%); the goals table counts them under the catalog. */
static void test_the_report_opens_with_the_goals_counted_from_the_replayed_rows(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_goals_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    const double x[] = {1.00, 1.01, 1.03, 1.30};
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [");
    for (int i = 0; i < 4; i++)
        fprintf(f, "%s{\"kernel\": \"copy_float\", \"overrides\": \"\", \"sim_basis\": \"ptx\", \"registers\": 10, "
                   "\"counters\": [{\"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\", \"sim\": 131072, "
                   "\"gpu\": %.0f}]}", i ? "," : "", 131072 * x[i]);
    fprintf(f, "]}\n");
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    ws_error err;
    const char *files[] = {path};
    int rc = chk_validate(files, 1, NULL, out, &err);
    fclose(out);
    if (rc) fail_msg("validate: %s", err.msg);
    const char *goals = strstr(buf, "## Goals"), *per_class = strstr(buf, "## Per counter class");
    assert_non_null(goals);
    assert_true(per_class && goals < per_class); /* at the top */
    if (!strstr(buf, "| L2 sectors within 5%: catalog | 4 | 3 | 75% |")) fail_msg("L2 goal missing:\n%s", buf);
    if (!strstr(buf, "| L2 sectors within 5%: real-kernel corpus | 0 | 0 | - |")) fail_msg("corpus goal:\n%s", buf);
    assert_non_null(strstr(buf, ">= 95% | not met |"));
    free(buf);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_of_four_times_within_20_percent_is_75_percent_and_not_met),
        cmocka_unit_test(test_nine_of_ten_meets_90_percent_but_a_median_above_10_percent_does_not),
        cmocka_unit_test(test_l2_sectors_are_the_lts_t_sectors_counts_and_dram_bytes_the_two_byte_counts),
        cmocka_unit_test(test_the_report_opens_with_the_goals_counted_from_the_replayed_rows),
        cmocka_unit_test(test_the_gpu_against_itself_counts_other_runs_within_the_goals_tolerance),
        cmocka_unit_test(test_a_median_just_over_its_bound_is_shown_with_two_decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
