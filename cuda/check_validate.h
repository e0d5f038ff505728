/* check_validate.h - `warpscope check --validate results/<gpu>.json [more files] [--png FILE]`:
 * the validation report. Every recorded run is replayed (check_replay.h; the runs recorded
 * without counters on their time alone, simulated on a sample of their blocks), and the report
 * gives, per counter class and per predicted bound (DRAM, L2, shared, atomics, issue, latency,
 * launch, tensor), how many rows were judged, how many are within tolerance, the median and
 * 90th-percentile |error|, and the worst rows with their cause (check_explain.h); --png draws
 * predicted against measured time (viz/viz_plot.h). At its top, the goals of issue 23 counted over
 * those rows (check_goals.h); after the distributions, every differing row by its cause and the
 * unexplained ones with what is missing; at the end the runs simulated whole and their cost.
 * |error| of a row: |sim - gpu| / |gpu|; a percentage row's: |sim - gpu| / 100 (points of the
 * full scale); gpu 0 with sim 0 is 0, gpu 0 alone is infinite.
 * Invariant: the report is a function of the results files and the simulator as built (but for
 * the seconds the whole simulations took, and the runs a spent budget leaves out). */
#ifndef CHECK_VALIDATE_H
#define CHECK_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/ws_error.h"
#include "../sim/models/timing.h"
#include "check_compare.h"
#include "check_replay.h"

/* A run recorded without counters that cannot be sampled (global atomics, a grid sync) is
 * simulated on every block up to this many threads (2^26: the histograms of demos/pairs.txt, 45 s
 * each at -j 2 on two cores) while the whole simulations have taken less than this many seconds
 * in all; beyond either it is listed, not simulated. The report lists each one's cost. */
#define CHK_VALIDATE_FULL_THREADS_MAX 67108864.0
#define CHK_VALIDATE_FULL_SECONDS 600.0

/* The report's bound classes, in its order. */
#define CHK_VALIDATE_NBOUNDS 8
extern const char *const chk_validate_bounds[CHK_VALIDATE_NBOUNDS]; /* "DRAM" ... "tensor" */
/* The class of a run's prediction: "tensor" where it rests on the tensor pipe (a note), else
 * ws_bound_class of its bound. Returns an index into chk_validate_bounds. */
int chk_validate_bound_of(const chk_replay_run *r);

double chk_row_error(const chk_row *r);

/* n values: how many, how many within tolerance, the median (the mean of the middle two for
 * an even n) and the 90th percentile (nearest rank: the ceil(0.9 n)-th smallest). */
typedef struct {
    int n, within;
    double median, p90;
} chk_err_stats;
void chk_err_stats_of(const double *err, const bool *within, int n, chk_err_stats *out);

/* The report over nfiles results files (markdown on out; png: the time plot's path, NULL =
 * none). Returns WS_EXIT_OK, WS_EXIT_USAGE (a bad file, a PNG that cannot be written, a build
 * without the visualizer asked for a PNG) or WS_EXIT_INTERNAL, with err set. */
int chk_validate(const char *const *files, int nfiles, const char *png, FILE *out, ws_error *err);

#endif
