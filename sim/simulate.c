/* simulate.c - the shared "simulate one kernel with the memory models" pipeline (see
 * simulate.h). Invariant: every step that can fail leaves s closable, so callers have one
 * exit path: ws_simulation_close after any return. */
#include "simulate.h"
#include "split.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/commands.h"
#include "frontend/catalog_ptx.h"
#include "models/pipes.h"
#include "interp/launch_check.h"
#include "models/cache.h"

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

typedef struct {
    struct timespec start;
    bool tty;
    bool shown;
    double last;       /* seconds at the last line printed */
    const char *label; /* "warpscope sim" */
    const char *name;  /* the kernel */
} progress_state;

/* Progress on stderr: on a terminal a line rewritten ~5 times a second; otherwise,
 * once a run has taken over a second, one line every 5 seconds. */
/* The tensor pipe's instructions from the PTX, where no SASS was read: mma.sync is one HMMA /
 * IMMA / DMMA, wmma.mma m16n16k16 two (its two n8 halves; what ptxas makes of it for sm_80+). */
static uint64_t *timed_counts(const ws_simulation *s, double f);

static void ptx_tensor_insns(const ptx_function *fn, const uint64_t *pc_warp_count, uint64_t out[4])
{
    memset(out, 0, 4 * sizeof out[0]);
    for (int pc = 0; pc_warp_count && pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op != PTX_MMA && in->op != PTX_WMMA_MMA) continue;
        int cls = in->tc.atype == PTX_MT_S8 || in->tc.atype == PTX_MT_U8 ? 2 : in->tc.atype == PTX_MT_F64 ? 3 : 1;
        uint64_t n = pc_warp_count[pc] * (in->op == PTX_WMMA_MMA ? 2u : 1u);
        out[cls] += n;
        out[0] += n;
    }
}

/* The sampler's plan: the lead waves' read-coalescing drift stands for the whole grid's (sample.h). */
static void drift_scale_cb(void *ctx, double scale) { ws_models_set_drift_scale(ctx, scale); }

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_state *p = ctx;
    double el = seconds_since(&p->start);
    if (el < 1.0 || el - p->last < (p->tty ? 0.2 : 5.0))
        return;
    p->last = el;
    fprintf(stderr, "\r%s: %s: %llu/%llu blocks (%.0f %%), %.1f s", p->label, p->name, (unsigned long long)done,
            (unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0, el);
    if (!p->tty)
        fputc('\n', stderr);
    fflush(stderr);
    p->shown = true;
}

int ws_simulation_open(ws_simulation *s, ws_catalog *cat, const char *arg, const ws_overrides *ov,
                       const ws_device *dev, const char *arch, ws_error *err)
{
    memset(s, 0, sizeof *s);
    s->dev = dev;
    snprintf(s->arch, sizeof s->arch, "%s", arch ? arch : "sm_90");
    if (ws_catalog_resolve(cat, arg, &s->file, &s->desc, &s->owned_file, err))
        return WS_EXIT_USAGE;
    if (ws_desc_resolve(s->desc, ov, &s->launch, err))
        return WS_EXIT_USAGE;
    arch = ws_launch_arch(&s->launch, arch);     /* a description's `target sm_90a` */
    snprintf(s->arch, sizeof s->arch, "%s", arch ? arch : "sm_90");
    s->ptx = ws_catalog_ptx_text_for(s->file, &s->launch, arch, WS_PTX_SAME_TARGET, &s->ptx_origin, err);
    if (!s->ptx)
        return WS_EXIT_USAGE;
    s->mod = s->owned_mod = ptx_parse(s->ptx_origin.path, s->ptx, err);
    if (!s->mod)
        return WS_EXIT_USAGE;
    s->fn = ws_catalog_entry(s->mod, s->ptx, s->desc, err); /* the exact instantiation or overload */
    if (!s->fn)
        return WS_EXIT_USAGE;
    if (ws_sim_check_runnable(s->mod, s->fn, s->file->path, s->desc->name, err))
        return WS_EXIT_USAGE;                    /* only this kernel: the file's others run */
    ws_resources_of(s->file->path, s->fn, s->ptx, arch, &s->resources);
    return WS_EXIT_OK;
}

void ws_simulation_attach(ws_simulation *s, const ws_device *dev, const ws_desc_file *file,
                          const ws_kernel_desc *desc, const ws_launch *launch, const ptx_module *mod,
                          const ptx_function *fn, const ws_resources *resources)
{
    memset(s, 0, sizeof *s);
    s->dev = dev;
    s->file = file;
    s->desc = desc;
    s->launch = *launch;
    s->mod = mod;
    s->fn = fn;
    s->resources = *resources;
}

int ws_simulation_run(ws_simulation *s, const ws_simulation_opts *o, ws_error *err)
{
    static const ws_simulation_opts none;
    if (!o)
        o = &none;
    const ws_launch *L = &s->launch;
    if (ws_sim_check_runnable(s->mod, s->fn, s->file->path, s->desc->name, err))
        return WS_EXIT_USAGE;                    /* PTX it cannot run: an input error, not a fault */
    if (ws_launch_bounds_check(s->fn, L, s->desc->name, s->file->path, s->desc->line, err))
        return WS_EXIT_USAGE;            /* the driver refuses it: an input error */
    if (L->cooperative && o->racecheck) {
        ws_error_set(err, s->file->path, s->desc->line, 0, "%s: racecheck follows one block at a time and cannot yet "
                     "check a cooperative launch, whose blocks run interleaved; run it without --racecheck",
                     s->desc->name);
        return WS_EXIT_USAGE;
    }
    int cap = ws_launch_bounds_reg_cap(s->fn, s->dev);
    if (!s->resources.from_ptxas && cap && s->resources.regs > cap) { /* ptxas would have kept within them */
        s->resources.regs = cap;
        size_t n = strlen(s->resources.source);
        snprintf(s->resources.source + n, sizeof s->resources.source - n, ", capped at %d by the launch bounds", cap);
    }
    uint64_t threads = ws_launch_threads_per_block(L);
    ws_occ_input oi = {(int)threads, s->resources.regs, s->resources.static_smem, (uint32_t)L->shared_bytes, -1,
                       ws_barriers_used(s->fn)}; /* named barriers limit blocks per SM on sm_90 */
    if (ws_occupancy_calc(s->dev, &oi, &s->occ)) {
        ws_error_set(err, s->file->path, s->desc->line, 0, "%s: %s", s->desc->name, s->occ.reason);
        return WS_EXIT_USAGE;
    }
    if (s->occ.blocks_per_sm == 0 && !o->fit_one_block) {
        ws_error_set(err, s->file->path, s->desc->line, 0, "%s cannot launch on %s: %s", s->desc->name, s->dev->name,
                     s->occ.reason);
        return WS_EXIT_USAGE;
    }
    if (ws_cooperative_check(L, s->dev, &s->occ, s->desc->name, s->file->path, s->desc->line, err))
        return WS_EXIT_USAGE;
    /* the L1 left beside the shared carve-out, and the blocks sharing it, decide the hit rates */
    char why[160];
    if (ws_models_check_device(s->dev, why, sizeof why)) {
        ws_error_set(err, s->file->path, s->desc->line, 0, "%s", why);
        return WS_EXIT_INTERNAL;
    }
    s->models = ws_models_new(s->dev, L, s->occ.l1_bytes);
    s->ms = ws_memstats_new(s->dev, L, s->fn->ninsns);
    s->latency = ws_latency_new(s->dev, L);
    if (!s->models || !s->ms || !s->latency) {
        ws_error_set(err, s->file->path, s->desc->line, 0, "out of memory for the memory models of %s", s->dev->name);
        return WS_EXIT_INTERNAL;
    }
    ws_models_set_resident_blocks(s->models, s->occ.blocks_per_sm > 0 ? s->occ.blocks_per_sm : 1);
    if (ws_latency_set_function(s->latency, s->fn)) { /* its barriers and dependent loads shape the latency */
        ws_error_set(err, s->file->path, s->desc->line, 0, "out of memory analysing %s", s->desc->name);
        return WS_EXIT_INTERNAL;
    }
    ws_models_add_sink(s->models, ws_memstats_verdict, s->ms);
    ws_models_add_sink(s->models, ws_latency_verdict, s->latency);
    if (o->observer)
        ws_models_add_sink(s->models, o->observer, o->observer_ctx);

    progress_state ps;
    memset(&ps, 0, sizeof ps);
    clock_gettime(CLOCK_MONOTONIC, &ps.start);
    ps.tty = isatty(2);
    ps.label = o->progress_label;
    ps.name = s->desc->name;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = s->mod;
    cfg.shared_limit = ws_device_most_shared();   /* a block any GPU could run, whichever is simulated */
    cfg.fn = s->fn;
    cfg.launch = L;
    cfg.source_file = s->file->path;
    cfg.listener = ws_models_listener;
    cfg.listener_ctx = s->models;
    cfg.progress = o->progress_label ? on_progress : NULL;
    cfg.progress_ctx = &ps;
    cfg.memory_errors_are_warnings = o->memory_errors_are_warnings;
    cfg.max_thread_insns = o->max_thread_insns;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);      /* the default: every core, the same answer as one */
    cfg.threads = o->threads > 0 ? o->threads : ncpu > 0 ? (int)(ncpu < 256 ? ncpu : 256) : 1;
    cfg.printf_out = o->printf_out;
    cfg.stop = o->stop;
    cfg.on_async = o->on_async;
    cfg.async_ctx = o->async_ctx;
    cfg.lazy_fill = o->lazy_fill;
    /* setmaxnreg's pool: what the block was given, ptxas's count at the allocation granularity (an
       estimate is no pool to wait on) */
    cfg.regs_per_thread = s->resources.from_ptxas ? (uint32_t)s->occ.regs_per_warp / 32 : 0;
    /* the SASS stage sits right in front of the models: racecheck still sees the PTX's accesses */
    if (!o->ptx_level || o->sass_listing) {
        s->sass = ws_sass_session_open(s->ptx ? s->ptx : o->ptx_text, s->fn, s->mod->target, o->sass_listing);
        if (!s->sass || ws_sass_session_attach(s->sass, &cfg)) {
            ws_error_set(err, s->file->path, s->desc->line, 0, "out of memory for the SASS stage of %s", s->desc->name);
            return WS_EXIT_INTERNAL;
        }
        if (s->sass->active && !o->sass_listing && s->arch[0] && s->mod->target[0] && strcmp(s->arch, s->mod->target)) {
            size_t n = strlen(s->sass->level); /* the PTX could not be made for the target asked for */
            snprintf(s->sass->level + n, sizeof s->sass->level - n, "; %s's machine code, an approximation for %s",
                     s->mod->target, s->arch);
        }
        if (s->sass->active && s->sass->plan) { /* where its warps wait for their loads (latency epochs) */
            int nw = 0;
            int *waits = ws_sass_load_waits(s->sass->plan, &nw);
            ws_latency_set_load_waits(s->latency, waits, nw);
        }
    }
    if (o->racecheck) { /* in front of the models; it forwards */
        bool usage;                              /* a cluster the driver refuses is an input error */
        if (!(s->race = ws_racecheck_for_launch(s->fn, L, s->desc->name, s->file->path, s->desc->line, err, &usage)))
            return usage ? WS_EXIT_USAGE : WS_EXIT_INTERNAL;
        ws_racecheck_attach(s->race, &cfg);
    }
    /* block sampling: only where no checker or observer needs every block, and no block depends
       on another; the sampler is the run's only on_sync (racecheck is off here) */
    uint64_t grid_threads = ws_launch_blocks(L) * threads;
    if (o->block_next) { /* the caller's blocks: no sampler (the run's only block filter) */
        cfg.block_next = o->block_next;
        cfg.blocks_planned = o->blocks_planned;
        cfg.filter_ctx = o->filter_ctx;
    } else if (o->stop) {
        /* an early end: the run is partial, never sampled */
    } else if (o->sample != WS_SAMPLE_OFF && !o->racecheck && !o->memory_errors_are_warnings &&
               (!o->observer || o->observer_any_blocks)) {
        const char *why = ws_sample_refusal(s->mod, s->fn, L);
        if (why) {
            if (o->sample == WS_SAMPLE_ON || grid_threads > WS_SAMPLE_AUTO_THREADS)
                snprintf(s->sampling, sizeof s->sampling, "full: not sampled: %s", why);
        } else {
            uint64_t wave = (uint64_t)s->dev->sm_count * (uint64_t)(s->occ.blocks_per_sm > 0 ? s->occ.blocks_per_sm : 1);
            if (!(s->sampler = ws_sampler_new(o->sample, L, wave, s->ms, &s->result, s->fn->ninsns))) {
                ws_error_set(err, s->file->path, s->desc->line, 0, "out of memory for block sampling of %s", s->desc->name);
                return WS_EXIT_INTERNAL;
            }
            if (o->sample_waves) ws_sampler_set_waves(s->sampler, o->sample_waves);
            ws_sampler_on_plan(s->sampler, drift_scale_cb, s->models);
            ws_sampler_attach(s->sampler, &cfg);
            ws_models_set_trace(s->models, ws_sampler_trace, s->sampler); /* the L2 replay's accesses */
        }
    } else if (o->sample == WS_SAMPLE_ON)
        snprintf(s->sampling, sizeof s->sampling, "full: not sampled: %s",
                 o->racecheck || o->memory_errors_are_warnings ? "a checker looks at every block"
                                                                : "the caller observes every block");
    /* the threads do the SASS stage, the sectors and the bank rule beside the blocks (sim/split.h) */
    bool split_oom;
    ws_pipeline_split *split = o->racecheck ? NULL
                             : ws_pipeline_split_attach(&cfg, s->models, s->sass && s->sass->active ? s->sass->stage : NULL,
                                                        s->sass && s->sass->active ? s->sass->plan : NULL, &split_oom);
    int rc = ws_sim_run(&cfg, &s->result, err);
    ws_pipeline_split_free(split);
    s->have_result = true;
    s->seconds = seconds_since(&ps.start);
    if (ps.shown && ps.tty)
        fprintf(stderr, "\r%*s\r", 79, "");
    if (s->result.printf_dropped && o->printf_out)
        fprintf(stderr, "warpscope: %s: the kernel's printf produced %llu bytes past the GPU's %u KiB printf FIFO "
                        "(cudaLimitPrintfFifoSize); they were dropped, as the GPU drops them\n",
                s->desc->name, (unsigned long long)s->result.printf_dropped, WS_PRINTF_FIFO_BYTES >> 10);
    if (rc && s->result.predicted_seconds > 0) { /* the budget's prediction: how long it would have taken here */
        size_t n = strlen(err->msg);
        double t = s->result.predicted_seconds;
        snprintf(err->msg + n, sizeof err->msg - n, " (the whole launch would take about %.*f %s on this machine at "
                 "the pace of those blocks)", t < 1 ? 2 : t < 10 ? 1 : 0, t < 120 ? t : t < 7200 ? t / 60 : t / 3600,
                 t < 120 ? "s" : t < 7200 ? "min" : "h");
    }
    if (rc) /* a refused launch or instruction is the input's fault, not the kernel's */
        return s->result.stop == WS_SIM_REFUSED ? WS_EXIT_USAGE
             : s->result.stop == WS_SIM_OUT_OF_MEMORY ? WS_EXIT_INTERNAL : WS_EXIT_KERNEL_FAULT;
    ws_sass_session_finish(s->sass, &s->result); /* flushes its last event into the models */
    double f = 1.0;
    bool sampled = s->sampler && ws_sampler_scale(s->sampler);
    if (sampled) { /* every count for the whole grid */
        f = ws_sampler_factor(s->sampler);
        ws_sass_session_finish(s->sass, &s->result); /* its counts again, from the scaled pc counts */
    }
    uint64_t tensor[4];
    if (s->sass && s->sass->active) memcpy(tensor, s->sass->tensor_insns, sizeof tensor);
    else ptx_tensor_insns(s->fn, s->result.pc_warp_count, tensor);
    ws_memstats_set_tensor_insts(s->ms, tensor);
    ws_memstats_set_insts(s->ms, s->result.warp_insns, s->result.thread_insns);
    if (s->sass && s->sass->active) /* the SASS scope's rows (metrics.h): the SM's issued instructions */
        ws_memstats_set_sass_insns(s->ms, s->sass->warp_insns, s->sass->pipe_insns, s->sass->plan->insns_approximate);
    if (s->sass && s->sass->active && s->sass->sf) /* the launch fetches its machine code (cache.h) */
        ws_memstats_set_code(s->ms, (uint64_t)s->sass->sf->ninsns * 16u, 1);
    else
        ws_memstats_set_code(s->ms, (uint64_t)s->fn->ninsns * 16u, 0);
    ws_models_finish(s->models);
    ws_cache_totals cache = *ws_models_cache_totals(s->models);
    ws_atomic_totals atom = *ws_models_atomic_totals(s->models);
    if (sampled && (atom.global_inst || atom.global_red_inst)) {
        /* sampled because no atomic could reach global memory (ws_sample_refusal: generic ones
           proven shared, provenance.h); one that did would leave a sample's contention terms */
        ws_error_set(err, s->file->path, s->desc->line, 0,
                     "%s: block sampling relied on its generic atomics addressing shared memory "
                     "(sim/frontend/provenance.h), but %llu warp-level atomics of the sampled blocks reached global "
                     "memory, whose contention a sample does not scale to: a bug in that proof, or a pointer moved "
                     "out of the shared window; --full runs every block",
                     s->desc->name, (unsigned long long)(atom.global_inst + atom.global_red_inst));
        return WS_EXIT_INTERNAL;
    }
    if (sampled && cache.coalesced_sectors) /* read coalescing: the L1's factor (sim/sample.h) */
        f = ws_sampler_l1_factor(s->sampler);
    if (sampled) { /* the sampled stream's L2/DRAM sums, for the whole grid (sim/sample.h) */
        ws_cache_config cc;
        ws_cache_config_from_device(&cc, s->dev, s->occ.l1_bytes); /* the L1 replay's */
        ws_sampler_scale_cache(s->sampler, &cache, &cc);
        uint64_t *sh[] = {&atom.shared_inst, &atom.shared_passes, &atom.shared_serialised_inst,
                          &atom.shared_passes_sm_max}; /* global atomics are never sampled */
        for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) *sh[i] = (uint64_t)llround((double)*sh[i] * f);
    }
    if (sampled) snprintf(s->sampling, sizeof s->sampling, "%s", ws_sampler_text(s->sampler));
    ws_memstats_finish(s->ms, &cache);
    ws_latency_set_wait_counts(s->latency, s->result.pc_warp_count, s->fn->ninsns);
    ws_latency_finish(s->latency);
    if (sampled) ws_latency_scale(s->latency, f);

    ws_timing_input ti;
    bool sass = s->sass && s->sass->active; /* the issue term counts the instructions the SM issues */
    /* a blocking wait loop's retries are this schedule's: the GPU suspends the warp in its try_wait
       until the phase completes, so they issue nothing (docs/timing-model.md "Wait loops") */
    uint64_t *timed = timed_counts(s, sampled ? f : 1.0);
    uint64_t issued = sass ? s->sass->warp_insns : s->result.warp_insns;
    if (timed) {
        issued = sass ? ws_sass_warp_insns(s->sass->plan, timed) : 0;
        for (int pc = 0; !sass && pc < s->fn->ninsns; pc++) issued += timed[pc];
        uint64_t all = sass ? s->sass->warp_insns : s->result.warp_insns;
        s->spin_warp_insns = all > issued ? all - issued : 0;
    }
    /* each warp's own instructions and barriers hold it (docs/timing-model.md "Dependent chains") */
    ws_latency_add_chains(s->latency, (double)issued, s->result.pc_warp_count, s->fn->ninsns);
    ws_timing_input_from_memstats(s->ms, s->latency, &s->occ, issued, L->bytes_moved, &ti);
    ws_timing_input_add_atomics(&ti, &atom);
    uint64_t pipes[WS_PIPE_COUNT];
    if (sass && timed) ws_sass_pipe_insns(s->sass->plan, timed, pipes);
    else if (sass) memcpy(pipes, s->sass->pipe_insns, sizeof pipes);
    else ws_pipe_ptx_insns(s->fn, timed ? timed : s->result.pc_warp_count, pipes);
    free(timed);
    ws_timing_input_add_pipes(&ti, pipes);
    /* a cp.async.wait_group N > 0 that ran leaves N groups in flight while the block works: a
       pipeline, whose loads hide under its shared phase (docs/timing-model.md "Phases that add") */
    for (int pc = 0; s->result.pc_warp_count && pc < s->fn->ninsns; pc++)
        if (s->fn->insns[pc].op == PTX_CP_WAIT && s->fn->insns[pc].opnd[0].imm > 0 && s->result.pc_warp_count[pc])
            ti.copies_in_flight = 1;
    s->have_timing = ws_timing_predict(s->dev, &ti, &s->timing) == 0;
    return WS_EXIT_OK;
}

/* pc_warp_count less the blocking wait loops' retries (pc_spin_count, scaled by f with the sampled
 * counts), or NULL when there were none (or out of memory: the counts as run). */
static uint64_t *timed_counts(const ws_simulation *s, double f)
{
    const uint64_t *spin = s->result.pc_spin_count, *pc = s->result.pc_warp_count;
    int n = s->fn->ninsns;
    bool any = false;
    for (int i = 0; spin && pc && i < n && !any; i++) any = spin[i] != 0;
    uint64_t *t = any ? malloc((size_t)n * sizeof *t) : NULL;
    for (int i = 0; t && i < n; i++) {
        uint64_t sp = (uint64_t)llround((double)spin[i] * f);
        t[i] = pc[i] > sp ? pc[i] - sp : 0;
    }
    return t;
}

void ws_simulation_close(ws_simulation *s)
{
    ws_racecheck_free(s->race);
    ws_sass_session_free(s->sass);
    ws_sampler_free(s->sampler);
    ws_memstats_free(s->ms);
    ws_latency_free(s->latency);
    ws_models_free(s->models);
    if (s->have_result)
        ws_sim_result_free(&s->result);
    if (s->owned_mod)
        ptx_free(s->owned_mod);
    free(s->ptx);
    if (s->owned_file)
        ws_desc_free(s->owned_file);
    memset(s, 0, sizeof *s);
}
