/* casloop.c - atom.cas retry loops of a PTX function (see casloop.h): a taint fixpoint
 * from each CAS's destination, then a scan of the backward branches around it. */
#include "casloop.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool reg_in(const ptx_operand *o, const uint8_t *taint, int nregs)
{
    if ((o->kind == PTX_OPND_REG || (o->kind == PTX_OPND_MEM && o->base_kind == PTX_OPND_REG)) && o->reg >= 0)
        return o->reg < nregs && taint[o->reg];
    if (o->kind == PTX_OPND_VEC)
        for (int i = 0; i < o->vec_n; i++)
            if (o->vec[i] >= 0 && o->vec[i] < nregs && taint[o->vec[i]]) return true;
    return false;
}

static bool set_reg(const ptx_operand *o, uint8_t *taint, int nregs)
{
    bool changed = false;
    if (o->kind == PTX_OPND_REG && o->reg >= 0 && o->reg < nregs && !taint[o->reg]) taint[o->reg] = changed = 1;
    if (o->kind == PTX_OPND_VEC)
        for (int i = 0; i < o->vec_n; i++)
            if (o->vec[i] >= 0 && o->vec[i] < nregs && !taint[o->vec[i]]) taint[o->vec[i]] = changed = 1;
    return changed;
}

/* True when a conditional branch in [lo, hi] tests a register tainted by the CAS. */
static bool tainted_branch_in(const ptx_function *fn, int lo, int hi, const uint8_t *taint)
{
    for (int pc = lo; pc <= hi; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op == PTX_BRA && in->guard >= 0 && in->guard < fn->nregs && taint[in->guard]) return true;
    }
    return false;
}

/* True when [lo, hi] holds nothing but the seed and what a spin runs: no memory access, barrier or
   mbarrier update (an outer loop around a wait loop does the kernel's work). */
static bool spin_only(const ptx_function *fn, int lo, int hi, int seed)
{
    for (int pc = lo; pc <= hi; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (pc == seed || in->op == PTX_MBAR_TRY_WAIT || in->op == PTX_MBAR_TEST_WAIT) continue;
        if (ptx_insn_is_memory(in)) return false;
        switch (in->op) {
        case PTX_BAR: case PTX_BARRIER: case PTX_BARRIER_CLUSTER: case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP:
        case PTX_MBAR_EXPECT_TX: case PTX_MBAR_COMPLETE_TX: case PTX_CP_MBAR_ARRIVE: case PTX_MBAR_INIT:
            return false;
        default:
            break;
        }
    }
    return true;
}

/* True when a backward branch around the CAS closes a loop whose exit it decides; *lo, *hi (may be
   NULL) get the union of the ranges [target, branch] of those loops that only spin (spin_only). */
static bool in_retry_loop(const ptx_function *fn, int cas, const uint8_t *taint, int *lo, int *hi)
{
    bool found = false;
    for (int b = cas; b < fn->ninsns; b++) {
        const ptx_insn *in = &fn->insns[b];
        if (in->op != PTX_BRA || in->opnd[0].kind != PTX_OPND_LABEL) continue;
        int t = in->opnd[0].target;
        if (t <= cas && tainted_branch_in(fn, t, b, taint)) { /* backward, around the CAS */
            found = true;
            if (!lo || !spin_only(fn, t, b, cas)) continue;
            if (t < *lo) *lo = t;
            if (b > *hi) *hi = b;
        }
    }
    return found;
}

/* The loops around a seed instruction whose exit depends on what the seed returned. */
static int seeded_loops(const ptx_function *fn, int *pcs, int *lo, int *hi, int cap, bool (*seed)(const ptx_insn *))
{
    if (!fn || fn->ninsns <= 0) return 0;
    uint8_t *taint = malloc((size_t)(fn->nregs > 0 ? fn->nregs : 1));
    if (!taint) return -1;
    int found = 0;
    for (int c = 0; c < fn->ninsns; c++) {
        const ptx_insn *cas = &fn->insns[c];
        if (!seed(cas) || !cas->ndst) continue;
        memset(taint, 0, (size_t)(fn->nregs > 0 ? fn->nregs : 1));
        for (int i = 0; i < cas->ndst; i++) set_reg(&cas->opnd[i], taint, fn->nregs);
        for (bool changed = true; changed;) {
            changed = false;
            for (int pc = 0; pc < fn->ninsns; pc++) {
                const ptx_insn *in = &fn->insns[pc];
                bool t = false;
                for (int i = in->ndst; i < in->nopnd && !t; i++) t = reg_in(&in->opnd[i], taint, fn->nregs);
                if (t)
                    for (int i = 0; i < in->ndst; i++) changed |= set_reg(&in->opnd[i], taint, fn->nregs);
            }
        }
        int l = c, h = c;
        if (in_retry_loop(fn, c, taint, &l, &h)) {
            if (found < cap && pcs) pcs[found] = c;
            if (found < cap && lo) lo[found] = l;
            if (found < cap && hi) hi[found] = h;
            found++;
        }
    }
    free(taint);
    return found;
}

static bool is_cas(const ptx_insn *in) { return in->op == PTX_ATOM && in->atomop == PTX_ATOM_CAS; }

/* an mbarrier wait, or a load of a word another thread may be changing (volatile, or with a
   memory-model order: a flag) */
static bool is_wait(const ptx_insn *in)
{
    if (in->op == PTX_MBAR_TRY_WAIT || in->op == PTX_MBAR_TEST_WAIT) return true;
    return (in->op == PTX_LD || in->op == PTX_LDU) && (in->flags & (PTX_F_VOLATILE | PTX_F_ACQUIRE | PTX_F_RELAXED));
}

int ws_cas_loops(const ptx_function *fn, int *pcs, int cap) { return seeded_loops(fn, pcs, NULL, NULL, cap, is_cas); }

int ws_wait_loops(const ptx_function *fn, int *pcs, int cap) { return seeded_loops(fn, pcs, NULL, NULL, cap, is_wait); }

int ws_wait_loop_ranges(const ptx_function *fn, int *pcs, int *lo, int *hi, int cap)
{
    return seeded_loops(fn, pcs, lo, hi, cap, is_wait);
}

bool ws_wait_blocks(const ptx_insn *in) { return in->op == PTX_MBAR_TRY_WAIT; }
