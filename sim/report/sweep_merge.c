/* sweep_merge.c - `warpscope sweep merge DIR`: every job record of one sweep into one table,
 * DIR/sweep.csv (every value as the record holds it, %.17g: a reader gets sim's double back) and
 * DIR/sweep.md (rounded for reading), one row per job id, a job with no record marked missing.
 * The records carry the sweep's fingerprint and job count, so merge needs no spec and refuses a
 * folder that mixes two sweeps. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/commands.h"
#include "../../common/csv.h"
#include "../../common/emit.h"
#include "../../common/files.h"
#include "../../common/outfile.h"
#include "../models/metrics.h"
#include "sweep.h"

#define RECORD_MAX_BYTES (64u << 20)

typedef struct {
    long id;
    cJSON *rec;                        /* NULL = missing */
    const char *variant, *size, *profile; /* a missing job's, from the spec when it is found unchanged */
} row;

/* "job-<digits>.json" exactly (no temporary "job-3.json.tmp-XXXXXX"); the id, else 0 */
static long record_id(const char *name)
{
    size_t np = strlen(WS_SWEEP_RECORD_PREFIX);
    if (strncmp(name, WS_SWEEP_RECORD_PREFIX, np)) return 0;
    const char *p = name + np;
    long id = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        if (id > WS_SWEEP_MAX_JOBS) return 0;
        id = id * 10 + (*p - '0');
    }
    return digits && strcmp(p, ".json") == 0 && p[-digits] != '0' ? id : 0;
}

static const cJSON *get(const cJSON *o, const char *path)
{
    /* "timing.predicted_us": members, one dot per level */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *at = o;
    for (char *tok = strtok(buf, "."); tok && at; tok = strtok(NULL, "."))
        at = cJSON_GetObjectItemCaseSensitive(at, tok);
    return at;
}

static double num(const cJSON *o, const char *path)
{
    const cJSON *v = get(o, path);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *path)
{
    const cJSON *v = get(o, path);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* A kernel total by the metric table's name; NAN where the run did not report it. */
static double total(const cJSON *sim, ws_metric_id id)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(sim, "totals")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        if (cJSON_IsString(n) && !strcmp(n->valuestring, ws_metric_table[id].name)) return num(t, "value");
    }
    return NAN;
}

static double total2(const cJSON *sim, ws_metric_id a, ws_metric_id b) { return total(sim, a) + total(sim, b); }

/* One row's cells, as strings; exact: %.17g (CSV), else rounded for reading (markdown). */
#define NCOLS 20
typedef struct {
    char cell[NCOLS][640];
} cells;

static void put_num(char *c, double v, bool exact, const char *rounded)
{
    if (isnan(v)) c[0] = 0;
    else snprintf(c, 640, exact ? "%.17g" : rounded, v);
}

static void fill(const row *r, bool exact, cells *out)
{
    memset(out, 0, sizeof *out);
    char (*c)[640] = out->cell;
    snprintf(c[0], 640, "%ld", r->id);
    if (!r->rec) {
        snprintf(c[1], 640, "%s", r->variant ? r->variant : "");
        snprintf(c[2], 640, "%s", r->size ? r->size : "");
        snprintf(c[3], 640, "%s", r->profile ? r->profile : "");
        snprintf(c[4], 640, "missing");
        return;
    }
    const cJSON *rec = r->rec;
    snprintf(c[1], 640, "%s", str(rec, "sweep.variant"));
    snprintf(c[2], 640, "%s", str(rec, "sweep.size"));
    snprintf(c[3], 640, "%s", str(rec, "sweep.profile"));
    int code = (int)num(rec, "exit_code");
    if (!strcmp(str(rec, "status"), "ok")) snprintf(c[4], 640, "ok");
    else snprintf(c[4], 640, "failed (exit %d)", code);
    snprintf(c[19], 640, "%s", str(rec, "error"));
    const cJSON *sim = cJSON_GetObjectItemCaseSensitive(rec, "sim");
    if (!cJSON_IsObject(sim) || code != WS_EXIT_OK) return;
    put_num(c[5], num(sim, "timing.predicted_us"), exact, "%.2f");
    snprintf(c[6], 640, "%s", str(sim, "timing.bound"));
    snprintf(c[7], 640, "%s", str(sim, "timing.bound_class"));
    snprintf(c[8], 640, "%s", str(sim, "timing.confidence"));
    put_num(c[9], num(sim, "occupancy.theoretical_pct"), exact, "%.1f");
    put_num(c[10], num(sim, "simulation.thread_instructions"), exact, "%.0f");
    put_num(c[11], total(sim, WS_METRIC_GLD_SECTORS_PER_REQUEST), exact, "%.2f");
    /* stores have no ratio row: sectors over requests, as ncu's ratio is formed */
    double st_req = total(sim, WS_METRIC_GST_REQUESTS);
    put_num(c[12], st_req > 0 ? total(sim, WS_METRIC_GST_SECTORS) / st_req : NAN, exact, "%.2f");
    put_num(c[13], total2(sim, WS_METRIC_GLD_SECTORS, WS_METRIC_GST_SECTORS), exact, "%.0f");
    put_num(c[14], total2(sim, WS_METRIC_SLD_WAVEFRONTS, WS_METRIC_SST_WAVEFRONTS), exact, "%.0f");
    put_num(c[15], total2(sim, WS_METRIC_SLD_CONFLICTS, WS_METRIC_SST_CONFLICTS), exact, "%.0f");
    put_num(c[16], total2(sim, WS_METRIC_DRAM_READ, WS_METRIC_DRAM_WRITE), exact, "%.0f");
    put_num(c[17], num(sim, "timing.effective_bandwidth_gbs"), exact, "%.1f");
    const cJSON *sampled = get(sim, "sampling.sampled");
    snprintf(c[18], 640, "%s", cJSON_IsTrue(sampled) ? "yes" : "no");
}

static void write_csv(FILE *f, const row *rows, long n)
{
    fputs(WS_SWEEP_COLUMNS "\n", f);
    for (long i = 0; i < n; i++) {
        cells c;
        fill(&rows[i], true, &c);
        const char *fields[NCOLS];
        for (int k = 0; k < NCOLS; k++) fields[k] = c.cell[k];
        ws_csv_row(f, NCOLS, fields);
    }
}

static void md_cell(FILE *f, const char *s)
{
    fputs(" ", f);
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
    fputs(" |", f);
}

static void write_md(FILE *f, const char *spec, const row *rows, long n)
{
    static const char *const head[NCOLS] = {
        "job", "variant", "size", "profile", "status", "predicted us", "limiter", "bound", "confidence",
        "occupancy %", "thread-insns", "sectors/req ld", "sectors/req st", "global sectors", "shared wavefronts",
        "bank conflicts", "DRAM bytes", "GB/s", "sampled", "error"};
    static const bool right[NCOLS] = {[0] = true, [5] = true, [9] = true, [10] = true, [11] = true, [12] = true,
                                      [13] = true, [14] = true, [15] = true, [16] = true, [17] = true};
    fprintf(f, "Sweep `%s`: %ld jobs (`warpscope sweep merge`).\n\n|", spec, n);
    for (int k = 0; k < NCOLS; k++) md_cell(f, head[k]);
    fputs("\n|", f);
    for (int k = 0; k < NCOLS; k++) fputs(right[k] ? "---:|" : "---|", f);
    fputc('\n', f);
    for (long i = 0; i < n; i++) {
        cells c;
        fill(&rows[i], false, &c);
        fputc('|', f);
        for (int k = 0; k < NCOLS; k++) md_cell(f, c.cell[k]);
        fputc('\n', f);
    }
}

typedef struct {
    const char *spec;
    const row *rows;
    long n;
} table;

static int layout_csv(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const table *t = body;
    write_csv(f, t->rows, t->n);
    return 0;
}

static int layout_md(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const table *t = body;
    write_md(f, t->spec, t->rows, t->n);
    return 0;
}

/* the merged table as a document of the output layer: CSV and markdown */
static const ws_doc_kind sweep_table_kind = {.command = "sweep merge", .csv = layout_csv, .markdown = layout_md};

static int write_file(const char *path, ws_format fmt, const table *t, ws_error *err)
{
    ws_outfile of;
    FILE *f = ws_outfile_fopen(&of, path);
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot write the table: %s", strerror(errno));
        return -1;
    }
    int rc = ws_emit(f, fmt, &(ws_doc){&sweep_table_kind, t});
    bool ok = !rc && !ferror(f);
    int close_rc = fclose(f);
    if (ws_outfile_commit_closed(&of, ok ? close_rc : -1)) {
        ws_error_set(err, path, 0, 0, "cannot write the table: %s", strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

/* Loads one record and checks it is job id of a sweep record (its own id, a job count). */
static cJSON *load_record(const char *path, long id, ws_error *err)
{
    char *text = ws_read_file(path, RECORD_MAX_BYTES, NULL, err);
    if (!text) return NULL;
    cJSON *rec = cJSON_Parse(text);
    free(text);
    const char *why = NULL;
    if (!rec) why = "is not JSON";
    else if (strcmp(str(rec, "command"), "sweep run")) why = "is not a sweep record (its command is not \"sweep run\")";
    else if (num(rec, "sweep.job") != (double)id) why = "holds another job than its name says";
    else if (!(num(rec, "sweep.jobs") >= 1) || !*str(rec, "sweep.fingerprint")) why = "has no job count or fingerprint";
    else if (!cJSON_IsNumber(get(rec, "exit_code"))) why = "has no exit_code";
    if (why) {
        ws_error_set(err, path, 0, 0, "this file %s", why);
        cJSON_Delete(rec);
        return NULL;
    }
    return rec;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int ws_sweep_merge(const char *dir, bool csv, FILE *out, ws_error *err)
{
    if (strlen(dir) >= WS_PATH_MAX) {
        ws_error_set(err, "<command line>", 0, 0, "the records folder name is longer than %d bytes", WS_PATH_MAX - 1);
        return WS_EXIT_USAGE;
    }
    DIR *d = opendir(dir);
    if (!d) {
        ws_error_set(err, dir, 0, 0, "cannot read the records folder: %s", strerror(errno));
        return WS_EXIT_USAGE;
    }
    long *ids = NULL, nids = 0, cap = 0;
    int rc = WS_EXIT_OK;
    for (struct dirent *e; (e = readdir(d));) {
        long id = record_id(e->d_name);
        if (!id) continue;
        if (nids == cap) {
            cap = cap ? 2 * cap : 64;
            long *p = realloc(ids, (size_t)cap * sizeof *ids);
            if (!p) {
                closedir(d);
                free(ids);
                ws_error_set(err, dir, 0, 0, "out of memory");
                return WS_EXIT_INTERNAL;
            }
            ids = p;
        }
        ids[nids++] = id;
    }
    closedir(d);
    if (!nids) {
        ws_error_set(err, dir, 0, 0, "no records (" WS_SWEEP_RECORD_PREFIX "<id>.json) in this folder: run the jobs "
                     "first (warpscope sweep run SPEC %s ID)", dir);
        free(ids);
        return WS_EXIT_USAGE;
    }
    qsort(ids, (size_t)nids, sizeof *ids, cmp_long);

    row *rows = NULL;
    long njobs = 0;
    char fingerprint[64] = "", spec[WS_PATH_MAX] = "", first[WS_PATH_MAX + 64] = "";
    for (long i = 0; i < nids && rc == WS_EXIT_OK; i++) {
        char path[WS_PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/" WS_SWEEP_RECORD_PREFIX "%ld.json", dir, ids[i]);
        cJSON *rec = load_record(path, ids[i], err);
        if (!rec) {
            rc = WS_EXIT_USAGE;
            break;
        }
        if (!rows) {
            njobs = (long)num(rec, "sweep.jobs");
            snprintf(fingerprint, sizeof fingerprint, "%s", str(rec, "sweep.fingerprint"));
            snprintf(spec, sizeof spec, "%s", str(rec, "sweep.spec"));
            snprintf(first, sizeof first, "%s", path);
            if (njobs > WS_SWEEP_MAX_JOBS || !(rows = calloc((size_t)njobs, sizeof *rows))) {
                ws_error_set(err, path, 0, 0, "a job count of %ld cannot be merged", njobs);
                cJSON_Delete(rec);
                rc = WS_EXIT_USAGE;
                break;
            }
            for (long k = 0; k < njobs; k++) rows[k].id = k + 1;
        }
        if (strcmp(str(rec, "sweep.fingerprint"), fingerprint) || (long)num(rec, "sweep.jobs") != njobs ||
            ids[i] > njobs) {
            ws_error_set(err, path, 0, 0, "a record of another sweep than %s's (spec %s, fingerprint %s): give each "
                         "sweep its own folder", first, spec, fingerprint);
            cJSON_Delete(rec);
            rc = WS_EXIT_USAGE;
            break;
        }
        rows[ids[i] - 1].rec = rec;
    }
    free(ids);
    /* a missing job's variant, size and profile: from the spec the records name, where it is
       still there unchanged (same fingerprint); else the row has its id alone */
    ws_sweep_spec sp;
    memset(&sp, 0, sizeof sp);
    ws_error ignored;
    char fp[32] = "";
    if (rc == WS_EXIT_OK && ws_sweep_spec_load(spec, &sp, &ignored) == 0)
        snprintf(fp, sizeof fp, "%016llx", (unsigned long long)sp.fingerprint);
    if (rc == WS_EXIT_OK && !strcmp(fp, fingerprint) && ws_sweep_count(&sp) == njobs)
        for (long k = 0; k < njobs; k++) {
            ws_sweep_job j;
            if (rows[k].rec || ws_sweep_job_get(&sp, k + 1, &j)) continue;
            rows[k].variant = j.variant->name;
            rows[k].size = j.size->label;
            rows[k].profile = j.profile->dev->key;
        }
    if (rc == WS_EXIT_OK) {
        char csvp[WS_PATH_MAX + 16], mdp[WS_PATH_MAX + 16];
        snprintf(csvp, sizeof csvp, "%s/sweep.csv", dir);
        snprintf(mdp, sizeof mdp, "%s/sweep.md", dir);
        table t = {spec, rows, njobs};
        if (write_file(csvp, WS_FMT_CSV, &t, err) || write_file(mdp, WS_FMT_MARKDOWN, &t, err)) rc = WS_EXIT_USAGE;
        else {
            ws_emit(out, csv ? WS_FMT_CSV : WS_FMT_MARKDOWN, &(ws_doc){&sweep_table_kind, &t});
            long failed = 0, missing = 0;
            int worst = WS_EXIT_OK;
            for (long k = 0; k < njobs; k++) {
                if (!rows[k].rec) {
                    missing++;
                    if (worst < WS_EXIT_USAGE) worst = WS_EXIT_USAGE;
                    continue;
                }
                int code = (int)num(rows[k].rec, "exit_code");
                if (code != WS_EXIT_OK) {
                    failed++;
                    if (code > worst) worst = code;
                }
            }
            if (failed || missing)
                fprintf(stderr, "warpscope: sweep merge: %ld of %ld jobs failed, %ld have no record yet "
                                "(the table marks them)\n", failed, njobs, missing);
            rc = worst;
        }
    }
    for (long k = 0; rows && k < njobs; k++) cJSON_Delete(rows[k].rec);
    free(rows);
    ws_sweep_spec_free(&sp);
    return rc;
}
