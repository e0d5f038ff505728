/* sreg.c - what every special register and predefined identifier reads in
 * simulation (docs/interp.md has the table): one function, so a value is defined
 * once for the kernel's frame and every called function's.
 * Invariant: a program's value file holds exactly the special registers it
 * reads (sim_program.sregs), refreshed at block start, at each call, and for the
 * clocks at each slice the warp runs. */
#include "interp_priv.h"

static bool is_clock(int r)
{
    return r == PTX_SREG_CLOCK || r == PTX_SREG_CLOCK_HI || r == PTX_SREG_CLOCK64 || r == PTX_SREG_GLOBALTIMER ||
           r == PTX_SREG_GLOBALTIMER_LO || r == PTX_SREG_GLOBALTIMER_HI;
}

/* Lane l's value of r for warp w in the block being run. */
static uint64_t value(const sim_ctx *c, const sim_warp *w, int r, int l)
{
    const ws_launch *L = c->L;
    uint64_t bx = L->block[0], by = L->block[1];
    uint64_t t = (uint64_t)w->index * 32 + (uint64_t)l;  /* linear thread id in the block */
    uint64_t clk = c->warp_insns;                         /* warp-level instructions run so far */
    switch (r) {
    case PTX_SREG_TID_X: return t % bx;
    case PTX_SREG_TID_Y: return (t / bx) % by;
    case PTX_SREG_TID_Z: return t / (bx * by);
    case PTX_SREG_NTID_X: return L->block[0];
    case PTX_SREG_NTID_Y: return L->block[1];
    case PTX_SREG_NTID_Z: return L->block[2];
    case PTX_SREG_CTAID_X: return c->block[0];
    case PTX_SREG_CTAID_Y: return c->block[1];
    case PTX_SREG_CTAID_Z: return c->block[2];
    case PTX_SREG_NCTAID_X: return L->grid[0];
    case PTX_SREG_NCTAID_Y: return L->grid[1];
    case PTX_SREG_NCTAID_Z: return L->grid[2];
    /* clusters (a launch without them: clusters of one block, so %clusterid = %ctaid) */
    case PTX_SREG_CLUSTERID_X: case PTX_SREG_CLUSTERID_Y: case PTX_SREG_CLUSTERID_Z: {
        int d = r - PTX_SREG_CLUSTERID_X;
        return c->block[d] / c->cl_dim[d];
    }
    case PTX_SREG_NCLUSTERID_X: case PTX_SREG_NCLUSTERID_Y: case PTX_SREG_NCLUSTERID_Z: {
        int d = r - PTX_SREG_NCLUSTERID_X;
        return L->grid[d] / c->cl_dim[d];
    }
    case PTX_SREG_CLUSTER_CTAID_X: case PTX_SREG_CLUSTER_CTAID_Y: case PTX_SREG_CLUSTER_CTAID_Z: {
        int d = r - PTX_SREG_CLUSTER_CTAID_X;
        return c->block[d] % c->cl_dim[d];
    }
    case PTX_SREG_CLUSTER_NCTAID_X: case PTX_SREG_CLUSTER_NCTAID_Y: case PTX_SREG_CLUSTER_NCTAID_Z:
        return c->cl_dim[r - PTX_SREG_CLUSTER_NCTAID_X];
    case PTX_SREG_CLUSTER_CTARANK: return c->blk ? c->blk->rank : 0;
    case PTX_SREG_CLUSTER_NCTARANK: return c->cl_n;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return c->cl_explicit;
    case PTX_SREG_LANEID: return (uint64_t)l;
    case PTX_SREG_WARPID: return w->index;
    case PTX_SREG_NWARPID: return c->nwarps;
    case PTX_SREG_SMID: return 0;                  /* one SM runs the blocks, one after another */
    case PTX_SREG_NSMID: return 1;
    case PTX_SREG_GRIDID: return 1;
    case PTX_SREG_LANEMASK_EQ: return 1ull << l;
    case PTX_SREG_LANEMASK_LT: return (1ull << l) - 1;
    case PTX_SREG_LANEMASK_LE: return (2ull << l) - 1;
    case PTX_SREG_LANEMASK_GT: return (uint32_t)~((2ull << l) - 1);
    case PTX_SREG_LANEMASK_GE: return (uint32_t)~((1ull << l) - 1);
    case PTX_SREG_CLOCK: return (uint32_t)clk;
    case PTX_SREG_CLOCK_HI: return (uint32_t)(clk >> 32);
    case PTX_SREG_CLOCK64: case PTX_SREG_GLOBALTIMER: return clk;
    case PTX_SREG_GLOBALTIMER_LO: return (uint32_t)clk;
    case PTX_SREG_GLOBALTIMER_HI: return (uint32_t)(clk >> 32);
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return c->shared_dynamic;
    case PTX_SREG_TOTAL_SMEM_SIZE: case PTX_SREG_AGGR_SMEM_SIZE: return c->shared_bytes;
    case PTX_SREG_RESERVED_SMEM_BEGIN: case PTX_SREG_RESERVED_SMEM_END: case PTX_SREG_RESERVED_SMEM_CAP:
        return 0;                                  /* the simulator reserves no shared memory */
    case PTX_SREG_CURRENT_GRAPH_EXEC: return 0;    /* not launched from a CUDA graph */
    default:
        if (r >= PTX_SREG_ENVREG0 && r < PTX_SREG_ENVREG0 + 32) {
            /* a cooperative launch's grid workspace, high half in %envreg1 (cooperative_groups' driver ABI) */
            if (c->grid_ws && r == PTX_SREG_ENVREG0 + 1) return c->grid_ws >> 32;
            if (c->grid_ws && r == PTX_SREG_ENVREG0 + 2) return (uint32_t)c->grid_ws;
            return c->cfg->envreg ? c->cfg->envreg[r - PTX_SREG_ENVREG0] : 0;
        }
        return 0;                                  /* %pm0..%pm7, %pm0_64..: no performance monitors */
    }
}

/* What differs between two blocks run by the same warp slot: %ctaid, %clusterid, a block's place
 * in its cluster, and the clocks; the rest (%tid, %laneid, %nctaid ...) is the slot's. */
static bool is_per_block(int r)
{
    return is_clock(r) || r == PTX_SREG_CTAID_X || r == PTX_SREG_CTAID_Y || r == PTX_SREG_CTAID_Z ||
           r == PTX_SREG_CLUSTERID_X || r == PTX_SREG_CLUSTERID_Y || r == PTX_SREG_CLUSTERID_Z ||
           r == PTX_SREG_CLUSTER_CTAID_X || r == PTX_SREG_CLUSTER_CTAID_Y || r == PTX_SREG_CLUSTER_CTAID_Z ||
           r == PTX_SREG_CLUSTER_CTARANK;
}

/* Whether r reads the same in every lane of a warp (all but %tid, %laneid and the lane masks). */
static bool lane_uniform(int r)
{
    return r != PTX_SREG_TID_X && r != PTX_SREG_TID_Y && r != PTX_SREG_TID_Z && r != PTX_SREG_LANEID &&
           r != PTX_SREG_LANEMASK_EQ && r != PTX_SREG_LANEMASK_LT && r != PTX_SREG_LANEMASK_LE &&
           r != PTX_SREG_LANEMASK_GT && r != PTX_SREG_LANEMASK_GE;
}

void sim_sreg_fill(const sim_ctx *c, const sim_warp *w, const sim_program *p, uint64_t *file, int which)
{
    for (int k = 0; k < p->nsregs; k++) {
        int r = p->sregs[k];
        if (which == SIM_SREG_CLOCKS && !is_clock(r)) continue;
        if (which == SIM_SREG_BLOCK && !is_per_block(r)) continue;
        uint64_t *S = file + p->sreg_off + (uint32_t)k * 32;
        if (lane_uniform(r)) {                   /* one value for the warp: computed once */
            uint64_t v = value(c, w, r, 0);
            for (int l = 0; l < 32; l++) S[l] = v;
        } else
            for (int l = 0; l < 32; l++) S[l] = value(c, w, r, l);
    }
}
