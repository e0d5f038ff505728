/* check_sim.c - the simulator's side of a check (see check_sim.h): occupancy from the
 * driver's register count, memstats as the interpreter's listener, the timing model. */
#include "check_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/device.h"
#include "../sim/memstats.h"
#include "../sim/occupancy.h"
#include "cu_verify.h"

static void add(chk_sim_side *ss, const char *name, double v)
{
    if (ss->n >= CHK_SIM_MAX) return;
    snprintf(ss->name[ss->n], sizeof ss->name[ss->n], "%s", name);
    ss->value[ss->n++] = v;
}

const double *chk_sim_value(const chk_sim_side *ss, const char *name)
{
    for (int i = 0; i < ss->n; i++)
        if (!strcmp(ss->name[i], name)) return &ss->value[i];
    return NULL;
}

int chk_simulate(const cu_target *t, const cu_kernel_attrs *attrs, const char *gpu_name, ws_sim_result *res,
                 chk_sim_side *ss, ws_error *err)
{
    memset(ss, 0, sizeof *ss);
    const ws_device *dev = ws_device_find(gpu_name);
    if (!dev) {
        dev = ws_device_default();
        snprintf(ss->note, sizeof ss->note, "no device profile for '%s': simulated as %s", gpu_name, dev->name);
    }
    ws_occ_input in;
    memset(&in, 0, sizeof in);
    in.threads_per_block = (int)(t->launch.block[0] * t->launch.block[1] * t->launch.block[2]);
    in.regs_per_thread = attrs->num_regs; /* the real count, from the driver's JIT */
    in.static_smem = (uint32_t)attrs->static_shared_bytes;
    in.dynamic_smem = (uint32_t)t->launch.shared_bytes;
    in.carveout_percent = -1;
    in.barriers = 1;
    ws_occupancy occ;
    memset(&occ, 0, sizeof occ);
    if (ws_occupancy_calc(dev, &in, &occ)) {
        ws_error_set(err, t->file->path, t->desc->line, 0, "occupancy: %s", occ.reason);
        return WS_EXIT_USAGE;
    }
    ws_memstats *ms = ws_memstats_new(dev, &t->launch, t->fn->ninsns, occ.l1_bytes);
    if (!ms) {
        ws_error_set(err, t->file->path, t->desc->line, 0, "the memory model could not start (out of memory?)");
        return WS_EXIT_INTERNAL;
    }
    ws_memstats_set_resident_blocks(ms, occ.blocks_per_sm > 0 ? occ.blocks_per_sm : 1);
    if (ws_memstats_set_function(ms, t->fn)) {
        ws_memstats_free(ms);
        ws_error_set(err, t->file->path, t->desc->line, 0, "out of memory analysing the function");
        return WS_EXIT_INTERNAL;
    }
    if (cu_verify_simulate(t->module, t->fn, &t->launch, ws_memstats_listener, ms, res, err)) {
        ws_memstats_free(ms);
        return WS_EXIT_KERNEL_FAULT;
    }
    ws_memstats_finish(ms);
    int n = ws_memstats_metrics(ms, NULL, 0);
    ws_metric *rows = n > 0 ? calloc((size_t)n, sizeof *rows) : NULL;
    if (rows) {
        n = ws_memstats_metrics(ms, rows, n);
        for (int i = 0; i < n; i++)
            if (rows[i].name && strncmp(rows[i].name, "ws__", 4)) add(ss, rows[i].name, rows[i].value);
        free(rows);
    }
    add(ss, "sm__warps_active.avg.pct_of_peak_sustained_active", occ.occupancy_pct);
    ws_timing_input ti;
    ws_timing_input_from_memstats(ms, &occ, res->warp_insns, t->launch.bytes_moved, &ti);
    if (ws_timing_predict(dev, &ti, &ss->timing) == 0) {
        ss->have_time = true;
        ss->time_ns = ss->timing.t_kernel_us * 1000.0;
    }
    ws_memstats_free(ms);
    return 0;
}
