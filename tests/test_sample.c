/* test_sample.c - block sampling (issue 25, sim/sample.h) end to end through `warpscope sim`
 * (run from the repository root): a sampled run is reproducible, its exact counters follow
 * from the access pattern, a grid with partial edge tiles sampled agrees with the full run
 * within the stated bounds, and a kernel whose blocks interact runs full and says why. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/commands.h"
#include "../sim/frontend/ptx.h"
#include "../sim/sample.h"
#include "capture.h"

/* ws_cmd_sim with argv (NULL-terminated), stdout captured into *out (malloc'd). */
static int run_sim(char **out, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "sim";
    va_list ap;
    va_start(ap, out);
    for (char *a; (a = va_arg(ap, char *)) && argc < 31;) argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return ws_test_capture(ws_cmd_sim, argc, argv, out);
}

static cJSON *sim_json(const char *kernel, const char *d1, const char *d2, const char *mode)
{
    char *out;
    int rc = d2 ? run_sim(&out, kernel, "-D", d1, "-D", d2, mode, "--json", NULL)
                : run_sim(&out, kernel, "-D", d1, mode, "--json", NULL);
    assert_int_equal(rc, WS_EXIT_OK);
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

static cJSON *sampling(cJSON *doc)
{
    cJSON *s = cJSON_GetObjectItem(doc, "sampling");
    assert_non_null(s);
    return s;
}

static double num(cJSON *o, const char *k) { return cJSON_GetObjectItem(o, k)->valuedouble; }

/* The document without what differs from run to run (wall times). */
static char *stable_text(cJSON *doc)
{
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(doc, "simulation"), "seconds");
    return cJSON_PrintUnformatted(doc);
}

static void test_a_sampled_copy_is_reproducible_and_its_sectors_are_n_over_8(void **state)
{
    (void)state;
    /* 2^22 floats in blocks of 256: 16384 blocks, far more than 3 H200 waves (3 x 132 x 8) */
    const double n = 4194304;
    cJSON *a = sim_json("copy_float", "N=4194304", NULL, "--sample");
    cJSON *b = sim_json("copy_float", "N=4194304", NULL, "--sample");
    cJSON *s = sampling(a);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(s, "sampled")));
    assert_true(num(s, "blocks_total") == n / 256);
    assert_true(num(s, "blocks_simulated") < n / 256 / 4);
    /* a float per thread: n * 4 bytes in 32-byte sectors, loaded and stored, after scaling */
    assert_true(total(a, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == n / 8);
    assert_true(total(a, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == n / 8);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(s, "exact_counters_exact")));
    char *ta = stable_text(a), *tb = stable_text(b);
    assert_string_equal(ta, tb);
    free(ta);
    free(tb);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_a_sampled_stride_2_copy_reads_its_partial_lines_beyond_the_limit_as_the_full_run(void **state)
{
    (void)state;
    /* stride 2, 2^21 threads: the output (2^22 floats = 16 MB = 131,072 lines) has every sector
     * half written. With ECC the L2 keeps the newest 0.125 x 491,520 = 61,440 such lines as byte
     * masks and reads the sectors of the older ones: (131,072 - 61,440) x 4 sectors x 32 B. A
     * sample of a few waves writes fewer lines than the limit and read none: scaled, that was 0. */
    const double want = (131072.0 - 61440.0) * 4 * 32;
    cJSON *smp = sim_json("stride_copy_s2", "N=2097152", NULL, "--sample");
    cJSON *full = sim_json("stride_copy_s2", "N=2097152", NULL, "--full");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sampling(smp), "sampled")));
    assert_true(total(full, "ws__dram_bytes_read_ecc.sum") == want);
    assert_true(total(smp, "ws__dram_bytes_read_ecc.sum") == want);
    /* the reads are in dram__bytes_read too: the 16 MB of input (2^22 floats, every sector touched) beside them */
    assert_true(fabs(total(smp, "dram__bytes_read.sum") - (want + 2097152.0 * 8)) < 4096);
    cJSON_Delete(smp);
    cJSON_Delete(full);
}

static void within(cJSON *s, cJSON *f, const char *name, double bound)
{
    double vs = total(s, name), vf = total(f, name);
    if (fabs(vs - vf) > bound * vf + 0.5)
        fail_msg("%s: sampled %.0f, full %.0f: off by more than %.3f%%", name, vs, vf, 100 * bound);
}

static void test_a_transpose_with_partial_edge_tiles_sampled_is_within_its_bounds_of_full(void **state)
{
    (void)state;
    /* 1500 x 1300: 47 x 41 tiles of 32, the last column and row partial (1500 = 46*32 + 28) */
    cJSON *s = sim_json("transpose_padded", "W=1500", "H=1300", "--sample");
    cJSON *f = sim_json("transpose_padded", "W=1500", "H=1300", "--full");
    cJSON *sj = sampling(s);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sj, "sampled")));
    assert_true(num(sj, "blocks_total") == 47 * 41);
    assert_true(num(sj, "edge_blocks") >= 3);   /* the last row's, the last column's, the corner */
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(sampling(f), "sampled")));
    /* a warp reads 32 floats of a row: 4 ideal sectors, and the row's last 28 (112 bytes) 4 too:
       1300 rows of 46 * 4 + 4; it writes rows of 1300 = 40 * 32 + 20 floats, the last 80 bytes 3 */
    assert_true(total(s, "ws__t_sectors_ideal_global_op_ld.sum") == 1300.0 * (46 * 4 + 4));
    assert_true(total(s, "ws__t_sectors_ideal_global_op_st.sum") == 1500.0 * (40 * 4 + 3));
    /* every element is fetched from DRAM once: W*H*4 bytes of sectors, within 2 %, are the read misses
       beside those of a far partition's copy (rows of 6000 B: neighbouring tiles share lines, cache.h
       "Far lookups"); those scale as the hits, within 5 % of the full run's */
    double far_s = total(s, "ws__l2_far_miss_sectors.sum"), far_f = total(f, "ws__l2_far_miss_sectors.sum");
    assert_true(fabs(total(s, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum") - far_s - 1500.0 * 1300 * 4 / 32) <=
                0.02 * 1500.0 * 1300 * 4 / 32);
    assert_true(far_f > 0 && fabs(far_s - far_f) <= 0.05 * far_f);
    double eb = num(sj, "exact_counters_bound") + 1e-3; /* the goal: 0.1 % */
    const char *exact[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) within(s, f, exact[i], eb);
    cJSON *ts = cJSON_GetObjectItem(s, "simulation"), *tf = cJSON_GetObjectItem(f, "simulation");
    assert_true(fabs(num(ts, "thread_instructions") - num(tf, "thread_instructions")) <= eb * num(tf, "thread_instructions"));
    /* the L2's read sectors and DRAM reads: within 2 % (the goal) */
    within(s, f, "lts__t_sectors_srcunit_tex_op_read.sum", 0.02);
    within(s, f, "dram__bytes_read.sum", 0.02);
    cJSON_Delete(s);
    cJSON_Delete(f);
}

/* The time of a sampled run is the full run's where it rests on exact counters: a 32x32-tiled
 * matmul is bound by its shared wavefronts (exact), which are the same per block, so the busiest
 * SM holds ceil(2048 / 132) = 16 blocks' worth in both runs. Before the per-SM words were spread
 * as the grid's blocks are, the last row's one representative put 31 blocks' wavefronts on one SM
 * (a predicted time 2.4x the full run's; 100x at 4096^3). */
/* The matmul both cases below judge, sampled and full (K = 32: one tile per block), simulated once
 * for the binary: the full run is the slowest simulation of make test under the sanitizers. */
static cJSON *g_mm_sampled, *g_mm_full;

static void matmul_pair(cJSON **s, cJSON **f)
{
    if (!g_mm_sampled) g_mm_sampled = sim_json("matmul_tiled32", "M=2048", "N=1024", "--sample");
    if (!g_mm_full) g_mm_full = sim_json("matmul_tiled32", "M=2048", "N=1024", "--full");
    *s = g_mm_sampled;
    *f = g_mm_full;
}

static int free_matmul_pair(void **state)
{
    (void)state;
    cJSON_Delete(g_mm_sampled);
    cJSON_Delete(g_mm_full);
    g_mm_sampled = g_mm_full = NULL;
    return 0;
}

static void test_a_sampled_shared_bound_matmul_predicts_the_full_runs_time(void **state)
{
    (void)state;
    cJSON *s, *f;
    matmul_pair(&s, &f);
    cJSON *sj = sampling(s);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sj, "sampled")));
    assert_true(num(sj, "blocks_simulated") < num(sj, "blocks_total") / 2);
    cJSON *ts = cJSON_GetObjectItem(s, "timing"), *tf = cJSON_GetObjectItem(f, "timing");
    assert_string_equal(cJSON_GetObjectItem(ts, "bound_class")->valuestring, "shared");
    assert_string_equal(cJSON_GetObjectItem(tf, "bound_class")->valuestring, "shared");
    double eb = num(sj, "exact_counters_bound") + 1e-3;
    /* the term follows the busiest SM's wavefronts: 16 blocks of 2048 on 132 SMs in both runs */
    if (fabs(num(ts, "l1_us") - num(tf, "l1_us")) > eb * num(tf, "l1_us"))
        fail_msg("L1/shared term: sampled %.3f us, full %.3f us", num(ts, "l1_us"), num(tf, "l1_us"));
    /* the time adds the blocks' load phase to that, overlapped across the blocks in flight: its
       latency chain is a modelled sum, sampled as the L2 counters are, so within their 2 % */
    if (fabs(num(ts, "predicted_us") - num(tf, "predicted_us")) > (eb + 0.02) * num(tf, "predicted_us"))
        fail_msg("predicted: sampled %.3f us, full %.3f us", num(ts, "predicted_us"), num(tf, "predicted_us"));
}

/* A tiled matmul's first wave reads the B matrix every later block reuses from L2: its misses
 * are the cold start, counted once in the full run. Scaled by the L2 sectors' factor they came
 * out 2.7x the full run's; by stratum (the first wave once, the later blocks by their own) they
 * are the full run's. */
static void test_a_sampled_matmul_counts_its_first_waves_cold_misses_once(void **state)
{
    (void)state;
    cJSON *s, *f;
    matmul_pair(&s, &f);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sampling(s), "sampled")));
    within(s, f, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", 0.02);
    within(s, f, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 0.02);
    within(s, f, "dram__bytes_read.sum", 0.02);
    /* 1.37 waves (3 do not fit the budget): the first wave and 0.37 of a wave after it, whose
       per-block spread bounds the L2 read hits and misses; the full run is within that bound */
    cJSON *cb = cJSON_GetObjectItem(sampling(s), "cache_counters_bound");
    assert_true(cJSON_IsNumber(cb));
    assert_true(num(sampling(s), "waves") > 1 && num(sampling(s), "waves") < 2);
    within(s, f, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", cb->valuedouble);
    within(s, f, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", cb->valuedouble);
    /* the whole grid's data (A 256 KiB, B 128 KiB, C 8 MiB) fits the L2: nothing is read twice
       from DRAM for want of room, so the reads are far below one per block's sectors */
    assert_true(total(s, "dram__bytes_read.sum") < 0.1 * total(s, "lts__t_sectors_srcunit_tex_op_read.sum") * 32);
}

/* --sample-waves N: the lead is N whole waves (SMs x resident blocks), whatever the budget says;
 * from 3 the cache counters have their wave-to-wave bound. */
static void test_sample_waves_runs_that_many_whole_waves(void **state)
{
    (void)state;
    char *out;
    /* 2^22 floats in blocks of 256: 16384 blocks, more than twice 4 waves on the H200 (4 x 1056) */
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4194304", "--sample-waves", "4", "--json", NULL), WS_EXIT_OK);
    cJSON *d = cJSON_Parse(out);
    free(out);
    assert_non_null(d);
    cJSON *occ = cJSON_GetObjectItem(d, "occupancy"), *prof = cJSON_GetObjectItem(d, "device_profile");
    double wave = num(prof, "sm_count") * num(occ, "blocks_per_sm");
    cJSON *sj = sampling(d);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sj, "sampled")));
    assert_true(num(sj, "waves") == 4);
    assert_true(num(sj, "blocks_simulated") == 4 * wave + num(sj, "edge_blocks"));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(sj, "cache_counters_bound")));
    /* a copy's blocks are alike: 4 sectors read and written per warp, exactly */
    assert_true(total(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 4194304.0 / 8);
    cJSON_Delete(d);
    assert_int_equal(run_sim(&out, "copy_float", "--sample-waves", "3", "--full", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "--sample-waves", "0", NULL), WS_EXIT_USAGE);
    free(out);
}

/* The sampler driven directly: a 1-D grid of 1000 one-warp blocks in waves of 10, each block
 * costing a fifteenth of the lead budget, so 3 waves (30 blocks) do not fit and the lead is the
 * first 15 blocks: the whole first wave and 5 later blocks, then the representatives of the
 * interior and last kinds (998, 999). Each block's L2 read hits and misses go into pc 0's row. */
enum { G_BLOCKS = 1000, G_WAVE = 10 };

typedef struct {
    ws_launch L;
    ws_memstats *ms;
    ws_sim_result res;
    ws_sampler *sp;
    ws_sim_config cfg;
    size_t hit, miss; /* pc 0's L2 read hit and miss words in the flat vector */
} driven;

static void driven_new(driven *d)
{
    memset(d, 0, sizeof *d);
    d->L.grid[0] = G_BLOCKS;
    d->L.grid[1] = d->L.grid[2] = 1;
    d->L.block[0] = 32;
    d->L.block[1] = d->L.block[2] = 1;
    d->ms = ws_memstats_new(ws_device_default(), &d->L, 1);
    assert_non_null(d->ms);
    d->sp = ws_sampler_new(WS_SAMPLE_ON, &d->L, G_WAVE, d->ms, &d->res, 1);
    assert_non_null(d->sp);
    ws_sampler_attach(d->sp, &d->cfg);
    size_t row = offsetof(ws_mem_totals, cache) / 8; /* pc 0's row follows the totals */
    d->hit = row + (offsetof(ws_pc_stats, l2_hit_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    d->miss = row + (offsetof(ws_pc_stats, l2_miss_sectors) - offsetof(ws_pc_stats, executions)) / 8;
}

/* Runs the blocks the sampler asks for, block b adding cost thread-instructions and
 * hits(b) / misses(b) sectors; returns the blocks run. */
static int driven_run(driven *d, uint64_t cost, double (*hits)(uint64_t), double (*misses)(uint64_t))
{
    uint64_t *v = calloc(ws_memstats_nflat(d->ms), sizeof *v);
    assert_non_null(v);
    int run = 0;
    for (uint64_t b = d->cfg.block_next(d->cfg.filter_ctx, 0); b < G_BLOCKS; b = d->cfg.block_next(d->cfg.filter_ctx, b + 1)) {
        ws_memstats_flat_get(d->ms, v);
        v[d->hit] += (uint64_t)hits(b);
        v[d->miss] += (uint64_t)misses(b);
        ws_memstats_flat_set(d->ms, v);
        d->res.thread_insns += cost;
        d->res.warp_insns += cost / 32;
        d->cfg.on_sync(d->cfg.sync_ctx, (uint32_t)b, WS_SYNC_BLOCK_END, 0);
        run++;
    }
    free(v);
    return run;
}

static void driven_free(driven *d)
{
    ws_sampler_free(d->sp);
    ws_memstats_free(d->ms);
}

/* the first wave misses (cold) and hits 1000; later blocks hit 100 or 300 by parity, miss nothing */
static double hits_parity(uint64_t b) { return b < G_WAVE ? 1000 : b % 2 ? 300 : 100; }
static double misses_cold(uint64_t b) { return b < G_WAVE ? 50 : 0; }

static void test_a_lead_of_the_first_wave_and_later_blocks_bounds_the_cache_counters_by_their_spread(void **state)
{
    (void)state;
    /* a fifteenth of the lead budget a block; then a fifteenth of the raised one, which the lead
       takes because the budget would give 1 block, less than the first wave and an eighth */
    const uint64_t costs[] = {WS_SAMPLE_BUDGET / 15, WS_SAMPLE_BUDGET_RAISED / 15};
    assert_true(WS_SAMPLE_BUDGET / costs[1] < G_WAVE + G_WAVE / WS_SAMPLE_LATER_PART);
    for (int c = 0; c < 2; c++) {
        driven d;
        driven_new(&d);
        /* 0..14, then the interior kind's last block (998) and the last kind's (999) */
        assert_int_equal(driven_run(&d, costs[c], hits_parity, misses_cold), 17);
        assert_true(ws_sampler_scale(d.sp));
        ws_sample_info si;
        ws_sampler_info(d.sp, &si);
        assert_true(si.lead_blocks == 15);
        /* by hand: the first wave (0..9) counted once: 10 x 1000 hits, 10 x 50 misses. The interior
           kind's later blocks: 989 (998 interior blocks less the first wave's 9), sampled 10..14 and
           998: hits 100 300 100 300 100 100, mean 1000/6, sample variance 53333.3/5; the last kind's
           one block (999, 300 hits) is the whole of its kind. Estimate 10000 + 989 x 1000/6 + 300. */
        double s = 6, n = 989, mean = 1000.0 / 6, var = (4 * pow(100 - mean, 2) + 2 * pow(300 - mean, 2)) / (s - 1);
        double est = 10000 + n * mean + 300;
        double bound = 3 * sqrt(n * n * var / s * (1 - s / n)) / est; /* the misses' spread is 0 */
        assert_true(fabs(ws_memstats_pc(d.ms, 0)->l2_hit_sectors - est) <= 0.5);
        assert_true(ws_memstats_pc(d.ms, 0)->l2_miss_sectors == 500);
        if (fabs(si.cache_bound - bound) > 1e-9 * bound)
            fail_msg("cache bound %.9f, by hand %.9f", si.cache_bound, bound);
        const char *t = ws_sampler_text(d.sp);
        assert_non_null(strstr(t, "3 standard errors of 6 later blocks"));
        assert_null(strstr(t, "pooled with the first wave")); /* none: the last kind ran whole */
        assert_null(strstr(t, "unbounded"));
        driven_free(&d);
    }
}

static void test_a_lead_of_the_first_wave_alone_leaves_the_cache_counters_unbounded(void **state)
{
    (void)state;
    /* --sample-waves 1: the later blocks are the two representatives, one of each kind; the
       interior one is pooled with the first wave: no spread of its own to bound it */
    driven d;
    driven_new(&d);
    ws_sampler_set_waves(d.sp, 1);
    assert_int_equal(driven_run(&d, 1000, hits_parity, misses_cold), 12);
    assert_true(ws_sampler_scale(d.sp));
    ws_sample_info si;
    ws_sampler_info(d.sp, &si);
    assert_true(si.lead_blocks == G_WAVE);
    assert_true(si.cache_bound < 0);
    assert_non_null(strstr(ws_sampler_text(d.sp), "cache counters unbounded"));
    driven_free(&d);
}

/* ---- The L2 replay (sample.h): the written bytes' split from the grid's end state ---- */

/* An L2 of 1 MiB, 16 ways, one partition: 512 sets of 16 lines, 8192 lines; no dirty limit, no
 * partial-write limits (whole sectors only here), ECC off. Lines below 2^17 fold to themselves:
 * set = line % 512. */
static ws_cache_config small_l2(uint64_t dirty_limit)
{
    ws_cache_config cc;
    ws_cache_config_from_device(&cc, ws_device_default(), 0);
    cc.l2_bytes = 1u << 20;
    cc.l2_ways = 16;
    cc.l2_partitions = 1;
    cc.l2_far_lookups = 0;
    cc.l2_dirty_limit = dirty_limit;
    cc.l2_partial_lines = cc.l2_partial_writeback_lines = 0;
    cc.ecc = 0;
    return cc;
}

/* The last block's own lines where it writes fewer than the others (a partial tile), else 0. */
static int last_block_own;

/* Block b reads `shared` lines every block reads (0 .. shared-1) and writes `own` whole lines of
 * its own (line(b, i)); the sampler sees each block's accesses (ws_sampler_trace) and its L2
 * sectors (pc 0's row). Returns the sampled blocks' written bytes. */
static double traced_run(driven *d, int shared, int own_all, uint64_t (*line)(uint64_t b, int i))
{
    uint64_t *v = calloc(ws_memstats_nflat(d->ms), sizeof *v);
    assert_non_null(v);
    size_t l2 = offsetof(ws_mem_totals, cache) / 8 + (offsetof(ws_pc_stats, l2_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    const uint32_t whole[4] = {~0u, ~0u, ~0u, ~0u}, none[4] = {0, 0, 0, 0};
    double written = 0;
    for (uint64_t b = d->cfg.block_next(d->cfg.filter_ctx, 0); b < G_BLOCKS; b = d->cfg.block_next(d->cfg.filter_ctx, b + 1)) {
        int own = b == G_BLOCKS - 1 && last_block_own ? last_block_own : own_all;
        for (int i = 0; i < shared; i++) ws_sampler_trace(d->sp, (uint32_t)b, 0, (uint64_t)i, 15, 0, none);
        for (int i = 0; i < own; i++) ws_sampler_trace(d->sp, (uint32_t)b, 0, line(b, i), 0, 15, whole);
        ws_memstats_flat_get(d->ms, v);
        v[l2] += 4 * (uint64_t)(shared + own);
        ws_memstats_flat_set(d->ms, v);
        d->res.thread_insns += 1000;
        d->res.warp_insns += 1000 / 32;
        d->cfg.on_sync(d->cfg.sync_ctx, (uint32_t)b, WS_SYNC_BLOCK_END, 0);
        written += 128.0 * own;
    }
    free(v);
    return written;
}

/* The sampled stream's totals as the cache model leaves them: every written line allocated into an
 * empty way and still dirty (the sample fits the L2), scaled by ws_sampler_scale_cache. */
static ws_cache_totals split_of(driven *d, double written, const ws_cache_config *cc)
{
    assert_true(ws_sampler_scale(d->sp));
    ws_cache_totals t;
    memset(&t, 0, sizeof t);
    t.dirty_at_end_bytes = (uint64_t)written;
    t.l2_cold_allocations = (uint64_t)written / 128;
    ws_sampler_scale_cache(d->sp, &t, cc);
    return t;
}

static uint64_t own_lines_32(uint64_t b, int i) { return 1024 + 32 * b + (uint64_t)i; }
static uint64_t own_lines_4(uint64_t b, int i) { return 4 * b + (uint64_t)i; }
static uint64_t lines_square(uint64_t b, int i) { return 32 * b * b + (uint64_t)i; }

static void test_a_grids_distinct_written_lines_past_the_l2_leave_exactly_its_capacity_dirty(void **state)
{
    (void)state;
    /* 1000 blocks x 32 whole lines, all distinct (32,000 lines, 4 MB): the L2's 8192 lines hold the
       newest 8192 at the end, 16 in each set (consecutive lines fill the sets evenly), all dirty;
       the rest was written back. A sample of 17 blocks never fills the L2 */
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    ws_cache_totals t = split_of(&d, traced_run(&d, 0, 32, own_lines_32), &cc);
    assert_true(t.dirty_at_end_bytes == 8192 * 128);
    assert_true(t.dram_write_bytes == 1000 * 32 * 128 - 8192 * 128);
    assert_non_null(strstr(ws_sampler_text(d.sp), "the split from the L2 replayed over the grid's"));
    driven_free(&d);
}

static void test_a_grid_whose_written_lines_fit_the_l2_leaves_them_all_dirty(void **state)
{
    (void)state;
    /* 1000 x 4 lines = 4000 < 8192: nothing is evicted, nothing written back */
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    ws_cache_totals t = split_of(&d, traced_run(&d, 0, 4, own_lines_4), &cc);
    assert_true(t.dirty_at_end_bytes == 4000 * 128);
    assert_true(t.dram_write_bytes == 0);
    driven_free(&d);
}

static void test_past_the_dirty_limit_the_l2_keeps_the_limits_worth_dirty(void **state)
{
    (void)state;
    /* the 32,000 lines again with a dirty limit of 256 KiB (2048 lines): the lines dirtied longest
       ago are written back as the limit is passed, so exactly the limit stays dirty */
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(256 * 1024);
    ws_cache_totals t = split_of(&d, traced_run(&d, 0, 32, own_lines_32), &cc);
    assert_true(t.dirty_at_end_bytes == 256 * 1024);
    assert_true(t.dram_write_bytes == 1000 * 32 * 128 - 256 * 1024);
    driven_free(&d);
}

static void test_lines_every_block_reads_stay_resident_and_the_written_ones_take_the_rest(void **state)
{
    (void)state;
    /* every block reads lines 0..1023 (2 per set), then writes 32 new ones: in each set the two
       read lines were touched after every older write, so the LRU victims are the writes: 14 ways a
       set hold the newest written lines, 512 x 14 lines dirty at the end (a tiled matmul's B and
       C). A count of lines in an L2 of 8192 would say the same here; the sets are what the next
       test needs */
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    ws_cache_totals t = split_of(&d, traced_run(&d, 1024, 32, own_lines_32), &cc);
    assert_true(t.dirty_at_end_bytes == 512 * 14 * 128);
    assert_true(t.dram_write_bytes == 1000 * 32 * 128 - 512 * 14 * 128);
    driven_free(&d);
}

static uint64_t column_lines(uint64_t b, int i) { return 8192 * (uint64_t)i + 8 * b; }

static void test_written_lines_that_fall_in_few_sets_are_evicted_within_those_sets(void **state)
{
    (void)state;
    /* block b writes 32 lines 8192 apart from 8 b (a column of a transpose's output): 32,000 distinct
       lines, but only in the sets 8 k and 8 k ^ 1 (cache.h's set index, the line xor-folded: line ^
       line >> 17 ^ line >> 29, modulo 512). A set keeps its 16 newest lines, so a set given n of
       them ends with min(16, n) dirty: 128 sets x 16 lines, where a count of lines in an L2 of 8192
       would keep 8192 */
    uint32_t per_set[512] = {0};
    for (uint64_t b = 0; b < G_BLOCKS; b++)
        for (int i = 0; i < 32; i++) {
            uint64_t l = column_lines(b, i);
            per_set[(l ^ l >> 17 ^ l >> 29) % 512]++;
        }
    uint64_t kept = 0;
    for (int k = 0; k < 512; k++) kept += per_set[k] < 16 ? per_set[k] : 16;
    assert_true(kept == 128 * 16);
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    ws_cache_totals t = split_of(&d, traced_run(&d, 0, 32, column_lines), &cc);
    assert_true(t.dirty_at_end_bytes == kept * 128);
    assert_true(t.dram_write_bytes == 1000 * 32 * 128 - kept * 128);
    driven_free(&d);
}

static void test_lines_not_affine_in_the_block_get_no_replay_and_say_why(void **state)
{
    (void)state;
    /* block b writes at 32 b^2: blocks 0 and 1 fit a stride, the last block (999) does not */
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    split_of(&d, traced_run(&d, 0, 32, lines_square), &cc);
    assert_non_null(strstr(ws_sampler_text(d.sp), "no replay: the blocks' lines are not affine in their coordinates"));
    driven_free(&d);
}

static void test_an_edge_block_whose_accesses_differ_is_replayed_as_the_interiors_and_said(void **state)
{
    (void)state;
    /* the last block writes 16 lines, the others 32: the interior kind's fit does not predict it,
       so it is replayed as an interior block would be (one block of 1000: 0.1%), and the L2 still
       ends with its capacity's worth of the newest lines dirty */
    last_block_own = 16;
    driven d;
    driven_new(&d);
    ws_cache_config cc = small_l2(0);
    ws_cache_totals t = split_of(&d, traced_run(&d, 0, 32, own_lines_32), &cc);
    last_block_own = 0;
    assert_true(t.dirty_at_end_bytes == 8192 * 128);
    assert_non_null(strstr(ws_sampler_text(d.sp), "but the edge kinds' of 0.1% of the blocks, replayed as the interior's"));
    driven_free(&d);
}

/* ---- The L1 replay and the partial writes' ECC reads from the replayed stream ---- */

/* The sampler driven over a 2-D grid of gx x gy one-warp blocks in waves of 10 (10 SMs, one block
 * each): each block's accesses are given by acc(b, x, y, i) for i < nacc (line, sectors read with
 * their L1-allocating bits, written, bytes), and its L2 sectors (pc 0's row) are 4 per access.
 * Returns the blocks run. */
typedef struct {
    uint64_t line;
    uint8_t rd, wr;
    uint32_t bytes[4];
} t_acc;

/* Where set, each access's 4 sectors also count as L1 misses of pc 0, of which only half reach L2
 * (the rest merged into other SMs' requests). */
static bool half_merged;

static int traced_run_2d(driven *d, uint64_t gx, uint64_t gy, int nacc, t_acc (*acc)(uint64_t x, uint64_t y, int i))
{
    uint64_t *v = calloc(ws_memstats_nflat(d->ms), sizeof *v);
    assert_non_null(v);
    size_t row = offsetof(ws_mem_totals, cache) / 8;
    size_t l2 = row + (offsetof(ws_pc_stats, l2_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t l1m = row + (offsetof(ws_pc_stats, l1_miss_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    int run = 0;
    for (uint64_t b = d->cfg.block_next(d->cfg.filter_ctx, 0); b < gx * gy; b = d->cfg.block_next(d->cfg.filter_ctx, b + 1)) {
        for (int i = 0; i < nacc; i++) {
            t_acc a = acc(b % gx, b / gx, i);
            ws_sampler_trace(d->sp, (uint32_t)b, 0, a.line, a.rd, a.wr, a.bytes);
        }
        ws_memstats_flat_get(d->ms, v);
        v[l2] += (half_merged ? 2 : 4) * (uint64_t)nacc;
        if (half_merged) v[l1m] += 4 * (uint64_t)nacc;
        ws_memstats_flat_set(d->ms, v);
        d->res.thread_insns += 1000;
        d->res.warp_insns += 1000 / 32;
        d->cfg.on_sync(d->cfg.sync_ctx, (uint32_t)b, WS_SYNC_BLOCK_END, 0);
        run++;
    }
    free(v);
    return run;
}

static void driven_new_2d(driven *d, uint32_t gx, uint32_t gy)
{
    memset(d, 0, sizeof *d);
    d->L.grid[0] = gx;
    d->L.grid[1] = gy;
    d->L.grid[2] = 1;
    d->L.block[0] = 32;
    d->L.block[1] = d->L.block[2] = 1;
    d->ms = ws_memstats_new(ws_device_default(), &d->L, 1);
    assert_non_null(d->ms);
    d->sp = ws_sampler_new(WS_SAMPLE_ON, &d->L, G_WAVE, d->ms, &d->res, 1);
    assert_non_null(d->sp);
    ws_sampler_attach(d->sp, &d->cfg);
}

/* block (x, y) loads (through L1) the 16 whole lines of column x: 16 x .. 16 x + 15 */
static t_acc column_loads(uint64_t x, uint64_t y, int i)
{
    (void)y;
    return (t_acc){16 * x + (uint64_t)i, 0xFF, 0, {0, 0, 0, 0}};
}

static void test_blocks_of_one_sm_that_reread_its_lines_waves_apart_hit_in_l1_as_the_full_run(void **state)
{
    (void)state;
    /* an 11 x 100 grid on 10 SMs: block b = x + 11 y runs on SM b % 10 = (x + y) % 10, so an SM's
       blocks of one column come 110 blocks (11 waves) apart, far past the 3 waves sampled, which
       see no reuse at all. Full run: each SM loads the lines of each of the 11 columns once (176
       lines, within an L1 of 512), so of the 1100 blocks the first of each (SM, column) pair, 110,
       miss and the other 990 hit their 64 sectors: 63,360 hits of 70,400 */
    driven d;
    driven_new_2d(&d, 11, 100);
    assert_int_equal(traced_run_2d(&d, 11, 100, 16, column_loads), 30 + 6); /* 3 waves, the kinds' last blocks */
    assert_true(ws_sampler_scale(d.sp));
    ws_cache_config cc = small_l2(0);
    cc.sm_count = 10;
    cc.l1_bytes = 64 * 1024;
    ws_cache_totals t;
    memset(&t, 0, sizeof t);
    t.l1_global_ld_miss = t.l2_read_sectors = t.l2_read_hit_sectors = 36 * 64; /* the sample: all L1 misses */
    ws_sampler_scale_cache(d.sp, &t, &cc);
    assert_true(t.l1_global_ld_hit == 990 * 64);
    assert_true(t.l1_global_ld_miss == 110 * 64);
    /* the L1 now serves what went to L2, which it hit there (the lines were loaded before) */
    assert_true(t.l2_read_sectors == 110 * 64);
    assert_true(t.l2_read_hit_sectors == 110 * 64);
    assert_non_null(strstr(ws_sampler_text(d.sp), "L1 hits from the L1 of 10 SMs replayed over all their blocks"));
    driven_free(&d);
}

static void test_the_hits_an_l1_replay_adds_leave_the_l2_reads_and_merged_sectors_in_the_pcs_shares(void **state)
{
    (void)state;
    /* the grid above, but half of each block's L1 misses merged into other SMs' requests (its pc's
       L2 sectors are half its misses): the 990 blocks that now hit had, in the sample, sent half
       their sectors to L2 and merged the other half, so each side loses half the hits. What stays
       is the 110 first blocks' misses, split as before: 110 x 32 sectors to L2 in 110 x 8 requests
       (one a line sent), and 110 x 32 merged */
    half_merged = true;
    driven d;
    driven_new_2d(&d, 11, 100);
    traced_run_2d(&d, 11, 100, 16, column_loads);
    half_merged = false;
    assert_true(ws_sampler_scale(d.sp));
    ws_cache_config cc = small_l2(0);
    cc.sm_count = 10;
    cc.l1_bytes = 64 * 1024;
    ws_cache_totals t;
    memset(&t, 0, sizeof t);
    t.l1_global_ld_miss = 36 * 64; /* the sample: all L1 misses, half merged */
    t.l2_read_sectors = t.l2_read_hit_sectors = t.merged_sectors = t.coalesced_sectors = 36 * 32;
    t.l2_read_requests = 36 * 16 / 2; /* a request per line sent: half of them */
    ws_sampler_scale_cache(d.sp, &t, &cc);
    assert_true(t.l1_global_ld_hit == 990 * 64);
    assert_true(t.l2_read_sectors == 110 * 32);
    assert_true(t.l2_read_hit_sectors == 110 * 32);
    assert_true(t.merged_sectors == 110 * 32);
    assert_true(t.coalesced_sectors == 110 * 32);
    assert_true(t.l2_read_requests == 110 * 16 / 2);
    driven_free(&d);
}

/* block b (of 1000 in a row) writes bytes 16 .. 143 past 128 b: line b from its first sector's
   second half, and the first half of line b + 1's first sector, which block b + 1 completes */
static t_acc shifted_row(uint64_t x, uint64_t y, int i)
{
    (void)y;
    return i == 0 ? (t_acc){x, 0, 15, {0xFFFF0000u, ~0u, ~0u, ~0u}} : (t_acc){x + 1, 0, 1, {0x0000FFFFu, 0, 0, 0}};
}

static void test_partial_sectors_a_neighbour_block_completes_are_not_read_for_ecc(void **state)
{
    (void)state;
    /* with ECC the L2 keeps the newest 64 lines that took a partly written sector as byte masks and
       reads the partial sectors of older ones. Each block's partial sector is completed by the next
       block, well within 64 lines; only line 0's first sector (bytes 0-15 never written) is still
       partial when it leaves the newest 64: the full run reads 32 bytes. The sample's lead and edge
       blocks leave their neighbours' halves unwritten (the next wave and block 997 did not run):
       its partial bytes per line, scaled, read kilobytes */
    driven d;
    driven_new_2d(&d, 1000, 1);
    traced_run_2d(&d, 1000, 1, 2, shifted_row);
    assert_true(ws_sampler_scale(d.sp));
    ws_cache_config cc = small_l2(0);
    cc.ecc = 1;
    cc.l2_partial_lines = 64;
    cc.l2_partial_writeback_lines = 128;
    ws_cache_totals t;
    memset(&t, 0, sizeof t);
    t.dirty_at_end_bytes = 33 * 160; /* the sample's 33 blocks' bytes, dirty: fewer lines than the limit */
    t.partial_lines = 36;            /* lines 0 .. 30 and 997 .. 1000 */
    t.partial_pending_bytes = 3 * 32; /* lines 0, 998 (block 997's half missing) and 1000 */
    ws_sampler_scale_cache(d.sp, &t, &cc);
    assert_true(t.partial_fill_bytes == 32);
    assert_true(t.ecc_read_bytes == 32);
    assert_true(t.dram_read_bytes == 32);
    assert_true(t.partial_lines == 1001);
    driven_free(&d);
}

static void test_a_sampled_transpose_past_the_l2_splits_its_writes_as_the_full_run(void **state)
{
    (void)state;
    /* 4096^2 floats: 64 MB out, past the L2; its columns' lines fall in few sets. The written sum
       is exact by the sectors; the split is the replay's of the same L2 */
    char *out;
    cJSON *docs[3];
    const char *modes[3] = {"--full", "--sample", "--sample"}, *j[3] = {"2", "1", "2"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(run_sim(&out, "transpose_padded", "-D", "W=4096", "-D", "H=4096", modes[k], "-j", j[k], "--json",
                                 NULL), WS_EXIT_OK);
        assert_non_null(docs[k] = cJSON_Parse(out));
        free(out);
    }
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sampling(docs[1]), "sampled")));
    for (int k = 1; k < 3; k++) {
        within(docs[k], docs[0], "dram__bytes_write.sum", 0.02);
        within(docs[k], docs[0], "ws__l2_dirty_bytes_at_end", 0.02);
    }
    char *a = stable_text(docs[1]), *b = stable_text(docs[2]); /* -j 1 and -j 2 alike */
    assert_string_equal(a, b);
    free(a);
    free(b);
    for (int k = 0; k < 3; k++) cJSON_Delete(docs[k]);
}

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

static ptx_module *parse(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("test.ptx", text, &err);
    if (!m) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

/* Three kernels around one atom.global.add: its result unused (ptxas makes it a RED), stored to
 * an output (atomic_one_counter_ret's pattern), and compared to decide a branch (a ticket). The
 * first two steer nothing: their blocks do not depend on each other, but the contention terms
 * are grid-wide totals, so they still run full, saying so; the third may depend on others. */
static void test_an_atomics_result_that_steers_a_branch_is_told_apart_from_one_only_stored(void **state)
{
    (void)state;
    const char *pre = HEADER ".visible .entry k(.param .u64 p)\n{\n"
                      "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
                      "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                      "  atom.global.add.u32 %r1, [%rd2], 1;\n";
    const char *tails[] = {"  ret;\n}\n", "  mov.u32 %r2, %r1;\n  st.global.u32 [%rd2+4], %r2;\n  ret;\n}\n",
                           "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra $L_end;\n  st.global.u32 [%rd2+4], 1;\n"
                           "$L_end:\n  ret;\n}\n"};
    const bool steers[] = {false, false, true};
    ws_launch L;
    memset(&L, 0, sizeof L);
    for (int i = 0; i < 3; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", pre, tails[i]);
        ptx_module *m = parse(text);
        assert_int_equal(ws_atom_result_steers(&m->funcs[0]), steers[i]);
        const char *why = ws_sample_refusal(m, &m->funcs[0], &L);
        assert_non_null(why);
        assert_non_null(strstr(why, steers[i] ? "steer a branch or an address" : "steer no branch or address"));
        ptx_free(m);
    }
    /* the result as an address: steers too */
    char text[1024];
    snprintf(text, sizeof text, "%s%s", pre,
             "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd3, %rd2, %rd3;\n  st.global.u32 [%rd3], 1;\n  ret;\n}\n");
    ptx_module *m = parse(text);
    assert_true(ws_atom_result_steers(&m->funcs[0]));
    ptx_free(m);
}

static void test_a_kernel_with_global_atomics_runs_full_and_says_why(void **state)
{
    (void)state;
    /* 2^20 threads in blocks of 256: 4096 blocks, more than the lead blocks' 3 waves (3 x 132 x 8
       = 3168 on the H200), so --sample would skip blocks of a kernel without atomics (2^22 took
       four times as long under ASan for the same proof) */
    const double n = 1048576;
    cJSON *d = sim_json("atomic_distinct_ret", "N=1048576", NULL, "--sample");
    cJSON *occ = cJSON_GetObjectItem(d, "occupancy"), *prof = cJSON_GetObjectItem(d, "device_profile");
    assert_true(n / 256 > WS_SAMPLE_WAVES * num(prof, "sm_count") * num(occ, "blocks_per_sm"));
    cJSON *s = sampling(d);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(s, "sampled")));
    assert_true(num(s, "blocks_simulated") == n / 256);
    assert_non_null(strstr(cJSON_GetObjectItem(s, "text")->valuestring, "not sampled: global atomics"));
    /* every block ran: n threads each one atomic add and one store of a word */
    assert_true(total(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == n / 8);
    cJSON_Delete(d);
}

static void test_sample_and_full_together_are_a_usage_error(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "--sample", "--full", NULL), WS_EXIT_USAGE);
    free(out);
}

static void test_the_catalog_default_size_runs_full_without_being_asked(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "transpose_padded", "--json", NULL), WS_EXIT_OK);
    cJSON *d = cJSON_Parse(out);
    free(out);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(sampling(d), "sampled")));
    cJSON_Delete(d);
}

static int setup(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "demos", 1);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_sampled_copy_is_reproducible_and_its_sectors_are_n_over_8),
        cmocka_unit_test(test_a_transpose_with_partial_edge_tiles_sampled_is_within_its_bounds_of_full),
        cmocka_unit_test(test_a_sampled_stride_2_copy_reads_its_partial_lines_beyond_the_limit_as_the_full_run),
        cmocka_unit_test(test_a_sampled_shared_bound_matmul_predicts_the_full_runs_time),
        cmocka_unit_test(test_a_sampled_matmul_counts_its_first_waves_cold_misses_once),
        cmocka_unit_test(test_sample_waves_runs_that_many_whole_waves),
        cmocka_unit_test(test_a_lead_of_the_first_wave_and_later_blocks_bounds_the_cache_counters_by_their_spread),
        cmocka_unit_test(test_a_lead_of_the_first_wave_alone_leaves_the_cache_counters_unbounded),
        cmocka_unit_test(test_a_grids_distinct_written_lines_past_the_l2_leave_exactly_its_capacity_dirty),
        cmocka_unit_test(test_a_grid_whose_written_lines_fit_the_l2_leaves_them_all_dirty),
        cmocka_unit_test(test_past_the_dirty_limit_the_l2_keeps_the_limits_worth_dirty),
        cmocka_unit_test(test_lines_every_block_reads_stay_resident_and_the_written_ones_take_the_rest),
        cmocka_unit_test(test_written_lines_that_fall_in_few_sets_are_evicted_within_those_sets),
        cmocka_unit_test(test_lines_not_affine_in_the_block_get_no_replay_and_say_why),
        cmocka_unit_test(test_an_edge_block_whose_accesses_differ_is_replayed_as_the_interiors_and_said),
        cmocka_unit_test(test_a_sampled_transpose_past_the_l2_splits_its_writes_as_the_full_run),
        cmocka_unit_test(test_blocks_of_one_sm_that_reread_its_lines_waves_apart_hit_in_l1_as_the_full_run),
        cmocka_unit_test(test_the_hits_an_l1_replay_adds_leave_the_l2_reads_and_merged_sectors_in_the_pcs_shares),
        cmocka_unit_test(test_partial_sectors_a_neighbour_block_completes_are_not_read_for_ecc),
        cmocka_unit_test(test_a_kernel_with_global_atomics_runs_full_and_says_why),
        cmocka_unit_test(test_an_atomics_result_that_steers_a_branch_is_told_apart_from_one_only_stored),
        cmocka_unit_test(test_sample_and_full_together_are_a_usage_error),
        cmocka_unit_test(test_the_catalog_default_size_runs_full_without_being_asked),
    };
    return cmocka_run_group_tests(tests, setup, free_matmul_pair);
}
