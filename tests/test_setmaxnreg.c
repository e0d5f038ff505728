/* test_setmaxnreg.c - setmaxnreg and the block's register pool (sim/interp/exec_nreg.c, the parser's
 * check in sim/frontend/ptx_tensor.c), through the whole pipeline: the description, the checked-in
 * sm_90a PTX and ptxas resources, occupancy, the interpreter. Expectations follow from the PTX ISA
 * ("setmaxnreg": a per-CTA pool; .dec gives registers back, .inc takes them and blocks until the
 * pool has them; the count a multiple of 8 in 24..256) and the counts written in the kernels'
 * source: the pool is ptxas's per-thread count (at the 8-register granularity) x the block's
 * threads. Kernels: demos/tensorcore.cu (wgmma_gemm_ws), tests/data/setmaxnreg/nreg.cu. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/commands.h"
#include "../sim/frontend/ptx.h"
#include "../sim/interp/interp.h"
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

typedef struct {
    ws_simulation s;
    ws_error err;
    int rc;
    double seconds;
    char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
} run_t;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(run_t *r, const char *arg)
{
    memset(r, 0, sizeof *r);
    double t0 = now();
    r->rc = ws_simulation_open(&r->s, cat, arg, NULL, ws_device_find("h200"), NULL, &r->err);
    if (r->rc == WS_EXIT_OK) {
        ws_simulation_opts o;
        memset(&o, 0, sizeof o);
        o.max_thread_insns = 200000000;
        o.threads = 2;
        r->rc = ws_simulation_run(&r->s, &o, &r->err);
    }
    r->seconds = now() - t0;
    if (r->rc) ws_error_format(&r->err, r->msg, sizeof r->msg);
}

/* 1-based line of the comment "/" "* marker *" "/" in the kernel's .cu. */
static int marker_line(const run_t *r, const char *marker)
{
    char want[64];
    snprintf(want, sizeof want, "/* %s */", marker);
    const char *src = r->s.file->source, *p = strstr(src, want);
    if (!p) fail_msg("%s has no marker '%s'", r->s.file->path, marker);
    int line = 1;
    for (const char *q = src; q < p; q++) line += *q == '\n';
    return line;
}

/* The pool the GPU gives a block: ptxas's per-thread count rounded up to 8 (256 registers per
 * warp, the H200's allocation granularity), for each thread of the block's warps. */
static uint32_t pool_of(const run_t *r, uint32_t threads)
{
    assert_true(r->s.resources.from_ptxas);
    uint32_t per_thread = ((uint32_t)r->s.resources.regs + 7) / 8 * 8;
    return per_thread * ((threads + 31) / 32 * 32);
}

/* --- the demo ---------------------------------------------------------------------------------- */

/* wgmma_gemm_ws: warpgroup 0 decs to 40, warpgroups 1-2 inc to 232 (demos/tensorcore.cu). The
 * block of 384 threads holds 128 x 40 + 256 x 232 = 64,512 registers after them, within the pool. */
static void test_the_warp_specialised_gemm_moves_registers_within_its_pool(void **state)
{
    (void)state;
    run_t r;
    run(&r, "demos/tensorcore.cu:wgmma_gemm_ws");
    if (r.rc) fail_msg("%s", r.msg);
    const ws_nreg_report *n = &r.s.result.nreg;
    assert_true(n->used);
    assert_int_equal(n->nwg, 3);
    const uint16_t want[3] = {40, 232, 232};
    for (int g = 0; g < 3; g++) {
        assert_int_equal(n->wg[g], want[g]);
        assert_int_equal(n->wg_warps[g], 4);
    }
    uint32_t pool = pool_of(&r, 384);
    assert_int_equal(n->pool, pool);
    assert_true(128u * 40 + 256u * 232 <= pool);
    assert_true(n->peak <= pool);                /* the occupancy from ptxas's count holds */
    ws_simulation_close(&r.s);
}

/* --- waiting ----------------------------------------------------------------------------------- */

/* nreg_inc_waits: warpgroup 0 (warps 0-3, run first) asks for 192 - 128 = 64 more registers per
 * thread, 8192 in all, and the pool has none spare: it waits. Warpgroup 1 sets the flag, then gives
 * 64 per thread back: exactly what warpgroup 0 needs. So warpgroup 0 reads the flag as 1. */
static void test_an_inc_waits_until_another_warpgroup_gives_registers_back(void **state)
{
    (void)state;
    run_t r;
    run(&r, "tests/data/setmaxnreg/nreg.cu:nreg_inc_waits");
    if (r.rc) fail_msg("%s", r.msg);
    assert_int_equal(r.s.resources.regs, 128);   /* __launch_bounds__(256, 2): 65536 / 512 */
    const int32_t *seen = r.s.result.buffer_data[1];
    for (int t = 0; t < 256; t++) assert_int_equal(seen[t], t < 128 ? 1 : 2);
    const ws_nreg_report *n = &r.s.result.nreg;
    assert_int_equal(n->nwg, 2);
    assert_int_equal(n->wg[0], 192);
    assert_int_equal(n->wg[1], 64);
    assert_int_equal(n->pool, pool_of(&r, 256));
    assert_int_equal(n->peak, n->pool);          /* 128 x 192 + 128 x 64 = 256 x 128: all of it */
    ws_simulation_close(&r.s);
}

/* nreg_overdraw: both warpgroups ask for 64 more per thread and nobody gives any back: on the GPU
 * the block hangs. Found when no warp can run, naming the line, the request and the pool. */
static void test_an_inc_the_pool_can_never_meet_is_a_deadlock_naming_request_and_pool(void **state)
{
    (void)state;
    run_t r;
    run(&r, "tests/data/setmaxnreg/nreg.cu:nreg_overdraw");
    assert_int_equal(r.rc, WS_EXIT_KERNEL_FAULT);
    assert_int_equal(r.err.line, marker_line(&r, "overdraw"));
    char pool[160];
    snprintf(pool, sizeof pool, "register pool of %u (%d registers x 256 threads", pool_of(&r, 256), r.s.resources.regs);
    const char *want[] = {"deadlock: setmaxnreg.inc asks for 192 registers per thread for 8 warps", pool, "has 0 free",
                          "so on the GPU it hangs here", NULL};
    for (int i = 0; want[i]; i++)
        if (!strstr(r.msg, want[i])) fail_msg("'%s' not in: %s", want[i], r.msg);
    assert_true(r.seconds < 10.0);
    ws_simulation_close(&r.s);
}

/* nreg_inc_and_spin: warpgroup 0 waits in an .inc nobody can meet while warpgroup 1 spins on a flag
 * warpgroup 0 would set after it: the progress watch stops it as a deadlock at the spin, naming the
 * .inc's line, its request and the pool. */
static void test_an_inc_that_waits_while_the_others_spin_is_a_deadlock_of_the_progress_watch(void **state)
{
    (void)state;
    run_t r;
    run(&r, "tests/data/setmaxnreg/nreg.cu:nreg_inc_and_spin");
    assert_int_equal(r.rc, WS_EXIT_KERNEL_FAULT);
    assert_int_equal(r.err.line, marker_line(&r, "spin"));
    char wait[200];
    snprintf(wait, sizeof wait, "4 warps wait at setmaxnreg.inc (line %d) for 192 registers per thread (64 more per "
             "thread; the block's pool of %u has 0 free)", marker_line(&r, "never met"), pool_of(&r, 256));
    if (!strstr(r.msg, "deadlock: this warp loops at this line forever") || !strstr(r.msg, wait))
        fail_msg("'%s' not in: %s", wait, r.msg);
    assert_true(r.seconds < 10.0);
    ws_simulation_close(&r.s);
}

/* nreg_split_warpgroup: warp 0 runs the .dec at "warp 0", warps 1-3 the one at "the others". */
static void test_warps_of_one_warpgroup_at_different_setmaxnregs_are_refused(void **state)
{
    (void)state;
    run_t r;
    run(&r, "tests/data/setmaxnreg/nreg.cu:nreg_split_warpgroup");
    assert_int_equal(r.rc, WS_EXIT_KERNEL_FAULT);
    assert_int_equal(r.err.line, marker_line(&r, "the others"));
    char lines[64];
    snprintf(lines, sizeof lines, "(line %d and line %d)", marker_line(&r, "warp 0"), marker_line(&r, "the others"));
    if (!strstr(r.msg, "warps 0 and 1 of warpgroup 0 execute different setmaxnreg") || !strstr(r.msg, lines))
        fail_msg("%s", r.msg);
    ws_simulation_close(&r.s);
}

/* nreg_no_count has no __launch_bounds__: ptxas cannot tell its register count at entry, reports
 * C7508 and emits no setmaxnreg, so the .inc to 232 that no pool of 128 x its count could meet does
 * not wait: the kernel runs, and the report says the instruction was dropped. */
static void test_a_setmaxnreg_ptxas_drops_for_want_of_a_register_count_does_nothing(void **state)
{
    (void)state;
    run_t r;
    run(&r, "tests/data/setmaxnreg/nreg.cu:nreg_no_count");
    if (r.rc) fail_msg("%s", r.msg);
    assert_true(r.s.resources.regs < 232);       /* an .inc that counted could never be met */
    const int32_t *out = r.s.result.buffer_data[0];
    for (int t = 0; t < 128; t++) assert_int_equal(out[t], 1);
    assert_true(r.s.result.nreg.ignored);
    assert_false(r.s.result.nreg.used);
    ws_simulation_close(&r.s);
}

/* --- the parser -------------------------------------------------------------------------------- */

/* A count outside 24..256 or not a multiple of 8, and the forms the PTX ISA does not have, refuse
 * their function at the instruction's PTX line (8 in the text below) and its .cu line (the .loc:
 * k.cu:12), as every PTX the simulator cannot run does; the module's other kernel still runs. */
static void test_invalid_setmaxnreg_forms_are_refused_at_their_line(void **state)
{
    (void)state;
    static const struct { const char *insn, *why; } bad[] = {
        {"setmaxnreg.inc.sync.aligned.u32 20;", "the register count 20 is not a multiple of 8 in 24..256"},
        {"setmaxnreg.dec.sync.aligned.u32 260;", "the register count 260 is not a multiple of 8 in 24..256"},
        {"setmaxnreg.inc.sync.aligned.u32 100;", "the register count 100 is not a multiple of 8 in 24..256"},
        {"setmaxnreg.sync.aligned.u32 232;", "needs exactly one of .inc and .dec"},
        {"setmaxnreg.inc.dec.sync.aligned.u32 232;", "needs exactly one of .inc and .dec"},
        {"setmaxnreg.inc.u32 232;", "needs .sync.aligned"},
        {"setmaxnreg.inc.sync.aligned.u32 %r1;", "the register count must be an immediate"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, ".version 8.0\n.target sm_90a\n.address_size 64\n.file 1 \"k.cu\"\n"
                                    ".visible .entry k()\n{\n    .reg .b32 %%r<2>;\n    .loc 1 12 0\n    %s\n    ret;\n}\n"
                                    ".visible .entry other()\n{\n    ret;\n}\n", bad[i].insn);
        ws_error err;
        ptx_module *m = ptx_parse("k.ptx", text, &err);
        if (!m) fail_msg("'%s': the whole module failed: %s", bad[i].insn, err.msg);
        const ptx_function *k = ptx_find_function(m, "k");
        if (!k->refusal) fail_msg("'%s' parsed", bad[i].insn);
        assert_null(ptx_find_function(m, "other")->refusal);
        assert_string_equal(k->refusal->file, "k.ptx");
        assert_int_equal(k->refusal->line, 9);
        assert_int_equal(k->refusal_src_line, 12);
        if (!strstr(k->refusal->msg, bad[i].why)) fail_msg("'%s': '%s' not in: %s", bad[i].insn, bad[i].why, k->refusal->msg);
        ptx_free(m);
    }
    const int good[] = {24, 232, 256};           /* the ends of the range, and the demo's */
    for (size_t i = 0; i < 3; i++) {
        char text[512];
        snprintf(text, sizeof text, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                                    "    setmaxnreg.dec.sync.aligned.u32 %d;\n    ret;\n}\n", good[i]);
        ws_error err;
        ptx_module *m = ptx_parse("k.ptx", text, &err);
        if (!m) fail_msg("%d: %s", good[i], err.msg);
        if (ptx_find_function(m, "k")->refusal) fail_msg("%d: %s", good[i], ptx_find_function(m, "k")->refusal->msg);
        ptx_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_warp_specialised_gemm_moves_registers_within_its_pool),
        cmocka_unit_test(test_an_inc_waits_until_another_warpgroup_gives_registers_back),
        cmocka_unit_test(test_an_inc_the_pool_can_never_meet_is_a_deadlock_naming_request_and_pool),
        cmocka_unit_test(test_an_inc_that_waits_while_the_others_spin_is_a_deadlock_of_the_progress_watch),
        cmocka_unit_test(test_warps_of_one_warpgroup_at_different_setmaxnregs_are_refused),
        cmocka_unit_test(test_a_setmaxnreg_ptxas_drops_for_want_of_a_register_count_does_nothing),
        cmocka_unit_test(test_invalid_setmaxnreg_forms_are_refused_at_their_line),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
