/* predict.c - the instruction budget, predicted: a launch that cannot finish within it is
 * refused before its blocks are spent, not after.
 * Before any block runs, every block that will run costs at least its threads times the kernel's
 * shortest path from entry to exit, and, in a grid of more than WS_SIM_BLOCK_COST_FROM blocks, at
 * least WS_SIM_BLOCK_COST (what starting a block costs the interpreter). After the first 1, 2, 4,
 * 8 ... blocks, what ran plus that floor for each block left is a bound that holds whatever the
 * blocks do; and from the 4th block on, what ran plus the cheapest block so far for each block left
 * is a projection, refused only beyond twice the budget (SIM_PREDICT_MARGIN), so a launch whose
 * first blocks are its heaviest (block 0 doing all the work, a triangular loop) is not refused
 * although it fits. Either beyond refuses the launch (WS_SIM_REFUSED, exit 1) with the numbers;
 * the wall time it would take on this machine goes to ws_sim_result.predicted_seconds,
 * which the caller words (the message itself stays the same on every machine and every -j).
 * "The blocks that will run" are the block filter's (block sampling, ws_sim_config.blocks_planned),
 * every block of the range otherwise. Cooperative launches get only the first estimate: their
 * blocks all end together. A kernel none of whose paths reaches an exit is an endless loop, found
 * here before it runs (exit 2). */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

double sim_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The fewest instructions a thread can execute from pc 0 to its end (ret, exit, trap, an
 * instruction the simulator refuses, or falling off the end; a call may end it too: its callee can
 * exit), by breadth-first search over the
 * decoded branches; -1 when no path ends. *loop_pc: then, the first branch back (for the message). */
static int64_t shortest_path(const sim_program *P, int *loop_pc)
{
    int n = P->n;
    int64_t *dist = malloc((size_t)(n + 1) * sizeof *dist);
    int *queue = malloc((size_t)(n + 1) * sizeof *queue);
    int64_t best = -1;
    *loop_pc = -1;
    if (!dist || !queue) { free(dist); free(queue); return 1; }   /* no bound: the weakest one */
    for (int i = 0; i <= n; i++) dist[i] = -1;
    int head = 0, tail = 0;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int pc = queue[head++];
        int64_t d = dist[pc];
        if (best >= 0 && d >= best) break;        /* BFS: nothing later is shorter */
        if (pc == n) { best = d; break; }         /* fell off the end: an implicit ret */
        const sim_insn *in = &P->insns[pc];
        bool guarded = in->guard >= 0;
        int next[2], nn = 0;
        switch ((sim_cls)in->cls) {
        case SIM_CLS_EXIT: case SIM_CLS_TRAP: case SIM_CLS_UNSUPPORTED:   /* the last faults when reached */
            if (best < 0 || d + 1 < best) best = d + 1;
            if (guarded) next[nn++] = pc + 1;
            break;
        case SIM_CLS_CALL:
            if (best < 0 || d + 1 < best) best = d + 1;
            next[nn++] = pc + 1;
            break;
        case SIM_CLS_BRA:
            if (in->target >= 0 && in->target <= n) next[nn++] = in->target;
            if (guarded) next[nn++] = pc + 1;
            if (in->target <= pc && *loop_pc < 0) *loop_pc = pc;
            break;
        default:
            next[nn++] = pc + 1;
        }
        for (int k = 0; k < nn; k++)
            if (next[k] <= n && dist[next[k]] < 0) {
                dist[next[k]] = d + 1;
                queue[tail++] = next[k];
            }
    }
    free(dist);
    free(queue);
    return best;
}

/* A block's least charge in a launch of to_run blocks: its start, in a grid big enough for starts to
   add up to minutes (WS_SIM_BLOCK_COST_FROM); else 0, so the budget is the thread-instructions. */
static double floor_of(uint64_t to_run) { return to_run > WS_SIM_BLOCK_COST_FROM ? WS_SIM_BLOCK_COST : 0; }

/* The projection from the cheapest block: only after this many blocks, and only beyond this many
 * budgets. A launch whose blocks' costs fall linearly from the first (block i of n costs n - i turns,
 * a triangular loop) totals half what its first blocks project: twice the budget refuses none of
 * those that fit. A block alone heavier than the rest (block 0 doing all the work) is never the
 * cheapest of 4. */
#define SIM_PREDICT_FROM 4
#define SIM_PREDICT_MARGIN 2.0

static const char *file_of(const sim_ctx *c) { return c->cfg->source_file ? c->cfg->source_file : c->mod->path; }

/* The way out, as the refusal says it: sampling where it does not already leave blocks out. */
static const char *way_out(bool sampled)
{
    return sampled ? "make the problem smaller with -D overrides or raise the budget with --budget N"
                   : "simulate a sample of the blocks (--sample), make the problem smaller with -D "
                     "overrides, or raise the budget with --budget N";
}

int sim_predict_before(sim_ctx *c, uint64_t count)
{
    uint64_t to_run = count;
    if (c->cfg->block_next) {                    /* sampling: only what it will run, at least block 0 */
        uint64_t p = c->cfg->blocks_planned ? c->cfg->blocks_planned(c->cfg->filter_ctx) : UINT64_MAX;
        to_run = p == UINT64_MAX ? 1 : p;
    }
    int loop_pc;
    int64_t path = shortest_path(&c->prog, &loop_pc);
    if (path < 0) {                              /* no thread can ever end */
        c->res->stop = WS_SIM_FAULT;
        memcpy(c->block, (uint32_t[3]){0, 0, 0}, sizeof c->block);
        return sim_fault(c, NULL, loop_pc >= 0 ? &c->prog.insns[loop_pc] : NULL, -1, WS_FAULT_KERNEL,
                         "endless loop: no path from the kernel's start reaches its end (ret, exit or trap), so "
                         "no thread can ever finish; this is the loop's branch back (found before any block ran)");
    }
    uint64_t tpb = ws_launch_threads_per_block(c->L);
    double per_block = (double)tpb * (double)path, fl = floor_of(to_run);
    if (per_block < fl) per_block = fl;
    c->pred_floor = per_block;
    c->pred_last = c->thread_insns;
    double least = per_block * (double)to_run;
    if (least <= (double)c->budget) return 0;
    c->res->stop = WS_SIM_REFUSED;
    char starts[120] = "";
    if (fl) snprintf(starts, sizeof starts, " and each block, in a grid of more than %llu, at least %u (starting it)",
                     (unsigned long long)WS_SIM_BLOCK_COST_FROM, (unsigned)WS_SIM_BLOCK_COST);
    ws_error_set(c->err, file_of(c), c->L->desc ? c->L->desc->line : 0, 0,
                 "%s: %" PRIu64 " blocks of %" PRIu64 " threads cannot finish within the instruction budget of %" PRIu64
                 " thread-instructions: each thread runs at least %" PRId64 " (the kernel's shortest path)%s, so at "
                 "least %.3g%s, found before any block ran; %s",
                 c->kname, to_run, tpb, c->budget, path, starts, least,
                 to_run < count ? " for the blocks sampling runs" : "", way_out(to_run < count));
    return -1;
}

int sim_predict_after(sim_ctx *c, uint64_t done, uint64_t count, double elapsed)
{
    uint64_t cost = c->thread_insns - c->pred_last;   /* this block's own: called after every block, in order */
    c->pred_last = c->thread_insns;
    if (done == 1 || cost < c->pred_min) c->pred_min = cost;
    if (!done || done & (done - 1)) return 0;     /* after 1, 2, 4, 8 ... blocks */
    uint64_t to_run = count;
    if (c->cfg->block_next && c->cfg->blocks_planned) {
        uint64_t p = c->cfg->blocks_planned(c->cfg->filter_ctx);
        if (p == UINT64_MAX) return 0;            /* not planned yet */
        to_run = p;
    }
    if (done >= to_run) return 0;
    double ran = (double)c->thread_insns, left = (double)(to_run - done);
    double least = ran + c->pred_floor * left;    /* holds whatever the blocks left do */
    double per = ran / (double)done, fl = floor_of(to_run), cheap = (double)c->pred_min;
    double est = ran + (cheap > c->pred_floor ? cheap : c->pred_floor) * left;
    bool sure = least > (double)c->budget;
    if (!sure && (done < SIM_PREDICT_FROM || est <= SIM_PREDICT_MARGIN * (double)c->budget)) return 0;
    if (sure) est = least;
    c->res->stop = WS_SIM_REFUSED;
    c->res->predicted_thread_insns = est;
    c->res->predicted_seconds = ran > 0 ? elapsed * est / ran : elapsed / (double)done * (double)to_run;
    const char *sampled = to_run < count ? " (the blocks sampling runs)" : "";
    if (sure)
        ws_error_set(c->err, file_of(c), c->L->desc ? c->L->desc->line : 0, 0,
                     "%s: the launch cannot finish within the instruction budget of %" PRIu64 " thread-instructions: "
                     "the first %" PRIu64 " of %" PRIu64 " blocks%s ran %.0f thread-instructions, and each block "
                     "left costs at least %.0f (%s), so at least %.3g; refused after those blocks; %s",
                     c->kname, c->budget, done, to_run, sampled, ran, c->pred_floor,
                     c->pred_floor > fl ? "its threads times the kernel's shortest path" : "starting it", least,
                     way_out(to_run < count));
    else
        ws_error_set(c->err, file_of(c), c->L->desc ? c->L->desc->line : 0, 0,
                     "%s: the launch cannot finish within the instruction budget of %" PRIu64 " thread-instructions: "
                     "%" PRIu64 " blocks%s, those left priced at the cheapest of the first %" PRIu64 " (%.0f "
                     "thread-instructions; their mean %.0f%s), make about %.3g, more than %.0f times the budget "
                     "(the margin for blocks that differ); refused after those blocks; %s",
                     c->kname, c->budget, to_run, sampled, done, cheap, per,
                     cheap < c->pred_floor ? "; the least a block costs, if more" : "", est,
                     SIM_PREDICT_MARGIN, way_out(to_run < count));
    return -1;
}
