/* cu_target.c - kernel name -> resolved launch + PTX + entry (see cu_target.h). */
#include "cu_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/params.h"

int cu_target_open(ws_catalog *c, const char *arg, const ws_overrides *ov, int cc_major, int cc_minor,
                   cu_target *t, ws_error *err)
{
    memset(t, 0, sizeof *t);
    if (ws_catalog_resolve(c, arg, &t->file, &t->desc, &t->owned, err)) return WS_EXIT_USAGE;
    if (ws_desc_resolve(t->desc, ov, &t->launch, err)) goto usage;
    /* the text the simulator parses too; the device's driver JIT-compiles it */
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", cc_major * 10 + cc_minor);
    ws_ptx_origin origin;
    t->ptx = ws_catalog_ptx_text_for(t->file, &t->launch, cc_major ? arch : NULL, WS_PTX_LOADABLE, &origin, err);
    if (!t->ptx) goto usage;
    snprintf(t->ptx_how, sizeof t->ptx_how, "%s", origin.how);
    t->module = ptx_parse(origin.path, t->ptx, err);
    if (!t->module) goto usage;
    t->fn = ws_catalog_entry(t->module, t->ptx, t->desc, err); /* the exact instantiation or overload */
    if (!t->fn) goto usage;
    /* the arguments are packed by the simulator's rule (sim/frontend/params.h) before any device memory
     * exists, so a refusal is an input error with the simulator's message, on any machine */
    static uint8_t scratch[WS_MAX_PARAM_BYTES];
    uint64_t no_addr[WS_MAX_BUFFERS] = {0};
    if (ws_params_pack(t->fn, &t->launch, no_addr, scratch, sizeof scratch, NULL, err)) goto usage;
    return 0;
usage:
    cu_target_close(t);
    return WS_EXIT_USAGE;
}

void cu_target_close(cu_target *t)
{
    if (t->module) ptx_free(t->module);
    free(t->ptx);
    if (t->owned) ws_desc_free(t->owned);
    memset(t, 0, sizeof *t);
}

int cu_target_names_exist(const char *const *args, int n, ws_error *err)
{
    ws_catalog *cat = NULL;
    if (ws_catalog_load(NULL, &cat, err)) return WS_EXIT_USAGE;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const ws_desc_file *f;
        const ws_kernel_desc *d;
        ws_desc_file *owned = NULL;
        if (ws_catalog_resolve(cat, args[i], &f, &d, &owned, err)) rc = WS_EXIT_USAGE;
        ws_desc_free(owned);
    }
    ws_catalog_free(cat);
    return rc;
}
