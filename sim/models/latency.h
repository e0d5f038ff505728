/* latency.h - the latency half of the timing model: each access's load-to-use latency
 * from the models' verdict, and the per-warp latency epochs that sum those latencies
 * into per-SM latency cycles for sim/models/timing.c (docs/timing-model.md). An access's latency
 * itself is a model, ws_latency_of_access in sim/models/models.h.
 * In a kernel with block barriers an epoch of shared loads only is the warp's short chain, and
 * every warp of a block is charged the block's longest one (the barriers hold them for it).
 * One instruction's further events (a copy's shared side, part > 0) join the open epoch: one access.
 * With the machine code, a global/local load the SASS issues after a wait for the open epoch's
 * loads (an instruction reading their registers) starts a new epoch (ws_latency_set_load_waits).
 * Invariant: an epoch costs its slowest load and epochs of one warp add up; every open
 * epoch is closed by ws_latency_finish, so no load's latency is lost or counted twice. */
#ifndef WS_LATENCY_H
#define WS_LATENCY_H

#include <stdint.h>

#include "../../common/desc.h"
#include "../../common/device.h"
#include "models.h"
#include "../frontend/ptx.h"

typedef struct ws_latency ws_latency;

/* NULL when out of memory. Beyond 64 Mi warps every load is its own epoch. */
ws_latency *ws_latency_new(const ws_device *dev, const ws_launch *launch);
/* The function being run: its barriers and dependent loads end epochs (sim/frontend/deps.h).
 * Without it loads overlap until the warp jumps back (a loop iteration).
 * Returns 0, -1 when out of memory. */
int ws_latency_set_function(ws_latency *l, const ptx_function *fn);
/* The machine code's waits (sim/sass/sass_map.h ws_sass_load_waits: per event pc, the count of
 * SASS instructions before it that wait for a global/local load): a warp's access whose count is
 * above its previous access's starts a new epoch. Takes waits (malloc'd, n entries; NULL: none). */
void ws_latency_set_load_waits(ws_latency *l, int *waits, int n);
/* The run's executions of each pc (pc_warp_count, ninsns of them), before ws_latency_finish: the
 * pipeline's depth N is the cp.async.wait_group N > 0 its warps executed most (without this call,
 * the function's one such N, or none where it has several). An epoch of such copies alone then
 * adds its latency / (N + 1) to the chain (latency.c, close_epoch). */
void ws_latency_set_wait_counts(ws_latency *l, const uint64_t *pc_warp_count, int ninsns);
/* ws_verdict_fn: ctx = the ws_latency. */
void ws_latency_verdict(void *ctx, const ws_mem_verdict *v);
/* Closes every warp's open epoch. Idempotent; verdicts after it are ignored. */
void ws_latency_finish(ws_latency *l);
/* The header's invariant: 0 when every warp's epoch is closed (its cycles charged to its SM)
 * and every SM's cycles are a number >= 0; 1 for an open epoch, 2 for a bad sum.
 * ws_latency_finish asserts it. */
int ws_latency_check(const ws_latency *l);
/* Sum over the SM's warps of their epochs' latencies, cycles (after ws_latency_finish), DRAM
 * loads at the unloaded dram_cycles. */
double ws_latency_sm_cycles(const ws_latency *l, int sm);
/* The DRAM queue waits of those epochs that have a load with a DRAM sector: one each, or H_K
 * (1 + 1/2 + ... + 1/K, K warps per block) for one that ends at a barrier or at the block's exit
 * (the block waits for its slowest warp's wait); the wait depends on the kernel's DRAM utilisation
 * (sim/models/timing.c). */
double ws_latency_sm_dram_epochs(const ws_latency *l, int sm);
/* Of ws_latency_sm_cycles: the blocks' short chains, each warp charged its block's longest run of
 * epochs of shared loads only (a kernel with block barriers; 0 without): the part of the chain that
 * waits on the shared data path, which the phase term of sim/models/timing.c stretches to the SM's
 * wavefronts. */
double ws_latency_sm_short_cycles(const ws_latency *l, int sm);
/* Of ws_latency_sm_cycles: the SM's share of the warps' own instructions (ws_latency_add_chains'
 * warp_insns x insn_chain_cycles, without the barriers); 0 before it. */
double ws_latency_sm_insn_cycles(const ws_latency *l, int sm);
/* Block sampling, after ws_latency_finish (sim/sample.h): the SMs' summed cycles and DRAM
 * epochs times f, spread over the SMs as the grid's blocks are (ws_blocks_on_sm). */
void ws_latency_scale(ws_latency *l, double f);
/* A warp's own chain, after ws_latency_finish (and ws_latency_scale): each SM gets its blocks'
 * share of warp_insns x dev->insn_chain_cycles and of the block barrier passes (the warp-level
 * executions pc_warp_count[pc] of the function's barriers, ninsns of them) x (dev->barrier_cycles +
 * dev->barrier_warp_cycles x warps per block).
 * Both are the grid's (a sampled run's scaled counts). A profile with both 0 adds nothing. */
void ws_latency_add_chains(ws_latency *l, double warp_insns, const uint64_t *pc_warp_count, int ninsns);
void ws_latency_free(ws_latency *l);

#endif
