/* test_invariants.c - the structure checkers behind WS_ASSERT (common/ws_assert.h): each
 * passes a structure built the way the code builds it and catches one deliberately broken,
 * and a broken invariant at its WS_ASSERT aborts with file:line and the expression (this
 * test binary is built with WS_ASSERTS, like every sanitizer object). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/device.h"
#include "../sim/interp/interp_priv.h"
#include "../sim/models/latency.h"
#include "../sim/models/memstats.h"
#include "../sim/models/models.h"

static ws_launch one_block(uint32_t threads)
{
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = threads;
    L.block[1] = L.block[2] = 1;
    return L;
}

/* a full-warp global load of consecutive floats: one request of 4 sectors */
static ws_mem_event global_load(uint32_t pc)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_GLOBAL;
    ev.op = WS_MEM_LOAD;
    ev.width = ev.elem_size = 4;
    ev.vec = 1;
    ev.pc = pc;
    ev.active_mask = 0xFFFFFFFFu;
    for (int l = 0; l < 32; l++) ev.addr[l] = WS_GLOBAL_BASE + 4u * (uint64_t)l;
    return ev;
}

static void test_an_inactive_lane_with_an_address_breaks_the_event_invariant(void **state)
{
    (void)state;
    ws_mem_event ev = global_load(0);
    assert_int_equal(ws_mem_event_check(&ev), 0);
    ev.active_mask = 0xFFFFFFFEu;              /* lane 0 off, but its address still there */
    assert_int_equal(ws_mem_event_check(&ev), 1);
    ev.addr[0] = 0;
    assert_int_equal(ws_mem_event_check(&ev), 0);
    ev.space = (ws_space)9;
    assert_int_equal(ws_mem_event_check(&ev), 2);
}

static void test_a_coalescer_result_on_a_shared_event_breaks_the_verdict_invariant(void **state)
{
    (void)state;
    ws_mem_event ev = global_load(0);
    ws_coalesce_result co;
    ws_bank_result bk;
    ws_mem_verdict v;
    ws_models_geometry(&ev, 0, &co, &bk, &v);
    assert_non_null(v.co);                     /* the models' own verdict holds */
    assert_int_equal(ws_mem_verdict_check(&v), 0);
    ev.space = WS_SPACE_SHARED;                /* the same co now on a shared event */
    assert_int_equal(ws_mem_verdict_check(&v), 1);
    ev.space = WS_SPACE_GLOBAL;
    v.bk = &bk;                                /* bank conflicts on a global access */
    assert_int_equal(ws_mem_verdict_check(&v), 2);
    v.bk = NULL;
    v.co = NULL;
    v.ca = (const ws_cache_access *)&co;       /* a cache outcome without a coalesced access */
    assert_int_equal(ws_mem_verdict_check(&v), 3);
}

/* memstats fed one global load at pc 0 and one outside the function (pc 7 of 2) */
static ws_memstats *fed_memstats(ws_launch *L)
{
    ws_memstats *ms = ws_memstats_new(ws_device_default(), L, 2);
    assert_non_null(ms);
    ws_coalesce_result co;
    ws_bank_result bk;
    ws_mem_verdict v;
    ws_mem_event a = global_load(0), b = global_load(7);
    ws_models_geometry(&a, 0, &co, &bk, &v);
    ws_memstats_verdict(ms, &v);
    ws_models_geometry(&b, 0, &co, &bk, &v);
    ws_memstats_verdict(ms, &v);
    return ms;
}

static void test_totals_are_the_pc_rows_plus_out_of_function_events(void **state)
{
    (void)state;
    ws_launch L = one_block(32);
    ws_memstats *ms = fed_memstats(&L);
    assert_int_equal(ws_memstats_check(ms), 0);
    ws_memstats_finish(ms, NULL);
    /* 32 consecutive floats: 4 sectors each; the row holds one load, the totals both */
    assert_int_equal(ws_memstats_pc(ms, 0)->sectors, 4);
    assert_int_equal(ws_memstats_totals(ms)->global[WS_MEM_LOAD].sectors, 8);
    ((ws_pc_stats *)ws_memstats_pc(ms, 0))->sectors++;   /* a row that no longer adds up */
    assert_int_equal(ws_memstats_check(ms), 2);            /* the second sum: sectors */
    ws_memstats_free(ms);
}

static void test_an_open_latency_epoch_is_caught_and_finish_closes_it(void **state)
{
    (void)state;
    ws_launch L = one_block(32);
    ws_latency *l = ws_latency_new(ws_device_default(), &L);
    assert_non_null(l);
    ws_mem_event ev = global_load(0);
    ws_mem_verdict v;
    memset(&v, 0, sizeof v);
    v.ev = &ev;
    v.has_latency = 1;
    v.latency = 600;                           /* a load in flight: its warp's epoch is open */
    ws_latency_verdict(l, &v);
    assert_int_equal(ws_latency_check(l), 1);
    ws_latency_finish(l);
    assert_int_equal(ws_latency_check(l), 0);
    assert_true(ws_latency_sm_cycles(l, 0) == 600);   /* charged once, to block 0's SM */
    ws_latency_free(l);
}

static void test_a_simt_entry_with_exited_lanes_breaks_the_stack_invariant(void **state)
{
    (void)state;
    sim_simt_entry st[4] = {{5, -1, 0xF}, {3, 5, 0x3}, {4, 5, 0xC}};
    sim_warp w;
    memset(&w, 0, sizeof w);
    w.stack = st;
    w.cap = 4;
    w.sp = 3;
    w.live = 0xF;
    w.exit_node = 10;
    assert_int_equal(sim_simt_check(&w), 0);
    w.live = 0x7;                              /* lane 3 exited, but an entry still holds it */
    assert_int_equal(sim_simt_check(&w), 2);
    w.live = 0xF;
    st[2].pc = 11;                             /* past the function's exit */
    assert_int_equal(sim_simt_check(&w), 3);
    st[2].pc = 4;
    w.sp = 5;                                  /* more entries than room */
    assert_int_equal(sim_simt_check(&w), 1);
}

static void test_a_decoded_operand_outside_the_value_file_is_caught(void **state)
{
    (void)state;
    ptx_insn pi[2];
    memset(pi, 0, sizeof pi);
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.insns = pi;
    fn.ninsns = 2;
    sim_insn si[2];
    memset(si, 0, sizeof si);
    /* 1 register (words 0..31), no special registers, scratch 32..95, no immediates */
    sim_program p = {.fn = &fn, .n = 2, .insns = si, .sreg_off = 32, .scratch_off = 32, .imm_off = 96,
                     .file_words = 96};
    for (int i = 0; i < 2; i++) {
        si[i].pi = &pi[i];
        si[i].cls = SIM_CLS_ALU;
        si[i].ipdom = si[i].loop_join = SIM_NO_JOIN;
        si[i].guard = -1;
        si[i].mem_base = -1;
        for (int k = 0; k < PTX_MAX_OPND; k++) si[i].src[k] = 32;
        for (int e = 0; e < 4; e++) si[i].vec[e] = 32;
    }
    si[0].src[0] = 0;
    assert_int_equal(sim_program_check(&p), 0);
    si[1].src[2] = 96;                         /* lanes 96..127: past file_words */
    assert_int_equal(sim_program_check(&p), 2 + 1);
    si[1].src[2] = 32;
    si[0].cls = SIM_CLS_BRA;
    si[0].target = 3;                          /* a branch past the exit (pc 2) */
    assert_int_equal(sim_program_check(&p), 2 + 0);
    si[0].target = 2;
    assert_int_equal(sim_program_check(&p), 0);
    p.file_words = 128;                        /* 32 words nobody placed */
    assert_int_equal(sim_program_check(&p), 1);
}

/* The WS_ASSERT in ws_memstats_finish, reached with a corrupted row in a child process:
 * it must print where and what, and abort. */
static void test_a_broken_invariant_aborts_with_file_line_and_expression(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        ws_launch L = one_block(32);
        ws_memstats *ms = fed_memstats(&L);
        ((ws_pc_stats *)ws_memstats_pc(ms, 0))->lines += 3;
        ws_memstats_finish(ms, NULL);
        _exit(0);                              /* reached only when the assertion is compiled out */
    }
    close(fd[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)k;
    buf[n] = 0;
    close(fd[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGABRT);
    assert_non_null(strstr(buf, "sim/models/memstats.c:"));
    assert_non_null(strstr(buf, ": assertion failed: ws_memstats_check(ms) == 0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_inactive_lane_with_an_address_breaks_the_event_invariant),
        cmocka_unit_test(test_a_coalescer_result_on_a_shared_event_breaks_the_verdict_invariant),
        cmocka_unit_test(test_totals_are_the_pc_rows_plus_out_of_function_events),
        cmocka_unit_test(test_an_open_latency_epoch_is_caught_and_finish_closes_it),
        cmocka_unit_test(test_a_simt_entry_with_exited_lanes_breaks_the_stack_invariant),
        cmocka_unit_test(test_a_decoded_operand_outside_the_value_file_is_caught),
        cmocka_unit_test(test_a_broken_invariant_aborts_with_file_line_and_expression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
