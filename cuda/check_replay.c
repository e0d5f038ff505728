/* check_replay.c - re-judging recorded GPU results against the simulator as built now
 * (see check_replay.h): chk_replay_collect judges into a chk_replay_doc, the layouts at the
 * end render it. The GPU's time is the recorded event-timed median, exactly as `check`
 * judged it; the other GPU values are the recorded counters. */
#include "check_replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/csv.h"
#include "../common/text.h"
#include "../sim/sample.h"
#include "../sim/models/metrics.h"

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "../common/files.h"
#include "check_compare.h"
#include "check_explain.h"
#include "check_sim.h"
#include "cu_target.h"

static const cJSON *item(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

static double num(const cJSON *o, const char *k, double dflt)
{
    const cJSON *v = item(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = item(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int parse_overrides(const char *text, ws_overrides *ov, ws_error *err)
{
    memset(ov, 0, sizeof *ov);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (ws_overrides_add(ov, tok, err)) return -1;
    return 0;
}

/* A recorded GPU time must be one: cuEventElapsedTime never gives 0 for a kernel that ran
 * (and a negative or non-finite one is damage). Returns 0, or -1 with err naming the run. */
static int check_times(const char *path, int index, const cJSON *run, ws_error *err)
{
    char kshown[WS_NAME_MAX], oshown[160];
    const char *what = NULL;
    double v = 0;
    const cJSON *med = item(item(run, "time"), "median_ms");
    if (med && (!cJSON_IsNumber(med) || !isfinite(med->valuedouble) || med->valuedouble <= 0)) {
        what = "time.median_ms";
        v = cJSON_IsNumber(med) ? med->valuedouble : NAN;
    }
    const cJSON *x;
    cJSON_ArrayForEach(x, item(run, "counters")) {
        const cJSON *g = item(x, "gpu");
        if (!what && chk_classify(str(x, "metric")) == CHK_TIME && g &&
            (!cJSON_IsNumber(g) || !isfinite(g->valuedouble) || g->valuedouble <= 0) && !cJSON_IsNull(g)) {
            what = "the gpu value of gpu__time_duration.sum";
            v = cJSON_IsNumber(g) ? g->valuedouble : NAN;
        }
    }
    if (!what) return 0;
    ws_error_set(err, path, 0, 0, "run %d (%s%s%s): %s is %g, not a measured time (an event-timed kernel takes "
                                  "more than 0 ms); the file is damaged",
                 index, ws_text_visible(str(run, "kernel"), kshown, sizeof kshown), *str(run, "overrides") ? " -D " : "",
                 ws_text_visible(str(run, "overrides"), oshown, sizeof oshown), what, v);
    return -1;
}

/* A recorded file outside the catalog: as recorded (relative to the current folder), else
 * relative to the repository, the catalog folder's parent (a corpus run replayed from elsewhere).
 * Returns the path to open in out, or NULL when it is in neither place. */
static const char *locate(const ws_catalog *cat, const char *file, char *out, size_t cap)
{
    if (!access(file, R_OK)) return file;
    if (file[0] == '/') return NULL;
    const char *slash = strrchr(cat->dir, '/');
    int n = slash ? (int)(slash - cat->dir) : 0;
    if (snprintf(out, cap, "%.*s%s%s", n, cat->dir, n ? "/" : "", file) >= (int)cap || access(out, R_OK)) return NULL;
    return out;
}

/* The recorded run's kernel: a catalog name, or (check of a description's kernel records its
 * "file" apart from the name) "file:kernel". *catalog: it was the catalog's. Returns 0, -1 with
 * err set, or 1 (err set to CHK_REPLAY_CORPUS_MISSING) when its file is a corpus file not built. */
static int open_recorded(ws_catalog *cat, const cJSON *run, const char *kernel, const ws_overrides *ov,
                         cu_target *t, bool *catalog, ws_error *err)
{
    *catalog = !cu_target_open(cat, kernel, ov, 0, 0, t, err);
    if (*catalog) return 0;
    const char *file = str(run, "file");
    char spec[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 2], where[WS_PATH_MAX];
    if (!*file || strchr(kernel, ':') || !strncmp(file, "demos/", 6)) return -1;
    const char *path = locate(cat, file, where, sizeof where);
    if (!path) {
        if (strncmp(file, "corpus/", 7)) return -1; /* cu_target_open's error names the kernel */
        ws_error_set(err, file, 0, 0, "%s", CHK_REPLAY_CORPUS_MISSING);
        return 1;
    }
    if (snprintf(spec, sizeof spec, "%s:%s", path, kernel) >= (int)sizeof spec) return -1;
    return cu_target_open(cat, spec, ov, 0, 0, t, err);
}

static bool wanted(const char *kernel, const char *const *kernels, int n)
{
    if (!n) return true;
    for (int i = 0; i < n; i++)
        if (!strcmp(kernels[i], kernel)) return true;
    return false;
}

static chk_replay_tally *tally_for(chk_replay_doc *d, const char *file)
{
    for (int i = 0; i < d->nfiles; i++)
        if (!strcmp(d->files[i].file, file)) return &d->files[i];
    if (d->nfiles >= CHK_REPLAY_MAX_FILES) return NULL;
    chk_replay_tally *f = &d->files[d->nfiles++];
    memset(f, 0, sizeof *f);
    snprintf(f->file, sizeof f->file, "%s", file);
    return f;
}

static void count(int agree[CHK_NCLASSES], int judged[CHK_NCLASSES], const chk_row *r)
{
    if (r->verdict != CHK_AGREE && r->verdict != CHK_DIFFER) return;
    judged[r->cls]++;
    if (r->verdict == CHK_AGREE) agree[r->cls]++;
}

void chk_replay_doc_free(chk_replay_doc *d)
{
    for (int i = 0; i < d->nruns; i++) {
        free(d->runs[i].now);
        free(d->runs[i].before);
    }
    free(d->runs);
    d->runs = NULL;
    d->nruns = 0;
}

/* Every kernel named has a recorded run with counters (said before anything is simulated). */
static int check_named(const char *json_path, const cJSON *runs, const char *const *kernels, int nkernels,
                       ws_error *err)
{
    for (int i = 0; i < nkernels; i++) {
        bool found = false;
        const cJSON *rr;
        cJSON_ArrayForEach(rr, runs) {
            const cJSON *ctr = item(rr, "counters");
            if (!strcmp(str(rr, "kernel"), kernels[i]) && cJSON_IsArray(ctr) && cJSON_GetArraySize(ctr)) found = true;
        }
        if (!found) {
            ws_error_set(err, json_path, 0, 0, "no recorded run with counters of kernel '%s'", kernels[i]);
            return WS_EXIT_USAGE;
        }
    }
    return WS_EXIT_OK;
}

/* An exact row judged within the cache tolerance because the sample's exact counters are
 * estimates: its cause opens with CHK_SAMPLED_ESTIMATE and how many blocks, then the mechanism
 * found for it, if any. */
static void note_estimate(chk_row *a, const ws_sample_info *si)
{
    char why[160], buf[sizeof a->cause];
    if (si->exact_exact) /* every sampled block of a kind alike, but edge kinds of one block each */
        snprintf(why, sizeof why, ": %d kind%s of edge block taken from one block each, assumed alike",
                 si->single_kinds, si->single_kinds == 1 ? "" : "s");
    else                 /* no ';' here: the sentence ends at the first one (check_explain.h) */
        snprintf(why, sizeof why, " within %.2f%%: 3 standard errors of the per-block spread%s", 100 * si->exact_bound,
                 si->single_kinds ? ", some edge kinds from one block each" : "");
    int k = snprintf(buf, sizeof buf, CHK_SAMPLED_ESTIMATE "%llu of %llu blocks (exact counters estimated%s), "
                     "judged within the cache tolerance", (unsigned long long)si->blocks_run,
                     (unsigned long long)si->blocks_total, why);
    if (a->cause[0] && k > 0 && (size_t)k + 2 < sizeof buf) /* the mechanism cut to what is left */
        snprintf(buf + k, sizeof buf - (size_t)k, "; %.*s", (int)(sizeof buf - (size_t)k - 3), a->cause);
    memcpy(a->cause, buf, sizeof buf);
}

/* Judges one recorded run's counters against today's simulator side ss: fills run's rows and
 * time, adds to the document's and its file's tallies. lp: the kernel's loops whose counts depend
 * on timing (CAS retries, waits); basis_differs: the record
 * counted the machine code and ss the PTX, so its exact rows are left out (d->left_out).
 * WS_EXIT_MISMATCH when an exact row that agreed in the record differs now, else WS_EXIT_OK
 * (WS_EXIT_INTERNAL when out of memory). */
static int judge_run(chk_replay_doc *d, chk_replay_run *run, const cJSON *ctr, const chk_sim_side *ss,
                     chk_replay_tally *tf, const chk_retry_loops *lp, bool basis_differs, ws_error *err)
{
    int n = cJSON_GetArraySize(ctr), rc = WS_EXIT_OK;
    run->now = calloc((size_t)(n ? n : 1), sizeof *run->now);
    run->before = calloc((size_t)(n ? n : 1), sizeof *run->before);
    if (!run->now || !run->before) {
        ws_error_set(err, "check", 0, 0, "out of memory");
        return WS_EXIT_INTERNAL;
    }
    bool estimate = chk_sim_exact_estimated(ss); /* the sample's exact counters are estimates */
    bool *est = calloc((size_t)(n ? n : 1), sizeof *est);
    if (!est) {
        ws_error_set(err, "check", 0, 0, "out of memory");
        return WS_EXIT_INTERNAL;
    }
    run->gpu_ns = run->recorded_ns = NAN;
    run->now_ns = ss->time_ns;
    run->time_verdict = "-";
    run->bound_now = ws_bound_name(ss->timing.bound);
    run->bound = ss->timing.bound;
    run->has_timing = ss->have_time;
    run->counted_sass = ss->sass;
    run->guess = ss->guess;
    run->timing = ss->timing;
    run->notes = ss->notes;
    run->has_dirty = ss->have_dirty;
    run->dirty_at_end_bytes = ss->dirty_at_end_bytes;
    run->has_far = ss->have_far;
    run->far_miss_sectors = ss->far_miss_sectors;
    const double *gm = chk_sim_value(ss, ws_metric_table[WS_METRIC_L1_GLD_MISS].name),
                 *lm = chk_sim_value(ss, ws_metric_table[WS_METRIC_L1_LLD_MISS].name);
    run->has_l1_miss = gm != NULL;
    run->l1_miss_sectors = (gm ? *gm : 0) + (lm ? *lm : 0);
    run->sampled = ss->sampled;
    const cJSON *x;
    cJSON_ArrayForEach(x, ctr) {
        const char *m = str(x, "metric");
        const cJSON *sv = item(x, "sim"), *gv = item(x, "gpu");
        chk_row *b = &run->before[run->nrows], *a = &run->now[run->nrows];
        run->nrows++;
        chk_row_set(b, m, cJSON_IsNumber(sv), num(x, "sim", 0), cJSON_IsNumber(gv), num(x, "gpu", 0));
        const double *nv = chk_sim_value(ss, m);
        bool time = chk_classify(m) == CHK_TIME;
        chk_row_set(a, m, time ? ss->have_time : nv != NULL, time ? ss->time_ns : (nv ? *nv : 0),
                    cJSON_IsNumber(gv), num(x, "gpu", 0));
        if (chk_sim_is_model(ss, m)) chk_row_as_model(a); /* an approximate SASS count: judged within 10% */
        chk_timing_dependent(a, 1, lp);                     /* a CAS loop's ATOMs, a wait loop's spins */
        if (basis_differs && a->cls == CHK_EXACT) {
            a->verdict = CHK_UNJUDGED;
            d->left_out++;
        }
        chk_unjudge_for_wmma(a, 1, ss->wmma_accesses);      /* as check judged it live (cmd_check.c) */
        chk_unjudge_for_wmma(b, 1, ss->wmma_accesses);
        if (estimate && a->cls == CHK_EXACT && (a->verdict == CHK_AGREE || a->verdict == CHK_DIFFER)) {
            chk_row_as_model(a); /* an estimate is not a count: judged within the cache tolerance */
            est[run->nrows - 1] = true;
            run->estimated++;
        }
        count(d->agree[0], d->judged[0], b);
        count(d->agree[1], d->judged[1], a);
        if (tf) {
            count(tf->agree[0], tf->judged[0], b);
            count(tf->agree[1], tf->judged[1], a);
        }
        if (time) {
            run->gpu_ns = a->gpu;
            run->recorded_ns = b->has_sim ? b->sim : NAN;
            run->time_verdict = chk_verdict_name(a->verdict);
        }
        if (a->cls == CHK_CACHE && (a->verdict == CHK_AGREE || a->verdict == CHK_DIFFER)) {
            run->cache_judged++;
            run->cache_agree += a->verdict == CHK_AGREE;
        }
        if (a->cls == CHK_EXACT && b->verdict == CHK_AGREE && a->verdict == CHK_DIFFER) rc = WS_EXIT_MISMATCH;
    }
    /* each row that differs now, by mechanism (no static PTX/SASS access counts here; whether the
       re-simulation counted the machine code is counted_sass) */
    const ws_device *dev = ws_device_find(d->gpu);
    chk_facts f = {.rows = run->now, .nrows = run->nrows, .has_timing = ss->have_time, .timing = ss->timing,
                   .launch_us = dev ? dev->launch_overhead_us : 0, .notes = &ss->notes,
                   .has_dirty_at_end = ss->have_dirty, .dirty_at_end_bytes = ss->dirty_at_end_bytes,
                   .has_far_miss = ss->have_far, .far_miss_sectors = ss->far_miss_sectors,
                   .has_l1_miss = run->has_l1_miss, .l1_miss_sectors = run->l1_miss_sectors,
                   .counted_sass = ss->sass, .guess = ss->sass ? &ss->guess : NULL,
                   .kernel = run->kernel, .blocks = run->blocks,
                   .coalesce_group_sms = dev && dev->l2_read_coalescing ? dev->l2_coalesce_group_sms : 0,
                   .coalesce_groups = ws_device_grid_groups(dev, run->blocks > 0 ? (uint64_t)run->blocks : 0)};
    chk_explain_rows(run->now, run->nrows, &f);
    for (int k = 0; k < run->nrows; k++)
        if (est[k]) note_estimate(&run->now[k], &ss->sample);
    free(est);
    return rc;
}

static void skip(chk_replay_doc *d, const char *kernel, const char *ovt, const char *why)
{
    if (d->nskips >= CHK_REPLAY_MAX_SKIPS) return;
    chk_replay_skip *s = &d->skips[d->nskips++];
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel);
    snprintf(s->overrides, sizeof s->overrides, "%s", ovt);
    snprintf(s->why, sizeof s->why, "%s", why);
}

/* Re-simulates one recorded run (its kernel, -D text and registers) into a new element of d->runs;
 * a run without counters (o->timed_runs) is judged on its time alone, simulated sampled; a run
 * recorded by check --no-sim (counters with the GPU's values alone) is simulated sampled too and
 * judged on every recorded row (its exact rows within the cache tolerance where the sample's
 * exact counters are estimates). Either falls back to every block where sampling is refused. */
static int replay_run(chk_replay_doc *d, ws_catalog *cat, const cJSON *run, const chk_replay_opts *o,
                      chk_sim_side *ss, int *cap, ws_error *err)
{
    const char *kernel = str(run, "kernel"), *ovt = str(run, "overrides");
    ws_overrides ov;
    cu_target t;
    bool catalog = false;
    if (parse_overrides(ovt, &ov, err)) return WS_EXIT_USAGE;
    int opened = open_recorded(cat, run, kernel, &ov, &t, &catalog, err);
    if (opened == 1) { /* a corpus not built here: listed, not a failure (CI has no corpus) */
        skip(d, kernel, ovt, CHK_REPLAY_CORPUS_MISSING);
        return WS_EXIT_OK;
    }
    if (opened) return WS_EXIT_USAGE;
    const cJSON *counters = item(run, "counters");
    cJSON *timed = NULL;       /* the time row of a run recorded without counters */
    ws_sample_mode mode = WS_SAMPLE_OFF;
    const char *refusal = NULL;
    double threads = (double)ws_launch_blocks(&t.launch) * (double)ws_launch_threads_per_block(&t.launch);
    bool has_ctr = cJSON_IsArray(counters) && cJSON_GetArraySize(counters);
    bool no_sim = has_ctr && cJSON_IsTrue(item(run, "no_sim")); /* check --no-sim: nothing was simulated */
    if (!has_ctr || no_sim) { /* nothing simulated at record time (a size too large to): sampled here */
        refusal = ws_sample_refusal(t.module, t.fn, &t.launch);
        double spent = o->full_seconds_spent ? *o->full_seconds_spent : 0;
        bool over_threads = o->full_threads_max > 0 && threads > o->full_threads_max;
        bool over_budget = o->full_seconds_max > 0 && spent >= o->full_seconds_max;
        if (refusal && (over_threads || over_budget)) {
            char why[200];
            if (over_threads)
                snprintf(why, sizeof why, "%.0f threads that cannot be sampled (%.120s): a whole simulation takes "
                         "minutes", threads, refusal);
            else
                snprintf(why, sizeof why, "cannot be sampled (%.100s); the budget of %.0f s for whole simulations "
                         "was spent (%.0f s)", refusal, o->full_seconds_max, spent);
            skip(d, kernel, ovt, why);
            cu_target_close(&t);
            return WS_EXIT_OK;
        }
        mode = WS_SAMPLE_ON;
    }
    if (!has_ctr) {
        timed = cJSON_CreateArray();
        cJSON *x = cJSON_CreateObject();
        if (!timed || !x) {
            cJSON_Delete(timed);
            cJSON_Delete(x);
            cu_target_close(&t);
            ws_error_set(err, "check", 0, 0, "out of memory");
            return WS_EXIT_INTERNAL;
        }
        cJSON_AddStringToObject(x, "metric", ws_metric_table[WS_METRIC_GPU_TIME].name);
        cJSON_AddNumberToObject(x, "gpu", num(item(run, "time"), "median_ms", 0) * 1e6); /* ns, as recorded */
        cJSON_AddItemToArray(timed, x);
        counters = timed;
    }
    cu_kernel_attrs attrs;
    memset(&attrs, 0, sizeof attrs);
    attrs.num_regs = (int)num(run, "registers", 0);
    attrs.local_bytes = (int)num(run, "local_bytes", 0);
    attrs.static_shared_bytes = (int)num(run, "static_shared_bytes", 0);
    if (d->nruns == *cap) {
        chk_replay_run *nr = realloc(d->runs, (size_t)(*cap = *cap ? 2 * *cap : 64) * sizeof *nr);
        if (!nr) {
            cu_target_close(&t);
            cJSON_Delete(timed);
            ws_error_set(err, "check", 0, 0, "out of memory");
            return WS_EXIT_INTERNAL;
        }
        d->runs = nr;
    }
    chk_replay_run *r = &d->runs[d->nruns++];
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->overrides, sizeof r->overrides, "%s", ovt);
    snprintf(r->compiler, sizeof r->compiler, "%s", t.ptx_how);
    snprintf(r->file, sizeof r->file, "%s", t.file->path);
    r->catalog = catalog;
    r->threads = threads;
    r->blocks = (double)ws_launch_blocks(&t.launch);
    ws_sim_result res;
    memset(&res, 0, sizeof res);
    r->timed_only = timed != NULL;
    r->no_sim = no_sim;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int src = chk_simulate_sampled(&t, &attrs, d->gpu, mode, !o->no_racecheck, &res, ss, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->sim_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if ((timed || no_sim) && refusal) { /* run on every block: its cost counts against the budget */
        r->full_unsampled = true;
        snprintf(r->full_why, sizeof r->full_why, "%s", refusal);
        if (o->full_seconds_spent) *o->full_seconds_spent += r->sim_seconds;
    }
    chk_replay_tally *tf = tally_for(d, t.file->path);
    chk_retry_loops lp = chk_retry_loops_of(t.fn);
    cu_target_close(&t);
    if (src) {
        cJSON_Delete(timed);
        if ((!timed && !no_sim) || (ss->stop != WS_SIM_FAULT && ss->stop != WS_SIM_REFUSED)) return src;
        /* recorded on its time alone (check --gpu-only) or with --no-sim: the GPU ran it without its output
         * judged, and the simulator refuses it (a race, an access out of bounds, a launch its instruction
         * budget cannot finish): listed with the reason, not simulated */
        d->nruns--;
        char why[480];
        snprintf(why, sizeof why, "the simulator refuses it: %.440s", err->msg);
        skip(d, kernel, ovt, why);
        return WS_EXIT_OK;
    }
    ws_sim_result_free(&res);
    /* A record whose simulator counted the machine code (ptxas + nvdisasm; records made before
     * "sim_basis" was written were, where check ran with the toolkit) cannot be reproduced at
     * PTX level: its exact rows are left out rather than called differing. A --no-sim record has
     * no simulator values and no basis: its GPU counts are judged against today's, as check would. */
    bool basis_differs = strcmp(str(run, "sim_basis"), "ptx") && !ss->sass;
    if (basis_differs && !d->level[0]) snprintf(d->level, sizeof d->level, "%s", ss->level);
    int left_before = d->left_out;
    int rc = judge_run(d, r, counters, ss, tf, &lp, basis_differs && !timed && !no_sim, err);
    d->left_runs += d->left_out > left_before;
    cJSON_Delete(timed);
    return rc;
}

int chk_replay_collect(const char *json_path, const char *const *kernels, int nkernels, bool verbose,
                       chk_replay_doc *d, ws_error *err)
{
    chk_replay_opts o = {.verbose = verbose};
    return chk_replay_collect_opts(json_path, kernels, nkernels, &o, d, err);
}

int chk_replay_collect_opts(const char *json_path, const char *const *kernels, int nkernels, const chk_replay_opts *o,
                            chk_replay_doc *d, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->results_file = json_path;
    d->verbose = o->verbose;
    char *text = ws_read_file(json_path, 0, NULL, err);
    if (!text) return WS_EXIT_USAGE;
    cJSON *root = cJSON_Parse(text);
    free(text);
    const cJSON *runs = root ? item(root, "runs") : NULL;
    if (!cJSON_IsArray(runs)) {
        cJSON_Delete(root);
        ws_error_set(err, json_path, 0, 0, "not a warpscope results file (no \"runs\" array)");
        return WS_EXIT_USAGE;
    }
    snprintf(d->gpu, sizeof d->gpu, "%s", str(item(root, "device"), "name"));
    ws_catalog *cat = NULL;
    int rc = check_named(json_path, runs, kernels, nkernels, err);
    int index = 0;
    const cJSON *rr;
    cJSON_ArrayForEach(rr, runs) {
        index++;
        if (!rc && wanted(str(rr, "kernel"), kernels, nkernels) && check_times(json_path, index, rr, err))
            rc = WS_EXIT_USAGE;
    }
    if (rc || ws_catalog_load(NULL, &cat, err)) {
        cJSON_Delete(root);
        return WS_EXIT_USAGE;
    }
    chk_sim_side *ss = calloc(1, sizeof *ss);
    if (!ss) {
        rc = WS_EXIT_INTERNAL;
        ws_error_set(err, "check", 0, 0, "out of memory");
    }
    int cap = 0;
    const cJSON *run;
    cJSON_ArrayForEach(run, runs) {
        const cJSON *ctr = item(run, "counters");
        bool has_ctr = cJSON_IsArray(ctr) && cJSON_GetArraySize(ctr);
        bool timed = o->timed_runs && cJSON_IsNumber(item(item(run, "time"), "median_ms"));
        if (!ss || !wanted(str(run, "kernel"), kernels, nkernels) || (!has_ctr && !timed)) continue;
        int one = replay_run(d, cat, run, o, ss, &cap, err);
        if (one && one != WS_EXIT_MISMATCH) {
            rc = one;
            break;
        }
        if (one) rc = one;
    }
    if ((rc == WS_EXIT_OK || rc == WS_EXIT_MISMATCH) && nkernels && !d->nruns) {
        ws_error_set(err, json_path, 0, 0, "no recorded run with counters for the kernels named");
        rc = WS_EXIT_USAGE;
    }
    if (d->left_out)
        snprintf(d->note, sizeof d->note, "%d exact rows of %d runs left out: the record counted the machine code "
                                          "(SASS) and this replay counts the PTX (%.400s)", d->left_out, d->left_runs,
                 d->level);
    free(ss);
    ws_catalog_free(cat);
    cJSON_Delete(root);
    return rc;
}

/* ---- layouts ------------------------------------------------------------------------------ */

static void rate(FILE *out, int a, int j)
{
    if (j) fprintf(out, " %d/%d (%.0f%%) |", a, j, 100.0 * a / j);
    else fprintf(out, " - |");
}

/* The rows the markdown's last table lists: those that differ now, or with verbose every judged one. */
static bool listed(const chk_replay_doc *d, const chk_row *a)
{
    bool keep = d->verbose ? (a->verdict == CHK_AGREE || a->verdict == CHK_DIFFER) : a->verdict == CHK_DIFFER;
    return keep && (a->cls == CHK_CACHE || a->cls == CHK_TIME || a->cls == CHK_EXACT || d->verbose);
}

static int replay_markdown(FILE *out, const void *body, ws_part part)
{
    (void)part;
    const chk_replay_doc *d = body;
    fprintf(out, "replay of %s: the simulator as built now against the recorded %s values\n\n", d->results_file, d->gpu);
    fprintf(out, "| kernel | -D | GPU us | sim us recorded | sim us now | GPU/now | time | bound now | cache agree now |\n"
                 "|---|---|---:|---:|---:|---:|---|---|---:|\n");
    for (int i = 0; i < d->nruns; i++) {
        const chk_replay_run *r = &d->runs[i];
        char t[4][32]; /* a run recorded without a time (counters alone) shows "-", not nan */
        double v[4] = {r->gpu_ns / 1e3, r->recorded_ns / 1e3, r->now_ns / 1e3, r->gpu_ns / r->now_ns};
        for (int k = 0; k < 4; k++)
            if (isnan(v[k])) snprintf(t[k], sizeof t[k], "-");
            else snprintf(t[k], sizeof t[k], k < 3 ? "%.2f" : "%.3f", v[k]);
        fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d |\n", r->kernel, r->overrides, t[0], t[1], t[2],
                t[3], r->time_verdict, r->bound_now, r->cache_agree, r->cache_judged);
    }
    if (d->note[0]) fprintf(out, "\nnote: %s\n", d->note);
    fprintf(out, "\n## Agreement per class (%d runs)\n\n| class | tolerance | recorded | now |\n|---|---|---:|---:|\n",
            d->nruns);
    for (int c = 0; c < CHK_NCLASSES; c++) {
        if (!d->judged[0][c] && !d->judged[1][c]) continue;
        fprintf(out, "| %s | %s |", chk_class_name((chk_class)c), chk_class_tolerance((chk_class)c));
        rate(out, d->agree[0][c], d->judged[0][c]);
        rate(out, d->agree[1][c], d->judged[1][c]);
        fprintf(out, "\n");
    }
    fprintf(out, "\n## Agreement per catalog file (time; cache)\n\n| file | time recorded | time now | cache recorded "
                 "| cache now |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < d->nfiles; i++) {
        const chk_replay_tally *f = &d->files[i];
        fprintf(out, "| %s |", f->file);
        rate(out, f->agree[0][CHK_TIME], f->judged[0][CHK_TIME]);
        rate(out, f->agree[1][CHK_TIME], f->judged[1][CHK_TIME]);
        rate(out, f->agree[0][CHK_CACHE], f->judged[0][CHK_CACHE]);
        rate(out, f->agree[1][CHK_CACHE], f->judged[1][CHK_CACHE]);
        fprintf(out, "\n");
    }
    fprintf(out, "\n## %s\n\n| kernel | -D | metric | class | sim recorded | sim now | gpu | gpu/now | verdict | cause |\n"
                 "|---|---|---|---|---:|---:|---:|---:|---|---|\n",
            d->verbose ? "Every judged row" : "Every row that differs now");
    for (int i = 0; i < d->nruns; i++) {
        const chk_replay_run *r = &d->runs[i];
        for (int k = 0; k < r->nrows; k++) {
            const chk_row *a = &r->now[k], *b = &r->before[k];
            if (!listed(d, a)) continue;
            char bs[32] = "-";
            if (b->has_sim) snprintf(bs, sizeof bs, "%.6g", b->sim);
            fprintf(out, "| %s | %s | `%s` | %s | %s | %.6g | %.6g | %.3f | %s | %s |\n", r->kernel, r->overrides,
                    a->metric, chk_class_name(a->cls), bs, a->sim, a->gpu, a->ratio, chk_verdict_name(a->verdict),
                    chk_shown_cause(a));
        }
    }
    return 0;
}

const char *chk_verdict_csv(chk_verdict v)
{
    static const char *const n[] = {[CHK_AGREE] = "agree", [CHK_DIFFER] = "differs", [CHK_MISSING] = "missing",
                                    [CHK_UNJUDGED] = "unjudged"};
    return v <= CHK_UNJUDGED ? n[v] : "";
}

/* One long-format record (docs/csv.md); a time is converted from the file's ns to us. */
static void csv_value(FILE *f, const char *kernel, const char *ovt, const char *metric, double v, const char *basis,
                      chk_verdict verdict, const char *cause)
{
    char val[40];
    bool time = chk_classify(metric) == CHK_TIME;
    snprintf(val, sizeof val, "%.15g", time ? v / 1e3 : v);
    const char *fields[] = {kernel, ovt, "kernel", "", metric, ws_metric_unit(metric), val, basis,
                            chk_verdict_csv(verdict), cause};
    ws_csv_row(f, WS_CSV_NCOLUMNS, fields);
}

static int replay_csv(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const chk_replay_doc *d = body;
    fputs(WS_CSV_HEADER, f);
    for (int i = 0; i < d->nruns; i++) {
        const chk_replay_run *r = &d->runs[i];
        for (int k = 0; k < r->nrows; k++) {
            const chk_row *a = &r->now[k];
            /* both records of a metric carry today's verdict, so either can be filtered on; the
               simulator's record of a differing row carries its cause */
            if (a->has_gpu) csv_value(f, r->kernel, r->overrides, a->metric, a->gpu, "measured", a->verdict, "");
            if (a->has_sim)
                csv_value(f, r->kernel, r->overrides, a->metric, a->sim, chk_class_name(a->cls), a->verdict,
                          chk_shown_cause(a));
        }
    }
    return 0;
}

static void add_value(cJSON *j, const char *key, bool has, double v)
{
    if (has) cJSON_AddNumberToObject(j, key, v);
    else cJSON_AddNullToObject(j, key);
}

static int replay_json(cJSON *o, const void *body)
{
    const chk_replay_doc *d = body;
    cJSON_AddStringToObject(o, "results_file", d->results_file);
    cJSON *jruns = cJSON_AddArrayToObject(o, "runs");
    for (int i = 0; i < d->nruns; i++) {
        const chk_replay_run *r = &d->runs[i];
        cJSON *jr = cJSON_CreateObject();
        cJSON_AddStringToObject(jr, "kernel", r->kernel);
        cJSON_AddStringToObject(jr, "overrides", r->overrides);
        cJSON_AddStringToObject(jr, "compiler", r->compiler);
        cJSON *jrows = cJSON_AddArrayToObject(jr, "metrics");
        cJSON_AddItemToArray(jruns, jr);
        for (int k = 0; k < r->nrows; k++) {
            const chk_row *a = &r->now[k], *b = &r->before[k];
            cJSON *j = cJSON_CreateObject();
            bool tm = a->cls == CHK_TIME; /* time in us, as in every warpscope output */
            cJSON_AddStringToObject(j, "metric", a->metric);
            cJSON_AddStringToObject(j, "unit", ws_metric_unit(a->metric));
            cJSON_AddStringToObject(j, "class", chk_class_name(a->cls));
            add_value(j, "sim_recorded", b->has_sim, tm ? b->sim / 1e3 : b->sim);
            add_value(j, "sim_now", a->has_sim, tm ? a->sim / 1e3 : a->sim);
            add_value(j, "gpu", a->has_gpu, tm ? a->gpu / 1e3 : a->gpu);
            cJSON_AddStringToObject(j, "verdict", chk_verdict_name(a->verdict));
            if (chk_shown_cause(a)[0]) cJSON_AddStringToObject(j, "cause", chk_shown_cause(a));
            cJSON_AddItemToArray(jrows, j);
        }
    }
    if (d->note[0]) cJSON_AddStringToObject(o, "note", d->note);
    cJSON *dj = cJSON_AddObjectToObject(o, "device");
    cJSON_AddStringToObject(dj, "name", d->gpu);
    return 0;
}

const ws_doc_kind chk_replay_kind = {
    .command = "check --replay", .markdown = replay_markdown, .csv = replay_csv, .json = replay_json,
};

int chk_replay_as(const char *json_path, const char *const *kernels, int nkernels, bool verbose, ws_format fmt,
                  FILE *out, ws_error *err)
{
    chk_replay_doc d;
    int rc = chk_replay_collect(json_path, kernels, nkernels, verbose, &d, err);
    if ((rc == WS_EXIT_OK || rc == WS_EXIT_MISMATCH) && ws_emit(out, fmt, &(ws_doc){&chk_replay_kind, &d})) {
        ws_error_set(err, "check", 0, 0, "cannot render the replay as %s", ws_format_name(fmt));
        rc = WS_EXIT_INTERNAL;
    } else if (d.note[0] && fmt != WS_FMT_MARKDOWN && fmt != WS_FMT_JSON) {
        fprintf(stderr, "warpscope: check --replay: note: %s\n", d.note); /* the CSV has no place for it */
    }
    chk_replay_doc_free(&d);
    return rc;
}

int chk_replay(const char *json_path, const char *const *kernels, int nkernels, bool verbose, FILE *out,
               ws_error *err)
{
    return chk_replay_as(json_path, kernels, nkernels, verbose, WS_FMT_MARKDOWN, out, err);
}
