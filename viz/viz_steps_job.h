/* viz_steps_job.h - the rest of the steps in the background (issue 25 item 4): the window's
 * first frame is drawn from a first batch of the shown blocks' steps (VIZ_FIRST_STEPS, a
 * recording stopped there), while a thread records the same blocks again to the full step
 * limit; the window then takes the longer recording's steps in place of the batch.
 * Invariant: the steps' run is deterministic (viz_record_shown), so the batch is a prefix of the
 * full recording: a step index the window shows stays the same step after the swap, and only
 * the step fields of a recording change (its source, heat map and totals stay). */
#ifndef VIZ_STEPS_JOB_H
#define VIZ_STEPS_JOB_H

#include <stdbool.h>

#include "../common/ws_error.h"
#include "viz_model.h"
#include "viz_record.h"

struct ws_catalog;

/* The first batch: about 2% of the default limit, a few tens of milliseconds of simulation for
 * the costliest catalog kernel (matmul_tiled16: 50,000 steps took 1.2 s). */
#define VIZ_FIRST_STEPS 1024

typedef struct viz_steps_job viz_steps_job;

/* Records kernels[0..n) (n <= 2) with o (its max_steps: the full limit) one after the other on a
 * thread. NULL when out of memory or no thread could be made (the caller records in the
 * foreground). cat and o->ov must outlive the job. */
viz_steps_job *viz_steps_job_start(struct ws_catalog *cat, const viz_record_opts *o, const char *const *kernels, int n);
bool viz_steps_job_done(viz_steps_job *j);
/* Waits for the job, moves each new recording's steps into recs[i] (viz_steps_take) and frees
 * the job. Returns the first non-zero WS_EXIT_* code with err set (recs keep their batch then). */
int viz_steps_job_finish(viz_steps_job *j, viz_recording *recs, ws_error *err);

/* Moves from's steps (and what says how they were simulated: truncated, max_steps, blocks
 * simulated, warm-up) into to, freeing to's; from is freed. */
void viz_steps_take(viz_recording *to, viz_recording *from);

#endif
