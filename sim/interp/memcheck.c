/* memcheck.c - prints the per-kind memory-error summary kept in a
 * ws_sim_result (see memcheck.h). Invariant: the kinds' counts add up to
 * res->memory_warnings, so the summary never disagrees with the total. */
#include "memcheck.h"

#include <inttypes.h>

const char *ws_memerr_kind_name(ws_memerr_kind k)
{
    switch (k) {
    case WS_MEMERR_GLOBAL: return "global out of bounds";
    case WS_MEMERR_SHARED: return "shared out of bounds";
    case WS_MEMERR_LOCAL: return "local out of bounds";
    case WS_MEMERR_CONST: return "const out of bounds";
    case WS_MEMERR_PARAM: return "param out of bounds";
    case WS_MEMERR_MISALIGNED: return "misaligned";
    case WS_MEMERR_UNINIT: return "uninitialised global read";
    default: return "?";
    }
}

static unsigned long long print_summary(const ws_sim_result *res, FILE *out, const char *why)
{
    if (!res->memory_warnings) return 0;
    for (int k = 0; k < WS_MEMERR_KINDS; k++) {
        if (!res->memerr_count[k]) continue;
        char first[WS_MSG_MAX];
        ws_fault_format(&res->memerr_first[k], first, sizeof first);
        fprintf(out, "warpscope: memcheck: %" PRIu64 " %s access%s; the first: %s\n", res->memerr_count[k],
                ws_memerr_kind_name((ws_memerr_kind)k), res->memerr_count[k] == 1 ? "" : "es", first);
    }
    if (why)
        fprintf(out, "warpscope: memcheck summary: %" PRIu64 " memory error%s found before %s (lane accesses "
                "skipped until then)\n", res->memory_warnings, res->memory_warnings == 1 ? "" : "s", why);
    else
        fprintf(out, "warpscope: memcheck summary: %" PRIu64 " memory error%s (lane accesses skipped%s, the run went on)\n",
                res->memory_warnings, res->memory_warnings == 1 ? "" : "s",
                res->memerr_count[WS_MEMERR_UNINIT] ? "; uninitialised reads read the 0xCD poison" : "");
    return res->memory_warnings;
}

unsigned long long ws_memcheck_print(const ws_sim_result *res, FILE *out)
{
    return print_summary(res, out, NULL);
}

unsigned long long ws_memcheck_print_until(const ws_sim_result *res, FILE *out, const char *why)
{
    return print_summary(res, out, why ? why : "the run stopped");
}
