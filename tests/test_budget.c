/* test_budget.c - budgets that predict (issue 25 item 5): the warpscope binary ($WS_BIN, or
 * build/asan/warpscope) on the kernels of tests/data/budget/budget.cu. Endless loops whose state
 * keeps changing - a count in memory, a count in a register, a cooperative grid.sync() or a block
 * barrier that one warp's counting loop never reaches, block 5 of 8 counting - are stopped with
 * exit 2, their kind and line, after fewer thread-instructions than a tenth of the budget and well
 * within BOUND_SECONDS
 * (before: at the budget, 15-73 s in the release build on the 2-core build machine); the same
 * message on 1 and 2 threads. Counting loops whose count does decide, through memory or another
 * warp, run to their end. A launch whose block 0 does all the work is not refused; one whose
 * blocks all work is refused after its first 4 with the estimate of the full run (within 1 %)
 * and the time it would take; a grid of 2^31-1 blocks is refused before any block runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/commands.h"
#include "child_run.h"

/* "Within seconds": the stops need well under 1 s in a release build; this leaves room for the
 * sanitizer build on a loaded 2-core machine, and is still under the old stop at the budget. */
#define BOUND_SECONDS 12.0
#define KERNELS "tests/data/budget/budget.cu"
#define BUDGET 4000000000.0   /* WS_SIM_DEFAULT_BUDGET */

static char g_dir[64];
static char g_err[16384];
static char g_out[1 << 20];
static double g_seconds;          /* wall time of the last run */

/* Runs warpscope with args (NULL-terminated); returns its exit code, stdout in g_out, stderr in g_err. */
static int run_ws(const char *const *args)
{
    char outpath[128];
    snprintf(outpath, sizeof outpath, "%s/stdout.txt", g_dir);
    int rc = ws_test_run_child(args, g_dir, outpath, g_err, sizeof g_err, &g_seconds);
    ws_test_read_file(outpath, g_out, sizeof g_out);
    return rc;
}

static void expect(int rc, int want_rc, const char *const *want, double max_seconds)
{
    if (rc != want_rc) fail_msg("exit %d, want %d: %s", rc, want_rc, g_err);
    for (int i = 0; want[i]; i++)
        if (!strstr(g_err, want[i])) fail_msg("missing '%s' in: %s", want[i], g_err);
    if (g_seconds > max_seconds) fail_msg("took %.1f s, more than %.0f s: %s", g_seconds, max_seconds, g_err);
}

/* The number after `key` in g_err (or g_out when in_out), or -1. */
static double number_after(const char *key, bool in_out)
{
    const char *p = strstr(in_out ? g_out : g_err, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws_budget_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char p[128];
    snprintf(p, sizeof p, "%s/stderr.txt", g_dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/stdout.txt", g_dir);
    unlink(p);
    rmdir(g_dir);
    return 0;
}

/* kernel at -j 1 and -j 2: exit 2 with `want`, found after less than a tenth of the budget, and
 * the same message on both (the stop depends on the blocks' execution only). */
static void stops_alike(const char *kernel, const char *const *want)
{
    char k[128];
    snprintf(k, sizeof k, KERNELS ":%s", kernel);
    const char *a[] = {"sim", k, "-j", "1", NULL};
    expect(run_ws(a), WS_EXIT_KERNEL_FAULT, want, BOUND_SECONDS);
    double found = number_after("found after ", false);
    if (found <= 0 || found > BUDGET / 10) fail_msg("found after %.0f thread-instructions: %s", found, g_err);
    char first[sizeof g_err];
    memcpy(first, g_err, sizeof first);
    const char *b[] = {"sim", k, "-j", "2", NULL};
    expect(run_ws(b), WS_EXIT_KERNEL_FAULT, want, BOUND_SECONDS);
    assert_string_equal(first, g_err);
}

/* --- loops whose state keeps changing, stopped in seconds ----------------------------------- */

/* while (flag[0] == 0) out[t] = out[t] + 1; (line 21): every turn changes memory, but no branch
 * or address reads out[]. Before: at the budget, 33-73 s. */
static void test_a_count_in_memory_that_decides_nothing_is_an_endless_loop(void **state)
{
    (void)state;
    const char *want[] = {KERNELS ":21: error: count_in_memory: block (0,0,0)", "endless loop",
                          "its path and the registers that decide it repeat", NULL};
    stops_alike("count_in_memory", want);
}

/* while (flag[0] == 0) n++; (line 36): no memory changes, the register n does. Before: at the
 * budget, 15-34 s. */
static void test_a_count_in_a_register_that_decides_nothing_is_an_endless_loop(void **state)
{
    (void)state;
    const char *want[] = {KERNELS ":36: error: count_in_register: block (0,0,0)", "endless loop", NULL};
    stops_alike("count_in_register", want);
}

/* Cooperative: block 3 counts in memory at line 57 and never reaches grid.sync() (line 58), where
 * blocks 0-2 wait. Before: at the budget, 37-48 s. */
static void test_a_grid_sync_one_block_never_reaches_while_counting_is_a_deadlock(void **state)
{
    (void)state;
    const char *want[] = {KERNELS ":57: error: count_at_grid_sync: block (3,0,0)", "deadlock",
                          "wait at a barrier (line 58) that nothing can complete", NULL};
    stops_alike("count_at_grid_sync", want);
}

/* Warp 0 at __syncthreads() (line 76); warp 1 counts its turns at line 79 waiting for a flag warp 0
 * sets after the barrier. Before: at the budget, 9-15 s. */
static void test_a_barrier_whose_partner_counts_while_it_spins_is_a_deadlock(void **state)
{
    (void)state;
    const char *want[] = {KERNELS ":79: error: count_at_barrier: block (0,0,0) warp 1", "deadlock",
                          "1 warp waits at a barrier (line 76)", NULL};
    stops_alike("count_at_barrier", want);
}

/* Of 8 blocks, block 5 counts in a register at line 186: on 2 threads a worker runs it, and the
 * message (its block, its own instruction count) is the one-thread run's. */
static void test_a_later_block_that_counts_forever_is_stopped_alike_on_any_j(void **state)
{
    (void)state;
    const char *want[] = {KERNELS ":186: error: count_in_block_5: block (5,0,0) warp 0", "endless loop",
                          "thread-instructions of its block", NULL};
    stops_alike("count_in_block_5", want);
}

/* --- counts that decide: they run to their end ------------------------------------------------ */

/* Each thread stores n >> 18 and reads it back: 2^18 turns of stores of what is already there
 * (the count reaches the test only through memory), then a 1; and warp 1 waits until warp 0's
 * counts reach 200000. Both run well past the slice's start (2^24 thread-instructions). */
static void test_counts_that_decide_through_memory_run_to_their_end(void **state)
{
    (void)state;
    const char *want[] = {"", NULL};
    const char *a[] = {"sim", KERNELS ":count_decides_through_memory", "--json", NULL};
    expect(run_ws(a), WS_EXIT_OK, want, 60);
    double tins = number_after("\"thread_instructions\":", true);
    if (tins < (double)(1u << 24)) fail_msg("ran %.0f thread-instructions: not past the slice's start", tins);
    const char *b[] = {"sim", KERNELS ":count_read_by_other_warp", "--json", NULL};
    expect(run_ws(b), WS_EXIT_OK, want, 60);
    tins = number_after("\"thread_instructions\":", true);
    if (tins < (double)(1u << 24)) fail_msg("ran %.0f thread-instructions: not past the slice's start", tins);
}

/* --- the budget, predicted -------------------------------------------------------------------- */

/* Block 0 runs 64 threads x 1.5 M turns (about 1.7e8 thread-instructions), the other 63 return: the
 * launch fits the budget. Priced at block 0's cost, its 64 blocks would make 1.1e10: the old
 * projection refused it after one block; the cheapest of the first 4 does not. */
static void test_a_launch_whose_block_0_does_all_the_work_is_not_refused(void **state)
{
    (void)state;
    const char *want[] = {"", NULL};
    const char *a[] = {"sim", KERNELS ":block0_does_all", "-j", "1", NULL};
    expect(run_ws(a), WS_EXIT_OK, want, 60);
    const char *b[] = {"sim", KERNELS ":block0_does_all", "-j", "2", NULL};
    expect(run_ws(b), WS_EXIT_OK, want, 60);
}

/* 64 alike blocks under a budget of 5e7: refused after 4 blocks, the estimate within 1 % of what the
 * whole launch runs (counted by running it), with the time it would take; the same on 2 threads. */
static void test_alike_blocks_beyond_twice_the_budget_are_refused_after_four(void **state)
{
    (void)state;
    const char *want0[] = {"", NULL};
    const char *full[] = {"sim", KERNELS ":every_block_works", "--json", NULL};
    expect(run_ws(full), WS_EXIT_OK, want0, 60);
    double truth = number_after("\"thread_instructions\":", true);
    assert_true(truth > 2 * 5e7);
    const char *want[] = {KERNELS ":", "every_block_works: the launch cannot finish within the instruction budget "
                          "of 50000000 thread-instructions: 64 blocks, those left priced at the cheapest of the first 4",
                          "refused after those blocks", "(the whole launch would take about ", NULL};
    const char *a[] = {"sim", KERNELS ":every_block_works", "--budget", "50000000", "-j", "1", NULL};
    expect(run_ws(a), WS_EXIT_USAGE, want, BOUND_SECONDS);
    double est = number_after("make about ", false);
    if (est < truth / 1.01 || est > truth * 1.01) fail_msg("predicted %.4g, ran %.4g: %s", est, truth, g_err);
    char first[sizeof g_err];
    memcpy(first, g_err, sizeof first);
    *strstr(first, " (the whole launch would take") = 0;   /* the time is this machine's */
    const char *b[] = {"sim", KERNELS ":every_block_works", "--budget", "50000000", "-j", "2", NULL};
    expect(run_ws(b), WS_EXIT_USAGE, want, BOUND_SECONDS);
    *strstr(g_err, " (the whole launch would take") = 0;
    assert_string_equal(first, g_err);
}

/* 2^31-1 blocks of 32 threads under --full: 6.9e10 threads, each at least one instruction, are
 * beyond the budget before any block runs; sampled (the default) the launch runs. */
static void test_a_grid_of_2_31_minus_1_blocks_is_refused_at_once_or_sampled(void **state)
{
    (void)state;
    const char *a[] = {"sim", KERNELS ":tiny_blocks", "--full", NULL};
    const char *want[] = {"tiny_blocks: 2147483647 blocks of 32 threads cannot finish within the instruction budget",
                          "--sample", NULL};
    expect(run_ws(a), WS_EXIT_USAGE, want, BOUND_SECONDS);
    const char *b[] = {"sim", KERNELS ":tiny_blocks", NULL};
    const char *want_b[] = {"", NULL};
    expect(run_ws(b), WS_EXIT_OK, want_b, 4 * BOUND_SECONDS);
    if (!strstr(g_out, "sampled: ")) fail_msg("not sampled: %s", g_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_count_in_memory_that_decides_nothing_is_an_endless_loop),
        cmocka_unit_test(test_a_count_in_a_register_that_decides_nothing_is_an_endless_loop),
        cmocka_unit_test(test_a_grid_sync_one_block_never_reaches_while_counting_is_a_deadlock),
        cmocka_unit_test(test_a_barrier_whose_partner_counts_while_it_spins_is_a_deadlock),
        cmocka_unit_test(test_a_later_block_that_counts_forever_is_stopped_alike_on_any_j),
        cmocka_unit_test(test_counts_that_decide_through_memory_run_to_their_end),
        cmocka_unit_test(test_a_launch_whose_block_0_does_all_the_work_is_not_refused),
        cmocka_unit_test(test_alike_blocks_beyond_twice_the_budget_are_refused_after_four),
        cmocka_unit_test(test_a_grid_of_2_31_minus_1_blocks_is_refused_at_once_or_sampled),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
