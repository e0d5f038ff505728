/* exec_step.c - the fetch/guard/dispatch loop of one warp: runs the path on
 * top of its SIMT stack, in the function of its running frame, until it
 * reaches a barrier, exits, has run WS_SIM_SLICE instructions, or faults.
 * Invariant: on return the warp's stack is settled (top entry runnable) unless
 * the warp is done or waits at a barrier (its path's pc on the barrier), and every
 * executed instruction has been counted. */
#include "interp_priv.h"

/* A blocking wait loop's retries (docs/timing-model.md "Wait loops"): a try of the wait arms the warp;
 * the loop's pcs it runs next are kept, and coming back to the same wait makes them and this try a
 * retry, counted in pc_spin_count. Leaving the loop's range (the wait succeeded and the warp goes on)
 * disarms it. So the first try and the path out are never counted: the GPU runs those too. */
static void spin_step(sim_ctx *c, sim_warp *w, int pc)
{
    uint64_t *spin = c->res->pc_spin_count;
    int W = w->spin_wait;
    if (W >= 0) {
        if (pc == W) {
            for (int i = 0; i < w->spin_n; i++) spin[w->spin_buf[i]]++;
            spin[W]++;
            w->spin_n = 0;
            return;
        }
        if (pc >= c->spin_range[2 * W] && pc <= c->spin_range[2 * W + 1] && w->spin_n < SIM_SPIN_BUF) {
            w->spin_buf[w->spin_n++] = pc;
            return;
        }
        w->spin_wait = -1;
    }
    if (c->spin_range[2 * pc] >= 0) { w->spin_wait = pc; w->spin_n = 0; }
}

int sim_warp_run(sim_ctx *c, sim_warp *w)
{
    uint64_t *pc_count = c->res->pc_warp_count;
    const uint8_t *watch = c->cfg->on_watch ? c->cfg->watch : NULL;
    uint64_t tins = 0, wins = 0;
    int rc = 0;

    /* a block starts unsettled: pc 0 may be a loop header */
    if (!sim_frames_settle(c, w)) { w->state = SIM_W_DONE; return 0; }
    for (int k = 0; k < WS_SIM_SLICE; k++) {
        const sim_program *P = w->prog;          /* a call or a return changes it */
        uint64_t *file = w->file;
        sim_simt_entry *top = &w->stack[w->sp - 1];
        int pc = top->pc;
        if (pc >= P->n) {                /* fell off the end: an implicit ret */
            sim_progress(c);
            if (!w->depth) w->exit_pc = P->n - 1;
            sim_simt_return(w, top->mask);
            if (!sim_frames_settle(c, w)) { w->state = SIM_W_DONE; break; }
            continue;
        }
        const sim_insn *in = &P->insns[pc];
        uint32_t mask = top->mask, m = mask;
        if (in->guard >= 0) m &= sim_pred_mask(file, (uint32_t)in->guard, in->guard_neg);
        if (!w->depth) {                 /* a called function's instructions count in the totals only */
            pc_count[pc]++;
            if (c->spin_range) spin_step(c, w, pc);
            if (watch && watch[pc]) {
                ws_watch_hit h = {c->block_linear, {c->block[0], c->block[1], c->block[2]}, (uint32_t)w->index,
                                  c->block_linear * c->nwarps + (uint32_t)w->index, (uint32_t)pc, mask, m};
                c->cfg->on_watch(c->cfg->watch_ctx, &h);
            }
        }
        wins++;
        tins += (uint64_t)__builtin_popcount(mask);

        if (in->reads_clock) {           /* %clock64 = warp instructions the launch ran before this one */
            c->warp_insns += wins - 1;
            wins = 1;
            sim_sreg_fill(c, w, P, file, SIM_SREG_CLOCKS);
        }
        if (__builtin_expect(w->wg_busy, 0) && m && sim_wgmma_hazard(c, w, in)) { rc = -1; goto out; }
        switch ((sim_cls)in->cls) {
        case SIM_CLS_ALU:
            if (m && in->alu(c, w, in, m)) { rc = -1; goto out; }
            top->pc = pc + 1;
            break;
        case SIM_CLS_MEM:
            if (m && sim_exec_mem(c, w, in, m)) { rc = -1; goto out; }
            top->pc = pc + 1;
            break;
        case SIM_CLS_WARP:
            if (m && sim_exec_warp(c, w, in, m)) { rc = -1; goto out; }
            top->pc = pc + 1;
            break;
        case SIM_CLS_NOP:
            top->pc = pc + 1;
            break;
        case SIM_CLS_CALL:
            sim_progress(c);             /* frames, printf: not in the progress watch's state */
            top->pc = pc + 1;            /* where the caller goes on once the call returns */
            if (m && sim_exec_call(c, w, in, m)) { rc = -1; goto out; }
            break;
        case SIM_CLS_BRA:
            if (sim_simt_branch(w, pc, in->target, in->ipdom, m, mask & ~m)) {
                rc = sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "SIMT stack overflow (%d paths)", w->sp);
                goto out;
            }
            break;
        case SIM_CLS_EXIT:
            top->pc = pc + 1;
            if (m) {
                sim_progress(c);         /* lanes leave: barriers count fewer, joins move */
                if (!w->depth) w->exit_pc = pc;
                if (in->pi->op == PTX_RET) sim_simt_return(w, m);   /* ret leaves the function */
                else sim_simt_exit(w, m);                           /* exit ends the thread */
            }
            break;
        case SIM_CLS_BAR: {              /* exec_barrier.c */
            if (w->depth) {              /* its bookkeeping is the kernel's pcs */
                rc = sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "%s inside a called function (a __noinline__ function, or a "
                               "-G build) is not simulated", in->pi->op == PTX_SETMAXNREG ? "setmaxnreg" : "a barrier");
                goto out;
            }
            bool uncount;
            int r = sim_exec_barrier(c, w, in, pc, mask, m, &uncount);
            if (uncount) {               /* a parked path seen again ran nothing */
                if (!w->depth) pc_count[pc]--;
                wins--;
                tins -= (uint64_t)__builtin_popcount(mask);
            }
            if (r < 0) { rc = -1; goto out; }
            if (!uncount) sim_progress(c);   /* an arrival: it may release other warps */
            if (r == SIM_BAR_SWITCH) continue;
            if (r == SIM_BAR_WAIT) { k = WS_SIM_SLICE; continue; } /* leave after counting */
            break;
        }
        case SIM_CLS_TRAP:
            if (!m) { top->pc = pc + 1; break; }
            if (in->pi->op == PTX_BRKPT)
                rc = sim_fault(c, w, in, __builtin_ctz(m), WS_FAULT_KERNEL, "brkpt executed (a breakpoint, with no debugger to "
                               "stop at it, ends the kernel with an error)");
            else
                rc = sim_fault(c, w, in, __builtin_ctz(m), WS_FAULT_KERNEL, "trap executed%s", c->needs_grid_ws && !c->grid_ws
                               ? " (the kernel reads the grid workspace, %envreg1/2, as grid.sync() does: it traps when "
                                 "the launch is not cooperative; add the line 'cooperative' to its description)"
                               : " (__trap(), or a trap instruction: the kernel stops with an error)");
            goto out;
        case SIM_CLS_UNSUPPORTED: {
            char txt[160];
            ptx_format_insn(P->fn, in->pi, txt, sizeof txt);
            rc = sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s'", txt);
            goto out;
        }
        }
        if (in->next_plain && in->cls <= SIM_CLS_WARP) continue; /* nothing to settle */
        if (!sim_frames_settle(c, w)) { w->state = SIM_W_DONE; break; }
    }
out:
    c->thread_insns += tins;
    c->warp_insns += wins;
    w->clock += wins;
    return rc;
}
