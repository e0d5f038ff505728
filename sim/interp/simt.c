/* simt.c - reconvergence: where the paths of each divergent branch and each
 * loop meet again (post-dominators per loop level with the paths that leave
 * the kernel or the loop left out, as ptxas places BSSY/BSYNC; docs/interp.md),
 * and the SIMT stack of {pc, reconvergence pc, mask} per warp.
 * Invariant: the top entry is the path that runs; an entry waiting at a join
 * holds the lanes of every path above it bound for that join. A path is popped
 * when its pc reaches its reconvergence pc (or an enclosing path's: a break)
 * or its mask empties, so its lanes continue in the entry waiting there. */
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

/* Leaving instructions: every path from them reaches the exit through
 * branches, ret, exit and trap only, i.e. they do nothing but leave (the
 * kernel's shared `ret` block and the bra.uni chains into it). Greatest fixed
 * point, so a quiet endless loop counts too: its lanes never meet anyone. */
static void mark_leaving(const ptx_function *fn, char *leaving)
{
    int n = fn->ninsns;
    for (int i = 0; i < n; i++) {
        ptx_opcode op = fn->insns[i].op;
        leaving[i] = op == PTX_RET || op == PTX_EXIT || op == PTX_TRAP ||
                     (op == PTX_BRA && fn->insns[i].nopnd > 0 && fn->insns[i].opnd[0].kind == PTX_OPND_LABEL);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = n - 1; i >= 0; i--) {
            if (!leaving[i]) continue;
            int s[2], k = succs(fn, i, s);
            for (int j = 0; j < k; j++)
                if (s[j] < n && !leaving[s[j]]) { leaving[i] = 0; changed = true; break; }
        }
    }
}

/* --- the analysis ----------------------------------------------------------
 * Loops are found from the back edges of a depth-first walk (nvcc's PTX is
 * reducible, so they are its natural loops) and nest. Each loop body is one
 * level, the whole function another. At a level, the graph is the level's
 * instructions (leaving ones excluded) plus two nodes: CONT, the header again
 * (the back edges), and END, every way out of the level: to a leaving
 * instruction, the exit, or outside the body (a break). A branch's join is
 * where its two sides meet in the graph of its innermost level: their nearest
 * common post-dominator (root END) when there is one; when a path escapes to
 * END on the way, the nearest common post-dominator of the points where the
 * paths that do meet first enter the part J that both sides reach. A side
 * that goes straight to END does not hold the other up: the join is the other
 * side. A loop's join is the join of its exit targets, one level up; exits
 * that never meet (each stores and returns, say) give the loop no join. (ptxas
 * then puts the loop's BSYNC at one of them by its own heuristics: for the
 * same PTX shape it picks either; docs/interp.md.) */

typedef struct {
    const ptx_function *fn;
    int n;
    const char *leaving;
    int nloops;
    int *head;          /* loop -> header pc */
    int *parent;        /* loop -> enclosing loop, -1 = the function */
    int *loop_of;       /* pc -> innermost loop, -1 = none */
    /* one level's graph, rebuilt per level */
    int m;              /* its instructions; CONT = m, END = m + 1 */
    int *pc_of;         /* local id -> pc */
    int *local;         /* pc -> local id, -1 = not at this level */
    int *succ;          /* local id -> 2 successors (-1 = none) */
    int *po, *doms;     /* post-dominators of the level (root END), -1 = cannot reach END */
    int *rpred, *radj, *order, *stack;
    int *r1, *r2, *seen, *queue, stamp;
} simt_cfg;

static bool in_loop(const simt_cfg *g, int L, int pc)
{
    if (L < 0) return true;
    for (int k = g->loop_of[pc]; k >= 0; k = g->parent[k])
        if (k == L) return true;
    return false;
}

/* Where the edge to pc goes in level L's graph. */
static int lnode(const simt_cfg *g, int L, int pc)
{
    int m = g->m;
    if (pc >= g->n || g->leaving[pc]) return m + 1;
    if (L >= 0 && pc == g->head[L]) return m;
    return g->local[pc] >= 0 ? g->local[pc] : m + 1;
}

static int nca(const simt_cfg *g, int x, int y)
{
    while (x != y) {
        while (g->po[x] < g->po[y]) x = g->doms[x];
        while (g->po[y] < g->po[x]) y = g->doms[y];
    }
    return x;
}

/* Builds level L's graph and its post-dominators (Cooper, Harvey and
 * Kennedy's iterative algorithm on the reverse graph from END). */
static void build_level(simt_cfg *g, int L)
{
    int m = 0, n = g->n;
    for (int pc = 0; pc < n; pc++) {
        g->local[pc] = -1;
        if (!g->leaving[pc] && in_loop(g, L, pc)) { g->local[pc] = m; g->pc_of[m++] = pc; }
    }
    if (L >= 0) {                                /* the header is CONT, not a node of the body */
        g->local[g->head[L]] = -1;
        int k = 0;
        for (int i = 0; i < m; i++)
            if (g->pc_of[i] != g->head[L]) g->pc_of[k++] = g->pc_of[i];
        m = k;
        for (int i = 0; i < m; i++) g->local[g->pc_of[i]] = i;
        g->pc_of[m] = g->head[L];
    }
    g->m = m;
    int M = m + 2, CONT = m, END = m + 1;
    for (int v = 0; v < M; v++) g->succ[2 * v] = g->succ[2 * v + 1] = -1;
    for (int v = 0; v < m; v++) {
        int s[2], k = succs(g->fn, g->pc_of[v], s);
        for (int j = 0; j < k; j++) g->succ[2 * v + j] = lnode(g, L, s[j]);
        if (k == 2 && g->succ[2 * v] == g->succ[2 * v + 1]) g->succ[2 * v + 1] = -1;
    }
    if (L >= 0) g->succ[2 * CONT] = END;
    /* reverse graph in CSR form */
    for (int v = 0; v <= M; v++) g->rpred[v] = 0;
    for (int v = 0; v < M; v++)
        for (int j = 0; j < 2; j++) if (g->succ[2 * v + j] >= 0) g->rpred[g->succ[2 * v + j] + 1]++;
    for (int v = 0; v < M; v++) g->rpred[v + 1] += g->rpred[v];
    for (int v = 0; v < M; v++) g->seen[v] = 0;
    for (int v = 0; v < M; v++)
        for (int j = 0; j < 2; j++) {
            int w = g->succ[2 * v + j];
            if (w >= 0) g->radj[g->rpred[w] + g->seen[w]++] = v;
        }
    /* postorder of a depth-first walk from END over predecessors */
    for (int v = 0; v < M; v++) { g->po[v] = -1; g->doms[v] = -1; g->seen[v] = 0; }
    int cnt = 0, sp = 0;
    g->stack[sp++] = END; g->stack[sp++] = 0; g->seen[END] = 1;
    while (sp) {
        int v = g->stack[sp - 2], *e = &g->stack[sp - 1];
        if (g->rpred[v] + *e < g->rpred[v + 1]) {
            int u = g->radj[g->rpred[v] + (*e)++];
            if (!g->seen[u]) { g->seen[u] = 1; g->stack[sp++] = u; g->stack[sp++] = 0; }
        } else {
            g->po[v] = cnt; g->order[cnt++] = v; sp -= 2;
        }
    }
    g->doms[END] = END;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int k = cnt - 2; k >= 0; k--) {     /* reverse postorder, root excluded */
            int b = g->order[k], nd = -1;
            for (int j = 0; j < 2; j++) {
                int p = g->succ[2 * b + j];
                if (p < 0 || g->doms[p] < 0) continue;
                nd = nd < 0 ? p : nca(g, p, nd);
            }
            if (nd >= 0 && g->doms[b] != nd) { g->doms[b] = nd; changed = true; }
        }
    }
    for (int v = 0; v < M; v++) g->seen[v] = g->r1[v] = g->r2[v] = 0;
    g->stamp = 0;
}

/* Marks (with the current stamp) what v reaches at this level, END excluded. */
static void reach(simt_cfg *g, int v, int *mark)
{
    int END = g->m + 1, qh = 0, qt = 0;
    mark[v] = g->stamp;
    g->queue[qt++] = v;
    while (qh < qt) {
        int u = g->queue[qh++];
        for (int j = 0; j < 2; j++) {
            int w = g->succ[2 * u + j];
            if (w >= 0 && w != END && mark[w] != g->stamp) { mark[w] = g->stamp; g->queue[qt++] = w; }
        }
    }
}

/* Where paths from a and b (local nodes) meet at this level; END = nowhere. */
static int join2(simt_cfg *g, int a, int b)
{
    int END = g->m + 1;
    if (a == b) return a;
    if (a == END) return b;                      /* that side only leaves */
    if (b == END) return a;
    if (g->doms[a] >= 0 && g->doms[b] >= 0) {
        int x = nca(g, a, b);
        if (x != END) return x;                  /* every path meets there */
    }
    g->stamp++;
    reach(g, a, g->r1);
    reach(g, b, g->r2);
    int join = -1, qh = 0, qt = 0, side[2] = { a, b };
    for (int k = 0; k < 2; k++)
        if (g->seen[side[k]] != g->stamp) { g->seen[side[k]] = g->stamp; g->queue[qt++] = side[k]; }
    while (qh < qt) {                            /* first nodes of J on the paths from a and b */
        int v = g->queue[qh++];
        if (g->r1[v] == g->stamp && g->r2[v] == g->stamp) {
            if (g->doms[v] < 0) return END;      /* J is an endless loop */
            join = join < 0 ? v : nca(g, join, v);
            continue;
        }
        for (int j = 0; j < 2; j++) {
            int w = g->succ[2 * v + j];
            if (w >= 0 && w != END && g->seen[w] != g->stamp) { g->seen[w] = g->stamp; g->queue[qt++] = w; }
        }
    }
    return join < 0 ? END : join;
}

static int32_t pc_of_join(const simt_cfg *g, int x)
{
    return x == g->m + 1 ? SIM_NO_JOIN : g->pc_of[x];     /* CONT's pc_of is the header */
}

/* Depth-first walk from pc 0 over non-leaving instructions: back edges give
 * the loop headers; each body is the header plus what reaches a back edge's
 * source backwards without passing the header. Innermost loop per pc. */
static int find_loops(simt_cfg *g, int *tmp)
{
    int n = g->n, *state = tmp, *stack = g->stack, sp = 0, *isback = g->r1;
    for (int i = 0; i < n; i++) { state[i] = 0; isback[i] = -1; g->loop_of[i] = -1; }
    int *back_src = g->queue, nback = 0;         /* (source, header) pairs, at most 2n */
    if (n == 0) return 0;
    stack[sp++] = 0; stack[sp++] = 0; state[0] = 1;
    while (sp) {
        int v = stack[sp - 2], *e = &stack[sp - 1], s[2], k = succs(g->fn, v, s);
        if (*e < k) {
            int w = s[(*e)++];
            if (w >= n || g->leaving[w]) continue;
            if (state[w] == 1) { back_src[2 * nback] = v; back_src[2 * nback + 1] = w; nback++; }
            else if (state[w] == 0) { state[w] = 1; stack[sp++] = w; stack[sp++] = 0; }
        } else {
            state[v] = 2; sp -= 2;
        }
    }
    /* loops by header */
    g->nloops = 0;
    for (int b = 0; b < nback; b++) {
        int h = back_src[2 * b + 1];
        if (isback[h] < 0) { isback[h] = g->nloops; g->head[g->nloops++] = h; }
    }
    if (!g->nloops) return 0;
    /* predecessors over non-leaving instructions, CSR in rpred/radj */
    for (int i = 0; i <= n; i++) g->rpred[i] = 0;
    for (int i = 0; i < n; i++) {
        if (g->leaving[i]) continue;
        int s[2], k = succs(g->fn, i, s);
        for (int j = 0; j < k; j++) if (s[j] < n && !g->leaving[s[j]]) g->rpred[s[j] + 1]++;
    }
    for (int i = 0; i < n; i++) g->rpred[i + 1] += g->rpred[i];
    for (int i = 0; i < n; i++) g->seen[i] = 0;
    for (int i = 0; i < n; i++) {
        if (g->leaving[i]) continue;
        int s[2], k = succs(g->fn, i, s);
        for (int j = 0; j < k; j++)
            if (s[j] < n && !g->leaving[s[j]]) g->radj[g->rpred[s[j]] + g->seen[s[j]]++] = i;
    }
    /* body sizes, then bodies from the largest down, so the innermost loop wins */
    int *size = g->r2, *body = g->po;            /* po: body marks, stamped by loop + 1 */
    for (int i = 0; i < n; i++) body[i] = 0;
    for (int pass = 0; pass < 2; pass++) {
        int *rank = g->doms;                     /* loops by size, descending (pass 1) */
        if (pass == 1) {
            for (int a = 0; a < g->nloops; a++) rank[a] = a;
            for (int a = 1; a < g->nloops; a++)  /* insertion sort: few loops */
                for (int b = a; b > 0 && size[rank[b]] > size[rank[b - 1]]; b--) {
                    int t = rank[b]; rank[b] = rank[b - 1]; rank[b - 1] = t;
                }
            for (int i = 0; i < n; i++) body[i] = 0;
        }
        for (int a = 0; a < g->nloops; a++) {
            int L = pass == 1 ? rank[a] : a, h = g->head[L], qt = 0, cnt = 1, mk = (pass + 1) * (g->nloops + 1) + L;
            if (pass == 1) g->parent[L] = g->loop_of[h];
            body[h] = mk;
            for (int b = 0; b < nback; b++)
                if (back_src[2 * b + 1] == h && body[back_src[2 * b]] != mk) {
                    body[back_src[2 * b]] = mk; g->seen[qt++] = back_src[2 * b]; cnt++;
                }
            while (qt) {
                int v = g->seen[--qt];
                for (int e = g->rpred[v]; e < g->rpred[v + 1]; e++) {
                    int u = g->radj[e];
                    if (body[u] != mk) { body[u] = mk; g->seen[qt++] = u; cnt++; }
                }
            }
            if (pass == 0) { size[L] = cnt; continue; }
            for (int i = 0; i < n; i++) if (body[i] == mk) g->loop_of[i] = L;
        }
    }
    return 0;
}

int sim_simt_joins(const ptx_function *fn, int32_t *ipdom, int32_t *loop_join)
{
    int n = fn->ninsns, N = n + 3;
    simt_cfg g = { .fn = fn, .n = n };
    char *leaving = calloc((size_t)N, 1);
    int *pool = calloc((size_t)N * 26, sizeof *pool);
    if (!leaving || !pool) { free(leaving); free(pool); return -1; }
    g.leaving = leaving;
    int *q = pool;
    g.head = q; q += N;    g.parent = q; q += N;   g.loop_of = q; q += N;
    g.pc_of = q; q += N;   g.local = q; q += N;    g.succ = q; q += 2 * N;
    g.po = q; q += N;      g.doms = q; q += N;     g.rpred = q; q += N + 1;
    g.radj = q; q += 2 * N; g.order = q; q += N;   g.stack = q; q += 2 * N;
    g.r1 = q; q += N;      g.r2 = q; q += N;       g.seen = q; q += N;
    g.queue = q; q += 4 * N;                    /* also find_loops' back-edge pairs */
    int *tmp = q;
    mark_leaving(fn, leaving);
    find_loops(&g, tmp);
    for (int i = 0; i < n; i++) { ipdom[i] = SIM_NO_JOIN; loop_join[i] = SIM_NO_JOIN; }
    for (int L = -1; L < g.nloops; L++) {
        build_level(&g, L);
        for (int i = 0; i < n; i++) {
            const ptx_insn *in = &fn->insns[i];
            if (g.local[i] < 0 || g.loop_of[i] != L || in->op != PTX_BRA || in->guard < 0 || in->nopnd < 1 ||
                in->opnd[0].kind != PTX_OPND_LABEL)
                continue;
            ipdom[i] = pc_of_join(&g, join2(&g, lnode(&g, L, in->opnd[0].target), lnode(&g, L, i + 1)));
        }
        /* the header's own branch, if it is one, belongs to its loop's level */
        if (L >= 0) {
            int h = g.head[L];
            const ptx_insn *in = &fn->insns[h];
            if (in->op == PTX_BRA && in->guard >= 0 && in->nopnd > 0 && in->opnd[0].kind == PTX_OPND_LABEL &&
                g.loop_of[h] == L)
                ipdom[h] = pc_of_join(&g, join2(&g, lnode(&g, L, in->opnd[0].target), lnode(&g, L, h + 1)));
        }
        for (int C = 0; C < g.nloops; C++) {     /* loops one level down: where their exits meet */
            if (g.parent[C] != L) continue;
            int acc = -1;
            for (int u = 0; u < n; u++) {
                if (leaving[u] || !in_loop(&g, C, u)) continue;
                int s[2], k = succs(fn, u, s);
                for (int j = 0; j < k; j++) {
                    if (s[j] < n && !leaving[s[j]] && in_loop(&g, C, s[j])) continue;
                    int t = lnode(&g, L, s[j]);
                    acc = acc < 0 ? t : join2(&g, acc, t);
                }
            }
            loop_join[g.head[C]] = acc < 0 ? SIM_NO_JOIN : pc_of_join(&g, acc);
        }
    }
    free(leaving);
    free(pool);
    return 0;
}

/* Pushes a path, or adds its lanes to the entry on top when that one waits to
 * run from the same pc to the same reconvergence pc: two such paths are one
 * (lanes that left a loop in different iterations without a join, say). */
static void push(sim_warp *w, int pc, int rpc, uint32_t mask)
{
    if (w->sp > 0) {
        sim_simt_entry *t = &w->stack[w->sp - 1];
        if (t->pc == pc && t->rpc == rpc) { t->mask |= mask; return; }
    }
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
    if (ipdom == SIM_NO_JOIN) ipdom = top->rpc;   /* the sides never meet: both keep this path's join */
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
 * the caller's, below, wait (and their pcs are another function's). Leaving a called
 * function removes lanes from its paths only. */
void sim_simt_return(sim_warp *w, uint32_t lanes)
{
    if (w->floor == 0) { sim_simt_exit(w, lanes); return; }
    for (int i = w->floor; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}

/* Index of the nearest entry below the top whose reconvergence pc is pc, -1; only
 * the running function's entries. */
static int enclosing_join(const sim_warp *w, int pc)
{
    for (int i = w->sp - 2; i >= w->floor; i--)
        if (w->stack[i].rpc == pc) return i;
    return -1;
}

int sim_simt_check(const sim_warp *w)
{
    if (w->floor < 0 || w->floor > w->sp || w->sp > w->cap) return 1;
    for (int i = 0; i < w->sp; i++) {
        const sim_simt_entry *e = &w->stack[i];
        if (e->mask & ~w->live) return 2;
        if (i >= w->floor && (e->pc < 0 || e->pc > w->exit_node || e->rpc < -1 || e->rpc > w->exit_node)) return 3;
    }
    return 0;
}

static bool settled(const sim_warp *w, bool runnable)
{
    WS_ASSERT(sim_simt_check(w) == 0);
    return runnable;
}

bool sim_simt_settle(sim_warp *w, const sim_program *p)
{
    while (w->sp > w->floor) {                   /* the running function's paths only */
        sim_simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask == 0) { w->sp--; continue; }
        if (t->pc == t->rpc) {
            /* reconverging at the function's exit is leaving it */
            if (t->pc == w->exit_node) sim_simt_return(w, t->mask);
            w->sp--;
            continue;
        }
        /* A path at the join of an enclosing region (a break out of a loop or
         * of an if whose join is further in): its lanes leave the regions in
         * between, like SASS's BREAK, and wait in the entry below, which holds
         * them already. */
        int k = w->sp > 1 ? enclosing_join(w, t->pc) : -1;
        if (k >= 0) {
            for (int i = k; i < w->sp - 1; i++) w->stack[i].mask &= ~t->mask;
            w->sp--;
            continue;
        }
        /* Entering a loop (its header, with no entry yet waiting where its
         * lanes meet after it): the path waits there while a copy runs the
         * loop, as BSSY before a loop does, so lanes that leave the loop in
         * different iterations wait for each other. */
        if (t->pc < p->n) {
            int32_t j = p->insns[t->pc].loop_join;
            if (j != SIM_NO_JOIN && j != t->rpc && enclosing_join(w, j) < 0 && w->sp < w->cap) {
                int pc = t->pc;
                uint32_t m = t->mask;
                t->pc = j;
                sim_simt_entry *e = &w->stack[w->sp++];
                e->pc = pc; e->rpc = j; e->mask = m;
            }
        }
        return settled(w, true);
    }
    return settled(w, false);
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
