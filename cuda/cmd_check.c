/* cmd_check.c - `warpscope check`: the simulator and the GPU side by side,
 * metric by metric (check_compare.h has the classes and tolerances), with the
 * output check, the cause of each difference where the PTX and the machine
 * code explain it, and results recorded as JSON / rendered as markdown.
 * Invariant: the simulator and the GPU run the same PTX text on the same
 * initial buffer contents; exit 3 when an exact counter or an output differs. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/text.h"

#include "../common/catalog.h"
#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "check_compare.h"
#include "check_explain.h"
#include "../common/csv.h"
#include "../common/emit.h"
#include "../common/save.h"
#include "../sim/interp/racecheck.h"
#include "../sim/models/metrics.h"
#include "check_others.h"
#include "check_replay.h"
#include "check_save.h"
#include "check_sim.h"
#include "check_validate.h"
#include "cu_counters.h"
#include "cu_results.h"
#include "cu_run.h"
#include "cu_sass.h"
#include "cu_target.h"
#include "cu_verify.h"


#define MAX_ROWS 128 /* as many as chk_sim_side holds (CHK_SIM_MAX) */
_Static_assert(MAX_ROWS <= CU_MAX_METRICS, "ncu's reader must keep every metric check asks for");

typedef struct {
    ws_cli_common c;           /* -D, --json */
    bool all, no_counters, gpu_only, no_sim, verbose;
    int reps;                  /* 0 = not given: CU_DEFAULT_REPS */
    const char *record, *markdown, *replay, *validate, *png;
    const char *save;          /* --save DIR: both sides' buffers (check_save.h) */
    bool save_inputs;
    const char **kernels;      /* the operands */
    int nkernels;
} check_opts;

static const ws_opt check_options[] = {
    {.name = "all", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, all), .help = "every kernel of the catalog"},
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_REALISTIC,
    {.name = "reps", .kind = WS_OPT_INT, .at = offsetof(check_opts, reps), .arg = "N", .lo = 1, .hi = 100000,
     .needs = "a count from 1 to 100000",
     .help = "timed repetitions after one warm-up (default " WS_CLI_STR(CU_DEFAULT_REPS) ")"},
    WS_CLI_OPT_JSON,
    WS_CLI_OPT_CSV,
    {.name = "record", .kind = WS_OPT_STRING, .at = offsetof(check_opts, record), .arg = "FILE", .needs = "a file",
     .help = "add the runs to FILE (JSON; runs of the same kernel and -D are replaced);\n"
             "a FILE ending in '/' means DIR/<gpu-key>.json (results/h200.json)"},
    {.name = "markdown", .kind = WS_OPT_STRING, .at = offsetof(check_opts, markdown), .arg = "F", .needs = "a file",
     .help = "print the markdown tables for a recorded JSON file (no GPU needed)"},
    {.name = "replay", .kind = WS_OPT_STRING, .at = offsetof(check_opts, replay), .arg = "F", .needs = "a file",
     .help = "no GPU needed: re-run the simulator side of every run recorded in F (or of the\n"
             "kernels named) with the models as built now, re-judge it against the recorded GPU\n"
             "values and print the agreement per class, recorded and now (--verbose: every row);\n"
             "exit 3 when an exact counter that agreed in the record differs now"},
    {.name = "verbose", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, verbose), .help = "--replay: every row"},
    {.name = "validate", .kind = WS_OPT_STRING, .at = offsetof(check_opts, validate), .arg = "F", .needs = "a file",
     .help = "no GPU needed: the validation report (markdown) over F and the results files\n"
             "named after it: every run replayed (runs without counters on their time, sampled),\n"
             "per class and per predicted bound n, within tolerance, median and p90 |error|, the\n"
             "worst rows with their cause; an operand ending in .csv is another GPU run of the\n"
             "recorded kernels (ncu CSV with a \"corpus kernel\" column: scripts/gpu-corpus-detail.sh),\n"
             "read for the causes (--replay takes one too): where it differs, the GPU's count varies"},
    {.name = "png", .kind = WS_OPT_STRING, .at = offsetof(check_opts, png), .arg = "FILE", .needs = "a file",
     .help = "--validate: also draw predicted vs measured time (log-log, y = x, +-20%) into FILE"},
    {.name = "no-counters", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, no_counters),
     .help = "skip ncu (outputs and time only)"},
    {.name = "save", .kind = WS_OPT_STRING, .at = offsetof(check_opts, save), .arg = "DIR", .needs = "a folder",
     .help = "write the output buffers as .npy files with a manifest.json, the simulator's\n"
             "in DIR/sim and the GPU's in DIR/gpu (DIR/<kernel>/sim, /gpu for several kernels)"},
    {.name = "save-inputs", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, save_inputs),
     .help = "with --save: also every buffer's initial contents (<buffer>.in.npy)"},
    {.name = "gpu-only", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, gpu_only),
     .help = "time and bandwidth only: no simulation, no output check, no counters (sizes too\n"
             "large to simulate, e.g. a working set well beyond L2 for bandwidth claims)"},
    {.name = "no-sim", .kind = WS_OPT_FLAG, .at = offsetof(check_opts, no_sim),
     .help = "GPU side only: the timed runs and the ncu counters, no simulation and no output\n"
             "check here; `check --replay`/`--validate` simulate it later on a sample of its blocks"},
};

static const ws_cli_spec check_spec = {
    .command = "check",
    .usage = "usage: warpscope check <kernel>... | --all  [-D NAME=VALUE]... [--realistic] [--reps N] [--json | --csv]\n"
             "                       [--record results/<gpu>.json] [--no-counters | --gpu-only | --no-sim]\n"
             "                       [--save DIR [--save-inputs]]\n"
             "       warpscope check --markdown results/<gpu>.json\n"
             "       warpscope check --replay results/<gpu>.json [<kernel>...] [other-run.csv...] [--verbose] [--json | --csv]\n"
             "       warpscope check --validate results/<gpu>.json [more results files] [other-run.csv...] [--png FILE]\n",
    .about = "Runs each kernel in the simulator and on the GPU present (same PTX, same initial buffers), checks\n"
             "the GPU's outputs against the simulator's, reads the hardware counters with ncu and compares them\n"
             "metric by metric: value, value, ratio, verdict. Tolerances per class:\n"
             "  exact  L1TEX requests/sectors, SASS-patched shared wavefronts, SASS memory   equal\n"
             "         instructions (the simulator counts the SASS where ptxas + nvdisasm are installed)\n"
             "  cache  L1 hit rate, L2 sectors, DRAM bytes, achieved occupancy               within 10%\n"
             "  time   kernel time (sim prediction vs event-timed median)                    within 25%\n"
             "  bound  raw shared wavefronts and bank conflicts (include L1 arbitration)     gpu >= sim\n"
             "Every difference gets its cause: the mechanism (the machine code against the PTX, dirty L2\n"
             "lines written back during the kernel, misses merged in flight, launch overhead, a\n"
             "low-confidence part of the prediction, ...: docs/checking.md), or \"unexplained: missing\"\n"
             "and the measurement that would decide it.\n",
    .opts = check_options,
    .nopts = WS_CLI_COUNT(check_options),
};

/* WS_CLI_RUN, or the exit code to return at once. */
static int parse(int argc, char **argv, check_opts *o)
{
    *o = (check_opts){.reps = 0};
    int rc = ws_cli_parse(&check_spec, argc, argv, o, &o->nkernels);
    if (rc != WS_CLI_RUN) return rc;
    o->kernels = (const char **)argv + 1;
    const bool reps_given = o->reps != 0;
    if (!reps_given) o->reps = CU_DEFAULT_REPS;
    /* --no-sim is the GPU side with its counters: --gpu-only leaves the counters out, --no-counters too */
    if (o->no_sim && (o->gpu_only || o->no_counters)) {
        fprintf(stderr, "warpscope: check: choose one of --no-sim and %s (--no-sim records the GPU's time and ncu "
                        "counters without simulating; %s)\n", o->gpu_only ? "--gpu-only" : "--no-counters",
                o->gpu_only ? "--gpu-only records its time alone" : "--no-counters simulates and leaves ncu out");
        return WS_EXIT_USAGE;
    }
    /* --markdown and --replay read a recorded file and run nothing on the GPU: refuse the
     * options they would silently ignore, so a user does not believe they took effect */
    if (o->markdown && o->replay) {
        fprintf(stderr, "warpscope: check: choose one of --markdown and --replay\n");
        return WS_EXIT_USAGE;
    }
    if (o->markdown && (o->nkernels || o->all || o->c.json || o->record || o->gpu_only || o->no_sim || o->no_counters ||
                        o->c.ov.n || o->c.ov.realistic || o->verbose || reps_given)) {
        fprintf(stderr, "warpscope: check: --markdown takes one results file and no other option or kernel\n");
        return WS_EXIT_USAGE;
    }
    if (o->markdown && o->c.csv) {
        fprintf(stderr, "warpscope: check: --markdown prints markdown; --csv goes with a run or --replay\n");
        return WS_EXIT_USAGE;
    }
    if ((o->markdown || o->replay) && (o->save || o->save_inputs)) {
        fprintf(stderr, "warpscope: check: --save writes the buffers of a run; --markdown and --replay run nothing\n");
        return WS_EXIT_USAGE;
    }
    if (o->save_inputs && !o->save) {
        fprintf(stderr, "warpscope: check: --save-inputs goes with --save DIR\n");
        return WS_EXIT_USAGE;
    }
    if (o->replay && (o->all || o->record || o->gpu_only || o->no_sim || o->no_counters || o->c.ov.n ||
                      o->c.ov.realistic || reps_given)) {
        fprintf(stderr, "warpscope: check: --replay takes kernel names, --verbose, --json and --csv only (it replays the "
                        "recorded -D sizes)\n");
        return WS_EXIT_USAGE;
    }
    if (o->png && !o->validate) {
        fprintf(stderr, "warpscope: check: --png draws the --validate report's plot; give --validate too\n");
        return WS_EXIT_USAGE;
    }
    if (o->validate && (o->markdown || o->replay || o->all || o->record || o->gpu_only || o->no_sim || o->no_counters ||
                        o->c.ov.n || o->c.ov.realistic || o->verbose || reps_given || o->c.json || o->c.csv)) {
        fprintf(stderr, "warpscope: check: --validate takes results files and --png only (it prints markdown)\n");
        return WS_EXIT_USAGE;
    }
    if (o->markdown || o->replay || o->validate) return WS_CLI_RUN;
    if (!o->all && !o->nkernels) {
        fprintf(stderr, "warpscope: check: which kernels? (names, or --all)\n");
        ws_cli_help(&check_spec, stderr);
        return WS_EXIT_USAGE;
    }
    if (o->all && o->nkernels) {
        fprintf(stderr, "warpscope: check: give kernel names or --all, not both\n");
        return WS_EXIT_USAGE;
    }
    return WS_CLI_RUN;
}

/* An operand ending in ".csv" is another GPU run of recorded kernels (check_others.h): loaded for
 * the causes, not a kernel or results file. Returns -1 (printed) when one cannot be read. */
static int take_others(const check_opts *o, const char **keep, int *nkeep)
{
    *nkeep = 0;
    for (int i = 0; i < o->nkernels; i++) {
        size_t n = strlen(o->kernels[i]);
        if (n > 4 && !strcmp(o->kernels[i] + n - 4, ".csv")) {
            ws_error err;
            if (chk_others_load(o->kernels[i], &err) < 0) {
                ws_error_print(&err);
                return -1;
            }
        } else
            keep[(*nkeep)++] = o->kernels[i];
    }
    return 0;
}

static int replay(const check_opts *o)
{
    ws_error err;
    const char **kernels = calloc((size_t)o->nkernels + 1, sizeof *kernels);
    int nk;
    if (!kernels) {
        fprintf(stderr, "warpscope: check: out of memory\n");
        return WS_EXIT_INTERNAL;
    }
    if (take_others(o, kernels, &nk)) {
        free(kernels);
        return WS_EXIT_USAGE;
    }
    int rc = chk_replay_as(o->replay, kernels, nk, o->verbose, ws_emit_format(o->c.json, o->c.csv, WS_FMT_MARKDOWN),
                           stdout, &err);
    free(kernels);
    if (rc && rc != WS_EXIT_MISMATCH) ws_error_print(&err);
    return rc;
}

/* --validate F [more files]: the operands are further results files. */
static int validate(const check_opts *o)
{
    const char **files = calloc((size_t)o->nkernels + 1, sizeof *files);
    ws_error err;
    if (!files) {
        fprintf(stderr, "warpscope: check: out of memory\n");
        return WS_EXIT_INTERNAL;
    }
    files[0] = o->validate;
    int nf;
    if (take_others(o, files + 1, &nf)) {
        free(files);
        return WS_EXIT_USAGE;
    }
    int rc = chk_validate(files, nf + 1, o->png, stdout, &err);
    if (rc) ws_error_print(&err);
    else if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "warpscope: check: cannot write the report to stdout\n");
        rc = WS_EXIT_USAGE;
    }
    free(files);
    return rc;
}

static int results_markdown(const check_opts *o)
{
    ws_error err;
    if (!cu_results_markdown(o->markdown, stdout, &err)) return WS_EXIT_OK;
    ws_error_print(&err);
    return WS_EXIT_USAGE;
}

#ifndef WS_HAVE_CUDA
int ws_cmd_check(int argc, char **argv)
{
    check_opts o;
    int p = parse(argc, argv, &o);
    int rc = WS_EXIT_NO_GPU;
    if (p != WS_CLI_RUN) rc = p;
    else if (o.markdown) {
        rc = results_markdown(&o);
    } else if (o.validate) {
        rc = validate(&o);
    } else if (o.replay) {
        rc = replay(&o);
    } else {
        fprintf(stderr, "warpscope: check: this build has no CUDA backend (cuda.h was not found under CUDA_HOME at "
                        "build time); install the CUDA toolkit headers and rebuild\n");
    }
    return rc;
}
#else

/* Metrics to compare: the default list, then every ncu-named total the simulator reports. */
static int metric_list(const chk_sim_side *ss, const char **out, int cap)
{
    int n = 0;
    for (int i = 0; cu_default_metrics[i] && n < cap - 1; i++) out[n++] = cu_default_metrics[i];
    for (int i = 0; i < ss->n && n < cap - 1; i++) {
        bool dup = false;
        for (int k = 0; k < n && !dup; k++) dup = !strcmp(out[k], ss->name[i]);
        if (!dup) out[n++] = ss->name[i];
    }
    out[n] = NULL;
    return n;
}

/* One kernel's check as it goes: what was opened (freed by check_close), the simulator's side,
 * the GPU's run and counters, and the judged rows; the run is the document's ITEM. */
typedef struct {
    const char *arg;                /* as the user named it */
    cu_target t;
    cu_kernel k;
    cu_buffers b;
    ws_sim_result sim;
    bool have_target, have_kernel, have_buffers, have_sim, have_ctr;
    chk_sim_side ss;
    chk_row rows[MAX_ROWS];
    int nrows;
    cu_result_run run;              /* the results-file record; run.rows = rows */
    cu_counters ctr;
    bool fails;                     /* an exact counter or the output differs */
    char diffs[4096];               /* the outputs' first differences (cu_verify_diff_text), "" = none */
} kernel_check;

/* `check`'s document: the device, every run recorded so far, the run just finished (ITEM),
 * the totals (TAIL). Text and CSV are written as each kernel finishes; JSON once, at the tail. */
typedef struct {
    const cu_device_info *dev;
    const char *ncu_version;
    const cJSON *device_json, *runs; /* the results-file form, which --json prints */
    const kernel_check *cur;        /* ITEM_BEGIN names cur->arg, ITEM renders cur */
    int kernels, agreed;
    int agree[CHK_NCLASSES], judged[CHK_NCLASSES];
    const char *recorded;           /* the file --record wrote, NULL = none */
} check_doc;

typedef struct {
    cu_session *s;
    ws_catalog *cat;
    const check_opts *o;
    ws_format fmt;
    cJSON *runs;
    char ncu_version[128];
    const char *record;             /* --record's file (record_path), NULL = none */
    check_doc doc;
} check_ctx;

/* ---- the document's layouts ------------------------------------------------------------------ */

static void print_rows(FILE *f, const chk_row *rows, int n)
{
    fprintf(f, "  %-62s %-6s %15s %15s %8s  %s\n", "metric", "class", "sim", "gpu", "gpu/sim", "verdict");
    for (int i = 0; i < n; i++) {
        const chk_row *r = &rows[i];
        char s[32] = "-", g[32] = "-", q[16] = "-";
        if (r->has_sim) snprintf(s, sizeof s, "%.6g", r->sim);
        if (r->has_gpu) snprintf(g, sizeof g, "%.6g", r->gpu);
        if (r->has_sim && r->has_gpu) snprintf(q, sizeof q, isfinite(r->ratio) ? "%.3f" : "inf", r->ratio);
        fprintf(f, "  %-62s %-6s %15s %15s %8s  %s\n", r->metric, chk_class_name(r->cls), s, g, q,
                chk_verdict_name(r->verdict));
        if (r->verdict == CHK_DIFFER) fprintf(f, "      cause: %s\n", r->cause);
    }
}

static void run_text(FILE *f, const kernel_check *kc)
{
    const cu_result_run *run = &kc->run;
    const cu_timing *tm = &run->timing;
    const cu_target *t = &kc->t;
    fprintf(f, "  %s (%s:%d)%s%s; %d registers, %d B local; PTX %s\n", t->desc->name, t->file->path, t->desc->line,
            run->overrides[0] ? " -D " : "", run->overrides, kc->k.attrs.num_regs, kc->k.attrs.local_bytes, t->ptx_how);
    fprintf(f, "  output: %s\n", run->output);
    fputs(kc->diffs, f);
    fprintf(f, "  time: median %.4f ms (min %.4f, max %.4f, %d runs); %.1f GB/s = %.1f%% of the copy ceiling %.1f GB/s\n",
            tm->median_ms, tm->min_ms, tm->max_ms, tm->reps, tm->bandwidth_gbs,
            tm->copy_gbs > 0 ? 100 * tm->bandwidth_gbs / tm->copy_gbs : 0.0, tm->copy_gbs);
    if (kc->ss.note[0]) fprintf(f, "  simulator: %s\n", kc->ss.note);
    if (run->counters_note[0]) fprintf(f, "  counters: %s\n", run->counters_note);
    print_rows(f, kc->rows, kc->nrows);
    if (run->no_sim) /* nothing was judged: the record is for check --replay */
        fprintf(f, "  => not judged here (--no-sim): check --replay simulates it on a sample of its blocks and "
                   "judges these counters\n");
    else
        fprintf(f, "  => %s\n", kc->fails ? "DIFFERS (an exact counter or the output)"
                                          : "agrees on every exact counter and the output");
}

static int check_text(FILE *f, const void *body, ws_part part)
{
    const check_doc *d = body;
    switch (part) {
    case WS_PART_HEAD:
        fprintf(f, "warpscope check on %s (cc %d.%d, %d SMs, driver %s)\n", d->dev->name, d->dev->cc_major,
                d->dev->cc_minor, d->dev->sm_count, d->dev->driver_version);
        break;
    case WS_PART_ITEM_BEGIN: fprintf(f, "== %s\n", d->cur->arg); break;
    case WS_PART_ITEM: run_text(f, d->cur); break;
    default:
        fprintf(f, "\n%d of %d kernels agree on every exact counter and output.", d->agreed, d->kernels);
        for (int c = 0; c < CHK_NCLASSES; c++)
            if (d->judged[c]) fprintf(f, " %s: %d/%d.", chk_class_name((chk_class)c), d->agree[c], d->judged[c]);
        fprintf(f, "\n");
        if (d->recorded) {
            char shown[3 * (WS_PATH_MAX + 80)]; /* the name the user gave may hold terminal controls */
            fprintf(f, "recorded %d run(s) in %s\n", d->kernels, ws_text_visible(d->recorded, shown, sizeof shown));
        }
    }
    return 0;
}

/* Long format (docs/csv.md): the GPU value (measured) and the simulator's (its class) per metric; us. */
static int check_csv(FILE *f, const void *body, ws_part part)
{
    const check_doc *d = body;
    if (part == WS_PART_HEAD) fputs(WS_CSV_HEADER, f);
    if (part != WS_PART_ITEM) return 0;
    const kernel_check *kc = d->cur;
    for (int i = 0; i < kc->nrows; i++) {
        const chk_row *r = &kc->rows[i];
        bool time = r->cls == CHK_TIME;
        char v[40];
        const char *unit = ws_metric_unit(r->metric); /* a time is printed in us, its row's unit */
        if (r->has_gpu) {
            snprintf(v, sizeof v, "%.15g", time ? r->gpu / 1e3 : r->gpu);
            const char *fl[] = {kc->t.desc->name, kc->run.overrides, "kernel", "", r->metric, unit, v, "measured",
                                chk_verdict_csv(r->verdict), ""};
            ws_csv_row(f, WS_CSV_NCOLUMNS, fl);
        }
        if (r->has_sim) {
            snprintf(v, sizeof v, "%.15g", time ? r->sim / 1e3 : r->sim);
            const char *fl[] = {kc->t.desc->name, kc->run.overrides, "kernel", "", r->metric, unit, v,
                                chk_class_name(r->cls), chk_verdict_csv(r->verdict),
                                r->verdict == CHK_DIFFER ? r->cause : ""};
            ws_csv_row(f, WS_CSV_NCOLUMNS, fl);
        }
    }
    return 0;
}

static int check_json(cJSON *root, const void *body)
{
    const check_doc *d = body;
    cJSON_AddItemToObject(root, "device", cJSON_Duplicate(d->device_json, 1));
    cJSON_AddItemToObject(root, "runs", cJSON_Duplicate(d->runs, 1));
    return 0;
}

static const ws_doc_kind check_kind = {.command = "check", .text = check_text, .csv = check_csv, .json = check_json};

/* ---- the steps of one kernel ---------------------------------------------------------------- */

/* Resolves the kernel and loads it on the GPU; fills the run's identity. */
static int check_open(check_ctx *cx, kernel_check *kc, ws_error *err)
{
    const check_opts *o = cx->o;
    cu_target *t = &kc->t;
    int rc = cu_target_open(cx->cat, kc->arg, &o->c.ov, cx->s->info.cc_major, cx->s->info.cc_minor, t, err);
    if (rc) return rc;
    kc->have_target = true;
    cu_result_run *run = &kc->run;
    snprintf(run->kernel, sizeof run->kernel, "%s", t->desc->name);
    snprintf(run->file, sizeof run->file, "%s", t->file->path);
    ws_overrides_text_for(t->desc, &o->c.ov, run->overrides, sizeof run->overrides);
    memcpy(run->grid, t->launch.grid, sizeof run->grid);
    memcpy(run->block, t->launch.block, sizeof run->block);
    run->shared_bytes = t->launch.shared_bytes;
    run->output_ok = -1;
    if (cu_kernel_load(cx->s, t->ptx, t->fn->name, t->launch.shared_bytes, &kc->k, err)) return WS_EXIT_USAGE;
    kc->have_kernel = true;
    run->attrs = kc->k.attrs;
    return WS_EXIT_OK;
}

/* --save: both sides' buffers, whatever the output check found (a difference is when they help). */
static int check_save(check_ctx *cx, kernel_check *kc, ws_error *err)
{
    const check_opts *o = cx->o;
    if (!o->save) return WS_EXIT_OK;
    chk_save_opts so = {.dir = o->save, .per_kernel = o->all || o->nkernels > 1, .inputs = o->save_inputs,
                        .overrides = kc->run.overrides, .entry = kc->t.fn->name};
    char where[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 8];
    int rc = chk_save_run(&so, &kc->t.launch, kc->have_sim ? kc->sim.buffer_data : NULL, kc->b.result, where,
                          sizeof where, err);
    char shown[3 * sizeof where];      /* the folder as given may hold terminal controls */
    if (!rc) fprintf(stderr, "warpscope: check: %s: buffers saved in %s/%s\n", kc->t.desc->name,
                     ws_text_visible(where, shown, sizeof shown), kc->have_sim ? "{sim,gpu}" : "gpu");
    return rc;
}

/* The simulator first (its buffers are the reference, its counters the prediction), then the
 * GPU: a verified launch, the timed repetitions, the outputs against the simulator's. With
 * --gpu-only or --no-sim nothing is simulated here (a size too large to simulate whole). */
static int check_run(check_ctx *cx, kernel_check *kc, ws_error *err)
{
    cu_session *s = cx->s;
    cu_result_run *run = &kc->run;
    int rc;
    run->no_sim = cx->o->no_sim;
    if (!cx->o->gpu_only && !cx->o->no_sim) {
        if ((rc = chk_simulate(&kc->t, &kc->k.attrs, s->info.name, &kc->sim, &kc->ss, err))) return rc;
        kc->have_sim = true;
        /* a clean racecheck says so, as compute-sanitizer's does (hazards were printed as found) */
        if (cx->fmt == WS_FMT_TEXT && chk_racecheck_clean(&kc->ss)) fprintf(stderr, "%s\n", WS_RACECHECK_CLEAN_SUMMARY);
        run->sim_basis = kc->ss.sass ? "sass" : "ptx";
    }
    if ((rc = cu_buffers_create(s, &kc->t.launch, kc->t.fn, &kc->b, err))) return cu_exit_code(rc);
    kc->have_buffers = true;
    if ((rc = cu_run_verified(s, &kc->k, &kc->b, err))) return cu_exit_code(rc);
    if ((rc = cu_run_timed(s, &kc->k, &kc->b, cx->o->reps, &run->timing, err))) return cu_exit_code(rc);
    run->timed = true;
    if (!kc->have_sim) {
        snprintf(run->output, sizeof run->output, "not checked (%s)", cx->o->no_sim ? "--no-sim" : "--gpu-only");
        return check_save(cx, kc, err);
    }
    ws_error verr;
    char how[400];                     /* bit-exact, or within the approximate instructions' bound */
    run->output_ok = cu_verify_outputs_approx(&kc->t.launch, kc->t.module, kc->t.fn, kc->b.result,
                                              kc->sim.buffer_data, how, sizeof how, &verr) == 0;
    if (run->output_ok) snprintf(run->output, sizeof run->output, "agrees with the simulator, %s", how);
    else snprintf(run->output, sizeof run->output, "%s", verr.msg);
    if (!run->output_ok)
        cu_verify_diff_text(&kc->t.launch, kc->t.module, kc->t.fn, kc->b.result, kc->sim.buffer_data, "    ", kc->diffs,
                            sizeof kc->diffs);
    return check_save(cx, kc, err);
}

/* The hardware counters through ncu (not with --no-counters or --gpu-only), then one judged row
 * per metric: the GPU's time is the event-timed median of the repetitions (ncu's single pass
 * is in the JSON). With --no-sim the simulator side is empty: ncu's default list, every row the
 * GPU's value alone (verdict missing), judged later by check --replay. */
static void check_counters(check_ctx *cx, kernel_check *kc)
{
    const check_opts *o = cx->o;
    cu_result_run *run = &kc->run;
    const char *metrics[MAX_ROWS + 1];
    int nm = o->gpu_only ? 0 : metric_list(&kc->ss, metrics, MAX_ROWS + 1);
    if (!o->no_counters && !o->gpu_only) {
        /* the child gets the sizes as -D words (--realistic expanded), so it runs this launch */
        ws_overrides *ov = malloc(sizeof *ov);
        if (!ov || ws_overrides_for(kc->t.desc, &o->c.ov, ov, NULL)) {
            free(ov);
            ov = NULL;
        }
        cu_counters_request rq = {kc->arg, ov ? ov : &o->c.ov, kc->t.fn->name, metrics}; /* the exact (mangled) kernel */
        cu_counters_info ci;
        ws_error cerr;
        if (cu_counters_collect(&rq, &kc->ctr, &ci, &cerr))
            snprintf(run->counters_note, sizeof run->counters_note, "%s", cerr.msg);
        else kc->have_ctr = true;
        snprintf(cx->ncu_version, sizeof cx->ncu_version, "%s", ci.ncu_version);
        free(ov);
    } else {
        snprintf(run->counters_note, sizeof run->counters_note, "not collected (%s)",
                 o->gpu_only ? "--gpu-only" : "--no-counters");
    }
    const chk_sim_side *ss = &kc->ss;
    for (int i = 0; i < nm && kc->nrows < MAX_ROWS; i++) {
        const char *m = metrics[i];
        const double *sv = chk_sim_value(ss, m);
        const cu_metric *gm = kc->have_ctr ? cu_counters_get(&kc->ctr, m) : NULL;
        if (chk_classify(m) == CHK_TIME) {
            chk_row_set(&kc->rows[kc->nrows++], m, ss->have_time, ss->time_ns, true, run->timing.median_ms * 1e6);
            continue;
        }
        chk_row *r = &kc->rows[kc->nrows++];
        chk_row_set(r, m, sv != NULL, sv ? *sv : 0, gm && gm->numeric, gm ? gm->value : 0);
        if (chk_sim_is_model(ss, m)) chk_row_as_model(r); /* an approximate SASS count: judged within 10% */
        else if (kc->have_sim && !sv && !ss->sass && ws_metric_find(m) && ws_metric_find(m)->scope == WS_SCOPE_SASS)
            snprintf(r->cause, sizeof r->cause, "SASS instruction counts need the machine code; this run is %.300s",
                     ss->level);
    }
    chk_unjudge_for_wmma(kc->rows, kc->nrows, ss->wmma_accesses);
    chk_retry_loops lp = chk_retry_loops_of(kc->t.fn); /* counts that depend on timing (casloop.h) */
    chk_timing_dependent(kc->rows, kc->nrows, &lp);
}

/* The cause of each row that differs (check_explain.h): the machine code (ptxas + nvdisasm)
 * where an exact or bound row differs, the prediction's terms and notes, the other rows. */
static void check_explain(check_ctx *cx, kernel_check *kc)
{
    chk_row *rows = kc->rows;
    int nrows = kc->nrows;
    bool need_sass = false;
    for (int i = 0; i < nrows; i++)
        need_sass |= (rows[i].cls == CHK_EXACT || rows[i].cls == CHK_BOUND) && rows[i].verdict == CHK_DIFFER;
    cu_access_summary ps, sa;
    bool have_sass = false;
    char sass_note[600] = "";
    if (need_sass) {
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", cx->s->info.cc_major, cx->s->info.cc_minor);
        if (kc->t.launch.target[0]) snprintf(arch, sizeof arch, "%s", kc->t.launch.target); /* sm_90a PTX */
        ws_error serr;
        char *sass = cu_sass_dump(kc->t.ptx, arch, kc->t.fn->name, &serr);
        if (sass) {
            cu_ptx_summarize(kc->t.ptx, kc->t.fn->name, &ps);
            cu_sass_summarize(sass, kc->t.fn->name, &sa);
            have_sass = ps.found && sa.found;
            free(sass);
        } else {
            snprintf(sass_note, sizeof sass_note, "no SASS to compare: %s", serr.msg);
        }
    }
    const ws_device *dev = ws_device_find(cx->s->info.name);
    chk_facts f = {.rows = rows, .nrows = nrows, .has_timing = kc->ss.have_time, .timing = kc->ss.timing,
                   .launch_us = dev ? dev->launch_overhead_us : 0, .notes = kc->have_sim ? &kc->ss.notes : NULL,
                   .has_dirty_at_end = kc->ss.have_dirty, .dirty_at_end_bytes = kc->ss.dirty_at_end_bytes,
                   .has_far_miss = kc->ss.have_far, .far_miss_sectors = kc->ss.far_miss_sectors,
                   .ptx = have_sass ? &ps : NULL, .sass = have_sass ? &sa : NULL,
                   .no_sass = sass_note[0] ? sass_note : NULL, .counted_sass = kc->ss.sass,
                   .guess = kc->ss.sass ? &kc->ss.guess : NULL};
    chk_explain_rows(rows, nrows, &f);
}

/* The verdict, the totals, and the run's results-file record (which --json and --record carry). */
static void check_record(check_ctx *cx, kernel_check *kc)
{
    kc->run.rows = kc->rows;
    kc->run.nrows = kc->nrows;
    kc->fails = chk_fails(kc->rows, kc->nrows) || kc->run.output_ok == 0;
    int ag[CHK_NCLASSES], ju[CHK_NCLASSES];
    chk_tally(kc->rows, kc->nrows, ag, ju);
    for (int c = 0; c < CHK_NCLASSES; c++) { cx->doc.agree[c] += ag[c]; cx->doc.judged[c] += ju[c]; }
    cJSON *rj = cu_results_run_json(&kc->run);
    if (kc->have_ctr) cu_results_add_gpu_counters(rj, &kc->ctr);
    cJSON_AddStringToObject(rj, "ptx", kc->t.ptx_how);
    cJSON_AddItemToArray(cx->runs, rj);
    cx->doc.kernels++;
    if (!kc->fails) cx->doc.agreed++;
}

static void check_close(check_ctx *cx, kernel_check *kc)
{
    if (kc->have_buffers) cu_buffers_free(cx->s, &kc->b);
    if (kc->have_sim) ws_sim_result_free(&kc->sim);
    if (kc->have_kernel) cu_kernel_unload(cx->s, &kc->k);
    if (kc->have_target) cu_target_close(&kc->t);
}

/* One kernel; returns its exit code (0, 2, 3, 1, 5). */
static int check_one(check_ctx *cx, const char *arg)
{
    kernel_check *kc = calloc(1, sizeof *kc);
    ws_error err;
    if (!kc) {
        ws_error_set(&err, "check", 0, 0, "out of memory");
        ws_error_print(&err);
        return WS_EXIT_INTERNAL;
    }
    kc->arg = arg;
    cx->doc.cur = kc;
    ws_emit_part(stdout, cx->fmt, &(ws_doc){&check_kind, &cx->doc}, WS_PART_ITEM_BEGIN);
    fflush(stdout);
    int rc = check_open(cx, kc, &err);
    if (!rc) rc = check_run(cx, kc, &err);
    if (!rc) {
        check_counters(cx, kc);
        check_explain(cx, kc);
        check_record(cx, kc);
        ws_emit_part(stdout, cx->fmt, &(ws_doc){&check_kind, &cx->doc}, WS_PART_ITEM);
        rc = kc->fails ? WS_EXIT_MISMATCH : 0;
    } else {
        ws_error_print(&err);
    }
    check_close(cx, kc);
    cx->doc.cur = NULL;
    free(kc);
    fflush(stdout);
    return rc;
}

/* --record FILE, or DIR/<gpu-key>.json for a FILE ending in '/'. */
static void record_path(const char *record, const char *key, char *path, size_t cap)
{
    size_t rl = strlen(record);
    bool dir = rl && record[rl - 1] == '/';
    snprintf(path, cap, "%s%s%s", record, dir ? key : "", dir ? ".json" : "");
}

static int worse(int a, int b)
{
    static const int rank[] = {[WS_EXIT_OK] = 0, [WS_EXIT_MISMATCH] = 1, [WS_EXIT_USAGE] = 2,
                               [WS_EXIT_KERNEL_FAULT] = 3, [WS_EXIT_NO_GPU] = 4, [WS_EXIT_INTERNAL] = 5};
    return rank[a] >= rank[b] ? a : b;
}

/* Every kernel asked for, then the record (--record) and the document's tail. */
static int check_all(check_ctx *cx)
{
    const check_opts *o = cx->o;
    int rc = WS_EXIT_OK;
    ws_doc doc = {&check_kind, &cx->doc};
    ws_emit_part(stdout, cx->fmt, &doc, WS_PART_HEAD);
    if (o->all) {
        for (int f = 0; f < cx->cat->nfiles; f++)
            for (int i = 0; i < cx->cat->files[f]->nkernels; i++)
                rc = worse(rc, check_one(cx, cx->cat->files[f]->kernels[i].name));
    } else {
        for (int i = 0; i < o->nkernels; i++) rc = worse(rc, check_one(cx, o->kernels[i]));
    }
    cJSON *dev = cu_results_device_json(&cx->s->info, cx->ncu_version);
    cx->doc.device_json = dev;
    cx->doc.ncu_version = cx->ncu_version;
    if (cx->record) {
        ws_error err;
        int wrc = cu_results_record(cx->record, dev, cx->runs, &err); /* 0, WS_EXIT_USAGE or WS_EXIT_INTERNAL */
        if (wrc) {
            ws_error_print(&err);
            rc = worse(rc, wrc);
        } else {
            cx->doc.recorded = cx->record;
        }
    }
    if (ws_emit_part(stdout, cx->fmt, &doc, WS_PART_TAIL)) rc = worse(rc, WS_EXIT_INTERNAL);
    cJSON_Delete(dev);
    return rc;
}

int ws_cmd_check(int argc, char **argv)
{
    check_opts o;
    int p = parse(argc, argv, &o);
    if (p != WS_CLI_RUN) return p;
    ws_error err;
    if (o.replay) return replay(&o);
    if (o.validate) return validate(&o);
    if (o.markdown) return results_markdown(&o);
    if (!o.all && cu_target_names_exist(o.kernels, o.nkernels, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    size_t rl = o.record ? strlen(o.record) : 0;
    int rc;
    if (rl && o.record[rl - 1] != '/' && (rc = cu_results_check_target(o.record, NULL, &err))) {
        ws_error_print(&err); /* a file --record cannot write or would not merge into: before the GPU */
        return rc;
    }
    if (o.save && ws_save_mkdir(o.save, &err)) {   /* a folder --save cannot use: before the GPU */
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    cu_session s;
    rc = cu_session_open(&s, &err);
    if (rc) {
        ws_error_print(&err);
        return rc;
    }
    char path[WS_PATH_MAX + 80];
    if (o.record) { /* refuse a file --record would not merge into before any kernel runs */
        record_path(o.record, s.info.key, path, sizeof path);
        if ((rc = cu_results_check_target(path, s.info.key, &err))) {
            ws_error_print(&err);
            cu_session_close(&s);
            return rc;
        }
    }
    check_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.s = &s;
    cx.o = &o;
    cx.fmt = ws_emit_format(o.c.json, o.c.csv, WS_FMT_TEXT);
    cx.runs = cJSON_CreateArray();
    cx.doc.dev = &s.info;
    cx.doc.runs = cx.runs;
    cx.record = o.record ? path : NULL;
    snprintf(cx.ncu_version, sizeof cx.ncu_version, "not used");
    if (ws_catalog_load(NULL, &cx.cat, &err)) {
        ws_error_print(&err);
        rc = WS_EXIT_USAGE;
    } else {
        rc = check_all(&cx);
    }
    cJSON_Delete(cx.runs);
    if (cx.cat) ws_catalog_free(cx.cat);
    cu_session_close(&s);
    return rc;
}
#endif /* WS_HAVE_CUDA */
