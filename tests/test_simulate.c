/* test_simulate.c - the one "simulate a kernel with the memory models" pipeline that sim,
 * viz and check share: totals follow from the access pattern, a kernel the caller already
 * holds (attach, as the GPU backend does) gives the same numbers as one opened from the
 * catalog, the observer sees every memory instruction, and a block that cannot fit is
 * refused unless the caller says the driver accepted it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/simulate.h"

static ws_catalog *cat;

static int load(void **state)
{
    (void)state;
    ws_error err;
    if (ws_catalog_load("demos", &cat, &err)) {
        ws_error_print(&err);
        return -1;
    }
    return 0;
}

static int unload(void **state)
{
    (void)state;
    ws_catalog_free(cat);
    return 0;
}

static double metric(const ws_memstats *ms, const char *name)
{
    ws_metric rows[128];
    int n = ws_memstats_metrics(ms, rows, 128);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return rows[i].value;
    fail_msg("metric %s missing", name);
    return -1;
}

/* Opens kernel with the -D assignments d1, d2 (d2 may be NULL) on the H200 and runs it;
 * the caller closes s. */
static void open_and_run(ws_simulation *s, const char *kernel, const char *d1, const char *d2,
                         const ws_simulation_opts *o)
{
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ws_error err;
    assert_int_equal(ws_overrides_add(&ov, d1, &err), 0);
    if (d2)
        assert_int_equal(ws_overrides_add(&ov, d2, &err), 0);
    int rc = ws_simulation_open(s, cat, kernel, &ov, ws_device_find("h200"), NULL, &err);
    if (!rc)
        rc = ws_simulation_run(s, o, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
}

static void test_copy_of_n_floats_loads_n_over_8_sectors_and_predicts_a_time(void **state)
{
    (void)state;
    static ws_simulation s;
    open_and_run(&s, "copy_float", "N=8192", NULL, NULL);
    /* one warp instruction per 32 floats, each 32 x 4 B = 4 sectors */
    assert_true(metric(s.ms, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 8192 / 32);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 8192 * 4 / 32);
    assert_true(s.have_timing && s.timing.t_kernel_us > 0);
    assert_true(s.occ.blocks_per_sm > 0);
    assert_true(s.resources.from_ptxas); /* demos/coalescing.resources is checked in */
    assert_non_null(s.ptx);
    assert_non_null(strstr(s.ptx, ".entry"));
    /* the final buffers: out = in = index */
    const float *out = s.result.buffer_data[1];
    assert_true(out[0] == 0.0f && out[8191] == 8191.0f);
    ws_simulation_close(&s);
    assert_null(s.ms); /* closed means zeroed */
}

static void test_an_attached_kernel_gives_the_numbers_of_the_opened_one(void **state)
{
    (void)state;
    static ws_simulation a, b;
    open_and_run(&a, "transpose_coalesced", "W=64", "H=64", NULL);
    /* what the GPU backend does: its own parsed PTX and resources, the same pipeline */
    ws_simulation_attach(&b, a.dev, a.file, a.desc, &a.launch, a.mod, a.fn, &a.resources);
    ws_error err;
    ws_simulation_opts o = {.ptx_text = a.ptx};  /* the backend hands over its PTX: the same SASS stage */
    assert_int_equal(ws_simulation_run(&b, &o, &err), WS_EXIT_OK);
    ws_metric ra[128], rb[128];
    int na = ws_memstats_metrics(a.ms, ra, 128), nb = ws_memstats_metrics(b.ms, rb, 128);
    assert_int_equal(na, nb);
    for (int i = 0; i < na; i++) {
        assert_string_equal(ra[i].name, rb[i].name);
        assert_true(ra[i].value == rb[i].value);
    }
    assert_int_equal(a.occ.blocks_per_sm, b.occ.blocks_per_sm);
    assert_true(a.timing.t_kernel_us == b.timing.t_kernel_us);
    assert_null(b.ptx); /* attached: nothing loaded, nothing owned */
    ws_simulation_close(&b);
    ws_simulation_close(&a);
}

static void count_event(void *ctx, const ws_mem_verdict *v)
{
    (void)v;
    (*(uint64_t *)ctx)++;
}

static void test_the_observer_sees_every_memory_instruction(void **state)
{
    (void)state;
    static ws_simulation s;
    uint64_t seen = 0;
    ws_simulation_opts o = {.observer = count_event, .observer_ctx = &seen};
    open_and_run(&s, "transpose_coalesced", "W=64", "H=64", &o);
    /* 4 blocks x 32 warps x (global ld, shared st, shared ld, global st) */
    assert_int_equal(seen, 4 * 32 * 4);
    assert_int_equal(ws_memstats_totals(s.ms)->events, seen);
    ws_simulation_close(&s);
}

static void test_a_block_that_cannot_fit_is_refused_unless_the_driver_took_it(void **state)
{
    (void)state;
    static ws_simulation a, b;
    open_and_run(&a, "transpose_coalesced", "W=64", "H=64", NULL);
    /* 32 x 32 = 1024 threads at 255 registers need 261120 registers: an SM has 65536 */
    ws_resources big = a.resources;
    big.regs = 255;
    ws_simulation_attach(&b, a.dev, a.file, a.desc, &a.launch, a.mod, a.fn, &big);
    ws_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ws_simulation_run(&b, NULL, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "cannot launch"));
    ws_simulation_close(&b);
    ws_simulation_attach(&b, a.dev, a.file, a.desc, &a.launch, a.mod, a.fn, &big);
    ws_simulation_opts o = {.fit_one_block = true};
    assert_int_equal(ws_simulation_run(&b, &o, &err), WS_EXIT_OK);
    assert_int_equal(b.occ.blocks_per_sm, 0);
    assert_true(metric(b.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") ==
                metric(a.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    ws_simulation_close(&b);
    ws_simulation_close(&a);
}

static void test_an_unknown_kernel_is_a_usage_error_and_closes_cleanly(void **state)
{
    (void)state;
    static ws_simulation s;
    ws_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ws_simulation_open(&s, cat, "no_such_kernel", NULL, ws_device_default(), NULL, &err), WS_EXIT_USAGE);
    assert_true(err.msg[0] != 0);
    ws_simulation_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_of_n_floats_loads_n_over_8_sectors_and_predicts_a_time),
        cmocka_unit_test(test_an_attached_kernel_gives_the_numbers_of_the_opened_one),
        cmocka_unit_test(test_the_observer_sees_every_memory_instruction),
        cmocka_unit_test(test_a_block_that_cannot_fit_is_refused_unless_the_driver_took_it),
        cmocka_unit_test(test_an_unknown_kernel_is_a_usage_error_and_closes_cleanly),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
