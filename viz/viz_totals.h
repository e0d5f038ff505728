/* viz_totals.h - the launch totals, per-line heat map and predicted time a recording shows
 * (issue 25): `warpscope sim`'s own run of the kernel (the same device, -D, arch and SASS
 * listing), block-sampled where sim samples (WS_SAMPLE_AUTO), its memstats read into
 * viz_totals and viz_line_heat; and a background job that makes that run beside an open
 * window, so the first frame waits only for the shown blocks (viz_record_shown).
 * Invariant: the totals are that run's memstats, so they are the numbers `warpscope sim`
 * prints for the same arguments (its scaled estimates when it samples, and then the recording
 * says so: totals_state SAMPLED, totals_note). */
#ifndef VIZ_TOTALS_H
#define VIZ_TOTALS_H

#include <stdbool.h>

#include "../common/ws_error.h"
#include "../sim/models/memstats.h"
#include "viz_model.h"
#include "viz_record.h"

struct ws_catalog;

/* One totals run's outcome, to be applied to its recording on the thread that draws it. */
typedef struct {
    int rc;                      /* WS_EXIT_* of the run */
    ws_error err;                /* rc != 0: why */
    viz_totals_state state;      /* FULL, SAMPLED, or FAILED */
    char note[160];              /* "sampled: 396 of 16384 blocks (...)", why it failed; "" when full */
    viz_totals launch;
    viz_line_heat *heat;         /* owned until applied */
    int nheat;
    double predicted_gbs, predicted_us; /* < 0: the device profile has no timing */
    double seconds;              /* wall time of the run */
} viz_totals_result;

/* Runs kernel o->kernel as `warpscope sim` does (sampled where it samples; no observer) and
 * fills *out (initialised here). Returns out->rc; on error err (and out->err) say why. */
int viz_totals_run(struct ws_catalog *cat, const viz_record_opts *o, viz_totals_result *out, ws_error *err);
/* Moves t's totals, heat map and predicted time into rec (a failed run: state FAILED and its
 * reason in totals_note, the totals left zero); t is emptied. */
void viz_totals_apply(viz_recording *rec, viz_totals_result *t);

/* The launch totals as the running totals count them, from a finished run's memstats: the
 * plain loads, stores and atomics of each space from the kernel totals (requests, sectors by
 * the atomic rule, ideal, wavefronts, excess as conflicts; a shared instruction is one
 * request), the tensor-era rows (cp.async, ldmatrix, ...) by their row's space and op, and the
 * L1/L2/DRAM sectors summed over the rows. */
void viz_totals_from_memstats(const ws_memstats *ms, viz_totals *t);
/* The heat map from the same rows: per source line, executions, active lanes, sectors and
 * wavefronts with their ideals. *heat is malloc'd (nheat lines, index = line). 0 or -1 (OOM). */
int viz_totals_heat_from_memstats(const ws_memstats *ms, viz_line_heat **heat, int *nheat);

/* The background job: the totals runs of n recordings (n <= 2), one after the other, on a
 * thread of its own, started after the first frame. kernels[i] and o (its ov) must outlive it. */
typedef struct viz_totals_job viz_totals_job;
/* NULL when the thread cannot be started (then run viz_totals_run in the foreground). */
viz_totals_job *viz_totals_job_start(struct ws_catalog *cat, const viz_record_opts *o, const char *const *kernels,
                                     int n);
bool viz_totals_job_done(viz_totals_job *j);
/* Waits for the job, applies its results to recs[0..n) and frees it. Returns the first non-zero
 * rc, with err set. */
int viz_totals_job_finish(viz_totals_job *j, viz_recording *recs, ws_error *err);

#endif
