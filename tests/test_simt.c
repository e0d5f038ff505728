/* test_simt.c - reconvergence (sim/interp/simt.c): a warp that splits around a branch
 * that could trap, return or exit, around loops with break and continue, and
 * around __syncwarp() and barriers, comes back together where ptxas puts the
 * BSYNC, so each instruction after the join runs once per warp.
 * Hand-written PTX gives exact control of the shapes (the shapes nvcc emits:
 * a return is a branch to the kernel's shared `ret`); the catalog's
 * demos/divergence.cu is the same through nvcc. Expectations come from the
 * kernels' C semantics: 32 warps that each store once make 32 warp-level
 * stores, whatever some of their lanes did before. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/interp/interp_priv.h"
#include "../sim/simulate.h"

#define NW 32                   /* warps per launch */
#define BLOCK 256               /* threads per block: 8 warps, 4 blocks */
#define NT (NW * 32)
#define IN_PAD 64               /* in[] holds NT + IN_PAD ints: loops read ahead */

/* --- harness ---------------------------------------------------------------- */

/* Every kernel starts the same: %r2 = i (global thread index), %r3 = lane,
 * %rd5 = &in[i], %rd6 = &aux[i], %rd7 = &out[i]; the body follows. */
static const char *prologue =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 4 .b32 sh[256];\n"
    ".visible .entry k(.param .u64 pin, .param .u64 paux, .param .u64 pout)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [paux];\n  ld.param.u64 %rd3, [pout];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r9, %ntid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r9, %r1;\n  and.b32 %r3, %r1, 31;\n"
    "  mul.wide.s32 %rd4, %r2, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n  add.s64 %rd7, %rd3, %rd4;\n";

typedef struct {
    ptx_module *mod;
    ws_launch L;
    ws_sim_result res;
    ws_error err;
    int rc;
    /* warp-level global accesses per buffer (0 in, 1 aux, 2 out) */
    int loads[3], stores[3];
    uint32_t out_mask_or;       /* lanes of all out stores together */
} simt_run;

static void on_event(void *ctx, const ws_mem_event *ev)
{
    simt_run *r = ctx;
    if (ev->space != WS_SPACE_GLOBAL) return;
    uint64_t a = ev->addr[__builtin_ctz(ev->active_mask)];
    for (int b = 0; b < 3; b++) {
        if (a < r->res.buffer_base[b] || a >= r->res.buffer_base[b] + r->L.buffers[b].bytes) continue;
        if (ev->op == WS_MEM_LOAD) r->loads[b]++;
        if (ev->op == WS_MEM_STORE) r->stores[b]++;
        if (ev->op == WS_MEM_STORE && b == 2) r->out_mask_or |= ev->active_mask;
    }
}

static void add_buffer(ws_launch *L, const char *name, uint64_t count, ws_init_kind init)
{
    ws_buffer *b = &L->buffers[L->nbuffers];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->type = WS_TYPE_INT;
    b->count = count;
    b->bytes = count * 4;
    b->init = init;
    L->args[L->nargs].kind = WS_ARG_BUFFER;
    L->args[L->nargs++].buffer = L->nbuffers++;
}

/* Runs prologue + body on NW warps with in[k] = k; budget 0 = the default.
 * The caller checks r->rc and calls done(). */
static void run_body(simt_run *r, const char *body, uint64_t budget)
{
    memset(r, 0, sizeof *r);
    size_t len = strlen(prologue) + strlen(body) + 8;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "%s%s}\n", prologue, body);
    r->mod = ptx_parse("simt.ptx", text, &r->err);
    free(text);
    if (!r->mod) fail_msg("%s:%d:%d: %s", r->err.file, r->err.line, r->err.col, r->err.msg);
    r->L.grid[0] = NT / BLOCK; r->L.grid[1] = r->L.grid[2] = 1;
    r->L.block[0] = BLOCK; r->L.block[1] = r->L.block[2] = 1;
    add_buffer(&r->L, "in", NT + IN_PAD, WS_INIT_INDEX);
    add_buffer(&r->L, "aux", NT, WS_INIT_ZERO);
    add_buffer(&r->L, "out", NT, WS_INIT_ZERO);
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r->mod;
    cfg.fn = &r->mod->funcs[0];
    cfg.launch = &r->L;
    cfg.source_file = "simt.cu";
    cfg.listener = on_event;
    cfg.listener_ctx = r;
    cfg.max_thread_insns = budget;
    r->rc = ws_sim_run(&cfg, &r->res, &r->err);
}

static void run_ok(simt_run *r, const char *body)
{
    run_body(r, body, 0);
    if (r->rc) {
        char msg[1200];
        ws_error_format(&r->err, msg, sizeof msg);
        fail_msg("%s", msg);
    }
}

static void done(simt_run *r)
{
    ws_sim_result_free(&r->res);
    ptx_free(r->mod);
}

static const int32_t *out_of(simt_run *r) { return r->res.buffer_data[2]; }
static const int32_t *aux_of(simt_run *r) { return r->res.buffer_data[1]; }

/* The branch of lanes 0-7 (%p1 = lane >= 8 skips it) reads in[i], which is
 * never negative, and may leave on a negative value; then out[i] = i. */
#define EIGHT_LANES_READ "  setp.ge.u32 %p1, %r3, 8;\n  @%p1 bra DONE;\n  ld.global.u32 %r4, [%rd5];\n"
#define STORE_AND_RET "DONE:\n  st.global.u32 [%rd7], %r2;\nRET:\n  ret;\n"

/* Each warp: lanes 0-7 load in[] once, and all 32 lanes store out[i] = i once. */
static void assert_one_load_and_one_full_store_per_warp(simt_run *r)
{
    assert_int_equal(r->loads[0], NW);
    assert_int_equal(r->stores[2], NW);
    assert_int_equal(r->out_mask_or, 0xffffffffu);
    for (int i = 0; i < NT; i++) assert_int_equal(out_of(r)[i], i);
}

/* --- branches that could leave --------------------------------------------- */

static void test_a_possible_trap_reconverges_before_the_store(void **state)
{
    (void)state;
    simt_run r;
    run_ok(&r, EIGHT_LANES_READ
               "  setp.ge.s32 %p2, %r4, 0;\n  @%p2 bra DONE;\n  trap;\n" STORE_AND_RET);
    assert_one_load_and_one_full_store_per_warp(&r);
    done(&r);
}

static void test_a_possible_return_to_the_shared_ret_reconverges_before_the_store(void **state)
{
    (void)state;
    simt_run r;
    run_ok(&r, EIGHT_LANES_READ
               "  setp.lt.s32 %p2, %r4, 0;\n  @%p2 bra RET;\n" STORE_AND_RET);
    assert_one_load_and_one_full_store_per_warp(&r);
    done(&r);
}

static void test_a_possible_exit_reconverges_before_the_store(void **state)
{
    (void)state;
    simt_run r;
    run_ok(&r, EIGHT_LANES_READ
               "  setp.ge.s32 %p2, %r4, 0;\n  @%p2 bra DONE;\n  exit;\n" STORE_AND_RET);
    assert_one_load_and_one_full_store_per_warp(&r);
    done(&r);
}

static void test_a_leaving_side_that_falls_through_also_reconverges(void **state)
{
    (void)state;
    simt_run r;
    /* the other layout: the leaving path is the fall-through, the staying one is taken */
    run_ok(&r, EIGHT_LANES_READ
               "  setp.ge.s32 %p2, %r4, 0;\n  @%p2 bra DONE;\n  bra.uni RET;\n" STORE_AND_RET);
    assert_one_load_and_one_full_store_per_warp(&r);
    done(&r);
}

static void test_nested_branches_that_may_return_reconverge_at_each_level(void **state)
{
    (void)state;
    simt_run r;
    /* if (lane < 16) { if (lane < 8) { if (in[i] < 0) return; } aux[i] = i; } out[i] = i; */
    run_ok(&r, "  setp.ge.u32 %p1, %r3, 16;\n  @%p1 bra DONE;\n"
               "  setp.ge.u32 %p3, %r3, 8;\n  @%p3 bra INNER;\n"
               "  ld.global.u32 %r4, [%rd5];\n  setp.lt.s32 %p2, %r4, 0;\n  @%p2 bra RET;\n"
               "INNER:\n  st.global.u32 [%rd6], %r2;\n" STORE_AND_RET);
    assert_one_load_and_one_full_store_per_warp(&r);
    assert_int_equal(r.stores[1], NW);               /* lanes 0-15 together */
    for (int i = 0; i < NT; i++) assert_int_equal(aux_of(&r)[i], i % 32 < 16 ? i : 0);
    done(&r);
}

static void test_lanes_that_store_and_return_leave_and_the_rest_store_once(void **state)
{
    (void)state;
    simt_run r;
    /* lanes 0-7 with i % 4 == 3 (lanes 3 and 7) store aux[i] = -1 and return, for real */
    run_ok(&r, EIGHT_LANES_READ
               "  and.b32 %r5, %r4, 3;\n  setp.ne.s32 %p2, %r5, 3;\n  @%p2 bra DONE;\n"
               "  mov.u32 %r6, -1;\n  st.global.u32 [%rd6], %r6;\n  bra.uni RET;\n" STORE_AND_RET);
    assert_int_equal(r.loads[0], NW);
    assert_int_equal(r.stores[1], NW);               /* the two leaving lanes of a warp: one store */
    assert_int_equal(r.stores[2], NW);               /* the 30 that stay: one store */
    for (int i = 0; i < NT; i++) {
        bool leaves = i % 32 < 8 && i % 4 == 3;
        assert_int_equal(out_of(&r)[i], leaves ? 0 : i);
        assert_int_equal(aux_of(&r)[i], leaves ? -1 : 0);
    }
    done(&r);
}

static void test_sides_that_never_meet_each_run_once_and_nothing_waits_forever(void **state)
{
    (void)state;
    simt_run r;
    /* if (lane < 8) { aux[i] = i; return; } out[i] = i: the two paths share only the ret */
    run_ok(&r, "  setp.ge.u32 %p1, %r3, 8;\n  @%p1 bra DONE;\n"
               "  st.global.u32 [%rd6], %r2;\n  bra.uni RET;\n" STORE_AND_RET);
    assert_int_equal(r.stores[1], NW);
    assert_int_equal(r.stores[2], NW);
    for (int i = 0; i < NT; i++) {
        assert_int_equal(aux_of(&r)[i], i % 32 < 8 ? i : 0);
        assert_int_equal(out_of(&r)[i], i % 32 < 8 ? 0 : i);
    }
    done(&r);
}

/* --- loops ----------------------------------------------------------------- */

/* div_loop's C: trips = lane % 8 + 1; for k < trips: v = in[i + k]; v < 0: return;
 * v % 5 == 4: continue; v % 7 == 6: break; s += v. Then out[i] = s. */
#define LOOP_BODY                                                                            \
    "  and.b32 %r10, %r1, 7;\n  mov.u32 %r11, 0;\n  mov.u32 %r12, 0;\n"                      \
    "LOOP:\n  add.s32 %r13, %r2, %r11;\n  mul.wide.s32 %rd8, %r13, 4;\n  add.s64 %rd9, %rd1, %rd8;\n" \
    "  ld.global.u32 %r4, [%rd9];\n  setp.lt.s32 %p2, %r4, 0;\n  @%p2 bra RET;\n"            \
    "  rem.u32 %r5, %r4, 5;\n  setp.eq.s32 %p3, %r5, 4;\n  @%p3 bra LATCH;\n"                \
    "  rem.u32 %r5, %r4, 7;\n  setp.eq.s32 %p4, %r5, 6;\n  @%p4 bra AFTER;\n"                \
    "  add.s32 %r12, %r12, %r4;\n"                                                           \
    "LATCH:\n  add.s32 %r14, %r11, 1;\n  setp.lt.u32 %p5, %r11, %r10;\n  mov.u32 %r11, %r14;\n" \
    "  @%p5 bra LOOP;\n"                                                                     \
    "AFTER:\n  st.global.u32 [%rd7], %r12;\nRET:\n  ret;\n"

static void loop_reference(int i, int *iterations, int *sum)
{
    int trips = i % 8 + 1, s = 0, it = 0;
    for (int k = 0; k < trips; k++) {
        int v = i + k;                               /* in = index */
        it++;
        if (v % 5 == 4) continue;
        if (v % 7 == 6) break;
        s += v;
    }
    *iterations = it;
    *sum = s;
}

static void test_a_loop_with_continue_break_and_return_loads_once_per_iteration_and_stores_once(void **state)
{
    (void)state;
    simt_run r;
    run_ok(&r, LOOP_BODY);
    /* continue rejoins at the latch and break waits after the loop, so every
     * iteration that any lane runs is one load, and the store after the loop one */
    int loads = 0;
    for (int w = 0; w < NW; w++) {
        int most = 0;
        for (int l = 0; l < 32; l++) {
            int it, s;
            loop_reference(w * 32 + l, &it, &s);
            if (it > most) most = it;
            assert_int_equal(out_of(&r)[w * 32 + l], s);
        }
        loads += most;
    }
    assert_int_equal(r.loads[0], loads);
    assert_int_equal(r.stores[2], NW);
    assert_int_equal(r.out_mask_or, 0xffffffffu);
    done(&r);
}

static void test_a_loop_at_the_kernels_first_instruction_still_holds_lanes_that_leave_early(void **state)
{
    (void)state;
    /* no prologue: the header is pc 0; lane t leaves after t % 8 + 1 trips through a break */
    const char *text =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 pin, .param .u64 paux, .param .u64 pout)\n{\n"
        "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<16>;\n"
        "LOOP:\n  add.u32 %r5, %r5, 1;\n  mov.u32 %r1, %tid.x;\n  and.b32 %r3, %r1, 7;\n"
        "  setp.gt.u32 %p1, %r5, %r3;\n  @%p1 bra AFTER;\n"
        "  setp.lt.u32 %p2, %r5, 100;\n  @%p2 bra LOOP;\n"
        "AFTER:\n  ld.param.u64 %rd3, [pout];\n  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd7, %rd3, %rd4;\n"
        "  st.global.u32 [%rd7], %r5;\n  ret;\n}\n";
    simt_run r;
    memset(&r, 0, sizeof r);
    r.mod = ptx_parse("simt.ptx", text, &r.err);
    assert_non_null(r.mod);
    r.L.grid[0] = r.L.grid[1] = r.L.grid[2] = 1;
    r.L.block[0] = 64; r.L.block[1] = r.L.block[2] = 1;
    add_buffer(&r.L, "in", 64, WS_INIT_INDEX);
    add_buffer(&r.L, "aux", 64, WS_INIT_ZERO);
    add_buffer(&r.L, "out", 64, WS_INIT_ZERO);
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r.mod;
    cfg.fn = &r.mod->funcs[0];
    cfg.launch = &r.L;
    cfg.listener = on_event;
    cfg.listener_ctx = &r;
    assert_int_equal(ws_sim_run(&cfg, &r.res, &r.err), 0);
    assert_int_equal(r.stores[2], 2);                /* 2 warps, one store each */
    for (int t = 0; t < 64; t++) assert_int_equal(out_of(&r)[t], t % 8 + 1);
    done(&r);
}

/* A search: lane t finds in[i + k] == i + t % 4 at k = t % 4 and takes the exit
 * `exit`; lanes that never find fall out of the loop into aux[i] = -2. */
#define SEARCH(found_exit)                                                                  \
    "  and.b32 %r10, %r1, 3;\n  add.s32 %r15, %r2, %r10;\n  mov.u32 %r11, 0;\n"              \
    "LOOP:\n  add.s32 %r13, %r2, %r11;\n  mul.wide.s32 %rd8, %r13, 4;\n  add.s64 %rd9, %rd1, %rd8;\n" \
    "  ld.global.u32 %r4, [%rd9];\n  setp.eq.s32 %p2, %r4, %r15;\n  @%p2 bra FOUND;\n"       \
    "  add.s32 %r11, %r11, 1;\n  setp.lt.u32 %p5, %r11, 64;\n  @%p5 bra LOOP;\n"             \
    "  mov.u32 %r11, -2;\n  st.global.u32 [%rd6], %r11;\n  bra.uni " found_exit ";\n"         \
    "FOUND:\n  st.global.u32 [%rd6], %r11;\n"

static void test_lanes_that_store_and_return_from_a_search_loop_store_in_the_iteration_they_leave(void **state)
{
    (void)state;
    simt_run r;
    /* the two exits never meet (each stores and returns), so the loop has no
     * join; the side that leaves runs first (the documented order), so a warp
     * stores aux in each of the 4 iterations in which lanes find. (ptxas puts
     * the loop's BSYNC at one exit or the other by its own heuristics, and
     * where it picks the found block the GPU stores once: docs/interp.md.) */
    run_ok(&r, SEARCH("RET") "RET:\n  ret;\n");
    assert_int_equal(r.loads[0], 4 * NW);
    assert_int_equal(r.stores[1], 4 * NW);
    for (int i = 0; i < NT; i++) assert_int_equal(aux_of(&r)[i], i % 4);
    done(&r);
}

static void test_lanes_that_store_and_break_from_a_loop_store_in_the_iteration_they_leave(void **state)
{
    (void)state;
    simt_run r;
    /* the exits meet after the store (out[i] = i): the loop's join is there, and a
     * side that breaks out runs before the side that goes on (the documented
     * order), so a warp stores aux in each of the 4 iterations in which lanes find */
    run_ok(&r, SEARCH("DONE") STORE_AND_RET);
    assert_int_equal(r.loads[0], 4 * NW);
    assert_int_equal(r.stores[1], 4 * NW);
    assert_int_equal(r.stores[2], NW);
    for (int i = 0; i < NT; i++) {
        assert_int_equal(aux_of(&r)[i], i % 4);
        assert_int_equal(out_of(&r)[i], i);
    }
    done(&r);
}

static void test_an_irreducible_loop_entered_at_two_points_still_runs_every_lane_to_its_result(void **state)
{
    (void)state;
    simt_run r;
    /* not nvcc's shape: lanes 16-31 enter at A, lanes 0-15 at B; A counts r5, B
     * counts r6, each loops back to the other until its count reaches 3 */
    run_ok(&r, "  mov.u32 %r5, 0;\n  mov.u32 %r6, 0;\n  setp.lt.u32 %p1, %r3, 16;\n  @%p1 bra B;\n"
               "A:\n  add.s32 %r5, %r5, 1;\n  setp.lt.s32 %p2, %r5, 3;\n  @!%p2 bra OUT;\n"
               "B:\n  add.s32 %r6, %r6, 1;\n  setp.lt.s32 %p3, %r6, 3;\n  @%p3 bra A;\n"
               "OUT:\n  mad.lo.s32 %r7, %r5, 10, %r6;\n  st.global.u32 [%rd7], %r7;\n  ret;\n");
    /* from A: r5 1, r6 1, r5 2, r6 2, r5 3 -> 32; from B: r6 1, r5 1, r6 2, r5 2, r6 3 -> 23 */
    for (int i = 0; i < NT; i++) assert_int_equal(out_of(&r)[i], i % 32 < 16 ? 23 : 32);
    assert_int_equal(r.stores[2], NW);                /* both entries' lanes meet at OUT */
    done(&r);
}

/* --- warp and block synchronisation ----------------------------------------- */

static void test_syncwarp_after_a_possible_trap_sees_the_warp_converged(void **state)
{
    (void)state;
    simt_run r;
    run_ok(&r, EIGHT_LANES_READ
               "  setp.ge.s32 %p2, %r4, 0;\n  @%p2 bra DONE;\n  trap;\n"
               "DONE:\n  bar.warp.sync -1;\n  activemask.b32 %r7;\n  st.global.u32 [%rd6], %r7;\n"
               "  st.global.u32 [%rd7], %r2;\n  ret;\n");
    assert_one_load_and_one_full_store_per_warp(&r);
    for (int i = 0; i < NT; i++) assert_int_equal((uint32_t)aux_of(&r)[i], 0xffffffffu);
    done(&r);
}

static void test_a_barrier_after_a_possible_trap_is_reached_by_whole_warps(void **state)
{
    (void)state;
    simt_run r;
    /* mirror[t] = i; __syncthreads(); out[i] = mirror[255 - t] */
    run_ok(&r, EIGHT_LANES_READ
               "  setp.ge.s32 %p2, %r4, 0;\n  @%p2 bra DONE;\n  trap;\n"
               "DONE:\n  mov.u64 %rd10, sh;\n  mul.wide.u32 %rd11, %r1, 4;\n  add.s64 %rd12, %rd10, %rd11;\n"
               "  st.shared.u32 [%rd12], %r2;\n  bar.sync 0;\n"
               "  sub.s32 %r8, 255, %r1;\n  mul.wide.u32 %rd13, %r8, 4;\n  add.s64 %rd14, %rd10, %rd13;\n"
               "  ld.shared.u32 %r6, [%rd14];\n  st.global.u32 [%rd7], %r6;\n  ret;\n");
    assert_int_equal(r.loads[0], NW);
    assert_int_equal(r.stores[2], NW);
    for (int i = 0; i < NT; i++) assert_int_equal(out_of(&r)[i], i / BLOCK * BLOCK + (BLOCK - 1 - i % BLOCK));
    done(&r);
}

static void test_an_intra_warp_spin_lock_never_finishes_as_on_the_gpu(void **state)
{
    (void)state;
    simt_run r;
    /* warp 0: while (atomicCAS(lock, 0, 1) != 0); ... atomicExch(lock, 0): the lane that wins
     * waits after the loop for the lanes that spin, which wait for it: ptxas
     * brackets the loop with BSSY/BSYNC, so the GPU hangs too. The failing CAS changes nothing, so
     * the progress watch finds it long before the budget. */
    run_body(&r, "  setp.ge.u32 %p1, %r2, 32;\n  @%p1 bra DONE;\n"
                 "SPIN:\n  atom.global.cas.b32 %r5, [%rd2], 0, 1;\n  setp.ne.s32 %p2, %r5, 0;\n  @%p2 bra SPIN;\n"
                 "  atom.global.exch.b32 %r6, [%rd2], 0;\n" STORE_AND_RET, 2000000);
    assert_int_not_equal(r.rc, 0);
    char msg[1200];
    ws_error_format(&r.err, msg, sizeof msg);
    assert_non_null(strstr(msg, "endless loop: this warp loops at this line forever"));
    done(&r);
}

static void test_a_spin_lock_that_releases_inside_the_loop_lets_every_lane_through(void **state)
{
    (void)state;
    simt_run r;
    /* done = false; while (!done) if (atomicCAS(lock, 0, 1) == 0) { aux[1]++; unlock; done = true; }
     * (aux[0] is the lock): lanes take turns, each adds once */
    run_ok(&r, "  mov.u32 %r7, 0;\n"
               "SPIN:\n  atom.global.cas.b32 %r5, [%rd2], 0, 1;\n  setp.ne.s32 %p2, %r5, 0;\n  @%p2 bra NEXT;\n"
               "  ld.volatile.global.u32 %r6, [%rd2+4];\n  add.s32 %r6, %r6, 1;\n  st.volatile.global.u32 [%rd2+4], %r6;\n"
               "  atom.global.exch.b32 %r6, [%rd2], 0;\n  mov.u32 %r7, 1;\n"
               "NEXT:\n  setp.eq.s32 %p3, %r7, 0;\n  @%p3 bra SPIN;\n" STORE_AND_RET);
    assert_int_equal(aux_of(&r)[0], 0);
    assert_int_equal(aux_of(&r)[1], NT);
    assert_int_equal(r.stores[2], NW);
    done(&r);
}

/* --- the joins themselves --------------------------------------------------- */

/* pc of the first instruction after `label:` in the single function of text. */
static int pc_after(const ptx_function *fn, const char *text, const char *label)
{
    const char *at = strstr(text, label);
    assert_non_null(at);
    int line = 1;
    for (const char *c = text; c < at; c++) line += *c == '\n';
    for (int i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].ptx_line > line) return i;
    return fn->ninsns;
}

static void test_the_join_of_a_branch_around_a_possible_return_is_where_the_staying_paths_meet(void **state)
{
    (void)state;
    char text[4096];
    snprintf(text, sizeof text, "%s%s}\n", prologue,
             "  setp.ge.u32 %p1, %r3, 8;\n  @%p1 bra DONE;\n  ld.global.u32 %r4, [%rd5];\n"
             "  setp.lt.s32 %p2, %r4, 0;\n  @%p2 bra RET;\n" STORE_AND_RET);
    ws_error err;
    ptx_module *m = ptx_parse("simt.ptx", text, &err);
    assert_non_null(m);
    const ptx_function *fn = &m->funcs[0];
    int n = fn->ninsns, outer = -1, inner = -1;
    for (int i = 0; i < n; i++)
        if (fn->insns[i].op == PTX_BRA) { if (outer < 0) outer = i; else inner = i; }
    int32_t *ipdom = malloc(2 * (size_t)n * sizeof *ipdom);
    assert_non_null(ipdom);
    assert_int_equal(sim_simt_joins(fn, ipdom, ipdom + n), 0);
    int store = pc_after(fn, text, "DONE:");
    /* the plain post-dominator of the outer branch is the ret (the returning
     * path skips the store); the staying paths meet at the store */
    assert_int_equal(ipdom[outer], store);
    /* the inner branch's taken side only leaves: the join is its other side */
    assert_int_equal(ipdom[inner], store);
    for (int i = 0; i < n; i++) assert_int_equal(ipdom[n + i], SIM_NO_JOIN);   /* no loop */
    free(ipdom);
    ptx_free(m);
}

static void test_a_loops_header_gets_the_join_after_the_loop_and_continue_the_latch(void **state)
{
    (void)state;
    char text[8192];
    snprintf(text, sizeof text, "%s%s}\n", prologue, LOOP_BODY);
    ws_error err;
    ptx_module *m = ptx_parse("simt.ptx", text, &err);
    assert_non_null(m);
    const ptx_function *fn = &m->funcs[0];
    int n = fn->ninsns;
    int32_t *j = malloc(2 * (size_t)n * sizeof *j);
    assert_non_null(j);
    assert_int_equal(sim_simt_joins(fn, j, j + n), 0);
    int head = pc_after(fn, text, "LOOP:"), latch = pc_after(fn, text, "LATCH:"), after = pc_after(fn, text, "AFTER:");
    assert_int_equal(j[n + head], after);           /* lanes leaving the loop meet after it */
    int branches[5], nb = 0;
    for (int i = 0; i < n; i++)
        if (fn->insns[i].op == PTX_BRA && fn->insns[i].guard >= 0 && i > head && nb < 5) branches[nb++] = i;
    assert_int_equal(nb, 4);                         /* return, continue, break, back edge */
    assert_int_equal(j[branches[0]], branches[0] + 1);   /* return: the staying side */
    assert_int_equal(j[branches[1]], latch);             /* continue: the latch */
    assert_int_equal(j[branches[2]], branches[2] + 1);   /* break: the side that stays in the loop */
    assert_int_equal(j[branches[3]], head);              /* back edge: the next iteration */
    free(j);
    ptx_free(m);
}

/* --- the catalog's divergence.cu, through nvcc ------------------------------ */

static void test_every_divergence_demo_stores_once_per_warp_after_its_branch(void **state)
{
    (void)state;
    ws_catalog *cat;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    /* -D N=8192: 32 blocks of 256 threads = 256 warps; stores per warp as each banner says
     * (aux: the path that leaves, or the nested/searching lanes; out: the final store) */
    static const struct { const char *k; int aux_per_warp, out_per_warp; } cases[] = {
        {"div_copy", 0, 1}, {"div_trap", 0, 1}, {"div_return", 0, 1}, {"div_exit", 0, 1},
        {"div_return_taken", 1, 1}, {"div_nested", 1, 1}, {"div_loop", 0, 1},
        {"div_syncwarp", 0, 1}, {"div_barrier", 0, 1}
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ws_simulation s;
        memset(&s, 0, sizeof s);
        ws_overrides ov;
        memset(&ov, 0, sizeof ov);
        assert_int_equal(ws_overrides_add(&ov, "N=8192", &err), 0);
        char arg[128];
        snprintf(arg, sizeof arg, "demos/divergence.cu:%s", cases[c].k);
        if (ws_simulation_open(&s, cat, arg, &ov, ws_device_find("h200"), NULL, &err) != WS_EXIT_OK ||
            ws_simulation_run(&s, NULL, &err) != WS_EXIT_OK) {
            char msg[1200];
            ws_error_format(&err, msg, sizeof msg);
            fail_msg("%s: %s", cases[c].k, msg);
        }
        ws_metric rows[128];
        int nr = ws_memstats_metrics(s.ms, rows, 128);
        double st = -1, ld = -1;
        for (int i = 0; i < nr; i++) {
            if (!strcmp(rows[i].name, "smsp__sass_inst_executed_op_global_st.sum")) st = rows[i].value;
            if (!strcmp(rows[i].name, "smsp__sass_inst_executed_op_global_ld.sum")) ld = rows[i].value;
        }
        const int warps = 8192 / 32;
        if (st != (double)warps * (cases[c].aux_per_warp + cases[c].out_per_warp))
            fail_msg("%s: %.0f global store instructions for %d warps", cases[c].k, st, warps);
        /* lanes 0-7 read in[i] once (div_loop: test_a_loop_with_continue_...) */
        if (strcmp(cases[c].k, "div_loop") != 0 && ld != warps)
            fail_msg("%s: %.0f global load instructions for %d warps", cases[c].k, ld, warps);
        ws_simulation_close(&s);
    }
    ws_catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_possible_trap_reconverges_before_the_store),
        cmocka_unit_test(test_a_possible_return_to_the_shared_ret_reconverges_before_the_store),
        cmocka_unit_test(test_a_possible_exit_reconverges_before_the_store),
        cmocka_unit_test(test_a_leaving_side_that_falls_through_also_reconverges),
        cmocka_unit_test(test_nested_branches_that_may_return_reconverge_at_each_level),
        cmocka_unit_test(test_lanes_that_store_and_return_leave_and_the_rest_store_once),
        cmocka_unit_test(test_sides_that_never_meet_each_run_once_and_nothing_waits_forever),
        cmocka_unit_test(test_a_loop_with_continue_break_and_return_loads_once_per_iteration_and_stores_once),
        cmocka_unit_test(test_a_loop_at_the_kernels_first_instruction_still_holds_lanes_that_leave_early),
        cmocka_unit_test(test_lanes_that_store_and_return_from_a_search_loop_store_in_the_iteration_they_leave),
        cmocka_unit_test(test_lanes_that_store_and_break_from_a_loop_store_in_the_iteration_they_leave),
        cmocka_unit_test(test_an_irreducible_loop_entered_at_two_points_still_runs_every_lane_to_its_result),
        cmocka_unit_test(test_syncwarp_after_a_possible_trap_sees_the_warp_converged),
        cmocka_unit_test(test_a_barrier_after_a_possible_trap_is_reached_by_whole_warps),
        cmocka_unit_test(test_an_intra_warp_spin_lock_never_finishes_as_on_the_gpu),
        cmocka_unit_test(test_a_spin_lock_that_releases_inside_the_loop_lets_every_lane_through),
        cmocka_unit_test(test_the_join_of_a_branch_around_a_possible_return_is_where_the_staying_paths_meet),
        cmocka_unit_test(test_a_loops_header_gets_the_join_after_the_loop_and_continue_the_latch),
        cmocka_unit_test(test_every_divergence_demo_stores_once_per_warp_after_its_branch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
