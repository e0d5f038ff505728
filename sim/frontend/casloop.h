/* casloop.h - finds atomic retry loops: an atom.cas inside a loop whose exit depends on the
 * value the CAS returned (`do { old = atomicCAS(p, assumed = old, f(old)); } while (assumed != old)`).
 * Such a loop runs as often as other threads win the race, so its instruction counts depend on
 * timing: the simulator's (one order of warps) is one possible count, never "the" count
 * (issue 23: 16,551 ATOM on the H200 vs 8,192 simulated).
 * Invariant: static and conservative towards finding loops: the CAS result's taint is
 * flow-insensitive (any instruction reading a tainted register taints what it writes), and a
 * loop is any backward branch whose range holds the CAS and a conditional branch on a
 * tainted predicate. */
#ifndef WS_CASLOOP_H
#define WS_CASLOOP_H

#include <stdbool.h>

#include "ptx.h"

/* Writes up to cap pcs of the CAS instructions in retry loops to pcs (may be NULL with cap 0)
 * and returns how many there are; -1 when out of memory. */
int ws_cas_loops(const ptx_function *fn, int *pcs, int cap);

/* Wait loops, found the same way: a loop whose exit depends on an mbarrier.try_wait/test_wait
 * or on a volatile / relaxed / acquire load (a flag another thread sets). It spins until another
 * warp or the copy engine gets there, so how often it runs is timing, not the kernel: the
 * simulator's instruction counts are one schedule's (a cuda::pipeline GEMM: 16.0 M simulated,
 * 3.66 M on the H200). Writes up to cap pcs of the waits; returns their number, -1 out of memory. */
int ws_wait_loops(const ptx_function *fn, int *pcs, int cap);

/* The same wait loops with each one's range: lo[i]..hi[i] (instruction indices, inclusive) spans the
 * backward branches around pcs[i] that its result decides and whose bodies only spin (no memory
 * access, barrier or mbarrier update: not an outer loop that does work): the path a retry runs.
 * lo[i] = hi[i] = pcs[i] when no such branch is found. */
int ws_wait_loop_ranges(const ptx_function *fn, int *pcs, int *lo, int *hi, int cap);

/* True for a wait that may suspend the warp until the phase completes (mbarrier.try_wait: the PTX
 * ISA's "potentially blocking instruction ... the executing thread may be suspended ... resumes
 * when the specified phase completes OR ... following a system-dependent time limit"); false for
 * test_wait and polled flags, which return at once and so spin. */
bool ws_wait_blocks(const ptx_insn *in);

#endif
