/* latency.h - the latency half of the timing model: each access's load-to-use latency
 * from the models' verdict, and the per-warp latency epochs that sum those latencies
 * into per-SM latency cycles for sim/timing.c (docs/timing-model.md).
 * Invariant: an epoch costs its slowest load and epochs of one warp add up; every open
 * epoch is closed by ws_latency_finish, so no load's latency is lost or counted twice. */
#ifndef WS_LATENCY_H
#define WS_LATENCY_H

#include <stdint.h>

#include "../common/desc.h"
#include "../common/device.h"
#include "models.h"
#include "ptx.h"

/* Load-to-use cycles of the access in v: the slowest sector's outcome for a global/local
 * load (DRAM at dram_cycles x the profile's loaded_dram_latency_factor), L1 hit time plus
 * one cycle per extra wavefront for a shared load; -1 for a store or a reduction (they wait
 * for nothing). An atomic with return adds its own serialisation: (lanes on one address - 1)
 * x atom_same_address_ns (or _float_ns) on global memory, (wavefronts - 1) x
 * shared_atom_cycles_per_pass on shared memory. */
double ws_latency_of_access(const ws_device *dev, const ws_mem_verdict *v);

typedef struct ws_latency ws_latency;

/* NULL when out of memory. Beyond 64 Mi warps every load is its own epoch. */
ws_latency *ws_latency_new(const ws_device *dev, const ws_launch *launch);
/* The function being run: its barriers and dependent loads end epochs (sim/deps.h).
 * Without it loads overlap until the warp jumps back (a loop iteration).
 * Returns 0, -1 when out of memory. */
int ws_latency_set_function(ws_latency *l, const ptx_function *fn);
/* ws_verdict_fn: ctx = the ws_latency. */
void ws_latency_verdict(void *ctx, const ws_mem_verdict *v);
/* Closes every warp's open epoch. Idempotent; verdicts after it are ignored. */
void ws_latency_finish(ws_latency *l);
/* Sum over the SM's warps of their epochs' latencies, cycles (after ws_latency_finish). */
double ws_latency_sm_cycles(const ws_latency *l, int sm);
void ws_latency_free(ws_latency *l);

#endif
