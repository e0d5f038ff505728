/* models.h - the memory models behind one record: every ws_mem_event goes through the
 * block placement (SM), the coalescer, the bank model, the cache model and the access
 * latency once, and the results travel together as a ws_mem_verdict to every consumer
 * (memstats' sums, the latency epochs, the visualizer, tests).
 * Invariant: the models run here and only here; a consumer reads a verdict and never
 * re-derives a model's result from the event. A new model is a slot in ws_mem_verdict
 * and one call in ws_models_event.
 *
 * Block placement (a model): block b runs on SM b % sm_count; with R resident blocks
 * per SM (ws_models_set_resident_blocks, default 1) it occupies resident slot
 * (b / sm_count) % R there. A warp's local frame lives at a fixed address per
 * (SM, slot, warp): the hardware reuses local memory per resident thread slot, so a
 * later wave's spills hit the same lines. *
 * Room sim/models/: the models: one ws_mem_verdict per event, and the sums, occupancy and timing read from the verdicts only. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_MODELS_H
#define WS_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/desc.h"
#include "../../common/device.h"
#include "atomics.h"
#include "banks.h"
#include "cache.h"
#include "coalesce.h"
#include "../interp/event.h"

/* What the models say about one event. The pointers are valid during the call that
 * passes the verdict; a consumer that keeps anything copies it. */
typedef struct ws_mem_verdict {
    const ws_mem_event *ev;
    int sm;                          /* the SM its block runs on */
    const ws_coalesce_result *co;    /* global/local with >= 1 request; else NULL */
    const ws_bank_result *bk;        /* shared with >= 1 wavefront; else NULL */
    const ws_cache_access *ca;       /* each co entry's outcome; NULL without co or cache model */
    double latency;                  /* load-to-use cycles (ws_latency_of_access); < 0: the access waits for
                                        nothing (a store) or no model costed it (see has_latency) */
    int has_latency;                 /* 1: the access is a step of its warp's latency epochs */
    const ws_atomic_result *at;      /* a global or shared atomic/reduction: its lane-ops, sector-ops,
                                        shared passes (sim/models/atomics.h); else NULL */
    int ds_requests, ds_sectors;     /* a distributed shared memory access (event.h's dsmem): 1 request, the
                                        distinct 32-byte sectors its lanes touch (bk is NULL: the target
                                        block's banks are not the executing SM's L1 data pipe); else 0 */
} ws_mem_verdict;

/* The verdict's invariant: co only for a global or local event, bk only for a shared one,
 * ca only with co. 0, or 1, 2, 3 for the rule broken. ws_models_event asserts it. */
int ws_mem_verdict_check(const ws_mem_verdict *v);

/* Load-to-use cycles of the access in v: the slowest sector's outcome for a global/local
 * load (DRAM at the unloaded dram_cycles: the queueing under load is the timing model's,
 * sim/models/timing.c, solved with the kernel's DRAM utilisation), L1 hit time plus
 * one cycle per extra wavefront for a shared load; -1 for a store or a reduction (they wait
 * for nothing). An atomic with return adds its own serialisation: (lanes on one address - 1)
 * x atom_same_address_ns (or _float_ns) on global memory, (wavefronts - 1) x
 * shared_atom_cycles_per_pass on shared memory. */
double ws_latency_of_access(const ws_device *dev, const ws_mem_verdict *v);

/* A consumer of verdicts: memstats, the latency epochs, the visualizer's recorder. */
typedef void (*ws_verdict_fn)(void *ctx, const ws_mem_verdict *v);

typedef struct ws_models ws_models;

#define WS_MODELS_MAX_SINKS 4

/* Whether the models can represent dev: its bank and sector geometry is the one they
 * implement (32 banks x 4 B, 32-B sectors, 128-B lines) and it carries the latency
 * calibration. Returns 0, or -1 with why naming the field at fault. */
int ws_models_check_device(const ws_device *dev, char *why, size_t why_size);

/* l1_bytes: L1 data capacity per SM (unified minus the shared carve-out; see
 * ws_occupancy.l1_bytes). Returns NULL on out-of-memory or a device that
 * ws_models_check_device or the cache model refuses. */
ws_models *ws_models_new(const ws_device *dev, const ws_launch *launch, uint32_t l1_bytes);
void ws_models_set_resident_blocks(ws_models *m, int blocks_per_sm);
/* Read coalescing's drift multiplier (ws_cache_set_drift_scale): a sampled run's sqrt(grid / lead). */
void ws_models_set_drift_scale(ws_models *m, double scale);
/* Every access's lines before L1, for block sampling's L2 replay (ws_cache_set_trace). */
void ws_models_set_trace(ws_models *m, ws_cache_trace_fn fn, void *ctx);
/* Consumers of every verdict, called in the order added. Returns 0, -1 when full. */
int ws_models_add_sink(ws_models *m, ws_verdict_fn fn, void *ctx);
/* Runs every model on ev into *v (scratch owned by m: valid until the next event). */
void ws_models_event(ws_models *m, const ws_mem_event *ev, ws_mem_verdict *v);
/* ws_mem_listener: ws_models_event, then every sink. Ignored after ws_models_finish. */
void ws_models_listener(void *ctx, const ws_mem_event *ev);
/* Ends the kernel for the cache model (dirty L2 data counted). Idempotent. */
void ws_models_finish(ws_models *m);
const ws_cache_totals *ws_models_cache_totals(const ws_models *m);
/* The contention model's per-address, per-line and shared-pass counts (sim/models/atomics.h). */
const ws_atomic_totals *ws_models_atomic_totals(const ws_models *m);
/* ws_cache_prefetch for a global/local access of block block_linear whose n coalesced sectors are
 * at entries (op: WS_MEM_*), a few events before ws_models_listener_with gets it: hints only. */
void ws_models_prefetch(const ws_models *m, uint32_t block_linear, int op, const void *entries, int n, int stage);
const ws_device *ws_models_device(const ws_models *m);
int ws_models_block_sm(const ws_models *m, uint32_t block_linear);
void ws_models_free(ws_models *m);

/* The placement rule, for consumers that size per-SM tables: the SM of block b, and
 * how many of nblocks land on SM s. */
int ws_block_sm(uint32_t block_linear, int sm_count);
uint64_t ws_blocks_on_sm(uint64_t nblocks, int sm_count, int s);

/* The order-free half of ws_models_event, for a thread that is not the one feeding m (the
 * threads' split listener, sim/split.c): the coalescer's sectors and the bank rule are
 * functions of the event and of m's fixed geometry (SMs, resident blocks, warps per block)
 * alone, so a worker computes them ahead of the ordered replay; so is the cache model's
 * front (ws_cache_front: the SM's L1 and in-flight tables) as long as each SM's blocks reach
 * the halves one after another in block order (sim/interp/interp_par.c holds a block back
 * until the block sm_count before it was replayed). A ws_models_half has its own scratch and
 * bank memo; m must outlive it; only its cache's per-SM tables are written. */
typedef struct ws_models_half ws_models_half;
ws_models_half *ws_models_half_new(ws_models *m);   /* NULL: out of memory */
void ws_models_half_free(ws_models_half *h);
/* ev's geometry, as ws_models_event would find it: *co (global/local, some request) or *bk
 * (shared, some wavefront), the other NULL, or both NULL (no access, another space, or an
 * event whose rule needs the order); with *co, *fr the cache model's front of it, else NULL;
 * for an atomic or reduction, *at its own contention result (ws_atomics_result), else NULL.
 * Valid until the next call on h. */
void ws_models_half_event(ws_models_half *h, const ws_mem_event *ev, const ws_coalesce_result **co,
                          const ws_bank_result **bk, const ws_cache_front **fr, const ws_atomic_result **at);
/* ws_models_listener for an event whose geometry ws_models_half_event gave (co, bk, fr, at; the
 * same bytes, copied or not; fr or at NULL: that whole model runs here): the order-dependent
 * models and the sinks. */
void ws_models_listener_with(ws_models *m, const ws_mem_event *ev, const ws_coalesce_result *co,
                             const ws_bank_result *bk, const ws_cache_front *fr, const ws_atomic_result *at);

/* The stateless models alone (coalescer with the given local frame base, banks; no SM,
 * cache or latency): a verdict for an event seen outside a simulated launch. */
void ws_models_geometry(const ws_mem_event *ev, uint64_t local_warp_base, ws_coalesce_result *co,
                        ws_bank_result *bk, ws_mem_verdict *v);

#endif
