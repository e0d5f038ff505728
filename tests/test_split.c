/* test_split.c - the threads' split pipeline (sim/split.h): workers run the SASS stage and the
 * coalescer and bank rule, the calling thread the caches and sinks in block order. Whatever
 * the thread count, `warpscope sim --json` must be the one-thread document byte for byte (but
 * for its wall time), on kernels that reach every part of the split: merged SASS accesses and
 * bank conflicts, spills (watch hits), local memory (the per-warp frame base), wmma fragments
 * regrouped, cp.async and ldmatrix, shared atomics, and PTX-level runs (no SASS stage). */
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
#include "capture.h"
#include "fresh_cache.h"
#include "slow.h"

/* `sim KERNEL --json --full -j J ARGS...` (argv ends with NULL), its output less the lines
 * holding the wall time, and its exit code in *rc. */
static char *sim_json(int *rc, const char *kernel, int j, const char *const *args)
{
    char jobs[8];
    snprintf(jobs, sizeof jobs, "%d", j);
    char *argv[40] = {"sim", (char *)kernel, "--json", "--full", "-j", jobs};
    int argc = 6;
    for (int i = 0; args && args[i] && argc < 39; i++) argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    char *out = NULL;
    *rc = ws_test_capture(ws_cmd_sim, argc, argv, &out);
    assert_non_null(out);
    char *w = out;                         /* drop "seconds" lines: the only thing time may change */
    for (char *r = out; *r;) {
        char *nl = strchr(r, '\n');
        size_t n = nl ? (size_t)(nl - r + 1) : strlen(r);
        if (!memmem(r, n, "\"seconds\"", 9)) { memmove(w, r, n); w += n; }
        r += n;
    }
    *w = 0;
    return out;
}

/* The document on 2 and 3 threads is the one on 1 thread; want_rc is the exit code of all. */
static void same_on_1_2_3(const char *kernel, int want_rc, const char *const *args)
{
    int rc1, rc;
    char *one = sim_json(&rc1, kernel, 1, args);
    assert_int_equal(rc1, want_rc);
    if (want_rc == WS_EXIT_OK) assert_non_null(strstr(one, "\"totals\""));
    for (int j = 2; j <= 3; j++) {
        char *other = sim_json(&rc, kernel, j, args);
        assert_int_equal(rc, rc1);
        if (strcmp(one, other)) {
            size_t i = 0;
            while (one[i] && one[i] == other[i]) i++;
            size_t from = i > 200 ? i - 200 : 0;
            fail_msg("%s -j %d differs from -j 1 at byte %zu:\n-j 1: %.400s\n-j %d: %.400s", kernel, j, i, one + from,
                     j, other + from);
        }
        free(other);
    }
    free(one);
}

/* The launches below do run on the threads, on the SASS path: else the comparisons above
 * would compare one thread with itself. */
static void runs_split(const char *kernel, const char *def1, const char *def2, bool sass)
{
    ws_catalog *cat = NULL;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    if (def1) assert_int_equal(ws_overrides_add(&ov, def1, &err), 0);
    if (def2) assert_int_equal(ws_overrides_add(&ov, def2, &err), 0);
    ws_simulation s;
    int rc = ws_simulation_open(&s, cat, kernel, &ov, ws_device_find("h200"), NULL, &err);
    ws_simulation_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.sample = WS_SAMPLE_OFF;
    if (!rc) rc = ws_simulation_run(&s, &o, &err);
    if (rc) ws_error_print(&err);
    assert_int_equal(rc, 0);
    assert_int_equal(s.result.threads, 2);
    if (sass) assert_true(s.sass && s.sass->active);
    ws_simulation_close(&s);
    ws_catalog_free(cat);
}

static void test_a_tiled_matmul_with_merged_shared_loads_is_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    const char *a[] = {"-D", "M=64", "-D", "N=96", "-D", "K=64", NULL};
    runs_split("matmul_tiled32", "M=64", "N=96", true);
    same_on_1_2_3("matmul_tiled32", WS_EXIT_OK, a);
}

static void test_transposes_and_strided_copies_are_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    const char *a[] = {"-D", "W=256", "-D", "H=128", NULL};
    runs_split("transpose_naive", "W=256", "H=128", true);
    same_on_1_2_3("transpose_naive", WS_EXIT_OK, a);
    same_on_1_2_3("transpose_padded", WS_EXIT_OK, a);
    const char *b[] = {"-D", "N=65536", NULL};
    same_on_1_2_3("stride_copy_s8", WS_EXIT_OK, b);
}

/* Each SM's L1 half of the cache model runs on the worker that runs the block, so a block waits
 * for its SM's block before it (sm_count earlier) to be replayed: on 8 threads the ring would
 * otherwise hold more than 132 blocks of a 2^19-float copy (2048 blocks), two of one SM at once,
 * and the L1's order would follow the threads (a release build without the hold-back gave another
 * document here on 4 and 8 threads; under ASan two blocks of one SM seldom overlap, so the rule
 * itself is test_threads.c's split_ahead test). */
static void test_blocks_of_one_sm_keep_their_order_in_its_l1_on_8_threads(void **state)
{
    (void)state;
    const char *a[] = {"-D", "N=524288", NULL};
    int rc1, rc8;
    char *one = sim_json(&rc1, "copy_float", 1, a);
    char *eight = sim_json(&rc8, "copy_float", 8, a);
    assert_int_equal(rc1, WS_EXIT_OK);
    assert_int_equal(rc8, WS_EXIT_OK);
    assert_string_equal(one, eight);
    free(one);
    free(eight);
}

static void test_spills_local_frames_and_shared_atomics_are_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    same_on_1_2_3("spill_forced", WS_EXIT_OK, NULL);
    same_on_1_2_3("local_dynamic_index", WS_EXIT_OK, NULL);
    same_on_1_2_3("hist_shared_uniform", WS_EXIT_OK, NULL);
    same_on_1_2_3("reduce_interleaved", WS_EXIT_OK, NULL);
}

static void test_wmma_cp_async_and_ldmatrix_kernels_are_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    same_on_1_2_3("wmma_gemm_naive", WS_EXIT_OK, NULL);
    same_on_1_2_3("mma_cp_async", WS_EXIT_OK, NULL);
    same_on_1_2_3("mma_ldmatrix_swizzled", WS_EXIT_OK, NULL);
}

static void test_ptx_level_runs_are_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    setenv("WARPSCOPE_SASS", "off", 1);
    const char *a[] = {"-D", "M=64", "-D", "N=64", "-D", "K=64", NULL};
    same_on_1_2_3("matmul_tiled32", WS_EXIT_OK, a);
    same_on_1_2_3("local_dynamic_index", WS_EXIT_OK, NULL);
    unsetenv("WARPSCOPE_SASS");
}

/* Every catalog kernel at its default size. */
static void test_every_catalog_kernel_is_the_same_on_1_2_and_3_threads(void **state)
{
    (void)state;
    ws_catalog *cat = NULL;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    int n = 0;
    for (int f = 0; f < cat->nfiles; f++)
        for (int k = 0; k < cat->files[f]->nkernels; k++) {
            int rc;
            char *doc = sim_json(&rc, cat->files[f]->kernels[k].name, 1, NULL);
            free(doc);
            same_on_1_2_3(cat->files[f]->kernels[k].name, rc, NULL);
            n++;
        }
    assert_true(n > 50);
    ws_catalog_free(cat);
}

static int setup(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "demos", 1);
    return 0;
}

int main(void)
{
    if (ws_test_fresh_cache()) return 1;
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_a_tiled_matmul_with_merged_shared_loads_is_the_same_on_1_2_and_3_threads),
        cmocka_unit_test(test_transposes_and_strided_copies_are_the_same_on_1_2_and_3_threads),
        cmocka_unit_test(test_blocks_of_one_sm_keep_their_order_in_its_l1_on_8_threads),
        cmocka_unit_test(test_spills_local_frames_and_shared_atomics_are_the_same_on_1_2_and_3_threads),
        cmocka_unit_test(test_wmma_cp_async_and_ldmatrix_kernels_are_the_same_on_1_2_and_3_threads),
        cmocka_unit_test(test_ptx_level_runs_are_the_same_on_1_2_and_3_threads),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_every_catalog_kernel_is_the_same_on_1_2_and_3_threads),
    };
    return ws_run_tests(quick, slow, setup, NULL);
}
