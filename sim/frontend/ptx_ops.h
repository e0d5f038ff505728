/* ptx_ops.h - the opcode table: one row per PTX opcode the front end knows, holding
 * every fact about it that is not semantics. It expands (X-macro) into the ptx_opcode
 * enum, the name table, the parser's opcode words and operand checks, the
 * interpreter's instruction class and the dependence analysis' destinations.
 * Invariant: a fact about an opcode lives in its row or in its semantics, never in a
 * list of opcodes elsewhere; tests/test_ptx.c checks every row against the parser.
 * Adding an opcode: docs/adding-an-opcode.md.
 *
 * Columns:
 *   op    enum suffix (PTX_<op>)
 *   name  the PTX word before the first '.' ("ld" of ld.global.f32)
 *   cls   what runs it: ALU (exec_alu.c), MEM (exec_mem.c), WARP (exec_warp.c), BRA,
 *         EXIT, BAR (what a warp may wait in: exec_barrier.c, exec_cluster.c, exec_nreg.c),
 *         TRAP (a located kernel fault), CALL (exec_call.c), NOP (no effect on the model),
 *         UNSUPPORTED (parses, faults when a warp reaches it)
 *   lo hi operand count, after a d|p pair became two operands; -1: shaped by its own
 *         parser (call) or refused by it (brx)
 *   dst   NONE; ONE: operand 0 is written; PAIR: operand 0 is written, and operand 1
 *         too when the text says d|p (ptx_insn.ndst says which)
 *   mem   index of the one address operand [..], -1 none; no other operand may be one
 *   ty    NEED: the instruction must name a type (.u32); ANY: it may name none
 *   t2    first operand whose immediates are read in the second type (cvt's source,
 *         set's compared type, slct's selector), 0 = none */
#ifndef WS_PTX_OPS_H
#define WS_PTX_OPS_H

/*      op          name          cls          lo  hi  dst   mem ty    t2 */
#define PTX_OPS(X) \
    /* integer and float arithmetic */ \
    X(ADD,        "add",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(SUB,        "sub",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(MUL,        "mul",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(MAD,        "mad",        ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(MUL24,      "mul24",      ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(MAD24,      "mad24",      ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(SAD,        "sad",        ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(FMA,        "fma",        ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(DIV,        "div",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(REM,        "rem",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(ABS,        "abs",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(NEG,        "neg",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(MIN,        "min",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(MAX,        "max",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(POPC,       "popc",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(CLZ,        "clz",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(BFIND,      "bfind",      ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(BREV,       "brev",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(BFE,        "bfe",        ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(BFI,        "bfi",        ALU,          5,  5, ONE,  -1, NEED, 0) \
    X(PRMT,       "prmt",       ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(COPYSIGN,   "copysign",   ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(RCP,        "rcp",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(SQRT,       "sqrt",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(RSQRT,      "rsqrt",      ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(SIN,        "sin",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(COS,        "cos",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(LG2,        "lg2",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(EX2,        "ex2",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(TANH,       "tanh",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(TESTP,      "testp",      ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(DP4A,       "dp4a",       ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(DP2A,       "dp2a",       ALU,          4,  4, ONE,  -1, NEED, 0) \
    /* logic and shifts */ \
    X(AND,        "and",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(OR,         "or",         ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(XOR,        "xor",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(NOT,        "not",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(CNOT,       "cnot",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(LOP3,       "lop3",       ALU,          5,  5, ONE,  -1, NEED, 0) \
    X(SHL,        "shl",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(SHR,        "shr",        ALU,          3,  3, ONE,  -1, NEED, 0) \
    X(SHF,        "shf",        ALU,          4,  4, ONE,  -1, NEED, 0) \
    /* comparison and selection; setp d, a, b[, c] with d|q; set d, a, b[, c] */ \
    X(SETP,       "setp",       ALU,          3,  5, PAIR, -1, NEED, 0) \
    X(SET,        "set",        ALU,          3,  4, ONE,  -1, NEED, 1) \
    X(SELP,       "selp",       ALU,          4,  4, ONE,  -1, NEED, 0) \
    X(SLCT,       "slct",       ALU,          4,  4, ONE,  -1, NEED, 3) \
    /* data movement and conversion */ \
    X(MOV,        "mov",        ALU,          2,  2, ONE,  -1, NEED, 0) \
    /* cvt d, a; the packing forms cvt.rn.f16x2.f32 d, a, b (ptx_parse.c check_cvt) */ \
    X(CVT,        "cvt",        ALU,          2,  3, ONE,  -1, NEED, 1) \
    X(CVTA,       "cvta",       ALU,          2,  2, ONE,  -1, NEED, 0) \
    X(LD,         "ld",         MEM,          2,  2, ONE,   1, NEED, 0) \
    X(LDU,        "ldu",        MEM,          2,  2, ONE,   1, NEED, 0) \
    X(ST,         "st",         MEM,          2,  2, NONE,  0, NEED, 0) \
    X(PREFETCH,   "prefetch",   NOP,          1,  1, NONE,  0, ANY,  0) \
    X(ISSPACEP,   "isspacep",   ALU,          2,  2, ONE,  -1, ANY,  0) \
    X(ATOM,       "atom",       MEM,          3,  4, ONE,   1, NEED, 0) \
    X(RED,        "red",        MEM,          2,  2, NONE,  0, NEED, 0) \
    /* warp-level; shfl.sync d|p, a, b, c, mask; match d|p, a, mask */ \
    X(SHFL,       "shfl",       WARP,         5,  6, PAIR, -1, NEED, 0) \
    X(VOTE,       "vote",       WARP,         3,  3, ONE,  -1, NEED, 0) \
    X(MATCH,      "match",      WARP,         3,  4, PAIR, -1, NEED, 0) \
    X(ACTIVEMASK, "activemask", WARP,         1,  1, ONE,  -1, NEED, 0) \
    X(REDUX,      "redux",      WARP,         3,  3, ONE,  -1, NEED, 0) \
    /* synchronisation; decode refines bar (bar.warp.sync is a WARP collective: exec_warp.c) */ \
    X(BAR,        "bar",        BAR,          0,  4, NONE, -1, ANY,  0) \
    X(BARRIER,    "barrier",    BAR,          0,  4, NONE, -1, ANY,  0) \
    X(MEMBAR,     "membar",     NOP,          0,  0, NONE, -1, ANY,  0) \
    X(FENCE,      "fence",      NOP,          0,  0, NONE, -1, ANY,  0) \
    X(NANOSLEEP,  "nanosleep",  NOP,          1,  1, NONE, -1, NEED, 0) \
    /* tensor-era data movement and matrix instructions: their modifiers are sim/frontend/ptx_tensor.c's
       (ptx_tc), their semantics exec_async.c (cp.async, groups, mbarrier), exec_matrix.c
       (ldmatrix, stmatrix, wmma.load/store) and exec_mma.c (mma, wmma.mma). A name with dots
       is matched as a whole-word prefix of the instruction (ptx_opcode_lookup_prefix).
       cp.async [dst], [src], size[, src-size | ignore-src]: operand 1 is a second address
       (ptx_op_extra_mem); the types are ptx_tc's, so ty is ANY */ \
    X(CP_ASYNC,   "cp.async",   MEM,          3,  5, NONE,  0, ANY,  0) \
    X(CP_COMMIT,  "cp.async.commit_group", WARP, 0, 0, NONE, -1, ANY, 0) \
    X(CP_WAIT,    "cp.async.wait_group", WARP, 1,  1, NONE, -1, ANY,  0) \
    X(CP_WAIT_ALL, "cp.async.wait_all", WARP,  0,  0, NONE, -1, ANY,  0) \
    X(CP_MBAR_ARRIVE, "cp.async.mbarrier.arrive", WARP, 1, 1, NONE, 0, ANY, 0) \
    /* bulk copies (TMA): [dst], [src], size, [mbar] to shared; [dst], [src], size to global;
       .tensor: [dst], [tensorMap, {coords}], [mbar] (the coordinates travel as the operand
       after the map's address); prefetch forms: [src], size or [tensorMap, {coords}] */ \
    X(CP_BULK,    "cp.async.bulk", MEM,       2,  5, NONE,  0, ANY,  0) \
    X(CP_BULK_TENSOR, "cp.async.bulk.tensor", MEM, 2, 6, NONE, 0, ANY, 0) \
    X(CP_BULK_COMMIT, "cp.async.bulk.commit_group", WARP, 0, 0, NONE, -1, ANY, 0) \
    X(CP_BULK_WAIT, "cp.async.bulk.wait_group", WARP, 1, 1, NONE, -1, ANY, 0) \
    X(LDMATRIX,   "ldmatrix",   MEM,          2,  2, ONE,   1, ANY,  0) \
    X(STMATRIX,   "stmatrix",   MEM,          2,  2, NONE,  0, ANY,  0) \
    X(WMMA_LOAD,  "wmma.load",  MEM,          2,  3, ONE,   1, ANY,  0) \
    X(WMMA_STORE, "wmma.store", MEM,          2,  3, NONE,  0, ANY,  0) \
    X(WMMA_MMA,   "wmma.mma",   WARP,         4,  4, ONE,  -1, ANY,  0) \
    X(MMA,        "mma",        WARP,         4,  4, ONE,  -1, ANY,  0) \
    /* mbarrier objects (8 bytes of shared memory; state, [addr], ...) */ \
    X(MBAR_INIT,  "mbarrier.init", WARP,      2,  2, NONE,  0, ANY,  0) \
    X(MBAR_ARRIVE, "mbarrier.arrive", WARP,   2,  3, ONE,   1, ANY,  0) \
    X(MBAR_ARRIVE_DROP, "mbarrier.arrive_drop", WARP, 2, 3, ONE, 1, ANY, 0) \
    X(MBAR_EXPECT_TX, "mbarrier.expect_tx", WARP, 2, 2, NONE, 0, ANY, 0) \
    X(MBAR_COMPLETE_TX, "mbarrier.complete_tx", WARP, 2, 2, NONE, 0, ANY, 0) \
    X(MBAR_TEST_WAIT, "mbarrier.test_wait", WARP, 3, 3, ONE, 1, ANY, 0) \
    X(MBAR_TRY_WAIT, "mbarrier.try_wait", WARP, 3, 4, ONE,  1, ANY,  0) \
    X(MBAR_INVAL, "mbarrier.inval", WARP,     1,  1, NONE,  0, ANY,  0) \
    /* warpgroup mma and thread-block clusters: a launch without cluster dimensions runs every
       block as a cluster of one, so the cluster instructions have their one-block meaning
       (mapa/getctarank to rank 0, barrier.cluster.wait = the block's barrier); wgmma is refused
       by name when reached (its operands beyond the 6th are parsed and dropped) */ \
    X(WGMMA_MMA,  "wgmma.mma_async", WARP,    4,  6, ONE,  -1, ANY,  0) \
    X(WGMMA_FENCE, "wgmma.fence", WARP,       0,  0, NONE, -1, ANY,  0) \
    X(WGMMA_COMMIT, "wgmma.commit_group", WARP, 0, 0, NONE, -1, ANY, 0) \
    X(WGMMA_WAIT, "wgmma.wait_group", WARP,   1,  1, NONE, -1, ANY,  0) \
    X(MAPA,       "mapa",       WARP,         3,  3, ONE,  -1, ANY,  0) \
    X(GETCTARANK, "getctarank", WARP,         2,  2, ONE,  -1, ANY,  0) \
    X(ELECT,      "elect",      WARP,         2,  3, PAIR, -1, ANY,  0) \
    X(BARRIER_CLUSTER, "barrier.cluster", BAR, 0, 0, NONE, -1, ANY,  0) \
    X(SETMAXNREG, "setmaxnreg", BAR,          1,  1, NONE, -1, ANY,  0) \
    X(GRIDDEPCONTROL, "griddepcontrol", NOP,  0,  0, NONE, -1, ANY,  0) \
    X(PMEVENT,    "pmevent",    NOP,          1,  1, NONE, -1, ANY,  0) \
    /* control flow */ \
    X(BRA,        "bra",        BRA,          1,  1, NONE, -1, ANY,  0) \
    X(BRX,        "brx",        UNSUPPORTED, -1, -1, NONE, -1, ANY,  0) \
    X(CALL,       "call",       CALL,        -1, -1, NONE, -1, ANY,  0) \
    X(RET,        "ret",        EXIT,         0,  0, NONE, -1, ANY,  0) \
    X(EXIT,       "exit",       EXIT,         0,  0, NONE, -1, ANY,  0) \
    X(TRAP,       "trap",       TRAP,         0,  0, NONE, -1, ANY,  0) \
    X(BRKPT,      "brkpt",      TRAP,         0,  0, NONE, -1, ANY,  0)

#endif
