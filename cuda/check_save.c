/* check_save.c - the simulator's and the GPU's buffers of one check, side by side (check_save.h). */
#include "check_save.h"

#include <stdio.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/save.h"

static int save_side(const char *base, const char *side, const chk_save_opts *o, const ws_launch *L, void *const *data,
                     ws_error *err)
{
    char dir[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 16];
    snprintf(dir, sizeof dir, "%s/%s", base, side);
    if (ws_save_mkdir(dir, err)) return WS_EXIT_USAGE;
    ws_save_opts so = {.computed_by = strcmp(side, "gpu") ? "simulator" : "gpu", .overrides = o->overrides,
                       .entry = o->entry, .inputs = o->inputs};
    return ws_save_buffers(dir, L, data, &so, NULL, err);
}

int chk_save_run(const chk_save_opts *o, const ws_launch *L, void *const *sim, void *const *gpu, char *where,
                 size_t where_cap, ws_error *err)
{
    char base[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 8];
    const char *name = L->desc ? L->desc->name : "";
    if (o->per_kernel) {
        /* a description name is a C identifier (desc.c); anything else would not stay inside dir */
        bool ident = name[0] && !(name[0] >= '0' && name[0] <= '9');
        for (const char *c = name; *c && ident; c++)
            ident = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
        if (!ident) {
            ws_error_set(err, "<command line>", 0, 0, "cannot save kernel '%.60s' under %s: its name is not a C identifier",
                         name, o->dir);
            return WS_EXIT_USAGE;
        }
        snprintf(base, sizeof base, "%s/%s", o->dir, name);
    } else {
        snprintf(base, sizeof base, "%s", o->dir);
    }
    if (where && where_cap) snprintf(where, where_cap, "%s", base);
    int rc = sim ? save_side(base, "sim", o, L, sim, err) : WS_EXIT_OK;
    if (!rc) rc = save_side(base, "gpu", o, L, gpu, err);
    return rc;
}
