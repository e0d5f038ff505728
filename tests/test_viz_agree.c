/* test_viz_agree.c - the visualizer and the simulator tell the same story: every memory
 * event of every catalog kernel is simulated, its verdict turned into the step viz draws,
 * and every number the step shows is compared with the model's own result (per-lane
 * wavefront, group, bank and conflict mark, wavefronts, ideal, n-way degree and per-bank
 * word counts for shared; requests, sectors, ideal sectors, lines, bytes, lanes and cache
 * outcomes for global/local). A visualizer with a model of its own drifts here: one that
 * ranks a bank's words by lane fails on descending-address shared loads, one that counts
 * ideal sectors as active lanes x width fails where lanes share an address. make test runs every
 * kernel at small odd sizes (partial warps and blocks at the edges; a description that refuses
 * them runs at its defaults), make test-slow at the default sizes (tests/slow.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/simulate.h"
#include "../viz/viz_model.h"
#include "slow.h"

/* Fields on which steps disagreed with their verdicts, each counted once per event. */
enum {
    D_WAVEFRONTS, D_IDEAL_WAVEFRONTS, D_NGROUPS, D_DEGREE, D_BANK_WORDS, D_LANE_WAVEFRONT, D_LANE_GROUP,
    D_LANE_BANK, D_LANE_CONFLICT, D_REQUESTS, D_SECTORS, D_IDEAL_SECTORS, D_LINE_SECTORS, D_LINE_LANES,
    D_LINE_BYTES, D_OUTCOME, D_LANE_SECTOR, D_NFIELDS
};
static const char *const field_name[D_NFIELDS] = {
    "wavefronts", "ideal wavefronts", "groups", "n-way degree", "per-bank words", "per-lane wavefront",
    "lane group", "lane bank", "lane conflict mark", "requests", "sectors", "ideal sectors", "sectors drawn",
    "sector lanes", "sector bytes used", "sector outcome", "lane's first sector"};

typedef struct {
    uint64_t shared_events, global_events;
    uint64_t differ[D_NFIELDS];
} tally;

static const viz_line *line_of(const viz_step *s, uint64_t sector)
{
    for (int i = 0; i < s->nlines; i++)
        if (s->lines[i].line == sector / 128)
            return &s->lines[i];
    return NULL;
}

static void compare_shared(tally *t, const viz_step *s, const ws_bank_result *bk)
{
    bool d[D_NFIELDS] = {false};
    d[D_WAVEFRONTS] = s->wavefronts != bk->wavefronts;
    d[D_IDEAL_WAVEFRONTS] = s->ideal_wavefronts != bk->ideal;
    d[D_NGROUPS] = s->ngroups != bk->ngroups;
    d[D_DEGREE] = s->degree != bk->degree;
    d[D_BANK_WORDS] = memcmp(s->bank_words, bk->group_words, sizeof s->bank_words) != 0;
    d[D_REQUESTS] = s->requests != 1;
    for (int l = 0; l < 32; l++) {
        if (!(s->active_mask >> l & 1))
            continue;
        const viz_lane *ln = &s->lane[l];
        d[D_LANE_WAVEFRONT] |= ln->wavefront != bk->lane_wavefront[l];
        d[D_LANE_GROUP] |= ln->group != bk->lane_group[l];
        d[D_LANE_BANK] |= ln->bank != bk->lane_bank[l];
        /* in conflict exactly when a bank of one of its words serves its group > 1 word */
        bool conflict = false;
        for (uint64_t w = ln->addr / 4; w <= (ln->addr + s->width - 1) / 4; w++)
            conflict |= bk->group_words[bk->lane_group[l]][w % 32] > 1;
        d[D_LANE_CONFLICT] |= ln->conflict != conflict;
    }
    t->shared_events++;
    for (int f = 0; f < D_NFIELDS; f++)
        t->differ[f] += d[f];
}

static void compare_global(tally *t, const viz_step *s, const ws_coalesce_result *co, const ws_cache_access *ca)
{
    bool d[D_NFIELDS] = {false};
    d[D_REQUESTS] = s->requests != co->requests;
    d[D_SECTORS] = s->sectors != co->sectors;
    d[D_IDEAL_SECTORS] = s->ideal_sectors != co->ideal_sectors;
    int drawn = 0;
    for (int i = 0; i < s->nlines; i++)
        for (int k = 0; k < 4; k++)
            drawn += s->lines[i].outcome[k] != VIZ_OUT_NONE;
    d[D_LINE_SECTORS] = drawn != co->distinct_sectors;
    bool store = s->op == WS_MEM_STORE || s->op == WS_MEM_REDUCE;
    for (int i = 0; i < co->nentries; i++) {
        const ws_sector_entry *e = &co->entries[i];
        const viz_line *ln = line_of(s, e->sector);
        int k = (int)(e->sector / 32 % 4);
        if (!ln) {
            d[D_LINE_SECTORS] = true;
            continue;
        }
        d[D_LINE_LANES] |= (ln->lanes[k] & e->lanes) != e->lanes;
        d[D_LINE_BYTES] |= (ln->used[k] & e->byte_mask) != e->byte_mask;
        /* a sector two requests share (local 64/128-bit) shows the later request's outcome */
        bool last = true;
        for (int j = i + 1; j < co->nentries; j++)
            last &= co->entries[j].sector != e->sector;
        if (last)
            d[D_OUTCOME] |= ln->outcome[k] != viz_outcome_of(ca ? ca->outcome[i] : WS_SECT_NONE, store);
    }
    for (int l = 0; l < 32; l++) {
        if (!(s->active_mask >> l & 1) || !co->lane_nsectors[l])
            continue;
        uint64_t first = co->entries[co->lane_sector[l][0]].sector;
        const viz_lane *ln = &s->lane[l];
        d[D_LANE_SECTOR] |= ln->line_slot >= s->nlines || s->lines[ln->line_slot].line != first / 128 ||
                            ln->sector != first / 32 % 4;
    }
    t->global_events++;
    for (int f = 0; f < D_NFIELDS; f++)
        t->differ[f] += d[f];
}

static void observe(void *ctx, const ws_mem_verdict *v)
{
    static viz_step s; /* large: off the interpreter's stack */
    if (!v->bk && !v->co)
        return; /* nothing drawn: const/param, or no active lane */
    viz_step_from_verdict(&s, v);
    if (v->bk)
        compare_shared(ctx, &s, v->bk);
    else
        compare_global(ctx, &s, v->co, v->ca);
}

/* Small sizes that are no multiple of a block or a tile, for the parameters a description has
 * (N is a matrix side in the matmul file). */
static const ws_overrides *small_sizes(const ws_kernel_desc *d, ws_overrides *ov)
{
    static const char *const sizes[][2] = {{"N", "3001"}, {"M", "45"}, {"K", "70"}, {"W", "97"}, {"H", "45"},
                                           {"BYTES", "4000"}};
    memset(ov, 0, sizeof *ov);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int p = 0; p < d->nparams; p++)
            if (!strcmp(d->params[p].name, sizes[i][0])) {
                char a[64];
                ws_error err;
                snprintf(a, sizeof a, "%s=%s", sizes[i][0],
                         i == 0 && strstr(d->file, "matmul") ? "37" : sizes[i][1]);
                assert_int_equal(ws_overrides_add(ov, a, &err), 0);
            }
    return ov;
}

/* Simulates one kernel with the observer; WS_EXIT_* (err says why when not OK). */
static int simulate(ws_catalog *cat, const ws_kernel_desc *desc, const ws_overrides *ov, tally *t, ws_error *err)
{
    static ws_simulation sim;
    int rc = ws_simulation_open(&sim, cat, desc->name, ov, ws_device_default(), "sm_90", err);
    ws_simulation_opts o = {.observer = observe, .observer_ctx = t};
    if (rc == WS_EXIT_OK)
        rc = ws_simulation_run(&sim, &o, err);
    ws_simulation_close(&sim);
    return rc;
}

/* Every catalog kernel, at its default sizes or (small) at small_sizes. */
static void every_catalog_event(bool small)
{
    ws_catalog *cat;
    ws_error err;
    if (ws_catalog_load("demos", &cat, &err)) {
        ws_error_print(&err);
        fail_msg("cannot load the catalog");
    }
    tally t;
    memset(&t, 0, sizeof t);
    int kernels = 0, at_default = 0;
    for (int f = 0; f < cat->nfiles; f++)
        for (int k = 0; k < cat->files[f]->nkernels; k++) {
            const ws_kernel_desc *desc = &cat->files[f]->kernels[k];
            ws_overrides ov;
            int rc = WS_EXIT_USAGE;
            if (small) {
                tally mine;   /* a refused or faulting small run counts nothing */
                memset(&mine, 0, sizeof mine);
                rc = simulate(cat, desc, small_sizes(desc, &ov), &mine, &err);
                if (rc == WS_EXIT_OK) {
                    t.shared_events += mine.shared_events;
                    t.global_events += mine.global_events;
                    for (int i = 0; i < D_NFIELDS; i++) t.differ[i] += mine.differ[i];
                }
            }
            if (rc != WS_EXIT_OK) {
                at_default += small;
                rc = simulate(cat, desc, NULL, &t, &err);
            }
            if (rc != WS_EXIT_OK)
                ws_error_print(&err);
            assert_int_equal(rc, WS_EXIT_OK);
            kernels++;
        }
    ws_catalog_free(cat);
    uint64_t bad = 0;
    for (int f = 0; f < D_NFIELDS; f++)
        if (t.differ[f]) {
            print_message("viz differs from the model on %s in %llu events\n", field_name[f],
                          (unsigned long long)t.differ[f]);
            bad += t.differ[f];
        }
    print_message("%d kernels%s: %llu shared and %llu global/local events compared\n", kernels,
                  small ? " at small sizes" : "", (unsigned long long)t.shared_events,
                  (unsigned long long)t.global_events);
    if (small) print_message("%d of them refused the small sizes and ran at their defaults\n", at_default);
    assert_true(t.shared_events > 0 && t.global_events > 0);
    assert_true(2 * at_default < kernels);   /* the small sizes are what most kernels ran */
    assert_int_equal(bad, 0);
}

static void test_viz_steps_match_the_models_on_every_catalog_event_at_small_sizes(void **state)
{
    (void)state;
    every_catalog_event(true);
}

static void test_viz_steps_match_the_models_on_every_catalog_event(void **state)
{
    (void)state;
    every_catalog_event(false);
}

int main(void)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_viz_steps_match_the_models_on_every_catalog_event_at_small_sizes),
    };
    /* the default sizes: ~700 M thread-instructions with every model and the observer, minutes */
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_viz_steps_match_the_models_on_every_catalog_event),
    };
    return ws_run_tests(quick, slow, NULL, NULL);
}
