/* memcheck.h - the memory-error summary of a simulated run, like the end of a
 * compute-sanitizer memcheck report: how many out-of-bounds and misaligned
 * accesses of each kind, and the first of each (kernel, block, warp, lane,
 * address, buffer and distance, source line). The counts are filled by the
 * interpreter when ws_sim_config.memory_errors_are_warnings is set; without
 * it the first memory error stops the run and is the run's error instead. */
#ifndef WS_MEMCHECK_H
#define WS_MEMCHECK_H

#include <stdio.h>

#include "interp.h"

const char *ws_memerr_kind_name(ws_memerr_kind k); /* "shared out of bounds" */

/* Prints one line per kind that occurred, with its first occurrence, then
 * "memcheck summary: N memory errors"; prints nothing for a clean run.
 * Returns the total. Example: ws_memcheck_print(&res, stderr); */
unsigned long long ws_memcheck_print(const ws_sim_result *res, FILE *out);

/* The same summary for a run that stopped early (a barrier error, the instruction
 * budget): the total says the errors were found before `why`, e.g.
 * ws_memcheck_print_until(&res, stderr, "the run stopped at the error above"). */
unsigned long long ws_memcheck_print_until(const ws_sim_result *res, FILE *out, const char *why);

#endif
