/* test_banks.c - the shared-memory bank model: closed forms derived here from
 * bank = (address/4) mod 32 and the lane groups of gpu-memory-rules.md §3.2, plus
 * every measured LDS/STS row of its Appendix C (H200, sm_90, ncu 2025.3.1). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../sim/models/banks.h"

static ws_mem_event shared_event(ws_mem_op op, int width, uint32_t mask)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_SHARED;
    ev.op = op;
    ev.width = (uint8_t)width;
    ev.active_mask = mask;
    return ev;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

static ws_bank_result run(const ws_mem_event *ev)
{
    ws_bank_result r;
    assert_int_equal(ws_banks(ev, &r), 0);
    return r;
}

static void test_float_stride_s_costs_gcd_of_s_and_32_wavefronts(void **state)
{
    (void)state;
    for (int s = 1; s <= 64; s++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 4u * (uint64_t)(s * l);
        ws_bank_result r = run(&ev);
        /* lanes l and l' share a bank iff s(l-l') = 0 mod 32: gcd(s,32) lanes per bank */
        int want = gcd(s, 32);
        assert_int_equal(r.wavefronts, want);
        assert_int_equal(r.ncu_conflicts, want - 1);
        assert_int_equal(r.ideal, 1);          /* 32 distinct words = 128 B */
        assert_int_equal(r.excess, want - 1);
        assert_int_equal(r.degree, want);
    }
}

static void test_padded_tile_column_read_is_one_wavefront(void **state)
{
    (void)state;
    /* __shared__ float tile[32][33]; lane l reads tile[l][c]: word 33l + c, bank (l + c) % 32 */
    for (int c = 0; c < 32; c++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 4u * (uint64_t)(33 * l + c);
        assert_int_equal(run(&ev).wavefronts, 1);
    }
}

static void test_unpadded_tile_column_read_is_32_wavefronts(void **state)
{
    (void)state;
    /* tile[32][32]: word 32l + c, every lane in bank c */
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = 4u * (uint64_t)(32 * l + 5);
    ws_bank_result r = run(&ev);
    assert_int_equal(r.wavefronts, 32);
    assert_int_equal(r.conflict_banks, 1u << 5);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(r.lane_bank[l], 5);
        assert_int_equal(r.lane_wavefront[l], l); /* words served in address order */
    }
}

static void test_broadcast_and_multicast_merge_identical_words(void **state)
{
    (void)state;
    for (int k = 1; k <= 32; k *= 2) {
        /* k distinct words, each read by 32/k lanes: in distinct banks -> 1 wavefront */
        ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 4u * (uint64_t)(l % k);
        assert_int_equal(run(&ev).wavefronts, 1);
        /* the same k words all in bank 0 (128 B apart) -> k wavefronts */
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 128u * (uint64_t)(l % k);
        ws_bank_result r = run(&ev);
        assert_int_equal(r.wavefronts, k);
        assert_int_equal(r.distinct_words, k);
    }
}

static void test_sub_word_accesses_are_word_granular(void **state)
{
    (void)state;
    for (int w = 1; w <= 2; w++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, w, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = (uint64_t)(w * l); /* 32w bytes: w*8 words, all in distinct banks */
        assert_int_equal(run(&ev).wavefronts, 1);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 128u * (uint64_t)l; /* different words of bank 0 */
        assert_int_equal(run(&ev).wavefronts, 32);
    }
}

static void test_64_bit_stride_s_splits_into_half_warps(void **state)
{
    (void)state;
    for (int s = 1; s <= 32; s++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, 8, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 8u * (uint64_t)(s * l);
        ws_bank_result r = run(&ev);
        /* no lane shares its address with l^1 or l^2: two half-warp groups; within a
         * half, lane l covers banks 2sl, 2sl+1 mod 32: gcd(s,16) lanes per bank pair */
        assert_int_equal(r.pair_mode, 0);
        assert_int_equal(r.ngroups, 2);
        assert_int_equal(r.wavefronts, 2 * gcd(s, 16));
        assert_int_equal(r.ncu_conflicts, r.wavefronts - 2);
        assert_int_equal(r.ideal, 2); /* 64 distinct words */
    }
}

static void test_128_bit_stride_s_splits_into_quarter_warps(void **state)
{
    (void)state;
    for (int s = 1; s <= 32; s++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, 16, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 16u * (uint64_t)(s * l);
        ws_bank_result r = run(&ev);
        /* quarters of 8 lanes; lane l covers banks 4sl..4sl+3: gcd(s,8) lanes per bank quad */
        assert_int_equal(r.ngroups, 4);
        assert_int_equal(r.wavefronts, 4 * gcd(s, 8));
        assert_int_equal(r.ncu_conflicts, r.wavefronts - 4);
        assert_int_equal(r.ideal, 4);
        assert_int_equal(r.excess, r.wavefronts - 4);
    }
}

static void test_pairing_merges_64_bit_groups_into_the_whole_warp(void **state)
{
    (void)state;
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 8, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = 8u * (uint64_t)(l / 2); /* Tn == Tn^1: 16 doubles = 32 words */
    ws_bank_result r = run(&ev);
    assert_int_equal(r.pair_mode, 1);
    assert_int_equal(r.ngroups, 1);
    assert_int_equal(r.wavefronts, 1);
    /* without pairing the same 128 B would cost one wavefront per half-warp */
    for (int l = 0; l < 32; l++)
        ev.addr[l] = 8u * (uint64_t)(l % 16);
    r = run(&ev);
    assert_int_equal(r.pair_mode, 0);
    assert_int_equal(r.wavefronts, 2);
    assert_int_equal(r.ncu_conflicts, 0); /* ncu: 2 groups, 2 wavefronts: no conflict */
    assert_int_equal(r.excess, 1);        /* but 128 B needed only one wavefront */
}

static void test_float4_broadcast_is_two_wavefronts_zero_ncu_conflicts_one_excess(void **state)
{
    (void)state;
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 16, 0xFFFFFFFFu);
    ws_bank_result r = run(&ev); /* all lanes address 0: pair mode, two half-warps */
    assert_int_equal(r.pair_mode, 1);
    assert_int_equal(r.wavefronts, 2);
    assert_int_equal(r.ncu_conflicts, 0);
    assert_int_equal(r.ideal, 1);
    assert_int_equal(r.excess, 1);
}

static void test_per_lane_wavefront_and_conflicting_banks_for_float_stride_2(void **state)
{
    (void)state;
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = 8u * (uint64_t)l; /* word 2l, bank 2l mod 32: lanes l and l+16 collide */
    ws_bank_result r = run(&ev);
    assert_int_equal(r.wavefronts, 2);
    assert_int_equal(r.conflict_banks, 0x55555555u);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(r.lane_bank[l], (2 * l) % 32);
        assert_int_equal(r.lane_group[l], 0);
        assert_int_equal(r.lane_wavefront[l], l < 16 ? 0 : 1);
    }
}

static void test_shared_atomics_follow_the_load_bank_rule(void **state)
{
    (void)state;
    ws_mem_event ld = shared_event(WS_MEM_LOAD, 4, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ld.addr[l] = 4u * (uint64_t)(4 * l);
    ws_mem_event at = ld;
    at.op = WS_MEM_ATOMIC;
    assert_int_equal(run(&at).wavefronts, run(&ld).wavefronts);
    assert_int_equal(run(&at).wavefronts, gcd(4, 32));
}

static void test_inactive_warp_costs_nothing_and_other_spaces_are_rejected(void **state)
{
    (void)state;
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 4, 0);
    ws_bank_result r = run(&ev);
    assert_int_equal(r.wavefronts, 0);
    assert_int_equal(r.ideal, 0);
    assert_int_equal(r.active_groups, 0);
    assert_int_equal(r.lane_wavefront[0], -1);
    ev.space = WS_SPACE_GLOBAL;
    assert_int_equal(ws_banks(&ev, &r), -1);
}

/* ---- Appendix C: measured on the H200 (one warp, one LDS/STS) --------------------- */

typedef enum {
    P_CONSEC, P_STRIDE2, P_STRIDE3, P_STRIDE4, P_STRIDE8, P_STRIDE16, P_STRIDE32, P_STRIDE33, P_STRIDE128,
    P_SAME, P_PAIRS_BANK0, P_TWO_WORDS_BANK0, P_PERMUTE, P_HALVES_SWAPPED, P_INTERLEAVED_HALVES,
    P_EVEN_ODD_PER_HALF, P_PAIRS, P_MOD4, P_XOR2_SHARE, P_QUARTERS_SWAPPED, P_QUARTER_INTERLEAVED,
    P_MOD16, P_PAIRS_HALVES_SAME_BANKS, P_LANES0_7_16_23_DISTINCT, P_LANES0_7_16_23_CONFLICT,
    P_MOD8, P_DIV8, P_NEIGHBOUR_SWAP, P_HALF, P_T1_EQ_T0, P_QUADS
} pattern;

/* Element index (in units of the access width) lane l reads, except P_STRIDE128 (bytes). */
static uint64_t element(pattern p, int l)
{
    switch (p) {
    case P_CONSEC: return (uint64_t)l;
    case P_STRIDE2: return 2u * (uint64_t)l;
    case P_STRIDE3: return 3u * (uint64_t)l;
    case P_STRIDE4: return 4u * (uint64_t)l;
    case P_STRIDE8: return 8u * (uint64_t)l;
    case P_STRIDE16: return 16u * (uint64_t)l;
    case P_STRIDE32: return 32u * (uint64_t)l;
    case P_STRIDE33: return 33u * (uint64_t)l;
    case P_STRIDE128: return 128u * (uint64_t)l;
    case P_SAME: return 0;
    case P_PAIRS_BANK0: return 32u * (uint64_t)(l / 2);          /* 16 words of bank 0, pairs share */
    case P_TWO_WORDS_BANK0: return l < 16 ? 0 : 32;               /* multicast of 2 words, same bank */
    case P_PERMUTE: return (uint64_t)((l * 7) % 32);
    case P_HALVES_SWAPPED: return (uint64_t)(l ^ 16);
    case P_INTERLEAVED_HALVES: return (uint64_t)((l % 2) * 16 + l / 2);
    case P_EVEN_ODD_PER_HALF: return (uint64_t)(2 * (l % 16) + l / 16);
    case P_PAIRS: return (uint64_t)(l / 2);
    case P_MOD4: return (uint64_t)(l % 4);
    case P_XOR2_SHARE: return (uint64_t)((l / 4) * 2 + l % 2); /* Tn == Tn^2 */
    case P_QUARTERS_SWAPPED: return (uint64_t)(l ^ 8);
    case P_QUARTER_INTERLEAVED: return (uint64_t)((l % 4) * 8 + l / 4);
    case P_MOD16: return (uint64_t)(l % 16);
    case P_PAIRS_HALVES_SAME_BANKS: return (uint64_t)(l / 2 + (l >= 16 ? 8 : 0));
    case P_LANES0_7_16_23_DISTINCT: return (uint64_t)(l < 16 ? l : l - 8);
    case P_LANES0_7_16_23_CONFLICT: return (uint64_t)l;
    case P_MOD8: return (uint64_t)(l % 8);
    case P_DIV8: return (uint64_t)(l / 8);
    case P_NEIGHBOUR_SWAP: return (uint64_t)(l ^ 1);
    case P_HALF: return (uint64_t)(l / 2);
    case P_T1_EQ_T0: return l == 1 ? 0 : (uint64_t)l;
    case P_QUADS: return (uint64_t)(l / 4);
    }
    return 0;
}

typedef struct {
    ws_mem_op op;
    const char *test;      /* Appendix C name */
    int width;
    pattern p;
    uint32_t mask;
    int wavefronts, conflicts; /* measured: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*,
                                  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_* */
} appc_row;

#define ALL 0xFFFFFFFFu
static const appc_row appendix_c[] = {
    {WS_MEM_LOAD, "consecutive", 4, P_CONSEC, ALL, 1, 0},
    {WS_MEM_LOAD, "stride2", 4, P_STRIDE2, ALL, 2, 1},
    {WS_MEM_LOAD, "stride3", 4, P_STRIDE3, ALL, 1, 0},
    {WS_MEM_LOAD, "stride4", 4, P_STRIDE4, ALL, 4, 3},
    {WS_MEM_LOAD, "stride8", 4, P_STRIDE8, ALL, 8, 7},
    {WS_MEM_LOAD, "stride16", 4, P_STRIDE16, ALL, 16, 15},
    {WS_MEM_LOAD, "stride32", 4, P_STRIDE32, ALL, 32, 31},
    {WS_MEM_LOAD, "stride33", 4, P_STRIDE33, ALL, 1, 0},
    {WS_MEM_LOAD, "broadcast", 4, P_SAME, ALL, 1, 0},
    {WS_MEM_LOAD, "16 distinct words same bank, pairs share", 4, P_PAIRS_BANK0, ALL, 16, 15},
    {WS_MEM_LOAD, "2 distinct words same bank (multicast)", 4, P_TWO_WORDS_BANK0, ALL, 2, 1},
    {WS_MEM_LOAD, "permutation within 128B", 4, P_PERMUTE, ALL, 1, 0},
    {WS_MEM_LOAD, "consecutive-16-active", 4, P_CONSEC, 0x0000FFFFu, 1, 0},
    {WS_MEM_LOAD, "consecutive size=1", 1, P_CONSEC, ALL, 1, 0},
    {WS_MEM_LOAD, "stride4(=1 per bank) size=1", 1, P_STRIDE4, ALL, 1, 0},
    {WS_MEM_LOAD, "stride128(same bank diff words) size=1", 1, P_STRIDE128, ALL, 32, 31},
    {WS_MEM_LOAD, "consecutive size=2", 2, P_CONSEC, ALL, 1, 0},
    {WS_MEM_LOAD, "stride2 size=2", 2, P_STRIDE2, ALL, 1, 0},
    {WS_MEM_LOAD, "consecutive size=8", 8, P_CONSEC, ALL, 2, 0},
    {WS_MEM_LOAD, "stride2(16B apart) size=8", 8, P_STRIDE2, ALL, 4, 2},
    {WS_MEM_LOAD, "stride16(128B apart) size=8", 8, P_STRIDE16, ALL, 32, 30},
    {WS_MEM_LOAD, "broadcast size=8", 8, P_SAME, ALL, 1, 0},
    {WS_MEM_LOAD, "consecutive-16-active size=8", 8, P_CONSEC, 0x0000FFFFu, 1, 0},
    {WS_MEM_LOAD, "halves swapped size=8", 8, P_HALVES_SWAPPED, ALL, 2, 0},
    {WS_MEM_LOAD, "interleaved halves size=8", 8, P_INTERLEAVED_HALVES, ALL, 4, 2},
    {WS_MEM_LOAD, "even/odd per half-warp size=8", 8, P_EVEN_ODD_PER_HALF, ALL, 4, 2},
    {WS_MEM_LOAD, "pairs share address size=8", 8, P_PAIRS, ALL, 1, 0},
    {WS_MEM_LOAD, "consecutive size=16", 16, P_CONSEC, ALL, 4, 0},
    {WS_MEM_LOAD, "stride2(32B apart) size=16", 16, P_STRIDE2, ALL, 8, 4},
    {WS_MEM_LOAD, "stride8(128B apart) size=16", 16, P_STRIDE8, ALL, 32, 28},
    {WS_MEM_LOAD, "broadcast size=16", 16, P_SAME, ALL, 2, 0},
    {WS_MEM_LOAD, "tid%4 (forum 77228) size=16", 16, P_MOD4, ALL, 4, 0},
    {WS_MEM_LOAD, "pairs share address (Tn==Tn^1) size=16", 16, P_PAIRS, ALL, 2, 0},
    {WS_MEM_LOAD, "Tn==Tn^2 size=16", 16, P_XOR2_SHARE, ALL, 2, 0},
    {WS_MEM_LOAD, "quarters swapped size=16", 16, P_QUARTERS_SWAPPED, ALL, 4, 0},
    {WS_MEM_LOAD, "quarter-interleaved size=16", 16, P_QUARTER_INTERLEAVED, ALL, 16, 12},
    {WS_MEM_LOAD, "consecutive-8-active size=16", 16, P_CONSEC, 0x000000FFu, 1, 0},
    {WS_MEM_LOAD, "4 active lanes (0,8,16,24) consecutive elems size=16", 16, P_CONSEC, 0x01010101u, 4, 2},
    {WS_MEM_STORE, "STS consecutive size=4", 4, P_CONSEC, ALL, 1, 0},
    {WS_MEM_STORE, "STS stride2 size=4", 4, P_STRIDE2, ALL, 2, 1},
    {WS_MEM_STORE, "STS stride32 size=4", 4, P_STRIDE32, ALL, 32, 31},
    {WS_MEM_STORE, "STS all-lanes-same-address size=4", 4, P_SAME, ALL, 1, 0},
    {WS_MEM_STORE, "STS consecutive size=1", 1, P_CONSEC, ALL, 1, 0},
    {WS_MEM_STORE, "STS consecutive size=2", 2, P_CONSEC, ALL, 1, 0},
    {WS_MEM_STORE, "STS consecutive size=8", 8, P_CONSEC, ALL, 2, 0},
    {WS_MEM_STORE, "STS stride2 size=8", 8, P_STRIDE2, ALL, 4, 2},
    {WS_MEM_STORE, "STS interleaved halves size=8", 8, P_INTERLEAVED_HALVES, ALL, 4, 2},
    {WS_MEM_STORE, "STS consecutive size=16", 16, P_CONSEC, ALL, 4, 0},
    {WS_MEM_STORE, "STS stride2 size=16", 16, P_STRIDE2, ALL, 8, 4},
    {WS_MEM_STORE, "STS quarter-interleaved size=16", 16, P_QUARTER_INTERLEAVED, ALL, 16, 12},
    {WS_MEM_LOAD, "single lane size=4", 4, P_CONSEC, 0x00000001u, 1, 0},
    {WS_MEM_LOAD, "halves identical size=8", 8, P_MOD16, ALL, 2, 0},
    {WS_MEM_LOAD, "pairs; halves hit same banks size=8", 8, P_PAIRS_HALVES_SAME_BANKS, ALL, 2, 1},
    {WS_MEM_LOAD, "lanes 0-7 + 16-23 -> 128B distinct banks size=8", 8, P_LANES0_7_16_23_DISTINCT, 0x00FF00FFu, 2, 0},
    {WS_MEM_LOAD, "lanes 0-7 + 16-23 -> banks conflict across halves size=8", 8, P_LANES0_7_16_23_CONFLICT, 0x00FF00FFu, 2, 0},
    {WS_MEM_LOAD, "all quarters same 128B size=16", 16, P_MOD8, ALL, 4, 0},
    {WS_MEM_LOAD, "halves identical size=16", 16, P_MOD16, ALL, 4, 0},
    {WS_MEM_LOAD, "lanes 0-3 only size=16", 16, P_CONSEC, 0x0000000Fu, 1, 0},
    {WS_MEM_LOAD, "lanes 0,16 only size=16", 16, P_CONSEC, 0x00010001u, 2, 0},
    {WS_MEM_LOAD, "lanes 0,8 only size=16", 16, P_CONSEC, 0x00000101u, 2, 1},
    {WS_MEM_LOAD, "lanes 0,8,16,24 -> elems 0..3 size=16", 16, P_DIV8, 0x01010101u, 2, 0},
    {WS_MEM_LOAD, "neighbour swap (no sharing) size=16", 16, P_NEIGHBOUR_SWAP, ALL, 4, 0},
    {WS_MEM_LOAD, "even lanes only, consecutive doubles 0..15 size=8", 8, P_HALF, 0x55555555u, 1, 0},
    {WS_MEM_LOAD, "even lanes only, doubles 0,2,..30 size=8", 8, P_CONSEC, 0x55555555u, 2, 1},
    {WS_MEM_LOAD, "T1==T0 only size=8", 8, P_T1_EQ_T0, ALL, 2, 0},
    {WS_MEM_LOAD, "Tn==Tn^2 size=8", 8, P_XOR2_SHARE, ALL, 1, 0},
    {WS_MEM_LOAD, "even lanes only, consecutive float4 0..15 size=16", 16, P_HALF, 0x55555555u, 2, 0},
    {WS_MEM_LOAD, "Tn==Tn^1==Tn^2 (quads share) size=16", 16, P_QUADS, ALL, 2, 0},
};

static void test_every_measured_appendix_c_row_is_reproduced(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof appendix_c / sizeof appendix_c[0]; i++) {
        const appc_row *row = &appendix_c[i];
        ws_mem_event ev = shared_event(row->op, row->width, row->mask);
        for (int l = 0; l < 32; l++) {
            uint64_t e = element(row->p, l);
            ev.addr[l] = (row->mask >> l & 1) ? (row->p == P_STRIDE128 ? e : e * (uint64_t)row->width) : 0;
        }
        ws_bank_result r = run(&ev);
        if (r.wavefronts != row->wavefronts || r.ncu_conflicts != row->conflicts) {
            print_error("%s %s: wavefronts %d conflicts %d, measured %d %d\n", row->op == WS_MEM_LOAD ? "LDS" : "STS",
                        row->test, r.wavefronts, r.ncu_conflicts, row->wavefronts, row->conflicts);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* ---- ldmatrix / stmatrix: one phase per 8x8 matrix ------------------------------------------ *
 * Lane l gives row l % 8 of matrix l / 8 (an .x4 A-operand load of 32 rows at k, as CUTLASS
 * addresses it: lane l -> tile row l, column 0). A row is 16 bytes, i.e. one of the 8 16-byte
 * bank groups of the 128 bytes of banks; a phase costs the most rows any group holds. */

typedef int (*row_address)(int row);   /* byte offset of tile row `row`'s first 16 bytes */

static ws_mem_event ldsm_event(row_address f)
{
    ws_mem_event ev = shared_event(WS_MEM_LOAD, 16, 0xffffffffu);
    ev.kind = WS_KIND_LDSM;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = (uint64_t)f(l);
    return ev;
}

/* The cost from first principles: per phase, the largest number of its 8 rows in one group. */
static int groups_cost(const ws_mem_event *ev)
{
    int total = 0;
    for (int p = 0; p < 4; p++) {
        int n[8] = {0}, most = 0;
        for (int l = 8 * p; l < 8 * p + 8; l++)
            if (++n[ev->addr[l] / 16 % 8] > most)
                most = n[ev->addr[l] / 16 % 8];
        total += most;
    }
    return total;
}

static int unpadded(int r) { return r * 128; }                       /* 64 halves per row */
static int padded(int r) { return r * 144; }                         /* + 8 halves */
static int xor_swizzled(int r) { return r * 128 + ((0 ^ (r % 8)) * 16); } /* chunk 0 of row r at chunk r % 8 */
/* CUTLASS Swizzle<B, 4, 3> on byte offsets (= Swizzle<B, 3, 3> on half indices): bits 4.. of
   the offset (the chunk) get bits 7.. (the row of a 128-byte-row tile) XORed in. */
static int cute_swizzle(int off, int b) { return off ^ ((off >> 3) & (((1 << b) - 1) << 4)); }
static int cute_b1(int r) { return cute_swizzle(r * 128, 1); }
static int cute_b2(int r) { return cute_swizzle(r * 128, 2); }
static int cute_b3(int r) { return cute_swizzle(r * 128, 3); }

static void test_ldmatrix_phases_cost_the_bank_groups_their_rows_share(void **state)
{
    (void)state;
    const struct { row_address f; int want; } cases[] = {
        {unpadded, 4 * 8},      /* 128-byte rows: all 8 rows of a phase in group 0 */
        {padded, 4 * 1},        /* 144-byte rows: group 9r % 8 = r */
        {xor_swizzled, 4 * 1},  /* chunk r % 8: every group once */
        {cute_b1, 4 * 4},       /* 1 row bit in: 2 groups, 4 rows each */
        {cute_b2, 4 * 2},       /* 2 row bits: 4 groups, 2 rows each */
        {cute_b3, 4 * 1},       /* 3 row bits = the XOR swizzle */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ws_mem_event ev = ldsm_event(cases[i].f);
        ws_bank_result r;
        assert_int_equal(ws_banks_ldsm(&ev, &r), 0);
        assert_int_equal(groups_cost(&ev), cases[i].want);
        assert_int_equal(r.wavefronts, cases[i].want);
        assert_int_equal(r.ngroups, 4);
        assert_int_equal(r.ideal, 4);                       /* 512 bytes: 4 wavefronts of 128 */
        assert_int_equal(r.ncu_conflicts, cases[i].want - 4);
    }
    /* rows given twice are read once: phase 0 all on row 0 costs 1, the others 8 each */
    ws_mem_event ev = ldsm_event(unpadded);
    for (int l = 0; l < 8; l++) ev.addr[l] = 0;
    ws_bank_result r;
    assert_int_equal(ws_banks_ldsm(&ev, &r), 0);
    assert_int_equal(groups_cost(&ev) - 7, 1 + 3 * 8);     /* groups_cost counts rows, not distinct rows */
    assert_int_equal(r.wavefronts, 1 + 3 * 8);
    /* .x1: only lanes 0-7 give addresses: one phase */
    ev = ldsm_event(unpadded);
    ev.active_mask = 0xff;
    assert_int_equal(ws_banks_ldsm(&ev, &r), 0);
    assert_int_equal(r.wavefronts, 8);
    assert_int_equal(r.active_groups, 1);
    /* not a 16-byte shared event: refused */
    ev.width = 8;
    assert_int_equal(ws_banks_ldsm(&ev, &r), -1);
}

/* An LDGSTS shared-write event as the interpreter makes it: lane l (active in mask) copies size
 * bytes from global goff(l) to shared soff(l); its source line is goff / 128, numbered by first
 * appearance in lane order, its sector goff / 32 % 4; a lane outside copying reads nothing (a
 * zero-filling lane, line 0xff) when zf is set. */
typedef int (*lane_fn)(int l);
static ws_mem_event ldgsts_event(int size, int cg, uint32_t mask, lane_fn goff, lane_fn soff, int zf, uint32_t copying)
{
    ws_mem_event ev = shared_event(WS_MEM_STORE, size, mask);
    ev.kind = WS_KIND_LDGSTS;
    ev.cache = cg ? WS_CACHE_CG : WS_CACHE_CA;
    ev.zfill_copy_mask = zf ? copying & mask : 0;
    memset(ev.gline, 0xff, sizeof ev.gline);
    uint64_t lines[32];
    int nl = 0;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        ev.addr[l] = (uint64_t)soff(l);
        if (zf && !(copying >> l & 1)) continue;
        uint64_t g = (uint64_t)goff(l) / 128;
        int k = 0;
        while (k < nl && lines[k] != g) k++;
        if (k == nl) lines[nl++] = g;
        ev.gline[l] = (uint8_t)k;
        ev.gsector[l] = (uint8_t)(goff(l) / 32 % 4);
    }
    return ev;
}

static int g_contig16(int l) { return l * 16; }
static int s_contig16(int l) { return l * 16; }
static int s_stride128(int l) { return l * 128; }
static int g_contig4(int l) { return l * 4; }
static int g_contig8(int l) { return l * 8; }
static int s_swizzled(int l) { return l / 8 * 128 + ((l % 8) ^ (l / 8)) * 16; }   /* chunk ^ row */
static int s_rotated(int l) { return l / 8 * 128 + (l % 8 + l / 8) % 8 * 16; }     /* (chunk + row) % 8 */
static int s_off16(int l) { return 16 + l * 16; }
static int g_rows64(int l) { return l / 4 * 512 + l % 4 * 16; }                   /* 8 rows of 64 B */
static int s_rows80(int l) { return l / 4 * 80 + l % 4 * 16; }                    /* padded by 16 B */

/* The rule derived by hand (banks.h ws_banks_ldgsts; docs/sass.md "LDGSTS"). A 16-byte .cg copy:
 * each phase (8 lanes) and global line a group; a global sector's two lanes write one or two
 * 32-byte shared blocks, its i-th block (in address order) in pass i; a pass costs one wavefront
 * per 128-byte shared row it touches; a sector is requested once per block (ldgsts sectors), and
 * the l1tex op_ld row counts each line's distinct blocks. */
static void test_ldgsts_cg_wavefronts_and_sectors_follow_shared_blocks_and_rows(void **state)
{
    (void)state;
    static const struct { const char *what; lane_fn g, s; int cg, wf, resect, ldextra, conflicts; } c[] = {
        /* 32 consecutive 16-B chunks, 4 lines, into rows chunk ^ row: the xor keeps a sector's two
           chunks in one 32-B block (it flips bit 0 within it and moves the pair as a whole), so each
           phase is one line, one pass, one row: 4 wavefronts, no sector requested twice */
        {"swizzled tile", g_contig16, s_swizzled, 1, 4, 0, 0, 0},
        /* rows rotated by their row number r: r odd puts every sector's chunks 2k+r, 2k+1+r in two
           blocks (pass 0 and pass 1, one row each): 1 + 2 + 1 + 2 = 6; 2 rows x 4 sectors again;
           each line still fills its own 4 blocks (op_ld unchanged) */
        {"rotated tile", g_contig16, s_rotated, 1, 6, 8, 0, 0},
        /* 512 contiguous bytes to shared 16: each sector straddles two blocks; per phase pass 0 is
           [16+128q, ...) in row q, pass 1 reaches row q+1: 1 + 2 = 3 a phase, 12; 16 sectors twice
           more; each line fills 5 blocks: 4 x 1 extra */
        {"shared 16 B off a block", g_contig16, s_off16, 1, 12, 16, 4, 0},
        /* the .ca form of the same: the store rule (128 contiguous bytes a phase: 1) and one line a
           phase; its sectors are never requested again */
        {"the same .ca", g_contig16, s_off16, 0, 4, 0, 0, 0},
        /* wmmaAsync*'s tile: rows of 64 B, 80 B apart. Rows at 0, 160, 320, 480 (32-B aligned):
           1 pass; 480 (96 into its row) crosses a row: 1 + 1 + 1 + 2 = 5. Rows at 80, 240, 400, 560
           (16 off a block): 2 passes, 80 and 240 cross a row in one of them: 3 + 3 + 2 + 2 = 10.
           15 wavefronts (the H200: 120 / 8); the 4 odd rows' 2 sectors twice (24 = 192 / 8);
           each odd row fills 3 blocks (20 = 160 / 8) */
        {"rows 80 B apart", g_rows64, s_rows80, 1, 15, 8, 4, 0},
        /* (not here: a sector's lanes 256 B apart, ldgsts_rule3.cu's ld3_cg16_pairs: the rule says 8
           wavefronts and 4 conflicts, the H200 32 and 0 - the known misfit, docs/sass.md "LDGSTS") */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        ws_mem_event ev = ldgsts_event(16, c[i].cg, 0xffffffffu, c[i].g, c[i].s, 0, 0);
        ws_bank_result r;
        assert_int_equal(ws_banks_ldgsts(&ev, &r), 0);
        if (r.wavefronts != c[i].wf || r.sectors_rerequested != c[i].resect || r.ld_sectors_extra != c[i].ldextra ||
            r.ncu_conflicts != c[i].conflicts)
            fail_msg("%s: %d wavefronts, %d sectors again, %d op_ld extra, %d conflicts; by hand %d, %d, %d, %d",
                     c[i].what, r.wavefronts, r.sectors_rerequested, r.ld_sectors_extra, r.ncu_conflicts, c[i].wf,
                     c[i].resect, c[i].ldextra, c[i].conflicts);
        assert_int_equal(r.excess, r.wavefronts - r.ideal);
    }
}

/* The zero-filling form (SASS LDGSTS...ZFILL, measured on the H200: tests/data/tensor/sass_forms.cu's
 * ldgsts_* probes, results/h200-tensorcore/ldgsts.txt, 8 warps each): a 16-byte copy's copying lanes
 * write twice, a lane that only zero-fills once; 4- and 8-byte copies are not doubled. */
static void test_ldgsts_zero_filling_16_byte_copies_cost_their_copying_lanes_twice(void **state)
{
    (void)state;
    static const struct { int width; lane_fn g, s; int zf; uint32_t copying; int wf, conflicts; } c[] = {
        {16, g_contig16, s_contig16, 0, 0, 4, 0},               /* no src-size: 1 row a phase */
        {16, g_contig16, s_contig16, 1, 0xffffffffu, 8, 0},     /* ldgsts_rows: 64 / 8 */
        /* ldgsts_row_per_group (512 / 8, 224 / 8): every lane its own row, a sector's 2 lanes in 2
           passes: 4 + 4 a phase, 32, twice 64; the store rule's 8 a phase less 1 (phase, line): 28 */
        {16, g_contig16, s_stride128, 1, 0xffffffffu, 64, 28},
        /* ldgsts_zfill_half (48 / 8): 4 phases one row each, the 2 copying phases again: 6 */
        {16, g_contig16, s_contig16, 1, 0x0000ffffu, 6, 0},
        {4, g_contig4, g_contig4, 1, 0xffffffffu, 1, 0},        /* ldgsts_ca4 */
        {8, g_contig8, g_contig8, 1, 0xffffffffu, 2, 0},        /* ldgsts_ca8 */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        ws_mem_event ev = ldgsts_event(c[i].width, c[i].width == 16, 0xffffffffu, c[i].g, c[i].s, c[i].zf, c[i].copying);
        ws_bank_result r;
        assert_int_equal(ws_banks_ldgsts(&ev, &r), 0);
        if (r.wavefronts != c[i].wf || r.ncu_conflicts != c[i].conflicts)
            fail_msg("case %zu: %d wavefronts, %d conflicts; the H200 %d, %d", i, r.wavefronts, r.ncu_conflicts,
                     c[i].wf, c[i].conflicts);
        assert_int_equal(r.excess, r.wavefronts - r.ideal);
    }
}

/* The cp.async rows as the H200 counted them (results/h200-ldgsts-rule2/ldgsts.txt: the 13 probes of
 * tests/data/tensor/ldgsts_rule.cu, 8 instructions each, divided by 8). Lane l copies SIZE bytes from
 * global (l / LPR) * GSTRIDE + (l % LPR) * SIZE to shared DOFF + (l / LPR) * DROW + (l % LPR) * SIZE.
 * The *_zfill probes' src-size is a constant ptxas folds away (their SASS has no .ZFILL: the same
 * counts as without), so they are the plain form here. gsect: the LDGSTS global sectors (plain 16, or
 * 4 for 4-byte copies, plus the re-requests), ldsect: l1tex op_ld sectors. */
static int P_lpr, P_gstride, P_drow, P_doff, P_size;
static int g_probe(int l) { return l / P_lpr * P_gstride + l % P_lpr * P_size; }
static int s_probe(int l) { return P_doff + l / P_lpr * P_drow + l % P_lpr * P_size; }
static void test_ldgsts_rows_match_the_h200_probes(void **state)
{
    (void)state;
    static const struct { const char *name; int ca, size, lpr, gstride, drow, doff, wf, conflicts, gsect, ldsect; } c[] = {
        {"ldr_ca4_rows2", 1, 4, 16, 1024, 64, 0, 2, 1, 4, 4},     /* two lines in the one phase: +1 */
        {"ldr_ca4_rows2_zfill", 1, 4, 16, 1024, 64, 0, 2, 1, 4, 4},
        {"ldr_ca4_2lines_adj", 1, 4, 16, 128, 64, 0, 2, 1, 4, 4},
        {"ldr_ca4_contig", 1, 4, 32, 128, 128, 0, 1, 0, 4, 4},
        {"ldr_cg16_rows80", 0, 16, 4, 512, 80, 0, 15, 0, 24, 20},
        {"ldr_ca16_rows80", 1, 16, 4, 512, 80, 0, 12, 8, 16, 16},  /* store rule 2 a phase + 1 line */
        {"ldr_cg16_rows64", 0, 16, 4, 512, 64, 0, 8, 0, 16, 16},
        {"ldr_ca16_rows64", 1, 16, 4, 512, 64, 0, 8, 4, 16, 16},
        {"ldr_ca16_rows160", 1, 16, 4, 512, 160, 0, 12, 8, 16, 16},
        {"ldr_cg16_rows160", 0, 16, 4, 512, 160, 0, 10, 0, 16, 16},
        {"ldr_ca16_off64", 1, 16, 32, 512, 512, 64, 4, 0, 16, 16},
        {"ldr_cg16_off64", 0, 16, 32, 512, 512, 64, 8, 0, 16, 16},
        {"ldr_cg16_rows80_zfill", 0, 16, 4, 512, 80, 0, 15, 0, 24, 20},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        P_lpr = c[i].lpr; P_gstride = c[i].gstride; P_drow = c[i].drow; P_doff = c[i].doff; P_size = c[i].size;
        ws_mem_event ev = ldgsts_event(c[i].size, !c[i].ca, 0xffffffffu, g_probe, s_probe, 0, 0);
        ws_bank_result r;
        assert_int_equal(ws_banks_ldgsts(&ev, &r), 0);
        int plain = c[i].size == 16 ? 16 : 4;
        if (r.wavefronts != c[i].wf || r.ncu_conflicts != c[i].conflicts || plain + r.sectors_rerequested != c[i].gsect ||
            plain + r.ld_sectors_extra != c[i].ldsect)
            fail_msg("%s: %d wavefronts, %d conflicts, %d + %d sectors, %d + %d op_ld; the H200 %d, %d, %d, %d", c[i].name,
                     r.wavefronts, r.ncu_conflicts, plain, r.sectors_rerequested, plain, r.ld_sectors_extra, c[i].wf,
                     c[i].conflicts, c[i].gsect, c[i].ldsect);
    }
}

/* --- the reference: the sorting model this file's model replaced (sim/models/banks.c before the
 * bitmaps), kept verbatim in logic, to cross-check every field on random warps. --------- */

static void ref_sort(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static int ref_uniq(uint64_t *v, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

static int ref_partners_agree(const ws_mem_event *ev, int x)
{
    for (int n = 0; n < 32; n++) {
        if (!(ev->active_mask >> n & 1))
            continue;
        int p = n ^ x;
        if ((ev->active_mask >> p & 1) && ev->addr[p] != ev->addr[n])
            return 0;
    }
    return 1;
}

static int ref_rank_of(const uint64_t *words, const int *rank, int n, uint64_t w)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (words[mid] == w)
            return rank[mid];
        if (words[mid] < w)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

static void ref_reset(ws_bank_result *r)
{
    memset(r, 0, sizeof *r);
    memset(r->lane_bank, -1, sizeof r->lane_bank);
    memset(r->lane_group, -1, sizeof r->lane_group);
    memset(r->lane_wavefront, -1, sizeof r->lane_wavefront);
}

static int ref_cost_groups(const ws_mem_event *ev, int ngroups, ws_bank_result *r)
{
    int w = ev->width;
    r->ngroups = ngroups;
    int lanes_per_group = 32 / ngroups;
    uint64_t all[32 * 5];
    int nall = 0, base = 0;
    for (int g = 0; g < ngroups; g++) {
        uint64_t words[32 * 5];
        int nw = 0;
        for (int n = g * lanes_per_group; n < (g + 1) * lanes_per_group; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            for (uint64_t wd = ev->addr[n] / 4; wd <= (ev->addr[n] + (uint64_t)w - 1) / 4; wd++) {
                words[nw++] = wd;
                all[nall++] = wd;
            }
        }
        if (!nw)
            continue;
        r->active_groups++;
        ref_sort(words, nw);
        nw = ref_uniq(words, nw);
        int rank[32 * 5];
        int per_bank[WS_BANKS] = {0};
        int gmax = 0;
        for (int i = 0; i < nw; i++) {
            int b = (int)(words[i] % WS_BANKS);
            rank[i] = per_bank[b]++;
            if (per_bank[b] > gmax)
                gmax = per_bank[b];
            if (per_bank[b] > 1)
                r->conflict_banks |= 1u << b;
        }
        if (gmax > r->degree)
            r->degree = gmax;
        for (int b = 0; b < WS_BANKS; b++)
            r->group_words[g][b] = (uint8_t)per_bank[b];
        for (int n = g * lanes_per_group; n < (g + 1) * lanes_per_group; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            int last = 0;
            for (uint64_t wd = ev->addr[n] / 4; wd <= (ev->addr[n] + (uint64_t)w - 1) / 4; wd++) {
                int k = ref_rank_of(words, rank, nw, wd);
                if (k > last)
                    last = k;
            }
            r->lane_bank[n] = (int8_t)(ev->addr[n] / 4 % WS_BANKS);
            r->lane_group[n] = (int8_t)g;
            r->lane_wavefront[n] = (int8_t)(base + last);
        }
        base += gmax;
    }
    r->wavefronts = base;
    if (!nall)
        return 0;
    ref_sort(all, nall);
    r->distinct_words = ref_uniq(all, nall);
    r->ideal = (r->distinct_words * 4 + 127) / 128;
    if (r->ideal < 1)
        r->ideal = 1;
    r->excess = r->wavefronts - r->ideal;
    if (r->excess < 0)
        r->excess = 0;
    r->ncu_conflicts = r->wavefronts - r->active_groups;
    return 0;
}

static int ref_banks(const ws_mem_event *ev, ws_bank_result *r, int ldsm)
{
    ref_reset(r);
    int w = ev->width;
    if (ldsm)
        return ev->space != WS_SPACE_SHARED || w != 16 ? -1 : ref_cost_groups(ev, 4, r);
    if (ev->space != WS_SPACE_SHARED || w < 1 || w > 16)
        return -1;
    int ngroups = 1;
    if (w == 8 || w == 16) {
        r->pair_mode = ref_partners_agree(ev, 1) || ref_partners_agree(ev, 2);
        ngroups = w == 8 ? (r->pair_mode ? 1 : 2) : (r->pair_mode ? 2 : 4);
    } else if (w > 4) {
        ngroups = w > 8 ? 4 : 2;
    }
    return ref_cost_groups(ev, ngroups, r);
}

/* A small deterministic generator (xorshift64*): the same warps on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Compares every field; names the first that differs (with the case number) on failure. */
static void expect_same(const ws_bank_result *a, const ws_bank_result *b, int rc_a, int rc_b, long k)
{
    char what[96];
    snprintf(what, sizeof what, "case %ld: ", k);
#define SAME(f) do { if (a->f != b->f) fail_msg("%s%s: %d vs reference %d", what, #f, (int)a->f, (int)b->f); } while (0)
    if (rc_a != rc_b) fail_msg("%sreturn %d vs reference %d", what, rc_a, rc_b);
    SAME(wavefronts); SAME(ideal); SAME(excess); SAME(ncu_conflicts); SAME(degree); SAME(ngroups);
    SAME(active_groups); SAME(pair_mode); SAME(distinct_words);
    if (a->conflict_banks != b->conflict_banks) fail_msg("%sconflict_banks %#x vs %#x", what, a->conflict_banks, b->conflict_banks);
    for (int g = 0; g < 4; g++)
        for (int bk = 0; bk < WS_BANKS; bk++) SAME(group_words[g][bk]);
    for (int l = 0; l < 32; l++) { SAME(lane_bank[l]); SAME(lane_group[l]); SAME(lane_wavefront[l]); }
#undef SAME
}

static void test_bitmap_model_matches_the_sorting_model_on_random_warps(void **state)
{
    (void)state;
    static const int widths[] = {1, 2, 4, 8, 16, 8, 16, 4, 3, 6, 12};
    for (long k = 0; k < 200000; k++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, widths[rng() % 11], 0);
        uint64_t kind = rng() % 8;
        ev.active_mask = kind == 0 ? (uint32_t)rng() : kind == 1 ? (uint32_t)(rng() & rng()) : 0xFFFFFFFFu;
        if (rng() % 64 == 0) ev.active_mask = 0;
        uint64_t span = kind < 3 ? 512 : kind < 5 ? 8192 : kind < 7 ? 20000 : 1u << 20; /* past one bitmap */
        uint64_t align = rng() % 4 == 0 ? 1 : ev.width;  /* mostly aligned, some not */
        uint64_t stride = rng() % 40, base = rng() % span;
        for (int l = 0; l < 32; l++) {
            uint64_t a;
            switch (rng() % 4) {
            case 0: a = rng() % span; break;                           /* scattered */
            case 1: a = base + (uint64_t)l * stride * 4; break;        /* strided */
            case 2: a = l ? ev.addr[l - 1] : base; break;              /* same as the neighbour */
            default: a = base + (uint64_t)(l ^ 1) * stride * 4; break; /* pairs */
            }
            a = a / align * align;
            ev.addr[l] = ev.active_mask >> l & 1 ? a : 0;
        }
        if (rng() % 8 == 0)    /* pair mode on purpose: every lane as its partner n^1 or n^2 */
            for (int l = 0; l < 32; l++) ev.addr[l] = ev.addr[l & ~(int)(1 + (k & 1))];
        int ldsm = ev.width == 16 && rng() % 2;
        ws_bank_result got, want;
        int rc_got = ldsm ? ws_banks_ldsm(&ev, &got) : ws_banks(&ev, &got);
        int rc_want = ref_banks(&ev, &want, ldsm);
        expect_same(&got, &want, rc_got, rc_want, k);
    }
}

static void test_bitmap_model_matches_the_sorting_model_at_the_top_of_the_address_space(void **state)
{
    (void)state;
    /* addresses whose last byte wraps past 2^64 take the old arithmetic unchanged */
    for (int w = 1; w <= 16; w++) {
        ws_mem_event ev = shared_event(WS_MEM_LOAD, w, 0xFFFFFFFFu);
        for (int l = 0; l < 32; l++) ev.addr[l] = UINT64_MAX - (uint64_t)(l % 3) * 4;
        ws_bank_result got, want;
        int rc_got = ws_banks(&ev, &got), rc_want = ref_banks(&ev, &want, 0);
        expect_same(&got, &want, rc_got, rc_want, w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_stride_s_costs_gcd_of_s_and_32_wavefronts),
        cmocka_unit_test(test_padded_tile_column_read_is_one_wavefront),
        cmocka_unit_test(test_unpadded_tile_column_read_is_32_wavefronts),
        cmocka_unit_test(test_broadcast_and_multicast_merge_identical_words),
        cmocka_unit_test(test_sub_word_accesses_are_word_granular),
        cmocka_unit_test(test_64_bit_stride_s_splits_into_half_warps),
        cmocka_unit_test(test_128_bit_stride_s_splits_into_quarter_warps),
        cmocka_unit_test(test_pairing_merges_64_bit_groups_into_the_whole_warp),
        cmocka_unit_test(test_float4_broadcast_is_two_wavefronts_zero_ncu_conflicts_one_excess),
        cmocka_unit_test(test_per_lane_wavefront_and_conflicting_banks_for_float_stride_2),
        cmocka_unit_test(test_shared_atomics_follow_the_load_bank_rule),
        cmocka_unit_test(test_inactive_warp_costs_nothing_and_other_spaces_are_rejected),
        cmocka_unit_test(test_every_measured_appendix_c_row_is_reproduced),
        cmocka_unit_test(test_ldmatrix_phases_cost_the_bank_groups_their_rows_share),
        cmocka_unit_test(test_ldgsts_zero_filling_16_byte_copies_cost_their_copying_lanes_twice),
        cmocka_unit_test(test_ldgsts_rows_match_the_h200_probes),
        cmocka_unit_test(test_ldgsts_cg_wavefronts_and_sectors_follow_shared_blocks_and_rows),
        cmocka_unit_test(test_bitmap_model_matches_the_sorting_model_on_random_warps),
        cmocka_unit_test(test_bitmap_model_matches_the_sorting_model_at_the_top_of_the_address_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
