/* viz_record.h - recording a simulated launch for the visualizer: resolves a kernel
 * as `warpscope sim` does, runs the warp interpreter with the memory models
 * listening, and keeps one viz_step per memory instruction of the chosen blocks,
 * with the coalescer's sectors, the bank model's wavefronts and the cache model's
 * per-sector outcomes and, where SASS is known, the machine instruction each step became;
 * adds the predicted time and the recorded GPU measurement.
 * Invariant: running totals count every event of the launch (all blocks), so the
 * last event's totals equal the launch totals `warpscope sim` prints. */
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
} viz_record_opts;

/* Records a launch into rec (initialised here). Returns a WS_EXIT_* code; on error err
 * names the file, line and what went wrong (a kernel fault is WS_EXIT_KERNEL_FAULT). */
int viz_record_kernel(struct ws_catalog *cat, const viz_record_opts *o, viz_recording *rec, ws_error *err);

/* Fills rec->tp's measured fields from a results JSON file (results/<gpu>.json as
 * `make gpu-test` writes it) for kernel `name` run with overrides text `ov_text`
 * ("W=4096 H=4096", "" for defaults). Returns 0 when a run of that kernel was found. */
int viz_results_lookup(const char *json_path, const char *name, const char *ov_text, viz_throughput *tp);

#endif
