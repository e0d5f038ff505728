/* catalog_ptx.c - text to module for a catalog file (see catalog_ptx.h).
 * Invariant: a fresh checked-in file that does not parse is an error, never a silent
 * recompile: it is a bug worth seeing. */
#include "catalog_ptx.h"
#include "../../common/demangle.h"
#include "../../common/ptxgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ptx_module *ws_catalog_ptx_ex(const ws_desc_file *f, const char *arch, char *how, size_t how_cap, ws_error *err)
{
    if (how && how_cap) how[0] = 0;
    ws_ptx_origin o;
    char *text = ws_catalog_ptx_text(f, arch, WS_PTX_SAME_TARGET, &o, err);
    if (!text) return NULL;
    ptx_module *m = ptx_parse(o.path, text, err);
    free(text);
    if (m && how) snprintf(how, how_cap, "%s", o.how);
    return m;
}

ptx_module *ws_catalog_ptx(const ws_desc_file *f, const char *arch, ws_error *err)
{
    return ws_catalog_ptx_ex(f, arch, NULL, 0, err);
}

/* ---- which kernel a description launches ---------------------------------------------- */

/* Does the demangled name of fn match what the user wrote (split in u)? */
static bool entry_matches(const ptx_function *fn, const ws_cxx_name *u)
{
    char dem[1024];
    ws_demangle(fn->name, dem, sizeof dem);
    ws_cxx_name k;
    if (ws_cxx_name_split(dem, &k)) return false;
    /* "k" names "ns::k" too; "ns::k" must be all of it */
    size_t ul = strlen(u->base), kl = strlen(k.base);
    bool base_ok = !strcmp(k.base, u->base) || (kl > ul + 2 && !strcmp(k.base + kl - ul, u->base) &&
                                                !strncmp(k.base + kl - ul - 2, "::", 2) && !strstr(u->base, "::"));
    if (!base_ok) return false;
    char a[1024], b[1024];
    if (u->has_targs) {
        if (!k.has_targs) return false;
        ws_cxx_list_canon(u->targs, a, sizeof a);
        ws_cxx_list_canon(k.targs, b, sizeof b);
        if (strcmp(a, b)) return false;
    }
    if (u->has_params && k.has_params) {   /* an unmangled (extern "C") name has no parameter list to compare */
        ws_cxx_list_canon(u->params, a, sizeof a);
        ws_cxx_list_canon(k.params, b, sizeof b);
        if (strcmp(a, b)) return false;
    }
    return true;
}

/* "void scale<2>(float const*, float*, int), void scale<4>(...)" of the kernels in list. */
static void list_kernels(const ptx_module *m, const int *idx, int n, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n && used + 8 < cap; i++) {
        char dem[512];
        ws_demangle(m->funcs[idx ? idx[i] : i].name, dem, sizeof dem);
        int w = snprintf(out + used, cap - used, "%s%s", i ? "; " : "", dem);
        if (w < 0 || (size_t)w >= cap - used) { snprintf(out + cap - 5, 5, "..."); return; }
        used += (size_t)w;
    }
}

const ptx_function *ws_catalog_entry(const ptx_module *m, const char *ptx_text, const ws_kernel_desc *d, ws_error *err)
{
    const char *file = d->file ? d->file : "<description>";
    int line = d->entry_line ? d->entry_line : d->line, col = d->entry_line ? d->entry_col : 0;
    char low[1024];
    if (ptx_text && ws_ptxgen_lowered_name(ptx_text, d->entry, low, sizeof low)) {
        for (int i = 0; i < m->nfuncs; i++)
            if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, low)) return &m->funcs[i];
        ws_error_set(err, file, line, col, "'%s': the compiler named it %s, but the PTX (%s) has no such .entry", d->entry,
                     low, m->path);
        return NULL;
    }
    for (int i = 0; i < m->nfuncs; i++)   /* the PTX name itself */
        if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, d->entry)) return &m->funcs[i];
    ws_cxx_name u;
    if (ws_cxx_name_split(d->entry, &u)) {
        ws_error_set(err, file, line, col, "'%s' is not a kernel name", d->entry);
        return NULL;
    }
    int *hits = calloc((size_t)(m->nfuncs ? m->nfuncs : 1), sizeof *hits), nh = 0, nentries = 0;
    int *all = calloc((size_t)(m->nfuncs ? m->nfuncs : 1), sizeof *all);
    if (!hits || !all) {
        free(hits);
        free(all);
        ws_error_set(err, file, line, col, "out of memory");
        return NULL;
    }
    for (int i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i].is_entry) continue;
        all[nentries++] = i;
        if (entry_matches(&m->funcs[i], &u)) hits[nh++] = i;
    }
    const ptx_function *fn = nh == 1 ? &m->funcs[hits[0]] : NULL;
    char list[WS_MSG_MAX - 128];
    if (nh > 1) {
        list_kernels(m, hits, nh, list, sizeof list);
        ws_error_set(err, file, line, col, "'%s' is ambiguous: %d kernels match (%s); name one with its template "
                     "arguments or parameter types", d->entry, nh, list);
    } else if (nh == 0) {
        list_kernels(m, all, nentries, list, sizeof list);
        ws_error_set(err, file, line, col, "no kernel '%s' in the PTX%s (it has: %s)", d->entry,
                     u.has_targs ? "" : "; a template kernel needs its arguments, e.g. entry name<...>",
                     nentries ? list : "no kernels");
    }
    free(hits);
    free(all);
    return fn;
}
