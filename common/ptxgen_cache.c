/* ptxgen_cache.c - the key of a .cu's generated PTX and its cache entry (see ptxgen_cache.h).
 * Headers are found the way the compilers search: a quoted name in the including file's
 * folder, then (either form) the .cu's folder and each -I folder in order; a name found in none
 * of them is the toolkit's or the system's. An entry is "<info lines>\n\n<PTX>". */
#include "ptxgen_cache.h"

#include "files.h"
#include "toolcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEP_MAX_BYTES (16u << 20)

typedef struct {
    char dirs[WS_COMPILE_MAX_OPTS + 1][WS_PATH_MAX];  /* the .cu's folder, then each -I */
    int ndirs;
    char (*deps)[WS_PATH_MAX * 2];                   /* headers found, in the order met */
    int ndeps;
    char *key;                                       /* grows: one "dep=" line per header */
    size_t klen, kcap;
    bool ok;
} scan;

static void add(scan *s, const char *text)
{
    size_t n = strlen(text);
    if (s->klen + n + 1 > s->kcap) {
        size_t nc = (s->klen + n + 1) * 2;
        char *nk = realloc(s->key, nc);
        if (!nk) { s->ok = false; return; }
        s->key = nk;
        s->kcap = nc;
    }
    memcpy(s->key + s->klen, text, n + 1);
    s->klen += n;
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static void folder_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(out, cap, "%.*s", (int)(slash - path), path);
    else snprintf(out, cap, ".");
}

static void scan_text(scan *s, const char *text, size_t len, const char *dir, int depth);

/* One header: found, hashed into the key, and followed (once). */
static void include(scan *s, const char *name, bool quoted, const char *dir, int depth)
{
    char cand[WS_PATH_MAX * 2];
    bool found = false;
    if (name[0] == '/') {
        snprintf(cand, sizeof cand, "%s", name);
        found = is_file(cand);
    }
    if (!found && quoted) {
        snprintf(cand, sizeof cand, "%s/%s", dir, name);
        found = is_file(cand);
    }
    for (int i = 0; !found && name[0] != '/' && i < s->ndirs; i++) {
        snprintf(cand, sizeof cand, "%s/%s", s->dirs[i], name);
        found = is_file(cand);
    }
    if (!found) return;                      /* the toolkit's or the system's: the compiler's identity covers it */
    for (int i = 0; i < s->ndeps; i++)
        if (!strcmp(s->deps[i], cand)) return;
    if (s->ndeps == WS_PTXGEN_CACHE_MAX_DEPS || depth > 32) { s->ok = false; return; }
    snprintf(s->deps[s->ndeps++], sizeof s->deps[0], "%s", cand);
    size_t n = 0;
    char *t = ws_read_file(cand, DEP_MAX_BYTES, &n, NULL);
    if (!t) { s->ok = false; return; }
    char hash[33], line[WS_PATH_MAX * 2 + 64];
    ws_cache_hash(t, n, hash);
    snprintf(line, sizeof line, "dep=%s %s:%zu\n", cand, hash, n);
    add(s, line);
    char sub[WS_PATH_MAX * 2];
    folder_of(cand, sub, sizeof sub);
    scan_text(s, t, n, sub, depth + 1);
    free(t);
}

/* Every "#include" directive of text; a computed one makes the source uncachable. */
static void scan_text(scan *s, const char *text, size_t len, const char *dir, int depth)
{
    const char *end = text + len;
    for (const char *p = text; p < end && s->ok;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *e = eol ? eol : end;
        const char *q = p;
        while (q < e && (*q == ' ' || *q == '\t')) q++;
        if (q < e && *q == '#') {
            q++;
            while (q < e && (*q == ' ' || *q == '\t')) q++;
            if (e - q > 7 && !strncmp(q, "include", 7)) {
                q += 7;
                while (q < e && (*q == ' ' || *q == '\t')) q++;
                char close = q < e && *q == '"' ? '"' : q < e && *q == '<' ? '>' : 0;
                const char *c = close ? memchr(q + 1, close, (size_t)(e - q - 1)) : NULL;
                if (!c || c - q - 1 >= WS_PATH_MAX) {
                    s->ok = false;           /* #include MACRO, #include_next, or unreadable */
                    break;
                }
                char name[WS_PATH_MAX];
                snprintf(name, sizeof name, "%.*s", (int)(c - q - 1), q + 1);
                include(s, name, close == '"', dir, depth);
            }
        }
        p = eol ? eol + 1 : end;
    }
}

char *ws_ptxgen_cache_key(const ws_ptxgen_job *job, const char *compilers, char toolkit_inc[][WS_PATH_MAX], int n)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.ok = true;
    s.deps = calloc(WS_PTXGEN_CACHE_MAX_DEPS, sizeof *s.deps);
    if (!s.deps) return NULL;
    folder_of(job->path, s.dirs[s.ndirs++], WS_PATH_MAX);
    for (int i = 0; job->opts && i < job->opts->n; i++)
        if (!strncmp(job->opts->opt[i], "-I", 2))
            snprintf(s.dirs[s.ndirs++], WS_PATH_MAX, "%s", job->opts->opt[i] + 2);
    char line[WS_PATH_MAX * 2 + 64], cwd[WS_PATH_MAX], hash[33];
    const char *only = getenv("WARPSCOPE_PTXGEN");
    snprintf(line, sizeof line, "ptxgen 1\nonly=%s\n", only ? only : "");
    add(&s, line);
    add(&s, compilers);
    snprintf(line, sizeof line, "arch=%s\n", job->arch);
    add(&s, line);
    /* .file holds the absolute path, and relative folders are relative to here */
    snprintf(line, sizeof line, "cwd=%s\npath=%s\n", getcwd(cwd, sizeof cwd) ? cwd : "?", job->path);
    add(&s, line);
    for (int i = 0; job->opts && i < job->opts->n; i++) {
        snprintf(line, sizeof line, "opt=%s\n", job->opts->opt[i]);
        add(&s, line);
    }
    for (int i = 0; i < job->nnames; i++) {
        snprintf(line, sizeof line, "name=%.*s\n", WS_PATH_MAX * 2, job->names[i]);
        add(&s, line);
    }
    for (int i = 0; i < n; i++) {
        snprintf(line, sizeof line, "toolkit=%s\n", toolkit_inc[i]);
        add(&s, line);
    }
    ws_cache_hash(job->source, job->len, hash);
    snprintf(line, sizeof line, "source=%s:%zu\n", hash, job->len);
    add(&s, line);
    scan_text(&s, job->source, job->len, s.dirs[0], 0);
    free(s.deps);
    if (!s.ok) {
        free(s.key);
        return NULL;
    }
    return s.key;
}

char *ws_ptxgen_cache_get(const char *key, ws_ptxgen_info *info)
{
    if (!key) return NULL;
    char *e = ws_cache_get("ptx", key, NULL);
    char *body = e ? strstr(e, "\n\n") : NULL;
    if (!body) { free(e); return NULL; }
    *body = 0;
    body += 2;
    ws_ptxgen_info got;
    memset(&got, 0, sizeof got);
    int fields = 0;
    for (char *l = e; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        if (!strncmp(l, "tool=", 5)) { got.tool = (ws_ptxgen_tool)atoi(l + 5); fields++; }
        else if (!strncmp(l, "version=", 8)) { snprintf(got.version, sizeof got.version, "%s", l + 8); fields++; }
        else if (!strncmp(l, "tool_text=", 10)) { snprintf(got.tool_text, sizeof got.tool_text, "%s", l + 10); fields++; }
        else if (!strncmp(l, "why=", 4)) { snprintf(got.why, sizeof got.why, "%s", l + 4); fields++; }
        else if (!strncmp(l, "how=", 4)) { snprintf(got.how, sizeof got.how, "%s", l + 4); fields++; }
        l = nl ? nl + 1 : NULL;
    }
    char *ptx = NULL;
    /* a whole entry of ptxgen's own making: all five fields, a known tool, the PTX header */
    if (fields == 5 && (got.tool == WS_PTXGEN_NVRTC || got.tool == WS_PTXGEN_NVCC) &&
        !strncmp(body, "// warpscope-source-hash: ", 26) && (ptx = strdup(body)))
        *info = got;
    free(e);
    return ptx;
}

void ws_ptxgen_cache_put(const char *key, const ws_ptxgen_info *info, const char *ptx)
{
    if (!key || !ptx) return;
    size_t n = strlen(ptx), cap = n + sizeof *info + 128;
    char *e = malloc(cap);
    if (!e) return;
    int h = snprintf(e, cap, "tool=%d\nversion=%s\ntool_text=%s\nwhy=%s\nhow=%s\n\n", (int)info->tool, info->version,
                     info->tool_text, info->why, info->how);
    /* one line per field: a newline inside one would end the header early */
    int lines = 0;
    for (int i = 0; i < h; i++) lines += e[i] == '\n';
    if (h > 0 && (size_t)h + n < cap && lines == 6) {
        memcpy(e + h, ptx, n);
        ws_cache_put("ptx", key, e, (size_t)h + n);
    }
    free(e);
}
