/* check_sim.c - the simulator's side of a check (see check_sim.h): the shared pipeline
 * (sim/simulate.h) with the driver's register count, its metrics under ncu's names: the
 * metric table's rows with a hardware counter (sim/models/metrics.h). */
#include "check_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/device.h"
#include "../sim/interp/racecheck.h"
#include "../sim/models/metrics.h"
#include "../sim/simulate.h"

static void add_as(chk_sim_side *ss, const char *name, double v, bool model)
{
    if (ss->n >= CHK_SIM_MAX) return;
    snprintf(ss->name[ss->n], sizeof ss->name[ss->n], "%s", name);
    ss->model[ss->n] = model;
    ss->value[ss->n++] = v;
}

static void add(chk_sim_side *ss, const char *name, double v) { add_as(ss, name, v, false); }

/* A CHECK row's simulator value, where its value column gives one (NAN: none). */
#define CHECK_ROW(id, name, unit, basis, judge, slack, ncu, space, op, kind, help, value) \
    do {                                                                            \
        double v_ = (double)(value);                                                \
        if (!isnan(v_)) add(ss, name, v_);                                          \
    } while (0);

bool chk_racecheck_clean(const chk_sim_side *ss) { return ss->racechecked && ss->hazards == 0; }

const double *chk_sim_value(const chk_sim_side *ss, const char *name)
{
    for (int i = 0; i < ss->n; i++)
        if (!strcmp(ss->name[i], name)) return &ss->value[i];
    return NULL;
}

bool chk_sim_exact_estimated(const chk_sim_side *ss)
{
    const ws_sample_info *si = &ss->sample;
    return si->sampled && !(si->exact_exact && si->single_kinds == 0); /* as the sampler's text says it */
}

bool chk_sim_is_model(const chk_sim_side *ss, const char *name)
{
    for (int i = 0; i < ss->n; i++)
        if (!strcmp(ss->name[i], name)) return ss->model[i];
    return false;
}

int chk_simulate(const cu_target *t, const cu_kernel_attrs *attrs, const char *gpu_name, ws_sim_result *res,
                 chk_sim_side *ss, ws_error *err)
{
    return chk_simulate_sampled(t, attrs, gpu_name, WS_SAMPLE_OFF, true, res, ss, err);
}

int chk_simulate_sampled(const cu_target *t, const cu_kernel_attrs *attrs, const char *gpu_name, ws_sample_mode mode,
                         bool racecheck, ws_sim_result *res, chk_sim_side *ss, ws_error *err)
{
    memset(ss, 0, sizeof *ss);
    const ws_device *dev = ws_device_find(gpu_name);
    if (!dev) {
        dev = ws_device_default();
        snprintf(ss->note, sizeof ss->note, "no device profile for '%s': simulated as %s", gpu_name, dev->name);
    }
    /* the registers and static shared memory the driver's JIT gave this PTX set the occupancy */
    ws_resources rs = {.regs = attrs->num_regs, .static_smem = (uint32_t)attrs->static_shared_bytes,
                       .local_bytes = (uint64_t)attrs->local_bytes, .from_ptxas = true};
    snprintf(rs.source, sizeof rs.source, "the driver's JIT for %s", gpu_name);
    static ws_simulation sim; /* large; one kernel at a time */
    ws_simulation_attach(&sim, dev, t->file, t->desc, &t->launch, t->module, t->fn, &rs);
    /* the driver has accepted the block; racecheck runs by default under check (issue 7):
     * hazards are printed, the exit code stays check's own */
    ws_simulation_opts o = {.fit_one_block = true, .racecheck = racecheck && !t->launch.cooperative && mode == WS_SAMPLE_OFF,
                            .ptx_text = t->ptx, .sample = mode};
    if (t->launch.cooperative && !ss->note[0]) /* racecheck follows one block at a time */
        snprintf(ss->note, sizeof ss->note, "racecheck skipped: a cooperative launch's blocks run interleaved");
    int rc = ws_simulation_run(&sim, &o, err);
    if (sim.race && t->file && t->desc) ws_racecheck_print(sim.race, stderr, t->file->path, t->desc->name);
    /* a run that stopped at a fault was not checked to its end: no clean summary for it */
    ss->stop = sim.result.stop;
    ss->racechecked = sim.race != NULL && rc == WS_EXIT_OK;
    ss->hazards = sim.race ? ws_racecheck_count(sim.race) : 0;
    if (rc == WS_EXIT_OK) {
        int n = ws_memstats_metrics(sim.ms, NULL, 0);
        ws_metric *rows = n > 0 ? calloc((size_t)n, sizeof *rows) : NULL;
        if (rows) {
            n = ws_memstats_metrics(sim.ms, rows, n);
            for (int i = 0; i < n; i++) {
                const ws_metric_info *m = rows[i].info;
                if (m->ncu != WS_NCU_OWN) /* a warpscope row has no counter */
                    add_as(ss, m->name, rows[i].value, m->basis == WS_BASIS_EXACT && rows[i].basis == WS_BASIS_MODEL);
                if (m->kind == WS_KIND_WMMA && m->unit == WS_UNIT_INST) ss->wmma_accesses += rows[i].value;
                if (m->id == WS_METRIC_L2_FAR_MISS) {
                    ss->have_far = true;
                    ss->far_miss_sectors = rows[i].value;
                }
                if (m->id == WS_METRIC_L2_DIRTY_AT_END) {
                    ss->have_dirty = true;
                    ss->dirty_at_end_bytes = rows[i].value;
                }
            }
            free(rows);
        }
        const ws_simulation *s = &sim; /* the CHECK rows' context (sim/models/metrics.h) */
        WS_METRICS_CHECK(CHECK_ROW)
        if (sim.have_timing) {
            ss->have_time = true;
            ss->timing = sim.timing;
            ss->time_ns = sim.timing.t_kernel_us * 1000.0;
        }
        ws_notes_build(&ss->notes, dev, sim.ms, ws_models_atomic_totals(sim.models), sim.have_timing ? &sim.timing : NULL,
                       t->fn, &t->launch);
        ss->sampled = sim.sampler != NULL;
        snprintf(ss->sampling, sizeof ss->sampling, "%s", sim.sampling);
        ws_sampler_info(sim.sampler, &ss->sample); /* before close frees the sampler */
        *res = sim.result; /* the caller frees the final buffers after the output check */
        sim.have_result = false;
    }
    ss->sass = sim.sass && sim.sass->active;
    if (ss->sass) ss->guess = sim.sass->guess;
    if (sim.sass) snprintf(ss->level, sizeof ss->level, "%s", sim.sass->level);
    ws_simulation_close(&sim);
    return rc;
}
