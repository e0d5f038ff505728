/* sass_unroll.h - how often the SASS copies of an unrolled PTX loop run.
 * ptxas lays a PTX loop whose trip count it does not know out as several copies of its body:
 * matmul_naive's PTX loop (4 source iterations a pass) becomes a SASS loop over 4 copies of it,
 * one straight-line block of 2 copies and a loop over 1, each entered by a guard on the
 * iterations left. The PTX's count of its body's executions says how many iterations there
 * were, not which copy ran them; a loop entered with n iterations left runs them largest copy
 * first (ptxas's guards: `n > 12` before the 4-copy loop, `n > 4` before the 2-copy block).
 * Invariant: where the copies can take every count left (the smallest holds one body: a loop of
 * one, or straight copies of 2 and 1 after a loop of 4), the runs of a loop's blocks times their
 * copies add up to the PTX body's executions; otherwise the plan's issue count is approximate. */
#ifndef WS_SASS_UNROLL_H
#define WS_SASS_UNROLL_H

#include <stdint.h>

#include "sass_map.h"

/* Finds, for each SASS block with memory instructions, the straight-line PTX loop whose body
 * it holds a whole number of times (same source line, space, operation and width, in the same
 * proportions), and fills p->loops, p->block_loop and p->block_mult for the loops ptxas
 * unrolled (more than one block, or a block with more than one copy). pdepth: the PTX loop
 * depth of each pc. Returns 0, or -1 when out of memory. */
int ws_sass_unroll_plan(ws_sass_plan *p, const int *pdepth);

/* The warp executions of every SASS block of an unrolled loop (p->block_loop[b] >= 0) from the
 * PTX's per-pc warp executions: per entry of the loop, its iterations go to the copies
 * largest first; out[b] of other blocks is left as it was. */
void ws_sass_unroll_runs(const ws_sass_plan *p, const uint64_t *pc_warp_count, uint64_t *out);

/* The greedy split behind ws_sass_unroll_runs, for tests: n iterations over units of mult[k]
 * iterations each (sorted largest first), loop[k] true where the unit may run more than once.
 * Writes each unit's runs to runs[k] and returns the iterations no unit took. */
uint64_t ws_sass_unroll_split(uint64_t n, const int *mult, const bool *loop, int nunits, uint64_t *runs);

#endif
