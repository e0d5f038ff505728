/* test_chains.c - a warp's own chain in the latency term (sim/models/latency.h,
 * docs/timing-model.md "Dependent chains and barriers"): in a kernel with block barriers every warp
 * of a block waits for the block's longest chain of shared loads, and each warp instruction and
 * barrier pass holds its warp insn_chain_cycles and barrier_cycles. Expectations are counted by hand
 * from a 256-thread tree reduction (s = 128, 64, ..., 1: warps with a thread below s add). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../sim/frontend/deps.h"
#include "../sim/frontend/ptx.h"
#include "../sim/models/latency.h"
#include "../sim/models/models.h"

/* pc 0-1 set up; 2-3 skip the add for tid >= s; 4 ld.shared, 5 add, 6 st.shared; 7 bar.sync;
 * 8-10 halve s and go round while s > 0; 11 ret. */
static const char *TREE =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry tree(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<3>;\n  .reg .pred %p<3>;\n"
    "  .shared .align 4 .b32 sm[256];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 128;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r1, %r2;\n"
    "  @%p1 bra SKIP;\n"
    "  ld.shared.f32 %f1, [sm];\n"
    "  add.f32 %f2, %f1, %f1;\n"
    "  st.shared.f32 [sm], %f2;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r2, %r2, 1;\n"
    "  setp.ne.u32 %p2, %r2, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  ret;\n}\n";

enum { PC_LD = 4, PC_ST = 6, PC_BAR = 7, NINSNS = 12, WARPS = 8, STEPS = 8 };

static ptx_module *parse(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("tree.ptx", text, &err);
    if (!m) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.cc_major = 9;
    d.sm_count = 1;           /* one block on one SM */
    d.sm_clock_mhz = 1000;
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.dram_fetch_bytes = 32;
    d.l2_bytes = 1 << 20;
    d.l1_hit_cycles = 30;     /* a shared load: 30 cycles + (wavefronts - 1) */
    d.l2_hit_cycles = 200;
    d.dram_cycles = 500;
    d.sector_bytes = 32; d.line_bytes = 128; d.banks = 32; d.bank_bytes = 4;
    return d;
}

static void shared_access(ws_models *models, int warp, int pc, ws_mem_op op, uint32_t first_word)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_SHARED;
    ev.op = op;
    ev.width = 4;
    ev.elem_size = 4;
    ev.vec = 1;
    ev.active_mask = 0xFFFFFFFFu;
    ev.warp = ev.warp_global = (uint32_t)warp;
    ev.pc = (uint32_t)pc;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = 4u * (first_word + (uint32_t)l); /* consecutive words: one wavefront */
    ws_models_listener(models, &ev);
}

/* Runs the tree's shared accesses in the interpreter's order (each step: every active warp loads
 * and stores, then the barrier), with fn's barriers known (NULL: none), and returns the SM's
 * latency cycles after ws_latency_add_chains(warp_insns, the barrier's executions). */
static double tree_cycles(const ws_device *dp, const ptx_function *fn, double warp_insns, const uint64_t *pc_count)
{
    ws_device d = *dp;
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32 * WARPS;
    L.block[1] = L.block[2] = 1;
    ws_models *models = ws_models_new(&d, &L, 0);
    ws_latency *lat = ws_latency_new(&d, &L);
    assert_non_null(models);
    assert_non_null(lat);
    ws_models_add_sink(models, ws_latency_verdict, lat);
    if (fn) assert_int_equal(ws_latency_set_function(lat, fn), 0);
    for (uint32_t s = 128; s > 0; s >>= 1)
        for (int w = 0; w < WARPS; w++)
            if (32u * (uint32_t)w < s) {
                shared_access(models, w, PC_LD, WS_MEM_LOAD, 32u * (uint32_t)w);
                shared_access(models, w, PC_ST, WS_MEM_STORE, 32u * (uint32_t)w);
            }
    ws_models_finish(models);
    ws_latency_finish(lat);
    ws_latency_add_chains(lat, warp_insns, pc_count, NINSNS);
    double c = ws_latency_sm_cycles(lat, 0);
    assert_int_equal(ws_latency_check(lat), 0);
    ws_latency_free(lat);
    ws_models_free(models);
    return c;
}

/* Warp 0 adds in all 8 steps, warps 1-3 in the first one or two, 4-7 in the first: 4 + 2 + 6 = 12
 * warp-steps. Without barriers each warp pays its own loads: 12 x 30. With them every warp waits for
 * warp 0's 8 x 30 at each barrier: 8 warps x 240. */
static void test_the_barriers_hold_every_warp_for_the_blocks_longest_shared_chain(void **state)
{
    (void)state;
    ptx_module *m = parse(TREE);
    ws_deps deps;
    assert_int_equal(ws_deps_init(&deps, &m->funcs[0]), 0);
    assert_int_equal(deps.ninsns, NINSNS);
    assert_true(deps.flags[PC_BAR] & WS_DEP_BARRIER);
    ws_deps_free(&deps);
    ws_device d = dev();
    assert_true(fabs(tree_cycles(&d, NULL, 0, NULL) - 12 * 30) < 1e-9);
    assert_true(fabs(tree_cycles(&d, &m->funcs[0], 0, NULL) - WARPS * STEPS * 30) < 1e-9);
    ptx_free(m);
}

/* One block per SM, so the latency term per warp is the SM's cycles / 8 warps. Each step a warp
 * issues the loop's 10 instructions (the skipped ones too in SASS: predicated; taken here as 10) and
 * passes one barrier: chain = 30 (the shared load) + 10 x insn_chain_cycles + barrier_cycles +
 * 8 x barrier_warp_cycles, and
 * the term is 8 steps x that chain. */
static void test_a_256_thread_tree_with_one_block_per_sm_costs_8_steps_of_its_chain(void **state)
{
    (void)state;
    ptx_module *m = parse(TREE);
    ws_device d = dev();
    d.insn_chain_cycles = 3.5;
    d.barrier_cycles = 12;
    d.barrier_warp_cycles = 1;                             /* 8 warps: a pass costs 12 + 8 = 20 */
    uint64_t count[NINSNS] = {0};
    count[PC_BAR] = WARPS * STEPS;                         /* every warp passes every step's barrier */
    double insns = (double)WARPS * STEPS * 10;
    double chain = 30 + 10 * 3.5 + 20;
    double per_warp = tree_cycles(&d, &m->funcs[0], insns, count) / WARPS;
    assert_true(fabs(per_warp - STEPS * chain) < 1e-9);
    /* a profile without the constants adds nothing but the hold */
    d.insn_chain_cycles = d.barrier_cycles = d.barrier_warp_cycles = 0;
    assert_true(fabs(tree_cycles(&d, &m->funcs[0], insns, count) / WARPS - STEPS * 30) < 1e-9);
    ptx_free(m);
}

/* Without barriers nothing holds a warp for another: the chain part is the warps' own
 * instructions, spread over the SMs as the blocks are (here all on the one SM). */
static void test_without_barriers_each_warp_pays_its_own_instructions(void **state)
{
    (void)state;
    ws_device d = dev();
    d.insn_chain_cycles = 4;
    d.barrier_cycles = 1000;                               /* no barrier pc counted: never charged */
    uint64_t count[NINSNS] = {0};
    count[PC_BAR] = 64;                                    /* NULL fn: no pc is a barrier */
    assert_true(fabs(tree_cycles(&d, NULL, 100, count) - (12 * 30 + 100 * 4)) < 1e-9);
}

/* A cp.async pipeline (timing: sim/models/latency.c close_epoch): each iteration copies the next
 * tile and waits for the one before (wait_group 1), so two iterations share one copy latency: 4
 * iterations of copies of latency 600 cost 4 x 300. Without the run's counts a function with waits
 * of 1 and of 2 has no known depth: 4 x 600; with them (ws_latency_set_wait_counts) the depth is the
 * wait its warps executed most: the loop's (4 times) over the drain's (once). */
static const char *PIPE =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry pipe(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<3>;\n  .reg .pred %p<2>;\n"
    "  .shared .align 16 .b8 sm[64];\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, 0;\n"
    "LOOP:\n"
    "  cp.async.cg.shared.global [sm], [%rd1], 16;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group LOOPWAIT;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p1, %r1, 4;\n"
    "  @%p1 bra LOOP;\n"
    "  cp.async.wait_group WAIT;\n"
    "  ret;\n}\n";

/* The latency model of a one-warp launch of fn on device d (which must outlive it). */
static ws_latency *one_warp_latency(const ws_device *d, const ptx_function *fn)
{
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32;
    L.block[1] = L.block[2] = 1;
    ws_latency *lat = ws_latency_new(d, &L);
    assert_non_null(lat);
    assert_int_equal(ws_latency_set_function(lat, fn), 0);
    return lat;
}

enum { PC_LOOP_WAIT = 4, PC_DRAIN_WAIT = 9, PIPE_INSNS = 11 }; /* ld.param, mov, cp.async, commit, wait ... */

static double copy_loop_cycles_counted(const char *loop_wait, const char *wait_after, bool counted)
{
    char text[2048];
    const char *lw = strstr(PIPE, "LOOPWAIT"), *at = strstr(lw + 8, "WAIT");
    snprintf(text, sizeof text, "%.*s%s%.*s%s%s", (int)(lw - PIPE), PIPE, loop_wait, (int)(at - (lw + 8)), lw + 8,
             wait_after, at + 4);
    ptx_module *m = parse(text);
    ws_device d = dev();
    ws_latency *lat = one_warp_latency(&d, &m->funcs[0]);
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_GLOBAL;
    ev.op = WS_MEM_LOAD;
    ev.kind = WS_KIND_LDGSTS;
    ev.active_mask = 0xFFFFFFFFu;
    ev.pc = 2; /* the cp.async: ld.param and mov before it */
    ws_mem_verdict v;
    memset(&v, 0, sizeof v);
    v.ev = &ev;
    v.latency = 600;
    v.has_latency = 1;
    for (int i = 0; i < 4; i++)
        ws_latency_verdict(lat, &v);
    assert_int_equal(m->funcs[0].ninsns, PIPE_INSNS);
    uint64_t count[PIPE_INSNS] = {0};
    count[PC_LOOP_WAIT] = 4; /* one warp, four iterations */
    count[PC_DRAIN_WAIT] = 1;
    if (counted) ws_latency_set_wait_counts(lat, count, PIPE_INSNS);
    ws_latency_finish(lat);
    double c = ws_latency_sm_cycles(lat, 0);
    ws_latency_free(lat);
    ptx_free(m);
    return c;
}

static double copy_loop_cycles(const char *wait_after)
{
    return copy_loop_cycles_counted("1", wait_after, false);
}

static void test_a_double_buffered_copy_loop_pays_half_a_copy_latency_an_iteration(void **state)
{
    (void)state;
    assert_true(fabs(copy_loop_cycles("0") - 4 * 300) < 1e-9); /* depth 1, the drain's wait_group 0 */
    assert_true(fabs(copy_loop_cycles("2") - 4 * 600) < 1e-9); /* waits of 1 and 2: depth unknown */
}

static void test_the_pipeline_depth_is_the_wait_the_warps_executed_most(void **state)
{
    (void)state;
    /* the loop waits 1 four times, a wait 2 once after it: depth 1, two iterations a latency */
    assert_true(fabs(copy_loop_cycles_counted("1", "2", true) - 4 * 300) < 1e-9);
    /* a drain that steps down (the loop's wait 2, then 1): depth 2, three iterations a latency */
    assert_true(fabs(copy_loop_cycles_counted("2", "1", true) - 4 * 200) < 1e-9);
    /* counted or not, a loop waiting 0 is no pipeline */
    assert_true(fabs(copy_loop_cycles_counted("0", "0", true) - 4 * 600) < 1e-9);
}

/* A block that copies tile t + 1 before it multiplies tile t (Bruce-Lee-LY's Pg2s kernels): the
 * warp's instructions between its last copy and its last load before the barrier run while the
 * copy flies, so the copy costs max(L - work, other loads): 600 - 20 x 10 cycles an iteration. */
static const char *OVERLAP =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry overlap(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"
    "  .shared .align 16 .b8 sm[64];\n"
    "  ld.param.u64 %rd1, [p];\n"                      /* pc 0 */
    "  mov.u32 %r1, 0;\n"                              /* 1 */
    "LOOP:\n"
    "  cp.async.cg.shared.global [sm], [%rd1], 16;\n"  /* 2: tile t + 1 */
    "  cp.async.commit_group;\n"                       /* 3 */
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"  /* 4-22: tile t's work */
    "  ld.shared.u32 %r3, [sm];\n"                      /* 23 */
    "  cp.async.wait_group 0;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p1, %r1, 4;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n";

/* The copy waited for at once (wait_group 0 right after the commit), the work after the wait. */
static const char *WAITED =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry waited(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"
    "  .shared .align 16 .b8 sm[64];\n"
    "  ld.param.u64 %rd1, [p];\n"                      /* pc 0 */
    "  mov.u32 %r1, 0;\n"                              /* 1 */
    "LOOP:\n"
    "  cp.async.cg.shared.global [sm], [%rd1], 16;\n"  /* 2 */
    "  cp.async.commit_group;\n"                       /* 3 */
    "  cp.async.wait_group 0;\n"                       /* 4 */
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"
    "  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n  add.u32 %r2, %r2, 1;\n"  /* 5-23 */
    "  ld.shared.u32 %r3, [sm];\n"                      /* 24 */
    "  bar.sync 0;\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p1, %r1, 4;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n";

static double overlap_cycles(const char *ptx, int shared_pc)
{
    ptx_module *m = parse(ptx);
    ws_device d = dev();
    d.insn_chain_cycles = 10;
    ws_latency *lat = one_warp_latency(&d, &m->funcs[0]);
    ws_mem_event cp, ld;
    memset(&cp, 0, sizeof cp);
    cp.space = WS_SPACE_GLOBAL;
    cp.op = WS_MEM_LOAD;
    cp.kind = WS_KIND_LDGSTS;
    cp.active_mask = 0xFFFFFFFFu;
    cp.pc = 2;
    ld = cp;
    ld.space = WS_SPACE_SHARED;
    ld.kind = 0;
    ld.pc = (uint32_t)shared_pc;
    ws_mem_verdict vc, vl;
    memset(&vc, 0, sizeof vc);
    vc.ev = &cp;
    vc.latency = 600;
    vc.has_latency = 1;
    vl = vc;
    vl.ev = &ld;
    vl.latency = 30;
    for (int i = 0; i < 4; i++) {
        ws_latency_verdict(lat, &vc);
        ws_latency_verdict(lat, &vl);
    }
    ws_latency_finish(lat);
    double c = ws_latency_sm_cycles(lat, 0);
    ws_latency_free(lat);
    ptx_free(m);
    return c;
}

static void test_a_copy_issued_before_the_work_hides_under_it(void **state)
{
    (void)state;
    /* the loop's shared load at pc 23, 21 instructions after the copy: 600 - 210 an iteration */
    assert_true(fabs(overlap_cycles(OVERLAP, 23) - 4 * 390) < 1e-9);
    /* the same work after a wait_group 0 (pc 4): the copy has landed before it starts; only the
       commit and the wait issue under it, 600 - 2 x 10 */
    assert_true(fabs(overlap_cycles(WAITED, 24) - 4 * 580) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_barriers_hold_every_warp_for_the_blocks_longest_shared_chain),
        cmocka_unit_test(test_a_256_thread_tree_with_one_block_per_sm_costs_8_steps_of_its_chain),
        cmocka_unit_test(test_without_barriers_each_warp_pays_its_own_instructions),
        cmocka_unit_test(test_a_double_buffered_copy_loop_pays_half_a_copy_latency_an_iteration),
        cmocka_unit_test(test_the_pipeline_depth_is_the_wait_the_warps_executed_most),
        cmocka_unit_test(test_a_copy_issued_before_the_work_hides_under_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
