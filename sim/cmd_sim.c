/* cmd_sim.c - `warpscope sim`: resolve a described kernel, simulate it on the CPU
 * with the memory models listening, and print the report (text, --json, --csv, or
 * two variants side by side with --compare).
 * Invariant: every exit path frees what it loaded and returns a WS_EXIT_* code. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/desc.h"
#include "../common/device.h"
#include "../common/measured.h"
#include "memcheck.h"
#include "racecheck.h"
#include "report.h"
#include "simulate.h"

#define DEFAULT_ARCH "sm_90"

typedef struct {
    ws_simulation sim;
    ws_measured measured;
    ws_report rep;
} sim_run;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: warpscope sim <kernel> [-D NAME=VALUE]... [--device KEY] [--json | --csv] [--lines] [--results DIR]\n"
            "                     [--racecheck] [--memcheck] [--budget N]\n"
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
                "  --racecheck       report shared-memory races between barriers and reads of unwritten\n"
                "                    shared memory (exit 2 if any)\n"
                "  --memcheck        count out-of-bounds and misaligned accesses per kind and go on, instead\n"
                "                    of stopping at the first (exit 2 if any)\n"
                "  --budget N        stop after N thread-instructions (default 4000000000): a kernel that\n"
                "                    loops forever ends with exit 2 and the line it was on\n"
                "  --help            this text\n"
                "\n"
                "exit codes: 0 ok, 1 usage or input error, 2 the kernel faulted in simulation, 5 internal error\n");
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

/* --racecheck / --memcheck / --budget (sim/racecheck.h, sim/memcheck.h): asked for on the
 * command line, applied in run_one; found is set when a checker reported anything, which
 * makes the exit code WS_EXIT_KERNEL_FAULT after the report is printed. */
static struct { bool racecheck, memcheck, found; uint64_t budget; } g_checks;

/* Loads, resolves and simulates one kernel argument. Returns a WS_EXIT_* code. */
static int run_one(ws_catalog *cat, const char *arg, const ws_overrides *ov, const ws_device *dev, const char *arch,
                   const char *results_dir, sim_run *r)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ws_simulation *s = &r->sim;
    int rc = ws_simulation_open(s, cat, arg, ov, dev, arch, &err);
    if (rc == WS_EXIT_OK) {
        ws_simulation_opts o = {.progress_label = "warpscope sim", .racecheck = g_checks.racecheck,
                                .memory_errors_are_warnings = g_checks.memcheck, .max_thread_insns = g_checks.budget};
        rc = ws_simulation_run(s, &o, &err);
    }
    if (s->race) {                             /* hazards up to a fault are worth seeing too */
        ws_racecheck_print(s->race, stderr, s->file->path, s->desc->name);
        g_checks.found |= ws_racecheck_count(s->race) > 0;
    }
    if (rc != WS_EXIT_OK) {
        ws_error_print(&err);
        return rc;
    }
    if (!s->have_timing)
        fprintf(stderr, "warpscope: sim: device profile %s has no clock or bandwidth: no time predicted\n", dev->key);

    ws_report *p = &r->rep;
    p->kernel = s->desc->name;
    p->entry = s->fn->name;
    /* a kernel defined in a header: its lines are the header's (desc.h: kernel_file) */
    p->source_path = s->desc->kernel_file ? s->desc->kernel_file : s->file->path;
    p->source_text = ws_desc_source_text(s->file, p->source_path, NULL);
    p->kernel_line = s->desc->kernel_line ? s->desc->kernel_line : s->desc->line;
    p->note = s->desc->note;
    p->launch = &s->launch;
    p->dev = dev;
    p->regs = s->resources.regs;
    p->regs_source = s->resources.source;
    p->static_smem = s->resources.static_smem;
    p->local_bytes = s->resources.local_bytes;
    p->occ = &s->occ;
    p->ms = s->ms;
    p->timing = &s->timing;
    p->warp_insns = s->result.warp_insns;
    p->thread_insns = s->result.thread_insns;
    p->sim_seconds = s->seconds;
    p->measured = find_measured(cat, results_dir, dev, s->desc->name, ov, &r->measured) ? &r->measured : NULL;
    if (g_checks.memcheck)
        g_checks.found |= ws_memcheck_print(&s->result, stderr) > 0;
    else if (s->result.memory_warnings)
        fprintf(stderr, "warpscope: sim: %s: %llu memory warnings; first: %s\n", s->desc->name,
                (unsigned long long)s->result.memory_warnings, s->result.first_warning);
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
        } else if (!strcmp(a, "--racecheck")) {
            g_checks.racecheck = true;
        } else if (!strcmp(a, "--memcheck")) {
            g_checks.memcheck = true;
        } else if (!strcmp(a, "--budget")) {
            char *end = NULL;
            errno = 0;
            unsigned long long v = i + 1 < argc ? strtoull(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || !end || *end || v == 0 || argv[i + 1][0] == '-' || errno == ERANGE) {
                fprintf(stderr, "warpscope: sim: --budget needs a positive number of thread-instructions\n");
                return WS_EXIT_USAGE;
            }
            g_checks.budget = v;
            i++;
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
    struct stat rsb;
    if (results_dir && (stat(results_dir, &rsb) != 0 || !S_ISDIR(rsb.st_mode))) {
        /* a mistyped folder would otherwise just hide the measured line */
        fprintf(stderr, "warpscope: sim: --results %s: %s\n", results_dir,
                errno == ENOENT ? "no such folder" : "not a folder");
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
        ws_simulation_close(&runs[k].sim);
    ws_catalog_free(cat);
    if (rc == WS_EXIT_OK && g_checks.found)
        rc = WS_EXIT_KERNEL_FAULT;
    return rc;
}
