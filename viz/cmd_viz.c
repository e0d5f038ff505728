/* cmd_viz.c - `warpscope viz`: record one kernel (or two with --compare) and show it
 * in a window, or export frames headless. Options parse into viz_record_opts and
 * viz_app_opts; everything else lives in viz_record.c and viz_app.c.
 * Invariant: every exit path frees the catalog and the recordings and returns a
 * WS_EXIT_* code; bad input gets a one-line error naming the option at fault. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "viz_app.h"
#include "viz_record.h"

static void usage(FILE *to)
{
    fprintf(to,
            "usage: warpscope viz <kernel> [-D NAME=VALUE]... [--block B] [--warp W] [options]\n"
            "       warpscope viz --compare <kernelA> <kernelB> [options]\n"
            "\n"
            "Animates a simulated launch one warp-level memory instruction at a time: the source line\n"
            "and PTX, the 32 lanes, the shared-memory bank grid (conflicts in red) or the global/local\n"
            "128-B lines and 32-B sectors (coloured L1 hit / L2 hit / DRAM), running totals as\n"
            "`warpscope sim` reports them, and measured vs predicted throughput.\n"
            "\n"
            "  <kernel>            a catalog name (warpscope list), path/to/k.cu or path/to/k.cu:name\n"
            "  -D NAME=VALUE       override a description parameter (repeatable; applies to both variants)\n"
            "  --compare A B       two variants side by side, stepping in lockstep (e.g. transpose_coalesced\n"
            "                      transpose_padded: the same tile with and without padding)\n"
            "  --block B           first block to record and show (linear index, default 0)\n"
            "  --blocks N          blocks recorded from B on (default 2; w/b keys move between them)\n"
            "  --warp W            warp to show first (default 0)\n"
            "  --step K            start at the K-th memory instruction of that warp (0-based)\n"
            "  --device KEY        device profile for the models (default h200):");
    for (const ws_device *const *d = ws_device_all(); *d; d++)
        fprintf(to, " %s", (*d)->key);
    fprintf(to, "\n"
                "  --speed S           steps per second when playing (default 4)\n"
                "  --play              start playing\n"
                "  --size WxH          window or frame size (default 1280x800)\n"
                "  --headless          no window: render with the software renderer (runs in CI)\n"
                "  --frames N --out DIR  headless: write N frames, one step each, as DIR/frame_0000.png ...\n"
                "  --screenshot F.png  save the first frame as a PNG and exit (window or headless)\n"
                "  --results DIR       recorded GPU results folder (default <catalog>/../results)\n"
                "  --help              this text\n"
                "\nkeys:\n");
    for (int i = 0; i < viz_nkeys; i++)
        fprintf(to, "  %-18s  %s\n", viz_keys[i].keys, viz_keys[i].what);
    fprintf(to, "\nFonts come from fontconfig (DejaVu Sans / Sans Mono preferred); WARPSCOPE_FONT=path.ttf overrides.\n"
                "exit codes: 0 ok, 1 usage or input error, 2 the kernel faulted in simulation, 5 internal error\n");
}

static int parse_uint(const char *opt, const char *v, unsigned long max, unsigned long *out)
{
    char *end;
    if (!v || !*v) {
        fprintf(stderr, "warpscope: viz: %s needs a value\n", opt);
        return -1;
    }
    unsigned long x = strtoul(v, &end, 10);
    if (*end || v[0] == '-' || x > max) {
        fprintf(stderr, "warpscope: viz: %s %s: expected a whole number up to %lu\n", opt, v, max);
        return -1;
    }
    *out = x;
    return 0;
}

int ws_cmd_viz(int argc, char **argv)
{
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    const char *kernels[2] = {NULL, NULL};
    int nk = 0;
    bool compare = false;
    viz_record_opts ro = {.num_blocks = 2};
    viz_app_opts ao = {.width = 1280, .height = 800, .speed = 4.0};
    unsigned long block = 0, warp = 0, v = 1;
    ws_error err;
    memset(&err, 0, sizeof err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return WS_EXIT_OK;
        } else if (!strncmp(a, "-D", 2)) {
            const char *val = a[2] ? a + 2 : next;
            if (!a[2])
                i++;
            if (!val) {
                fprintf(stderr, "warpscope: viz: -D needs NAME=VALUE\n");
                return WS_EXIT_USAGE;
            }
            if (ws_overrides_add(&ov, val, &err)) {
                ws_error_print(&err);
                return WS_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--compare")) {
            compare = true;
        } else if (!strcmp(a, "--block")) {
            if (parse_uint(a, next, 0x7fffffffUL, &block)) return WS_EXIT_USAGE;
            i++;
        } else if (!strcmp(a, "--blocks")) {
            if (parse_uint(a, next, 1u << 20, &v) || v == 0) {
                if (v == 0 && next) fprintf(stderr, "warpscope: viz: --blocks must be at least 1\n");
                return WS_EXIT_USAGE;
            }
            ro.num_blocks = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--warp")) {
            if (parse_uint(a, next, 31, &warp)) return WS_EXIT_USAGE;
            i++;
        } else if (!strcmp(a, "--step")) {
            if (parse_uint(a, next, 1ul << 30, &v)) return WS_EXIT_USAGE;
            ao.start_step = v;
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (parse_uint(a, next, 100000, &v)) return WS_EXIT_USAGE;
            ao.frames = (int)v;
            i++;
        } else if (!strcmp(a, "--speed")) {
            char *end;
            ao.speed = next ? strtod(next, &end) : 0;
            if (!next || *end || !(ao.speed > 0 && ao.speed <= 1000)) { /* !(..) also refuses nan */
                fprintf(stderr, "warpscope: viz: --speed needs a number of steps per second (0 < S <= 1000)\n");
                return WS_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "--size")) {
            int w, h;
            char tail;
            if (!next || sscanf(next, "%dx%d%c", &w, &h, &tail) != 2 || w < 480 || h < 360 || w > 8192 || h > 8192) {
                fprintf(stderr, "warpscope: viz: --size needs WIDTHxHEIGHT, at least 480x360 (e.g. 1280x800)\n");
                return WS_EXIT_USAGE;
            }
            ao.width = w;
            ao.height = h;
            i++;
        } else if (!strcmp(a, "--device") || !strcmp(a, "--out") || !strcmp(a, "--screenshot") ||
                   !strcmp(a, "--results") || !strcmp(a, "--arch")) {
            if (!next) {
                fprintf(stderr, "warpscope: viz: %s needs a value\n", a);
                return WS_EXIT_USAGE;
            }
            if (!strcmp(a, "--device")) ro.device = next;
            else if (!strcmp(a, "--out")) ao.out_dir = next;
            else if (!strcmp(a, "--screenshot")) ao.screenshot = next;
            else if (!strcmp(a, "--results")) ro.results_dir = next;
            else ro.arch = next;
            i++;
        } else if (!strcmp(a, "--headless")) {
            ao.headless = true;
        } else if (!strcmp(a, "--play")) {
            ao.play = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpscope: viz: unknown option '%s'\n", a);
            usage(stderr);
            return WS_EXIT_USAGE;
        } else if (nk < 2) {
            kernels[nk++] = a;
        } else {
            fprintf(stderr, "warpscope: viz: too many kernels ('%s'); give one, or two with --compare\n", a);
            return WS_EXIT_USAGE;
        }
    }
    if (nk == 0 || (compare && nk != 2) || (!compare && nk != 1)) {
        fprintf(stderr, compare ? "warpscope: viz: --compare needs two kernels\n"
                                : nk ? "warpscope: viz: two kernels given; add --compare to show them side by side\n"
                                     : "warpscope: viz: which kernel? ('warpscope list' shows the catalog)\n");
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    if (ro.device && !ws_device_find(ro.device)) {
        fprintf(stderr, "warpscope: viz: unknown device '%s'; try:", ro.device);
        for (const ws_device *const *d = ws_device_all(); *d; d++)
            fprintf(stderr, " %s", (*d)->key);
        fputc('\n', stderr);
        return WS_EXIT_USAGE;
    }
    struct stat rsb;
    if (ro.results_dir && (stat(ro.results_dir, &rsb) != 0 || !S_ISDIR(rsb.st_mode))) {
        /* a mistyped folder would otherwise just hide the measured throughput */
        fprintf(stderr, "warpscope: viz: --results %s: %s\n", ro.results_dir,
                errno == ENOENT ? "no such folder" : "not a folder");
        return WS_EXIT_USAGE;
    }
    if (ao.headless && !ao.screenshot && !(ao.frames > 0 && ao.out_dir)) {
        fprintf(stderr, "warpscope: viz: --headless needs --frames N --out DIR, or --screenshot F.png\n");
        return WS_EXIT_USAGE;
    }
    if ((ao.frames > 0) != (ao.out_dir != NULL)) {
        fprintf(stderr, "warpscope: viz: --frames and --out go together (and need --headless)\n");
        return WS_EXIT_USAGE;
    }
    if (ao.frames > 0 && !ao.headless) {
        fprintf(stderr, "warpscope: viz: --frames/--out export frames headless; add --headless\n");
        return WS_EXIT_USAGE;
    }

    ws_catalog *cat = NULL;
    if (ws_catalog_load(NULL, &cat, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    static viz_recording recs[2];
    int rc = WS_EXIT_OK, nrec = 0;
    ro.ov = &ov;
    ro.first_block = (uint32_t)block;
    for (int i = 0; i < nk; i++) {
        ro.kernel = kernels[i];
        rc = viz_record_kernel(cat, &ro, &recs[i], &err);
        if (rc != WS_EXIT_OK) {
            ws_error_print(&err);
            goto out;
        }
        nrec++;
        if (warp >= recs[i].warps_per_block) {
            fprintf(stderr, "warpscope: viz: --warp %lu: %s has %u warps per block (0..%u)\n", warp, recs[i].kernel,
                    recs[i].warps_per_block, recs[i].warps_per_block - 1);
            rc = WS_EXIT_USAGE;
            goto out;
        }
        if (recs[i].truncated)
            fprintf(stderr, "warpscope: viz: %s: kept the first %zu steps of blocks %u..%u (use --block/--blocks)\n",
                    recs[i].kernel, recs[i].nsteps, recs[i].first_block, recs[i].first_block + recs[i].num_blocks - 1);
    }
    for (int i = 0; i < nk; i++)
        ao.rec[i] = &recs[i];
    ao.npanes = nk;
    ao.block_linear = (uint32_t)block;
    ao.warp = (uint32_t)warp;
    char msg[1024] = "";
    rc = viz_app_run(&ao, msg, sizeof msg);
    if (rc != WS_EXIT_OK)
        fprintf(stderr, "warpscope: viz: %s\n", msg);
out:
    for (int i = 0; i < nrec; i++)
        viz_recording_free(&recs[i]);
    ws_catalog_free(cat);
    return rc;
}
