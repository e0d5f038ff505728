/* bench_interp.c - the interpreter's speed: every catalog description run with
 * no listener, thread-instructions per second per kernel and overall, then the
 * time to simulate a 4096 x 4096 transpose (-D W=4096 -D H=4096).
 * Usage: build/bench_interp [catalog-dir] [transpose-description]
 * Invariant: measures ws_sim_run alone (PTX parsing and description
 * resolution happen before the clock starts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/catalog.h"
#include "../common/desc.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/ptx.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs one resolved launch; returns seconds, or -1 on error (printed). */
static double run_one(const ptx_module *m, const ws_kernel_desc *d, const ws_launch *L, uint64_t *tins)
{
    ws_error err;
    const ptx_function *fn = ptx_find_function(m, d->entry);
    if (!fn) {
        fprintf(stderr, "bench: %s: no function '%s' in the PTX\n", d->name, d->entry);
        return -1;
    }
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = fn;
    cfg.launch = L;
    cfg.source_file = d->file;
    ws_sim_result res;
    double t0 = now();
    int rc = ws_sim_run(&cfg, &res, &err);
    double dt = now() - t0;
    *tins = res.thread_insns;
    ws_sim_result_free(&res);
    if (rc) {
        ws_error_print(&err);
        return -1;
    }
    return dt;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    const char *tname = argc > 2 ? argv[2] : "transpose_naive";
    ws_catalog *cat;
    ws_error err;
    if (ws_catalog_load(dir, &cat, &err)) {
        ws_error_print(&err);
        return 1;
    }
    printf("%-32s %14s %10s %12s\n", "kernel", "thread-insns", "seconds", "Minsn/s");
    uint64_t all_ins = 0;
    double all_t = 0;
    int failures = 0;
    const ws_kernel_desc *tdesc = NULL;
    const ptx_module *tmod = NULL;
    ptx_module **mods = calloc((size_t)cat->nfiles, sizeof *mods);
    for (int f = 0; f < cat->nfiles; f++) {
        const ws_desc_file *file = cat->files[f];
        mods[f] = ws_catalog_ptx(file, "sm_90", &err);
        if (!mods[f]) {
            ws_error_print(&err);
            failures++;
            continue;
        }
        for (int k = 0; k < file->nkernels; k++) {
            const ws_kernel_desc *d = &file->kernels[k];
            ws_launch L;
            if (ws_desc_resolve(d, NULL, &L, &err)) {
                ws_error_print(&err);
                failures++;
                continue;
            }
            if (!strcmp(d->name, tname)) { tdesc = d; tmod = mods[f]; }
            /* a `target sm_90a` description needs its own PTX (wgmma, setmaxnreg) */
            ptx_module *own = NULL;
            if (d->target[0] && !(own = ws_catalog_ptx(file, d->target, &err))) {
                ws_error_print(&err);
                failures++;
                continue;
            }
            uint64_t ins = 0;
            double dt = run_one(own ? own : mods[f], d, &L, &ins);
            ptx_free(own);
            if (dt < 0) { failures++; continue; }
            all_ins += ins;
            all_t += dt;
            printf("%-32s %14llu %10.4f %12.1f\n", d->name, (unsigned long long)ins, dt,
                   dt > 0 ? (double)ins / dt / 1e6 : 0.0);
        }
    }
    printf("%-32s %14llu %10.4f %12.1f\n", "ALL (one core)", (unsigned long long)all_ins, all_t,
           all_t > 0 ? (double)all_ins / all_t / 1e6 : 0.0);
    if (tdesc) {
        ws_overrides ov;
        memset(&ov, 0, sizeof ov);
        ws_launch L;
        if (ws_overrides_add(&ov, "W=4096", &err) || ws_overrides_add(&ov, "H=4096", &err) ||
            ws_desc_resolve(tdesc, &ov, &L, &err)) {
            ws_error_print(&err);
            failures++;
        } else {
            uint64_t ins = 0;
            double dt = run_one(tmod, tdesc, &L, &ins);
            if (dt < 0) failures++;
            else printf("%s 4096x4096: %.3f s (%llu thread-instructions, %.1f Minsn/s)\n", tname, dt,
                        (unsigned long long)ins, (double)ins / dt / 1e6);
        }
    } else {
        fprintf(stderr, "bench: no description '%s' in the catalog\n", tname);
        failures++;
    }
    for (int f = 0; f < cat->nfiles; f++) ptx_free(mods[f]);
    free(mods);
    ws_catalog_free(cat);
    return failures ? 1 : 0;
}
