/* cu_verify.h - the GPU's outputs against the simulator's functional result
 * for the same launch and the same initial contents.
 * Invariant: a mismatch message names the buffer, the first differing index
 * and both values, as text that round-trips the stored bits. */
#ifndef CU_VERIFY_H
#define CU_VERIFY_H

#include "../common/desc.h"
#include "../common/ws_error.h"
#include "../sim/interp/interp.h"

/* Compares every output buffer of L: got[i] (GPU) with want[i] (simulator),
 * with the buffer's tolerance (ws_buffer_compare). Returns 0 when all agree,
 * 1 on the first mismatch with err describing it, e.g.
 * "output 'out' differs from the simulator at index 33 (element 33): GPU 1, simulator 32 (bit-exact)". */
int cu_verify_outputs(const ws_launch *L, void *const *got, void *const *want, ws_error *err);

/* The same, allowing the error of the approximate instructions fn reaches (sim/interp/approx.h:
 * ex2.approx, rsqrt.approx, sin.approx ... which the simulator computes exactly); how gets
 * what was used, e.g. "within 5 ulp (ex2.approx.ftz.f32: PTX ISA max relative error 2^-22)"
 * or "bit-exact", also named in a mismatch. */
int cu_verify_outputs_approx(const ws_launch *L, const ptx_module *m, const ptx_function *fn, void *const *got,
                             void *const *want, char *how, size_t how_cap, ws_error *err);

/* For every output of L that differs as cu_verify_outputs_approx judges it (the same bound),
 * how many scalars differ and the first WS_DIFF_SHOWN at their coordinates, simulator (want)
 * beside GPU (got), one block of lines per buffer indented by indent (common/bufdiff.h), into
 * out ("" when all agree). Returns the number of outputs that differ. */
int cu_verify_diff_text(const ws_launch *L, const ptx_module *m, const ptx_function *fn, void *const *got,
                        void *const *want, const char *indent, char *out, size_t cap);

/* Runs the simulator for L on module/fn (listener may be NULL) and leaves the
 * final buffers in res. Returns 0, or the ws_sim_run failure with err set. */
int cu_verify_simulate(const ptx_module *m, const ptx_function *fn, const ws_launch *L, ws_mem_listener listener,
                       void *listener_ctx, ws_sim_result *res, ws_error *err);

#endif
