/* cu_counters.h - hardware counters for one launch, read by re-running this
 * same warpscope binary under Nsight Compute:
 *   ncu --csv --print-units base --clock-control none --metrics <list>
 *       --kernel-name regex:<entry> --launch-count 1
 *       <self> gpu <kernel> --profile-child [-D N=V ...]
 * The child only uploads the buffers and launches once; ncu replays that launch
 * once per counter pass (restoring memory, flushing caches before each pass).
 * Invariant: only metrics the present ncu lists are requested (one unknown name
 * makes ncu collect nothing); the rest are reported as not collected. */
#ifndef CU_COUNTERS_H
#define CU_COUNTERS_H

#include "../common/desc.h"
#include "../common/ws_error.h"
#include "ncu_csv.h"

/* The metrics `gpu` collects and `check` asks for first: the metric table's rows whose ncu
 * column is COLLECT (sim/models/metrics.h), in its order. NULL-terminated. */
extern const char *const cu_default_metrics[];

typedef struct {
    const char *kernel_arg;        /* as the user typed it: "transpose_naive" or "k.cu:name" */
    const ws_overrides *overrides; /* -D values, passed on to the child */
    const char *entry;             /* __global__ name, for --kernel-name */
    const char *const *metrics;    /* NULL-terminated */
} cu_counters_request;

typedef struct {
    char ncu_path[512];
    char ncu_version[128];         /* "2025.3.1.0" */
    int requested, collected;
    char not_listed[1024];         /* metrics dropped because this ncu does not know them */
} cu_counters_info;

/* Runs ncu as described above and parses its CSV. Returns 0, or -1 with err
 * (ncu missing, ncu failed, no counters) and ncu's output kept in
 * $TMPDIR/warpscope-ncu-<pid>.log for inspection. */
int cu_counters_collect(const cu_counters_request *rq, cu_counters *c, cu_counters_info *info, ws_error *err);

#endif
