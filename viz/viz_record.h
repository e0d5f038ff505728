/* viz_record.h - recording a simulated launch for the visualizer: resolves a kernel
 * as `warpscope sim` does, runs the warp interpreter with the memory models
 * listening, and keeps one viz_step per memory instruction of the chosen blocks,
 * with the coalescer's sectors, the bank model's wavefronts and the cache model's
 * per-sector outcomes and, where SASS is known, the machine instruction each step became;
 * adds the predicted time and the recorded GPU measurement.
 * Only the kept blocks (and a warm-up before them) are simulated for the steps; the launch
 * totals come from a second run, `warpscope sim`'s (viz_totals.h), sampled where sim samples.
 * Invariant: when the steps' run began at block 0 (!warm_partial), every step and running total
 * is the full launch's, so a recording of every block ends at the launch totals of a full run. */
#ifndef VIZ_RECORD_H
#define VIZ_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "../common/desc.h"
#include "../common/ws_error.h"
#include "viz_model.h"

struct ws_catalog;

typedef struct {
    const char *kernel;         /* catalog name, path/to/k.cu or path/to/k.cu:name */
    const ws_overrides *ov;     /* -D overrides, NULL = none */
    const char *device;         /* device profile key, NULL = default (h200) */
    const char *arch;           /* PTX target when PTX must be compiled, NULL = sm_90 */
    uint32_t first_block;       /* linear index of the first block whose steps are kept */
    uint32_t num_blocks;        /* blocks kept (0 = 1; more than the grid has = to its last block) */
    size_t max_steps;           /* keep at most this many steps (0 = 50000, about 250 MB of steps) */
    const char *results_dir;    /* recorded GPU results, NULL = <catalog>/../results, else ./results */
    int quiet;                  /* no progress line */
    const char *sass_listing;   /* a recorded nvdisasm -c -gi listing instead of running the tools
                                   (tests), NULL = ptxas + nvdisasm where installed */
    int sample;                 /* the totals' run (viz_totals.h): 0 = as sim (sampled above its
                                   threshold), 1 = always where it saves blocks (--sample), -1 = every
                                   block (--full) */
} viz_record_opts;

/* The steps' run: records the kept blocks' steps into rec (initialised here), simulating only
 * them and the warm-up before them (rec->blocks_simulated, warm_first, warm_partial; see
 * viz_record.c), with the recorded GPU measurement; the launch totals, heat map and predicted
 * time are left for viz_totals_run (rec->totals_state PENDING). Returns a WS_EXIT_* code; on
 * error err names the file, line and what went wrong (a kernel fault is WS_EXIT_KERNEL_FAULT). */
#define VIZ_WARM_BLOCKS 1024                 /* the warm-up looks back at most this many blocks */
#define VIZ_WARM_THREAD_INSNS (1ull << 24)   /* and runs about this many thread-instructions (~0.1 s) */
int viz_record_shown(struct ws_catalog *cat, const viz_record_opts *o, viz_recording *rec, ws_error *err);

/* viz_record_shown, then viz_totals_run applied: a recording with its totals (the exports, tests).
 * On error rec is freed. */
int viz_record_kernel(struct ws_catalog *cat, const viz_record_opts *o, viz_recording *rec, ws_error *err);

/* Fills rec->tp's measured fields from a results JSON file (results/<gpu>.json as
 * `make gpu-test` writes it) for kernel `name` run with overrides text `ov_text`
 * ("W=4096 H=4096", "" for defaults). Returns 0 when a run of that kernel was found. */
int viz_results_lookup(const char *json_path, const char *name, const char *ov_text, viz_throughput *tp);

#endif
