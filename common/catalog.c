/* catalog.c - finding kernels: the catalog folder, resolving what the user
 * typed (a name, a .cu, a .cu:name) to a description, and the PTX for a file
 * (checked-in when its source hash matches, else compiled now).
 * Invariant: a loaded catalog has unique description names across its files,
 * and its files are sorted by path, so listings and lookups are reproducible. */
#include "catalog.h"
#include "files.h"
#include "ptxgen.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int ws_catalog_dir(char *out, size_t cap, ws_error *err)
{
    const char *env = getenv("WARPSCOPE_CATALOG");
    if (env && *env) {
        if (!is_dir(env)) {
            ws_error_set(err, "<environment>", 0, 0, "WARPSCOPE_CATALOG='%s' is not a folder", env);
            return -1;
        }
        snprintf(out, cap, "%s", env);
        return 0;
    }
    /* <dir of the executable>/../demos (build/warpscope), then ../../demos (the sanitizer build,
     * build/asan/warpscope), shown as ./demos when that is the same folder */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            for (int up = 1; up <= 2; up++) {
                char cand[PATH_MAX + 16];
                snprintf(cand, sizeof cand, "%s/%s", exe, up == 1 ? "../demos" : "../../demos");
                if (is_dir(cand)) {
                    if (is_dir("demos") && same_file(cand, "demos")) snprintf(out, cap, "demos");
                    else snprintf(out, cap, "%s", cand);
                    return 0;
                }
            }
        }
    }
    if (is_dir("demos")) {
        snprintf(out, cap, "demos");
        return 0;
    }
    ws_error_set(err, "<catalog>", 0, 0, "no catalog folder: set WARPSCOPE_CATALOG, or run from the warpscope "
                                         "folder (demos/ next to build/)");
    return -1;
}

bool ws_catalog_arg_is_file(const char *arg)
{
    size_t n = strlen(arg);
    const char *colon = strrchr(arg, ':');
    return (n >= 3 && !strcmp(arg + n - 3, ".cu")) || (colon && colon - arg >= 3 && !memcmp(colon - 3, ".cu", 3));
}

int ws_catalog_load_for(const char *const *args, int nargs, ws_catalog **out, ws_error *err)
{
    char dir[WS_PATH_MAX];
    ws_error derr;
    if (!ws_catalog_dir(dir, sizeof dir, &derr)) return ws_catalog_load(dir, out, err);
    bool all_files = nargs > 0;
    for (int i = 0; i < nargs; i++) all_files &= ws_catalog_arg_is_file(args[i]);
    if (!all_files) {                                /* a bare name is looked up in the catalog */
        if (err) *err = derr;
        *out = NULL;
        return -1;
    }
    *out = calloc(1, sizeof **out);                  /* empty: the files named are loaded on their own */
    if (!*out) {
        ws_error_set(err, "<catalog>", 0, 0, "out of memory");
        return -1;
    }
    return 0;
}

void ws_catalog_free(ws_catalog *c)
{
    if (!c) return;
    for (int i = 0; i < c->nfiles; i++) ws_desc_free(c->files[i]);
    free(c->files);
    free(c);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ws_catalog_load(const char *dir, ws_catalog **out, ws_error *err)
{
    *out = NULL;
    char dbuf[WS_PATH_MAX];
    if (!dir) {
        if (ws_catalog_dir(dbuf, sizeof dbuf, err)) return -1;
        dir = dbuf;
    }
    DIR *d = opendir(dir);
    if (!d) {
        ws_error_set(err, dir, 0, 0, "cannot open the catalog folder: %s", strerror(errno));
        return -1;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    int rc = -1;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".cu") || e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, (size_t)cap * sizeof *nn);
            if (!nn) goto oom;
            names = nn;
        }
        size_t pl = strlen(dir) + l + 2;
        if (!(names[n] = malloc(pl))) goto oom;
        snprintf(names[n], pl, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    d = NULL;
    if (n > 1) qsort(names, (size_t)n, sizeof *names, cmp_str); /* names is NULL for an empty folder */
    ws_catalog *c = calloc(1, sizeof *c);
    if (!c || (n && !(c->files = calloc((size_t)n, sizeof *c->files)))) { free(c); goto oom; }
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    for (int i = 0; i < n; i++) {
        ws_desc_file *f;
        if (ws_desc_load(names[i], &f, err)) {
            ws_catalog_free(c);
            goto done;
        }
        c->files[c->nfiles++] = f;
        /* names are unique across the catalog: a bare name must mean one kernel */
        for (int k = 0; k < f->nkernels; k++)
            for (int j = 0; j < c->nfiles - 1; j++) {
                const ws_kernel_desc *other = ws_desc_find(c->files[j], f->kernels[k].name);
                if (other) {
                    ws_error_set(err, f->path, f->kernels[k].line, 0,
                                 "description '%s' is already defined in %s:%d; catalog names must be unique",
                                 f->kernels[k].name, c->files[j]->path, other->line);
                    ws_catalog_free(c);
                    goto done;
                }
            }
    }
    *out = c;
    rc = 0;
    goto done;
oom:
    ws_error_set(err, dir, 0, 0, "out of memory");
done:
    if (d) closedir(d);
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}

/* Levenshtein distance, capped, for "did you mean" suggestions. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t l = strlen(suffix);
    return n >= l && !memcmp(s + n - l, suffix, l);
}

/* "a, b, c": the descriptions of f, cut at cap (names may be hundreds of characters long). */
static void name_list(const ws_desc_file *f, char *list, size_t cap)
{
    list[0] = 0;
    for (int i = 0; i < f->nkernels; i++) {
        size_t l = strlen(list);
        if (l + 1 >= cap) break;
        snprintf(list + l, cap - l, "%s%.*s", i ? ", " : "", (int)(cap - l), f->kernels[i].name);
    }
}

int ws_catalog_resolve(ws_catalog *c, const char *arg, const ws_desc_file **file, const ws_kernel_desc **desc,
                       ws_desc_file **owned_file, ws_error *err)
{
    *file = NULL;
    *desc = NULL;
    *owned_file = NULL;
    if (!arg || !*arg) {
        ws_error_set(err, "<command line>", 0, 0, "no kernel named");
        return -1;
    }
    /* "path.cu:name", "path.cu" or a bare name */
    const char *colon = strrchr(arg, ':');
    char path[WS_PATH_MAX] = "";
    const char *name = NULL;
    size_t alen = strlen(arg);
    if (colon && ends_with(arg, (size_t)(colon - arg), ".cu")) {
        snprintf(path, sizeof path, "%.*s", (int)(colon - arg), arg);
        name = colon + 1;
        if (!*name) {
            ws_error_set(err, "<command line>", 0, 0, "'%s': no description name after ':'", arg);
            return -1;
        }
    } else if (ends_with(arg, alen, ".cu")) {
        snprintf(path, sizeof path, "%s", arg);
    } else {
        name = arg;
    }

    if (path[0]) {
        const ws_desc_file *f = NULL;
        for (int i = 0; c && i < c->nfiles && !f; i++)
            if (!strcmp(c->files[i]->path, path) || same_file(c->files[i]->path, path)) f = c->files[i];
        if (!f) {
            ws_desc_file *nf;
            if (ws_desc_load(path, &nf, err)) return -1;
            *owned_file = nf;
            f = nf;
        }
        const ws_kernel_desc *d = NULL;
        if (name) {
            d = ws_desc_find(f, name);
            if (!d) {
                char list[300];
                name_list(f, list, sizeof list);
                ws_error_set(err, "<command line>", 0, 0, "%s has no description '%s' (it has: %s)", f->path, name, list);
                goto fail;
            }
        } else if (f->nkernels == 1) {
            d = &f->kernels[0];
        } else {
            char list[300];
            name_list(f, list, sizeof list);
            ws_error_set(err, "<command line>", 0, 0, "%s has %d descriptions (%s): name one as %s:<name>", f->path,
                         f->nkernels, list, f->path);
            goto fail;
        }
        *file = f;
        *desc = d;
        return 0;
    }

    if (!c) {
        ws_error_set(err, "<command line>", 0, 0, "unknown kernel '%s' (no catalog loaded; give a .cu file)", name);
        return -1;
    }
    for (int i = 0; i < c->nfiles; i++) {
        const ws_kernel_desc *d = ws_desc_find(c->files[i], name);
        if (d) {
            *file = c->files[i];
            *desc = d;
            return 0;
        }
    }
    struct stat st; /* a path that is not a .cu file is a likelier mistake than a misspelt name */
    if (stat(name, &st) == 0) {
        ws_error_set(err, "<command line>", 0, 0, "'%s' is %s, not a kernel: give a catalog name, path/to/k.cu or "
                     "path/to/k.cu:name", name, S_ISDIR(st.st_mode) ? "a folder" : "not a .cu file");
        return -1;
    }
    const char *best = NULL;
    int best_d = 4;
    for (int i = 0; i < c->nfiles; i++)
        for (int k = 0; k < c->files[i]->nkernels; k++) {
            int dd = edit_distance(name, c->files[i]->kernels[k].name);
            if (dd < best_d) { best_d = dd; best = c->files[i]->kernels[k].name; }
        }
    if (best)
        ws_error_set(err, "<command line>", 0, 0, "unknown kernel '%s' (did you mean '%s'? 'warpscope list' shows the catalog)",
                     name, best);
    else
        ws_error_set(err, "<command line>", 0, 0, "unknown kernel '%s' ('warpscope list' shows the catalog in %s)", name,
                     c->dir);
    return -1;
fail:
    if (*owned_file) { ws_desc_free(*owned_file); *owned_file = NULL; }
    return -1;
}

/* The hash in a "// warpscope-source-hash: <16 hex>" first line; false if absent. */
static bool header_hash(const char *text, unsigned long long *h)
{
    const char *tag = "// warpscope-source-hash: ";
    if (strncmp(text, tag, strlen(tag))) return false;
    char *end;
    *h = strtoull(text + strlen(tag), &end, 16);
    return end == text + strlen(tag) + 16 && (*end == '\n' || *end == '\r');
}

/* The word after the text's ".target" directive ("sm_90"), "" when there is none. */
static void target_of(const char *text, char *out, size_t cap)
{
    out[0] = 0;
    for (const char *p = strstr(text, ".target"); p; p = strstr(p + 1, ".target")) {
        if (p != text && p[-1] != '\n' && p[-1] != ' ' && p[-1] != '\t') continue; /* not a directive */
        const char *q = p + strlen(".target");
        while (*q == ' ' || *q == '\t') q++;
        size_t n = strcspn(q, ", \t\r\n");
        if (n >= cap) n = cap - 1;
        memcpy(out, q, n);
        out[n] = 0;
        return;
    }
}

/* 90 for "sm_90" or "sm_90a", 0 when not an sm_ target. */
static int sm_number(const char *target)
{
    return strncmp(target, "sm_", 3) ? 0 : atoi(target + 3);
}

/* The entries of f that name one function exactly, each once, in description order. */
static int exact_names(const ws_desc_file *f, const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < f->nkernels; i++) {
        const ws_kernel_desc *d = &f->kernels[i];
        if (!d->entry_exact) continue;
        bool seen = false;
        for (int j = 0; j < n && !seen; j++) seen = !strcmp(names[j], d->entry);
        if (!seen && n < max) names[n++] = d->entry;
    }
    return n;
}

/* Was a checked-in text made with these options and does it name every one of names? */
static bool made_for(const char *text, const ws_compile_opts *opts, const char **names, int nnames)
{
    char have[WS_COMPILE_MAX_OPTS * WS_COMPILE_OPT_MAX], want[WS_COMPILE_MAX_OPTS * WS_COMPILE_OPT_MAX];
    ws_ptxgen_text_options(text, have, sizeof have);
    ws_compile_opts_text(opts, want, sizeof want);
    if (strcmp(have, want)) return false;
    for (int i = 0; i < nnames; i++) {
        char low[8];
        if (!ws_ptxgen_lowered_name(text, names[i], low, sizeof low)) return false;
    }
    return true;
}

char *ws_catalog_ptx_text_for(const ws_desc_file *f, const ws_launch *L, const char *arch, ws_ptx_match match,
                              ws_ptx_origin *origin, ws_error *err)
{
    ws_ptx_origin scratch;
    ws_ptx_origin *o = origin ? origin : &scratch;
    memset(o, 0, sizeof *o);
    if (L && L->target[0]) {
        /* an architecture-specific target (sm_90a) is its GPU's own target plus instructions only that
           chip has: asked for where that GPU is, refused elsewhere, as the driver refuses such a cubin */
        if (arch && sm_number(arch) != sm_number(L->target)) {
            ws_error_set(err, f->path, L->desc ? L->desc->target_line : 0, 0,
                         "%s: 'target %s' runs only on a GPU of compute capability %d.%d (H100, H200), and this "
                         "run is for %s", L->desc ? L->desc->name : "kernel", L->target, sm_number(L->target) / 10,
                         sm_number(L->target) % 10, arch);
            return NULL;
        }
        arch = L->target;
    }
    if (!arch) arch = "sm_90";
    bool own_target = L && L->target[0];
    if (own_target) {                            /* the description needs its own target (sm_90a): exactly it */
        arch = L->target;
        match = WS_PTX_SAME_TARGET;
    } else {                                     /* asked for a target that has its own text: x.sm_90a.ptx */
        size_t pl = strlen(f->path);
        char tp[WS_PATH_MAX + 24];
        if (pl > 3 && !strcmp(f->path + pl - 3, ".cu") && strlen(arch) < 16) {
            snprintf(tp, sizeof tp, "%.*s.%s.ptx", (int)(pl - 3), f->path, arch);
            own_target = access(tp, F_OK) == 0;
        }
        if (own_target) match = WS_PTX_SAME_TARGET;
    }
    static const ws_compile_opts none;
    const ws_compile_opts *opts = L ? &L->compile : f->nkernels ? &f->kernels[0].compile : &none;
    const char *names[64];
    int nnames = exact_names(f, names, 64);
    char sib[WS_PATH_MAX + 8];
    size_t l = strlen(f->path);
    /* a description's own target has its own checked-in text beside the file's: x.sm_90a.ptx */
    char tsuf[18] = "";
    if (own_target) snprintf(tsuf, sizeof tsuf, ".%.15s", arch);
    int keep = (int)(l > 3 && !strcmp(f->path + l - 3, ".cu") ? l - 3 : l);
    if (keep > WS_PATH_MAX - 24) keep = WS_PATH_MAX - 24;  /* a path this long is no catalog file's */
    snprintf(sib, sizeof sib, "%.*s%s.ptx", keep, f->path, tsuf);
    unsigned long long want = ws_source_hash(f->source, f->source_len), have = 0;
    size_t text_len = 0;
    ws_error rerr;
    char *text = ws_read_file(sib, 0, &text_len, &rerr);
    struct stat sst;
    if (!text && lstat(sib, &sst) == 0) {         /* there but unreadable: a FIFO, a device, too large */
        if (err) *err = rerr;
        return NULL;
    }
    int nul_line, nul_col;
    if (text && ws_text_has_nul(text, text_len, &nul_line, &nul_col)) {
        /* the parser sees text up to the first NUL: a file cut short there must not pass as whole */
        ws_error_set(err, sib, nul_line, nul_col, "NUL byte in the PTX text (a binary or damaged file); "
                     "regenerate it with 'make ptx' or delete it");
        free(text);
        return NULL;
    }
    bool fresh = text && header_hash(text, &have) && have == want && made_for(text, opts, names, nnames);
    char target[32] = "";
    if (fresh) {
        target_of(text, target, sizeof target);
        bool same = !strcmp(target, arch);
        /* a driver JIT-compiles PTX for its own or any older target */
        bool loadable = sm_number(target) > 0 && sm_number(target) <= sm_number(arch);
        if (same || (match == WS_PTX_LOADABLE && loadable)) {
            o->checked_in = true;
            snprintf(o->path, sizeof o->path, "%s", sib);
            snprintf(o->compiler, sizeof o->compiler, "checked-in PTX (%.400s)", sib);
            if (same) snprintf(o->how, sizeof o->how, "%s (checked in, fresh)", sib);
            else snprintf(o->how, sizeof o->how, "%s (checked in, fresh, .target %s for %s)", sib, target, arch);
            return text;
        }
    }
    ws_ptxgen_job job = {f->path, f->source, f->source_len, arch, opts, nnames, names};
    ws_ptxgen_info info;
    ws_error cerr;
    char *ptx = ws_ptxgen_run(&job, &info, &cerr);
    if (ptx) {
        free(text);
        o->tool = info.tool;
        snprintf(o->path, sizeof o->path, "%s (PTX from %s)", f->path, info.tool == WS_PTXGEN_NVRTC ? "nvrtc" : "nvcc");
        snprintf(o->how, sizeof o->how, "compiled now with %s for %s%s%.200s%s", info.tool_text, arch,
                 info.why[0] ? " (" : "", info.why, info.why[0] ? ")" : "");
        snprintf(o->compiler, sizeof o->compiler, "%s", info.how);
        return ptx;
    }
    if (fresh && match == WS_PTX_SAME_TARGET && !own_target) {
        /* no compiler for the requested target: the fresh checked-in PTX is the same source */
        fprintf(stderr, "warpscope: note: %s; using %s, compiled for %s, as an approximation for %s (its PTX, "
                "registers and SASS are %s's)\n", cerr.msg, sib, target, arch, target);
        o->checked_in = true;
        snprintf(o->path, sizeof o->path, "%s", sib);
        snprintf(o->compiler, sizeof o->compiler, "checked-in PTX (%.400s)", sib);
        snprintf(o->how, sizeof o->how, "%s (checked in, fresh, for %s: %s not compiled)", sib, target, arch);
        return text;
    }
    if (text && !fresh && have == want && !made_for(text, opts, names, nnames)) {
        ws_error_set(err, cerr.file, cerr.line, cerr.col, "%s was made without this launch's compile options or "
                     "instantiations, and compiling failed: %.300s", sib, cerr.msg);
    } else if (text && !fresh) {
        ws_error_set(err, cerr.file, cerr.line, cerr.col, "%s is stale (source hash %016llx, .cu is %016llx) and "
                     "recompiling failed: %.300s", sib, have, want, cerr.msg);
    } else if (err) {
        *err = cerr;
    }
    free(text);
    return NULL;
}

char *ws_catalog_ptx_text(const ws_desc_file *f, const char *arch, ws_ptx_match match, ws_ptx_origin *origin,
                          ws_error *err)
{
    return ws_catalog_ptx_text_for(f, NULL, arch, match, origin, err);
}
