/* check_replay.c - re-judging recorded GPU results against the simulator as built now
 * (see check_replay.h). The GPU's time is the recorded event-timed median, exactly as
 * `check` judged it; the other GPU values are the recorded counters. */
#include "check_replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/cli.h"
#include "../common/csv.h"
#include "../common/text.h"
#include "../sim/casloop.h"
#include "../sim/report.h"

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/files.h"
#include "check_compare.h"
#include "check_sim.h"
#include "cu_target.h"

#define MAX_FILES 32

typedef struct {
    char file[WS_PATH_MAX];
    int agree[2][CHK_NCLASSES], judged[2][CHK_NCLASSES]; /* [0] recorded, [1] now */
} file_tally;

typedef struct {
    char kernel[WS_KERNEL_NAME_MAX], overrides[128];
    chk_row now;
    double before;
    bool had_before;
} diff_row;

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

/* The recorded run's kernel: a catalog name, or (check of a description's kernel records its
 * "file" apart from the name) "file:kernel". */
static int open_recorded(ws_catalog *cat, const cJSON *run, const char *kernel, const ws_overrides *ov,
                         cu_target *t, ws_error *err)
{
    if (!cu_target_open(cat, kernel, ov, 0, 0, t, err)) return 0;
    const char *file = str(run, "file");
    char spec[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 2];
    if (!*file || strchr(kernel, ':') || !strncmp(file, "demos/", 6) ||
        snprintf(spec, sizeof spec, "%s:%s", file, kernel) >= (int)sizeof spec)
        return -1;
    return cu_target_open(cat, spec, ov, 0, 0, t, err);
}

static bool wanted(const char *kernel, const char *const *kernels, int n)
{
    if (!n) return true;
    for (int i = 0; i < n; i++)
        if (!strcmp(kernels[i], kernel)) return true;
    return false;
}

static file_tally *tally_for(file_tally *ft, int *nft, const char *file)
{
    for (int i = 0; i < *nft; i++)
        if (!strcmp(ft[i].file, file)) return &ft[i];
    if (*nft >= MAX_FILES) return NULL;
    file_tally *f = &ft[(*nft)++];
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

static void rate(FILE *out, int a, int j)
{
    if (j) fprintf(out, " %d/%d (%.0f%%) |", a, j, 100.0 * a / j);
    else fprintf(out, " - |");
}

int chk_replay(const char *json_path, const char *const *kernels, int nkernels, bool verbose, FILE *out,
               ws_error *err)
{
    return chk_replay_as(json_path, kernels, nkernels, verbose, CHK_REPLAY_MARKDOWN, out, err);
}

/* One long-format record (docs/csv.md); a time is converted from the file's ns to us. */
static void csv_value(FILE *f, const char *kernel, const char *ovt, const char *metric, double v, const char *basis)
{
    char val[40];
    bool time = chk_classify(metric) == CHK_TIME;
    snprintf(val, sizeof val, "%.15g", time ? v / 1e3 : v);
    const char *fields[] = {kernel, ovt, "kernel", "", metric, ws_metric_unit(metric), val, basis};
    ws_csv_row(f, 8, fields);
}

int chk_replay_as(const char *json_path, const char *const *kernels, int nkernels, bool verbose, chk_replay_format fmt,
                  FILE *csv_out, ws_error *err)
{
    /* CSV: the markdown tables go nowhere and each judged value becomes a record */
    FILE *csv = fmt == CHK_REPLAY_CSV ? csv_out : NULL;
    /* JSON: likewise, and the judged rows are gathered into one versioned document */
    FILE *jout = fmt == CHK_REPLAY_JSON ? csv_out : NULL;
    cJSON *jdoc = NULL, *jruns = NULL;
    if (jout) {
        jdoc = cJSON_CreateObject();
        cJSON_AddNumberToObject(jdoc, "schema_version", WS_REPORT_SCHEMA_VERSION);
        cJSON *tool = cJSON_AddObjectToObject(jdoc, "tool");
        cJSON_AddStringToObject(tool, "name", "warpscope");
        cJSON_AddStringToObject(tool, "version", WS_VERSION);
        cJSON_AddStringToObject(jdoc, "command", "check --replay");
        cJSON_AddStringToObject(jdoc, "results_file", json_path);
        jruns = cJSON_AddArrayToObject(jdoc, "runs");
        csv = NULL;
    }
    FILE *out = csv || jout ? fopen("/dev/null", "w") : csv_out;
    if (!out) {
        ws_error_set(err, "/dev/null", 0, 0, "cannot open for writing");
        return WS_EXIT_INTERNAL;
    }
    char *text = ws_read_file(json_path, 0, NULL, err);
    if (!text) {
        if (csv || jout) fclose(out), cJSON_Delete(jdoc);
        return WS_EXIT_USAGE;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    const cJSON *runs = root ? item(root, "runs") : NULL;
    if (!cJSON_IsArray(runs)) {
        cJSON_Delete(root);
        ws_error_set(err, json_path, 0, 0, "not a warpscope results file (no \"runs\" array)");
        if (csv || jout) fclose(out), cJSON_Delete(jdoc);
        return WS_EXIT_USAGE;
    }
    const char *gpu_name = str(item(root, "device"), "name");
    for (int i = 0; i < nkernels; i++) { /* name a kernel the file lacks before printing anything */
        bool found = false;
        const cJSON *rr;
        cJSON_ArrayForEach(rr, runs) {
            const cJSON *ctr = item(rr, "counters");
            if (!strcmp(str(rr, "kernel"), kernels[i]) && cJSON_IsArray(ctr) && cJSON_GetArraySize(ctr)) found = true;
        }
        if (!found) {
            ws_error_set(err, json_path, 0, 0, "no recorded run with counters of kernel '%s'", kernels[i]);
            cJSON_Delete(root);
            if (csv || jout) fclose(out), cJSON_Delete(jdoc);
            return WS_EXIT_USAGE;
        }
    }
    {
        int index = 0;
        const cJSON *rr;
        cJSON_ArrayForEach(rr, runs) {
            index++;
            if (wanted(str(rr, "kernel"), kernels, nkernels) && check_times(json_path, index, rr, err)) {
                cJSON_Delete(root);
                if (csv || jout) fclose(out), cJSON_Delete(jdoc);
                return WS_EXIT_USAGE;
            }
        }
    }
    ws_catalog *cat = NULL;
    if (ws_catalog_load(NULL, &cat, err)) {
        cJSON_Delete(root);
        if (csv || jout) fclose(out), cJSON_Delete(jdoc);
        return WS_EXIT_USAGE;
    }
    chk_sim_side *ss = calloc(1, sizeof *ss);
    int ndiff = 0, capdiff = 256;
    diff_row *diffs = malloc((size_t)capdiff * sizeof *diffs);
    file_tally ft[MAX_FILES];
    int nft = 0, rc = WS_EXIT_OK, replayed = 0;
    int left_out = 0, left_runs = 0;     /* exact rows of machine-code records this PTX-level replay cannot judge */
    char level[400] = "";
    int agree[2][CHK_NCLASSES] = {{0}}, judged[2][CHK_NCLASSES] = {{0}};
    if (!ss || !diffs) {
        rc = WS_EXIT_INTERNAL;
        ws_error_set(err, "check", 0, 0, "out of memory");
        goto out;
    }
    if (csv) fputs(WS_CSV_HEADER, csv);
    fprintf(out, "replay of %s: the simulator as built now against the recorded %s values\n\n", json_path, gpu_name);
    fprintf(out, "| kernel | -D | GPU us | sim us recorded | sim us now | GPU/now | time | bound now | cache agree now |\n"
                 "|---|---|---:|---:|---:|---:|---|---|---:|\n");
    const cJSON *run;
    cJSON_ArrayForEach(run, runs) {
        const char *kernel = str(run, "kernel"), *ovt = str(run, "overrides");
        const cJSON *ctr = item(run, "counters");
        if (!wanted(kernel, kernels, nkernels) || !cJSON_IsArray(ctr) || !cJSON_GetArraySize(ctr)) continue;
        ws_overrides ov;
        cu_target t;
        if (parse_overrides(ovt, &ov, err) || open_recorded(cat, run, kernel, &ov, &t, err)) {
            rc = WS_EXIT_USAGE;
            goto out;
        }
        cu_kernel_attrs attrs;
        memset(&attrs, 0, sizeof attrs);
        attrs.num_regs = (int)num(run, "registers", 0);
        attrs.local_bytes = (int)num(run, "local_bytes", 0);
        attrs.static_shared_bytes = (int)num(run, "static_shared_bytes", 0);
        ws_sim_result res;
        memset(&res, 0, sizeof res);
        char ptx_how[sizeof t.ptx_how];
        snprintf(ptx_how, sizeof ptx_how, "%s", t.ptx_how);
        int src = chk_simulate(&t, &attrs, gpu_name, &res, ss, err);
        file_tally *tf = tally_for(ft, &nft, t.file->path);
        int cas_pcs[64], ncas = ws_cas_loops(t.fn, cas_pcs, 64), ncas_g = 0, ncas_s = 0; /* sim/casloop.h */
        for (int i = 0; i < ncas && i < 64; i++) {
            if (t.fn->insns[cas_pcs[i]].space == PTX_SPACE_SHARED) ncas_s++;
            else ncas_g++;
        }
        cu_target_close(&t);
        if (src) {
            rc = src;
            goto out;
        }
        ws_sim_result_free(&res);
        replayed++;
        /* A record whose simulator counted the machine code (ptxas + nvdisasm; records made before
         * "sim_basis" was written were, where check ran with the toolkit) cannot be reproduced at
         * PTX level: its exact rows are left out rather than called differing. */
        bool basis_differs = strcmp(str(run, "sim_basis"), "ptx") && !ss->sass;
        if (basis_differs && !level[0]) snprintf(level, sizeof level, "%s", ss->level);
        int left_before = left_out;
        cJSON *jrows = NULL;
        if (jruns) {
            cJSON *jr = cJSON_CreateObject();
            cJSON_AddStringToObject(jr, "kernel", kernel);
            cJSON_AddStringToObject(jr, "overrides", ovt);
            cJSON_AddStringToObject(jr, "compiler", ptx_how);
            jrows = cJSON_AddArrayToObject(jr, "metrics");
            cJSON_AddItemToArray(jruns, jr);
        }
        double gpu_t = NAN, rec_t = NAN;
        const char *tverdict = "-";
        int cache_ag = 0, cache_ju = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, ctr) {
            const char *m = str(x, "metric");
            const cJSON *sv = item(x, "sim"), *gv = item(x, "gpu");
            chk_row b, a;
            chk_row_set(&b, m, cJSON_IsNumber(sv), num(x, "sim", 0), cJSON_IsNumber(gv), num(x, "gpu", 0));
            const double *nv = chk_sim_value(ss, m);
            bool time = chk_classify(m) == CHK_TIME;
            chk_row_set(&a, m, time ? ss->have_time : nv != NULL, time ? ss->time_ns : (nv ? *nv : 0),
                        cJSON_IsNumber(gv), num(x, "gpu", 0));
            chk_timing_dependent_for_cas(&a, 1, ncas_g, ncas_s); /* a CAS loop's ATOM count depends on timing */
            if (basis_differs && a.cls == CHK_EXACT) {
                a.verdict = CHK_UNJUDGED;
                left_out++;
            }
            if (csv && a.has_gpu) csv_value(csv, kernel, ovt, m, a.gpu, "measured");
            if (csv && a.has_sim) csv_value(csv, kernel, ovt, m, a.sim, chk_class_name(a.cls));
            if (jrows) {
                cJSON *j = cJSON_CreateObject();
                bool tm = a.cls == CHK_TIME; /* time in us, as in every warpscope output */
                cJSON_AddStringToObject(j, "metric", m);
                cJSON_AddStringToObject(j, "unit", ws_metric_unit(m));
                cJSON_AddStringToObject(j, "class", chk_class_name(a.cls));
                if (b.has_sim) cJSON_AddNumberToObject(j, "sim_recorded", tm ? b.sim / 1e3 : b.sim);
                else cJSON_AddNullToObject(j, "sim_recorded");
                if (a.has_sim) cJSON_AddNumberToObject(j, "sim_now", tm ? a.sim / 1e3 : a.sim);
                else cJSON_AddNullToObject(j, "sim_now");
                if (a.has_gpu) cJSON_AddNumberToObject(j, "gpu", tm ? a.gpu / 1e3 : a.gpu);
                else cJSON_AddNullToObject(j, "gpu");
                cJSON_AddStringToObject(j, "verdict", chk_verdict_name(a.verdict));
                cJSON_AddItemToArray(jrows, j);
            }
            count(agree[0], judged[0], &b);
            count(agree[1], judged[1], &a);
            if (tf) {
                count(tf->agree[0], tf->judged[0], &b);
                count(tf->agree[1], tf->judged[1], &a);
            }
            if (time) {
                gpu_t = a.gpu;
                rec_t = b.has_sim ? b.sim : NAN;
                tverdict = chk_verdict_name(a.verdict);
            }
            if (a.cls == CHK_CACHE && (a.verdict == CHK_AGREE || a.verdict == CHK_DIFFER)) {
                cache_ju++;
                cache_ag += a.verdict == CHK_AGREE;
            }
            if (a.cls == CHK_EXACT && b.verdict == CHK_AGREE && a.verdict == CHK_DIFFER) rc = WS_EXIT_MISMATCH;
            bool keep = verbose ? (a.verdict == CHK_AGREE || a.verdict == CHK_DIFFER) : a.verdict == CHK_DIFFER;
            if (keep && (a.cls == CHK_CACHE || a.cls == CHK_TIME || a.cls == CHK_EXACT || verbose)) {
                if (ndiff == capdiff) {
                    diff_row *nd = realloc(diffs, (size_t)(capdiff *= 2) * sizeof *diffs);
                    if (!nd) {
                        rc = WS_EXIT_INTERNAL;
                        ws_error_set(err, "check", 0, 0, "out of memory");
                        goto out;
                    }
                    diffs = nd;
                }
                diff_row *d = &diffs[ndiff++];
                snprintf(d->kernel, sizeof d->kernel, "%s", kernel);
                snprintf(d->overrides, sizeof d->overrides, "%s", ovt);
                d->now = a;
                d->before = b.sim;
                d->had_before = b.has_sim;
            }
        }
        left_runs += left_out > left_before;
        fprintf(out, "| %s | %s | %.2f | %.2f | %.2f | %.3f | %s | %s | %d/%d |\n", kernel, ovt, gpu_t / 1e3,
                rec_t / 1e3, ss->time_ns / 1e3, gpu_t / ss->time_ns, tverdict, ws_bound_name(ss->timing.bound),
                cache_ag, cache_ju);
    }
    if (nkernels && !replayed) {
        ws_error_set(err, json_path, 0, 0, "no recorded run with counters for the kernels named");
        rc = WS_EXIT_USAGE;
        goto out;
    }

    char note[700] = "";
    if (left_out)
        snprintf(note, sizeof note, "%d exact rows of %d runs left out: the record counted the machine code (SASS) "
                                    "and this replay counts the PTX (%.400s)", left_out, left_runs, level);
    if (note[0]) {
        fprintf(out, "\nnote: %s\n", note);
        if (csv) fprintf(stderr, "warpscope: check --replay: note: %s\n", note);
        if (jdoc) cJSON_AddStringToObject(jdoc, "note", note);
    }
    fprintf(out, "\n## Agreement per class (%d runs)\n\n| class | tolerance | recorded | now |\n|---|---|---:|---:|\n",
            replayed);
    for (int c = 0; c < CHK_NCLASSES; c++) {
        if (!judged[0][c] && !judged[1][c]) continue;
        fprintf(out, "| %s | %s |", chk_class_name((chk_class)c), chk_class_tolerance((chk_class)c));
        rate(out, agree[0][c], judged[0][c]);
        rate(out, agree[1][c], judged[1][c]);
        fprintf(out, "\n");
    }
    fprintf(out, "\n## Agreement per catalog file (time; cache)\n\n| file | time recorded | time now | cache recorded "
                 "| cache now |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < nft; i++) {
        fprintf(out, "| %s |", ft[i].file);
        rate(out, ft[i].agree[0][CHK_TIME], ft[i].judged[0][CHK_TIME]);
        rate(out, ft[i].agree[1][CHK_TIME], ft[i].judged[1][CHK_TIME]);
        rate(out, ft[i].agree[0][CHK_CACHE], ft[i].judged[0][CHK_CACHE]);
        rate(out, ft[i].agree[1][CHK_CACHE], ft[i].judged[1][CHK_CACHE]);
        fprintf(out, "\n");
    }
    fprintf(out, "\n## %s\n\n| kernel | -D | metric | class | sim recorded | sim now | gpu | gpu/now | verdict |\n"
                 "|---|---|---|---|---:|---:|---:|---:|---|\n",
            verbose ? "Every judged row" : "Every row that differs now");
    for (int i = 0; i < ndiff; i++) {
        const diff_row *d = &diffs[i];
        char bs[32] = "-";
        if (d->had_before) snprintf(bs, sizeof bs, "%.6g", d->before);
        fprintf(out, "| %s | %s | `%s` | %s | %s | %.6g | %.6g | %.3f | %s |\n", d->kernel, d->overrides, d->now.metric,
                chk_class_name(d->now.cls), bs, d->now.sim, d->now.gpu, d->now.ratio, chk_verdict_name(d->now.verdict));
    }
    if (jdoc) {
        cJSON *dj = cJSON_AddObjectToObject(jdoc, "device");
        cJSON_AddStringToObject(dj, "name", gpu_name);
        char *t = ws_json_print(jdoc);
        if (t) fprintf(jout, "%s\n", t);
        else rc = WS_EXIT_INTERNAL;
        free(t);
    }
out:
    if (csv || jout) fclose(out), cJSON_Delete(jdoc);
    free(diffs);
    free(ss);
    ws_catalog_free(cat);
    cJSON_Delete(root);
    return rc;
}
