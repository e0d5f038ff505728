/* timing.h - predicted kernel time from the modelled traffic (docs/timing-model.md).
 * A bound-and-bottleneck model: the kernel takes as long as its slowest resource
 * (DRAM, L2, the busiest SM's L1/shared data path, the busiest SM's issue slots, or
 * memory latency that the resident warps cannot hide), plus the launch overhead.
 * Contention (atomics) and the block launch rate are further terms of the same max; a
 * kernel without atomics gets exactly the prediction it had without them. So is the phase
 * term: a block's load phase and its shared phase add where nothing hides one under the other.
 * The issue term is the larger of the schedulers' slots and the busiest arithmetic pipe
 * (the guide's throughput per pipe); the latency term's DRAM loads wait in a queue whose
 * delay grows with the kernel's own DRAM utilisation, solved together with the kernel's time.
 * Invariant: time is monotonic non-decreasing in every traffic input and never below
 * any single term; more resident warps never make the latency term larger. */
#ifndef WS_TIMING_H
#define WS_TIMING_H

#include <stdint.h>

#include "../../common/device.h"
#include "atomics.h"
#include "latency.h"
#include "memstats.h"
#include "../frontend/occupancy.h"

/* The calibrations (DRAM efficiency, L2 request rate, loaded DRAM latency, the L1 data path's
 * wavefronts per cycle) are fields of the device profile, each with its source in
 * common/device.c. What stays here is the SM's structure: each of its dev->subpartitions
 * schedulers issues one warp instruction per cycle (a wavefront is the work one pipeline
 * stage passes per cycle: ../shared/reference/gpu-memory-rules.md §1). */

typedef struct {
    double dram_bytes;              /* read (fills + ECC) + write-backs during the kernel */
    /* the shape of those transfers (ws_cache_totals "DRAM access shape"): all 0 = every byte
       costs the same */
    double dram_access_bytes, dram_short_bytes, dram_row_opens;
    double l2_displaced_lines;      /* lines the kernel allocates into a way an earlier kernel's data held
                                       (ws_cache_totals.l2_cold_allocations): the DRAM term charges a
                                       write-back for dev->l2_dirty_fraction of them (1 with no limit) */
    double l2_bytes;                /* SM<->L2 sectors x 32 (read, write, atomic) */
    double l2_requests;             /* SM->L2 requests (one per 128-B line per instruction): their partial-line
                                       share (writes left out where the profile has write rates) */
    double l2_write_requests, l2_write_sectors; /* SM->L2 write requests and their sectors (stores) */
    double l2_write_partial_sectors; /* of those sectors, the ones carrying fewer than 32 bytes */
    double l1_wavefronts_max;       /* busiest SM: shared wavefronts + global/local data wavefronts */
    double shared_wavefronts_max;   /* busiest SM by them: its shared wavefronts (bank rule), the phase term's */
    double issue_insns_max;         /* busiest SM: warp instructions (all kinds) */
    double latency_cycles_per_warp_max; /* busiest SM: sum of load latencies / concurrent warps
                                           (DRAM sectors at the unloaded dram_cycles) */
    double latency_dram_epochs_per_warp_max; /* that SM: DRAM queue waits of its epochs with a DRAM
                                           load / concurrent warps (ws_latency_sm_dram_epochs) */
    double latency_short_cycles_per_warp_max; /* that SM: of latency_cycles_per_warp_max, the blocks' short
                                           chains (ws_latency_sm_short_cycles) / concurrent warps */
    double l1_hit_line_share;       /* of the grid's global/local data lines, the share that hit in L1 (load
                                       lines x their sectors' L1 hit rate / every line) */
    double issue_share_max;         /* busiest SM's share of the blocks (its issue_insns_max / all) */
    double pipe_insns_max[WS_PIPE_COUNT]; /* busiest SM: warp instructions per pipe (ws_pipe; the
                                           tensor forms' in their units, GMMA N/8 per instruction) */
    double warps_in_flight_max;     /* that SM: warps running at once, min(placed, resident) (0: unknown,
                                       the tensor pipe then assumes enough warps to fill it) */
    double bytes_moved;             /* what a perfect kernel moves (for effective bandwidth) */
    /* contention (sim/models/atomics.h; 0 without atomics) and block launch */
    double atom_addr_ops_max;       /* lane-ops on the most updated global address (no float adds) */
    double atom_addr_float_ops_max; /* float-add lane-ops on the most float-added address */
    double atom_slice_sector_ops_max; /* sector-ops on the busiest slice range (dev->atom_slice_bytes) */
    double atom_slice_operand_bytes_max; /* operand bytes sent to the busiest slice range */
    double atom_sector_ops;         /* all global atomic sector-ops */
    double atom_window_unit_ops;    /* ws_atomic_totals.window_unit_ops: sector-ops per unit in flight, summed */
    double shared_atom_passes_max;  /* busiest SM: shared-atomic wavefronts */
    double blocks_max;              /* busiest SM: blocks placed there */
    double warps_per_block;         /* for the warp part of the launch term (0: 1 assumed) */
    double latency_insn_cycles_per_warp_max; /* that SM: of latency_cycles_per_warp_max, its warps' own
                                           instructions (ws_latency_sm_insn_cycles) / concurrent warps */
    double copies_in_flight;        /* 1: the kernel ran a cp.async.wait_group N > 0, a wait that leaves its
                                       later copies in flight (a pipeline: no phase term); 0: none */
} ws_timing_input;

typedef enum { WS_BOUND_LAUNCH, WS_BOUND_DRAM, WS_BOUND_L2, WS_BOUND_L1, WS_BOUND_ISSUE, WS_BOUND_LATENCY,
               WS_BOUND_ATOMICS, WS_BOUND_SHARED_ATOMICS, WS_BOUND_BLOCK_LAUNCH, WS_BOUND_TENSOR,
               WS_BOUND_COUNT } ws_bound;
const char *ws_bound_name(ws_bound b); /* "DRAM bandwidth", "atomics (same-address contention)" */
/* The resource class of a bound, for a verdict: "DRAM", "L2", "shared", "atomics", "issue",
 * "latency", "launch" (block launch counts as launch), "tensor pipe". */
const char *ws_bound_class(ws_bound b);

typedef struct {
    double t_dram_us, t_l2_us, t_l1_us, t_issue_us, t_latency_us, t_launch_us;
    double t_l2_write_us;           /* of t_l2: the writes' requests and sectors at the profile's write rates
                                       (t_l2 is the largest of bytes, partial requests and this) */
    double t_atomics_us;            /* global atomics: max(per address, per slice, per line, whole L2) */
    double t_shared_atomics_us;     /* busiest SM's shared-atomic wavefronts */
    double t_block_launch_us;       /* busiest SM's blocks x max(block_launch_cycles, warps x
                                       warp_launch_cycles) (0: not calibrated) */
    double t_tensor_us;             /* busiest SM's tensor pipe: the sum over tensor forms of its
                                       instructions / min(the SM's rate, warps in flight x one warp's) */
    ws_pipe tensor_pipe;            /* the form with the most of that time (WS_PIPE_NONE: none) */
    double t_issue_slots_us;        /* of t_issue: the schedulers' slots (subpartitions per cycle) */
    double t_pipe_us;               /* of t_issue: the busiest arithmetic pipe */
    ws_pipe issue_pipe;             /* that pipe (WS_PIPE_NONE: no arithmetic counted) */
    double dram_utilisation;        /* t_dram / (t_kernel - launch): the u of the DRAM queue */
    double dram_shape_factor;       /* ws_timing_dram_shape_factor: 1 = every byte at the streaming rate */
    double dram_queue_cycles;       /* each DRAM epoch's wait in the queue at that u */
    double t_shared_us;             /* busiest SM's shared wavefronts alone at the L1 rate (of t_l1) */
    double t_phase_us;              /* a block's load phase (the latency chain less its shared loads' short
                                       chains and its warps' own instructions) and its shared phase (the
                                       longer of those and t_l1), overlapped as ws_timing_phase_us says
                                       across the blocks in flight; a term of the max (0: no L1 data
                                       path time, or a pipeline: copies_in_flight) */
    double t_kernel_us;             /* launch + max of the others */
    ws_bound bound;                 /* the largest term (launch when all are 0) */
    double eff_bw_gbs;              /* bytes_moved / t_kernel (GB = 1e9 bytes) */
    double dram_bw_gbs;             /* dram_bytes / t_kernel */
} ws_timing;

/* Builds the input from finished memstats and latency epochs, the occupancy and the
 * interpreter's warp instruction count (0 if unknown: the issue term then counts memory
 * instructions only). lat NULL: no latency term. */
void ws_timing_input_from_memstats(const ws_memstats *ms, const ws_latency *lat, const ws_occupancy *occ,
                                   uint64_t warp_insns, uint64_t bytes_moved, ws_timing_input *in);

/* Adds the warp instructions per pipe (the whole grid's, sim/models/pipes.h) to in, as the
 * busiest SM's share of them (after ws_timing_input_from_memstats). */
void ws_timing_input_add_pipes(ws_timing_input *in, const uint64_t pipe_insns[WS_PIPE_COUNT]);
/* "ALU", "FMA", "FMA-heavy", "FP64", "XU", "HMMA", "HMMA.1688", "IMMA", "DMMA", "GMMA"; "" for
 * WS_PIPE_NONE. */
const char *ws_pipe_name(ws_pipe p);

/* Adds the contention model's counts (ws_models_atomic_totals) to in. */
void ws_timing_input_add_atomics(ws_timing_input *in, const ws_atomic_totals *at);

/* What the DRAM term multiplies the kernel's DRAM bytes by for the shape of their transfers:
 * 1 + (bytes the short accesses fall short of dev->dram_min_access_bytes + row opens beyond one
 * per dev->dram_row_bytes moved x dev->dram_row_open_bytes) / the accesses' bytes; 1 with no
 * accesses counted or a profile without the figures. Example (H200): one 64-B fetch per random
 * row: 1 + (1 - 64/2048) x 26/64 = 1.39; whole lines in order: 1. */
double ws_timing_dram_shape_factor(const ws_device *dev, const ws_timing_input *in);

/* The L1 data path's time for the busiest SM's wavefronts (shared ones by the bank rule, global/local
 * data lines): wavefronts / dev->l1_wavefronts_per_cycle (0: 1) SM cycles. Measured on the H200
 * (docs/timing-model.md "The shared data path's rate"): one wavefront per cycle whatever the conflict
 * degree, width or load/store mix, so a 32-way conflicted LDS costs 32 cycles, not more. */
double ws_timing_l1_us(const ws_device *dev, double wavefronts);

/* A block runs its load phase and its shared phase one after the other; only other blocks on the
 * SM overlap them (docs/timing-model.md "Phases that add"). With t_lat the load phase (the latency
 * chain over the blocks in flight, less what runs in the shared phase), t_sh the shared phase and B
 * the blocks in flight per SM, a block's shared phase x = S (1 + (B - 1) p) where p = x / (L + x)
 * is the share of time another block spends in its own shared phase; per SM that is
 *   t = ((t_lat + t_sh) + sqrt((t_lat - t_sh)^2 + 4 t_lat t_sh / B)) / 2,
 * the sum for B = 1, max(t_lat, t_sh) as B grows. B < 1 counts as 1; t_sh or t_lat <= 0: the other. */
double ws_timing_phase_us(double t_lat_us, double t_sh_us, double blocks_in_flight);

/* Predicts. Returns 0; -1 for a device without clock, bandwidth, scheduler or
 * calibration figures (dram_efficiency, l2_requests_per_cycle). */
int ws_timing_predict(const ws_device *dev, const ws_timing_input *in, ws_timing *out);

#endif
