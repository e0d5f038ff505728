/* memstats.h - the memory listener: feeds each ws_mem_event to the coalescer, the
 * bank model and the cache model, and keeps per-instruction (pc) and kernel totals
 * that reports name the way Nsight Compute names them.
 * Invariant: kernel totals are exactly the sums of the per-pc rows plus events whose
 * pc is outside the function (counted in totals only).
 *
 * Block placement (a model): block b runs on SM b % sm_count; with R resident blocks
 * per SM (ws_memstats_set_resident_blocks, default 1) it occupies resident slot
 * (b / sm_count) % R there. A warp's local frame lives at a fixed address per
 * (SM, slot, warp): the hardware reuses local memory per resident thread slot, so a
 * later wave's spills hit the same lines. */
#ifndef WS_MEMSTATS_H
#define WS_MEMSTATS_H

#include <stdint.h>

#include "../common/desc.h"
#include "../common/device.h"
#include "banks.h"
#include "cache.h"
#include "coalesce.h"
#include "event.h"
#include "ptx.h"

/* Counts for one (space, op) class, e.g. global loads. */
typedef struct {
    uint64_t inst;              /* warp-level instructions executed (with >= 1 active lane) */
    uint64_t requests, sectors, ideal_sectors, lines, bytes_used;   /* global / local */
    uint64_t wavefronts, ideal_wavefronts, ncu_conflicts, excess;  /* shared */
} ws_mem_counts;

typedef struct {
    ws_mem_counts global[4], local[4], shared[4]; /* indexed by ws_mem_op */
    uint64_t const_inst, param_inst;
    uint64_t events;                 /* every event seen, incl. all-inactive ones */
    ws_cache_totals cache;           /* valid after ws_memstats_finish */
} ws_mem_totals;

/* One memory instruction (pc) of the function. */
typedef struct {
    int used;                 /* 1 once an event with this pc was seen */
    int src_line, ptx_line;
    ws_space space;
    ws_mem_op op;
    ws_cache_hint cache;
    uint8_t width;
    uint64_t executions;      /* warp-level executions */
    uint64_t active_lanes;    /* sum of active lanes over executions */
    uint64_t requests, sectors, ideal_sectors, lines, bytes_used;
    uint64_t wavefronts, ideal_wavefronts, ncu_conflicts, excess;
    uint64_t l1_hit_sectors, l1_miss_sectors, l2_sectors, l2_hit_sectors, l2_miss_sectors;
    uint64_t dram_read_bytes;
} ws_pc_stats;

/* Per SM work, for the timing model. */
typedef struct {
    uint64_t mem_inst;          /* memory instructions issued on this SM */
    uint64_t l1_wavefronts;     /* shared wavefronts + global/local data wavefronts (lines) */
    double latency_cycles;      /* sum over warps of their load epochs' latencies (memstats.c: epoch()) */
    uint64_t blocks;            /* blocks placed here (from the grid, not from events) */
} ws_sm_stats;

typedef struct ws_memstats ws_memstats;

/* Observer for viz and tests: called after each event with its models' results
 * (co NULL for shared/const/param, bk NULL unless shared, ca NULL unless global/local). */
typedef void (*ws_memstats_observer)(void *ctx, const ws_mem_event *ev, int sm, const ws_coalesce_result *co,
                                     const ws_bank_result *bk, const ws_cache_access *ca);

/* l1_bytes: L1 data capacity per SM (unified minus the shared carve-out; see
 * ws_occupancy.l1_bytes). ninsns: the function's instruction count (pc range).
 * Returns NULL on out-of-memory or a device profile the cache model rejects. */
ws_memstats *ws_memstats_new(const ws_device *dev, const ws_launch *launch, int ninsns, uint32_t l1_bytes);
void ws_memstats_set_resident_blocks(ws_memstats *ms, int blocks_per_sm);
/* The function being run: its barriers and dependent loads shape the latency term
 * (sim/deps.h). Without it loads overlap until the warp jumps back (a loop iteration).
 * Returns 0, -1 when out of memory. */
int ws_memstats_set_function(ws_memstats *ms, const ptx_function *fn);
void ws_memstats_set_observer(ws_memstats *ms, ws_memstats_observer fn, void *ctx);
/* ws_mem_listener: pass ws_memstats_listener with ctx = the ws_memstats. */
void ws_memstats_listener(void *ctx, const ws_mem_event *ev);
/* Ends the kernel (dirty L2 data counted) and freezes the totals. */
void ws_memstats_finish(ws_memstats *ms);
void ws_memstats_free(ws_memstats *ms);

const ws_mem_totals *ws_memstats_totals(const ws_memstats *ms);
/* Row for pc, NULL when out of range. */
const ws_pc_stats *ws_memstats_pc(const ws_memstats *ms, int pc);
int ws_memstats_ninsns(const ws_memstats *ms);
const ws_sm_stats *ws_memstats_sm(const ws_memstats *ms, int sm);
int ws_memstats_sm_count(const ws_memstats *ms);
const ws_device *ws_memstats_device(const ws_memstats *ms);
/* SM a block is placed on (b % sm_count). */
int ws_memstats_block_sm(const ws_memstats *ms, uint32_t block_linear);

/* One reportable number: ncu's name where Nsight Compute has the metric, else a
 * "ws__" name; basis says how we know it. */
typedef enum { WS_BASIS_EXACT, WS_BASIS_MODEL, WS_BASIS_DERIVED } ws_basis;
typedef struct {
    const char *name;      /* "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" */
    const char *desc;      /* plain language */
    double value;
    ws_basis basis;        /* exact: matches the hardware counter; model: from the cache/DRAM model */
} ws_metric;

const char *ws_basis_name(ws_basis b); /* "exact" */

/* Fills up to cap rows of the kernel-total table; returns the number of rows
 * (call with cap 0 to count). Ratios with a zero denominator are 0. */
int ws_memstats_metrics(const ws_memstats *ms, ws_metric *rows, int cap);

#endif
