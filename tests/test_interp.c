/* test_interp.c - the warp interpreter (sim/interp/interp.c and friends) on real
 * nvcc PTX from the .cu files in tests/data/interp: divergence and reconvergence (masks
 * and the order of memory events), barriers and their misuse, bounds,
 * budget, warp-level operations, atomics, conversions, memory spaces.
 * Expectations are computed here from the kernels' C semantics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "../sim/interp/interp.h"

#define DATA "tests/data/interp/"

/* --- harness ---------------------------------------------------------------- */

typedef struct {
    ptx_module *mod;
    const ptx_function *fn;
    ws_launch L;
    ws_sim_config cfg;
    ws_sim_result res;
    ws_error err;
    ws_test_events cap;
    int rc;
} run_t;

static ptx_module *load_module(const char *file)
{
    ws_error e;
    char path[256];
    snprintf(path, sizeof path, DATA "%s", file);
    ptx_module *m = ptx_load(path, &e);
    if (!m) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    return m;
}

static void setup(run_t *r, const char *file, const char *kernel, uint32_t gx, uint32_t gy, uint32_t bx,
                  uint32_t by, uint32_t bz)
{
    memset(r, 0, sizeof *r);
    r->mod = load_module(file);
    r->fn = ptx_find_function(r->mod, kernel);
    assert_non_null(r->fn);
    r->L.grid[0] = gx; r->L.grid[1] = gy; r->L.grid[2] = 1;
    r->L.block[0] = bx; r->L.block[1] = by; r->L.block[2] = bz;
    r->cfg.module = r->mod;
    r->cfg.fn = r->fn;
    r->cfg.launch = &r->L;
    r->cfg.source_file = "k.cu";
}

/* Adds a buffer and passes it as the next argument. */
static void buf(run_t *r, const char *name, ws_type t, uint64_t count, ws_init_kind init)
{
    ws_buffer *b = &r->L.buffers[r->L.nbuffers];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->type = t;
    b->count = count;
    b->bytes = count * ws_type_size(t);
    b->init = init;
    r->L.args[r->L.nargs].kind = WS_ARG_BUFFER;
    r->L.args[r->L.nargs++].buffer = r->L.nbuffers++;
}

static void buf_random(run_t *r, const char *name, ws_type t, uint64_t count, uint64_t seed, double lo, double hi)
{
    buf(r, name, t, count, WS_INIT_RANDOM);
    ws_buffer *b = &r->L.buffers[r->L.nbuffers - 1];
    b->seed = seed;
    b->lo = lo;
    b->hi = hi;
}

static void arg_int(run_t *r, int64_t v)
{
    r->L.args[r->L.nargs].kind = WS_ARG_INT;
    r->L.args[r->L.nargs++].ivalue = v;
}

static int run(run_t *r, bool listen)
{
    if (listen) { r->cfg.listener = ws_test_events_add; r->cfg.listener_ctx = &r->cap; }
    r->rc = ws_sim_run(&r->cfg, &r->res, &r->err);
    return r->rc;
}

static void run_ok(run_t *r, bool listen)
{
    if (run(r, listen)) {
        char msg[1200];
        ws_error_format(&r->err, msg, sizeof msg);
        fail_msg("%s", msg);
    }
}

static char *error_text(run_t *r)
{
    static char msg[1200];
    ws_error_format(&r->err, msg, sizeof msg);
    return msg;
}

static void teardown(run_t *r)
{
    ws_sim_result_free(&r->res);
    ptx_free(r->mod);
    free(r->cap.ev);
}

/* Inputs come from ws_buffer_fill, so tests pick init kinds whose contents
 * they know (index: element k holds k), or read random inputs back from the
 * result (the kernels never write their inputs). */

static const int32_t *ints(run_t *r, int i) { return r->res.buffer_data[i]; }
static const uint32_t *uints(run_t *r, int i) { return r->res.buffer_data[i]; }
static const float *floats(run_t *r, int i) { return r->res.buffer_data[i]; }

/* Index of the int element an event's lane touched in buffer i. */
static int64_t elem_of(run_t *r, const ws_mem_event *ev, int lane, int i, int size)
{
    return (int64_t)(ev->addr[lane] - r->res.buffer_base[i]) / size;
}

/* Active mask and element range (first lane's element / 32) of each global store. */
static int stores(run_t *r, uint32_t *masks, int *region, int max)
{
    int k = 0;
    for (int e = 0; e < r->cap.n && k < max; e++) {
        const ws_mem_event *ev = &r->cap.ev[e];
        if (ev->op != WS_MEM_STORE || ev->space != WS_SPACE_GLOBAL) continue;
        masks[k] = ev->active_mask;
        region[k] = (int)(elem_of(r, ev, __builtin_ctz(ev->active_mask), 0, 4) / 32);
        k++;
    }
    return k;
}

/* --- vertical slice: copy ------------------------------------------------- */

static void test_copy_kernel_copies_and_emits_one_load_and_one_store_per_warp(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 4, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 256, WS_INIT_ZERO);
    arg_int(&r, 250);
    run_ok(&r, true);
    for (int i = 0; i < 256; i++) assert_true(floats(&r, 1)[i] == (i < 250 ? (float)i : 0.0f));
    /* 8 warps, each one ld.global and one st.global: 16 events, load then store */
    assert_int_equal(r.cap.n, 16);
    assert_int_equal(r.res.mem_events, 16);
    for (int w = 0; w < 8; w++) {
        const ws_mem_event *ld = &r.cap.ev[2 * w], *st = &r.cap.ev[2 * w + 1];
        assert_int_equal(ld->op, WS_MEM_LOAD);
        assert_int_equal(st->op, WS_MEM_STORE);
        assert_int_equal(ld->warp_global, w);
        assert_int_equal(ld->block_linear, w / 2);
        assert_int_equal(ld->warp, w % 2);
        assert_int_equal(ld->width, 4);
        assert_int_equal(ld->src_line, 6);
        /* the last warp holds threads 224..255: 250..255 fail i < n */
        uint32_t want = w == 7 ? 0x03ffffffu : 0xffffffffu;
        assert_int_equal(ld->active_mask, want);
        assert_int_equal(st->active_mask, want);
        for (int l = 0; l < 32; l++) {
            if (!(want >> l & 1)) { assert_int_equal(ld->addr[l], 0); continue; }
            assert_int_equal(ld->addr[l], r.res.buffer_base[0] + 4 * (uint64_t)(w * 32 + l));
            assert_int_equal(st->addr[l], r.res.buffer_base[1] + 4 * (uint64_t)(w * 32 + l));
        }
    }
    /* buffers live at WS_GLOBAL_BASE, aligned */
    assert_int_equal(r.res.buffer_base[0], WS_GLOBAL_BASE);
    assert_int_equal(r.res.buffer_base[1] % WS_GLOBAL_ALIGN, 0);
    assert_true(r.res.thread_insns > 0 && r.res.warp_insns > 0);
    teardown(&r);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    uint64_t *last = ctx;
    assert_true(done <= total && done > last[0]);
    last[0] = done;
    last[1] = total;
}

static void test_block_range_runs_only_those_blocks_and_reports_progress(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 4, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 256, WS_INIT_ZERO);
    arg_int(&r, 256);
    uint64_t prog[2] = { 0, 0 };
    r.cfg.first_block = 2;
    r.cfg.num_blocks = 1;
    r.cfg.progress = on_progress;
    r.cfg.progress_ctx = prog;
    run_ok(&r, true);
    for (int i = 0; i < 256; i++) assert_true(floats(&r, 1)[i] == (i >= 128 && i < 192 ? (float)i : 0.0f));
    assert_int_equal(r.cap.n, 4);                        /* 2 warps x (load, store) */
    assert_int_equal(r.cap.ev[0].block_linear, 2);
    assert_int_equal(r.cap.ev[0].warp_global, 4);
    assert_int_equal(prog[0], 1);
    assert_int_equal(prog[1], 1);
    /* per-instruction counts: every instruction ran once per warp (no branch is divergent) */
    uint64_t total = 0;
    for (int pc = 0; pc < r.fn->ninsns; pc++) total += r.res.pc_warp_count[pc];
    assert_int_equal(total, r.res.warp_insns);
    assert_int_equal(r.res.thread_insns, 32 * r.res.warp_insns);
    teardown(&r);
}

/* --- divergence and reconvergence ---------------------------------------- */

/* Lanes t of [lo, hi] whose trip count (32 + t) exceeds iteration k. */
static uint32_t trip_mask(int lo, int hi, int k)
{
    uint32_t m = 0;
    for (int t = lo; t <= hi; t++)
        if (32 + t > k) m |= 1u << t;
    return m;
}

static void test_nested_if_runs_each_side_whole_and_reconverges_at_the_join(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "nested_if", 1, 1, 32, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 160, WS_INIT_ZERO);
    buf(&r, "sel", WS_TYPE_INT, 64, WS_INIT_INDEX);     /* sel[t] = t, trip count sel[32+t] = 32+t */
    run_ok(&r, true);
    uint32_t mask[256];
    int reg[256];
    int n = stores(&r, mask, reg, 256);
    /* the PTX branches on sel < 16 with the taken side being the then-branch;
     * the fall-through (else: lanes 16-31, 63 iterations) runs first */
    int k = 0;
    for (int it = 0; it < 63; it++, k++) {
        assert_int_equal(reg[k], 3);
        assert_int_equal(mask[k], trip_mask(16, 31, it));
    }
    assert_int_equal(reg[k], 0);                         /* out[t] = 1 on lanes 0-15 */
    assert_int_equal(mask[k], 0x0000ffffu);
    k++;
    /* inner branch: fall-through is sel >= 8 (lanes 8-15), then the loop of lanes 0-7 */
    assert_int_equal(reg[k], 2);
    assert_int_equal(mask[k], 0x0000ff00u);
    k++;
    for (int it = 0; it < 39; it++, k++) {
        assert_int_equal(reg[k], 1);
        assert_int_equal(mask[k], trip_mask(0, 7, it));
    }
    assert_int_equal(reg[k], 4);                         /* reconverged: one store, all lanes */
    assert_int_equal(mask[k], 0xffffffffu);
    assert_int_equal(n, k + 1);
    /* and the values: loops sum k over 0..trip-1 */
    for (int t = 0; t < 32; t++) {
        int trip = 32 + t, sum = trip * (trip - 1) / 2;
        assert_int_equal(ints(&r, 0)[t], t < 16 ? 1 : 0);
        assert_int_equal(ints(&r, 0)[32 + t], t < 8 ? sum : 0);
        assert_int_equal(ints(&r, 0)[64 + t], t >= 8 && t < 16 ? 3 : 0);
        assert_int_equal(ints(&r, 0)[96 + t], t >= 16 ? sum : 0);
        assert_int_equal(ints(&r, 0)[128 + t], 5);
    }
    teardown(&r);
}

static void test_loop_with_lane_dependent_trip_count_drops_lanes_each_iteration(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "loop_trips", 1, 1, 32, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 192, WS_INIT_ZERO);
    run_ok(&r, true);
    uint32_t mask[16];
    int reg[16];
    int n = stores(&r, mask, reg, 16);
    /* lane t runs t % 4 + 1 iterations: iteration k keeps lanes with t % 4 >= k */
    const uint32_t want[4] = { 0xffffffffu, 0xeeeeeeeeu, 0xccccccccu, 0x88888888u };
    assert_int_equal(n, 5);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(reg[k], k);
        assert_int_equal(mask[k], want[k]);
    }
    assert_int_equal(reg[4], 5);
    assert_int_equal(mask[4], 0xffffffffu);
    for (int t = 0; t < 32; t++)
        for (int k = 0; k < 4; k++) assert_int_equal(ints(&r, 0)[k * 32 + t], k <= t % 4 ? k : 0);
    teardown(&r);
}

static void test_lanes_that_return_early_take_no_part_in_later_accesses(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "early_exit", 1, 1, 64, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 320, WS_INIT_ZERO);
    arg_int(&r, 40);
    run_ok(&r, true);
    uint32_t mask[8];
    int reg[8];
    int n = stores(&r, mask, reg, 8);
    uint32_t m0 = 0, m1 = 0, m1n = 0;
    for (int t = 0; t < 64; t++) {
        if (t % 3 == 0) continue;
        if (t < 32) m0 |= 1u << t;
        else { m1 |= 1u << (t - 32); if (t < 40) m1n |= 1u << (t - 32); }
    }
    assert_int_equal(n, 4);
    assert_int_equal(mask[0], m0); assert_int_equal(reg[0], 0);
    assert_int_equal(mask[1], m0); assert_int_equal(reg[1], 8);
    assert_int_equal(mask[2], m1); assert_int_equal(reg[2], 1);
    assert_int_equal(mask[3], m1n); assert_int_equal(reg[3], 9);
    for (int t = 0; t < 64; t++) {
        assert_int_equal(ints(&r, 0)[t], t % 3 ? 1 : 0);
        assert_int_equal(ints(&r, 0)[256 + t], (t % 3 && t < 40) ? 2 : 0);
    }
    teardown(&r);
}

/* --- barriers ------------------------------------------------------------- */

static void test_barrier_after_some_lanes_returned_waits_for_the_live_ones(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "barrier_ok", 1, 1, 128, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 128, WS_INIT_ZERO);
    run_ok(&r, true);
    for (int t = 0; t < 128; t++) assert_int_equal(ints(&r, 0)[t], t < 100 ? 99 - t : 0);
    /* every shared store (4 warps) comes before every shared load: the barrier held */
    int last_store = -1, first_load = 1 << 30, nst = 0;
    for (int e = 0; e < r.cap.n; e++) {
        const ws_mem_event *ev = &r.cap.ev[e];
        if (ev->space != WS_SPACE_SHARED) continue;
        if (ev->op == WS_MEM_STORE) { last_store = e; nst++; }
        else if (e < first_load) first_load = e;
    }
    assert_int_equal(nst, 4);
    assert_true(last_store < first_load);
    teardown(&r);
}

static void test_barrier_in_a_divergent_branch_is_an_error_naming_its_line(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "barrier_diverged", 1, 1, 64, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 64, WS_INIT_INDEX);     /* out[0] = 0: lane 0 skips the branch */
    assert_int_equal(run(&r, false), -1);
    assert_string_equal(error_text(&r),
        "k.cu:56: error: barrier_diverged: block (0,0,0) warp 0: barrier reached by a diverged warp: "
        "lanes 0xfffffffe of its live lanes 0xffffffff (__syncthreads() inside a branch not taken by the "
        "whole block?); compute-sanitizer synccheck: 'Divergent thread(s) in block'");
    teardown(&r);
}

static void test_a_warp_that_exits_before_a_barrier_does_not_hold_it_up(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "barrier_exited", 1, 1, 64, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 64, WS_INIT_ZERO);
    /* bar.sync waits for the block's non-exited threads only (PTX ISA): warp 1
     * returns at line 65, warp 0 passes the barrier and reverses s[0..31] */
    assert_int_equal(run(&r, false), 0);
    const int32_t *out = ints(&r, 0);
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], 31 - t);
    for (int t = 32; t < 64; t++) assert_int_equal(out[t], 0);
    teardown(&r);
}

/* --- safety ----------------------------------------------------------------- */

static void test_read_past_the_end_of_a_buffer_names_block_warp_lane_and_overrun(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 5, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 256, WS_INIT_ZERO);
    arg_int(&r, 300);                                    /* threads 256..299 overrun both */
    assert_int_equal(run(&r, false), -1);
    /* first fault in execution order: block 4, warp 0, lane 0 reads in[256],
     * 1024 bytes from the start of the 1024-byte buffer: 4 bytes past its end */
    assert_string_equal(error_text(&r),
        "k.cu:6: error: copy: block (4,0,0) warp 0 lane 0: global load of 4 bytes at 0x100000400 is 4 bytes "
        "past the end of buffer 'in' (1024 bytes)");
    teardown(&r);
}

static void test_out_of_bounds_as_warnings_counts_every_lane_and_keeps_the_first(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 5, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 256, WS_INIT_ZERO);
    arg_int(&r, 300);
    r.cfg.memory_errors_are_warnings = true;
    run_ok(&r, false);
    assert_int_equal(r.res.memory_warnings, 2 * 44);    /* 44 lanes, one load and one store each */
    char first[WS_MSG_MAX];
    ws_fault_format(&r.res.first_warning, first, sizeof first);
    assert_string_equal(first,
        "k.cu:6: error: copy: block (4,0,0) warp 0 lane 0: global load of 4 bytes at 0x100000400 is 4 bytes "
        "past the end of buffer 'in' (1024 bytes)");
    for (int i = 0; i < 256; i++) assert_true(floats(&r, 1)[i] == (float)i);
    teardown(&r);
}

static void test_shared_store_outside_the_allocation_is_an_error(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "shared_oob", 1, 1, 64, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 64, WS_INIT_ZERO);
    assert_int_equal(run(&r, false), -1);
    assert_string_equal(error_text(&r),
        "k.cu:61: error: shared_oob: block (0,0,0) warp 1 lane 0: shared store of 4 bytes at offset 0x80 is "
        "outside the block's 128 bytes of shared memory (128 static + 0 dynamic)");
    teardown(&r);
}

static void test_misaligned_float_load_is_an_error(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "misaligned", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_CHAR, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 32, WS_INIT_ZERO);
    assert_int_equal(run(&r, false), -1);
    assert_string_equal(error_text(&r),
        "k.cu:54: error: misaligned: block (0,0,0) warp 0 lane 0: global load of 4 bytes at 0x100000002 is "
        "misaligned (must be a multiple of 4)");
    teardown(&r);
}

static void test_endless_loop_stops_at_the_budget_naming_the_loop_line(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "simt.ptx", "runaway", 1, 1, 32, 1, 1);
    buf(&r, "out", WS_TYPE_INT, 32, WS_INIT_ZERO);
    buf(&r, "flag", WS_TYPE_INT, 2, WS_INIT_ZERO);
    r.cfg.max_thread_insns = 1000000;
    assert_int_equal(run(&r, false), -1);
    assert_string_equal(error_text(&r),
        "k.cu:74: error: runaway: block (0,0,0) warp 0: stopped after the instruction budget of 1000000 "
        "thread-instructions; this warp was at this line (a loop that never ends? a bigger launch needs --budget N)");
    assert_true(r.res.thread_insns > 1000000 && r.res.thread_insns < 1000000 + 32 * WS_SIM_SLICE + 32);
    teardown(&r);
}

static void test_launch_larger_than_the_host_limit_is_refused_up_front(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 1ull << 28, WS_INIT_INDEX);   /* 1 GiB each, never allocated */
    buf(&r, "out", WS_TYPE_FLOAT, 1ull << 28, WS_INIT_ZERO);
    arg_int(&r, 32);
    r.cfg.max_host_bytes = 1ull << 30;
    assert_int_equal(run(&r, false), -1);
    assert_string_equal(r.err.msg,
        "copy: the launch needs 2147483648 bytes (2.00 GiB) of buffers, more than the simulator's limit of "
        "1073741824 bytes (1.00 GiB); make the problem smaller with -D overrides");
    teardown(&r);
}

/* --- memory spaces ------------------------------------------------------------ */

static void test_shared_memory_read_before_write_shows_the_poison(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "poison_read", 2, 1, 64, 1, 1);
    buf(&r, "out", WS_TYPE_UINT, 64, WS_INIT_ZERO);
    run_ok(&r, false);
    /* block 1 runs after block 0 wrote s[t] = t: the poison is refilled per block */
    for (int t = 0; t < 64; t++) assert_int_equal(uints(&r, 0)[t], 0xcdcdcdcdu);
    teardown(&r);
}

static void test_3d_block_forms_warps_from_linear_thread_ids(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "ids3d", 2, 2, 8, 4, 2);        /* 64 threads: warps of x 0-7, y 0-3 */
    r.L.grid[2] = 1;
    buf(&r, "out", WS_TYPE_INT, 4 * 256, WS_INIT_ZERO);
    run_ok(&r, true);
    for (int b = 0; b < 4; b++)
        for (int lin = 0; lin < 64; lin++) {
            int x = lin % 8, y = lin / 8 % 4, z = lin / 32, lane = lin % 32;
            assert_int_equal(ints(&r, 0)[b * 256 + lin], x | y << 8 | z << 16 | lane << 24);
        }
    /* one store per warp; warp w's lane l writes element of linear id 32w + l */
    assert_int_equal(r.cap.n, 8);
    for (int e = 0; e < 8; e++) {
        const ws_mem_event *ev = &r.cap.ev[e];
        assert_int_equal(ev->block_linear, e / 2);
        assert_int_equal(ev->block[0], (e / 2) % 2);
        assert_int_equal(ev->block[1], (e / 2) / 2);
        for (int l = 0; l < 32; l++)
            assert_int_equal(elem_of(&r, ev, l, 0, 4), (e / 2) * 256 + (int)ev->warp * 32 + l);
    }
    teardown(&r);
}

static void test_dynamically_indexed_array_lives_in_local_memory(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "local_array", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_INT, 48, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_INT, 32, WS_INIT_ZERO);
    run_ok(&r, true);
    for (int t = 0; t < 32; t++) assert_int_equal(ints(&r, 1)[t], ((16 + t) & 15) * t);
    int nlocal = 0;
    for (int e = 0; e < r.cap.n; e++) {
        const ws_mem_event *ev = &r.cap.ev[e];
        if (ev->space != WS_SPACE_LOCAL) continue;
        nlocal++;
        for (int l = 0; l < 32; l++) assert_true(ev->addr[l] < 64);   /* offsets in a 64-byte frame */
    }
    assert_true(nlocal >= 2);                            /* stores of a[] and the indexed load */
    teardown(&r);
}

static void test_dynamic_shared_memory_follows_the_launch_size(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "dyn_shared", 1, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 64, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 64, WS_INIT_ZERO);
    r.L.shared_bytes = 64 * 4;
    run_ok(&r, false);
    for (int t = 0; t < 64; t++) assert_true(floats(&r, 1)[t] == (float)(63 - t));
    teardown(&r);
}

static void test_float4_load_is_one_sixteen_byte_access_per_lane(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "vec4_copy", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT4, 32, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT4, 32, WS_INIT_ZERO);
    run_ok(&r, true);
    for (int t = 0; t < 32; t++)
        for (int k = 0; k < 4; k++) assert_true(floats(&r, 1)[4 * t + k] == (float)(4 * t + 3 - k));
    assert_int_equal(r.cap.n, 2);
    for (int e = 0; e < 2; e++) {
        assert_int_equal(r.cap.ev[e].width, 16);
        assert_int_equal(r.cap.ev[e].elem_size, 4);
        assert_int_equal(r.cap.ev[e].vec, 4);
        assert_int_equal(r.cap.ev[e].addr[5] - r.cap.ev[e].addr[4], 16);
    }
    teardown(&r);
}

/* --- warp-level operations and atomics -------------------------------------- */

static void test_shuffles_follow_the_ptx_clamp_and_segment_rules(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "warp.ptx", "shuffles", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_INT, 32, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_INT, 160, WS_INIT_ZERO);
    run_ok(&r, false);
    const int32_t *o = ints(&r, 1);
    for (int t = 0; t < 32; t++) {
        assert_int_equal(o[t], t + 3 <= 31 ? t + 3 : t);
        assert_int_equal(o[32 + t], t >= 5 ? t - 5 : t);
        assert_int_equal(o[64 + t], t ^ 9);
        assert_int_equal(o[96 + t], (t & ~7) | ((t * 3) & 7));
        assert_int_equal(o[128 + t], (t % 16) + 2 <= 15 ? t + 2 : t);
    }
    teardown(&r);
}

static void test_votes_and_activemask_see_the_active_lanes(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "warp.ptx", "votes", 1, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_INT, 32, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_UINT, 160, WS_INIT_ZERO);
    run_ok(&r, false);
    const uint32_t *o = uints(&r, 1);
    for (int t = 0; t < 32; t++) {
        assert_int_equal(o[t], 0xfffff800u);             /* lanes with t > 10 */
        assert_int_equal(o[32 + t], 1);
        assert_int_equal(o[64 + t], 1);
        assert_int_equal(o[96 + t], 0xffffffffu);
        assert_int_equal(o[128 + t], t < 20 ? 0x000fffffu : 0);
    }
    teardown(&r);
}

static void test_warp_shuffle_reduction_sums_each_warp(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "warp.ptx", "warp_reduce", 4, 1, 32, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 128, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 4, WS_INIT_ZERO);
    run_ok(&r, false);
    for (int b = 0; b < 4; b++) assert_true(floats(&r, 1)[b] == (float)(1024 * b + 496));
    teardown(&r);
}

static void test_atomics_apply_lane_by_lane_in_lane_order(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "warp.ptx", "atomics", 1, 1, 64, 1, 1);
    buf(&r, "ci", WS_TYPE_INT, 8, WS_INIT_ZERO);
    buf(&r, "cf", WS_TYPE_FLOAT, 1, WS_INIT_ZERO);
    buf(&r, "cu", WS_TYPE_UINT, 2, WS_INIT_ZERO);
    buf(&r, "cas", WS_TYPE_INT, 128, WS_INIT_ZERO);
    buf(&r, "cd", WS_TYPE_DOUBLE, 1, WS_INIT_ZERO);
    run_ok(&r, true);
    const int32_t *ci = ints(&r, 0), *cas = ints(&r, 3);
    int mx = 0;
    for (int t = 0; t < 64; t++) if (t * 7 % 61 > mx) mx = t * 7 % 61;
    assert_int_equal(ci[0], 63 * 64 / 2);
    assert_int_equal(ci[1], mx);
    assert_int_equal(ci[2], 37 - 63);
    assert_true(floats(&r, 1)[0] == 32.0f);
    assert_int_equal(uints(&r, 2)[0], 64 % 10);          /* inc wraps to 0 after 9 */
    assert_int_equal(uints(&r, 2)[1], 0xffffffffu);
    assert_int_equal(ci[3], 64);                         /* each CAS finds its own t */
    for (int t = 0; t < 64; t++) {
        assert_int_equal(cas[t], t);
        assert_int_equal(cas[64 + t], t == 0 ? 0 : t - 1);
    }
    assert_int_equal(ci[4], 63);
    assert_int_equal(ci[5], 128);                        /* shared atomicAdd of 2 by 64 threads */
    assert_true(((const double *)r.res.buffer_data[4])[0] == 16.0);
    int natom = 0;
    for (int e = 0; e < r.cap.n; e++)
        if (r.cap.ev[e].op == WS_MEM_ATOMIC || r.cap.ev[e].op == WS_MEM_REDUCE) natom++;
    assert_int_equal(natom, 2 * 10);                     /* 10 atomic instructions, one event per warp */
    teardown(&r);
}

/* --- conversions and integer corner cases ------------------------------------ */

static float next_up(float x) { return nextafterf(x, INFINITY); }

static void test_cvt_rounding_modes_and_extensions(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "cvt.ptx", "cvt_round", 1, 1, 32, 1, 1);
    buf_random(&r, "in", WS_TYPE_FLOAT, 32, 5, -40.0, 40.0);
    buf(&r, "oi", WS_TYPE_INT, 224, WS_INIT_ZERO);
    buf(&r, "of", WS_TYPE_FLOAT, 160, WS_INIT_ZERO);
    buf(&r, "oh", WS_TYPE_USHORT, 64, WS_INIT_ZERO);
    run_ok(&r, false);
    const float *in = floats(&r, 0), *of = floats(&r, 2);
    const int32_t *oi = ints(&r, 1);
    const uint16_t *oh = r.res.buffer_data[3];
    for (int t = 0; t < 32; t++) {
        float x = in[t];
        assert_int_equal(oi[t], (int)lrintf(x));
        assert_int_equal(oi[32 + t], (int)truncf(x));
        assert_int_equal(oi[64 + t], (int)floorf(x));
        assert_int_equal(oi[96 + t], (int)ceilf(x));
        assert_int_equal(oi[128 + t], (int)(signed char)(t * 37));
        assert_int_equal(oi[160 + t], (int)(unsigned short)(t * -3001));
        assert_int_equal((uint32_t)oi[192 + t], x < 0 ? 0u : (uint32_t)truncf(x));
        /* 2^31 - 63 - t needs 31 bits; f32 near 2^31 steps by 128 */
        int64_t v = 0x7fffffc1 - t;
        assert_true((double)of[t] == (double)(v / 128 * 128));
        assert_true((double)of[32 + t] == (double)((v + 127) / 128 * 128));
        double q = 1.0 / (3.0 + t);
        assert_true((double)of[64 + t] <= q && (double)next_up(of[64 + t]) > q);
        assert_true(of[96 + t] == rintf(x));
        assert_true((double)of[128 + t] <= q && (double)next_up(of[128 + t]) > q);
        _Float16 h = (_Float16)(x * 1000.0f);            /* the host's round-to-nearest */
        uint16_t hb;
        memcpy(&hb, &h, 2);
        assert_int_equal(oh[t], hb);
        _Float16 z;
        memcpy(&z, &oh[32 + t], 2);
        float xs = x * 1000.0f, zf = (float)z;
        int ex;
        frexpf(xs, &ex);                                 /* |xs| in [2^(ex-1), 2^ex): half ulp 2^(ex-11) */
        assert_true(fabsf(zf) <= fabsf(xs));             /* toward zero ... */
        assert_true(fabsf(xs) - fabsf(zf) < ldexpf(1.0f, ex - 11)); /* ... by less than one ulp */
    }
    teardown(&r);
}

static uint32_t ref_prmt(uint32_t a, uint32_t b, uint32_t s)
{
    uint64_t v = (uint64_t)b << 32 | a;
    uint32_t out = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sel = s >> (4 * i) & 15, byte = (uint32_t)(v >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = byte & 0x80 ? 0xff : 0;
        out |= byte << (8 * i);
    }
    return out;
}

static void test_integer_operations_wrap_and_clamp_like_the_gpu(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "cvt.ptx", "int_ops", 1, 1, 32, 1, 1);
    buf_random(&r, "in", WS_TYPE_INT, 64, 9, -2147483648.0, 2147483647.0);
    buf(&r, "out", WS_TYPE_INT, 352, WS_INIT_ZERO);
    run_ok(&r, false);
    const int32_t *in = ints(&r, 0), *o = ints(&r, 1);
    for (int t = 0; t < 32; t++) {
        int32_t a = in[t], b = in[32 + t];
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        int32_t bo = b | 1;
        assert_int_equal(o[t], (int32_t)(((int64_t)a * b) >> 32));
        assert_int_equal(o[32 + t], (a == INT32_MIN && bo == -1) ? a : a / bo);
        assert_int_equal(o[64 + t], (bo == -1) ? 0 : a % bo);
        assert_int_equal(o[96 + t], __builtin_popcount(ua) + (ub ? __builtin_clz(ub) : 32));
        uint32_t rv = 0;
        for (int i = 0; i < 32; i++) rv |= (ua >> i & 1) << (31 - i);
        assert_int_equal((uint32_t)o[128 + t], rv);
        /* __byte_perm uses 3 selector bits per byte (nvcc masks with 0x7777) */
        assert_int_equal((uint32_t)o[160 + t], ref_prmt(ua, ub, (0x5140u + (uint32_t)t) & 0x7777u));
        assert_int_equal((uint32_t)o[192 + t], t % 40 >= 32 ? 0u : ua >> (t % 40));
        int32_t mn = a < b ? a : b, mxv = a < b ? b : a;
        uint32_t ab = a < 0 ? 0u - ua : ua;
        assert_int_equal((uint32_t)o[224 + t], (uint32_t)mn ^ (uint32_t)mxv ^ ab);
        uint64_t fs = ((uint64_t)ub << 32 | ua) << (t & 31);
        assert_int_equal((uint32_t)o[256 + t], (uint32_t)(fs >> 32));
        assert_int_equal(o[288 + t], (int32_t)(((int64_t)a * b) >> 20));
        int ffs = ua ? __builtin_ctz(ua) + 1 : 0;
        uint32_t sad = (uint32_t)(a > b ? (int64_t)a - b : (int64_t)b - a) + 3u;
        assert_int_equal((uint32_t)o[320 + t], (uint32_t)ffs + sad);
    }
    teardown(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_kernel_copies_and_emits_one_load_and_one_store_per_warp),
        cmocka_unit_test(test_block_range_runs_only_those_blocks_and_reports_progress),
        cmocka_unit_test(test_nested_if_runs_each_side_whole_and_reconverges_at_the_join),
        cmocka_unit_test(test_loop_with_lane_dependent_trip_count_drops_lanes_each_iteration),
        cmocka_unit_test(test_lanes_that_return_early_take_no_part_in_later_accesses),
        cmocka_unit_test(test_barrier_after_some_lanes_returned_waits_for_the_live_ones),
        cmocka_unit_test(test_barrier_in_a_divergent_branch_is_an_error_naming_its_line),
        cmocka_unit_test(test_a_warp_that_exits_before_a_barrier_does_not_hold_it_up),
        cmocka_unit_test(test_read_past_the_end_of_a_buffer_names_block_warp_lane_and_overrun),
        cmocka_unit_test(test_out_of_bounds_as_warnings_counts_every_lane_and_keeps_the_first),
        cmocka_unit_test(test_shared_store_outside_the_allocation_is_an_error),
        cmocka_unit_test(test_misaligned_float_load_is_an_error),
        cmocka_unit_test(test_endless_loop_stops_at_the_budget_naming_the_loop_line),
        cmocka_unit_test(test_launch_larger_than_the_host_limit_is_refused_up_front),
        cmocka_unit_test(test_shared_memory_read_before_write_shows_the_poison),
        cmocka_unit_test(test_3d_block_forms_warps_from_linear_thread_ids),
        cmocka_unit_test(test_dynamically_indexed_array_lives_in_local_memory),
        cmocka_unit_test(test_dynamic_shared_memory_follows_the_launch_size),
        cmocka_unit_test(test_float4_load_is_one_sixteen_byte_access_per_lane),
        cmocka_unit_test(test_shuffles_follow_the_ptx_clamp_and_segment_rules),
        cmocka_unit_test(test_votes_and_activemask_see_the_active_lanes),
        cmocka_unit_test(test_warp_shuffle_reduction_sums_each_warp),
        cmocka_unit_test(test_atomics_apply_lane_by_lane_in_lane_order),
        cmocka_unit_test(test_cvt_rounding_modes_and_extensions),
        cmocka_unit_test(test_integer_operations_wrap_and_clamp_like_the_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
