/* check_goals.h - the goals table at the top of the validation report: issue 23's "It must
 * show" targets, each counted from the replayed rows. A goal is a set of rows (which runs,
 * which metrics), a tolerance a row's |error| must be within, the share of rows that must be
 * (and for time a median |error| bound); it is met when its rows reach both.
 * The goals (tolerance, target):
 *   time, catalog at realistic sizes (runs recorded with -D: sizes beyond the L2)  20%, 90%, median <= 10%
 *   time, catalog at default sizes (runs without -D)                               20%, 90%, median <= 10%
 *   time, the real-kernel corpus (kernels outside the catalog)                     20%, 90%, median <= 10%
 *   time, all three together                                                       20%, 90%, median <= 10%
 *   L2 sectors (every lts__t_sectors* count: not the .pct rows), catalog / corpus / together   5%, 95%
 *   DRAM bytes (dram__bytes_read.sum, dram__bytes_write.sum), catalog / corpus / together      10%, 90%
 *   time, the tensor-core family (demos/tensorcore.cu's kernels and the corpus)    20%, 80%
 * A timing-dependent row (a CAS loop's count) is in no goal: its value is not the model's to get right.
 * Invariant: pure arithmetic on the rows given; nothing is simulated or read here. */
#ifndef CHECK_GOALS_H
#define CHECK_GOALS_H

#include <stdbool.h>
#include <stdio.h>

#include "check_compare.h"

#define CHK_GOAL_OTHERS_MAX 16

/* Where a judged row's run comes from. */
typedef enum { CHK_SET_DEFAULT, CHK_SET_REALISTIC, CHK_SET_CORPUS } chk_set;

typedef struct {
    chk_set set;
    bool tensor;               /* a run of the tensor-core family (demos/tensorcore.cu, or the corpus) */
    const char *metric;        /* ncu's name */
    chk_class cls;
    double err;                /* |error|: chk_row_error */
    double gpu;                /* the recorded GPU value */
    int nothers;               /* other GPU runs of the same launch (check_others.h) */
    double others[CHK_GOAL_OTHERS_MAX];
} chk_goal_row;

typedef struct {
    char name[96];             /* "time within 20%: catalog at realistic sizes" */
    double tol;                /* a row is within when err <= tol */
    double target;             /* the share of rows that must be within (0.9) */
    double median_max;         /* the median |error| bound, NAN = none */
    int n, within;
    double median;             /* NAN without rows */
    bool met;                  /* n > 0, within / n >= target, median <= median_max */
} chk_goal;

#define CHK_GOALS_MAX 12

/* A counter goal's rows the GPU was measured on again (other runs of the same launch): how often
 * the GPU's own count lands within the goal's tolerance of the recorded one, beside the model's
 * share on those rows. A share above the GPU's own is out of any model's reach on those rows. */
typedef struct {
    char name[96];
    double tol;
    int rows;         /* the goal's rows with other runs */
    int runs;         /* their other runs */
    int runs_within;  /* other runs within tol of the recorded value */
    int rows_steady;  /* rows whose every other run is within tol */
    int model_within; /* rows the model is within tol on */
} chk_self_goal;

/* True when metric counts as "L2 sectors" for the goal: lts__t_sectors*, not a percentage. */
bool chk_goal_is_l2_sectors(const char *metric);
/* True for dram__bytes_read.sum and dram__bytes_write.sum. */
bool chk_goal_is_dram_bytes(const char *metric);

/* The goals over rows[0..n) into out (at least CHK_GOALS_MAX); returns how many. */
int chk_goals_of(const chk_goal_row *rows, int n, chk_goal *out);

/* The L2-sector and DRAM-byte goals over rows[0..n) again, counting the GPU against itself on
 * the rows with other runs (a time goal is left out: the other runs' durations are ncu's, the
 * recorded ones event medians). out holds at least CHK_GOALS_MAX; returns how many. */
int chk_goals_self(const chk_goal_row *rows, int n, chk_self_goal *out);

/* Its markdown table. */
void chk_goals_self_markdown(FILE *out, const chk_self_goal *g, int n);

/* The markdown table of goals[0..n): goal, n, within, share, median, target, met / not met. */
void chk_goals_markdown(FILE *out, const chk_goal *goals, int n);

#endif
