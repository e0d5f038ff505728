/* buffers.h - the initial contents of a described buffer, identical for the
 * simulator and the GPU backend (both call ws_buffer_fill on host memory).
 *
 * Contents of scalar number k (k = element * lanes + lane):
 *   zero      0
 *   index     k converted to the scalar type (C conversion; wraps for narrow ints)
 *   const(v)  v converted to the scalar type
 *   random    u = ws_splitmix64(seed + k)  (the SplitMix64 output function)
 *             floats: lo + (hi - lo) * (u >> 11) * 2^-53, then converted
 *             ints:   lo + (int64_t)(u % (uint64_t)(hi - lo))   (hi > lo)
 */
#ifndef WS_BUFFERS_H
#define WS_BUFFERS_H

#include <stdint.h>
#include "desc.h"

/* What the reference SplitMix64 next() returns when its state is x before the
 * call: mix(x + 0x9e3779b97f4a7c15), e.g. ws_splitmix64(0) == 0xe220a8397b1dcdaf.
 * Random buffers hash the counter seed + k with it (counter-based, so any
 * scalar can be computed on its own). */
uint64_t ws_splitmix64(uint64_t x);

/* Fills dst (b->bytes long) with the buffer's initial contents. */
void ws_buffer_fill(const ws_buffer *b, void *dst);

/* Compares a result with the expected contents, scalar by scalar: bit-exact
 * when b->tol == 0, else |got-want| <= tol * max(1, |want|). Returns the index of
 * the first differing scalar, or -1 when they agree; *got_out and *want_out get the
 * two values as doubles (may be NULL). */
int64_t ws_buffer_compare(const ws_buffer *b, const void *got, const void *want,
                          double *got_out, double *want_out);

/* How far float results may lie apart: a kernel's approximate instructions (sim/approx.h). */
typedef struct {
    uint32_t ulps;      /* float scalars: units in the last place */
    double abs;         /* float and double scalars: absolute difference */
} ws_fp_bound;

/* ws_buffer_compare, where float scalars also agree when they are within ulps of each
 * other (a float's ulp distance; for doubles, ulps * 2^-23 relative) or abs apart:
 * the GPU's approximate instructions against the simulator's exact maths. NaN and inf
 * agree only bit-exactly; integers always compare bit-exactly. Same returns. */
int64_t ws_buffer_compare_within(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                 double *got_out, double *want_out);

/* Human string of scalar k of buf (e.g. "3.5" or "-7"), into out. */
void ws_buffer_format_scalar(const ws_buffer *b, const void *buf, uint64_t k, char *out, size_t cap);

#endif
