/* measured.h - the GPU measurements `warpscope check --record` keeps in
 * results/<gpu-key>.json, looked up by kernel and -D overrides, so that `warpscope sim`
 * and the visualizer can show the recorded figures on a machine without a GPU.
 * Invariant: a measurement is only called the kernel's own (exact) when it was recorded
 * with the same -D text; otherwise it is returned marked as a run with other sizes. */
#ifndef WS_MEASURED_H
#define WS_MEASURED_H

#include <stdbool.h>

#include "desc.h"
#include "ws_error.h"

typedef struct {
    char gpu[64];              /* device.name: "NVIDIA H200" */
    char device_key[32];       /* device.key: "h200" */
    char date[16];             /* the file's date, day only: "2026-11-30" */
    char file[WS_PATH_MAX];    /* the results file, relative to the working folder when inside it */
    char overrides[512];       /* the run's -D text, "" = the description's defaults */
    bool exact;                /* recorded with the -D text asked for */
    int others;                /* further runs of the kernel with other -D texts (besides this one) */
    char others_text[256];     /* their -D texts, distinct, in file order, "; " between, "the defaults"
                                  for ""; cut with "..." where they do not fit; "" when none */
    double gbs;                /* bandwidth_gbs: the description's bytes / median time */
    double median_us;          /* time.median_ms x 1000; < 0 when not recorded */
    int reps;                  /* time.reps, 0 when not recorded */
    double bytes_moved;        /* bytes_moved: the description's bytes per launch; < 0 when not recorded */
    double copy_gbs;           /* copy_ceiling.gbs: cuMemcpyDtoD in the same run; < 0 when not recorded */
    double copy_bytes;         /* copy_ceiling.bytes: the size that ceiling was measured at */
    double copy_us;            /* copy_ceiling.median_ms x 1000 */
} ws_measured;

/* Looks for runs of kernel in one results file: the run recorded with -D text ov_text
 * (NULL = "") when there is one (m->exact), else the first run of the kernel. Only runs
 * with a bandwidth count. Returns 0 when found, -1 when the file cannot be read, is not
 * JSON (or this build has no cJSON) or has no run of the kernel. Example:
 *   ws_measured_lookup("results/h200.json", "transpose_padded", "W=8192 H=8192", &m) */
int ws_measured_lookup(const char *json_path, const char *kernel, const char *ov_text, ws_measured *m);

/* Looks in <dir>/<device_key>.json (a file whose device.key says otherwise is skipped);
 * device_key NULL: every .json file in dir in name order, the first exact run winning,
 * else the first run found. Returns 0 when found, else -1. */
int ws_measured_find(const char *dir, const char *device_key, const char *kernel, const char *ov_text,
                     ws_measured *m);

typedef enum {
    WS_MEASURED_THIS_GPU,  /* only runs recorded on the device asked about (sim: beside its prediction) */
    WS_MEASURED_ANY_GPU    /* that device's run first, else one recorded on any GPU (viz: names the GPU) */
} ws_measured_scope;

/* The one results-lookup rule of `sim` and `viz`: the folder is results_dir when given, else
 * <catalog_dir>/../results and then ./results (catalog_dir NULL: ./results only); in each
 * folder ws_measured_find for device_key, and with WS_MEASURED_ANY_GPU then for any GPU.
 * ov (may be NULL) is the -D the kernel runs with. Returns 0 when found, else -1. Example:
 *   ws_measured_for(cat->dir, NULL, "h200", "copy_float", &ov, WS_MEASURED_THIS_GPU, &m) */
int ws_measured_for(const char *catalog_dir, const char *results_dir, const char *device_key, const char *kernel,
                    const ws_overrides *ov, ws_measured_scope scope, ws_measured *m);

#endif
