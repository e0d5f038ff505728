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

bool sim_simt_settle(sim_warp *w)
{
    while (w->sp > 0) {
        sim_simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask == 0 || t->pc == t->rpc) w->sp--;
        else return true;
    }
    return false;
}
