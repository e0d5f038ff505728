/* simt.c - reconvergence: immediate post-dominators of a function's control
 * flow graph, and the SIMT stack of {pc, reconvergence pc, mask} per warp.
 * Invariant: the top entry is the path that runs; a path is popped when its pc
 * reaches its reconvergence pc or its mask empties, so the lanes it held
 * continue in the entry below, which waits at that reconvergence pc. */
#include "interp_priv.h"

#include <stdlib.h>

/* Successors of instruction i in the forward graph (n = the exit node). */
static int succs(const ptx_function *fn, int i, int out[2])
{
    const ptx_insn *in = &fn->insns[i];
    int n = fn->ninsns, k = 0;
    bool guarded = in->guard >= 0;
    switch (in->op) {
    case PTX_BRA:
        if (in->nopnd > 0 && in->opnd[0].kind == PTX_OPND_LABEL) out[k++] = in->opnd[0].target;
        if (guarded) out[k++] = i + 1 <= n ? i + 1 : n;
        return k;
    case PTX_RET: case PTX_EXIT: case PTX_TRAP:
        out[k++] = n;
        if (guarded) out[k++] = i + 1;
        return k;
    default:
        out[k++] = i + 1;
        return k;
    }
}

/* Cooper, Harvey and Kennedy's iterative dominator algorithm, run on the
 * reverse graph from the exit node: the dominators found are post-dominators. */
int sim_simt_ipdom(const ptx_function *fn, int32_t *ipdom)
{
    int n = fn->ninsns, N = n + 1;
    int *npred = calloc((size_t)N + 1, sizeof *npred);     /* reverse-graph successors = forward preds */
    int *po = malloc((size_t)N * sizeof *po);              /* postorder number per node, -1 unseen */
    int *order = malloc((size_t)N * sizeof *order);        /* nodes by postorder */
    int *stack = malloc((size_t)N * 2 * sizeof *stack);
    int *doms = malloc((size_t)N * sizeof *doms);
    int *adj = NULL;
    if (!npred || !po || !order || !stack || !doms) goto oom;
    /* forward predecessor lists in CSR form */
    for (int i = 0; i < n; i++) {
        int s[2], k = succs(fn, i, s);
        for (int j = 0; j < k; j++) npred[s[j] + 1]++;
    }
    for (int i = 0; i < N; i++) npred[i + 1] += npred[i];
    adj = malloc((size_t)(npred[N] ? npred[N] : 1) * sizeof *adj);
    if (!adj) goto oom;
    {
        int *fill = calloc((size_t)N, sizeof *fill);
        if (!fill) goto oom;
        for (int i = 0; i < n; i++) {
            int s[2], k = succs(fn, i, s);
            for (int j = 0; j < k; j++) adj[npred[s[j]] + fill[s[j]]++] = i;
        }
        free(fill);
    }
    /* iterative DFS from exit over predecessors, numbering in postorder */
    for (int i = 0; i < N; i++) { po[i] = -1; doms[i] = -1; }
    int cnt = 0, sp = 0;
    char *seen = calloc((size_t)N, 1);
    if (!seen) goto oom;
    stack[sp++] = n; stack[sp++] = 0; seen[n] = 1;
    while (sp) {
        int v = stack[sp - 2], *e = &stack[sp - 1];
        if (npred[v] + *e < npred[v + 1]) {
            int u = adj[npred[v] + (*e)++];
            if (!seen[u]) { seen[u] = 1; stack[sp++] = u; stack[sp++] = 0; }
        } else {
            po[v] = cnt; order[cnt++] = v; sp -= 2;
        }
    }
    free(seen);
    doms[n] = n;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int k = cnt - 2; k >= 0; k--) {         /* reverse postorder, root excluded */
            int b = order[k], s[2], ns = b < n ? succs(fn, b, s) : 0, nd = -1;
            for (int j = 0; j < ns; j++) {
                int p = s[j];
                if (doms[p] < 0) continue;
                if (nd < 0) { nd = p; continue; }
                int x = p, y = nd;
                while (x != y) {
                    while (po[x] < po[y]) x = doms[x];
                    while (po[y] < po[x]) y = doms[y];
                }
                nd = x;
            }
            if (nd >= 0 && doms[b] != nd) { doms[b] = nd; changed = true; }
        }
    }
    /* nodes that cannot reach the exit (endless loops) never reconverge */
    for (int i = 0; i < n; i++) ipdom[i] = doms[i] >= 0 ? doms[i] : n;
    free(npred); free(po); free(order); free(stack); free(doms); free(adj);
    return 0;
oom:
    free(npred); free(po); free(order); free(stack); free(doms); free(adj);
    return -1;
}

static void push(sim_warp *w, int pc, int rpc, uint32_t mask)
{
    sim_simt_entry *e = &w->stack[w->sp++];
    e->pc = pc; e->rpc = rpc; e->mask = mask;
}

/* The not-taken (fall-through) path runs first, then the taken one: pushed in
 * reverse. The capacity check is done by the caller's settle/cap sizing. */
int sim_simt_branch(sim_warp *w, int pc, int target, int ipdom, uint32_t taken, uint32_t fall)
{
    sim_simt_entry *top = &w->stack[w->sp - 1];
    if (!fall) { top->pc = target; return 0; }
    if (!taken) { top->pc = pc + 1; return 0; }
    if (w->sp + 2 > w->cap) return -1;
    if (ipdom == top->rpc) {
        /* both halves reconverge where this path already does: replace it */
        w->sp--;
    } else {
        top->pc = ipdom;                 /* this entry now waits for both halves */
    }
    push(w, target, ipdom, taken);
    push(w, pc + 1, ipdom, fall);
    return 0;
}

void sim_simt_exit(sim_warp *w, uint32_t lanes)
{
    w->live &= ~lanes;
    for (int i = 0; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}

/* Calls (exec_call.c): a called function's paths are the entries from w->floor up;
 * the caller's, below, wait. Leaving a called function removes lanes from its
 * paths only. */
void sim_simt_return(sim_warp *w, uint32_t lanes)
{
    if (w->floor == 0) { sim_simt_exit(w, lanes); return; }
    for (int i = w->floor; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}

bool sim_simt_settle(sim_warp *w)
{
    while (w->sp > w->floor) {                   /* the running function's paths only */
        sim_simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask == 0) { w->sp--; continue; }
        if (t->pc != t->rpc) return true;
        /* reconverging at the function's exit is leaving it */
        if (t->pc == w->exit_node) sim_simt_return(w, t->mask);
        w->sp--;
    }
    return false;
}

/* Siblings (the two halves of one divergent branch) share a reconvergence pc
 * and sit next to each other; the entry that waits for them has its pc there. */
bool sim_simt_yield_at_barrier(sim_warp *w, const sim_program *p, int pc)
{
    if (w->sp - 2 < w->floor) return false;      /* no sibling inside the running function */
    sim_simt_entry *top = &w->stack[w->sp - 1], *sib = &w->stack[w->sp - 2];
    if (sib->rpc != top->rpc || sib->pc == sib->rpc || sib->mask == 0) return false;
    if (sib->pc == pc) {                         /* both halves at this barrier: one path again */
        sib->mask |= top->mask;
        w->sp--;
        return true;
    }
    if (sib->pc < p->n && p->insns[sib->pc].cls == SIM_CLS_BAR) return false; /* parked elsewhere */
    sim_simt_entry t = *top;                     /* park this half under its sibling */
    *top = *sib;
    *sib = t;
    return true;
}

bool sim_simt_others_leave(const sim_warp *w, const sim_program *p, uint32_t m)
{
    uint32_t missing = w->live & ~m;
    for (int i = 0; i < w->sp - 1; i++) {
        const sim_simt_entry *e = &w->stack[i];
        if (!(e->mask & missing)) continue;
        if (i < w->floor) return false;          /* waiting in a caller: not known to leave */
        if (e->pc < p->n && !p->insns[e->pc].leaves_quietly) return false;
    }
    return true;
}

void sim_simt_leaves_quietly(const ptx_function *fn, sim_program *p)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        uint8_t k = p->insns[i].cls;
        p->insns[i].leaves_quietly = k == SIM_CLS_ALU || k == SIM_CLS_NOP || k == SIM_CLS_BRA || k == SIM_CLS_EXIT;
    }
    bool changed = true;
    while (changed) {                            /* greatest fixed point, backwards */
        changed = false;
        for (int i = n - 1; i >= 0; i--) {
            if (!p->insns[i].leaves_quietly) continue;
            int s[2], k = succs(fn, i, s);
            for (int j = 0; j < k; j++)
                if (s[j] < n && !p->insns[s[j]].leaves_quietly) {
                    p->insns[i].leaves_quietly = false;
                    changed = true;
                    break;
                }
        }
    }
}
