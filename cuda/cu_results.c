/* cu_results.c - writing and rendering recorded GPU results (see cu_results.h); the
 * markdown is a layout of the results document (common/emit.h). */
#include "cu_results.h"
#include "../common/commands.h"
#include "../common/device.h"
#include "check_explain.h"
#include "../common/emit.h"
#include "../common/files.h"
#include "../common/outfile.h"
#include "../common/text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef WS_HAVE_CUDA
#include <cuda.h> /* CUDA_VERSION: the toolkit headers this build used */
#endif

cJSON *cu_results_device_json(const cu_device_info *d, const char *ncu_version)
{
    cJSON *o = cJSON_CreateObject();
    char buf[64];
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "key", d->key);
    snprintf(buf, sizeof buf, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddStringToObject(o, "compute_capability", buf);
    cJSON_AddNumberToObject(o, "sm_count", d->sm_count);
    cJSON_AddNumberToObject(o, "clock_mhz", d->clock_mhz);
    cJSON_AddNumberToObject(o, "memory_clock_mhz", d->mem_clock_mhz);
    cJSON_AddNumberToObject(o, "memory_bus_bits", d->bus_width_bits);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)d->l2_bytes);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)d->total_mem_bytes);
    cJSON_AddBoolToObject(o, "ecc", d->ecc != 0);
    cJSON_AddStringToObject(o, "driver", d->driver_version);
    snprintf(buf, sizeof buf, "%d.%d", d->driver_api_version / 1000, d->driver_api_version % 1000 / 10);
    cJSON_AddStringToObject(o, "driver_cuda_version", buf);
#ifdef CUDA_VERSION
    snprintf(buf, sizeof buf, "%d.%d", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
#else
    snprintf(buf, sizeof buf, "none");
#endif
    cJSON_AddStringToObject(o, "toolkit_headers", buf);
    cJSON_AddStringToObject(o, "ncu", ncu_version && *ncu_version ? ncu_version : "not used");
    return o;
}

static cJSON *num_or_null(double v, bool has)
{
    return has && isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *cu_results_run_json(const cu_result_run *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", r->kernel);
    cJSON_AddStringToObject(o, "file", r->file);
    cJSON_AddStringToObject(o, "overrides", r->overrides);
    cJSON *g = cJSON_AddArrayToObject(o, "grid"), *b = cJSON_AddArrayToObject(o, "block");
    for (int i = 0; i < 3; i++) {
        cJSON_AddItemToArray(g, cJSON_CreateNumber(r->grid[i]));
        cJSON_AddItemToArray(b, cJSON_CreateNumber(r->block[i]));
    }
    cJSON_AddNumberToObject(o, "dynamic_shared_bytes", (double)r->shared_bytes);
    cJSON_AddNumberToObject(o, "registers", r->attrs.num_regs);
    cJSON_AddNumberToObject(o, "local_bytes", r->attrs.local_bytes);
    cJSON_AddNumberToObject(o, "static_shared_bytes", r->attrs.static_shared_bytes);
    cJSON_AddItemToObject(o, "output_ok", r->output_ok < 0 ? cJSON_CreateNull() : cJSON_CreateBool(r->output_ok));
    cJSON_AddStringToObject(o, "output", r->output);
    if (r->timed) {
        const cu_timing *t = &r->timing;
        cJSON *tj = cJSON_AddObjectToObject(o, "time");
        cJSON_AddNumberToObject(tj, "median_ms", t->median_ms);
        cJSON_AddNumberToObject(tj, "min_ms", t->min_ms);
        cJSON_AddNumberToObject(tj, "max_ms", t->max_ms);
        cJSON_AddNumberToObject(tj, "reps", t->reps);
        cJSON_AddNumberToObject(tj, "l2_flush_bytes", (double)t->flush_bytes);
        cJSON_AddNumberToObject(o, "bytes_moved", (double)t->bytes_moved);
        cJSON_AddNumberToObject(o, "bandwidth_gbs", t->bandwidth_gbs);
        cJSON *c = cJSON_AddObjectToObject(o, "copy_ceiling");
        cJSON_AddNumberToObject(c, "bytes", (double)t->copy_bytes);
        cJSON_AddNumberToObject(c, "median_ms", t->copy_median_ms);
        cJSON_AddNumberToObject(c, "gbs", t->copy_gbs);
        cJSON_AddItemToObject(o, "percent_of_copy",
                              num_or_null(100.0 * t->bandwidth_gbs / t->copy_gbs, t->copy_gbs > 0));
    }
    if (r->counters_note[0]) cJSON_AddStringToObject(o, "counters_note", r->counters_note);
    if (r->sim_basis) cJSON_AddStringToObject(o, "sim_basis", r->sim_basis);
    if (r->no_sim) cJSON_AddBoolToObject(o, "no_sim", true); /* absent otherwise: older files read as before */
    cJSON *rows = cJSON_AddArrayToObject(o, "counters");
    for (int i = 0; i < r->nrows; i++) {
        const chk_row *w = &r->rows[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "metric", w->metric);
        cJSON_AddStringToObject(x, "class", chk_class_name(w->cls));
        cJSON_AddItemToObject(x, "sim", num_or_null(w->sim, w->has_sim));
        cJSON_AddItemToObject(x, "gpu", num_or_null(w->gpu, w->has_gpu));
        cJSON_AddItemToObject(x, "ratio", num_or_null(w->ratio, w->has_sim && w->has_gpu));
        cJSON_AddStringToObject(x, "verdict", w->verdict == CHK_AGREE ? "agree"
                                            : w->verdict == CHK_DIFFER ? "differs"
                                            : w->verdict == CHK_MISSING ? "missing" : "not judged");
        if (w->cause[0]) cJSON_AddStringToObject(x, "cause", w->cause);
        if (w->verdict == CHK_DIFFER) cJSON_AddBoolToObject(x, "explained", w->explained);
        cJSON_AddItemToArray(rows, x);
    }
    return o;
}

void cu_results_add_gpu_counters(cJSON *run, const cu_counters *c)
{
    cJSON *m = cJSON_AddObjectToObject(run, "gpu_counters");
    for (int i = 0; i < c->n; i++)
        cJSON_AddItemToObject(m, c->m[i].name, c->m[i].numeric ? cJSON_CreateNumber(c->m[i].value)
                                                               : cJSON_CreateString(c->m[i].raw));
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static bool same_run(const cJSON *a, const cJSON *b)
{
    return !strcmp(jstr(a, "kernel"), jstr(b, "kernel")) && !strcmp(jstr(a, "file"), jstr(b, "file")) &&
           !strcmp(jstr(a, "overrides"), jstr(b, "overrides"));
}

/* ---- what an existing results file may be ---------------------------------------------
 * A recording merges into the file it is given. Anything that is not a results file of this
 * device (a text file, a truncated or damaged JSON, another GPU's runs) is refused and left as
 * it is: replacing it would lose what it holds. */

static int refuse(ws_error *err, const char *path, const char *why)
{
    ws_error_set(err, path, 0, 0, "%s; --record leaves it as it is (give a new file, or results/ for "
                                  "results/<gpu-key>.json)", why);
    return WS_EXIT_USAGE;
}

/* Parses old (the file's text, len bytes) into *prev: NULL for an empty file (no runs yet). */
static int parse_existing(const char *path, const char *old, size_t len, const char *device_key, cJSON **prev,
                          ws_error *err)
{
    *prev = NULL;
    size_t i = 0;
    while (i < len && (old[i] == ' ' || old[i] == '\n' || old[i] == '\t' || old[i] == '\r')) i++;
    if (i == len) return 0;                       /* empty: nothing to keep */
    char why[200];
    if (ws_text_has_nul(old, len, NULL, NULL)) return refuse(err, path, "not a warpscope results file (binary data)");
    if (old[i] != '{') return refuse(err, path, "not a warpscope results file (not a JSON object)");
    const char *end = NULL;                       /* trailing text after the object is refused too */
    cJSON *root = cJSON_ParseWithOpts(old, &end, 1);
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        char near[48];
        snprintf(why, sizeof why, "not valid JSON near: %.40s (a truncated or damaged results file?)",
                 at && *at ? ws_text_visible(at, near, sizeof near) : "(end of file)");
        return refuse(err, path, why);
    }
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(dev, "key");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    const char *bad = !cJSON_IsObject(root) ? "not a warpscope results file (not a JSON object)"
                      : !cJSON_IsArray(runs) ? "not a warpscope results file (no \"runs\" array)"
                      : !cJSON_IsObject(dev) || !cJSON_IsString(key) ? "not a warpscope results file (no \"device\" key)"
                      : NULL;
    int n = 0;
    const cJSON *r;
    if (!bad) cJSON_ArrayForEach(r, runs) {
            n++;
            if (!cJSON_IsObject(r) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "kernel"))) {
                snprintf(why, sizeof why, "not a warpscope results file (run %d has no \"kernel\")", n);
                bad = why;
                break;
            }
        }
    if (!bad && device_key && strcmp(key->valuestring, device_key)) {
        char shown[64];
        snprintf(why, sizeof why, "holds runs of another GPU (device key '%s'; this GPU's is '%s')",
                 ws_text_visible(key->valuestring, shown, sizeof shown), device_key);
        bad = why;
    }
    if (bad) {
        cJSON_Delete(root);
        return refuse(err, path, bad);
    }
    *prev = root;
    return 0;
}

/* Reads path when it exists: *text NULL when it does not. */
static int read_existing(const char *path, char **text, size_t *len, ws_error *err)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st)) {
        if (errno == ENOENT) return 0;
        ws_error_set(err, path, 0, 0, "cannot write the results file: %s", strerror(errno));
        return WS_EXIT_USAGE;
    }
    if (!S_ISREG(st.st_mode))
        return refuse(err, path, S_ISDIR(st.st_mode) ? "is a folder (a folder is given as DIR/, ending in '/')"
                                                      : "not a regular file");
    ws_error rerr;
    *text = ws_read_file(path, 0, len, &rerr);
    if (!*text) {
        ws_error_set(err, path, 0, 0, "cannot read the results file to merge into it: %s", rerr.msg);
        return WS_EXIT_USAGE;
    }
    return 0;
}

int cu_results_check_target(const char *path, const char *device_key, ws_error *err)
{
    char *text;
    size_t len;
    int rc = read_existing(path, &text, &len, err);
    if (rc || !text) {
        if (!rc) {                                 /* a new file: its folder must take it */
            char dir[WS_PATH_MAX + 80];
            snprintf(dir, sizeof dir, "%s", path);
            char *slash = strrchr(dir, '/');
            if (slash) slash == dir ? (void)(slash[1] = 0) : (void)(*slash = 0);
            else snprintf(dir, sizeof dir, ".");
            if (access(dir, W_OK | X_OK)) {
                ws_error_set(err, path, 0, 0, "cannot write the results file: %s", strerror(errno));
                return WS_EXIT_USAGE;
            }
        }
        return rc;
    }
    cJSON *prev;
    rc = parse_existing(path, text, len, device_key, &prev, err);
    cJSON_Delete(prev);
    free(text);
    return rc;
}

cJSON *cu_results_merge(const cJSON *prev, const cJSON *device, const cJSON *runs, const char *date)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *all = cJSON_CreateArray();
    cJSON *dev = cJSON_Duplicate(device, 1);
    if (prev) {
        const cJSON *prev_dev = cJSON_GetObjectItemCaseSensitive(prev, "device");
        /* runs kept from an earlier recording read their counters with that
         * recording's ncu: a later run without counters must not erase it */
        if (!strcmp(jstr(dev, "ncu"), "not used") && strcmp(jstr(prev_dev, "ncu"), "not used") &&
            jstr(prev_dev, "ncu")[0])
            cJSON_ReplaceItemInObjectCaseSensitive(dev, "ncu", cJSON_CreateString(jstr(prev_dev, "ncu")));
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(prev, "runs")) {
            bool replaced = false;
            const cJSON *n;
            cJSON_ArrayForEach(n, runs) if (same_run(r, n)) replaced = true;
            if (!replaced) cJSON_AddItemToArray(all, cJSON_Duplicate(r, 1));
        }
    }
    const cJSON *n;
    cJSON_ArrayForEach(n, runs) cJSON_AddItemToArray(all, cJSON_Duplicate(n, 1));
    cJSON_AddItemToObject(root, "device", dev);
    cJSON_AddStringToObject(root, "date", date);
    cJSON_AddStringToObject(root, "recorded_by", "warpscope check --record");
    cJSON_AddItemToObject(root, "runs", all);
    return root;
}

/* ---- the lock --------------------------------------------------------------------------
 * flock on "<path>.lock" beside the file, so concurrent recordings into one file run their
 * read-merge-rename one after the other. The lock file is removed when released; a process
 * that locked a file another had just removed sees another inode at the path and locks again. */

static int lock_take(const char *path, char *lock, size_t cap, ws_error *err)
{
    snprintf(lock, cap, "%s.lock", path);
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0) {
            ws_error_set(err, path, 0, 0, "cannot write the results file: cannot create the lock %s beside it: %s",
                         lock, strerror(errno));
            return -1;
        }
        int rc;
        while ((rc = flock(fd, LOCK_EX)) && errno == EINTR) {}
        struct stat held, now;
        if (rc) {
            ws_error_set(err, path, 0, 0, "cannot write the results file: cannot lock %s: %s", lock, strerror(errno));
            close(fd);
            return -1;
        }
        if (!fstat(fd, &held) && !stat(lock, &now) && held.st_ino == now.st_ino && held.st_dev == now.st_dev)
            return fd;
        close(fd);                                 /* removed by the holder before us: again */
    }
    ws_error_set(err, path, 0, 0, "cannot write the results file: the lock %s keeps changing", lock);
    return -1;
}

static void lock_release(int fd, const char *lock)
{
    unlink(lock);                                  /* while held: no one locks the old inode after this */
    close(fd);
}

static int write_locked(const char *path, const cJSON *device, const cJSON *runs, ws_error *err)
{
    const char *key = jstr(device, "key");
    char *old;
    size_t len;
    int rc = read_existing(path, &old, &len, err);
    if (rc) return rc;
    cJSON *prev = NULL;
    if (old) {
        rc = parse_existing(path, old, len, key, &prev, err);
        free(old);
        if (rc) return rc;
    }
    char date[64];
    time_t now = time(NULL);
    struct tm tmv;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
    cJSON *root = cu_results_merge(prev, device, runs, date);
    cJSON_Delete(prev);
    char *text = ws_json_print(root);
    cJSON_Delete(root);
    if (!text) {
        ws_error_set(err, path, 0, 0, "out of memory formatting the results");
        return WS_EXIT_INTERNAL;
    }
    /* a temporary beside it, renamed into place: a full disk leaves the old file whole */
    ws_outfile o;
    FILE *f = ws_outfile_fopen(&o, path);
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot write the results file: %s", strerror(errno));
        free(text);
        return WS_EXIT_USAGE;
    }
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int e = errno;
    free(text);
    int crc = fclose(f);
    if (!ok) {
        crc = -1;
        errno = e;                                 /* the write's reason, not fclose's */
    }
    if (ws_outfile_commit_closed(&o, crc)) {
        ws_error_set(err, path, 0, 0, "cannot write the results file (%s); it keeps what it had", strerror(errno));
        return WS_EXIT_USAGE;
    }
    return 0;
}

int cu_results_record(const char *path, cJSON *device, cJSON *runs, ws_error *err)
{
    char lock[WS_PATH_MAX + 96];
    int fd = lock_take(path, lock, sizeof lock, err);
    if (fd < 0) return WS_EXIT_USAGE;
    int rc = write_locked(path, device, runs, err);
    lock_release(fd, lock);
    return rc;
}

static double jnum(const cJSON *o, const char *k, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (ok) *ok = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static bool positive(double v) { return isfinite(v) && v > 0; }

/* The results file as a document: its path and parsed contents. */
typedef struct {
    const char *path;
    const cJSON *root, *dev, *runs;
} results_doc;

static void markdown_runs(FILE *out, const results_doc *d);
static void markdown_disagreements(FILE *out, const cJSON *runs, const ws_device *dev);

static int results_md(FILE *out, const void *body, ws_part part)
{
    (void)part;
    const results_doc *d = body;
    const char *json_path = d->path;
    const cJSON *root = d->root, *dev = d->dev;
    fprintf(out, "# warpscope check on %s\n\n", jstr(dev, "name"));
    fprintf(out, "Recorded %s by `warpscope check --record`; this file is generated from `%s` by "
                 "`warpscope check --markdown %s`.\n\n", jstr(root, "date"), json_path, json_path);
    fprintf(out, "Device: %s, compute capability %s, %.0f SMs, %.0f MHz, L2 %.0f bytes, ECC %s. Driver %s "
                 "(CUDA %s); toolkit headers %s; Nsight Compute %s.\n\n",
            jstr(dev, "name"), jstr(dev, "compute_capability"), jnum(dev, "sm_count", NULL), jnum(dev, "clock_mhz", NULL),
            jnum(dev, "l2_bytes", NULL), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(dev, "ecc")) ? "on" : "off",
            jstr(dev, "driver"), jstr(dev, "driver_cuda_version"), jstr(dev, "toolkit_headers"), jstr(dev, "ncu"));
    markdown_runs(out, d);
    return 0;
}

static const ws_doc_kind results_kind = {.command = "check --markdown", .markdown = results_md};

int cu_results_markdown(const char *json_path, FILE *out, ws_error *err)
{
    char *text = ws_read_file(json_path, 0, NULL, err);
    if (!text)
        return -1;
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        /* the error pointer points into text: quote it before text is freed */
        const char *at = cJSON_GetErrorPtr();
        ws_error_set(err, json_path, 0, 0, "not valid JSON near: %.40s", at && *at ? at : "(end of file)");
        free(text);
        return -1;
    }
    free(text);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    if (!cJSON_IsArray(runs)) {
        cJSON_Delete(root);
        ws_error_set(err, json_path, 0, 0, "not a warpscope results file (no \"runs\" array)");
        return -1;
    }
    results_doc d = {json_path, root, dev, runs};
    int rc = ws_emit(out, WS_FMT_MARKDOWN, &(ws_doc){&results_kind, &d});
    cJSON_Delete(root);
    if (rc) ws_error_set(err, json_path, 0, 0, "out of memory rendering the results");
    return rc ? -1 : 0;
}

/* The time table, the agreement per class and every disagreement. */
static void markdown_runs(FILE *out, const results_doc *d)
{
    const cJSON *runs = d->runs;
    fprintf(out, "## Time and bandwidth\n\nMedian of the timed repetitions, L2 flushed before each; bandwidth = the "
                 "description's bytes / median (GB = 1e9); the ceiling is cuMemcpyDtoD in the same run "
                 "(2 x bytes / time).\n\n");
    fprintf(out, "| kernel | -D | median ms | min-max ms | GB/s | copy GB/s | %% of copy | output | regs | local B |\n");
    fprintf(out, "|---|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
    int agree[CHK_NCLASSES] = {0}, judged[CHK_NCLASSES] = {0};
    const cJSON *r;
    cJSON_ArrayForEach(r, runs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "time");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "copy_ceiling");
        const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r, "output_ok");
        bool has_pct;
        double pct = jnum(r, "percent_of_copy", &has_pct);
        fprintf(out, "| %s | %s |", jstr(r, "kernel"), jstr(r, "overrides"));
        /* a time that is not positive (a bad record) shows as "-", and no bandwidth with it */
        double med = jnum(t, "median_ms", NULL), lo = jnum(t, "min_ms", NULL), hi = jnum(t, "max_ms", NULL);
        double bw = jnum(r, "bandwidth_gbs", NULL), cbw = jnum(c, "gbs", NULL);
        if (t && positive(med)) {
            fprintf(out, " %.4f |", med);
            if (positive(lo) && positive(hi)) fprintf(out, " %.4f-%.4f |", lo, hi);
            else fprintf(out, " - |");
            if (positive(bw)) fprintf(out, " %.1f |", bw);
            else fprintf(out, " - |");
            if (positive(cbw)) fprintf(out, " %.1f |", cbw);
            else fprintf(out, " - |");
        } else {
            fprintf(out, " - | - | - | - |");
            has_pct = false;
        }
        if (has_pct) fprintf(out, " %.1f%% |", pct);
        else fprintf(out, " - |");
        fprintf(out, " %s | %.0f | %.0f |\n", cJSON_IsTrue(ok) ? "ok" : cJSON_IsFalse(ok) ? "**MISMATCH**" : "not checked",
                jnum(r, "registers", NULL), jnum(r, "local_bytes", NULL));
        const cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "counters")) {
            const char *v = jstr(x, "verdict"), *cls = jstr(x, "class");
            for (int k = 0; k < CHK_NCLASSES; k++)
                if (!strcmp(cls, chk_class_name((chk_class)k)) && (!strcmp(v, "agree") || !strcmp(v, "differs"))) {
                    judged[k]++;
                    if (!strcmp(v, "agree")) agree[k]++;
                }
        }
    }
    fprintf(out, "\n## Agreement of simulator and hardware counters, per class\n\n| class | tolerance | agree | of | rate |\n"
                 "|---|---|---:|---:|---:|\n");
    for (int k = 0; k < CHK_NCLASSES; k++) {
        if (k == CHK_INFO || k == CHK_TIMING_DEP) continue; /* shown, never judged */
        fprintf(out, "| %s | %s | %d | %d | ", chk_class_name((chk_class)k), chk_class_tolerance((chk_class)k), agree[k],
                judged[k]);
        if (judged[k]) fprintf(out, "%.0f%% |\n", 100.0 * agree[k] / judged[k]);
        else fprintf(out, "- |\n");
    }
    markdown_disagreements(out, runs, ws_device_find(jstr(d->dev, "name")));
}

/* The cause of a recorded differing row: as recorded where it names a mechanism, else found now
 * (check_explain.h) from the run's recorded rows and the device profile's launch cost; a record
 * holds no prediction terms or notes, so the rules that need them do not apply here. */
static void recorded_cause(const cJSON *run, const cJSON *x, const ws_device *dev, char *out, size_t cap)
{
    const char *c = jstr(x, "cause");
    /* "unexplained" (bare in old records, or with what was missing) and the older "no mechanism found"
       are found again now: the rules may have grown since */
    if (*c && strncmp(c, "unexplained", 11) && strncmp(c, "no mechanism found", 18)) {
        snprintf(out, cap, "%s", c);
        return;
    }
    const cJSON *ctr = cJSON_GetObjectItemCaseSensitive(run, "counters");
    int n = cJSON_GetArraySize(ctr), k = 0, me = -1;
    chk_row *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    if (!rows) {
        snprintf(out, cap, "%s", c);
        return;
    }
    const cJSON *y;
    cJSON_ArrayForEach(y, ctr) {
        bool hs, hg;
        double s = jnum(y, "sim", &hs), g = jnum(y, "gpu", &hg);
        chk_row_set(&rows[k], jstr(y, "metric"), hs, s, hg, g);
        if (!strcmp(jstr(y, "class"), chk_class_name(CHK_TIMING_DEP))) { /* classed at run time, not by the table */
            rows[k].cls = CHK_TIMING_DEP;
            rows[k].verdict = CHK_UNJUDGED;
            snprintf(rows[k].cause, sizeof rows[k].cause, "%s", c);
        }
        if (y == x) me = k;
        k++;
    }
    chk_facts f = {.rows = rows, .nrows = k, .launch_us = dev ? dev->launch_overhead_us : 0};
    if (me >= 0) chk_explain_row(&rows[me], &f, out, cap);
    else snprintf(out, cap, "%s", c);
    free(rows);
}

/* Every counter row recorded as differing, and every output mismatch. */
static void markdown_disagreements(FILE *out, const cJSON *runs, const ws_device *dev)
{
    fprintf(out, "\n## Every disagreement\n\n| kernel | -D | metric | class | sim | gpu | ratio | cause |\n"
                 "|---|---|---|---|---:|---:|---:|---|\n");
    int nd = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, runs) {
        const cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "counters")) {
            if (strcmp(jstr(x, "verdict"), "differs")) continue;
            bool hs, hg, hr;
            double s = jnum(x, "sim", &hs), g = jnum(x, "gpu", &hg), q = jnum(x, "ratio", &hr);
            fprintf(out, "| %s | %s | `%s` | %s | %.6g | %.6g | ", jstr(r, "kernel"), jstr(r, "overrides"),
                    jstr(x, "metric"), jstr(x, "class"), s, g);
            if (hr) fprintf(out, "%.3f", q);
            else fprintf(out, "-");
            char cause[sizeof ((chk_row *)0)->cause];
            recorded_cause(r, x, dev, cause, sizeof cause);
            fprintf(out, " | %s |\n", cause);
            nd++;
        }
        if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "output_ok")))
            fprintf(out, "| %s | %s | output | exact | | | | %s |\n", jstr(r, "kernel"), jstr(r, "overrides"),
                    jstr(r, "output")), nd++;
    }
    if (!nd) fprintf(out, "| (none) | | | | | | | |\n");
}
