/* sass_unroll.c - the runs of an unrolled loop's SASS blocks (see sass_unroll.h).
 * Which PTX loop a SASS block repeats is read from its memory instructions alone: their
 * (source line, space, operation, width) counts are a whole multiple of the PTX body's, whose
 * accesses are counted as the SASS instructions they became (four ld.shared.f32 merged into
 * one LDS.128 are one). Where two PTX loops fit (matmul_naive's 4x body and its 1x remainder
 * both load line 48), the one with the larger body, i.e. the fewer copies, is taken: ptxas
 * copies a body, it does not cut one. The memory matching (sass_map.c) is not used for this:
 * it may pair a remainder loop's load with a copy in the main loop, which leaves the counters
 * right but says nothing about which block is which.
 * Expected workload: a few loops and a few dozen blocks per kernel. */
#include "sass_unroll.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int line;
    int space, op, width;
    int n;
} key;

#define MAX_KEYS 64

static bool never_runs(const ws_sass_insn *s) { return s->guard == 7 && s->guard_neg; } /* @!PT */

static bool is_mem(const ws_sass_insn *s) { return s->space && !s->spill && !never_runs(s); }

static int key_find(const key *k, int nk, const ws_sass_insn *s)
{
    for (int i = 0; i < nk; i++)
        if (k[i].line == s->line && k[i].space == (int)s->space && k[i].op == (int)s->op && k[i].width == s->width)
            return i;
    return -1;
}

/* The PTX body's accesses [h, t] as the SASS they became; returns the number of keys, 0 when
 * the body has none, -1 when it has more than MAX_KEYS. */
static int body_keys(const ws_sass_plan *p, int h, int t, key *k)
{
    int nk = 0;
    for (int pc = h; pc <= t; pc++) {
        const ws_sass_pcmap *pm = &p->pc[pc];
        if (pm->sass < 0 || (pm->action != WS_MAP_PASS && pm->action != WS_MAP_CARRY)) continue;
        const ws_sass_insn *s = &p->sf->insns[pm->sass];
        int i = key_find(k, nk, s);
        if (i < 0) {
            if (nk == MAX_KEYS) return -1;
            i = nk++;
            k[i] = (key){s->line, (int)s->space, (int)s->op, s->width, 0};
        }
        k[i].n += pm->per_exec > 1 ? pm->per_exec : 1; /* one wmma execution is per_exec of them */
    }
    return nk;
}

/* The copies of the body (keys k) SASS block b holds: m when every memory instruction of b
 * has a key of the body and each key's count is m times the body's; 0 otherwise. */
static int copies_in(const ws_sass_function *sf, int b, const key *k, int nk)
{
    int cnt[MAX_KEYS] = {0};
    const ws_sass_block *B = &sf->blocks[b];
    bool any = false;
    for (int i = B->first; i < B->first + B->n; i++) {
        const ws_sass_insn *s = &sf->insns[i];
        if (!is_mem(s)) continue;
        int j = key_find(k, nk, s);
        if (j < 0) return 0;
        cnt[j]++;
        any = true;
    }
    if (!any || cnt[0] % k[0].n) return 0;
    int m = cnt[0] / k[0].n;
    for (int j = 1; j < nk; j++)
        if (cnt[j] != m * k[j].n) return 0;
    return m;
}

static bool padding(const ws_sass_function *sf, int b)
{
    const ws_sass_insn *first = &sf->insns[sf->blocks[b].first];
    return first->is_branch && !(first->guard >= 0 && !(first->guard == 7 && !first->guard_neg)) &&
           first->target == sf->blocks[b].first;
}

int ws_sass_unroll_plan(ws_sass_plan *p, const int *pdepth)
{
    const ptx_function *fn = p->fn;
    const ws_sass_function *sf = p->sf;
    int n = fn->ninsns, nb = sf->nblocks;
    p->block_loop = malloc((size_t)(nb ? nb : 1) * sizeof *p->block_loop);
    p->block_mult = calloc((size_t)(nb ? nb : 1), sizeof *p->block_mult);
    p->loops = calloc((size_t)(n ? n : 1), sizeof *p->loops);
    bool *target = calloc((size_t)(n ? n : 1), sizeof *target);
    int *best_m = malloc((size_t)(nb ? nb : 1) * sizeof *best_m);
    key *keys = malloc(MAX_KEYS * sizeof *keys);
    if (!p->block_loop || !p->block_mult || !p->loops || !target || !best_m || !keys) {
        free(target); free(best_m); free(keys);
        return -1;
    }
    for (int b = 0; b < nb; b++) p->block_loop[b] = -1, best_m[b] = 0;
    for (int pc = 0; pc < n; pc++)
        for (int k = 0; fn->insns[pc].op == PTX_BRA && k < fn->insns[pc].nopnd; k++)
            if (fn->insns[pc].opnd[k].kind == PTX_OPND_LABEL && fn->insns[pc].opnd[k].target >= 0 &&
                fn->insns[pc].opnd[k].target < n)
                target[fn->insns[pc].opnd[k].target] = true;
    /* candidate loops: a backward bra at t to h with no branch, exit or other entry in between */
    for (int t = 0; t < n; t++) {
        const ptx_insn *in = &fn->insns[t];
        if (in->op != PTX_BRA) continue;
        int h = -1;
        for (int k = 0; k < in->nopnd; k++)
            if (in->opnd[k].kind == PTX_OPND_LABEL && in->opnd[k].target >= 0 && in->opnd[k].target <= t)
                h = in->opnd[k].target;
        if (h < 0) continue;
        bool straight = true;
        for (int q = h; q < t && straight; q++) {
            ptx_opcode op = fn->insns[q].op;
            straight = op != PTX_BRA && op != PTX_RET && op != PTX_EXIT && (q == h || !target[q]);
        }
        if (!straight || target[t]) continue;
        int nk = body_keys(p, h, t, keys);
        if (nk <= 0) continue;
        int li = p->nloops;
        for (int b = 0; b < nb; b++) {
            const ws_sass_block *B = &sf->blocks[b];
            if (B->cold || padding(sf, b)) continue;
            /* a copy lies in the loop (a SASS loop of its own) or just outside it (straight copies) */
            if (B->loop_depth != pdepth[h] && B->loop_depth != pdepth[h] - 1) continue;
            int m = copies_in(sf, b, keys, nk);
            if (m && (!best_m[b] || m < best_m[b])) { best_m[b] = m; p->block_loop[b] = li; }
        }
        int blocks = 0;
        for (int b = 0; b < nb; b++) blocks += p->block_loop[b] == li;
        if (!blocks) continue;
        ws_sass_loop *L = &p->loops[p->nloops++];
        L->head = h;
        L->tail = t;
        L->depth = pdepth[h];
        if (h > 0 && fn->insns[h - 1].op != PTX_BRA && fn->insns[h - 1].op != PTX_RET && fn->insns[h - 1].op != PTX_EXIT)
            L->entry = WS_LOOP_ENTRY_PREV;
        else if (t + 1 < n && !target[t + 1]) L->entry = WS_LOOP_ENTRY_EXIT;
        else L->entry = WS_LOOP_ENTRY_WARPS;
    }
    /* a later loop may have taken blocks from an earlier one: count what each kept */
    for (int li = 0; li < p->nloops; li++) {
        int most = 0;
        bool unit1 = false;
        for (int b = 0; b < nb; b++)
            if (p->block_loop[b] == li) {
                most = best_m[b] > most ? best_m[b] : most;
                unit1 |= best_m[b] == 1;
            }
        /* a straight-line single copy is the last of ptxas's remainder copies (matMulShared: a loop
         * over 4, then 2, then 1) only beside larger copies; alone it is a peeled iteration,
         * which its own access anchors */
        for (int b = 0; b < nb && most < 2; b++)
            if (p->block_loop[b] == li && sf->blocks[b].loop_depth != p->loops[li].depth) p->block_loop[b] = -1;
        if (!unit1 || p->loops[li].entry == WS_LOOP_ENTRY_WARPS) p->insns_approximate = true;
    }
    for (int b = 0; b < nb; b++) p->block_mult[b] = p->block_loop[b] >= 0 ? best_m[b] : 0;
    free(target);
    free(best_m);
    free(keys);
    return 0;
}

uint64_t ws_sass_unroll_split(uint64_t n, const int *mult, const bool *loop, int nunits, uint64_t *runs)
{
    for (int k = 0; k < nunits; k++) {
        uint64_t m = (uint64_t)mult[k];
        runs[k] = m == 0 ? 0 : loop[k] ? n / m : n >= m ? 1 : 0;
        n -= runs[k] * m;
    }
    return n;
}

/* Entries of loop L: the times a warp came into its head from outside. */
static uint64_t entries(const ws_sass_plan *p, const ws_sass_loop *L, const uint64_t *c)
{
    switch (L->entry) {
    case WS_LOOP_ENTRY_PREV: return c[L->head - 1];
    case WS_LOOP_ENTRY_EXIT: /* head runs = entries + taken back edges; taken = tail runs - exits */
        return c[L->head] + c[L->tail + 1] >= c[L->tail] ? c[L->head] + c[L->tail + 1] - c[L->tail] : 0;
    default: return p->fn->ninsns > 0 ? c[0] : 0;
    }
}

/* The block b falls into, when b runs only to enter the SASS loop at b + 1 of loop li's unit
 * (mult, loop): b holds no memory instruction and no jump, and nothing but that loop's own
 * back edge branches to b + 1 (ptxas's preheaders: `PLOP3` before matmul_naive's 4-copy loop,
 * the address set-up before its remainder loop). */
static bool preheader_of(const ws_sass_plan *p, int b, int li)
{
    const ws_sass_function *sf = p->sf;
    if (b + 1 >= sf->nblocks || p->block_loop[b] >= 0 || p->block_loop[b + 1] != li) return false;
    const ws_sass_block *B = &sf->blocks[b], *N = &sf->blocks[b + 1];
    if (B->cold || N->loop_depth != p->loops[li].depth) return false;
    for (int i = B->first; i < B->first + B->n; i++)
        if (is_mem(&sf->insns[i])) return false;
    const ws_sass_insn *last = &sf->insns[B->first + B->n - 1];
    if (last->is_branch && !(last->guard >= 0 && !(last->guard == 7 && !last->guard_neg))) return false;
    for (int i = 0; i < sf->ninsns; i++) {
        const ws_sass_insn *s = &sf->insns[i];
        if (!s->is_branch || s->target != N->first || i == B->first + B->n - 1) continue;
        int from = s->block;
        if (p->block_loop[from] != li || p->block_mult[from] != p->block_mult[b + 1] ||
            sf->blocks[from].loop_depth != N->loop_depth)
            return false;
    }
    return true;
}

void ws_sass_unroll_runs(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t *out)
{
    const ws_sass_function *sf = p->sf;
    for (int li = 0; li < p->nloops; li++) {
        const ws_sass_loop *L = &p->loops[li];
        /* units: (copies, loop or straight) of the loop's blocks, largest first; blocks of one
         * unit (a SASS loop body in several blocks) run together */
        int mult[64];
        bool loop[64];
        int nu = 0, depth = L->depth;
        for (int b = 0; b < sf->nblocks; b++) {
            if (p->block_loop[b] != li) continue;
            int m = p->block_mult[b];
            bool lp = sf->blocks[b].loop_depth == depth;
            int at = 0;
            while (at < nu && (mult[at] > m || (mult[at] == m && loop[at] && !lp))) at++;
            if (at < nu && mult[at] == m && loop[at] == lp) continue;
            if (nu == 64) break;
            memmove(&mult[at + 1], &mult[at], (size_t)(nu - at) * sizeof *mult);
            memmove(&loop[at + 1], &loop[at], (size_t)(nu - at) * sizeof *loop);
            mult[at] = m;
            loop[at] = lp;
            nu++;
        }
        uint64_t iters = pc_warp_count[L->head], e = entries(p, L, pc_warp_count);
        uint64_t lo[64] = {0}, hi[64] = {0};
        uint64_t q = e ? iters / e : 0, r = e ? iters % e : 0; /* r entries run one iteration more */
        ws_sass_unroll_split(q, mult, loop, nu, lo);
        ws_sass_unroll_split(q + 1, mult, loop, nu, hi);
        for (int b = 0; b < sf->nblocks; b++) {
            int k = 0;
            bool pre = preheader_of(p, b, li);
            int at = pre ? b + 1 : b;
            if (p->block_loop[at] != li) continue;
            bool lp = sf->blocks[at].loop_depth == depth;
            while (k < nu && !(mult[k] == p->block_mult[at] && loop[k] == lp)) k++;
            if (k == nu) continue;
            if (pre) out[b] = (e - r) * (lo[k] > 0) + r * (hi[k] > 0); /* once per entry the loop runs in */
            else out[b] = (e - r) * lo[k] + r * hi[k];
        }
    }
}
