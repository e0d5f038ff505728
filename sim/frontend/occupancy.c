/* occupancy.c - the CUDA occupancy calculator's rules for Volta+ (see occupancy.h).
 * Follows cuda_occupancy.h step by step, including the per-sub-partition register
 * floor that makes 40 registers x 96 threads give 16 blocks, not 17. */
#include "occupancy.h"

#include <stdio.h>
#include <string.h>

const char *ws_occ_limiter_name(ws_occ_limiter l)
{
    switch (l) {
    case WS_OCC_LIMIT_WARPS: return "warps";
    case WS_OCC_LIMIT_REGISTERS: return "registers";
    case WS_OCC_LIMIT_SHARED: return "shared memory";
    case WS_OCC_LIMIT_BLOCKS: return "blocks";
    case WS_OCC_LIMIT_BARRIERS: return "barriers";
    default: return "cannot launch";
    }
}

static uint64_t round_up(uint64_t x, uint64_t g) { return g ? (x + g - 1) / g * g : x; }
static int imin(int a, int b) { return a < b ? a : b; }

/* Smallest supported carveout >= bytes (cudaOccAlignUpShmemSizeVoltaPlus); 0 if none. */
static int align_carveout(const ws_device *dev, uint64_t bytes, uint32_t *out)
{
    uint32_t best = 0;
    int found = 0;
    for (int i = 0; i < dev->ncarveouts; i++) {
        uint64_t c = (uint64_t)dev->carveouts_kb[i] * 1024;
        if (c >= bytes && (!found || c < best)) {
            best = (uint32_t)c;
            found = 1;
        }
    }
    if (found)
        *out = best;
    return found;
}

int ws_occupancy_calc(const ws_device *dev, const ws_occ_input *in, ws_occupancy *o)
{
    memset(o, 0, sizeof *o);
    o->limiter = WS_OCC_LIMIT_NONE;
    if (in->threads_per_block < 1 || in->threads_per_block > 1024) {
        snprintf(o->reason, sizeof o->reason, "block of %d threads (must be 1..1024)", in->threads_per_block);
        return -1;
    }
    if (in->regs_per_thread < 0) {
        snprintf(o->reason, sizeof o->reason, "negative register count %d", in->regs_per_thread);
        return -1;
    }
    int W = (in->threads_per_block + 31) / 32;
    o->warps_per_block = W;
    int sp = dev->subpartitions > 0 ? dev->subpartitions : 4;

    /* warps */
    o->limit_warps = (dev->max_threads_per_sm / 32) / W;

    /* blocks */
    o->limit_blocks = dev->max_blocks_per_sm;

    /* registers: allocated per warp in reg_alloc_gran units, split over sub-partitions */
    int rpw = (int)round_up((uint64_t)in->regs_per_thread * 32, (uint64_t)dev->reg_alloc_gran);
    o->regs_per_warp = rpw;
    if (in->regs_per_thread > dev->max_regs_per_thread) {
        o->limit_regs = 0;
        snprintf(o->reason, sizeof o->reason, "%d registers per thread exceeds the limit of %d",
                 in->regs_per_thread, dev->max_regs_per_thread);
    } else if ((int64_t)rpw * W > dev->regs_per_sm || (int64_t)rpw * (int64_t)round_up((uint64_t)W, (uint64_t)sp) > dev->regs_per_sm) {
        o->limit_regs = 0;
        snprintf(o->reason, sizeof o->reason,
                 "%d registers x %d threads needs %d registers per block (hardware check rounds warps "
                 "to %d sub-partitions), more than the %d available",
                 in->regs_per_thread, in->threads_per_block, rpw * (int)round_up((uint64_t)W, (uint64_t)sp), sp,
                 dev->regs_per_sm);
    } else if (rpw == 0) {
        o->limit_regs = WS_OCC_UNLIMITED;
    } else {
        int warps_per_sp = (dev->regs_per_sm / sp) / rpw;
        o->limit_regs = warps_per_sp * sp / W;
    }

    /* shared memory */
    uint64_t total = (uint64_t)in->static_smem + in->dynamic_smem + dev->smem_reserved_per_block;
    uint64_t S = round_up(total, dev->smem_alloc_gran ? dev->smem_alloc_gran : 1);
    o->smem_per_block = (uint32_t)S;
    uint64_t per_block_limit = dev->smem_per_block;
    if (total > dev->smem_per_block)
        per_block_limit = dev->smem_per_block_optin; /* > 48 KB: dynamic smem with the opt-in attribute */
    if (dev->cc_major >= 8)
        per_block_limit += dev->smem_reserved_per_block;
    uint64_t pref = dev->smem_per_sm;
    if (in->carveout_percent >= 0 && in->carveout_percent <= 100)
        pref = (uint64_t)in->carveout_percent * dev->smem_per_sm / 100;
    uint32_t config = 0;
    if (!align_carveout(dev, pref, &config))
        config = dev->smem_per_sm;
    if (S > per_block_limit) {
        o->limit_smem = 0;
        snprintf(o->reason, sizeof o->reason, "%llu bytes of shared memory per block (incl. %u reserved) "
                 "exceeds the per-block limit of %llu", (unsigned long long)S, dev->smem_reserved_per_block,
                 (unsigned long long)per_block_limit);
    } else {
        if (config < S) { /* a larger request overrides the preference */
            if (!align_carveout(dev, S, &config))
                config = (uint32_t)S;
        }
        o->limit_smem = S ? (int)(config / S) : WS_OCC_UNLIMITED;
    }
    o->smem_config = config;

    /* barriers (Hopper onwards): 2 x block limit available, divided by barriers used */
    o->limit_barriers = WS_OCC_UNLIMITED;
    if (dev->cc_major >= 9) {
        int used = in->barriers > 0 ? in->barriers : 1;
        o->limit_barriers = 2 * o->limit_blocks / used;
    }

    int b = imin(imin(o->limit_warps, o->limit_blocks), imin(o->limit_regs, o->limit_smem));
    b = imin(b, o->limit_barriers);
    if (b < 0)
        b = 0;
    o->blocks_per_sm = b;
    o->warps_per_sm = b * W;
    o->occupancy_pct = dev->max_warps_per_sm ? 100.0 * o->warps_per_sm / dev->max_warps_per_sm : 0;
    if (b == 0)
        o->limiter = WS_OCC_LIMIT_NONE;
    else if (b == o->limit_regs)
        o->limiter = WS_OCC_LIMIT_REGISTERS;
    else if (b == o->limit_smem)
        o->limiter = WS_OCC_LIMIT_SHARED;
    else if (b == o->limit_warps)
        o->limiter = WS_OCC_LIMIT_WARPS;
    else if (b == o->limit_blocks)
        o->limiter = WS_OCC_LIMIT_BLOCKS;
    else
        o->limiter = WS_OCC_LIMIT_BARRIERS;

    /* The driver's own carveout choice (a model): enough shared memory that it never
     * limits residency below min(block limit, warp limit); the rest is L1. Matches
     * ncu's 32 KB "driver shared memory" for a 96-thread kernel without smem on H200. */
    uint64_t need = (uint64_t)imin(o->limit_blocks, o->limit_warps) * S;
    if (need > dev->smem_per_sm)
        need = dev->smem_per_sm;
    if (!align_carveout(dev, need, &o->driver_carveout))
        o->driver_carveout = dev->smem_per_sm;
    o->l1_bytes = dev->l1_unified_bytes > o->driver_carveout ? dev->l1_unified_bytes - o->driver_carveout : 0;
    return 0;
}

double ws_occupancy_grid_pct(const ws_device *dev, const ws_occupancy *o, uint64_t nblocks)
{
    if (!o || !dev || o->blocks_per_sm <= 0 || dev->max_warps_per_sm <= 0 || dev->sm_count <= 0 || !nblocks)
        return o ? o->occupancy_pct : 0;
    uint64_t n = (uint64_t)dev->sm_count, R = (uint64_t)o->blocks_per_sm;
    uint64_t q = nblocks / n, r = nblocks % n; /* r SMs get q + 1 blocks, the others q */
    uint64_t waves = r * ((q + 1 + R - 1) / R) + (n - r) * ((q + R - 1) / R);
    return 100.0 * (double)o->warps_per_block * (double)nblocks / ((double)waves * dev->max_warps_per_sm);
}
