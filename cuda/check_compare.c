/* check_compare.c - metric classes, tolerances and verdicts (see check_compare.h).
 * A metric's class and slack are its row's in the metric table (sim/models/metrics.h: the judge
 * and slack columns); a name without a row is shown, not judged. */
#include "check_compare.h"

#include "../sim/frontend/casloop.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

chk_class chk_classify(const char *m)
{
    const ws_metric_info *row = ws_metric_find(m);
    return row ? (chk_class)row->judge : CHK_INFO;
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

static void judge(chk_row *r, const ws_metric_info *row);

const char *chk_verdict_name(chk_verdict v)
{
    static const char *n[] = {"agree", "DIFFERS", "missing", "-"};
    return v <= CHK_UNJUDGED ? n[v] : "?";
}

void chk_row_set(chk_row *r, const char *metric, bool has_sim, double sim, bool has_gpu, double gpu)
{
    memset(r, 0, sizeof *r);
    snprintf(r->metric, sizeof r->metric, "%s", metric);
    r->has_sim = has_sim;
    r->has_gpu = has_gpu;
    r->sim = sim;
    r->gpu = gpu;
    const ws_metric_info *row = ws_metric_find(metric);
    r->cls = row ? (chk_class)row->judge : CHK_INFO;
    r->ratio = NAN;
    if (!has_sim || !has_gpu) {
        r->verdict = CHK_MISSING;
        snprintf(r->cause, sizeof r->cause, "%s", !has_gpu ? "not collected on the GPU" : "the simulator has no value");
        return;
    }
    judge(r, row);
}

void chk_row_as_model(chk_row *r)
{
    if (r->cls != CHK_EXACT) return;
    r->cls = CHK_CACHE;
    if (r->has_sim && r->has_gpu) judge(r, ws_metric_find(r->metric));
}

/* r's verdict under its class (both values present); row: its metric's row, NULL for none. */
static void judge(chk_row *r, const ws_metric_info *row)
{
    double sim = r->sim, gpu = r->gpu;
    double slack = row ? row->slack : 0;
    bool pct = row && row->unit == WS_UNIT_PCT;
    r->ratio = sim == 0 ? (gpu == 0 ? 1.0 : INFINITY) : gpu / sim;
    double d = fabs(gpu - sim);
    bool ok;
    switch (r->cls) {
    case CHK_EXACT: ok = gpu == sim; break;
    case CHK_CACHE: /* a percentage within slack points, a count within 10% plus its slack */
        ok = pct ? d <= slack : d <= CHK_CACHE_TOL * fabs(gpu) + slack;
        break;
    case CHK_TIME: ok = d <= CHK_TIME_TOL * fabs(gpu); break;
    case CHK_BOUND: ok = gpu >= sim; break; /* the hardware adds arbitration to the lanes' own conflicts */
    default:
        r->verdict = CHK_UNJUDGED;
        return;
    }
    r->verdict = ok ? CHK_AGREE : CHK_DIFFER; /* a DIFFER row's cause: chk_explain_rows (check_explain.h) */
}

void chk_unjudge_for_wmma(chk_row *rows, int n, double wmma_accesses)
{
    if (wmma_accesses <= 0) return;
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        const ws_metric_info *m = ws_metric_find(r->metric);
        bool plain = m && m->kind == WS_KIND_PLAIN && (m->space == WS_SPACE_GLOBAL || m->space == WS_SPACE_SHARED);
        if (!plain || r->cls == CHK_INFO) continue;
        r->cls = CHK_INFO;
        r->verdict = CHK_UNJUDGED;
        snprintf(r->cause, sizeof r->cause, "wmma.load/store: the GPU counts the loads and stores ptxas chose for "
                 "them here, the simulator counts them apart at PTX level (ws__wmma_* rows)");
    }
}

chk_retry_loops chk_retry_loops_of(const ptx_function *fn)
{
    chk_retry_loops lp = {0, 0, 0};
    int pcs[64], n = fn ? ws_cas_loops(fn, pcs, 64) : 0;
    for (int i = 0; i < n && i < 64; i++) {
        if (fn->insns[pcs[i]].space == PTX_SPACE_SHARED) lp.cas_shared++;
        else lp.cas_global++;
    }
    int w = fn ? ws_wait_loops(fn, NULL, 0) : 0;
    lp.waits = w > 0 ? w : 0;
    return lp;
}

void chk_timing_dependent(chk_row *rows, int n, const chk_retry_loops *lp)
{
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        const ws_metric_info *m = ws_metric_find(r->metric);
        if (!m) continue;
        bool atom = m->op == WS_MEM_ATOMIC;
        bool g = lp->cas_global > 0 && ((atom && m->space == WS_SPACE_GLOBAL) || m->id == WS_METRIC_L2_ATOM_SECTORS ||
                                         m->id == WS_METRIC_L2_ATOM_SECTORS_ALL);
        bool s = lp->cas_shared > 0 && atom && m->space == WS_SPACE_SHARED;
        /* every instruction count: the instructions and the pipes (no space, no memory op) */
        bool w = lp->waits > 0 && m->unit == WS_UNIT_INST && m->space < 0 && m->op < 0 && m->kind == WS_KIND_PLAIN;
        if (!g && !s && !w) continue;
        r->cls = CHK_TIMING_DEP;
        r->verdict = CHK_UNJUDGED;
        if (g || s)
            snprintf(r->cause, sizeof r->cause, "timing-dependent: atom.cas in a retry loop whose exit depends on its "
                     "result; the GPU executes one ATOM per lost race, the simulator one order of warps");
        else
            snprintf(r->cause, sizeof r->cause, "timing-dependent: a wait loop (mbarrier try_wait/test_wait or a polled "
                     "flag) spins until another warp or the copy gets there; the GPU's spins are its timing's, "
                     "the simulator's one order of warps");
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
