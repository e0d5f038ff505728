/* test_bank_memo.c - the models' memo of bank results (sim/models/models.c, bank_memo): every
 * shared event's verdict carries the bytes the bank rule itself gives (sim/models/banks.h,
 * tested from the rules in test_banks.c), whether the memo answers or not. Shapes repeat at
 * other rows (where a hit is right), at other words of the same row and with one lane moved
 * (where a hit would be wrong), in every kind that has a bank rule. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../sim/models/banks.h"
#include "../sim/models/models.h"

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.cc_major = 9;
    d.sm_count = 4;
    d.sm_clock_mhz = 1000;
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.dram_fetch_bytes = 64;
    d.l2_bytes = 1 << 20;
    d.l1_hit_cycles = 30;
    d.l2_hit_cycles = 200;
    d.dram_cycles = 500;
    d.sector_bytes = 32; d.line_bytes = 128; d.banks = 32; d.bank_bytes = 4;
    return d;
}

static uint64_t g_rng = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(g_rng >> 33);
}

/* What the rule says for ev, as models.c picks it by kind. */
static int direct(const ws_mem_event *ev, ws_bank_result *r)
{
    if (ev->kind == WS_KIND_LDSM || ev->kind == WS_KIND_STSM) return ws_banks_ldsm(ev, r);
    if (ev->kind == WS_KIND_LDGSTS) return ws_banks_ldgsts(ev, r);
    return ws_banks(ev, r);
}

/* The verdict's bank result equals the rule's, byte for byte (NULL where it has no wavefronts). */
static void agrees(ws_models *m, const ws_mem_event *ev)
{
    ws_mem_verdict v;
    ws_models_event(m, ev, &v);
    ws_bank_result want;
    int rc = direct(ev, &want);
    if (rc != 0 || !want.wavefronts) {
        assert_null(v.bk);
        return;
    }
    assert_non_null(v.bk);
    assert_memory_equal(v.bk, &want, sizeof want);
}

static ws_mem_event shared_event(void)
{
    static const uint8_t widths[] = {1, 2, 4, 8, 16};
    static const ws_mem_kind kinds[] = {WS_KIND_PLAIN, WS_KIND_PLAIN, WS_KIND_LDSM, WS_KIND_LDGSTS};
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_SHARED;
    ev.kind = kinds[rnd() % 4];
    ev.op = ev.kind == WS_KIND_LDGSTS ? WS_MEM_STORE : rnd() % 2 ? WS_MEM_LOAD : WS_MEM_STORE;
    ev.width = ev.kind == WS_KIND_PLAIN ? widths[rnd() % 5] : 16;
    ev.elem_size = ev.width;
    ev.vec = 1;
    ev.active_mask = rnd() % 4 ? 0xFFFFFFFFu : rnd() | 1u;
    uint32_t stride = (uint32_t[]){0, 4, 8, 16, 132, 128}[rnd() % 6], span = rnd() % 3 ? 1024 : 16384;
    uint64_t base = (uint64_t)(rnd() % 64) * 4;
    for (int l = 0; l < 32; l++)
        if (ev.active_mask >> l & 1)
            ev.addr[l] = base + (rnd() % 3 ? (uint64_t)l * stride : rnd() % span) / ev.width * ev.width;
    if (ev.kind == WS_KIND_LDGSTS && rnd() % 2) ev.zfill_copy_mask = ev.active_mask & rnd();
    return ev;
}

static void test_every_verdict_carries_the_bank_rules_own_result(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32; L.block[1] = L.block[2] = 1;
    ws_models *m = ws_models_new(&d, &L, 0);
    assert_non_null(m);
    for (int i = 0; i < 3000; i++) {
        ws_mem_event ev = shared_event();
        agrees(m, &ev);
        ws_mem_event moved = ev;          /* the same shape whole rows on: the memo may answer */
        uint64_t rows = 128ull * (1 + rnd() % 200);
        for (int l = 0; l < 32; l++)
            if (ev.active_mask >> l & 1) moved.addr[l] += rows;
        agrees(m, &moved);
        ws_mem_event word = moved;        /* a word on, not a row: other banks, it must not */
        uint64_t words = 4 * (1 + rnd() % 31);
        for (int l = 0; l < 32; l++)
            if (ev.active_mask >> l & 1) word.addr[l] += words;
        agrees(m, &word);
        ws_mem_event one = moved;         /* one lane elsewhere: another shape */
        int l = __builtin_ctz(ev.active_mask);
        one.addr[l] += 128;
        agrees(m, &one);
        agrees(m, &ev);                   /* and back: a hit, if the slot kept it */
        ws_mem_event other = ev;          /* the same addresses under another rule or mask */
        other.kind = ev.kind == WS_KIND_PLAIN ? WS_KIND_LDSM : WS_KIND_PLAIN;
        other.width = 16;
        agrees(m, &other);
        other = ev;
        other.active_mask &= ~(1u << l);
        agrees(m, &other);
    }
    ws_models_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_verdict_carries_the_bank_rules_own_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
