/* exec_cluster.c - thread-block clusters: the blocks of the running cluster and the cluster
 * barrier, barrier.cluster.arrive{.release|.relaxed}{.aligned} and barrier.cluster.wait
 * {.acquire}{.aligned}, as the PTX ISA defines them: every non-exited thread of the cluster
 * arrives, and a wait returns once the phase its thread arrived in has completed. A warp
 * arrives for all its live lanes at once (the simulator runs a warp's lanes together; a
 * diverged warp at a cluster barrier is refused by name). The memory orderings (.release,
 * .acquire, .relaxed) need nothing here: the interpreter's memory is sequentially consistent.
 * A launch without clusters is a cluster of one block, with the same rules.
 * Invariant: a warp's cl_arrived is set from its arrive until its wait passes; the phase
 * completes, and the rank-0 block's cl_phase advances, exactly when every warp of the cluster that has not
 * exited has arrived in it; released warps resume in the next scheduling round. */
#include "interp_priv.h"

sim_block *sim_cluster_block(sim_ctx *c, uint32_t rank)
{
    if (rank >= c->cl_n) return NULL;
    if (c->cl_n == 1) return c->blk;             /* a cluster of one: the running block (any slot) */
    return &c->blocks[rank];                     /* started in rank order (interp.c) */
}

static bool phase_complete(sim_ctx *c)
{
    for (uint32_t r = 0; r < c->cl_n; r++) {
        const sim_block *b = sim_cluster_block(c, r);
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const sim_warp *x = &b->warps[i];
            if (x->state == SIM_W_DONE) continue;
            if (!x->cl_arrived || x->cl_phase != sim_cluster_block(c, 0)->cl_phase) return false;
        }
    }
    return true;
}

/* The phase is complete: the waiting warps go on past their wait (racecheck hears of it
 * first: every access before the arrives is ordered before every access after the waits). */
static void release(sim_ctx *c, int line)
{
    if (c->cfg->on_sync) c->cfg->on_sync(c->cfg->sync_ctx, sim_cluster_block(c, 0)->linear, WS_SYNC_CLUSTER_BARRIER, line);
    sim_cluster_block(c, 0)->cl_phase++;
    for (uint32_t r = 0; r < c->cl_n; r++) {
        sim_block *b = sim_cluster_block(c, r);
        b->bar_phases++;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            sim_warp *x = &b->warps[i];
            if (x->state != SIM_W_CLUSTER) continue;
            x->stack[x->sp - 1].pc = x->cl_pc + 1;
            x->cl_arrived = false;
            x->state = SIM_W_RUN;
            x->ready_round = c->round + 1;
        }
    }
}

int sim_exec_cluster_barrier(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    bool arrive = pi->bar == PTX_BAR_ARRIVE;
    if (!m) {
        w->stack[w->sp - 1].pc = pc + 1;
        return SIM_BAR_PASS;
    }
    if (m != w->live || m != mask)
        return sim_fault(c, w, in, -1, WS_FAULT_SYNC, "barrier.cluster.%s reached by lanes 0x%08x of the warp's live lanes "
                         "0x%08x: %s", arrive ? "arrive" : "wait", m, w->live, pi->flags & PTX_F_ALIGNED
                         ? "with .aligned every thread of the warp must execute the same one (PTX ISA: behaviour "
                           "undefined; a cluster.sync() inside a branch?)"
                         : "the simulator runs the threads of a warp together and cannot let some wait at a cluster "
                           "barrier while the others run on (unsupported)");
    if (arrive) {
        if (w->cl_arrived)
            return sim_fault(c, w, in, -1, WS_FAULT_SYNC, "barrier.cluster.arrive twice without a barrier.cluster.wait between "
                             "(PTX ISA: a thread must wait for the phase it arrived in before it arrives again)");
        w->cl_arrived = true;
        sim_progress(c);                         /* an arrival may release other blocks' warps */
        w->cl_phase = sim_cluster_block(c, 0)->cl_phase;
        w->stack[w->sp - 1].pc = pc + 1;
        if (phase_complete(c)) release(c, pi->src_line);
        return SIM_BAR_PASS;
    }
    if (!w->cl_arrived)
        return sim_fault(c, w, in, -1, WS_FAULT_SYNC, "barrier.cluster.wait without a barrier.cluster.arrive before it (PTX "
                         "ISA: behaviour undefined; cluster.sync() is the pair)");
    if (w->cl_phase != sim_cluster_block(c, 0)->cl_phase) {            /* its phase completed already */
        w->cl_arrived = false;
        w->stack[w->sp - 1].pc = pc + 1;
        return SIM_BAR_PASS;
    }
    w->state = SIM_W_CLUSTER;
    w->cl_pc = pc;
    return SIM_BAR_WAIT;
}

int sim_cluster_warp_done(sim_ctx *c, sim_warp *w)
{
    (void)w;
    bool any = false;                            /* a phase some warp has arrived in */
    for (uint32_t r = 0; r < c->cl_n && !any; r++) {
        const sim_block *b = sim_cluster_block(c, r);
        for (uint32_t i = 0; i < c->nwarps && !any; i++)
            any = b->warps[i].state != SIM_W_DONE && b->warps[i].cl_arrived && b->warps[i].cl_phase == sim_cluster_block(c, 0)->cl_phase;
    }
    if (any && phase_complete(c)) release(c, 0);
    return 0;
}
