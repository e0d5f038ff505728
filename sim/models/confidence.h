/* confidence.h - what a prediction rests on that the timing model does not model, or models
 * with constants no measurement has confirmed: one note per mechanism, on its source line
 * where it has one, and the kernel's confidence (the lowest of its notes).
 *   low     the prediction may be off by more than the model's known error: a CAS retry loop
 *           (its count depends on timing), contended atomics that set the bound (estimated
 *           constants), the tensor pipes (mma/wmma: no calibration; predictions 1.3-5.6x too
 *           slow on the H200, issue 23), cp.async / TMA running beside compute
 *   medium  a mechanism with estimated constants that does not set the bound: atomics or
 *           shared atomics that are not the limit, many blocks with no calibrated launch rate
 *   high    none of these
 * Invariant: notes only describe; no number of the prediction changes here. */
#ifndef WS_CONFIDENCE_H
#define WS_CONFIDENCE_H

#include "../../common/desc.h"
#include "../../common/device.h"
#include "atomics.h"
#include "memstats.h"
#include "../frontend/ptx.h"
#include "timing.h"

typedef enum { WS_CONF_HIGH, WS_CONF_MEDIUM, WS_CONF_LOW } ws_confidence;
const char *ws_confidence_name(ws_confidence c); /* "high" */

#define WS_NOTES_MAX 16

typedef struct {
    ws_confidence level;   /* what this note does to the kernel's confidence */
    int line;              /* .cu line it is about, 0 = the kernel as a whole */
    const char *mechanism; /* "contended atomics", "CAS retry loop", "tensor pipe", ... */
    char text[360];        /* what is not modelled and what that means for the number */
} ws_note;

typedef struct {
    ws_confidence level;   /* the lowest of the notes; high without any */
    int n;
    ws_note notes[WS_NOTES_MAX];
} ws_notes;

/* The notes of a finished simulation: its totals and per-pc rows (ms), the contention
 * counts (at, may be NULL), the prediction (t), the entry's PTX (fn, may be NULL: no
 * instruction-level notes) and the occupancy's warps per block. */
void ws_notes_build(ws_notes *out, const ws_device *dev, const ws_memstats *ms, const ws_atomic_totals *at,
                    const ws_timing *t, const ptx_function *fn, const ws_launch *launch);

/* The timing model's known error, as a fraction: predictions are within it on most kernels
 * measured (issue 23: within 25% on 40/55 real kernels, within 20% on 44/53 probes, median
 * |error| 12.4%). A comparison whose ratio is inside it cannot be trusted to pick the faster. */
#define WS_TIMING_KNOWN_ERROR 0.25

/* A comparison of two predictions: which is faster, by how much, how sure, and what bounds each. */
typedef struct {
    double ratio;              /* t_A / t_B: > 1 means B is faster */
    bool b_faster;
    ws_confidence level;
    bool launch_dominates_both;/* each variant's launch cost exceeds its largest other term */
    const char *limiter_a, *limiter_b; /* what limits each: its bound's class (ws_bound_class), or
                                          "launch" where its launch cost is at least the rest of its
                                          time (the time is within 2x of the launch cost) */
    char why[320];             /* why the confidence is what it is */
} ws_compare_verdict;

void ws_compare_verdict_of(const ws_timing *a, const ws_notes *na, const ws_timing *b, const ws_notes *nb,
                           ws_compare_verdict *v);

#endif
