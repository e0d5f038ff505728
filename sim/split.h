/* split.h - the simulation pipeline's listener in halves for the threads (ws_split_listener,
 * sim/interp/interp.h): on each worker, the SASS stage (its own, on the session's plan) and
 * the models' order-free half (coalescer sectors, bank rule: ws_models_half); on the calling
 * thread, in block order, the SASS stage's numbering, the caches, atomics, latency and the
 * sinks (ws_models_listener_with).
 * Invariant: what the models and sinks see is what `listener` -> (SASS stage) -> models would
 * have given them on one thread, event for event and byte for byte (tests/test_split.c). */
#ifndef WS_SPLIT_H
#define WS_SPLIT_H

#include "interp/interp.h"
#include "models/models.h"
#include "sass/sass_events.h"

typedef struct ws_pipeline_split ws_pipeline_split;

/* Puts the halves into cfg (cfg->split) when cfg->listener is m's ws_models_listener or the
 * SASS stage `stage` in front of it (stage: NULL when none), with nothing between them; any
 * other chain (racecheck in front) is left as it is and NULL returned with *oom false.
 * NULL with *oom true: out of memory (the run still works, on the unsplit path). */
ws_pipeline_split *ws_pipeline_split_attach(ws_sim_config *cfg, ws_models *m, ws_sass_stage *stage,
                                            const ws_sass_plan *plan, bool *oom);
void ws_pipeline_split_free(ws_pipeline_split *p);

#endif
