/* test_metrics.c - the metric table (sim/models/metrics.h): every row has a name, a unit from the
 * documented set, a basis and a judgement that fit each other; ncu's collect list is exactly
 * the rows marked COLLECT; lookups by name find the rows and nothing else. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../cuda/check_compare.h"
#include "../cuda/cu_counters.h"
#include "../sim/models/metrics.h"

static void test_every_row_has_a_name_a_unit_a_basis_and_a_judgement(void **state)
{
    (void)state;
    /* docs/csv.md: the unit column is one of these, "" for a plain count */
    static const char *documented[] = {"sector", "request", "wavefront", "conflict", "inst", "byte", "us", "GB/s", "%", ""};
    assert_true(WS_METRIC_COUNT > 90);
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        const ws_metric_info *m = &ws_metric_table[i];
        assert_int_equal(m->id, i);                       /* every id has its row */
        assert_non_null(m->name);
        assert_true(strlen(m->name) > 5);
        assert_true(strlen(m->help) > 10);
        assert_true(m->unit >= 0 && m->unit <= WS_UNIT_COUNT);
        bool known = false;
        for (size_t u = 0; u < sizeof documented / sizeof documented[0]; u++)
            known |= !strcmp(ws_unit_name(m->unit), documented[u]);
        assert_true(known);
        assert_true(m->judge >= 0 && m->judge < WS_JUDGE_NCLASSES);
        assert_true(m->basis >= WS_BASIS_EXACT && m->basis <= WS_BASIS_NONE);
        assert_true(strcmp(ws_basis_name(m->basis), "?") != 0);
        for (int j = 0; j < i; j++)
            if (!strcmp(m->name, ws_metric_table[j].name)) fail_msg("%s has two rows", m->name);
    }
}

static void test_judgements_fit_what_the_simulator_knows(void **state)
{
    (void)state;
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        const ws_metric_info *m = &ws_metric_table[i];
        /* equality is claimed only where the simulator counts by the counter's own rule */
        if (m->judge == WS_JUDGE_EXACT) assert_int_equal(m->basis, WS_BASIS_EXACT);
        /* a row without a hardware counter has nothing to be judged against, and is named apart */
        bool own = !strncmp(m->name, "ws__", 4) || m->scope == WS_SCOPE_LINE;
        assert_int_equal(m->ncu == WS_NCU_OWN, own);
        if (m->ncu == WS_NCU_OWN) assert_int_equal(m->judge, WS_JUDGE_INFO);
        /* slack is CACHE's allowance alone; a percentage needs one (its whole tolerance) */
        if (m->judge != WS_JUDGE_CACHE) assert_true(m->slack == 0);
        if (m->judge == WS_JUDGE_CACHE && m->unit == WS_UNIT_PCT) assert_true(m->slack > 0);
        /* an instruction family's op belongs to a space */
        if (m->op >= 0 && m->kind == WS_KIND_PLAIN) assert_true(m->space >= 0);
        /* a time is compared as a time, in the unit every output prints it in */
        if (m->judge == WS_JUDGE_TIME) assert_int_equal(m->unit, WS_UNIT_US);
    }
}

static void test_ncu_collects_exactly_the_rows_marked_collect_in_table_order(void **state)
{
    (void)state;
    int k = 0;
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        if (ws_metric_table[i].ncu != WS_NCU_COLLECT) continue;
        assert_non_null(cu_default_metrics[k]);
        assert_string_equal(cu_default_metrics[k], ws_metric_table[i].name);
        k++;
    }
    assert_null(cu_default_metrics[k]);
    /* check needs the GPU's time and its exact sectors whatever the simulator reports */
    assert_int_equal(ws_metric_table[WS_METRIC_GPU_TIME].ncu, WS_NCU_COLLECT);
    assert_int_equal(ws_metric_table[WS_METRIC_GLD_SECTORS].ncu, WS_NCU_COLLECT);
}

static void test_the_three_check_rows_have_their_judgements(void **state)
{
    (void)state;
    /* once known only to the ncu list: now rows, judged as check always judged them */
    assert_int_equal(chk_classify("gpu__time_duration.sum"), CHK_TIME);
    assert_int_equal(chk_classify("sm__warps_active.avg.pct_of_peak_sustained_active"), CHK_INFO);
    assert_int_equal(chk_classify("l1tex__data_bank_conflicts_type_arbitration.sum"), CHK_INFO);
    assert_int_equal(ws_metric_find("gpu__time_duration.sum")->scope, WS_SCOPE_CHECK);
    assert_int_equal(ws_metric_find("sm__warps_active.avg.pct_of_peak_sustained_active")->unit, WS_UNIT_PCT);
}

static void test_lookups_find_rows_by_their_whole_name_only(void **state)
{
    (void)state;
    const ws_metric_info *m = ws_metric_find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    assert_non_null(m);
    assert_int_equal(m->id, WS_METRIC_GLD_SECTORS);
    assert_string_equal(ws_metric_unit(m->name), "sector");
    assert_int_equal(m->space, WS_SPACE_GLOBAL);
    assert_int_equal(m->op, WS_MEM_LOAD);
    /* a prefix, a suffix or an unknown name is no row: no unit is guessed from the spelling */
    assert_null(ws_metric_find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld"));
    assert_null(ws_metric_find("x_l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_null(ws_metric_find(NULL));
    assert_string_equal(ws_metric_unit("launch__registers_per_thread"), "");
    assert_string_equal(ws_metric_unit("ws__made_up_time_us"), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_has_a_name_a_unit_a_basis_and_a_judgement),
        cmocka_unit_test(test_judgements_fit_what_the_simulator_knows),
        cmocka_unit_test(test_ncu_collects_exactly_the_rows_marked_collect_in_table_order),
        cmocka_unit_test(test_the_three_check_rows_have_their_judgements),
        cmocka_unit_test(test_lookups_find_rows_by_their_whole_name_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
