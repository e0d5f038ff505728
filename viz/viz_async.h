/* viz_async.h - the asynchronous side of a recording (issue 24): turns the interpreter's
 * ws_async_event records (sim/interp/interp.h) of the kept blocks into LANDED and MBAR_WAIT steps
 * (viz_model.h) between the access steps: a cp.async lands when its warp's wait_group / wait_all
 * covers its group, a bulk copy or TMA when the phase of the mbarrier it completes on ends, and a
 * warp's mbarrier wait shows as a stall from its first wait that finds the phase open to the wait
 * that passes.
 * Invariant: a copy lands at most once, never before its issuing step, and every step pushed here
 * carries no counts (viz_step_counts is false), so totals and heat are those of the accesses. */
#ifndef VIZ_ASYNC_H
#define VIZ_ASYNC_H

#include <stddef.h>

#include "../sim/interp/interp.h"
#include "viz_model.h"

typedef struct viz_async viz_async;

viz_async *viz_async_new(void);
void viz_async_free(viz_async *a);

/* r->steps[i] was just pushed: a cp.async's or bulk copy's shared-side step becomes a pending copy.
 * Returns 0, or -1 when out of memory. */
int viz_async_step(viz_async *a, viz_recording *r, size_t i);

/* One record of a kept block: pushes the LANDED / MBAR_WAIT steps it causes into r (their running
 * totals: *run). Returns 0, or -1 when out of memory. Steps past r->max_steps are not pushed
 * (r->truncated). */
int viz_async_event(viz_async *a, viz_recording *r, const ws_async_event *e, const viz_totals *run);

#endif
