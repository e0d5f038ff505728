/* racecheck.h - shared-memory hazard and uninitialised-read detection for the
 * simulator, in the spirit of compute-sanitizer's racecheck and initcheck.
 * It listens to the ws_mem_event stream and to block/barrier notifications
 * (ws_sim_config.on_sync) and keeps, for every shared byte, the last writer and
 * the readers since the last barrier.
 * Invariant: two accesses to one shared byte are reported as a hazard exactly
 * when at least one writes, both fall in the same barrier interval of one
 * block, and they come from different warps (or from different lanes of one
 * warp in the same store instruction, whose order the hardware leaves
 * undefined). Two accesses by different lanes of one warp in different
 * instructions are a warp-level hazard (ws_race.warp_level) unless a
 * __syncwarp() (bar.warp.sync) whose lanes include both, or a barrier, lies
 * between them: since Volta's independent thread scheduling the lanes of a warp
 * need not run in lockstep, and shfl/vote/match/redux order no memory (the
 * CUDA guide); compute-sanitizer's racecheck reports these as "(Warp Level
 * Programming) Potential RAW/WAR/WAW hazard" warnings. Accesses by one thread
 * are ordered. Atomics never race with each other (as in racecheck). A read of a
 * byte no thread of the block has written yet is an uninitialised read.
 * In a cluster launch (ws_racecheck_set_cluster) the blocks of a cluster are one
 * checking unit: a block's bar.sync orders its own threads' accesses only, and two
 * accesses from two blocks of the cluster (to either's window, through distributed
 * shared memory) are ordered only by a barrier.cluster between them; a barrier.cluster
 * also ends every block's interval (without clusters it is a block barrier).
 * Per byte the checker keeps the last writer and a few readers (the first, one
 * of another warp, the last two lanes), so a hazard with an older reader that
 * later readers hid can go unreported; it never reports an ordered pair.
 *
 * Use with the interpreter:
 *     ws_racecheck *rc = ws_racecheck_new(launch->block);
 *     ws_racecheck_attach(rc, &cfg);        // chains cfg.listener / cfg.on_sync
 *     ws_sim_run(&cfg, &res, &err);
 *     ws_racecheck_print(rc, stderr, "k.cu", "transpose_naive");
 *     if (ws_racecheck_count(rc)) ... exit WS_EXIT_KERNEL_FAULT
 *     ws_racecheck_free(rc);
 */
#ifndef WS_RACECHECK_H
#define WS_RACECHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "interp.h"

typedef enum {
    WS_RACE_RAW,     /* read after write, no barrier between */
    WS_RACE_WAR,     /* write after read */
    WS_RACE_WAW,     /* write after write */
    WS_RACE_UNINIT,  /* read of a shared byte the block never wrote (poisoned) */
    WS_RACE_KINDS
} ws_race_kind;

const char *ws_race_kind_name(ws_race_kind k); /* "RAW" ... "uninitialised read" */

typedef struct {
    uint32_t rank;           /* the thread's block's rank in its cluster (0 without clusters) */
    uint32_t block[3];       /* that block's blockIdx */
    uint32_t warp, lane;     /* thread = warp*32 + lane, linear in the block */
    uint32_t tid[3];         /* threadIdx */
    uint32_t pc;
    int src_line, ptx_line;
    ws_mem_op op;
} ws_race_access;

/* One distinct hazard: a (kind, earlier pc, later pc, warp level) group, with its first occurrence. */
typedef struct {
    ws_race_kind kind;
    bool warp_level;         /* the two accesses are lanes of one warp with no __syncwarp between */
    uint64_t count;          /* lane accesses with this hazard, whole launch */
    uint32_t block[3];
    uint32_t block_linear;
    uint64_t addr;           /* shared byte offset of the first occurrence */
    bool cluster;            /* the launch runs in clusters of more than one block */
    uint32_t window_rank;    /* whose shared memory: the rank of that block in the cluster */
    uint32_t window_block[3];/* and its blockIdx */
    bool cross_block;        /* the two accesses come from two blocks of the cluster (DSMEM) */
    uint32_t interval;       /* barriers the block had passed: 0 = before its first (cross_block:
                                cluster barriers the cluster had passed) */
    int bar_before_line;     /* .cu line of the barrier that opened the interval, 0 = block start */
    ws_race_access first;    /* the earlier access (unused for UNINIT) */
    ws_race_access second;   /* the later access (the read, for UNINIT) */
} ws_race;

typedef struct ws_racecheck ws_racecheck;

/* block: the launch's block dimensions (to name threads as threadIdx). */
ws_racecheck *ws_racecheck_new(const uint32_t block[3]);
/* A launch in thread-block clusters (call before any event): the grid and the cluster dims
 * (ws_cluster_dims). The blocks of one cluster run interleaved; each has its own shared window
 * and barrier intervals, and an access from one block to another's window (an event with
 * dsmem = 1 + rank) races with that block's own accesses unless a barrier.cluster
 * (WS_SYNC_CLUSTER_BARRIER) lies between. Returns 0, or -1 (more than 16 blocks, no memory). */
int ws_racecheck_set_cluster(ws_racecheck *rc, const uint32_t grid[3], const uint32_t cluster[3]);
/* The checker for one launch of fn: ws_racecheck_new plus the launch's cluster shape
 * (ws_cluster_dims), so every caller follows a cluster's blocks together the same way.
 * NULL with err set (naming kernel, file and line): a cluster shape the driver refuses
 * (*usage = true), or no memory (*usage = false). */
ws_racecheck *ws_racecheck_for_launch(const ptx_function *fn, const ws_launch *L, const char *kernel,
                                      const char *file, int line, ws_error *err, bool *usage);
void ws_racecheck_free(ws_racecheck *rc);

/* The raw hooks (ws_mem_listener and ws_sync_fn signatures), for callers that
 * multiplex listeners themselves. */
void ws_racecheck_on_event(void *rc, const ws_mem_event *ev);
void ws_racecheck_on_sync(void *rc, uint32_t block_linear, int kind, int src_line);
void ws_racecheck_on_warp_sync(void *rc, uint32_t block_linear, uint32_t warp, uint32_t lanes, int src_line);

/* Installs the hooks in cfg, forwarding to whatever listener/on_sync/on_warp_sync cfg had. */
void ws_racecheck_attach(ws_racecheck *rc, ws_sim_config *cfg);

int ws_racecheck_count(const ws_racecheck *rc);                     /* distinct hazards kept */
uint64_t ws_racecheck_total(const ws_racecheck *rc, ws_race_kind k); /* occurrences of a kind */
uint64_t ws_racecheck_total_warp(const ws_racecheck *rc, ws_race_kind k); /* of those, warp-level */
const ws_race *ws_racecheck_get(const ws_racecheck *rc, int i);    /* in order of discovery */

/* "k.cu:15: error: k: racecheck: RAW hazard ..." for hazard i (kernel names it); a warp-level one
 * "k.cu:30: error: k: racecheck: RAW hazard between lanes of one warp ... warp 0: lane 1 ...". */
void ws_racecheck_format(const ws_racecheck *rc, int i, const char *source_file, const char *kernel,
                         char *buf, size_t cap);
/* The lines compute-sanitizer ends a clean run with (results/sanitizer-logs/): racecheck's, and
 * memcheck's. Every command that ran a checker and found nothing prints the line, in text output,
 * so silence never has to be read as "it ran" (sim --racecheck/--memcheck, check). */
#define WS_RACECHECK_CLEAN_SUMMARY "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
#define WS_MEMCHECK_CLEAN_SUMMARY "========= ERROR SUMMARY: 0 errors"

/* Every hazard, one line each, then a summary line; nothing when there is none. */
void ws_racecheck_print(const ws_racecheck *rc, FILE *out, const char *source_file, const char *kernel);

/* Runs cfg like ws_sim_run with racecheck attached (cfg itself is not
 * changed; its listener and on_sync still get every call), prints every hazard
 * to report (NULL = silent) and sets *hazards (may be NULL) to the number of
 * distinct hazards. Returns ws_sim_run's result. The check command can call
 * this in place of ws_sim_run to run racecheck by default; a caller should
 * treat hazards > 0 as WS_EXIT_KERNEL_FAULT. */
int ws_sim_run_racecheck(const ws_sim_config *cfg, ws_sim_result *res, ws_error *err, FILE *report, int *hazards);

#endif
