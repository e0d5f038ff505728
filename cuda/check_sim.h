/* check_sim.h - the simulator's side of `warpscope check`: one kernel run through the
 * interpreter, the memory models and the timing model on the device profile of the GPU
 * it is compared with, with the registers the driver reported (they set occupancy).
 * Needs no CUDA: `check --replay` uses it to re-judge recorded GPU results.
 * Invariant: the same target and attributes always give the same metrics and time. */
#ifndef CHECK_SIM_H
#define CHECK_SIM_H

#include <stdbool.h>

#include "../common/ws_error.h"
#include "../sim/interp/interp.h"
#include "../sim/models/confidence.h"
#include "../sim/models/timing.h"
#include "../sim/sample.h"
#include "../sim/sass/sass_map.h"
#include "cu_target.h"
#include "cu_types.h"

#define CHK_SIM_MAX 128

typedef struct {
    int n;
    char name[CHK_SIM_MAX][128];  /* Nsight Compute metric names (ws__ rows left out) */
    double value[CHK_SIM_MAX];
    bool model[CHK_SIM_MAX];      /* this run's value is a model's where its row claims the counter's rule
                                     (ws_metric.basis MODEL on a row of basis EXACT: an approximate SASS
                                     instruction count); check judges it as CACHE (chk_row_as_model) */
    double wmma_accesses;         /* wmma.load/store fragment accesses (the ws__wmma_inst_* rows) */
    bool have_time;
    double time_ns;               /* predicted kernel time */
    ws_timing timing;             /* its terms */
    char note[400];               /* what the simulator could not give, "" when all */
    bool sass;                    /* the counters are the machine code's (ptxas + nvdisasm), else the PTX's */
    ws_sass_guess guess;          /* then the part of its instruction counts that rests on stand-in anchors */
    char level[400];              /* why: sim/sass/sass_events.h's level line */
    ws_notes notes;               /* what the prediction rests on (sim/models/confidence.h); check_explain.c cites them */
    bool have_dirty;
    double dirty_at_end_bytes;    /* the model's L2 bytes still dirty after the kernel (ws__l2_dirty_bytes_at_end) */
    bool have_far;
    double far_miss_sectors;      /* the model's far-partition lookup misses (ws__l2_far_miss_sectors.sum) */
    ws_sim_stop stop;             /* why the simulation ended: a refusal (the instruction budget's prediction) or a fault
                                     leaves no counters */
    bool racechecked;             /* racecheck ran (not on a cooperative launch, nor a sampled one) */
    int hazards;                  /* the distinct hazards it found (printed on stderr as found) */
    bool sampled;                 /* some blocks were skipped and the counters scaled (sim/sample.h) */
    char sampling[2048];          /* the sampler's line, "" = full */
    ws_sample_info sample;        /* its numbers: blocks run of the grid's, whether the exact counters are exact */
} chk_sim_side;

/* Simulates t on the profile named gpu_name (the default profile, with a note, when
 * there is none). res gets the final buffers (free with ws_sim_result_free when 0 is
 * returned). Returns 0, or a WS_EXIT_* code with err set. */
int chk_simulate(const cu_target *t, const cu_kernel_attrs *attrs, const char *gpu_name, ws_sim_result *res,
                 chk_sim_side *ss, ws_error *err);
/* The same with block sampling (sim/sample.h): WS_SAMPLE_OFF with racecheck is chk_simulate;
 * ON/AUTO scale the counters of a sample (the final buffers are then incomplete: no output
 * check). The validation report uses it for GPU-only runs recorded at sizes too large to
 * simulate whole. racecheck false: no racecheck even where OFF would run it (the counters are
 * the same; the validation report does not look for hazards, and the checker keeps the blocks
 * from the threads' pipeline). */
int chk_simulate_sampled(const cu_target *t, const cu_kernel_attrs *attrs, const char *gpu_name, ws_sample_mode mode,
                         bool racecheck, ws_sim_result *res, chk_sim_side *ss, ws_error *err);

/* True when ss's racecheck ran to the end and found no hazard: then `check` ends the kernel's
 * simulation with WS_RACECHECK_CLEAN_SUMMARY (sim/interp/racecheck.h) in text output, as
 * compute-sanitizer and `sim --racecheck` end a clean run. */
bool chk_racecheck_clean(const chk_sim_side *ss);

/* True when ss was sampled and its sampler does not state its exact counters exact (sim/sample.c:
 * "exact counters estimated ...": blocks of a kind ran different counts, or edge kinds were taken
 * from one block each): its exact rows are estimates, judged within the cache tolerance. */
bool chk_sim_exact_estimated(const chk_sim_side *ss);

/* The value of metric name, or NULL. */
const double *chk_sim_value(const chk_sim_side *ss, const char *name);
/* True when this run's value of name rests on a model though its row is exact (ss->model). */
bool chk_sim_is_model(const chk_sim_side *ss, const char *name);

#endif
