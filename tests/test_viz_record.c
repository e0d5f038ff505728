/* test_viz_record.c - recording real catalog kernels through the interpreter and the
 * memory models, and reading recorded GPU results. Expectations are worked out from
 * the kernels' sources: a 32x32 float tile read down a column puts all 32 lanes in
 * bank 0 (32 wavefronts); the padded tile (rows of 33) spreads them over 32 banks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "../viz/viz_record.h"

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

/* Records kernel at W = H = 64: a 2 x 2 grid of 32 x 32 blocks (32 warps each). */
static void record64(const char *kernel, uint32_t block, viz_recording *r)
{
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ws_error err;
    assert_int_equal(ws_overrides_add(&ov, "W=64", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "H=64", &err), 0);
    viz_record_opts o = {.kernel = kernel, .ov = &ov, .first_block = block, .num_blocks = 1, .quiet = 1,
                         .results_dir = "/nonexistent"};
    int rc = viz_record_kernel(cat, &o, r, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
}

static const viz_step *first_shared_load(const viz_recording *r, uint32_t warp)
{
    for (size_t i = 0; i < r->nsteps; i++)
        if (r->steps[i].warp == warp && r->steps[i].space == WS_SPACE_SHARED && r->steps[i].op == WS_MEM_LOAD)
            return &r->steps[i];
    return NULL;
}

static void test_tile_column_read_is_recorded_as_one_bank_32_words_deep(void **state)
{
    (void)state;
    viz_recording r;
    record64("transpose_coalesced", 0, &r);
    const viz_step *s = first_shared_load(&r, 5);
    assert_non_null(s);
    assert_int_equal(s->wavefronts, 32);
    assert_int_equal(s->nrows, 32);
    for (int l = 0; l < 32; l++) {
        assert_true(s->lane[l].active);
        assert_int_equal(s->lane[l].bank, s->lane[0].bank); /* word 32*lane + warp: one bank */
        assert_true(s->lane[l].conflict);
    }
    assert_non_null(strstr(s->ptx_text, "ld.shared"));
    assert_true(s->src_line > 0 && s->src_line <= r.nsrc);
    assert_non_null(strstr(r.src_lines[s->src_line - 1], "tile["));
    viz_recording_free(&r);
}

static void test_padded_tile_column_read_is_one_wavefront_over_32_banks(void **state)
{
    (void)state;
    viz_recording r;
    record64("transpose_padded", 0, &r);
    const viz_step *s = first_shared_load(&r, 5);
    assert_non_null(s);
    assert_int_equal(s->wavefronts, 1);
    uint32_t banks = 0;
    for (int l = 0; l < 32; l++)
        banks |= 1u << s->lane[l].bank;
    assert_int_equal(banks, 0xFFFFFFFFu);
    viz_recording_free(&r);
}

static void test_steps_are_kept_for_the_chosen_block_and_totals_cover_the_launch(void **state)
{
    (void)state;
    viz_recording r;
    record64("transpose_coalesced", 3, &r);
    /* one block: 32 warps x (global ld, shared st, shared ld, global st) */
    assert_int_equal(r.nsteps, 32 * 4);
    for (size_t i = 0; i < r.nsteps; i++)
        assert_int_equal(r.steps[i].block_linear, 3);
    /* the launch: 4 blocks x 32 warps; each warp loads and stores 32 floats = 4 sectors,
     * stores one tile row (1 wavefront) and reads one tile column (32 wavefronts) */
    assert_int_equal(r.launch.cat[VIZ_CAT_GLOBAL_LD].units, 4 * 32 * 4);
    assert_int_equal(r.launch.cat[VIZ_CAT_GLOBAL_ST].units, 4 * 32 * 4);
    assert_int_equal(r.launch.cat[VIZ_CAT_SHARED_ST].units, 4 * 32 * 1);
    assert_int_equal(r.launch.cat[VIZ_CAT_SHARED_LD].units, 4 * 32 * 32);
    /* block 3 runs last, so its last step's running totals are the launch's */
    const viz_totals *t = &r.steps[r.nsteps - 1].totals;
    for (int c = 0; c < VIZ_CAT_COUNT; c++)
        assert_int_equal(t->cat[c].units, r.launch.cat[c].units);
    assert_true(r.tp.predicted_gbs > 0);
    assert_true(r.tp.peak_gbs > 0);
    viz_recording_free(&r);
}

static void test_every_global_sector_gets_a_cache_outcome(void **state)
{
    (void)state;
    viz_recording r;
    record64("transpose_naive", 0, &r);
    int touched = 0;
    for (size_t i = 0; i < r.nsteps; i++)
        for (int l = 0; l < r.steps[i].nlines; l++)
            for (int k = 0; k < 4; k++) {
                uint8_t o = r.steps[i].lines[l].outcome[k];
                if (o == VIZ_OUT_NONE)
                    continue;
                touched++;
                assert_int_not_equal(o, VIZ_OUT_UNKNOWN);
                if (r.steps[i].op == WS_MEM_STORE)
                    assert_int_equal(o, VIZ_OUT_WRITE);
            }
    /* 32 warps: a coalesced load (4 sectors) and a column store (32 sectors) each */
    assert_int_equal(touched, 32 * (4 + 32));
    viz_recording_free(&r);
}

static void test_unknown_kernel_is_a_usage_error(void **state)
{
    (void)state;
    viz_recording r;
    ws_error err;
    viz_record_opts o = {.kernel = "no_such_kernel", .quiet = 1};
    assert_int_equal(viz_record_kernel(cat, &o, &r, &err), WS_EXIT_USAGE);
    assert_true(err.msg[0] != 0);
}

static void test_results_lookup_prefers_the_run_with_the_same_overrides(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_viz_results_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *json = "{\"device\":{\"name\":\"NVIDIA H200\",\"key\":\"h200\"},\"date\":\"2025-06-01T10:00:00Z\","
                       "\"runs\":[{\"kernel\":\"copy\",\"overrides\":\"\",\"bandwidth_gbs\":4000,"
                       "\"time\":{\"median_ms\":0.5}},"
                       "{\"kernel\":\"copy\",\"overrides\":\"N=1024\",\"bandwidth_gbs\":100}]}";
    assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    viz_throughput tp = {.measured_gbs = -1};
    assert_int_equal(viz_results_lookup(path, "copy", "N=1024", &tp), 0);
    assert_true(tp.measured_gbs == 100);
    assert_string_equal(tp.gpu, "NVIDIA H200");
    assert_string_equal(tp.date, "2025-06-01");
    assert_int_equal(viz_results_lookup(path, "copy", "", &tp), 0);
    assert_true(tp.measured_gbs == 4000);
    assert_true(tp.measured_us == 500);
    assert_int_not_equal(viz_results_lookup(path, "other", "", &tp), 0);
    unlink(path);
}


static void test_the_heat_map_sums_every_block_of_the_launch_line_by_line(void **state)
{
    (void)state;
    viz_recording r;
    record64("transpose_coalesced", 3, &r); /* steps kept for block 3 only */
    uint64_t sectors = 0, wavefronts = 0, insns = 0;
    for (int l = 0; l < r.nheat; l++) {
        sectors += r.heat[l].sectors;
        wavefronts += r.heat[l].wavefronts;
        insns += r.heat[l].instructions;
    }
    /* 4 blocks x 32 warps: 4 sectors per global load and store; the tile row store 1
     * wavefront, the column read 32 */
    assert_int_equal(sectors, 4 * 32 * (4 + 4));
    assert_int_equal(wavefronts, 4 * 32 * (1 + 32));
    assert_int_equal(insns, 4 * 32 * 4);
    /* the column read's line costs most: 32 wavefronts (+ 4 sectors if a store shares it) */
    const viz_step *ld = first_shared_load(&r, 0);
    assert_non_null(ld);
    assert_int_equal(viz_recording_worst_line(&r), ld->src_line);
    assert_true(r.heat[ld->src_line].wavefronts == 4 * 32 * 32);
    viz_recording_free(&r);
}

static void test_the_throughput_takes_the_copy_ceiling_of_the_same_run_and_the_launch_cost(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_viz_results_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* a 1 GiB device-to-device copy in 0.5 ms moves 2 x 2^30 B: 4294.97 GB/s */
    const char *json = "{\"device\":{\"name\":\"NVIDIA H200\",\"key\":\"h200\"},\"date\":\"2025-06-01T10:00:00Z\","
                       "\"runs\":[{\"kernel\":\"copy\",\"overrides\":\"\",\"bandwidth_gbs\":1000,\"bytes_moved\":8388608,"
                       "\"time\":{\"median_ms\":0.0084},"
                       "\"copy_ceiling\":{\"bytes\":1073741824,\"median_ms\":0.5,\"gbs\":4294.967296}}]}";
    assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    viz_throughput tp;
    memset(&tp, 0, sizeof tp);
    assert_int_equal(viz_results_lookup(path, "copy", "", &tp), 0);
    double want = 2.0 * 1073741824.0 / 0.5e-3 / 1e9;
    assert_true(tp.copy_gbs > want - 1e-6 && tp.copy_gbs < want + 1e-6);
    assert_true(tp.copy_bytes == 1073741824.0);
    assert_true(tp.bytes_moved == 8388608.0);
    /* the launch cost is the measured GPU's profile figure, named as such */
    assert_true(tp.launch_us == ws_device_find("h200")->launch_overhead_us);
    assert_non_null(strstr(tp.launch_basis, "launch_overhead_us"));
    unlink(path);
}

static void test_launch_totals_count_atomics_by_the_atomic_sector_rule(void **state)
{
    (void)state;
    ws_catalog *ac;
    ws_error err;
    assert_int_equal(ws_catalog_load("tests/data/atomics", &ac, &err), 0);
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    assert_int_equal(ws_overrides_add(&ov, "N=1024", &err), 0);
    viz_record_opts o = {.kernel = "red_one_word_masked", .ov = &ov, .first_block = 0, .num_blocks = 1, .quiet = 1,
                         .results_dir = "/nonexistent"};
    viz_recording r;
    int rc = viz_record_kernel(ac, &o, &r, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
    /* 1024 threads = 32 warps, one atomicAdd each on one word through an index ptxas cannot prove
       uniform (no warp aggregation): 32 lanes on one address are 32 sector operations (one each),
       1024 in all; a load of that word would be 1 sector */
    const viz_counter *a = &r.launch.cat[VIZ_CAT_GLOBAL_ATOM];
    assert_int_equal(a->requests, 32);
    assert_int_equal(a->units, 1024);
    assert_int_equal(r.launch.cat[VIZ_CAT_GLOBAL_LD].units + r.launch.cat[VIZ_CAT_GLOBAL_ST].units, 0);
    viz_recording_free(&r);
    ws_catalog_free(ac);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_column_read_is_recorded_as_one_bank_32_words_deep),
        cmocka_unit_test(test_padded_tile_column_read_is_one_wavefront_over_32_banks),
        cmocka_unit_test(test_steps_are_kept_for_the_chosen_block_and_totals_cover_the_launch),
        cmocka_unit_test(test_launch_totals_count_atomics_by_the_atomic_sector_rule),
        cmocka_unit_test(test_every_global_sector_gets_a_cache_outcome),
        cmocka_unit_test(test_unknown_kernel_is_a_usage_error),
        cmocka_unit_test(test_results_lookup_prefers_the_run_with_the_same_overrides),
        cmocka_unit_test(test_the_heat_map_sums_every_block_of_the_launch_line_by_line),
        cmocka_unit_test(test_the_throughput_takes_the_copy_ceiling_of_the_same_run_and_the_launch_cost),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
