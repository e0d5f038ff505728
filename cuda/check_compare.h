/* check_compare.h - the pure comparison behind `warpscope check`: one row per
 * metric with the simulator's value, the GPU's, their ratio and a verdict
 * against the tolerance of the metric's class. The class is the basis of the
 * simulator's row for the metric (ws_metric_basis), apart from a short list of
 * rows judged otherwise (check_compare.c: judged_otherwise):
 *   exact  basis exact: L1TEX requests and sectors, SASS-patched shared wavefronts
 *          (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*), SASS
 *          instruction counts: equal
 *   cache  basis model: L1 hit rate, L2 sectors, DRAM bytes, shared-atomic
 *          wavefronts (bank rule assumed): within 10%
 *          (percentages: within 10 points; DRAM bytes also within 64 KiB, L2
 *          sectors within 64, the background traffic of any launch under ncu)
 *   time   kernel duration: within 25%
 *   bound  the raw L1 data-bank counters (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st,
 *          l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st): they also count
 *          arbitration with other L1 traffic and vary run to run, so gpu >= sim
 *   info   shown, not judged: occupancy (theoretical in the simulator, achieved on
 *          the GPU), a ratio of exact rows, simulator-only ws__ rows,
 *          l1tex__data_bank_conflicts_type_arbitration, and any metric the
 *          simulator has no row for
 *   timing-dependent  a count that depends on the order in which the GPU's threads run: the
 *          atomic rows of a kernel with an atom.cas retry loop (sim/casloop.h); shown, not judged
 * Invariant: only an exact row that differs makes a check fail. */
#ifndef CHECK_COMPARE_H
#define CHECK_COMPARE_H

#include <stdbool.h>

#include "cu_sass.h"

typedef enum { CHK_EXACT, CHK_CACHE, CHK_TIME, CHK_BOUND, CHK_INFO, CHK_TIMING_DEP, CHK_NCLASSES } chk_class;
typedef enum { CHK_AGREE, CHK_DIFFER, CHK_MISSING, CHK_UNJUDGED } chk_verdict;

#define CHK_CACHE_TOL 0.10
#define CHK_TIME_TOL 0.25
#define CHK_PCT_POINTS 10.0
#define CHK_DRAM_SLACK_BYTES 65536.0
#define CHK_L2_SLACK_SECTORS 64.0

typedef struct {
    char metric[128];
    double sim, gpu;
    bool has_sim, has_gpu;
    chk_class cls;
    double ratio;              /* gpu / sim; 1 when both are 0; INFINITY when only sim is 0 */
    chk_verdict verdict;
    bool explained;            /* a DIFFER row whose cause is known */
    char cause[384];           /* why it differs, or "unexplained"; "" when it agrees */
} chk_row;

chk_class chk_classify(const char *metric);
const char *chk_class_name(chk_class c);       /* "exact" */
const char *chk_class_tolerance(chk_class c);  /* "equal", "within 10%" ... */
const char *chk_verdict_name(chk_verdict v);   /* "agree", "DIFFERS", "missing", "-" */

/* Fills a row from its values (has_* false = not available) and judges it. */
void chk_row_set(chk_row *r, const char *metric, bool has_sim, double sim, bool has_gpu, double gpu);

/* Names the cause of each differing row: exact rows from the PTX/SASS
 * summaries (NULL when unavailable); a bound row below the simulator stays unexplained. */
void chk_explain(chk_row *rows, int n, const cu_access_summary *ptx, const cu_access_summary *sass);

/* A kernel whose simulation counted wmma fragment accesses (ws__wmma_* rows, PTX level):
 * the GPU runs them as whatever loads and stores ptxas chose (LDG/LDS/LDSM/STG/STS widths),
 * which the plain global/shared rows count there but not in the simulator, so those rows are
 * shown and not judged. A no-op when wmma_accesses is 0. */
void chk_unjudge_for_wmma(chk_row *rows, int n, double wmma_accesses);

/* A kernel with ncas atom.cas retry loops (ws_cas_loops) on global (ncas_global) and shared (ncas_shared) memory, live (cmd_check.c) and replayed (check_replay.c):
 * its atomic rows count as many ATOMs as threads lost races, which depends on timing, so they
 * are classed timing-dependent and not judged. A no-op when ncas is 0. */
void chk_timing_dependent_for_cas(chk_row *rows, int n, int ncas_global, int ncas_shared);

/* True when an exact row differs (the check fails). */
bool chk_fails(const chk_row *rows, int n);

/* Agreement per class: agree[c] of judged[c] rows agree. */
void chk_tally(const chk_row *rows, int n, int agree[CHK_NCLASSES], int judged[CHK_NCLASSES]);

#endif
