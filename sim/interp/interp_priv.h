/* interp_priv.h - what the interpreter's files share (not a contract): the
 * decoded program, warps, the per-launch context and the lane-loop helpers.
 * Invariant: a register slot holds its value in its low bits; bits above the
 * reading instruction's type width are don't-care, so every read truncates or
 * extends by the reader's type and writers never need to mask. */
#ifndef WS_INTERP_PRIV_H
#define WS_INTERP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../common/ws_assert.h"
#include "../frontend/half.h"
#include "interp.h"

#define SIM_FULL 0xffffffffu

/* Generic address windows (what cvta.<space> adds). Global addresses are
 * below WS_GLOBAL_BASE + max_host_bytes, far below these. */
#define SIM_WIN_SHARED 0x0000100000000000ull
#define SIM_WIN_LOCAL  0x0000200000000000ull
#define SIM_WIN_CONST  0x0000300000000000ull
#define SIM_WIN_PARAM  0x0000400000000000ull
#define SIM_WIN_SIZE   0x0000000100000000ull /* 4 GiB each */
/* A function's address: SIM_WIN_FUNC + its index * SIM_FUNC_STRIDE (ptx.h). */
#define SIM_WIN_FUNC   PTX_FUNC_BASE
#define SIM_FUNC_STRIDE PTX_FUNC_STRIDE

/* Calls (exec_call.c): frames a warp may stack, and the bytes of local memory each
 * lane's stack may grow to (the GPU's default cudaLimitStackSize is 1 KiB). */
#define SIM_MAX_CALL_DEPTH 512
#define SIM_MAX_STACK_BYTES (256u << 10)

/* Runs body with `l` bound to each lane of mask; contiguous loop when full so
 * the compiler can vectorise the common case. */
#define SIM_LANES(mask, ...) do {                                               \
        uint32_t m_ = (mask);                                                   \
        if (m_ == SIM_FULL) { for (int l = 0; l < 32; l++) { __VA_ARGS__; } }   \
        else { while (m_) { int l = __builtin_ctz(m_); m_ &= m_ - 1; __VA_ARGS__; } } \
    } while (0)

/* The opcode classes of ptx_ops.h, as decode refines them per instruction. */
typedef enum {
    SIM_CLS_ALU = PTX_CLS_ALU, SIM_CLS_MEM = PTX_CLS_MEM, SIM_CLS_WARP = PTX_CLS_WARP,
    SIM_CLS_BRA = PTX_CLS_BRA, SIM_CLS_EXIT = PTX_CLS_EXIT, SIM_CLS_BAR = PTX_CLS_BAR,
    SIM_CLS_NOP = PTX_CLS_NOP, SIM_CLS_TRAP = PTX_CLS_TRAP, SIM_CLS_CALL = PTX_CLS_CALL,
    SIM_CLS_UNSUPPORTED = PTX_CLS_UNSUPPORTED
} sim_cls;

struct sim_ctx;
struct sim_warp;
struct sim_insn;
/* An ALU instruction's semantics over the lanes of m; 0, or -1 with the error set. */
typedef int (*sim_alu_fn)(struct sim_ctx *c, struct sim_warp *w, const struct sim_insn *in, uint32_t m);

/* A decoded address operand: lane address = base register (wrapped at base_bits) + disp. */
typedef struct {
    int32_t base;             /* file offset of the address register, -1 = none */
    int base_bits;            /* its width: 32-bit registers wrap addresses at 2^32 */
    uint64_t disp;            /* constant part: offset (+ symbol address) */
} sim_addr;

/* One decoded instruction. Every operand is an offset (in uint64 words) into
 * the warp's value file, where 32 consecutive words hold its lanes:
 * registers, special registers, immediates and symbol addresses alike.
 * What does not change between executions (the ALU semantics chosen for the
 * type and modifiers, widths, rounding) is decided here, once. */
typedef struct sim_insn {
    /* the first cache line: what every execution reads (exec_step.c's loop, the ALU operands) */
    _Alignas(64) sim_alu_fn alu; /* ALU class: its semantics (exec_alu.c, sim_alu_decode) */
    const ptx_insn *pi;
    int32_t guard;            /* file offset of the guard predicate, -1 = none */
    int32_t target;           /* bra: target pc; call: the callee (function index or PTX_CALLEE_*) */
    int32_t ipdom;            /* bra: reconvergence pc (prog.n = function exit, SIM_NO_JOIN) */
    uint32_t src[PTX_MAX_OPND]; /* file offset per operand (REG/IMM/SREG/SYM; sinks -> scratch) */
    uint8_t cls;              /* sim_cls */
    uint8_t bits;             /* width of the instruction's type in bits (pred: 1) */
    bool sgn;                 /* its type is signed */
    bool guard_neg;
    bool reads_clock;         /* refresh %clock before running */
    bool next_plain;          /* pc+1 is inside the function and no path can wait, join or open a loop
                                 there: after a straight-line instruction the stack needs no settling */
    int fe;                   /* ALU float with directed rounding: the FE_* mode to run in */
    /* the rest: memory operands, vectors, constants of rarer semantics */
    uint64_t k;               /* ALU: a constant of the semantics (cvta's window, set's "true", cvt's source width) */
    int32_t mem_base;         /* file offset of the address register, -1 = none */
    int mem_base_bits;        /* its width: 32-bit registers wrap addresses at 2^32 */
    uint64_t mem_disp;        /* constant part: offset (+ symbol address) */
    int mem_opnd;             /* index of the MEM operand, -1 = none */
    int vec_opnd;             /* index of the VEC operand, -1 = none */
    int vec_n;
    uint32_t vec[4];          /* the VEC operand's elements (sinks -> scratch) */
    int32_t loop_join;        /* loop header: where the lanes leaving the loop meet, SIM_NO_JOIN */
    bool leaves_quietly;      /* every path from here reaches the exit with no barrier, memory or
                                 warp-level instruction on the way (a `return` in the source) */
    sim_addr more[2];         /* the address operands after the first, in order (cp.async's [src];
                                 cp.async.bulk's [src] and [mbar]); base -1 and disp 0 when absent */
    int nmore;
    uint8_t watch;            /* progress.c's slice: SIM_WATCH_READ (a load or atomic whose value can
                                 decide what a warp does), SIM_WATCH_KNOWN (a store or atomic whose
                                 value the deciding registers give) */
} sim_insn;
enum { SIM_WATCH_READ = 1, SIM_WATCH_KNOWN = 2 };
/* One record starts each cache line pair (decode.c allocates them 64-byte aligned). */
_Static_assert(offsetof(sim_insn, k) == 64, "sim_insn: the hot fields fill exactly the first cache line");
_Static_assert(sizeof(sim_insn) % 64 == 0, "sim_insn: a whole number of cache lines");

typedef struct {
    const ptx_function *fn;
    int n;                    /* instructions; pc == n is the function's exit */
    sim_insn *insns;
    uint32_t sreg_off;        /* file offset of the first special register the function reads */
    int16_t sreg_slot[PTX_SREG_COUNT]; /* its slot among them, -1 when it reads none of it */
    int nsregs;               /* special registers it reads */
    uint8_t sregs[PTX_SREG_COUNT]; /* which, in slot order */
    bool reads_clock;         /* %clock, %clock64, %globaltimer ...: refreshed as the warp runs */
    uint32_t imm_off;         /* file offset of the first immediate */
    uint32_t scratch_off;     /* two scratch lanes-arrays (sink targets, temporaries) */
    uint32_t file_words;      /* total words per warp */
    int nimm;
    uint64_t *imm;            /* nimm values (broadcast into each warp's file) */
    /* the progress watch's slice (progress.c, sim_progress_plan): the registers that can decide what a
       warp does; a warp whose slice repeats, with no such register fed from changed memory, loops */
    bool sliced;              /* the program allows the slice (only loads, stores and atomics touch memory) */
    uint32_t nkeep;
    uint32_t *keep;           /* file offsets of those registers (32 lanes each) */
} sim_program;

/* One function a warp runs: frames[0] is the kernel, each call adds one (exec_call.c).
 * Buffers stay with the slot, for the next call at the same depth. */
typedef struct {
    const sim_program *prog;
    uint64_t *file;           /* its value file */
    uint32_t file_cap;        /* words allocated */
    const sim_program *imms_of; /* program whose immediates the file holds */
    uint8_t *pbuf;            /* per-lane parameter space: 32 x pstride bytes */
    uint64_t pcap;
    uint32_t pstride;
    uint64_t pbase;           /* parameter-space offset pbuf starts at (the kernel's: its arg_base) */
    uint64_t local_base, local_top; /* its local frame in each lane's stack */
    int floor;                /* its bottom SIMT entry's index */
    const sim_insn *site;     /* the call that made it (NULL for the kernel) */
    uint32_t mask;            /* the lanes that called */
} sim_frame;

typedef struct {
    int32_t pc;               /* next instruction of this path */
    int32_t rpc;              /* pop when pc reaches it; -1 = bottom entry */
    uint32_t mask;
} sim_simt_entry;

enum { SIM_W_RUN, SIM_W_BAR, SIM_W_DONE, SIM_W_CLUSTER /* at barrier.cluster.wait (exec_cluster.c) */,
       SIM_W_NREG /* at setmaxnreg.inc until the pool has the registers (exec_nreg.c) */ };

/* --- CTA barriers (exec_barrier.c) ------------------------------------------ */
#define SIM_NBARRIERS 16      /* barriers per block, 0..15 (PTX ISA) */

/* One of a block's 16 barriers in its current phase. Arrivals are counted per warp,
 * 32 threads each whatever its active lanes (PTX ISA): the barrier completes when
 * `expect` threads (expect/32 warps) arrived, or for expect 0 when every warp with a
 * non-exited thread did. */
typedef struct {
    int count;                /* warp arrivals this phase */
    int expect;               /* threads it waits for (from the first arrival); 0 = the whole block */
    uint32_t arrived;         /* warps that arrived this phase (bit per warp) */
    uint32_t waiting;         /* of those, warps blocked in it (sync/red, not arrive) */
    int first_pc, first_warp; /* the phase's first arrival, for messages */
    bool several_pcs;         /* arrivals came from more than one instruction */
    bool any_aligned;         /* some arrival was .aligned (bar.sync, __syncthreads()) */
    uint8_t red;              /* ptx_barmode of bar.red arrivals, PTX_BAR_NONE if none */
    uint32_t red_true;        /* bar.red: threads whose predicate was true */
    uint32_t red_threads;     /* bar.red: threads that took part */
} sim_barrier;

#define SIM_SPIN_BUF 64        /* a wait loop's retry path longer than this is not counted as a spin */

typedef struct sim_warp {
    uint64_t *file;           /* regs | sregs | imms | scratch, 32 lanes each */
    sim_simt_entry *stack;
    int sp, cap;
    uint32_t exists;          /* lanes that hold a thread of the block */
    uint32_t live;            /* lanes that have not exited */
    uint32_t carry;           /* add.cc carry flag per lane */
    int state;                /* SIM_W_* */
    int bar_pc;               /* pc of the barrier it waits at (its path's pc stays there until released) */
    int bar_id;               /* that barrier's number, -1 = none */
    uint32_t bar_lanes;       /* barrier.sync without .aligned: lanes that arrived while other paths of
                                 the warp run on (the warp arrives when every live lane has) */
    int bar_expect;           /* the thread count its parked lanes asked for (with bar_lanes) */
    uint32_t bar_red_true, bar_red_threads; /* bar.red contributions of its parked lanes */
    uint32_t bars_passed;     /* barrier phases it has waited through, for messages */
    uint64_t ready_round;     /* a released warp runs from this scheduling round on, as all warps of a
                                 barrier resume together in the next round */
    int exit_pc;              /* pc of the last exit/ret, for messages; -1 = none */
    uint32_t index;           /* warp index in the block */
    uint8_t *local;           /* 32 lane stacks of local_stride bytes each: the frames' local memory */
    uint64_t local_stride;
    uint64_t clock;           /* warp-level instructions run, for %clock */
    int exit_node;            /* the running function's exit pc (prog->n) */
    /* calls: the running frame, mirrored from frames[depth] */
    const sim_program *prog;  /* the function it runs */
    int floor;                /* SIMT entries below belong to callers */
    int depth;                /* frames above the kernel's */
    sim_frame *frames;
    int cap_frames;
    uint32_t site_pc;         /* the kernel's pc of the outermost call running (events, counters) */
    bool cl_arrived;          /* arrived at the cluster barrier and not yet waited (exec_cluster.c) */
    uint32_t cl_phase;        /* the cluster barrier's phase it arrived in */
    int cl_pc;                /* pc of the barrier.cluster.wait it waits at (state SIM_W_CLUSTER) */
    /* setmaxnreg (exec_nreg.c) */
    uint16_t nreg;            /* registers per thread it holds; 0 = unknown (no ptxas count, no setmaxnreg yet) */
    uint16_t nreg_want;       /* state SIM_W_NREG: the count its setmaxnreg.inc at nreg_pc asks for */
    int nreg_pc;              /* pc of its last setmaxnreg (the waiting one in SIM_W_NREG), -1 = none */
    uint32_t nreg_seq;        /* setmaxnreg instructions it has completed */
    /* spins in a blocking wait loop (sim_spin_step): after a try of the wait at spin_wait, the loop's
       pcs it ran since; back at that wait, they and the wait were a retry (res->pc_spin_count) */
    int spin_wait;            /* pc of the wait last tried, -1 = not in a wait loop */
    int spin_n;               /* pcs in spin_buf */
    int spin_buf[SIM_SPIN_BUF];
    /* the progress watch (progress.c): Brent's cycle search over the warp's state at its slice ends,
       restarted whenever sim_ctx.progress moves */
    uint64_t snap_epoch;      /* sim_ctx.progress when the search (re)started */
    uint64_t snap_hash;       /* the state saved for comparison */
    uint32_t quiet;           /* slices run since then */
    uint32_t snap_power, snap_lam; /* Brent: the saved state is replaced after snap_power checks */
    bool cycling;             /* its state came back to the saved one with snap_epoch unchanged */
    struct sim_wg *wg;        /* its wgmma groups and the registers they hold (exec_wgmma.c); NULL until used */
    bool wg_busy;             /* some register is held by a wgmma not yet waited for: every instruction
                                 is checked against them (sim_wgmma_hazard) */
} sim_warp;

/* One block being run: its warps, its shared window, its barriers. A launch runs its
 * blocks one after another through one of these, or, when cooperative, all at once
 * (one each), interleaved slice by slice so grid-wide waits can be met. */
typedef struct sim_block {
    uint32_t idx[3];          /* blockIdx */
    uint32_t linear;
    sim_warp *warps;          /* sim_ctx.nwarps of them */
    uint8_t *shared;          /* sim_ctx.shared_bytes */
    sim_barrier bar[SIM_NBARRIERS];
    bool done;
    bool sregs_filled;        /* its warps' files hold the launch-wide special registers (start_block) */
    struct sim_tc *tc;        /* its cp.async / mbarrier state (exec_tc.c); NULL until used */
    uint32_t rank;            /* %cluster_ctarank: its place in its cluster (0 without clusters) */
    uint32_t cl_phase;        /* rank 0: its cluster barrier's phases completed (exec_cluster.c) */
    uint32_t bar_phases;      /* barrier phases (any of its barriers, and its cluster's) it completed:
                                 what orders an mbarrier.init before another warp's use (exec_tc.c) */
    uint64_t nreg_held;       /* registers its warps hold (sum of nreg x 32; exec_nreg.c) */
    uint64_t nreg_peak;       /* the most they held at once */
} sim_block;

typedef struct {
    const char *name;         /* buffer name for messages */
    uint64_t base, size;
    uint8_t *data;
    uint8_t *written;         /* init=none buffers: one bit per byte, set once stored (initcheck);
                                 NULL = initialised, every read is fine */
    const ws_buffer *lazy;    /* ws_sim_config.lazy_fill: filled SIM_FILL_CHUNK bytes at a time on first touch */
    uint8_t *chunk_done;      /* per chunk: nonzero once filled (lazy only) */
    uint64_t pending;         /* chunks not filled yet; 0 = nothing to check (every eager region) */
} sim_region;

#define SIM_FILL_CHUNK 65536u /* a multiple of every scalar size: a chunk holds whole scalars */
/* Fills the chunks of lazy region r that [off, off + n) touches and are not filled yet. */
void sim_region_fill(sim_region *r, uint64_t off, uint64_t n);

typedef struct sim_ctx {
    const ws_sim_config *cfg;
    const ws_launch *L;
    const ptx_function *fn;
    const ptx_module *mod;
    ws_sim_result *res;
    ws_error *err;
    sim_program prog;         /* the kernel's */
    int *spin_range;          /* per kernel pc: 2 x ninsns, [2 pc] the first and [2 pc + 1] the last pc of the
                                 blocking wait loop whose wait is at pc (-1: not such a wait); NULL: the
                                 kernel has none. Owned by the launch's context (workers share it) */
    sim_program **progs;      /* per module function: decoded when the kernel reaches it, else NULL */
    char kname[WS_KERNEL_NAME_MAX + 8]; /* kernel name for messages */
    /* memory */
    int nregions;             /* buffers, then module globals if any */
    bool any_lazy;            /* some region fills lazily: one thread (its chunks are filled on first touch) */
    sim_region region[WS_MAX_BUFFERS + 2]; /* buffers, the grid workspace if any, module globals (last) */
    uint8_t *param;
    uint64_t param_bytes;
    const uint8_t *cnst;
    uint64_t const_bytes;
    uint8_t *shared;
    uint64_t shared_bytes;    /* static + dynamic */
    uint64_t shared_static, shared_dynamic;
    uint64_t local_bytes;     /* per thread */
    /* blocks: nslots of them held at once (1, or the whole grid when cooperative) */
    sim_block *blocks;
    uint32_t nslots;
    bool cooperative;         /* the description's `cooperative`: blocks co-resident, grid workspace */
    uint64_t grid_ws;         /* simulated address of the grid workspace (%envreg1:%envreg2), 0 = none */
    uint8_t grid_ws_data[16]; /* its bytes: wsSize, barrier word (cooperative_groups/details/driver_abi.h) */
    bool needs_grid_ws;       /* the kernel reads %envreg1 or %envreg2 (cooperative groups' grid handle) */
    /* thread-block clusters (exec_cluster.c): a cluster's blocks are the slots blocks[0..cl_n), started
       together in rank order and run interleaved; cl_n = 1 without a cluster launch */
    uint32_t cl_dim[3];       /* blocks per cluster in x, y, z (1, 1, 1 without clusters) */
    uint32_t cl_n;            /* blocks per cluster */
    bool cl_explicit;         /* launched with cluster dimensions (%is_explicit_cluster) */
    uint8_t dsmem_tag;        /* while a .shared::cluster access runs on another block's window: 1 + its
                                 rank (the events' dsmem); 0 otherwise */
    /* the block being run (sim_select_block): what the executors read */
    uint64_t round;           /* scheduling rounds so far (run_blocks) */
    sim_block *blk;
    uint32_t block[3];
    uint32_t block_linear;
    uint32_t nwarps;
    sim_warp *warps;
    int copy_lane;            /* exec_bulk.c: the lane whose copy is being emitted (ws_mem_event.issue_lane) */
    /* counters */
    uint64_t seq;
    uint64_t budget;
    double pred_floor;        /* predict.c: the least a block costs (its threads x the shortest path, or its start) */
    uint64_t pred_last;       /* thread_insns after the block before (each block's own cost) */
    uint64_t pred_min;        /* the cheapest block so far */
    uint64_t thread_insns, warp_insns;
    uint64_t frame_bytes;     /* host memory the warps' call frames hold (exec_call.c) */
    uint64_t progress;        /* moves (sim_progress) on everything that can change what a warp will do
                                 other than its own registers: a store or atomic that changes a byte, a
                                 barrier arrival, an exit, a call, cp.async / mbarrier / tensor state
                                 (progress.c: while it stands still, a warp whose state repeats loops forever) */
    int last_region;          /* lookup cache */
    struct sim_tc *tc;        /* the selected block's tensor-era state (sim_block.tc); NULL until used */
    bool any_uninit;          /* some region has a written-bitmap: global accesses consult it */
    /* a worker of a threaded launch (interp_par.c); NULL/0 on one thread */
    void (*on_slice)(struct sim_ctx *c, const struct sim_warp *w); /* after each warp slice that ran */
    void *par;                /* the worker's state */
    const volatile int *abort; /* nonzero: stop the block now (a block before it faulted) */
    /* the progress watch on its slice (progress.c): after SIM_SLICE_AFTER thread-instructions of the
       resident blocks, a changed byte is progress only where a deciding load reads it */
    bool sliced;              /* on now */
    uint64_t slice_at;        /* thread_insns at which it goes on (block start + SIM_SLICE_AFTER) */
    struct sim_seen *seen;    /* the words read and written since progress last moved; NULL until on */
} sim_ctx;

/* Something another warp or a later instruction could see changed (sim_ctx.progress). */
static inline void sim_progress(struct sim_ctx *c) { c->progress++; }

/* --- value helpers ------------------------------------------------------- */
static inline float sim_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline uint64_t sim_f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double sim_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t sim_f64b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline int64_t sim_sext(uint64_t v, int bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline uint64_t sim_zext(uint64_t v, int bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
static inline int sim_bits(ptx_type t) { return t == PTX_T_PRED ? 1 : ptx_type_size(t) * 8; }

/* Lanes of predicate slot `off` that are true (xor neg). */
static inline uint32_t sim_pred_mask(const uint64_t *file, uint32_t off, bool neg)
{
    const uint64_t *p = file + off;
    uint32_t m = 0;
    for (int l = 0; l < 32; l++) m |= (uint32_t)(p[l] & 1) << l;
    return neg ? ~m : m;
}

/* decode.c: builds c->prog from c->fn and c->progs for every function it reaches
 * (needs the regions placed). */
int sim_decode(sim_ctx *c);
void sim_program_free(sim_program *p);
void sim_programs_free(sim_ctx *c);
/* The program of module function f, decoded now if the launch has not yet (a function
 * reached only through a table of function addresses); NULL with c->err set. */
sim_program *sim_decode_function(sim_ctx *c, int f);

/* sreg.c: writes the special registers p reads into file (the warp's running frame
 * or a new one), lanes 0..31: which = SIM_SREG_ALL every one, SIM_SREG_BLOCK those that
 * differ between blocks (a warp slot's file filled once keeps the others: no instruction
 * writes a special register), SIM_SREG_CLOCKS just the clocks. */
enum { SIM_SREG_ALL, SIM_SREG_BLOCK, SIM_SREG_CLOCKS };
void sim_sreg_fill(const sim_ctx *c, const sim_warp *w, const sim_program *p, uint64_t *file, int which);

/* --- the parts ------------------------------------------------------------ */
/* simt.c: reconvergence points, as ptxas places BSSY/BSYNC (docs/interp.md):
 * ipdom[i] for each divergent branch, where its paths meet again, leaving out
 * paths that leave the kernel (trap, ret, exit) or the loop (break);
 * loop_join[h] for each loop header, where the lanes that leave the loop meet.
 * SIM_NO_JOIN: the paths never meet (they keep the enclosing reconvergence pc).
 * Returns 0, or -1 when out of memory. */
#define SIM_NO_JOIN (-2)
int sim_simt_joins(const ptx_function *fn, int32_t *ipdom, int32_t *loop_join);
/* The warp's top path splits: `taken` lanes go to target, `fall` to pc+1. */
int sim_simt_branch(sim_warp *w, int pc, int target, int ipdom, uint32_t taken, uint32_t fall);
/* Lanes leave for good (exit, trap, the kernel's ret): removed from every path. */
void sim_simt_exit(sim_warp *w, uint32_t lanes);
/* Lanes leave the running function (ret): in the kernel they exit; in a called
 * function they are removed from its paths only, and wait in the caller's. */
void sim_simt_return(sim_warp *w, uint32_t lanes);
/* Pops finished paths, lets a path that reached an enclosing join wait
 * there, opens a loop's region at its header; returns false when the running
 * function (w->floor up) has no lanes left. */
bool sim_simt_settle(sim_warp *w, const sim_program *p);
/* The top path reached the barrier at pc holding only some live lanes: let
 * its sibling path run first (it may exit, or reach the same barrier and
 * merge). Returns false when no sibling can run: a truly diverged barrier. */
bool sim_simt_yield_at_barrier(sim_warp *w, const sim_program *p, int pc);
/* True when every live lane missing from the top path waits where nothing but
 * leaving lies ahead (the kernel's final ret after `if (i >= n) return;`): the
 * barrier need not wait for lanes that have, in the source, returned. */
bool sim_simt_others_leave(const sim_warp *w, const sim_program *p, uint32_t m);
/* Fills insns[].leaves_quietly (decode time; needs insns[].cls). */
void sim_simt_leaves_quietly(const ptx_function *fn, sim_program *p);
/* The SIMT stack's shape: 0 <= floor <= sp <= cap, every entry's lanes live (an exited lane
 * is in no entry), the running function's pcs and reconvergence pcs within it. 0, or the
 * rule (1..3) broken. sim_simt_settle asserts it. */
int sim_simt_check(const sim_warp *w);
/* decode.c: a decoded program's shape: each instruction's PTX, value-file offsets inside
 * file_words, branch targets and joins inside the function. 0; 1 for a bad file layout, 2 + i
 * for a bad instruction i. sim_decode asserts it for every program. */
int sim_program_check(const sim_program *p);

/* exec_alu.c: chooses in->alu and fills bits/sgn/fe/k (decode time; needs in->pi, vec_opnd). */
void sim_alu_decode(sim_insn *in);
int sim_exec_mem(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
bool sim_red_commutes(const ptx_function *fn, const ptx_insn *pi);   /* exec_mem.c: a reduction blocks on threads may run (interp_par.c) */
/* exec_mem.c: host pointers for the lanes of *mask accessing n bytes at addr[] (each a multiple
 * of align) in space sp; faulting lanes leave *mask (warnings) or the call fails (-1, c->err set). */
int sim_translate(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, const uint64_t *addr,
                  uint32_t *mask, uint32_t n, uint32_t align, uint8_t **ptr);
/* exec_tc.c: the tensor-era instructions (ptx_tc_op): the MEM-class ones (cp.async, ldmatrix,
 * stmatrix, wmma.load/store) and the WARP-class ones (groups, mbarrier, mma, wmma.mma). */
int sim_exec_tc_mem(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
int sim_exec_tc_warp(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
/* A shared access by the lanes of m (n bytes at addr[]) that touches a byte a cp.async has not
 * been waited for faults (-1); 0 otherwise. Called only when c->tc is set. */
int sim_tc_check_shared(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, const uint64_t *addr, uint32_t n);
void sim_tc_block_start(sim_ctx *c);
void sim_tc_free(sim_ctx *c);
int sim_exec_warp(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
/* exec_wgmma.c: wgmma.mma_async / fence / commit_group / wait_group by warp w (its quarter of the
 * warpgroup). sim_wgmma_hazard: called for every instruction while w->wg_busy; an access to a
 * register an in-flight wgmma holds faults (-1), else 0. sim_wgmma_block_start: no wgmma in flight;
 * sim_wgmma_free: the warp's state released. */
int sim_exec_wgmma(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
int sim_wgmma_hazard(sim_ctx *c, sim_warp *w, const sim_insn *in);
void sim_wgmma_block_start(sim_warp *w);
void sim_wgmma_free(sim_warp *w);
/* exec_mem.c: host pointer to n bytes at generic address a as lane l sees it
 * (global, shared, local, const windows), or NULL. */
uint8_t *sim_generic_ptr(sim_ctx *c, const sim_warp *w, int l, uint64_t a, uint64_t n);
/* exec_mem.c: lane l's bytes at offset a of the running frame's parameter space, or NULL. */
uint8_t *sim_param_ptr(sim_ctx *c, const sim_warp *w, const sim_frame *f, int l, uint64_t a, uint64_t n);

/* exec_call.c: a call by the lanes m of the top path (whose pc has moved past it). */
int sim_exec_call(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m);
/* Settles the SIMT stack, popping the frames whose functions every lane has left;
 * false when the warp has no lanes left. */
bool sim_frames_settle(sim_ctx *c, sim_warp *w);
/* The warp runs its kernel frame again (block start). */
void sim_frames_reset(sim_ctx *c, sim_warp *w);
void sim_frames_free(sim_warp *w);

/* exec_barrier.c: a CTA barrier (bar/barrier .sync .arrive .red) reached at pc by the
 * warp's top path, lanes `mask`, of which m pass the guard. Returns SIM_BAR_PASS (the
 * path went on: its pc is advanced), SIM_BAR_SWITCH (it stays parked; another path of
 * the warp is on top), SIM_BAR_WAIT (the warp waits for the barrier), or -1 with the
 * error set. *uncount: the visit executed nothing (a parked path seen again). */
enum { SIM_BAR_PASS, SIM_BAR_SWITCH, SIM_BAR_WAIT };
int sim_exec_barrier(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m, bool *uncount);
/* Warp w of the current block has exited: barriers that wait for the whole block may
 * now be complete. 0, or -1 with the error set. */
int sim_barrier_warp_done(sim_ctx *c, sim_warp *w);
/* No warp of the n blocks can run and some wait at barriers: the deadlock, named
 * (barrier, line, waiting warps, where the others are). Returns -1 with the error set. */
int sim_barrier_deadlock(sim_ctx *c, sim_block *blocks, uint32_t n);
/* exec_warp.c: bar.warp.sync (__syncwarp(mask)): the member mask checked like the
 * other .sync collectives'. */

/* exec_cluster.c: barrier.cluster.arrive / .wait by warp w (its top path, lanes m of mask, at pc):
 * SIM_BAR_PASS, SIM_BAR_WAIT, or -1 with the error set. */
int sim_exec_cluster_barrier(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m);
/* Warp w has exited: the cluster barrier may now be complete. 0, or -1. */
int sim_cluster_warp_done(sim_ctx *c, sim_warp *w);
/* The block of rank `rank` in the running cluster, or NULL when the rank is outside it. */
sim_block *sim_cluster_block(sim_ctx *c, uint32_t rank);
/* Distributed shared memory addresses: a .shared::cluster address (and a generic one in the
 * shared window) holds 1 + the target block's rank above bit SIM_DSMEM_SHIFT; 0 there = the
 * executing block's own shared memory, as a .shared::cta address is (PTX ISA: the shared::cta
 * window lies inside the shared::cluster window). */
#define SIM_DSMEM_SHIFT 24
#define SIM_DSMEM_OFF(a) ((a) & ((1ull << SIM_DSMEM_SHIFT) - 1))
#define SIM_DSMEM_TAG(a) ((uint32_t)((a) >> SIM_DSMEM_SHIFT & 0x1f))

/* exec_nreg.c: setmaxnreg.{inc,dec}.sync.aligned.u32 N by warp w (its top path, lanes m of mask, at
 * pc): the warp's count set to N, the difference taken from or given to the block's register pool
 * (ws_sim_config.regs_per_thread x its threads); an .inc the pool cannot meet yet waits (SIM_W_NREG)
 * until a .dec frees enough. SIM_BAR_PASS, SIM_BAR_WAIT, or -1 with the error set. */
int sim_exec_setmaxnreg(sim_ctx *c, sim_warp *w, const sim_insn *in, int pc, uint32_t mask, uint32_t m);
/* Block start: every warp holds the launch's count, the pool none spare. */
void sim_nreg_block_start(sim_ctx *c, sim_block *blk);
/* Block end: its counts into c->res->nreg (when some warp ran setmaxnreg). */
void sim_nreg_block_end(sim_ctx *c, const sim_block *blk);
/* No warp can run: when one waits at setmaxnreg.inc, the deadlock named (its line, the request,
 * the pool) and -1; else 0 (the deadlock is another's to name). */
int sim_nreg_deadlock(sim_ctx *c, sim_block *blocks, uint32_t n);
/* "setmaxnreg.inc (line 12) for 240 registers per thread (...; the block's pool of 32768 has 0 free)":
 * what warp w of blk waits for, for progress.c. */
void sim_nreg_waiting(const sim_ctx *c, const sim_block *blk, const sim_warp *w, char *buf, size_t cap);

/* interp.c: makes b the block the executors see (c->warps, c->shared, c->block ...). */
void sim_select_block(sim_ctx *c, sim_block *b);
/* interp.c, for interp_par.c: a block slot's memory (0, or -1 out of memory) and its release;
 * block `linear` started in slot blk; the n slots run to their end (0, or -1 with the error set). */
int sim_block_alloc(sim_ctx *c, sim_block *blk);
void sim_block_free(sim_ctx *c, sim_block *blk);
void sim_block_start(sim_ctx *c, sim_block *blk, uint64_t linear);
int sim_blocks_run(sim_ctx *c, sim_block *blocks, uint32_t n);
/* The pc warp w is at, in program P (what the budget's message names); -1 when none. */
int sim_warp_pc(const sim_ctx *c, const sim_warp *w, const sim_program **P);
/* The budget ran out with warp w at pc of P: the message (returns -1). */
int sim_budget_fault(sim_ctx *c, const sim_warp *w, const sim_program *P, int pc);
/* predict.c (docs/interp.md, "Stops"): the launch of `count` blocks priced before any runs, and
 * after `done` have run in `elapsed` seconds; 0, or -1 with c->err set and c->res->stop REFUSED
 * (beyond the budget) or FAULT (no path of the kernel ends). sim_now: monotonic seconds. */
int sim_predict_before(sim_ctx *c, uint64_t count);
int sim_predict_after(sim_ctx *c, uint64_t done, uint64_t count, double elapsed);
double sim_now(void);
/* progress.c: the slice of program p (its registers that can decide what a warp does, and which
 * loads and stores the watch records); p->sliced false when it has none (out of memory, or an
 * instruction that reads memory otherwise than ld/atom). */
void sim_progress_plan(sim_program *p);
/* The resident blocks (re)start: the watch on the whole state until they have run SIM_SLICE_AFTER. */
void sim_progress_blocks_start(sim_ctx *c);
/* While c->sliced: a deciding load (or atomic) read, a store or atomic wrote n bytes at `key` (what
 * names the bytes the same way on every -j and every run: sim_seen_key); write: changed its bytes,
 * or its value is not the slice's. Either moves sim_ctx.progress when a word was both read and so
 * written since progress last moved. */
void sim_seen_read(sim_ctx *c, uint64_t key, uint32_t n);
void sim_seen_write(sim_ctx *c, uint64_t key, uint32_t n);
/* The key of lane l's bytes at address a of space sp: global addresses as they are; a block's
 * shared memory by its linear index (the slice is off where .shared::cluster or mapa could reach
 * another block's); local and parameter space by the lane's thread. Not host pointers: those
 * differ between -j 1 and a worker's block. */
static inline uint64_t sim_seen_key(const struct sim_ctx *c, const struct sim_warp *w, ws_space sp, int l, uint64_t a)
{
    if (sp == WS_SPACE_GLOBAL) return a;
    if (sp == WS_SPACE_SHARED) return 1ull << 62 | (uint64_t)c->block_linear << 32 | (a & 0xffffffffu);
    return (uint64_t)(2 + sp) << 58 ^ (uint64_t)(w->index * 32 + (uint32_t)l) << 32 ^ a;
}
void sim_progress_free(sim_ctx *c);
/* progress.c: after warp w of the n resident blocks ran a slice (w->state RUN): 0, or -1 with the
 * fault set when every live warp of them loops forever (docs/interp.md, "Stops"). */
int sim_progress_slice(sim_ctx *c, sim_block *blocks, uint32_t n, sim_warp *w);
/* The watch starts afresh for warp w (block start). */
void sim_progress_reset(sim_warp *w);
/* interp_par.c: runs blocks [first, first+count) on c->cfg->threads threads when the launch
 * allows it (returns 0 or -1 as the one-thread loop would, with the same events, counters and
 * error); returns 1, having run nothing, when it must run on one thread. */
int sim_run_parallel(sim_ctx *c, uint64_t first, uint64_t count);

/* exec_step.c: runs warp w until barrier, exit, slice or error.
 * Returns 0, or -1 with c->err set. */
int sim_warp_run(sim_ctx *c, sim_warp *w);

/* interp.c: the fault of kind `kind` at instruction in (NULL = none) of warp w (NULL = the
 * block's), lane `lane` (-1 = none): kept in c->res->fault and worded into c->err; an
 * UNSUPPORTED kind makes the run a refusal. Returns -1. */
int sim_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_fault_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Memory fault of memcheck kind k: a fault as above, or a counted warning when the config
 * asks (returns 0 then). */
int sim_mem_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_memerr_kind k, const char *fmt,
                  ...) __attribute__((format(printf, 6, 7)));

#endif
