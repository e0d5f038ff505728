/* cmd_viz.c - `warpscope viz`: record one kernel (or two with --compare) and show it
 * in a window, or export frames headless. Options parse into viz_record_opts and
 * viz_app_opts; everything else lives in viz_record.c and viz_app.c.
 * Invariant: every exit path frees the catalog and the recordings and returns a
 * WS_EXIT_* code; bad input gets a one-line error naming the option at fault. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/catalog.h"
#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "viz_app.h"
#include "viz_model.h"
#include "viz_record.h"
#include "viz_steps_job.h"
#include "viz_totals.h"

/* The options of one call, parsed from the table below, then split into viz_record_opts
 * (what to record) and viz_app_opts (how to show it). */
typedef struct {
    ws_cli_common c;           /* -D, --device, --arch, --results */
    bool compare, headless, play, quiz, first_frame_time, sample, full;
    int block, blocks, warp, step, frames;
    int from, to;              /* -1 = not given */
    int scope;                 /* viz_scope; -1 = not given (block) */
    double speed;              /* steps per second */
    double font_scale;         /* 0 = from the window size */
    int size[2];               /* --size WxH */
    const char *out, *screenshot, *gif, *keys;
} viz_opts;

/* --scope warp|block|kernel */
static int set_scope(void *field, const char *v)
{
    for (int i = 0; i < VIZ_SCOPE_COUNT; i++)
        if (!strcmp(v, viz_scope_name((viz_scope)i))) {
            *(int *)field = i;
            return 0;
        }
    return -1;
}

/* --font-scale K, 0.5 to 4 */
static int set_font_scale(void *field, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (*end || !(x >= 0.5 && x <= 4))
        return -1;
    *(double *)field = x;
    return 0;
}

/* --speed S: steps per second, 0 < S <= 1000 (the !(..) also refuses nan) */
static int set_speed(void *field, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (*end || !(x > 0 && x <= 1000)) return -1;
    *(double *)field = x;
    return 0;
}

/* --size WxH, 480x360 to 8192x8192 */
static int set_size(void *field, const char *v)
{
    int w, h;
    char tail;
    if (sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 480 || h < 360 || w > 8192 || h > 8192) return -1;
    ((int *)field)[0] = w;
    ((int *)field)[1] = h;
    return 0;
}

static const ws_opt viz_options[] = {
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_REALISTIC,
    {.name = "compare", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, compare),
     .help = "two variants side by side, stepping in lockstep (e.g. transpose_coalesced\n"
             "transpose_padded: the same tile with and without padding)"},
    {.name = "block", .kind = WS_OPT_INT, .at = offsetof(viz_opts, block), .arg = "B", .lo = 0, .hi = 0x7fffffff,
     .needs = "a whole number from 0 to 2147483647", .help = "first block to record and show (linear index, default 0)"},
    {.name = "blocks", .kind = WS_OPT_INT, .at = offsetof(viz_opts, blocks), .arg = "N", .lo = 1, .hi = 1 << 20,
     .needs = "a whole number from 1 to 1048576",
     .help = "blocks recorded from B on (default 2; with --scope kernel every block; b/B move between them)"},
    {.name = "scope", .kind = WS_OPT_CALL, .at = offsetof(viz_opts, scope), .arg = "S", .set = set_scope,
     .needs = "warp, block or kernel",
     .help = "what playback walks through: one warp, the block (default: every warp in issue\n"
             "order) or kernel (every recorded block); the a key cycles them"},
    {.name = "warp", .kind = WS_OPT_INT, .at = offsetof(viz_opts, warp), .arg = "W", .lo = 0, .hi = 31,
     .needs = "a whole number from 0 to 31", .help = "warp to show first (default 0; --scope warp follows it)"},
    {.name = "step", .kind = WS_OPT_INT, .at = offsetof(viz_opts, step), .arg = "K", .lo = 0, .hi = 1 << 30,
     .needs = "a whole number from 0 to 1073741824",
     .help = "start at the K-th memory instruction of the scope (0-based)"},
    {.name = "quiz", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, quiz),
     .help = "predict-then-reveal: type each step's sectors or wavefronts before it is shown\n"
             "(scored; the p key toggles it)"},
    WS_CLI_OPT_DEVICE,
    {.name = "speed", .kind = WS_OPT_CALL, .at = offsetof(viz_opts, speed), .arg = "S", .set = set_speed,
     .needs = "a number of steps per second (0 < S <= 1000)", .help = "steps per second when playing (default 4)"},
    {.name = "play", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, play), .help = "start playing"},
    {.name = "font-scale", .kind = WS_OPT_CALL, .at = offsetof(viz_opts, font_scale), .arg = "K",
     .set = set_font_scale, .needs = "a number from 0.5 to 4",
     .help = "text size (1 = 13-px code; default from the window: 0.85 at 1024x768, 2.7 at 3840x2160)"},
    {.name = "size", .kind = WS_OPT_CALL, .at = offsetof(viz_opts, size), .arg = "WxH", .set = set_size,
     .needs = "WIDTHxHEIGHT, at least 480x360 (e.g. 1280x800)", .help = "window or frame size (default 1280x800)"},
    {.name = "headless", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, headless),
     .help = "no window: render with the software renderer (runs in CI; --out and --gif imply it)"},
    {.name = "frames", .kind = WS_OPT_INT, .at = offsetof(viz_opts, frames), .arg = "N", .lo = 1, .hi = 100000,
     .needs = "a whole number from 1 to 100000", .help = "export N frames, one step each, from --from (or --step) on"},
    {.name = "from", .kind = WS_OPT_INT, .at = offsetof(viz_opts, from), .arg = "A", .lo = 0, .hi = 1 << 30,
     .needs = "a whole number from 0 to 1073741824", .help = "export from step A of the scope (0-based; as --step)"},
    {.name = "to", .kind = WS_OPT_INT, .at = offsetof(viz_opts, to), .arg = "B", .lo = 0, .hi = 1 << 30,
     .needs = "a whole number from 0 to 1073741824", .help = "export to step B, inclusive (default: the end, or --frames)"},
    {.name = "out", .kind = WS_OPT_STRING, .at = offsetof(viz_opts, out), .arg = "DIR",
     .help = "export PNG frames as DIR/frame_0000.png ... (fast zlib level)"},
    {.name = "gif", .kind = WS_OPT_STRING, .at = offsetof(viz_opts, gif), .arg = "F.gif",
     .help = "export the same steps as one looping animated GIF (--speed sets its pace)"},
    {.name = "keys", .kind = WS_OPT_STRING, .at = offsetof(viz_opts, keys), .arg = "\"K ...\"",
     .help = "press these keys first, e.g. \"a a\" or \"p 3 2 Return\" (SDL key names; S-Right = Shift)"},
    {.name = "sample", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, sample),
     .help = "the launch totals and heat map from a sample of the blocks, as `sim --sample`\n"
             "(the default samples where sim does: above 10^9 thread-instructions estimated)"},
    {.name = "full", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, full),
     .help = "the launch totals and heat map from every block, as `sim --full`"},
    {.name = "first-frame-time", .kind = WS_OPT_FLAG, .at = offsetof(viz_opts, first_frame_time),
     .help = "print the seconds from the start to the first frame, and to the totals' arrival\n"
             "(with --headless: render that frame, wait for the totals, exit)"},
    {.name = "screenshot", .kind = WS_OPT_STRING, .at = offsetof(viz_opts, screenshot), .arg = "F.png",
     .help = "save the first frame as a PNG and exit (window or headless)"},
    WS_CLI_OPT_RESULTS,
    WS_CLI_OPT_ARCH,
};

static void viz_more_help(FILE *to)
{
    fprintf(to, "\nkeys:\n");
    for (int i = 0; i < viz_nkeys; i++)
        fprintf(to, "  %-18s  %s\n", viz_keys[i].keys, viz_keys[i].what);
    fprintf(to, "\nFonts come from fontconfig (DejaVu Sans / Sans Mono preferred); WARPSCOPE_FONT=path.ttf overrides\n"
                "(a font that cannot be found or opened is an input error, exit 1).\n");
}

static const ws_cli_spec viz_spec = {
    .command = "viz",
    .usage = "usage: warpscope viz <kernel> [-D NAME=VALUE]... [--realistic] [--block B] [--warp W] [options]\n"
             "       warpscope viz --compare <kernelA> <kernelB> [options]\n"
             "       warpscope viz <kernel> --gif F.gif [--out DIR] [--from A] [--to B]\n",
    .about = "Animates a simulated launch one warp-level memory instruction at a time, a whole block\n"
             "(every warp in issue order) by default: the source line (wrapped, never cut) and PTX, the\n"
             "32 lanes, the shared-memory bank grid (conflicts in red) or the global/local 128-B lines and\n"
             "32-B sectors (coloured L1 hit / L2 hit / DRAM), a warp timeline, a per-line heat map of the\n"
             "whole launch, running totals as `warpscope sim` reports them, and the recorded GPU bandwidth\n"
             "against the copy ceiling of the same run, with the launch overhead's share (any GPU's\n"
             "recorded run when this device has none). -D applies to both variants of --compare.\n"
             "\n"
             "  <kernel>            a catalog name (warpscope list), path/to/k.cu or path/to/k.cu:name\n",
    .opts = viz_options,
    .nopts = WS_CLI_COUNT(viz_options),
    .more_help = viz_more_help,
};

/* The totals' run (viz_totals.h) for the recordings shown, and --first-frame-time's report. */
typedef struct {
    ws_catalog *cat;
    viz_record_opts ro;          /* its ov points at ov: a job the window left behind still reads it */
    ws_overrides ov;
    const char **kernels;
    viz_recording *recs;
    int n;
    struct timespec t0;          /* the command's start */
    bool report;                 /* --first-frame-time: print the times */
    bool background;             /* a window: the run goes on a thread once the first frame is up */
    bool first_done, applied;
    viz_totals_job *job;
    bool more_steps;             /* the recordings are a first batch (VIZ_FIRST_STEPS): the rest to record */
    viz_steps_job *steps;        /* the rest, on a thread (a window) */
} totals_ctx;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void report_totals(const totals_ctx *tc)
{
    if (!tc->report)
        return;
    for (int i = 0; i < tc->n; i++) {
        const viz_recording *r = &tc->recs[i];
        printf("viz: %s: totals after %.3f s (%s%s%s)\n", r->kernel, since(&tc->t0),
               r->totals_state == VIZ_TOTALS_SAMPLED ? "" : r->totals_state == VIZ_TOTALS_FULL ? "every block" : "failed",
               r->totals_state == VIZ_TOTALS_FAILED ? ": " : "", r->totals_note);
    }
    fflush(stdout);
}

/* In the foreground: every recording's totals now. */
static int totals_now(totals_ctx *tc, ws_error *err)
{
    int rc = WS_EXIT_OK;
    for (int i = 0; i < tc->n; i++) {
        viz_record_opts o = tc->ro;
        o.kernel = tc->kernels[i];
        viz_totals_result t;
        int r = viz_totals_run(tc->cat, &o, &t, err);
        viz_totals_apply(&tc->recs[i], &t);
        if (r && !rc)
            rc = r;
        if (r)
            break;
    }
    tc->applied = true;
    report_totals(tc);
    return rc;
}

static void report_steps(const totals_ctx *tc)
{
    if (!tc->report)
        return;
    for (int i = 0; i < tc->n; i++)
        printf("viz: %s: every step after %.3f s (%zu steps%s)\n", tc->recs[i].kernel, since(&tc->t0),
               tc->recs[i].nsteps, tc->recs[i].truncated ? ", the recording's limit" : "");
    fflush(stdout);
}

/* In the foreground: the rest of the steps after the first batch (VIZ_FIRST_STEPS). */
static int steps_now(totals_ctx *tc, ws_error *err)
{
    for (int i = 0; tc->more_steps && i < tc->n; i++) {
        viz_record_opts o = tc->ro;
        o.kernel = tc->kernels[i];
        viz_recording full;
        int rc = viz_record_shown(tc->cat, &o, &full, err);
        if (rc) {
            viz_recording_free(&full);
            return rc;
        }
        viz_steps_take(&tc->recs[i], &full);
    }
    if (tc->more_steps)
        report_steps(tc);
    tc->more_steps = false;
    return WS_EXIT_OK;
}

/* The totals' run on a thread (after the steps': one simulation at a time); false when none
   could start (then they are done in the foreground, msg says how that went). */
static bool start_totals(totals_ctx *tc, char *msg, size_t cap)
{
    if (!tc->background || tc->applied || tc->job)
        return false;
    if (!(tc->job = viz_totals_job_start(tc->cat, &tc->ro, (const char *const *)tc->kernels, tc->n))) {
        ws_error err;                            /* no thread: the totals in the foreground */
        if (totals_now(tc, &err))
            snprintf(msg, cap, "totals: %.200s", err.msg);
        return true;
    }
    return false;
}

/* After each frame: the first one's time, then the background runs' start and arrival: the rest
   of the steps (where the first frame had a batch), then the totals. */
static bool totals_tick(void *ctx, char *msg, size_t cap)
{
    totals_ctx *tc = ctx;
    if (!tc->first_done) {
        tc->first_done = true;
        if (tc->report) {
            for (int i = 0; i < tc->n; i++)
                printf("viz: %s: first frame after %.3f s (%llu of %llu blocks simulated for it, %zu steps%s)\n",
                       tc->recs[i].kernel, since(&tc->t0), (unsigned long long)tc->recs[i].blocks_simulated,
                       (unsigned long long)tc->recs[i].grid_blocks, tc->recs[i].nsteps,
                       tc->more_steps ? ": a first batch" : "");
            fflush(stdout);
        }
        if (tc->background && tc->more_steps) {
            if ((tc->steps = viz_steps_job_start(tc->cat, &tc->ro, (const char *const *)tc->kernels, tc->n)))
                return false;
            ws_error err;                        /* no thread: the steps in the foreground */
            if (steps_now(tc, &err))
                snprintf(msg, cap, "steps: %.200s", err.msg);
            start_totals(tc, msg, cap);
            return true;
        }
        return start_totals(tc, msg, cap);
    }
    if (tc->steps) {
        if (!viz_steps_job_done(tc->steps))
            return false;
        ws_error err;
        memset(&err, 0, sizeof err);
        int rc = viz_steps_job_finish(tc->steps, tc->recs, &err);
        tc->steps = NULL;
        tc->more_steps = false;
        report_steps(tc);
        if (rc)
            snprintf(msg, cap, "steps: %.200s", err.msg);
        else
            snprintf(msg, cap, "every step in: %zu", tc->recs[0].nsteps);
        start_totals(tc, msg, cap);
        return true;
    }
    if (!tc->job || tc->applied || !viz_totals_job_done(tc->job))
        return false;
    ws_error err;
    memset(&err, 0, sizeof err);
    int rc = viz_totals_job_finish(tc->job, tc->recs, &err);
    tc->job = NULL;
    tc->applied = true;
    report_totals(tc);
    if (rc)
        snprintf(msg, cap, "totals: %.200s", err.msg);
    else
        snprintf(msg, cap, "totals in: %.200s", tc->recs[0].totals_state == VIZ_TOTALS_SAMPLED ? tc->recs[0].totals_note
                                                                                                : "every block simulated");
    return true;
}

int ws_cmd_viz(int argc, char **argv)
{
    viz_opts o = {.blocks = -1, .speed = 4.0, .size = {1280, 800}, .from = -1, .to = -1, .scope = -1};
    int nk;
    int rc = ws_cli_parse(&viz_spec, argc, argv, &o, &nk);
    if (rc != WS_CLI_RUN)
        return rc;
    const char **kernels = (const char **)argv + 1;
    if (nk > 2) {
        fprintf(stderr, "warpscope: viz: too many kernels ('%s'); give one, or two with --compare\n", kernels[2]);
        return WS_EXIT_USAGE;
    }
    const bool compare = o.compare;
    if (nk == 0 || (compare && nk != 2) || (!compare && nk != 1)) {
        fprintf(stderr, compare ? "warpscope: viz: --compare needs two kernels\n"
                                : nk ? "warpscope: viz: two kernels given; add --compare to show them side by side\n"
                                     : "warpscope: viz: which kernel? ('warpscope list' shows the catalog)\n");
        ws_cli_help(&viz_spec, stderr);
        return WS_EXIT_USAGE;
    }
    const viz_scope scope = o.scope < 0 ? VIZ_SCOPE_BLOCK : (viz_scope)o.scope;
    /* kernel scope records every block unless --blocks says how many (0 here: all) */
    uint32_t nblocks = o.blocks < 0 ? (scope == VIZ_SCOPE_KERNEL ? 0 : 2) : (uint32_t)o.blocks;
    viz_record_opts ro = {.num_blocks = nblocks ? nblocks : UINT32_MAX, .device = o.c.dev->key, .arch = o.c.arch,
                          .results_dir = o.c.results_dir};
    if (o.from >= 0 && o.step && o.from != o.step) {
        fprintf(stderr, "warpscope: viz: --from %d and --step %d disagree (they are the same thing)\n", o.from, o.step);
        return WS_EXIT_USAGE;
    }
    int from = o.from >= 0 ? o.from : o.step;
    if (o.to >= 0 && o.to < from) {
        fprintf(stderr, "warpscope: viz: --to %d is before --from %d\n", o.to, from);
        return WS_EXIT_USAGE;
    }
    if (o.to >= 0 && o.frames) {
        fprintf(stderr, "warpscope: viz: give --to B or --frames N, not both\n");
        return WS_EXIT_USAGE;
    }
    bool exporting = o.out || o.gif;
    if ((o.frames || o.to >= 0) && !exporting) {
        fprintf(stderr, "warpscope: viz: --frames/--to say how many steps to export: add --out DIR or --gif F.gif\n");
        return WS_EXIT_USAGE;
    }
    if (o.headless && !o.screenshot && !exporting && !o.first_frame_time) {
        fprintf(stderr, "warpscope: viz: --headless needs --out DIR, --gif F.gif, --screenshot F.png or --first-frame-time\n");
        return WS_EXIT_USAGE;
    }
    if (o.sample && o.full) {
        fprintf(stderr, "warpscope: viz: give --sample or --full, not both\n");
        return WS_EXIT_USAGE;
    }
    ro.sample = o.sample ? 1 : o.full ? -1 : 0;
    if (o.first_frame_time && (exporting || o.screenshot)) {
        fprintf(stderr, "warpscope: viz: --first-frame-time times the first frame on screen (or, with --headless, in "
                        "memory); drop --out, --gif and --screenshot\n");
        return WS_EXIT_USAGE;
    }
    if (o.quiz && compare) {
        fprintf(stderr, "warpscope: viz: --quiz asks about one kernel; drop --compare\n");
        return WS_EXIT_USAGE;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    viz_app_opts ao = {.width = o.size[0], .height = o.size[1], .speed = o.speed, .start_step = (size_t)from,
                       .has_last = o.to >= 0, .last_step = o.to >= 0 ? (size_t)o.to : 0, .frames = o.frames, .out_dir = o.out, .gif = o.gif,
                       .screenshot = o.screenshot, .headless = o.headless || exporting, .play = o.play,
                       .quiz = o.quiz, .keys = o.keys, .font_scale = o.font_scale, .scope = scope,
                       .first_frame_only = o.first_frame_time && o.headless};
    const uint32_t block = (uint32_t)o.block, warp = (uint32_t)o.warp;
    ws_error err;
    memset(&err, 0, sizeof err);

    ws_catalog *cat = NULL;
    if (ws_catalog_load_for(kernels, nk, &cat, &err)) { /* a .cu needs no catalog folder */
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    static viz_recording recs[2];
    int nrec = 0;
    rc = WS_EXIT_OK;
    ro.ov = &o.c.ov;
    ro.first_block = block;
    /* a window (or its timing) starts from a first batch of the steps, the rest recorded after the
       first frame; an export or a screenshot shows every step the same every run: all of them now,
       and so does a window asked to start at a later step or to press keys first (End, a jump) */
    const bool stream = !exporting && !o.screenshot && from == 0 && !o.keys;
    bool more_steps = false;
    for (int i = 0; i < nk; i++) {
        viz_record_opts first = ro;
        first.kernel = kernels[i];
        if (stream)
            first.max_steps = VIZ_FIRST_STEPS;
        rc = viz_record_shown(cat, &first, &recs[i], &err); /* the shown blocks only: the first frame's */
        if (rc != WS_EXIT_OK) {
            ws_error_print(&err);
            goto out;
        }
        nrec++;
        if (warp >= recs[i].warps_per_block) {
            fprintf(stderr, "warpscope: viz: --warp %u: %s has %u warps per block (0..%u)\n", warp, recs[i].kernel,
                    recs[i].warps_per_block, recs[i].warps_per_block - 1);
            rc = WS_EXIT_USAGE;
            goto out;
        }
        if (stream && recs[i].truncated)
            more_steps = true;                   /* the batch is full: there are more steps */
        else if (recs[i].truncated)
            fprintf(stderr, "warpscope: viz: %s: kept the first %zu steps of blocks %u..%u (use --block/--blocks)\n",
                    recs[i].kernel, recs[i].nsteps, recs[i].first_block, recs[i].first_block + recs[i].num_blocks - 1);
    }
    for (int i = 0; i < nk; i++)
        ao.rec[i] = &recs[i];
    ao.npanes = nk;
    ao.block_linear = block;
    ao.warp = warp;
    /* the totals: before the frames of an export or a screenshot (they show them; the same every
       run), else in the background once the first frame is up (a window), or after it
       (--first-frame-time --headless) */
    static totals_ctx tc; /* reachable while a job the window left behind still runs */
    tc = (totals_ctx){.cat = cat, .ro = ro, .kernels = kernels, .recs = recs, .n = nk, .t0 = t0,
                      .report = o.first_frame_time, .background = !ao.headless && !o.screenshot, .ov = o.c.ov,
                      .more_steps = more_steps};
    tc.ro.ov = &tc.ov;
    if ((ao.headless || o.screenshot) && !o.first_frame_time && (rc = totals_now(&tc, &err)) != WS_EXIT_OK) {
        ws_error_print(&err);
        goto out;
    }
    ao.tick = totals_tick;
    ao.tick_ctx = &tc;
    char msg[1024] = "";
    rc = viz_app_run(&ao, msg, sizeof msg);
    if (rc != WS_EXIT_OK)
        fprintf(stderr, "warpscope: viz: %s\n", msg);
    if (rc == WS_EXIT_OK && o.first_frame_time && ao.headless) {
        int trc = steps_now(&tc, &err);
        if (trc == WS_EXIT_OK)
            trc = totals_now(&tc, &err);
        if (trc != WS_EXIT_OK) {
            ws_error_print(&err);
            rc = trc;
        }
    }
    if ((tc.job && !viz_totals_job_done(tc.job)) || (tc.steps && !viz_steps_job_done(tc.steps)))
        return rc;                               /* the window closed first: the process ends with it */
    if (tc.steps)
        viz_steps_job_finish(tc.steps, recs, &err);
    if (tc.job)
        viz_totals_job_finish(tc.job, recs, &err);
out:
    for (int i = 0; i < nrec; i++)
        viz_recording_free(&recs[i]);
    ws_catalog_free(cat);
    return rc;
}
