/* interp.h - the warp interpreter: runs one described launch on the CPU, warp
 * by warp, 32 lanes in lockstep under an active mask, and emits one
 * ws_mem_event per executed warp-level memory instruction.
 *
 * Execution order (what the memory models see): blocks in linear order
 * (x fastest); inside a block, warps take turns in slices, not one instruction
 * each: a warp runs until it reaches a barrier, exits or has run WS_SIM_SLICE
 * instructions, then the next warp runs; a barrier holds its warps
 * until its thread count (or every non-exited warp of the block) has arrived (PTX
 * ISA; sim/interp/exec_barrier.c). A cooperative launch (ws_launch.cooperative) runs all
 * its blocks at once, a slice per runnable warp of each block per round.
 * Divergence uses a SIMT reconvergence stack (docs/interp.md). *
 * Room sim/interp/: the interpreter: a ws_launch and a ptx_module in, ws_mem_events (and faults as ws_fault records) out. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_INTERP_H
#define WS_INTERP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../common/desc.h"
#include "../../common/ws_error.h"
#include "event.h"
#include "fault.h"
#include "../frontend/ptx.h"

#define WS_SIM_SLICE 256
#define WS_GLOBAL_BASE 0x0000000100000000ull /* first buffer's simulated address */
#define WS_GLOBAL_ALIGN 4096                 /* each buffer starts on this boundary */

/* The first block at or after `linear` (of the grid, in linear order) that is simulated;
 * UINT64_MAX = none. */
typedef uint64_t (*ws_block_next_fn)(void *ctx, uint64_t linear);
/* How many blocks of the launch will be simulated in all; UINT64_MAX = not known yet. */
typedef uint64_t (*ws_blocks_planned_fn)(void *ctx);
typedef void (*ws_progress_fn)(void *ctx, uint64_t blocks_done, uint64_t blocks_total);

/* Block boundaries and barrier releases, for checkers that reason about
 * barrier intervals (sim/interp/racecheck.h). BARRIER is called once per completion of a
 * barrier that held every non-exited warp of the block (a named barrier among some
 * of them is not reported), after they arrived and before any continues;
 * src_line is the barrier's .cu line (0 for block start/end or when unknown). */
/* CLUSTER_BARRIER: a barrier.cluster phase completed (every non-exited thread of the cluster
 * arrived), called once, with the rank-0 block's linear index, before any waiter continues. */
enum { WS_SYNC_BLOCK_START, WS_SYNC_BARRIER, WS_SYNC_BLOCK_END, WS_SYNC_CLUSTER_BARRIER };
typedef void (*ws_sync_fn)(void *ctx, uint32_t block_linear, int kind, int src_line);

/* A warp-level ordering point, for racecheck's warp-level hazards: the lanes `lanes` of warp
 * `warp` completed a bar.warp.sync (__syncwarp) together, or passed a CTA barrier that did not
 * hold the whole block (a named barrier among some warps: each of its warps' lanes are
 * ordered). Called after the lanes arrive and before any continues. shfl.sync, vote.sync,
 * match.sync and redux.sync are no such point: the CUDA guide gives them no memory ordering. */
typedef void (*ws_warp_sync_fn)(void *ctx, uint32_t block_linear, uint32_t warp, uint32_t lanes, int src_line);

/* A warp reaching a watched instruction, before it executes it (for the SASS event stage,
 * sim/sass/sass_events.h, which places spill code there). */
typedef struct {
    uint32_t block_linear, block[3], warp, warp_global;
    uint32_t pc;
    uint32_t active;   /* lanes on the path that reached pc */
    uint32_t guard;    /* of those, the lanes whose guard predicate holds (= active when unguarded) */
} ws_watch_hit;
typedef void (*ws_watch_fn)(void *ctx, const ws_watch_hit *hit);

/* The asynchronous side of the tensor-era instructions, for the visualizer (issue 24: copies landing,
 * mbarrier waits): one record per warp-level cp.async group operation or mbarrier operation.
 *   CP_COMMIT:    cp.async.commit_group; groups = the group new copies now join (commits so far);
 *   CP_WAIT:      cp.async.wait_group / wait_all / cp.async.mbarrier.arrive; groups = the warp's
 *                 groups below this are complete (every cp.async of group g < groups has landed);
 *   MBAR_ARRIVE:  arrive (and .expect_tx, expect_tx): arrivals = the lanes' arrivals, bytes = the
 *                 transaction bytes they expect;
 *   MBAR_TX:      a bulk copy / TMA (or complete_tx) completing `bytes` on the mbarrier;
 *   MBAR_PHASE:   the mbarrier's phase completed (pending arrivals and transaction count reached 0);
 *   MBAR_WAIT:    test_wait / try_wait: lanes = the lanes that waited, done = those whose phase had ended.
 * mbar: the mbarrier's shared offset (the first lane's, for a warp operation); pending, expected, tx,
 * phase: its state after the operation. seq: the memory events emitted before it (ws_mem_event.seq
 * of the next one). An mbarrier of another block of the cluster is reported with its offset only. */
typedef enum { WS_ASYNC_CP_COMMIT, WS_ASYNC_CP_WAIT, WS_ASYNC_MBAR_ARRIVE, WS_ASYNC_MBAR_TX, WS_ASYNC_MBAR_PHASE,
               WS_ASYNC_MBAR_WAIT } ws_async_kind;
typedef struct {
    ws_async_kind kind;
    uint64_t seq;
    uint32_t block_linear, warp, pc;
    int src_line, ptx_line;
    uint32_t lanes, done;
    uint32_t groups;
    uint64_t mbar;
    uint32_t arrivals;
    int64_t bytes;
    uint32_t pending, expected, phase;
    int32_t tx;
} ws_async_event;
typedef void (*ws_async_fn)(void *ctx, const ws_async_event *ev);
/* A listener split in two for threads (sim/interp/interp_par.c). Workers run blocks; each
 * worker has its own `worker` half, which gets the block's events and watch hits and turns
 * them into records (ws_split_put) with whatever work on them depends on the block alone;
 * the calling thread hands the records to `replay` in the one-thread order, where the work
 * that depends on the order happens. Without one, workers record the events and watch hits
 * as they are and replay calls listener and on_watch. Contract for the halves together: the
 * records replayed, in order, do to the listener's state exactly what listener and on_watch
 * fed the same events would; a worker half's state is its own block's. flush: the block
 * ended; what the half holds back (a wmma execution the SASS stage groups) is put now, as one
 * thread would put it before the next block's first event. A budget stop replays the records
 * put before the slice it follows, what one thread had given the listener then. */
typedef struct ws_split_out ws_split_out;
typedef struct {
    void *(*worker_new)(void *ctx);                  /* NULL: out of memory */
    void (*worker_free)(void *ctx, void *w);         /* on the calling thread, after every worker ended */
    void (*event)(void *w, const ws_mem_event *ev, ws_split_out *out);
    void (*watch)(void *w, const ws_watch_hit *hit, ws_split_out *out);
    void (*flush)(void *w, ws_split_out *out);
    /* seq0: the launch's memory events before this block (ws_mem_event.seq numbers them per block) */
    void (*replay)(void *ctx, void *rec, uint64_t seq0);
    /* NULL, or a look at a record replay gets a few records later (stage 0: WS_SPLIT_PEEK_FAR on,
     * 1: WS_SPLIT_PEEK_NEAR on), to warm the host's caches for it; it must change nothing */
    void (*peek)(void *ctx, const void *rec, int stage);
} ws_split_listener;
enum { WS_SPLIT_PEEK_NEAR = 2, WS_SPLIT_PEEK_FAR = 4 };
/* Room for a record of `bytes` (8-byte aligned) in out, or NULL when out of memory (the
 * launch then stops with WS_SIM_OUT_OF_MEMORY). */
void *ws_split_put(ws_split_out *out, size_t bytes);

typedef struct {
    const ptx_module *module;
    const ptx_function *fn;
    const ws_launch *launch;          /* resolved description: grid, block, buffers, args */
    const char *source_file;          /* .cu path for messages */
    uint64_t max_thread_insns;        /* budget; 0 = WS_SIM_DEFAULT_BUDGET */
    bool memory_errors_are_warnings;  /* count and go on instead of stopping */
    uint64_t max_host_bytes;          /* refuse launches needing more; 0 = default 8 GiB */
    uint32_t first_block, num_blocks; /* simulate blocks [first, first+num); num 0 = all */
    ws_mem_listener listener;         /* NULL = nobody listens (fast path) */
    void *listener_ctx;
    ws_progress_fn progress;          /* called every so often; NULL = none */
    void *progress_ctx;
    ws_sync_fn on_sync;               /* block start/barrier/block end; NULL = none (added for racecheck) */
    void *sync_ctx;
    ws_warp_sync_fn on_warp_sync;     /* __syncwarp and partial barriers; NULL = none (racecheck) */
    void *warp_sync_ctx;
    FILE *printf_out;                 /* what the kernel's printf and failed asserts print, as the GPU
                                         prints it (no prefix); NULL = not printed (docs/interp.md) */
    const uint64_t *envreg;           /* %envreg0..31 (32 values); NULL = all zero, as for a plain launch */
    const uint8_t *watch;             /* per pc: nonzero = call on_watch when a warp reaches it; NULL = none */
    ws_watch_fn on_watch;             /* (added for the SASS event stage) */
    void *watch_ctx;
    ws_block_next_fn block_next;      /* non-cooperative launches: asked, in linear order, for the next block of
                                         [first, first+num) to run; the blocks it skips are not simulated (block
                                         sampling, sim/sample.h); NULL = every block runs. When it is
                                         called, the result's thread_insns holds the count so far */
    ws_blocks_planned_fn blocks_planned; /* with block_next: the blocks it will let run, asked before the first
                                         block and after each (the budget's prediction); NULL = every block */
    void *filter_ctx;
    const struct ws_device *shared_limit; /* its smem_per_block_optin bounds a block's shared memory (more is
                                          refused, naming it); NULL = ws_device_most_shared() */
    int threads;                      /* blocks run on this many threads (sim/interp/interp_par.c); 0 or 1 = one.
                                         The listener, watch and progress calls stay on the caller's thread,
                                         in block order, so every result is the one thread's, bit for bit;
                                         launches whose blocks could see each other's order run on one */
    const volatile int *stop;         /* nonzero (set by the listener): the run ends after the current warp's
                                         slice, completed with the counts so far (res.stopped_early); on one
                                         thread. NULL = runs to the end (the visualizer, issue 25) */
    ws_async_fn on_async;             /* cp.async groups and mbarrier operations (above); NULL = none. On the
                                         caller's thread: a launch with it runs on one (added for the viz) */
    void *async_ctx;
    uint32_t regs_per_thread;         /* registers each thread holds at launch as the GPU allocates them (ptxas's
                                         count rounded up to the allocation granularity): with the block's threads,
                                         the register pool setmaxnreg draws on; 0 = unknown (no ptxas count):
                                         setmaxnreg.inc never waits and its counts are not checked against it */
    const ws_split_listener *split;   /* listener and on_watch as halves for the threads; NULL = none */
    void *split_ctx;
    uint32_t split_ahead;             /* with split: block b starts only once block b - split_ahead was replayed
                                         (halves that keep state across the blocks of one SM: sim/split.c);
                                         0 = no limit */
    bool lazy_fill;                   /* on one thread: a buffer whose init is local (ws_buffer_fill_is_local) is
                                         filled 64 KiB at a time where the kernel first touches it, not whole up
                                         front; then res.buffer_data holds zeros in the chunks never touched, so
                                         only a caller that reads no buffer after the run sets it (the
                                         visualizer's shown blocks, issue 25) */
} ws_sim_config;

/* The launch cannot run at all: fn, or a function it calls, holds PTX the simulator
 * does not support (ptx_function.refusal). Returns 0 when it can; else -1 with err
 * naming the .cu line (or the PTX line), the kernel kname and the construct, e.g.
 * "k.cu:12: error: kernel 'k': cannot be simulated: unsupported instruction 'tex.2d...'
 * (PTX line 40); the other kernels of the file are not affected". */
int ws_sim_check_runnable(const ptx_module *m, const ptx_function *fn, const char *source_file, const char *kname,
                          ws_error *err);

#define WS_SIM_DEFAULT_BUDGET 4000000000ull /* ~10 s at the interpreter's rate, ~1 min with every checker on */
/* What the budget's prediction charges a block at least, in thread-instructions, in a launch of more
 * than WS_SIM_BLOCK_COST_FROM blocks: starting one costs the interpreter about that much (measured:
 * 0.85 us for a block of one thread, ~340 thread-instructions at its rate), so a grid of 2^31 nearly
 * empty blocks is refused, not run for half an hour; smaller grids are charged what they execute. */
#define WS_SIM_BLOCK_COST 256u
#define WS_SIM_BLOCK_COST_FROM (1ull << 24)

/* setmaxnreg's register accounting (sim/interp/exec_nreg.c), for the report. A warpgroup is 4 warps
 * (128 threads), so a block of at most 1024 threads has at most 8. */
#define WS_MAX_WARPGROUPS 8
typedef struct {
    bool used;                  /* some warp executed setmaxnreg */
    bool ignored;               /* the kernel holds setmaxnreg but no register count at entry, so ptxas drops
                                   it ("C7508: 'setmaxnreg' ignored"), and so does the simulator */
    uint32_t regs_per_thread;   /* ws_sim_config.regs_per_thread: every warp's count at launch; 0 = unknown */
    uint32_t pool;              /* the block's register pool: regs_per_thread x 32 x warps; 0 = unknown */
    uint32_t peak;              /* the most registers the warps of one block held at once (max over blocks) */
    int nwg;                    /* warpgroups of a block */
    uint16_t wg[WS_MAX_WARPGROUPS]; /* per warpgroup: registers per thread its warps held when the block ended,
                                   the most of its warps and of the blocks */
    uint16_t wg_warps[WS_MAX_WARPGROUPS]; /* its warps (4, fewer in a partial last one) */
} ws_nreg_report;
/* Merges b into a (the larger figures win: independent of block order). */
void ws_nreg_merge(ws_nreg_report *a, const ws_nreg_report *b);
/* Whether ptxas keeps a kernel's setmaxnreg: only when the entry gives its register count, by
 * .maxnreg (__maxnreg__) or by .maxntid/.reqntid with .minnctapersm (__launch_bounds__(threads,
 * blocks)); measured with ptxas 13.0: without them it reports C7508 "'setmaxnreg' ignored; unable to
 * determine register count at entry" (__launch_bounds__(128) alone included) and emits none. */
bool ws_setmaxnreg_effective(const ptx_function *kernel);

/* Why a run ended (ws_sim_result.stop): what its exit code says (common/commands.h). */
typedef enum {
    WS_SIM_COMPLETED,     /* ran to the end (exit 0, or 2 when a checker reports) */
    WS_SIM_FAULT,         /* the kernel misbehaved: out of bounds, barrier misuse, the budget ran out (exit 2) */
    WS_SIM_REFUSED,       /* not a launch the simulator runs: arguments that do not fit the parameters, a
                             resource limit, an unsupported instruction; an input error (exit 1) */
    WS_SIM_OUT_OF_MEMORY  /* host memory ran out (exit 5) */
} ws_sim_stop;

/* The device printf FIFO's default size (cudaLimitPrintfFifoSize: 1 MiB, CUDA C++ Programming
 * Guide, "Formatted Output"). The GPU's buffer holds the calls' records and loses output once it
 * is full; warpscope bounds the formatted text by the same size, and counts what it dropped. */
#define WS_PRINTF_FIFO_BYTES (1u << 20)

typedef struct {
    ws_sim_stop stop;           /* set by ws_sim_run on every return */
    uint64_t thread_insns;      /* instructions executed, counted per active lane */
    uint64_t warp_insns;        /* instructions executed, counted per warp */
    uint64_t mem_events;
    uint64_t *pc_warp_count;    /* per instruction index: warp-level executions (fn->ninsns) */
    uint64_t *pc_spin_count;    /* of those, the retries of a blocking wait loop (mbarrier.try_wait:
                                   ws_wait_loop_ranges): the loop's instructions a warp ran after a try
                                   until it came back to that wait, and the wait again. This schedule's
                                   spins; NULL when the kernel has no such loop */
    uint64_t memory_warnings;   /* out-of-bounds / misaligned accesses counted when warnings */
    uint64_t printf_calls;      /* printf executions, counted per lane */
    int threads;                /* threads the blocks ran on: 1, or cfg.threads where the launch allowed it */
    bool stopped_early;         /* cfg.stop ended the run before the launch's end */
    uint64_t printf_bytes;      /* bytes the kernel's printf wrote (at most WS_PRINTF_FIFO_BYTES) */
    uint64_t printf_dropped;    /* bytes it produced past that, not printed (the GPU's FIFO is full) */
    double predicted_thread_insns; /* refused by the budget's prediction after its first blocks: the launch's */
    double predicted_seconds;   /* estimated cost, and the wall time it would take here at their pace; else 0 */
    ws_fault fault;             /* stop is WS_SIM_FAULT, or REFUSED by an instruction: the fault that stopped
                                   the run (kind WS_FAULT_NONE otherwise; err holds its wording) */
    ws_fault first_warning;     /* memory_warnings > 0: the first of them */
    uint64_t memerr_count[WS_MEMERR_KINDS];     /* memory warnings by kind (memcheck) */
    ws_fault memerr_first[WS_MEMERR_KINDS];     /* memerr_count[k] > 0: the first warning of kind k */
    ws_nreg_report nreg;        /* setmaxnreg's accounting (used false when the kernel has none) */
    int nbuffers;
    uint64_t buffer_base[WS_MAX_BUFFERS];  /* simulated global address of each buffer */
    void *buffer_data[WS_MAX_BUFFERS];     /* final contents, launch->buffers[i].bytes each */
} ws_sim_result;

/* Runs the launch. Returns 0 on success; on error (res->stop says which kind) fills err with the kernel,
 * block, warp, lane, source line and what went wrong, e.g.
 * "k.cu:14: error: transpose_naive: block (3,0,0) warp 1 lane 7: global load of 4 bytes at
 *  0x100004000 is 16 bytes past the end of buffer 'in' (4096 bytes)". */
int ws_sim_run(const ws_sim_config *cfg, ws_sim_result *res, ws_error *err);
void ws_sim_result_free(ws_sim_result *res);

#endif
