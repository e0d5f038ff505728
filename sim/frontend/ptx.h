/* ptx.h - the in-memory form of a PTX module that the warp interpreter executes.
 * Produced by ptx_parse(); every name the simulator needs is resolved here
 * (registers to slot indices, labels to instruction indices, variables to
 * per-function offsets) so the interpreter never looks at text.
 * Invariant: a ptx_module returned without error is fully resolved: every
 * operand refers to an existing register, variable, parameter or label. *
 * Room sim/frontend/: the front end: PTX text in, a resolved ptx_module out; nothing here runs a kernel. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_PTX_H
#define WS_PTX_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "../../common/ws_error.h"
#include "ptx_ops.h"

#define PTX_NAME_MAX 128  /* typical identifier length, for message buffers; names themselves have no limit */
#define PTX_MAX_OPND 6
#define PTX_VEC_MAX 8   /* elements of a {..} operand: 4 for ld/st/mov, 8 for mma/wmma fragments */

typedef enum {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
    PTX_T_COUNT
} ptx_type;

int ptx_type_size(ptx_type t);        /* bytes: u32 -> 4, pred -> 1 */
bool ptx_type_is_signed(ptx_type t);  /* sN */
bool ptx_type_is_float(ptx_type t);   /* f16/bf16/f32/f64 (and x2) */
const char *ptx_type_name(ptx_type t);/* ".u32" */

typedef enum {
    PTX_SPACE_NONE = 0, /* generic addressing (plain ld/st) */
    PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_SHARED_CLUSTER, PTX_SPACE_LOCAL,
    PTX_SPACE_CONST, PTX_SPACE_PARAM, PTX_SPACE_REG
} ptx_space;

/* The opcodes: one row each in ptx_ops.h, in its order. */
typedef enum {
    PTX_OP_INVALID = 0,
#define PTX_OP_ENUM(op, name, cls, lo, hi, dst, mem, ty, t2) PTX_##op,
    PTX_OPS(PTX_OP_ENUM)
#undef PTX_OP_ENUM
    PTX_OP_COUNT
} ptx_opcode;

/* Which part of the interpreter runs an opcode (ptx_ops.h, column cls). */
typedef enum {
    PTX_CLS_ALU, PTX_CLS_MEM, PTX_CLS_WARP, PTX_CLS_BRA, PTX_CLS_EXIT, PTX_CLS_BAR,
    PTX_CLS_NOP, PTX_CLS_TRAP, PTX_CLS_CALL, PTX_CLS_UNSUPPORTED
} ptx_opclass;

/* Destinations an opcode writes (ptx_ops.h, column dst). */
typedef enum { PTX_DST_NONE = 0, PTX_DST_ONE, PTX_DST_PAIR } ptx_dst;

/* One row of ptx_ops.h. */
typedef struct {
    const char *name;     /* "ld" */
    ptx_opclass cls;
    int8_t lo, hi;        /* operand count; -1: shaped by its own parser (call) */
    ptx_dst dst;
    int8_t mem;           /* index of the address operand, -1 none */
    bool needs_type;
    int8_t t2;            /* first operand read in type2, 0 none */
} ptx_opinfo;

/* The row of op; PTX_OP_INVALID and out-of-range values get an UNSUPPORTED row named "?". */
const ptx_opinfo *ptx_op_info(ptx_opcode op);
const char *ptx_opcode_name(ptx_opcode op); /* "ld" */
/* The opcode a PTX word names (the text before its first '.', n bytes), and the flags
 * that the word implies (addc is add with PTX_F_CARRYIN); PTX_OP_INVALID if none.
 * Example: ptx_opcode_lookup("madc", 4, &fl) == PTX_MAD, fl == PTX_F_CARRYIN. */
ptx_opcode ptx_opcode_lookup(const char *word, size_t n, uint32_t *flags);
/* The opcode an instruction's text (n bytes, "cp.async.ca.shared.global") starts with: the
 * longest row name that is a whole dot-separated prefix ("cp.async"), else the word before
 * the first '.' as ptx_opcode_lookup finds it; *used gets the bytes the name covers. */
ptx_opcode ptx_opcode_lookup_prefix(const char *text, size_t n, size_t *used, uint32_t *flags);

/* testp.<class>: the class travels as an extra IMM operand (testp p, a, CLASS). */
typedef enum { PTX_TESTP_FINITE = 1, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER, PTX_TESTP_NOTANUMBER,
               PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL } ptx_testp_class;

/* Operand layout (what ptx_parse produces; the interpreter relies on it):
 * - Operands appear in PTX text order. A "d|p" destination pair (setp p|q, shfl.sync d|p,
 *   match.all d|p) becomes two consecutive operands, so e.g. shfl.sync has 6 operands
 *   with the predicate and 5 without; setp has 3 + (second predicate) + (boolop source).
 * - ld/ldu: opnd[0] REG/VEC/SINK, opnd[1] MEM.  st: opnd[0] MEM, opnd[1] REG/VEC/IMM.
 *   atom: d, MEM, b[, c].  red: MEM, b.  prefetch: MEM.  MEM appears nowhere else.
 *   For .v2/.v4 the VEC has exactly `vec` elements.
 * - call: opnd[0] the return-value SYM (kind NONE when the callee returns nothing);
 *   opnd[1] the callee: LABEL whose target is the callee's index in ptx_module.funcs
 *   (not an instruction index) or a PTX_CALLEE_* code, or REG for an indirect call
 *   (call %rd, (args), prototype;) through a function address; nopnd is 2. The
 *   arguments (any number) are the .param SYMs fn->call_args[call_arg0 ..
 *   call_arg0 + ncall_args); callee names the function as written.
 * - match.any/.all: the mode is in `vote` (PTX_VOTE_ANY / PTX_VOTE_ALL).
 *   redux.sync.<op>: the op is in `atomop`.  dp2a.lo/.hi: in `mulmode`.
 * - A function's return value (.func (.param .b32 r) f(...)) is a PARAM symbol that is
 *   not in param_syms, placed after the parameters (param_bytes covers it).
 *   .param variables declared inside a body (call arguments) are VAR symbols in
 *   PTX_SPACE_PARAM whose offset is in the function's per-thread parameter space,
 *   from arg_base (after the parameters and the return value) over arg_bytes.
 * - src_file/src_line: for code inlined from a header the .loc's inlined_at location,
 *   i.e. the line in the user's file that the compiler inlined from. */

/* Modifiers. Each instruction keeps the ones PTX allows for its opcode. */
typedef enum { PTX_CMP_NONE = 0, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
               PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS, PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU,
               PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN } ptx_cmp;
typedef enum { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR } ptx_boolop;
typedef enum { PTX_RND_NONE = 0, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,
               PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI, PTX_RND_RNA } ptx_round;
typedef enum { PTX_MULMODE_NONE = 0, PTX_MULMODE_LO, PTX_MULMODE_HI, PTX_MULMODE_WIDE } ptx_mulmode;
typedef enum { PTX_CACHE_NONE = 0, PTX_CACHE_CA, PTX_CACHE_CG, PTX_CACHE_CS, PTX_CACHE_LU, PTX_CACHE_CV,
               PTX_CACHE_WB, PTX_CACHE_WT, PTX_CACHE_NC /* ld.global.nc */ } ptx_cacheop;
typedef enum { PTX_ATOM_NONE = 0, PTX_ATOM_ADD, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
               PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR, PTX_ATOM_EXCH, PTX_ATOM_CAS } ptx_atomop;
typedef enum { PTX_SHFL_NONE = 0, PTX_SHFL_UP, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX } ptx_shflmode;
typedef enum { PTX_VOTE_NONE = 0, PTX_VOTE_ALL, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT } ptx_votemode;
typedef enum { PTX_BAR_NONE = 0, PTX_BAR_SYNC, PTX_BAR_ARRIVE, PTX_BAR_RED_POPC, PTX_BAR_RED_AND,
               PTX_BAR_RED_OR, PTX_BAR_WAIT /* barrier.cluster.wait */ } ptx_barmode;

enum { /* flags */
    PTX_F_FTZ = 1u << 0, PTX_F_SAT = 1u << 1, PTX_F_APPROX = 1u << 2, PTX_F_FULL = 1u << 3,
    PTX_F_UNI = 1u << 4, PTX_F_VOLATILE = 1u << 5, PTX_F_SYNC = 1u << 6, PTX_F_ALIGNED = 1u << 7,
    PTX_F_WRAP = 1u << 8,   /* shf.wrap (else clamp) */
    PTX_F_SHF_L = 1u << 9,  /* shf.l (else shf.r) */
    PTX_F_CC = 1u << 10,    /* add.cc / addc: carry chain */
    PTX_F_CARRYIN = 1u << 11, /* addc / subc / madc */
    PTX_F_TO = 1u << 12,    /* cvta.to.<space> (else cvta.<space>: space -> generic) */
    PTX_F_RELAXED = 1u << 13, PTX_F_ACQUIRE = 1u << 14, PTX_F_RELEASE = 1u << 15,
    PTX_F_SHIFTAMT = 1u << 16, /* bfind.shiftamt */
    PTX_F_WARP = 1u << 17,     /* bar.warp.sync (op PTX_BAR, bar PTX_BAR_SYNC): a warp-level
                                  sync with a member mask, NOT a CTA barrier (added by the parser) */
    PTX_F_CLUSTER = 1u << 18,  /* barrier.cluster.arrive / .wait (parsed; refused when reached) */
    PTX_F_RELU = 1u << 19,     /* cvt .relu: a negative result becomes +0 */
    PTX_F_SATFINITE = 1u << 20,/* cvt .satfinite: beyond the largest finite value, that value */
    PTX_F_F8_DST = 1u << 21,   /* cvt to .e4m3x2/.e5m2x2: the destination type is .b16 holding two fp8 */
    PTX_F_F8_SRC = 1u << 22,   /* cvt from .e4m3x2/.e5m2x2: the source type is .b16 holding two fp8 */
    PTX_F_E5M2 = 1u << 23,     /* with F8_DST/F8_SRC: the pair is e5m2 (else e4m3) */
    PTX_F_TF32 = 1u << 24,     /* cvt to .tf32: the destination type is .b32 holding a tf32 */
    PTX_F_NREG_INC = 1u << 25, /* setmaxnreg.inc: asks the block's register pool for more */
    PTX_F_NREG_DEC = 1u << 26, /* setmaxnreg.dec: gives registers back to it */
    PTX_F_NOFTZ_DEFAULT = 0
};

/* setmaxnreg's register count: a multiple of 8 in this range (PTX ISA, "setmaxnreg"). */
#define PTX_NREG_MIN 24
#define PTX_NREG_MAX 256

/* Special registers and the other predefined identifiers (PTX ISA, "Special
 * Registers"); docs/interp.md says what each reads in simulation. */
typedef enum {
    PTX_SREG_TID_X, PTX_SREG_TID_Y, PTX_SREG_TID_Z,
    PTX_SREG_NTID_X, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X, PTX_SREG_CTAID_Y, PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI, PTX_SREG_AGGR_SMEM_SIZE,
    PTX_SREG_RESERVED_SMEM_BEGIN, PTX_SREG_RESERVED_SMEM_END, PTX_SREG_RESERVED_SMEM_CAP,
    PTX_SREG_CLUSTERID_X, PTX_SREG_CLUSTERID_Y, PTX_SREG_CLUSTERID_Z,
    PTX_SREG_NCLUSTERID_X, PTX_SREG_NCLUSTERID_Y, PTX_SREG_NCLUSTERID_Z,
    PTX_SREG_CLUSTER_CTAID_X, PTX_SREG_CLUSTER_CTAID_Y, PTX_SREG_CLUSTER_CTAID_Z,
    PTX_SREG_CLUSTER_NCTAID_X, PTX_SREG_CLUSTER_NCTAID_Y, PTX_SREG_CLUSTER_NCTAID_Z,
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_CURRENT_GRAPH_EXEC,
    PTX_SREG_PM0,                                   /* %pm0..%pm7: performance monitors */
    PTX_SREG_PM0_64 = PTX_SREG_PM0 + 8,             /* %pm0_64..%pm7_64 */
    PTX_SREG_ENVREG0 = PTX_SREG_PM0_64 + 8,         /* %envreg0..%envreg31: driver-defined; 1:2 hold
                                                       a cooperative launch's grid workspace */
    PTX_SREG_ENVREG31 = PTX_SREG_ENVREG0 + 31,
    PTX_SREG_COUNT = PTX_SREG_ENVREG0 + 32
} ptx_sreg;

#define PTX_WARP_SZ 32 /* the predefined identifier WARP_SZ, a constant in PTX */

const char *ptx_sreg_name(ptx_sreg r); /* "%tid.x", "%envreg3" */
/* The special register a word names (n bytes, "%clock64"), or -1. */
int ptx_sreg_lookup(const char *word, size_t n);

typedef enum {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,     /* reg = slot index; neg = '!' on a predicate source */
    PTX_OPND_IMM,     /* imm = integer value, or raw bits for a float literal (is_float) */
    PTX_OPND_SREG,    /* sreg */
    PTX_OPND_SYM,     /* address of a variable or kernel parameter: sym (see ptx_symbol) */
    PTX_OPND_MEM,     /* [base + offset]: base_kind REG (reg) / SYM (sym) / NONE (absolute) */
    PTX_OPND_LABEL,   /* target = instruction index */
    PTX_OPND_VEC,     /* {a, b, c, d}: vec_n slots in vec[]; -1 = sink '_' */
    PTX_OPND_SINK,    /* '_' */
    PTX_OPND_FUNC     /* a function's address (mov.u64 %rd1, f;): target = index in ptx_module.funcs */
} ptx_opnd_kind;

typedef struct {
    ptx_opnd_kind kind;
    bool neg;            /* !%p */
    bool is_float;       /* IMM holds float bits: 0fXXXXXXXX (f32) or 0dXXXXXXXXXXXXXXXX (f64) */
    bool is_double;      /* is_float and 64-bit */
    ptx_opnd_kind base_kind; /* for MEM: PTX_OPND_REG, PTX_OPND_SYM or PTX_OPND_NONE */
    int reg;             /* slot index */
    int sym;             /* symbol index into ptx_function.syms */
    ptx_sreg sreg;
    int64_t imm;         /* integer immediate, float bits, or MEM offset */
    int target;          /* LABEL: instruction index in the function; FUNC and call's callee: see PTX_CALLEE_* */
    int vec_n;
    int vec[PTX_VEC_MAX]; /* slot, -1 = sink '_' or an immediate (vec_imm) */
    uint8_t vec_imm;     /* VEC: elements that are immediates ({0, %r1} of st.param.v2) */
    uint8_t vec_fimm, vec_dimm; /* of those, float literals (0f...) and double ones (0d...) */
    int64_t vimm[PTX_VEC_MAX]; /* their values, as imm holds one */
    uint16_t wide_n;     /* VEC of a wgmma longer than PTX_VEC_MAX (accumulators of up to 128
                            registers): its wide_n slots are fn->wide[wide0 ..], vec[] holds the
                            first PTX_VEC_MAX (vec_n = PTX_VEC_MAX); 0 for every other vector */
    int wide0;
} ptx_operand;

/* Modifiers of the tensor-era instructions (cp.async, ldmatrix/stmatrix, mma, wmma,
 * mbarrier); sim/frontend/ptx_tensor.c parses, checks and formats them. */
typedef enum { PTX_MT_NONE = 0, PTX_MT_F16, PTX_MT_BF16, PTX_MT_TF32, PTX_MT_F32, PTX_MT_F64,
               PTX_MT_S8, PTX_MT_U8, PTX_MT_S32, PTX_MT_B16, PTX_MT_B64, PTX_MT_E4M3, PTX_MT_E5M2,
               PTX_MT_S4, PTX_MT_U4, PTX_MT_B1 } ptx_mma_type;
enum { /* ptx_tc.flags */
    PTX_TC_TRANS = 1u << 0,     /* ldmatrix/stmatrix .trans */
    PTX_TC_SATFINITE = 1u << 1, /* mma .satfinite */
    PTX_TC_NOINC = 1u << 2,     /* cp.async.mbarrier.arrive.noinc */
    PTX_TC_EXPECT_TX = 1u << 3, /* mbarrier.arrive.expect_tx */
    PTX_TC_PARITY = 1u << 4,    /* mbarrier.try_wait/test_wait.parity */
    PTX_TC_ZFILL = 1u << 5,     /* cp.async with a src-size or ignore-src operand */
    PTX_TC_SRC_GLOBAL = 1u << 6,/* cp.async ... .global: the source space */
    PTX_TC_TO_GLOBAL = 1u << 7, /* cp.async.bulk.global.shared::cta: a store from shared memory */
    PTX_TC_PREFETCH = 1u << 8,  /* cp.async.bulk.prefetch: no effect on the model */
    PTX_TC_MBAR = 1u << 9,      /* .mbarrier::complete_tx::bytes: completes on an [mbar] operand */
    PTX_TC_WG_ADESC = 1u << 10, /* wgmma.mma_async: A comes from a matrix descriptor (else registers) */
    PTX_TC_WG_NEG_A = 1u << 11, /* imm-scale-a = -1 */
    PTX_TC_WG_NEG_B = 1u << 12, /* imm-scale-b = -1 */
    PTX_TC_WG_TNSP_A = 1u << 13,/* imm-trans-a = 1: A is M-major in shared memory */
    PTX_TC_WG_TNSP_B = 1u << 14,/* imm-trans-b = 1: B is N-major in shared memory */
    PTX_TC_MULTICAST = 1u << 15 /* cp.async.bulk{.tensor} .multicast::cluster: a ctaMask operand last */
};
typedef struct {
    uint8_t m;                /* mma/wmma/wgmma shape (.m16n8k16); ldmatrix/stmatrix m8n8 */
    uint16_t k;               /* its k: up to 256 (mma .m16n8k256 .b1) */
    uint16_t n;               /* its n: up to 256 (wgmma .m64n256k16) */
    uint8_t num;              /* ldmatrix/stmatrix .x1/.x2/.x4: matrices */
    char frag;                /* wmma.load/store: 'a', 'b', 'c', 'd' */
    char alayout, blayout;    /* 'r' / 'c': mma/wmma.mma A and B; wmma.load/store: alayout */
    uint8_t atype, btype, ctype, dtype; /* ptx_mma_type; ldmatrix: atype = .b16 */
    uint8_t cp_size;          /* cp.async: bytes (4, 8, 16) */
    uint8_t dims;             /* cp.async.bulk.tensor: .1d .. .5d */
    uint16_t flags;           /* PTX_TC_* */
    int8_t ximm[2];           /* wgmma: the immediates after the 6th operand (imm-trans-a/-b), as written */
    uint8_t nx;               /* how many */
    char bitop;               /* mma .b1: 'a' for .and.popc, 'x' for .xor.popc, 0 none */
    const char *refuse;       /* why the simulator cannot run this form (a static string), else NULL:
                                 it parses, and faults naming the instruction when a warp reaches it */
} ptx_tc;

typedef struct {
    ptx_opcode op;
    ptx_type type;        /* main type (.u32 of add.u32; destination type of cvt) */
    ptx_type type2;       /* second type: cvt source, setp compared type is `type`, selp/slct
                             selector type, shf none; dp4a b-type */
    ptx_space space;      /* ld/st/atom/red/cvta/isspacep/prefetch */
    uint8_t vec;          /* 1, 2 or 4 (ld.v4) */
    uint32_t flags;       /* PTX_F_* */
    ptx_cmp cmp;
    ptx_boolop boolop;
    ptx_round rnd;
    ptx_mulmode mulmode;
    ptx_cacheop cache;
    ptx_atomop atomop;
    ptx_shflmode shfl;
    ptx_votemode vote;
    ptx_barmode bar;
    uint8_t ndst;         /* leading operands written: 0, 1, or 2 for a d|p pair (ptx_ops.h dst) */
    ptx_tc tc;            /* tensor-era modifiers (ptx_tensor.c); zero for every other opcode */
    int guard;            /* predicate slot for @p / @!p, -1 = none */
    bool guard_neg;
    int nopnd;
    ptx_operand opnd[PTX_MAX_OPND];
    int src_file;         /* .file index from the last .loc, 0 = none */
    int src_line;         /* source line from the last .loc, 0 = none */
    int ptx_line;         /* line in the PTX text */
    int call_arg0, ncall_args; /* call: its arguments in fn->call_args */
    const char *callee;   /* call: the callee's name as written (direct), else NULL */
} ptx_insn;

/* A function's address as the simulator sees it (mov.u64 %rd, f; a table {f, g} in a
 * .global initialiser): in no data window, so a load from it is a global fault. */
#define PTX_FUNC_BASE 0x0000500000000000ull
#define PTX_FUNC_STRIDE 16
#define PTX_FUNC_ADDRESS(i) (PTX_FUNC_BASE + (uint64_t)(i) * PTX_FUNC_STRIDE)

/* What a call's callee (opnd[1].target) or a FUNC operand names besides a function index. */
enum {
    PTX_CALLEE_UNRESOLVED = -1, /* a function the module does not define (the caller is refused) */
    PTX_CALLEE_VPRINTF = -2,    /* printf: executed by the simulator (docs/interp.md) */
    PTX_CALLEE_ASSERTFAIL = -3  /* assert(): a located kernel fault, worded as the GPU words it */
};

typedef struct {
    const char *name;     /* owned by the module, any length */
    ptx_type type;
    int width;            /* bytes, 1 for .pred */
} ptx_reg;

typedef enum { PTX_SYM_PARAM, PTX_SYM_VAR } ptx_sym_kind;

/* A name an operand can take the address of, in one function. */
typedef struct {
    const char *name;     /* owned by the module, any length */
    ptx_sym_kind kind;
    ptx_space space;      /* PARAM, SHARED, LOCAL, CONST, GLOBAL */
    ptx_type type;        /* element type as declared (.b8, .f32, .u64 ...) */
    uint32_t align;
    uint64_t size;        /* bytes; 0 for extern (dynamic) shared */
    uint64_t offset;      /* byte offset inside its space for this function:
                             PARAM: offset in the kernel's parameter buffer;
                             SHARED: offset in the block's shared window (static vars
                                     packed in declaration order by alignment; the
                                     extern dynamic array at fn->dyn_shared_offset);
                             LOCAL: offset in the thread's local frame;
                             CONST/GLOBAL: offset in the module's const/global image */
    bool is_extern;
    const uint8_t *init;  /* CONST/GLOBAL initialiser bytes or NULL (owned by module) */
    int ptx_line;
} ptx_symbol;

typedef struct {
    const char *name;     /* owned by the module, any length */
    bool is_entry;        /* .entry (else .func) */
    int nparams;
    int *param_syms;      /* indices into syms, in declaration order */
    int retval_sym;       /* .func's return value symbol, -1 none */
    uint64_t param_bytes; /* size of the parameter buffer (parameters, then the return value) */
    uint64_t arg_base;    /* where the body's .param variables (call arguments) start */
    uint64_t arg_bytes;   /* and their size: per-thread parameter space is arg_base + arg_bytes */
    int ncall_args;
    int *call_args;       /* every call's argument symbols, in order (ptx_insn.call_arg0) */
    int nregs;
    ptx_reg *regs;
    int nsyms;
    ptx_symbol *syms;     /* params, then every module or function variable it can name */
    uint64_t static_shared_bytes; /* shared variables this function references */
    uint64_t dyn_shared_offset;   /* where extern shared memory starts (aligned) */
    uint64_t local_bytes;         /* local frame size per thread */
    int ninsns;
    ptx_insn *insns;
    int nwide;
    int *wide;            /* register slots of wgmma vectors longer than PTX_VEC_MAX (ptx_operand.wide0) */
    int maxntid[3];       /* .maxntid, 0 = none (missing dimensions 1) */
    int reqntid[3];       /* .reqntid, 0 = none */
    int minnctapersm;     /* .minnctapersm, 0 = none */
    int maxnreg;          /* .maxnreg, 0 = none */
    int cluster[3];       /* .reqnctapercluster (__cluster_dims__), 0 = none */
    int ptx_line;
    /* Lazy refusal: a function whose body holds something the simulator cannot run
     * still parses (its name, parameters and symbols; a body that did not parse keeps
     * no instructions), so every other kernel of the module runs; launching it, or a
     * kernel that reaches it through calls, is refused with this error (PTX path, line
     * and column, and what). */
    ws_error *refusal;    /* NULL: runnable */
    int refusal_src_file, refusal_src_line; /* the .loc in force there, 0 = none */
} ptx_function;

typedef struct {
    int index;
    char path[512];
} ptx_file_entry;

typedef struct ptx_module {
    char path[512];       /* where the PTX came from, for messages */
    int version_major, version_minor;
    char target[32];      /* "sm_90" */
    int address_size;     /* 64 */
    int nfuncs;
    ptx_function *funcs;
    int nfiles;
    ptx_file_entry *files;
    uint64_t const_bytes; /* module .const image size */
    uint8_t *const_image;
    uint64_t global_bytes;/* module .global variables image size */
    uint8_t *global_image;
    struct ptx_names *names; /* the arena every name above points into */
} ptx_module;

/* Parses PTX text. On failure returns NULL and err names path, the PTX line and
 * column, and what was not understood ("unsupported instruction 'tex.2d'").
 * Example: ptx_module *m = ptx_parse("demos/copy.ptx", text, &err); */
ptx_module *ptx_parse(const char *path, const char *text, ws_error *err);
ptx_module *ptx_load(const char *path, ws_error *err);
void ptx_free(ptx_module *m);
/* Finds a function by its exact PTX name or by the plain C++ name inside an
 * Itanium-mangled one ("transpose_naive" finds "_Z15transpose_naivePfS_ii"),
 * since nvcc compiles .cu files as C++. NULL if none. */
const ptx_function *ptx_find_function(const ptx_module *m, const char *name);

/* The tensor-era instructions' modifiers (sim/frontend/ptx_tensor.c). ptx_tc_op: op's modifiers are
 * ptx_tc_modifier's (every word after the opcode name). ptx_tc_modifier: applies one ".word"
 * (without the dot); false when not understood. ptx_tc_check: after the operands, the rules
 * beyond the row (operand kinds and counts per form); NULL when fine, else the message.
 * ptx_insn_extra_mem: bit i set when operand i is an address besides the row's mem operand
 * (cp.async's [src]; cp.async.bulk's [src] and [mbar]), known once the modifiers are parsed.
 * ptx_tc_format_mods: the modifiers back as text (".ca.shared.global"). */
bool ptx_tc_op(ptx_opcode op);
bool ptx_tc_long_operands(ptx_opcode op); /* {..} of up to 128 registers (kept in fn->wide) and immediates
                                             beyond PTX_MAX_OPND (kept in tc.ximm): wgmma.mma_async */
bool ptx_tc_modifier(ptx_insn *in, const char *w, size_t n);
const char *ptx_tc_check(ptx_insn *in, char *buf, size_t cap);
uint32_t ptx_insn_extra_mem(const ptx_insn *in);
void ptx_tc_format_mods(const ptx_insn *in, char *buf, size_t cap);
/* Bytes one lane moves in one access of a tensor-era memory instruction: cp.async its copy
 * size, ldmatrix/stmatrix a 16-byte row, wmma.load/store a 4-byte fragment register, a bulk
 * copy the 16-byte chunks of its events; 0 else. */
int ptx_tc_width(const ptx_insn *in);
/* A tensor-core type's name ("s4"; "" for none) and the bits of one element: 1 (b1), 4 (s4, u4),
 * 8 (s8, u8, e4m3, e5m2), 16 (f16, bf16), 64 (f64), 32 for the rest (tf32, f32, s32). */
const char *ptx_mma_type_name(int mt);
int ptx_mma_type_bits(int mt);
/* The sub-byte types (s4, u4, b1): 8 or 32 elements a register. */
static inline bool ptx_mma_type_subbyte(int mt) { return mt == PTX_MT_S4 || mt == PTX_MT_U4 || mt == PTX_MT_B1; }

/* The first function fn reaches (itself, or through calls and function addresses it
 * takes, transitively) that is refused, or NULL when all of them can run; *via gets
 * the function among them that calls or names it (fn itself when it is fn's own
 * refusal or fn calls it directly). */
const ptx_function *ptx_refused_reach(const ptx_module *m, const ptx_function *fn, const ptx_function **via);

/* Indices (into m->funcs) of fn and every function it reaches through calls and the
 * function addresses it names, transitively, fn's first; returns how many (at most
 * m->nfuncs; 0 when fn is not m's). out holds m->nfuncs ints. */
int ptx_reachable(const ptx_module *m, const ptx_function *fn, int *out);

/* One instruction back as PTX-like text ("ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd4+16]"). */
void ptx_format_insn(const ptx_function *fn, const ptx_insn *in, char *buf, size_t cap);
/* True for instructions that reach the memory pipeline (ld/st/atom/red on a memory space). */
bool ptx_insn_is_memory(const ptx_insn *in);

#endif
