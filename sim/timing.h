/* timing.h - predicted kernel time from the modelled traffic (docs/timing-model.md).
 * A bound-and-bottleneck model: the kernel takes as long as its slowest resource
 * (DRAM, L2, the busiest SM's L1/shared data path, the busiest SM's issue slots, or
 * memory latency that the resident warps cannot hide), plus the launch overhead.
 * Invariant: time is monotonic non-decreasing in every traffic input and never below
 * any single term; more resident warps never make the latency term larger. */
#ifndef WS_TIMING_H
#define WS_TIMING_H

#include <stdint.h>

#include "../common/device.h"
#include "memstats.h"
#include "occupancy.h"

/* Fraction of the vendor DRAM peak a streaming kernel reaches: 4267 GB/s measured
 * for a float4 copy on the H200 / 4800 GB/s peak (../shared/reference/h200-measured.md). */
#define WS_DRAM_EFFICIENCY 0.89
#define WS_ISSUE_PER_SM_CYCLE 4.0   /* 4 schedulers, 1 warp instruction each per cycle */
#define WS_L1_WAVEFRONTS_PER_CYCLE 1.0

typedef struct {
    double dram_bytes;              /* read (fills + ECC) + write-backs during the kernel */
    double l2_bytes;                /* SM<->L2 sectors x 32 (read, write, atomic) */
    double l1_wavefronts_max;       /* busiest SM: shared wavefronts + global/local data wavefronts */
    double issue_insns_max;         /* busiest SM: warp instructions (all kinds) */
    double latency_cycles_per_warp_max; /* busiest SM: sum of load latencies / concurrent warps */
    double bytes_moved;             /* what a perfect kernel moves (for effective bandwidth) */
} ws_timing_input;

typedef enum { WS_BOUND_LAUNCH, WS_BOUND_DRAM, WS_BOUND_L2, WS_BOUND_L1, WS_BOUND_ISSUE, WS_BOUND_LATENCY } ws_bound;
const char *ws_bound_name(ws_bound b); /* "DRAM bandwidth" */

typedef struct {
    double t_dram_us, t_l2_us, t_l1_us, t_issue_us, t_latency_us, t_launch_us;
    double t_kernel_us;             /* launch + max of the others */
    ws_bound bound;                 /* the largest term (launch when all are 0) */
    double eff_bw_gbs;              /* bytes_moved / t_kernel (GB = 1e9 bytes) */
    double dram_bw_gbs;             /* dram_bytes / t_kernel */
} ws_timing;

/* Builds the input from finished memstats, the occupancy and the interpreter's
 * warp instruction count (0 if unknown: the issue term then counts memory
 * instructions only). */
void ws_timing_input_from_memstats(const ws_memstats *ms, const ws_occupancy *occ, uint64_t warp_insns,
                                   uint64_t bytes_moved, ws_timing_input *in);

/* Predicts. Returns 0; -1 for a device without clock or bandwidth figures. */
int ws_timing_predict(const ws_device *dev, const ws_timing_input *in, ws_timing *out);

#endif
