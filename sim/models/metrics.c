/* metrics.c - the facts of the metric table (metrics.h) as data, and lookups by name.
 * The values are expanded where each scope's context is (memstats.c, report.c, check_sim.c). */
#include "metrics.h"

#include <string.h>

/* A row's scope from its place: the lists are expanded in this order into ws_metric_id. */
#define ONE(...) +1
enum { NKERNEL = 0 WS_METRICS_KERNEL(ONE), NTENSOR = 0 WS_METRICS_TENSOR(ONE), NDSMEM = 0 WS_METRICS_DSMEM(ONE),
       NSASS = 0 WS_METRICS_SASS(ONE), NREPORT = 0 WS_METRICS_REPORT(ONE), NLINE = 0 WS_METRICS_LINE(ONE) };
#define SCOPE(i) ((i) < NKERNEL ? WS_SCOPE_KERNEL : (i) < NKERNEL + NTENSOR ? WS_SCOPE_TENSOR \
                  : (i) < NKERNEL + NTENSOR + NDSMEM ? WS_SCOPE_DSMEM \
                  : (i) < NKERNEL + NTENSOR + NDSMEM + NSASS ? WS_SCOPE_SASS \
                  : (i) < NKERNEL + NTENSOR + NDSMEM + NSASS + NREPORT ? WS_SCOPE_REPORT \
                  : (i) < NKERNEL + NTENSOR + NDSMEM + NSASS + NREPORT + NLINE ? WS_SCOPE_LINE : WS_SCOPE_CHECK)

/* every column token is pasted, never expanded on its own (no macro of that name can interfere) */
#define ROW(id, name, unit, basis, judge, slack, ncu, space, op, kind, help, value) \
    [WS_METRIC_##id] = {WS_METRIC_##id, name, WS_UNIT_##unit, WS_BASIS_##basis, WS_JUDGE_##judge, slack, \
                        WS_NCU_##ncu, WS_METRIC_SPACE_##space, WS_METRIC_OP_##op, WS_KIND_##kind, \
                        SCOPE((int)WS_METRIC_##id), help},

const ws_metric_info ws_metric_table[WS_METRIC_COUNT] = {WS_METRICS(ROW)};

const ws_metric_info *ws_metric_find(const char *name)
{
    for (int i = 0; name && i < WS_METRIC_COUNT; i++)
        if (!strcmp(ws_metric_table[i].name, name))
            return &ws_metric_table[i];
    return NULL;
}

const char *ws_unit_name(ws_unit u)
{
    static const char *n[] = {"sector", "request", "wavefront", "conflict", "inst", "byte", "us", "GB/s", "%", ""};
    return (unsigned)u <= WS_UNIT_COUNT ? n[u] : "";
}

const char *ws_metric_unit(const char *name)
{
    const ws_metric_info *m = ws_metric_find(name);
    return m ? ws_unit_name(m->unit) : "";
}

const char *ws_basis_name(ws_basis b)
{
    static const char *n[] = {"exact", "model", "measured", "note", "none"};
    return (unsigned)b <= WS_BASIS_NONE ? n[b] : "?";
}
