/* launch_check.c - launch bounds and cooperative co-residency, checked as the driver
 * checks them (see launch_check.h). The driver compares a block's thread count with
 * .maxntid's product (a __launch_bounds__(256) kernel takes a 16x16 block) and its shape
 * with .reqntid's; the register cap is ptxas's rule for the same bounds. */
#include "launch_check.h"

#include <inttypes.h>
#include <stdio.h>

static uint64_t product(const int d[3]) { return (uint64_t)d[0] * (uint64_t)d[1] * (uint64_t)d[2]; }

int ws_launch_bounds_check(const ptx_function *fn, const ws_launch *L, const char *kernel, const char *file,
                           int line, ws_error *err)
{
    uint64_t threads = ws_launch_threads_per_block(L);
    if (fn->maxntid[0] && threads > product(fn->maxntid)) {
        ws_error_set(err, file, line, 0,
                     "%s: the block (%u,%u,%u) has %" PRIu64 " threads, but the kernel's __launch_bounds__ allow at "
                     "most %" PRIu64 " (.maxntid %d, %d, %d): the GPU refuses the launch (cuLaunchKernel: "
                     "CUDA_ERROR_INVALID_VALUE); give a smaller block", kernel, L->block[0], L->block[1], L->block[2],
                     threads, product(fn->maxntid), fn->maxntid[0], fn->maxntid[1], fn->maxntid[2]);
        return -1;
    }
    if (fn->reqntid[0] && ((int)L->block[0] != fn->reqntid[0] || (int)L->block[1] != fn->reqntid[1] ||
                           (int)L->block[2] != fn->reqntid[2])) {
        ws_error_set(err, file, line, 0,
                     "%s: the block (%u,%u,%u) is not the (%d,%d,%d) the kernel requires (.reqntid %d, %d, %d): the "
                     "GPU refuses the launch (cuLaunchKernel: CUDA_ERROR_INVALID_VALUE)", kernel, L->block[0],
                     L->block[1], L->block[2], fn->reqntid[0], fn->reqntid[1], fn->reqntid[2], fn->reqntid[0],
                     fn->reqntid[1], fn->reqntid[2]);
        return -1;
    }
    return 0;
}

int ws_launch_bounds_reg_cap(const ptx_function *fn, const ws_device *dev)
{
    int cap = fn->maxnreg;
    const int *nt = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
    if (nt[0] && dev->reg_alloc_gran > 0) {
        /* .minnctapersm blocks of that many threads resident: registers per warp, in
         * allocation units, that the SM's register file holds for all their warps */
        uint64_t warps = (product(nt) + 31) / 32;
        uint64_t blocks = fn->minnctapersm > 0 ? (uint64_t)fn->minnctapersm : 1;
        uint64_t units = (uint64_t)dev->regs_per_sm / (warps * blocks * (uint64_t)dev->reg_alloc_gran);
        int fit = (int)(units * (uint64_t)dev->reg_alloc_gran / 32);
        if (fit > dev->max_regs_per_thread) fit = dev->max_regs_per_thread;
        if (fit > 0 && (!cap || fit < cap)) cap = fit;
    }
    return cap;
}

int ws_barriers_used(const ptx_function *fn)
{
    int used = 1;
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *in = &fn->insns[i];
        if ((in->op != PTX_BAR && in->op != PTX_BARRIER) || (in->flags & (PTX_F_WARP | PTX_F_CLUSTER)) || !in->nopnd)
            continue;
        bool red = in->bar == PTX_BAR_RED_POPC || in->bar == PTX_BAR_RED_AND || in->bar == PTX_BAR_RED_OR;
        const ptx_operand *a = &in->opnd[red ? 1 : 0];
        int n = a->kind == PTX_OPND_IMM && a->imm >= 0 && a->imm < 16 ? (int)a->imm + 1 : 16;
        if (n > used) used = n;
    }
    return used;
}

int ws_cooperative_check(const ws_launch *L, const ws_device *dev, const ws_occupancy *occ, const char *kernel,
                         const char *file, int line, ws_error *err)
{
    if (!L->cooperative) return 0;
    uint64_t blocks = ws_launch_blocks(L);
    uint64_t fit = (uint64_t)occ->blocks_per_sm * (uint64_t)dev->sm_count;
    if (blocks <= fit) return 0;
    ws_error_set(err, file, line, 0,
                 "%s: the cooperative launch has %" PRIu64 " blocks, but only %" PRIu64 " fit on %s at once (%d per SM, "
                 "limited by %s, x %d SMs), and grid.sync() needs every block resident: the GPU refuses the launch "
                 "(cudaLaunchCooperativeKernel: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)", kernel, blocks, fit,
                 dev->name, occ->blocks_per_sm, ws_occ_limiter_name(occ->limiter), dev->sm_count);
    return -1;
}
