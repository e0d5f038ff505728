/* exec_barrier.c - CTA barriers: bar{.cta}.sync/.arrive/.red and barrier{.cta}.* with
 * their barrier numbers (0..15, immediate or register) and thread counts, as the PTX ISA
 * defines them. A warp arrives once all its non-exited threads have, and counts 32
 * threads whatever its active lanes; a barrier completes when its thread count (without
 * one: every warp of the block with a non-exited thread) has arrived; .arrive counts
 * without waiting; .red reduces a predicate over the threads that took part. Without
 * .aligned, the lanes of a diverged warp may arrive on different paths. Misuse is named
 * as compute-sanitizer synccheck names it, with the warps and lines involved; a block in
 * which no warp can run any more is reported as the deadlock it is on the GPU.
 * Invariant: the paths of a waiting warp keep their pc at the barrier instruction until
 * the barrier completes, and release advances exactly those paths. */
#include "interp_priv.h"

#include <stdio.h>

static bool is_red(const ptx_insn *pi)
{
    return pi->bar == PTX_BAR_RED_POPC || pi->bar == PTX_BAR_RED_AND || pi->bar == PTX_BAR_RED_OR;
}

/* bar.* is barrier.*.aligned (PTX ISA): every thread of a warp executes the same one */
static bool is_aligned(const ptx_insn *pi) { return pi->op == PTX_BAR || (pi->flags & PTX_F_ALIGNED); }

/* Operand indices of the barrier number, the thread count (-1: none) and the .red
 * predicate (-1: none); the parser checked the shapes (check_barrier, ptx_parse.c). */
static void layout(const ptx_insn *pi, int *ia, int *ib, int *ic)
{
    bool red = is_red(pi);
    *ia = red ? 1 : 0;
    *ib = (red ? pi->nopnd == 4 : pi->nopnd == 2) ? *ia + 1 : -1;
    *ic = red ? pi->nopnd - 1 : -1;
}

static int line_of(const sim_ctx *c, int pc)
{
    return pc >= 0 && pc < c->prog.n ? c->prog.insns[pc].pi->src_line : 0;
}

static int ptx_line_of(const sim_ctx *c, int pc)
{
    return pc >= 0 && pc < c->prog.n ? c->prog.insns[pc].pi->ptx_line : 0;
}

/* "warp 3", "warps 0-1, 4" */
static void warp_list(uint32_t set, char *buf, size_t cap)
{
    size_t k = (size_t)snprintf(buf, cap, "%s", __builtin_popcount(set) == 1 ? "warp " : "warps ");
    bool first = true;
    for (int i = 0; i < 32 && k < cap; i++) {
        if (!(set >> i & 1)) continue;
        int j = i;
        while (j + 1 < 32 && (set >> (j + 1) & 1)) j++;
        k += (size_t)snprintf(buf + k, cap - k, j > i ? "%s%d-%d" : "%s%d", first ? "" : ", ", i, j);
        first = false;
        i = j;
    }
}

/* The operand's value, which every lane of m must give alike. */
static int uniform(sim_ctx *c, sim_warp *w, const sim_insn *in, int opnd, uint32_t m, const char *what,
                   uint32_t *out)
{
    const uint64_t *v = w->file + in->src[opnd];
    int l0 = __builtin_ctz(m);
    uint32_t x = (uint32_t)v[l0];
    SIM_LANES(m, if ((uint32_t)v[l] != x)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the %s differs within the warp (lane %d has %u, lane %d has %u); "
                         "it must be the same for every thread of a warp (PTX ISA: behaviour undefined)",
                         what, l0, x, l, (uint32_t)v[l]));
    *out = x;
    return 0;
}

static bool is_cta_barrier(const sim_program *p, int pc)
{
    return pc >= 0 && pc < p->n && p->insns[pc].cls == SIM_CLS_BAR && p->insns[pc].pi->op != PTX_BARRIER_CLUSTER &&
           p->insns[pc].pi->op != PTX_SETMAXNREG;
}

/* Entry i waits at its pc for the paths above it to reconverge there. */
static bool waits_for_children(const sim_warp *w, int i)
{
    for (int j = i + 1; j < w->sp; j++)
        if (w->stack[j].rpc == w->stack[i].pc) return true;
    return false;
}

/* A path parked at a barrier: a leaf of the stack at a CTA barrier holding only lanes
 * that have arrived. */
static bool is_parked(const sim_program *p, const sim_warp *w, int i, uint32_t arrived)
{
    const sim_simt_entry *e = &w->stack[i];
    return e->mask && !(e->mask & ~arrived) && is_cta_barrier(p, e->pc) && !waits_for_children(w, i);
}

/* Brings a path of w that can run (not parked, not finished, not waiting for parked
 * paths to reconverge) to the top of its stack; false when there is none. A leaf moved
 * to the top still lies above its parent, which is all the stack relies on. */
static bool switch_path(const sim_program *p, sim_warp *w)
{
    for (int i = w->sp - 2; i >= 0; i--) {
        sim_simt_entry *e = &w->stack[i];
        if (!e->mask || e->pc == e->rpc || is_parked(p, w, i, w->bar_lanes) || waits_for_children(w, i)) continue;
        sim_simt_entry t = *e;
        memmove(&w->stack[i], &w->stack[i + 1], (size_t)(w->sp - 1 - i) * sizeof t);
        w->stack[w->sp - 1] = t;
        return true;
    }
    return false;
}

static uint32_t live_warps(const sim_ctx *c)
{
    uint32_t set = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != SIM_W_DONE) set |= 1u << i;
    return set;
}

static int needed(const sim_ctx *c, const sim_barrier *b)
{
    return b->expect ? b->expect / 32 : __builtin_popcount(live_warps(c));
}

/* The phase's warps waited at different instructions of a barrier that counts the whole
 * block while one of them was .aligned (__syncthreads()): PTX leaves that undefined and
 * synccheck calls it divergent threads in block. Located at the instruction most of them
 * wait at; the message names every group. */
static int divergent_block(sim_ctx *c, const sim_barrier *b, uint32_t id)
{
    int pcs[4], ng = 0;
    uint32_t sets[4] = {0};
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (!(b->arrived >> i & 1)) continue;
        int pc = c->warps[i].bar_pc, g = 0;
        while (g < ng && pcs[g] != pc) g++;
        if (g == ng) { if (ng == 4) continue; pcs[ng++] = pc; }
        sets[g] |= 1u << i;
    }
    char text[WS_MSG_MAX], who[160], passed[64];
    size_t k = 0;
    bool same_line = true, same_passed = true;
    for (uint32_t i = 0; i < c->nwarps; i++)      /* how many barriers each had passed, when that differs */
        if ((b->arrived >> i & 1) && c->warps[i].bars_passed != c->warps[b->first_warp].bars_passed) same_passed = false;
    for (int g = 0; g < ng && k < sizeof text; g++) {
        warp_list(sets[g], who, sizeof who);
        const sim_warp *w0 = &c->warps[__builtin_ctz(sets[g])];
        snprintf(passed, sizeof passed, ", after %u barrier%s", w0->bars_passed, w0->bars_passed == 1 ? "" : "s");
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s at line %d (PTX line %d%s)", g ? ", " : "", who,
                              line_of(c, pcs[g]), ptx_line_of(c, pcs[g]), same_passed ? "" : passed);
        same_line &= line_of(c, pcs[g]) == line_of(c, pcs[0]);
    }
    int most = 0;                                 /* located where most warps wait */
    for (int g = 1; g < ng; g++)
        if (__builtin_popcount(sets[g]) > __builtin_popcount(sets[most])) most = g;
    const sim_warp *w = &c->warps[__builtin_ctz(sets[most])];
    return sim_fault(c, w, &c->prog.insns[pcs[most]], -1,
                     WS_FAULT_SYNC, "barrier error, divergent threads in block (compute-sanitizer synccheck: 'Divergent thread(s) "
                     "in block'; undefined in the PTX ISA): barrier %u, a __syncthreads(), was completed by warps at "
                     "different instructions: %s; %s", id, text,
                     same_line ? "several copies of one __syncthreads() (the compiler's) reached by different warps: "
                                 "a loop around it whose trip count differs by warp?"
                               : "different __syncthreads(): a loop around one whose trip count differs by warp, or "
                                 "a branch taken by whole warps?");
}

/* Every warp waiting in the barrier's phase goes on: its parked paths step past the
 * barrier instruction (writing bar.red's result); then the barrier starts a new phase. */
static int complete(sim_ctx *c, uint32_t id)
{
    sim_barrier *b = &c->blk->bar[id];
    if (b->expect == 0 && b->several_pcs && b->any_aligned) return divergent_block(c, b, id);
    sim_barrier done = *b;
    memset(b, 0, sizeof *b);
    c->blk->bar_phases++;
    uint32_t live = live_warps(c);
    const sim_program *P = &c->prog;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (!(done.waiting >> i & 1)) continue;
        sim_warp *w = &c->warps[i];
        for (int e = 0; e < w->sp; e++) {
            sim_simt_entry *s = &w->stack[e];
            if (!s->mask || !is_cta_barrier(P, s->pc) || waits_for_children(w, e)) continue;
            const sim_insn *bi = &P->insns[s->pc];
            if (is_red(bi->pi)) {
                uint64_t v = bi->pi->bar == PTX_BAR_RED_POPC ? done.red_true
                           : bi->pi->bar == PTX_BAR_RED_AND ? done.red_true == done.red_threads
                           : done.red_true > 0;
                uint64_t *d = w->file + bi->src[0];
                SIM_LANES(s->mask, d[l] = v);
            }
            s->pc++;
        }
        /* a path whose next pc is where it reconverges pops now, as after any instruction */
        w->state = sim_simt_settle(w, P) ? SIM_W_RUN : SIM_W_DONE;
        w->ready_round = c->round + 1;
        w->bar_lanes = 0;
        w->bar_id = -1;
        w->bars_passed++;
    }
    /* racecheck orders accesses across a barrier only when it held every warp; one among some
       warps still orders the lanes of each warp it held (warp-level hazards) */
    if (c->cfg->on_sync && (done.arrived & live) == live)
        c->cfg->on_sync(c->cfg->sync_ctx, c->block_linear, WS_SYNC_BARRIER, line_of(c, done.first_pc));
    else if (c->cfg->on_warp_sync)
        for (uint32_t i = 0; i < c->nwarps; i++)
            if (done.waiting >> i & 1)
                c->cfg->on_warp_sync(c->cfg->warp_sync_ctx, c->block_linear, i, c->warps[i].live,
                                     line_of(c, done.first_pc));
    return 0;
}

/* Warp w arrives at barrier id (its path is on top at pc; for .red, nt of its n taking
 * threads have a true predicate). */
static int arrive(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t id, uint32_t expect, bool aligned,
                  uint32_t nt, uint32_t n)
{
    const ptx_insn *pi = in->pi;
    sim_barrier *b = &c->blk->bar[id];
    uint8_t red = is_red(pi) ? (uint8_t)pi->bar : PTX_BAR_NONE;
    if (b->count == 0) {
        memset(b, 0, sizeof *b);
        b->expect = (int)expect;
        b->first_pc = pc;
        b->first_warp = (int)w->index;
        b->red = red;
    } else {
        const sim_warp *f = &c->warps[b->first_warp];
        if (b->expect != (int)expect)
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "barrier %u is used with different thread counts in one phase: warp %u "
                             "waits for %s%u at line %d, warp %u for %s%d at line %d (PTX ISA: behaviour undefined)",
                             id, w->index, expect ? "" : "the whole block, ", expect, pi->src_line, f->index,
                             b->expect ? "" : "the whole block, ", b->expect, line_of(c, b->first_pc));
        if (b->red != red)
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "barrier %u is used by different kinds of barrier instruction in one "
                             "phase (%s at line %d, and one at line %d): bar.red (__syncthreads_count/_and/_or) "
                             "and bar.sync do not mix (PTX ISA: behaviour undefined)",
                             id, red ? "bar.red" : "bar.sync", pi->src_line, line_of(c, b->first_pc));
        if (pc != b->first_pc) b->several_pcs = true;
    }
    b->any_aligned |= aligned;
    b->count++;
    b->arrived |= 1u << w->index;
    b->red_true += nt;
    b->red_threads += n;
    if (pi->bar == PTX_BAR_ARRIVE) {
        w->stack[w->sp - 1].pc = pc + 1;
    } else {
        b->waiting |= 1u << w->index;
        w->state = SIM_W_BAR;
        w->bar_id = (int)id;
        if (!w->bar_lanes) w->bar_pc = pc;
    }
    if (b->count >= needed(c, b) && complete(c, id)) return -1;
    /* a released warp leaves its slice: the barrier's warps resume together next round */
    return pi->bar == PTX_BAR_ARRIVE ? SIM_BAR_PASS : SIM_BAR_WAIT;
}

/* The lanes of the top path are parked at the non-aligned barrier: the warp arrives
 * when no live lane is left to come, else another of its paths runs. */
static int park(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc)
{
    const sim_program *P = &c->prog;
    if (w->bar_lanes == w->live || sim_simt_others_leave(w, P, w->bar_lanes))
        return arrive(c, w, in, pc, (uint32_t)w->bar_id, (uint32_t)w->bar_expect, false, w->bar_red_true,
                      w->bar_red_threads);
    if (switch_path(P, w)) return SIM_BAR_SWITCH;
    return sim_fault(c, w, in, -1,
                     WS_FAULT_KERNEL, "barrier.sync (without .aligned) reached by lanes 0x%08x of the warp while its other live lanes "
                     "0x%08x wait to reconverge with them: on the GPU those may run on to another barrier %d and "
                     "complete the warp's arrival (PTX ISA), but warpscope runs a warp's paths on one reconvergence "
                     "stack and cannot let them pass each other (unsupported)",
                     w->bar_lanes, w->live & ~w->bar_lanes, w->bar_id);
}

int sim_exec_barrier(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m, bool *uncount)
{
    const ptx_insn *pi = in->pi;
    const sim_program *P = &c->prog;
    *uncount = false;
    if (pi->op == PTX_BARRIER_CLUSTER) return sim_exec_cluster_barrier(c, w, in, pc, mask, m); /* exec_cluster.c */
    if (pi->op == PTX_SETMAXNREG) return sim_exec_setmaxnreg(c, w, in, pc, mask, m);           /* exec_nreg.c */
    if (!m) {
        w->stack[w->sp - 1].pc = pc + 1;
        return SIM_BAR_PASS;
    }
    bool aligned = is_aligned(pi) || pi->bar == PTX_BAR_ARRIVE; /* arrive does not wait: no paths to park */
    if (!aligned && w->bar_lanes && !(m & ~w->bar_lanes)) {    /* a parked path on top again */
        *uncount = true;
        return park(c, w, in, pc);
    }
    int ia, ib, ic;
    layout(pi, &ia, &ib, &ic);
    uint32_t id, expect = 0;
    if (!pi->nopnd) id = 0;
    else if (uniform(c, w, in, ia, m, "barrier number", &id)) return -1;
    if (id >= SIM_NBARRIERS)
        return sim_fault(c, w, in, __builtin_ctz(m), WS_FAULT_SYNC, "barrier number %u is out of range: a block has barriers 0..15 "
                         "(PTX ISA; compute-sanitizer synccheck: 'Invalid arguments')", id);
    if (ib >= 0) {
        if (uniform(c, w, in, ib, m, "barrier thread count", &expect)) return -1;
        if (expect == 0 || expect % 32)
            return sim_fault(c, w, in, __builtin_ctz(m), WS_FAULT_SYNC, "barrier %u: thread count %u is not a positive multiple of "
                             "the warp size, 32 (PTX ISA: behaviour undefined; compute-sanitizer synccheck: "
                             "'Invalid arguments')", id, expect);
    }
    uint32_t pred = ic >= 0 ? sim_pred_mask(w->file, in->src[ic], pi->opnd[ic].neg) & m : 0;
    if (aligned) {
        if (m != w->live) {
            if (m == mask && sim_simt_yield_at_barrier(w, P, pc)) {
                *uncount = true;
                return SIM_BAR_SWITCH;
            }
            if (m != mask || !sim_simt_others_leave(w, P, m))
                return sim_fault(c, w, in, -1,
                                 WS_FAULT_SYNC, "barrier reached by a diverged warp: lanes 0x%08x of its live lanes 0x%08x "
                                 "(__syncthreads() inside a branch not taken by the whole block?); "
                                 "compute-sanitizer synccheck: 'Divergent thread(s) in block'", m, w->live);
        }
        return arrive(c, w, in, pc, id, expect, true, (uint32_t)__builtin_popcount(pred),
                      (uint32_t)__builtin_popcount(m));
    }
    /* barrier{.cta}.sync / .red without .aligned: threads arrive on their own (PTX ISA) */
    if (m != mask)
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "barrier.sync guarded so that only lanes 0x%08x of its path 0x%08x take "
                         "part: unsupported (the other lanes would run on while these wait)", m, mask);
    if (w->bar_lanes) {
        if (id != (uint32_t)w->bar_id)
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "lanes 0x%08x of the warp wait at barrier %d (line %d) and lanes 0x%08x "
                             "reach barrier %u: a warp's threads must meet at one barrier (PTX ISA: behaviour "
                             "undefined)", w->bar_lanes, w->bar_id, line_of(c, w->bar_pc), m, id);
        if (expect != (uint32_t)w->bar_expect)
            return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "lanes of the warp reach barrier %u with different thread counts (%d at "
                             "line %d, %u here; PTX ISA: behaviour undefined)", id, w->bar_expect,
                             line_of(c, w->bar_pc), expect);
    } else {
        w->bar_id = (int)id;
        w->bar_expect = (int)expect;
        w->bar_pc = pc;
        w->bar_red_true = w->bar_red_threads = 0;
    }
    w->bar_lanes |= m;
    w->bar_red_true += (uint32_t)__builtin_popcount(pred);
    w->bar_red_threads += (uint32_t)__builtin_popcount(m);
    return park(c, w, in, pc);
}

int sim_barrier_warp_done(sim_ctx *c, sim_warp *w)
{
    (void)w;
    for (uint32_t id = 0; id < SIM_NBARRIERS; id++) {
        const sim_barrier *b = &c->blk->bar[id];
        if (b->count && !b->expect && b->count >= needed(c, b) && complete(c, id)) return -1;
    }
    return 0;
}

int sim_barrier_deadlock(sim_ctx *c, sim_block *blocks, uint32_t n)
{
    if (sim_nreg_deadlock(c, blocks, n)) return -1;  /* a warp waiting for registers: the cause, first */
    for (uint32_t k = 0; k < n; k++) {
        sim_block *blk = &blocks[k];
        if (blk->done) continue;
        sim_select_block(c, blk);
        const sim_warp *w = NULL;
        for (uint32_t i = 0; i < c->nwarps && !w; i++)
            if (c->warps[i].state == SIM_W_BAR) w = &c->warps[i];
        if (!w) continue;
        uint32_t id = (uint32_t)w->bar_id;
        const sim_barrier *b = &blk->bar[id];
        uint32_t exited = 0, elsewhere = 0;
        char others[WS_MSG_MAX] = "", list[160];
        size_t o = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const sim_warp *x = &c->warps[i];
            if (x->state == SIM_W_DONE) exited |= 1u << i;
            else if (x->state == SIM_W_BAR && (uint32_t)x->bar_id != id) elsewhere |= 1u << i;
        }
        for (uint32_t i = 0; i < c->nwarps && o < sizeof others; i++) {  /* the others, by barrier */
            if (!(elsewhere >> i & 1)) continue;
            uint32_t set = 0;
            int oid = c->warps[i].bar_id, opc = c->warps[i].bar_pc;
            for (uint32_t j = i; j < c->nwarps; j++)
                if ((elsewhere >> j & 1) && c->warps[j].bar_id == oid) set |= 1u << j;
            elsewhere &= ~set;
            warp_list(set, list, sizeof list);
            o += (size_t)snprintf(others + o, sizeof others - o, "; %s wait%s at barrier %d (line %d)", list,
                                  __builtin_popcount(set) == 1 ? "s" : "", oid, line_of(c, opc));
        }
        if (exited && o < sizeof others) {
            warp_list(exited, list, sizeof list);
            snprintf(others + o, sizeof others - o, "; %s %s exited", list, __builtin_popcount(exited) == 1 ? "has" : "have");
        }
        char arrived[160], wants[160];
        warp_list(b->arrived, arrived, sizeof arrived);
        if (b->expect)
            snprintf(wants, sizeof wants, "%d threads (%d warps)", b->expect, b->expect / 32);
        else
            snprintf(wants, sizeof wants, "every thread of the block that has not exited (%d warps)",
                     __builtin_popcount(live_warps(c)));
        char bigger[160] = "";
        if (b->expect && (uint32_t)b->expect / 32 > c->nwarps)
            snprintf(bigger, sizeof bigger, ", more than the block's %u warps can ever bring", c->nwarps);
        return sim_fault(c, w, &c->prog.insns[w->bar_pc], -1,
                         WS_FAULT_KERNEL, "deadlock: barrier %u waits for %s%s, and only %d warp arrival%s came (%s)%s; no warp of the "
                         "block can run any more, so on the GPU it hangs here", id, wants, bigger, b->count,
                         b->count == 1 ? "" : "s", arrived, others);
    }
    for (uint32_t k = 0; k < n; k++)             /* warps at a cluster barrier whose phase never completes */
        for (uint32_t i = 0; !blocks[k].done && i < c->nwarps; i++) {
            const sim_warp *w = &blocks[k].warps[i];
            if (w->state != SIM_W_CLUSTER) continue;
            sim_select_block(c, &blocks[k]);
            uint32_t waiting = 0, missing = 0;
            for (uint32_t r = 0; r < n; r++)
                for (uint32_t j = 0; j < c->nwarps; j++) {
                    const sim_warp *x = &blocks[r].warps[j];
                    if (x->state == SIM_W_CLUSTER) waiting++;
                    else if (x->state != SIM_W_DONE) missing++;
                }
            return sim_fault(c, w, &c->prog.insns[w->cl_pc], -1, WS_FAULT_KERNEL,
                             "deadlock: barrier.cluster.wait waits for every thread of the cluster's %u block%s to arrive; "
                             "%u warp%s wait here and %u warp%s that ha%s not exited wait%s elsewhere and never arrive%s, so "
                             "on the GPU the cluster hangs here", n, n == 1 ? "" : "s", waiting, waiting == 1 ? "" : "s",
                             missing, missing == 1 ? "" : "s", missing == 1 ? "s" : "ve", missing == 1 ? "s" : "",
                             missing == 1 ? "s" : "");
        }
    return sim_fault(c, NULL, NULL, -1, WS_FAULT_KERNEL, "deadlock: no warp can run (internal: none waits at a barrier)");
}
