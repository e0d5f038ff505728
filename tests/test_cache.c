/* test_cache.c - the L1/L2/DRAM model: L1 reuse and bypass (App. E of
 * gpu-memory-rules.md), in-flight miss merging (§2.3), DRAM fetch granularity over a
 * streaming pattern (§4.1, App. F), ECC partial writes, write-back at eviction and
 * dirty data at kernel end. Expected counts are derived from the addresses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../sim/models/cache.h"
#include "../sim/models/coalesce.h"
#include "../sim/models/timing.h"
#include <math.h>

#define BASE 0x100000000ull

static ws_cache_config config(uint32_t l1_bytes, uint32_t l2_bytes, int fetch, int ecc)
{
    ws_cache_config c;
    memset(&c, 0, sizeof c);
    c.sm_count = 4;
    c.l1_bytes = l1_bytes;
    c.l2_bytes = l2_bytes;
    c.dram_fetch_bytes = fetch;
    c.ecc = ecc;
    c.inflight_window = 8;
    return c;
}

static ws_mem_event ev_strided(ws_mem_op op, ws_cache_hint hint, int width, uint64_t base, uint64_t stride)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_GLOBAL;
    ev.op = op;
    ev.cache = hint;
    ev.width = (uint8_t)width;
    ev.active_mask = 0xFFFFFFFFu;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = base + (uint64_t)l * stride;
    return ev;
}

static ws_cache_access access_on(ws_cache *c, int sm, const ws_mem_event *ev)
{
    static ws_coalesce_result co;
    ws_cache_access a;
    assert_int_equal(ws_coalesce(ev, 0, &co), 0);
    assert_int_equal(ws_cache_access_event(c, sm, ev, &co, &a), 0);
    return a;
}

/* App. E, default binary: two back-to-back loads of the same 128 B. */
static void test_repeated_default_load_hits_in_l1(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &ev);
    assert_int_equal(a.l1_miss_sectors, 4);
    assert_int_equal(a.l2_requests, 1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(a.outcome[i], WS_SECT_DRAM);
    a = access_on(c, 0, &ev);
    assert_int_equal(a.l1_hit_sectors, 4);
    assert_int_equal(a.l2_requests, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(a.outcome[i], WS_SECT_L1_HIT);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l1_global_ld_hit, 4);      /* measured: 4 hit, 4 miss */
    assert_int_equal(t->l1_global_ld_miss, 4);
    assert_int_equal(t->l2_read_requests, 1);      /* measured: 1 L2 request, 4 sectors */
    assert_int_equal(t->l2_read_sectors, 4);
    ws_cache_free(c);
}

static void test_ldg_nc_load_is_cached_in_l1_like_default(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_NC, 4, BASE, 4);
    access_on(c, 0, &ev);
    assert_int_equal(access_on(c, 0, &ev).l1_hit_sectors, 4);
    ws_cache_free(c);
}

/* App. E: .cg never hits in L1, but the second miss merges into the first: L2 sees one request. */
static void test_cg_load_never_hits_l1_and_back_to_back_misses_merge(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE, 4);
    access_on(c, 0, &ev);
    ws_cache_access a = access_on(c, 0, &ev);
    assert_int_equal(a.l1_hit_sectors, 0);
    assert_int_equal(a.merged_sectors, 4);
    assert_int_equal(a.outcome[0], WS_SECT_MERGED);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l1_global_ld_hit, 0);
    assert_int_equal(t->l1_global_ld_miss, 8);
    assert_int_equal(t->l2_read_requests, 1);
    assert_int_equal(t->l2_read_sectors, 4);
    /* stride 32 floats: 32 lines, one sector each; twice -> 64 misses, 32 requests, 32 sectors */
    ws_mem_event s32 = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + 65536, 128);
    access_on(c, 0, &s32);
    access_on(c, 0, &s32);
    assert_int_equal(t->l1_global_ld_miss, 8 + 64);
    assert_int_equal(t->l2_read_requests, 1 + 32);
    assert_int_equal(t->l2_read_sectors, 4 + 32);
    ws_cache_free(c);
}

static void test_cg_misses_far_apart_both_reach_l2(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE, 4);
    access_on(c, 0, &ev);
    ws_mem_event other = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + 4096, 4);
    for (int i = 0; i < cfg.inflight_window; i++) /* the first miss completes meanwhile */
        access_on(c, 0, &other);
    ws_cache_access a = access_on(c, 0, &ev);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_requests, 1);
    assert_int_equal(a.l2_hit_sectors, 4); /* the data is in L2 now */
    assert_int_equal(a.outcome[0], WS_SECT_L2_HIT);
    ws_cache_free(c);
}

static void test_another_sm_misses_its_own_l1_but_hits_l2(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &ev);
    assert_int_equal(a.dram_read_bytes, 128); /* 4 sectors = 2 aligned 64-B fetches */
    a = access_on(c, 1, &ev);
    assert_int_equal(a.l1_hit_sectors, 0);
    assert_int_equal(a.l2_hit_sectors, 4);
    assert_int_equal(a.dram_read_bytes, 0);
    assert_int_equal(a.outcome[3], WS_SECT_L2_HIT);
    ws_cache_free(c);
}

/* The L2 request coalescer (cache.h "Read coalescing"): SM 0 and SM 1 each read the same 128 B
 * (one line, 4 sectors) as their first access, so their clocks agree (0 cycles): SM 1's L1 misses
 * all 4, and its request, identical to SM 0's, reaches L2 with it: 8 L1 misses, 1 L2 request of 4
 * sectors, 4 lookups (the misses of the first). The data fills SM 1's L1 too: its re-read hits. */
static void test_identical_requests_of_two_sms_in_one_cycle_reach_l2_once(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    cfg.read_coalescing = 1;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    access_on(c, 0, &ev);
    ws_cache_access a = access_on(c, 1, &ev);
    assert_int_equal(a.l1_miss_sectors, 4);
    assert_int_equal(a.merged_sectors, 4);
    assert_int_equal(a.l2_requests, 0);
    assert_int_equal(a.l2_sectors, 0);
    assert_int_equal(a.outcome[0], WS_SECT_MERGED);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l1_global_ld_miss, 8);
    assert_int_equal(t->l2_read_requests, 1);
    assert_int_equal(t->l2_read_sectors, 4);
    assert_int_equal(t->l2_read_hit_sectors + t->l2_read_miss_sectors, 4);
    assert_int_equal(access_on(c, 1, &ev).l1_hit_sectors, 4);
    ws_cache_free(c);
}

/* One cycle apart is no longer together: SM 1 first reads another line (its clock moves on by
 * that one line, 1 cycle at one line per cycle), then the same 128 B as SM 0: it is looked up in
 * L2 and hits there (SM 0's fill), 2 requests and 8 sectors in all. */
static void test_the_same_request_a_cycle_later_is_looked_up_in_l2(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    cfg.read_coalescing = 1;
    cfg.l1_lines_per_cycle = 1;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_mem_event other = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 4096, 4);
    access_on(c, 0, &ev);
    access_on(c, 1, &other);
    ws_cache_access a = access_on(c, 1, &ev);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_requests, 1);
    assert_int_equal(a.l2_hit_sectors, 4);
    assert_int_equal(ws_cache_get_totals(c)->l2_read_sectors, 4 + 4 + 4);
    /* the clock counts lines, not instructions: 32 lines (a float stride of 128 B) are 32 cycles,
       so SM 2 after 32 one-line reads and SM 3 after that one 32-line read are in step again */
    ws_mem_event wide = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 65536, 128);
    ws_mem_event last = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 8 * 65536, 4);
    for (int i = 0; i < 32; i++) {
        ws_mem_event one = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 2 * 65536 + (uint64_t)i * 128, 4);
        access_on(c, 2, &one);
    }
    access_on(c, 2, &last);
    access_on(c, 3, &wide);
    assert_int_equal(access_on(c, 3, &last).merged_sectors, 4);
    ws_cache_free(c);
}

/* Groups (cache.h "Read coalescing"): with 2 SMs per group, SMs 0 and 1 are one group and SM 2
 * another. SM 0 and SM 1 read the same line as their first access (clock 0 both): one L2 request;
 * SM 2 sends the identical request at the same clock, but its group's coalescer has not seen it:
 * a second L2 request (4 more sectors, hits on SM 0's fill). */
static void test_sms_of_one_group_coalesce_and_of_another_do_not(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    cfg.read_coalescing = 1;
    cfg.coalesce_group_sms = 2;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    access_on(c, 0, &ev);
    ev.block_linear = 1;
    assert_int_equal(access_on(c, 1, &ev).merged_sectors, 4);
    ev.block_linear = 2;
    ws_cache_access a = access_on(c, 2, &ev);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_requests, 1);
    assert_int_equal(a.l2_hit_sectors, 4);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l2_read_requests, 2);
    assert_int_equal(t->l2_read_sectors, 8);
    assert_int_equal(t->l2_read_hit_sectors + t->l2_read_miss_sectors, 8);
    ws_cache_free(c);
}

/* One coalesced request answers at most coalesce_max_requests (results/h200-lrc-map: n SMs of one GPC
 * reading a line together reach L2 ceil(n / 4) times). Nine SMs of one group read the same line at
 * clock 0 with a limit of 4: SM 0's request goes and answers SMs 1-3, SM 4's goes and answers 5-7,
 * SM 8's goes: 3 L2 requests of 4 sectors, 24 of the 36 sectors merged. No limit: 1 request. */
static void test_one_coalesced_request_answers_at_most_four(void **state)
{
    (void)state;
    for (int cap = 0; cap <= 4; cap += 4) {
        ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
        cfg.sm_count = 16;
        cfg.read_coalescing = 1;
        cfg.coalesce_group_sms = 16;
        cfg.coalesce_max_requests = cap;
        ws_cache *c = ws_cache_new(&cfg);
        ws_cache_set_grid_blocks(c, 16);
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
        for (int sm = 0; sm < 9; sm++) {
            ev.block_linear = (uint32_t)sm;
            access_on(c, sm, &ev);
        }
        const ws_cache_totals *t = ws_cache_get_totals(c);
        assert_int_equal(t->l2_read_requests, cap ? 3 : 1);
        assert_int_equal(t->l2_read_sectors, cap ? 12 : 4);
        assert_int_equal(t->coalesced_sectors, cap ? 24 : 32);
        ws_cache_free(c);
    }
}

/* A grid of fewer blocks than SMs coalesces by the GPCs the H200 puts its blocks in
 * (ws_device_block_gpc), not by the model's SMs: of 16 blocks the first 9 share GPC 0 and blocks 9-15
 * are one to a GPC. Blocks 7 and 8 (SMs 7 and 8, in different 4-SM groups) reading one line at once:
 * one L2 request; blocks 8 and 9 (SMs 8 and 9, one 4-SM group): two. */
static void test_a_small_grid_coalesces_by_the_gpcs_its_blocks_are_placed_in(void **state)
{
    (void)state;
    const ws_device *h200 = ws_device_find("h200");
    assert_non_null(h200);
    assert_int_equal(ws_device_block_gpc(h200, 16, 8), 0);
    assert_int_equal(ws_device_block_gpc(h200, 16, 9), 1);
    for (int pair = 0; pair < 2; pair++) {
        ws_cache_config cfg;
        ws_cache_config_from_device(&cfg, h200, 224 * 1024);
        cfg.coalesce_drift = cfg.coalesce_drift_bulk = 0;
        ws_cache *c = ws_cache_new(&cfg);
        ws_cache_set_grid_blocks(c, 16);
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
        uint32_t b0 = pair ? 8 : 7;
        ev.block_linear = b0;
        access_on(c, (int)b0, &ev);
        ev.block_linear = b0 + 1;
        access_on(c, (int)b0 + 1, &ev);
        assert_int_equal(ws_cache_get_totals(c)->l2_read_requests, pair ? 2 : 1);
        ws_cache_free(c);
    }
}

/* The window: SM 1 first reads 10 other lines (its clock 10 cycles at one line per cycle), then the
 * line SM 0 read at clock 0. With a window of 16 cycles that is together (one request); with one of
 * 8, SM 2 doing the same is looked up in L2 (a hit). */
static void test_a_request_within_the_window_coalesces_and_one_beyond_it_does_not(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
        cfg.read_coalescing = 1;
        cfg.l1_lines_per_cycle = 1;
        cfg.coalesce_window = w ? 8 : 16;
        ws_cache *c = ws_cache_new(&cfg);
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
        access_on(c, 0, &ev);
        for (int i = 0; i < 10; i++) {
            ws_mem_event one = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 65536 + (uint64_t)i * 128, 4);
            access_on(c, 1, &one);
        }
        ws_cache_access a = access_on(c, 1, &ev);
        assert_int_equal(a.merged_sectors, w ? 0 : 4);
        assert_int_equal(a.l2_requests, w ? 1 : 0);
        ws_cache_free(c);
    }
}

/* Every wave coalesces, by its block slots' clocks: 4 SMs, 1 block each at once. Blocks 0 and 1
 * each read 32 lines (32 cycles of clock at one line per cycle); blocks 4 and 5 of the second wave,
 * in the same slots, read line B at clock 32: block 5's request for B joins block 4's. With 2 blocks per
 * SM, blocks 4 and 5 run in second slots whose clocks start at 0, as the first slots' blocks did. */
static void test_a_later_waves_identical_requests_coalesce_too(void **state)
{
    (void)state;
    for (int r = 1; r <= 2; r++) {
        ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
        cfg.read_coalescing = 1;
        cfg.l1_lines_per_cycle = 1;
        ws_cache *c = ws_cache_new(&cfg);
        assert_int_equal(ws_cache_set_resident(c, r), 0);
        ws_mem_event a = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE, 128); /* 32 lines: 32 cycles */
        ws_mem_event b = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + 65536, 4);
        for (uint32_t blk = 0; blk < 2; blk++) {
            a.block_linear = blk;
            access_on(c, (int)blk, &a);
        }
        b.block_linear = 4;
        assert_int_equal(access_on(c, 0, &b).l2_requests, 1);
        b.block_linear = 5;
        ws_cache_access x = access_on(c, 1, &b);
        assert_int_equal(x.merged_sectors, 4);
        assert_int_equal(x.l2_requests, 0);
        ws_cache_free(c);
    }
}

/* One SM's requests do not coalesce with each other (results/h200-drift: a block's re-reads of its
 * own lines all reached L2). With a window of 100 cycles, SM 0 reads line L (.cg) at clock 0, then 16
 * other lines (clock 16; its in-flight table has let L go), then L again: within the window, but
 * its own: a second L2 request. SM 1, after 16 lines of its own, reads L at clock 16: it joins. */
static void test_a_request_of_the_sm_that_sent_the_line_is_not_coalesced(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    cfg.read_coalescing = 1;
    cfg.l1_lines_per_cycle = 1;
    cfg.coalesce_window = 100;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE, 4);
    assert_int_equal(access_on(c, 0, &ev).l2_requests, 1);
    for (int sm = 0; sm < 2; sm++)
        for (int i = 0; i < 16; i++) {
            ws_mem_event one = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + 65536 * (uint64_t)(sm + 1) + (uint64_t)i * 128, 4);
            access_on(c, sm, &one);
        }
    ws_cache_access a = access_on(c, 0, &ev);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_requests, 1);
    ws_cache_access b = access_on(c, 1, &ev);
    assert_int_equal(b.merged_sectors, 4);
    assert_int_equal(b.l2_requests, 0);
    ws_cache_free(c);
}

/* Only identical requests coalesce: SM 1 asks for sectors 1-3 of the line SM 0 asked sectors 0-2
 * of, in the same cycle: all three go to L2 (two hits on SM 0's fill, one sector fetched); then
 * SM 2 asks for sector 1 alone, which both earlier requests carried: it goes to L2 as well. */
static void test_requests_for_other_sectors_of_a_line_are_not_coalesced(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 32, 1);
    cfg.read_coalescing = 1;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event first = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE, 3);      /* bytes 0..93 */
    ws_mem_event second = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 32, 3); /* 32..125 */
    ws_mem_event one = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 32, 1);    /* 32..63 */
    assert_int_equal(access_on(c, 0, &first).l2_sectors, 3);
    ws_cache_access a = access_on(c, 1, &second);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_sectors, 3);
    assert_int_equal(a.l2_hit_sectors, 2);
    a = access_on(c, 2, &one);
    assert_int_equal(a.merged_sectors, 0);
    assert_int_equal(a.l2_sectors, 1);
    ws_cache_free(c);
}

/* Read coalescing's drift (cache.h "Read coalescing"): 64 SMs in pairs (2-SM groups), 2 block slots
 * each; every SM's slot-0 block reads `cycles` private lines (.cg, 32-line loads: one walk step of
 * sigma x sqrt(32) each), so both SMs of a pair reach the same clock; then pair k reads line k, SM 2k
 * first. Returns how many of the 32 second requests coalesced (window 16 cycles, sigma 1). */
static int drift_pairs_coalesced(uint64_t grid_blocks, double scale, int cycles, ws_mem_kind kind, double sigma_bulk)
{
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    cfg.sm_count = 64;
    cfg.read_coalescing = 1;
    cfg.coalesce_group_sms = 2;
    cfg.coalesce_window = 16;
    cfg.l1_lines_per_cycle = 1;
    cfg.coalesce_drift = 1;
    cfg.coalesce_drift_bulk = sigma_bulk;
    ws_cache *c = ws_cache_new(&cfg);
    assert_non_null(c);
    assert_int_equal(ws_cache_set_resident(c, 2), 0);
    ws_cache_set_grid_blocks(c, grid_blocks);
    ws_cache_set_drift_scale(c, scale);
    for (int sm = 0; sm < 64; sm++)
        for (int i = 0; i < cycles / 32; i++) {
            ws_mem_event own = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + ((uint64_t)sm << 24) + (uint64_t)i * 4096, 128);
            own.block_linear = (uint32_t)sm;
            own.kind = kind;
            access_on(c, sm, &own);
        }
    int together = 0;
    for (int k = 0; k < 32; k++) {
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + (1ull << 32) + (uint64_t)k * 128, 4);
        ev.block_linear = (uint32_t)(2 * k);
        assert_int_equal(access_on(c, 2 * k, &ev).l2_requests, 1);
        ev.block_linear = (uint32_t)(2 * k + 1);
        together += access_on(c, 2 * k + 1, &ev).merged_sectors == 4;
    }
    ws_cache_free(c);
    return together;
}

/* Early in a kernel the drift cannot part them: after one 32-line load each slot is at most
 * sqrt(32) = 5.7 cycles off its clock, a pair at most 11.3 apart, inside the 16-cycle window:
 * every pair coalesces. After 8192 cycles (256 steps) two slots' walks differ by
 * sqrt(32) x (S1 - S2), S1 - S2 a sum of 512 steps of +-1 (even, spread sqrt(512) = 22.6): within
 * the window only at 0 and +-2, a chance of about 3 x 2 / (22.6 x sqrt(2 pi)) = 0.11, ~3.4 of
 * 32 pairs; 10 or more would be a 1-in-1000 draw. SMs running 2 blocks at once (128 blocks on 64
 * SMs) drift with sqrt(2 - 1) = 1 x sigma. */
static void test_drift_parts_identical_requests_only_after_many_cycles(void **state)
{
    (void)state;
    assert_int_equal(drift_pairs_coalesced(128, 1, 32, WS_KIND_PLAIN, 0), 32);
    assert_true(drift_pairs_coalesced(128, 1, 8192, WS_KIND_PLAIN, 0) <= 10);
}

/* A block alone on its SM (64 blocks on 64 SMs: busy 1, drift x sqrt(0)) stays in step with its
 * partner however long it runs (the GPU's 1-block-per-SM GEMMs coalesced every duplicate); so do
 * bulk copies (TMA) with no bulk drift, among SMs that run several blocks. */
static void test_blocks_alone_on_their_sms_and_undrifted_bulk_copies_stay_in_step(void **state)
{
    (void)state;
    assert_int_equal(drift_pairs_coalesced(64, 1, 8192, WS_KIND_PLAIN, 0), 32);
    assert_int_equal(drift_pairs_coalesced(128, 1, 8192, WS_KIND_TMA, 0), 32);
    assert_true(drift_pairs_coalesced(128, 1, 8192, WS_KIND_TMA, 1) <= 10); /* the same walk at sigma 1 */
}

/* The sampler's multiplier: a walk of 512 cycles (16 steps) spread 4x as far as it would be is the
 * spread of 16x the cycles: S1 - S2 over 32 steps is 0 with chance C(32,16) / 2^32 = 0.14 and only
 * then within the window (4 x 11.3 > 16), ~4.5 of 32 pairs; unscaled, 0 and +-2 are inside (chance
 * 0.14 + 2 x 0.13 = 0.40, ~13). */
static void test_the_drift_scale_spreads_a_short_run_as_a_long_one(void **state)
{
    (void)state;
    int one = drift_pairs_coalesced(128, 1, 512, WS_KIND_PLAIN, 0);
    int four = drift_pairs_coalesced(128, 4, 512, WS_KIND_PLAIN, 0);
    assert_true(four <= 10);
    assert_true(one > four);
}

static void test_l1_keeps_the_most_recent_lines_when_full(void **state)
{
    (void)state;
    ws_cache_config cfg = config(4 * 128, 1 << 20, 32, 0); /* 4 lines, one fully associative set */
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event line[5];
    for (int i = 0; i < 5; i++)
        line[i] = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 4096u * (unsigned)i, 4);
    for (int i = 0; i < 4; i++)
        access_on(c, 0, &line[i]);
    assert_int_equal(access_on(c, 0, &line[0]).l1_hit_sectors, 4); /* 4 lines fit; line 0 now MRU */
    access_on(c, 0, &line[4]);                                      /* evicts LRU: line 1 */
    assert_int_equal(access_on(c, 0, &line[0]).l1_hit_sectors, 4);
    assert_int_equal(access_on(c, 0, &line[1]).l1_hit_sectors, 0);
    ws_cache_free(c);
}

static void test_l1_fills_only_the_sectors_that_missed(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 32, 0);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event first = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    first.active_mask = 0xFFu; /* lanes 0..7: sector 0 only */
    access_on(c, 0, &first);
    ws_mem_event whole = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &whole);
    assert_int_equal(a.l1_hit_sectors, 1);
    assert_int_equal(a.l1_miss_sectors, 3);
    assert_int_equal(a.l2_sectors, 3);
    ws_cache_free(c);
}

static void test_global_stores_write_through_and_do_not_allocate_in_l1(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &st);
    assert_int_equal(a.l2_requests, 1);
    assert_int_equal(a.l2_sectors, 4);
    assert_int_equal(a.outcome[0], WS_SECT_WRITE);
    assert_int_equal(a.ecc_read_bytes, 0); /* whole sectors written: nothing to read */
    ws_mem_event ld = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    a = access_on(c, 0, &ld);
    assert_int_equal(a.l1_hit_sectors, 0);
    assert_int_equal(a.l2_hit_sectors, 4); /* the stored sectors are valid in L2 */
    assert_int_equal(a.dram_read_bytes, 0);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l2_write_sectors, 4);
    assert_int_equal(t->l2_write_requests, 1);
    ws_cache_free(c);
}

/* The write cost depends on whether a sector carries all 32 bytes (docs/timing-model.md "L2
 * writes"): 32 lanes x 4 B at stride 4 fill 4 sectors whole; at stride 32 each lane's 4 bytes are
 * one sector of 32, so all 32 sectors are partial. */
static void test_store_sectors_with_fewer_than_32_bytes_are_counted_partial(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event whole = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &whole);
    assert_int_equal(a.l2_sectors, 4);
    assert_int_equal(a.l2_partial_sectors, 0);
    ws_mem_event part = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 65536, 32);
    a = access_on(c, 0, &part);
    assert_int_equal(a.l2_sectors, 32);
    assert_int_equal(a.l2_partial_sectors, 32);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l2_write_sectors, 36);
    assert_int_equal(t->l2_write_partial_sectors, 32);
    ws_cache_free(c);
}

static void test_local_store_then_load_hits_in_l1(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, 0, 0);
    ev.space = WS_SPACE_LOCAL; /* every lane its word 0: 128 B, four full sectors */
    static ws_coalesce_result co;
    ws_cache_access a;
    ws_coalesce(&ev, 0x7000000000ull, &co);
    ws_cache_access_event(c, 0, &ev, &co, &a);
    ev.op = WS_MEM_LOAD;
    ws_coalesce(&ev, 0x7000000000ull, &co);
    ws_cache_access_event(c, 0, &ev, &co, &a);
    assert_int_equal(a.l1_hit_sectors, 4);
    assert_int_equal(ws_cache_get_totals(c)->l1_local_ld_hit, 4);
    ws_cache_free(c);
}

/* §4.1 / App. F: one u32 per `stride` bytes, streamed once; L2 (8 MiB) far larger than
 * the 1 MiB touched, so every fetch is cold. Expected DRAM bytes per 128-B line =
 * 32 x |union over requested sectors of their fetch-aligned blocks|. */
static void test_dram_fetch_granularity_over_a_streaming_read(void **state)
{
    (void)state;
    const int fetches[] = {32, 64, 128};
    const int strides[] = {4, 32, 64, 128};
    for (int fi = 0; fi < 3; fi++)
        for (int si = 0; si < 4; si++) {
            int g = fetches[fi], stride = strides[si];
            ws_cache_config cfg = config(0, 8u << 20, g, 1);
            ws_cache *c = ws_cache_new(&cfg);
            const uint64_t bytes = 1u << 20;
            for (uint64_t off = 0; off < bytes; off += 32u * (uint64_t)stride) {
                ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + off, (uint64_t)stride);
                access_on(c, (int)(off / 4096 % 4), &ev);
            }
            uint8_t want = 0; /* requested sectors of one line */
            for (int b = 0; b < 128; b += stride)
                want |= (uint8_t)(1u << (b / 32));
            int per = g / 32;
            uint8_t fetched = 0;
            for (int s = 0; s < 4; s++)
                if (want >> s & 1)
                    fetched |= (uint8_t)(((1u << per) - 1) << (s / per * per));
            uint64_t lines = bytes / 128;
            const ws_cache_totals *t = ws_cache_get_totals(c);
            assert_int_equal(t->l2_read_sectors, lines * (uint64_t)__builtin_popcount(want));
            /* lookup misses count the promoted sectors (App. F: 2,097,152 requested, 4,194,304 misses) */
            assert_int_equal(t->l2_read_miss_sectors, lines * (uint64_t)__builtin_popcount(fetched));
            assert_int_equal(t->dram_read_bytes, lines * 32u * (uint64_t)__builtin_popcount(fetched));
            ws_cache_free(c);
        }
}

/* A partly written sector costs a DRAM read only when it leaves L2 with ECC on
 * (App. F: 4 B per sector streamed through 256 MiB reads DRAM; a 2 MB stride-2 copy
 * that stays in L2 does not, measured with ncu on the H200). */
static void test_partial_sector_writes_are_read_at_eviction_only_with_ecc(void **state)
{
    (void)state;
    for (int ecc = 0; ecc <= 1; ecc++) {
        ws_cache_config cfg = config(0, 32 * 128, 64, ecc);
        cfg.l2_ways = 32; /* one fully associative set of 32 lines */
        ws_cache *c = ws_cache_new(&cfg);
        ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 32); /* 4 B in each of 32 sectors */
        ws_cache_access a = access_on(c, 0, &st);
        assert_int_equal(a.l2_sectors, 32);
        assert_int_equal(a.dram_read_bytes, 0); /* nothing read while the sectors stay in L2 */
        /* 1 B per sector in another 8 lines, then fill the rest of L2 with whole lines: */
        ws_mem_event b1 = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 1, BASE + 65536, 32);
        access_on(c, 0, &b1);
        for (int i = 0; i < 32; i++) {
            ws_mem_event full = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + (1u << 20) + 128u * (unsigned)i, 4);
            access_on(c, 0, &full);
        }
        /* all 16 partial lines (64 partial sectors) were evicted by the 32 whole ones */
        const ws_cache_totals *t = ws_cache_get_totals(c);
        assert_int_equal(t->ecc_read_bytes, ecc ? 64u * 32 : 0);
        assert_int_equal(t->dram_read_bytes, ecc ? 64u * 32 : 0);
        assert_int_equal(t->dram_write_bytes, 64u * 32);
        ws_cache_free(c);
    }
}

static void test_a_sector_completed_by_later_writes_needs_no_read(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 * 128, 64, 1);
    cfg.l2_ways = 1; /* one line: the next line evicts it */
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event lo = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    lo.active_mask = 0x00FF00FFu; /* lanes 0-7 and 16-23: first halves... */
    access_on(c, 0, &lo);
    ws_mem_event hi = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    hi.active_mask = 0xFF00FF00u; /* ...and the rest: every sector of the line now whole */
    access_on(c, 0, &hi);
    ws_mem_event other = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 4096, 4);
    access_on(c, 0, &other);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->dram_read_bytes, 0);
    assert_int_equal(t->dram_write_bytes, 128);
    /* a read of a partly written sector fetches it */
    ws_mem_event part = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 8192, 32);
    part.active_mask = 1u;
    access_on(c, 0, &part);
    ws_mem_event rd = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 8192, 0);
    ws_cache_access a = access_on(c, 0, &rd);
    assert_int_equal(a.l2_miss_sectors, 2); /* the requested sector and its promoted neighbour */
    assert_int_equal(a.dram_read_bytes, 64); /* the 64-B block around it */
    ws_cache_free(c);
}

static void test_dirty_lines_are_written_back_at_eviction_and_counted_at_end(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 32 * 128, 64, 1);
    cfg.l2_ways = 32; /* one fully associative set of 32 lines: exact LRU */
    ws_cache *c = ws_cache_new(&cfg);
    for (int i = 0; i < 64; i++) { /* 64 lines of full 128-B stores */
        ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 128u * (unsigned)i, 4);
        access_on(c, 0, &st);
    }
    ws_cache_finish(c);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->dram_write_bytes, 32u * 128);   /* the first 32 lines were evicted */
    assert_int_equal(t->dirty_at_end_bytes, 32u * 128); /* the last 32 are still in L2 */
    assert_int_equal(t->dram_read_bytes, 0);
    ws_cache_finish(c); /* idempotent */
    assert_int_equal(t->dirty_at_end_bytes, 32u * 128);
    ws_cache_free(c);
}

static void test_global_atomics_go_to_l2_and_leave_dirty_sectors(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 32, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event at = ev_strided(WS_MEM_ATOMIC, WS_CACHE_DEFAULT, 4, BASE, 0); /* all lanes one word */
    ws_cache_access a = access_on(c, 0, &at);
    assert_int_equal(a.l2_sectors, 1);
    assert_int_equal(a.outcome[0], WS_SECT_DRAM);
    assert_int_equal(a.dram_read_bytes, 32);
    a = access_on(c, 0, &at);
    assert_int_equal(a.outcome[0], WS_SECT_L2_HIT);
    ws_cache_finish(c);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l2_atom_sectors, 2);
    assert_int_equal(t->dirty_at_end_bytes, 32);
    ws_cache_free(c);
}

static void test_bad_configurations_are_refused(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 48, 1);
    assert_null(ws_cache_new(&cfg));
    cfg = config(0, 1 << 20, 64, 1);
    cfg.sm_count = 0;
    assert_null(ws_cache_new(&cfg));
    cfg = config(0, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_coalesce_result co;
    ws_cache_access a;
    ws_coalesce(&ev, 0, &co);
    assert_int_equal(ws_cache_access_event(c, 4, &ev, &co, &a), -1); /* no SM 4 */
    ev.space = WS_SPACE_SHARED;
    assert_int_equal(ws_cache_access_event(c, 0, &ev, &co, &a), -1);
    ws_cache_free(c);
}

/* saxpy's y[i] = a*x[i] + y[i]: the store finds the 4 sectors its load brought into L1 (ncu
 * counts them as hits in l1tex__t_sector_hit_rate: 4 of 12 sectors = 33.33% measured on the
 * H200); a store to another line finds nothing. */
static void test_a_store_to_sectors_a_load_brought_in_hits_in_l1(void **state)
{
    (void)state;
    ws_cache_config cfg = config(64 * 1024, 1u << 20, 32, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ld = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);
    access_on(c, 0, &ld);
    ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    ws_cache_access a = access_on(c, 0, &st);
    assert_int_equal(a.l1_st_hit_sectors, 4);
    assert_int_equal(a.l2_sectors, 4); /* still written through */
    ws_mem_event other = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 4096, 4);
    a = access_on(c, 0, &other);
    assert_int_equal(a.l1_st_hit_sectors, 0);
    ws_mem_event elsewhere = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4);
    a = access_on(c, 1, &elsewhere); /* another SM's L1 has nothing */
    assert_int_equal(a.l1_st_hit_sectors, 0);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l1_st_sectors, 12);
    assert_int_equal(t->l1_st_hit_sectors, 4);
    ws_cache_free(c);
}

/* Every line allocated into an empty L2 way is counted once: a timing model that assumes
 * a dirty L2 at kernel start charges one write-back per such line. */
static void test_lines_allocated_into_an_empty_l2_are_counted(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1u << 20, 32, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ld = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 8); /* float stride 2: 2 lines */
    access_on(c, 0, &ld);
    access_on(c, 1, &ld); /* the same lines again: L2 hits, nothing allocated */
    ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 65536, 128); /* 32 lines */
    access_on(c, 0, &st);
    assert_int_equal(ws_cache_get_totals(c)->l2_cold_allocations, 2 + 32);
    ws_cache_free(c);
}


/* Store merging (cache.h): the ldgsts probe's byte stores. One warp, lane l writes byte b of
 * the 16 bytes at 16 l: each STG.U8 covers the warp's 16 sectors, 2 lanes x 1 byte in each.
 * A write stays pending for 8 memory instructions of the SM, so stores 1-8 leave as one L2
 * write per sector and stores 9-16 as a second: 16 x 16 sectors looked up, 2 x 16 sent. */
static void test_byte_stores_of_one_warp_merge_within_the_window(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    for (int b = 0; b < 16; b++) {
        ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 1, BASE + (uint64_t)b, 16);
        ws_cache_access a = access_on(c, 0, &ev);
        int fresh = b % 8 == 0; /* the window opened at store 0 ends before store 8 */
        assert_int_equal(a.st_sectors, 16);
        assert_int_equal(a.l2_sectors, fresh ? 16 : 0);
        assert_int_equal(a.st_merged_sectors, fresh ? 0 : 16);
        assert_int_equal(a.l2_requests, fresh ? 4 : 0); /* 512 B: 4 lines */
    }
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l1_st_sectors, 16 * 16);
    assert_int_equal(t->l2_write_sectors, 2 * 16);
    assert_int_equal(t->st_merged_sectors, 14 * 16);
    /* merged bytes still reach L2: every byte of the 512 is written, so no sector is partial
     * and nothing is read for ECC when they leave */
    ws_cache_finish(c);
    assert_int_equal(t->dirty_at_end_bytes, 512);
    assert_int_equal(t->ecc_read_bytes, 0);
    ws_cache_free(c);
}

/* Another warp's store to the same sector, or a rewrite of bytes already pending, is a new
 * L2 write (a naive transpose's column stores; a loop updating one word). */
static void test_stores_of_other_warps_or_the_same_bytes_do_not_merge(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 4); /* 128 B: 4 sectors */
    access_on(c, 0, &ev);
    assert_int_equal(access_on(c, 0, &ev).l2_sectors, 4);  /* same warp, same bytes */
    ws_mem_event half = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 2, BASE, 4); /* bytes 0-1 of each word */
    half.warp_global = 1;
    assert_int_equal(access_on(c, 0, &half).l2_sectors, 4); /* another warp: a write of its own */
    ws_mem_event rest = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 2, BASE + 2, 4); /* bytes 2-3 */
    rest.warp_global = 1;
    assert_int_equal(access_on(c, 0, &rest).l2_sectors, 0);  /* warp 1, disjoint bytes: merged */
    assert_int_equal(access_on(c, 1, &rest).l2_sectors, 4);  /* another SM: its own write */
    /* local stores never merge: bytes 0-1, then 2-3 of the same per-thread words */
    ws_mem_event loc = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 2, 0x1000, 0);
    loc.space = WS_SPACE_LOCAL;
    ws_cache_access a = access_on(c, 2, &loc);
    loc.addr[0] = 0x1002;
    for (int l = 0; l < 32; l++)
        loc.addr[l] = 0x1002;
    ws_cache_access b = access_on(c, 2, &loc);
    assert_int_equal(b.st_merged_sectors, 0);
    assert_int_equal(b.l2_sectors, a.l2_sectors);
    assert_true(b.l2_sectors > 0);
    ws_cache_free(c);
}

/* The window is the SM's 8 memory instructions, and the warps an SM runs at once take turns in
 * them: with W warps a warp's own d-th next instruction is d x W of the SM's later (the
 * interpreter runs a warp's stores back to back). One warp's two stores to the other halves of
 * the same 8 sectors (a C fragment's rows, 16 B of each sector apiece), d = 1 apart: merged at
 * 4 warps (4 < 8: the 4-warp mma kernels' halved L2 writes), two writes at 8 warps (8 = 8: the
 * 8-warp HGEMMs wrote all 8192 sectors, div_return_taken all 1280). At 2 warps a store d = 3 on
 * merges (6 < 8), one d = 4 on does not (8). */
static void test_a_warps_stores_merge_only_within_its_share_of_the_window(void **state)
{
    (void)state;
    for (int warps = 1; warps <= 8; warps *= 2) {
        ws_cache_config cfg = config(0, 1 << 20, 64, 1);
        ws_cache *c = ws_cache_new(&cfg);
        ws_cache_set_block_warps(c, warps); /* one block per SM (no grid given) */
        ws_mem_event left = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 8);      /* bytes 0-3 of 8 */
        ws_mem_event right = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 4, 8); /* bytes 4-7 */
        assert_int_equal(access_on(c, 0, &left).l2_sectors, 8);
        ws_cache_access a = access_on(c, 0, &right);
        assert_int_equal(a.st_sectors, 8);
        assert_int_equal(a.l2_sectors, warps < 8 ? 0 : 8);
        assert_int_equal(a.st_merged_sectors, warps < 8 ? 8 : 0);
        ws_cache_free(c);
    }
    for (int d = 3; d <= 4; d++) {
        ws_cache_config cfg = config(0, 1 << 20, 64, 1);
        ws_cache *c = ws_cache_new(&cfg);
        ws_cache_set_block_warps(c, 2);
        ws_mem_event left = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE, 8);
        ws_mem_event right = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 4, 8);
        ws_mem_event other = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 4096, 4);
        access_on(c, 0, &left);
        for (int k = 1; k < d; k++)
            access_on(c, 0, &other); /* the warp's stores elsewhere between */
        assert_int_equal(access_on(c, 0, &right).l2_sectors, d == 3 ? 0 : 8);
        ws_cache_free(c);
    }
}

/* Far lookups (cache.h "Far lookups"): without read coalescing an SM's partition is the parity of
 * its TPC number's bits (SM 0: TPC 0, partition 0; SM 2: TPC 1, partition 1) and a line's home the
 * parity of its line number's bits (BASE / 128 = 2^25: home 1; the next line: 2^25 + 1, home 0).
 * A line the home side reads first misses on each side: 4 sectors from DRAM, then 4 more misses
 * on the far side that the home serves (no DRAM); after that both sides hit. One the far side
 * reads first misses once: the far miss fetched it into the home too. */
static void test_a_line_read_from_both_partitions_misses_on_each_side_unless_the_far_side_came_first(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 32, 1);
    cfg.l2_partitions = 2;
    cfg.l2_far_lookups = 1;
    ws_cache *c = ws_cache_new(&cfg);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    ws_mem_event home0 = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + 128, 4); /* line homed in 0 */
    ws_cache_access a = access_on(c, 0, &home0);                                  /* home side first */
    assert_int_equal(a.l2_miss_sectors, 4);
    assert_int_equal(a.dram_read_bytes, 128);
    a = access_on(c, 2, &home0); /* the far side: its copy misses, the home hits */
    assert_int_equal(a.l2_miss_sectors, 4);
    assert_int_equal(a.l2_far_miss_sectors, 4);
    assert_int_equal(a.dram_read_bytes, 0);
    assert_int_equal(a.outcome[0], WS_SECT_L2_FAR);
    assert_int_equal(access_on(c, 3, &home0).l2_hit_sectors, 4); /* SM 3: TPC 1 too, the copy hits */
    assert_int_equal(access_on(c, 1, &home0).l2_hit_sectors, 4); /* SM 1: the home side */

    ws_mem_event home1 = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE, 4); /* line homed in 1 */
    a = access_on(c, 0, &home1); /* the far side first: a miss from DRAM, which fills the home */
    assert_int_equal(a.l2_miss_sectors, 4);
    assert_int_equal(a.l2_far_miss_sectors, 0);
    assert_int_equal(a.dram_read_bytes, 128);
    assert_int_equal(a.outcome[0], WS_SECT_DRAM);
    a = access_on(c, 2, &home1); /* the home side: a hit */
    assert_int_equal(a.l2_hit_sectors, 4);
    assert_int_equal(a.l2_miss_sectors, 0);
    assert_int_equal(t->l2_read_miss_sectors, 12);
    assert_int_equal(t->l2_far_miss_sectors, 4);
    assert_int_equal(t->dram_fill_bytes, 256); /* DRAM reads each line once */

    /* a store from the home side leaves the far copy stale: the far side misses again (home hit) */
    ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + 128, 4);
    access_on(c, 0, &st);
    ws_mem_event away = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 4, BASE + (1 << 16), 4);
    for (int k = 0; k < 8; k++)
        access_on(c, 2, &away); /* past SM 2's own read of it still outstanding (8 instructions) */
    a = access_on(c, 2, &home0);
    assert_int_equal(a.l2_far_miss_sectors, 4);
    assert_int_equal(a.dram_read_bytes, 0);
    ws_cache_free(c);

    /* one partition's worth of lookups without the flag: every second read hits */
    cfg.l2_far_lookups = 0;
    c = ws_cache_new(&cfg);
    access_on(c, 0, &home0);
    a = access_on(c, 2, &home0);
    assert_int_equal(a.l2_hit_sectors, 4);
    assert_int_equal(a.l2_far_miss_sectors, 0);
    ws_cache_free(c);
}

/* A launch's own fetches: the code in 256-byte blocks plus the fixed 2304 bytes (H200). */
/* Writes `bytes` from BASE + off with float4 stores (512 B per warp instruction). */
static void store_range(ws_cache *c, uint64_t off, uint64_t bytes)
{
    for (uint64_t a = 0; a < bytes; a += 512) {
        ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 16, BASE + off + a, 16);
        access_on(c, 0, &ev);
    }
}

/* Reads `bytes` from BASE + off with .cg float4 loads. */
static void load_range(ws_cache *c, uint64_t off, uint64_t bytes)
{
    for (uint64_t a = 0; a < bytes; a += 512) {
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_CG, 16, BASE + off + a, 16);
        access_on(c, 0, &ev);
    }
}

/* The dirty limit (results/h200-l2dram: B - 0.432 C written during the kernel): writing B bytes
 * that fit in L2 writes max(0, B - limit) back, the oldest first, and the cleaned lines stay. */
static void test_dirty_limit_writes_back_the_oldest_beyond_it(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 64, 1);
    cfg.l2_dirty_limit = 256 * 1024;
    ws_cache *c = ws_cache_new(&cfg);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    store_range(c, 0, 192 * 1024); /* below the limit: nothing written back */
    assert_int_equal(t->dram_write_bytes, 0);
    store_range(c, 192 * 1024, 576 * 1024); /* 768 KiB in all, no eviction (12 of 16 ways a set) */
    assert_int_equal(t->dram_write_bytes, 768 * 1024 - 256 * 1024);
    assert_int_equal(t->dirty_limit_write_bytes, 512 * 1024);
    assert_int_equal(t->dram_read_bytes, 0); /* full sectors: no ECC read */
    load_range(c, 0, 256 * 1024);            /* the first lines were cleaned, not evicted */
    assert_int_equal(t->l2_read_hit_sectors, 256 * 1024 / 32);
    assert_int_equal(t->dram_fill_bytes, 0);
    store_range(c, 0, 64 * 1024);            /* dirtying clean lines again pushes out as much */
    assert_int_equal(t->dram_write_bytes, 512 * 1024 + 64 * 1024);
    ws_cache_finish(c);
    assert_int_equal(t->dirty_at_end_bytes, 256 * 1024);
    ws_cache_free(c);
}

/* A partly written sector the dirty limit writes back is read first under ECC (§4.1). */
static void test_dirty_limit_reads_partial_sectors_it_writes_back(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 64, 1);
    cfg.l2_dirty_limit = 64 * 1024;
    ws_cache *c = ws_cache_new(&cfg);
    for (uint64_t a = 0; a < 128 * 1024; a += 32 * 32) { /* one u32 per 32-B sector */
        ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + a, 32);
        access_on(c, 0, &ev);
    }
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->dram_write_bytes, 64 * 1024); /* 128 KiB of dirty sectors, 64 KiB kept */
    assert_int_equal(t->ecc_read_bytes, 64 * 1024);
    ws_cache_free(c);
}

/* Two partitions each caching what its SMs use: a far line is held twice, so the model holds
 * l2_bytes x 2/3 distinct bytes (the H200: 62,914,560 -> 41,943,040). */
static void test_two_partitions_hold_two_thirds_of_the_l2_in_distinct_lines(void **state)
{
    (void)state;
    assert_int_equal(ws_cache_l2_lru_bytes(62914560, 2), 41943040);
    assert_int_equal(ws_cache_l2_lru_bytes(62914560, 1), 62914560);
    assert_int_equal(ws_cache_l2_lru_bytes(62914560, 0), 62914560);
    assert_int_equal(ws_cache_l2_lru_bytes(3 * 128, 2), 2 * 128);
    /* 1.5 MiB, two partitions: 1 MiB of lines (512 sets of 16); 1.25 MiB read twice streams
     * through LRU and never hits; with one partition it all fits (13-14 lines a set) */
    for (int parts = 2; parts >= 1; parts--) {
        ws_cache_config cfg = config(0, 3 << 19, 64, 1);
        cfg.l2_partitions = parts;
        ws_cache *c = ws_cache_new(&cfg);
        load_range(c, 0, 5 << 18);
        load_range(c, 0, 5 << 18);
        assert_int_equal(ws_cache_get_totals(c)->l2_read_hit_sectors, parts == 2 ? 0 : (5 << 18) / 32);
        ws_cache_free(c);
    }
}

/* Partial writes (results/h200-l2dram's k_partial): of N lines each taking one 4-byte store, the
 * newest P keep byte masks, the older ones are read (ECC) to complete their sector, and those
 * beyond W are written back: reads (N - P) x 32, writes (N - W) x 32; without ECC no read. */
static void test_partial_lines_beyond_the_limits_are_completed_then_written_back(void **state)
{
    (void)state;
    for (int ecc = 1; ecc >= 0; ecc--) {
        ws_cache_config cfg = config(0, 4 << 20, 64, ecc);
        cfg.l2_partial_lines = 100;
        cfg.l2_partial_writeback_lines = 300;
        ws_cache *c = ws_cache_new(&cfg);
        for (int i = 0; i < 32; i++) { /* 32 x 32 = 1024 lines, one u32 in each */
            ws_mem_event ev = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 4, BASE + (uint64_t)i * 32 * 128, 128);
            access_on(c, 0, &ev);
        }
        const ws_cache_totals *t = ws_cache_get_totals(c);
        assert_int_equal(t->dram_read_bytes, ecc ? (1024 - 100) * 32 : 0);
        assert_int_equal(t->partial_fill_bytes, ecc ? (1024 - 100) * 32 : 0);
        assert_int_equal(t->dram_write_bytes, (1024 - 300) * 32);
        assert_int_equal(t->partial_writeback_bytes, (1024 - 300) * 32);
        ws_cache_finish(c);
        assert_int_equal(t->dirty_at_end_bytes, 300 * 32);
        ws_cache_free(c);
    }
}

/* The H200 profile's figures give the probe's rule: C = 62,914,560, dirty limit 0.432 C. */
/* DRAM access shape (cache.h): a stream of whole lines in order moves 128 B per access and opens
 * each 2-KB row once; one 64-B granule per line of rows 1 MB apart opens a row every access; a
 * load of one float per line in order moves 64 B per access, opening each row once. */
static void shape_run(uint64_t stride, uint64_t lines, int lanes_per_line, ws_cache_totals *out)
{
    ws_cache_config cfg = config(0, 8u << 20, 64, 1);
    cfg.dram_min_access_bytes = 64;
    cfg.dram_row_bytes = 2048;
    cfg.dram_banks = 3072;
    ws_cache *c = ws_cache_new(&cfg);
    assert_non_null(c);
    for (uint64_t i = 0; i < lines; i += (uint64_t)(32 / lanes_per_line)) {
        ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + i * stride, stride / (uint64_t)lanes_per_line);
        if (lanes_per_line == 32)
            ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + i * stride, 4);
        access_on(c, 0, &ev);
    }
    *out = *ws_cache_get_totals(c);
    ws_cache_free(c);
}

static void test_dram_access_shape_of_streams_and_scattered_rows(void **state)
{
    (void)state;
    ws_cache_totals t;
    /* whole lines in order: 4096 lines = 512 KB = 256 rows */
    shape_run(128, 4096, 32, &t);
    assert_int_equal(t.dram_accesses, 4096);
    assert_int_equal(t.dram_access_bytes, 4096u * 128u);
    assert_int_equal(t.dram_short_bytes, 0);
    assert_int_equal(t.dram_row_opens, 4096u * 128u / 2048u);
    /* one float per line, lines in order (a stride-32 load): 64-B fills, rows opened once each */
    shape_run(128, 4096, 1, &t);
    assert_int_equal(t.dram_access_bytes, 4096u * 64u);
    assert_int_equal(t.dram_short_bytes, 0);
    assert_int_equal(t.dram_row_opens, 4096u * 128u / 2048u);
    /* one float per line of rows 1 MB apart: every fill opens a row */
    shape_run(1u << 20, 2048, 1, &t);
    assert_int_equal(t.dram_accesses, 2048);
    assert_int_equal(t.dram_row_opens, 2048);
}

/* The timing factor (timing.h): 1 for the stream; for one 64-B access per row, 1 + (1 - 64/2048)
 * x 26 / 64; one 32-B write-back per line in order costs 64 B (2x) plus the rows it opens beyond
 * one per 2 KB moved (a row per 16 lines, 512 B moved in each). */
static void test_dram_shape_factor_from_first_principles(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    assert_non_null(h);
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    assert_true(ws_timing_dram_shape_factor(h, &in) == 1.0);
    in.dram_access_bytes = 4096.0 * 128;
    in.dram_row_opens = 4096.0 * 128 / 2048;
    assert_true(fabs(ws_timing_dram_shape_factor(h, &in) - 1.0) < 1e-12);
    in.dram_access_bytes = 1000.0 * 64;
    in.dram_row_opens = 1000;
    double want = 1 + (1000 - 1000.0 * 64 / 2048) * h->dram_row_open_bytes / (1000.0 * 64);
    assert_true(fabs(ws_timing_dram_shape_factor(h, &in) - want) < 1e-12);
    in.dram_access_bytes = 1000.0 * 32;
    in.dram_short_bytes = 1000.0 * 32;
    in.dram_row_opens = 1000.0 * 128 / 2048; /* lines in order: a row per 16 lines, 512 B moved in it */
    want = 2 + (1000.0 * 128 / 2048 - 1000.0 * 32 / 2048) * h->dram_row_open_bytes / (1000.0 * 32);
    assert_true(fabs(ws_timing_dram_shape_factor(h, &in) - want) < 1e-12);
    ws_device none = *h;
    none.dram_min_access_bytes = 0;
    none.dram_row_open_bytes = 0;
    in.dram_short_bytes = 0; /* the cache counts none without a minimum */
    assert_true(ws_timing_dram_shape_factor(&none, &in) == 1.0);
}

static void test_h200_profile_sets_the_measured_limits(void **state)
{
    (void)state;
    ws_cache_config cfg;
    ws_cache_config_from_device(&cfg, ws_device_find("h200"), 0);
    assert_int_equal(cfg.l2_dirty_limit, (uint64_t)(0.432 * 62914560.0));
    assert_int_equal(cfg.l2_partitions, 2);
    assert_int_equal(cfg.l2_partial_lines, 491520 / 8);
    assert_int_equal(cfg.l2_partial_writeback_lines, (uint64_t)(0.27 * 491520.0));
    /* the guide's L2 request coalescer, as results/h200-coalesce measured it: groups of 4 SMs, 500 cycles */
    assert_int_equal(cfg.read_coalescing, 1);
    assert_int_equal(cfg.coalesce_group_sms, 4);
    assert_true(cfg.coalesce_window == 500.0);
    assert_true(cfg.l1_lines_per_cycle == 1.0); /* one line per cycle (l1_wavefronts_per_cycle) */
    ws_cache_config_from_device(&cfg, ws_device_find("v100"), 0);
    assert_int_equal(cfg.read_coalescing, 0);
}

static void test_launch_fetch_is_code_in_blocks_plus_the_base(void **state)
{
    (void)state;
    ws_device d;
    memset(&d, 0, sizeof d);
    d.code_fetch_block_bytes = 256;
    d.launch_fetch_base_bytes = 2304;
    assert_int_equal(ws_cache_launch_fetch_bytes(&d, 512), 512 + 2304);
    assert_int_equal(ws_cache_launch_fetch_bytes(&d, 513), 768 + 2304);
    assert_int_equal(ws_cache_launch_fetch_bytes(&d, 0), 2304);
    d.code_fetch_block_bytes = 0;
    d.launch_fetch_base_bytes = 0;
    assert_int_equal(ws_cache_launch_fetch_bytes(&d, 4096), 0); /* not modelled */
    assert_int_equal(ws_cache_launch_fetch_bytes(NULL, 4096), 0);
}

/* A byte histogram's pattern: warp 0 reads bytes 0..31 (one sector; the 64-B fetch brings
 * sector 1 too), warp 1 bytes 32..63 soon after on the same SM: an L2 hit for the counters,
 * but its data is the fetch still in flight (flagged, for the latency). On another SM, or after
 * fill_window memory instructions of the SM, the hit is an ordinary one. */
static void test_a_hit_on_the_unasked_half_of_a_fetch_in_flight_is_flagged(void **state)
{
    (void)state;
    ws_cache_config cfg = config(0, 1 << 20, 64, 1); /* no L1: every load goes to L2 */
    cfg.fill_window = 4;
    ws_cache *c = ws_cache_new(&cfg);
    ws_mem_event w0 = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE, 1);
    ws_mem_event w1 = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 32, 1);
    ws_cache_access a = access_on(c, 0, &w0);
    assert_int_equal(a.l2_miss_sectors, 2);     /* the requested sector and its fetch partner */
    assert_int_equal(a.l2_hit_inflight_sectors, 0);
    a = access_on(c, 0, &w1);
    assert_int_equal(a.l2_hit_sectors, 1);
    assert_int_equal(a.outcome[0], WS_SECT_L2_HIT); /* ncu counts a hit */
    assert_int_equal(a.l2_hit_inflight_sectors, 1);
    a = access_on(c, 1, &w1);                   /* another SM: its clock says nothing here */
    assert_int_equal(a.l2_hit_sectors, 1);
    assert_int_equal(a.l2_hit_inflight_sectors, 0);
    const ws_cache_totals *t = ws_cache_get_totals(c);
    assert_int_equal(t->l2_read_hit_sectors, 2);
    assert_int_equal(t->l2_read_miss_sectors, 2);
    /* a second line: 4 more memory instructions of SM 0 before the partner is read */
    ws_mem_event x0 = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 4096, 1);
    ws_mem_event x1 = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 4096 + 32, 1);
    access_on(c, 0, &x0);
    for (int i = 0; i < 3; i++) access_on(c, 0, &w0);
    a = access_on(c, 0, &x1);                   /* now - fill_at = 4: the window is over */
    assert_int_equal(a.l2_hit_sectors, 1);
    assert_int_equal(a.l2_hit_inflight_sectors, 0);
    /* only the unasked sectors are flagged: a third line, its requested sector read again */
    ws_mem_event y0 = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 1, BASE + 8192, 1);
    access_on(c, 0, &y0);
    a = access_on(c, 0, &y0);
    assert_int_equal(a.l2_hit_sectors, 1);
    assert_int_equal(a.l2_hit_inflight_sectors, 0);
    ws_cache_free(c);
}

/* The halves for threads: each SM's fronts run ahead of every back (as a worker runs its block's
 * L1 before the replay), the backs then in access order. A load an SM repeats hits its L1 though
 * no back ran in between; a store merges into the same warp's pending write; another SM's load of
 * that line misses its own L1 and goes to L2; and every count is the one-call model's. */
static void test_fronts_run_ahead_of_backs_give_the_one_call_answer(void **state)
{
    (void)state;
    ws_cache_config cfg = config(224 * 1024, 1 << 20, 64, 1);
    ws_cache *one = ws_cache_new(&cfg), *two = ws_cache_new(&cfg);
    ws_mem_event ld = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);        /* 4 sectors, 1 line */
    ws_mem_event st = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 1, BASE + 4096, 1); /* bytes 0-31: 1 sector */
    ws_mem_event half = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 1, BASE + 8192, 2);  /* even bytes of 2 sectors */
    ws_mem_event half2 = ev_strided(WS_MEM_STORE, WS_CACHE_DEFAULT, 1, BASE + 8193, 2); /* their odd bytes */
    const ws_mem_event *evs[] = {&ld, &half, &ld, &half2, &ld, &st};
    int sms[] = {0, 0, 0, 0, 1, 1};
    enum { N = 6 };
    static ws_coalesce_result co[N];
    static ws_cache_front fr[N];
    ws_cache_access a1[N], a2[N];
    for (int i = 0; i < N; i++) {
        assert_int_equal(ws_coalesce(evs[i], 0, &co[i]), 0);
        assert_int_equal(ws_cache_access_event(one, sms[i], evs[i], &co[i], &a1[i]), 0);
    }
    for (int s = 1; s >= 0; s--)                   /* SM 1's fronts first, then SM 0's: each in its own order */
        for (int i = 0; i < N; i++)
            if (sms[i] == s)
                assert_int_equal(ws_cache_access_front(two, s, evs[i], &co[i], &fr[i]), 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(ws_cache_access_back(two, sms[i], evs[i], &co[i], &fr[i], &a2[i]), 0);
    assert_int_equal(a2[0].l1_miss_sectors, 4);    /* SM 0 first: from DRAM */
    assert_int_equal(a2[2].l1_hit_sectors, 4);     /* SM 0 again: its L1 */
    assert_int_equal(a2[2].l2_requests, 0);
    assert_int_equal(a2[3].st_merged_sectors, 2);  /* warp 0's odd bytes join its pending even bytes */
    assert_int_equal(a2[3].l2_sectors, 0);
    assert_int_equal(a2[4].l1_miss_sectors, 4);    /* SM 1: not in its L1; in L2 by now */
    assert_int_equal(a2[4].l2_hit_sectors, 4);
    for (int i = 0; i < N; i++)
        assert_memory_equal(&a1[i], &a2[i], sizeof a1[i]);
    assert_memory_equal(ws_cache_get_totals(one), ws_cache_get_totals(two), sizeof(ws_cache_totals));
    ws_cache_free(one);
    ws_cache_free(two);
}

/* One set of 16 ways (an L1 of 16 lines): 16 lines loaded are all found again, whichever way
 * holds them; a 17th evicts the least recently used, the first, which then misses. */
static void test_a_full_set_finds_every_way_and_evicts_the_oldest(void **state)
{
    (void)state;
    ws_cache_config cfg = config(16 * 128, 1 << 20, 64, 1);
    ws_cache *c = ws_cache_new(&cfg);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 16; i++) {
            ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + (uint64_t)i * 4096, 4);
            ws_cache_access a = access_on(c, 0, &ev);
            assert_int_equal(a.l1_hit_sectors, pass ? 4 : 0);
        }
    ws_mem_event ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 16 * 4096, 4);
    assert_int_equal(access_on(c, 0, &ev).l1_hit_sectors, 0);
    ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE + 1 * 4096, 4);   /* the second: still there */
    assert_int_equal(access_on(c, 0, &ev).l1_hit_sectors, 4);
    ev = ev_strided(WS_MEM_LOAD, WS_CACHE_DEFAULT, 4, BASE, 4);              /* the first: evicted */
    assert_int_equal(access_on(c, 0, &ev).l1_hit_sectors, 0);
    ws_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeated_default_load_hits_in_l1),
        cmocka_unit_test(test_a_hit_on_the_unasked_half_of_a_fetch_in_flight_is_flagged),
        cmocka_unit_test(test_ldg_nc_load_is_cached_in_l1_like_default),
        cmocka_unit_test(test_identical_requests_of_two_sms_in_one_cycle_reach_l2_once),
        cmocka_unit_test(test_the_same_request_a_cycle_later_is_looked_up_in_l2),
        cmocka_unit_test(test_a_request_of_the_sm_that_sent_the_line_is_not_coalesced),
        cmocka_unit_test(test_requests_for_other_sectors_of_a_line_are_not_coalesced),
        cmocka_unit_test(test_drift_parts_identical_requests_only_after_many_cycles),
        cmocka_unit_test(test_blocks_alone_on_their_sms_and_undrifted_bulk_copies_stay_in_step),
        cmocka_unit_test(test_the_drift_scale_spreads_a_short_run_as_a_long_one),
        cmocka_unit_test(test_sms_of_one_group_coalesce_and_of_another_do_not),
        cmocka_unit_test(test_one_coalesced_request_answers_at_most_four),
        cmocka_unit_test(test_a_small_grid_coalesces_by_the_gpcs_its_blocks_are_placed_in),
        cmocka_unit_test(test_a_request_within_the_window_coalesces_and_one_beyond_it_does_not),
        cmocka_unit_test(test_a_later_waves_identical_requests_coalesce_too),
        cmocka_unit_test(test_cg_load_never_hits_l1_and_back_to_back_misses_merge),
        cmocka_unit_test(test_cg_misses_far_apart_both_reach_l2),
        cmocka_unit_test(test_another_sm_misses_its_own_l1_but_hits_l2),
        cmocka_unit_test(test_l1_keeps_the_most_recent_lines_when_full),
        cmocka_unit_test(test_l1_fills_only_the_sectors_that_missed),
        cmocka_unit_test(test_global_stores_write_through_and_do_not_allocate_in_l1),
        cmocka_unit_test(test_store_sectors_with_fewer_than_32_bytes_are_counted_partial),
        cmocka_unit_test(test_local_store_then_load_hits_in_l1),
        cmocka_unit_test(test_dram_fetch_granularity_over_a_streaming_read),
        cmocka_unit_test(test_partial_sector_writes_are_read_at_eviction_only_with_ecc),
        cmocka_unit_test(test_a_sector_completed_by_later_writes_needs_no_read),
        cmocka_unit_test(test_a_store_to_sectors_a_load_brought_in_hits_in_l1),
        cmocka_unit_test(test_lines_allocated_into_an_empty_l2_are_counted),
        cmocka_unit_test(test_dirty_lines_are_written_back_at_eviction_and_counted_at_end),
        cmocka_unit_test(test_global_atomics_go_to_l2_and_leave_dirty_sectors),
        cmocka_unit_test(test_bad_configurations_are_refused),
        cmocka_unit_test(test_byte_stores_of_one_warp_merge_within_the_window),
        cmocka_unit_test(test_stores_of_other_warps_or_the_same_bytes_do_not_merge),
        cmocka_unit_test(test_launch_fetch_is_code_in_blocks_plus_the_base),
        cmocka_unit_test(test_dirty_limit_writes_back_the_oldest_beyond_it),
        cmocka_unit_test(test_dirty_limit_reads_partial_sectors_it_writes_back),
        cmocka_unit_test(test_two_partitions_hold_two_thirds_of_the_l2_in_distinct_lines),
        cmocka_unit_test(test_a_line_read_from_both_partitions_misses_on_each_side_unless_the_far_side_came_first),
        cmocka_unit_test(test_a_warps_stores_merge_only_within_its_share_of_the_window),
        cmocka_unit_test(test_partial_lines_beyond_the_limits_are_completed_then_written_back),
        cmocka_unit_test(test_h200_profile_sets_the_measured_limits),
        cmocka_unit_test(test_dram_access_shape_of_streams_and_scattered_rows),
        cmocka_unit_test(test_dram_shape_factor_from_first_principles),
        cmocka_unit_test(test_fronts_run_ahead_of_backs_give_the_one_call_answer),
        cmocka_unit_test(test_a_full_set_finds_every_way_and_evicts_the_oldest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
