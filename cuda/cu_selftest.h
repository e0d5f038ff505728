/* cu_selftest.h - a self-contained check of the GPU backend's driver layer
 * (built-in kernel; no catalog, PTX parser or simulator involved). */
#ifndef CU_SELFTEST_H
#define CU_SELFTEST_H

#include <stdbool.h>

/* Runs the checks, printing PASS/FAIL lines. Returns 0 when all pass,
 * WS_EXIT_NO_GPU without a GPU, WS_EXIT_INTERNAL when a check fails.
 * profile_child: only launch once (the child ncu profiles). */
int cu_selftest(bool counters, bool profile_child);

#endif
