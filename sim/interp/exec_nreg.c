/* exec_nreg.c - setmaxnreg.{inc,dec}.sync.aligned.u32 N and the block's register pool, as the PTX
 * ISA ("setmaxnreg") defines them: a pool is kept per CTA; .dec gives the warp's registers above N
 * back to it, .inc takes what the warp lacks to reach N and blocks until the pool has that many;
 * .inc below the warp's current count or .dec above it is undefined (a fault here). The pool is what
 * the block was given at launch: the per-thread count ptxas reported, rounded up to the allocation
 * granularity (ws_sim_config.regs_per_thread), for each of its warps' 32 threads. Every warp of a
 * warpgroup must execute the same setmaxnreg: a warp whose n-th setmaxnreg is another instruction
 * than its warpgroup's n-th is refused by name. A warp's registers stay the block's until the block
 * ends (the PTX ISA says nothing of an exit returning them; none is assumed). A kernel whose entry
 * gives ptxas no register count runs setmaxnreg as a no-op (decode.c), as ptxas drops it.
 * Invariant: with a known pool, blk->nreg_held = 32 x the sum of the warps' nreg <= the pool at
 * every step, so the launch's occupancy is the one computed from ptxas's count; a warp in
 * SIM_W_NREG has its top path's pc on its setmaxnreg.inc and is released (pc + 1, next round) the
 * moment the pool can meet it. Without a count (regs_per_thread 0) the counts are only followed. */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdio.h>

static int line_at(const sim_ctx *c, int pc)
{
    return pc >= 0 && pc < c->prog.n ? c->prog.insns[pc].pi->src_line : 0;
}

static uint64_t pool_of(const sim_ctx *c)
{
    return (uint64_t)c->cfg->regs_per_thread * 32 * c->nwarps;
}

static void set_held(sim_block *blk, uint64_t held)
{
    blk->nreg_held = held;
    if (held > blk->nreg_peak) blk->nreg_peak = held;
}

void sim_nreg_block_start(sim_ctx *c, sim_block *blk)
{
    uint32_t r = c->cfg->regs_per_thread;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &blk->warps[i];
        w->nreg = (uint16_t)r;
        w->nreg_want = 0;
        w->nreg_pc = -1;
        w->nreg_seq = 0;
    }
    blk->nreg_peak = 0;
    set_held(blk, pool_of(c));                  /* every register of the pool is some warp's */
}

/* The waiting .inc requests the pool can meet now, in warp order: they go on in the next round. */
static void grant_waiting(sim_ctx *c)
{
    uint64_t pool = pool_of(c);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *x = &c->warps[i];
        if (x->state != SIM_W_NREG) continue;
        uint64_t need = (uint64_t)(x->nreg_want - x->nreg) * 32;
        if (c->blk->nreg_held + need > pool) continue;
        set_held(c->blk, c->blk->nreg_held + need);
        x->nreg = x->nreg_want;
        x->nreg_seq++;
        x->stack[x->sp - 1].pc = x->nreg_pc + 1;
        x->state = SIM_W_RUN;
        x->ready_round = c->round + 1;
        sim_progress(c);
    }
}

/* The PTX ISA's "the same setmaxnreg instruction must be executed by all warps in a warpgroup": the
 * other warps' instruction of the same rank (their last, or the one they wait in) must be this one. */
static int check_warpgroup(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc)
{
    uint32_t g0 = w->index / 4 * 4;
    for (uint32_t j = g0; j < g0 + 4 && j < c->nwarps; j++) {
        const sim_warp *x = &c->warps[j];
        if (x == w || x->nreg_pc < 0) continue;
        uint32_t rank = x->nreg_seq + (x->state == SIM_W_NREG ? 1 : 0);
        if (rank != w->nreg_seq + 1 || x->nreg_pc == pc) continue;
        return sim_fault(c, w, in, -1, WS_FAULT_SYNC, "warps %u and %u of warpgroup %u execute different setmaxnreg "
                         "instructions as their setmaxnreg number %u (line %d and line %d): the PTX ISA requires the "
                         "same setmaxnreg by every warp of a warpgroup (behaviour undefined)", x->index, w->index,
                         g0 / 4, rank, line_at(c, x->nreg_pc), line_at(c, pc));
    }
    return 0;
}

int sim_exec_setmaxnreg(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    bool inc = pi->flags & PTX_F_NREG_INC;
    uint16_t want = (uint16_t)pi->opnd[0].imm;  /* 24..256, a multiple of 8: the parser checked it */
    if (!m) {
        w->stack[w->sp - 1].pc = pc + 1;
        return SIM_BAR_PASS;
    }
    if (m != w->live || m != mask)
        return sim_fault(c, w, in, -1, WS_FAULT_SYNC, "setmaxnreg.%s reached by lanes 0x%08x of the warp's live lanes "
                         "0x%08x: it is .sync.aligned, so every thread of the warp (and every warp of its warpgroup) "
                         "must execute the same one (PTX ISA: behaviour undefined)", inc ? "inc" : "dec", m, w->live);
    if (check_warpgroup(c, w, in, pc)) return -1;
    if (w->nreg && inc && want < w->nreg)
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "setmaxnreg.inc to %u registers per thread, below the %u the warp "
                         "holds (PTX ISA: .inc to fewer than the current count is undefined; .dec lowers it)", want,
                         w->nreg);
    if (w->nreg && !inc && want > w->nreg)
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "setmaxnreg.dec to %u registers per thread, above the %u the warp "
                         "holds (PTX ISA: .dec to more than the current count is undefined; .inc raises it)", want,
                         w->nreg);
    w->nreg_pc = pc;
    bool known = c->cfg->regs_per_thread != 0;
    if (inc && known) {
        uint64_t need = (uint64_t)(want - w->nreg) * 32;
        if (c->blk->nreg_held + need > pool_of(c)) {   /* blocks until a .dec frees enough */
            w->nreg_want = want;
            w->state = SIM_W_NREG;
            return SIM_BAR_WAIT;
        }
        set_held(c->blk, c->blk->nreg_held + need);
    } else if (known) {
        set_held(c->blk, c->blk->nreg_held - (uint64_t)(w->nreg - want) * 32);
    }
    w->nreg = want;
    w->nreg_seq++;
    w->stack[w->sp - 1].pc = pc + 1;
    if (!inc && known) grant_waiting(c);
    return SIM_BAR_PASS;
}

void sim_nreg_block_end(sim_ctx *c, const sim_block *blk)
{
    bool used = false;
    for (uint32_t i = 0; i < c->nwarps && !used; i++) used = blk->warps[i].nreg_pc >= 0;
    if (!used) return;
    ws_nreg_report b;
    memset(&b, 0, sizeof b);
    b.used = true;
    b.regs_per_thread = c->cfg->regs_per_thread;
    b.pool = (uint32_t)pool_of(c);
    b.peak = b.pool ? (uint32_t)blk->nreg_peak : 0;
    b.nwg = (int)((c->nwarps + 3) / 4);
    if (b.nwg > WS_MAX_WARPGROUPS) b.nwg = WS_MAX_WARPGROUPS;  /* 1024 threads at most: never */
    for (uint32_t i = 0; i < c->nwarps && i / 4 < WS_MAX_WARPGROUPS; i++) {
        const sim_warp *w = &blk->warps[i];
        if (w->nreg > b.wg[i / 4]) b.wg[i / 4] = w->nreg;
        b.wg_warps[i / 4]++;
    }
    ws_nreg_merge(&c->res->nreg, &b);
}

bool ws_setmaxnreg_effective(const ptx_function *k)
{
    return k->maxnreg > 0 || (k->minnctapersm > 0 && (k->maxntid[0] > 0 || k->reqntid[0] > 0));
}

void ws_nreg_merge(ws_nreg_report *a, const ws_nreg_report *b)
{
    a->ignored |= b->ignored;
    if (!b->used) return;
    a->used = true;
    a->regs_per_thread = b->regs_per_thread;
    a->pool = b->pool;
    if (b->peak > a->peak) a->peak = b->peak;
    if (b->nwg > a->nwg) a->nwg = b->nwg;
    for (int g = 0; g < WS_MAX_WARPGROUPS; g++) {
        if (b->wg[g] > a->wg[g]) a->wg[g] = b->wg[g];
        if (b->wg_warps[g] > a->wg_warps[g]) a->wg_warps[g] = b->wg_warps[g];
    }
}

void sim_nreg_waiting(const sim_ctx *c, const sim_block *blk, const sim_warp *w, char *buf, size_t cap)
{
    snprintf(buf, cap, "setmaxnreg.inc (line %d) for %u registers per thread (%u more per thread; the block's pool of "
             "%" PRIu64 " has %" PRIu64 " free)", line_at(c, w->nreg_pc), w->nreg_want, w->nreg_want - w->nreg,
             pool_of(c), pool_of(c) - blk->nreg_held);
}

int sim_nreg_deadlock(sim_ctx *c, sim_block *blocks, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (blocks[k].done) continue;
        sim_block *blk = &blocks[k];
        const sim_warp *w = NULL;
        uint32_t waiting = 0, at_bar = 0, exited = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const sim_warp *x = &blk->warps[i];
            if (x->state == SIM_W_NREG && !w) w = x;
            if (x->state == SIM_W_NREG) waiting++;
            else if (x->state == SIM_W_DONE) exited++;
            else at_bar++;
        }
        if (!w) continue;
        sim_select_block(c, blk);
        uint64_t pool = pool_of(c), need = (uint64_t)(w->nreg_want - w->nreg) * 32;
        char held[200] = "";                   /* what each warpgroup holds now */
        size_t o = 0;
        for (uint32_t g = 0; g * 4 < c->nwarps && o < sizeof held; g++) {
            uint32_t most = 0;
            for (uint32_t i = g * 4; i < g * 4 + 4 && i < c->nwarps; i++)
                if (blk->warps[i].nreg > most) most = blk->warps[i].nreg;
            o += (size_t)snprintf(held + o, sizeof held - o, "%swarpgroup %u %u", g ? ", " : "", g, most);
        }
        char others[160] = "";
        if (at_bar || exited)
            snprintf(others, sizeof others, "; of the other warps %u wait at a barrier and %u ha%s exited", at_bar,
                     exited, exited == 1 ? "s" : "ve");
        return sim_fault(c, w, &c->prog.insns[w->nreg_pc], -1, WS_FAULT_KERNEL,
                         "deadlock: setmaxnreg.inc asks for %u registers per thread for %u warp%s (warp %u holds %u: "
                         "%" PRIu64 " more registers), and the block's register pool of %" PRIu64 " (%u registers x "
                         "%u threads, ptxas's count at the allocation granularity) has %" PRIu64 " free (registers "
                         "per thread held: %s)%s; no warp can give any back (setmaxnreg.dec), so on the GPU it hangs "
                         "here", w->nreg_want, waiting, waiting == 1 ? "" : "s", w->index, w->nreg, need, pool,
                         c->cfg->regs_per_thread, c->nwarps * 32, pool - blk->nreg_held, held, others);
    }
    return 0;
}
