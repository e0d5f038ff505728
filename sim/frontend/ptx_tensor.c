/* ptx_tensor.c - the modifiers and operand rules of the tensor-era instructions (cp.async and
 * its groups, ldmatrix/stmatrix, mma, wmma, mbarrier): parsed into ptx_insn.tc, checked after
 * the operands, spelled back for messages.
 * Invariant: a form the interpreter implements parses only with the operands its semantics
 * read (counts and kinds checked here); a form it does not implement but whose words are
 * known parses with tc.refuse set, so only a kernel that reaches it is refused, by name. */
#include "ptx.h"

#include <stdio.h>
#include <string.h>

bool ptx_tc_op(ptx_opcode op)
{
    switch (op) {
    case PTX_CP_ASYNC: case PTX_CP_COMMIT: case PTX_CP_WAIT: case PTX_CP_WAIT_ALL: case PTX_CP_MBAR_ARRIVE:
    case PTX_LDMATRIX: case PTX_STMATRIX: case PTX_WMMA_LOAD: case PTX_WMMA_STORE: case PTX_WMMA_MMA:
    case PTX_MMA: case PTX_MBAR_INIT: case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP: case PTX_MBAR_EXPECT_TX:
    case PTX_MBAR_COMPLETE_TX: case PTX_MBAR_TEST_WAIT: case PTX_MBAR_TRY_WAIT: case PTX_MBAR_INVAL:
    case PTX_CP_BULK: case PTX_CP_BULK_TENSOR: case PTX_CP_BULK_COMMIT: case PTX_CP_BULK_WAIT:
    case PTX_WGMMA_MMA: case PTX_WGMMA_FENCE: case PTX_WGMMA_COMMIT: case PTX_WGMMA_WAIT: case PTX_MAPA:
    case PTX_GETCTARANK: case PTX_ELECT: case PTX_BARRIER_CLUSTER: case PTX_SETMAXNREG: case PTX_GRIDDEPCONTROL:
        return true;
    default:
        return false;
    }
}

uint32_t ptx_insn_extra_mem(const ptx_insn *in)
{
    uint16_t f = in->tc.flags;
    switch (in->op) {
    case PTX_CP_ASYNC: return 1u << 1;           /* [dst], [src], size */
    case PTX_CP_BULK:
        if (f & PTX_TC_PREFETCH) return 0;       /* [src], size */
        return f & PTX_TC_TO_GLOBAL ? 1u << 1 : (1u << 1 | 1u << 3); /* [dst], [src], size[, [mbar]] */
    case PTX_CP_BULK_TENSOR:
        if (f & PTX_TC_PREFETCH) return 0;       /* [map, {c}] */
        return f & PTX_TC_TO_GLOBAL ? 1u << 2 : (1u << 1 | 1u << 3); /* [map, {c}], [src] / [dst], [map, {c}], [mbar] */
    default: return 0;
    }
}

static const char *const mt_names[] = {"", "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32", "b16", "b64",
                                       "e4m3", "e5m2", "s4", "u4", "b1"};

const char *ptx_mma_type_name(int mt)
{
    return mt >= 0 && mt < (int)(sizeof mt_names / sizeof mt_names[0]) ? mt_names[mt] : "";
}

int ptx_mma_type_bits(int mt)
{
    switch (mt) {
    case PTX_MT_B1: return 1;
    case PTX_MT_S4: case PTX_MT_U4: return 4;
    case PTX_MT_S8: case PTX_MT_U8: case PTX_MT_E4M3: case PTX_MT_E5M2: return 8;
    case PTX_MT_F16: case PTX_MT_BF16: return 16;
    case PTX_MT_F64: return 64;
    default: return 32;
    }
}

static bool is_mbar(ptx_opcode op)
{
    return op == PTX_MBAR_INIT || op == PTX_MBAR_ARRIVE || op == PTX_MBAR_ARRIVE_DROP || op == PTX_MBAR_EXPECT_TX ||
           op == PTX_MBAR_COMPLETE_TX || op == PTX_MBAR_TEST_WAIT || op == PTX_MBAR_TRY_WAIT || op == PTX_MBAR_INVAL;
}

/* "m16n8k16" -> 16, 8, 16; "m8n8" -> 8, 8, 0. */
static bool shape_word(const char *w, size_t n, ptx_tc *tc)
{
    unsigned v[3] = {0, 0, 0};
    const char keys[3] = {'m', 'n', 'k'};
    size_t i = 0;
    int part = 0;
    while (i < n && part < 3) {
        if (w[i] != keys[part]) return false;
        i++;
        size_t st = i;
        while (i < n && w[i] >= '0' && w[i] <= '9' && v[part] < 1000) v[part] = v[part] * 10 + (unsigned)(w[i++] - '0');
        if (i == st) return false;
        part++;
    }
    if (i != n || part < 2 || v[0] > 255 || v[1] > 256 || v[2] > 256) return false;
    tc->m = (uint8_t)v[0];
    tc->n = (uint16_t)v[1];
    tc->k = (uint16_t)v[2];
    return true;
}

/* Types the tensor core takes that the simulator does not implement: they parse, then refuse. */
static const char *const refused_types[] = {"e2m1", "e3m2", "e2m3", "f8f6f4",
                                            "ue8m0", "ue4m3", NULL};

bool ptx_tc_long_operands(ptx_opcode op)
{
    return op == PTX_WGMMA_MMA; /* accumulators of up to 128 registers, up to 8 operands */
}

bool ptx_tc_modifier(ptx_insn *in, const char *w, size_t n)
{
    ptx_tc *tc = &in->tc;
#define W(s) (n == strlen(s) && !memcmp(w, s, n))
    switch (in->op) {                            /* words of the forms with plain integer types */
    case PTX_WGMMA_FENCE: case PTX_WGMMA_COMMIT: case PTX_WGMMA_WAIT:
        if (W("sync")) { in->flags |= PTX_F_SYNC; return true; }
        if (W("aligned")) { in->flags |= PTX_F_ALIGNED; return true; }
        return false;
    case PTX_WGMMA_MMA:
        if (W("sp")) { tc->refuse = "sparse wgmma (.sp)"; return true; }
        if (W("satfinite")) { tc->flags |= PTX_TC_SATFINITE; return true; }
        if (n > 1 && w[0] == 'm' && w[1] >= '0' && w[1] <= '9') return shape_word(w, n, tc);
        break;                                   /* sync, aligned, the types: below */
    case PTX_MAPA: case PTX_GETCTARANK: case PTX_ELECT: case PTX_SETMAXNREG:
        if (W("u32") || W("b32")) { in->type = PTX_T_U32; return true; }
        if (W("u64")) { in->type = PTX_T_U64; return true; }
        if (W("shared::cluster")) { in->space = PTX_SPACE_SHARED_CLUSTER; return true; }
        if (W("shared") || W("shared::cta")) { in->space = PTX_SPACE_SHARED; return true; }
        if (W("sync")) { in->flags |= PTX_F_SYNC; return true; }
        if (W("aligned")) { in->flags |= PTX_F_ALIGNED; return true; }
        if (W("inc") && in->op == PTX_SETMAXNREG) { in->flags |= PTX_F_NREG_INC; return true; }
        if (W("dec") && in->op == PTX_SETMAXNREG) { in->flags |= PTX_F_NREG_DEC; return true; }
        return false;
    case PTX_BARRIER_CLUSTER:
        if (W("arrive")) { in->bar = PTX_BAR_ARRIVE; return true; }
        if (W("wait")) { in->bar = PTX_BAR_SYNC; return true; }
        if (W("aligned")) { in->flags |= PTX_F_ALIGNED; return true; }
        if (W("release") || W("acquire") || W("relaxed")) return true;
        return false;
    case PTX_GRIDDEPCONTROL:
        return W("wait") || W("launch_dependents"); /* no programmatic dependent launch: nothing to wait for */
    default:
        break;
    }
    for (int t = 1; t < (int)(sizeof mt_names / sizeof mt_names[0]); t++)
        if (W(mt_names[t])) {
            uint8_t *slot = !tc->dtype ? &tc->dtype : !tc->atype ? &tc->atype : !tc->btype ? &tc->btype
                          : !tc->ctype ? &tc->ctype : NULL;
            if (!slot) return false;
            *slot = (uint8_t)t;
            return true;
        }
    for (int i = 0; refused_types[i]; i++)
        if (W(refused_types[i])) {
            tc->refuse = "inputs of a type the simulator does not implement";
            return true;
        }
    if (W("sync")) { in->flags |= PTX_F_SYNC; return true; }
    if (W("aligned")) { in->flags |= PTX_F_ALIGNED; return true; }
    if (W("shared") || W("shared::cta")) { in->space = PTX_SPACE_SHARED; return true; }
    if (W("shared::cluster")) { in->space = PTX_SPACE_SHARED_CLUSTER; return true; }
    if (W("global")) {
        if (in->op == PTX_CP_ASYNC) tc->flags |= PTX_TC_SRC_GLOBAL;
        else if (in->op == PTX_CP_BULK || in->op == PTX_CP_BULK_TENSOR)   /* the first space named is the destination */
            tc->flags |= in->space == PTX_SPACE_NONE && !(tc->flags & PTX_TC_PREFETCH) ? PTX_TC_TO_GLOBAL : PTX_TC_SRC_GLOBAL;
        else in->space = PTX_SPACE_GLOBAL;
        return true;
    }
    /* memory semantics and scopes: the simulator runs one thread at a time, in order */
    if (W("release") || W("acquire") || W("relaxed") || W("cta") || W("cluster") || W("gpu") || W("sys"))
        return true;
    switch (in->op) {
    case PTX_CP_ASYNC:
        if (W("ca")) { in->cache = PTX_CACHE_CA; return true; }
        if (W("cg")) { in->cache = PTX_CACHE_CG; return true; }
        if (W("L2::64B") || W("L2::128B") || W("L2::256B")) return true; /* prefetch size: not modelled */
        if (W("L2::cache_hint")) { tc->refuse = "an L2 cache-policy operand (.L2::cache_hint)"; return true; }
        return false;
    case PTX_CP_BULK: case PTX_CP_BULK_TENSOR:
        if (W("mbarrier::complete_tx::bytes")) { tc->flags |= PTX_TC_MBAR; return true; }
        if (W("bulk_group") || W("tile") || W("L2")) return true;
        if (W("prefetch")) { tc->flags |= PTX_TC_PREFETCH; return true; }
        if (W("tensor") && (tc->flags & PTX_TC_PREFETCH)) return true;   /* cp.async.bulk.prefetch.tensor */
        if (n == 2 && w[0] >= '1' && w[0] <= '5' && w[1] == 'd') { tc->dims = (uint8_t)(w[0] - '0'); return true; }
        if (W("L2::cache_hint")) { tc->refuse = "an L2 cache-policy operand (.L2::cache_hint)"; return true; }
        if (W("multicast::cluster")) { tc->flags |= PTX_TC_MULTICAST; return true; }
        if (W("im2col") || W("im2col_no_offs") || W("tile::gather4") || W("tile::scatter4")) {
            tc->refuse = "tensor copies other than .tile";
            return true;
        }
        if (W("read")) return true;
        return false;
    case PTX_CP_BULK_WAIT:
        if (W("read")) return true;              /* wait_group.read: the sources may be reused */
        return false;
    case PTX_CP_MBAR_ARRIVE:
        if (W("noinc")) { tc->flags |= PTX_TC_NOINC; return true; }
        return false;
    case PTX_LDMATRIX: case PTX_STMATRIX:
        if (W("x1") || W("x2") || W("x4")) { tc->num = (uint8_t)(w[1] - '0'); return true; }
        if (W("trans")) { tc->flags |= PTX_TC_TRANS; return true; }
        if (W("b8") || W("b8x16.b6x16_p32") || W("b8x16.b4x16_p64")) {   /* sm_100a+: not an sm_90 form */
            tc->atype = PTX_MT_NONE;
            tc->refuse = "b8 matrices (m16n16, m8n16: sm_100a and later)";
            return true;
        }
        if (n > 1 && w[0] == 'm') return shape_word(w, n, tc);
        return false;
    case PTX_WMMA_LOAD: case PTX_WMMA_STORE:
        if (n == 1 && (w[0] == 'a' || w[0] == 'b' || w[0] == 'c' || w[0] == 'd') && !tc->frag) {
            tc->frag = w[0];
            return true;
        }
        if (W("row") || W("col")) { tc->alayout = w[0]; return true; }
        if (n > 1 && w[0] == 'm') return shape_word(w, n, tc);
        return false;
    case PTX_WMMA_MMA: case PTX_MMA:
        if (W("row") || W("col")) {
            if (!tc->alayout) tc->alayout = w[0];
            else if (!tc->blayout) tc->blayout = w[0];
            else return false;
            return true;
        }
        if (W("satfinite")) { tc->flags |= PTX_TC_SATFINITE; return true; }
        if ((W("and") || W("xor")) && !tc->bitop) { tc->bitop = w[0] == 'a' ? 'a' : 'x'; return true; }
        if (W("popc") && tc->bitop) return true;
        if (W("rn") && in->op == PTX_WMMA_MMA) return true;   /* f64 wmma: round to nearest, the default */
        if ((W("rz") || W("rm") || W("rp")) && in->op == PTX_WMMA_MMA) {
            tc->refuse = "f64 wmma with directed rounding (.rz, .rm, .rp)";
            return true;
        }
        if (n > 5 && !memcmp(w, "kind::", 6)) { tc->refuse = "mma .kind:: forms (sm_100+)"; return true; }
        if (W("sp") || W("sp::ordered_metadata")) { tc->refuse = "sparse mma (.sp)"; return true; }
        if (n > 1 && w[0] == 'm') return shape_word(w, n, tc);
        return false;
    default:
        if (is_mbar(in->op)) {
            if (W("expect_tx") && (in->op == PTX_MBAR_ARRIVE)) { tc->flags |= PTX_TC_EXPECT_TX; return true; }
            if (W("parity") && (in->op == PTX_MBAR_TEST_WAIT || in->op == PTX_MBAR_TRY_WAIT)) {
                tc->flags |= PTX_TC_PARITY;
                return true;
            }
            if (W("noComplete")) { tc->refuse = "mbarrier.arrive.noComplete"; return true; }
        }
        return false;
    }
#undef W
}

/* ---- checks after the operands --------------------------------------------- */

static bool is_reg(const ptx_operand *o) { return o->kind == PTX_OPND_REG; }
static bool is_reg_or_imm(const ptx_operand *o) { return o->kind == PTX_OPND_REG || o->kind == PTX_OPND_IMM; }

/* A register vector of exactly want elements (a lone register counts as one). */
static bool vec_of(const ptx_operand *o, int want)
{
    if (o->kind == PTX_OPND_REG) return want == 1 && !o->neg;
    if (o->kind != PTX_OPND_VEC || o->vec_n != want) return false;
    for (int i = 0; i < o->vec_n; i++)
        if (o->vec[i] < 0) return false;
    return true;
}

static int vec_len(const ptx_operand *o)
{
    return o->kind == PTX_OPND_REG ? 1 : o->kind == PTX_OPND_VEC ? o->vec_n : 0;
}

/* Registers per lane of an mma fragment: A, B, C (= D). 0 when the form is not implemented. */
typedef struct { int a, b, c; } frag_regs;

static frag_regs mma_regs(const ptx_tc *tc)
{
    frag_regs r = {0, 0, 0};
    int m = tc->m, n = tc->n, k = tc->k, at = tc->atype, bt = tc->btype, ct = tc->ctype, dt = tc->dtype;
    bool half = (at == PTX_MT_F16 || at == PTX_MT_BF16) && bt == at;
    bool int8 = (at == PTX_MT_S8 || at == PTX_MT_U8) && (bt == PTX_MT_S8 || bt == PTX_MT_U8);
    if (tc->alayout != 'r' || tc->blayout != 'c') return r;
    if (m == 16 && n == 8 && half && (k == 16 || k == 8)) {
        bool f32 = ct == PTX_MT_F32 && dt == PTX_MT_F32;
        bool f16 = at == PTX_MT_F16 && ct == PTX_MT_F16 && dt == PTX_MT_F16;
        bool mixed = at == PTX_MT_F16 && (ct == PTX_MT_F16 || ct == PTX_MT_F32) && (dt == PTX_MT_F16 || dt == PTX_MT_F32);
        if (!(f32 || f16 || mixed)) return r;
        r.a = k / 4;                 /* k16: 4 x f16x2, k8: 2 */
        r.b = k / 8;
        r.c = ct == PTX_MT_F32 ? 4 : 2;
        if (dt != ct) r.c = -1;      /* d and c of different widths: checked apart */
        return r;
    }
    if (m == 16 && n == 8 && at == PTX_MT_TF32 && bt == PTX_MT_TF32 && ct == PTX_MT_F32 && dt == PTX_MT_F32 &&
        (k == 8 || k == 4))
        return (frag_regs){k / 2, k / 4, 4};
    if (m == 16 && n == 8 && int8 && ct == PTX_MT_S32 && dt == PTX_MT_S32 && (k == 32 || k == 16))
        return (frag_regs){k / 8, k / 16, 4};
    if (m == 8 && n == 8 && k == 4 && at == PTX_MT_F64 && bt == PTX_MT_F64 && ct == PTX_MT_F64 && dt == PTX_MT_F64)
        return (frag_regs){1, 1, 2};
    bool fp8 = (at == PTX_MT_E4M3 || at == PTX_MT_E5M2) && (bt == PTX_MT_E4M3 || bt == PTX_MT_E5M2);
    if (m == 16 && n == 8 && k == 32 && fp8 && ct == PTX_MT_F32 && dt == PTX_MT_F32)   /* sm_89+ */
        return (frag_regs){4, 2, 4};
    /* sub-byte: s4/u4 (8 a register) and b1 (32 a register, .and.popc / .xor.popc), s32 accumulators;
       m8n8: one register of A and B, two of C; m16n8 at the smaller K: 2, 1, 4; at the larger: 4, 2, 4 */
    bool int4 = ptx_mma_type_bits(at) == 4 && ptx_mma_type_bits(bt) == 4;
    bool b1 = at == PTX_MT_B1 && bt == PTX_MT_B1;
    if ((int4 || b1) && ct == PTX_MT_S32 && dt == PTX_MT_S32 && (b1 == (tc->bitop != 0))) {
        int k0 = int4 ? 32 : 128;
        if (m == 8 && n == 8 && k == k0) return (frag_regs){1, 1, 2};
        if (m == 16 && n == 8 && k == k0) return (frag_regs){2, 1, 4};
        if (m == 16 && n == 8 && k == 2 * k0) return (frag_regs){4, 2, 4};
    }
    return r;
}

static int c_regs_of(int t) { return t == PTX_MT_F32 ? 4 : 2; }

static const char *check_mma(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    if (tc->refuse) return NULL;
    if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "mma needs .sync.aligned";
    frag_regs r = mma_regs(tc);
    if (!r.a) {
        tc->refuse = "an mma shape, layout or type combination the simulator does not implement";
        return NULL;
    }
    int rc = r.c > 0 ? r.c : c_regs_of(tc->ctype), rd = r.c > 0 ? r.c : c_regs_of(tc->dtype);
    const int want[4] = {rd, r.a, r.b, rc};
    static const char *const what[4] = {"D", "A", "B", "C"};
    for (int i = 0; i < 4; i++)
        if (!vec_of(&in->opnd[i], want[i])) {
            snprintf(buf, cap, "the %s fragment of m%dn%dk%d.%s needs %d register%s, found %d", what[i], tc->m, tc->n,
                     tc->k, mt_names[tc->atype], want[i], want[i] > 1 ? "s" : "", vec_len(&in->opnd[i]));
            return buf;
        }
    return NULL;
}

/* Registers per lane of a wmma fragment (PTX ISA "Matrix Fragments for WMMA"), 0 for a shape
 * and type the ISA does not have: f16 A and B are 8 .f16x2 whatever the shape (the distinct
 * elements fill M*K/64 or K*N/64 of them; the rest repeat, fragments.h); every other fragment
 * holds exactly its elements (bf16 m32n8k16 A: 8, B: 2; s8 m16n16k16 A: 2; tf32 A: 4; f64: 1, 1,
 * 2). Shapes: m16n16k16, m32n8k16, m8n32k16 (f16, bf16, s8, u8), m16n16k8 (tf32), m8n8k4 (f64). */
static int wmma_regs(const ptx_tc *tc, char frag, int type)
{
    int m = tc->m, n = tc->n, k = tc->k, bits;
    bool half = k == 16 && ((m == 16 && n == 16) || (m == 32 && n == 8) || (m == 8 && n == 32));
    bool tf32 = m == 16 && n == 16 && k == 8, f64 = m == 8 && n == 8 && k == 4;
    bool int4 = m == 8 && n == 8 && k == 32, bin = m == 8 && n == 8 && k == 128;   /* sub-byte */
    int rows = frag == 'b' ? k : m, cols = frag == 'a' ? k : n;
    if (frag == 'a' || frag == 'b') {
        if (int4 && ptx_mma_type_bits(type) == 4) return 1;               /* 8 elements in one register */
        if (bin && type == PTX_MT_B1) return 1;                             /* 32 */
        if (half && type == PTX_MT_F16) return 8;
        if (half && type == PTX_MT_BF16) bits = 16;
        else if (half && (type == PTX_MT_S8 || type == PTX_MT_U8)) bits = 8;
        else if (tf32 && type == PTX_MT_TF32) bits = 32;
        else if (f64 && type == PTX_MT_F64) bits = 64;
        else return 0;
    } else {
        if (half && type == PTX_MT_F16) bits = 16;
        else if ((half || tf32) && type == PTX_MT_F32) bits = 32;
        else if ((half || int4 || bin) && type == PTX_MT_S32) bits = 32;
        else if (f64 && type == PTX_MT_F64) bits = 64;
        else return 0;
    }
    int elems = rows * cols / 32;
    return bits >= 32 ? elems : elems * bits / 32;
}

/* The accumulators a wmma.mma of these inputs may have (PTX ISA "wmma.mma"). */
static bool wmma_acc_ok(int at, int ct, int dt)
{
    switch (at) {
    case PTX_MT_F16: return (ct == PTX_MT_F16 || ct == PTX_MT_F32) && (dt == PTX_MT_F16 || dt == PTX_MT_F32);
    case PTX_MT_BF16: case PTX_MT_TF32: return ct == PTX_MT_F32 && dt == PTX_MT_F32;
    case PTX_MT_S8: case PTX_MT_U8: case PTX_MT_S4: case PTX_MT_U4: case PTX_MT_B1:
        return ct == PTX_MT_S32 && dt == PTX_MT_S32;
    case PTX_MT_F64: return ct == PTX_MT_F64 && dt == PTX_MT_F64;
    default: return false;
    }
}

static const char *check_wmma(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    if (tc->refuse) return NULL;
    if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "wmma needs .sync.aligned";
    if (in->op == PTX_WMMA_MMA) {
        if (!tc->alayout || !tc->blayout) return "wmma.mma names the layouts of A and B (.row/.col twice)";
        if (!tc->btype && !tc->ctype) {      /* .dtype.ctype with f16 inputs */
            tc->ctype = tc->atype;
            tc->atype = tc->btype = PTX_MT_F16;
        }
        bool ints = (tc->atype == PTX_MT_S8 || tc->atype == PTX_MT_U8) && (tc->btype == PTX_MT_S8 || tc->btype == PTX_MT_U8);
        bool int4 = ptx_mma_type_bits(tc->atype) == 4 && ptx_mma_type_bits(tc->btype) == 4;
        bool b1 = tc->atype == PTX_MT_B1;
        ints |= int4;
        const int want[4] = {wmma_regs(tc, 'd', tc->dtype), wmma_regs(tc, 'a', tc->atype), wmma_regs(tc, 'b', tc->btype),
                             wmma_regs(tc, 'c', tc->ctype)};
        if ((int4 || b1) && (tc->alayout != 'r' || tc->blayout != 'c'))
            return "sub-byte wmma.mma (.s4, .u4, .b1) is .row.col";
        if (b1 != (tc->bitop != 0)) return b1 ? ".b1 wmma.mma names its operation (.xor.popc or .and.popc)"
                                              : ".xor.popc / .and.popc belong to the .b1 form";
        if ((tc->btype != tc->atype && !ints) || !want[0] || !want[1] || !want[2] || !want[3] ||
            !wmma_acc_ok(tc->atype, tc->ctype, tc->dtype) || ((tc->flags & PTX_TC_SATFINITE) && !ints)) {
            tc->refuse = "a wmma shape and type combination the simulator does not implement";
            return NULL;
        }
        for (int i = 0; i < 4; i++)
            if (!vec_of(&in->opnd[i], want[i])) {
                snprintf(buf, cap, "operand %d needs %d register%s, found %d", i + 1, want[i], want[i] > 1 ? "s" : "",
                         vec_len(&in->opnd[i]));
                return buf;
            }
        return NULL;
    }
    /* load / store: one type, in dtype (the first type word) */
    int type = tc->dtype;
    char frag = tc->frag;
    if (!frag) return "wmma.load/store names its fragment (.a, .b, .c or .d)";
    if ((in->op == PTX_WMMA_LOAD) == (frag == 'd')) return "wmma.load takes .a, .b or .c; wmma.store takes .d";
    if (!tc->alayout) return "wmma.load/store names its layout (.row or .col)";
    if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_GLOBAL && in->space != PTX_SPACE_SHARED)
        return "wmma.load/store addresses .global, .shared or generic memory";
    int want = wmma_regs(tc, frag == 'd' ? 'c' : frag, type);
    bool subbyte = ptx_mma_type_subbyte(type);
    if (subbyte && want && tc->alayout != (frag == 'a' ? 'r' : 'c'))
        return frag == 'a' ? "a sub-byte A fragment (.s4, .u4, .b1) is loaded .row" : "a sub-byte B fragment is loaded .col";
    if (!want) {
        tc->refuse = "a wmma shape and fragment type the simulator does not implement";
        return NULL;
    }
    const ptx_operand *v = &in->opnd[in->op == PTX_WMMA_LOAD ? 0 : 1];
    if (!vec_of(v, want)) {
        snprintf(buf, cap, "the .%c fragment of .m%dn%dk%d.%s needs %d register%s, found %d", frag, tc->m, tc->n, tc->k,
                 mt_names[type], want, want > 1 ? "s" : "", vec_len(v));
        return buf;
    }
    if (in->nopnd == 3 && !is_reg_or_imm(&in->opnd[2])) return "the stride must be a register or a number";
    return NULL;
}

static const char *check_ldst_matrix(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    if (tc->refuse) return NULL;
    if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "needs .sync.aligned";
    if (tc->m != 8 || tc->n != 8 || tc->k) return "the shape must be .m8n8 (with .b16)";
    if (tc->dtype != PTX_MT_B16) return "the type must be .b16";
    if (!tc->num) return "names no matrix count (.x1, .x2, .x4)";
    if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_SHARED) return "addresses .shared or generic memory";
    const ptx_operand *v = &in->opnd[in->op == PTX_LDMATRIX ? 0 : 1];
    if (!vec_of(v, tc->num)) {
        snprintf(buf, cap, ".x%d moves %d register%s per thread, found %d", tc->num, tc->num, tc->num > 1 ? "s" : "",
                 vec_len(v));
        return buf;
    }
    return NULL;
}

static const char *check_cp_async(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    (void)buf; (void)cap;
    if (tc->refuse) return NULL;
    if (in->cache != PTX_CACHE_CA && in->cache != PTX_CACHE_CG) return "names no cache level (.ca or .cg)";
    if (in->space != PTX_SPACE_SHARED || !(tc->flags & PTX_TC_SRC_GLOBAL))
        return "copies .shared (destination) from .global (source)";
    if (in->opnd[2].kind != PTX_OPND_IMM) return "the copy size must be a number (4, 8 or 16)";
    int64_t sz = in->opnd[2].imm;
    if (sz != 4 && sz != 8 && sz != 16) return "the copy size must be 4, 8 or 16 bytes";
    if (in->cache == PTX_CACHE_CG && sz != 16) return ".cg copies 16 bytes";
    tc->cp_size = (uint8_t)sz;
    if (in->nopnd == 5) return "takes [dst], [src], size and at most a source size or ignore-src";
    if (in->nopnd == 4) {
        const ptx_operand *o = &in->opnd[3];
        if (!is_reg_or_imm(o)) return "the fourth operand is a source size (register or number) or an ignore-src predicate";
        if (o->kind == PTX_OPND_IMM && (o->imm < 0 || o->imm > sz)) return "the source size must lie in 0..copy size";
        tc->flags |= PTX_TC_ZFILL;
    }
    return NULL;
}

/* cp.async.bulk[.tensor]: operands per direction (ptx_insn_extra_mem has placed the addresses). */
static const char *check_bulk(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    bool tensor = in->op == PTX_CP_BULK_TENSOR, store = tc->flags & PTX_TC_TO_GLOBAL;
    int n = in->nopnd;
    if (tc->refuse) return NULL;
    if (tc->flags & PTX_TC_PREFETCH) {
        if (n != 2) return "a prefetch takes [src], size or [tensorMap, {coordinates}]";
        return NULL;
    }
    if (tensor && !tc->dims) return "names its dimensions (.1d .. .5d)";
    if (store ? in->space != PTX_SPACE_SHARED
              : (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER) || !(tc->flags & PTX_TC_SRC_GLOBAL))
        return "copies .global to .shared::cluster / .shared::cta, or .shared::cta to .global";
    if (!store && !(tc->flags & PTX_TC_MBAR))
        return "a copy to shared memory completes on an mbarrier (.mbarrier::complete_tx::bytes)";
    bool mc = tc->flags & PTX_TC_MULTICAST;
    if (mc && (store || in->space != PTX_SPACE_SHARED_CLUSTER))
        return ".multicast::cluster copies .global to .shared::cluster";
    int want = store ? 3 : mc ? 5 : 4;
    if (n != want) {
        snprintf(buf, cap, "takes %d operands here, found %d", want, n);
        return buf;
    }
    if (tensor) {
        const ptx_operand *c = &in->opnd[store ? 1 : 2];
        if (c->kind != PTX_OPND_VEC || c->vec_n != tc->dims) {
            snprintf(buf, cap, "a .%dd copy takes %d coordinates {..} after the tensor map's address", tc->dims, tc->dims);
            return buf;
        }
    } else if (in->opnd[2].kind != PTX_OPND_IMM && in->opnd[2].kind != PTX_OPND_REG) {
        return "the size must be a register or a number";
    }
    if (mc && !is_reg_or_imm(&in->opnd[4])) return "the ctaMask (a 16-bit mask of the cluster's block ranks) must be a register or a number";
    return NULL;
}

static const char *check_mbar(ptx_insn *in)
{
    ptx_tc *tc = &in->tc;
    if (tc->refuse) return NULL;
    if (tc->dtype != PTX_MT_B64) return "an mbarrier is a .b64 object: the type must be .b64";
    /* PTX ISA: a thread may only arrive on (and expect_tx / complete_tx on) an mbarrier of another
       block of its cluster, through a .shared::cluster address; the arrive's state is then the sink _ */
    if (in->space == PTX_SPACE_SHARED_CLUSTER) {
        if (in->op != PTX_MBAR_ARRIVE && in->op != PTX_MBAR_ARRIVE_DROP && in->op != PTX_MBAR_EXPECT_TX &&
            in->op != PTX_MBAR_COMPLETE_TX)
            return "a .shared::cluster mbarrier (another block's) takes only arrive, arrive_drop, expect_tx and complete_tx: "
                   "init, test_wait and try_wait name a .shared::cta one";
        if ((in->op == PTX_MBAR_ARRIVE || in->op == PTX_MBAR_ARRIVE_DROP) && in->opnd[0].kind != PTX_OPND_SINK)
            return "an arrive on a .shared::cluster mbarrier returns no state: its destination must be _";
    }
    if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER)
        return "an mbarrier lives in .shared memory";
    switch (in->op) {
    case PTX_MBAR_INIT: case PTX_MBAR_EXPECT_TX: case PTX_MBAR_COMPLETE_TX:
        if (!is_reg_or_imm(&in->opnd[1])) return "the count must be a register or a number";
        break;
    case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP:
        if (in->opnd[0].kind != PTX_OPND_REG && in->opnd[0].kind != PTX_OPND_SINK) return "the state must be a register or _";
        if ((tc->flags & PTX_TC_EXPECT_TX) && in->nopnd != 3) return ".expect_tx takes a transaction count";
        if (in->nopnd == 3 && !is_reg_or_imm(&in->opnd[2])) return "the count must be a register or a number";
        break;
    case PTX_MBAR_TEST_WAIT: case PTX_MBAR_TRY_WAIT:
        if (!is_reg(&in->opnd[0])) return "the result must be a predicate register";
        if (!is_reg_or_imm(&in->opnd[2])) return "the state or phase parity must be a register or a number";
        break;
    default:
        break;
    }
    return NULL;
}

/* wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b-desc, scale-d[, imm-scale-a,
 * imm-scale-b[, imm-trans-a], imm-trans-b] (PTX ISA "wgmma.mma_async"): the shapes and types the ISA
 * allows for dense wgmma on sm_90a. K is 16 for f16/bf16, 8 for tf32, 32 for e4m3/e5m2 and s8/u8;
 * N is 8..256 in steps of 8 (integer: 8, 16, 24, then steps of 16 from 32). a is a 64-bit descriptor
 * or a {..} of 4 registers (A in registers: no imm-trans-a). D has N/2 registers (f32, s32) or N/4
 * (f16 pairs). The transposes exist for f16/bf16 only; the integer form has no scale immediates. */
static const char *check_wgmma(ptx_insn *in, char *buf, size_t cap)
{
    ptx_tc *tc = &in->tc;
    if (tc->refuse) return NULL;
    if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "wgmma.mma_async needs .sync.aligned";
    int at = tc->atype, bt = tc->btype, dt = tc->dtype, N = tc->n;
    bool half = (at == PTX_MT_F16 || at == PTX_MT_BF16) && bt == at;
    bool tf32 = at == PTX_MT_TF32 && bt == at;
    bool fp8 = (at == PTX_MT_E4M3 || at == PTX_MT_E5M2) && (bt == PTX_MT_E4M3 || bt == PTX_MT_E5M2);
    bool ints = (at == PTX_MT_S8 || at == PTX_MT_U8) && (bt == PTX_MT_S8 || bt == PTX_MT_U8);
    if (!tc->m || (!half && !tf32 && !fp8 && !ints) || tc->ctype)
        return "names a shape (.m64nNkK) and the types .dtype.atype.btype of a dense wgmma (f16, bf16, tf32, e4m3/e5m2, s8/u8)";
    int K = half ? 16 : tf32 ? 8 : 32;
    bool nok = ints ? (N == 8 || N == 16 || N == 24 || (N >= 32 && N <= 256 && N % 16 == 0))
                    : (N >= 8 && N <= 256 && N % 8 == 0);
    if (tc->m != 64 || tc->k != K || !nok) {
        snprintf(buf, cap, "the shape must be .m64nNk%d with N = %s for .%s inputs", K,
                 ints ? "8, 16, 24, 32, 48 .. 256 (steps of 16)" : "8 .. 256 in steps of 8", mt_names[at]);
        return buf;
    }
    bool dok = ints ? dt == PTX_MT_S32 : (half && at == PTX_MT_F16) || fp8 ? dt == PTX_MT_F32 || dt == PTX_MT_F16
                                                                           : dt == PTX_MT_F32;
    if (!dok) {
        snprintf(buf, cap, ".%s inputs accumulate in %s", mt_names[at], ints ? ".s32" : (at == PTX_MT_F16 || fp8)
                 ? ".f32 or .f16" : ".f32");
        return buf;
    }
    if ((tc->flags & PTX_TC_SATFINITE) && !ints) return ".satfinite belongs to the integer (s8/u8) form";
    int nd = dt == PTX_MT_F16 ? N / 4 : N / 2;
    int got = in->opnd[0].wide_n ? in->opnd[0].wide_n : vec_len(&in->opnd[0]);
    if (in->opnd[0].kind != PTX_OPND_VEC || got != nd) {
        snprintf(buf, cap, "the D fragment of .m64n%dk%d.%s needs %d registers, found %d", N, K, mt_names[dt], nd, got);
        return buf;
    }
    const ptx_operand *a = &in->opnd[1];
    bool adesc = a->kind == PTX_OPND_REG;
    if (adesc) tc->flags |= PTX_TC_WG_ADESC;
    else if (!vec_of(a, 4)) return "A is a 64-bit matrix descriptor or a {..} of 4 registers";
    if (in->opnd[2].kind != PTX_OPND_REG) return "B is a 64-bit matrix descriptor (a register)";
    const ptx_operand *sd = &in->opnd[3];
    if (sd->kind != PTX_OPND_REG && sd->kind != PTX_OPND_IMM) return "scale-d is a predicate (or 0 / 1)";
    /* the immediates after scale-d: scale-a, scale-b (not for integers), then the transposes (f16/bf16) */
    int want = ints ? 0 : half ? (adesc ? 4 : 3) : 2, have = in->nopnd - 4 + tc->nx;
    if (have != want) {
        snprintf(buf, cap, "takes %d immediate%s after scale-d (%s), found %d", want, want == 1 ? "" : "s",
                 ints ? "none for s8/u8" : half ? (adesc ? "imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b"
                                                         : "imm-scale-a, imm-scale-b, imm-trans-b")
                      : "imm-scale-a, imm-scale-b", have);
        return buf;
    }
    int64_t v[4];
    for (int i = 0; i < want; i++) {
        const ptx_operand *o = 4 + i < in->nopnd ? &in->opnd[4 + i] : NULL;
        if (o && o->kind != PTX_OPND_IMM) return "imm-scale-a, imm-scale-b and the transposes are immediates";
        v[i] = o ? o->imm : tc->ximm[4 + i - in->nopnd];
    }
    for (int i = 0; i < want && i < 2; i++)
        if (v[i] != 1 && v[i] != -1) return "imm-scale-a and imm-scale-b are 1 or -1";
    if (want >= 2) {
        if (v[0] < 0) tc->flags |= PTX_TC_WG_NEG_A;
        if (v[1] < 0) tc->flags |= PTX_TC_WG_NEG_B;
    }
    for (int i = 2; i < want; i++)
        if (v[i] != 0 && v[i] != 1) return "imm-trans-a and imm-trans-b are 0 or 1";
    if (want == 4 && v[2]) tc->flags |= PTX_TC_WG_TNSP_A;
    if (want >= 3 && v[want - 1]) tc->flags |= PTX_TC_WG_TNSP_B;
    return NULL;
}

const char *ptx_tc_check(ptx_insn *in, char *buf, size_t cap)
{
    switch (in->op) {
    case PTX_MAPA: case PTX_GETCTARANK:
        if (in->type != PTX_T_U32 && in->type != PTX_T_U64) return "the type must be .u32 or .u64";
        return NULL;
    case PTX_WGMMA_MMA: return check_wgmma(in, buf, cap);
    case PTX_WGMMA_FENCE: case PTX_WGMMA_COMMIT: case PTX_WGMMA_WAIT:
        if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "needs .sync.aligned";
        if (in->op == PTX_WGMMA_WAIT && (in->opnd[0].kind != PTX_OPND_IMM || in->opnd[0].imm < 0 || in->opnd[0].imm > 7))
            return "the group count must be a number in 0..7";
        return NULL;
    case PTX_SETMAXNREG: {                       /* PTX ISA "setmaxnreg": the only form */
        uint32_t act = in->flags & (PTX_F_NREG_INC | PTX_F_NREG_DEC);
        if (act != PTX_F_NREG_INC && act != PTX_F_NREG_DEC) return "needs exactly one of .inc and .dec";
        if (!(in->flags & PTX_F_SYNC) || !(in->flags & PTX_F_ALIGNED)) return "needs .sync.aligned";
        if (in->type != PTX_T_U32) return "the type must be .u32";
        if (in->opnd[0].kind != PTX_OPND_IMM) return "the register count must be an immediate";
        int64_t v = in->opnd[0].imm;
        if (v < PTX_NREG_MIN || v > PTX_NREG_MAX || v % 8) {
            snprintf(buf, cap, "the register count %lld is not a multiple of 8 in %d..%d (PTX ISA)", (long long)v,
                     PTX_NREG_MIN, PTX_NREG_MAX);
            return buf;
        }
        return NULL;
    }
    case PTX_ELECT:
        if (!(in->flags & PTX_F_SYNC)) return "needs .sync";
        if (in->nopnd != 3) return "takes d|p, membermask";
        return NULL;
    case PTX_CP_ASYNC: return check_cp_async(in, buf, cap);
    case PTX_CP_WAIT:
        if (in->opnd[0].kind != PTX_OPND_IMM || in->opnd[0].imm < 0) return "the group count must be a number >= 0";
        return NULL;
    case PTX_CP_BULK: case PTX_CP_BULK_TENSOR: return check_bulk(in, buf, cap);
    case PTX_CP_BULK_WAIT:
        if (in->opnd[0].kind != PTX_OPND_IMM || in->opnd[0].imm < 0) return "the group count must be a number >= 0";
        return NULL;
    case PTX_CP_MBAR_ARRIVE:
        if (in->tc.dtype != PTX_MT_B64) return "the type must be .b64";
        if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_SHARED) return "the mbarrier lives in .shared memory";
        return NULL;
    case PTX_LDMATRIX: case PTX_STMATRIX: return check_ldst_matrix(in, buf, cap);
    case PTX_WMMA_LOAD: case PTX_WMMA_STORE: case PTX_WMMA_MMA: return check_wmma(in, buf, cap);
    case PTX_MMA: return check_mma(in, buf, cap);
    default:
        return is_mbar(in->op) ? check_mbar(in) : NULL;
    }
}

int ptx_tc_width(const ptx_insn *in)
{
    switch (in->op) {
    case PTX_CP_ASYNC: return in->tc.cp_size;
    case PTX_LDMATRIX: case PTX_STMATRIX: return 16;
    case PTX_CP_BULK: case PTX_CP_BULK_TENSOR: return 16;   /* the 16-byte chunks its events carry */
    case PTX_WMMA_LOAD: case PTX_WMMA_STORE: return 4;
    default: return 0;
    }
}

/* ---- formatting ---------------------------------------------------------------- */

typedef struct { char *buf; size_t cap, len; } sb;

static void add(sb *s, const char *a, const char *b)
{
    int k = snprintf(s->buf + s->len, s->cap - s->len, "%s%s", a, b);
    if (k > 0) s->len = s->len + (size_t)k < s->cap ? s->len + (size_t)k : s->cap - 1;
}

static void add_shape(sb *s, const ptx_tc *tc)
{
    char t[24];
    if (tc->k) snprintf(t, sizeof t, ".m%dn%dk%d", tc->m, tc->n, tc->k);
    else snprintf(t, sizeof t, ".m%dn%d", tc->m, tc->n);
    add(s, t, "");
}

static void add_space(sb *s, const ptx_insn *in)
{
    if (in->space == PTX_SPACE_SHARED) add(s, ".shared", "");
    else if (in->space == PTX_SPACE_SHARED_CLUSTER) add(s, ".shared::cluster", "");
    else if (in->space == PTX_SPACE_GLOBAL) add(s, ".global", "");
}

static void add_type(sb *s, int t)
{
    if (t > 0 && t < (int)(sizeof mt_names / sizeof mt_names[0])) add(s, ".", mt_names[t]);
}

static void add_sync(sb *s, const ptx_insn *in)
{
    if (in->flags & PTX_F_SYNC) add(s, ".sync", "");
    if (in->flags & PTX_F_ALIGNED) add(s, ".aligned", "");
}

void ptx_tc_format_mods(const ptx_insn *in, char *buf, size_t cap)
{
    sb s = {buf, cap, 0};
    const ptx_tc *tc = &in->tc;
    buf[0] = 0;
    switch (in->op) {
    case PTX_CP_ASYNC:
        add(&s, in->cache == PTX_CACHE_CG ? ".cg" : in->cache == PTX_CACHE_CA ? ".ca" : "", "");
        add_space(&s, in);
        if (tc->flags & PTX_TC_SRC_GLOBAL) add(&s, ".global", "");
        break;
    case PTX_CP_MBAR_ARRIVE:
        if (tc->flags & PTX_TC_NOINC) add(&s, ".noinc", "");
        add_space(&s, in);
        add_type(&s, tc->dtype);
        break;
    case PTX_LDMATRIX: case PTX_STMATRIX: {
        add_sync(&s, in);
        add_shape(&s, tc);
        char x[8];
        snprintf(x, sizeof x, ".x%d", tc->num);
        if (tc->num) add(&s, x, "");
        if (tc->flags & PTX_TC_TRANS) add(&s, ".trans", "");
        add_space(&s, in);
        add_type(&s, tc->dtype);
        break;
    }
    case PTX_WMMA_LOAD: case PTX_WMMA_STORE: {
        char f[4] = {'.', tc->frag, 0, 0};
        if (tc->frag) add(&s, f, "");
        add_sync(&s, in);
        if (tc->alayout) add(&s, tc->alayout == 'r' ? ".row" : ".col", "");
        add_shape(&s, tc);
        add_space(&s, in);
        add_type(&s, tc->dtype);
        break;
    }
    case PTX_WMMA_MMA: case PTX_MMA:
        add_sync(&s, in);
        if (in->op == PTX_MMA) add_shape(&s, tc);
        if (tc->alayout) add(&s, tc->alayout == 'r' ? ".row" : ".col", "");
        if (tc->blayout) add(&s, tc->blayout == 'r' ? ".row" : ".col", "");
        if (in->op == PTX_WMMA_MMA) add_shape(&s, tc);
        if (tc->flags & PTX_TC_SATFINITE) add(&s, ".satfinite", "");
        add_type(&s, tc->dtype);
        if (in->op == PTX_MMA || tc->atype != PTX_MT_F16) {
            add_type(&s, tc->atype);
            add_type(&s, tc->btype);
        }
        add_type(&s, tc->ctype);
        if (tc->bitop) add(&s, tc->bitop == 'a' ? ".and.popc" : ".xor.popc", "");
        break;
    case PTX_CP_BULK: case PTX_CP_BULK_TENSOR: {
        if (tc->flags & PTX_TC_PREFETCH) add(&s, ".prefetch", "");
        char d[8];
        snprintf(d, sizeof d, ".%dd", tc->dims);
        if (tc->dims) add(&s, d, "");
        if (tc->flags & PTX_TC_TO_GLOBAL) {
            add(&s, ".global", "");
            add_space(&s, in);
        } else {
            add_space(&s, in);
            if (tc->flags & PTX_TC_SRC_GLOBAL) add(&s, ".global", "");
        }
        if (tc->flags & PTX_TC_MBAR) add(&s, ".mbarrier::complete_tx::bytes", "");
        if (tc->flags & PTX_TC_MULTICAST) add(&s, ".multicast::cluster", "");
        break;
    }
    case PTX_WGMMA_FENCE: case PTX_WGMMA_COMMIT: case PTX_WGMMA_WAIT:
        add_sync(&s, in);
        break;
    case PTX_WGMMA_MMA:
        add_sync(&s, in);
        add_shape(&s, tc);
        if (tc->flags & PTX_TC_SATFINITE) add(&s, ".satfinite", "");
        add_type(&s, tc->dtype);
        add_type(&s, tc->atype);
        add_type(&s, tc->btype);
        break;
    case PTX_CP_COMMIT: case PTX_CP_WAIT: case PTX_CP_WAIT_ALL: case PTX_CP_BULK_COMMIT: case PTX_CP_BULK_WAIT:
    case PTX_GRIDDEPCONTROL:
        break;
    case PTX_MAPA: case PTX_GETCTARANK: case PTX_ELECT: case PTX_SETMAXNREG:
        if (in->op == PTX_SETMAXNREG) add(&s, in->flags & PTX_F_NREG_INC ? ".inc" : ".dec", "");
        if (in->op == PTX_ELECT || in->op == PTX_SETMAXNREG) add_sync(&s, in);
        add_space(&s, in);
        if (in->op != PTX_ELECT) add(&s, in->type == PTX_T_U64 ? ".u64" : ".u32", "");
        break;
    case PTX_BARRIER_CLUSTER:
        add(&s, in->bar == PTX_BAR_ARRIVE ? ".arrive" : ".wait", "");
        if (in->flags & PTX_F_ALIGNED) add(&s, ".aligned", "");
        break;
    default:
        if (tc->flags & PTX_TC_EXPECT_TX) add(&s, ".expect_tx", "");
        if (tc->flags & PTX_TC_PARITY) add(&s, ".parity", "");
        add_space(&s, in);
        add_type(&s, tc->dtype);
        break;
    }
}
