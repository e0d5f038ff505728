/* cmd_list.c - `warpscope list [--json] [files.cu...]`: every description in the
 * catalog (or in the files given) with its note, stars, parameters and launch
 * shape, as written and as evaluated with the defaults.
 * Invariant: output order is the catalog's (files by path, descriptions in file
 * order); any file that does not parse makes the command fail with its error. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cli.h"
#include "text.h"
#include "commands.h"
#include "desc.h"
#include "desc_text.h"
#include "emit.h"

/* The document `list` prints: the catalog folder (NULL for files given) and its files. */
typedef struct {
    const char *catalog_dir;
    const ws_desc_file *const *files;
    int nfiles;
} list_doc;

static const ws_opt list_options[] = {
    {.name = "json", .kind = WS_OPT_FLAG, .at = offsetof(ws_cli_common, json),
     .help = "one JSON document: {..., \"catalog\": dir|null, \"files\": [{\"path\", \"kernels\": [...]}]}"},
};

static const ws_cli_spec list_spec = {
    .command = "list",
    .usage = "usage: warpscope list [--json] [file.cu ...]\n",
    .about = "Lists kernel descriptions: name, file, note, difficulty stars, parameters with their\n"
             "defaults, and grid/block as written (and evaluated with the defaults).\n"
             "Without files it lists the catalog ($WARPSCOPE_CATALOG, else demos/ beside the program).\n",
    .opts = list_options,
    .nopts = WS_CLI_COUNT(list_options),
};

/* The working set (the sum of buffer bytes) at the defaults and, beside it, the realistic line's
 * sizes and class (desc.h): "default 8.0 MiB; realistic N = 1<<25: 256.0 MiB". */
static int working_set(const ws_kernel_desc *d, bool realistic, uint64_t *bytes, ws_error *err)
{
    static ws_overrides ov;                    /* zero but for the flag; static: it is large */
    ov.realistic = realistic;
    ws_launch *L = malloc(sizeof *L);
    int rc = L ? ws_desc_resolve(d, &ov, L, err) : -1;
    if (!rc) *bytes = ws_launch_working_set(L);
    else if (!L) snprintf(err->msg, sizeof err->msg, "out of memory");
    free(L);
    return rc;
}

/* 4 B, 1.5 KiB, 256.0 MiB */
static void bytes_text(uint64_t b, char *out, size_t cap)
{
    if (b < 1024) snprintf(out, cap, "%llu B", (unsigned long long)b);
    else if (b < 1048576) snprintf(out, cap, "%.1f KiB", b / 1024.0);
    else snprintf(out, cap, "%.1f MiB", b / 1048576.0);
}

static void sizes_text(const ws_kernel_desc *d, char *out, size_t cap)
{
    char h[32];
    uint64_t b;
    ws_error err;
    size_t n = 0;
    if (working_set(d, false, &b, &err) == 0) {
        bytes_text(b, h, sizeof h);
        n += (size_t)snprintf(out, cap, "default %s", h);
    }
    else n += (size_t)snprintf(out, cap, "default (does not evaluate)");
    if (d->realistic_class == WS_REAL_NONE) {
        snprintf(out + n, cap - n, "; no realistic line");
        return;
    }
    n += (size_t)snprintf(out + n, cap - n, "; realistic%s%s", d->realistic_class == WS_REAL_DRAM ? "" : " ",
                          d->realistic_class == WS_REAL_DRAM ? "" : ws_realistic_class_name(d->realistic_class));
    for (int i = 0; i < d->nrealistic && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s %s = %s", i ? "," : "", d->params[d->realistic[i].param].name,
                              ws_expr_source(d->realistic[i].value));
    if (n >= cap) return;
    if (working_set(d, true, &b, &err) == 0) {
        bytes_text(b, h, sizeof h);
        snprintf(out + n, cap - n, ": %s", h);
    }
    else snprintf(out + n, cap - n, " (does not evaluate: %.80s)", err.msg);
}

/* "32, 32" from the evaluated dims of a resolved launch. */
static void dims_text(const uint32_t *v, int n, char *out, size_t cap)
{
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "%s%u", i ? ", " : "", v[i]);
    }
}

static int list_text(FILE *out, const void *body, ws_part part)
{
    (void)part;
    const list_doc *doc = body;
    const ws_desc_file *const *files = doc->files;
    const int nfiles = doc->nfiles;
    int total = 0;
    for (int fi = 0; fi < nfiles; fi++) {
        const ws_desc_file *f = files[fi];
        fprintf(out, "%s\n", f->path);
        for (int k = 0; k < f->nkernels; k++) {
            const ws_kernel_desc *d = &f->kernels[k];
            char stars[4] = "   ";
            for (int s = 0; s < d->stars && s < 3; s++) stars[s] = '*';
            char note[3 * WS_NOTE_MAX];      /* a note is the author's text: no terminal controls */
            fprintf(out, "  %-28s %s  %s\n", d->name, stars, ws_text_visible(d->note, note, sizeof note));
            char buf[256], line[1024] = "";
            for (int p = 0; p < d->nparams; p++) {
                ws_desc_param_text(f, d, p, buf, sizeof buf);
                size_t l = strlen(line);
                snprintf(line + l, sizeof line - l, "%s%s = %s", p ? ", " : "", d->params[p].name, buf);
            }
            if (d->nparams) fprintf(out, "  %-28s      params  %s\n", "", line);
            char grid[128], block[128];
            ws_desc_keyword_text(f, d, "grid", grid, sizeof grid);
            ws_desc_keyword_text(f, d, "block", block, sizeof block);
            ws_launch L;
            ws_error err;
            char evaluated[128] = "";
            if (ws_desc_resolve(d, NULL, &L, &err) == 0) {
                char g[48], b[48];
                dims_text(L.grid, d->ngrid, g, sizeof g);
                dims_text(L.block, d->nblock, b, sizeof b);
                snprintf(evaluated, sizeof evaluated, "   = grid (%s) block (%s)", g, b);
            } else {
                snprintf(evaluated, sizeof evaluated, "   (does not evaluate: %.80s)", err.msg);
            }
            fprintf(out, "  %-28s      launch  grid %s; block %s%s\n", "", grid, block, evaluated);
            char sizes[1024];
            sizes_text(d, sizes, sizeof sizes);
            fprintf(out, "  %-28s      sizes   %s\n", "", sizes);
            total++;
        }
    }
    fprintf(out, "%d description%s in %d file%s\n", total, total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s");
    return 0;
}

static cJSON *dims_json(const uint32_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static int list_json(cJSON *root, const void *body)
{
    const list_doc *doc = body;
    const char *catalog_dir = doc->catalog_dir;
    const ws_desc_file *const *files = doc->files;
    const int nfiles = doc->nfiles;
    if (catalog_dir) cJSON_AddStringToObject(root, "catalog", catalog_dir);
    else cJSON_AddNullToObject(root, "catalog");
    cJSON *jfiles = cJSON_AddArrayToObject(root, "files");
    for (int fi = 0; fi < nfiles; fi++) {
        const ws_desc_file *f = files[fi];
        cJSON *jf = cJSON_CreateObject();
        cJSON_AddItemToArray(jfiles, jf);
        cJSON_AddStringToObject(jf, "path", f->path);
        cJSON *jk = cJSON_AddArrayToObject(jf, "kernels");
        for (int k = 0; k < f->nkernels; k++) {
            const ws_kernel_desc *d = &f->kernels[k];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(jk, o);
            cJSON_AddStringToObject(o, "name", d->name);
            cJSON_AddStringToObject(o, "entry", d->entry);
            cJSON_AddStringToObject(o, "file", f->path);
            cJSON_AddNumberToObject(o, "line", d->line);
            cJSON_AddStringToObject(o, "note", d->note);
            cJSON_AddNumberToObject(o, "stars", d->stars);
            ws_launch L;
            ws_error err;
            bool ok = ws_desc_resolve(d, NULL, &L, &err) == 0;
            cJSON *jp = cJSON_AddArrayToObject(o, "params");
            for (int p = 0; p < d->nparams; p++) {
                char buf[256];
                ws_desc_param_text(f, d, p, buf, sizeof buf);
                cJSON *po = cJSON_CreateObject();
                cJSON_AddItemToArray(jp, po);
                cJSON_AddStringToObject(po, "name", d->params[p].name);
                cJSON_AddStringToObject(po, "default", buf);
                if (ok && p < L.nparams) cJSON_AddNumberToObject(po, "value", (double)L.param_values[p]);
            }
            char buf[256];
            ws_desc_keyword_text(f, d, "grid", buf, sizeof buf);
            cJSON_AddStringToObject(o, "grid", buf);
            ws_desc_keyword_text(f, d, "block", buf, sizeof buf);
            cJSON_AddStringToObject(o, "block", buf);
            ws_desc_keyword_text(f, d, "shared", buf, sizeof buf);
            if (buf[0]) cJSON_AddStringToObject(o, "shared", buf);
            uint64_t ws;
            ws_error werr;
            if (ok) cJSON_AddNumberToObject(o, "working_set_bytes", (double)ws_launch_working_set(&L));
            if (d->realistic_class != WS_REAL_NONE) {  /* the realistic line: class, sizes, working set */
                cJSON *r = cJSON_AddObjectToObject(o, "realistic");
                cJSON_AddStringToObject(r, "class", ws_realistic_class_name(d->realistic_class));
                cJSON *jr = cJSON_AddObjectToObject(r, "params");
                for (int i = 0; i < d->nrealistic; i++)
                    cJSON_AddStringToObject(jr, d->params[d->realistic[i].param].name,
                                            ws_expr_source(d->realistic[i].value));
                if (working_set(d, true, &ws, &werr) == 0) cJSON_AddNumberToObject(r, "working_set_bytes", (double)ws);
                else cJSON_AddStringToObject(r, "error", werr.msg);
            } else {
                cJSON_AddNullToObject(o, "realistic");
            }
            if (ok) {
                cJSON_AddItemToObject(o, "grid_value", dims_json(L.grid, 3));
                cJSON_AddItemToObject(o, "block_value", dims_json(L.block, 3));
                cJSON_AddNumberToObject(o, "shared_bytes", (double)L.shared_bytes);
            } else {
                cJSON_AddStringToObject(o, "error", err.msg);
            }
        }
    }
    return 0;
}

static const ws_doc_kind list_kind = {.command = "list", .text = list_text, .json = list_json};

int ws_cmd_list(int argc, char **argv)
{
    ws_cli_common o = {.json = false};
    int nfiles;
    int rc = ws_cli_parse(&list_spec, argc, argv, &o, &nfiles);
    if (rc != WS_CLI_RUN)
        return rc;
    const bool json = o.json;
    ws_error err;
    ws_catalog *cat = NULL;
    ws_desc_file **own = NULL;
    const ws_desc_file **files = NULL;
    int n = 0;
    rc = WS_EXIT_OK;
    if (nfiles == 0) {
        if (ws_catalog_load(NULL, &cat, &err)) {
            ws_error_print(&err);
            return WS_EXIT_USAGE;
        }
        files = (const ws_desc_file **)cat->files;
        n = cat->nfiles;
    } else {
        own = calloc((size_t)nfiles, sizeof *own);
        if (!own) return WS_EXIT_INTERNAL;
        for (int i = 1; i <= nfiles; i++) {
            if (ws_desc_load(argv[i], &own[n], &err)) {
                ws_error_print(&err);
                rc = WS_EXIT_USAGE;
                goto done;
            }
            n++;
        }
        files = (const ws_desc_file **)own;
    }
    list_doc doc = {cat ? cat->dir : NULL, files, n};
    if (ws_emit(stdout, ws_emit_format(json, false, WS_FMT_TEXT), &(ws_doc){&list_kind, &doc}))
        rc = WS_EXIT_INTERNAL;
done:
    for (int i = 0; own && i < n; i++) ws_desc_free(own[i]);
    free(own);
    ws_catalog_free(cat);
    return rc;
}
