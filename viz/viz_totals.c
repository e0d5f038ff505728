/* viz_totals.c - the recording's launch totals from `warpscope sim`'s own run (sampled where
 * sim samples), read out of its memstats, and the thread that makes that run beside a window
 * (see viz_totals.h). Why a second run: the steps' run simulates only what is shown, so the
 * first frame comes at once; the whole grid's numbers come from the run sim would make. */
#include "viz_totals.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "../sim/simulate.h"

#define DEFAULT_ARCH "sm_90" /* as viz_record.c: the same PTX as the steps' run */

static void add_counts(viz_counter *k, uint64_t requests, uint64_t units, uint64_t ideal, uint64_t conflicts)
{
    k->requests += requests;
    k->units += units;
    k->ideal += ideal;
    k->conflicts += conflicts;
}

void viz_totals_from_memstats(const ws_memstats *ms, viz_totals *t)
{
    memset(t, 0, sizeof *t);
    const ws_mem_totals *T = ws_memstats_totals(ms);
    static const viz_cat gcat[4] = {VIZ_CAT_GLOBAL_LD, VIZ_CAT_GLOBAL_ST, VIZ_CAT_GLOBAL_ATOM, VIZ_CAT_GLOBAL_ATOM};
    static const viz_cat lcat[4] = {VIZ_CAT_LOCAL_LD, VIZ_CAT_LOCAL_ST, VIZ_CAT_COUNT, VIZ_CAT_COUNT};
    static const viz_cat scat[4] = {VIZ_CAT_SHARED_LD, VIZ_CAT_SHARED_ST, VIZ_CAT_SHARED_ATOM, VIZ_CAT_SHARED_ATOM};
    t->instructions = T->events;
    for (int op = 0; op < 4; op++) {
        const ws_mem_counts *g = &T->global[op], *l = &T->local[op], *s = &T->shared[op];
        add_counts(&t->cat[gcat[op]], g->requests, g->sectors, g->ideal_sectors, 0);
        if (lcat[op] != VIZ_CAT_COUNT)
            add_counts(&t->cat[lcat[op]], l->requests, l->sectors, l->ideal_sectors, 0);
        add_counts(&t->cat[scat[op]], s->inst, s->wavefronts, s->ideal_wavefronts, s->excess);
    }
    for (int pc = 0; pc < ws_memstats_ninsns(ms); pc++) {
        const ws_pc_stats *p = ws_memstats_pc(ms, pc);
        if (!p || !p->used)
            continue;
        t->l1_hit_sectors += p->l1_hit_sectors;
        t->l2_hit_sectors += p->l2_hit_sectors;
        t->dram_sectors += p->l2_miss_sectors;
        if (p->op != WS_MEM_LOAD && p->space != WS_SPACE_SHARED)
            t->write_sectors += p->sectors;
        viz_cat c = viz_cat_of(p->space, p->op);
        if (p->kind == WS_KIND_PLAIN || c == VIZ_CAT_COUNT)
            continue;                            /* plain rows are in the kernel totals above */
        bool sh = p->space == WS_SPACE_SHARED;
        add_counts(&t->cat[c], sh && !p->requests ? p->executions : p->requests, p->sectors + p->wavefronts,
                   p->ideal_sectors + p->ideal_wavefronts, p->excess);
    }
}

int viz_totals_heat_from_memstats(const ws_memstats *ms, viz_line_heat **heat, int *nheat)
{
    int n = 1;
    for (int pc = 0; pc < ws_memstats_ninsns(ms); pc++) {
        const ws_pc_stats *p = ws_memstats_pc(ms, pc);
        if (p && p->used && p->src_line >= n)
            n = p->src_line + 1;
    }
    viz_line_heat *h = calloc((size_t)n, sizeof *h);
    if (!h)
        return -1;
    for (int pc = 0; pc < ws_memstats_ninsns(ms); pc++) {
        const ws_pc_stats *p = ws_memstats_pc(ms, pc);
        if (!p || !p->used || !p->executions ||
            (p->space != WS_SPACE_GLOBAL && p->space != WS_SPACE_LOCAL && p->space != WS_SPACE_SHARED))
            continue;
        viz_line_heat *x = &h[p->src_line > 0 ? p->src_line : 0];
        x->instructions += p->executions;
        x->active_lanes += p->active_lanes;
        x->sectors += p->sectors;
        x->ideal_sectors += p->ideal_sectors;
        x->wavefronts += p->wavefronts;
        x->ideal_wavefronts += p->ideal_wavefronts;
    }
    *heat = h;
    *nheat = n;
    return 0;
}

int viz_totals_run(ws_catalog *cat, const viz_record_opts *o, viz_totals_result *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    out->predicted_gbs = out->predicted_us = -1;
    out->state = VIZ_TOTALS_FAILED;
    const ws_device *dev = o->device ? ws_device_find(o->device) : ws_device_default();
    ws_simulation *sim = calloc(1, sizeof *sim); /* large; on the heap: this may run on a thread of its own */
    int rc = WS_EXIT_INTERNAL;
    if (!dev || !sim) {
        ws_error_set(err, "<command line>", 0, 0, "%s", dev ? "out of memory" : "unknown device profile");
        goto out;
    }
    rc = ws_simulation_open(sim, cat, o->kernel, o->ov, dev, o->arch ? o->arch : DEFAULT_ARCH, err);
    if (rc)
        goto out;
    /* sim's default: sampled above its threshold, with its bounds (sim/sample.h) */
    ws_simulation_opts so = {.progress_label = o->quiet ? NULL : "warpscope viz (totals)",
                             .sass_listing = o->sass_listing,
                             .sample = o->sample > 0 ? WS_SAMPLE_ON : o->sample < 0 ? WS_SAMPLE_OFF : WS_SAMPLE_AUTO};
    rc = ws_simulation_run(sim, &so, err);
    if (rc)
        goto out;
    out->seconds = sim->seconds;
    viz_totals_from_memstats(sim->ms, &out->launch);
    if (viz_totals_heat_from_memstats(sim->ms, &out->heat, &out->nheat)) {
        ws_error_set(err, sim->file->path, 0, 0, "out of memory for the heat map of %s", sim->desc->name);
        rc = WS_EXIT_INTERNAL;
        goto out;
    }
    if (sim->have_timing) {
        out->predicted_gbs = sim->timing.eff_bw_gbs;
        out->predicted_us = sim->timing.t_kernel_us;
    }
    ws_sample_info si;
    ws_sampler_info(sim->sampler, &si);
    out->state = si.sampled ? VIZ_TOTALS_SAMPLED : VIZ_TOTALS_FULL;
    if (si.sampled) {
        int n = snprintf(out->note, sizeof out->note, "sampled: %llu of %llu blocks", (unsigned long long)si.blocks_run,
                         (unsigned long long)si.blocks_total);
        if (n > 0 && (size_t)n < sizeof out->note) {
            char cache[48] = "cache counters unbounded";
            if (si.cache_bound >= 0)
                snprintf(cache, sizeof cache, "cache within %.1f%%", 100 * si.cache_bound);
            if (si.exact_exact)
                snprintf(out->note + n, sizeof out->note - (size_t)n, " (exact counters exact, %s)", cache);
            else
                snprintf(out->note + n, sizeof out->note - (size_t)n, " (exact within %.2f%%, %s)", 100 * si.exact_bound,
                         cache);
        }
    }
out:
    if (rc) {
        out->rc = rc;
        out->err = *err;
        out->state = VIZ_TOTALS_FAILED;
        snprintf(out->note, sizeof out->note, "%.150s", err->msg);
        free(out->heat);
        out->heat = NULL;
        out->nheat = 0;
    }
    if (sim)
        ws_simulation_close(sim);
    free(sim);
    return rc;
}

void viz_totals_apply(viz_recording *rec, viz_totals_result *t)
{
    rec->totals_state = t->state;
    snprintf(rec->totals_note, sizeof rec->totals_note, "%s", t->note);
    rec->launch = t->launch;
    free(rec->heat);
    rec->heat = t->heat;
    rec->nheat = t->nheat;
    rec->tp.predicted_gbs = t->predicted_gbs;
    rec->tp.predicted_us = t->predicted_us;
    t->heat = NULL;
    t->nheat = 0;
}

/* ---- the background job ------------------------------------------------------------- */

struct viz_totals_job {
    pthread_t thread;
    ws_catalog *cat;
    viz_record_opts o[2];
    int n;
    viz_totals_result res[2];
    atomic_bool done;
};

static void *job_main(void *arg)
{
    viz_totals_job *j = arg;
    for (int i = 0; i < j->n; i++) {
        ws_error err;
        memset(&err, 0, sizeof err);
        viz_totals_run(j->cat, &j->o[i], &j->res[i], &err);
    }
    atomic_store(&j->done, true);
    return NULL;
}

viz_totals_job *viz_totals_job_start(ws_catalog *cat, const viz_record_opts *o, const char *const *kernels, int n)
{
    viz_totals_job *j = calloc(1, sizeof *j);
    if (!j || n < 1 || n > 2) {
        free(j);
        return NULL;
    }
    j->cat = cat;
    j->n = n;
    for (int i = 0; i < n; i++) {
        j->o[i] = *o;
        j->o[i].kernel = kernels[i];
        j->o[i].quiet = 1;                       /* no progress line under the window */
    }
    atomic_init(&j->done, false);
    pthread_attr_t at;
    int bad = pthread_attr_init(&at);
    if (!bad)
        pthread_attr_setstacksize(&at, 16u << 20); /* room for the interpreter, as on the main thread */
    if (bad || pthread_create(&j->thread, &at, job_main, j)) {
        if (!bad)
            pthread_attr_destroy(&at);
        free(j);
        return NULL;
    }
    pthread_attr_destroy(&at);
    return j;
}

bool viz_totals_job_done(viz_totals_job *j)
{
    return j && atomic_load(&j->done);
}

int viz_totals_job_finish(viz_totals_job *j, viz_recording *recs, ws_error *err)
{
    pthread_join(j->thread, NULL);
    int rc = WS_EXIT_OK;
    for (int i = 0; i < j->n; i++) {
        if (j->res[i].rc && !rc) {
            rc = j->res[i].rc;
            *err = j->res[i].err;
        }
        viz_totals_apply(&recs[i], &j->res[i]);
    }
    free(j);
    return rc;
}
