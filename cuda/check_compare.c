/* check_compare.c - metric classes, tolerances and verdicts (see check_compare.h).
 * A metric's class comes from the basis the simulator gives its row (sim/memstats.c:
 * exact or model); the few rows judged otherwise are listed here by name, with why. */
#include "check_compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../sim/memstats.h"

static bool has(const char *s, const char *sub) { return strstr(s, sub) != NULL; }

/* Rows whose judgement is not their basis's. */
static const struct {
    const char *metric;
    chk_class cls;
} judged_otherwise[] = {
    /* the raw L1 data-bank counters also count arbitration with other L1 traffic (and vary
     * run to run), so they may exceed what the bank model counts exactly; the SASS-patched
     * wavefronts (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*) do not, and are
     * the exact rows (their basis) */
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", CHK_BOUND},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", CHK_BOUND},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", CHK_BOUND},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", CHK_BOUND},
    /* the arbitration conflicts themselves: the simulator models none, shown for the reader */
    {"l1tex__data_bank_conflicts_type_arbitration.sum", CHK_INFO},
    /* the timing model's prediction against the measured duration */
    {"gpu__time_duration.sum", CHK_TIME},
    /* theoretical occupancy in the simulator, achieved on the GPU (short launches never
     * reach it: ramp-up and tail), so shown side by side, not judged */
    {"sm__warps_active.avg.pct_of_peak_sustained_active", CHK_INFO},
    /* a ratio of two exact rows, which are judged themselves */
    {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", CHK_INFO},
};

chk_class chk_classify(const char *m)
{
    for (size_t i = 0; i < sizeof judged_otherwise / sizeof judged_otherwise[0]; i++)
        if (!strcmp(m, judged_otherwise[i].metric)) return judged_otherwise[i].cls;
    ws_basis b;
    /* a simulator-only row has no hardware counter to compare with */
    if (!strncmp(m, WS_SIM_ONLY_PREFIX, strlen(WS_SIM_ONLY_PREFIX)) || ws_metric_basis(m, &b)) return CHK_INFO;
    return b == WS_BASIS_EXACT ? CHK_EXACT : b == WS_BASIS_MODEL ? CHK_CACHE : CHK_INFO;
}

const char *chk_class_name(chk_class c)
{
    static const char *n[] = {"exact", "cache", "time", "bound", "info", "timing-dependent"};
    return c < CHK_NCLASSES ? n[c] : "?";
}

const char *chk_class_tolerance(chk_class c)
{
    static const char *n[] = {"equal", "within 10%", "within 25%", "gpu >= sim", "not judged",
                              "not judged: depends on timing"};
    return c < CHK_NCLASSES ? n[c] : "?";
}

const char *chk_verdict_name(chk_verdict v)
{
    static const char *n[] = {"agree", "DIFFERS", "missing", "-"};
    return v <= CHK_UNJUDGED ? n[v] : "?";
}

static bool is_percentage(const char *m) { return has(m, ".pct") || has(m, "pct_of"); }

void chk_row_set(chk_row *r, const char *metric, bool has_sim, double sim, bool has_gpu, double gpu)
{
    memset(r, 0, sizeof *r);
    snprintf(r->metric, sizeof r->metric, "%s", metric);
    r->has_sim = has_sim;
    r->has_gpu = has_gpu;
    r->sim = sim;
    r->gpu = gpu;
    r->cls = chk_classify(metric);
    r->ratio = NAN;
    if (!has_sim || !has_gpu) {
        r->verdict = CHK_MISSING;
        snprintf(r->cause, sizeof r->cause, "%s", !has_gpu ? "not collected on the GPU" : "the simulator has no value");
        return;
    }
    r->ratio = sim == 0 ? (gpu == 0 ? 1.0 : INFINITY) : gpu / sim;
    double d = fabs(gpu - sim);
    bool ok;
    switch (r->cls) {
    case CHK_EXACT: ok = gpu == sim; break;
    case CHK_CACHE:
        if (is_percentage(metric)) ok = d <= CHK_PCT_POINTS;
        else {
            double slack = has(metric, "dram__bytes") ? CHK_DRAM_SLACK_BYTES
                         : has(metric, "lts__t_sectors") ? CHK_L2_SLACK_SECTORS : 0;
            ok = d <= CHK_CACHE_TOL * fabs(gpu) + slack;
        }
        break;
    case CHK_TIME: ok = d <= CHK_TIME_TOL * fabs(gpu); break;
    case CHK_BOUND: ok = gpu >= sim; break; /* the hardware adds arbitration to the lanes' own conflicts */
    default:
        r->verdict = CHK_UNJUDGED;
        return;
    }
    r->verdict = ok ? CHK_AGREE : CHK_DIFFER;
    if (!ok) snprintf(r->cause, sizeof r->cause, "unexplained");
}

void chk_unjudge_for_wmma(chk_row *rows, int n, double wmma_accesses)
{
    if (wmma_accesses <= 0) return;
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        bool plain = (has(r->metric, "mem_global_op_") || has(r->metric, "mem_shared_op_") ||
                      has(r->metric, "op_global_") || has(r->metric, "op_shared_")) &&
                     !has(r->metric, "ldgsts") && !has(r->metric, "ldsm") && !has(r->metric, "stsm");
        if (!plain || r->cls == CHK_INFO) continue;
        r->cls = CHK_INFO;
        r->verdict = CHK_UNJUDGED;
        snprintf(r->cause, sizeof r->cause, "wmma.load/store: the GPU counts the loads and stores ptxas chose for "
                 "them here, the simulator counts them apart at PTX level (ws__wmma_* rows)");
    }
}

void chk_timing_dependent_for_cas(chk_row *rows, int n, int ncas_global, int ncas_shared)
{
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        bool g = ncas_global > 0 && (has(r->metric, "op_global_atom") || has(r->metric, "tex_op_atom"));
        bool s = ncas_shared > 0 && has(r->metric, "op_shared_atom");
        if (!g && !s) continue;
        r->cls = CHK_TIMING_DEP;
        r->verdict = CHK_UNJUDGED;
        snprintf(r->cause, sizeof r->cause, "timing-dependent: atom.cas in a retry loop whose exit depends on its "
                 "result; the GPU executes one ATOM per lost race, the simulator one order of warps");
    }
}

void chk_explain(chk_row *rows, int n, const cu_access_summary *ptx, const cu_access_summary *sass)
{
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        if (r->verdict != CHK_DIFFER) continue;
        if (r->cls == CHK_BOUND) /* fewer than the lanes' own conflicts: no known reason */
            continue;
        if (r->cls == CHK_EXACT && ptx && sass)
            r->explained = cu_sass_cause(r->metric, ptx, sass, r->cause, sizeof r->cause);
    }
}

bool chk_fails(const chk_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (rows[i].cls == CHK_EXACT && rows[i].verdict == CHK_DIFFER) return true;
    return false;
}

void chk_tally(const chk_row *rows, int n, int agree[CHK_NCLASSES], int judged[CHK_NCLASSES])
{
    for (int c = 0; c < CHK_NCLASSES; c++) agree[c] = judged[c] = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].verdict != CHK_AGREE && rows[i].verdict != CHK_DIFFER) continue;
        judged[rows[i].cls]++;
        if (rows[i].verdict == CHK_AGREE) agree[rows[i].cls]++;
    }
}
