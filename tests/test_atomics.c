/* test_atomics.c - the contention model (sim/models/atomics.h, the atomic sector rule of
 * sim/models/coalesce.h, the contention terms of sim/models/timing.h, sim/frontend/casloop.h) from first
 * principles: 32 lanes on one address are 32 serialised operations and 32 sectors; 32 lanes
 * on 32 consecutive words are 4 sectors of one pass each; N operations on one address cost
 * N x the same-address time (float adds their own); a slice range's sector-ops queue in its
 * unit, two ranges run side by side; shared atomics cost their bank wavefronts (one word: 1,
 * one bank: 32); a block costs the launch rate, a 32-warp block its warps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/device.h"
#include "../sim/models/atomics.h"
#include "../sim/frontend/casloop.h"
#include "../sim/models/coalesce.h"
#include "../sim/frontend/ptx.h"
#include "../sim/models/timing.h"

#define BASE 0x100000000ull

static ws_mem_event atomic_event(ws_space space, ws_mem_op op)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = space;
    ev.op = op;
    ev.width = 4;
    ev.elem_size = 4;
    ev.vec = 1;
    ev.active_mask = 0xFFFFFFFFu;
    return ev;
}

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.sm_count = 4;
    d.sm_clock_mhz = 1000;  /* 1 cycle = 1 ns */
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.subpartitions = 4;
    d.dram_efficiency = 0.89;
    d.l2_requests_per_cycle = 10;
    d.launch_overhead_us = 2;
    d.atom_sector_rule = WS_ATOM_SECTORS_PASS;
    d.atom_same_address_ns = 2;
    d.atom_same_address_float_ns = 5;
    d.atom_sector_pass_ns = 1;
    d.atom_slice_bytes = 512;
    d.atom_slices = 8;
    d.atom_operand_bytes_per_ns = 64;
    d.shared_atom_cycles_per_pass = 2;
    return d;
}

static void test_32_lanes_on_one_address_count_32_sectors_under_the_pass_and_lane_rules(void **state)
{
    (void)state;
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE;
    ws_coalesce_result co;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    assert_int_equal(co.sectors, 1);                 /* one distinct sector, as a load would count */
    assert_int_equal(co.entries[0].same_addr_max, 32);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_DISTINCT), 1);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_PASS), 32);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_LANE), 32);
}

static void test_consecutive_words_count_their_4_sectors_except_under_the_lane_rule(void **state)
{
    (void)state;
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_ATOMIC);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 4u * (uint64_t)l;
    ws_coalesce_result co;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_DISTINCT), 4);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_PASS), 4);   /* 8 words per sector, 1 pass */
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_LANE), 32);
    /* 4 words of one sector, 8 lanes on each: 8 passes in that sector */
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 4u * (uint64_t)(l % 4);
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    assert_int_equal(ws_coalesce_atom_sectors(&co, WS_ATOM_SECTORS_PASS), 8);
    /* a load is never counted by passes: same_addr_max stays 1 */
    ev.op = WS_MEM_LOAD;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    assert_int_equal(co.entries[0].same_addr_max, 1);
}

static void test_the_model_counts_ops_per_address_and_sector_ops_per_line_over_the_kernel(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_atomics *a = ws_atomics_new(&d);
    assert_non_null(a);
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE;
    ws_coalesce_result co;
    ws_atomic_result r;
    const int warps = 100;
    for (int w = 0; w < warps; w++) {
        assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
        assert_int_equal(ws_atomics_event(a, w % 4, &ev, &co, &r), 1);
        assert_int_equal(r.lane_ops, 32);
        assert_int_equal(r.sector_ops, 32);
        assert_int_equal(r.same_addr_max, 32);
    }
    const ws_atomic_totals *t = ws_atomics_totals(a);
    assert_int_equal(t->addresses, 1);
    assert_int_equal(t->addr_ops_max, 32 * warps);
    assert_int_equal(t->addr_max, BASE);
    assert_int_equal(t->slice_sector_ops_max, 32 * warps);
    assert_int_equal(t->slice_operand_bytes_max, 32 * 4 * warps);  /* 32 lanes x 4 B per RED */
    assert_int_equal(t->global_red_inst, warps);
    /* distinct words elsewhere: 4096 more addresses, each updated once */
    for (int w = 0; w < 128; w++) {
        for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 4096 + 128u * (uint64_t)w + 4u * (uint64_t)l;
        assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    }
    assert_int_equal(t->addresses, 1 + 4096);
    assert_int_equal(t->addr_ops_max, 32 * warps); /* the hot one is still the maximum */
    /* loads and stores are not the model's */
    ev.op = WS_MEM_STORE;
    assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 0);
    ws_atomics_free(a);
}

static void test_shared_atomics_cost_wavefronts_one_word_1_one_bank_32(void **state)
{
    (void)state;
    ws_mem_event ev = atomic_event(WS_SPACE_SHARED, WS_MEM_ATOMIC);
    for (int l = 0; l < 32; l++) ev.addr[l] = 4u * (uint64_t)(l % 32);  /* bins[lane % 32] */
    assert_int_equal(ws_atomics_shared_passes(&ev), 1);
    for (int l = 0; l < 32; l++) ev.addr[l] = 128u * (uint64_t)l;        /* bins[lane * 32]: bank 0 */
    assert_int_equal(ws_atomics_shared_passes(&ev), 32);
    for (int l = 0; l < 32; l++) ev.addr[l] = 64;                        /* one word: the lanes combine */
    assert_int_equal(ws_atomics_shared_passes(&ev), 1);
    for (int l = 0; l < 32; l++) ev.addr[l] = 4u * (uint64_t)(l % 8);   /* 8 bins in 8 banks */
    assert_int_equal(ws_atomics_shared_passes(&ev), 1);
    for (int l = 0; l < 32; l++) ev.addr[l] = 128u * (uint64_t)(l % 4); /* 4 words of bank 0 */
    assert_int_equal(ws_atomics_shared_passes(&ev), 4);
}

static void test_2_pow_22_ops_on_one_address_cost_2_pow_22_times_the_same_address_time(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_atomic_totals at;
    memset(&at, 0, sizeof at);
    const double n = 4194304.0;  /* 2^22 threads, one add each, one counter */
    at.addr_ops_max = (uint64_t)n;
    at.slice_sector_ops_max = (uint64_t)n;   /* pass rule: one sector-op per lane */
    at.global_sector_ops = (uint64_t)n;
    ws_timing_input_add_atomics(&in, &at);
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    /* per address: n x 2 ns; per slice: n x 1 ns; whole L2: n / 8 ns */
    assert_true(t.t_atomics_us == n * 2 / 1000.0);
    assert_int_equal(t.bound, WS_BOUND_ATOMICS);
    assert_true(t.t_kernel_us == d.launch_overhead_us + n * 2 / 1000.0);
    assert_string_equal(ws_bound_name(t.bound), "atomics (same-address contention)");
    assert_string_equal(ws_bound_class(t.bound), "atomics");
    /* a cheaper same-address op: the slice's unit sets the term */
    d.atom_same_address_ns = 0.5;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_atomics_us == n / 1000.0);
    /* spread over many ranges: the whole L2's units set it */
    at.addr_ops_max = 1;
    at.slice_sector_ops_max = 4;
    ws_timing_input_add_atomics(&in, &at);
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_atomics_us == n / 8 / 1000.0);
    /* float adds on one address: their own rate, 5 ns each */
    at.addr_float_ops_max = (uint64_t)n;
    ws_timing_input_add_atomics(&in, &at);
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_atomics_us == n * 5 / 1000.0);
}

/* The H200's measured figure (results/h200-contention.md): 2^22 integer REDs on one address
 * took 3071 us = 0.732 ns each; the profile must reproduce it to the microsecond. */
static void test_h200_2_pow_22_int_adds_on_one_address_take_3_07_ms_and_float_adds_7_37(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    assert_non_null(h);
    ws_device d = *h;
    ws_atomics *a = ws_atomics_new(&d);
    assert_non_null(a);
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE;
    ws_coalesce_result co;
    ws_atomic_result r;
    const int warps = 131072;           /* 2^22 threads */
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    for (int w = 0; w < warps; w++)
        assert_int_equal(ws_atomics_event(a, w % d.sm_count, &ev, &co, &r), 1);
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing_input_add_atomics(&in, ws_atomics_totals(a));
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(fabs(t.t_atomics_us - 4194304.0 * 0.732 / 1000.0) < 1e-6);   /* 3070.2 us */
    assert_true(fabs(t.t_atomics_us - 3071.14) / 3071.14 < 0.01);           /* the measurement */
    ws_atomics_free(a);
    /* the same as float adds: 1.756 ns each, 7366 us measured */
    a = ws_atomics_new(&d);
    assert_non_null(a);
    ev.atom_float = 1;
    for (int w = 0; w < warps; w++)
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    assert_int_equal(ws_atomics_totals(a)->addr_ops_max, 0);
    assert_int_equal(ws_atomics_totals(a)->addr_float_ops_max, 4194304);
    ws_timing_input_add_atomics(&in, ws_atomics_totals(a));
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(fabs(t.t_atomics_us - 7366.05) / 7366.05 < 0.01);
    ws_atomics_free(a);
}

/* A slice range is atom_slice_bytes of contiguous addresses: 256 B of bins is one range (their
 * sector-ops add up), 1 KB is two (they run side by side). 32 lanes on 32 words of one sector
 * apart by 32 B: 32 sectors, one pass each. */
static void test_sector_ops_add_up_within_a_slice_range_and_split_across_two(void **state)
{
    (void)state;
    ws_device d = dev();                /* 512-B ranges, 1 ns per sector-op */
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    ws_coalesce_result co;
    ws_atomic_result r;
    /* 32 lanes, lane l on byte 8 * l of 256 B: 8 sectors x 4 words, one pass each */
    ws_atomics *a = ws_atomics_new(&d);
    assert_non_null(a);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 8u * (uint64_t)l;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    for (int w = 0; w < 1000; w++)
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    assert_int_equal(r.sector_ops, 8);
    assert_int_equal(ws_atomics_totals(a)->slice_sector_ops_max, 8 * 1000);   /* one range */
    ws_atomics_free(a);
    /* lane l on byte 32 * l of 1 KB: 32 sectors, 16 in each of two ranges */
    a = ws_atomics_new(&d);
    assert_non_null(a);
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 32u * (uint64_t)l;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    for (int w = 0; w < 1000; w++)
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    const ws_atomic_totals *t = ws_atomics_totals(a);
    assert_int_equal(r.sector_ops, 32);
    assert_int_equal(t->global_sector_ops, 32 * 1000);
    assert_int_equal(t->slice_sector_ops_max, 16 * 1000);
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing_input_add_atomics(&in, t);
    ws_timing tm;
    assert_int_equal(ws_timing_predict(&d, &in, &tm), 0);
    /* 16000 sector-ops at 1 ns in the busier range; the whole L2: 32000 / 8 units = 4000 ns */
    assert_true(tm.t_atomics_us == 16.0);
    ws_atomics_free(a);
}

/* The in-flight window: with units(R) = min(8, 1 + log2 R), 4 warps in flight together, and 8
 * warps each putting 32 lanes on one word (32 sector-ops, 1 ns each), the ops a window's warps
 * send into R distinct 512-B ranges take ops / units(R). Words 4 B apart, the first window in one
 * range, the second in another: 128 / 1 + 128 / 1 = 256 ns, though the busiest range has 128 and
 * the whole L2 256 / 8 = 32. Words 512 B apart: R = 4 per window, units 3: 2 x 128 / 3. The same
 * addresses with all 8 warps in one window: R = 8, units 4: 256 / 4 = 64 ns (the per-address
 * term's 32 x 2 ns too). Ranges that all of a window's warps visit are busy at once (balls in
 * bins over the slices). A profile without the law: the busiest range or address. */
static double window_case(ws_device *d, uint64_t window, uint64_t stride, uint64_t second)
{
    ws_atomics *a = ws_atomics_new(d);
    assert_non_null(a);
    ws_atomics_set_window(a, window);
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    ws_coalesce_result co;
    ws_atomic_result r;
    for (uint32_t w = 0; w < 8; w++) {
        ev.warp_global = w;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = BASE + stride * w + (w >= 4 ? second : 0);
        assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
        assert_int_equal(r.sector_ops, 32);
    }
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing_input_add_atomics(&in, ws_atomics_totals(a));
    ws_timing tm;
    assert_int_equal(ws_timing_predict(d, &in, &tm), 0);
    ws_atomics_free(a);
    return tm.t_atomics_us * 1000; /* ns */
}

static void test_atomics_of_the_warps_in_flight_share_the_units_their_ranges_reach(void **state)
{
    (void)state;
    ws_device d = dev();
    d.atom_window_units_base = 1;
    d.atom_window_units_per_doubling = 1;
    assert_true(fabs(window_case(&d, 4, 4, 1024) - 256) < 1e-9);
    assert_true(fabs(window_case(&d, 4, 512, 0) - 256.0 / 3) < 1e-9);
    assert_true(fabs(window_case(&d, 8, 512, 0) - 64) < 1e-9);
    /* 8 warps in one window, each lane of each on its own range (512 B apart), every warp on the
     * same 32 ranges: R = 32 (the log law: 6 units) but all 32 active throughout (A = 32 x 8 / 8):
     * 8 x (1 - e^-4) units for 256 sector-ops */
    ws_atomics *a = ws_atomics_new(&d);
    assert_non_null(a);
    ws_atomics_set_window(a, 8);
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    ws_coalesce_result co;
    ws_atomic_result r;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = BASE + 512u * (uint64_t)l;
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    for (uint32_t w = 0; w < 8; w++) {
        ev.warp_global = w;
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    }
    assert_true(fabs(ws_atomics_totals(a)->window_unit_ops - 256 / (8 * (1 - exp(-4.0)))) < 1e-9);
    ws_atomics_free(a);
    d.atom_window_units_base = d.atom_window_units_per_doubling = 0;
    assert_true(fabs(window_case(&d, 4, 4, 1024) - 128) < 1e-9); /* the busiest range's 128 */
    assert_true(fabs(window_case(&d, 4, 512, 0) - 64) < 1e-9);   /* per address 32 x 2 > 256 / 8 */
}

/* A slice takes operands at atom_operand_bytes_per_ns (here 64 B/ns): a 32-lane 8-byte RED on
 * 32 consecutive words of one range sends 256 B = 4 ns, more than its 8 passes at 0.1 ns. */
static void test_operand_bytes_bound_a_range_that_few_passes_would_not(void **state)
{
    (void)state;
    ws_device d = dev();
    d.atom_sector_pass_ns = 0.1;
    ws_mem_event ev = atomic_event(WS_SPACE_GLOBAL, WS_MEM_REDUCE);
    ev.width = 8;
    ev.elem_size = 8;
    for (int l = 0; l < 32; l++) ev.addr[l] = BASE + 8u * (uint64_t)l;  /* 256 B: 8 sectors */
    ws_coalesce_result co;
    ws_atomic_result r;
    ws_atomics *a = ws_atomics_new(&d);
    assert_non_null(a);
    assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
    for (int w = 0; w < 1000; w++)
        assert_int_equal(ws_atomics_event(a, 0, &ev, &co, &r), 1);
    assert_int_equal(ws_atomics_totals(a)->slice_operand_bytes_max, 256 * 1000);
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing_input_add_atomics(&in, ws_atomics_totals(a));
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    /* operands: 256000 B / 64 B/ns = 4000 ns; passes: 8000 x 0.1 = 800 ns; address: 1000 x 2 */
    assert_true(t.t_atomics_us == 4.0);
    ws_atomics_free(a);
}

static void test_shared_passes_and_block_launch_are_terms_of_their_own(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.shared_atom_passes_max = 1000;   /* x 2 cycles = 2 us */
    in.blocks_max = 500;
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_shared_atomics_us == 2.0);
    assert_true(t.t_block_launch_us == 0);          /* not calibrated: off */
    assert_int_equal(t.bound, WS_BOUND_SHARED_ATOMICS);
    d.block_launch_cycles = 10;                     /* 500 blocks x 10 cycles = 5 us */
    d.warp_launch_cycles = 0.5;
    in.warps_per_block = 8;                         /* 8 x 0.5 = 4 cycles < 10: the block rate */
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_block_launch_us == 5.0);
    assert_int_equal(t.bound, WS_BOUND_BLOCK_LAUNCH);
    assert_string_equal(ws_bound_class(t.bound), "launch");
    in.warps_per_block = 32;                        /* 32 x 0.5 = 16 cycles: the warps' */
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_block_launch_us == 8.0);
    d.block_launch_cycles = 0;                      /* not calibrated: off, warps or not */
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_block_launch_us == 0);
}

static void test_without_atomics_the_new_terms_change_nothing(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.dram_bytes = 1e6;
    in.l2_requests = 3e4;
    in.latency_cycles_per_warp_max = 777;
    ws_timing a, b;
    assert_int_equal(ws_timing_predict(&d, &in, &a), 0);
    ws_atomic_totals none;
    memset(&none, 0, sizeof none);
    ws_timing_input_add_atomics(&in, &none);
    d.atom_same_address_ns = 1000;      /* any constants: no atomics, no contention */
    d.shared_atom_cycles_per_pass = 1000;
    assert_int_equal(ws_timing_predict(&d, &in, &b), 0);
    assert_memory_equal(&a, &b, sizeof a);
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

static void test_a_cas_whose_result_decides_a_backward_branch_is_a_retry_loop(void **state)
{
    (void)state;
    /* pc 3: the CAS; 4: compare its result; 5: branch back on it */
    ptx_module *m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
                          "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
                          "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                          "  ld.global.u32 %r1, [%rd2];\n"
                          "$L_loop:\n  atom.global.cas.b32 %r2, [%rd2], %r1, 7;\n"
                          "  setp.ne.s32 %p1, %r2, %r1;\n  mov.u32 %r1, %r2;\n"
                          "  @%p1 bra $L_loop;\n  ret;\n}\n");
    int pcs[4];
    assert_int_equal(ws_cas_loops(&m->funcs[0], pcs, 4), 1);
    assert_int_equal(pcs[0], 3);
    ptx_free(m);
    /* the same CAS once, no loop; and a loop whose exit does not depend on the CAS */
    m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
              "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
              "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r3, 0;\n"
              "  atom.global.cas.b32 %r2, [%rd2], 0, 7;\n"
              "$L_loop:\n  atom.global.cas.b32 %r4, [%rd2], 0, 7;\n"
              "  add.s32 %r3, %r3, 1;\n  setp.lt.s32 %p1, %r3, 4;\n"
              "  @%p1 bra $L_loop;\n  ret;\n}\n");
    assert_int_equal(ws_cas_loops(&m->funcs[0], NULL, 0), 0);
    ptx_free(m);
}

/* A wait loop: an mbarrier.try_wait or a volatile load whose result decides the backward branch
 * (it spins until someone else gets there); a plain load in a counted loop is none. */
static void test_a_try_wait_or_polled_flag_deciding_a_backward_branch_is_a_wait_loop(void **state)
{
    (void)state;
    ptx_module *m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
                          "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
                          "  .shared .align 8 .b64 bar;\n"
                          "  mov.u32 %r1, bar;\n  mov.u64 %rd1, 0;\n"
                          "$L_wait:\n  mbarrier.try_wait.shared.b64 %p1, [%r1], %rd1;\n"
                          "  @!%p1 bra $L_wait;\n  ret;\n}\n");
    int pcs[4];
    assert_int_equal(ws_wait_loops(&m->funcs[0], pcs, 4), 1);
    assert_int_equal(pcs[0], 2);
    assert_int_equal(ws_cas_loops(&m->funcs[0], NULL, 0), 0);
    ptx_free(m);
    m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
              "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
              "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
              "$L_poll:\n  ld.volatile.global.u32 %r1, [%rd2];\n  setp.eq.s32 %p1, %r1, 0;\n"
              "  @%p1 bra $L_poll;\n  ret;\n}\n");
    assert_int_equal(ws_wait_loops(&m->funcs[0], pcs, 4), 1);
    assert_int_equal(pcs[0], 2);
    ptx_free(m);
    m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
              "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
              "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r3, 0;\n"
              "$L_loop:\n  ld.global.u32 %r1, [%rd2];\n  add.s32 %r3, %r3, %r1;\n"
              "  setp.lt.s32 %p1, %r3, 4;\n  @%p1 bra $L_loop;\n  ret;\n}\n");
    assert_int_equal(ws_wait_loops(&m->funcs[0], NULL, 0), 0); /* a plain load: the data, not a flag */
    ptx_free(m);
}

/* A wait loop's range is the path a retry runs: the backward branches its result decides whose bodies
 * only spin. The outer loop around it does the work (a load, a barrier) and is not part of it; the
 * try_wait may suspend the warp (the PTX ISA's "potentially blocking"), the test_wait and a polled
 * flag return at once. */
static void test_a_wait_loops_range_is_its_retry_path_not_the_outer_loop(void **state)
{
    (void)state;
    ptx_module *m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
                          "  .reg .pred %p<4>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
                          "  .shared .align 8 .b64 bar;\n"
                          "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"      /* 0, 1 */
                          "  mov.u32 %r1, bar;\n  mov.u32 %r3, 0;\n"                          /* 2, 3 */
                          "$L_outer:\n  ld.global.u32 %r4, [%rd2];\n  mov.u64 %rd3, 0;\n"      /* 4, 5 */
                          "$L_wait:\n  mbarrier.try_wait.shared.b64 %p1, [%r1], %rd3;\n"       /* 6 */
                          "  @%p1 bra $L_go;\n  nanosleep.u32 20;\n  bra.uni $L_wait;\n"       /* 7, 8, 9 */
                          "$L_go:\n  bar.sync 0;\n  add.s32 %r3, %r3, 1;\n"                    /* 10, 11 */
                          "  setp.lt.s32 %p2, %r3, 4;\n  @%p2 bra $L_outer;\n  ret;\n}\n");      /* 12, 13, 14 */
    int pcs[4], lo[4], hi[4];
    assert_int_equal(ws_wait_loop_ranges(&m->funcs[0], pcs, lo, hi, 4), 1);
    assert_int_equal(pcs[0], 6);
    assert_int_equal(lo[0], 6);   /* the retry: try_wait, the branch, the sleep, back */
    assert_int_equal(hi[0], 9);
    assert_true(ws_wait_blocks(&m->funcs[0].insns[6]));
    ptx_free(m);
    m = parse(HEADER ".visible .entry k(.param .u64 p)\n{\n"
              "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
              "  .shared .align 8 .b64 bar;\n"
              "  mov.u32 %r1, bar;\n  mov.u64 %rd1, 0;\n"
              "$L_wait:\n  mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n"
              "  @!%p1 bra $L_wait;\n  ret;\n}\n");
    assert_int_equal(ws_wait_loop_ranges(&m->funcs[0], pcs, lo, hi, 4), 1);
    assert_int_equal(lo[0], 2);
    assert_int_equal(hi[0], 3);
    assert_false(ws_wait_blocks(&m->funcs[0].insns[2])); /* test_wait returns at once: the warp spins */
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_32_lanes_on_one_address_count_32_sectors_under_the_pass_and_lane_rules),
        cmocka_unit_test(test_consecutive_words_count_their_4_sectors_except_under_the_lane_rule),
        cmocka_unit_test(test_the_model_counts_ops_per_address_and_sector_ops_per_line_over_the_kernel),
        cmocka_unit_test(test_shared_atomics_cost_wavefronts_one_word_1_one_bank_32),
        cmocka_unit_test(test_2_pow_22_ops_on_one_address_cost_2_pow_22_times_the_same_address_time),
        cmocka_unit_test(test_h200_2_pow_22_int_adds_on_one_address_take_3_07_ms_and_float_adds_7_37),
        cmocka_unit_test(test_sector_ops_add_up_within_a_slice_range_and_split_across_two),
        cmocka_unit_test(test_operand_bytes_bound_a_range_that_few_passes_would_not),
        cmocka_unit_test(test_shared_passes_and_block_launch_are_terms_of_their_own),
        cmocka_unit_test(test_without_atomics_the_new_terms_change_nothing),
        cmocka_unit_test(test_atomics_of_the_warps_in_flight_share_the_units_their_ranges_reach),
        cmocka_unit_test(test_a_cas_whose_result_decides_a_backward_branch_is_a_retry_loop),
        cmocka_unit_test(test_a_try_wait_or_polled_flag_deciding_a_backward_branch_is_a_wait_loop),
        cmocka_unit_test(test_a_wait_loops_range_is_its_retry_path_not_the_outer_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
