/* resources.c - the ptxas resource report beside a .cu, or an estimate from the PTX
 * (see resources.h). Invariant: a line is used only when its first word is exactly the
 * entry's name and it carries at least "regs=": a partial line is not a report. */
#include "resources.h"

#include <stdio.h>
#include <string.h>

int ws_resources_read(const char *cu_path, const char *entry, ws_resources *r)
{
    char path[WS_PATH_MAX];
    size_t n = strlen(cu_path);
    if (n < 3 || strcmp(cu_path + n - 3, ".cu") != 0 || n + 8 >= sizeof path)
        return -1;
    snprintf(path, sizeof path, "%.*s.resources", (int)(n - 3), cu_path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        char name[512];
        int regs = -1;
        unsigned long shared = 0, local = 0;
        if (line[0] == '#' || sscanf(line, "%511s regs=%d shared=%lu local=%lu", name, &regs, &shared, &local) < 2)
            continue;
        if (strcmp(name, entry) != 0)
            continue;
        r->regs = regs;
        r->static_smem = (uint32_t)shared;
        r->local_bytes = local;
        r->from_ptxas = true;
        snprintf(r->source, sizeof r->source, "ptxas, %s", path);
        found = 0;
    }
    fclose(f);
    return found;
}

void ws_resources_of(const char *cu_path, const ptx_function *fn, ws_resources *r)
{
    if (ws_resources_read(cu_path, fn->name, r) == 0)
        return;
    r->regs = WS_ESTIMATED_REGS;
    r->static_smem = (uint32_t)fn->static_shared_bytes;
    r->local_bytes = fn->local_bytes;
    r->from_ptxas = false;
    snprintf(r->source, sizeof r->source, "estimate: no ptxas report for %s; %d assumed", fn->name,
             WS_ESTIMATED_REGS);
}
