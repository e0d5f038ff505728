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
 * Invariant: a stop here depends only on the blocks' own execution, never on the wall clock, so
 * it is the same on every machine and every -j (a worker's block finds it at the same slice). */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdio.h>

/* A warp must be quiet (the launch's progress unchanged) this many slices before its state is
 * hashed, and is hashed every this many slices after: at most one hash per 8 x 256 instructions. */
#define SIM_WATCH_EVERY 8

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
static uint64_t warp_hash(const sim_warp *w)
{
    uint64_t h[4] = {1, 2, 3, 4};
    uint32_t n = w->prog->file_words, i = 0;
    for (; i + 4 <= n; i += 4)                   /* four independent chains: the multiplies overlap */
        for (int k = 0; k < 4; k++) h[k] = mix(h[k], w->file[i + (uint32_t)k]);
    for (; i < n; i++) h[0] = mix(h[0], w->file[i]);
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
    uint64_t h = warp_hash(w);
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
    return sim_fault(c, w, pc >= 0 ? &P->insns[pc] : NULL, -1, WS_FAULT_KERNEL,
                     "%s: this warp loops at this line forever: its registers and path repeat and no thread "
                     "changes memory, arrives at a barrier or exits any more%s%s%s (found after %" PRIu64
                     " thread-instructions)", dead ? "deadlock" : "endless loop", others, grid, blocks_hint,
                     c->thread_insns);
}
