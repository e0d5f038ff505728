/* ptx_util.c - names, sizes and text forms of the PTX vocabulary in ptx.h:
 * type sizes, opcode names, formatting an instruction back to PTX-like text.
 * Invariant: every table here is indexed by its enum and has an entry for every
 * value below the enum's COUNT, so lookups never run off the end; the opcode
 * rows are ptx_ops.h expanded, never written here. */
#include "ptx.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct { const char *name; int size; } type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0},       [PTX_T_PRED] = {".pred", 1},
    [PTX_T_B8] = {".b8", 1},      [PTX_T_B16] = {".b16", 2},     [PTX_T_B32] = {".b32", 4},
    [PTX_T_B64] = {".b64", 8},    [PTX_T_B128] = {".b128", 16},
    [PTX_T_U8] = {".u8", 1},      [PTX_T_U16] = {".u16", 2},     [PTX_T_U32] = {".u32", 4},
    [PTX_T_U64] = {".u64", 8},
    [PTX_T_S8] = {".s8", 1},      [PTX_T_S16] = {".s16", 2},     [PTX_T_S32] = {".s32", 4},
    [PTX_T_S64] = {".s64", 8},
    [PTX_T_F16] = {".f16", 2},    [PTX_T_F16X2] = {".f16x2", 4}, [PTX_T_BF16] = {".bf16", 2},
    [PTX_T_BF16X2] = {".bf16x2", 4}, [PTX_T_F32] = {".f32", 4},  [PTX_T_F64] = {".f64", 8},
};

int ptx_type_size(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].size : 0;
}

bool ptx_type_is_signed(ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

bool ptx_type_is_float(ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 ||
           t == PTX_T_F32 || t == PTX_T_F64;
}

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "";
}

static const ptx_opinfo op_info[PTX_OP_COUNT] = {
    [PTX_OP_INVALID] = {"?", PTX_CLS_UNSUPPORTED, -1, -1, PTX_DST_NONE, -1, false, 0},
#define PTX_OP_ROW(op, name, cls, lo, hi, dst, mem, ty, t2) \
    [PTX_##op] = {name, PTX_CLS_##cls, lo, hi, PTX_DST_##dst, mem, PTX_TY_##ty, t2},
#define PTX_TY_NEED true
#define PTX_TY_ANY false
    PTX_OPS(PTX_OP_ROW)
#undef PTX_TY_ANY
#undef PTX_TY_NEED
#undef PTX_OP_ROW
};

const ptx_opinfo *ptx_op_info(ptx_opcode op)
{
    return &op_info[(unsigned)op < PTX_OP_COUNT ? op : PTX_OP_INVALID];
}

const char *ptx_opcode_name(ptx_opcode op)
{
    return ptx_op_info(op)->name;
}

/* Words that name a table opcode with a modifier folded in. */
static const struct { const char *name; ptx_opcode op; uint32_t flags; } op_aliases[] = {
    {"addc", PTX_ADD, PTX_F_CARRYIN}, {"subc", PTX_SUB, PTX_F_CARRYIN}, {"madc", PTX_MAD, PTX_F_CARRYIN},
    {"prefetchu", PTX_PREFETCH, 0},
};

ptx_opcode ptx_opcode_lookup(const char *word, size_t n, uint32_t *flags)
{
    *flags = 0;
    for (int op = 1; op < PTX_OP_COUNT; op++)
        if (strlen(op_info[op].name) == n && !memcmp(op_info[op].name, word, n)) return (ptx_opcode)op;
    for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
        if (strlen(op_aliases[i].name) == n && !memcmp(op_aliases[i].name, word, n)) {
            *flags = op_aliases[i].flags;
            return op_aliases[i].op;
        }
    return PTX_OP_INVALID;
}

ptx_opcode ptx_opcode_lookup_prefix(const char *text, size_t n, size_t *used, uint32_t *flags)
{
    *flags = 0;
    ptx_opcode best = PTX_OP_INVALID;
    size_t best_len = 0;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        size_t k = strlen(op_info[op].name);
        if (k > best_len && k <= n && !memcmp(op_info[op].name, text, k) && (k == n || text[k] == '.')) {
            best = (ptx_opcode)op;
            best_len = k;
        }
    }
    if (best != PTX_OP_INVALID) {
        *used = best_len;
        return best;
    }
    const char *dot = memchr(text, '.', n);
    *used = dot ? (size_t)(dot - text) : n;
    return ptx_opcode_lookup(text, *used, flags);
}

bool ptx_insn_is_memory(const ptx_insn *in)
{
    return ptx_op_info(in->op)->cls == PTX_CLS_MEM && in->space != PTX_SPACE_PARAM && in->space != PTX_SPACE_REG;
}

/* ---- formatting ------------------------------------------------------------- */

typedef struct { char *buf; size_t cap, len; } sbuf;

static void put(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *s, const char *fmt, ...)
{
    if (s->len >= s->cap) return; /* already truncated */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    if (n > 0) s->len = s->len + (size_t)n < s->cap ? s->len + (size_t)n : s->cap;
}

static const char *const space_names[] = {
    [PTX_SPACE_NONE] = "", [PTX_SPACE_GLOBAL] = ".global", [PTX_SPACE_SHARED] = ".shared",
    [PTX_SPACE_SHARED_CLUSTER] = ".shared::cluster", [PTX_SPACE_LOCAL] = ".local",
    [PTX_SPACE_CONST] = ".const", [PTX_SPACE_PARAM] = ".param", [PTX_SPACE_REG] = ".reg",
};
static const char *const cmp_names[] = {
    "", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu",
    ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan",
};
static const char *const bool_names[] = {"", ".and", ".or", ".xor"};
static const char *const rnd_names[] = {"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna"};
static const char *const mul_names[] = {"", ".lo", ".hi", ".wide"};
static const char *const cache_names[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".nc"};
static const char *const atom_names[] = {"", ".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor",
                                         ".exch", ".cas"};
static const char *const shfl_names[] = {"", ".up", ".down", ".bfly", ".idx"};
static const char *const vote_names[] = {"", ".all", ".any", ".uni", ".ballot"};
static const char *const bar_names[] = {"", ".sync", ".arrive", ".red.popc", ".red.and", ".red.or", ".wait"};

#define NAME(tab, v) ((unsigned)(v) < sizeof(tab) / sizeof(tab[0]) ? tab[v] : "")

static void put_space(sbuf *s, const ptx_insn *in) { put(s, "%s", NAME(space_names, in->space)); }
static void put_types(sbuf *s, const ptx_insn *in)
{
    put(s, "%s%s", ptx_type_name(in->type), ptx_type_name(in->type2));
}
static void put_vec(sbuf *s, const ptx_insn *in) { if (in->vec > 1) put(s, ".v%u", in->vec); }
static void put_flag(sbuf *s, const ptx_insn *in, uint32_t f, const char *name)
{
    if (in->flags & f) put(s, "%s", name);
}
static void put_sem(sbuf *s, const ptx_insn *in)
{
    put_flag(s, in, PTX_F_VOLATILE, ".volatile");
    if ((in->flags & (PTX_F_ACQUIRE | PTX_F_RELEASE)) == (PTX_F_ACQUIRE | PTX_F_RELEASE)) put(s, ".acq_rel");
    else {
        put_flag(s, in, PTX_F_RELAXED, ".relaxed");
        put_flag(s, in, PTX_F_ACQUIRE, ".acquire");
        put_flag(s, in, PTX_F_RELEASE, ".release");
    }
}
/* The arithmetic modifiers, in the order PTX writes them. */
static void put_arith(sbuf *s, const ptx_insn *in)
{
    put(s, "%s%s", NAME(mul_names, in->mulmode), NAME(rnd_names, in->rnd));
    put_flag(s, in, PTX_F_APPROX, ".approx");
    put_flag(s, in, PTX_F_FULL, ".full");
    put_flag(s, in, PTX_F_FTZ, ".ftz");
    put_flag(s, in, PTX_F_SAT, ".sat");
    put_flag(s, in, PTX_F_CC, ".cc");
}

static void put_opcode(sbuf *s, const ptx_insn *in)
{
    const char *name = ptx_opcode_name(in->op);
    if (in->flags & PTX_F_CARRYIN) {
        /* addc / subc / madc are the carry-in forms of add / sub / mad */
        put(s, "%sc", name);
    } else {
        put(s, "%s", name);
    }
    switch (in->op) {
    case PTX_LD: case PTX_LDU: case PTX_ST: case PTX_PREFETCH:
        put_sem(s, in);
        put_space(s, in);
        put(s, "%s", NAME(cache_names, in->cache));
        put_vec(s, in);
        put_types(s, in);
        break;
    case PTX_ATOM: case PTX_RED:
        put_sem(s, in);
        put_space(s, in);
        put(s, "%s", NAME(atom_names, in->atomop));
        put_vec(s, in);
        put_types(s, in);
        break;
    case PTX_CVT: {
        put_arith(s, in);
        put_flag(s, in, PTX_F_RELU, ".relu");
        put_flag(s, in, PTX_F_SATFINITE, ".satfinite");
        const char *f8 = in->flags & PTX_F_E5M2 ? ".e5m2x2" : ".e4m3x2";
        put(s, "%s%s", in->flags & PTX_F_TF32 ? ".tf32" : in->flags & PTX_F_F8_DST ? f8 : ptx_type_name(in->type),
            in->flags & PTX_F_F8_SRC ? f8 : ptx_type_name(in->type2));
        break;
    }
    case PTX_CVTA: case PTX_ISSPACEP:
        put_flag(s, in, PTX_F_TO, ".to");
        put_space(s, in);
        put_types(s, in);
        break;
    case PTX_SETP: case PTX_SET:
        put(s, "%s%s", NAME(cmp_names, in->cmp), NAME(bool_names, in->boolop));
        put_flag(s, in, PTX_F_FTZ, ".ftz");
        put_types(s, in);
        break;
    case PTX_SHFL:
        put_flag(s, in, PTX_F_SYNC, ".sync");
        put(s, "%s", NAME(shfl_names, in->shfl));
        put_types(s, in);
        break;
    case PTX_VOTE:
        put_flag(s, in, PTX_F_SYNC, ".sync");
        put(s, "%s", NAME(vote_names, in->vote));
        put_types(s, in);
        break;
    case PTX_MATCH:
        put(s, "%s", NAME(vote_names, in->vote));
        put_flag(s, in, PTX_F_SYNC, ".sync");
        put_types(s, in);
        break;
    case PTX_REDUX:
        put_flag(s, in, PTX_F_SYNC, ".sync");
        put(s, "%s", NAME(atom_names, in->atomop));
        put_types(s, in);
        break;
    case PTX_BAR: case PTX_BARRIER:
        if (in->flags & PTX_F_WARP) put(s, ".warp");
        if (in->flags & PTX_F_CLUSTER) put(s, ".cluster");
        put(s, "%s", NAME(bar_names, in->bar));
        put_flag(s, in, PTX_F_ALIGNED, ".aligned");
        put_types(s, in);
        break;
    case PTX_SHF:
        put(s, "%s%s", in->flags & PTX_F_SHF_L ? ".l" : ".r", in->flags & PTX_F_WRAP ? ".wrap" : ".clamp");
        put_types(s, in);
        break;
    case PTX_BFIND:
        put_flag(s, in, PTX_F_SHIFTAMT, ".shiftamt");
        put_types(s, in);
        break;
    case PTX_TESTP: {
        static const char *const cls[] = {"", ".finite", ".infinite", ".number", ".notanumber", ".normal",
                                          ".subnormal"};
        int64_t c = in->nopnd >= 3 ? in->opnd[in->nopnd - 1].imm : 0;
        put(s, "%s", c > 0 && c < 7 ? cls[c] : "");
        put_types(s, in);
        break;
    }
    case PTX_BRA: case PTX_CALL: case PTX_RET: case PTX_BRX:
        put_flag(s, in, PTX_F_UNI, ".uni");
        break;
    default:
        if (ptx_tc_op(in->op)) {           /* tensor-era modifiers: ptx_tensor.c spells them */
            char mods[96];
            ptx_tc_format_mods(in, mods, sizeof mods);
            put(s, "%s", mods);
            break;
        }
        put_arith(s, in);
        put_types(s, in);
        break;
    }
}

static const char *const sreg_names[PTX_SREG_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z",
    "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge", "%clock", "%clock_hi",
    "%clock64", "%globaltimer", "%dynamic_smem_size", "%total_smem_size",
    "%globaltimer_lo", "%globaltimer_hi", "%aggr_smem_size",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y", "%nclusterid.z",
    "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
    "%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z",
    "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster", "%current_graph_exec",
    [PTX_SREG_PM0] = "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6", "%pm7",
    [PTX_SREG_PM0_64] = "%pm0_64", "%pm1_64", "%pm2_64", "%pm3_64", "%pm4_64", "%pm5_64", "%pm6_64", "%pm7_64",
    [PTX_SREG_ENVREG0] = "%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4", "%envreg5", "%envreg6",
    "%envreg7", "%envreg8", "%envreg9", "%envreg10", "%envreg11", "%envreg12", "%envreg13", "%envreg14",
    "%envreg15", "%envreg16", "%envreg17", "%envreg18", "%envreg19", "%envreg20", "%envreg21", "%envreg22",
    "%envreg23", "%envreg24", "%envreg25", "%envreg26", "%envreg27", "%envreg28", "%envreg29", "%envreg30",
    "%envreg31",
};

const char *ptx_sreg_name(ptx_sreg r)
{
    return (unsigned)r < PTX_SREG_COUNT && sreg_names[r] ? sreg_names[r] : "%?";
}

int ptx_sreg_lookup(const char *word, size_t n)
{
    for (int r = 0; r < PTX_SREG_COUNT; r++)
        if (sreg_names[r] && strlen(sreg_names[r]) == n && !memcmp(sreg_names[r], word, n)) return r;
    return -1;
}

static const char *reg_name(const ptx_function *fn, int slot)
{
    return fn && slot >= 0 && slot < fn->nregs ? fn->regs[slot].name : "%?";
}

static const char *sym_name(const ptx_function *fn, int sym)
{
    return fn && sym >= 0 && sym < fn->nsyms ? fn->syms[sym].name : "?";
}

static void put_operand(sbuf *s, const ptx_function *fn, const ptx_insn *in, const ptx_operand *o)
{
    switch (o->kind) {
    case PTX_OPND_NONE: put(s, "()"); break;
    case PTX_OPND_REG: put(s, "%s%s", o->neg ? "!" : "", reg_name(fn, o->reg)); break;
    case PTX_OPND_IMM:
        if (o->is_float && o->is_double) put(s, "0d%016" PRIX64, (uint64_t)o->imm);
        else if (o->is_float) put(s, "0f%08" PRIX32, (uint32_t)o->imm);
        else put(s, "%" PRId64, o->imm);
        break;
    case PTX_OPND_SREG: put(s, "%s", ptx_sreg_name(o->sreg)); break;
    case PTX_OPND_SYM:
        put(s, "%s", sym_name(fn, o->sym));
        if (o->imm) put(s, "+%" PRId64, o->imm);
        break;
    case PTX_OPND_MEM:
        put(s, "[");
        if (o->base_kind == PTX_OPND_REG) put(s, "%s", reg_name(fn, o->reg));
        else if (o->base_kind == PTX_OPND_SYM) put(s, "%s", sym_name(fn, o->sym));
        if (o->base_kind == PTX_OPND_NONE) put(s, "%" PRId64, o->imm);
        else if (o->imm) put(s, "+%" PRId64, o->imm);
        put(s, "]");
        break;
    case PTX_OPND_LABEL:
        /* label names are resolved away; a branch shows the instruction index it goes to */
        if (in->op == PTX_CALL) put(s, "%s", in->callee ? in->callee : "?");
        else put(s, "L%d", o->target);
        break;
    case PTX_OPND_FUNC: put(s, "func#%d", o->target); break;
    case PTX_OPND_VEC:
        put(s, "{");
        for (int i = 0; i < o->vec_n && i < PTX_VEC_MAX; i++) {
            if (o->vec_imm >> i & 1) {
                ptx_operand t = {.kind = PTX_OPND_IMM, .imm = o->vimm[i], .is_float = o->vec_fimm >> i & 1,
                                 .is_double = o->vec_dimm >> i & 1};
                put(s, "%s", i ? ", " : "");
                put_operand(s, fn, in, &t);
            } else {
                put(s, "%s%s", i ? ", " : "", o->vec[i] < 0 ? "_" : reg_name(fn, o->vec[i]));
            }
        }
        if (o->wide_n > o->vec_n)   /* a wgmma accumulator: the first registers and how many */
            put(s, ", ... %d registers", o->wide_n);
        put(s, "}");
        break;
    case PTX_OPND_SINK: put(s, "_"); break;
    }
}

void ptx_format_insn(const ptx_function *fn, const ptx_insn *in, char *buf, size_t cap)
{
    if (!buf || !cap) return;
    buf[0] = 0;
    sbuf s = {buf, cap, 0};
    if (in->guard >= 0) put(&s, "@%s%s ", in->guard_neg ? "!" : "", reg_name(fn, in->guard));
    put_opcode(&s, in);
    int n = in->nopnd;
    if (in->op == PTX_TESTP && n >= 3) n--; /* the class is shown as a modifier */
    if (in->op == PTX_CALL) {
        /* call (ret), callee, (args...) */
        put(&s, " ");
        if (n > 0 && in->opnd[0].kind != PTX_OPND_NONE) {
            put(&s, "(");
            put_operand(&s, fn, in, &in->opnd[0]);
            put(&s, "), ");
        }
        if (n > 1) put_operand(&s, fn, in, &in->opnd[1]);
        if (in->ncall_args > 0) {
            put(&s, ", (");
            for (int i = 0; i < in->ncall_args; i++) {
                int a = fn && in->call_arg0 + i < fn->ncall_args ? fn->call_args[in->call_arg0 + i] : -1;
                put(&s, "%s%s", i ? ", " : "", sym_name(fn, a));
            }
            put(&s, ")");
        }
        if (n > 1 && in->opnd[1].kind == PTX_OPND_REG) put(&s, ", (prototype)");
        return;
    }
    for (int i = 0; i < n && i < PTX_MAX_OPND; i++) {
        if (i == 0) put(&s, " ");
        else if (in->ndst == 2 && i == 1) put(&s, "|");   /* d|p destinations */
        else put(&s, ", ");
        put_operand(&s, fn, in, &in->opnd[i]);
    }
}

int ptx_reachable(const ptx_module *m, const ptx_function *fn, int *out)
{
    int n = 0;
    for (int i = 0; m && i < m->nfuncs; i++)
        if (&m->funcs[i] == fn) out[n++] = i;
    for (int q = 0; q < n; q++) {               /* out is the queue: breadth first */
        const ptx_function *f = &m->funcs[out[q]];
        for (int i = 0; i < f->ninsns; i++) {
            const ptx_insn *in = &f->insns[i];
            for (int k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
                const ptx_operand *o = &in->opnd[k];
                bool names = o->kind == PTX_OPND_FUNC || (in->op == PTX_CALL && k == 1 && o->kind == PTX_OPND_LABEL);
                if (!names || o->target < 0 || o->target >= m->nfuncs) continue;
                bool seen = false;
                for (int j = 0; j < n && !seen; j++) seen = out[j] == o->target;
                if (!seen) out[n++] = o->target;
            }
        }
    }
    return n;
}
