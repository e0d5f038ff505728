/* check_replay.h - `warpscope check --replay results/<gpu>.json`: re-runs the simulator
 * side of every recorded run (same kernel, -D values, registers) with the models as
 * built now and re-judges it against the recorded GPU values, so a model change can be
 * measured against the hardware without a GPU.
 * Invariant: the GPU values are taken from the file only; nothing is written back. */
#ifndef CHECK_REPLAY_H
#define CHECK_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/desc.h"
#include "../common/emit.h"
#include "../common/ws_error.h"
#include "../sim/models/confidence.h"
#include "../sim/sass/sass_map.h"
#include "check_compare.h"

/* A verdict as the CSV's verdict column spells it: agree, differs, missing, unjudged. */
const char *chk_verdict_csv(chk_verdict v);

/* The replay as a document (common/emit.h: chk_replay_kind): per recorded run its judged rows,
 * recorded and now, and the agreement per class and per catalog file. */
typedef struct {
    char kernel[WS_KERNEL_NAME_MAX], overrides[128], compiler[700], file[WS_PATH_MAX];
    int nrows;
    chk_row *now, *before;     /* row i: the same metric judged with today's simulator, the recorded one */
    double gpu_ns, recorded_ns, now_ns; /* kernel time: the recorded GPU median, the predictions; NAN = none */
    const char *time_verdict;  /* chk_verdict_name of the time row, "-" without one */
    const char *bound_now;     /* ws_bound_name of today's prediction */
    int cache_agree, cache_judged;  /* today's cache rows */
    ws_bound bound;            /* today's prediction's bound (bound_now names it) */
    bool has_timing;
    bool counted_sass;         /* today's simulation counted the machine code (check_sim.h's sass) */
    ws_sass_guess guess;       /* then the part of its instruction counts that rests on stand-ins */
    ws_timing timing;          /* its terms, and what it rests on: the facts a cause is found from */
    ws_notes notes;
    bool has_dirty;
    double dirty_at_end_bytes;
    bool has_far;
    double far_miss_sectors;
    bool has_l1_miss;          /* the model's L1 load lookup misses, global + local (chk_facts) */
    double l1_miss_sectors;
    bool timed_only;           /* a run recorded without counters (--gpu-only): its time row alone */
    bool no_sim;               /* a run recorded by check --no-sim: the GPU's counters without simulator values,
                                  simulated here on a sample of its blocks and judged on every recorded row */
    int estimated;             /* its exact rows judged within the cache tolerance: the sample's exact counters
                                  are estimates (chk_sim_exact_estimated; each row's cause says so) */
    bool sampled;              /* simulated on a sample of its blocks (sim/sample.h) */
    bool catalog;              /* the kernel is the catalog's (demos/), not a file outside it (the corpus) */
    bool full_unsampled;       /* a time-only or --no-sim run that cannot be sampled, simulated on every block */
    char full_why[256];        /* then why it cannot be sampled (ws_sample_refusal) */
    double threads;            /* the launch's threads */
    double blocks;             /* and its blocks */
    double sim_seconds;        /* wall-clock seconds its simulation took here */
} chk_replay_run;

/* A recorded run the replay did not simulate, and why. A run of a kernel outside the catalog whose
 * file is missing under corpus/ is one ("corpus not built: scripts/corpus-build.sh"), not an error:
 * the corpus is other people's code, rebuilt, never committed. Such a file's path is looked up
 * as recorded (relative to the current folder) and then relative to the repository (the
 * catalog's parent folder). */
#define CHK_REPLAY_CORPUS_MISSING "corpus not built: scripts/corpus-build.sh"

/* A recorded run the replay did not simulate, and why. */
typedef struct {
    char kernel[WS_KERNEL_NAME_MAX], overrides[128], why[480];
} chk_replay_skip;
#define CHK_REPLAY_MAX_SKIPS 64

/* What a replay covers beyond the runs with counters (chk_replay_collect_opts). */
typedef struct {
    bool verbose;
    bool timed_runs;           /* also the runs recorded without counters: their time alone, simulated on a
                                  sample of their blocks where the launch allows (sim/sample.h); a --no-sim
                                  run (counters, no simulator values) is simulated so in every replay */
    double full_threads_max;   /* such a run (time-only or --no-sim) that cannot be sampled and has more
                                  threads is left out (listed in skips): a whole simulation of it takes
                                  minutes; 0 = none left out */
    double full_seconds_max;   /* the wall-clock seconds the whole simulations of such runs may take in all
                                  (*full_seconds_spent counts them); a run after the budget is spent is left
                                  out (listed in skips); 0 = no budget */
    double *full_seconds_spent; /* the running total, shared over the files of one report; NULL = none */
    bool no_racecheck;         /* skip racecheck (the validation report judges counters, not hazards) */
} chk_replay_opts;

#define CHK_REPLAY_MAX_FILES 32

typedef struct {
    char file[WS_PATH_MAX];
    int agree[2][CHK_NCLASSES], judged[2][CHK_NCLASSES]; /* [0] recorded, [1] now */
} chk_replay_tally;

typedef struct {
    const char *results_file;
    char gpu[128];             /* the recorded device's name */
    bool verbose;              /* the row table lists every judged row, not only those that differ */
    chk_replay_run *runs;
    int nruns;
    chk_replay_tally files[CHK_REPLAY_MAX_FILES];
    int nfiles;
    int agree[2][CHK_NCLASSES], judged[2][CHK_NCLASSES]; /* [0] recorded, [1] now */
    int left_out, left_runs;   /* exact rows (and their runs) of machine-code records a PTX-level replay
                                * cannot judge: unjudged, not called differing */
    char level[400];           /* what the replay counts (chk_sim_side.level) where rows were left out */
    char note[700];            /* the sentence saying so, "" = none: markdown and JSON ("note") carry it,
                                * chk_replay_as prints it on stderr for the other forms */
    chk_replay_skip skips[CHK_REPLAY_MAX_SKIPS];
    int nskips;
} chk_replay_doc;

/* Markdown (the tables below), CSV (the long-format records of docs/csv.md: per run and row,
 * the GPU value, basis "measured", and the simulator's now, basis its class; time in us) and
 * JSON (docs/json-schema.json, "check --replay"). */
extern const ws_doc_kind chk_replay_kind;

/* Replays json_path (only the runs of the nkernels names in kernels, all when 0) into doc (free
 * it with chk_replay_doc_free, whatever the result): per run the time (GPU, recorded prediction,
 * prediction now, bound) and the cache rows that agree; agreement per class before (the recorded
 * simulator values judged by today's rules) and now; agreement per catalog file. Returns
 * WS_EXIT_OK, WS_EXIT_MISMATCH when an exact counter that agreed in the record differs now,
 * WS_EXIT_USAGE for a bad file or kernel, or another WS_EXIT_* code with err set. */
int chk_replay_collect(const char *json_path, const char *const *kernels, int nkernels, bool verbose,
                       chk_replay_doc *doc, ws_error *err);
void chk_replay_doc_free(chk_replay_doc *doc);
/* The same with the options above (chk_replay_collect is {.verbose = verbose}). */
int chk_replay_collect_opts(const char *json_path, const char *const *kernels, int nkernels, const chk_replay_opts *o,
                            chk_replay_doc *doc, ws_error *err);

/* chk_replay_collect, then the document rendered to out in fmt (the markdown tables for
 * chk_replay): nothing is printed when the replay fails. Same return values. */
int chk_replay(const char *json_path, const char *const *kernels, int nkernels, bool verbose, FILE *out,
               ws_error *err);
int chk_replay_as(const char *json_path, const char *const *kernels, int nkernels, bool verbose, ws_format fmt,
                  FILE *out, ws_error *err);

#endif
