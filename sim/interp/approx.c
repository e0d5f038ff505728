/* approx.c - which approximate instructions a kernel reaches, and the bound the
 * PTX ISA's stated maximum errors give its outputs (see approx.h).
 * Invariant: an instruction form is listed once; a form with no stated bound here
 * widens nothing (its outputs are compared bit-exactly, and the text says so). */
#include "approx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* f32 forms (.ftz or not: the bound is the same), as the PTX ISA states their errors;
 * a relative bound of 2^-e, an absolute one of 2^-e, or n ulp. */
static const struct {
    ptx_opcode op;
    uint32_t flag;            /* PTX_F_APPROX, or PTX_F_FULL for div.full */
    char kind;                /* 'r' relative, 'a' absolute, 'u' ulp */
    double e;                 /* 2^-e (r, a) or n (u) */
    const char *stated;
} bounds[] = {
    {PTX_EX2, PTX_F_APPROX, 'r', 22.0, "max relative error 2^-22"},
    {PTX_LG2, PTX_F_APPROX, 'a', 22.6, "max absolute error 2^-22.6 (mantissa)"},
    {PTX_RSQRT, PTX_F_APPROX, 'r', 22.9, "max relative error 2^-22.9"},
    {PTX_SQRT, PTX_F_APPROX, 'r', 23.0, "max relative error 2^-23"},
    {PTX_RCP, PTX_F_APPROX, 'u', 1.0, "max error 1 ulp"},
    {PTX_SIN, PTX_F_APPROX, 'a', 20.5, "max absolute error 2^-20.5 in -100pi..100pi"},
    {PTX_COS, PTX_F_APPROX, 'a', 20.5, "max absolute error 2^-20.5 in -100pi..100pi"},
    {PTX_TANH, PTX_F_APPROX, 'r', 11.0, "max relative error 2^-11"},
    {PTX_DIV, PTX_F_APPROX, 'u', 2.0, "max error 2 ulp for 2^-126 < |b| < 2^126"},
    {PTX_DIV, PTX_F_FULL, 'u', 2.0, "max error 2 ulp"},
};

static bool is_approx(const ptx_insn *in)
{
    switch (in->op) {
    case PTX_EX2: case PTX_LG2: case PTX_SIN: case PTX_COS: case PTX_TANH:
        return ptx_type_is_float(in->type);     /* approximate in every float type */
    case PTX_RSQRT: case PTX_SQRT: case PTX_RCP:
        return in->flags & PTX_F_APPROX;
    case PTX_DIV:
        return ptx_type_is_float(in->type) && (in->flags & (PTX_F_APPROX | PTX_F_FULL));
    default:
        return false;
    }
}

static void add(ws_approx_use *use, const ptx_insn *in)
{
    char name[40];
    ptx_format_insn(NULL, in, name, sizeof name);
    char *sp = strchr(name, ' ');                /* the opcode and its modifiers only */
    if (sp) *sp = 0;
    for (int i = 0; i < use->n; i++)
        if (!strcmp(use->insn[i].insn, name)) return;
    ws_approx_insn a;
    memset(&a, 0, sizeof a);
    snprintf(a.insn, sizeof a.insn, "%s", name);
    a.stated = "no maximum error recorded for this type";
    if (in->type == PTX_T_F32)
        for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
            if (bounds[k].op != in->op) continue;
            if (in->op == PTX_DIV && !(in->flags & bounds[k].flag)) continue;
            double b = bounds[k].kind == 'u' ? bounds[k].e : exp2(-bounds[k].e);
            if (bounds[k].kind == 'r') a.rel = b;
            else if (bounds[k].kind == 'a') a.abs = b;
            else a.ulp = b;
            a.stated = bounds[k].stated;
            a.bounded = true;
            break;
        }
    /* in ulps of a float: a relative error r is at most r * 2^24 ulp (at the top of a
     * binade), and the host's libm rounds once more: one ulp */
    if (a.bounded) {
        uint32_t u = a.rel > 0 ? (uint32_t)ceil(a.rel * 16777216.0) + 1 : a.ulp > 0 ? (uint32_t)ceil(a.ulp) + 1 : 1;
        if (u > use->ulps) use->ulps = u;
        if (a.abs > use->abs) use->abs = a.abs;
    }
    if (use->n < WS_APPROX_MAX) use->insn[use->n++] = a;
    else use->more = true;
}

void ws_approx_scan(const ptx_module *m, const ptx_function *fn, ws_approx_use *use)
{
    memset(use, 0, sizeof *use);
    if (!m || !fn) return;
    int *reach = malloc((size_t)(m->nfuncs ? m->nfuncs : 1) * sizeof *reach);
    int n = reach ? ptx_reachable(m, fn, reach) : 0;
    if (!reach || n == 0) {                      /* out of memory, or a function of no module: fn alone */
        for (int i = 0; i < fn->ninsns; i++)
            if (is_approx(&fn->insns[i])) add(use, &fn->insns[i]);
        free(reach);
        return;
    }
    for (int r = 0; r < n; r++) {
        const ptx_function *f = &m->funcs[reach[r]];
        for (int i = 0; i < f->ninsns; i++)
            if (is_approx(&f->insns[i])) add(use, &f->insns[i]);
    }
    free(reach);
}

void ws_approx_describe(const ws_approx_use *use, char *out, size_t cap)
{
    if (!cap) return;
    if (!use->ulps && use->abs == 0) {
        if (use->n) snprintf(out, cap, "bit-exact (%s: %s)", use->insn[0].insn, use->insn[0].stated);
        else snprintf(out, cap, "bit-exact");
        return;
    }
    size_t k = 0;
    int w = use->abs > 0 ? snprintf(out, cap, "within %u ulp or %.2g absolute (", use->ulps, use->abs)
                         : snprintf(out, cap, "within %u ulp (", use->ulps);
    k = w > 0 ? (size_t)w : 0;
    for (int i = 0; i < use->n && k < cap; i++) {
        w = snprintf(out + k, cap - k, "%s%s: PTX ISA %s", i ? "; " : "", use->insn[i].insn, use->insn[i].stated);
        k += w > 0 ? (size_t)w : 0;
    }
    if (k < cap) snprintf(out + k, cap - k, "%s)", use->more ? "; ..." : "");
}
