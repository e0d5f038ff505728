/* provenance.c - generic addresses proven shared (see provenance.h): per register slot two
 * facts, "holds a shared-space offset" and "holds a generic address in the shared window",
 * each first assumed for every register some instruction writes, then taken away from any
 * register one of whose writers is not a form that makes it from the fact, until nothing
 * changes (a loop's `add %rd5, %rd5, 4` keeps a pointer that enters the loop shared). */
#include "provenance.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { OFF = 1, GEN = 2 }; /* the facts: a shared-space offset, a generic shared address */

/* Bytes of an integer type an address can live in (32 or 64 bits), else 0. */
static int int_bytes(ptx_type t)
{
    switch (t) {
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: return 4;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: return 8;
    default: return 0;
    }
}

/* The operand holds an address of the kind (a register with the fact; for OFF, a .shared variable). */
static bool is(const ptx_function *fn, const uint8_t *f, const ptx_operand *o, int kind)
{
    if (o->kind == PTX_OPND_REG) return o->reg >= 0 && o->reg < fn->nregs && (f[o->reg] & kind);
    return kind == OFF && o->kind == PTX_OPND_SYM && fn->syms[o->sym].space == PTX_SPACE_SHARED;
}

/* The operand is a plain integer: no address of either kind (an immediate, a special register, a
 * register without the facts). */
static bool plain(const ptx_function *fn, const uint8_t *f, const ptx_operand *o)
{
    if (o->kind == PTX_OPND_IMM || o->kind == PTX_OPND_SREG) return true;
    return o->kind == PTX_OPND_REG && !is(fn, f, o, OFF | GEN);
}

/* True when in (whose one destination is a register) makes an address of the kind from one. */
static bool makes(const ptx_function *fn, const uint8_t *f, const ptx_insn *in, int kind)
{
    const ptx_operand *o = in->opnd;
    int need = kind == GEN ? 8 : 4, w = int_bytes(in->type); /* a generic address needs all 64 bits */
    bool odd = in->flags & (PTX_F_CC | PTX_F_CARRYIN | PTX_F_SAT); /* a carry chain's halves, a clamp */
    switch (in->op) {
    case PTX_MOV:
        return in->nopnd == 2 && w >= need && is(fn, f, &o[1], kind);
    case PTX_CVT: {                  /* widening or narrowing an offset; a generic address stays 64 bits */
        int from = int_bytes(in->type2);
        return in->nopnd == 2 && w >= need && from >= need && in->rnd == PTX_RND_NONE && !odd && is(fn, f, &o[1], kind);
    }
    case PTX_CVTA:
        if (in->space != PTX_SPACE_SHARED || in->nopnd != 2) return false;
        return in->flags & PTX_F_TO ? kind == OFF && w >= 4 && is(fn, f, &o[1], GEN)
                                    : kind == GEN && w == 8 && is(fn, f, &o[1], OFF);
    case PTX_ADD:
        return in->nopnd == 3 && w >= need && !odd &&
               ((is(fn, f, &o[1], kind) && plain(fn, f, &o[2])) || (plain(fn, f, &o[1]) && is(fn, f, &o[2], kind)));
    case PTX_SUB:                    /* address - n; n - address is no address */
        return in->nopnd == 3 && w >= need && !odd && is(fn, f, &o[1], kind) && plain(fn, f, &o[2]);
    case PTX_MAD: {                  /* x * y + address: .wide's destination and addend are twice the type */
        int rw = in->mulmode == PTX_MULMODE_WIDE ? 2 * w : in->mulmode == PTX_MULMODE_LO ? w : 0;
        return in->nopnd == 4 && rw >= need && rw <= 8 && !odd && plain(fn, f, &o[1]) && plain(fn, f, &o[2]) &&
               is(fn, f, &o[3], kind);
    }
    case PTX_SELP:                   /* both sides of the same kind */
        return in->nopnd == 4 && w >= need && is(fn, f, &o[1], kind) && is(fn, f, &o[2], kind);
    default:
        return false;
    }
}

typedef struct {
    const ptx_function *fn;
    uint8_t *f;
    bool changed;
} pass;

static void drop(pass *p, int slot, uint8_t facts_kept)
{
    if (slot < 0 || slot >= p->fn->nregs) return;
    uint8_t now = p->f[slot] & facts_kept;
    if (now != p->f[slot]) p->f[slot] = now, p->changed = true;
}

/* Every slot in writes keeps only the facts `in` makes: a lone register destination of one of
   the forms keeps what the form makes; any other destination (a vector, a d|p pair) loses both. */
static void check_writes(pass *p, const ptx_insn *in)
{
    const ptx_function *fn = p->fn;
    for (int d = 0; d < in->ndst && d < in->nopnd; d++) {
        const ptx_operand *o = &in->opnd[d];
        if (o->kind == PTX_OPND_REG) {
            uint8_t keep = 0;
            if (in->ndst == 1 && (p->f[o->reg] & OFF) && makes(fn, p->f, in, OFF)) keep |= OFF;
            if (in->ndst == 1 && (p->f[o->reg] & GEN) && makes(fn, p->f, in, GEN)) keep |= GEN;
            drop(p, o->reg, keep);
        } else if (o->kind == PTX_OPND_VEC) {
            for (int k = 0; k < o->vec_n && k < PTX_VEC_MAX; k++) drop(p, o->vec[k], 0);
            for (int k = 0; k < o->wide_n; k++) drop(p, fn->wide[o->wide0 + k], 0);
        }
    }
}

int ws_provenance_shared(const ptx_function *fn, uint8_t *out)
{
    memset(out, 0, (size_t)(fn->ninsns > 0 ? fn->ninsns : 0));
    if (fn->ninsns <= 0 || fn->nregs <= 0) return 0;
    pass p = {fn, calloc((size_t)fn->nregs, 1), true};
    if (!p.f) return -1;
    /* assumed for every register written at all (one never written holds no address) */
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *in = &fn->insns[i];
        for (int d = 0; d < in->ndst && d < in->nopnd; d++)
            if (in->opnd[d].kind == PTX_OPND_REG && in->opnd[d].reg >= 0 && in->opnd[d].reg < fn->nregs)
                p.f[in->opnd[d].reg] = fn->regs[in->opnd[d].reg].width == 8 ? OFF | GEN : OFF;
    }
    /* facts only go, so this ends; at its end every writer of every fact was checked against the
       final facts (the last pass changed nothing), which makes them an invariant of any run */
    while (p.changed) {
        p.changed = false;
        for (int i = 0; i < fn->ninsns; i++) check_writes(&p, &fn->insns[i]);
    }
    int n = 0;
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *in = &fn->insns[i];
        int m = ptx_op_info(in->op)->mem;
        if (in->space != PTX_SPACE_NONE || m < 0 || m >= in->nopnd) continue;
        const ptx_operand *a = &in->opnd[m];
        if (a->kind == PTX_OPND_MEM && a->base_kind == PTX_OPND_REG && a->reg >= 0 && a->reg < fn->nregs &&
            fn->regs[a->reg].width == 8 && (p.f[a->reg] & GEN))
            out[i] = 1, n++;
    }
    free(p.f);
    return n;
}
