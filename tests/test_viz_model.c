/* test_viz_model.c - the visualizer's step model: geometry derived from one event
 * (banks, rows, groups, lines, sectors, bytes used), running totals, and the
 * recording. Expectations come from addresses and widths, worked out in each test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../viz/viz_model.h"

#define GBASE 0x100000000ull

static ws_mem_event ev_strided(ws_space sp, ws_mem_op op, int width, uint32_t mask, uint64_t base,
                               uint64_t stride)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = sp;
    ev.op = op;
    ev.width = (uint8_t)width;
    ev.active_mask = mask;
    for (int l = 0; l < 32; l++)
        if (mask & (1u << l))
            ev.addr[l] = base + (uint64_t)l * stride;
    return ev;
}

static void test_consecutive_doubles_in_shared_take_two_half_warp_wavefronts(void **state)
{
    (void)state;
    /* 32 x 8 B = 256 B = 64 words: each half-warp covers 32 words, one per bank */
    ws_mem_event ev = ev_strided(WS_SPACE_SHARED, WS_MEM_LOAD, 8, 0xFFFFFFFFu, 0, 8);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.ngroups, 2);
    assert_int_equal(s.wavefronts, 2);
    assert_int_equal(s.ideal_wavefronts, 2);
    assert_int_equal(s.nrows, 2);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(s.lane[l].nwords, 2);
        assert_int_equal(s.lane[l].group, l / 16);
        assert_int_equal(s.lane[l].bank, (2 * l) % 32);
        assert_false(s.lane[l].conflict);
    }
}

static void test_float4_stride_two_in_shared_conflicts_inside_each_quarter(void **state)
{
    (void)state;
    /* 16-B lanes 32 B apart: a quarter (8 lanes) spans 256 B = 2 rows, so every bank
     * it uses needs 2 words -> 2 wavefronts per quarter, 8 in all */
    ws_mem_event ev = ev_strided(WS_SPACE_SHARED, WS_MEM_LOAD, 16, 0xFFFFFFFFu, 0, 32);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.ngroups, 4);
    assert_int_equal(s.wavefronts, 8);
    assert_int_equal(s.ideal_wavefronts, 4);
    assert_true(s.lane[0].conflict);
    assert_int_equal(s.lane[4].wavefront, 1); /* lane 4 hits lane 0's banks one row down */
}

static void test_conflict_lanes_are_ranked_into_successive_wavefronts(void **state)
{
    (void)state;
    ws_mem_event ev = ev_strided(WS_SPACE_SHARED, WS_MEM_STORE, 4, 0xFFFFFFFFu, 0, 128);
    viz_step s;
    viz_step_from_event(&s, &ev);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(s.lane[l].bank, 0);
        assert_int_equal(s.lane[l].wavefront, l);
        assert_int_equal(s.lane[l].row_slot, l);
        assert_true(s.lane[l].conflict);
    }
}

static void test_float4_consecutive_global_load_touches_sixteen_sectors_in_four_lines(void **state)
{
    (void)state;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 16, 0xFFFFFFFFu, GBASE, 16);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nlines, 4);
    assert_int_equal(s.sectors, 16);
    assert_int_equal(s.ideal_sectors, 16);
    assert_int_equal(s.requests, 1);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) {
            assert_int_equal(s.lines[i].used[k], 0xFFFFFFFFu); /* every byte used */
            assert_int_equal(s.lines[i].outcome[k], VIZ_OUT_UNKNOWN);
        }
    assert_int_equal(s.lane[9].line_slot, 1); /* byte 144 is in the second line */
    assert_int_equal(s.lane[9].sector, 0);
}

static void test_stride_two_load_uses_half_of_each_sector(void **state)
{
    (void)state;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 8);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.sectors, 8);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 4; k++) {
            assert_int_equal(s.lines[i].used[k], 0x0F0F0F0Fu); /* bytes 0-3, 8-11, ... */
            assert_int_equal(__builtin_popcount(s.lines[i].lanes[k]), 4);
        }
}

static void test_uniform_local_access_is_interleaved_into_one_line(void **state)
{
    (void)state;
    /* every lane reads word 3 of its own frame: lane t at 3*128 + 4t -> one line, 4 sectors */
    ws_mem_event ev = ev_strided(WS_SPACE_LOCAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 12, 0);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nlines, 1);
    assert_int_equal(s.lines[0].line, 3);
    assert_int_equal(s.sectors, 4);
    assert_int_equal(s.requests, 1);
    /* 8-byte local: two word slots -> two requests, two lines */
    ev = ev_strided(WS_SPACE_LOCAL, WS_MEM_LOAD, 8, 0xFFFFFFFFu, 0, 0);
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.requests, 2);
    assert_int_equal(s.nlines, 2);
    assert_int_equal(s.sectors, 8);
}

static void test_stores_mark_sectors_written(void **state)
{
    (void)state;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_STORE, 4, 0x1u, GBASE + 40, 0);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nlines, 1);
    assert_int_equal(s.sectors, 1);
    assert_int_equal(s.lines[0].outcome[1], VIZ_OUT_WRITE);
    assert_int_equal(s.lines[0].used[1], 0xFu << 8); /* bytes 40..43 = sector 1 bytes 8..11 */
    assert_int_equal(s.ideal_sectors, 1);
}

static void test_no_active_lane_is_no_request(void **state)
{
    (void)state;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0, GBASE, 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.requests, 0);
    assert_int_equal(s.sectors, 0);
    assert_int_equal(s.nlines, 0);
}

static void test_totals_add_sectors_wavefronts_and_outcomes_by_category(void **state)
{
    (void)state;
    viz_totals t;
    memset(&t, 0, sizeof t);
    viz_step s;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 8);
    viz_step_from_event(&s, &ev);
    s.lines[0].outcome[0] = VIZ_OUT_DRAM;
    s.lines[1].outcome[3] = VIZ_OUT_L1_HIT;
    viz_totals_add(&t, &s);
    ev = ev_strided(WS_SPACE_SHARED, WS_MEM_STORE, 4, 0xFFFFFFFFu, 0, 128);
    viz_step_from_event(&s, &ev);
    viz_totals_add(&t, &s);
    assert_int_equal(t.instructions, 2);
    assert_int_equal(t.cat[VIZ_CAT_GLOBAL_LD].requests, 1);
    assert_int_equal(t.cat[VIZ_CAT_GLOBAL_LD].units, 8);
    assert_int_equal(t.cat[VIZ_CAT_GLOBAL_LD].ideal, 4);
    assert_int_equal(t.cat[VIZ_CAT_SHARED_ST].units, 32);
    assert_int_equal(t.cat[VIZ_CAT_SHARED_ST].conflicts, 31);
    assert_int_equal(t.dram_sectors, 1);
    assert_int_equal(t.l1_hit_sectors, 1);
}

static void test_recording_keeps_steps_source_lines_and_filters_by_warp(void **state)
{
    (void)state;
    viz_recording r;
    viz_recording_init(&r);
    assert_int_equal(viz_recording_set_source(&r, "k.cu", "line one\n\tint x;\r\nlast"), 0);
    assert_int_equal(r.nsrc, 3);
    assert_string_equal(r.src_lines[1], "    int x;");
    assert_string_equal(r.src_lines[2], "last");
    viz_step s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < 100; i++) {
        s.seq = (uint64_t)i;
        s.warp = (uint32_t)(i % 4);
        s.block_linear = (uint32_t)(i / 50);
        assert_int_equal(viz_recording_push(&r, &s), 0);
    }
    size_t idx[100];
    assert_int_equal(viz_recording_filter(&r, 1, 2, idx, 100), 13); /* i = 50, 54, ..., 98 */
    assert_int_equal(r.steps[idx[0]].seq, 50);
    assert_int_equal(viz_recording_filter(&r, 0, -1, idx, 100), 100);
    r.max_steps = 100;
    assert_int_equal(viz_recording_push(&r, &s), 0);
    assert_int_equal(r.nsteps, 100);
    assert_true(r.truncated);
    viz_recording_free(&r);
}

static void test_heat_colour_level_follows_waste_over_ideal_not_cost(void **state)
{
    (void)state;
    viz_line_heat h = {.instructions = 1000, .active_lanes = 32000, .sectors = 4000, .ideal_sectors = 4000};
    assert_true(viz_heat_level(&h) == 0);          /* x1 of ideal: the coolest colour, however costly */
    h.sectors = 8000;                              /* x2: half way on the log scale */
    assert_true(fabs(viz_heat_level(&h) - 0.5) < 1e-12);
    h.sectors = (uint64_t)(4000 * VIZ_HEAT_RED_WASTE);
    assert_true(viz_heat_level(&h) == 1);
    h.sectors = 32 * 4000;                         /* worse than red is red */
    assert_true(viz_heat_level(&h) == 1);
    viz_line_heat sh = {.instructions = 2, .wavefronts = 64, .ideal_wavefronts = 2};
    assert_true(fabs(viz_heat_waste(&sh) - 32) < 1e-12);
    viz_line_heat none = {0};
    assert_true(viz_heat_waste(&none) == 1 && viz_heat_level(&none) == 0);
}

static void test_a_load_run_by_one_lane_of_32_is_three_percent_of_lanes_on_its_line(void **state)
{
    (void)state;
    viz_recording r;
    viz_recording_init(&r);
    viz_step s;
    ws_mem_event ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0x1u, GBASE, 4); /* the halo lane */
    ev.src_line = 7;
    viz_step_from_event(&s, &ev);
    assert_int_equal(viz_recording_heat_add_step(&r, &s), 0);
    /* one sector, ideal one: x1 of ideal, yet 31 of 32 lanes idle */
    assert_true(viz_heat_waste(&r.heat[7]) == 1);
    assert_true(fabs(viz_heat_lanes_pct(&r.heat[7]) - 3.125) < 1e-12);
    ev = ev_strided(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 4);
    ev.src_line = 7;
    viz_step_from_event(&s, &ev);
    assert_int_equal(viz_recording_heat_add_step(&r, &s), 0);
    assert_true(fabs(viz_heat_lanes_pct(&r.heat[7]) - 100.0 * 33 / 64) < 1e-12);
    viz_recording_free(&r);
}

static void test_atomics_have_their_own_totals_rows(void **state)
{
    (void)state;
    assert_int_equal(viz_cat_of(WS_SPACE_GLOBAL, WS_MEM_ATOMIC), VIZ_CAT_GLOBAL_ATOM);
    assert_int_equal(viz_cat_of(WS_SPACE_GLOBAL, WS_MEM_REDUCE), VIZ_CAT_GLOBAL_ATOM);
    assert_int_equal(viz_cat_of(WS_SPACE_SHARED, WS_MEM_ATOMIC), VIZ_CAT_SHARED_ATOM);
    assert_int_equal(viz_cat_of(WS_SPACE_CONST, WS_MEM_LOAD), VIZ_CAT_COUNT);
    assert_string_equal(viz_cat_name(VIZ_CAT_GLOBAL_ATOM), "global atom");
    viz_totals t;
    memset(&t, 0, sizeof t);
    viz_step s;
    ws_mem_event ev = ev_strided(WS_SPACE_SHARED, WS_MEM_ATOMIC, 4, 0xFFFFFFFFu, 0, 4);
    viz_step_from_event(&s, &ev);
    viz_totals_add(&t, &s);
    /* 32 lanes on 32 distinct words of 32 banks: the shared row of the table, one pass */
    assert_true(s.wavefronts >= 1);
    assert_int_equal(t.cat[VIZ_CAT_SHARED_ATOM].units, (uint64_t)s.wavefronts);
    assert_int_equal(t.cat[VIZ_CAT_SHARED_LD].units + t.cat[VIZ_CAT_SHARED_ST].units, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_doubles_in_shared_take_two_half_warp_wavefronts),
        cmocka_unit_test(test_float4_stride_two_in_shared_conflicts_inside_each_quarter),
        cmocka_unit_test(test_conflict_lanes_are_ranked_into_successive_wavefronts),
        cmocka_unit_test(test_float4_consecutive_global_load_touches_sixteen_sectors_in_four_lines),
        cmocka_unit_test(test_stride_two_load_uses_half_of_each_sector),
        cmocka_unit_test(test_uniform_local_access_is_interleaved_into_one_line),
        cmocka_unit_test(test_stores_mark_sectors_written),
        cmocka_unit_test(test_no_active_lane_is_no_request),
        cmocka_unit_test(test_totals_add_sectors_wavefronts_and_outcomes_by_category),
        cmocka_unit_test(test_recording_keeps_steps_source_lines_and_filters_by_warp),
        cmocka_unit_test(test_heat_colour_level_follows_waste_over_ideal_not_cost),
        cmocka_unit_test(test_a_load_run_by_one_lane_of_32_is_three_percent_of_lanes_on_its_line),
        cmocka_unit_test(test_atomics_have_their_own_totals_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
