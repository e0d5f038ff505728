/* cmd_gpu.c - `warpscope gpu <kernel>`: the described launch on the GPU
 * present: time it, check its output against the simulator, optionally read
 * its hardware counters through ncu.
 * Invariant: every exit path says in words what happened; the exit code is
 * one of commands.h's (4 = no GPU or no CUDA backend in this build). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/text.h"

#include "../common/buffers.h"
#include "../common/catalog.h"
#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/emit.h"
#include "../common/save.h"
#include "cu_counters.h"
#include "cu_results.h"
#include "cu_run.h"
#include "cu_selftest.h"
#include "cu_target.h"
#include "cu_verify.h"

typedef struct {
    ws_cli_common c;           /* -D, --json */
    int reps;                  /* timed repetitions */
    bool counters, no_verify, self_test;
    bool profile_child;        /* internal: this process runs under ncu (cu_counters.c) */
    const char *save;          /* --save DIR: the GPU's output buffers (common/save.h) */
    bool save_inputs;
    const char *kernel;        /* the operand */
} gpu_opts;

static const ws_opt gpu_options[] = {
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_REALISTIC,
    {.name = "reps", .kind = WS_OPT_INT, .at = offsetof(gpu_opts, reps), .arg = "N", .lo = 1, .hi = 100000,
     .needs = "a count from 1 to 100000",
     .help = "timed repetitions after one warm-up (default " WS_CLI_STR(CU_DEFAULT_REPS) "); L2 flushed before each"},
    {.name = "counters", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, counters),
     .help = "also read the hardware counters (re-runs this program under ncu)"},
    {.name = "no-verify", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, no_verify),
     .help = "skip the output check against the simulator (large launches)"},
    WS_CLI_OPT_JSON,
    {.name = "save", .kind = WS_OPT_STRING, .at = offsetof(gpu_opts, save), .arg = "DIR", .needs = "a folder",
     .help = "write the GPU's output buffers as DIR/<buffer>.npy (NumPy) and DIR/manifest.json"},
    {.name = "save-inputs", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, save_inputs),
     .help = "with --save: also every buffer's initial contents (<buffer>.in.npy)"},
    {.name = "self-test", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, self_test),
     .help = "check the driver layer alone with a built-in copy kernel (add --counters\n"
             "to check ncu too): JIT, buffers, launch, timing, counters vs known values"},
    {.name = "profile-child", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, profile_child)},
};

static void gpu_more_help(FILE *to)
{
    fprintf(to, "\nenvironment: WARPSCOPE_LIBCUDA (driver library, default libcuda.so.1), WARPSCOPE_DEVICE (index),\n"
                "             WARPSCOPE_GPU_TIMEOUT (s per launch, default 60), WARPSCOPE_NCU (ncu path)\n");
}

static const ws_cli_spec gpu_spec = {
    .command = "gpu",
    .usage = "usage: warpscope gpu <kernel> [-D NAME=VALUE]... [--realistic] [--reps N] [--json] [--counters] [--no-verify]\n"
             "                     [--save DIR [--save-inputs]]\n"
             "       warpscope gpu --self-test [--counters]\n",
    .about = "Runs a described kernel on the GPU present (CUDA driver loaded at run time): the PTX the\n"
             "simulator interprets is JIT-compiled by the driver, the buffers are filled exactly as the\n"
             "simulator fills them, and the launch uses the described grid, block and shared memory.\n"
             "Reports median/min/max time, effective bandwidth (the description's bytes / median, GB = 1e9)\n"
             "and, as the ceiling, cuMemcpyDtoD bandwidth measured in the same run.\n",
    .opts = gpu_options,
    .nopts = WS_CLI_COUNT(gpu_options),
    .more_help = gpu_more_help,
};

/* WS_CLI_RUN, or the exit code to return at once. */
static int parse(int argc, char **argv, gpu_opts *o)
{
    *o = (gpu_opts){.reps = CU_DEFAULT_REPS};
    int nargs;
    int rc = ws_cli_parse(&gpu_spec, argc, argv, o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs > 1) {
        fprintf(stderr, "warpscope: gpu: one kernel at a time ('%s' and '%s'); 'warpscope check' takes several\n",
                argv[1], argv[2]);
        return WS_EXIT_USAGE;
    }
    o->kernel = nargs ? argv[1] : NULL;
    if (o->save_inputs && !o->save) {
        fprintf(stderr, "warpscope: gpu: --save-inputs goes with --save DIR\n");
        return WS_EXIT_USAGE;
    }
    if (!o->kernel && !o->self_test) {
        fprintf(stderr, "warpscope: gpu: which kernel? ('warpscope list' shows the catalog)\n");
        ws_cli_help(&gpu_spec, stderr);
        return WS_EXIT_USAGE;
    }
    return WS_CLI_RUN;
}

#ifndef WS_HAVE_CUDA
int ws_cmd_gpu(int argc, char **argv)
{
    gpu_opts o;
    int p = parse(argc, argv, &o);
    if (p != WS_CLI_RUN) return p;
    fprintf(stderr, "warpscope: gpu: this build has no CUDA backend (cuda.h was not found under CUDA_HOME at build "
                    "time); install the CUDA toolkit headers and rebuild\n");
    return WS_EXIT_NO_GPU;
}
#else

static void print_device(FILE *to, const cu_device_info *d)
{
    fprintf(to, "%s (cc %d.%d, %d SMs, %d MHz, L2 %.1f MiB, %.1f GB, ECC %s; driver %s, CUDA %d.%d)\n", d->name,
            d->cc_major, d->cc_minor, d->sm_count, d->clock_mhz, d->l2_bytes / 1048576.0, d->total_mem_bytes / 1e9,
            d->ecc ? "on" : "off", d->driver_version, d->driver_api_version / 1000, d->driver_api_version % 1000 / 10);
}

/* One `gpu` run: what was opened (freed by gpu_close), the timed run, the output check, the
 * counters; it is also the document the layouts below render. */
typedef struct {
    const gpu_opts *o;
    cu_session s;
    ws_catalog *cat;
    cu_target t;
    cu_kernel k;
    cu_buffers b;
    ws_sim_result sim;
    bool have_target, have_kernel, have_buffers, have_sim, have_ctr;
    cu_result_run run;
    cu_counters ctr;
    cu_counters_info cinfo;
    char diffs[4096];          /* the outputs' first differences (cu_verify_diff_text), "" = none */
} gpu_run;

/* ---- layouts ---------------------------------------------------------------------------------- */

static int gpu_text(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const gpu_run *g = body;
    const cu_target *t = &g->t;
    const cu_timing *tm = &g->run.timing;
    const cu_device_info *dev = &g->s.info;
    fprintf(f, "%s (%s:%d) on ", t->desc->name, t->file->path, t->desc->line);
    print_device(f, dev);
    fprintf(f, "  PTX: %s; JIT-compiled by the driver: %d registers, %d B local, %d B static shared\n", t->ptx_how,
            g->k.attrs.num_regs, g->k.attrs.local_bytes, g->k.attrs.static_shared_bytes);
    fprintf(f, "  launch: grid (%u,%u,%u), block (%u,%u,%u), %llu B dynamic shared%s%s\n", t->launch.grid[0],
            t->launch.grid[1], t->launch.grid[2], t->launch.block[0], t->launch.block[1], t->launch.block[2],
            (unsigned long long)t->launch.shared_bytes, g->run.overrides[0] ? ", -D " : "", g->run.overrides);
    fprintf(f, "  time: median %.4f ms (min %.4f, max %.4f) over %d runs after a warm-up, L2 flushed (%.0f MiB memset) "
               "before each\n", tm->median_ms, tm->min_ms, tm->max_ms, tm->reps, tm->flush_bytes / 1048576.0);
    fprintf(f, "  bandwidth: %.1f GB/s (%llu bytes / median, GB = 1e9) = %.1f%% of the copy ceiling %.1f GB/s "
               "(cuMemcpyDtoD of %.0f MiB, same run)\n", tm->bandwidth_gbs, (unsigned long long)tm->bytes_moved,
            tm->copy_gbs > 0 ? 100.0 * tm->bandwidth_gbs / tm->copy_gbs : 0.0, tm->copy_gbs,
            tm->copy_bytes / 1048576.0);
    if (t->launch.bytes_moved && t->launch.bytes_moved * 2 < dev->l2_bytes * 3)
        fprintf(f, "  note: the working set (%.1f MB) is not well beyond the L2 (%.1f MB); the L2 flush keeps each run "
                   "cold, but use -D for larger sizes when bandwidth matters\n", t->launch.bytes_moved / 1e6,
                dev->l2_bytes / 1e6);
    fprintf(f, "  output: %s\n", g->run.output);
    fputs(g->diffs, f);
    if (!g->o->counters) return 0;
    if (!g->have_ctr) {
        fprintf(f, "  counters: not collected: %s\n", g->run.counters_note);
        return 0;
    }
    fprintf(f, "  counters (%s %s, one launch, caches flushed before each pass):\n", g->cinfo.ncu_path,
            g->cinfo.ncu_version);
    for (int i = 0; i < g->ctr.n; i++)
        fprintf(f, "    %-60s %18s %s\n", g->ctr.m[i].name, g->ctr.m[i].raw, g->ctr.m[i].unit);
    if (g->cinfo.not_listed[0]) fprintf(f, "    not known to this ncu: %s\n", g->cinfo.not_listed);
    return 0;
}

static int gpu_json(cJSON *root, const void *body)
{
    const gpu_run *g = body;
    cJSON_AddStringToObject(root, "compiler", g->t.ptx_how);
    cJSON_AddItemToObject(root, "device", cu_results_device_json(&g->s.info, g->cinfo.ncu_version));
    cJSON_AddStringToObject(root, "ptx", g->t.ptx_how);
    cJSON *r = cu_results_run_json(&g->run);
    if (g->have_ctr) cu_results_add_gpu_counters(r, &g->ctr);
    cJSON_AddItemToObject(root, "run", r);
    return 0;
}

static const ws_doc_kind gpu_kind = {.command = "gpu", .text = gpu_text, .json = gpu_json};

/* ---- steps ------------------------------------------------------------------------------------ */

/* The catalog, the target, the kernel JIT-compiled and its buffers filled. */
static int gpu_open(gpu_run *g, ws_error *err)
{
    int rc;
    if (ws_catalog_load(NULL, &g->cat, err)) return WS_EXIT_USAGE;
    if ((rc = cu_target_open(g->cat, g->o->kernel, &g->o->c.ov, g->s.info.cc_major, g->s.info.cc_minor, &g->t, err)))
        return rc;
    g->have_target = true;
    if (cu_kernel_load(&g->s, g->t.ptx, g->t.fn->name, g->t.launch.shared_bytes, &g->k, err)) return WS_EXIT_USAGE;
    g->have_kernel = true;
    if ((rc = cu_buffers_create(&g->s, &g->t.launch, g->t.fn, &g->b, err))) return cu_exit_code(rc);
    g->have_buffers = true;
    return WS_EXIT_OK;
}

/* The output against the simulator's (bit-exact, or within the approximate instructions' bound). */
static void gpu_verify(gpu_run *g)
{
    cu_result_run *run = &g->run;
    run->output_ok = -1;
    snprintf(run->output, sizeof run->output, "not checked (--no-verify)");
    if (g->o->no_verify) return;
    ws_error serr;
    if (cu_verify_simulate(g->t.module, g->t.fn, &g->t.launch, NULL, NULL, &g->sim, &serr)) {
        char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
        ws_error_format(&serr, msg, sizeof msg);
        snprintf(run->output, sizeof run->output, "not checked: the simulator failed: %s", msg);
        return;
    }
    g->have_sim = true;
    ws_error verr;
    char how[400];
    run->output_ok = cu_verify_outputs_approx(&g->t.launch, g->t.module, g->t.fn, g->b.result, g->sim.buffer_data, how,
                                              sizeof how, &verr) == 0;
    if (run->output_ok) snprintf(run->output, sizeof run->output, "agrees with the simulator, %s", how);
    else snprintf(run->output, sizeof run->output, "%s", verr.msg);
    if (!run->output_ok)
        cu_verify_diff_text(&g->t.launch, g->t.module, g->t.fn, g->b.result, g->sim.buffer_data, "    ", g->diffs,
                            sizeof g->diffs);
}

/* --save: the GPU's buffers after the verified launch, through the writer `sim --save` uses. */
static int gpu_save(gpu_run *g, ws_error *err)
{
    const gpu_opts *o = g->o;
    if (!o->save) return WS_EXIT_OK;
    ws_save_opts so = {.computed_by = "gpu", .overrides = g->run.overrides, .entry = g->t.fn->name,
                       .inputs = o->save_inputs};
    int n = 0, rc = ws_save_buffers(o->save, &g->t.launch, g->b.result, &so, &n, err);
    char shown[3 * WS_PATH_MAX];
    if (!rc) fprintf(stderr, "warpscope: gpu: saved %d buffer file%s and manifest.json in %s\n", n, n == 1 ? "" : "s",
                     ws_text_visible(o->save, shown, sizeof shown));
    return rc;
}

/* A verified launch, the timed repetitions, the output check, the counters (--counters), and
 * the run's identity for the record. */
static int gpu_measure(gpu_run *g, ws_error *err)
{
    int rc = cu_run_verified(&g->s, &g->k, &g->b, err);
    if (!rc) rc = cu_run_timed(&g->s, &g->k, &g->b, g->o->reps, &g->run.timing, err);
    if (rc) return cu_exit_code(rc);
    g->run.timed = true;
    gpu_verify(g);
    if (g->o->counters) {
        /* the child gets the sizes as -D words (--realistic expanded), so it runs this launch */
        ws_overrides *ov = malloc(sizeof *ov);
        if (!ov || ws_overrides_for(g->t.desc, &g->o->c.ov, ov, NULL)) {
            free(ov);
            ov = NULL;
        }
        cu_counters_request rq = {g->o->kernel, ov ? ov : &g->o->c.ov, g->t.desc->entry, cu_default_metrics};
        ws_error cerr;
        if (cu_counters_collect(&rq, &g->ctr, &g->cinfo, &cerr))
            snprintf(g->run.counters_note, sizeof g->run.counters_note, "%s", cerr.msg);
        else g->have_ctr = true;
        free(ov);
    }
    cu_result_run *run = &g->run;
    snprintf(run->kernel, sizeof run->kernel, "%s", g->t.desc->name);
    snprintf(run->file, sizeof run->file, "%s", g->t.file->path);
    ws_overrides_text_for(g->t.desc, &g->o->c.ov, run->overrides, sizeof run->overrides);
    memcpy(run->grid, g->t.launch.grid, sizeof run->grid);
    memcpy(run->block, g->t.launch.block, sizeof run->block);
    run->shared_bytes = g->t.launch.shared_bytes;
    run->attrs = g->k.attrs;
    return gpu_save(g, err);
}

static void gpu_close(gpu_run *g)
{
    if (g->have_sim) ws_sim_result_free(&g->sim);
    if (g->have_buffers) cu_buffers_free(&g->s, &g->b);
    if (g->have_kernel) cu_kernel_unload(&g->s, &g->k);
    if (g->have_target) cu_target_close(&g->t);
    if (g->cat) ws_catalog_free(g->cat);
    cu_session_close(&g->s);
}

/* Under ncu (cu_counters.c): one launch, nothing else on the GPU. */
static int gpu_profile_child(gpu_run *g, ws_error *err)
{
    int rc = cu_run_once(&g->s, &g->k, &g->b, err);
    if (rc) return cu_exit_code(rc);
    fprintf(stderr, "warpscope: profile child: %s launched once\n", g->t.desc->name);
    return WS_EXIT_OK;
}

int ws_cmd_gpu(int argc, char **argv)
{
    gpu_opts o;
    int p = parse(argc, argv, &o);
    if (p != WS_CLI_RUN) return p;
    if (o.self_test) return cu_selftest(o.counters, o.profile_child);

    ws_error err;
    if (cu_target_names_exist(&o.kernel, 1, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    if (o.save && ws_save_mkdir(o.save, &err)) {   /* a folder --save cannot use: before the GPU */
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    gpu_run *g = calloc(1, sizeof *g);
    if (!g) {
        fprintf(stderr, "warpscope: gpu: out of memory\n");
        return WS_EXIT_INTERNAL;
    }
    g->o = &o;
    int rc = cu_session_open(&g->s, &err);
    if (rc) {
        ws_error_print(&err);
        free(g);
        return rc;
    }
    rc = gpu_open(g, &err);
    if (!rc && o.profile_child) rc = gpu_profile_child(g, &err);
    else if (!rc) rc = gpu_measure(g, &err);
    if (rc) {
        ws_error_print(&err);
    } else if (!o.profile_child) {
        if (ws_emit(stdout, ws_emit_format(o.c.json, false, WS_FMT_TEXT), &(ws_doc){&gpu_kind, g}))
            rc = WS_EXIT_INTERNAL;
        if (g->run.output_ok == 0) {
            fprintf(stderr, "warpscope: gpu: %s:%d: %s\n", g->t.file->path, g->t.desc->line, g->run.output);
            rc = WS_EXIT_MISMATCH;
        }
    }
    gpu_close(g);
    free(g);
    return rc;
}
#endif /* WS_HAVE_CUDA */
