/* bufdiff.h - where two contents of an output buffer differ, in words a user can act on: how
 * many scalars differ and the first few, each at its coordinates in the shape the buffer is
 * saved with (common/save.h: [i] for a scalar type, [i, lane] for a vector one), with both
 * values. What `check` prints under an output that differs between the simulator and the GPU.
 * Invariant: a scalar is counted as differing exactly when ws_buffer_compare_within (with the
 * same bound) would stop there. */
#ifndef WS_BUFDIFF_H
#define WS_BUFDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "buffers.h"

#define WS_DIFF_SHOWN 8   /* differences listed per buffer */

typedef struct {
    uint64_t index;        /* scalar index */
    char where[48];        /* "[33]" or "[8, 2]" */
    char got[40], want[40]; /* the two values (ws_buffer_format_scalar) */
} ws_diff_elem;

typedef struct {
    uint64_t count;        /* scalars that differ */
    uint64_t scalars;      /* scalars in the buffer */
    int shown;             /* first entries of elem filled, <= WS_DIFF_SHOWN */
    ws_diff_elem elem[WS_DIFF_SHOWN];
} ws_buffer_diff;

/* Compares every scalar of got with want as ws_buffer_compare_within does (bound may be NULL;
 * the tolerance scales with want). Returns d->count. */
uint64_t ws_buffer_diff_of(const ws_buffer *buf, const void *got, const void *want, const ws_fp_bound *bound,
                           ws_buffer_diff *d);

/* The diff as text lines, each starting with indent, naming the sides want_name and got_name
 * (the reference first):
 *   "output 'out': 3 of 1024 scalars differ; the first 3:"
 *   "  [8, 2]  simulator 32  GPU 1"
 * into out (cap bytes, cut at a line when full; "" when nothing differs). Returns out. */
const char *ws_buffer_diff_text(const ws_buffer *buf, const ws_buffer_diff *d, const char *want_name, const char *got_name,
                                const char *indent, char *out, size_t cap);

#endif
