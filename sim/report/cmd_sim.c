/* cmd_sim.c - `warpscope sim`: resolve a described kernel, simulate it on the CPU
 * with the memory models listening, and print the report (text, --json, --csv, or
 * two variants side by side with --compare), and with --html FILE one self-contained page of it.
 * Invariant: every exit path frees what it loaded and returns a WS_EXIT_* code. */
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "../../common/catalog.h"
#include "../../common/cli.h"
#include "../../common/commands.h"
#include "../../common/desc.h"
#include "../../common/device.h"
#include "../../common/measured.h"
#include "../../common/outfile.h"
#include "../../common/save.h"
#include "../../common/text.h"
#include "../interp/memcheck.h"
#include "../interp/racecheck.h"
#include "report.h"
#include "report_pictures.h"
#include "../simulate.h"

/* The options of one call: nothing of a call outlives it (two in-process calls are independent). */
typedef struct {
    ws_cli_common c;           /* -D, --device, --arch, --results, --json, --csv */
    bool lines, compare;
    bool racecheck, memcheck;  /* sim/interp/racecheck.h, sim/interp/memcheck.h: a report makes the exit code 2 */
    uint64_t budget;           /* --budget: thread-instructions, 0 = the simulator's default */
    int jobs;                  /* -j: threads for the blocks, 0 = every online core */
    bool sample, full;         /* --sample / --full: block sampling forced on / off (sim/sample.h) */
    int sample_waves;          /* --sample-waves N: that many whole lead waves (implies --sample) */
    const char *save;          /* --save DIR: the output buffers as .npy files (common/save.h) */
    bool save_inputs;          /* --save-inputs: the initial contents too */
    const char *html;          /* --html FILE: the report as one HTML page (sim/report/report_html.c) */
} sim_opts;

typedef struct {
    ws_simulation sim;
    ws_measured measured;
    ws_report rep;
    ws_notes notes;            /* what the prediction rests on (sim/models/confidence.h) */
    char overrides[512];
    ws_line_pics pics;         /* --html: each line's first execution, for its pictures */
} sim_run;

static const ws_opt sim_options[] = {
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_REALISTIC,
    WS_CLI_OPT_DEVICE,
    WS_CLI_OPT_JSON,
    WS_CLI_OPT_CSV,
    {.name = "lines", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, lines),
     .help = "the per-line table shows every source line of the kernel"},
    {.name = "compare", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, compare),
     .help = "two variants side by side (totals, occupancy, predicted time)"},
    WS_CLI_OPT_ARCH,
    WS_CLI_OPT_RESULTS,
    {.name = "racecheck", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, racecheck),
     .help = "report shared-memory races between barriers and reads of unwritten\nshared memory (exit 2 if any)"},
    {.name = "memcheck", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, memcheck),
     .help = "count out-of-bounds and misaligned accesses per kind and go on, instead\nof stopping at the first (exit 2 if any)"},
    {.name = "budget", .kind = WS_OPT_U64, .at = offsetof(sim_opts, budget), .arg = "N", .lo = 1,
     .needs = "a positive number of thread-instructions",
     .help = "stop after N thread-instructions (default 4000000000); a launch predicted\nbeyond it (from its shortest path, "
             "then its first 4 blocks) is refused at once\n(exit 1, with the time it would take); a loop whose state "
             "repeats with\nnothing changed, or changes only in what decides nothing (a count it\nkeeps), is stopped in "
             "seconds, any other at the budget (exit 2)"},
    {.name = "jobs", .letter = 'j', .kind = WS_OPT_INT, .at = offsetof(sim_opts, jobs), .arg = "N", .lo = 1, .hi = 1024,
     .needs = "a number of threads from 1 to 1024",
     .help = "run the blocks on N threads (default: every core); the report is the\none thread's, bit for bit (docs/interp.md says which launches stay on one)"},
    {.name = "sample", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, sample),
     .help = "simulate a sample of the blocks (the first waves and one block of every\nedge kind) and scale the counters, with "
             "their bounds (automatic above\n10^9 thread-instructions estimated and 2^20 threads); buffers incomplete"},
    {.name = "sample-waves", .kind = WS_OPT_INT, .at = offsetof(sim_opts, sample_waves), .arg = "N", .lo = 1, .hi = 64,
     .needs = "a number of waves from 1 to 64",
     .help = "sample N whole waves (SMs x resident blocks each) however long they take,\ninstead of 3 within "
             "2*10^8 thread-instructions: the L2/DRAM counters get a\nwave-to-wave bound from N >= 3 (implies --sample)"},
    {.name = "full", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, full),
     .help = "simulate every block, however big the launch"},
    {.name = "save", .kind = WS_OPT_STRING, .at = offsetof(sim_opts, save), .arg = "DIR", .needs = "a folder",
     .help = "write every output buffer as DIR/<buffer>.npy (NumPy) and DIR/manifest.json;\n"
             "DIR is created if missing (every block is simulated: no sampling)"},
    {.name = "save-inputs", .kind = WS_OPT_FLAG, .at = offsetof(sim_opts, save_inputs),
     .help = "with --save: also every buffer's initial contents, as DIR/<buffer>.in.npy"},
    {.name = "html", .kind = WS_OPT_STRING, .at = offsetof(sim_opts, html), .arg = "FILE", .needs = "a file name",
     .help = "also write the report as one self-contained HTML page (no network, no other\n"
             "file): the source with the heat map, the per-line table, sector and bank\n"
             "pictures of the costliest lines, totals and time; --compare side by side"},
};

static const ws_cli_spec sim_spec = {
    .command = "sim",
    .usage = "usage: warpscope sim <kernel> [-D NAME=VALUE]... [--realistic] [--device KEY] [--json | --csv] [--lines] [--results DIR]\n"
             "                     [--racecheck] [--memcheck] [--budget N] [-j N] [--sample | --full]\n"
             "                     [--sample-waves N] [--save DIR [--save-inputs]] [--html FILE]\n"
             "       warpscope sim --compare <kernelA> <kernelB> [-D NAME=VALUE]... [--device KEY] [--json | --csv] [--lines]\n"
             "                     [--html FILE]\n",
    .about = "Simulates a described kernel on the CPU and reports, under Nsight Compute's metric names,\n"
             "its global/local sectors, shared-memory wavefronts and bank conflicts (exact), L1/L2/DRAM\n"
             "traffic (modelled), occupancy and a predicted time and bandwidth, and beside it the time\n"
             "recorded on that GPU by `warpscope check --record` when results/ has this kernel and -D.\n"
             "-D applies to both variants of --compare.\n"
             "\n"
             "  <kernel>            a catalog name (warpscope list), path/to/k.cu, or path/to/k.cu:name\n",
    .opts = sim_options,
    .nopts = WS_CLI_COUNT(sim_options),
};

/* Loads, resolves and simulates one kernel argument; *found is set when a checker reported
 * anything (the exit code is then WS_EXIT_KERNEL_FAULT, after the report). Returns a WS_EXIT_* code. */
static int run_one(ws_catalog *cat, const char *arg, const sim_opts *o, bool *found, sim_run *r, FILE *out)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ws_simulation *s = &r->sim;
    const ws_device *dev = o->c.dev;
    int rc = ws_simulation_open(s, cat, arg, &o->c.ov, dev, o->c.arch, &err);
    if (rc == WS_EXIT_OK) {
        /* the kernel's printf output goes where the GPU's would, stdout, unless stdout carries
         * --json or --csv: then stderr, so the report stays machine-readable */
        ws_simulation_opts so = {.progress_label = "warpscope sim", .racecheck = o->racecheck,
                                 .memory_errors_are_warnings = o->memcheck, .max_thread_insns = o->budget,
                                 .threads = o->jobs, .printf_out = o->c.json || o->c.csv ? stderr : stdout,
                                 /* a saved run's buffers must be whole: sampling leaves blocks out */
                                 .sample = o->full || o->save ? WS_SAMPLE_OFF : o->sample || o->sample_waves ? WS_SAMPLE_ON : WS_SAMPLE_AUTO,
                                 .sample_waves = o->full || o->save ? 0 : o->sample_waves};
        if (o->html) { /* the pictures keep first executions: any block will do, sampling stays as asked */
            so.observer = ws_line_pics_verdict;
            so.observer_ctx = &r->pics;
            so.observer_any_blocks = true;
        }
        rc = ws_simulation_run(s, &so, &err);
    }
    bool text = !o->c.json && !o->c.csv;
    if (s->race) {                             /* hazards up to a fault are worth seeing too */
        ws_racecheck_print(s->race, stderr, s->file->path, s->desc->name);
        *found |= ws_racecheck_count(s->race) > 0;
        /* a clean run says so, in compute-sanitizer's words (results/sanitizer-logs/), so silence
           never has to be read as "it ran" */
        if (text && rc == WS_EXIT_OK && !ws_racecheck_count(s->race))
            fprintf(stderr, "%s\n", WS_RACECHECK_CLEAN_SUMMARY);
    }
    if (rc != WS_EXIT_OK) {
        ws_error_print(&err);
        ws_format fmt = ws_emit_format(o->c.json, o->c.csv, WS_FMT_TEXT);
        /* a fault is a finding too, in the forms that have a fault document (JSON) */
        if (ws_emit_offers(fmt, &ws_report_fault_kind) && rc == WS_EXIT_KERNEL_FAULT && s->desc) {
            ws_report *p = &r->rep;
            p->kernel = s->desc->name;
            p->source_path = s->desc->kernel_file ? s->desc->kernel_file : s->file->path;
            p->launch = &s->launch;
            p->dev = dev;
            ws_overrides_text_for(s->desc, &o->c.ov, r->overrides, sizeof r->overrides);
            p->overrides = r->overrides;
            p->compiler = s->ptx_origin.compiler;
            p->race = s->race;
            p->result = o->memcheck && s->have_result ? &s->result : NULL;
            ws_sim_fault_doc fd = {p, &s->result.fault}; /* the record, not its sentence */
            if (ws_emit(out, fmt, &(ws_doc){&ws_report_fault_kind, &fd}))
                return WS_EXIT_INTERNAL;
        }
        /* what memcheck found before the run stopped for another reason is reported too */
        if (o->memcheck && s->have_result && s->result.stop == WS_SIM_FAULT)
            ws_memcheck_print_until(&s->result, stderr, "the run stopped at the error above");
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
    p->counters_level = s->sass ? s->sass->level : NULL;
    p->sampling = s->sampling;
    ws_sampler_info(s->sampler, &p->sample);
    p->sample.blocks_total = ws_launch_blocks(&s->launch);
    if (!p->sample.sampled) p->sample.blocks_run = p->sample.blocks_total;
    p->counters_approximate = s->sass && s->sass->active && s->sass->plan->approximate;
    p->sass_warp_insns = s->sass && s->sass->active ? s->sass->warp_insns : 0;
    p->spin_warp_insns = s->spin_warp_insns;
    ws_overrides_text_for(s->desc, &o->c.ov, r->overrides, sizeof r->overrides);
    p->overrides = r->overrides;
    p->compiler = s->ptx_origin.compiler;
    p->race = s->race;
    p->result = o->memcheck ? &s->result : NULL;
    p->nreg = s->result.nreg.used || s->result.nreg.ignored ? &s->result.nreg : NULL;
    ws_notes_build(&r->notes, dev, s->ms, ws_models_atomic_totals(s->models), s->have_timing ? &s->timing : NULL,
                   s->fn, &s->launch);
    p->notes = &r->notes;
    p->pictures = o->html ? &r->pics : NULL;
    /* only this GPU's run: the report sets it beside this GPU's prediction */
    {   /* looked up under the sizes it ran at (--realistic expanded) */
        ws_overrides *ov = malloc(sizeof *ov);
        if (ov && ws_overrides_for(s->desc, &o->c.ov, ov, NULL)) *ov = o->c.ov;
        p->measured = ov && ws_measured_for(cat->dir[0] ? cat->dir : NULL, o->c.results_dir, dev->key, s->desc->name,
                                            ov, WS_MEASURED_THIS_GPU, &r->measured) == 0 ? &r->measured : NULL;
        free(ov);
    }
    if (o->memcheck) {
        bool errors = ws_memcheck_print(&s->result, stderr) > 0;
        *found |= errors;
        if (!errors && !o->c.json && !o->c.csv)   /* as compute-sanitizer ends a clean memcheck run */
            fprintf(stderr, "%s\n", WS_MEMCHECK_CLEAN_SUMMARY);
    } else if (s->result.memory_warnings) {
        char first[WS_MSG_MAX];
        ws_fault_format(&s->result.first_warning, first, sizeof first);
        fprintf(stderr, "warpscope: sim: %s: %llu memory warnings; first: %s\n", s->desc->name,
                (unsigned long long)s->result.memory_warnings, first);
    }
    return WS_EXIT_OK;
}

/* --save: the final buffers of a full run, through the one writer gpu and check use too. */
static int save_outputs(const ws_simulation *s, const sim_opts *o)
{
    char ovt[512];
    ws_overrides_text_for(s->desc, &o->c.ov, ovt, sizeof ovt);
    ws_save_opts so = {.computed_by = "simulator", .overrides = ovt, .entry = s->fn->name, .inputs = o->save_inputs};
    ws_error err;
    int n = 0;
    int rc = ws_save_buffers(o->save, &s->launch, s->result.buffer_data, &so, &n, &err);
    if (rc) {
        ws_error_print(&err);
        return rc;
    }
    char shown[3 * WS_PATH_MAX];      /* the folder as the user gave it may hold terminal controls */
    fprintf(stderr, "warpscope: sim: saved %d buffer file%s and manifest.json in %s\n", n, n == 1 ? "" : "s",
            ws_text_visible(o->save, shown, sizeof shown));
    return WS_EXIT_OK;
}

int ws_cmd_sim(int argc, char **argv) { return ws_cmd_sim_to(argc, argv, stdout); }

int ws_cmd_sim_to(int argc, char **argv, FILE *out)
{
    sim_opts o = {.budget = 0};
    int nargs;
    int rc = ws_cli_parse(&sim_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN)
        return rc;
    const char **kernels = (const char **)argv + 1;
    if (nargs > 2) {
        fprintf(stderr, "warpscope: sim: too many kernels ('%s'); --compare takes two\n", kernels[2]);
        return WS_EXIT_USAGE;
    }
    if (nargs != (o.compare ? 2 : 1)) {
        fprintf(stderr, o.compare ? "warpscope: sim: --compare needs two kernels\n"
                                  : "warpscope: sim: give one kernel (or --compare A B)\n");
        ws_cli_help(&sim_spec, stderr);
        return WS_EXIT_USAGE;
    }
    if ((o.sample || o.sample_waves) && o.full) {
        fprintf(stderr, "warpscope: sim: %s and --full contradict each other; give one\n",
                o.sample ? "--sample" : "--sample-waves");
        return WS_EXIT_USAGE;
    }
    const bool compare = o.compare;
    ws_error err;
    if (o.save_inputs && !o.save) {
        fprintf(stderr, "warpscope: sim: --save-inputs goes with --save DIR\n");
        return WS_EXIT_USAGE;
    }
    if (o.save && (compare || o.sample || o.sample_waves)) {
        fprintf(stderr, compare ? "warpscope: sim: --save takes one kernel, not --compare (save each on its own)\n"
                                : "warpscope: sim: --save needs every block simulated; --sample leaves some out\n");
        return WS_EXIT_USAGE;
    }
    if (o.save && ws_save_mkdir(o.save, &err)) {  /* before a long run, not after it */
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    ws_outfile html;                           /* opened before the run: an unwritable file is said at once */
    FILE *hf = NULL;
    if (o.html && !(hf = ws_outfile_fopen(&html, o.html))) {
        char shown[3 * WS_PATH_MAX];
        fprintf(stderr, "warpscope: sim: --html %s: cannot write: %s\n", ws_text_visible(o.html, shown, sizeof shown),
                strerror(errno));
        return WS_EXIT_USAGE;
    }
    ws_catalog *cat = NULL;
    if (ws_catalog_load_for(kernels, nargs, &cat, &err)) { /* a .cu needs no catalog folder */
        ws_error_print(&err);
        if (hf) fclose(hf), ws_outfile_commit_closed(&html, -1);
        return WS_EXIT_USAGE;
    }
    static sim_run runs[2];                    /* large; cleared so nothing of a previous call shows */
    memset(runs, 0, sizeof runs);
    bool found = false;
    rc = WS_EXIT_OK;
    for (int k = 0; k < nargs && rc == WS_EXIT_OK; k++)
        rc = run_one(cat, kernels[k], &o, &found, &runs[k], out);
    if (rc == WS_EXIT_OK) { /* one document, in the form asked for (common/emit.h) */
        ws_sim_doc d = {.a = &runs[0].rep, .b = compare ? &runs[1].rep : NULL, .all_lines = o.lines};
        ws_doc doc = {compare ? &ws_report_compare_kind : &ws_report_kind, &d};
        if (ws_emit(out, ws_emit_format(o.c.json, o.c.csv, WS_FMT_TEXT), &doc)) {
            fprintf(stderr, "warpscope: sim: out of memory writing the report\n");
            rc = WS_EXIT_INTERNAL;
        }
    }
    if (hf) { /* the page, or nothing: a failed run or write leaves no half page (common/outfile.h) */
        bool ok = rc == WS_EXIT_OK && ws_report_html(hf, &runs[0].rep, compare ? &runs[1].rep : NULL) == 0;
        int close_rc = fclose(hf);
        if (ws_outfile_commit_closed(&html, ok ? close_rc : -1) && ok) {
            char shown[3 * WS_PATH_MAX];
            fprintf(stderr, "warpscope: sim: --html %s: cannot write: %s\n",
                    ws_text_visible(o.html, shown, sizeof shown), strerror(errno));
            rc = WS_EXIT_USAGE;
        } else if (ok && !o.c.json && !o.c.csv) {
            char shown[3 * WS_PATH_MAX];
            fprintf(stderr, "warpscope: sim: wrote %s\n", ws_text_visible(o.html, shown, sizeof shown));
        }
    }
    if (rc == WS_EXIT_OK && o.save)
        rc = save_outputs(&runs[0].sim, &o);
    for (int k = 0; k < 2; k++) {
        ws_simulation_close(&runs[k].sim);
        ws_line_pics_free(&runs[k].pics);
    }
    ws_catalog_free(cat);
    if (rc == WS_EXIT_OK && found)
        rc = WS_EXIT_KERNEL_FAULT;
    return rc;
}
