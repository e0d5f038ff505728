/* occupancy.h - theoretical occupancy exactly as cudaOccMaxActiveBlocksPerMultiprocessor
 * (cuda_occupancy.h) computes it for Volta and newer; ../shared/reference/gpu-memory-rules.md §6.2.
 * Invariant: blocks_per_sm == min of the limits below (0 when the block cannot run),
 * and `limiter` names one limit that equals it. */
#ifndef WS_OCCUPANCY_H
#define WS_OCCUPANCY_H

#include <stdint.h>

#include "../../common/device.h"

typedef enum {
    WS_OCC_LIMIT_WARPS, WS_OCC_LIMIT_REGISTERS, WS_OCC_LIMIT_SHARED, WS_OCC_LIMIT_BLOCKS,
    WS_OCC_LIMIT_BARRIERS, WS_OCC_LIMIT_NONE /* cannot launch: see reason */
} ws_occ_limiter;

const char *ws_occ_limiter_name(ws_occ_limiter l); /* "registers" */

typedef struct {
    int threads_per_block;
    int regs_per_thread;       /* as the compiler reports it (not rounded) */
    uint32_t static_smem;      /* bytes */
    uint32_t dynamic_smem;     /* bytes; > 48 KB implies the opt-in attribute was set */
    int carveout_percent;      /* -1 = default preference (the whole smem_per_sm); else 0..100 */
    int barriers;              /* named barriers used; 0 treated as 1 (the header's default) */
} ws_occ_input;

#define WS_OCC_UNLIMITED 0x7fffffff

typedef struct {
    int warps_per_block;
    int regs_per_warp;             /* allocated: roundup(regs*32, gran) */
    uint32_t smem_per_block;       /* allocated: roundup(static+dynamic+reserved, gran) */
    uint32_t smem_config;          /* the carveout the calculator assumes (bytes) */
    int limit_warps, limit_regs, limit_smem, limit_blocks, limit_barriers; /* WS_OCC_UNLIMITED if none */
    int blocks_per_sm;
    int warps_per_sm;
    double occupancy_pct;          /* warps_per_sm / max_warps_per_sm * 100 */
    ws_occ_limiter limiter;
    char reason[160];              /* why 0 blocks, "" otherwise */
    /* The carveout a driver would pick (smallest supported >= what min(block limit,
     * warp limit) resident blocks need) and the L1 that leaves: a model, see
     * ws_occupancy_l1_bytes. */
    uint32_t driver_carveout;
    uint32_t l1_bytes;
} ws_occupancy;

/* Computes *o for one kernel on one device. Returns 0; -1 with o->reason for input
 * the calculator rejects (threads < 1 or > 1024, registers < 0). A kernel that fits no
 * block (too many registers or shared bytes) returns 0 with blocks_per_sm = 0.
 * Example: 40 regs, 96 threads, no smem on H200 -> limit_regs 16, occupancy 75 %. */
int ws_occupancy_calc(const ws_device *dev, const ws_occ_input *in, ws_occupancy *o);
/* The occupancy the launch can reach: the grid's nblocks placed round-robin on the SMs
 * (block % sm_count), each SM running its blocks in waves of o->blocks_per_sm, averaged over
 * the SMs' active time as ncu's sm__warps_active.avg.pct_of_peak_sustained_active is:
 * 100 x warps per block x nblocks / (sum over the SMs of their waves x max_warps_per_sm).
 * A grid of many full waves gives o->occupancy_pct; 64 blocks of 16 warps on 132 SMs give 25 %
 * (one block per SM), whatever the calculator allows. o->occupancy_pct when nothing runs. */
double ws_occupancy_grid_pct(const ws_device *dev, const ws_occupancy *o, uint64_t nblocks);

#endif
