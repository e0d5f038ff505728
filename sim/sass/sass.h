/* sass.h - the machine code ptxas makes of a kernel's PTX, read from nvdisasm's listing
 * (`nvdisasm -c -gi`, with the source line of every instruction) or cuobjdump -sass (no
 * lines): per function, every instruction with its predicate guard, and for memory
 * instructions the space, operation, access width, base register and immediate offset;
 * spill code as nvdisasm marks it; basic blocks and loops from the branches.
 * Invariant: a parsed listing is self-contained (no pointers into the text) and every
 * branch target is an instruction index of its function or -1 (outside it). *
 * Room sim/sass/: the machine-code stage: the listing ptxas made, and the events rewritten to what it executes. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_SASS_H
#define WS_SASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/ws_error.h"

#define WS_SASS_NAME_MAX 256

typedef enum { WS_SASS_SP_NONE = 0, WS_SASS_SP_GLOBAL, WS_SASS_SP_SHARED, WS_SASS_SP_LOCAL, WS_SASS_SP_GENERIC } ws_sass_space;
typedef enum { WS_SASS_OP_NONE = 0, WS_SASS_OP_LD, WS_SASS_OP_ST, WS_SASS_OP_ATOM, WS_SASS_OP_RED } ws_sass_op;
/* Tensor-pipe instructions by ncu's classes: hmma (HMMA, HGMMA, QGMMA, HFMA2.MMA), imma (IMMA,
 * IGMMA, BMMA, BGMMA), dmma (DMMA). */
typedef enum { WS_SASS_TENSOR_NONE = 0, WS_SASS_TENSOR_HMMA, WS_SASS_TENSOR_IMMA, WS_SASS_TENSOR_DMMA,
               WS_SASS_TENSOR_COUNT } ws_sass_tensor;

typedef struct {
    uint32_t addr;            /* byte offset in the function (the listing's / *0070* / ) */
    char opcode[24];          /* "LDS.128", modifiers included */
    char text[120];           /* the instruction as listed, guard included, without address and ';' */
    int line;                 /* source line (outermost "inlined at" line), 0 = unknown */
    int guard;                /* predicate register P0..P6 / UP0..UP6 as 0..6, 7 = PT; -1 = none */
    bool guard_neg;           /* @!P0 */
    /* memory instructions (space != NONE; an access under @!PT, which never runs, has none) */
    ws_sass_space space;
    ws_sass_op op;
    uint8_t width;            /* bytes per lane: 1, 2, 4, 8, 16 */
    bool spill;               /* nvdisasm's (*"SpillRefill"*): register spill or refill */
    ws_sass_tensor tensor;    /* a tensor-pipe instruction (HMMA ...), NONE otherwise */
    char base[32];            /* address registers without the immediate: "R4", "R0+UR4", "UR4", "" */
    int64_t offset;           /* the immediate of [base+0x10] (signed) */
    /* control flow */
    bool is_branch;           /* BRA, BRX, JMP, JMX, CALL, RET, EXIT, BPT, KILL */
    bool is_exit;             /* EXIT / RET / KILL */
    bool is_call;             /* CALL: execution comes back */
    int target;               /* branch target (instruction index), -1 = none or not in this function */
    int block;                /* basic block index */
    int loop_depth;           /* its block's */
} ws_sass_insn;

typedef struct {
    int first, n;             /* instructions [first, first + n) */
    int loop_depth;           /* natural loops containing it */
    bool cold;                /* reached only through BRA.DIV (a diverged warp's slow path) */
} ws_sass_block;

typedef struct {
    char name[WS_SASS_NAME_MAX];
    int ninsns;
    ws_sass_insn *insns;
    int nblocks;
    ws_sass_block *blocks;
    bool has_lines;           /* the listing carried source lines (nvdisasm -g/-gi) */
} ws_sass_function;

typedef struct {
    char path[WS_PATH_MAX];   /* where the listing came from, for messages */
    char arch[16];            /* "sm_90" from ".target", "" when not stated */
    int nfuncs;
    ws_sass_function *funcs;
} ws_sass_listing;

/* Parses an nvdisasm or cuobjdump listing. Returns NULL with err naming path and line
 * when the text holds no function or an instruction line cannot be read.
 * Example: ws_sass_listing *l = ws_sass_parse("k.sass", text, &err); */
ws_sass_listing *ws_sass_parse(const char *path, const char *text, ws_error *err);
void ws_sass_free(ws_sass_listing *l);
/* Successors of block b of f (out[0..return)): the fall-through unless the block ends in an
 * unconditional jump or exit, then the branch target's block (a BRA.DIV's target too). */
int ws_sass_successors(const ws_sass_function *f, int b, int out[2]);
/* The function with this exact (mangled) name, or NULL. */
const ws_sass_function *ws_sass_find(const ws_sass_listing *l, const char *name);

const char *ws_sass_space_name(ws_sass_space s); /* "global" */
const char *ws_sass_op_name(ws_sass_op o);       /* "load" */

/* ---- obtaining SASS -------------------------------------------------------------- */

/* True when the SASS path is switched off: WARPSCOPE_SASS=off (or 0, no), so the PTX-level
 * path can be run and tested on a machine that has the tools. */
bool ws_sass_disabled(void);

/* Compiles ptx with `ptxas -arch=<arch> -lineinfo` and lists the cubin with `nvdisasm -c -gi`,
 * both found by common/toolkit.h and run under common/child.h's limits. The whole module is
 * compiled and listed once (the listing holds entry and every other kernel of the file) unless it
 * has more than WS_SASS_MODULE_MAX_ENTRIES entries or ptxas refuses it whole; then entry alone
 * (`-e`; NULL = every entry). The listing is kept in this process (the next kernel of the module
 * runs no tool) and in the tool cache (common/toolcache.h) under the PTX's hash, both tools'
 * paths and versions, arch and what was compiled: the same module again runs neither tool.
 * Returns the malloc'd listing, or NULL with err saying which tool is missing (and what to run),
 * failed or was stopped by which limit (the caller then stays PTX-level and says why). */
#define WS_SASS_MODULE_MAX_ENTRIES 64
char *ws_sass_compile(const char *ptx, const char *arch, const char *entry, ws_error *err);
/* Drops the listings this process keeps (tests: the next compile asks the disk cache or the tools). */
void ws_sass_forget(void);
/* The same with the lister chosen: nvdisasm (source lines) or cuobjdump -sass (none; what
 * check falls back to where only the toolkit's cuobjdump is installed). */
typedef enum { WS_SASS_NVDISASM, WS_SASS_CUOBJDUMP } ws_sass_disasm;
char *ws_sass_compile_with(const char *ptx, const char *arch, const char *entry, ws_sass_disasm how, ws_error *err);

#endif
