/* buffers.h - the initial contents of a described buffer, identical for the
 * simulator and the GPU backend (both call ws_buffer_fill on host memory).
 *
 * Contents of scalar number k (k = element * lanes + lane) of n = count * lanes:
 *   zero      0
 *   index     k converted to the scalar type (C conversion; wraps for narrow ints)
 *   const(v)  v converted to the scalar type
 *   random    u = ws_splitmix64(seed + k)  (the SplitMix64 output function)
 *             floats: lo + (hi - lo) * (u >> 11) * 2^-53, then converted
 *             ints:   lo + (int64_t)(u % (uint64_t)(hi - lo))   (hi > lo)
 *   randint   lo + (int64_t)(ws_splitmix64(seed + k) % (hi - lo)), for every type (exact: checked)
 *   perm      a[k] = k, then for i = n-1 down to 1: j = ws_splitmix64(seed + i) % (i + 1),
 *             swap a[i] and a[j] (Fisher-Yates; every index 0..n-1 exactly once)
 *   lcg       x = seed mod m; for each k: x = (a * x + c) mod m (exact, 128-bit), then
 *             with lo, hi: lo + x mod (hi - lo); else ints x (C conversion), floats x / m
 *   file      the file's bytes (raw, or a .npy's data after its header), checked at resolve
 * "Converted" to half and bf16 is round-to-nearest-even from the double (as __float2half_rn
 * and __float2bfloat16_rn do from a float), infinities beyond the largest finite value. */
#ifndef WS_BUFFERS_H
#define WS_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>
#include "desc.h"
#include "ws_error.h"

/* What the reference SplitMix64 next() returns when its state is x before the
 * call: mix(x + 0x9e3779b97f4a7c15), e.g. ws_splitmix64(0) == 0xe220a8397b1dcdaf.
 * Random buffers hash the counter seed + k with it (counter-based, so any
 * scalar can be computed on its own). */
uint64_t ws_splitmix64(uint64_t x);

/* Fills dst (b->bytes long) with the buffer's initial contents. A file() buffer whose file
 * cannot be read now (it was checked at resolve) is zero-filled and the reason printed. */
void ws_buffer_fill(const ws_buffer *b, void *dst);
/* The same, returning -1 with err (the data file and the reason) when a file cannot be read. */
int ws_buffer_fill_checked(const ws_buffer *b, void *dst, ws_error *err);

/* True when every scalar's contents depend on its index k alone (zero, index, const, random,
 * randint): then any range can be filled on its own, with the whole fill's bytes. */
bool ws_buffer_fill_is_local(const ws_buffer *b);
/* Fills bytes [off, off + len) of the buffer (clipped to b->bytes) as ws_buffer_fill does, dst being
 * the buffer's start, widened to whole scalars; nothing for an init that is not local. Lets the
 * simulator fill only the pages a partial run touches (the visualizer's first frame, issue 25). */
void ws_buffer_fill_range(const ws_buffer *b, void *dst, uint64_t off, uint64_t len);

/* Checks b->file against the buffer and sets b->file_offset: a NumPy .npy (format 1.0, 2.0
 * or 3.0: little-endian or byte-order-free dtype matching the scalar type, C order, as many
 * values as the buffer's scalars), else raw bytes, exactly b->bytes of them. Returns -1
 * with err->msg naming the file and the mismatch ("x.npy holds float64 ('<f8') but buffer
 * 'in' is float"); err's file/line are left for the caller to point at the description. */
int ws_buffer_check_file(ws_buffer *b, ws_error *err);

/* IEEE binary16 and bfloat16 bit patterns from a double (round to nearest even, overflow
 * to infinity, NaN stays NaN) and back (exact). */
/* A kernel parameter the description passes a number to, when the kernel's C++ signature
 * (its mangled name) makes parameter i a __half, __nv_bfloat16, __half2 or __nv_bfloat162 of
 * size bytes: writes the value's bits into out (a pair gets it in both lanes) and returns
 * true; false for any other parameter. PTX declares all four as .b8 arrays, so only the
 * signature tells them from a small struct; the simulator and the GPU backend both ask here. */
bool ws_small_float_param(const char *mangled, int i, uint64_t size, double v, uint8_t out[4]);

uint16_t ws_half_from_double(double v);
double ws_half_to_double(uint16_t h);
uint16_t ws_bf16_from_double(double v);
double ws_bf16_to_double(uint16_t h);

/* Compares a result with the expected contents, scalar by scalar: equal when the bits are
 * identical, or (b->tol > 0) |got-want| <= tol * max(1, |want|), or (b->ulp > 0, floating
 * types) they are at most ulp representable values apart (ws_buffer_ulp_distance); NaN
 * equals NaN and an infinity the same infinity only bit for bit. Returns the index of the
 * first differing scalar, or -1 when they agree; *got_out and *want_out get the two values
 * as doubles (may be NULL). */
int64_t ws_buffer_compare(const ws_buffer *b, const void *got, const void *want,
                          double *got_out, double *want_out);

/* How many representable values of the scalar type lie between scalar k of a and of b (0 =
 * identical or +0/-0; the count crosses zero for opposite signs): the "units in the last
 * place" a GPU's approximate instruction is documented to be off by. UINT64_MAX for a NaN
 * or an integer type. */
uint64_t ws_buffer_ulp_distance(const ws_buffer *b, const void *a, const void *bb, uint64_t k);
/* The largest such distance over the buffer (UINT64_MAX when some scalar is NaN on one side
 * only, or the type is not floating point): what `check` can report beside pass/fail. */
uint64_t ws_buffer_max_ulp(const ws_buffer *b, const void *got, const void *want);

/* How far floating results may lie apart: a kernel's approximate instructions (sim/interp/approx.h). */
typedef struct {
    uint32_t ulps;      /* float scalars: representable values apart */
    double abs;         /* floating scalars: absolute difference */
} ws_fp_bound;

/* ws_buffer_compare, where floating scalars also agree within bound: the GPU's approximate
 * instructions against the simulator's exact maths. A float within bound->ulps values
 * (ws_buffer_ulp_distance), a double within bound->ulps * 2^-23 relative (the f32 error
 * carried into it), a half or bf16 within one value (f32 errors can flip its rounding),
 * any within bound->abs; NaN and inf only bit for bit; integers exactly. Same returns. */
int64_t ws_buffer_compare_within(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                 double *got_out, double *want_out);

/* The first scalar at or after index from where got and want differ as ws_buffer_compare_within
 * judges them (bound may be NULL: the description's tolerance alone), or -1: walking every
 * difference of an output, not only the first. */
int64_t ws_buffer_next_difference(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                  uint64_t from);

/* Human string of scalar k of buf (e.g. "3.5" or "-7"), into out. */
void ws_buffer_format_scalar(const ws_buffer *b, const void *buf, uint64_t k, char *out, size_t cap);

#endif
