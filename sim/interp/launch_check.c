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

int ws_cluster_dims(const ptx_function *fn, const ws_launch *L, uint32_t dims[3], bool *explicit_, const char *kernel,
                    const char *file, int line, ws_error *err)
{
    static const char axis[3] = {'x', 'y', 'z'};
    bool by_fn = fn->cluster[0] > 0, by_launch = L->cluster[0] > 0;
    for (int i = 0; i < 3; i++) dims[i] = 1;
    *explicit_ = by_fn || by_launch;
    if (!*explicit_) return 0;
    for (int i = 0; i < 3; i++) {
        uint32_t f = by_fn ? (uint32_t)(fn->cluster[i] ? fn->cluster[i] : 1) : 0;
        if (by_fn && by_launch && f != L->cluster[i]) {
            ws_error_set(err, file, line, 0, "%s: the description's cluster %ux%ux%u differs from the kernel's "
                         "__cluster_dims__(%d, %d, %d), which fix the cluster at compile time; drop the cluster line or "
                         "make it agree",
                         kernel, L->cluster[0], L->cluster[1], L->cluster[2], fn->cluster[0],
                         fn->cluster[1] ? fn->cluster[1] : 1, fn->cluster[2] ? fn->cluster[2] : 1);
            return -1;
        }
        dims[i] = by_fn ? f : L->cluster[i];
    }
    for (int i = 0; i < 3; i++)
        if (L->grid[i] % dims[i]) {
            ws_error_set(err, file, line, 0, "%s: grid.%c = %u is not a multiple of the cluster's %c = %u: the GPU refuses "
                         "the launch (CUDA_ERROR_INVALID_CLUSTER_SIZE); a grid is made of whole clusters",
                         kernel, axis[i], L->grid[i], axis[i], dims[i]);
            return -1;
        }
    uint32_t n = dims[0] * dims[1] * dims[2];
    uint32_t max = L->cluster_nonportable ? WS_CLUSTER_NONPORTABLE : WS_CLUSTER_PORTABLE;
    if (n > max) {
        ws_error_set(err, file, line, 0, "%s: a cluster of %ux%ux%u = %u blocks; %s (CUDA C++ Programming Guide, "
                     "'Thread Block Clusters'; cuLaunchKernelEx: CUDA_ERROR_INVALID_CLUSTER_SIZE)", kernel, dims[0],
                     dims[1], dims[2], n, L->cluster_nonportable
                     ? "the H100/H200 allow at most 16 with the non-portable size"
                     : "at most 8 are portable; add 'nonportable' to the cluster line for up to 16 "
                       "(cudaFuncAttributeNonPortableClusterSizeAllowed)");
        return -1;
    }
    if (L->cooperative && n > 1) {
        ws_error_set(err, file, line, 0, "%s: a cooperative launch in clusters of %u blocks is not simulated (the "
                     "simulator holds one cluster at a time); drop 'cooperative' or the cluster", kernel, n);
        return -1;
    }
    return 0;
}
