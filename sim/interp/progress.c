/* progress.c - endless loops and deadlocks found by what they do, not by a timer.
 * The interpreter is deterministic: what a warp does next depends only on its own state (value
 * file, SIMT stack, parked barrier lanes) and on what it can read (memory, barriers, cp.async and
 * mbarrier state). sim_ctx.progress moves on every change of the latter (a store or atomic that
 * changes a byte, a barrier arrival, an exit, a call, tensor-era state; see sim_progress's
 * callers). While it stands still, a warp whose state at the end of a slice equals its state at
 * an earlier slice end repeats that stretch forever, and can never move it. When every live warp
 * of the resident blocks either does that or waits at a barrier (which only an arrival or an exit
 * could release), nothing can ever change: the launch never ends. Cycles are found with Brent's
 * algorithm over the state's 64-bit hash, checked every SIM_WATCH_EVERY quiet slices, so a loop
 * of any length is found within a few times its period. A warp in a called function, or whose
 * state carries a clock (%clock, %globaltimer), is never seen to repeat: the budget stops it.
 * The slice: a loop whose count keeps changing (in a register, or stored to memory) but decides
 * nothing repeats all the same. Once the resident blocks have run SIM_SLICE_AFTER
 * thread-instructions, and when the kernel touches memory only by ld/st/atom/red, the hash takes
 * only the registers that can decide what a warp does (sim_progress_plan), and a changed byte is
 * progress only where a deciding load reads it (sim_seen_*): see sim_progress_plan for why that
 * is enough.
 * Invariant: a stop here depends only on the blocks' own execution, never on the wall clock, so
 * it is the same on every machine and every -j (a worker's block finds it at the same slice). */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A warp must be quiet (the launch's progress unchanged) this many slices before its state is
 * hashed, and is hashed every this many slices after: at most one hash per 8 x 256 instructions. */
#define SIM_WATCH_EVERY 8

/* The slice goes on after this many thread-instructions of the resident blocks: about 0.15-0.3 s at
 * the rates measured on the build machine for the endless loops of tests/data/budget (55-120 M
 * thread-instructions per second), 2x the block of a 2048^3 tiled matmul (sim/sample.h), so the
 * catalog's blocks never pay for its records. */
#define SIM_SLICE_AFTER (1ull << 24)

/* --- the slice ------------------------------------------------------------------------------ */

/* Which operands an instruction's effect reads, as the slice sees it. */
enum { ROLE_DATA,   /* ALU: its destinations are a function of its other operands and its guard */
       ROLE_LOAD,   /* ld, ldu: the address decides where; the value is memory's */
       ROLE_STORE,  /* st, red: the address and guard decide where; the value goes to memory only */
       ROLE_ATOM,   /* atom: both */
       ROLE_ALL,    /* everything else: every operand decides */
       ROLE_NONE }; /* reads memory some other way (cp.async, ldmatrix, mbarrier, mma ...): no slice */

static int role_of(const sim_insn *in)
{
    const ptx_insn *pi = in->pi;
    switch ((sim_cls)in->cls) {
    case SIM_CLS_ALU: return pi->ndst ? ROLE_DATA : ROLE_ALL;
    case SIM_CLS_MEM:
        switch (pi->op) {
        case PTX_LD: case PTX_LDU: return pi->space == PTX_SPACE_SHARED_CLUSTER ? ROLE_NONE : ROLE_LOAD;
        case PTX_ST: case PTX_RED: return pi->space == PTX_SPACE_SHARED_CLUSTER ? ROLE_NONE : ROLE_STORE;
        case PTX_ATOM: return pi->space == PTX_SPACE_SHARED_CLUSTER ? ROLE_NONE : ROLE_ATOM;
        default: return ROLE_NONE;
        }
    case SIM_CLS_WARP:
        switch (pi->op) {                        /* lanes' registers only */
        case PTX_SHFL: case PTX_VOTE: case PTX_MATCH: case PTX_ACTIVEMASK: case PTX_REDUX:
        case PTX_GETCTARANK: case PTX_ELECT: case PTX_BAR: case PTX_BARRIER: return ROLE_ALL;
        default: return ROLE_NONE;               /* mapa too: another block's shared memory */
        }
    default: return ROLE_ALL;                    /* branches, exits, barriers, calls (progress), nops, traps */
    }
}

/* Marks the registers operand o names (a register, a vector's, an address's base); true when one
 * was not marked yet. */
static bool mark(uint8_t *rel, const ptx_operand *o, bool address_only)
{
    bool grew = false;
    if (o->kind == PTX_OPND_MEM) {
        if (o->base_kind == PTX_OPND_REG && !rel[o->reg]) { rel[o->reg] = 1; grew = true; }
    } else if (address_only) {
        return false;
    } else if (o->kind == PTX_OPND_REG) {
        if (!rel[o->reg]) { rel[o->reg] = 1; grew = true; }
    } else if (o->kind == PTX_OPND_VEC) {
        for (int e = 0; e < o->vec_n && e < PTX_VEC_MAX; e++)
            if (o->vec[e] >= 0 && !(o->vec_imm >> e & 1) && !rel[o->vec[e]]) { rel[o->vec[e]] = 1; grew = true; }
    }
    return grew;
}

/* Whether operand o names a marked register (a vector: any element). */
static bool marked(const uint8_t *rel, const ptx_operand *o)
{
    if (o->kind == PTX_OPND_REG) return rel[o->reg];
    if (o->kind == PTX_OPND_VEC)
        for (int e = 0; e < o->vec_n && e < PTX_VEC_MAX; e++)
            if (o->vec[e] >= 0 && !(o->vec_imm >> e & 1) && rel[o->vec[e]]) return true;
    return false;
}

/* Whether every register operand o names is marked (immediates are). */
static bool all_marked(const uint8_t *rel, const ptx_operand *o)
{
    if (o->kind == PTX_OPND_REG) return rel[o->reg];
    if (o->kind == PTX_OPND_VEC)
        for (int e = 0; e < o->vec_n && e < PTX_VEC_MAX; e++)
            if (o->vec[e] >= 0 && !(o->vec_imm >> e & 1) && !rel[o->vec[e]]) return false;
    return true;
}

/* The deciding registers: those every branch, exit, barrier, call and warp-level instruction
 * reads, every address and memory guard, and, back through the ALU, whatever computes one of
 * them (flow-insensitive: a register is deciding if any instruction that writes it computes a
 * deciding one, anywhere). The rest, the free registers, reach only other free registers and the
 * values of stores and atomics. So a warp's next instructions, lanes, addresses and faults are a
 * function of its deciding registers, its SIMT stack and what its deciding loads read (READ). A
 * warp whose deciding state repeats, while no word a deciding load read is changed or written
 * with a free value (a store of a KNOWN value over the same value changes nothing, the same way
 * each turn), repeats that stretch forever: its stores repeat their addresses, and any of them
 * that lands on a deciding word writes the same value it did. */
void sim_progress_plan(sim_program *p)
{
    const ptx_function *fn = p->fn;
    p->sliced = false;
    p->nkeep = 0;
    for (int i = 0; i < p->n; i++)
        if (role_of(&p->insns[i]) == ROLE_NONE) return;
    uint8_t *rel = calloc((size_t)fn->nregs + 1, 1);
    if (!rel) return;
    for (int i = 0; i < p->n; i++) {
        const sim_insn *in = &p->insns[i];
        const ptx_insn *pi = in->pi;
        int role = role_of(in);
        if (role == ROLE_DATA) continue;
        if (pi->guard >= 0) rel[pi->guard] = 1;
        for (int k = 0; k < pi->nopnd && k < PTX_MAX_OPND; k++) mark(rel, &pi->opnd[k], role != ROLE_ALL);
    }
    for (bool grew = true; grew;) {              /* back through the ALU until nothing is added */
        grew = false;
        for (int i = 0; i < p->n; i++) {
            const ptx_insn *pi = p->insns[i].pi;
            if (role_of(&p->insns[i]) != ROLE_DATA) continue;
            bool decides = false;
            for (int k = 0; k < pi->ndst && k < pi->nopnd; k++) decides |= marked(rel, &pi->opnd[k]);
            if (!decides) continue;
            if (pi->guard >= 0 && !rel[pi->guard]) { rel[pi->guard] = 1; grew = true; }
            for (int k = pi->ndst; k < pi->nopnd && k < PTX_MAX_OPND; k++) grew |= mark(rel, &pi->opnd[k], false);
        }
    }
    for (int i = 0; i < p->n; i++) {
        sim_insn *in = &p->insns[i];
        const ptx_insn *pi = in->pi;
        int role = role_of(in);
        in->watch = 0;
        if ((role == ROLE_LOAD || role == ROLE_ATOM) && pi->nopnd > 0 && marked(rel, &pi->opnd[0]))
            in->watch |= SIM_WATCH_READ;
        if (role == ROLE_STORE || role == ROLE_ATOM) {
            bool known = true;
            for (int k = role == ROLE_ATOM ? 1 : 0; k < pi->nopnd && k < PTX_MAX_OPND; k++)
                if (pi->opnd[k].kind != PTX_OPND_MEM) known &= all_marked(rel, &pi->opnd[k]);
            if (known) in->watch |= SIM_WATCH_KNOWN;
        }
    }
    uint32_t n = 0;
    for (int r = 0; r < fn->nregs; r++) n += rel[r];
    p->keep = malloc((size_t)(n ? n : 1) * sizeof *p->keep);
    if (p->keep) {
        for (int r = 0; r < fn->nregs; r++)
            if (rel[r]) p->keep[p->nkeep++] = (uint32_t)r * 32;
        p->sliced = true;
    }
    free(rel);
}

/* The words seen since progress last moved, by the hash of their key (sim_seen_key): a slot's tag is
 * (uint32_t)progress + 1 when it was seen in this stretch. Two words in one slot only make a
 * false "both", which moves progress: the watch may miss a loop, never invent one. */
#define SIM_SEEN_BITS 15
struct sim_seen {
    uint32_t rd[1u << SIM_SEEN_BITS];    /* read by a deciding load */
    uint32_t wr[1u << SIM_SEEN_BITS];    /* changed, or written with a free value */
};

void sim_progress_blocks_start(sim_ctx *c)
{
    c->sliced = false;
    c->slice_at = c->thread_insns + SIM_SLICE_AFTER;
}

void sim_progress_free(sim_ctx *c)
{
    free(c->seen);
    c->seen = NULL;
    c->sliced = false;
}

static inline uint32_t seen_slot(uint64_t word)
{
    return (uint32_t)(word * 0x9e3779b97f4a7c15ull >> (64 - SIM_SEEN_BITS));
}

void sim_seen_read(sim_ctx *c, uint64_t key, uint32_t n)
{
    struct sim_seen *s = c->seen;
    for (uint64_t a = key >> 2, e = (key + n - 1) >> 2; a <= e; a++) {
        uint32_t k = seen_slot(a), tag = (uint32_t)c->progress + 1;
        if (s->wr[k] == tag) sim_progress(c);   /* written in this stretch, now it decides */
        s->rd[k] = (uint32_t)c->progress + 1;
    }
}

void sim_seen_write(sim_ctx *c, uint64_t key, uint32_t n)
{
    struct sim_seen *s = c->seen;
    for (uint64_t a = key >> 2, e = (key + n - 1) >> 2; a <= e; a++) {
        uint32_t k = seen_slot(a), tag = (uint32_t)c->progress + 1;
        if (s->rd[k] == tag) sim_progress(c);   /* a deciding word changes */
        s->wr[k] = (uint32_t)c->progress + 1;
    }
}

/* The slice goes on: a new stretch, so nothing read before it was missed. */
static void slice_on(sim_ctx *c)
{
    if (!c->seen && !(c->seen = calloc(1, sizeof *c->seen))) return;   /* no memory: the whole state */
    c->sliced = true;
    sim_progress(c);
}

void sim_progress_reset(sim_warp *w)
{
    w->snap_epoch = UINT64_MAX;
    w->quiet = 0;
    w->snap_power = 0;
    w->cycling = false;
}

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x;
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 31);
}

/* Everything of the warp its next instructions read besides memory (the clock count w->clock and
 * the message fields are left out: %clock lives in the file, where it is hashed). */
static uint64_t warp_hash(const sim_ctx *c, const sim_warp *w)
{
    uint64_t h[4] = {1, 2, 3, 4};
    if (c->sliced) {                             /* the deciding registers only (the kernel's: depth 0) */
        const sim_program *P = w->prog;
        for (uint32_t r = 0; r < P->nkeep; r++)
            for (uint32_t i = 0; i < 32; i += 4)
                for (int k = 0; k < 4; k++) h[k] = mix(h[k], w->file[P->keep[r] + i + (uint32_t)k]);
    } else {
        uint32_t n = w->prog->file_words, i = 0;
        for (; i + 4 <= n; i += 4)               /* four independent chains: the multiplies overlap */
            for (int k = 0; k < 4; k++) h[k] = mix(h[k], w->file[i + (uint32_t)k]);
        for (; i < n; i++) h[0] = mix(h[0], w->file[i]);
    }
    uint64_t r = mix(mix(h[0], h[1]), mix(h[2], h[3]));
    for (int s = 0; s < w->sp; s++)
        r = mix(r, (uint64_t)(uint32_t)w->stack[s].pc << 32 ^ (uint32_t)w->stack[s].rpc ^ (uint64_t)w->stack[s].mask << 13);
    r = mix(r, (uint64_t)w->live << 32 | w->carry);
    r = mix(r, (uint64_t)(uint32_t)w->sp << 32 | (uint32_t)w->state);
    r = mix(r, (uint64_t)w->bar_lanes << 32 | (uint32_t)w->bar_expect);
    r = mix(r, (uint64_t)w->bar_red_true << 32 | w->bar_red_threads);
    return mix(r, (uint64_t)(uint32_t)w->bar_id << 32 | (uint32_t)w->bar_pc);
}

/* Brent's step for warp w after a slice; true when its state has just been seen to repeat. */
static bool watch(const sim_ctx *c, sim_warp *w)
{
    if (w->depth || w->snap_epoch != c->progress) {   /* something changed: start again */
        w->snap_epoch = c->progress;
        w->quiet = 0;
        w->snap_power = 0;
        w->cycling = false;
        return false;
    }
    if (w->cycling || ++w->quiet % SIM_WATCH_EVERY) return false;
    uint64_t h = warp_hash(c, w);
    if (!w->snap_power) {
        w->snap_hash = h;
        w->snap_power = 1;
        w->snap_lam = 0;
        return false;
    }
    if (h == w->snap_hash) return w->cycling = true;
    if (++w->snap_lam == w->snap_power) {        /* Brent: move the saved state, double the reach */
        w->snap_hash = h;
        w->snap_power *= 2;
        w->snap_lam = 0;
    }
    return false;
}

static int src_line_at(const sim_program *P, int pc)
{
    return pc >= 0 && pc < P->n && P->insns[pc].pi ? P->insns[pc].pi->src_line : 0;
}

int sim_progress_slice(sim_ctx *c, sim_block *blocks, uint32_t n, sim_warp *w)
{
    if (!c->sliced && c->thread_insns >= c->slice_at && c->prog.sliced) slice_on(c);
    if (!watch(c, w)) return 0;
    /* every live warp of the resident blocks loops with nothing changed, or waits at a barrier */
    uint64_t looping = 0, waiting = 0, done_blocks = 0, nreg_waiting = 0;
    char nreg_what[200] = "";
    int bar_line = 0;
    const sim_block *first_done = NULL;
    for (uint32_t b = 0; b < n; b++) {
        const sim_block *blk = &blocks[b];
        if (blk->done) {
            if (!done_blocks++) first_done = blk;
            continue;
        }
        for (uint32_t i = 0; i < c->nwarps; i++) {
            const sim_warp *v = &blk->warps[i];
            if (v->state == SIM_W_DONE) continue;
            if (v->state == SIM_W_BAR) {
                if (!waiting++) bar_line = src_line_at(&c->prog, v->bar_pc);
                continue;
            }
            if (v->state == SIM_W_NREG) {            /* only a setmaxnreg.dec could release it */
                if (!nreg_waiting++) sim_nreg_waiting(c, blk, v, nreg_what, sizeof nreg_what);
                continue;
            }
            if (!v->cycling || v->snap_epoch != c->progress) return 0;   /* this one may still change things */
            looping++;
        }
    }
    const sim_program *P;
    int pc = sim_warp_pc(c, w, &P);
    char others[480] = "", grid[320] = "", blocks_hint[400] = "";
    uint64_t nblocks = ws_launch_blocks(c->L);
    char loops[80] = "", waits[320] = "";
    if (looping > 1)
        snprintf(loops, sizeof loops, "%" PRIu64 " other warp%s loop%s so", looping - 1, looping == 2 ? "" : "s",
                 looping == 2 ? "s" : "");
    if (waiting) {
        char bl[40] = "";
        if (bar_line > 0) snprintf(bl, sizeof bl, " (line %d)", bar_line);
        snprintf(waits, sizeof waits, "%" PRIu64 " warp%s wait%s at a barrier%s that nothing can complete", waiting,
                 waiting == 1 ? "" : "s", waiting == 1 ? "s" : "", bl);
    }
    if (nreg_waiting) {
        size_t k = strlen(waits);
        snprintf(waits + k, sizeof waits - k, "%s%" PRIu64 " warp%s wait%s at %s that no setmaxnreg.dec can free",
                 k ? " and " : "", nreg_waiting, nreg_waiting == 1 ? "" : "s", nreg_waiting == 1 ? "s" : "", nreg_what);
    }
    if (loops[0] || waits[0])
        snprintf(others, sizeof others, "; %s%s%s%s", loops, loops[0] && waits[0] ? " and " : "", waits,
                 n > 1 ? ", in the resident blocks" : "");
    if (c->cooperative && done_blocks)
        snprintf(grid, sizeof grid, "; %" PRIu64 " of the %u blocks ha%s returned (block (%u,%u,%u) first): a grid barrier "
                 "(grid.sync()) waits for every block of the grid, so one that returns before it leaves the others "
                 "waiting forever, on the GPU too", done_blocks, n, done_blocks == 1 ? "s" : "ve", first_done->idx[0],
                 first_done->idx[1], first_done->idx[2]);
    else if (nblocks > 1 && !c->cooperative)
        snprintf(blocks_hint, sizeof blocks_hint, "; if it waits for another block (a flag or counter another block "
                 "sets), that never happens here: warpscope runs the blocks one after another, each to its end "
                 "before the next starts (a cooperative launch, the description's `cooperative` keyword, runs them "
                 "together)");
    bool dead = waiting || nreg_waiting || (c->cooperative && done_blocks);
    /* the resident blocks' own count (since they started), the same on every -j, and said before the
       hints, which the message's length may cut */
    uint64_t ran = c->thread_insns - (c->slice_at - SIM_SLICE_AFTER);
    return sim_fault(c, w, pc >= 0 ? &P->insns[pc] : NULL, -1, WS_FAULT_KERNEL,
                     "%s: this warp loops at this line forever (found after %" PRIu64 " thread-instructions of %s): "
                     "%s, arrives at a barrier or exits any more%s%s%s", dead ? "deadlock" : "endless loop", ran,
                     n > 1 ? "the resident blocks" : "its block",
                     c->sliced ? "its path and the registers that decide it repeat (a count it keeps decides "
                                 "nothing) and no thread changes what they read"
                               : "its registers and path repeat and no thread changes memory",
                     others, grid, blocks_hint);
}
