/* pipes.c - the pipe of a SASS or PTX instruction (see pipes.h). The classes follow Nsight
 * Compute's pipe names (alu, fma/fmaheavy, fp64, xu) and the CUDA C Programming Guide's
 * throughput table; tests/gpu/latency_probe.cu measured each under ncu on the H200
 * (results/h200-latency/pipes-ncu.csv: IADD3 and IMAD.IADD split the integer adds between
 * alu and fmaheavy; VIADD counts on fmaheavy); the tensor forms' rates tests/gpu/tensor_pipe_probe.cu
 * (results/h200-tensorpipe). */
#include "pipes.h"

#include <string.h>

typedef struct {
    const char *op;
    ws_pipe pipe;
} sass_row;

/* The opcode before its first '.'; MUFU etc. Unknown opcodes use no arithmetic pipe. */
static const sass_row sass_rows[] = {
    {"FFMA", WS_PIPE_FMA}, {"FADD", WS_PIPE_FMA}, {"FMUL", WS_PIPE_FMA}, {"FFMA32I", WS_PIPE_FMA},
    {"FADD32I", WS_PIPE_FMA}, {"FMUL32I", WS_PIPE_FMA}, {"HFMA2", WS_PIPE_FMA}, {"HADD2", WS_PIPE_FMA},
    {"HMUL2", WS_PIPE_FMA}, {"FSWZADD", WS_PIPE_FMA},
    {"IMAD", WS_PIPE_FMAHEAVY}, {"IMUL", WS_PIPE_FMAHEAVY}, {"IMAD32I", WS_PIPE_FMAHEAVY},
    {"IMUL32I", WS_PIPE_FMAHEAVY}, {"IDP", WS_PIPE_FMAHEAVY}, {"IDP4A", WS_PIPE_FMAHEAVY},
    {"VIADD", WS_PIPE_FMAHEAVY},
    {"IADD3", WS_PIPE_ALU}, {"IADD", WS_PIPE_ALU}, {"IADD32I", WS_PIPE_ALU}, {"LOP3", WS_PIPE_ALU},
    {"LOP", WS_PIPE_ALU}, {"LOP32I", WS_PIPE_ALU}, {"SHF", WS_PIPE_ALU}, {"SHL", WS_PIPE_ALU},
    {"SHR", WS_PIPE_ALU}, {"ISETP", WS_PIPE_ALU}, {"FSETP", WS_PIPE_ALU}, {"IMNMX", WS_PIPE_ALU},
    {"FMNMX", WS_PIPE_ALU}, {"LEA", WS_PIPE_ALU}, {"SEL", WS_PIPE_ALU}, {"FSEL", WS_PIPE_ALU},
    {"PRMT", WS_PIPE_ALU}, {"IABS", WS_PIPE_ALU}, {"ISCADD", WS_PIPE_ALU}, {"BMSK", WS_PIPE_ALU},
    {"SGXT", WS_PIPE_ALU}, {"PLOP3", WS_PIPE_ALU}, {"P2R", WS_PIPE_ALU}, {"R2P", WS_PIPE_ALU},
    {"MOV", WS_PIPE_ALU}, {"FSET", WS_PIPE_ALU}, {"ISET", WS_PIPE_ALU}, {"F2FP", WS_PIPE_ALU},
    /* I2FP (sm_86+ integer -> float, not I2F's XU): tests/gpu/cluster_swap's one I2FP.F32.U32 a warp
       was the H200's 8 more ALU instructions (112 vs 104, results/h200-cluster/round3) */
    {"I2FP", WS_PIPE_ALU},
    /* VIMNMX (sm_90 integer min/max): ALU, not fmaheavy - myHGEMMAlignedV5's one VIMNMX, 16
       executions by ncu's source page, is exactly its ALU count's excess over the other ALU
       instructions and its FMA count's shortfall (results/h200-corpus-detail sass.tar.gz) */
    {"VIMNMX", WS_PIPE_ALU},
    {"DADD", WS_PIPE_FP64}, {"DMUL", WS_PIPE_FP64}, {"DFMA", WS_PIPE_FP64}, {"DSETP", WS_PIPE_FP64},
    {"DMNMX", WS_PIPE_FP64},
    {"MUFU", WS_PIPE_XU}, {"F2I", WS_PIPE_XU}, {"I2F", WS_PIPE_XU}, {"F2F", WS_PIPE_XU},
    {"I2I", WS_PIPE_XU}, {"FRND", WS_PIPE_XU}, {"POPC", WS_PIPE_XU}, {"FLO", WS_PIPE_XU},
    {"BREV", WS_PIPE_XU},
};

/* The opcode with its modifiers ("HMMA.1688.F32.TF32"), past the guard; its length in *len. */
static const char *sass_opcode(const char *text, size_t *len)
{
    while (*text == ' ' || *text == '\t') text++;
    if (*text == '@') { /* the guard: @P0, @!PT */
        while (*text && *text != ' ') text++;
        while (*text == ' ') text++;
    }
    *len = strcspn(text, " \t;");
    return text;
}

/* Whether the modifier list of op (length n) has ".mod" followed by '.' or its end. */
static int has_mod(const char *op, size_t n, const char *mod)
{
    size_t m = strlen(mod);
    for (size_t i = 0; i + m + 1 <= n; i++)
        if (op[i] == '.' && !strncmp(op + i + 1, mod, m) && (i + 1 + m == n || op[i + 1 + m] == '.'))
            return 1;
    return 0;
}

/* The tensor pipe's forms (common/device.h): the opcode alone for most, HMMA by its shape and
 * type, which set its rate (results/h200-tensorpipe: HMMA.1688.F32 1.0 per cycle, HMMA.16816 and
 * the tf32 HMMA.1688 0.658). */
static ws_pipe tensor_pipe(const char *op, size_t n)
{
    size_t base = strcspn(op, ".");
    if (base > n) base = n;
#define IS(s) (base == strlen(s) && !strncmp(op, s, base))
    if (IS("HMMA"))
        return (has_mod(op, n, "1688") && !has_mod(op, n, "TF32")) || has_mod(op, n, "884") ? WS_PIPE_HMMA_K8
                                                                                         : WS_PIPE_HMMA;
    if (IS("IMMA") || IS("BMMA")) return WS_PIPE_IMMA;
    if (IS("DMMA")) return WS_PIPE_DMMA;
    if (IS("HGMMA") || IS("QGMMA") || IS("IGMMA") || IS("BGMMA")) return WS_PIPE_GMMA;
#undef IS
    return WS_PIPE_NONE;
}

unsigned ws_pipe_units_of_sass(const char *text)
{
    if (!text)
        return 0;
    size_t n;
    const char *op = sass_opcode(text, &n);
    if (tensor_pipe(op, n) != WS_PIPE_GMMA)
        return 1;
    /* HGMMA.64x128x16.F32: the N between the two 'x' of its shape */
    const char *dot = memchr(op, '.', n);
    if (!dot) return 1;
    const char *x = memchr(dot, 'x', (size_t)(op + n - dot));
    if (!x) return 1;
    unsigned N = 0;
    for (const char *c = x + 1; c < op + n && *c >= '0' && *c <= '9'; c++) N = N * 10 + (unsigned)(*c - '0');
    return N >= 8 ? N / 8 : 1;
}

ws_pipe ws_pipe_of_sass(const char *text)
{
    if (!text)
        return WS_PIPE_NONE;
    size_t full;
    text = sass_opcode(text, &full);
    ws_pipe t = tensor_pipe(text, full);
    if (t != WS_PIPE_NONE)
        return t;
    size_t n = strcspn(text, ". \t");
    /* HFMA2.MMA (ptxas's register-zeroing and constant-move idiom) runs on the MMA datapath, not the
       FMA pipes: ncu's sm__inst_executed_pipe_fma leaves it out (results/h200-inst: the count was over
       by exactly its executions on 7 of 11 launches; 11 of 11 equal without it) */
    if (n == 5 && !strncmp(text, "HFMA2", 5) && has_mod(text, full, "MMA"))
        return WS_PIPE_NONE;
    for (size_t i = 0; i < sizeof sass_rows / sizeof sass_rows[0]; i++)
        if (strlen(sass_rows[i].op) == n && !strncmp(sass_rows[i].op, text, n))
            return sass_rows[i].pipe;
    /* CS2R Rd, SRZ (zeroing a register pair, ptxas's accumulator initialisation): ALU. ncu's
       source page (results/h200-corpus-detail sass.tar.gz) puts each of 9 corpus kernels' ALU
       count exactly its CS2R ..., SRZ executions above the other ALU instructions' (768 to 5120).
       CS2R of a clock or timer register is not measured: no pipe */
    if (n == 4 && !strncmp(text, "CS2R", 4)) {
        const char *comma = memchr(text, ',', strlen(text));
        if (comma && !strncmp(comma + 1 + strspn(comma + 1, " "), "SRZ", 3)) return WS_PIPE_ALU;
    }
    return WS_PIPE_NONE;
}

static int is_float(ptx_type t) { return t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2; }

/* What ptxas makes of a PTX tensor instruction for sm_80+: mma.sync one HMMA/IMMA/DMMA (its
 * m16n8k8 f16 the half-k form), wmma.mma m16n16k16 two HMMA.16816 (its two n8 halves), wgmma
 * one HGMMA per warp of N/8 units. *units: instructions (or units) per execution. */
static ws_pipe ptx_tensor_pipe(const ptx_insn *in, unsigned *units)
{
    *units = 1;
    const ptx_tc *tc = &in->tc;
    int integer = tc->atype == PTX_MT_S8 || tc->atype == PTX_MT_U8 || ptx_mma_type_subbyte(tc->atype); /* IMMA, BMMA */
    if (in->op == PTX_WGMMA_MMA) {
        *units = tc->n >= 8 ? tc->n / 8u : 1;
        return WS_PIPE_GMMA;
    }
    if (in->op == PTX_WMMA_MMA) {
        if (tc->atype == PTX_MT_F64) return WS_PIPE_DMMA;
        if (integer) return WS_PIPE_IMMA;
        *units = 2;
        return WS_PIPE_HMMA;
    }
    if (in->op != PTX_MMA) return WS_PIPE_NONE;
    if (tc->atype == PTX_MT_F64) return WS_PIPE_DMMA;
    if (integer) return WS_PIPE_IMMA;
    if (tc->k == 8 && tc->atype != PTX_MT_TF32) return WS_PIPE_HMMA_K8;
    return WS_PIPE_HMMA;
}

unsigned ws_pipe_units_of_ptx(const ptx_insn *in)
{
    unsigned units;
    return ptx_tensor_pipe(in, &units) != WS_PIPE_NONE ? units : 1;
}

ws_pipe ws_pipe_of_ptx(const ptx_insn *in)
{
    ptx_type t = in->type;
    unsigned units;
    ws_pipe tp = ptx_tensor_pipe(in, &units);
    if (tp != WS_PIPE_NONE)
        return tp;
    switch (in->op) {
    case PTX_ADD: case PTX_SUB: case PTX_MIN: case PTX_MAX: case PTX_ABS: case PTX_NEG:
        if (t == PTX_T_F64) return WS_PIPE_FP64;
        if (is_float(t)) return in->op == PTX_ADD || in->op == PTX_SUB ? WS_PIPE_FMA : WS_PIPE_ALU;
        return WS_PIPE_ALU;
    case PTX_MUL: case PTX_MAD: case PTX_FMA: case PTX_MUL24: case PTX_MAD24: case PTX_SAD:
    case PTX_DP4A: case PTX_DP2A:
        if (t == PTX_T_F64) return WS_PIPE_FP64;
        return is_float(t) ? WS_PIPE_FMA : WS_PIPE_FMAHEAVY;
    case PTX_AND: case PTX_OR: case PTX_XOR: case PTX_NOT: case PTX_CNOT: case PTX_LOP3: case PTX_SHL:
    case PTX_SHR: case PTX_SHF: case PTX_SELP: case PTX_SLCT: case PTX_PRMT: case PTX_BFE: case PTX_BFI:
    case PTX_COPYSIGN: case PTX_CVTA:
        return WS_PIPE_ALU;
    case PTX_SETP: case PTX_SET:
        return in->type == PTX_T_F64 ? WS_PIPE_FP64 : WS_PIPE_ALU;
    case PTX_RCP: case PTX_SQRT: case PTX_RSQRT: case PTX_SIN: case PTX_COS: case PTX_LG2: case PTX_EX2:
    case PTX_TANH: case PTX_POPC: case PTX_CLZ: case PTX_BFIND: case PTX_BREV:
        return in->type == PTX_T_F64 && in->op != PTX_POPC ? WS_PIPE_FP64 : WS_PIPE_XU;
    case PTX_CVT: /* a conversion between float and integer or float widths; integer widening is a move */
        return is_float(in->type) || is_float(in->type2) || in->type == PTX_T_F64 || in->type2 == PTX_T_F64
                   ? WS_PIPE_XU : WS_PIPE_ALU;
    default:
        return WS_PIPE_NONE;
    }
}

void ws_pipe_ptx_insns(const ptx_function *fn, const uint64_t *pc_warp_count, uint64_t out[WS_PIPE_COUNT])
{
    memset(out, 0, WS_PIPE_COUNT * sizeof out[0]);
    for (int pc = 0; fn && pc_warp_count && pc < fn->ninsns; pc++)
        out[ws_pipe_of_ptx(&fn->insns[pc])] += pc_warp_count[pc] * ws_pipe_units_of_ptx(&fn->insns[pc]);
}
