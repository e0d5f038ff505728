/* ncu_csv.c - tolerant reader of ncu --csv output (see ncu_csv.h).
 * Design: scan line by line; only lines starting with '"' can be CSV; the
 * first such line holding "Metric Name" and "Metric Value" fields is the header;
 * data rows must have the header's field count. Everything else is ignored
 * except ncu's own ==ERROR==/==WARNING== lines, kept for the error message. */
#include "ncu_csv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 48

int cu_csv_split(const char *line, char **out, int max, char *storage, size_t cap)
{
    int n = 0;
    size_t w = 0;
    const char *p = line;
    if (!cap) return -1;
    for (;;) {
        if (n >= max || w >= cap) return n;
        out[n++] = storage + w;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) return -1; /* unterminated */
                if (*p == '"') {
                    if (p[1] == '"') { if (w + 1 < cap) storage[w++] = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                if (w + 1 < cap) storage[w++] = *p;
                p++;
            }
            while (*p && *p != ',') p++; /* junk after a closing quote is dropped */
        } else {
            while (*p && *p != ',') {
                if (w + 1 < cap) storage[w++] = *p;
                p++;
            }
        }
        storage[w++] = 0;
        if (*p != ',') return n;
        p++;
    }
}

int cu_ncu_number(const char *s, double *out)
{
    char buf[96];
    size_t w = 0;
    while (isspace((unsigned char)*s)) s++;
    for (; *s && w + 1 < sizeof buf; s++) {
        if (*s == ',') continue; /* thousands separator */
        if (isspace((unsigned char)*s)) break;
        buf[w++] = *s;
    }
    buf[w] = 0;
    if (!w) return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end || errno == ERANGE) return -1;
    if (!(v == v)) return -1; /* "nan" spelled out is not a measurement */
    *out = v;
    return 0;
}

const cu_metric *cu_counters_get(const cu_counters *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->m[i].name, name)) return &c->m[i];
    return NULL;
}

static int column(char **f, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(f[i], name)) return i;
    return -1;
}

int cu_ncu_parse(const char *text, cu_counters *c, ws_error *err)
{
    memset(c, 0, sizeof *c);
    char *line = NULL, *storage = NULL;
    size_t line_cap = 0;
    int ncols = 0, col_id = -1, col_kernel = -1, col_name = -1, col_unit = -1, col_value = -1;
    int rows = 0;
    char first_id[32] = "";
    char last_other_id[32] = "";
    const char *p = text ? text : "";
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len + 1 > line_cap) {
            line_cap = 2 * (len + 1);
            char *nl = realloc(line, line_cap), *ns = realloc(storage, line_cap);
            if (!nl || !ns) {
                free(nl ? nl : line);
                free(ns ? ns : storage);
                ws_error_set(err, "ncu", 0, 0, "out of memory reading ncu output");
                return -1;
            }
            line = nl;
            storage = ns;
        }
        memcpy(line, p, len);
        line[len] = 0;
        if (len && line[len - 1] == '\r') line[--len] = 0;
        p = e ? e + 1 : p + len;

        if (!strncmp(line, "==ERROR==", 9)) {
            if (!c->tool_error[0]) snprintf(c->tool_error, sizeof c->tool_error, "%s", line);
            if (strstr(line, "ERR_NVGPUCTRPERM")) c->permission = true;
            continue;
        }
        if (strstr(line, "ERR_NVGPUCTRPERM")) c->permission = true;
        if (!strncmp(line, "==WARNING==", 11) && strstr(line, "No kernels were profiled")) {
            c->no_kernels = true;
            continue;
        }
        if (line[0] != '"') continue; /* the program's own output, ==PROF== lines */
        char *f[MAX_FIELDS];
        int n = cu_csv_split(line, f, MAX_FIELDS, storage, line_cap);
        if (n <= 0) continue;
        int cn = column(f, n, "Metric Name"), cv = column(f, n, "Metric Value");
        if (cn >= 0 && cv >= 0) { /* a header (ncu repeats it per process) */
            ncols = n;
            col_name = cn;
            col_value = cv;
            col_unit = column(f, n, "Metric Unit");
            col_id = column(f, n, "ID");
            col_kernel = column(f, n, "Kernel Name");
            continue;
        }
        if (!ncols || n != ncols) continue;
        const char *id = col_id >= 0 ? f[col_id] : "0";
        if (!first_id[0]) {
            snprintf(first_id, sizeof first_id, "%s", id);
            snprintf(c->id, sizeof c->id, "%s", id);
            if (col_kernel >= 0) snprintf(c->kernel, sizeof c->kernel, "%s", f[col_kernel]);
            c->launches = 1;
        } else if (strcmp(id, first_id)) {
            if (strcmp(id, last_other_id)) { /* IDs arrive grouped; count each new one */
                c->launches++;
                snprintf(last_other_id, sizeof last_other_id, "%s", id);
            }
            continue;
        }
        const char *name = f[col_name];
        cu_metric *m = NULL;
        for (int i = 0; i < c->n && !m; i++)
            if (!strcmp(c->m[i].name, name)) m = &c->m[i];
        if (!m) {
            if (c->n >= CU_MAX_METRICS) { c->dropped++; continue; }
            m = &c->m[c->n++];
        }
        memset(m, 0, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", name);
        if (col_unit >= 0) snprintf(m->unit, sizeof m->unit, "%s", f[col_unit]);
        snprintf(m->raw, sizeof m->raw, "%s", f[col_value]);
        m->numeric = cu_ncu_number(f[col_value], &m->value) == 0;
        rows++;
    }
    free(line);
    free(storage);
    if (rows) return 0;
    if (c->permission)
        ws_error_set(err, "ncu", 0, 0,
                     "ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run as root or set the "
                     "nvidia module option NVreg_RestrictProfilingToAdminUsers=0");
    else if (c->tool_error[0])
        ws_error_set(err, "ncu", 0, 0, "ncu failed: %s", c->tool_error);
    else if (c->no_kernels)
        ws_error_set(err, "ncu", 0, 0, "ncu profiled no kernel (the kernel-name filter matched no launch)");
    else if (ncols)
        ws_error_set(err, "ncu", 0, 0, "ncu printed a CSV header but no metric rows");
    else
        ws_error_set(err, "ncu", 0, 0, "no CSV in ncu's output (no line with \"Metric Name\" and \"Metric Value\")");
    return -1;
}

bool cu_ncu_metric_listed(const char *query_text, const char *metric)
{
    char base[CU_METRIC_NAME_MAX];
    size_t n = strcspn(metric, ".");
    if (!n || n >= sizeof base) return false;
    memcpy(base, metric, n);
    base[n] = 0;
    for (const char *p = strstr(query_text, base); p; p = strstr(p + 1, base)) {
        bool at_line_start = p == query_text || p[-1] == '\n';
        char after = p[n];
        if (at_line_start && (after == ' ' || after == '\t' || after == '\n' || after == '\r' || after == 0))
            return true;
    }
    return false;
}
