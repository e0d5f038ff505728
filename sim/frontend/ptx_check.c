/* ptx_check.c - what ptxas refuses and the parser alone would let through: operand types
 * against the instruction's type (a 64-bit register in add.s32, a predicate as a value, a
 * value as a predicate, a float literal in an integer instruction), stores into a function's
 * input parameters, and a .version or .target no PTX assembler of CUDA 13 takes. Each rule
 * was checked against ptxas 13.0 (sm_90): the accepted forms below are exactly those it took.
 * Invariant: a module that passes is one ptxas accepts as far as these rules go; every
 * refusal names the PTX file, line and column of the operand and says what ptxas says. */
#include "ptx_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef enum { K_NONE, K_PRED, K_BITS, K_INT, K_FLOAT } kind;

static kind kind_of(ptx_type t)
{
    if (t == PTX_T_PRED) return K_PRED;
    if (t >= PTX_T_B8 && t <= PTX_T_B128) return K_BITS;
    if (t >= PTX_T_U8 && t <= PTX_T_S64) return K_INT;
    if (t >= PTX_T_F16 && t <= PTX_T_F64) return K_FLOAT;
    return K_NONE;
}

/* Operand roles: the type an operand must have. */
typedef enum {
    R_SKIP,    /* not checked (addresses, labels, special registers, internal operands) */
    R_T,       /* the instruction's type */
    R_T2,      /* its second type (cvt source, set's compared type, slct's selector) */
    R_WIDE,    /* twice the instruction's type (mul.wide / mad.wide results) */
    R_U32,     /* a 32-bit integer (shift amounts, bit positions, lane and mask operands) */
    R_PRED     /* a predicate */
} role;

typedef struct {
    const ptx_module *m;
    const ptx_function *fn;
    const char *text;
    ws_error *err;
} checker;

/* 1-based column of the first `word` on PTX line `line` (a whole word unless it ends in '*',
 * which matches any continuation: "0f*" finds 0f3F800000), 0 when not found: errors point at
 * the operand, not just the line. */
static int column_of(const char *text, int line, const char *word)
{
    char w[PTX_NAME_MAX + 8];
    snprintf(w, sizeof w, "%s", word ? word : "");
    size_t wl0 = strlen(w);
    bool prefix = wl0 && w[wl0 - 1] == '*';
    if (prefix) w[--wl0] = 0;
    word = w;
    const char *p = text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !word || !*word) return 0;
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p), wl = strlen(word);
    for (size_t i = 0; i + wl <= n; i++)
        if (!strncasecmp(p + i, word, wl) && (prefix || i + wl == n || !(p[i + wl] == '_' || (p[i + wl] >= '0' && p[i + wl] <= '9') ||
                                                         (p[i + wl] >= 'a' && p[i + wl] <= 'z'))))
            return (int)i + 1;
    return 0;
}

static int refuse(checker *c, const ptx_insn *in, const char *word, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(checker *c, const ptx_insn *in, const char *word, const char *fmt, ...)
{
    char txt[160], msg[WS_MSG_MAX];
    ptx_format_insn(c->fn, in, txt, sizeof txt);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ws_error_set(c->err, c->m->path, in->ptx_line, column_of(c->text, in->ptx_line, word), "%s in '%s' (%s)", msg, txt,
                 c->fn->name);
    return -1;
}

static const char *reg_name(const ptx_function *fn, int slot)
{
    return slot >= 0 && slot < fn->nregs ? fn->regs[slot].name : "%?";
}

/* Does a register of type rt suit type want? relaxed: ld, st and cvt take a wider register
 * ("so that narrow values may be loaded, stored, and converted using regular-width registers"). */
static bool reg_fits(ptx_type rt, ptx_type want, int want_bytes, bool relaxed)
{
    kind kr = kind_of(rt), kw = kind_of(want);
    if (kr == K_PRED || kw == K_PRED) return kr == kw;
    bool compatible = kr == K_BITS || kw == K_BITS || (kr == K_INT && kw == K_INT) || rt == want;
    int size = ptx_type_size(rt);
    return compatible && (relaxed ? size >= want_bytes : size == want_bytes);
}

static int check_reg(checker *c, const ptx_insn *in, int slot, ptx_type want, int want_bytes, bool relaxed, int index)
{
    if (slot < 0 || slot >= c->fn->nregs) return 0;
    ptx_type rt = c->fn->regs[slot].type;
    if (reg_fits(rt, want, want_bytes, relaxed)) return 0;
    char what[PTX_NAME_MAX + 64], need[64];
    snprintf(what, sizeof what, "operand %d is %s, a %s register", index + 1, reg_name(c->fn, slot),
             rt == PTX_T_PRED ? "predicate" : ptx_type_name(rt));
    if (want == PTX_T_PRED) snprintf(need, sizeof need, "a predicate");
    else if (want == PTX_T_NONE) snprintf(need, sizeof need, "a %d-bit value", 8 * want_bytes);
    else snprintf(need, sizeof need, "%s%s", relaxed ? "at least " : "", ptx_type_name(want));
    return refuse(c, in, reg_name(c->fn, slot), "%s where %s is needed (ptxas: Arguments mismatch)", what, need);
}

/* One operand of role r. */
static int check_operand(checker *c, const ptx_insn *in, int i, role r, bool relaxed)
{
    const ptx_operand *o = &in->opnd[i];
    ptx_type want = PTX_T_NONE;
    int bytes = 0;
    switch (r) {
    case R_SKIP: return 0;
    case R_T: want = in->type; bytes = ptx_type_size(in->type); break;
    case R_T2: want = in->type2; bytes = ptx_type_size(in->type2); break;
    case R_WIDE: want = PTX_T_NONE; bytes = 2 * ptx_type_size(in->type); break;
    case R_U32: want = PTX_T_U32; bytes = 4; break;
    case R_PRED: want = PTX_T_PRED; bytes = 1; break;
    }
    if (want == PTX_T_NONE && r != R_WIDE) return 0;   /* no type to check against */
    if (r == R_WIDE) want = in->type == PTX_T_S32 || in->type == PTX_T_S16 ? PTX_T_S64 : PTX_T_U64;
    if (r == R_WIDE && bytes == 4) want = in->type == PTX_T_S16 ? PTX_T_S32 : PTX_T_U32;
    switch (o->kind) {
    case PTX_OPND_REG:
        return check_reg(c, in, o->reg, want, bytes, relaxed, i);
    case PTX_OPND_VEC: {
        if (in->op == PTX_MOV) return 0;        /* mov.b64 {lo, hi}, d packs: its elements split the type */
        ptx_type first = PTX_T_NONE;
        for (int k = 0; k < o->vec_n; k++) {
            int slot = o->vec[k];
            if (slot < 0 || slot >= c->fn->nregs) continue;             /* a sink '_' */
            ptx_type rt = c->fn->regs[slot].type;
            if (first == PTX_T_NONE) first = rt;
            else if (ptx_type_size(rt) != ptx_type_size(first))
                return refuse(c, in, reg_name(c->fn, slot),
                              "vector element %s is %s but the first is %s (ptxas: Incompatible elements of vector "
                              "expression)", reg_name(c->fn, slot), ptx_type_name(rt), ptx_type_name(first));
            if (check_reg(c, in, slot, want, bytes, relaxed, i)) return -1;
        }
        return 0;
    }
    case PTX_OPND_IMM: {
        if (r == R_PRED) return 0;
        kind kw = kind_of(want);
        char lit[40];
        if (o->is_float) snprintf(lit, sizeof lit, "0%c*", o->is_double ? 'd' : 'f');
        else snprintf(lit, sizeof lit, "%lld", (long long)o->imm);
        if (o->is_float && kw == K_INT)
            return refuse(c, in, lit, "operand %d is a floating-point literal where an integer %s is needed (ptxas: "
                          "Arguments mismatch)", i + 1, ptx_type_name(want));
        if (!o->is_float && kw == K_FLOAT)
            return refuse(c, in, lit, "operand %d is an integer literal where a %s is needed: write its bits as "
                          "0f.../0d... (ptxas: Arguments mismatch)", i + 1, ptx_type_name(want));
        return 0;
    }
    default:
        return 0;
    }
}

/* The role of operand i of in, from ptxas's operand rules for the opcodes it checks. */
static role role_of(const ptx_insn *in, int i, bool *relaxed)
{
    int n = in->nopnd;
    *relaxed = false;
    switch (in->op) {
    case PTX_ADD: case PTX_SUB: case PTX_MIN: case PTX_MAX: case PTX_AND: case PTX_OR: case PTX_XOR:
    case PTX_DIV: case PTX_REM: case PTX_COPYSIGN: case PTX_MUL24: case PTX_MAD24: case PTX_SAD: case PTX_FMA:
    case PTX_ABS: case PTX_NEG: case PTX_NOT: case PTX_CNOT: case PTX_RCP: case PTX_SQRT: case PTX_RSQRT:
    case PTX_SIN: case PTX_COS: case PTX_LG2: case PTX_EX2: case PTX_TANH: case PTX_BREV: case PTX_PRMT:
    case PTX_SHF: case PTX_CVTA:
        return R_T;
    case PTX_MUL:
        return in->mulmode == PTX_MULMODE_WIDE && i == 0 ? R_WIDE : R_T;
    case PTX_MAD:
        return in->mulmode == PTX_MULMODE_WIDE && (i == 0 || i == 3) ? R_WIDE : R_T;
    case PTX_POPC: case PTX_CLZ: case PTX_BFIND:
        return i == 0 ? R_U32 : R_T;
    case PTX_BFE:
        return i <= 1 ? R_T : R_U32;
    case PTX_BFI:
        return i <= 2 ? R_T : R_U32;
    case PTX_SHL: case PTX_SHR:
        return i <= 1 ? R_T : R_U32;
    case PTX_TESTP:
        return i == 0 ? R_PRED : i == 1 ? R_T : R_SKIP;
    case PTX_SETP: {
        int a = in->ndst;                         /* p or p|q, then a, b[, c] */
        if (i < a) return R_PRED;
        if (i < a + 2) return R_T;
        return R_PRED;
    }
    case PTX_SET:
        return i == 0 ? R_T : i <= 2 ? R_T2 : R_PRED;
    case PTX_SELP:
        return i <= 2 ? R_T : R_PRED;
    case PTX_SLCT:
        return i <= 2 ? R_T : R_T2;
    case PTX_MOV:
        return R_T;
    case PTX_CVT:
        *relaxed = kind_of(in->type) != K_FLOAT || kind_of(in->type2) != K_FLOAT;
        return i == 0 ? R_T : R_T2;
    case PTX_LD: case PTX_LDU:
        *relaxed = true;
        return i == 0 ? R_T : R_SKIP;
    case PTX_ST:
        *relaxed = true;
        return i == 1 ? R_T : R_SKIP;
    case PTX_ATOM:
        return i == 1 ? R_SKIP : R_T;
    case PTX_RED:
        return i == 0 ? R_SKIP : R_T;
    case PTX_SHFL: {
        int a = in->ndst;                         /* d or d|p, then a, b, c, membermask */
        if (i == 0) return R_T;
        if (i < a) return R_PRED;
        return i == a ? R_T : R_U32;
    }
    case PTX_VOTE:
        return i == 0 ? R_T : i == 1 ? R_PRED : i == n - 1 ? R_U32 : R_SKIP;
    default:
        return R_SKIP;
    }
}

/* st.param into a parameter the function receives: ptxas refuses it ("Illegal to write to
 * function input parameter"); only ld.param reads them. */
static int check_param_store(checker *c, const ptx_insn *in)
{
    if ((in->op != PTX_ST && in->op != PTX_ATOM && in->op != PTX_RED) || in->space != PTX_SPACE_PARAM) return 0;
    int mi = ptx_op_info(in->op)->mem;
    if (mi < 0 || mi >= in->nopnd || in->opnd[mi].base_kind != PTX_OPND_SYM) return 0;
    int sym = in->opnd[mi].sym;
    for (int p = 0; p < c->fn->nparams; p++)
        if (c->fn->param_syms[p] == sym)
            return refuse(c, in, c->fn->syms[sym].name, "'%s' is an input parameter of %s %s: it can only be read "
                          "(ld.param) (ptxas: Illegal to write to function input parameter)", c->fn->syms[sym].name,
                          c->fn->is_entry ? "kernel" : "function", c->fn->name);
    return 0;
}

static int check_function(checker *c)
{
    const ptx_function *fn = c->fn;
    for (int k = 0; k < fn->ninsns; k++) {
        const ptx_insn *in = &fn->insns[k];
        if (in->guard >= 0 && in->guard < fn->nregs && fn->regs[in->guard].type != PTX_T_PRED)
            return refuse(c, in, reg_name(fn, in->guard), "the guard %s is a %s register, not a predicate (ptxas: "
                          "Predicate expression expected)", reg_name(fn, in->guard),
                          ptx_type_name(fn->regs[in->guard].type));
        for (int i = 0; i < in->nopnd; i++) {
            bool relaxed;
            role r = role_of(in, i, &relaxed);
            if (check_operand(c, in, i, r, relaxed)) return -1;
        }
        if (check_param_store(c, in)) return -1;
    }
    return 0;
}

/* The PTX ISA a target first appears in (ptxas: "PTX .version 1.4 does not support .target
 * sm_90"); 0 = not known here, not checked. */
static int first_version(const char *target)
{
    static const struct { int sm; int version; } table[] = {
        {50, 40}, {60, 50}, {70, 60}, {72, 61}, {75, 63}, {80, 70}, {86, 71}, {87, 74},
        {89, 78}, {90, 78}, {100, 86}, {101, 86}, {120, 87},
    };
    int sm = 0;
    if (sscanf(target, "sm_%d", &sm) != 1) return 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].sm == sm) return table[i].version;
    return 0;
}

/* The line whose first word is the directive `word` (comments and other lines skipped). */
static int directive_line(const char *text, const char *word)
{
    size_t wl = strlen(word);
    int line = 1;
    for (const char *p = text; *p; line++) {
        p += strspn(p, " \t\r");
        if (!strncmp(p, word, wl)) return line;
        p = strchr(p, '\n');
        if (!p) break;
        p++;
    }
    return 1;
}

int ptx_check_module(const ptx_module *m, const char *text, ws_error *err)
{
    int v = m->version_major * 10 + m->version_minor;
    if (m->version_major > WS_PTX_MAX_VERSION_MAJOR || m->version_minor > 9) {
        int line = directive_line(text, ".version");
        ws_error_set(err, m->path, line, column_of(text, line, ".version"),
                     "PTX ISA .version %d.%d is newer than any CUDA toolkit warpscope knows (%d.x at most; "
                     "ptxas: Unsupported .version)", m->version_major, m->version_minor, WS_PTX_MAX_VERSION_MAJOR);
        return -1;
    }
    int need = first_version(m->target);
    if (need && v < need) {
        int line = directive_line(text, ".target");
        ws_error_set(err, m->path, line, column_of(text, line, ".target"),
                     "PTX .version %d.%d does not support .target %s, which needs .version %d.%d or later",
                     m->version_major, m->version_minor, m->target, need / 10, need % 10);
        return -1;
    }
    checker c = {m, NULL, text, err};
    for (int f = 0; f < m->nfuncs; f++) {
        c.fn = &m->funcs[f];
        if (check_function(&c)) return -1;
    }
    return 0;
}
