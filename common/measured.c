/* measured.c - recorded GPU runs from results/<gpu>.json (see measured.h).
 * Invariant: the file is read and parsed whole on each lookup (a few hundred KB at most);
 * nothing is cached, so a file rewritten by `check --record` is seen at once. */
#include "measured.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

#if defined(__has_include)
#if __has_include(<cjson/cJSON.h>)
#include <cjson/cJSON.h>
#define WS_MEASURED_JSON 1
#endif
#endif

/* path relative to the working folder when it lies inside it ("results/h200.json" for
 * "demos/../results/h200.json"), else as given. */
static void display_path(const char *path, char *out, size_t cap)
{
    char real[PATH_MAX], cwd[PATH_MAX];
    snprintf(out, cap, "%s", path);
    if (!realpath(path, real) || !getcwd(cwd, sizeof cwd))
        return;
    size_t n = strlen(cwd);
    if (!strncmp(real, cwd, n) && real[n] == '/' && strlen(real + n + 1) < cap)
        memcpy(out, real + n + 1, strlen(real + n + 1) + 1);
}

#ifdef WS_MEASURED_JSON
static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}
#endif

#ifdef WS_MEASURED_JSON
/* A run counts when its bandwidth is a positive finite number and its median time, when
 * recorded, is positive: a negative or missing time is no measurement to show beside a
 * prediction (JSON has no NaN; cJSON writes one as null, which is no number). */
static bool usable_run(const cJSON *run)
{
    const cJSON *bw = cJSON_GetObjectItemCaseSensitive(run, "bandwidth_gbs");
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "time"), "median_ms");
    return cJSON_IsNumber(bw) && isfinite(bw->valuedouble) && bw->valuedouble > 0 &&
           (!med || (cJSON_IsNumber(med) && isfinite(med->valuedouble) && med->valuedouble > 0));
}
#endif

int ws_measured_lookup(const char *json_path, const char *kernel, const char *ov_text, ws_measured *m)
{
#ifdef WS_MEASURED_JSON
    char *text = ws_read_file(json_path, 0, NULL, NULL);
    if (!text)
        return -1;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return -1;
    const cJSON *best = NULL, *run;
    bool best_exact = false;
    int found = 0;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(root, "runs")) {
        if (strcmp(jstr(run, "kernel"), kernel) || !usable_run(run))
            continue;
        found++;
        bool exact = !strcmp(jstr(run, "overrides"), ov_text ? ov_text : "");
        if (!best || (exact && !best_exact)) {
            best = run;
            best_exact = exact;
        }
    }
    if (!best) {
        cJSON_Delete(root);
        return -1;
    }
    memset(m, 0, sizeof *m);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    snprintf(m->gpu, sizeof m->gpu, "%s", *jstr(dev, "name") ? jstr(dev, "name") : "GPU");
    snprintf(m->device_key, sizeof m->device_key, "%s", jstr(dev, "key"));
    snprintf(m->date, sizeof m->date, "%.10s", jstr(root, "date"));
    display_path(json_path, m->file, sizeof m->file);
    snprintf(m->overrides, sizeof m->overrides, "%s", jstr(best, "overrides"));
    m->exact = best_exact;
    m->others = found - 1;
    /* the other runs' sizes by name, so "only with X" can say what else was measured */
    size_t n = 0;
    bool cut = false;
    cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(root, "runs")) {
        if (run == best || strcmp(jstr(run, "kernel"), kernel) || !usable_run(run)) continue;
        const char *ov = jstr(run, "overrides");
        char one[300];
        snprintf(one, sizeof one, "%s%s", *ov ? "-D " : "", *ov ? ov : "the defaults");
        bool repeat = !strcmp(ov, jstr(best, "overrides"));
        for (const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "runs")->child; e != run && !repeat; e = e->next)
            repeat = e != best && !strcmp(jstr(e, "kernel"), kernel) && usable_run(e) && !strcmp(jstr(e, "overrides"), ov);
        if (repeat) continue;      /* those sizes are named already */
        size_t need = strlen(one) + (n ? 2 : 0);
        if (cut || n + need + 4 >= sizeof m->others_text) {
            if (!cut) n += (size_t)snprintf(m->others_text + n, sizeof m->others_text - n, "%s...", n ? "; " : "");
            cut = true;
            continue;
        }
        n += (size_t)snprintf(m->others_text + n, sizeof m->others_text - n, "%s%s", n ? "; " : "", one);
    }
    m->gbs = cJSON_GetObjectItemCaseSensitive(best, "bandwidth_gbs")->valuedouble;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(best, "time");
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(t, "median_ms");
    const cJSON *reps = cJSON_GetObjectItemCaseSensitive(t, "reps");
    m->median_us = cJSON_IsNumber(med) && med->valuedouble > 0 ? med->valuedouble * 1000.0 : -1;
    m->reps = cJSON_IsNumber(reps) ? reps->valueint : 0;
    const cJSON *bm = cJSON_GetObjectItemCaseSensitive(best, "bytes_moved");
    m->bytes_moved = cJSON_IsNumber(bm) ? bm->valuedouble : -1;
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(best, "copy_ceiling");
    const cJSON *cg = cJSON_GetObjectItemCaseSensitive(cc, "gbs"), *cb = cJSON_GetObjectItemCaseSensitive(cc, "bytes");
    const cJSON *cm = cJSON_GetObjectItemCaseSensitive(cc, "median_ms");
    m->copy_gbs = cJSON_IsNumber(cg) ? cg->valuedouble : -1;
    m->copy_bytes = cJSON_IsNumber(cb) ? cb->valuedouble : -1;
    m->copy_us = cJSON_IsNumber(cm) ? cm->valuedouble * 1000.0 : -1;
    cJSON_Delete(root);
    return 0;
#else
    (void)json_path;
    (void)kernel;
    (void)ov_text;
    (void)m;
    return -1;
#endif
}

static int is_json(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 5 && e->d_name[0] != '.' && !strcmp(e->d_name + n - 5, ".json");
}

int ws_measured_find(const char *dir, const char *device_key, const char *kernel, const char *ov_text,
                     ws_measured *m)
{
    char path[WS_PATH_MAX + 300];
    if (device_key) {
        snprintf(path, sizeof path, "%s/%s.json", dir, device_key);
        ws_measured got;
        if (ws_measured_lookup(path, kernel, ov_text, &got) || (got.device_key[0] && strcmp(got.device_key, device_key)))
            return -1;
        *m = got;
        return 0;
    }
    struct dirent **names = NULL;
    int n = scandir(dir, &names, is_json, alphasort);
    int rc = -1;
    for (int i = 0; i < n; i++) {
        ws_measured got;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (!(rc == 0 && m->exact) && ws_measured_lookup(path, kernel, ov_text, &got) == 0 &&
            (rc != 0 || got.exact)) {
            *m = got; /* the first run found, replaced once by the first exact one */
            rc = 0;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int ws_measured_for(const char *catalog_dir, const char *results_dir, const char *device_key, const char *kernel,
                    const ws_overrides *ov, ws_measured_scope scope, ws_measured *m)
{
    char ovt[512] = "", dirs[2][WS_PATH_MAX + 16];
    int ndirs = 0;
    if (ov)
        ws_overrides_text(ov, ovt, sizeof ovt);
    if (results_dir) {
        snprintf(dirs[ndirs++], sizeof dirs[0], "%s", results_dir);
    } else {
        if (catalog_dir)
            snprintf(dirs[ndirs++], sizeof dirs[0], "%s/../results", catalog_dir);
        snprintf(dirs[ndirs++], sizeof dirs[0], "results");
    }
    for (int i = 0; i < ndirs; i++)
        if (ws_measured_find(dirs[i], device_key, kernel, ovt, m) == 0 ||
            (scope == WS_MEASURED_ANY_GPU && ws_measured_find(dirs[i], NULL, kernel, ovt, m) == 0))
            return 0;
    return -1;
}
