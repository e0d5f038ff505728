/* sweep_run.c - one sweep job: `warpscope sim --json` in this process, its document kept in
 * memory and written, with the job's place in the spec, as DIR/job-<id>.json.
 * In-process rather than a child: the job runner (make, parallel, Slurm) already gives each job
 * its own process, and no spec word ever passes through a command line a shell could read. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/commands.h"
#include "../../common/emit.h"
#include "../../common/outfile.h"
#include "../../common/save.h"
#include "../../common/text.h"
#include "report.h"
#include "sweep.h"

/* The first line of sim's stderr that carries its error ("warpscope: ... error: ..."), else the
 * first non-empty line: why a failed job failed, for the table. */
static void first_error_line(const char *text, char *out, size_t cap)
{
    out[0] = 0;
    const char *pick = NULL;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && !pick) pick = p;
        if (n && (memmem(p, n, "error", 5) || memmem(p, n, "fault", 5))) {
            pick = p;
            break;
        }
        p += n + (e ? 1 : 0);
    }
    if (!pick) return;
    if (!strncmp(pick, "warpscope: ", 11)) pick += 11;   /* the table's column says whose it is */
    size_t n = strcspn(pick, "\n");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), pick);
}

/* Runs sim with argv, its document into *doc (malloc'd, may be empty), its stderr into *errtext
 * (also passed on to our stderr, so a job's log shows it). Returns sim's exit code. */
static int run_sim(int argc, char **argv, char **doc, char **errtext)
{
    *doc = NULL;
    *errtext = NULL;
    size_t dlen = 0;
    FILE *mem = open_memstream(doc, &dlen);
    FILE *cap = tmpfile();
    int saved = -1;
    if (!mem || !cap) {
        if (mem) fclose(mem);
        if (cap) fclose(cap);
        free(*doc);
        *doc = NULL;
        return WS_EXIT_INTERNAL;
    }
    fflush(stderr);
    saved = dup(2);
    if (saved >= 0) dup2(fileno(cap), 2);
    int rc = ws_cmd_sim_to(argc, argv, mem);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (fclose(mem) != 0 && rc == WS_EXIT_OK) rc = WS_EXIT_INTERNAL;
    long n = ftell(cap);
    if (n > 0 && (*errtext = malloc((size_t)n + 1))) {
        rewind(cap);
        size_t got = fread(*errtext, 1, (size_t)n, cap);
        (*errtext)[got] = 0;
        fputs(*errtext, stderr);
    }
    fclose(cap);
    return rc;
}

static cJSON *sweep_member(const ws_sweep_spec *s, const ws_sweep_job *j)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    char fp[32];
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)s->fingerprint);
    cJSON_AddStringToObject(o, "spec", s->path);
    cJSON_AddStringToObject(o, "fingerprint", fp);
    cJSON_AddNumberToObject(o, "jobs", (double)ws_sweep_count(s));
    cJSON_AddNumberToObject(o, "job", (double)j->id);
    cJSON_AddStringToObject(o, "variant", j->variant->name);
    cJSON_AddStringToObject(o, "size", j->size->label);
    cJSON *defs = cJSON_AddArrayToObject(o, "defines");
    for (int i = 0; defs && i < j->size->ndefines; i++)
        cJSON_AddItemToArray(defs, cJSON_CreateString(j->size->defines[i]));
    cJSON_AddBoolToObject(o, "realistic", j->size->realistic);
    cJSON_AddStringToObject(o, "profile", j->profile->dev->key);
    cJSON_AddNumberToObject(o, "threads", s->threads);
    cJSON_AddStringToObject(o, "sample", ws_sweep_sample_name(s->sample));
    return o;
}

int ws_sweep_run_job(const ws_sweep_spec *s, const ws_sweep_job *j, const char *dir, int *sim_rc, ws_error *err)
{
    char path[WS_PATH_MAX + 64];
    if (strlen(dir) >= WS_PATH_MAX) {
        ws_error_set(err, "<command line>", 0, 0, "the records folder name is longer than %d bytes", WS_PATH_MAX - 1);
        return WS_EXIT_USAGE;
    }
    if (ws_save_mkdir(dir, err)) return WS_EXIT_USAGE;
    snprintf(path, sizeof path, "%s/" WS_SWEEP_RECORD_PREFIX "%ld.json", dir, j->id);

    char *argv[WS_SWEEP_ARGV_MAX + 1], tbuf[16];
    int argc = ws_sweep_sim_argv(s, j, tbuf, sizeof tbuf, argv, WS_SWEEP_ARGV_MAX + 1);
    char *doc = NULL, *errtext = NULL;
    int rc = argc < 0 ? WS_EXIT_INTERNAL : run_sim(argc, argv, &doc, &errtext);
    *sim_rc = rc;

    cJSON *sim = doc && *doc ? cJSON_Parse(doc) : NULL;
    if (rc == WS_EXIT_OK && !sim) rc = *sim_rc = WS_EXIT_INTERNAL;  /* sim said ok but printed no document */
    /* the one member that differs run to run: how long this machine took */
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(sim, "simulation"), "seconds");

    cJSON *rec = ws_json_envelope("sweep run", rc == WS_EXIT_OK ? "ok" : "failed");
    cJSON *sw = sweep_member(s, j);
    int out_rc = WS_EXIT_OK;
    if (!rec || !sw) goto oom;
    cJSON_AddItemToObject(rec, "sweep", sw);
    sw = NULL;
    cJSON_AddNumberToObject(rec, "exit_code", rc);
    if (rc != WS_EXIT_OK) {
        char line[600];
        first_error_line(errtext ? errtext : "", line, sizeof line);
        cJSON_AddStringToObject(rec, "error", line[0] ? line : "(sim printed no message)");
    }
    if (sim) {
        cJSON_AddItemToObject(rec, "sim", sim);
        sim = NULL;
    } else
        cJSON_AddNullToObject(rec, "sim");
    char *text = ws_json_print(rec);
    if (!text) goto oom;
    ws_outfile of;
    FILE *f = ws_outfile_fopen(&of, path);
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot write the record: %s", strerror(errno));
        out_rc = WS_EXIT_USAGE;
    } else {
        fputs(text, f);
        fputc('\n', f);
        bool ok = !ferror(f);
        int close_rc = fclose(f);
        if (ws_outfile_commit_closed(&of, ok ? close_rc : -1)) {
            ws_error_set(err, path, 0, 0, "cannot write the record: %s", strerror(errno ? errno : EIO));
            out_rc = WS_EXIT_USAGE;
        }
    }
    free(text);
    goto done;
oom:
    ws_error_set(err, path, 0, 0, "out of memory building the record");
    out_rc = WS_EXIT_INTERNAL;
done:
    cJSON_Delete(rec);
    cJSON_Delete(sw);
    cJSON_Delete(sim);
    free(doc);
    free(errtext);
    return out_rc;
}
