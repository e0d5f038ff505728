/* memstats.h - the sums of the models' verdicts (sim/models/models.h): per-instruction (pc)
 * rows, per-SM work and kernel totals, which reports name the way Nsight Compute names
 * them. It runs no model: every number is a sum over ws_mem_verdicts.
 * Invariant: kernel totals are exactly the sums of the per-pc rows plus events whose
 * pc is outside the function (counted in totals only); each verdict is counted once. */
#ifndef WS_MEMSTATS_H
#define WS_MEMSTATS_H

#include <stdint.h>

#include "../../common/desc.h"
#include "../../common/device.h"
#include "banks.h"
#include "cache.h"
#include "coalesce.h"
#include "../interp/event.h"
#include "metrics.h"
#include "models.h"

/* Counts for one (space, op) class, e.g. global loads. */
typedef struct {
    uint64_t inst;              /* warp-level instructions executed (with >= 1 active lane) */
    uint64_t active_lanes;      /* their active lanes summed (SIMT efficiency: active_lanes / 32 inst) */
    uint64_t requests, sectors, ideal_sectors, lines, bytes_used;   /* global / local */
    uint64_t wavefronts, ideal_wavefronts, ncu_conflicts, excess;  /* shared */
} ws_mem_counts;

/* The tensor-era instructions (event.h's kinds), each family counted apart from the plain
 * rows: a cp.async is in no global load instruction or shared store count, an ldmatrix in no
 * shared load; a cp.async's global reads are in the global load requests and sectors too, as
 * ncu counts them. */
typedef struct {
    uint64_t events;                   /* tensor-era events seen */
    uint64_t ldgsts_ca, ldgsts_cg;     /* cp.async warp-level instructions by cache level */
    uint64_t ldgsts_cg_relookups;      /* .cg copies' sectors read again for their shared write (banks.h
                                          ld_sectors_extra): the L1 looks each up again, a miss (finish) */
    ws_mem_counts ldgsts_global;       /* their global reads: requests, sectors, ideal, bytes (inst = all) */
    ws_mem_counts ldgsts_shared;       /* their shared writes: wavefronts, ideal, conflicts */
    ws_mem_counts ldsm, stsm;          /* inst, wavefronts, ideal, conflicts; bytes_used = bytes moved */
    ws_mem_counts wmma_global[2], wmma_shared[2]; /* [load, store]: fragment-register accesses (PTX level) */
    uint64_t bulk_inst[2], tma_inst[2];  /* cp.async.bulk / .tensor copies [to shared, to global] */
    uint64_t bulk_bytes[2], tma_bytes[2];/* bytes they wrote to (read from) shared memory */
    ws_mem_counts bulk_global[2], tma_global[2]; /* their global sides [read, written]: requests, sectors (16-byte lanes) */
    uint64_t bulk_delivered_sectors, tma_delivered_sectors; /* the read sectors times the blocks each copy lands in
                                          (ncu's xbar2l1tex bytes count every destination of a multicast) */
    ws_mem_counts gmma;                /* wgmma.mma_async: inst = warp-level executions, bytes_used = the shared
                                          bytes its descriptors read (A's quarter and B's quarter per warp) */
    uint64_t tensor_inst[4];           /* tensor-pipe warp instructions: [0] all, [1] HMMA, [2] IMMA, [3] DMMA
                                          (ws_memstats_set_tensor_insts; sim/sass/sass.h's classes) */
} ws_tc_counts;

/* The machine code's instruction counts (ws_memstats_set_sass_insns): the SASS scope's rows
 * (metrics.h). Set after block sampling scaled the counts, from the scaled per-pc counts. */
typedef struct {
    int counted;                     /* 1: the counters are the SASS's; 0: PTX level, no such rows */
    int approximate;                 /* the count rests on line anchors or an unexplained unrolling
                                        (sim/sass/sass_map.h insns_approximate): basis MODEL */
    uint64_t warp_insns;             /* warp-level SASS instructions executed */
    uint64_t pipe[WS_PIPE_COUNT];    /* of them, per pipe (sim/models/pipes.h; tensor forms in units) */
} ws_sass_insns;

typedef struct {
    ws_mem_counts global[4], local[4], shared[4]; /* indexed by ws_mem_op */
    ws_mem_counts dshared[4];        /* distributed shared memory (event.h's dsmem): inst, requests, sectors */
    ws_tc_counts tc;                 /* cp.async, ldmatrix, stmatrix, wmma.load/store */
    uint64_t const_inst, param_inst;
    uint64_t events;                 /* every event seen, incl. all-inactive ones */
    uint64_t shared_atom_passes;     /* shared atomics' serialised passes (sim/models/atomics.h) */
    uint64_t warp_insns, thread_insns; /* every instruction the kernel ran, per warp and per active lane
                                          (PTX level; ws_memstats_set_insts) */
    uint64_t code_bytes;             /* the kernel's machine code (ws_memstats_set_code) */
    int code_from_sass;              /* 1: the SASS listing's size; 0: estimated from the PTX */
    uint64_t launch_fetch_bytes;     /* DRAM bytes the launch reads besides its data (code, constants:
                                        ws_cache_launch_fetch_bytes); in dram__bytes_read.sum, not in
                                        cache.dram_read_bytes (a launch in a warm pipeline finds them in L2) */
    ws_cache_totals cache;           /* valid after ws_memstats_finish */
    ws_sass_insns sass;              /* after cache: outside block sampling's flat vector */
} ws_mem_totals;

/* One memory instruction (pc) of the function. */
typedef struct {
    int used;                 /* 1 once an event with this pc was seen */
    int src_line, ptx_line;
    ws_space space;
    ws_mem_op op;
    ws_cache_hint cache;
    ws_mem_kind kind;         /* PLAIN or the tensor-era family (a cp.async row: space global, op load,
                                 its shared side's wavefronts beside its sectors) */
    uint8_t width;
    uint64_t executions;      /* warp-level executions */
    uint64_t active_lanes;    /* sum of active lanes over executions */
    uint64_t requests, sectors, ideal_sectors, lines, bytes_used;
    uint64_t wavefronts, ideal_wavefronts, ncu_conflicts, excess;
    uint64_t l1_hit_sectors, l1_miss_sectors, l2_sectors, l2_hit_sectors;
    uint64_t l2_miss_sectors; /* misses that fetched from DRAM (not a far partition's, cache.h "Far lookups") */
    uint64_t dram_read_bytes;
    uint64_t atom_lane_ops;   /* atomics/reductions: active lanes (read-modify-writes) */
    uint64_t atom_passes;     /* shared atomics: serialised bank passes (sim/models/atomics.h) */
    uint32_t atom_same_addr_max; /* the most lanes of one execution on one address */
} ws_pc_stats;

/* Per SM work, for the timing model (its latency is sim/models/latency.h's). */
typedef struct {
    uint64_t mem_inst;          /* memory instructions issued on this SM */
    uint64_t l1_wavefronts;     /* shared wavefronts + global/local data wavefronts (lines) */
    uint64_t shared_wavefronts; /* the shared part of l1_wavefronts (bank rule): the phase term's */
    uint64_t blocks;            /* blocks placed here (from the grid, not from events) */
} ws_sm_stats;

typedef struct ws_memstats ws_memstats;

/* ninsns: the function's instruction count (pc range). Returns NULL on out-of-memory. */
ws_memstats *ws_memstats_new(const ws_device *dev, const ws_launch *launch, int ninsns);
/* ws_verdict_fn: ctx = the ws_memstats (ws_models_add_sink(m, ws_memstats_verdict, ms)). */
void ws_memstats_verdict(void *ctx, const ws_mem_verdict *v);
/* The tensor pipe's instructions, which no memory event carries: [0] all, [1] HMMA, [2] IMMA,
 * [3] DMMA (the SASS's count, sim/sass/sass_map.h, or the PTX's mma executions by rule). */
void ws_memstats_set_tensor_insts(ws_memstats *ms, const uint64_t n[4]);
/* The SASS's warp instructions executed, in all and per pipe (sim/sass/sass_events.h's session
 * counts), and whether that count is approximate: the SASS scope's rows (metrics.h). Not called
 * on a PTX-level run, which then has no such rows. */
void ws_memstats_set_sass_insns(ws_memstats *ms, uint64_t warp_insns, const uint64_t pipe[WS_PIPE_COUNT],
                                int approximate);
/* Every instruction the kernel executed, counted per warp and per active lane (the interpreter's
 * counts, sim/interp/interp.h): the kernel's SIMT efficiency rows (metrics.h). */
void ws_memstats_set_insts(ws_memstats *ms, uint64_t warp_insns, uint64_t thread_insns);
/* The kernel's machine code: its SASS size in bytes (from_sass 1: instructions x 16, the
 * listing's padding included) or an estimate from the PTX (0: one 16-byte instruction per PTX
 * instruction). Sets code_bytes and launch_fetch_bytes (never scaled by block sampling). */
void ws_memstats_set_code(ws_memstats *ms, uint64_t code_bytes, int from_sass);
/* Freezes the totals with the cache model's end-of-kernel totals (ws_models_finish first). */
void ws_memstats_finish(ws_memstats *ms, const ws_cache_totals *cache);
/* The header's invariant: each model sum (requests, sectors, ideal sectors, lines, wavefronts,
 * ideal wavefronts, conflicts, excess) over the pc rows plus the out-of-function events equals
 * its kernel total. 0, or which sum (1..8) disagrees. ws_memstats_finish asserts it. */
int ws_memstats_check(const ws_memstats *ms);
void ws_memstats_free(ws_memstats *ms);

/* Block sampling (sim/sample.h): every additive count as one vector - the totals' counts
 * (not the cache totals), every pc row's counts (executions .. atom_passes), the outside
 * row's, every SM's mem_inst, l1_wavefronts and shared_wavefronts. nflat: its length. set: before
 * ws_memstats_finish; it keeps the header's invariant where rounding the scaled values
 * broke it (the difference goes to the largest total of that sum). */
size_t ws_memstats_nflat(const ws_memstats *ms);
void ws_memstats_flat_get(const ws_memstats *ms, uint64_t *out);
void ws_memstats_flat_set(ws_memstats *ms, const uint64_t *in);
/* Block sampling, after flat_set: every SM's mem_inst, l1_wavefronts and shared_wavefronts become their sum over
 * the SMs times the SM's share of the grid's blocks (ws_sm_stats.blocks, ws_blocks_on_sm), as
 * the grid would spread them; a block costs the same on every SM, on average. */
void ws_memstats_spread_sms(ws_memstats *ms);

const ws_mem_totals *ws_memstats_totals(const ws_memstats *ms);
/* Row for pc, NULL when out of range. */
const ws_pc_stats *ws_memstats_pc(const ws_memstats *ms, int pc);
int ws_memstats_ninsns(const ws_memstats *ms);
const ws_sm_stats *ws_memstats_sm(const ws_memstats *ms, int sm);
int ws_memstats_sm_count(const ws_memstats *ms);
const ws_device *ws_memstats_device(const ws_memstats *ms);

/* One reportable number: a row of the metric table (metrics.h, scopes KERNEL and TENSOR)
 * with this kernel's value. */
typedef struct {
    const char *name;      /* "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" */
    const char *desc;      /* plain language */
    double value;
    ws_basis basis;        /* exact: matches the hardware counter; model: from the cache/DRAM model */
    const ws_metric_info *info; /* the row: unit, judgement, space, op ... */
} ws_metric;

/* Fills up to cap rows of the kernel-total table, in the table's order: the KERNEL rows,
 * then the TENSOR rows where a tensor-era instruction ran, the DSMEM rows where distributed
 * shared memory was used, the SASS rows where the SASS was counted (basis MODEL where it is
 * approximate); returns the number of rows
 * (call with cap 0 to count). Ratios with a zero denominator are 0. */
int ws_memstats_metrics(const ws_memstats *ms, ws_metric *rows, int cap);

#endif
