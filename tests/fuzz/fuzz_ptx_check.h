/* fuzz_ptx_check.h - checks the promise in sim/frontend/ptx.h that a module returned
 * without error is fully resolved (every operand names an existing register,
 * symbol, label or callee, with the operand layout ptx.h documents).
 * Invariant: a broken promise aborts, so libFuzzer keeps the input. */
#ifndef WS_FUZZ_PTX_CHECK_H
#define WS_FUZZ_PTX_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/frontend/ptx.h"

static inline void fuzz_ptx_fail(const ptx_function *fn, const ptx_insn *in, const char *why)
{
    fprintf(stderr, "fuzz: unresolved module: %s, PTX line %d: %s\n", fn->name, in ? in->ptx_line : fn->ptx_line, why);
    abort();
}

static inline void fuzz_check_reg(const ptx_function *fn, const ptx_insn *in, int r)
{
    if (r < 0 || r >= fn->nregs) fuzz_ptx_fail(fn, in, "register slot out of range");
}

static inline void fuzz_check_operand(const ptx_module *m, const ptx_function *fn, const ptx_insn *in,
                                      int k, const ptx_operand *o)
{
    switch (o->kind) {
    case PTX_OPND_REG: fuzz_check_reg(fn, in, o->reg); break;
    case PTX_OPND_SREG:
        if ((int)o->sreg < 0 || o->sreg >= PTX_SREG_COUNT) fuzz_ptx_fail(fn, in, "special register out of range");
        break;
    case PTX_OPND_SYM:
        if (o->sym < 0 || o->sym >= fn->nsyms) fuzz_ptx_fail(fn, in, "symbol out of range");
        break;
    case PTX_OPND_MEM:
        if (o->base_kind == PTX_OPND_REG) fuzz_check_reg(fn, in, o->reg);
        else if (o->base_kind == PTX_OPND_SYM) {
            if (o->sym < 0 || o->sym >= fn->nsyms) fuzz_ptx_fail(fn, in, "memory base symbol out of range");
        } else if (o->base_kind != PTX_OPND_NONE) fuzz_ptx_fail(fn, in, "memory base of odd kind");
        break;
    case PTX_OPND_LABEL:
        if (in->op == PTX_CALL && k == 1) {
            if (o->target < PTX_CALLEE_ASSERTFAIL || o->target >= m->nfuncs) fuzz_ptx_fail(fn, in, "callee out of range");
            if (o->target == PTX_CALLEE_UNRESOLVED && !fn->refusal) fuzz_ptx_fail(fn, in, "unresolved callee, not refused");
        } else if (o->target < 0 || o->target >= fn->ninsns) fuzz_ptx_fail(fn, in, "label target out of range");
        break;
    case PTX_OPND_FUNC:
        if (o->target < PTX_CALLEE_UNRESOLVED || o->target >= m->nfuncs) fuzz_ptx_fail(fn, in, "function out of range");
        if (o->target == PTX_CALLEE_UNRESOLVED && !fn->refusal) fuzz_ptx_fail(fn, in, "unknown function, not refused");
        break;
    case PTX_OPND_VEC:
        /* up to 4 registers, 8 for the fragments of the tensor-era instructions */
        if (o->vec_n < 1 || o->vec_n > (ptx_tc_op(in->op) ? PTX_VEC_MAX : 4)) fuzz_ptx_fail(fn, in, "vector of odd length");
        for (int i = 0; i < o->vec_n; i++)
            if (o->vec[i] != -1) fuzz_check_reg(fn, in, o->vec[i]);
        if ((in->op == PTX_LD || in->op == PTX_LDU || in->op == PTX_ST) && in->vec > 1 && o->vec_n != in->vec)
            fuzz_ptx_fail(fn, in, "vector operand length differs from .vN");
        break;
    case PTX_OPND_NONE: case PTX_OPND_IMM: case PTX_OPND_SINK: break;
    default: fuzz_ptx_fail(fn, in, "operand of unknown kind");
    }
}

/* Walks every function and instruction; aborts on the first broken promise. */
static inline void fuzz_check_module(const ptx_module *m)
{
    if (m->nfuncs < 0 || (m->nfuncs && !m->funcs)) abort();
    for (int f = 0; f < m->nfuncs; f++) {
        const ptx_function *fn = &m->funcs[f];
        if (fn->nparams < 0 || fn->nregs < 0 || fn->nsyms < 0 || fn->ninsns < 0) fuzz_ptx_fail(fn, NULL, "negative count");
        for (int p = 0; p < fn->nparams; p++) {
            int s = fn->param_syms[p];
            if (s < 0 || s >= fn->nsyms) fuzz_ptx_fail(fn, NULL, "parameter symbol out of range");
            const ptx_symbol *ps = &fn->syms[s];
            if (ps->offset + ps->size > fn->param_bytes || ps->offset + ps->size < ps->offset)
                fuzz_ptx_fail(fn, NULL, "parameter outside the parameter buffer");
        }
        if (!fn->name) fuzz_ptx_fail(fn, NULL, "function without a name");
        for (int s = 0; s < fn->nsyms; s++)
            if (!fn->syms[s].name) fuzz_ptx_fail(fn, NULL, "symbol without a name");
        for (int r = 0; r < fn->nregs; r++)
            if (!fn->regs[r].name) fuzz_ptx_fail(fn, NULL, "register without a name");
        if (fn->refusal && !fn->refusal->msg[0]) fuzz_ptx_fail(fn, NULL, "refusal without a message");
        for (int a = 0; a < fn->ncall_args; a++)
            if (fn->call_args[a] < 0 || fn->call_args[a] >= fn->nsyms) fuzz_ptx_fail(fn, NULL, "call argument out of range");
        for (int i = 0; i < fn->ninsns; i++) {
            const ptx_insn *in = &fn->insns[i];
            if (in->op <= PTX_OP_INVALID || in->op >= PTX_OP_COUNT) fuzz_ptx_fail(fn, in, "invalid opcode");
            if (in->nopnd < 0 || in->nopnd > PTX_MAX_OPND) fuzz_ptx_fail(fn, in, "operand count out of range");
            if (in->guard != -1) fuzz_check_reg(fn, in, in->guard);
            if (in->type < 0 || in->type >= PTX_T_COUNT || in->type2 < 0 || in->type2 >= PTX_T_COUNT)
                fuzz_ptx_fail(fn, in, "type out of range");
            if (in->vec != 0 && in->vec != 1 && in->vec != 2 && in->vec != 4) fuzz_ptx_fail(fn, in, "odd .vN");
            for (int k = 0; k < in->nopnd; k++) fuzz_check_operand(m, fn, in, k, &in->opnd[k]);
            if ((in->op == PTX_LD || in->op == PTX_LDU) && (in->nopnd < 2 || in->opnd[1].kind != PTX_OPND_MEM))
                fuzz_ptx_fail(fn, in, "ld without a memory operand in slot 1");
            if (in->op == PTX_ST && (in->nopnd < 2 || in->opnd[0].kind != PTX_OPND_MEM))
                fuzz_ptx_fail(fn, in, "st without a memory operand in slot 0");
            if ((in->op == PTX_LD || in->op == PTX_LDU || in->op == PTX_ST) &&
                (in->vec ? in->vec : 1) * ptx_type_size(in->type) > 16)
                fuzz_ptx_fail(fn, in, "a load or store wider than 16 bytes per thread");
            char buf[512];
            ptx_format_insn(fn, in, buf, sizeof buf);
            if (!memchr(buf, 0, sizeof buf)) abort();
            (void)ptx_insn_is_memory(in);
        }
        if (ptx_find_function(m, fn->name) == NULL) fuzz_ptx_fail(fn, NULL, "function not found by its own name");
    }
}

#endif
