/* sass_events.h - the stage between the interpreter and the memory models that turns the
 * PTX's memory events into the ones the SASS executes, following a ws_sass_plan:
 *   - a merge's carrier becomes one event of the merged width (the models count the sectors
 *     and wavefronts of the real LDS.128 / STS.64 / LDG.E.128), the merged-in ones vanish;
 *   - an atom whose SASS is a RED becomes a reduction;
 *   - spill LDL/STL become local events (the frame offset of [R1+imm] for every active lane;
 *     the coalescer applies the local interleave) each time a warp reaches their anchor;
 *   - predicated SASS instructions that ran with every lane off (the PTX branched around
 *     them, or its guard was false for the whole warp) become events with no active lane:
 *     an instruction executed, no request, sector or wavefront (ws_sass_stage_flush).
 * Everything else passes unchanged. The output is a function of (plan, input events, watch
 * hits) only, so it is tested without an interpreter or a GPU.
 * Invariant: output seq numbers count the output events from 0; spill events carry pc
 * fn->ninsns + their SASS index (outside the function: kernel totals only). */
#ifndef WS_SASS_EVENTS_H
#define WS_SASS_EVENTS_H

#include <stdint.h>

#include "event.h"
#include "interp.h"
#include "sass_map.h"

typedef struct ws_sass_stage ws_sass_stage;

typedef struct {
    uint64_t in, out;          /* events received / emitted */
    uint64_t merged_away;      /* input events folded into a carrier or dropped */
    uint64_t spill_events;     /* LDL/STL events added */
    uint64_t predicated_off;   /* zero-lane events added by the flush */
} ws_sass_stage_stats;

/* down/down_ctx: where the SASS events go (ws_memstats_listener). nblocks: the launch's
 * blocks, over which the flush spreads its zero-lane events (they only count instructions,
 * per SM). Returns NULL when out of memory. */
ws_sass_stage *ws_sass_stage_new(const ws_sass_plan *plan, ws_mem_listener down, void *down_ctx, uint64_t nblocks);
void ws_sass_stage_free(ws_sass_stage *st);

/* Puts the stage in front of cfg->listener (which becomes its downstream) and asks the
 * interpreter for the spill anchors (cfg->watch). */
void ws_sass_stage_attach(ws_sass_stage *st, ws_sim_config *cfg);

void ws_sass_stage_listener(void *ctx, const ws_mem_event *ev); /* ws_mem_listener */
void ws_sass_stage_watch(void *ctx, const ws_watch_hit *hit);   /* ws_watch_fn */

/* After the run: every predicated SASS access executed as often as its anchor; the
 * executions the events did not show are emitted as zero-lane events. */
void ws_sass_stage_flush(ws_sass_stage *st, const uint64_t *pc_warp_count);

const ws_sass_stage_stats *ws_sass_stage_get_stats(const ws_sass_stage *st);

#endif
