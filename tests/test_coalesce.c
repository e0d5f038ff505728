/* test_coalesce.c - the L1TEX coalescer against first principles: every expected
 * sector and line count is derived here from the lanes' addresses and widths (a
 * brute-force byte walk or the closed forms of gpu-memory-rules.md §2.7), plus the
 * measured H200 rows of §2.2 and the local-memory request counts of §2.8 / App. D. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../sim/models/coalesce.h"

#define BASE 0x100000000ull /* 4 KiB aligned, like the interpreter's first buffer */

static ws_mem_event make_event(ws_space space, int width, uint32_t mask)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = space;
    ev.op = WS_MEM_LOAD;
    ev.width = (uint8_t)width;
    ev.elem_size = (uint8_t)(width > 8 ? 4 : width);
    ev.vec = (uint8_t)(width > 8 ? width / 4 : 1);
    ev.active_mask = mask;
    return ev;
}

/* Sets lane addresses base + lane*stride_bytes for active lanes (0 for inactive). */
static void set_strided(ws_mem_event *ev, uint64_t base, uint64_t stride_bytes)
{
    for (int l = 0; l < 32; l++)
        ev->addr[l] = (ev->active_mask >> l & 1) ? base + (uint64_t)l * stride_bytes : 0;
}

/* Brute force: distinct values in v[0..n) */
static int count_distinct(uint64_t *v, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = v[j] == v[i];
        m += !dup;
    }
    return m;
}

/* Brute-force global sector / line / distinct-byte counts from the byte ranges. */
static void brute_global(const ws_mem_event *ev, int *sectors, int *lines, int *bytes)
{
    static uint64_t sec[32 * 16], lin[32 * 16], byt[32 * 16];
    int n = 0;
    for (int l = 0; l < 32; l++)
        if (ev->active_mask >> l & 1)
            for (int b = 0; b < ev->width; b++) {
                uint64_t a = ev->addr[l] + (uint64_t)b;
                sec[n] = a / 32;
                lin[n] = a / 128;
                byt[n] = a;
                n++;
            }
    *sectors = count_distinct(sec, n);
    *lines = count_distinct(lin, n);
    *bytes = count_distinct(byt, n);
}

static void check_against_brute(const ws_mem_event *ev)
{
    ws_coalesce_result r;
    assert_int_equal(ws_coalesce(ev, 0, &r), 0);
    int s, ln, by;
    brute_global(ev, &s, &ln, &by);
    assert_int_equal(r.requests, ev->active_mask ? 1 : 0);
    assert_int_equal(r.sectors, s);
    assert_int_equal(r.lines, ln);
    assert_int_equal(r.bytes_used, by);
    assert_int_equal(r.ideal_sectors, (by + 31) / 32);
}

static const int widths[] = {1, 2, 4, 8, 16};

static void test_consecutive_access_of_every_width_touches_width_sectors(void **state)
{
    (void)state;
    for (int i = 0; i < 5; i++) {
        int w = widths[i];
        ws_mem_event ev = make_event(WS_SPACE_GLOBAL, w, 0xFFFFFFFFu);
        set_strided(&ev, BASE, (uint64_t)w);
        ws_coalesce_result r;
        assert_int_equal(ws_coalesce(&ev, 0, &r), 0);
        /* 32 lanes x w bytes = 32w bytes from an aligned base = w sectors, ceil(32w/128) lines */
        assert_int_equal(r.requests, 1);
        assert_int_equal(r.sectors, 32 * w / 32);
        assert_int_equal(r.lines, (32 * w + 127) / 128);
        assert_int_equal(r.ideal_sectors, r.sectors);
    }
}

static void test_stride_sweep_matches_the_closed_form_for_every_width(void **state)
{
    (void)state;
    for (int i = 0; i < 5; i++) {
        int b = widths[i];
        for (int s = 1; s <= 32; s++) {
            ws_mem_event ev = make_event(WS_SPACE_GLOBAL, b, 0xFFFFFFFFu);
            set_strided(&ev, BASE, (uint64_t)s * (uint64_t)b);
            ws_coalesce_result r;
            assert_int_equal(ws_coalesce(&ev, 0, &r), 0);
            int sb = s * b;
            /* §2.7: span 31*s*b + b bytes; once lanes are a sector (line) apart each has its own */
            int want_sectors = sb <= 32 ? (31 * sb + b + 31) / 32 : 32;
            int want_lines = sb <= 128 ? (31 * sb + b + 127) / 128 : 32;
            assert_int_equal(r.requests, 1);
            assert_int_equal(r.sectors, want_sectors);
            assert_int_equal(r.lines, want_lines);
            /* no two lanes share a byte, so the ideal is the 32*b bytes packed */
            assert_int_equal(r.ideal_sectors, b);
            check_against_brute(&ev);
        }
    }
}

static void test_start_offsets_add_at_most_one_sector(void **state)
{
    (void)state;
    for (int i = 0; i < 5; i++) {
        int w = widths[i];
        for (int off = 0; off < 128; off += w) {
            ws_mem_event ev = make_event(WS_SPACE_GLOBAL, w, 0xFFFFFFFFu);
            set_strided(&ev, BASE + (uint64_t)off, (uint64_t)w);
            ws_coalesce_result r;
            ws_coalesce(&ev, 0, &r);
            uint64_t first = (BASE + (uint64_t)off) / 32, last = (BASE + (uint64_t)off + 32u * (unsigned)w - 1) / 32;
            assert_int_equal(r.sectors, (int)(last - first + 1));
            /* 32w contiguous bytes starting off%32 into a sector: ceil((off%32 + 32w)/32) */
            assert_int_equal(r.sectors, w + (off % 32 != 0));
        }
    }
}

/* Measured on the H200 (gpu-memory-rules.md §2.2 table and App. A1): one warp, one LDG. */
typedef struct {
    const char *what;
    int width;
    uint64_t start;      /* byte offset of lane 0 */
    uint64_t stride;     /* bytes between lanes */
    uint32_t mask;
    int sectors, lines;  /* measured l1tex sectors and L1->L2 requests (all misses, cold) */
} measured_row;

static const measured_row measured[] = {
    {"char consecutive", 1, 0, 1, 0xFFFFFFFFu, 1, 1},
    {"short consecutive", 2, 0, 2, 0xFFFFFFFFu, 2, 1},
    {"float consecutive", 4, 0, 4, 0xFFFFFFFFu, 4, 1},
    {"double consecutive", 8, 0, 8, 0xFFFFFFFFu, 8, 2},
    {"float4 consecutive", 16, 0, 16, 0xFFFFFFFFu, 16, 4},
    {"float stride 2", 4, 0, 8, 0xFFFFFFFFu, 8, 2},
    {"float stride 4", 4, 0, 16, 0xFFFFFFFFu, 16, 4},
    {"float stride 8", 4, 0, 32, 0xFFFFFFFFu, 32, 8},
    {"float stride 16", 4, 0, 64, 0xFFFFFFFFu, 32, 16},
    {"float stride 32", 4, 0, 128, 0xFFFFFFFFu, 32, 32},
    {"float offset +1 element", 4, 4, 4, 0xFFFFFFFFu, 5, 2},
    {"float offset +8 elements", 4, 32, 4, 0xFFFFFFFFu, 4, 2},
    {"float offset +31 elements", 4, 124, 4, 0xFFFFFFFFu, 5, 2},
    {"float all lanes same address", 4, 0, 0, 0xFFFFFFFFu, 1, 1},
    {"double offset +1 element", 8, 8, 8, 0xFFFFFFFFu, 9, 3},
    {"float4 offset +1 element", 16, 16, 16, 0xFFFFFFFFu, 17, 5},
    {"float4 all lanes same address", 16, 0, 0, 0xFFFFFFFFu, 1, 1},
    {"char stride 32 B", 1, 0, 32, 0xFFFFFFFFu, 32, 8},
    {"char stride 4", 1, 0, 4, 0xFFFFFFFFu, 4, 1},
    {"short stride 2", 2, 0, 4, 0xFFFFFFFFu, 4, 1},
    {"double stride 2", 8, 0, 16, 0xFFFFFFFFu, 16, 4},
    {"double stride 16 (128 B)", 8, 0, 128, 0xFFFFFFFFu, 32, 32},
    {"float4 stride 2", 16, 0, 32, 0xFFFFFFFFu, 32, 8},
    {"float consecutive, 16 lanes active", 4, 0, 4, 0x0000FFFFu, 2, 1},
    {"float single lane", 4, 0, 4, 0x00000001u, 1, 1},
};

static void test_measured_h200_global_rows_are_reproduced(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        const measured_row *m = &measured[i];
        ws_mem_event ev = make_event(WS_SPACE_GLOBAL, m->width, m->mask);
        set_strided(&ev, BASE + m->start, m->stride);
        ws_coalesce_result r;
        ws_coalesce(&ev, 0, &r);
        if (r.sectors != m->sectors || r.lines != m->lines)
            fail_msg("%s: sectors %d lines %d, measured %d %d", m->what, r.sectors, r.lines, m->sectors, m->lines);
        assert_int_equal(r.requests, 1);
    }
}

static void test_reversed_and_permuted_lanes_inside_128_bytes_touch_four_sectors(void **state)
{
    (void)state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, 4, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = BASE + 4u * (31u - (unsigned)l);
    ws_coalesce_result r;
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 4);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = BASE + 4u * (unsigned)((l * 7) % 32); /* 7 is coprime with 32: a permutation */
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 4);
    assert_int_equal(r.lines, 1);
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void test_random_gathers_match_a_brute_force_byte_walk(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    for (int iter = 0; iter < 400; iter++) {
        int w = widths[iter % 5];
        uint32_t mask = (uint32_t)lcg(&seed) | (uint32_t)lcg(&seed) << 16;
        ws_mem_event ev = make_event(WS_SPACE_GLOBAL, w, mask);
        uint64_t span = 64u << (iter % 6); /* 64 B .. 2 KiB: plenty of sharing and straddling */
        for (int l = 0; l < 32; l++)
            ev.addr[l] = (mask >> l & 1) ? BASE + lcg(&seed) % span : 0; /* any alignment */
        check_against_brute(&ev);
    }
}

/* An aligned lane's bytes lie in one sector: its one entry is that sector, holding the lane and
 * its bytes. */
static void check_one_sector_lanes(const ws_mem_event *ev)
{
    ws_coalesce_result r;
    assert_int_equal(ws_coalesce(ev, 0, &r), 0);
    for (int l = 0; l < 32; l++) {
        if (!(ev->active_mask >> l & 1)) continue;
        assert_int_equal(r.lane_nsectors[l], 1);
        const ws_sector_entry *e = &r.entries[r.lane_sector[l][0]];
        assert_int_equal(e->sector, ev->addr[l] & ~31ull);
        assert_true(e->lanes >> l & 1);
        uint32_t bytes = (ev->width >= 32 ? 0xffffffffu : (1u << ev->width) - 1) << (ev->addr[l] & 31);
        assert_int_equal(e->byte_mask & bytes, bytes);
    }
}

/* The aligned one-pass form (every lane in one sector, sectors rising with the lane): aligned
 * addresses sorted by lane, with lanes sharing words and sectors, and stores as well as loads,
 * against the byte walk; then the same addresses with two lanes swapped (the general walk). */
static void test_aligned_rising_gathers_match_a_brute_force_byte_walk(void **state)
{
    (void)state;
    uint64_t seed = 777;
    for (int iter = 0; iter < 400; iter++) {
        int w = widths[iter % 5];
        uint32_t mask = (uint32_t)lcg(&seed) | (uint32_t)lcg(&seed) << 16;
        ws_mem_event ev = make_event(WS_SPACE_GLOBAL, w, mask);
        ev.op = iter & 1 ? WS_MEM_STORE : WS_MEM_LOAD;
        uint64_t span = 64u << (iter % 8), a = BASE;
        for (int l = 0; l < 32; l++) {
            if (!(mask >> l & 1)) continue;
            a += lcg(&seed) % (span / 16) / (uint64_t)w * (uint64_t)w; /* rising, aligned, repeats */
            ev.addr[l] = a;
        }
        check_against_brute(&ev);
        check_one_sector_lanes(&ev);
        int lo = __builtin_ctz(mask | 1u << 31), hi = 31 - __builtin_clz(mask | 1);
        uint64_t t = ev.addr[lo];
        ev.addr[lo] = ev.addr[hi];
        ev.addr[hi] = t;
        check_against_brute(&ev);
        check_one_sector_lanes(&ev);
    }
}

/* A full warp reading or writing w-byte lanes side by side from any w-aligned start (the
 * coalescer's closed form): the entries are the sectors the 32w bytes span, rising, each holding
 * the lanes and the bytes that fall in it, and each lane lists the one sector it lies in - built
 * here from the bytes one at a time. */
static void test_contiguous_full_warps_from_every_aligned_start_give_each_sector_its_lanes_and_bytes(void **state)
{
    (void)state;
    for (int i = 0; i < 5; i++)
        for (int start = 0; start < 160; start += widths[i]) {
            int w = widths[i];
            ws_mem_event ev = make_event(WS_SPACE_GLOBAL, w, 0xFFFFFFFFu);
            ev.op = start & 1 ? WS_MEM_STORE : WS_MEM_LOAD;
            set_strided(&ev, BASE + (uint64_t)start, (uint64_t)w);
            check_against_brute(&ev);
            ws_coalesce_result r;
            assert_int_equal(ws_coalesce(&ev, 0, &r), 0);
            uint64_t first = (BASE + (uint64_t)start) / 32, last = (BASE + (uint64_t)start + 32u * (uint64_t)w - 1) / 32;
            assert_int_equal(r.nentries, (int)(last - first + 1));
            for (int k = 0; k < r.nentries; k++) {
                uint64_t sec = (first + (uint64_t)k) * 32;
                uint32_t lanes = 0, bytes = 0;
                for (int l = 0; l < 32; l++)
                    for (int b = 0; b < w; b++) {
                        uint64_t a = ev.addr[l] + (uint64_t)b;
                        if (a / 32 * 32 == sec) {
                            lanes |= 1u << l;
                            bytes |= 1u << (a % 32);
                        }
                    }
                assert_int_equal(r.entries[k].sector, sec);
                assert_int_equal(r.entries[k].request, 0);
                assert_int_equal(r.entries[k].lanes, lanes);
                assert_int_equal(r.entries[k].byte_mask, bytes);
                assert_int_equal(r.entries[k].same_addr_max, 1);
            }
            for (int l = 0; l < 32; l++) {
                assert_int_equal(r.lane_nsectors[l], 1);
                assert_int_equal(r.entries[r.lane_sector[l][0]].sector, ev.addr[l] / 32 * 32);
            }
        }
}

static void test_array_of_structs_field_read_touches_every_sector_the_structs_span(void **state)
{
    (void)state;
    /* struct { float x, y, z; } a[]; read a[lane].x: 4 bytes every 12 */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, 4, 0xFFFFFFFFu);
    set_strided(&ev, BASE, 12);
    ws_coalesce_result r;
    ws_coalesce(&ev, 0, &r);
    /* bytes 0 .. 31*12+3 = 375: sectors 0..11 all touched (12 < 32, so no sector skipped) */
    assert_int_equal(r.sectors, (31 * 12 + 4 + 31) / 32);
    assert_int_equal(r.ideal_sectors, 4);
    /* struct of 64 bytes (16 floats): one sector per lane, two lanes per line */
    set_strided(&ev, BASE, 64);
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 32);
    assert_int_equal(r.lines, 16);
}

static void test_partial_masks_count_only_active_lanes(void **state)
{
    (void)state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, 4, 0x55555555u); /* even lanes */
    set_strided(&ev, BASE, 4);
    ws_coalesce_result r;
    ws_coalesce(&ev, 0, &r);
    /* even lanes read words 0,2,...,30: every sector of the 128 B still holds one */
    assert_int_equal(r.sectors, 4);
    assert_int_equal(r.bytes_used, 16 * 4);
    assert_int_equal(r.ideal_sectors, 2);
    ev.active_mask = 0x000000FFu; /* lanes 0..7: 32 bytes = one sector */
    set_strided(&ev, BASE, 4);
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 1);
    ev.active_mask = 0x80000001u; /* lanes 0 and 31: bytes 0 and 124 */
    set_strided(&ev, BASE, 4);
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 2);
    assert_int_equal(r.lines, 1);
}

static void test_no_active_lane_means_no_request_and_no_sector(void **state)
{
    (void)state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, 4, 0);
    ws_coalesce_result r;
    assert_int_equal(ws_coalesce(&ev, 0, &r), 0);
    assert_int_equal(r.requests, 0);
    assert_int_equal(r.sectors, 0);
    assert_int_equal(r.nentries, 0);
    ev.space = WS_SPACE_LOCAL;
    assert_int_equal(ws_coalesce(&ev, 0, &r), 0);
    assert_int_equal(r.requests, 0);
}

static void test_a_misaligned_lane_straddling_a_sector_counts_both(void **state)
{
    (void)state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, 8, 1u);
    ev.addr[0] = BASE + 28; /* bytes 28..35 */
    ws_coalesce_result r;
    ws_coalesce(&ev, 0, &r);
    assert_int_equal(r.sectors, 2);
    assert_int_equal(r.ideal_sectors, 1);
    assert_int_equal(r.lane_nsectors[0], 2);
    assert_int_equal(r.entries[r.lane_sector[0][0]].sector, BASE);
    assert_int_equal(r.entries[r.lane_sector[0][1]].sector, BASE + 32);
    assert_int_equal(r.entries[0].byte_mask, 0xF0000000u); /* bytes 28..31 */
    assert_int_equal(r.entries[1].byte_mask, 0x0000000Fu); /* bytes 32..35 */
}

static void test_lane_sector_lists_cover_exactly_each_lanes_bytes(void **state)
{
    (void)state;
    uint64_t seed = 99;
    for (int iter = 0; iter < 200; iter++) {
        int w = widths[iter % 5];
        uint32_t mask = (uint32_t)lcg(&seed) | (uint32_t)lcg(&seed) << 16;
        ws_mem_event ev = make_event(iter & 1 ? WS_SPACE_LOCAL : WS_SPACE_GLOBAL, w, mask);
        for (int l = 0; l < 32; l++)
            ev.addr[l] = (mask >> l & 1) ? (ev.space == WS_SPACE_GLOBAL ? BASE : 0) + lcg(&seed) % 512 / (uint64_t)w * (uint64_t)w : 0;
        ws_coalesce_result r;
        ws_coalesce(&ev, 0x200000000ull, &r);
        for (int i = 1; i < r.nentries; i++) /* sorted by (request, sector), no duplicates */
            assert_true(r.entries[i - 1].request < r.entries[i].request ||
                        (r.entries[i - 1].request == r.entries[i].request &&
                         r.entries[i - 1].sector < r.entries[i].sector));
        for (int l = 0; l < 32; l++) {
            if (!(mask >> l & 1)) {
                assert_int_equal(r.lane_nsectors[l], 0);
                continue;
            }
            for (int b = 0; b < w; b++) {
                uint64_t p = ev.space == WS_SPACE_GLOBAL ? ev.addr[l] + (uint64_t)b
                                                         : ws_local_address(0x200000000ull, ev.addr[l] + (uint64_t)b, l);
                int found = 0;
                for (int k = 0; k < r.lane_nsectors[l]; k++) {
                    const ws_sector_entry *e = &r.entries[r.lane_sector[l][k]];
                    if (p / 32 * 32 == e->sector && (e->byte_mask >> (p % 32) & 1) && (e->lanes >> l & 1))
                        found = 1;
                }
                assert_true(found);
            }
        }
    }
}

/* ---- local memory -------------------------------------------------------------- */

#define LBASE 0x7000000000ull

static void test_local_layout_interleaves_4_byte_words_across_lanes(void **state)
{
    (void)state;
    /* §2.8: byte A of lane t at base + (A/4)*128 + 4t + A%4 */
    assert_int_equal(ws_local_address(LBASE, 0, 0), LBASE);
    assert_int_equal(ws_local_address(LBASE, 0, 31), LBASE + 124);
    assert_int_equal(ws_local_address(LBASE, 4, 0), LBASE + 128);
    assert_int_equal(ws_local_address(LBASE, 6, 3), LBASE + 128 + 12 + 2);
    assert_int_equal(ws_local_address(LBASE, 8, 1), LBASE + 256 + 4);
}

static ws_coalesce_result local_access(int width, uint64_t (*offset)(int lane))
{
    ws_mem_event ev = make_event(WS_SPACE_LOCAL, width, 0xFFFFFFFFu);
    for (int l = 0; l < 32; l++)
        ev.addr[l] = offset(l);
    ws_coalesce_result r;
    assert_int_equal(ws_coalesce(&ev, LBASE, &r), 0);
    return r;
}

static uint64_t uniform_20(int lane) { (void)lane; return 20; }
static uint64_t uniform_0(int lane) { (void)lane; return 0; }
static uint64_t four_times_lane(int lane) { return 4u * (uint64_t)lane; }
static uint64_t eight_times_lane_mod16(int lane) { return 8u * (uint64_t)(lane % 16); }

static void test_local_uniform_word_is_one_request_of_four_sectors(void **state)
{
    (void)state;
    ws_coalesce_result r = local_access(4, uniform_20);
    /* every lane's word 5 sits in line 5 at 4*lane: 128 contiguous bytes */
    assert_int_equal(r.requests, 1);
    assert_int_equal(r.sectors, 4);
    assert_int_equal(r.lines, 1);
    assert_int_equal(r.entries[0].sector, LBASE + 5 * 128);
}

static void test_local_requests_are_width_over_four(void **state)
{
    (void)state;
    for (int i = 0; i < 5; i++) {
        int w = widths[i];
        ws_coalesce_result r = local_access(w, uniform_0);
        int nreq = w >= 4 ? w / 4 : 1;
        assert_int_equal(r.requests, nreq);
        /* uniform offset: each request reads one word slot of all 32 lanes: 4 sectors
         * (sub-word widths touch w bytes in each lane's slot: still 4 sectors) */
        assert_int_equal(r.sectors, 4 * nreq);
        assert_int_equal(r.lines, nreq);
    }
}

/* App. D (H200, measured): kernel = 8 x STL.128 + 8 x STL.128 of the array, then
 * LDL(index: word `lane` of the copied struct) + LDL or LDL.64 of the array. */
static void test_local_instruction_rows_of_appendix_d_are_reproduced(void **state)
{
    (void)state;
    /* STL.128 uniform: 4 requests x 4 sectors; 16 of them -> 64 requests, 256 sectors */
    ws_coalesce_result st = local_access(16, uniform_0);
    assert_int_equal(16 * st.requests, 64);
    assert_int_equal(16 * st.sectors, 256);

    ws_coalesce_result idx = local_access(4, four_times_lane); /* each lane its own line: 32 */
    assert_int_equal(idx.requests, 1);
    assert_int_equal(idx.sectors, 32);

    /* LOCAL32 uniform index 5: LDL requests 2, sectors 36 */
    ws_coalesce_result u32 = local_access(4, uniform_20);
    assert_int_equal(idx.requests + u32.requests, 2);
    assert_int_equal(idx.sectors + u32.sectors, 36);
    /* LOCAL32 index=lane: 2 requests, 64 sectors */
    assert_int_equal(idx.sectors + local_access(4, four_times_lane).sectors, 64);
    /* LOCAL64 uniform index 5 (8-B elements: offset 40): 3 requests, 40 sectors */
    ws_coalesce_result u64 = local_access(8, uniform_0);
    assert_int_equal(idx.requests + u64.requests, 3);
    assert_int_equal(idx.sectors + u64.sectors, 40);
    /* LOCAL64 index=lane%16: 3 requests, 96 sectors (an 8-B interleave would give 32+32) */
    ws_coalesce_result g64 = local_access(8, eight_times_lane_mod16);
    assert_int_equal(g64.requests, 2);
    assert_int_equal(idx.sectors + g64.sectors, 96);
}

static void test_shared_and_const_events_are_not_coalescer_traffic(void **state)
{
    (void)state;
    ws_mem_event ev = make_event(WS_SPACE_SHARED, 4, 0xFFFFFFFFu);
    ws_coalesce_result r;
    assert_int_equal(ws_coalesce(&ev, 0, &r), -1);
    ev.space = WS_SPACE_CONST;
    assert_int_equal(ws_coalesce(&ev, 0, &r), -1);
    ev.space = WS_SPACE_GLOBAL;
    ev.width = 32;
    assert_int_equal(ws_coalesce(&ev, 0, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_access_of_every_width_touches_width_sectors),
        cmocka_unit_test(test_stride_sweep_matches_the_closed_form_for_every_width),
        cmocka_unit_test(test_start_offsets_add_at_most_one_sector),
        cmocka_unit_test(test_measured_h200_global_rows_are_reproduced),
        cmocka_unit_test(test_reversed_and_permuted_lanes_inside_128_bytes_touch_four_sectors),
        cmocka_unit_test(test_random_gathers_match_a_brute_force_byte_walk),
        cmocka_unit_test(test_aligned_rising_gathers_match_a_brute_force_byte_walk),
        cmocka_unit_test(test_contiguous_full_warps_from_every_aligned_start_give_each_sector_its_lanes_and_bytes),
        cmocka_unit_test(test_array_of_structs_field_read_touches_every_sector_the_structs_span),
        cmocka_unit_test(test_partial_masks_count_only_active_lanes),
        cmocka_unit_test(test_no_active_lane_means_no_request_and_no_sector),
        cmocka_unit_test(test_a_misaligned_lane_straddling_a_sector_counts_both),
        cmocka_unit_test(test_lane_sector_lists_cover_exactly_each_lanes_bytes),
        cmocka_unit_test(test_local_layout_interleaves_4_byte_words_across_lanes),
        cmocka_unit_test(test_local_uniform_word_is_one_request_of_four_sectors),
        cmocka_unit_test(test_local_requests_are_width_over_four),
        cmocka_unit_test(test_local_instruction_rows_of_appendix_d_are_reproduced),
        cmocka_unit_test(test_shared_and_const_events_are_not_coalescer_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
