/* event.c - names for the memory event stream's enums (see event.h).
 * Invariant: every enum value has a name; out-of-range values give "?". */
#include "event.h"

const char *ws_space_name(ws_space s)
{
    static const char *const names[] = { "global", "shared", "local", "const", "param" };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *ws_mem_kind_name(ws_mem_kind k)
{
    static const char *const names[] = { "", "cp.async", "ldmatrix", "stmatrix", "wmma", "cp.async.bulk",
                                         "cp.async.bulk.tensor", "wgmma" };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *ws_mem_op_name(ws_mem_op o)
{
    static const char *const names[] = { "load", "store", "atomic", "reduction" };
    return (unsigned)o < sizeof names / sizeof names[0] ? names[o] : "?";
}

int ws_mem_event_check(const ws_mem_event *ev)
{
    for (int l = 0; l < 32; l++)
        if (!(ev->active_mask >> l & 1) && ev->addr[l]) return 1;
    if ((unsigned)ev->space > WS_SPACE_PARAM || (unsigned)ev->op > WS_MEM_REDUCE || (unsigned)ev->kind >= WS_KIND_COUNT)
        return 2;
    if (ev->dsmem && ev->space != WS_SPACE_SHARED) return 3;
    return 0;
}
