/* check_compare.c - metric classes, tolerances and verdicts (see check_compare.h).
 * Classification is by ncu name pattern so any metric the simulator adds later
 * falls into the right class without a table edit. */
#include "check_compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool has(const char *s, const char *sub) { return strstr(s, sub) != NULL; }

chk_class chk_classify(const char *m)
{
    /* raw L1 data-bank counters also count arbitration with other L1 traffic (and vary run
     * to run); the SASS-patched wavefronts do not, and are the exact ones */
    if (has(m, "bank_conflicts_type_arbitration")) return CHK_INFO;
    if (has(m, "bank_conflicts")) return CHK_BOUND;
    if (has(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared")) return CHK_BOUND;
    if (has(m, "__time_")) return CHK_TIME; /* gpu__time_duration.sum */
    /* The simulator knows theoretical occupancy; ncu's sm__warps_active is the
     * achieved one, which short launches never reach (ramp-up and tail), so the
     * two are shown side by side but not judged. */
    if (has(m, "sm__warps_active")) return CHK_INFO;
    if (has(m, "lookup_hit") || has(m, "lookup_miss") || has(m, "hit_rate")) return CHK_CACHE;
    if (has(m, "l1tex__t_requests_pipe_lsu_mem_") || has(m, "l1tex__t_sectors_pipe_lsu_mem_") ||
        has(m, "smsp__sass_inst_executed_op_") ||
        has(m, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"))
        return CHK_EXACT;
    if (has(m, "lts__") || has(m, "dram__") || has(m, "l1tex__m_") ||
        has(m, "l1tex__t_sector"))
        return CHK_CACHE;
    return CHK_INFO;
}

const char *chk_class_name(chk_class c)
{
    static const char *n[] = {"exact", "cache", "time", "bound", "info"};
    return c < CHK_NCLASSES ? n[c] : "?";
}

const char *chk_class_tolerance(chk_class c)
{
    static const char *n[] = {"equal", "within 10%", "within 25%", "gpu >= sim", "not judged"};
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
