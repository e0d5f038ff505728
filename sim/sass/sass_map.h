/* sass_map.h - which SASS instruction each PTX memory instruction became. Per source line,
 * memory space and kind, the PTX accesses are matched to the SASS ones by base register and
 * immediate offset: several narrow PTX accesses tiling one wide SASS access are a merge
 * (four ld.shared.f32 at +0,4,8,12 -> one LDS.128), a SASS instruction under a predicate
 * where the PTX has none is if-converted code, SASS copies beyond the PTX's are unrolled
 * code, and LDL/STL that nvdisasm marks as spill code have no PTX counterpart at all.
 * Each SASS basic block gets an anchor: a PTX instruction that runs exactly as often as the
 * block (an unpredicated memory instruction of the block), or failing that one at the same
 * source line and loop depth (then the plan is approximate).
 * Invariant: every PTX memory instruction has exactly one action, and every SASS memory
 * instruction is a target of some PTX one, a spill, or counted in sass_only. */
#ifndef WS_SASS_MAP_H
#define WS_SASS_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../common/device.h"
#include "../frontend/ptx.h"
#include "sass.h"

typedef enum {
    WS_MAP_NONE = 0,     /* not a memory instruction the models see */
    WS_MAP_PASS,         /* one PTX access, one SASS access (widths may still differ: see width) */
    WS_MAP_CARRY,        /* the lowest-addressed PTX access of a merge: carries the SASS access */
    WS_MAP_ABSORBED,     /* merged into the SASS access its carrier emits: no event of its own */
    WS_MAP_DROPPED       /* no SASS counterpart (ptxas removed it): no event */
} ws_map_action;

/* What SASS a wmma.load/store became (sim/sass/sass_events.c regroups its fragment into it). */
typedef enum {
    WS_TC_FORM_NONE = 0, /* not a wmma access, or no SASS found for it: counted at PTX level */
    WS_TC_FORM_PLAIN,    /* LDG / STG / LDS / STS / LD / ST of `width` bytes a lane (f16 A: 4 x LDG.E) */
    WS_TC_FORM_LDSM,     /* LDSM.16.M88.N / .MT88: one 8x8 matrix per fragment register */
    WS_TC_FORM_STSM      /* STSM, likewise */
} ws_tc_form;

typedef struct {
    ws_map_action action;
    int sass;            /* the SASS instruction (PASS, CARRY, ABSORBED), -1 otherwise */
    uint8_t width;       /* bytes per lane of that SASS instruction */
    ws_sass_op op;       /* its operation: an atom.global whose result is unused is a RED */
    bool by_order;       /* matched by order (not by base and offset): approximate */
    bool unrolled;       /* the SASS has more copies of this access than the PTX (unrolled code) */
    /* tensor-era accesses: cp.async <-> LDGSTS, ldmatrix <-> LDSM, stmatrix <-> STSM one for one;
     * wmma.load/store <-> per_exec SASS accesses of `form` (width: theirs) */
    uint8_t form;        /* ws_tc_form */
    uint8_t per_exec;    /* SASS accesses one execution becomes (1 for everything but wmma) */
    bool widened;        /* the SASS access also takes bytes before its carrier's, which no PTX access
                            of its tile reads (sass_map.c cover_round): its event starts at its alignment */
    bool aggregated;     /* a global atom/red ptxas aggregated over the warp (VOTE.ANY + POPC, or REDUX,
                            before a predicated REDG/ATOMG: one elected lane does the warp's operation) */
} ws_sass_pcmap;

/* A SASS-only instruction (spill code) and the PTX instruction it is placed at. */
typedef struct {
    int sass;            /* SASS instruction index */
    int anchor_pc;       /* PTX pc that runs as often as it does, -1 = unplaced */
    bool exact;          /* the anchor runs exactly as often as the block (see anchor_blocks) */
} ws_sass_extra;

typedef struct {
    int merges;          /* SASS accesses that carry more than one PTX access */
    int merged_ptx;      /* PTX accesses folded into them */
    int predicated;      /* SASS accesses under a predicate whose PTX has none (if-converted) */
    int spill_ld, spill_st;  /* LDL / STL spill code */
    int stack;           /* other SASS-only LDL/STL (call frames) */
    int unrolled;        /* SASS accesses that are extra copies of a PTX access */
    int dropped;         /* PTX accesses with no SASS counterpart */
    int by_order;        /* PTX accesses matched by order */
    int sass_only;       /* SASS accesses (not spills) with no PTX access */
    int unplaced;        /* spills / predicated accesses without an anchor */
    int inexact_anchors; /* blocks anchored by line, not by an instruction of their own */
    int tensor_matched;  /* tensor-era PTX accesses given their LDGSTS / LDSM / STSM / wmma SASS */
    int aggregated;      /* global atomics ptxas aggregated over the warp (one lane each) */
} ws_sass_map_stats;

/* A straight-line PTX loop ptxas unrolled (sim/sass/sass_unroll.c). */
typedef enum {
    WS_LOOP_ENTRY_PREV,       /* entered only by falling in from head - 1: entries = its executions */
    WS_LOOP_ENTRY_EXIT,       /* left only by falling out to tail + 1: entries = head - tail + tail+1 */
    WS_LOOP_ENTRY_WARPS       /* neither: once per warp (approximate) */
} ws_loop_entry;

typedef struct {
    int head, tail;           /* PTX pcs: the body's first instruction and the backward bra */
    int depth;                /* PTX loop depth of the body: a SASS block this deep is a loop over
                                 its copies, one less deep a straight-line copy (runs at most once) */
    ws_loop_entry entry;
} ws_sass_loop;

typedef struct {
    const ptx_function *fn;
    const ws_sass_function *sf;
    ws_sass_pcmap *pc;        /* fn->ninsns */
    int *sass_pc;             /* per SASS instruction: the PTX pc whose event it is (carrier), -1 */
    int *block_anchor;        /* per SASS block: PTX pc, -1 */
    bool *block_exact;
    ws_sass_loop *loops;      /* unrolled PTX loops */
    int nloops;
    int *block_loop;          /* per SASS block: the loop (index into loops) whose body it holds, -1 */
    int *block_mult;          /* per SASS block: copies of that body it holds (PTX iterations a run) */
    ws_sass_extra *spills;    /* spill / stack LDL and STL, SASS order */
    int nspills;
    uint8_t *watch;           /* per PTX pc: 1 = spills are anchored here (the interpreter reports it) */
    int *block_waterfall;     /* per SASS block: the bulk-copy PTX pc whose lanes it serves one at a time
                                 (a self-loop ending in BRA.U.ANY, find_waterfalls), -1 */
    double *pc_lanes_per_exec;/* per PTX pc: lane issues per warp execution the SASS stage saw
                                 (ws_sass_session_finish; 0 = none): a waterfall block's runs */
    ws_sass_map_stats st;
    bool approximate;         /* a memory counter rests on by_order / dropped / SASS-only / unplaced
                                 accesses or spill code anchored by line */
    bool insns_approximate;   /* the SASS instruction count rests on line anchors, on unrolled copies
                                 no unrolled loop explains, or on a loop split that may leave
                                 iterations unplaced (its smallest copy is not a loop of one) */
} ws_sass_plan;

/* A wmma.load/store's matrix as memory holds it: rows of row_bytes contiguous bytes (a
 * row-major matrix's rows, a col-major one's columns). */
void ws_sass_wmma_rows(const ptx_insn *in, int *rows, int *row_bytes);

/* Matches fn's memory instructions to sf's. Returns NULL only when out of memory. */
ws_sass_plan *ws_sass_map(const ptx_function *fn, const ws_sass_function *sf);
void ws_sass_plan_free(ws_sass_plan *p);

/* Where a warp waits for its global/local loads (docs/timing-model.md "Fills in flight"): SASS
 * issues in order, so an instruction that reads a register a global, local or generic load
 * wrote stalls the warp (long scoreboard) until that load is back, and every load after it in
 * the listing issues only then. Walking p->sf in listing order, the wait count goes up at each
 * such reader (the loads' registers then count as back). Returns a malloc'd array over event pcs,
 * *n of them: PTX pc i (0 .. fn->ninsns - 1) gets the count at its SASS instruction, -1 where it
 * has none; fn->ninsns + j (spill code's events, sass_events.h) that of SASS instruction j. Two
 * loads of a warp with counts a < b, the second later in the listing, have a wait between them.
 * NULL when out of memory. */
int *ws_sass_load_waits(const ws_sass_plan *p, int *n);

/* One line on what ptxas changed: "2 merges (8 PTX accesses), 12 spill loads, 10 spill
 * stores, 3 predicated; approximate: 4 accesses matched by order". */
void ws_sass_plan_summary(const ws_sass_plan *p, char *out, size_t cap);

/* Warp executions of every SASS block (out[sf->nblocks]), from the PTX's per-pc warp
 * executions: a block of an unrolled loop as sim/sass/sass_unroll.h splits the loop's
 * iterations; any other its anchor's executions (divided by the copies of the anchor's access
 * it holds; blocks without an anchor: once per warp, warps = pc_warp_count[0]); the padding
 * and a diverged warp's slow path 0. */
void ws_sass_block_runs(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t *out);

/* The part of the instruction counts that rests on a stand-in: the blocks whose runs no fact fixes
 * (not an exact anchor, not bounded to one value by the control flow, not an unrolled loop's split;
 * each counted as often as a PTX instruction of its source line and loop depth). A count that
 * differs from the GPU's by no more than this part may owe the whole difference to it. */
typedef struct {
    int blocks;                      /* such blocks that ran (runs > 0) */
    uint64_t insns;                  /* their instructions times their runs */
    uint64_t pipe[WS_PIPE_COUNT];    /* of those, per pipe (as ws_sass_pipe_insns counts) */
    int line;                        /* source line of the one that counts most, 0 = none */
    uint32_t addr;                   /* its first instruction's address */
    uint64_t line_runs;              /* its runs */
} ws_sass_guess;
void ws_sass_guessed(const ws_sass_plan *p, const uint64_t *pc_warp_count, ws_sass_guess *g);

/* Warp-level SASS instructions executed: each SASS block's size times its runs
 * (ws_sass_block_runs). */
uint64_t ws_sass_warp_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count);
/* The same for the tensor pipe's instructions alone (HMMA ...), by class: out[WS_SASS_TENSOR_HMMA]
 * etc., out[WS_SASS_TENSOR_NONE] the sum of all. */
void ws_sass_tensor_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t out[WS_SASS_TENSOR_COUNT]);
/* Executed SASS warp instructions per arithmetic pipe (sim/models/pipes.h), counted as
 * ws_sass_warp_insns counts them; a wgmma's pipe (WS_PIPE_GMMA) in its units (N/8 each). */
void ws_sass_pipe_insns(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t out[WS_PIPE_COUNT]);

/* Every SASS instruction with its block's runs (ws_sass_block_runs), pipe, the block's anchor PTX pc
 * (-1 none), whether it is exact, its unrolled loop (-1 none), source line and text: one tab-separated
 * row each after a "# function <demangled name>" line (WARPSCOPE_SASS_COUNTS=FILE appends them
 * there; scripts/sass-count-compare.py sets them beside ncu's per-instruction counts). */
void ws_sass_write_counts(FILE *out, const ws_sass_plan *p, const uint64_t *pc_warp_count);

/* PTX and SASS side by side, per source line: each PTX memory instruction with the SASS one
 * it became (marked "merge N->1", "merged into", "removed by ptxas", "predicated"), then
 * the line's SASS-only memory instructions ("spill store", "unrolled copy", ...).
 * source/source_len: the .cu text for the line column (NULL = numbers only). */
void ws_sass_print(FILE *out, const ws_sass_plan *p, const char *source, size_t source_len);

#endif
