/* sass_events.h - the stage between the interpreter and the memory models that turns the
 * PTX's memory events into the ones the SASS executes, following a ws_sass_plan:
 *   - a merge's carrier becomes one event of the merged width (the models count the sectors
 *     and wavefronts of the real LDS.128 / STS.64 / LDG.E.128), the merged-in ones vanish;
 *   - an atom whose SASS is a RED becomes a reduction;
 *   - spill LDL/STL become local events (the frame offset of [R1+imm] for every active lane;
 *     the coalescer applies the local interleave) each time a warp reaches their anchor;
 *   - a PTX access ptxas removed (a store overwritten on every path, a reload) vanishes;
 *   - a wmma.load/store's fragment events become the SASS the plan found: per_exec LDG/STG/
 *     LDS/STS of its width (each lane's bytes in address order, cut at that width), or LDSM/
 *     STSM with one 8x8 matrix per fragment register (its rows: the 16-byte segments the
 *     register's lanes touch), counted in those rows and not as wmma;
 *   - cp.async, ldmatrix, stmatrix pass as they are: their SASS (LDGSTS, LDSM, STSM) is one
 *     for one.
 * A predicated SASS instruction (ptxas if-converted the PTX's branch) needs nothing: with
 * every lane off it is not counted by smsp__sass_inst_executed_op_* (measured on the H200:
 * reduce_interleaved's predicated LDS/STS count 97280/56320, the instructions with an
 * active lane), which is what the PTX's skipped instruction gives.
 * Everything else passes unchanged. The output is a function of (plan, input events, watch
 * hits) only, so it is tested without an interpreter or a GPU.
 * Invariant: output seq numbers count the output events from 0; spill events carry pc
 * fn->ninsns + their SASS index (outside the function: kernel totals only). */
#ifndef WS_SASS_EVENTS_H
#define WS_SASS_EVENTS_H

#include <stdint.h>

#include "../interp/event.h"
#include "../interp/interp.h"
#include "sass_map.h"

typedef struct ws_sass_stage ws_sass_stage;

typedef struct {
    uint64_t in, out;          /* events received / emitted */
    uint64_t merged_away;      /* input events folded into a carrier or dropped */
    uint64_t spill_events;     /* LDL/STL events added */
} ws_sass_stage_stats;

/* down/down_ctx: where the SASS events go (ws_memstats_listener). Returns NULL when out
 * of memory. */
ws_sass_stage *ws_sass_stage_new(const ws_sass_plan *plan, ws_mem_listener down, void *down_ctx);
void ws_sass_stage_free(ws_sass_stage *st);

/* Puts the stage in front of cfg->listener (which becomes its downstream) and asks the
 * interpreter for the spill anchors (cfg->watch). */
void ws_sass_stage_attach(ws_sass_stage *st, ws_sim_config *cfg);

void ws_sass_stage_listener(void *ctx, const ws_mem_event *ev); /* ws_mem_listener */
/* Emits the wmma execution the stage holds (the listener holds one until the next event that
 * does not continue it); call once the interpreter is done. */
void ws_sass_stage_flush(ws_sass_stage *st);
void ws_sass_stage_watch(void *ctx, const ws_watch_hit *hit);   /* ws_watch_fn */

const ws_sass_stage_stats *ws_sass_stage_get_stats(const ws_sass_stage *st);

/* For the threads (sim/split.c): a worker runs a stage of its own (ws_sass_stage_new on the
 * same plan) and the replaying thread numbers the events it emitted: ws_sass_stage_take_seq
 * is the seq of the next one (and counts it out), as emitting it here would. A worker
 * stage's other counts are added with ws_sass_stage_add_counts (after a budget stop they
 * include the blocks the workers ran past it; only the tests read them). */
uint64_t ws_sass_stage_take_seq(ws_sass_stage *st);
void ws_sass_stage_add_counts(ws_sass_stage *st, const ws_sass_stage *worker);

/* ---- one kernel's SASS, for the simulation pipeline (sim/simulate.c) ---------------- */

typedef struct {
    bool active;               /* the SASS stage runs: the counters are the SASS's */
    char level[400];           /* "SASS (ptxas -arch=sm_90, nvdisasm): 8 merged accesses ..." or
                                  "PTX-level: nvdisasm not found (...)" */
    ws_sass_listing *listing;
    const ws_sass_function *sf;
    ws_sass_plan *plan;
    ws_sass_stage *stage;
    uint64_t warp_insns;       /* SASS warp instructions executed (after ws_sass_session_finish) */
    uint64_t tensor_insns[WS_SASS_TENSOR_COUNT]; /* of them, the tensor pipe's: [0] all, [HMMA] ... */
    uint64_t pipe_insns[WS_PIPE_COUNT]; /* of them, per arithmetic pipe (sim/models/pipes.h) */
    ws_sass_guess guess;       /* the part of those counts that rests on stand-in anchors */
} ws_sass_session;

/* The SASS of fn: listing_text when given (a recorded nvdisasm listing), else ptxas +
 * nvdisasm run on ptx for arch; none when WARPSCOPE_SASS=off. Without SASS the session is
 * inactive and level says why. Returns NULL only when out of memory. */
ws_sass_session *ws_sass_session_open(const char *ptx, const ptx_function *fn, const char *arch,
                                      const char *listing_text);
/* Puts the stage in front of cfg->listener (an inactive session does nothing). */
int ws_sass_session_attach(ws_sass_session *ss, ws_sim_config *cfg);
/* After a successful run: emits a held wmma execution, then the SASS instruction counts. */
void ws_sass_session_finish(ws_sass_session *ss, const ws_sim_result *res);
void ws_sass_session_free(ws_sass_session *ss);

#endif
