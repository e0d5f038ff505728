/* provenance.h - which generic-address memory instructions of a PTX function provably address
 * the block's shared memory. libcu++ reaches shared state through generic pointers: what nvcc 13
 * emits for cuda::pipeline_shared_state's counter is
 *     mov.u32 %r54, shared_state;  cvt.u64.u32 %tmp, %r54;  cvta.shared.u64 %rd12, %tmp;
 *     add.s64 %rd14, %rd12, 64;    atom.relaxed.cta.add.u32 %r60, [%rd14], %r61;
 * an `atom` with no state space whose address is nonetheless a shared one.
 * Invariant: conservative towards "not proven" and flow-insensitive: a register holds a shared
 * address only when EVERY instruction anywhere in the function that writes it makes one from a
 * shared address (below); one other writer (a parameter, a load, a call's result, cvta.global, a
 * selp with a global side) and it, and all computed from it, are not proven. */
#ifndef WS_PROVENANCE_H
#define WS_PROVENANCE_H

#include <stdint.h>

#include "ptx.h"

/* The forms that keep a register shared, with the operand that carries the address (the others
 * must not carry one: an immediate, a special register or a register not proven either kind):
 *   a shared-space offset (32 or 64 bits): mov d, var (a .shared variable, +imm); mov d, off;
 *     cvt between 32/64-bit integers; add d, off, x; add d, x, off; sub d, off, x; mad.lo/.wide
 *     d, x, y, off; selp d, off, off, p; cvta.to.shared d, gen;
 *   a generic address in the shared window (64 bits): cvta.shared.u64 d, off (or var); then
 *     the same mov, cvt (64 to 64 bits), add, sub, mad and selp of such addresses.
 * Not followed: a .param (a pointer passed to a called function), memory, mapa, prmt, or/and
 * on address bits, add.cc carry chains. Assumed: no register is read before it is written (nvcc's
 * PTX never does) and an offset added to a shared address keeps it in the shared window (C++ may
 * not step from one object into another); `sim` checks the second where it relies on the proof
 * (sim/simulate.c: a sampled run whose atomics reached global memory fails).
 * Writes out[pc] = 1 for each ld/st/atom/red/... with no state space whose address register is
 * such a generic shared address (its displacement included), 0 for every other instruction;
 * returns how many were proven, -1 when out of memory (out then all 0). out holds fn->ninsns.
 * Example: ws_provenance_shared(fn, flags) == 1 for the sequence above, flags[atom's pc] == 1. */
int ws_provenance_shared(const ptx_function *fn, uint8_t *out);

#endif
