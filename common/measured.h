/* measured.h - the GPU measurements `warpscope check --record` keeps in
 * results/<gpu-key>.json, looked up by kernel and -D overrides, so that `warpscope sim`
 * and the visualizer can show the recorded figures on a machine without a GPU.
 * Invariant: a measurement is only called the kernel's own (exact) when it was recorded
 * with the same -D text; otherwise it is returned marked as a run with other sizes. */
#ifndef WS_MEASURED_H
#define WS_MEASURED_H

#include <stdbool.h>

#include "ws_error.h"

typedef struct {
    char gpu[64];              /* device.name: "NVIDIA H200" */
    char device_key[32];       /* device.key: "h200" */
    char date[16];             /* the file's date, day only: "2026-11-30" */
    char file[WS_PATH_MAX];    /* the results file, relative to the working folder when inside it */
    char overrides[512];       /* the run's -D text, "" = the description's defaults */
    bool exact;                /* recorded with the -D text asked for */
    int others;                /* further runs of the kernel with other -D texts (besides this one) */
    double gbs;                /* bandwidth_gbs: the description's bytes / median time */
    double median_us;          /* time.median_ms x 1000; < 0 when not recorded */
    int reps;                  /* time.reps, 0 when not recorded */
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

#endif
