/* sass_map.c - matching PTX memory instructions to SASS ones (see sass_map.h).
 * Matching runs in rounds, strictest first, each on what the previous left over:
 *   1 same line, space and kind: tiles by base register and offset (exact merges),
 *   2 the same with generic PTX/SASS addressing allowed to meet a specific space,
 *   3 same space and kind on any line (ptxas attributed the access to a neighbour line),
 *   3b a line's accesses again where a SASS access is left over: ptxas widened them (cover_round),
 *   4 same line, space and kind by order (approximate),
 *   5 same space and kind by order on any line (approximate).
 * Expected workload: a few hundred memory instructions per kernel; rounds are quadratic
 * per group, which stays far below the cost of one simulated block. */
#include "sass_map.h"
#include "sass_unroll.h"

#include "../../common/demangle.h"
#include "../../common/desc_text.h"
#include "../interp/fragments.h"
#include "../models/pipes.h"
#include "../models/timing.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_GENERIC, SP_NONE } spc;
typedef enum { OK_LD, OK_ST, OK_ATOM, OK_NONE } opk;

typedef struct {
    int idx;           /* PTX pc or SASS index */
    spc sp;
    opk op;
    int width;
    char base[40];     /* PTX: "r<slot>" / "s<sym>" / ""; SASS: register text */
    int64_t off;
    int line;
    bool used;
} acc;

static spc space_of_ptx(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return SP_GLOBAL;
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return SP_SHARED;
    case PTX_SPACE_LOCAL: return SP_LOCAL;
    case PTX_SPACE_NONE: return SP_GENERIC;
    default: return SP_NONE;
    }
}

static spc sass_space(ws_sass_space s)
{
    switch (s) {
    case WS_SASS_SP_GLOBAL: return SP_GLOBAL;
    case WS_SASS_SP_SHARED: return SP_SHARED;
    case WS_SASS_SP_LOCAL: return SP_LOCAL;
    case WS_SASS_SP_GENERIC: return SP_GENERIC;
    default: return SP_NONE;
    }
}

/* The PTX access of pc, or false when it is not one the memory models see. */
static bool ptx_access(const ptx_function *fn, int pc, acc *a)
{
    const ptx_insn *in = &fn->insns[pc];
    memset(a, 0, sizeof *a);
    a->idx = pc;
    int mem;
    switch (in->op) {
    case PTX_LD: case PTX_LDU: a->op = OK_LD; mem = 1; break;
    case PTX_ST: a->op = OK_ST; mem = 0; break;
    case PTX_ATOM: a->op = OK_ATOM; mem = 1; break;
    case PTX_RED: a->op = OK_ATOM; mem = 0; break;
    default: return false;
    }
    a->sp = space_of_ptx(in->space);
    if (a->sp == SP_NONE || mem >= in->nopnd || in->opnd[mem].kind != PTX_OPND_MEM) return false;
    const ptx_operand *m = &in->opnd[mem];
    a->width = ptx_type_size(in->type) * (in->vec ? in->vec : 1);
    if (m->base_kind == PTX_OPND_REG) snprintf(a->base, sizeof a->base, "r%d", m->reg);
    else if (m->base_kind == PTX_OPND_SYM) snprintf(a->base, sizeof a->base, "s%d", m->sym);
    a->off = m->imm;
    a->line = in->src_line;
    return true;
}

static bool sass_guarded(const ws_sass_insn *s) { return s->guard >= 0 && !(s->guard == 7 && !s->guard_neg); }

/* ---- matching -------------------------------------------------------------------- */

typedef struct {
    const ptx_function *fn;
    const ws_sass_function *sf;
    ws_sass_plan *p;
    acc *P, *S;
    int nP, nS;
    int *tile;         /* scratch: P indices of one tile */
} matcher;

static int cmp_off(const void *a, const void *b)
{
    const acc *x = *(const acc *const *)a, *y = *(const acc *const *)b;
    return x->off < y->off ? -1 : x->off > y->off ? 1 : x->idx - y->idx;
}

/* P indices (into m->P) whose accesses exactly tile [start, start + w) among the unused
 * ones of base `base` that pass `in_group`; returns their number, 0 when they do not. */
typedef bool (*group_fn)(const acc *p, const acc *s);

static int tile_at(matcher *m, const acc *s, const char *base, int64_t start, group_fn in_group, int *out)
{
    const acc *cand[16];
    int nc = 0;
    for (int i = 0; i < m->nP; i++) { /* P is in pc order */
        const acc *q = &m->P[i];
        if (q->used || strcmp(q->base, base) || !in_group(q, s)) continue;
        if (q->off + q->width <= start || q->off >= start + s->width) continue;
        if (q->off < start || q->off + q->width > start + s->width) return 0;
        /* two PTX accesses at one offset are alternatives (if/else branches, repeated
         * stores): the first in pc order goes with this SASS access, the other waits */
        bool dup = false;
        for (int k = 0; k < nc && !dup; k++) dup = cand[k]->off == q->off && cand[k]->width == q->width;
        if (dup) continue;
        if (nc == 16) return 0;
        cand[nc++] = q;
    }
    if (!nc) return 0;
    qsort(cand, (size_t)nc, sizeof cand[0], cmp_off);
    int64_t at = start;
    for (int i = 0; i < nc; i++) {
        if (cand[i]->off != at) return 0; /* a gap or an overlap */
        at += cand[i]->width;
        out[i] = (int)(cand[i] - m->P);
    }
    return at == start + s->width ? nc : 0;
}

static void assign(matcher *m, int si, const int *pis, int n, bool by_order)
{
    acc *s = &m->S[si];
    const ws_sass_insn *sin = &m->sf->insns[s->idx];
    s->used = true;
    /* the carrier is the lowest-addressed PTX access (the tile is sorted by offset) */
    for (int k = 0; k < n; k++) {
        acc *q = &m->P[pis[k]];
        q->used = true;
        ws_sass_pcmap *pm = &m->p->pc[q->idx];
        pm->action = n == 1 ? WS_MAP_PASS : k == 0 ? WS_MAP_CARRY : WS_MAP_ABSORBED;
        pm->sass = s->idx;
        pm->width = sin->width;
        pm->op = sin->op;
        pm->by_order = by_order;
        if (by_order) m->p->st.by_order++;
    }
    m->p->sass_pc[s->idx] = m->P[pis[0]].idx;
    if (n > 1) {
        m->p->st.merges++;
        m->p->st.merged_ptx += n;
    }
}

/* Round of tiling: each SASS base class against each PTX base class and shift. */
static void tile_round(matcher *m, group_fn in_group)
{
    int *best = m->tile, cur[16];
    for (int si = 0; si < m->nS; si++) {
        if (m->S[si].used) continue;
        const acc *s = &m->S[si];
        int group = 0;
        for (int pi = 0; pi < m->nP; pi++) group += !m->P[pi].used && in_group(&m->P[pi], s);
        if (group > 512) continue; /* the order rounds take a group this large */
        /* candidate (PTX base, shift) pairs: every unused PTX access of the group as the
         * start of s; the pair that tiles the most accesses of s's base class wins */
        int best_n = 0, best_base = -1;
        int64_t best_shift = 0;
        for (int pi = 0; pi < m->nP; pi++) {
            const acc *q = &m->P[pi];
            if (q->used || !in_group(q, s)) continue;
            int64_t shift = q->off - s->off;
            bool seen = false;
            for (int pj = 0; pj < pi && !seen; pj++)
                seen = !m->P[pj].used && in_group(&m->P[pj], s) && !strcmp(m->P[pj].base, q->base) &&
                       m->P[pj].off - s->off == shift;
            if (seen) continue;
            int count = 0;
            for (int sj = 0; sj < m->nS; sj++) {
                const acc *t = &m->S[sj];
                if (t->used || strcmp(t->base, s->base) || t->sp != s->sp || t->op != s->op || t->line != s->line)
                    continue;
                if (tile_at(m, t, q->base, t->off + shift, in_group, cur)) count++;
            }
            if (count > best_n) { best_n = count; best_base = pi; best_shift = shift; }
        }
        if (!best_n) continue;
        char base[40];
        snprintf(base, sizeof base, "%s", m->P[best_base].base);
        for (int sj = 0; sj < m->nS; sj++) {
            acc *t = &m->S[sj];
            if (t->used || strcmp(t->base, s->base) || t->sp != s->sp || t->op != s->op) continue;
            int n = tile_at(m, t, base, t->off + best_shift, in_group, best);
            if (n) assign(m, sj, best, n, false);
        }
    }
}

/* Undoes assign() for SASS access si (its PTX accesses are free again). */
static void unassign(matcher *m, int si)
{
    acc *s = &m->S[si];
    int n = 0;
    for (int pi = 0; pi < m->nP; pi++) {
        acc *q = &m->P[pi];
        ws_sass_pcmap *pm = &m->p->pc[q->idx];
        if (!q->used || pm->sass != s->idx) continue;
        if (pm->by_order) m->p->st.by_order--;
        memset(pm, 0, sizeof *pm);
        pm->sass = -1;
        q->used = false;
        n++;
    }
    if (n > 1) {
        m->p->st.merges--;
        m->p->st.merged_ptx -= n;
    }
    m->p->sass_pc[s->idx] = -1;
    s->used = false;
}

/* Round of widened accesses: ptxas may widen a run of narrow loads to a vector load that also
 * takes bytes no PTX access of the run reads (eight 4-byte loads at +4 .. +32 of a shared
 * window as LDS.128 [+0], LDS.128 [+16], LDS [+32]: demos/cluster.cu's block_sum, where +0 is
 * another variable). Exact tiling then pairs the first eight at the wrong shift and leaves
 * LDS [+32] without PTX. For a SASS access left over, the SASS accesses of its line, space,
 * kind and base and the PTX accesses of one base there are matched again at the shift where
 * every PTX access lies inside one SASS access and every SASS access holds one: each SASS
 * access then carries the PTX accesses inside it (`widened` where it starts before them). */
static void cover_round(matcher *m)
{
    int sg[16], pg[64], pick[64];
    for (int si = 0; si < m->nS; si++) {
        const acc *s = &m->S[si];
        if (s->used || s->sp == SP_LOCAL) continue;
        int ns = 0;
        for (int sj = 0; sj < m->nS; sj++) {
            const acc *t = &m->S[sj];
            if (t->sp == s->sp && t->op == s->op && t->line == s->line && !strcmp(t->base, s->base)) {
                if (ns == 16) { ns = 0; break; }
                sg[ns++] = sj;
            }
        }
        if (ns < 2) continue;
        /* the PTX side: one base, each access unused or carried by a SASS access of sg */
        for (int pbase = 0; pbase < m->nP; pbase++) {
            const acc *b = &m->P[pbase];
            if (b->line != s->line || b->sp != s->sp || b->op != s->op) continue;
            int np = 0;
            bool ok = true, first = true;
            for (int pi = 0; pi < m->nP && ok; pi++) {
                const acc *q = &m->P[pi];
                if (q->line != s->line || q->sp != s->sp || q->op != s->op || strcmp(q->base, b->base)) continue;
                if (pi < pbase) { first = false; break; } /* this base was tried from its first access */
                if (q->used) {
                    int carrier = m->p->pc[q->idx].sass, in = 0;
                    for (int k = 0; k < ns; k++) in |= m->S[sg[k]].idx == carrier;
                    if (!in) continue;
                }
                for (int k = 0; k < np; k++) ok &= m->P[pg[k]].off != q->off; /* alternatives: leave them */
                if (np == 64) ok = false;
                else pg[np++] = pi;
            }
            if (!first || !ok || np < ns) continue;
            /* candidate shifts (PTX offset - SASS offset): each place of the first PTX access in a SASS access */
            const acc *q0 = &m->P[pg[0]];
            for (int k = 0; k < ns; k++) {
                const acc *t = &m->S[sg[k]];
                for (int d = 0; d + q0->width <= t->width; d += q0->width) {
                    int64_t shift = q0->off - (t->off + d);
                    int held[16] = {0};
                    bool fits = true;
                    for (int j = 0; j < np && fits; j++) {
                        const acc *q = &m->P[pg[j]];
                        int64_t at = q->off - shift;
                        pick[j] = -1;
                        for (int h = 0; h < ns; h++) {
                            const acc *u = &m->S[sg[h]];
                            if (at >= u->off && at + q->width <= u->off + u->width) { pick[j] = h; break; }
                        }
                        fits = pick[j] >= 0;
                        if (fits) held[pick[j]]++;
                    }
                    for (int h = 0; h < ns && fits; h++) fits = held[h] > 0;
                    if (!fits) continue;
                    for (int h = 0; h < ns; h++)
                        if (m->S[sg[h]].used) unassign(m, sg[h]);
                    for (int h = 0; h < ns; h++) {
                        int tile[16], n = 0;
                        for (int j = 0; j < np; j++)
                            if (pick[j] == h && n < 16) tile[n++] = pg[j];
                        for (int a = 1; a < n; a++) /* lowest offset first: the carrier */
                            for (int c = a; c > 0 && m->P[tile[c]].off < m->P[tile[c - 1]].off; c--) {
                                int x = tile[c]; tile[c] = tile[c - 1]; tile[c - 1] = x;
                            }
                        assign(m, sg[h], tile, n, false);
                        m->p->pc[m->P[tile[0]].idx].widened = m->P[tile[0]].off - shift > m->S[sg[h]].off;
                    }
                    goto next;
                }
            }
        }
    next:;
    }
}

/* Round by order: SASS accesses in address order take PTX accesses in pc order until
 * their widths add up to the SASS width. */
static void order_round(matcher *m, group_fn in_group)
{
    int pis[16];
    for (int si = 0; si < m->nS; si++) {
        acc *s = &m->S[si];
        if (s->used) continue;
        int n = 0, sum = 0;
        for (int pi = 0; pi < m->nP && sum < s->width && n < 16; pi++) {
            acc *q = &m->P[pi];
            if (q->used || !in_group(q, s) || sum + q->width > s->width) continue;
            pis[n++] = pi;
            sum += q->width;
        }
        if (n && sum == s->width) assign(m, si, pis, n, true);
    }
}

static bool same_line_space(const acc *p, const acc *s) { return p->line == s->line && p->sp == s->sp && p->op == s->op; }
static bool same_line_compat(const acc *p, const acc *s)
{
    return p->line == s->line && p->op == s->op && (p->sp == s->sp || p->sp == SP_GENERIC || s->sp == SP_GENERIC);
}
static bool same_space(const acc *p, const acc *s) { return p->sp == s->sp && p->op == s->op; }

/* ---- anchors --------------------------------------------------------------------- */

static void ptx_loop_depth(const ptx_function *fn, int *depth)
{
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op != PTX_BRA) continue;
        for (int k = 0; k < in->nopnd; k++)
            if (in->opnd[k].kind == PTX_OPND_LABEL && in->opnd[k].target <= pc && in->opnd[k].target >= 0)
                for (int q = in->opnd[k].target; q <= pc; q++) depth[q]++;
    }
}

/* The trailing "BRA self" ptxas pads a function with (never executed). */
static bool padding_block(const ws_sass_function *sf, int b)
{
    const ws_sass_block *B = &sf->blocks[b];
    const ws_sass_insn *first = &sf->insns[B->first];
    return first->is_branch && !sass_guarded(first) && first->target == B->first;
}

/* True when the SASS has a conditional branch or exit at source line `line` (the PTX
 * branch of that line stayed a branch). */
static bool sass_branches_at(const ws_sass_function *sf, int line)
{
    for (int i = 0; i < sf->ninsns; i++)
        if (sf->insns[i].is_branch && sf->insns[i].line == line && sass_guarded(&sf->insns[i])) return true;
    return false;
}

/* The PTX branch an if-converted access was behind: the nearest guarded bra before pc at
 * its loop depth. *nested: another guarded branch, if-converted too (no SASS branch at its
 * line), skips over that one: the inner branch then runs less often than the SASS block. */
static int controlling_branch(const ptx_function *fn, const ws_sass_function *sf, int pc, const int *pdepth,
                              bool *nested)
{
    *nested = false;
    int b = -1;
    for (int q = pc - 1; q >= 0 && b < 0; q--) {
        if (pdepth[q] < pdepth[pc]) return -1; /* left the loop */
        if (fn->insns[q].op == PTX_BRA && fn->insns[q].guard >= 0 && pdepth[q] == pdepth[pc]) b = q;
    }
    for (int q = b - 1; q >= 0 && b >= 0; q--) {
        if (pdepth[q] < pdepth[pc]) break;
        const ptx_insn *in = &fn->insns[q];
        if (in->op != PTX_BRA || in->guard < 0) continue;
        for (int k = 0; k < in->nopnd; k++)
            if (in->opnd[k].kind == PTX_OPND_LABEL && in->opnd[k].target > b && !sass_branches_at(sf, in->src_line))
                *nested = true;
    }
    return b;
}

/* A SASS instruction that is the one translation of one PTX instruction (no memory access):
 * `DEPBAR.LE SB0, N` of `cp.async.wait_group N` (`cp.async.wait_all`: N = 0), `BAR.SYNC N` of
 * `bar.sync N` / `barrier.sync N`. Returns that PTX pc where the line holds exactly one such PTX
 * instruction, unpredicated, and the listing exactly one such SASS instruction at that line (so
 * neither side was unrolled or duplicated), else -1. */
static int one_for_one_pc(const ws_sass_plan *p, int i)
{
    const ws_sass_function *sf = p->sf;
    const ptx_function *fn = p->fn;
    const ws_sass_insn *s = &sf->insns[i];
    if (sass_guarded(s) || s->guard >= 0 || !s->line) return -1;
    long n = -1;
    bool depbar = !strcmp(s->opcode, "DEPBAR.LE"), bar = !strncmp(s->opcode, "BAR.SYNC", 8);
    if (!depbar && !bar) return -1;
    const char *q = depbar ? strstr(s->text, "SB0,") : s->text + strcspn(s->text, " ");
    if (!q || (depbar && !(q += 4))) return -1;
    char *end;
    n = strtol(q, &end, 0);
    if (end == q || n < 0 || (*end && *end != ' ' && *end != ',')) return -1;
    if (bar && *end == ',') return -1;                 /* BAR.SYNC id, count: not the plain form */
    int found = -1, nptx = 0, nsass = 0;
    for (int k = 0; k < sf->ninsns; k++)
        nsass += sf->insns[k].line == s->line && !strcmp(sf->insns[k].text, s->text);
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->src_line != s->line) continue;
        bool same;
        if (depbar)
            same = (in->op == PTX_CP_WAIT && in->nopnd >= 1 && in->opnd[0].kind == PTX_OPND_IMM && in->opnd[0].imm == n) ||
                   (in->op == PTX_CP_WAIT_ALL && n == 0);
        else
            same = in->op == PTX_BAR && in->bar == PTX_BAR_SYNC && !(in->flags & PTX_F_WARP) && in->nopnd == 1 &&
                   in->opnd[0].kind == PTX_OPND_IMM && in->opnd[0].imm == n;
        if (!same) continue;
        nptx++;
        if (in->guard < 0) found = pc;
    }
    return nptx == 1 && nsass == 1 ? found : -1;
}

/* The PTX pc after the one guarded branch to a `ret`/`exit` at source line `line` (an early return,
 * `if (row >= M) return;`), where that pc is reached only by falling through it: it runs once for
 * every warp (or diverged part) that goes on, as the block after a SASS `@P0 EXIT` of that line does.
 * -1 where the line holds no such branch, or more than one. */
static int pc_after_exit_branch(const ptx_function *fn, int line)
{
    int found = -1, n = 0;
    for (int pc = 0; pc + 1 < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op != PTX_BRA || in->guard < 0 || in->src_line != line) continue;
        for (int k = 0; k < in->nopnd; k++) {
            int t = in->opnd[k].kind == PTX_OPND_LABEL ? in->opnd[k].target : -1;
            if (t >= 0 && t < fn->ninsns && (fn->insns[t].op == PTX_RET || fn->insns[t].op == PTX_EXIT)) {
                n++;
                found = pc + 1;
            }
        }
    }
    if (n != 1) return -1;
    for (int pc = 0; pc < fn->ninsns; pc++) {     /* a branch target too: entered another way */
        const ptx_insn *in = &fn->insns[pc];
        for (int k = 0; in->op == PTX_BRA && k < in->nopnd; k++)
            if (in->opnd[k].kind == PTX_OPND_LABEL && in->opnd[k].target == found) return -1;
    }
    return found;
}

static void anchor_blocks(ws_sass_plan *p, const int *pdepth)
{
    const ws_sass_function *sf = p->sf;
    const ptx_function *fn = p->fn;
    for (int b = 0; b < sf->nblocks; b++) {
        const ws_sass_block *B = &sf->blocks[b];
        p->block_anchor[b] = -1;
        if (padding_block(sf, b) || B->cold) continue;
        for (int i = B->first; i < B->first + B->n; i++) { /* (a) an unpredicated access of its own */
            const ws_sass_insn *s = &sf->insns[i];
            int pc = p->sass_pc[i];
            if (!s->space || pc < 0 || sass_guarded(s) || fn->insns[pc].guard >= 0 || p->pc[pc].by_order ||
                p->pc[pc].unrolled)
                continue;
            p->block_anchor[b] = pc;
            p->block_exact[b] = true;
            break;
        }
        for (int i = B->first; i < B->first + B->n && p->block_anchor[b] < 0; i++) { /* (a'') a one-for-one instruction */
            int pc = one_for_one_pc(p, i);
            if (pc < 0) continue;
            p->block_anchor[b] = pc;
            p->block_exact[b] = true;
        }
        if (p->block_anchor[b] < 0 && b > 0 && B->loop_depth == 0) { /* (a3) the code after an early exit */
            const ws_sass_block *A = &sf->blocks[b - 1];
            const ws_sass_insn *last = &sf->insns[A->first + A->n - 1];
            int into = 0;                            /* b entered only by falling out of b - 1 */
            for (int a = 0; a < sf->nblocks; a++) {
                int succ[2], ns = ws_sass_successors(sf, a, succ);
                for (int k = 0; k < ns; k++) into += succ[k] == b && a != b - 1;
            }
            int pc = last->is_exit && sass_guarded(last) && last->line && !into && A->loop_depth == 0
                         ? pc_after_exit_branch(fn, last->line) : -1;
            if (pc >= 0 && pdepth[pc] == 0) {
                p->block_anchor[b] = pc;
                p->block_exact[b] = true;
            }
        }
        if (p->block_anchor[b] >= 0) continue;
        if (b == 0 && B->loop_depth == 0 && fn->ninsns > 0) { /* the entry runs once per warp, as PTX pc 0 */
            p->block_anchor[b] = 0;
            p->block_exact[b] = true;
            continue;
        }
        for (int i = B->first; i < B->first + B->n; i++) { /* (a') the branch an if-converted access was behind */
            const ws_sass_insn *s = &sf->insns[i];
            int pc = p->sass_pc[i];
            if (!s->space || pc < 0 || !sass_guarded(s) || fn->insns[pc].guard >= 0 || p->pc[pc].by_order) continue;
            bool nested;
            int br = controlling_branch(fn, sf, pc, pdepth, &nested);
            if (br < 0 || pdepth[br] != B->loop_depth) continue;
            p->block_anchor[b] = br;
            p->block_exact[b] = !nested;
            break;
        }
        if (p->block_anchor[b] >= 0) {
            if (!p->block_exact[b]) p->st.inexact_anchors++;
            continue;
        }
        /* (b) the PTX instruction of the block's most frequent line at the same loop depth */
        int best_pc = -1, best_votes = 0;
        for (int pass = 0; pass < 2 && best_pc < 0; pass++)
            for (int i = B->first; i < B->first + B->n; i++) {
                int line = sf->insns[i].line, votes = 0, pc_at = -1;
                if (!line) continue;
                for (int k = B->first; k < B->first + B->n; k++) votes += sf->insns[k].line == line;
                if (votes <= best_votes) continue;
                for (int pc = 0; pc < fn->ninsns && pc_at < 0; pc++)
                    if (fn->insns[pc].src_line == line && (pass || pdepth[pc] == B->loop_depth)) pc_at = pc;
                if (pc_at >= 0) { best_pc = pc_at; best_votes = votes; }
            }
        if (best_pc < 0 && B->loop_depth == 0 && fn->ninsns > 0) best_pc = 0;
        p->block_anchor[b] = best_pc;
        p->st.inexact_anchors++;
    }
}

/* ---- tensor-era accesses ------------------------------------------------------------ */

static bool is_tc_access(ptx_opcode op)
{
    return op == PTX_CP_ASYNC || op == PTX_LDMATRIX || op == PTX_STMATRIX || op == PTX_WMMA_LOAD || op == PTX_WMMA_STORE;
}

static void sass_base(const ws_sass_insn *s, char *base, size_t cap)
{
    size_t n = strcspn(s->opcode, ".");
    snprintf(base, cap, "%.*s", (int)n, s->opcode);
}

/* LDGSTS, LDSM and STSM are the tensor-era instructions' own: never a plain access's SASS. */
static bool tc_only_sass(const ws_sass_insn *s)
{
    char b[24];
    sass_base(s, b, sizeof b);
    return !strcmp(b, "LDGSTS") || !strcmp(b, "LDSM") || !strcmp(b, "STSM");
}

/* Can SASS access s be (part of) what the tensor-era PTX access in became? */
static bool tc_fits(const ptx_insn *in, const ws_sass_insn *s)
{
    if (!s->space || s->spill) return false;
    char b[24];
    sass_base(s, b, sizeof b);
    switch (in->op) {
    case PTX_CP_ASYNC: return !strcmp(b, "LDGSTS");
    case PTX_LDMATRIX: return !strcmp(b, "LDSM");
    case PTX_STMATRIX: return !strcmp(b, "STSM");
    default: break;
    }
    bool load = in->op == PTX_WMMA_LOAD;
    if (!strcmp(b, "LDGSTS") || (load ? s->op != WS_SASS_OP_LD : s->op != WS_SASS_OP_ST)) return false;
    if (s->space == WS_SASS_SP_GENERIC || in->space == PTX_SPACE_NONE) return s->space != WS_SASS_SP_LOCAL;
    return in->space == PTX_SPACE_GLOBAL ? s->space == WS_SASS_SP_GLOBAL : s->space == WS_SASS_SP_SHARED;
}

/* The fragment's form and element size, as exec_matrix.c lays it out: the instruction's shape and
 * its type's size in memory (s8/u8 1 byte, f16/bf16 2, f64 8; tf32 is an f32 there, f32 and s32 4),
 * so a u8 A fragment of m16n16k16 is 8 bytes a lane (ptxas: two LDG.E), not an f16's 16. */
static ws_frag_form wmma_form(const ptx_insn *in, char *which, int *esz)
{
    *which = in->tc.frag == 'd' ? 'c' : in->tc.frag;
    switch (in->tc.dtype) {
    case PTX_MT_S8: case PTX_MT_U8: *esz = 1; break;
    case PTX_MT_F16: case PTX_MT_BF16: *esz = 2; break;
    case PTX_MT_F64: *esz = 8; break;
    default: *esz = 4; break;
    }
    ws_frag_form f = {in->tc.m, in->tc.n, in->tc.k, *esz * 8, *esz * 8, true};
    return f;
}

/* A sub-byte fragment's element bits (.s4/.u4 4, .b1 1), 0 for the others. */
static int subbyte_bits(const ptx_insn *in)
{
    return ptx_mma_type_subbyte(in->tc.dtype) ? ptx_mma_type_bits(in->tc.dtype) : 0;
}

/* Bytes of memory one lane's fragment covers (the distinct elements, as exec_matrix.c moves them). */
static int wmma_lane_bytes(const ptx_insn *in)
{
    char which;
    int esz;
    ws_frag_form f = wmma_form(in, &which, &esz);
    if (subbyte_bits(in)) return 4;              /* one 32-bit word of elements */
    return ws_frag_elems(&f, which) * esz;
}

void ws_sass_wmma_rows(const ptx_insn *in, int *rows, int *row_bytes)
{
    char which;
    int esz, r, c;
    ws_frag_form f = wmma_form(in, &which, &esz);
    ws_frag_dims(&f, which, &r, &c);
    bool rowmajor = in->tc.alayout == 'r';
    *rows = rowmajor ? r : c;
    *row_bytes = subbyte_bits(in) ? (rowmajor ? c : r) * subbyte_bits(in) / 8 : (rowmajor ? c : r) * esz;
}

/* The SASS accesses one execution of tensor-era PTX access in becomes, given the first one s. */
static int tc_per_exec(const ptx_insn *in, const ws_sass_insn *s, uint8_t *form)
{
    *form = WS_TC_FORM_NONE;
    if (in->op != PTX_WMMA_LOAD && in->op != PTX_WMMA_STORE) return 1;
    char b[24];
    sass_base(s, b, sizeof b);
    int bytes = wmma_lane_bytes(in);
    if (!strcmp(b, "LDSM") || !strcmp(b, "STSM")) {
        *form = b[0] == 'L' ? WS_TC_FORM_LDSM : WS_TC_FORM_STSM;
        int regs = (bytes + 3) / 4, per = s->width / 4; /* matrices per instruction (.x1/.x2/.x4) */
        return per ? (regs + per - 1) / per : 1;
    }
    *form = WS_TC_FORM_PLAIN;
    return s->width ? (bytes + s->width - 1) / s->width : 1;
}

/* Does the listing hold no more SASS of first's opcode (LDSM, LDGSTS, ...; outside a diverged warp's
 * path) than per times the function's tensor-era PTX accesses of in's kind? Then ptxas copied none. */
static bool tc_no_surplus(const ws_sass_plan *p, const ptx_insn *in, const ws_sass_insn *first, int per)
{
    char b[24], o[24];
    sass_base(first, b, sizeof b);
    long nsass = 0, nptx = 0;
    for (int i = 0; i < p->sf->ninsns; i++) {
        const ws_sass_insn *s = &p->sf->insns[i];
        if (!s->space || s->spill || p->sf->blocks[s->block].cold) continue;
        sass_base(s, o, sizeof o);
        nsass += !strcmp(o, b);
    }
    for (int q = 0; q < p->fn->ninsns; q++)
        nptx += p->fn->insns[q].op == in->op && p->fn->insns[q].space == in->space;
    return nsass <= per * nptx;
}

/* Gives every tensor-era PTX access the SASS of its line (or, failing that, of any line, in
 * order): the i-th fitting SASS access of a line goes to PTX access (i / per_exec) % k of the
 * k fitting ones there, so an unrolled loop's copies spread over them as the PTX order has it. */
static void tc_match(ws_sass_plan *p, bool any_line)
{
    const ptx_function *fn = p->fn;
    const ws_sass_function *sf = p->sf;
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (!is_tc_access(in->op) || p->pc[pc].action != WS_MAP_NONE) continue;
        int first = -1;
        for (int i = 0; i < sf->ninsns && first < 0; i++)
            if (p->sass_pc[i] < 0 && !sf->blocks[sf->insns[i].block].cold && tc_fits(in, &sf->insns[i]) &&
                (any_line || sf->insns[i].line == in->src_line))
                first = i;
        if (first < 0) continue;
        uint8_t form;
        int per = tc_per_exec(in, &sf->insns[first], &form);
        /* the PTX accesses of this line (pc order) that the same SASS fits */
        int group[64], k = 0;
        for (int q = pc; q < fn->ninsns && k < 64; q++) {
            const ptx_insn *o = &fn->insns[q];
            if (is_tc_access(o->op) && p->pc[q].action == WS_MAP_NONE && o->op == in->op && o->space == in->space &&
                (any_line ? q == pc : o->src_line == in->src_line))
                group[k++] = q;
        }
        /* nvdisasm's lines need not follow the PTX's copies of an unrolled loop (one copy's LDSM listed
         * at the line of another's): where the listing holds no more of this SASS than the PTX's
         * accesses need, a line takes only as many as its PTX accesses use, and what is left over
         * pairs in order below, instead of calling a line's surplus an unrolled copy */
        int cap = any_line ? per : 0;
        if (!any_line && tc_no_surplus(p, in, &sf->insns[first], per)) cap = per * k;
        int seen = 0;
        for (int i = first; i < sf->ninsns; i++) {
            const ws_sass_insn *s = &sf->insns[i];
            if (p->sass_pc[i] >= 0 || sf->blocks[s->block].cold || !tc_fits(in, s) ||
                (!any_line && s->line != in->src_line) || (cap && seen == cap))
                continue;
            int q = group[(seen / per) % k];
            ws_sass_pcmap *pm = &p->pc[q];
            if (pm->action == WS_MAP_NONE) {
                pm->action = WS_MAP_PASS;
                pm->sass = i;
                pm->width = s->width;
                pm->op = s->op;
                pm->form = form;
                pm->per_exec = (uint8_t)per;
                pm->by_order = any_line;
                p->st.tensor_matched++;
                if (any_line) p->st.by_order++;
                p->sass_pc[i] = q;
            } else {
                p->sass_pc[i] = q;
                if (seen >= per * k && !pm->unrolled) { pm->unrolled = true; p->st.unrolled++; }
            }
            seen++;
        }
    }
}

/* ---- the plan -------------------------------------------------------------------- */

void ws_sass_plan_free(ws_sass_plan *p)
{
    if (!p) return;
    free(p->pc);
    free(p->sass_pc);
    free(p->block_anchor);
    free(p->block_exact);
    free(p->block_waterfall);
    free(p->pc_lanes_per_exec);
    free(p->loops);
    free(p->block_loop);
    free(p->block_mult);
    free(p->spills);
    free(p->watch);
    free(p);
}

/* A bulk copy whose operands differ between lanes (a per-thread cp.async.bulk) becomes a SASS
 * loop that serves one lane's copy per pass: ELECT a lane, R2UR its operands into uniform
 * registers, UBLKCP, BRA.U.ANY back while lanes are left (nvdisasm of cuda-samples'
 * LargeChunkAWBarrier; the H200 ran its two such blocks 8 times per warp execution, once per
 * copying lane, results/h200-corpus-detail). Such a block is tied to the bulk copy on its source
 * line; with several on one line the k-th block of the line goes with its k-th copy, and a line
 * whose counts of blocks and copies differ keeps its anchors. */
static void find_waterfalls(ws_sass_plan *p)
{
    const ws_sass_function *sf = p->sf;
    const ptx_function *fn = p->fn;
    p->block_waterfall = malloc((size_t)(sf->nblocks ? sf->nblocks : 1) * sizeof *p->block_waterfall);
    p->pc_lanes_per_exec = calloc((size_t)(fn->ninsns ? fn->ninsns : 1), sizeof *p->pc_lanes_per_exec);
    if (!p->block_waterfall || !p->pc_lanes_per_exec) {
        free(p->block_waterfall);
        free(p->pc_lanes_per_exec);
        p->block_waterfall = NULL;
        p->pc_lanes_per_exec = NULL;
        return;
    }
    for (int b = 0; b < sf->nblocks; b++) {
        p->block_waterfall[b] = -1;
        const ws_sass_block *B = &sf->blocks[b];
        if (B->n < 2 || B->cold) continue;
        const ws_sass_insn *last = &sf->insns[B->first + B->n - 1];
        int succ[2], ns = ws_sass_successors(sf, b, succ);
        bool self = false, copy = false;
        for (int k = 0; k < ns; k++) self |= succ[k] == b;
        for (int i = B->first; i < B->first + B->n; i++) copy |= !strncmp(sf->insns[i].opcode, "UBLKCP", 6);
        if (!self || !copy || strncmp(last->opcode, "BRA.U.ANY", 9)) continue;
        int line = last->line, kth = 0, blocks = 0, copies = 0, pick = -1;
        for (int c = 0; c < sf->nblocks; c++)
            if (c < b && sf->blocks[c].n && sf->insns[sf->blocks[c].first + sf->blocks[c].n - 1].line == line &&
                !strncmp(sf->insns[sf->blocks[c].first + sf->blocks[c].n - 1].opcode, "BRA.U.ANY", 9))
                kth++;
        for (int c = 0; c < sf->nblocks; c++)
            if (sf->blocks[c].n && sf->insns[sf->blocks[c].first + sf->blocks[c].n - 1].line == line &&
                !strncmp(sf->insns[sf->blocks[c].first + sf->blocks[c].n - 1].opcode, "BRA.U.ANY", 9))
                blocks++;
        for (int pc = 0; pc < fn->ninsns; pc++)
            if (fn->insns[pc].op == PTX_CP_BULK && fn->insns[pc].src_line == line) {
                if (copies == kth) pick = pc;
                copies++;
            }
        if (line > 0 && copies == blocks && pick >= 0) p->block_waterfall[b] = pick;
    }
}

ws_sass_plan *ws_sass_map(const ptx_function *fn, const ws_sass_function *sf)
{
    ws_sass_plan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->fn = fn;
    p->sf = sf;
    int n = fn->ninsns, ns = sf->ninsns;
    p->pc = calloc((size_t)(n ? n : 1), sizeof *p->pc);
    p->sass_pc = malloc((size_t)(ns ? ns : 1) * sizeof *p->sass_pc);
    p->block_anchor = calloc((size_t)(sf->nblocks ? sf->nblocks : 1), sizeof *p->block_anchor);
    p->block_exact = calloc((size_t)(sf->nblocks ? sf->nblocks : 1), sizeof *p->block_exact);
    p->spills = calloc((size_t)(ns ? ns : 1), sizeof *p->spills);
    p->watch = calloc((size_t)(n ? n : 1), 1);
    matcher m = {fn, sf, p, calloc((size_t)(n ? n : 1), sizeof(acc)), calloc((size_t)(ns ? ns : 1), sizeof(acc)),
                 0, 0, calloc(16, sizeof(int))};
    int *pdepth = calloc((size_t)(n ? n : 1), sizeof *pdepth);
    if (!p->pc || !p->sass_pc || !p->block_anchor || !p->block_exact || !p->spills || !p->watch ||
        !m.P || !m.S || !m.tile || !pdepth) {
        free(m.P); free(m.S); free(m.tile); free(pdepth);
        ws_sass_plan_free(p);
        return NULL;
    }
    for (int i = 0; i < ns; i++) p->sass_pc[i] = -1;
    for (int pc = 0; pc < n; pc++) {
        p->pc[pc].sass = -1;
        if (ptx_access(fn, pc, &m.P[m.nP])) m.nP++;
    }
    tc_match(p, false);
    tc_match(p, true);
    for (int i = 0; i < ns; i++) {
        const ws_sass_insn *s = &sf->insns[i];
        if (!s->space || s->spill || p->sass_pc[i] >= 0) continue;
        if (tc_only_sass(s)) { /* an LDGSTS / LDSM / STSM no PTX access claimed */
            if (!sf->blocks[s->block].cold) p->st.sass_only++;
            continue;
        }
        acc *a = &m.S[m.nS++];
        a->idx = i;
        a->sp = sass_space(s->space);
        a->op = s->op == WS_SASS_OP_LD ? OK_LD : s->op == WS_SASS_OP_ST ? OK_ST : OK_ATOM;
        a->width = s->width;
        snprintf(a->base, sizeof a->base, "%s", s->base);
        a->off = s->offset;
        a->line = s->line;
    }
    /* PTX and SASS base names differ ("r5" / "R4"): a tile compares offsets within one
     * base of each side, and which PTX base goes with which SASS base is found by the
     * shift search in tile_round, never by name */
    tile_round(&m, same_line_space);
    tile_round(&m, same_line_compat);
    tile_round(&m, same_space);
    cover_round(&m);
    order_round(&m, same_line_space);
    order_round(&m, same_space);

    /* leftovers: SASS copies of an access the PTX has once are unrolled code */
    for (int si = 0; si < m.nS; si++) {
        acc *s = &m.S[si];
        if (s->used) continue;
        const ws_sass_insn *sin = &sf->insns[s->idx];
        if (sf->blocks[sin->block].cold) continue; /* a diverged warp's slow-path copy */
        int copy_of = -1;
        for (int pc = 0; pc < n && copy_of < 0; pc++) {
            const ws_sass_pcmap *pm = &p->pc[pc];
            if (pm->sass < 0 || pm->action == WS_MAP_ABSORBED) continue;
            const ws_sass_insn *t = &sf->insns[pm->sass];
            if (t->line == sin->line && t->space == sin->space && t->op == sin->op && t->width == sin->width) copy_of = pc;
        }
        if (copy_of >= 0) {
            p->pc[copy_of].unrolled = true;
            p->st.unrolled++;
        } else if (sin->space == WS_SASS_SP_LOCAL) {
            p->spills[p->nspills++] = (ws_sass_extra){s->idx, -1, false};
            p->st.stack++;
        } else {
            p->st.sass_only++;
        }
    }
    for (int pi = 0; pi < m.nP; pi++)
        if (!m.P[pi].used) {
            p->pc[m.P[pi].idx].action = WS_MAP_DROPPED;
            p->st.dropped++;
        }
    for (int i = 0; i < ns; i++)
        if (sf->insns[i].spill && sf->insns[i].space) {
            p->spills[p->nspills++] = (ws_sass_extra){i, -1, false};
            if (sf->insns[i].op == WS_SASS_OP_LD) p->st.spill_ld++;
            else p->st.spill_st++;
        }

    ptx_loop_depth(fn, pdepth);
    anchor_blocks(p, pdepth);
    for (int k = 0; k < p->nspills; k++) {
        ws_sass_extra *x = &p->spills[k];
        int b = sf->insns[x->sass].block;
        x->anchor_pc = p->block_anchor[b];
        x->exact = p->block_exact[b];
        if (x->anchor_pc >= 0) p->watch[x->anchor_pc] = 1;
        else p->st.unplaced++;
    }
    for (int i = 0; i < ns; i++) { /* if-converted: predicated in the SASS, branched around in the PTX */
        int pc = p->sass_pc[i];
        if (pc >= 0 && sass_guarded(&sf->insns[i]) && fn->insns[pc].guard < 0) p->st.predicated++;
    }
    /* ptxas's warp aggregation of an atomic on a warp-uniform address (atomicAdd(&count[0], 1):
     * VOTE(U).ANY takes the active mask and POPC counts it; atomicMax(m, v): REDUX reduces the
     * values over the warp), then one elected lane (the guard) performs the warp's operation.
     * Measured on the H200: ncu counts one sector per RED (results/h200-contention.md,
     * g_one_literal_red); g_atomic_max's 2^24 lanes took 400 us, 524288 ops x 0.76 ns */
    for (int i = 0; i < ns; i++) {
        int pc = p->sass_pc[i];
        const ws_sass_insn *s = &sf->insns[i];
        if (pc < 0 || !sass_guarded(s) || fn->insns[pc].guard >= 0 || s->space != WS_SASS_SP_GLOBAL ||
            (s->op != WS_SASS_OP_ATOM && s->op != WS_SASS_OP_RED) || p->pc[pc].action != WS_MAP_PASS)
            continue;
        bool vote = false, popc = false, redux = false;
        for (int j = sf->blocks[s->block].first; j < i; j++) {
            const char *o = sf->insns[j].opcode;
            vote |= !strncmp(o, "VOTEU.ANY", 9) || !strncmp(o, "VOTE.ANY", 8);
            popc |= !strncmp(o, "POPC", 4);
            redux |= !strncmp(o, "REDUX", 5); /* atomicMax(m, v): the warp's max by REDUX, one lane's RED */
        }
        if (((vote && popc) || redux) && !p->pc[pc].aggregated) {
            p->pc[pc].aggregated = true;
            p->st.aggregated++;
        }
    }
    /* unrolled copies leave the memory counters exact when each PTX execution is one SASS
     * execution (what unrolling preserves); they make the instruction count approximate */
    /* a dropped PTX access is exact when every SASS access is accounted for: the machine
     * code has nothing for it (ptxas removed a dead or redundant access) */
    p->approximate = p->st.by_order || p->st.sass_only || p->st.unplaced;
    if (ws_sass_unroll_plan(p, pdepth)) {
        free(m.P); free(m.S); free(m.tile); free(pdepth);
        ws_sass_plan_free(p);
        return NULL;
    }
    /* the issue count is approximate where a block outside the unrolled loops is anchored by
     * line or holds SASS accesses no PTX one became (unrolled copies of no loop found) */
    for (int b = 0; b < sf->nblocks; b++) {
        const ws_sass_block *B = &sf->blocks[b];
        if (p->block_loop[b] >= 0 || B->cold || padding_block(sf, b)) continue;
        if (!p->block_exact[b]) p->insns_approximate = true;
        for (int i = B->first; i < B->first + B->n; i++)
            if (sf->insns[i].space && !sf->insns[i].spill && p->sass_pc[i] < 0 && sf->insns[i].space != WS_SASS_SP_LOCAL)
                p->insns_approximate = true;
    }
    for (int k = 0; k < p->nspills; k++) p->approximate |= !p->spills[k].exact;
    find_waterfalls(p);
    free(m.P);
    free(m.S);
    free(m.tile);
    free(pdepth);
    return p;
}

void ws_sass_plan_summary(const ws_sass_plan *p, char *out, size_t cap)
{
    const ws_sass_map_stats *s = &p->st;
    size_t o = 0;
    out[0] = 0;
#define ADD(...) do { int k_ = snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__); if (k_ > 0) o += (size_t)k_; if (o >= cap) o = cap - 1; } while (0)
    if (s->merges) ADD("%s%d merged access%s (%d PTX accesses)", o ? ", " : "", s->merges, s->merges == 1 ? "" : "es", s->merged_ptx);
    if (s->spill_ld || s->spill_st) ADD("%s%d spill loads, %d spill stores", o ? ", " : "", s->spill_ld, s->spill_st);
    if (s->stack) ADD("%s%d stack accesses", o ? ", " : "", s->stack);
    if (s->predicated) ADD("%s%d predicated (if-converted)", o ? ", " : "", s->predicated);
    if (s->aggregated) ADD("%s%d atomic(s) aggregated over the warp (one lane each)", o ? ", " : "", s->aggregated);
    if (s->unrolled) ADD("%s%d unrolled copies", o ? ", " : "", s->unrolled);
    if (s->dropped) ADD("%s%d PTX accesses removed by ptxas", o ? ", " : "", s->dropped);
    if (s->tensor_matched) ADD("%s%d tensor-core accesses as their LDGSTS/LDSM/STSM/LDG/STG/LDS/STS", o ? ", " : "",
                               s->tensor_matched);
    if (!o) ADD("the machine code has the PTX's memory instructions one for one");
    if (p->approximate) {
        ADD("; approximate:");
        int first = 1;
        if (s->by_order) { ADD("%s %d matched by order", first ? "" : ",", s->by_order); first = 0; }
        if (s->sass_only) { ADD("%s %d SASS accesses without PTX not counted", first ? "" : ",", s->sass_only); first = 0; }
        if (s->unplaced) { ADD("%s %d not placed", first ? "" : ",", s->unplaced); first = 0; }
        if (first) ADD(" spills or predicated accesses placed by source line");
    }
#undef ADD
}

/* Block b's runs outside an unrolled loop: its anchor's warp executions (blocks without one:
 * once per warp), divided by the copies of the anchor's access it holds. */
static uint64_t anchored_runs(const ws_sass_plan *p, int b, const uint64_t *pc_warp_count)
{
    const ws_sass_function *sf = p->sf;
    const ws_sass_block *B = &sf->blocks[b];
    int a = p->block_anchor[b];
    uint64_t execs = a >= 0 ? pc_warp_count[a] : p->fn->ninsns > 0 ? pc_warp_count[0] : 0;
    int copies = 1;
    if (a >= 0 && p->pc[a].unrolled && p->pc[a].sass >= 0) {
        const ws_sass_insn *t = &sf->insns[p->pc[a].sass];
        int n = 0;
        for (int i = B->first; i < B->first + B->n; i++) {
            const ws_sass_insn *s = &sf->insns[i];
            n += s->space == t->space && s->op == t->op && s->width == t->width && s->line == t->line && !s->spill;
        }
        n /= p->pc[a].per_exec > 1 ? p->pc[a].per_exec : 1; /* one wmma execution is per_exec of them */
        copies = n < 1 ? 1 : n;
    }
    return execs / (uint64_t)copies;
}

/* One fact of control flow over the anchored runs, in listing order: a block outside an unrolled
 * loop whose anchor is only a stand-in (block_exact false: a line or loop-depth guess) and whose every
 * predecessor earlier in the listing is known to run 0 times runs 0 times too (a loop entered only
 * from there: ptxas's remainder loop after a body unrolled by 4, entered from a peeled first pass no
 * warp ran; its predecessors later in the listing are taken for the loop's own back edges). Known:
 * an exact anchor that ran 0 times, or a block this rule zeroed - never a stand-in's own 0, which
 * may be a wrong guess (wgmma_gemm's remainder pass, which runs). known[b] is set for the blocks
 * whose runs are facts (an exact anchor, the padding, a block this rule zeroed). */
static void zero_unentered(const ws_sass_plan *p, uint64_t *out, bool *known)
{
    const ws_sass_function *sf = p->sf;
    bool *zero = calloc(sf->nblocks > 0 ? (size_t)sf->nblocks : 1, sizeof *zero);
    if (!zero) return;                           /* out of memory: the anchored runs stand */
    for (int b = 0; b < sf->nblocks; b++) {
        if (padding_block(sf, b)) known[b] = true;
        if (p->block_exact[b]) { zero[b] = out[b] == 0; known[b] = true; continue; }
        if (p->block_loop && p->block_loop[b] >= 0) continue;   /* ws_sass_unroll_runs places these */
        bool entered = false, live = false;
        for (int a = 0; a < b && !live; a++) {
            int succ[2], ns = ws_sass_successors(sf, a, succ);
            for (int k = 0; k < ns; k++)
                if (succ[k] == b) { entered = true; live = live || !zero[a]; }
        }
        if (entered && !live) { out[b] = 0; zero[b] = true; known[b] = true; }
    }
    free(zero);
}

/* True when every run of block b goes on to one of its listed successors: it ends neither in an
 * exit nor in a jump the listing cannot follow (an indirect BRX, a target outside the function). */
static bool leaves_by_successors(const ws_sass_function *sf, int b)
{
    const ws_sass_insn *last = &sf->insns[sf->blocks[b].first + sf->blocks[b].n - 1];
    if (last->is_exit) return false;
    return !last->is_branch || last->is_call || last->target >= 0;
}

/* Flow bounds on the stand-in blocks, from the blocks whose runs are facts (known[]): a warp (or a
 * diverged part of one) that runs block b came from a predecessor and goes on to a successor, so
 *   runs(b) <= sum of its successors' runs      (b leaves only by them)
 *   runs(b) <= sum of its predecessors' runs    (b is not the entry)
 *   runs(b) >= runs(s) of a successor s entered only from b, and >= runs(q) of a predecessor q
 *              that goes on only to b
 * (true with divergence too: each diverged part runs a block once). A stand-in's runs are clamped
 * into these bounds, and a block whose bounds meet becomes known, until nothing changes: a
 * switch's compare-and-branch ladder, all of whose blocks the PTX line's count stands in for, gets
 * from its cases (their exact `DEPBAR.LE SB0, N` anchors) the runs of the path the warps took
 * (the corpus's cuda::pipeline wait_prior<N> switches: cs_async_LargeChunk). */
static void flow_bounds(const ws_sass_plan *p, uint64_t *out, bool *known)
{
    const ws_sass_function *sf = p->sf;
    int nb = sf->nblocks;
    /* predecessors, as lists: pred[pfirst[b] .. pfirst[b + 1]) */
    int *pfirst = calloc((size_t)(nb + 2), sizeof *pfirst), *pred = calloc((size_t)(2 * nb + 1), sizeof *pred);
    if (!pfirst || !pred) { free(pfirst); free(pred); return; }   /* out of memory: the stand-ins stand */
    for (int a = 0; a < nb; a++) {
        int succ[2], ns = ws_sass_successors(sf, a, succ);
        for (int k = 0; k < ns; k++) pfirst[succ[k] + 2]++;
    }
    for (int b = 0; b < nb; b++) pfirst[b + 2] += pfirst[b + 1];
    for (int a = 0; a < nb; a++) {
        int succ[2], ns = ws_sass_successors(sf, a, succ);
        for (int k = 0; k < ns; k++) pred[pfirst[succ[k] + 1]++] = a;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int b = 0; b < nb; b++) {
            if (known[b] || sf->blocks[b].cold || (p->block_loop && p->block_loop[b] >= 0)) continue;
            uint64_t lo = 0, hi = UINT64_MAX;
            int succ[2], ns = ws_sass_successors(sf, b, succ);
            bool all = ns > 0 && leaves_by_successors(sf, b);
            uint64_t sum = 0;
            for (int k = 0; k < ns; k++) {
                if (known[succ[k]]) {
                    sum += out[succ[k]];
                    bool only_b = pfirst[succ[k] + 1] - pfirst[succ[k]] == 1;
                    if (only_b && succ[k] != 0 && out[succ[k]] > lo) lo = out[succ[k]];
                } else all = false;
            }
            if (all) hi = sum;
            if (b != 0 && pfirst[b + 1] > pfirst[b]) {
                bool allp = true;
                uint64_t psum = 0;
                for (int q = pfirst[b]; q < pfirst[b + 1]; q++) {
                    int a = pred[q], sa[2];
                    if (!known[a]) { allp = false; continue; }
                    psum += out[a];
                    if (ws_sass_successors(sf, a, sa) == 1 && leaves_by_successors(sf, a) && out[a] > lo) lo = out[a];
                }
                if (allp && psum < hi) hi = psum;
            }
            if (lo > hi) continue;                       /* the facts disagree: leave the stand-in */
            uint64_t v = out[b] < lo ? lo : out[b] > hi ? hi : out[b];
            if (v != out[b]) { out[b] = v; changed = true; }
            if (lo == hi) { known[b] = true; changed = true; }
        }
    }
    free(pfirst);
    free(pred);
}

static void block_runs(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t *out, bool *known)
{
    const ws_sass_function *sf = p->sf;
    for (int b = 0; b < sf->nblocks; b++)
        out[b] = padding_block(sf, b) || sf->blocks[b].cold ? 0 : anchored_runs(p, b, pc_warp_count);
    zero_unentered(p, out, known);
    ws_sass_unroll_runs(p, pc_warp_count, out);
    for (int b = 0; p->block_waterfall && b < sf->nblocks; b++) {   /* find_waterfalls: a pass per lane */
        int pc = p->block_waterfall[b];
        if (pc < 0 || p->pc_lanes_per_exec[pc] <= 0) continue;
        out[b] = (uint64_t)llround((double)pc_warp_count[pc] * p->pc_lanes_per_exec[pc]);
        known[b] = true;
    }
    flow_bounds(p, out, known);
}

void ws_sass_block_runs(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t *out)
{
    const ws_sass_function *sf = p->sf;
    bool *known = calloc(sf->nblocks > 0 ? (size_t)sf->nblocks : 1, sizeof *known);
    if (!known) {                                /* out of memory: the anchors' runs alone */
        for (int b = 0; b < sf->nblocks; b++)
            out[b] = padding_block(sf, b) || sf->blocks[b].cold ? 0 : anchored_runs(p, b, pc_warp_count);
        return;
    }
    block_runs(p, pc_warp_count, out, known);
    free(known);
}

void ws_sass_guessed(const ws_sass_plan *p, const uint64_t *pc_warp_count, ws_sass_guess *g)
{
    const ws_sass_function *sf = p->sf;
    memset(g, 0, sizeof *g);
    uint64_t *runs = calloc((size_t)(sf->nblocks ? sf->nblocks : 1), sizeof *runs);
    bool *known = calloc((size_t)(sf->nblocks ? sf->nblocks : 1), sizeof *known);
    if (runs && known) {
        block_runs(p, pc_warp_count, runs, known);
        uint64_t most = 0;
        for (int b = 0; b < sf->nblocks; b++) {
            const ws_sass_block *B = &sf->blocks[b];
            /* a fact: an exact anchor, a run the flow fixes, or the unrolled split (its own rule) */
            if (known[b] || B->cold || (p->block_loop && p->block_loop[b] >= 0) || !runs[b]) continue;
            g->blocks++;
            uint64_t here = (uint64_t)B->n * runs[b];
            g->insns += here;
            for (int i = B->first; i < B->first + B->n; i++)
                g->pipe[ws_pipe_of_sass(sf->insns[i].text)] += runs[b] * ws_pipe_units_of_sass(sf->insns[i].text);
            if (here > most) {
                most = here;
                g->line = sf->insns[B->first].line;
                g->addr = sf->insns[B->first].addr;
                g->line_runs = runs[b];
            }
        }
    }
    free(runs);
    free(known);
}

/* Per-block runs into a fresh array (NULL when out of memory: the counts are then 0). */
static uint64_t *runs_of(const ws_sass_plan *p, const uint64_t *pc_warp_count)
{
    uint64_t *r = calloc((size_t)(p->sf->nblocks ? p->sf->nblocks : 1), sizeof *r);
    if (r) ws_sass_block_runs(p, pc_warp_count, r);
    return r;
}

uint64_t ws_sass_warp_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count)
{
    const ws_sass_function *sf = p->sf;
    uint64_t total = 0, *runs = runs_of(p, pc_warp_count);
    for (int b = 0; runs && b < sf->nblocks; b++) total += (uint64_t)sf->blocks[b].n * runs[b];
    free(runs);
    return total;
}

void ws_sass_tensor_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t out[WS_SASS_TENSOR_COUNT])
{
    const ws_sass_function *sf = p->sf;
    for (int t = 0; t < WS_SASS_TENSOR_COUNT; t++) out[t] = 0;
    uint64_t *runs = runs_of(p, pc_warp_count);
    for (int b = 0; runs && b < sf->nblocks; b++) {
        const ws_sass_block *B = &sf->blocks[b];
        for (int i = B->first; i < B->first + B->n; i++) {
            int t = sf->insns[i].tensor;
            if (t == WS_SASS_TENSOR_NONE) continue;
            out[t] += runs[b];
            out[WS_SASS_TENSOR_NONE] += runs[b];
        }
    }
    free(runs);
}

void ws_sass_pipe_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t out[WS_PIPE_COUNT])
{
    const ws_sass_function *sf = p->sf;
    for (int t = 0; t < WS_PIPE_COUNT; t++) out[t] = 0;
    uint64_t *runs = runs_of(p, pc_warp_count);
    for (int b = 0; runs && b < sf->nblocks; b++) {
        const ws_sass_block *B = &sf->blocks[b];
        for (int i = B->first; i < B->first + B->n; i++)   /* wgmma: N/8 units (ws_pipe_units_of_sass) */
            out[ws_pipe_of_sass(sf->insns[i].text)] += runs[b] * ws_pipe_units_of_sass(sf->insns[i].text);
    }
    free(runs);
}

void ws_sass_write_counts(FILE *out, const ws_sass_plan *p, const uint64_t *pc_warp_count)
{
    const ws_sass_function *sf = p->sf;
    uint64_t *runs = runs_of(p, pc_warp_count);
    if (!runs) return;
    char shown[512];
    fprintf(out, "# function %s\n", ws_demangle(sf->name, shown, sizeof shown));
    fprintf(out, "# index\taddr\tblock\truns\tpipe\tanchor_pc\texact\tloop\tline\ttext\n");
    for (int b = 0; b < sf->nblocks; b++) {
        const ws_sass_block *B = &sf->blocks[b];
        for (int i = B->first; i < B->first + B->n; i++)
            fprintf(out, "%d\t0x%04x\t%d\t%llu\t%s\t%d\t%d\t%d\t%d\t%s\n", i, sf->insns[i].addr, b,
                    (unsigned long long)runs[b], ws_pipe_name(ws_pipe_of_sass(sf->insns[i].text)),
                    p->block_anchor[b], p->block_exact[b], p->block_loop ? p->block_loop[b] : -1,
                    sf->insns[i].line, sf->insns[i].text);
    }
    free(runs);
}

/* ---- side by side ----------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void side(FILE *out, const char *left, const char *right, const char *mark)
{
    fprintf(out, "  %-52.52s | %-44.44s %s\n", left, right, mark);
}

void ws_sass_print(FILE *out, const ws_sass_plan *p, const char *source, size_t source_len)
{
    const ptx_function *fn = p->fn;
    const ws_sass_function *sf = p->sf;
    int *lines = malloc((size_t)(fn->ninsns + sf->ninsns + 1) * sizeof *lines);
    if (!lines) return;
    int nl = 0;
    for (int pc = 0; pc < fn->ninsns; pc++)
        if (p->pc[pc].action != WS_MAP_NONE) lines[nl++] = fn->insns[pc].src_line;
    for (int i = 0; i < sf->ninsns; i++)
        if (sf->insns[i].space) lines[nl++] = sf->insns[i].line;
    qsort(lines, (size_t)nl, sizeof *lines, cmp_int);
    char sum[300];
    ws_sass_plan_summary(p, sum, sizeof sum);
    fprintf(out, "machine code: %s\n", sum);
    for (int k = 0; k < nl; k++) {
        if (k && lines[k] == lines[k - 1]) continue;
        int line = lines[k];
        char text[512] = "";
        if (source && line > 0) ws_source_line(source, source_len, line, text, sizeof text);
        if (line > 0) fprintf(out, "\nline %d  %s\n", line, text + strspn(text, " \t"));
        else fprintf(out, "\n(no source line)\n");
        side(out, "PTX", "SASS", "");
        for (int pc = 0; pc < fn->ninsns; pc++) {
            const ws_sass_pcmap *m = &p->pc[pc];
            if (m->action == WS_MAP_NONE || fn->insns[pc].src_line != line) continue;
            char left[200], mark[64] = "";
            ptx_format_insn(fn, &fn->insns[pc], left, sizeof left);
            const char *right = m->sass >= 0 ? sf->insns[m->sass].text : "";
            if (m->per_exec > 1) {
                snprintf(mark, sizeof mark, "1->%d %.30s", m->per_exec, sf->insns[m->sass].opcode);
            } else if (m->action == WS_MAP_CARRY) {
                int n = 0;
                for (int q = 0; q < fn->ninsns; q++) n += p->pc[q].sass == m->sass && p->pc[q].action != WS_MAP_NONE;
                snprintf(mark, sizeof mark, "merge %d->1 (%d B)", n, m->width);
            } else if (m->action == WS_MAP_ABSORBED) {
                snprintf(mark, sizeof mark, "merged into %.40s", sf->insns[m->sass].opcode);
                right = "";
            } else if (m->action == WS_MAP_DROPPED) {
                snprintf(mark, sizeof mark, "removed by ptxas");
            }
            if (m->sass >= 0 && m->action != WS_MAP_ABSORBED && sass_guarded(&sf->insns[m->sass]) &&
                fn->insns[pc].guard < 0)
                snprintf(mark + strlen(mark), sizeof mark - strlen(mark), "%spredicated", mark[0] ? ", " : "");
            if (m->by_order) snprintf(mark + strlen(mark), sizeof mark - strlen(mark), "%smatched by order", mark[0] ? ", " : "");
            side(out, left, right, mark);
        }
        for (int i = 0; i < sf->ninsns; i++) {
            const ws_sass_insn *s = &sf->insns[i];
            if (!s->space || s->line != line || p->sass_pc[i] >= 0) continue;
            bool copy = false;
            for (int pc = 0; pc < fn->ninsns && !copy; pc++)
                copy = p->pc[pc].unrolled && p->pc[pc].sass >= 0 && sf->insns[p->pc[pc].sass].line == line &&
                       sf->insns[p->pc[pc].sass].space == s->space && sf->insns[p->pc[pc].sass].op == s->op &&
                       sf->insns[p->pc[pc].sass].width == s->width;
            const char *mark = s->spill ? (s->op == WS_SASS_OP_ST ? "spill store" : "spill load (refill)")
                             : sf->blocks[s->block].cold ? "diverged-warp path"
                             : copy ? "unrolled copy"
                             : s->space == WS_SASS_SP_LOCAL ? "stack" : "SASS only";
            side(out, "", s->text, mark);
        }
    }
    free(lines);
}

/* The registers of one operand ("R16", "R16.64", "-R3", "|R4|", "desc[UR4][R16.64+0x20]") into
 * regs (a 256-bit set): each Rn, n .. n + span - 1 (a tensor operand or a 64/128-bit one spans
 * more than one). A reader's set when read, a load's destination when dest. */
static void operand_regs(const char *op, int span, uint64_t regs[4])
{
    for (const char *c = op; *c; c++) {
        if (*c != 'R' || (c > op && (isalnum((unsigned char)c[-1]) || c[-1] == '_')) || !isdigit((unsigned char)c[1]))
            continue; /* UR4, SR_TID and RZ are not general registers */
        int n = atoi(c + 1), w = span;
        const char *e = c + 1;
        while (isdigit((unsigned char)*e)) e++;
        if (!strncmp(e, ".64", 3) && w < 2) w = 2;
        if (!strncmp(e, ".128", 4) && w < 4) w = 4;
        for (int k = n; k < n + w && k < 255; k++)
            regs[k / 64] |= 1ull << (k % 64);
    }
}

int *ws_sass_load_waits(const ws_sass_plan *p, int *n)
{
    const ws_sass_function *sf = p->sf;
    int nptx = p->fn->ninsns, ns = sf ? sf->ninsns : 0;
    int *w = malloc((size_t)(nptx + ns + 1) * sizeof *w), *at = malloc((size_t)(ns + 1) * sizeof *at);
    if (!w || !at) {
        free(w);
        free(at);
        return NULL;
    }
    uint64_t pending[4] = {0, 0, 0, 0};
    int waits = 0;
    for (int j = 0; j < ns; j++) {
        const ws_sass_insn *in = &sf->insns[j];
        char text[sizeof in->text];
        snprintf(text, sizeof text, "%s", in->text);
        char *c = text;
        if (*c == '@') /* the guard */
            while (*c && *c != ' ') c++;
        while (*c == ' ') c++;
        while (*c && *c != ' ') c++; /* the opcode */
        /* operands: the first is the destination when it is a register (a store's is its address) */
        int span = in->tensor != WS_SASS_TENSOR_NONE ? 4 : 1;
        uint64_t reads[4] = {0, 0, 0, 0}, dest[4] = {0, 0, 0, 0};
        bool first = true, has_dest = false;
        for (char *tok = strtok(c, ","); tok; tok = strtok(NULL, ","), first = false) {
            while (*tok == ' ') tok++;
            if (first && tok[0] == 'R' && isdigit((unsigned char)tok[1])) {
                has_dest = true;
                operand_regs(tok, in->width > 4 ? in->width / 4 : 1, dest);
            } else if (first && (tok[0] == 'P' || tok[0] == 'U' || !strncmp(tok, "RZ", 2)))
                has_dest = true;
            else
                operand_regs(tok, span, reads);
        }
        if ((reads[0] & pending[0]) | (reads[1] & pending[1]) | (reads[2] & pending[2]) | (reads[3] & pending[3])) {
            waits++; /* the warp stops here until its loads are back */
            memset(pending, 0, sizeof pending);
        }
        at[j] = waits;
        bool long_load = in->op == WS_SASS_OP_LD && has_dest &&
                         (in->space == WS_SASS_SP_GLOBAL || in->space == WS_SASS_SP_LOCAL || in->space == WS_SASS_SP_GENERIC);
        if (long_load || (in->op == WS_SASS_OP_ATOM && has_dest))
            for (int k = 0; k < 4; k++) pending[k] |= dest[k];
    }
    for (int pc = 0; pc < nptx; pc++) {
        int j = p->pc ? p->pc[pc].sass : -1;
        w[pc] = j >= 0 && j < ns ? at[j] : -1;
    }
    for (int j = 0; j < ns; j++)
        w[nptx + j] = at[j];
    free(at);
    *n = nptx + ns;
    return w;
}
