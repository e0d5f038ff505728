/* deps.c - barriers and load-address dependences of a PTX function (see deps.h).
 * A fixpoint over the instruction list: registers written from a global/local load
 * (or an atomic's old value) are tainted, then every register written by an instruction
 * that reads a tainted register, until nothing changes. */
#include "deps.h"

#include <stdlib.h>
#include <string.h>

/* A load that waits for memory: a global/local/generic ld, or an atomic's old value
 * (the MEM-class opcodes of ptx_ops.h that write a destination). */
static bool long_latency_load(const ptx_insn *in)
{
    if (ptx_op_info(in->op)->cls != PTX_CLS_MEM || !in->ndst) return false;
    return in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_NONE;
}

static bool opnd_tainted(const ptx_operand *o, const uint8_t *taint, int nregs)
{
    int r = -1;
    if (o->kind == PTX_OPND_REG) r = o->reg;
    else if (o->kind == PTX_OPND_MEM && o->base_kind == PTX_OPND_REG) r = o->reg;
    if (r >= 0) return r < nregs && taint[r];
    if (o->kind == PTX_OPND_VEC)
        for (int i = 0; i < o->vec_n; i++)
            if (o->vec[i] >= 0 && o->vec[i] < nregs && taint[o->vec[i]]) return true;
    return false;
}

static bool taint_opnd(const ptx_operand *o, uint8_t *taint, int nregs)
{
    bool changed = false;
    if (o->kind == PTX_OPND_REG && o->reg >= 0 && o->reg < nregs && !taint[o->reg]) {
        taint[o->reg] = 1;
        changed = true;
    }
    if (o->kind == PTX_OPND_VEC)
        for (int i = 0; i < o->vec_n; i++)
            if (o->vec[i] >= 0 && o->vec[i] < nregs && !taint[o->vec[i]]) {
                taint[o->vec[i]] = 1;
                changed = true;
            }
    return changed;
}

int ws_deps_init(ws_deps *d, const ptx_function *fn)
{
    memset(d, 0, sizeof *d);
    int n = fn ? fn->ninsns : 0;
    if (n <= 0) return 0;
    d->flags = calloc((size_t)n, 1);
    d->next_barrier = calloc((size_t)n + 1, sizeof *d->next_barrier);
    uint8_t *taint = calloc((size_t)(fn->nregs > 0 ? fn->nregs : 1), 1);
    if (!d->flags || !d->next_barrier || !taint) {
        free(taint);
        ws_deps_free(d);
        return -1;
    }
    d->ninsns = n;
    for (bool changed = true; changed;) {
        changed = false;
        for (int pc = 0; pc < n; pc++) {
            const ptx_insn *in = &fn->insns[pc];
            int nd = in->ndst;                  /* leading destinations, as the parser found them */
            if (!nd) continue;
            bool t = long_latency_load(in);
            for (int i = nd; i < in->nopnd && !t; i++) t = opnd_tainted(&in->opnd[i], taint, fn->nregs);
            if (t)
                for (int i = 0; i < nd; i++) changed |= taint_opnd(&in->opnd[i], taint, fn->nregs);
        }
    }
    for (int pc = 0; pc < n; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if ((in->op == PTX_BAR || in->op == PTX_BARRIER) && !(in->flags & PTX_F_WARP) &&
            (in->bar == PTX_BAR_SYNC || in->bar == PTX_BAR_NONE))
            d->flags[pc] |= WS_DEP_BARRIER;
        int m = ptx_op_info(in->op)->mem;   /* the parser put the address operand there */
        if (m >= 0 && opnd_tainted(&in->opnd[m], taint, fn->nregs)) d->flags[pc] |= WS_DEP_ADDR_FROM_LOAD;
    }
    d->next_barrier[n] = n;
    for (int pc = n - 1; pc >= 0; pc--) d->next_barrier[pc] = (d->flags[pc] & WS_DEP_BARRIER) ? pc : d->next_barrier[pc + 1];
    free(taint);
    return 0;
}

void ws_deps_free(ws_deps *d)
{
    free(d->flags);
    free(d->next_barrier);
    memset(d, 0, sizeof *d);
}

bool ws_deps_barrier_between(const ws_deps *d, int from, int to)
{
    if (!d->ninsns || from < 0 || to < 0 || from >= d->ninsns || to > d->ninsns) return false;
    if (to > from) return d->next_barrier[from + 1] < to;
    return d->next_barrier[from + 1] < d->ninsns || d->next_barrier[0] < to;
}
