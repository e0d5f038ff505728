/* fault.c - the wording of a fault record (see fault.h): the one place the sentence
 * "<kernel>: block (x,y,z) warp W lane L: <what>" is made, from the fields. */
#include "fault.h"

#include <stdio.h>

ws_fault_tool ws_fault_tool_of(ws_fault_kind kind, ws_memerr_kind mem)
{
    if (kind == WS_FAULT_MEMORY) return mem == WS_MEMERR_UNINIT ? WS_TOOL_INITCHECK : WS_TOOL_MEMCHECK;
    if (kind == WS_FAULT_SYNC) return WS_TOOL_SYNCCHECK;
    return WS_TOOL_SIMULATOR;
}

const char *ws_fault_tool_name(ws_fault_tool t)
{
    switch (t) {
    case WS_TOOL_MEMCHECK: return "memcheck";
    case WS_TOOL_INITCHECK: return "initcheck";
    case WS_TOOL_SYNCCHECK: return "synccheck";
    default: return "simulator";
    }
}

int ws_fault_line(const ws_fault *f)
{
    return f->src_line > 0 ? f->src_line : f->ptx_line;
}

void ws_fault_error(const ws_fault *f, ws_error *e)
{
    char who[320];
    size_t cap = sizeof who;
    int k = snprintf(who, cap, "%s: block (%u,%u,%u)", f->kernel, f->block[0], f->block[1], f->block[2]);
    if (f->warp >= 0 && k < (int)cap) k += snprintf(who + k, cap - (size_t)k, " warp %d", f->warp);
    if (f->lane >= 0 && k < (int)cap) k += snprintf(who + k, cap - (size_t)k, " lane %d", f->lane);
    if (f->func[0] && k < (int)cap) {   /* in a called function: which, and from where */
        k += snprintf(who + k, cap - (size_t)k, " in %.120s", f->func);
        if (f->call_line > 0 && k < (int)cap) snprintf(who + k, cap - (size_t)k, " (called at line %d)", f->call_line);
    }
    ws_error_set(e, f->file, ws_fault_line(f), 0, "%s: %s", who, f->msg);
}

void ws_fault_format(const ws_fault *f, char *buf, size_t cap)
{
    ws_error e;
    ws_fault_error(f, &e);
    ws_error_format(&e, buf, cap);
}
