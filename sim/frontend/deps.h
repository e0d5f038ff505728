/* deps.h - what the timing model needs to know about a function's code beyond the
 * memory events: which instructions are barriers, and which loads take their address
 * from a value another global/local load produced (a dependent load: it cannot be
 * issued before that load returns, so its latency adds to the earlier one's).
 * Invariant: the analysis is static and conservative in one direction only: a register
 * is "from a load" if ANY instruction that writes it reads a load result, anywhere in
 * the function (flow-insensitive), so dependences are never missed, only over-found. */
#ifndef WS_DEPS_H
#define WS_DEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx.h"

typedef struct {
    int ninsns;
    uint8_t *flags;    /* per instruction: WS_DEP_* */
    int *next_barrier; /* per pc: the first barrier at pc or later, ninsns when none */
} ws_deps;

enum {
    WS_DEP_BARRIER = 1,        /* bar.sync / barrier.sync: the block waits here */
    WS_DEP_ADDR_FROM_LOAD = 2  /* a memory access whose address derives from a global/local load */
};

/* Analyses fn. Returns 0, -1 when out of memory (d is then empty and usable). */
int ws_deps_init(ws_deps *d, const ptx_function *fn);
void ws_deps_free(ws_deps *d);

/* True when a barrier lies on the straight path after pc `from` up to pc `to` (exclusive
 * of both); when to <= from the warp went round a loop: the path from `from` to the end
 * and from the start to `to` is checked. */
bool ws_deps_barrier_between(const ws_deps *d, int from, int to);

#endif
