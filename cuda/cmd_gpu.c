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
#include "../sim/report.h"
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
    const char *kernel;        /* the operand */
} gpu_opts;

static const ws_opt gpu_options[] = {
    WS_CLI_OPT_DEFINE,
    {.name = "reps", .kind = WS_OPT_INT, .at = offsetof(gpu_opts, reps), .arg = "N", .lo = 1, .hi = 100000,
     .needs = "a count from 1 to 100000",
     .help = "timed repetitions after one warm-up (default " WS_CLI_STR(CU_DEFAULT_REPS) "); L2 flushed before each"},
    {.name = "counters", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, counters),
     .help = "also read the hardware counters (re-runs this program under ncu)"},
    {.name = "no-verify", .kind = WS_OPT_FLAG, .at = offsetof(gpu_opts, no_verify),
     .help = "skip the output check against the simulator (large launches)"},
    WS_CLI_OPT_JSON,
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
    .usage = "usage: warpscope gpu <kernel> [-D NAME=VALUE]... [--reps N] [--json] [--counters] [--no-verify]\n"
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
    cu_session s;
    int rc = cu_session_open(&s, &err);
    if (rc) {
        ws_error_print(&err);
        return rc;
    }
    ws_catalog *cat = NULL;
    cu_target t;
    cu_kernel k;
    cu_buffers b;
    bool have_target = false, have_kernel = false, have_buffers = false;
    ws_sim_result sim;
    memset(&sim, 0, sizeof sim);
    bool have_sim = false;
    cu_result_run run;
    memset(&run, 0, sizeof run);
    cu_counters ctr;
    cu_counters_info cinfo;
    memset(&cinfo, 0, sizeof cinfo);
    bool have_ctr = false;

    if (ws_catalog_load(NULL, &cat, &err)) { rc = WS_EXIT_USAGE; goto fail; }
    if ((rc = cu_target_open(cat, o.kernel, &o.c.ov, s.info.cc_major, s.info.cc_minor, &t, &err))) goto fail;
    have_target = true;
    if (cu_kernel_load(&s, t.ptx, t.fn->name, t.launch.shared_bytes, &k, &err)) { rc = WS_EXIT_USAGE; goto fail; }
    have_kernel = true;
    if ((rc = cu_buffers_create(&s, &t.launch, t.fn, &b, &err))) { rc = cu_exit_code(rc); goto fail; }
    have_buffers = true;

    if (o.profile_child) { /* under ncu: one launch, nothing else on the GPU */
        rc = cu_run_once(&s, &k, &b, &err);
        if (rc) { rc = cu_exit_code(rc); goto fail; }
        fprintf(stderr, "warpscope: profile child: %s launched once\n", t.desc->name);
        goto done;
    }
    rc = cu_run_verified(&s, &k, &b, &err);
    if (rc) { rc = cu_exit_code(rc); goto fail; }
    rc = cu_run_timed(&s, &k, &b, o.reps, &run.timing, &err);
    if (rc) { rc = cu_exit_code(rc); goto fail; }
    run.timed = true;

    run.output_ok = -1;
    snprintf(run.output, sizeof run.output, "not checked (--no-verify)");
    if (!o.no_verify) {
        ws_error serr;
        if (cu_verify_simulate(t.module, t.fn, &t.launch, NULL, NULL, &sim, &serr)) {
            char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
            ws_error_format(&serr, msg, sizeof msg);
            snprintf(run.output, sizeof run.output, "not checked: the simulator failed: %s", msg);
        } else {
            have_sim = true;
            ws_error verr;
            char how[400];             /* bit-exact, or within the approximate instructions' bound */
            run.output_ok = cu_verify_outputs_approx(&t.launch, t.module, t.fn, b.result, sim.buffer_data, how,
                                                     sizeof how, &verr) == 0;
            if (run.output_ok) snprintf(run.output, sizeof run.output, "agrees with the simulator, %s", how);
            else snprintf(run.output, sizeof run.output, "%s", verr.msg);
        }
    }
    if (o.counters) {
        cu_counters_request rq = {o.kernel, &o.c.ov, t.desc->entry, cu_default_metrics};
        ws_error cerr;
        if (cu_counters_collect(&rq, &ctr, &cinfo, &cerr)) snprintf(run.counters_note, sizeof run.counters_note, "%s", cerr.msg);
        else have_ctr = true;
    }

    snprintf(run.kernel, sizeof run.kernel, "%s", t.desc->name);
    snprintf(run.file, sizeof run.file, "%s", t.file->path);
    ws_overrides_text(&o.c.ov, run.overrides, sizeof run.overrides);
    memcpy(run.grid, t.launch.grid, sizeof run.grid);
    memcpy(run.block, t.launch.block, sizeof run.block);
    run.shared_bytes = t.launch.shared_bytes;
    run.attrs = k.attrs;
    const cu_timing *tm = &run.timing;
    if (o.c.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "schema_version", WS_REPORT_SCHEMA_VERSION); /* docs/json-schema.json */
        cJSON *tool = cJSON_AddObjectToObject(root, "tool");
        cJSON_AddStringToObject(tool, "name", "warpscope");
        cJSON_AddStringToObject(tool, "version", WS_VERSION);
        cJSON_AddStringToObject(root, "command", "gpu");
        cJSON_AddStringToObject(root, "compiler", t.ptx_how);
        cJSON_AddItemToObject(root, "device", cu_results_device_json(&s.info, cinfo.ncu_version));
        cJSON_AddStringToObject(root, "ptx", t.ptx_how);
        cJSON *r = cu_results_run_json(&run);
        if (have_ctr) {
            cJSON *m = cJSON_AddObjectToObject(r, "gpu_counters");
            for (int i = 0; i < ctr.n; i++)
                cJSON_AddItemToObject(m, ctr.m[i].name, ctr.m[i].numeric ? cJSON_CreateNumber(ctr.m[i].value)
                                                                         : cJSON_CreateString(ctr.m[i].raw));
        }
        cJSON_AddItemToObject(root, "run", r);
        char *text = ws_json_print(root);
        if (text) puts(text);
        free(text);
        cJSON_Delete(root);
    } else {
        printf("%s (%s:%d) on ", t.desc->name, t.file->path, t.desc->line);
        print_device(stdout, &s.info);
        printf("  PTX: %s; JIT-compiled by the driver: %d registers, %d B local, %d B static shared\n", t.ptx_how,
               k.attrs.num_regs, k.attrs.local_bytes, k.attrs.static_shared_bytes);
        printf("  launch: grid (%u,%u,%u), block (%u,%u,%u), %llu B dynamic shared%s%s\n", t.launch.grid[0],
               t.launch.grid[1], t.launch.grid[2], t.launch.block[0], t.launch.block[1], t.launch.block[2],
               (unsigned long long)t.launch.shared_bytes, run.overrides[0] ? ", -D " : "", run.overrides);
        printf("  time: median %.4f ms (min %.4f, max %.4f) over %d runs after a warm-up, L2 flushed (%.0f MiB memset) "
               "before each\n", tm->median_ms, tm->min_ms, tm->max_ms, tm->reps, tm->flush_bytes / 1048576.0);
        printf("  bandwidth: %.1f GB/s (%llu bytes / median, GB = 1e9) = %.1f%% of the copy ceiling %.1f GB/s "
               "(cuMemcpyDtoD of %.0f MiB, same run)\n", tm->bandwidth_gbs, (unsigned long long)tm->bytes_moved,
               tm->copy_gbs > 0 ? 100.0 * tm->bandwidth_gbs / tm->copy_gbs : 0.0, tm->copy_gbs,
               tm->copy_bytes / 1048576.0);
        if (t.launch.bytes_moved && t.launch.bytes_moved * 2 < s.info.l2_bytes * 3)
            printf("  note: the working set (%.1f MB) is not well beyond the L2 (%.1f MB); the L2 flush keeps each run "
                   "cold, but use -D for larger sizes when bandwidth matters\n", t.launch.bytes_moved / 1e6,
                   s.info.l2_bytes / 1e6);
        printf("  output: %s\n", run.output);
        if (o.counters) {
            if (!have_ctr) printf("  counters: not collected: %s\n", run.counters_note);
            else {
                printf("  counters (%s %s, one launch, caches flushed before each pass):\n", cinfo.ncu_path,
                       cinfo.ncu_version);
                for (int i = 0; i < ctr.n; i++)
                    printf("    %-60s %18s %s\n", ctr.m[i].name, ctr.m[i].raw, ctr.m[i].unit);
                if (cinfo.not_listed[0]) printf("    not known to this ncu: %s\n", cinfo.not_listed);
            }
        }
    }
    if (run.output_ok == 0) {
        fprintf(stderr, "warpscope: gpu: %s:%d: %s\n", t.file->path, t.desc->line, run.output);
        rc = WS_EXIT_MISMATCH;
    }
    goto done;
fail:
    ws_error_print(&err);
done:
    if (have_sim) ws_sim_result_free(&sim);
    if (have_buffers) cu_buffers_free(&s, &b);
    if (have_kernel) cu_kernel_unload(&s, &k);
    if (have_target) cu_target_close(&t);
    if (cat) ws_catalog_free(cat);
    cu_session_close(&s);
    return rc;
}
#endif /* WS_HAVE_CUDA */
