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
/* DRAM latency under load, as a multiple of the profile's unloaded dram_cycles: 3.0 makes
 * the latency term match a 4096x4096 one-float-per-thread copy (32x32 blocks) measured
 * with ncu on the H200 (66.6 us); see docs/timing-model.md. */
#define WS_LOADED_DRAM_LATENCY_FACTOR 3.0
/* L2 request (128-B line) throughput per SM clock on a device with l2_bw_gbs = 7500,
 * scaled by l2_bw_gbs elsewhere: 35 matches the naive 4096x4096 transpose measured on the
 * H200 (17.3 M L2 requests, 249 us); see docs/timing-model.md. */
#define WS_L2_REQUESTS_PER_CYCLE_AT_7500 35.0
#define WS_L1_WAVEFRONTS_PER_CYCLE 1.0

typedef struct {
    double dram_bytes;              /* read (fills + ECC) + write-backs during the kernel */
    double l2_bytes;                /* SM<->L2 sectors x 32 (read, write, atomic) */
    double l2_requests;             /* SM->L2 requests (one per 128-B line per instruction) */
    double l1_wavefronts_max;       /* busiest SM: shared wavefronts + global/local data wavefronts */
    double issue_insns_max;         /* busiest SM: warp instructions (all kinds) */
    double latency_cycles_per_warp_max; /* busiest SM: sum of load latencies / concurrent warps
                                           (DRAM sectors at the loaded latency) */
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
