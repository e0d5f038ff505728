/* test_viz_phases.c - viz draws the phases (issue 24): ldmatrix's eight-row phases, cp.async / TMA
 * copies landing, mbarrier waits as stalls. Expectations from the bank rule and the PTX ISA: an
 * ldmatrix.x4 whose 32 row addresses are 16 B apart makes 4 phases of 8 rows x 16 B, each phase's
 * 128 B covering the 32 banks once (1 wavefront each); rows 128 B apart (a 64-half unpadded tile)
 * put the 8 rows of a phase in the same 4 banks (8 wavefronts per phase), rows 144 B apart (padded
 * by 8 halves) in 8 distinct bank groups (1). A cp.async lands at the wait_group covering its group. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../viz/viz_async.h"
#include "../viz/viz_record.h"

/* An ldmatrix event: lane l supplies row address addr_of(l); lanes 0..nlanes-1 active. */
static void ldsm(viz_step *s, int nlanes, uint64_t stride, int phase_off)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = WS_SPACE_SHARED;
    ev.op = WS_MEM_LOAD;
    ev.kind = WS_KIND_LDSM;
    ev.width = 16;
    ev.elem_size = 4;
    ev.vec = 4;
    for (int l = 0; l < nlanes; l++) {
        ev.active_mask |= 1u << l;
        /* matrix p = l / 8, row r = l % 8 */
        ev.addr[l] = (uint64_t)(l % 8) * stride + (uint64_t)(l / 8) * (uint64_t)phase_off;
    }
    viz_step_from_event(s, &ev);
}

static void ldsm_x4_conflict_free(void **state)
{
    (void)state;
    static viz_step s;
    ldsm(&s, 32, 16, 128); /* 32 consecutive 16-B rows: phase p = bytes 128p..128p+127 */
    assert_int_equal(s.nphases, 4);
    assert_int_equal(s.wavefronts, 4);
    for (int p = 0; p < 4; p++) {
        assert_int_equal(s.phase_lanes[p], 0xffu << (8 * p));
        assert_int_equal(s.phase_wavefronts[p], 1);
        uint32_t banks = 0;
        int words = 0;
        for (int l = 8 * p; l < 8 * p + 8; l++)
            for (int k = 0; k < s.lane[l].nwords; k++) {
                banks |= 1u << ((s.lane[l].addr / 4 + (uint64_t)k) % 32);
                words++;
            }
        assert_int_equal(words, 32);         /* 8 rows x 16 B = 128 B = 32 words */
        assert_int_equal(banks, 0xffffffffu); /* every bank once */
    }
}

static void ldsm_x1_x2_phases(void **state)
{
    (void)state;
    static viz_step s;
    ldsm(&s, 8, 16, 128);
    assert_int_equal(s.nphases, 1);
    assert_int_equal(s.wavefronts, 1);
    ldsm(&s, 16, 16, 128);
    assert_int_equal(s.nphases, 2);
    assert_int_equal(s.phase_lanes[1], 0xff00u);
}

static void ldsm_padded_vs_unpadded(void **state)
{
    (void)state;
    static viz_step un, pad;
    ldsm(&un, 32, 128, 16);  /* 64 halves a row: the 8 rows of a phase in banks 4p..4p+3 */
    ldsm(&pad, 32, 144, 16); /* 72 halves: bank group (9r + p) % 8, all distinct */
    for (int p = 0; p < 4; p++) {
        assert_int_equal(un.phase_wavefronts[p], 8);
        assert_int_equal(pad.phase_wavefronts[p], 1);
    }
    assert_int_equal(un.wavefronts, 32);
    assert_int_equal(pad.wavefronts, 4);
}

/* A hand-made cp.async: its shared write, a commit, a wait that does not cover it, one that does. */
static void cp_async_lands_at_wait(void **state)
{
    (void)state;
    viz_recording r;
    viz_recording_init(&r);
    viz_async *a = viz_async_new();
    assert_non_null(a);
    static viz_step s;
    memset(&s, 0, sizeof s);
    s.seq = 10;
    s.kind = WS_KIND_LDGSTS;
    s.space = WS_SPACE_SHARED;
    s.op = WS_MEM_STORE;
    s.width = 16;
    for (int l = 0; l < 32; l++) {
        s.lane[l].active = true;
        s.lane[l].addr = (uint64_t)l * 16;
    }
    s.active_mask = 0xffffffffu;
    assert_int_equal(viz_recording_push(&r, &s), 0);
    assert_int_equal(viz_async_step(a, &r, 0), 0);
    viz_totals run;
    memset(&run, 0, sizeof run);
    ws_async_event e = {.kind = WS_ASYNC_CP_COMMIT, .seq = 11, .groups = 1};
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    e = (ws_async_event){.kind = WS_ASYNC_CP_WAIT, .seq = 11, .groups = 0}; /* wait_group 1: nothing yet */
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    assert_int_equal(r.nsteps, 1);
    e = (ws_async_event){.kind = WS_ASYNC_CP_WAIT, .seq = 12, .groups = 1}; /* wait_group 0 */
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    assert_int_equal(r.nsteps, 2);
    assert_int_equal(r.steps[1].what, VIZ_STEP_LANDED);
    assert_int_equal(r.steps[1].landed_bytes, 32 * 16);
    assert_int_equal(r.steps[1].issued_seq, 10);
    assert_false(viz_step_counts(&r.steps[1]));
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0); /* lands once */
    assert_int_equal(r.nsteps, 2);

    /* a wait: open twice (one stall step), then passes */
    e = (ws_async_event){.kind = WS_ASYNC_MBAR_WAIT, .seq = 13, .lanes = 1, .done = 0, .mbar = 64, .pending = 1,
                         .expected = 1, .tx = 8192};
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    e.seq = 14;
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    assert_int_equal(r.nsteps, 3);
    assert_true(r.steps[2].stalled);
    assert_int_equal(r.steps[2].wait_tries, 2);
    assert_int_equal(r.steps[2].mbar_arrived, 0);
    assert_int_equal(r.steps[2].mbar_tx, 8192);
    e = (ws_async_event){.kind = WS_ASYNC_MBAR_WAIT, .seq = 20, .lanes = 1, .done = 1, .mbar = 64, .expected = 1, .pending = 1};
    assert_int_equal(viz_async_event(a, &r, &e, &run), 0);
    assert_int_equal(r.nsteps, 4);
    assert_false(r.steps[3].stalled);
    assert_true(r.steps[3].stall_ended);
    assert_int_equal(r.steps[3].stall_seq, 13);
    assert_int_equal(r.steps[3].wait_tries, 3);
    viz_async_free(a);
    viz_recording_free(&r);
}

static ws_catalog *cat;

static void record(const char *kernel, viz_recording *r)
{
    ws_error err;
    if (!cat)
        assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    viz_record_opts o = {.kernel = kernel, .first_block = 0, .num_blocks = 1, .quiet = 1, .results_dir = "/nonexistent"};
    int rc = viz_record_shown(cat, &o, r, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
}

/* Every copy's shared-side step is followed, later, by exactly one LANDED step naming it. */
static void every_copy_lands(const viz_recording *r, ws_mem_kind kind, uint64_t bytes)
{
    size_t copies = 0, landed = 0;
    for (size_t i = 0; i < r->nsteps; i++) {
        const viz_step *s = &r->steps[i];
        if (s->what == VIZ_STEP_LANDED && s->kind == kind) {
            landed++;
            assert_int_equal(s->landed_bytes, bytes);
        }
        if (s->what != VIZ_STEP_ACCESS || s->kind != kind || s->space != WS_SPACE_SHARED || s->op != WS_MEM_STORE)
            continue;
        if (kind == WS_KIND_TMA && i > 0 && r->steps[i - 1].kind == WS_KIND_TMA && r->steps[i - 1].pc == s->pc &&
            r->steps[i - 1].space == WS_SPACE_SHARED)
            continue; /* a later part of the same copy */
        copies++;
        int n = 0;
        for (size_t j = i + 1; j < r->nsteps; j++)
            if (r->steps[j].what == VIZ_STEP_LANDED && r->steps[j].issued_seq == s->seq)
                n++;
        assert_int_equal(n, 1);
    }
    assert_true(copies > 0);
    assert_int_equal(landed, copies);
}

static void cp_async_kernel_lands(void **state)
{
    (void)state;
    viz_recording r;
    record("mma_cp_async", &r);
    /* 128 threads, each cp.async 16 B: a warp's copy is 32 x 16 B */
    every_copy_lands(&r, WS_KIND_LDGSTS, 32 * 16);
    viz_recording_free(&r);
}

static void tma_kernel_lands_and_waits(void **state)
{
    (void)state;
    viz_recording r;
    record("mma_tma", &r);
    every_copy_lands(&r, WS_KIND_TMA, 64 * 32 * 2); /* a 64 x 32 box of halves */
    size_t waits = 0;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].what == VIZ_STEP_MBAR_WAIT) {
            waits++;
            assert_int_equal(r.steps[i].mbar_expected, 1); /* one arrival per phase (the expect_tx) */
        }
    assert_true(waits > 0);
    viz_recording_free(&r);
}

/* The demos' ldmatrix: unpadded 8 wavefronts per phase, padded 1 (the catalog's notes). */
static void demo_ldmatrix_phases(void **state)
{
    (void)state;
    const char *k[2] = {"mma_ldmatrix_unpadded", "mma_ldmatrix_padded"};
    int want[2] = {8, 1};
    for (int v = 0; v < 2; v++) {
        viz_recording r;
        record(k[v], &r);
        size_t n = 0;
        for (size_t i = 0; i < r.nsteps; i++) {
            const viz_step *s = &r.steps[i];
            if (s->kind != WS_KIND_LDSM)
                continue;
            n++;
            assert_int_equal(s->nphases, 4);
            int sum = 0;
            for (int p = 0; p < 4; p++) {
                assert_int_equal(s->phase_wavefronts[p], want[v]);
                sum += s->phase_wavefronts[p];
            }
            assert_int_equal(sum, s->wavefronts);
        }
        assert_true(n > 0);
        viz_recording_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ldsm_x4_conflict_free),
        cmocka_unit_test(ldsm_x1_x2_phases),
        cmocka_unit_test(ldsm_padded_vs_unpadded),
        cmocka_unit_test(cp_async_lands_at_wait),
        cmocka_unit_test(cp_async_kernel_lands),
        cmocka_unit_test(tma_kernel_lands_and_waits),
        cmocka_unit_test(demo_ldmatrix_phases),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ws_catalog_free(cat);
    return rc;
}
