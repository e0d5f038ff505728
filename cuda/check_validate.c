/* check_validate.c - the validation report (see check_validate.h): replays, then per class and
 * per bound the error distribution and the worst rows with their mechanism, and the time plot.
 * Why a report of distributions: a verdict per row says pass or fail; whether the simulator can
 * be trusted for a kind of kernel is the spread of its errors over many. */
#include "check_validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/device.h"
#include "check_explain.h"
#include "check_goals.h"
#include "check_others.h"
#ifdef WS_HAVE_SDL
#include "../viz/viz_plot.h"
#endif

const char *const chk_validate_bounds[CHK_VALIDATE_NBOUNDS] = {"DRAM",    "L2",      "shared", "atomics",
                                                               "issue",   "latency", "launch", "tensor"};

int chk_validate_bound_of(const chk_replay_run *r)
{
    for (int i = 0; i < r->notes.n; i++)
        if (!strcmp(r->notes.notes[i].mechanism, "tensor pipe")) return CHK_VALIDATE_NBOUNDS - 1;
    const char *c = ws_bound_class(r->bound);
    for (int i = 0; i < CHK_VALIDATE_NBOUNDS; i++)
        if (!strcmp(c, chk_validate_bounds[i])) return i;
    return 6; /* launch: a prediction with no term at all */
}

double chk_row_error(const chk_row *r)
{
    const ws_metric_info *m = ws_metric_find(r->metric);
    if (m && m->unit == WS_UNIT_PCT) return fabs(r->sim - r->gpu) / 100;
    if (r->gpu == 0) return r->sim == 0 ? 0 : INFINITY;
    return fabs(r->sim - r->gpu) / fabs(r->gpu);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void chk_err_stats_of(const double *err, const bool *within, int n, chk_err_stats *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->median = out->p90 = NAN;
    for (int i = 0; i < n; i++) out->within += within[i];
    if (n <= 0) return;
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) return;
    memcpy(v, err, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, by_value);
    out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    int k = (int)ceil(0.9 * n); /* nearest rank, 1-based */
    out->p90 = v[(k < 1 ? 1 : k) - 1];
    free(v);
}

/* One judged row of one replayed run. */
typedef struct {
    const chk_replay_doc *doc;
    const chk_replay_run *run;
    const chk_row *row;
    double err;
} vrow;

typedef struct {
    vrow *v;
    int n, cap;
} vlist;

static int push(vlist *l, vrow x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        vrow *nv = realloc(l->v, (size_t)cap * sizeof *nv);
        if (!nv) return -1;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

static int by_error_desc(const void *a, const void *b)
{
    double x = ((const vrow *)a)->err, y = ((const vrow *)b)->err;
    return x > y ? -1 : x < y;
}

static void pct(FILE *out, double e)
{
    if (isnan(e)) fprintf(out, " - |");
    else if (isinf(e)) fprintf(out, " inf |");
    else fprintf(out, " %.1f%% |", 100 * e);
}

static void stats_cells(FILE *out, const vlist *l, double tol)
{
    double *e = malloc((size_t)(l->n ? l->n : 1) * sizeof *e);
    bool *w = malloc((size_t)(l->n ? l->n : 1) * sizeof *w);
    chk_err_stats s;
    if (!e || !w) {
        free(e);
        free(w);
        fprintf(out, " - | - | - | - |");
        return;
    }
    for (int i = 0; i < l->n; i++) {
        e[i] = l->v[i].err;
        w[i] = tol >= 0 ? l->v[i].err <= tol : l->v[i].row->verdict == CHK_AGREE;
    }
    chk_err_stats_of(e, w, l->n, &s);
    fprintf(out, " %d | %d", s.n, s.within);
    if (s.n) fprintf(out, " (%.0f%%)", 100.0 * s.within / s.n);
    fprintf(out, " |");
    pct(out, s.median);
    pct(out, s.p90);
    free(e);
    free(w);
}

/* What the explainers know of a row's run: the replay's prediction and its other rows. */
static chk_facts facts_of(const vrow *x)
{
    const chk_replay_run *r = x->run;
    const ws_device *dev = ws_device_find(x->doc->gpu);
    return (chk_facts){.rows = r->now, .nrows = r->nrows, .has_timing = r->has_timing, .timing = r->timing,
                       .launch_us = dev ? dev->launch_overhead_us : 0, .notes = &r->notes,
                       .has_dirty_at_end = r->has_dirty, .dirty_at_end_bytes = r->dirty_at_end_bytes,
                       .has_far_miss = r->has_far, .far_miss_sectors = r->far_miss_sectors,
                       .has_l1_miss = r->has_l1_miss, .l1_miss_sectors = r->l1_miss_sectors,
                       .counted_sass = r->counted_sass, .guess = r->counted_sass ? &r->guess : NULL,
                       .kernel = r->kernel, .blocks = r->blocks,
                       .coalesce_group_sms = dev && dev->l2_read_coalescing ? dev->l2_coalesce_group_sms : 0,
                       .coalesce_groups = ws_device_grid_groups(dev, r->blocks > 0 ? (uint64_t)r->blocks : 0)};
}

/* The cause of a row of the list: its recorded cause where it differs, else found now. Returns
 * false when no mechanism applies (the cause is CHK_UNEXPLAINED and what is missing). */
static bool cause_of(const vrow *x, char *out, size_t cap)
{
    if (x->row->verdict == CHK_DIFFER && x->row->cause[0]) {
        snprintf(out, cap, "%s", x->row->cause);
        return x->row->explained;
    }
    chk_facts f = facts_of(x);
    const char *c = x->row->cause;
    if (strncmp(c, CHK_SAMPLED_ESTIMATE, strlen(CHK_SAMPLED_ESTIMATE))) return chk_explain_row(x->row, &f, out, cap);
    /* a sampled estimate (check_replay.c) says so first, its sentence up to the first ';' */
    char why[640];
    bool ok = chk_explain_row(x->row, &f, why, sizeof why);
    size_t k = strcspn(c, ";");
    if (k >= cap) k = cap - 1;
    snprintf(out, cap, "%.*s", (int)k, c);
    if (why[0] && k + 3 < cap) snprintf(out + k, cap - k, "; %.*s", (int)(cap - k - 3), why); /* cut to fit */
    return ok;
}

/* Where a row's run comes from, for the goals (check_goals.h): the corpus is every kernel
 * outside the catalog; a catalog run recorded with -D is at a realistic size (beyond the L2, or
 * its description's stated class), one without at the description's defaults. */
static chk_goal_row goal_row_of(const vrow *x)
{
    const chk_replay_run *r = x->run;
    const char *base = strrchr(r->file, '/');
    chk_goal_row g = {.set = !r->catalog ? CHK_SET_CORPUS : r->overrides[0] ? CHK_SET_REALISTIC : CHK_SET_DEFAULT,
                      .tensor = !r->catalog || !strcmp(base ? base + 1 : r->file, "tensorcore.cu"),
                      .metric = x->row->metric, .cls = x->row->cls, .err = x->err, .gpu = x->row->gpu};
    if (chk_goal_is_l2_sectors(g.metric) || chk_goal_is_dram_bytes(g.metric))
        g.nothers = chk_others_values(r->kernel, g.metric, (long long)r->blocks, g.others, CHK_GOAL_OTHERS_MAX);
    return g;
}

/* The k largest errors of l; returns how many of them no mechanism explains. */
static int worst(FILE *out, vlist *l, int k)
{
    int unexplained = 0;
    qsort(l->v, (size_t)l->n, sizeof *l->v, by_error_desc);
    if (!l->n || l->v[0].err == 0) fprintf(out, "| (every row equal) | | | | | | | |\n");
    for (int i = 0; i < l->n && i < k && l->v[i].err > 0; i++) {
        const vrow *x = &l->v[i];
        char cause[640];
        unexplained += !cause_of(x, cause, sizeof cause);
        bool tm = x->row->cls == CHK_TIME; /* time in us */
        fprintf(out, "| %s | %s | `%s` | %.6g | %.6g |", x->run->kernel, x->run->overrides, x->row->metric,
                tm ? x->row->sim / 1e3 : x->row->sim, tm ? x->row->gpu / 1e3 : x->row->gpu);
        pct(out, x->err);
        fprintf(out, " %s | %s |\n", chk_verdict_name(x->row->verdict), cause[0] ? cause : "-");
    }
    return unexplained;
}

/* Every differing row of every class, by the rule that explains it; the unexplained ones, each
 * with what is missing. Returns how many are unexplained. */
static int differing(FILE *out, vlist *cls)
{
    const char *names[64];
    int counts[64], nn = 0, total = 0, unexplained = 0;
    for (int c = 0; c < CHK_NCLASSES; c++)
        for (int i = 0; i < cls[c].n; i++) {
            const vrow *x = &cls[c].v[i];
            if (x->row->verdict != CHK_DIFFER) continue;
            total++;
            chk_facts f = facts_of(x);
            const char *rule = x->row->explained ? chk_explain_rule(x->row, &f) : "unexplained";
            if (!strcmp(rule, "none")) rule = "explained when checked (the recorded cause)";
            int k = 0;
            while (k < nn && strcmp(names[k], rule)) k++;
            if (k == nn && nn < 64) {
                names[nn] = rule;
                counts[nn++] = 0;
            }
            if (k < nn) counts[k]++;
        }
    fprintf(out, "\n## Every row that differs, by cause\n\n%d rows differ (all classes, all files). A mechanism "
                 "names the cause of a row where the recorded counters make its case (docs/checking.md lists the "
                 "rules); an unexplained row names the measurement that would decide it.\n\n| cause | rows |\n"
                 "|---|---:|\n", total);
    for (int k = 0; k < nn; k++) fprintf(out, "| %s | %d |\n", names[k], counts[k]);
    fprintf(out, "\n### The unexplained rows\n\n| kernel | -D | class | metric | sim | gpu | abs error | what is "
                 "missing |\n|---|---|---|---|---:|---:|---:|---|\n");
    for (int c = 0; c < CHK_NCLASSES; c++)
        for (int i = 0; i < cls[c].n; i++) {
            const vrow *x = &cls[c].v[i];
            if (x->row->verdict != CHK_DIFFER || x->row->explained) continue;
            bool tm = x->row->cls == CHK_TIME;
            unexplained++;
            fprintf(out, "| %s | %s | %s | `%s` | %.6g | %.6g |", x->run->kernel, x->run->overrides,
                    chk_class_name(x->row->cls), x->row->metric, tm ? x->row->sim / 1e3 : x->row->sim,
                    tm ? x->row->gpu / 1e3 : x->row->gpu);
            pct(out, x->err);
            const char *why = x->row->cause;
            if (!strncmp(why, CHK_UNEXPLAINED, strlen(CHK_UNEXPLAINED))) why += strlen(CHK_UNEXPLAINED);
            fprintf(out, " %s |\n", why);
        }
    if (!unexplained) fprintf(out, "| (none) | | | | | | | |\n");
    return unexplained;
}

static void goals(FILE *out, vlist *cls)
{
    int n = 0;
    for (int c = 0; c < CHK_NCLASSES; c++) n += cls[c].n;
    chk_goal_row *rows = malloc((size_t)(n ? n : 1) * sizeof *rows);
    chk_goal g[CHK_GOALS_MAX];
    if (!rows) return;
    int k = 0;
    for (int c = 0; c < CHK_NCLASSES; c++)
        for (int i = 0; i < cls[c].n; i++) rows[k++] = goal_row_of(&cls[c].v[i]);
    int ng = chk_goals_of(rows, k, g);
    fprintf(out, "\n## Goals (issue 23)\n\nEach goal counted over the replayed rows: time is the kernel's "
                 "duration; \"L2 sectors\" every `lts__t_sectors*` count (read, write, atomic, reduction, their "
                 "lookup hits and misses; not the percentages); \"DRAM bytes\" `dram__bytes_read.sum` and "
                 "`dram__bytes_write.sum`. Realistic sizes: the catalog's runs recorded with -D (sizes beyond the "
                 "L2, or the description's stated class); default sizes: those without; the corpus: every kernel "
                 "outside the catalog; the tensor-core family: `demos/tensorcore.cu` and the corpus. A "
                 "timing-dependent row (a CAS loop's count) is in no goal.\n\n");
    chk_goals_markdown(out, g, ng);
    chk_self_goal sg[CHK_GOALS_MAX];
    int ns = chk_goals_self(rows, k, sg);
    int with = 0;
    for (int i = 0; i < ns; i++) with += sg[i].rows;
    if (with) {
        fprintf(out, "\n### The GPU against itself\n\nWhere the GPU measured a recorded launch again (the other "
                     "runs' CSVs given with the results files: `scripts/gpu-corpus-detail.sh`'s lrc.csv and repeats.csv; "
                     "only runs that launched as many blocks), how often its own count lands within the goal's "
                     "tolerance of the recorded one, beside the model on the same rows. On a row the GPU does not "
                     "repeat within the tolerance, no prediction is within it on every run. Time is left out: the "
                     "other runs' durations are ncu's, the recorded ones event medians.\n\n");
        chk_goals_self_markdown(out, sg, ns);
    }
    free(rows);
}

/* The runs that cannot be sampled, simulated on every block, and what that cost here. */
static void full_runs(FILE *out, const char *const *files, const chk_replay_doc *docs, int nfiles)
{
    int n = 0;
    double total = 0;
    fprintf(out, "\n## Runs simulated on every block\n\nA time-only or --no-sim run whose blocks cannot be sampled "
                 "(sim/sample.h: global atomics, whose contention terms are the hottest address's and slice's "
                 "totals over the whole grid, which a sample's counts do not scale to) is simulated whole, up to "
                 "%.0f threads and %.0f s of simulation in all; the seconds are this machine's wall clock.\n\n"
                 "| results file | kernel | -D | threads | why not sampled | seconds |\n|---|---|---|---:|---|---:|\n",
            CHK_VALIDATE_FULL_THREADS_MAX, CHK_VALIDATE_FULL_SECONDS);
    for (int i = 0; i < nfiles; i++)
        for (int k = 0; k < docs[i].nruns; k++) {
            const chk_replay_run *r = &docs[i].runs[k];
            if (!r->full_unsampled) continue;
            n++;
            total += r->sim_seconds;
            fprintf(out, "| %s | %s | %s | %.0f | %s | %.1f |\n", files[i], r->kernel, r->overrides, r->threads,
                    r->full_why, r->sim_seconds);
        }
    if (!n) fprintf(out, "| (none) | | | | | |\n");
    else fprintf(out, "| all | %d runs | | | | %.1f |\n", n, total);
}

static void report(FILE *out, const char *const *files, const chk_replay_doc *docs, int nfiles, const char *png,
                   vlist *cls, vlist *bnd)
{
    fprintf(out, "# Validation: the simulator against the recorded GPU runs\n\n"
                 "Generated by `warpscope check --validate");
    for (int i = 0; i < nfiles; i++) fprintf(out, " %s", files[i]);
    for (int i = 0; chk_others_file(i); i++) fprintf(out, " %s", chk_others_file(i));
    if (png) fprintf(out, " --png %s", png);
    fprintf(out, "` (no GPU needed): every recorded run replayed with the simulator as built now (`check --replay`), "
                 "the runs recorded without counters on their time alone, simulated on a sample of their blocks "
                 "(on every block where they cannot be sampled), and the runs recorded with `check --no-sim` (the "
                 "GPU's counters, nothing simulated then) simulated so and judged on every recorded counter. "
                 "|error| is |sim - gpu| / gpu (a percentage row: the difference in points / 100).\n\n");
    fprintf(out, "| results file | GPU | runs replayed | of them time only | of them --no-sim | sampled | not simulated |\n"
                 "|---|---|---:|---:|---:|---:|---:|\n");
    int estimated = 0;
    for (int i = 0; i < nfiles; i++) {
        int timed = 0, nosim = 0, sampled = 0;
        for (int k = 0; k < docs[i].nruns; k++) {
            timed += docs[i].runs[k].timed_only;
            nosim += docs[i].runs[k].no_sim;
            sampled += docs[i].runs[k].sampled;
            estimated += docs[i].runs[k].estimated;
        }
        fprintf(out, "| %s | %s | %d | %d | %d | %d | %d |\n", files[i], docs[i].gpu, docs[i].nruns, timed, nosim,
                sampled, docs[i].nskips);
    }
    if (estimated) /* honest about what the exact class holds: these rows were judged as cache rows */
        fprintf(out, "\nExact rows whose sampled simulation states its exact counters estimated (sim/sample.h): %d, "
                     "judged within the cache tolerance and counted with the cache rows; each one's cause says "
                     "\"%s...\".\n", estimated, CHK_SAMPLED_ESTIMATE);
    if (png) {
        const char *base = strrchr(png, '/');
        fprintf(out, "\n![predicted vs measured kernel time, log-log, y = x and +-20%%](%s)\n", base ? base + 1 : png);
    }
    goals(out, cls);
    fprintf(out, "\n## Per counter class\n\n| class | tolerance | n | within tolerance | median abs error | p90 abs "
                 "error |\n|---|---|---:|---:|---:|---:|\n");
    for (int c = 0; c < CHK_NCLASSES; c++) {
        if (!cls[c].n) continue;
        fprintf(out, "| %s | %s |", chk_class_name((chk_class)c), chk_class_tolerance((chk_class)c));
        stats_cells(out, &cls[c], -1);
        fprintf(out, "\n");
    }
    fprintf(out, "\n## Kernel time per predicted bound\n\nThe bound is the prediction's largest term now (\"tensor\": "
                 "a kernel whose prediction rests on the tensor pipe).\n\n| bound | n | within 25%% | median abs error "
                 "| p90 abs error | within 20%% |\n|---|---:|---:|---:|---:|---:|\n");
    for (int b = 0; b < CHK_VALIDATE_NBOUNDS; b++) {
        fprintf(out, "| %s |", chk_validate_bounds[b]);
        stats_cells(out, &bnd[b], -1);
        int w20 = 0;
        for (int i = 0; i < bnd[b].n; i++) w20 += bnd[b].v[i].err <= 0.20;
        if (bnd[b].n) fprintf(out, " %d (%.0f%%) |\n", w20, 100.0 * w20 / bnd[b].n);
        else fprintf(out, " - |\n");
    }
    int unexplained = differing(out, cls);
    fprintf(out, "\n## The worst rows per class, with their cause\n");
    int worst_unexplained = 0;
    for (int c = 0; c < CHK_NCLASSES; c++) {
        if (!cls[c].n) continue;
        fprintf(out, "\n### %s\n\n| kernel | -D | metric | sim | gpu | abs error | verdict | cause |\n"
                     "|---|---|---|---:|---:|---:|---|---|\n", chk_class_name((chk_class)c));
        worst_unexplained += worst(out, &cls[c], 8);
    }
    fprintf(out, "\nUnexplained: %d of the rows that differ, %d of the worst rows listed.\n", unexplained,
            worst_unexplained);
    full_runs(out, files, docs, nfiles);
    fprintf(out, "\n## Runs not simulated here\n\n| results file | kernel | -D | why |\n|---|---|---|---|\n");
    int ns = 0;
    for (int i = 0; i < nfiles; i++)
        for (int k = 0; k < docs[i].nskips; k++, ns++)
            fprintf(out, "| %s | %s | %s | %s |\n", files[i], docs[i].skips[k].kernel, docs[i].skips[k].overrides,
                    docs[i].skips[k].why);
    if (!ns) fprintf(out, "| (none) | | | |\n");
    for (int i = 0; i < nfiles; i++)
        if (docs[i].note[0]) fprintf(out, "\nnote (%s): %s\n", files[i], docs[i].note);
}

static int plot(const char *png, vlist *bnd, ws_error *err)
{
#ifdef WS_HAVE_SDL
    int n = 0;
    for (int b = 0; b < CHK_VALIDATE_NBOUNDS; b++) n += bnd[b].n;
    viz_plot_point *p = calloc((size_t)(n ? n : 1), sizeof *p);
    if (!p) {
        ws_error_set(err, "check", 0, 0, "out of memory");
        return WS_EXIT_INTERNAL;
    }
    int k = 0;
    for (int b = 0; b < CHK_VALIDATE_NBOUNDS; b++)
        for (int i = 0; i < bnd[b].n; i++)
            p[k++] = (viz_plot_point){bnd[b].v[i].row->gpu / 1e3, bnd[b].v[i].row->sim / 1e3, b};
    char msg[512];
    int rc = viz_plot_time_png(p, k, chk_validate_bounds, "warpscope: predicted vs measured kernel time", png, 1000,
                               800, msg, sizeof msg);
    free(p);
    if (rc) {
        ws_error_set(err, png, 0, 0, "%s", msg);
        return WS_EXIT_USAGE;
    }
    return WS_EXIT_OK;
#else
    (void)bnd;
    ws_error_set(err, png, 0, 0, "this build has no visualizer (SDL2, SDL2_ttf, SDL2_image were not found at build "
                                 "time) to draw the plot; run scripts/deps.sh and rebuild");
    return WS_EXIT_USAGE;
#endif
}

int chk_validate(const char *const *files, int nfiles, const char *png, FILE *out, ws_error *err)
{
    chk_replay_doc *docs = calloc((size_t)(nfiles ? nfiles : 1), sizeof *docs);
    vlist cls[CHK_NCLASSES], bnd[CHK_VALIDATE_NBOUNDS];
    memset(cls, 0, sizeof cls);
    memset(bnd, 0, sizeof bnd);
    int rc = docs ? WS_EXIT_OK : WS_EXIT_INTERNAL, done = 0;
    if (!docs) ws_error_set(err, "check", 0, 0, "out of memory");
#ifndef WS_HAVE_SDL
    if (png && !rc) rc = plot(png, NULL, err); /* refused before minutes of replay */
#endif
    double spent = 0; /* seconds of whole simulations so far, over every file */
    chk_replay_opts o = {.timed_runs = true, .full_threads_max = CHK_VALIDATE_FULL_THREADS_MAX,
                         .full_seconds_max = CHK_VALIDATE_FULL_SECONDS, .full_seconds_spent = &spent,
                         .no_racecheck = true};
    for (int i = 0; !rc && i < nfiles; i++, done++) {
        int one = chk_replay_collect_opts(files[i], NULL, 0, &o, &docs[i], err);
        if (one && one != WS_EXIT_MISMATCH) rc = one; /* a mismatch is a finding of the report, not a failure */
    }
    for (int i = 0; !rc && i < nfiles; i++)
        for (int k = 0; k < docs[i].nruns; k++) {
            const chk_replay_run *r = &docs[i].runs[k];
            for (int j = 0; j < r->nrows; j++) {
                const chk_row *a = &r->now[j];
                if (a->verdict != CHK_AGREE && a->verdict != CHK_DIFFER) continue;
                vrow x = {&docs[i], r, a, chk_row_error(a)};
                if (push(&cls[a->cls], x) || (a->cls == CHK_TIME && push(&bnd[chk_validate_bound_of(r)], x))) {
                    rc = WS_EXIT_INTERNAL;
                    ws_error_set(err, "check", 0, 0, "out of memory");
                }
            }
        }
    if (!rc && png) rc = plot(png, bnd, err);
    if (!rc) report(out, files, docs, nfiles, png, cls, bnd);
    for (int c = 0; c < CHK_NCLASSES; c++) free(cls[c].v);
    for (int b = 0; b < CHK_VALIDATE_NBOUNDS; b++) free(bnd[b].v);
    for (int i = 0; docs && i < done; i++) chk_replay_doc_free(&docs[i]);
    free(docs);
    return rc;
}
