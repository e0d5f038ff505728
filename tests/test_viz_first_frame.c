/* test_viz_first_frame.c - viz starts at once (issue 25): the steps' run simulates only the
 * shown blocks (and a warm-up just before them, within its budget), never the grid, and the
 * launch totals come from `warpscope sim`'s own run, sampled where it samples. Block counts are
 * asserted, not wall time; the totals are checked against the access pattern and against
 * `warpscope sim --sample --json` of the same launch. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../viz/viz_record.h"
#include "../viz/viz_steps_job.h"
#include "../viz/viz_totals.h"
#include "capture.h"

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

static void overrides(ws_overrides *ov, const char *a, const char *b, const char *c)
{
    memset(ov, 0, sizeof *ov);
    ws_error err;
    const char *d[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (d[i])
            assert_int_equal(ws_overrides_add(ov, d[i], &err), 0);
}

static void shown(const char *kernel, const ws_overrides *ov, uint32_t block, uint32_t n, viz_recording *r)
{
    viz_record_opts o = {.kernel = kernel, .ov = ov, .first_block = block, .num_blocks = n, .quiet = 1,
                         .results_dir = "/nonexistent"};
    ws_error err;
    int rc = viz_record_shown(cat, &o, r, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
}

static void test_the_first_frame_of_a_big_grid_simulates_only_its_two_blocks(void **state)
{
    (void)state;
    /* 2048 x 2048 floats in 32 x 32 tiles: 64 x 64 = 4096 blocks; viz shows blocks 0 and 1 */
    ws_overrides ov;
    overrides(&ov, "W=2048", "H=2048", NULL);
    viz_recording r;
    shown("transpose_padded", &ov, 0, 2, &r);
    assert_int_equal(r.grid_blocks, 64 * 64);
    assert_int_equal(r.blocks_simulated, 2);
    assert_false(r.warm_partial);               /* from block 0: the full launch's first two blocks */
    assert_int_equal(r.totals_state, VIZ_TOTALS_PENDING);
    /* per block: 32 warps x (global ld, shared st, shared ld, global st) */
    assert_int_equal(r.nsteps, 2 * 32 * 4);
    for (size_t i = 0; i < r.nsteps; i++)
        assert_true(r.steps[i].block_linear < 2);
    /* the running totals count those two blocks only: 2 x 32 warps x 4 sectors loaded */
    assert_int_equal(r.steps[r.nsteps - 1].totals.cat[VIZ_CAT_GLOBAL_LD].units, 2 * 32 * 4);
    viz_recording_free(&r);
}

static void test_a_later_block_is_warmed_by_the_blocks_before_it_within_the_budget(void **state)
{
    (void)state;
    /* cheap blocks (a 32x32 tile, ~20 instructions a thread): all 100 before block 100 fit the
       warm-up, so the run is the full launch's up to block 100 */
    ws_overrides ov;
    overrides(&ov, "W=2048", "H=2048", NULL);
    viz_recording r;
    shown("transpose_padded", &ov, 100, 1, &r);
    assert_int_equal(r.blocks_simulated, 101);
    assert_false(r.warm_partial);
    assert_int_equal(r.warm_first, 0);
    for (size_t i = 0; i < r.nsteps; i++)
        assert_int_equal(r.steps[i].block_linear, 100);
    /* 101 blocks x 32 warps x 4 sectors loaded before and in the last step's block */
    assert_int_equal(r.steps[r.nsteps - 1].totals.cat[VIZ_CAT_GLOBAL_LD].units, 101 * 32 * 4);
    viz_recording_free(&r);

    /* costly blocks: a 32x32 matmul tile over K = 2048 runs 64 tiles a thread, some 10^6 x 7
       thread-instructions a block: block 0 measures it, then only the blocks that fit the budget
       just before block 200 run (16 x 16 = 256 blocks) */
    overrides(&ov, "M=512", "N=512", "K=2048");
    shown("matmul_tiled32", &ov, 200, 1, &r);
    assert_int_equal(r.grid_blocks, 256);
    assert_true(r.warm_partial);
    uint64_t warm = 200 - r.warm_first;          /* the contiguous blocks just before 200 */
    assert_true(r.warm_first > 1 && r.warm_first < 200);
    assert_int_equal(r.blocks_simulated, 1 + warm + 1);
    /* each block costs the same: block 0 + warm blocks within the budget, and one more would not fit */
    double per_block = 1024.0 * 7000;            /* a lower bound of the cost: 1024 threads x 64 tiles x ~110 */
    assert_true((double)(1 + warm) * per_block <= (double)VIZ_WARM_THREAD_INSNS);
    assert_true(warm >= 1);
    viz_recording_free(&r);
}

/* ws_cmd_sim --json, stdout parsed */
static cJSON *sim_json(const char *kernel, const char *d1, const char *mode)
{
    char *argv[] = {"sim", (char *)kernel, "-D", (char *)d1, (char *)mode, "--json", NULL};
    char *out;
    assert_int_equal(ws_test_capture(ws_cmd_sim, 6, argv, &out), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    return doc;
}

static double total(cJSON *doc, const char *name)
{
    cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(doc, "totals"))
        if (!strcmp(cJSON_GetObjectItem(m, "name")->valuestring, name))
            return cJSON_GetObjectItem(m, "value")->valuedouble;
    fail_msg("metric %s missing", name);
    return -1;
}

static void test_the_totals_are_the_sampled_sims_and_say_so(void **state)
{
    (void)state;
    /* 2^22 floats in blocks of 256: 16384 blocks, far more than 3 H200 waves: sim --sample samples */
    const double n = 4194304;
    ws_overrides ov;
    overrides(&ov, "N=4194304", NULL, NULL);
    viz_recording r;
    shown("copy_float", &ov, 0, 2, &r);
    assert_int_equal(r.blocks_simulated, 2);
    viz_record_opts o = {.kernel = "copy_float", .ov = &ov, .quiet = 1, .results_dir = "/nonexistent", .sample = 1};
    viz_totals_result t;
    ws_error err;
    assert_int_equal(viz_totals_run(cat, &o, &t, &err), WS_EXIT_OK);
    viz_totals_apply(&r, &t);
    assert_int_equal(r.totals_state, VIZ_TOTALS_SAMPLED);
    assert_non_null(strstr(r.totals_note, "sampled: "));
    assert_non_null(strstr(r.totals_note, "of 16384 blocks"));
    /* a float per thread: n * 4 bytes in 32-byte sectors, loaded and stored, one request a warp */
    assert_true(r.launch.cat[VIZ_CAT_GLOBAL_LD].units == n / 8);
    assert_true(r.launch.cat[VIZ_CAT_GLOBAL_ST].units == n / 8);
    assert_true(r.launch.cat[VIZ_CAT_GLOBAL_LD].requests == n / 32);
    /* and exactly what sim --sample reports for the same launch */
    cJSON *doc = sim_json("copy_float", "N=4194304", "--sample");
    assert_true((double)r.launch.cat[VIZ_CAT_GLOBAL_LD].units == total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_true((double)r.launch.cat[VIZ_CAT_GLOBAL_ST].units == total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
    assert_true((double)r.launch.cat[VIZ_CAT_GLOBAL_LD].requests ==
                total(doc, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
    cJSON_Delete(doc);
    /* the heat map covers the whole launch too: the load's line has n / 32 warp instructions */
    uint64_t insns = 0;
    for (int l = 0; l < r.nheat; l++)
        insns += r.heat[l].instructions;
    assert_true((double)insns == 2 * n / 32);
    viz_recording_free(&r);
}

static void test_a_full_recording_ends_at_the_launch_totals(void **state)
{
    (void)state;
    /* every block recorded from block 0: the last step's running totals (the observer's sums)
       equal the totals run's (sim's memstats), category by category */
    ws_overrides ov, ovr;
    overrides(&ov, "W=96", "H=64", NULL);
    overrides(&ovr, "N=8192", NULL, NULL);
    const char *kernels[] = {"transpose_naive", "transpose_coalesced", "reduce_interleaved"};
    for (int k = 0; k < 3; k++) {
        viz_recording r;
        viz_record_opts o = {.kernel = kernels[k], .ov = k < 2 ? &ov : &ovr, .num_blocks = UINT32_MAX, .quiet = 1,
                             .results_dir = "/nonexistent"};
        ws_error err;
        assert_int_equal(viz_record_kernel(cat, &o, &r, &err), WS_EXIT_OK);
        assert_int_equal(r.totals_state, VIZ_TOTALS_FULL);
        assert_int_equal(r.blocks_simulated, r.grid_blocks);
        assert_true(r.nsteps > 0);
        const viz_totals *t = &r.steps[r.nsteps - 1].totals;
        for (int c = 0; c < VIZ_CAT_COUNT; c++) {
            assert_int_equal(t->cat[c].requests, r.launch.cat[c].requests);
            assert_int_equal(t->cat[c].units, r.launch.cat[c].units);
            assert_int_equal(t->cat[c].ideal, r.launch.cat[c].ideal);
        }
        viz_recording_free(&r);
    }
}

static void test_first_frame_time_is_reported_headless(void **state)
{
    (void)state;
    char *argv[] = {"viz", "transpose_padded", "-D", "W=1024", "-D", "H=1024", "--headless", "--first-frame-time", NULL};
    char *out;
    assert_int_equal(ws_test_capture(ws_cmd_viz, 8, argv, &out), WS_EXIT_OK);
    assert_non_null(strstr(out, "viz: transpose_padded: first frame after "));
    /* 32 x 32 tiles; per block 32 warps x (global ld, shared st, shared ld, global st): fewer than a
       first batch, so every step is in the first frame */
    assert_non_null(strstr(out, "(2 of 1024 blocks simulated for it, 256 steps)"));
    assert_null(strstr(out, "every step after"));
    assert_non_null(strstr(out, "viz: transpose_padded: totals after "));
    /* the first frame's line comes before the totals' */
    assert_true(strstr(out, "first frame") < strstr(out, "totals after"));
    free(out);
}


/* A 256^3 tiled matmul's blocks 0 and 1: 32 warps x 8 tiles x (2 global loads + 2 shared stores +
 * the inner product's shared loads) each, far more steps than a first batch. */
static void matmul_ov(ws_overrides *ov) { overrides(ov, "M=256", "N=256", "K=256"); }

static void record(const ws_overrides *ov, size_t max_steps, viz_recording *r)
{
    viz_record_opts o = {.kernel = "matmul_tiled32", .ov = ov, .num_blocks = 2, .quiet = 1, .max_steps = max_steps,
                         .results_dir = "/nonexistent"};
    ws_error err;
    int rc = viz_record_shown(cat, &o, r, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
}

static void same_step(const viz_step *a, const viz_step *b)
{
    assert_int_equal(a->seq, b->seq);
    assert_int_equal(a->block_linear, b->block_linear);
    assert_int_equal(a->warp, b->warp);
    assert_int_equal(a->pc, b->pc);
    assert_int_equal(a->active_mask, b->active_mask);
    assert_int_equal(a->totals.instructions, b->totals.instructions);
    assert_int_equal(a->totals.l2_hit_sectors, b->totals.l2_hit_sectors);
    assert_int_equal(a->totals.dram_sectors, b->totals.dram_sectors);
}

/* The window draws its first frame from a batch: that batch must be the full recording's first
 * steps, cache outcomes included, or the step on screen would change when the rest arrives. */
static void test_the_first_batch_is_the_full_recordings_first_steps(void **state)
{
    (void)state;
    ws_overrides ov;
    matmul_ov(&ov);
    viz_recording batch, full;
    record(&ov, VIZ_FIRST_STEPS, &batch);
    record(&ov, 0, &full);
    assert_int_equal(batch.nsteps, VIZ_FIRST_STEPS);
    assert_true(batch.truncated);                /* it stopped at the batch: there is more */
    assert_true(full.nsteps > 4 * VIZ_FIRST_STEPS);
    /* 2 blocks x 32 warps x 8 tiles x 2 global loads, at least */
    size_t global_loads = 0;
    for (size_t i = 0; i < full.nsteps; i++)
        global_loads += full.steps[i].what == VIZ_STEP_ACCESS && full.steps[i].space == WS_SPACE_GLOBAL &&
                        full.steps[i].op == WS_MEM_LOAD;
    assert_int_equal(global_loads, 2 * 32 * 8 * 2);
    for (size_t i = 0; i < batch.nsteps; i++)
        same_step(&batch.steps[i], &full.steps[i]);
    viz_recording_free(&batch);
    viz_recording_free(&full);
}

/* The background job brings every step in and leaves what the window already had (the totals
 * that came in, the source) as it was. */
static void test_the_steps_job_swaps_in_every_step_keeping_the_rest(void **state)
{
    (void)state;
    ws_overrides ov;
    matmul_ov(&ov);
    viz_recording recs[1], full;
    record(&ov, VIZ_FIRST_STEPS, &recs[0]);
    record(&ov, 0, &full);
    recs[0].totals_state = VIZ_TOTALS_SAMPLED;   /* as if the totals had come in first */
    snprintf(recs[0].totals_note, sizeof recs[0].totals_note, "from the totals run");
    int nsrc = recs[0].nsrc;
    viz_record_opts o = {.ov = &ov, .num_blocks = 2, .quiet = 1, .results_dir = "/nonexistent"};
    const char *k[] = {"matmul_tiled32"};
    viz_steps_job *j = viz_steps_job_start(cat, &o, k, 1);
    assert_non_null(j);
    ws_error err;
    assert_int_equal(viz_steps_job_finish(j, recs, &err), WS_EXIT_OK);
    assert_int_equal(recs[0].nsteps, full.nsteps);
    assert_false(recs[0].truncated);
    for (size_t i = 0; i < full.nsteps; i++)
        same_step(&recs[0].steps[i], &full.steps[i]);
    assert_int_equal(recs[0].totals_state, VIZ_TOTALS_SAMPLED);
    assert_string_equal(recs[0].totals_note, "from the totals run");
    assert_int_equal(recs[0].nsrc, nsrc);
    viz_recording_free(&recs[0]);
    viz_recording_free(&full);
}

/* --first-frame-time: the first frame is reported with the batch's steps, before the rest is
 * recorded; then every step; then the totals. */
static void test_the_first_frame_comes_before_the_steps_after_the_batch(void **state)
{
    (void)state;
    ws_overrides ov;
    matmul_ov(&ov);
    viz_recording full;
    record(&ov, 0, &full);
    char *argv[] = {"viz", "matmul_tiled32", "-D", "M=256", "-D", "N=256", "-D", "K=256", "--headless",
                    "--first-frame-time", NULL};
    char *out;
    assert_int_equal(ws_test_capture(ws_cmd_viz, 10, argv, &out), WS_EXIT_OK);
    char want[128];
    /* 8 x 8 blocks; block 0 alone has more steps than the batch: the first frame waited for it only */
    snprintf(want, sizeof want, "(1 of 64 blocks simulated for it, %d steps: a first batch)", VIZ_FIRST_STEPS);
    const char *first = strstr(out, want), *every = strstr(out, "viz: matmul_tiled32: every step after ");
    assert_non_null(first);
    assert_non_null(every);
    snprintf(want, sizeof want, "(%zu steps)", full.nsteps);
    assert_non_null(strstr(every, want));
    assert_true(first < every);
    assert_true(every < strstr(out, "totals after"));
    free(out);
    viz_recording_free(&full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_first_frame_of_a_big_grid_simulates_only_its_two_blocks),
        cmocka_unit_test(test_a_later_block_is_warmed_by_the_blocks_before_it_within_the_budget),
        cmocka_unit_test(test_the_totals_are_the_sampled_sims_and_say_so),
        cmocka_unit_test(test_a_full_recording_ends_at_the_launch_totals),
        cmocka_unit_test(test_first_frame_time_is_reported_headless),
        cmocka_unit_test(test_the_first_batch_is_the_full_recordings_first_steps),
        cmocka_unit_test(test_the_steps_job_swaps_in_every_step_keeping_the_rest),
        cmocka_unit_test(test_the_first_frame_comes_before_the_steps_after_the_batch),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
