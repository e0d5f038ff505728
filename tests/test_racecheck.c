/* test_racecheck.c - the shared-memory hazard checker (sim/interp/racecheck.c) fed
 * with hand-built event streams: each test states the accesses a kernel would
 * make and the barrier between them, and asserts the hazard (or its absence)
 * from the definition: two accesses to one byte, at least one a write, in one
 * barrier interval, from different warps (or two lanes of one store), or from
 * two lanes of one warp with no __syncwarp() holding both between (warp level). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/interp/racecheck.h"

static const uint32_t BLOCK64[3] = {64, 1, 1};   /* two warps */

static uint64_t g_seq;

/* One warp-level shared access: lanes in mask touch base + lane*stride. */
static ws_mem_event shared_ev(uint32_t block, uint32_t warp, uint32_t pc, int line, ws_mem_op op,
                              uint32_t mask, uint64_t base, uint64_t stride)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.seq = g_seq++;
    ev.block_linear = block;
    ev.block[0] = block;
    ev.warp = warp;
    ev.pc = pc;
    ev.src_line = line;
    ev.ptx_line = 100 + (int)pc;
    ev.space = WS_SPACE_SHARED;
    ev.op = op;
    ev.width = ev.elem_size = 4;
    ev.vec = 1;
    ev.active_mask = mask;
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1) ev.addr[l] = base + (uint64_t)l * stride;
    return ev;
}

static void feed(ws_racecheck *rc, ws_mem_event ev) { ws_racecheck_on_event(rc, &ev); }

static ws_racecheck *fresh(void)
{
    ws_racecheck *rc = ws_racecheck_new(BLOCK64);
    assert_non_null(rc);
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BLOCK_START, 0);
    return rc;
}

static void test_write_then_read_by_another_warp_without_barrier_is_raw(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));   /* warp 0 writes s[0..31] */
    feed(rc, shared_ev(0, 1, 2, 11, WS_MEM_LOAD, 0xffffffffu, 0, 4));    /* warp 1 reads them */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_RAW);
    assert_int_equal(r->count, 32);                       /* every lane of warp 1 */
    assert_int_equal(r->first.src_line, 10);
    assert_int_equal(r->second.src_line, 11);
    assert_int_equal(r->first.warp, 0);
    assert_int_equal(r->second.warp, 1);
    assert_int_equal(r->second.tid[0], 32);               /* lane 0 of warp 1 is thread 32 */
    assert_int_equal(r->first.tid[0], 0);
    assert_int_equal(r->addr, 0);
    assert_int_equal(r->interval, 0);
    ws_racecheck_free(rc);
}

static void test_write_then_read_by_another_warp_after_a_barrier_is_clean(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    feed(rc, shared_ev(0, 1, 1, 10, WS_MEM_STORE, 0xffffffffu, 128, 4));
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 12);
    feed(rc, shared_ev(0, 1, 2, 13, WS_MEM_LOAD, 0xffffffffu, 0, 4));
    feed(rc, shared_ev(0, 0, 2, 13, WS_MEM_LOAD, 0xffffffffu, 128, 4));
    assert_int_equal(ws_racecheck_count(rc), 0);
    ws_racecheck_free(rc);
}

static void test_read_then_write_by_another_warp_is_war_after_the_barrier_that_opened_it(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 11);
    feed(rc, shared_ev(0, 0, 2, 12, WS_MEM_LOAD, 0x1u, 8, 0));          /* thread 0 reads s[2] */
    feed(rc, shared_ev(0, 1, 3, 13, WS_MEM_STORE, 0x4u, 0, 4));         /* thread 34 writes s[2] */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_WAR);
    assert_int_equal(r->addr, 8);
    assert_int_equal(r->first.tid[0], 0);
    assert_int_equal(r->second.tid[0], 34);
    assert_int_equal(r->interval, 1);
    assert_int_equal(r->bar_before_line, 11);
    ws_racecheck_free(rc);
}

static void test_two_warps_writing_one_word_is_waw(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 64, 0));
    feed(rc, shared_ev(0, 1, 1, 10, WS_MEM_STORE, 0x1u, 64, 0));
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_WAW);
    assert_int_equal(ws_racecheck_total(rc, WS_RACE_WAW), 1);
    ws_racecheck_free(rc);
}

static void test_two_lanes_of_one_store_writing_one_word_is_waw_within_the_warp(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x3u, 0, 0));         /* lanes 0 and 1 both write s[0] */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_WAW);
    assert_int_equal(r->first.warp, r->second.warp);
    assert_int_equal(r->first.lane, 0);
    assert_int_equal(r->second.lane, 1);
    ws_racecheck_free(rc);
}

/* The interpreter marks lanes that store the bytes already there (same_value_mask): 32 lanes
 * storing one value to one word are lane 0's write and 31 no-ops, and another warp storing it
 * again is a no-op too; a lane storing a different value is still a WAW. */
static void test_stores_of_the_value_already_there_are_no_waw(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    ws_mem_event ev = shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 64, 0);
    ev.same_value_mask = 0xfffffffeu;                                     /* lane 0 changed it */
    feed(rc, ev);
    ev = shared_ev(0, 1, 1, 10, WS_MEM_STORE, 0xffffffffu, 64, 0);
    ev.same_value_mask = 0xffffffffu;                                     /* warp 1 finds it set */
    feed(rc, ev);
    assert_int_equal(ws_racecheck_count(rc), 0);
    ev = shared_ev(0, 1, 2, 11, WS_MEM_STORE, 0x1u, 64, 0);               /* thread 32: another value */
    feed(rc, ev);
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_WAW);
    assert_int_equal(ws_racecheck_get(rc, 0)->first.tid[0], 0);           /* lane 0's write stands */
    ws_racecheck_free(rc);
}

/* A same-value store to a byte the block never wrote (0xCD poison stored as data) still
 * initialises it: the read after it is not an uninitialised read. */
static void test_a_same_value_store_still_initialises_unwritten_shared(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    ws_mem_event ev = shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0);
    ev.same_value_mask = 0x1u;
    feed(rc, ev);
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0x1u, 0, 0));
    assert_int_equal(ws_racecheck_count(rc), 0);
    ws_racecheck_free(rc);
}

static void test_one_thread_in_program_order_has_no_hazard(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));   /* lane l writes s[l] */
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0xffffffffu, 0, 4));    /* and reads it back */
    feed(rc, shared_ev(0, 0, 3, 12, WS_MEM_STORE, 0xffffffffu, 0, 4));   /* and overwrites it */
    assert_int_equal(ws_racecheck_count(rc), 0);
    ws_racecheck_free(rc);
}

/* Lane l reads s[l + 1], which lane l + 1 wrote, then every lane overwrites its own word:
 * 31 RAW (lanes 0..30), then 31 WAR (lane l + 1's store after lane l's read), all between
 * lanes of warp 0 with no __syncwarp(): warp-level hazards. */
static void test_lanes_of_one_warp_reading_each_others_words_without_syncwarp_are_warp_level(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0x7fffffffu, 4, 4));   /* lane l reads lane l+1's word */
    feed(rc, shared_ev(0, 0, 3, 12, WS_MEM_STORE, 0xffffffffu, 0, 4));
    assert_int_equal(ws_racecheck_count(rc), 2);
    assert_int_equal(ws_racecheck_total(rc, WS_RACE_RAW), 31);
    assert_int_equal(ws_racecheck_total_warp(rc, WS_RACE_RAW), 31);
    assert_int_equal(ws_racecheck_total(rc, WS_RACE_WAR), 31);
    assert_int_equal(ws_racecheck_total_warp(rc, WS_RACE_WAR), 31);
    const ws_race *raw = ws_racecheck_get(rc, 0), *war = ws_racecheck_get(rc, 1);
    assert_int_equal(raw->kind, WS_RACE_RAW);
    assert_true(raw->warp_level);
    assert_int_equal(raw->first.lane, 1);                 /* lane 1 wrote s[1] at line 10 */
    assert_int_equal(raw->first.src_line, 10);
    assert_int_equal(raw->second.lane, 0);                /* lane 0 read it at line 11 */
    assert_int_equal(raw->second.src_line, 11);
    assert_int_equal(raw->addr, 4);
    assert_int_equal(war->kind, WS_RACE_WAR);
    assert_true(war->warp_level);
    assert_int_equal(war->first.lane, 0);                 /* lane 0 read s[1] at line 11 */
    assert_int_equal(war->second.lane, 1);                /* lane 1 overwrote it at line 12 */
    assert_int_equal(war->addr, 4);
    ws_racecheck_free(rc);
}

/* The same stream with __syncwarp() of the whole warp after each step: ordered, clean. */
static void test_a_syncwarp_between_orders_the_lanes_of_one_warp(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_warp_sync(rc, 0, 0, 0xffffffffu, 10);
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0x7fffffffu, 4, 4));
    ws_racecheck_on_warp_sync(rc, 0, 0, 0xffffffffu, 11);
    feed(rc, shared_ev(0, 0, 3, 12, WS_MEM_STORE, 0xffffffffu, 0, 4));
    assert_int_equal(ws_racecheck_count(rc), 0);
    /* another warp's __syncwarp() orders nothing in warp 0 */
    feed(rc, shared_ev(0, 0, 4, 13, WS_MEM_LOAD, 0x7fffffffu, 4, 4));
    ws_racecheck_on_warp_sync(rc, 0, 1, 0xffffffffu, 14);
    feed(rc, shared_ev(0, 0, 5, 15, WS_MEM_STORE, 0xffffffffu, 0, 4));
    assert_int_equal(ws_racecheck_total_warp(rc, WS_RACE_RAW), 31);   /* line 12's stores, read at 13 */
    assert_int_equal(ws_racecheck_total_warp(rc, WS_RACE_WAR), 31);   /* read at 13, overwritten at 15 */
    ws_racecheck_free(rc);
}

/* __syncwarp(0x0000ffff) orders lanes 0..15 with each other only: of the readers l = 0..30
 * of lane l + 1's word, l = 0..14 are ordered, l = 15 (its writer 16 is outside the mask)
 * and l = 16..30 are not: 16 warp-level RAW. A barrier orders every lane. */
static void test_a_partial_syncwarp_orders_only_the_lanes_of_its_mask(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_warp_sync(rc, 0, 0, 0x0000ffffu, 10);
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0x7fffffffu, 4, 4));
    assert_int_equal(ws_racecheck_total_warp(rc, WS_RACE_RAW), 16);
    const ws_race *raw = ws_racecheck_get(rc, 0);
    assert_int_equal(raw->second.lane, 15);
    assert_int_equal(raw->first.lane, 16);
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 12);
    feed(rc, shared_ev(0, 0, 3, 13, WS_MEM_STORE, 0xffffffffu, 0, 4));
    assert_int_equal(ws_racecheck_total(rc, WS_RACE_WAR), 0);
    ws_racecheck_free(rc);
}

/* Two lanes of one warp storing one word in different instructions: a warp-level WAW. */
static void test_two_lanes_of_one_warp_storing_one_word_in_two_stores_is_warp_level_waw(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 64, 0));   /* lane 0 */
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_STORE, 0x2u, 64, 0));   /* lane 1 */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *h = ws_racecheck_get(rc, 0);
    assert_int_equal(h->kind, WS_RACE_WAW);
    assert_true(h->warp_level);
    assert_int_equal(h->first.lane, 0);
    assert_int_equal(h->second.lane, 1);
    char buf[2048];
    ws_racecheck_format(rc, 0, "k.cu", "k", buf, sizeof buf);
    assert_non_null(strstr(buf, "k.cu:11: error: k: racecheck: WAW hazard between lanes of one warp on shared memory "
                                "at offset 0x40 in block (0,0,0) warp 0: lane 0 (thread (0,0,0)) wrote it at line 10, "
                                "then lane 1 (thread (1,0,0)) wrote it at line 11, with no __syncwarp() or barrier"));
    assert_non_null(strstr(buf, "'(Warp Level Programming) Potential WAW hazard'"));
    assert_null(strchr(buf, '\n'));
    ws_racecheck_free(rc);
}

static void test_read_of_never_written_shared_is_uninitialised(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x0000ffffu, 0, 4));  /* lanes 0..15 write */
    feed(rc, shared_ev(0, 0, 2, 11, WS_MEM_LOAD, 0xffffffffu, 0, 4));   /* all 32 read */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_UNINIT);
    assert_int_equal(r->count, 16);
    assert_int_equal(r->addr, 64);                        /* lane 16's word: first unwritten */
    assert_int_equal(r->second.lane, 16);
    ws_racecheck_free(rc);
}

static void test_a_new_block_starts_with_unwritten_shared_and_no_history(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BLOCK_END, 0);
    ws_racecheck_on_sync(rc, 1, WS_SYNC_BLOCK_START, 0);
    feed(rc, shared_ev(1, 1, 2, 11, WS_MEM_LOAD, 0x1u, 0, 0));          /* no RAW with block 0's write */
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_UNINIT);
    assert_int_equal(ws_racecheck_get(rc, 0)->block[0], 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->second.block[0], 1);  /* the access's block too */
    assert_int_equal(ws_racecheck_get(rc, 0)->second.block[2], 0);
    ws_racecheck_free(rc);
}

static void test_a_new_block_is_seen_from_events_when_nobody_calls_on_sync(void **state)
{
    (void)state;
    ws_racecheck *rc = ws_racecheck_new(BLOCK64);
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0));
    feed(rc, shared_ev(1, 1, 2, 11, WS_MEM_LOAD, 0x1u, 0, 0));
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_UNINIT);
    ws_racecheck_free(rc);
}

static void test_atomics_do_not_race_each_other_but_race_plain_accesses(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0));          /* s[0] = 0 by thread 0 */
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 11);
    feed(rc, shared_ev(0, 0, 2, 12, WS_MEM_ATOMIC, 0xffffffffu, 0, 0));  /* atomicAdd(&s[0]) by all */
    feed(rc, shared_ev(0, 1, 2, 12, WS_MEM_ATOMIC, 0xffffffffu, 0, 0));
    assert_int_equal(ws_racecheck_count(rc), 0);
    feed(rc, shared_ev(0, 0, 3, 13, WS_MEM_LOAD, 0x1u, 0, 0));           /* read without a barrier */
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_RAW);
    assert_int_equal(ws_racecheck_get(rc, 0)->first.op, WS_MEM_ATOMIC);
    ws_racecheck_free(rc);
}

static void test_the_same_pair_of_lines_is_one_hazard_with_a_count(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    for (int rep = 0; rep < 3; rep++) {
        feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
        feed(rc, shared_ev(0, 1, 2, 11, WS_MEM_LOAD, 0xffffffffu, 0, 4));
        ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 12);
    }
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->count, 96);
    assert_int_equal(ws_racecheck_total(rc, WS_RACE_RAW), 96);
    ws_racecheck_free(rc);
}

static void test_a_partial_overlap_of_wide_accesses_is_a_hazard(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    ws_mem_event w = shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0);  /* 16-byte store at 0 */
    w.width = 16; w.elem_size = 4; w.vec = 4;
    feed(rc, w);
    feed(rc, shared_ev(0, 1, 2, 11, WS_MEM_LOAD, 0x1u, 12, 0));         /* 4-byte read at 12 */
    feed(rc, shared_ev(0, 1, 3, 12, WS_MEM_LOAD, 0x1u, 16, 0));         /* 16: past it, unwritten */
    assert_int_equal(ws_racecheck_count(rc), 2);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_RAW);
    assert_int_equal(ws_racecheck_get(rc, 0)->addr, 12);
    assert_int_equal(ws_racecheck_get(rc, 1)->kind, WS_RACE_UNINIT);
    ws_racecheck_free(rc);
}

static void test_global_accesses_are_ignored(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    ws_mem_event a = shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0);
    a.space = WS_SPACE_GLOBAL;
    ws_mem_event b = shared_ev(0, 1, 2, 11, WS_MEM_LOAD, 0x1u, 0, 0);
    b.space = WS_SPACE_GLOBAL;
    feed(rc, a);
    feed(rc, b);
    assert_int_equal(ws_racecheck_count(rc), 0);
    ws_racecheck_free(rc);
}

static int g_forwarded, g_synced;
static void count_event(void *ctx, const ws_mem_event *ev) { (void)ev; (*(int *)ctx)++; }
static void count_sync(void *ctx, uint32_t b, int kind, int line) { (void)b; (void)kind; (void)line; (*(int *)ctx)++; }
static int g_warp_synced;
static void count_warp_sync(void *ctx, uint32_t b, uint32_t w, uint32_t lanes, int line)
{
    (void)b; (void)w; (void)lanes; (void)line;
    (*(int *)ctx)++;
}

static void test_attach_installs_the_hooks_and_forwards_to_the_previous_ones(void **state)
{
    (void)state;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.listener = count_event;
    cfg.listener_ctx = &g_forwarded;
    cfg.on_sync = count_sync;
    cfg.sync_ctx = &g_synced;
    cfg.on_warp_sync = count_warp_sync;
    cfg.warp_sync_ctx = &g_warp_synced;
    ws_racecheck *rc = ws_racecheck_new(BLOCK64);
    ws_racecheck_attach(rc, &cfg);
    assert_ptr_equal(cfg.warp_sync_ctx, rc);
    cfg.on_warp_sync(cfg.warp_sync_ctx, 0, 0, 0xffffffffu, 5);
    assert_int_equal(g_warp_synced, 1);
    assert_ptr_equal(cfg.listener_ctx, rc);
    cfg.on_sync(cfg.sync_ctx, 0, WS_SYNC_BLOCK_START, 0);
    ws_mem_event ev = shared_ev(0, 0, 1, 10, WS_MEM_LOAD, 0x1u, 0, 0);
    cfg.listener(cfg.listener_ctx, &ev);
    ev.space = WS_SPACE_GLOBAL;
    cfg.listener(cfg.listener_ctx, &ev);
    assert_int_equal(g_forwarded, 2);                    /* shared and global both reach the next listener */
    assert_int_equal(g_synced, 1);
    assert_int_equal(ws_racecheck_count(rc), 1);         /* the uninitialised read */
    ws_racecheck_free(rc);
}

static void test_the_message_names_both_lines_both_threads_the_address_and_the_interval(void **state)
{
    (void)state;
    const uint32_t block2d[3] = {32, 32, 1};
    ws_racecheck *rc = ws_racecheck_new(block2d);
    ws_racecheck_on_sync(rc, 3, WS_SYNC_BLOCK_START, 0);
    ws_mem_event w = shared_ev(3, 4, 1, 21, WS_MEM_STORE, 0x2u, 0x84, 0);   /* thread (1,4) */
    ws_mem_event r = shared_ev(3, 1, 2, 24, WS_MEM_LOAD, 0x10u, 0x84, 0);   /* thread (4,1) */
    feed(rc, w);
    ws_racecheck_on_sync(rc, 3, WS_SYNC_BARRIER, 22);
    feed(rc, w);
    feed(rc, r);
    char buf[1024];
    ws_racecheck_format(rc, 0, "k.cu", "transpose_smem", buf, sizeof buf);
    assert_non_null(strstr(buf, "k.cu:24: error: transpose_smem: racecheck: RAW hazard"));
    assert_non_null(strstr(buf, "offset 0x84"));
    assert_non_null(strstr(buf, "thread (1,4,0) (warp 4 lane 1) wrote it at line 21"));
    assert_non_null(strstr(buf, "thread (4,1,0) (warp 1 lane 4) read it at line 24"));
    assert_non_null(strstr(buf, "after barrier 1 of the block (line 22)"));
    assert_null(strchr(buf, '\n'));
    ws_racecheck_free(rc);
}

/* --- clusters: the blocks of a cluster checked together ------------------------------------ */

static const uint32_t GRID4[3] = {4, 1, 1}, CL2[3] = {2, 1, 1};   /* two clusters of two blocks */

/* A cluster launch's checker with blocks b0 and b0 + 1 (one cluster) started, as run_clusters does. */
static ws_racecheck *fresh_cluster(uint32_t b0)
{
    ws_racecheck *rc = ws_racecheck_new(BLOCK64);
    assert_non_null(rc);
    assert_int_equal(ws_racecheck_set_cluster(rc, GRID4, CL2), 0);
    ws_racecheck_on_sync(rc, b0, WS_SYNC_BLOCK_START, 0);
    ws_racecheck_on_sync(rc, b0 + 1, WS_SYNC_BLOCK_START, 0);
    return rc;
}

/* The same access, made through a .shared::cluster address into rank `target`'s window. */
static ws_mem_event remote(ws_mem_event ev, uint32_t target)
{
    ev.dsmem = (uint8_t)(1 + target);
    return ev;
}

static void test_a_remote_read_of_another_blocks_write_without_a_cluster_barrier_is_raw_naming_both_blocks(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh_cluster(0);
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0));              /* block 0 thread 0: s[0] */
    feed(rc, remote(shared_ev(1, 1, 2, 11, WS_MEM_LOAD, 0x4u, 0, 0), 0));    /* block 1 thread 34 reads it */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_RAW);
    assert_true(r->cross_block);
    assert_int_equal(r->window_rank, 0);
    assert_int_equal(r->first.rank, 0);
    assert_int_equal(r->second.rank, 1);
    assert_int_equal(r->first.block[0], 0);
    assert_int_equal(r->second.block[0], 1);
    assert_int_equal(r->second.tid[0], 34);
    char buf[1024];
    ws_racecheck_format(rc, 0, "k.cu", "swap", buf, sizeof buf);
    assert_non_null(strstr(buf, "k.cu:11: error: swap: racecheck: RAW hazard on distributed shared memory at offset "
                                "0x0 of block (0,0,0) (cluster rank 0)"));
    assert_non_null(strstr(buf, "thread (0,0,0) of block (0,0,0) (rank 0, warp 0 lane 0) wrote it at line 10"));
    assert_non_null(strstr(buf, "thread (34,0,0) of block (1,0,0) (rank 1, warp 1 lane 2) read it at line 11"));
    assert_non_null(strstr(buf, "no barrier.cluster (cluster.sync()) between (before the cluster's first barrier.cluster)"));
    ws_racecheck_free(rc);
}

static void test_a_cluster_barrier_orders_the_blocks_accesses_and_a_block_barrier_does_not(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh_cluster(0);
    feed(rc, remote(shared_ev(1, 0, 1, 10, WS_MEM_STORE, 0x1u, 8, 0), 0));   /* block 1 writes block 0's s[2] */
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BARRIER, 11);                        /* __syncthreads() in block 0 */
    ws_racecheck_on_sync(rc, 1, WS_SYNC_BARRIER, 11);                        /* and in block 1 */
    feed(rc, shared_ev(0, 0, 2, 12, WS_MEM_LOAD, 0x1u, 8, 0));               /* block 0 reads it */
    assert_int_equal(ws_racecheck_count(rc), 1);                             /* still unordered */
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_RAW);
    assert_true(ws_racecheck_get(rc, 0)->cross_block);
    ws_racecheck_on_sync(rc, 0, WS_SYNC_CLUSTER_BARRIER, 13);                /* cluster.sync() */
    feed(rc, remote(shared_ev(1, 1, 3, 14, WS_MEM_STORE, 0x1u, 8, 0), 0));   /* a WAR only without it */
    feed(rc, shared_ev(0, 1, 4, 15, WS_MEM_LOAD, 0x1u, 8, 0));               /* RAW with line 14 */
    assert_int_equal(ws_racecheck_count(rc), 2);
    const ws_race *r = ws_racecheck_get(rc, 1);
    assert_int_equal(r->first.src_line, 14);
    assert_int_equal(r->interval, 1);                                        /* one cluster barrier passed */
    assert_int_equal(r->bar_before_line, 13);
    ws_racecheck_free(rc);
}

static void test_each_block_of_a_cluster_keeps_its_own_window_and_barrier_intervals(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh_cluster(2);                                     /* blocks 2 and 3 */
    /* both blocks write their own s[0..31] in warp 0, barrier, read them in warp 1, interleaved */
    feed(rc, shared_ev(2, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    feed(rc, shared_ev(3, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_sync(rc, 2, WS_SYNC_BARRIER, 11);
    feed(rc, shared_ev(2, 1, 2, 12, WS_MEM_LOAD, 0xffffffffu, 0, 4));        /* block 2 is past its barrier */
    assert_int_equal(ws_racecheck_count(rc), 0);                             /* block 3's s[] is another window */
    feed(rc, shared_ev(3, 1, 2, 12, WS_MEM_LOAD, 0xffffffffu, 0, 4));        /* block 3 is not */
    assert_int_equal(ws_racecheck_count(rc), 1);
    const ws_race *r = ws_racecheck_get(rc, 0);
    assert_int_equal(r->kind, WS_RACE_RAW);
    assert_false(r->cross_block);
    assert_int_equal(r->block[0], 3);
    assert_int_equal(r->count, 32);
    ws_racecheck_free(rc);
}

static void test_the_next_cluster_starts_with_unwritten_windows(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh_cluster(0);
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0));
    feed(rc, shared_ev(1, 0, 1, 10, WS_MEM_STORE, 0x1u, 0, 0));
    ws_racecheck_on_sync(rc, 0, WS_SYNC_BLOCK_END, 0);
    ws_racecheck_on_sync(rc, 1, WS_SYNC_BLOCK_END, 0);
    ws_racecheck_on_sync(rc, 2, WS_SYNC_BLOCK_START, 0);
    ws_racecheck_on_sync(rc, 3, WS_SYNC_BLOCK_START, 0);
    feed(rc, remote(shared_ev(3, 1, 2, 11, WS_MEM_LOAD, 0x1u, 0, 0), 0));    /* block 3 reads block 2's s[0] */
    assert_int_equal(ws_racecheck_count(rc), 1);
    assert_int_equal(ws_racecheck_get(rc, 0)->kind, WS_RACE_UNINIT);         /* not block 0's write */
    assert_int_equal(ws_racecheck_get(rc, 0)->window_rank, 0);
    ws_racecheck_free(rc);
}

static void test_a_cluster_barrier_without_clusters_orders_the_blocks_warps(void **state)
{
    (void)state;
    ws_racecheck *rc = fresh();
    feed(rc, shared_ev(0, 0, 1, 10, WS_MEM_STORE, 0xffffffffu, 0, 4));
    ws_racecheck_on_sync(rc, 0, WS_SYNC_CLUSTER_BARRIER, 11);                /* a cluster of one */
    feed(rc, shared_ev(0, 1, 2, 12, WS_MEM_LOAD, 0xffffffffu, 0, 4));
    assert_int_equal(ws_racecheck_count(rc), 0);
    ws_racecheck_free(rc);
}

static void test_more_blocks_per_cluster_than_the_hardware_allows_are_refused(void **state)
{
    (void)state;
    ws_racecheck *rc = ws_racecheck_new(BLOCK64);
    const uint32_t grid[3] = {32, 1, 1}, c17[3] = {17, 1, 1}, c16[3] = {16, 1, 1};
    assert_int_equal(ws_racecheck_set_cluster(rc, grid, c17), -1);
    assert_int_equal(ws_racecheck_set_cluster(rc, grid, c16), 0);
    ws_racecheck_free(rc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_then_read_by_another_warp_without_barrier_is_raw),
        cmocka_unit_test(test_write_then_read_by_another_warp_after_a_barrier_is_clean),
        cmocka_unit_test(test_read_then_write_by_another_warp_is_war_after_the_barrier_that_opened_it),
        cmocka_unit_test(test_two_warps_writing_one_word_is_waw),
        cmocka_unit_test(test_two_lanes_of_one_store_writing_one_word_is_waw_within_the_warp),
        cmocka_unit_test(test_stores_of_the_value_already_there_are_no_waw),
        cmocka_unit_test(test_a_same_value_store_still_initialises_unwritten_shared),
        cmocka_unit_test(test_one_thread_in_program_order_has_no_hazard),
        cmocka_unit_test(test_lanes_of_one_warp_reading_each_others_words_without_syncwarp_are_warp_level),
        cmocka_unit_test(test_a_syncwarp_between_orders_the_lanes_of_one_warp),
        cmocka_unit_test(test_a_partial_syncwarp_orders_only_the_lanes_of_its_mask),
        cmocka_unit_test(test_two_lanes_of_one_warp_storing_one_word_in_two_stores_is_warp_level_waw),
        cmocka_unit_test(test_read_of_never_written_shared_is_uninitialised),
        cmocka_unit_test(test_a_new_block_starts_with_unwritten_shared_and_no_history),
        cmocka_unit_test(test_a_new_block_is_seen_from_events_when_nobody_calls_on_sync),
        cmocka_unit_test(test_atomics_do_not_race_each_other_but_race_plain_accesses),
        cmocka_unit_test(test_the_same_pair_of_lines_is_one_hazard_with_a_count),
        cmocka_unit_test(test_a_partial_overlap_of_wide_accesses_is_a_hazard),
        cmocka_unit_test(test_global_accesses_are_ignored),
        cmocka_unit_test(test_attach_installs_the_hooks_and_forwards_to_the_previous_ones),
        cmocka_unit_test(test_the_message_names_both_lines_both_threads_the_address_and_the_interval),
        cmocka_unit_test(test_a_remote_read_of_another_blocks_write_without_a_cluster_barrier_is_raw_naming_both_blocks),
        cmocka_unit_test(test_a_cluster_barrier_orders_the_blocks_accesses_and_a_block_barrier_does_not),
        cmocka_unit_test(test_each_block_of_a_cluster_keeps_its_own_window_and_barrier_intervals),
        cmocka_unit_test(test_the_next_cluster_starts_with_unwritten_windows),
        cmocka_unit_test(test_a_cluster_barrier_without_clusters_orders_the_blocks_warps),
        cmocka_unit_test(test_more_blocks_per_cluster_than_the_hardware_allows_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
