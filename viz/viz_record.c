/* viz_record.c - the adapter from the simulator to the visualizer: resolves and runs a
 * kernel exactly as `warpscope sim` does (same occupancy, L1 size and block placement,
 * so the same cache outcomes), and through the simulation's observer turns each verdict
 * of the chosen blocks into a viz_step carrying the coalescer's sectors, the bank
 * model's groups and wavefronts and the cache model's outcome of every sector.
 * Only the chosen blocks are simulated, after a warm-up of the blocks just before them
 * (within VIZ_WARM_THREAD_INSNS), so the first frame does not wait for the grid (issue 25);
 * the launch totals and the heat map come from viz_totals.c's run.
 * Invariant: the running totals are sums over every event the steps' run simulated; when it
 * began at block 0 (!warm_partial) they, the steps and their cache outcomes are exactly the full
 * launch's up to that step. */
#include "viz_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "../common/measured.h"
#include "../sim/frontend/ptx.h"
#include "../sim/simulate.h"
#include "viz_async.h"
#include "viz_totals.h"

#define DEFAULT_ARCH "sm_90"
#define DEFAULT_MAX_STEPS 50000 /* a step is ~4.9 kB: 50000 is ~250 MB */

typedef struct {
    viz_recording *rec;
    const ptx_function *fn;
    viz_totals run;            /* running totals over every event so far */
    uint32_t lo, hi;           /* kept blocks: [lo, hi) */
    uint64_t start;            /* the warm-up's first block (lo: none) */
    bool measured;             /* the warm-up's first block ran: its cost sized the rest */
    uint64_t planned, simulated;
    uint64_t last, warm_first; /* the last block run; where the run of blocks ending at lo began */
    bool jumped;               /* the warm-up skipped blocks before lo */
    const ws_sim_result *res;  /* the run's counts so far (thread_insns at each block_next) */
    volatile int stop;         /* the recording is full: the run ends here (ws_sim_config.stop) */
    uint64_t cluster;          /* blocks per cluster (1: none) */
    int oom;
    const ws_simulation *sim;  /* its SASS session opens when the run starts */
    int *ptx_per_sass;         /* per SASS instruction: PTX accesses it carries (built on first use) */
    viz_async *as;             /* copies in flight, stalls open (viz_async.h) */
} rec_ctx;

/* The SASS instruction event pc stands for, with what ptxas did to the PTX: a merge's
 * carrier names the PTX accesses folded in, spill code (pc past the PTX) says so. */
static void sass_text_of(rec_ctx *c, uint32_t pc, char *out, size_t cap)
{
    out[0] = 0;
    const ws_sass_session *ss = c->sim ? c->sim->sass : NULL;
    if (!ss || !ss->active || !ss->plan || !c->fn)
        return;
    const ws_sass_plan *p = ss->plan;
    const ws_sass_function *sf = p->sf;
    if (!c->ptx_per_sass && !c->oom) {
        if (!(c->ptx_per_sass = calloc((size_t)sf->ninsns + 1, sizeof *c->ptx_per_sass))) {
            c->oom = 1;
            return;
        }
        for (int i = 0; i < c->fn->ninsns; i++)
            if (p->pc[i].sass >= 0 && p->pc[i].sass < sf->ninsns &&
                (p->pc[i].action == WS_MAP_CARRY || p->pc[i].action == WS_MAP_ABSORBED || p->pc[i].action == WS_MAP_PASS))
                c->ptx_per_sass[p->pc[i].sass]++;
    }
    if (!c->ptx_per_sass)
        return;
    uint32_t n = (uint32_t)c->fn->ninsns;
    if (pc >= n) {                               /* spill code: pc is ninsns + SASS index */
        if (pc - n < (uint32_t)sf->ninsns)
            snprintf(out, cap, "%.120s (spill code, no PTX)", sf->insns[pc - n].text);
        return;
    }
    const ws_sass_pcmap *m = &p->pc[pc];
    if (m->sass < 0 || m->sass >= sf->ninsns)
        return;
    const ws_sass_insn *si = &sf->insns[m->sass];
    int k = c->ptx_per_sass[m->sass];
    const char *what = si->op == WS_SASS_OP_ST ? "stores" : si->op == WS_SASS_OP_LD ? "loads" : "accesses";
    if (m->action == WS_MAP_CARRY && k > 1)
        snprintf(out, cap, "%.120s (merged %d PTX %s)", si->text, k, what);
    else if (m->by_order)
        snprintf(out, cap, "%.120s (matched by order)", si->text);
    else
        snprintf(out, cap, "%.120s", si->text);
}

/* Adds one event's verdict to the running totals. */
static void add_event(viz_totals *t, const ws_mem_verdict *v)
{
    const ws_mem_event *ev = v->ev;
    if (!ev->active_mask)
        return;
    t->instructions++;
    viz_cat c = viz_cat_of(ev->space, ev->op);
    viz_counter *k = c < VIZ_CAT_COUNT ? &t->cat[c] : NULL;
    if (v->bk && k) {
        k->requests++;
        k->units += (uint64_t)v->bk->wavefronts;
        k->ideal += (uint64_t)v->bk->ideal;
        k->conflicts += (uint64_t)v->bk->excess;
    }
    if (v->co && k) {
        k->requests += (uint64_t)v->co->requests;
        /* a global atomic's sectors follow the device's rule (lanes on one address: one each), as sim's */
        k->units += v->at ? (uint64_t)v->at->sector_ops : (uint64_t)v->co->sectors;
        k->ideal += (uint64_t)v->co->ideal_sectors;
    }
    if (v->co && v->ca)
        for (int i = 0; i < v->co->nentries; i++)
            switch (viz_outcome_of(v->ca->outcome[i], false)) {
            case VIZ_OUT_L1_HIT: t->l1_hit_sectors++; break;
            case VIZ_OUT_L2_HIT: t->l2_hit_sectors++; break;
            case VIZ_OUT_DRAM: t->dram_sectors++; break;
            case VIZ_OUT_WRITE: t->write_sectors++; break;
            default: break;
            }
}

static void observe(void *ctx, const ws_mem_verdict *v)
{
    rec_ctx *c = ctx;
    const ws_mem_event *ev = v->ev;
    add_event(&c->run, v);
    if (ev->block_linear < c->lo || ev->block_linear >= c->hi || c->oom)
        return;
    if (ev->space != WS_SPACE_GLOBAL && ev->space != WS_SPACE_SHARED && ev->space != WS_SPACE_LOCAL)
        return;
    if (c->rec->max_steps && c->rec->nsteps >= c->rec->max_steps) { /* full: nothing more would be shown */
        c->rec->truncated = true;
        c->stop = 1;
        return;
    }
    static viz_step s; /* large: keep it off the interpreter's stack */
    viz_step_from_verdict(&s, v);
    if (c->fn && ev->pc < (uint32_t)c->fn->ninsns)
        ptx_format_insn(c->fn, &c->fn->insns[ev->pc], s.ptx_text, sizeof s.ptx_text);
    sass_text_of(c, ev->pc, s.sass_text, sizeof s.sass_text);
    s.totals = c->run;
    if (viz_recording_push(c->rec, &s) || viz_async_step(c->as, c->rec, c->rec->nsteps - 1))
        c->oom = 1;
}

/* The asynchronous side of the kept blocks: copies landing, mbarrier waits (viz_async.h). */
static void on_async(void *ctx, const ws_async_event *e)
{
    rec_ctx *c = ctx;
    if (e->block_linear < c->lo || e->block_linear >= c->hi || c->oom)
        return;
    size_t n0 = c->rec->nsteps;
    if (viz_async_event(c->as, c->rec, e, &c->run)) {
        c->oom = 1;
        return;
    }
    for (size_t i = n0; i < c->rec->nsteps; i++) {   /* a wait's step names its instruction */
        viz_step *s = &c->rec->steps[i];
        if (!s->ptx_text[0] && c->fn && s->pc < (uint32_t)c->fn->ninsns)
            ptx_format_insn(c->fn, &c->fn->insns[s->pc], s->ptx_text, sizeof s->ptx_text);
    }
}

/* The blocks the steps' run simulates, in linear order: the warm-up, then [lo, hi) until the
 * recording is full. The warm-up gives the caches the state the kept blocks find in the full
 * launch: every block before lo where that fits VIZ_WARM_THREAD_INSNS (then the run is the full
 * launch's up to hi); else the first of VIZ_WARM_BLOCKS before lo, whose cost says how many of
 * the blocks just before lo fit, and those. Deterministic: it plans by instruction counts. */
static uint64_t shown_next(void *ctx, uint64_t b)
{
    rec_ctx *c = ctx;
    if (c->cluster > 1) {                        /* asked per cluster (its rank-0 block), a skip being any other
                                                    answer: every cluster up to hi, no sizing */
        if (b >= c->hi || (c->rec->max_steps && c->rec->nsteps >= c->rec->max_steps))
            return UINT64_MAX;
        c->simulated += c->cluster;
        return b;
    }
    if (b < c->lo) {
        if (!c->measured && b > c->start) {      /* the first warm-up block is done: its cost */
            c->measured = true;
            uint64_t cost = c->res->thread_insns ? c->res->thread_insns : 1;
            uint64_t fit = cost < VIZ_WARM_THREAD_INSNS ? (VIZ_WARM_THREAD_INSNS - cost) / cost : 0;
            if (fit < c->lo - b) {
                b = c->lo - fit;
                c->jumped = true;
            }
        }
    }
    if (b < c->hi && (!c->simulated || b != c->last + 1))
        c->warm_first = b;                       /* a new contiguous run of blocks */
    if (b < c->lo) {
        c->simulated++;
        c->last = b;
        return b;
    }
    if (b >= c->hi)
        return UINT64_MAX;
    if (c->rec->max_steps && c->rec->nsteps >= c->rec->max_steps) { /* full: more blocks would show nothing */
        c->rec->truncated = true;
        return UINT64_MAX;
    }
    c->simulated++;
    c->last = b;
    return b;
}

static uint64_t shown_planned(void *ctx)
{
    const rec_ctx *c = ctx;
    return c->planned;
}

/* The recorded measurement as the throughput panel shows it; the source names the file
 * ("results/h200.json") and, for a run with other -D, those overrides. The launch cost
 * is the measured GPU's profile's launch_overhead_us (docs/timing-model.md, assumption 9:
 * the median of event-timed minus modelled time over the smallest catalog kernels). */
static void throughput_of(const ws_measured *m, viz_throughput *tp)
{
    snprintf(tp->overrides, sizeof tp->overrides, "%.90s", m->overrides);
    tp->bytes_moved = m->bytes_moved;
    tp->copy_gbs = m->copy_gbs;
    tp->copy_bytes = m->copy_bytes;
    const ws_device *gd = m->device_key[0] ? ws_device_find(m->device_key) : NULL;
    if (gd && gd->launch_overhead_us > 0) {
        tp->launch_us = gd->launch_overhead_us;
        snprintf(tp->launch_basis, sizeof tp->launch_basis, "%.30s profile's launch_overhead_us", gd->name);
    }
    snprintf(tp->gpu, sizeof tp->gpu, "%s", m->gpu);
    snprintf(tp->date, sizeof tp->date, "%s", m->date);
    const char *base = strrchr(m->file, '/');
    base = base ? base + 1 : m->file;
    if (m->overrides[0] && !m->exact)
        snprintf(tp->source, sizeof tp->source, "results/%.40s (run with %.60s)", base, m->overrides);
    else
        snprintf(tp->source, sizeof tp->source, "results/%.100s", base);
    tp->measured_gbs = m->gbs;
    tp->measured_us = m->median_us;
}

int viz_results_lookup(const char *json_path, const char *name, const char *ov_text, viz_throughput *tp)
{
    ws_measured m;
    if (ws_measured_lookup(json_path, name, ov_text, &m))
        return -1;
    throughput_of(&m, tp);
    return 0;
}

int viz_record_shown(ws_catalog *cat, const viz_record_opts *o, viz_recording *rec, ws_error *err)
{
    viz_recording_init(rec);
    const ws_device *dev = o->device ? ws_device_find(o->device) : ws_device_default();
    if (!dev) {
        ws_error_set(err, "<command line>", 0, 0, "unknown device profile '%s'", o->device);
        return WS_EXIT_USAGE;
    }
    /* the same pipeline as `warpscope sim`: the same occupancy, L1 size and block placement,
     * so the same cache outcomes */
    static ws_simulation sim; /* large; the visualizer records one launch at a time */
    int rc = ws_simulation_open(&sim, cat, o->kernel, o->ov, dev, o->arch ? o->arch : DEFAULT_ARCH, err);
    if (rc)
        goto out;
    const ws_kernel_desc *desc = sim.desc;
    const ws_launch *L = &sim.launch;

    /* what the recording shows besides the steps */
    rc = WS_EXIT_INTERNAL;
    snprintf(rec->kernel, sizeof rec->kernel, "%s", desc->name);
    snprintf(rec->device, sizeof rec->device, "%s", dev->name);
    if (viz_recording_set_source(rec, sim.file->path, sim.file->source)) {
        ws_error_set(err, sim.file->path, 0, 0, "out of memory");
        goto out;
    }
    viz_recording_set_ptx(rec, sim.ptx);
    uint64_t nblocks = ws_launch_blocks(L);
    memcpy(rec->grid, L->grid, sizeof rec->grid);
    memcpy(rec->block_dim, L->block, sizeof rec->block_dim);
    rec->warps_per_block = ws_launch_warps_per_block(L);
    rec->first_block = o->first_block;
    rec->num_blocks = o->num_blocks ? o->num_blocks : 1;
    if (rec->first_block >= nblocks) {
        ws_error_set(err, "<command line>", 0, 0, "--block %u: %s has %llu blocks (0..%llu)", o->first_block,
                     desc->name, (unsigned long long)nblocks, (unsigned long long)nblocks - 1);
        rc = WS_EXIT_USAGE;
        goto out;
    }
    if ((uint64_t)rec->first_block + rec->num_blocks > nblocks)
        rec->num_blocks = (uint32_t)(nblocks - rec->first_block);
    rec->max_steps = o->max_steps ? o->max_steps : DEFAULT_MAX_STEPS;

    rec_ctx c;
    memset(&c, 0, sizeof c);
    c.rec = rec;
    c.fn = sim.fn;
    c.lo = rec->first_block;
    c.hi = rec->first_block + rec->num_blocks;
    c.sim = &sim;
    c.res = &sim.result;
    c.start = c.lo - (c.lo < VIZ_WARM_BLOCKS ? c.lo : VIZ_WARM_BLOCKS);
    c.measured = c.lo == 0;                      /* no warm-up to size */
    c.cluster = 1;
    for (int d = 0; d < 3; d++)
        c.cluster *= L->cluster[d] > 1 ? L->cluster[d] : sim.fn->cluster[d] > 1 ? (uint64_t)sim.fn->cluster[d] : 1;
    if (c.cluster > 1)
        c.start = 0;                             /* every cluster from the first */
    c.planned = (uint64_t)(c.hi - c.start);
    if (!(c.as = viz_async_new())) {
        ws_error_set(err, sim.file->path, 0, 0, "out of memory recording %s", desc->name);
        goto out;
    }
    ws_simulation_opts so = {.observer = observe, .observer_ctx = &c, .progress_label = o->quiet ? NULL : "warpscope viz",
                             .sass_listing = o->sass_listing, .threads = 1,
                             .block_next = shown_next, .blocks_planned = shown_planned, .filter_ctx = &c,
                             .stop = &c.stop, .on_async = on_async, .async_ctx = &c,
                             .lazy_fill = true}; /* no buffer is read back: fill what is touched */
    rc = ws_simulation_run(&sim, &so, err);
    free(c.ptx_per_sass);
    viz_async_free(c.as);
    if (rc)
        goto out;
    if (c.oom) {
        ws_error_set(err, sim.file->path, 0, 0, "out of memory recording %s", desc->name);
        rc = WS_EXIT_INTERNAL;
        goto out;
    }
    rec->grid_blocks = nblocks;
    rec->blocks_simulated = L->cooperative ? nblocks : c.simulated; /* a cooperative grid runs whole */
    rec->warm_first = c.simulated ? (uint32_t)c.warm_first : c.lo;
    rec->warm_partial = c.start != 0 || c.jumped;
    rec->totals_state = VIZ_TOTALS_PENDING;
    rec->tp.peak_gbs = dev->dram_bw_gbs;
    ws_measured m; /* any GPU's run when this device has none: the panel names the GPU */
    ws_overrides *ov = malloc(sizeof *ov);   /* under the sizes it ran at (--realistic expanded) */
    if (ov && (!o->ov || ws_overrides_for(desc, o->ov, ov, NULL))) {
        free(ov);
        ov = NULL;
    }
    if (ws_measured_for(cat->dir[0] ? cat->dir : NULL, o->results_dir, dev->key, desc->name, ov ? ov : o->ov,
                        WS_MEASURED_ANY_GPU, &m) == 0)
        throughput_of(&m, &rec->tp);
    free(ov);
    rc = WS_EXIT_OK;
out:
    ws_simulation_close(&sim);
    if (rc != WS_EXIT_OK)
        viz_recording_free(rec);
    return rc;
}

int viz_record_kernel(ws_catalog *cat, const viz_record_opts *o, viz_recording *rec, ws_error *err)
{
    int rc = viz_record_shown(cat, o, rec, err);
    if (rc)
        return rc;
    viz_totals_result t;
    rc = viz_totals_run(cat, o, &t, err);
    viz_totals_apply(rec, &t);
    if (rc)
        viz_recording_free(rec);
    return rc;
}
