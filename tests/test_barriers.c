/* test_barriers.c - CTA barriers with ids and thread counts, warp collectives' member
 * masks, launch bounds and cooperative groups (sim/interp/exec_barrier.c, sim/interp/exec_warp.c,
 * sim/interp/launch_check.c), each through the whole pipeline on the kernels of
 * tests/data/barriers/ (description, checked-in PTX, ptxas resources, occupancy,
 * interpreter). Expected outputs follow from each kernel's C semantics and the PTX ISA;
 * the lines an error must name are found by the marker comments in the .cu. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/interp/interp.h"
#include "../sim/interp/launch_check.h"
#include "../sim/simulate.h"

#define DIR "tests/data/barriers/"

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
    int rc;                                    /* WS_EXIT_* */
    char msg[WS_PATH_MAX + WS_MSG_MAX + 64];   /* the formatted error when rc != 0 */
} run_t;

/* Simulates DIR file.cu:kernel on the H200 profile. */
static void run(run_t *r, const char *file, const char *kernel)
{
    char arg[256];
    snprintf(arg, sizeof arg, DIR "%s.cu:%s", file, kernel);
    memset(r, 0, sizeof *r);
    r->rc = ws_simulation_open(&r->s, cat, arg, NULL, ws_device_find("h200"), NULL, &r->err);
    if (r->rc == WS_EXIT_OK) {
        ws_simulation_opts o;
        memset(&o, 0, sizeof o);
        o.max_thread_insns = 20000000;
        r->rc = ws_simulation_run(&r->s, &o, &r->err);
    }
    if (r->rc) ws_error_format(&r->err, r->msg, sizeof r->msg);
}

/* The same with racecheck on (s.race holds the hazards). */
static void run_racecheck(run_t *r, const char *file, const char *kernel)
{
    char arg[256];
    snprintf(arg, sizeof arg, DIR "%s.cu:%s", file, kernel);
    memset(r, 0, sizeof *r);
    r->rc = ws_simulation_open(&r->s, cat, arg, NULL, ws_device_find("h200"), NULL, &r->err);
    if (r->rc == WS_EXIT_OK) {
        ws_simulation_opts o;
        memset(&o, 0, sizeof o);
        o.max_thread_insns = 20000000;
        o.racecheck = true;
        r->rc = ws_simulation_run(&r->s, &o, &r->err);
    }
    if (r->rc) fail_msg("%s: %s", kernel, (ws_error_format(&r->err, r->msg, sizeof r->msg), r->msg));
    assert_non_null(r->s.race);
}

static void run_ok(run_t *r, const char *file, const char *kernel)
{
    run(r, file, kernel);
    if (r->rc) fail_msg("%s", r->msg);
}

static const int32_t *out(const run_t *r, int i) { return r->s.result.buffer_data[i]; }

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

static void expect_fault(run_t *r, int exit_code, const char *marker, const char *text)
{
    if (r->rc != exit_code) fail_msg("exit %d, wanted %d: %s", r->rc, exit_code, r->msg);
    if (marker) assert_int_equal(r->err.line, marker_line(r, marker));
    if (!strstr(r->msg, text)) fail_msg("'%s' not in: %s", text, r->msg);
}

/* --- named barriers: legal ------------------------------------------------------ */

/* out[t] = s[base + 63 - local] where s[j] = in[j]*10 + group and in[j] = j */
static void check_groups(const run_t *r)
{
    for (int t = 0; t < 128; t++) {
        int g = t / 64, base = g * 64, j = base + 63 - (t - base);
        assert_int_equal(out(r, 1)[t], j * 10 + g);
    }
}

static void test_two_warp_groups_meet_separately_on_barriers_1_and_2(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "named_groups_imm");
    check_groups(&r);
    ws_simulation_close(&r.s);
}

static void test_barrier_numbers_from_a_register_name_the_same_barriers(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "named_groups_reg");
    /* s2[t] = s[mirror(t)] + 1 + g, and out[t] = s2[mirror(t)] = s[t] + 1 + g = 10t + 2g + 1 */
    for (int t = 0; t < 128; t++) assert_int_equal(out(&r, 1)[t], 10 * t + 2 * (t / 64) + 1);
    ws_simulation_close(&r.s);
}

static void test_each_warp_alone_passes_its_own_32_thread_barrier(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "one_warp_named");   /* 32 threads = one warp's arrival completes it */
    for (int t = 0; t < 32; t++) assert_int_equal(out(&r, 1)[t], (31 - t) + 1000);
    for (int t = 32; t < 64; t++) assert_int_equal(out(&r, 1)[t], -(32 + 63 - t));
    ws_simulation_close(&r.s);
}

/* A named barrier of one warp orders that warp's lanes: lane l reads s[31 - l], stored by
 * lane 31 - l before bar.sync 1, 32, and racecheck reports no warp-level hazard. */
static void test_a_one_warp_named_barrier_orders_its_lanes_for_racecheck(void **state)
{
    (void)state;
    run_t r;
    run_racecheck(&r, "named", "one_warp_named");
    assert_int_equal(ws_racecheck_count(r.s.race), 0);
    ws_simulation_close(&r.s);
}

/* --- what orders memory between the lanes of one warp ----------------------------- */

/* Lane l stores s[l] and reads s[(l + 1) % 32], stored by lane l + 1 (mod 32): with only a
 * shuffle between, each of the 32 reads is a warp-level RAW from the store line to the
 * read line; with __syncwarp() between, none is. */
static void test_a_shuffle_orders_no_shared_memory_but_syncwarp_does(void **state)
{
    (void)state;
    run_t r;
    run_racecheck(&r, "warp_order", "shfl_orders_no_memory");
    assert_int_equal(ws_racecheck_total(r.s.race, WS_RACE_RAW), 32);
    assert_int_equal(ws_racecheck_total_warp(r.s.race, WS_RACE_RAW), 32);
    assert_int_equal(ws_racecheck_count(r.s.race), 1);
    const ws_race *h = ws_racecheck_get(r.s.race, 0);
    assert_true(h->warp_level);
    assert_int_equal(h->first.src_line, marker_line(&r, "order-write"));
    assert_int_equal(h->second.src_line, marker_line(&r, "order-read"));
    assert_int_equal(h->first.lane, 1);                  /* lane 0 reads s[1], lane 1's */
    assert_int_equal(h->second.lane, 0);
    for (int t = 0; t < 32; t++) assert_int_equal(out(&r, 1)[t], (t + 1) % 32);
    ws_simulation_close(&r.s);
    run_racecheck(&r, "warp_order", "syncwarp_orders_memory");
    assert_int_equal(ws_racecheck_count(r.s.race), 0);
    for (int t = 0; t < 32; t++) assert_int_equal(out(&r, 1)[t], (t + 1) % 32);
    ws_simulation_close(&r.s);
}

static void test_bar_arrive_lets_the_producer_go_on_and_makes_the_consumer_wait(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "producer_consumer");
    for (int t = 0; t < 32; t++) assert_int_equal(out(&r, 1)[t], 1);
    for (int t = 32; t < 64; t++) assert_int_equal(out(&r, 1)[t], (63 - t) * (63 - t)); /* s[63-t] = in^2 */
    ws_simulation_close(&r.s);
}

static void test_syncthreads_count_and_or_reduce_over_the_whole_block(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "sync_count");
    /* in[t] = t for t < 96: multiples of 3 are 0, 3, ..., 93 = 32 threads; every thread has
     * t < 96, thread 50 fails t != 50, thread 77 alone has t == 77, none t > 95 */
    for (int t = 0; t < 96; t++) {
        assert_int_equal(out(&r, 1)[t], 32);
        assert_int_equal(out(&r, 1)[96 + t], 1);
        assert_int_equal(out(&r, 1)[192 + t], 0);
        assert_int_equal(out(&r, 1)[288 + t], 1);
        assert_int_equal(out(&r, 1)[384 + t], 0);
    }
    ws_simulation_close(&r.s);
}

static void test_barrier_sync_without_aligned_meets_lanes_arriving_on_both_arms(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "unaligned_divergent");
    /* odd t reads the even slot 63 - t (written in*5) plus 1; even t the odd slot (in*3) plus 2 */
    for (int t = 0; t < 64; t++) assert_int_equal(out(&r, 1)[t], t & 1 ? (63 - t) * 5 + 1 : (63 - t) * 3 + 2);
    ws_simulation_close(&r.s);
}

static void test_a_warp_whose_arms_end_in_barrier_sync_reconverges_after_it(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "named", "unaligned_join");
    for (int t = 0; t < 64; t++) assert_int_equal(out(&r, 1)[t], (63 - t) * (t & 1 ? 5 : 3));
    /* the store after the join runs once per warp, all lanes together: 2 warp-level executions */
    int line = marker_line(&r, "join-store"), stores = 0;
    for (int i = 0; i < r.s.fn->ninsns; i++) {
        const ptx_insn *in = &r.s.fn->insns[i];
        if (in->op == PTX_ST && in->src_line == line) {
            assert_int_equal(r.s.result.pc_warp_count[i], 2);
            stores++;
        }
    }
    assert_int_equal(stores, 1);
    ws_simulation_close(&r.s);
}

/* The path that arrives last sits right before the point where the warp reconverges: it
 * must pop when the barrier releases it, so the store after the join runs once, not once
 * per path. PTX by hand, so the order of the paths is the one asked for: the fall-through
 * path (odd lanes) runs and parks first, the taken one (even lanes) arrives last. */
static void test_the_last_path_to_arrive_reconverges_as_soon_as_the_barrier_releases_it(void **state)
{
    (void)state;
    static const char *const text =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 1;\n\tsetp.eq.u32 %p1, %r2, 0;\n"
        "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
        "\t@%p1 bra EVEN;\n"
        "\tbarrier.sync 0;\n\tbra.uni JOIN;\n"
        "EVEN:\n\tbarrier.sync 0;\n"
        "JOIN:\n\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";
    ws_error err;
    ptx_module *m = ptx_parse("join.ptx", text, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32; L.block[1] = L.block[2] = 1;
    ws_buffer *b = &L.buffers[L.nbuffers++];
    snprintf(b->name, sizeof b->name, "out");
    b->type = WS_TYPE_INT;
    b->count = 32;
    b->bytes = 128;
    b->init = WS_INIT_ZERO;
    L.args[L.nargs].kind = WS_ARG_BUFFER;
    L.args[L.nargs++].buffer = 0;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = &L;
    ws_sim_result res;
    if (ws_sim_run(&cfg, &res, &err)) fail_msg("%s", err.msg);
    const ptx_function *fn = &m->funcs[0];
    int st = -1;
    for (int i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].op == PTX_ST) st = i;
    assert_true(st >= 0);
    assert_int_equal(res.pc_warp_count[st], 1);          /* one warp, reconverged */
    for (int t = 0; t < 32; t++) assert_int_equal(((const int32_t *)res.buffer_data[0])[t], t);
    ws_sim_result_free(&res);
    ptx_free(m);
}

/* --- barriers: misuse ---------------------------------------------------------------- */

static void test_a_thread_count_larger_than_the_block_is_a_deadlock(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "count_over_block");   /* 256 threads = 8 warp arrivals; the block has 4 warps */
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-count",
                 "deadlock: barrier 0 waits for 256 threads (8 warps), more than the block's 4 warps can ever bring, "
                 "and only 4 warp arrivals came (warps 0-3)");
    ws_simulation_close(&r.s);
}

static void test_barrier_numbers_from_a_register_that_split_the_block_deadlock(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "id_splits_block");    /* warps 0, 2 at barrier 0; 1, 3 at barrier 1; each counts all 4 */
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-split", "deadlock: barrier 0 waits for every thread of the block");
    char want[128];
    snprintf(want, sizeof want, "only 2 warp arrivals came (warps 0, 2); warps 1, 3 wait at barrier 1 (line %d)",
             marker_line(&r, "misuse-split"));
    assert_non_null(strstr(r.msg, want));
    ws_simulation_close(&r.s);
}

static void test_barrier_16_and_thread_counts_0_and_33_are_refused_when_they_run(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "id_out_of_range");
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-id", "barrier number 16 is out of range: a block has barriers 0..15");
    ws_simulation_close(&r.s);
    run(&r, "misuse", "count_not_warp_multiple");
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-count33", "thread count 33 is not a positive multiple of the warp size");
    ws_simulation_close(&r.s);
    run(&r, "misuse", "count_zero");
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-count0", "thread count 0 is not a positive multiple of the warp size");
    ws_simulation_close(&r.s);
}

static void test_immediate_barrier_16_and_count_33_are_refused_as_ptxas_does(void **state)
{
    (void)state;
    static const char *const head = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n";
    static const struct { const char *insn, *want; } cases[] = {
        {"bar.sync 16;", "barrier number 16 is out of range"},
        {"barrier.sync.aligned 0, 48;", "thread count 48 is not a multiple of the warp size"},
        {"bar.arrive 3;", "arrive needs a thread count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s\t%s\n\tret;\n}\n", head, cases[i].insn);
        ws_error err;
        memset(&err, 0, sizeof err);
        ptx_module *m = ptx_parse("t.ptx", text, &err);
        /* inside a body: the module parses and that kernel is refused, with the same error */
        assert_non_null(m);
        assert_non_null(m->funcs[0].refusal);
        err = *m->funcs[0].refusal;
        ptx_free(m);
        assert_int_equal(err.line, 6);
        if (!strstr(err.msg, cases[i].want)) fail_msg("%s: %s", cases[i].insn, err.msg);
    }
}

/* The PTX lines of the barriers compiled from .cu line `line`. */
static int barrier_ptx_lines(const run_t *r, int line, int *lines, int cap)
{
    int n = 0;
    for (int i = 0; i < r->s.fn->ninsns && n < cap; i++) {
        const ptx_insn *in = &r->s.fn->insns[i];
        if (in->op == PTX_BAR && in->src_line == line) lines[n++] = in->ptx_line;
    }
    return n;
}

static void test_a_loop_whose_trip_count_differs_by_warp_is_divergent_threads_in_block(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "loop_trip_differs");
    /* warp w runs w+1 iterations; nvcc unrolls the loop by 4 with a remainder loop in front
     * of it, so warps 0-2 (1..3 iterations) take the remainder copy of the barrier and warps
     * 3-7 the unrolled one: five copies of line `loop`, and the first phase already meets
     * warps at two of them */
    int loop = marker_line(&r, "misuse-loop"), lines[8];
    int n = barrier_ptx_lines(&r, loop, lines, 8);
    assert_int_equal(n, 5);
    int lo = lines[0], hi = lines[0];
    for (int i = 1; i < n; i++) { lo = lines[i] < lo ? lines[i] : lo; hi = lines[i] > hi ? lines[i] : hi; }
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, NULL, "barrier error, divergent threads in block (compute-sanitizer "
                 "synccheck: 'Divergent thread(s) in block'; undefined in the PTX ISA): barrier 0, a __syncthreads()");
    assert_int_equal(r.err.line, loop);
    char want[160];
    snprintf(want, sizeof want, "warps 0-2 at line %d (PTX line %d), warps 3-7 at line %d (PTX line %d)", loop, hi,
             loop, lo);
    if (!strstr(r.msg, want)) fail_msg("'%s' not in: %s", want, r.msg);
    assert_non_null(strstr(r.msg, "several copies of one __syncthreads()"));
    ws_simulation_close(&r.s);
}

static void test_barrier_sync_in_one_arm_only_is_refused_as_unsupported(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "unaligned_pass");
    /* odd lanes wait at the barrier; even lanes went straight to the join point */
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-unaligned",
                 "reached by lanes 0xaaaaaaaa of the warp while its other live lanes 0x55555555 wait to reconverge");
    assert_non_null(strstr(r.msg, "(unsupported)"));
    ws_simulation_close(&r.s);
}

/* --- warp collectives' member masks ------------------------------------------------------ */

static void test_a_full_mask_shuffle_run_by_half_the_warp_names_the_absent_lanes(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "shfl_absent_lanes");   /* in[t] = t: lanes 0..15 execute it */
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-shfl",
                 "lane 0: shfl.sync.down.b32 with member mask 0xffffffff names lanes 0xffff0000, which have not exited");
    ws_simulation_close(&r.s);
}

static void test_syncwarp_run_by_a_lane_outside_its_mask_is_invalid_arguments(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "syncwarp_outside_mask");   /* mask = lanes 0..15, executed by lanes 0..16 */
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-syncwarp",
                 "lane 16: bar.warp.sync with member mask 0x0000ffff, which does not name this lane");
    assert_non_null(strstr(r.msg, "'Invalid arguments'"));
    ws_simulation_close(&r.s);
}

static void test_lanes_that_name_each_other_with_different_masks_are_invalid_arguments(void **state)
{
    (void)state;
    run_t r;
    run(&r, "misuse", "vote_masks_disagree");
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, "misuse-vote",
                 "lanes 0 and 1 name each other but pass different member masks (0x00000003 and 0x00000007)");
    ws_simulation_close(&r.s);
}

static void test_one_member_mask_per_tile_makes_one_collective_per_tile(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "misuse", "redux_tiles");
    /* tile k = lanes 8k..8k+7 holding in = 8k..8k+7: sum 64k + 28, four odd values */
    for (int t = 0; t < 32; t++) assert_int_equal(out(&r, 1)[t], (64 * (t / 8) + 28) * 100 + 4);
    ws_simulation_close(&r.s);
}

/* --- launch bounds --------------------------------------------------------------------- */

static void test_a_block_over_its_launch_bounds_is_refused_as_the_driver_does(void **state)
{
    (void)state;
    run_t r;
    run(&r, "bounds", "bounded_over");
    expect_fault(&r, WS_EXIT_USAGE, NULL, "the block (256,1,1) has 256 threads, but the kernel's __launch_bounds__ "
                 "allow at most 128 (.maxntid 128, 1, 1)");
    assert_int_equal(r.err.line, r.s.desc->line);
    assert_non_null(strstr(r.msg, "CUDA_ERROR_INVALID_VALUE"));
    ws_simulation_close(&r.s);
}

static void test_a_16_by_8_block_fits_a_launch_bound_of_128_threads(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "bounds", "bounded_2d");      /* the driver compares thread counts, not dimensions */
    for (int t = 0; t < 128; t++) assert_int_equal(out(&r, 0)[t], t + 1);
    ws_simulation_close(&r.s);
}

static ptx_module *bounds_module(const char *directives, ws_error *err)
{
    char text[512];
    snprintf(text, sizeof text, ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n%s\n{\n\tret;\n}\n",
             directives);
    return ptx_parse("t.ptx", text, err);
}

static void test_reqntid_demands_exactly_its_block_shape(void **state)
{
    (void)state;
    ws_error err;
    ptx_module *m = bounds_module(".reqntid 32, 4", &err);
    assert_non_null(m);
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 128; L.block[1] = 1; L.block[2] = 1;   /* 128 threads, but not 32 x 4 */
    assert_int_equal(ws_launch_bounds_check(&m->funcs[0], &L, "k", "t.cu", 3, &err), -1);
    assert_non_null(strstr(err.msg, "the block (128,1,1) is not the (32,4,1) the kernel requires (.reqntid 32, 4, 1)"));
    L.block[0] = 32; L.block[1] = 4;
    assert_int_equal(ws_launch_bounds_check(&m->funcs[0], &L, "k", "t.cu", 3, &err), 0);
    ws_sim_config cfg;                                   /* the interpreter refuses it by itself too */
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = &L;
    ws_sim_result res;
    L.block[0] = 64; L.block[1] = 2;
    assert_int_equal(ws_sim_run(&cfg, &res, &err), -1);
    assert_non_null(strstr(err.msg, ".reqntid 32, 4, 1"));
    ptx_free(m);
}

static void test_launch_bounds_cap_the_registers_an_estimate_may_assume(void **state)
{
    (void)state;
    const ws_device *h200 = ws_device_find("h200");
    ws_error err;
    /* 4 blocks of 256 threads = 32 warps share 65536 registers: 2048 per warp, 64 per thread */
    ptx_module *m = bounds_module(".maxntid 256, 1, 1\n.minnctapersm 4", &err);
    assert_non_null(m);
    assert_int_equal(m->funcs[0].minnctapersm, 4);
    assert_int_equal(ws_launch_bounds_reg_cap(&m->funcs[0], h200), h200->regs_per_sm / (4 * 8) / 32);
    ptx_free(m);
    m = bounds_module(".maxnreg 40", &err);              /* __maxnreg__(40) */
    assert_non_null(m);
    assert_int_equal(ws_launch_bounds_reg_cap(&m->funcs[0], h200), 40);
    ptx_free(m);
    /* one block of 1024 threads: 65536 / 1024 = 64; the per-thread maximum is 255 */
    m = bounds_module(".maxntid 1024", &err);
    assert_non_null(m);
    assert_int_equal(ws_launch_bounds_reg_cap(&m->funcs[0], h200), 64);
    ptx_free(m);
    m = bounds_module(".maxntid 32", &err);
    assert_int_equal(ws_launch_bounds_reg_cap(&m->funcs[0], h200), h200->max_regs_per_thread);
    ptx_free(m);
}

static void test_named_barriers_count_as_ptxas_counts_them_and_limit_blocks_per_sm(void **state)
{
    (void)state;
    run_t r;
    /* ptxas -v: "used 3 barriers" for ids 1 and 2, 16 when an id is in a register */
    run_ok(&r, "named", "named_groups_imm");
    assert_int_equal(ws_barriers_used(r.s.fn), 3);
    ws_simulation_close(&r.s);
    run_ok(&r, "named", "named_groups_reg");
    assert_int_equal(ws_barriers_used(r.s.fn), 16);
    /* sm_90 has 2 barrier sets per block slot: 2 x 32 blocks / 16 barriers = 4 blocks per SM */
    assert_int_equal(r.s.occ.limit_barriers, 2 * 32 / 16);
    assert_int_equal(r.s.occ.blocks_per_sm, 4);
    ws_simulation_close(&r.s);
    run_ok(&r, "named", "sync_count");                /* __syncthreads_count: barrier 0 only */
    assert_int_equal(ws_barriers_used(r.s.fn), 1);
    ws_simulation_close(&r.s);
}

/* --- cooperative groups ------------------------------------------------------------------ */

static void test_this_thread_block_ranks_a_2d_block_and_syncs_it(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_block");   /* rank = y*16 + x; size 128; s[r] = 2r after the sync */
    for (int t = 0; t < 128; t++) assert_int_equal(out(&r, 1)[t], 2 * (127 - t) + 128 * 1000);
    ws_simulation_close(&r.s);
}

static void test_static_tiles_reduce_and_scan_within_each_tile(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_tiles");
    const int32_t *in = r.s.result.buffer_data[0], *o = out(&r, 1);
    for (int t = 0; t < 64; t++) {
        int b32 = t & ~31, b16 = t & ~15, b4 = t & ~3, sum32 = 0, max16 = 0, sum4 = 0, inc16 = 0, exc4 = 0;
        for (int k = b32; k < b32 + 32; k++) sum32 += in[k];
        for (int k = b16; k < b16 + 16; k++) max16 = in[k] > max16 ? in[k] : max16;
        for (int k = b4; k < b4 + 4; k++) sum4 += in[k];
        for (int k = b16; k <= t; k++) inc16 += in[k];
        for (int k = b4; k < t; k++) exc4 += in[k];
        int down = (t & 15) == 15 ? in[t] : in[t + 1];   /* shfl_down by 1 inside 16 lanes */
        assert_int_equal(o[t], sum32);
        assert_int_equal(o[64 + t], max16);
        assert_int_equal(o[128 + t], sum4);
        assert_int_equal(o[192 + t], inc16);
        assert_int_equal(o[256 + t], exc4);
        assert_int_equal(o[320 + t], (t & 3) + 10 * (t / 4) + 1000 * down);
    }
    ws_simulation_close(&r.s);
}

static void test_a_dynamic_tiled_partition_of_8_ranks_and_syncs_its_tiles(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_dynamic");
    /* K = 8: rank t % 8, size 8, and the mirror element of the tile, s[j] = j + 1 */
    for (int t = 0; t < 64; t++) {
        int rank = t % 8, mirror = (t - rank) + 7 - rank;
        assert_int_equal(out(&r, 1)[t], rank + 100 * 8 + 10000 * (mirror + 1));
    }
    ws_simulation_close(&r.s);
}

static void test_coalesced_threads_are_the_lanes_that_took_the_branch(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_coalesced");
    const int32_t *in = r.s.result.buffer_data[0], *o = out(&r, 1);
    for (int t = 0; t < 64; t++) {
        if (in[t] % 3 == 0) { assert_int_equal(o[t], -1); continue; }
        int w = t & ~31, rank = 0, size = 0, sum = 0, first = -1;   /* the warp's lanes with in % 3 != 0 */
        for (int k = w; k < w + 32; k++) {
            if (in[k] % 3 == 0) continue;
            if (first < 0) first = in[k];
            rank += k < t;
            size++;
            sum += in[k];
        }
        assert_int_equal(o[t], sum * 10000 + rank * 100 + size + (first % 2) * 1000000);
    }
    ws_simulation_close(&r.s);
}

static void test_labeled_partition_groups_the_lanes_of_a_warp_by_label(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_labeled");
    const int32_t *in = r.s.result.buffer_data[0], *o = out(&r, 1);
    for (int t = 0; t < 64; t++) {
        int w = t & ~31, rank = 0, size = 0, sum = 0, any = 0;   /* the warp's lanes with the same in % 4 */
        for (int k = w; k < w + 32; k++) {
            any |= in[k] > 90;
            if (in[k] % 4 != in[t] % 4) continue;
            rank += k < t;
            size++;
            sum += in[k];
        }
        assert_int_equal(o[t], sum * 10000 + rank * 100 + size);
        assert_int_equal(o[64 + t], any + 2 + 4);
    }
    ws_simulation_close(&r.s);
}

static void test_grid_sync_in_a_cooperative_launch_lets_blocks_read_each_other(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "coop", "cg_grid");
    const int n = 256;   /* in[i] = i; the reads fall between the two grid syncs */
    for (int i = 0; i < n; i++) {
        assert_int_equal(out(&r, 1)[i], 2 * i + 1);
        assert_int_equal(out(&r, 1)[n + i], 2 * ((i + 64) % n) + 2 * ((i + 130) % n));
    }
    ws_simulation_close(&r.s);
}

static void test_grid_sync_without_a_cooperative_launch_traps_and_says_why(void **state)
{
    (void)state;
    run_t r;
    run(&r, "coop", "cg_grid_plain");
    expect_fault(&r, WS_EXIT_KERNEL_FAULT, NULL, "trap executed (the kernel reads the grid workspace");
    assert_non_null(strstr(r.msg, "add the line 'cooperative' to its description"));
    ws_simulation_close(&r.s);
}

static void test_a_cooperative_grid_larger_than_fits_at_once_is_refused(void **state)
{
    (void)state;
    run_t r;
    run(&r, "coop", "cg_grid_too_big");
    /* an H200 SM holds 2048 threads: at most 2 blocks of 1024, times 132 SMs = 264 */
    expect_fault(&r, WS_EXIT_USAGE, NULL, "the cooperative launch has 1000 blocks, but only ");
    int fit = 0;
    assert_int_equal(sscanf(strstr(r.msg, "but only ") + 9, "%d", &fit), 1);
    assert_true(fit > 0 && fit <= 264);
    assert_non_null(strstr(r.msg, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"));
    ws_simulation_close(&r.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_warp_groups_meet_separately_on_barriers_1_and_2),
        cmocka_unit_test(test_barrier_numbers_from_a_register_name_the_same_barriers),
        cmocka_unit_test(test_each_warp_alone_passes_its_own_32_thread_barrier),
        cmocka_unit_test(test_a_one_warp_named_barrier_orders_its_lanes_for_racecheck),
        cmocka_unit_test(test_a_shuffle_orders_no_shared_memory_but_syncwarp_does),
        cmocka_unit_test(test_bar_arrive_lets_the_producer_go_on_and_makes_the_consumer_wait),
        cmocka_unit_test(test_syncthreads_count_and_or_reduce_over_the_whole_block),
        cmocka_unit_test(test_barrier_sync_without_aligned_meets_lanes_arriving_on_both_arms),
        cmocka_unit_test(test_a_warp_whose_arms_end_in_barrier_sync_reconverges_after_it),
        cmocka_unit_test(test_the_last_path_to_arrive_reconverges_as_soon_as_the_barrier_releases_it),
        cmocka_unit_test(test_a_thread_count_larger_than_the_block_is_a_deadlock),
        cmocka_unit_test(test_barrier_numbers_from_a_register_that_split_the_block_deadlock),
        cmocka_unit_test(test_barrier_16_and_thread_counts_0_and_33_are_refused_when_they_run),
        cmocka_unit_test(test_immediate_barrier_16_and_count_33_are_refused_as_ptxas_does),
        cmocka_unit_test(test_a_loop_whose_trip_count_differs_by_warp_is_divergent_threads_in_block),
        cmocka_unit_test(test_barrier_sync_in_one_arm_only_is_refused_as_unsupported),
        cmocka_unit_test(test_a_full_mask_shuffle_run_by_half_the_warp_names_the_absent_lanes),
        cmocka_unit_test(test_syncwarp_run_by_a_lane_outside_its_mask_is_invalid_arguments),
        cmocka_unit_test(test_lanes_that_name_each_other_with_different_masks_are_invalid_arguments),
        cmocka_unit_test(test_one_member_mask_per_tile_makes_one_collective_per_tile),
        cmocka_unit_test(test_a_block_over_its_launch_bounds_is_refused_as_the_driver_does),
        cmocka_unit_test(test_a_16_by_8_block_fits_a_launch_bound_of_128_threads),
        cmocka_unit_test(test_reqntid_demands_exactly_its_block_shape),
        cmocka_unit_test(test_launch_bounds_cap_the_registers_an_estimate_may_assume),
        cmocka_unit_test(test_named_barriers_count_as_ptxas_counts_them_and_limit_blocks_per_sm),
        cmocka_unit_test(test_this_thread_block_ranks_a_2d_block_and_syncs_it),
        cmocka_unit_test(test_static_tiles_reduce_and_scan_within_each_tile),
        cmocka_unit_test(test_a_dynamic_tiled_partition_of_8_ranks_and_syncs_its_tiles),
        cmocka_unit_test(test_coalesced_threads_are_the_lanes_that_took_the_branch),
        cmocka_unit_test(test_labeled_partition_groups_the_lanes_of_a_warp_by_label),
        cmocka_unit_test(test_grid_sync_in_a_cooperative_launch_lets_blocks_read_each_other),
        cmocka_unit_test(test_grid_sync_without_a_cooperative_launch_traps_and_says_why),
        cmocka_unit_test(test_a_cooperative_grid_larger_than_fits_at_once_is_refused),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
