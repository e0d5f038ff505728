/* cmd_sim.c - `warpscope sim`: resolve a described kernel, simulate it on the CPU
 * with the memory models listening, and print the report (text, --json, --csv, or
 * two variants side by side with --compare).
 * Invariant: every exit path frees what it loaded and returns a WS_EXIT_* code. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/desc.h"
#include "../common/device.h"
#include "../common/measured.h"
#include "interp.h"
#include "memstats.h"
#include "occupancy.h"
#include "ptx.h"
#include "report.h"
#include "resources.h"
#include "timing.h"

#define DEFAULT_ARCH "sm_90"

typedef struct {
    const ws_desc_file *file;
    const ws_kernel_desc *desc;
    ws_desc_file *owned_file;
    ws_launch launch;
    struct ptx_module *mod;
    const ptx_function *fn;
    ws_resources resources;
    ws_occupancy occ;
    ws_memstats *ms;
    ws_sim_result res;
    int have_res;
    ws_timing timing;
    ws_measured measured;
    ws_report rep;
} sim_run;

typedef struct {
    struct timespec start;
    bool tty;
    bool shown;
    double last;       /* seconds at the last line printed */
    const char *name;
} progress_state;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Progress on stderr: on a terminal a line rewritten ~5 times a second; otherwise,
 * once a run has taken over a second, one line every 5 seconds. */
static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_state *p = ctx;
    double el = seconds_since(&p->start);
    if (el < 1.0 || el - p->last < (p->tty ? 0.2 : 5.0))
        return;
    p->last = el;
    fprintf(stderr, "\rwarpscope sim: %s: %llu/%llu blocks (%.0f %%), %.1f s", p->name, (unsigned long long)done,
            (unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0, el);
    if (!p->tty)
        fputc('\n', stderr);
    fflush(stderr);
    p->shown = true;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: warpscope sim <kernel> [-D NAME=VALUE]... [--device KEY] [--json | --csv] [--lines] [--results DIR]\n"
            "       warpscope sim --compare <kernelA> <kernelB> [-D NAME=VALUE]... [--device KEY] [--json | --csv]\n"
            "\n"
            "Simulates a described kernel on the CPU and reports, under Nsight Compute's metric names,\n"
            "its global/local sectors, shared-memory wavefronts and bank conflicts (exact), L1/L2/DRAM\n"
            "traffic (modelled), occupancy and a predicted time and bandwidth, and beside it the time\n"
            "recorded on that GPU by `warpscope check --record` when results/ has this kernel and -D.\n"
            "\n"
            "  <kernel>          a catalog name (warpscope list), path/to/k.cu, or path/to/k.cu:name\n"
            "  -D NAME=VALUE     override a description parameter (repeatable; both variants in --compare)\n"
            "  --device KEY      device profile (default h200):");
    for (const ws_device *const *d = ws_device_all(); *d; d++)
        fprintf(to, " %s", (*d)->key);
    fprintf(to, "\n"
                "  --json            one JSON document on stdout\n"
                "  --csv             scope,line,name,value,basis,description rows on stdout\n"
                "  --lines           the per-line table shows every source line of the kernel\n"
                "  --compare A B     two variants side by side (totals, occupancy, predicted time)\n"
                "  --arch sm_XX      PTX target when the PTX has to be compiled (default " DEFAULT_ARCH ")\n"
                "  --results DIR     recorded GPU results folder (default <catalog>/../results, then ./results)\n"
                "  --help            this text\n"
                "\n"
                "exit codes: 0 ok, 1 usage or input error, 2 the kernel faulted in simulation, 5 internal error\n");
}

static void free_run(sim_run *r)
{
    ws_memstats_free(r->ms);
    if (r->have_res)
        ws_sim_result_free(&r->res);
    if (r->mod)
        ptx_free(r->mod);
    if (r->owned_file)
        ws_desc_free(r->owned_file);
    memset(r, 0, sizeof *r);
}

/* The run of this kernel recorded on dev in <dir>/<dev key>.json: dir is --results, else
 * <catalog>/../results, else ./results. */
static bool find_measured(const ws_catalog *cat, const char *results_dir, const ws_device *dev, const char *kernel,
                          const ws_overrides *ov, ws_measured *m)
{
    char ovt[512], dir[WS_PATH_MAX + 16];
    ws_overrides_text(ov, ovt, sizeof ovt);
    if (results_dir)
        return ws_measured_find(results_dir, dev->key, kernel, ovt, m) == 0;
    snprintf(dir, sizeof dir, "%s/../results", cat->dir);
    return ws_measured_find(dir, dev->key, kernel, ovt, m) == 0 || ws_measured_find("results", dev->key, kernel, ovt, m) == 0;
}

/* Loads, resolves and simulates one kernel argument. Returns a WS_EXIT_* code. */
static int run_one(ws_catalog *cat, const char *arg, const ws_overrides *ov, const ws_device *dev, const char *arch,
                   const char *results_dir, sim_run *r)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    if (ws_catalog_resolve(cat, arg, &r->file, &r->desc, &r->owned_file, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    if (ws_desc_resolve(r->desc, ov, &r->launch, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    r->mod = ws_catalog_ptx(r->file, arch, &err);
    if (!r->mod) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    r->fn = ptx_find_function(r->mod, r->desc->entry);
    if (!r->fn) {
        fprintf(stderr, "warpscope: %s:%d: kernel '%s': no function '%s' in the PTX (%s)\n", r->file->path,
                r->desc->line, r->desc->name, r->desc->entry, r->mod->path);
        return WS_EXIT_USAGE;
    }

    ws_resources_of(r->file->path, r->fn, &r->resources);
    uint64_t threads = (uint64_t)r->launch.block[0] * r->launch.block[1] * r->launch.block[2];
    ws_occ_input oi = {(int)threads, r->resources.regs, r->resources.static_smem, (uint32_t)r->launch.shared_bytes,
                       -1, 1};
    if (ws_occupancy_calc(dev, &oi, &r->occ)) {
        fprintf(stderr, "warpscope: %s:%d: %s: %s\n", r->file->path, r->desc->line, r->desc->name, r->occ.reason);
        return WS_EXIT_USAGE;
    }
    if (r->occ.blocks_per_sm == 0) {
        fprintf(stderr, "warpscope: %s:%d: %s cannot launch on %s: %s\n", r->file->path, r->desc->line, r->desc->name,
                dev->name, r->occ.reason);
        return WS_EXIT_USAGE;
    }

    r->ms = ws_memstats_new(dev, &r->launch, r->fn->ninsns, r->occ.l1_bytes);
    if (!r->ms) {
        fprintf(stderr, "warpscope: sim: out of memory for the cache model of %s\n", dev->name);
        return WS_EXIT_INTERNAL;
    }
    ws_memstats_set_resident_blocks(r->ms, r->occ.blocks_per_sm);

    progress_state ps;
    clock_gettime(CLOCK_MONOTONIC, &ps.start);
    ps.tty = isatty(2);
    ps.shown = false;
    ps.last = 0;
    ps.name = r->desc->name;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r->mod;
    cfg.fn = r->fn;
    cfg.launch = &r->launch;
    cfg.source_file = r->file->path;
    cfg.listener = ws_memstats_listener;
    cfg.listener_ctx = r->ms;
    cfg.progress = on_progress;
    cfg.progress_ctx = &ps;
    int rc = ws_sim_run(&cfg, &r->res, &err);
    r->have_res = 1;
    double secs = seconds_since(&ps.start);
    if (ps.shown && ps.tty)
        fprintf(stderr, "\r%*s\r", 79, "");
    if (rc) {
        ws_error_print(&err);
        return WS_EXIT_KERNEL_FAULT;
    }
    ws_memstats_finish(r->ms);

    ws_timing_input ti;
    ws_timing_input_from_memstats(r->ms, &r->occ, r->res.warp_insns, r->launch.bytes_moved, &ti);
    if (ws_timing_predict(dev, &ti, &r->timing))
        fprintf(stderr, "warpscope: sim: device profile %s has no clock or bandwidth: no time predicted\n", dev->key);

    ws_report *p = &r->rep;
    p->kernel = r->desc->name;
    p->entry = r->fn->name;
    p->source_path = r->file->path;
    p->source_text = r->file->source;
    p->kernel_line = r->desc->kernel_line ? r->desc->kernel_line : r->desc->line;
    p->note = r->desc->note;
    p->launch = &r->launch;
    p->dev = dev;
    p->regs = r->resources.regs;
    p->regs_source = r->resources.source;
    p->static_smem = r->resources.static_smem;
    p->local_bytes = r->resources.local_bytes;
    p->occ = &r->occ;
    p->ms = r->ms;
    p->timing = &r->timing;
    p->warp_insns = r->res.warp_insns;
    p->thread_insns = r->res.thread_insns;
    p->sim_seconds = secs;
    p->measured = find_measured(cat, results_dir, dev, r->desc->name, ov, &r->measured) ? &r->measured : NULL;
    if (r->res.memory_warnings)
        fprintf(stderr, "warpscope: sim: %s: %llu memory warnings; first: %s\n", r->desc->name,
                (unsigned long long)r->res.memory_warnings, r->res.first_warning);
    return WS_EXIT_OK;
}

int ws_cmd_sim(int argc, char **argv)
{
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    const char *kernels[2] = {NULL, NULL};
    int nkernels = 0;
    bool json = false, csv = false, lines = false, compare = false;
    const char *device_key = NULL, *arch = DEFAULT_ARCH, *results_dir = NULL;
    ws_error err;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return WS_EXIT_OK;
        } else if (!strcmp(a, "-D") || !strncmp(a, "-D", 2)) {
            const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                fprintf(stderr, "warpscope: sim: -D needs NAME=VALUE\n");
                return WS_EXIT_USAGE;
            }
            if (ws_overrides_add(&ov, v, &err)) {
                ws_error_print(&err);
                return WS_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--device") || !strcmp(a, "--arch") || !strcmp(a, "--results")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpscope: sim: %s needs a value\n", a);
                return WS_EXIT_USAGE;
            }
            if (!strcmp(a, "--device"))
                device_key = argv[++i];
            else if (!strcmp(a, "--arch"))
                arch = argv[++i];
            else
                results_dir = argv[++i];
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--csv")) {
            csv = true;
        } else if (!strcmp(a, "--lines")) {
            lines = true;
        } else if (!strcmp(a, "--compare")) {
            compare = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpscope: sim: unknown option '%s'\n", a);
            usage(stderr);
            return WS_EXIT_USAGE;
        } else if (nkernels < 2) {
            kernels[nkernels++] = a;
        } else {
            fprintf(stderr, "warpscope: sim: too many kernels ('%s'); --compare takes two\n", a);
            return WS_EXIT_USAGE;
        }
    }
    if (json && csv) {
        fprintf(stderr, "warpscope: sim: choose one of --json and --csv\n");
        return WS_EXIT_USAGE;
    }
    if (nkernels != (compare ? 2 : 1)) {
        fprintf(stderr, compare ? "warpscope: sim: --compare needs two kernels\n"
                                : "warpscope: sim: give one kernel (or --compare A B)\n");
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    const ws_device *dev = device_key ? ws_device_find(device_key) : ws_device_default();
    if (!dev) {
        fprintf(stderr, "warpscope: sim: unknown device '%s'; known:", device_key);
        for (const ws_device *const *d = ws_device_all(); *d; d++)
            fprintf(stderr, " %s", (*d)->key);
        fputc('\n', stderr);
        return WS_EXIT_USAGE;
    }

    ws_catalog *cat = NULL;
    if (ws_catalog_load(NULL, &cat, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    static sim_run runs[2];
    int rc = WS_EXIT_OK;
    for (int k = 0; k < nkernels && rc == WS_EXIT_OK; k++)
        rc = run_one(cat, kernels[k], &ov, dev, arch, results_dir, &runs[k]);
    if (rc == WS_EXIT_OK) {
        if (compare && json) {
            /* an array of the two report objects */
            fputs("[\n", stdout);
            for (int k = 0; k < 2 && rc == WS_EXIT_OK; k++) {
                if (ws_report_json(stdout, &runs[k].rep))
                    rc = WS_EXIT_INTERNAL;
                if (k == 0)
                    fputs(",\n", stdout);
            }
            fputs("]\n", stdout);
        } else if (compare && csv) {
            ws_report_csv(stdout, &runs[0].rep);
            ws_report_csv(stdout, &runs[1].rep);
        } else if (compare) {
            ws_report_compare(stdout, &runs[0].rep, &runs[1].rep);
        } else if (json) {
            if (ws_report_json(stdout, &runs[0].rep)) {
                fprintf(stderr, "warpscope: sim: this build has no JSON support (libcjson missing)\n");
                rc = WS_EXIT_INTERNAL;
            }
        } else if (csv) {
            ws_report_csv(stdout, &runs[0].rep);
        } else {
            ws_report_text(stdout, &runs[0].rep, lines);
        }
    }
    for (int k = 0; k < 2; k++)
        free_run(&runs[k]);
    ws_catalog_free(cat);
    return rc;
}
