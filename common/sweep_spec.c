/* sweep_spec.c - the sweep spec parser (format in sweep_spec.h) and the job numbering.
 * Strict on purpose: a sweep runs for hours on a cluster, so a typo must stop it at plan time,
 * at its file:line, not show up as a missing row in the morning. */
#include "sweep_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "desc.h"
#include "files.h"

#define SPEC_MAX_ITEMS 4096            /* per axis */

typedef struct {
    const char *s;                     /* the word, not NUL-terminated */
    int len;
    int col;                           /* 1-based */
} word;

#define LINE_MAX_WORDS 1024           /* a variant line may list many kernels */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* FNV-1a: a fingerprint, not a digest (records from another spec, not tampering) */
static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static int grow(void **arr, int n, size_t elem)
{
    if (n >= SPEC_MAX_ITEMS) return -1;
    void *p = realloc(*arr, (size_t)(n + 1) * elem);
    if (!p) return -1;
    *arr = p;
    return 0;
}

/* Splits line[0..n) into words; a '#' at the start or after a blank ends it. Returns the
 * count, or -1 when there are more than cap (err set). */
static int split(const char *line, int n, word *w, int cap, const char *path, int lineno, ws_error *err)
{
    int k = 0;
    for (int i = 0; i < n;) {
        while (i < n && is_blank(line[i])) i++;
        if (i >= n || line[i] == '#') break;
        int start = i;
        while (i < n && !is_blank(line[i])) i++;
        if (k == cap) {
            ws_error_set(err, path, lineno, start + 1, "too many words on one line (at most %d)", cap);
            return -1;
        }
        w[k++] = (word){line + start, i - start, start + 1};
    }
    return k;
}

static bool word_is(const word *w, const char *s) { return (int)strlen(s) == w->len && !memcmp(w->s, s, w->len); }

static int copy_word(char *dst, const word *w, const char *path, int lineno, const char *what, ws_error *err)
{
    if (w->len >= WS_SWEEP_WORD_MAX) {
        ws_error_set(err, path, lineno, w->col, "%s longer than %d bytes", what, WS_SWEEP_WORD_MAX - 1);
        return -1;
    }
    memcpy(dst, w->s, w->len);
    dst[w->len] = 0;
    return 0;
}

static int add_variant(ws_sweep_spec *s, const word *w, const char *path, int lineno, ws_error *err)
{
    char name[WS_SWEEP_WORD_MAX];
    if (copy_word(name, w, path, lineno, "a variant", err)) return -1;
    if (name[0] == '-') { /* sim would read it as an option; "--" guards it, but it is no kernel name */
        ws_error_set(err, path, lineno, w->col, "variant '%s' starts with '-': give a catalog name or a .cu path", name);
        return -1;
    }
    for (int i = 0; i < s->nvariants; i++)
        if (!strcmp(s->variants[i].name, name)) {
            ws_error_set(err, path, lineno, w->col, "variant '%s' is already listed at line %d", name, s->variants[i].line);
            return -1;
        }
    if (grow((void **)&s->variants, s->nvariants, sizeof *s->variants)) {
        ws_error_set(err, path, lineno, w->col, "too many variants (at most %d) or out of memory", SPEC_MAX_ITEMS);
        return -1;
    }
    ws_sweep_variant *v = &s->variants[s->nvariants++];
    memcpy(v->name, name, sizeof name);
    v->line = lineno;
    return 0;
}

static int add_profile(ws_sweep_spec *s, const word *w, const char *path, int lineno, ws_error *err)
{
    char key[WS_SWEEP_WORD_MAX];
    if (copy_word(key, w, path, lineno, "a profile", err)) return -1;
    const ws_device *d = ws_device_find(key);
    if (!d) {
        const ws_device *const *all = ws_device_all();
        const char *keys[16];
        char list[160] = "";
        int n = 0;
        for (; all[n] && n < 16; n++) {
            keys[n] = all[n]->key;
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n ? ", " : "", all[n]->key);
        }
        const char *near = ws_cli_nearest(key, keys, n);
        ws_error_set(err, path, lineno, w->col, "unknown device profile '%s'%s%s%s (profiles: %s)", key,
                     near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "", list);
        return -1;
    }
    for (int i = 0; i < s->nprofiles; i++)
        if (s->profiles[i].dev == d) {
            ws_error_set(err, path, lineno, w->col, "profile '%s' is already listed at line %d", d->key, s->profiles[i].line);
            return -1;
        }
    if (grow((void **)&s->profiles, s->nprofiles, sizeof *s->profiles)) {
        ws_error_set(err, path, lineno, w->col, "too many profiles or out of memory");
        return -1;
    }
    s->profiles[s->nprofiles++] = (ws_sweep_profile){d, lineno};
    return 0;
}

/* One size line: words[1..nw) are NAME=VALUE, `realistic`, or `defaults` alone. */
static int add_size(ws_sweep_spec *s, const word *w, int nw, const char *path, int lineno, ws_error *err)
{
    if (nw < 2) {
        ws_error_set(err, path, lineno, 0, "'size' needs NAME=VALUE words, 'realistic' or 'defaults'");
        return -1;
    }
    ws_sweep_size z;
    memset(&z, 0, sizeof z);
    z.line = lineno;
    for (int k = 1; k < nw; k++) {
        if (word_is(&w[k], "defaults")) {
            if (nw != 2) {
                ws_error_set(err, path, lineno, w[k].col, "'defaults' stands alone on its size line (it means no -D)");
                return -1;
            }
        } else if (word_is(&w[k], "realistic")) {
            if (z.realistic) {
                ws_error_set(err, path, lineno, w[k].col, "'realistic' given twice");
                return -1;
            }
            z.realistic = true;
        } else {
            if (z.ndefines == WS_SWEEP_MAX_DEFINES) {
                ws_error_set(err, path, lineno, w[k].col, "more than %d -D words on one size line", WS_SWEEP_MAX_DEFINES);
                return -1;
            }
            char *d = z.defines[z.ndefines];
            if (copy_word(d, &w[k], path, lineno, "a -D word", err)) return -1;
            /* the same checks as sim's -D, so a job never fails on what plan could have said */
            ws_overrides scratch;
            memset(&scratch, 0, sizeof scratch);
            ws_error e2;
            if (!strchr(d, '=') || ws_overrides_add(&scratch, d, &e2)) {
                ws_error_set(err, path, lineno, w[k].col, "'%s' is not NAME=VALUE%s%s", d,
                             strchr(d, '=') ? ": " : " (a -D word; no blanks inside it)", strchr(d, '=') ? e2.msg : "");
                return -1;
            }
            size_t nl = (size_t)(strchr(d, '=') - d);
            for (int i = 0; i < z.ndefines; i++)
                if (!strncmp(z.defines[i], d, nl) && z.defines[i][nl] == '=') {
                    ws_error_set(err, path, lineno, w[k].col, "'%.*s' is set twice on this size line", (int)nl, d);
                    return -1;
                }
            z.ndefines++;
        }
        snprintf(z.label + strlen(z.label), sizeof z.label - strlen(z.label), "%s%.*s", k > 1 ? " " : "", w[k].len,
                 w[k].s);
    }
    for (int i = 0; i < s->nsizes; i++)
        if (!strcmp(s->sizes[i].label, z.label)) {
            ws_error_set(err, path, lineno, w[1].col, "size '%s' is already listed at line %d", z.label, s->sizes[i].line);
            return -1;
        }
    if (grow((void **)&s->sizes, s->nsizes, sizeof *s->sizes)) {
        ws_error_set(err, path, lineno, 0, "too many sizes (at most %d) or out of memory", SPEC_MAX_ITEMS);
        return -1;
    }
    s->sizes[s->nsizes++] = z;
    return 0;
}

static int set_once(int *seen, const char *key, const char *path, int lineno, ws_error *err)
{
    if (*seen) {
        ws_error_set(err, path, lineno, 1, "'%s' is already set at line %d", key, *seen);
        return -1;
    }
    *seen = lineno;
    return 0;
}

static int parse_line(ws_sweep_spec *s, const char *line, int n, const char *path, int lineno, int *seen_threads,
                      int *seen_sample, ws_error *err)
{
    word w[LINE_MAX_WORDS];
    int nw = split(line, n, w, LINE_MAX_WORDS, path, lineno, err);
    if (nw <= 0) return nw;
    static const char *const keys[] = {"variant", "size", "profile", "threads", "sample"};
    if (word_is(&w[0], "variant") || word_is(&w[0], "profile")) {
        bool variant = word_is(&w[0], "variant");
        if (nw < 2) {
            ws_error_set(err, path, lineno, 0, variant ? "'variant' needs one or more kernel names"
                                                       : "'profile' needs one or more device profile keys");
            return -1;
        }
        for (int k = 1; k < nw; k++)
            if (variant ? add_variant(s, &w[k], path, lineno, err) : add_profile(s, &w[k], path, lineno, err)) return -1;
        return 0;
    }
    if (word_is(&w[0], "size")) return add_size(s, w, nw, path, lineno, err);
    if (word_is(&w[0], "threads") || word_is(&w[0], "sample")) {
        bool threads = word_is(&w[0], "threads");
        if (set_once(threads ? seen_threads : seen_sample, threads ? "threads" : "sample", path, lineno, err)) return -1;
        if (nw != 2) {
            ws_error_set(err, path, lineno, nw > 2 ? w[2].col : 0,
                         threads ? "'threads' takes one number from 1 to 1024" : "'sample' takes one of auto, on, off");
            return -1;
        }
        if (threads) {
            char buf[16];
            int v = 0, used = 0;
            if (w[1].len < (int)sizeof buf) {
                memcpy(buf, w[1].s, w[1].len);
                buf[w[1].len] = 0;
            } else
                buf[0] = 0;
            if (sscanf(buf, "%d%n", &v, &used) != 1 || used != w[1].len || buf[0] == '+' || v < 1 || v > 1024) {
                ws_error_set(err, path, lineno, w[1].col, "'threads' takes one number from 1 to 1024, not '%.*s'",
                             w[1].len, w[1].s);
                return -1;
            }
            s->threads = v;
        } else if (word_is(&w[1], "auto")) s->sample = WS_SWEEP_SAMPLE_AUTO;
        else if (word_is(&w[1], "on")) s->sample = WS_SWEEP_SAMPLE_ON;
        else if (word_is(&w[1], "off")) s->sample = WS_SWEEP_SAMPLE_OFF;
        else {
            ws_error_set(err, path, lineno, w[1].col, "'sample' takes one of auto, on, off, not '%.*s'", w[1].len, w[1].s);
            return -1;
        }
        return 0;
    }
    char kw[WS_SWEEP_WORD_MAX];
    snprintf(kw, sizeof kw, "%.*s", w[0].len, w[0].s);
    const char *near = ws_cli_nearest(kw, keys, (int)(sizeof keys / sizeof keys[0]));
    ws_error_set(err, path, lineno, 1, "unknown keyword '%s'%s%s%s (a line is variant, size, profile, threads or sample)",
                 kw, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return -1;
}

int ws_sweep_spec_parse(const char *text, size_t len, const char *path, ws_sweep_spec *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    out->threads = 1;
    out->fingerprint = fnv1a(text, len);
    int seen_threads = 0, seen_sample = 0, lineno = 0;
    for (size_t at = 0; at < len;) {
        lineno++;
        size_t end = at;
        while (end < len && text[end] != '\n') end++;
        size_t n = end - at;
        if (n && text[at + n - 1] == '\r') n--;        /* a file saved with CRLF */
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)text[at + i];
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                ws_error_set(err, path, lineno, (int)i + 1, "control byte 0x%02x in the spec", c);
                goto fail;
            }
        }
        if (n > 65536) {
            ws_error_set(err, path, lineno, 0, "line longer than 65536 bytes");
            goto fail;
        }
        if (parse_line(out, text + at, (int)n, path, lineno, &seen_threads, &seen_sample, err)) goto fail;
        at = end + 1;
    }
    if (!out->nvariants) {
        ws_error_set(err, path, 0, 0, "no 'variant' line: a sweep needs at least one kernel");
        goto fail;
    }
    if (!out->nsizes) {                               /* no size line: the description's defaults */
        if (grow((void **)&out->sizes, 0, sizeof *out->sizes)) goto oom;
        memset(&out->sizes[0], 0, sizeof out->sizes[0]);
        snprintf(out->sizes[0].label, sizeof out->sizes[0].label, "defaults");
        out->nsizes = 1;
    }
    if (!out->nprofiles) {
        if (grow((void **)&out->profiles, 0, sizeof *out->profiles)) goto oom;
        out->profiles[0] = (ws_sweep_profile){ws_device_default(), 0};
        out->nprofiles = 1;
    }
    if ((double)out->nvariants * out->nsizes * out->nprofiles > WS_SWEEP_MAX_JOBS) {
        ws_error_set(err, path, 0, 0, "%d variants x %d sizes x %d profiles is more than %d jobs", out->nvariants,
                     out->nsizes, out->nprofiles, WS_SWEEP_MAX_JOBS);
        goto fail;
    }
    return 0;
oom:
    ws_error_set(err, path, 0, 0, "out of memory");
fail:
    ws_sweep_spec_free(out);
    return -1;
}

int ws_sweep_spec_load(const char *path, ws_sweep_spec *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    char *text = ws_read_file(path, WS_SWEEP_SPEC_MAX_BYTES, &n, err);
    if (!text) return -1;
    int line = 0, col = 0;
    if (ws_text_has_nul(text, n, &line, &col)) {
        ws_error_set(err, path, line, col, "a NUL byte in the spec (not a text file?)");
        free(text);
        return -1;
    }
    int rc = ws_sweep_spec_parse(text, n, path, out, err);
    free(text);
    return rc;
}

void ws_sweep_spec_free(ws_sweep_spec *s)
{
    free(s->variants);
    free(s->sizes);
    free(s->profiles);
    s->variants = NULL;
    s->sizes = NULL;
    s->profiles = NULL;
    s->nvariants = s->nsizes = s->nprofiles = 0;
}

long ws_sweep_count(const ws_sweep_spec *s) { return (long)s->nvariants * s->nsizes * s->nprofiles; }

int ws_sweep_job_get(const ws_sweep_spec *s, long id, ws_sweep_job *job)
{
    if (id < 1 || id > ws_sweep_count(s)) return -1;
    long k = id - 1;
    job->id = id;
    job->profile = &s->profiles[k % s->nprofiles];
    k /= s->nprofiles;
    job->size = &s->sizes[k % s->nsizes];
    job->variant = &s->variants[k / s->nsizes];
    return 0;
}

const char *ws_sweep_sample_name(ws_sweep_sample m)
{
    return m == WS_SWEEP_SAMPLE_ON ? "on" : m == WS_SWEEP_SAMPLE_OFF ? "off" : "auto";
}

int ws_sweep_sim_argv(const ws_sweep_spec *s, const ws_sweep_job *j, char *threads_buf, size_t tcap, char **argv,
                      int cap)
{
    if (cap < WS_SWEEP_ARGV_MAX) return -1;
    int n = 0;
    argv[n++] = "sim";
    argv[n++] = "--json";
    snprintf(threads_buf, tcap, "%d", s->threads);
    argv[n++] = "-j";
    argv[n++] = threads_buf;
    if (s->sample == WS_SWEEP_SAMPLE_ON) argv[n++] = "--sample";
    if (s->sample == WS_SWEEP_SAMPLE_OFF) argv[n++] = "--full";
    argv[n++] = "--device";
    argv[n++] = (char *)j->profile->dev->key;
    if (j->size->realistic) argv[n++] = "--realistic";
    for (int i = 0; i < j->size->ndefines; i++) {
        argv[n++] = "-D";
        argv[n++] = (char *)j->size->defines[i];
    }
    argv[n++] = "--";
    argv[n++] = (char *)j->variant->name;
    argv[n] = NULL;
    return n;
}

bool ws_sweep_path_is_plain(const char *s)
{
    if (!s || !*s || *s == '-') return false;
    for (; *s; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '/' || c == '+' || c == '-';
        if (!ok) return false;
    }
    return true;
}
