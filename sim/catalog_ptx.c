/* catalog_ptx.c - text to module for a catalog file (see catalog_ptx.h).
 * Invariant: a fresh checked-in file that does not parse is an error, never a silent
 * recompile: it is a bug worth seeing. */
#include "catalog_ptx.h"

#include <stdio.h>
#include <stdlib.h>

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
