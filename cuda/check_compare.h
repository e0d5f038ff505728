/* check_compare.h - the pure comparison behind `warpscope check`: one row per
 * metric with the simulator's value, the GPU's, their ratio and a verdict
 * against the tolerance of the metric's class. The class is the judge column of
 * the metric's row in the metric table (sim/models/metrics.h, which says why for each):
 *   exact  equal: L1TEX requests and sectors, SASS-patched shared wavefronts, SASS
 *          instruction counts
 *   cache  within 10% of the GPU's value plus the row's slack (DRAM bytes 64 KiB, L2
 *          sectors 64: the background traffic of any launch under ncu), a percentage
 *          within its slack in points (10): L1 hit rates, L2 sectors, DRAM bytes, and
 *          rules assumed until measured (shared-atomic wavefronts, cp.async's shared side)
 *   time   kernel duration: within 25%
 *   bound  gpu >= sim: the raw L1 data-bank counters, which also count arbitration
 *          with other L1 traffic and vary run to run
 *   info   shown, not judged: occupancy (theoretical in the simulator, achieved on
 *          the GPU), a ratio of exact rows, simulator-only ws__ rows, the arbitration
 *          conflicts, and any metric without a row
 *   (an exact row whose value is, in one run, a model's - an approximate SASS instruction
 *   count - is judged as cache: chk_row_as_model)
 *   timing-dependent  a count that depends on the order in which the GPU's threads run: the
 *          atomic rows of a kernel with an atom.cas retry loop (sim/frontend/casloop.h); shown, not judged
 * Invariant: only an exact row that differs makes a check fail. */
#ifndef CHECK_COMPARE_H
#define CHECK_COMPARE_H

#include <stdbool.h>

#include "../sim/frontend/ptx.h"
#include "../sim/models/metrics.h"
#include "cu_sass.h"

/* the metric table's judge column (ws_judge), under check's names */
typedef enum {
    CHK_EXACT = WS_JUDGE_EXACT,
    CHK_CACHE = WS_JUDGE_CACHE,
    CHK_TIME = WS_JUDGE_TIME,
    CHK_BOUND = WS_JUDGE_BOUND,
    CHK_INFO = WS_JUDGE_INFO,
    CHK_TIMING_DEP = WS_JUDGE_TIMING_DEP,
    CHK_NCLASSES = WS_JUDGE_NCLASSES
} chk_class;
typedef enum { CHK_AGREE, CHK_DIFFER, CHK_MISSING, CHK_UNJUDGED } chk_verdict;

#define CHK_CACHE_TOL 0.10
#define CHK_TIME_TOL 0.25

typedef struct {
    char metric[128];
    double sim, gpu;
    bool has_sim, has_gpu;
    chk_class cls;
    double ratio;              /* gpu / sim; 1 when both are 0; INFINITY when only sim is 0 */
    chk_verdict verdict;
    bool explained;            /* a DIFFER row whose mechanism is known (check_explain.h) */
    char cause[640];           /* why it differs: the mechanism, or "unexplained: missing ..."
                                  (check_explain.h: CHK_UNEXPLAINED); "" when it agrees */
} chk_row;

chk_class chk_classify(const char *metric);
const char *chk_class_name(chk_class c);       /* "exact" */
const char *chk_class_tolerance(chk_class c);  /* "equal", "within 10%" ... */
const char *chk_verdict_name(chk_verdict v);   /* "agree", "DIFFERS", "missing", "-" */

/* Fills a row from its values (has_* false = not available) and judges it. */
void chk_row_set(chk_row *r, const char *metric, bool has_sim, double sim, bool has_gpu, double gpu);

/* A row whose simulator value is, in this run, a model's rather than the counter's own rule (an
 * approximate SASS instruction count: chk_sim_is_model): an exact row is judged as cache (within
 * 10%) instead, so it can differ without failing the check. Other classes are left as they are. */
void chk_row_as_model(chk_row *r);

/* A kernel whose simulation counted wmma fragment accesses (ws__wmma_* rows, PTX level):
 * the GPU runs them as whatever loads and stores ptxas chose (LDG/LDS/LDSM/STG/STS widths),
 * which the plain global/shared rows count there but not in the simulator, so those rows are
 * shown and not judged. A no-op when wmma_accesses is 0. */
void chk_unjudge_for_wmma(chk_row *rows, int n, double wmma_accesses);

/* A kernel's loops whose trip counts are timing (sim/frontend/casloop.h): atom.cas retry loops on
 * global and shared memory, and wait loops (mbarrier try_wait/test_wait, polled flags). */
typedef struct {
    int cas_global, cas_shared, waits;
} chk_retry_loops;

/* fn's loops (all 0 for NULL or out of memory). */
chk_retry_loops chk_retry_loops_of(const ptx_function *fn);

/* Rows whose values depend on timing, live (cmd_check.c) and replayed (check_replay.c), classed
 * timing-dependent and not judged: with a CAS retry loop the atomic rows of its space (as many
 * ATOMs as threads lost races); with a wait loop the instruction counts (smsp__inst_executed and
 * the pipes': as many spins as the wait lasted). A no-op when lp has none. */
void chk_timing_dependent(chk_row *rows, int n, const chk_retry_loops *lp);

/* True when an exact row differs (the check fails). */
bool chk_fails(const chk_row *rows, int n);

/* Agreement per class: agree[c] of judged[c] rows agree. */
void chk_tally(const chk_row *rows, int n, int agree[CHK_NCLASSES], int judged[CHK_NCLASSES]);

#endif
