/* buffers.c - initial contents and output comparison of described buffers,
 * exactly as specified in buffers.h; the simulator and the GPU backend both
 * fill host memory through here, so their inputs are bit-identical.
 * Invariant: scalar k depends only on (init, seed, lo, hi, const, k) and the
 * scalar type - never on the vector width or on the machine. All conversions
 * are range-checked so none is undefined behaviour. */
#include "buffers.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ws_splitmix64(uint64_t x)
{
    /* SplitMix64 (Steele, Lea, Flood 2014): the state increment, then the output mix */
    uint64_t z = x + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* double -> int64 without undefined behaviour: truncates, saturates, NaN -> 0 */
static int64_t to_i64(double d)
{
    if (d != d) return 0;
    if (d >= 9223372036854775808.0) return INT64_MAX;
    if (d < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
}

/* Stores an integer value as scalar k of an integer type: C conversion, which
 * wraps modulo 2^bits for the narrow types (done on unsigned values so it is
 * defined behaviour everywhere). */
static void store_int(ws_type s, void *dst, uint64_t k, int64_t v)
{
    uint64_t u = (uint64_t)v;
    switch (s) {
    case WS_TYPE_CHAR: case WS_TYPE_UCHAR: { uint8_t x = (uint8_t)u; memcpy((char *)dst + k, &x, 1); break; }
    case WS_TYPE_SHORT: case WS_TYPE_USHORT: { uint16_t x = (uint16_t)u; memcpy((char *)dst + 2 * k, &x, 2); break; }
    case WS_TYPE_INT: case WS_TYPE_UINT: { uint32_t x = (uint32_t)u; memcpy((char *)dst + 4 * k, &x, 4); break; }
    case WS_TYPE_LONG: case WS_TYPE_ULONG: memcpy((char *)dst + 8 * k, &u, 8); break;
    default: break;
    }
}

static void store_float(ws_type s, void *dst, uint64_t k, double v)
{
    if (s == WS_TYPE_FLOAT) {
        float f = (float)v;     /* every caller's value is within float range (checked at resolve) */
        memcpy((char *)dst + 4 * k, &f, 4);
    } else {
        memcpy((char *)dst + 8 * k, &v, 8);
    }
}

/* Value as an integer of the scalar type, for const() and index into integer buffers. */
static void store_from_double(ws_type s, void *dst, uint64_t k, double v)
{
    if (s == WS_TYPE_FLOAT || s == WS_TYPE_DOUBLE) store_float(s, dst, k, v);
    else if (s == WS_TYPE_ULONG && v >= 9223372036854775808.0)
        store_int(s, dst, k, (int64_t)(uint64_t)(v < 18446744073709551616.0 ? v : 18446744073709551615.0));
    else store_int(s, dst, k, to_i64(v));
}

void ws_buffer_fill(const ws_buffer *b, void *dst)
{
    ws_type s = ws_type_scalar(b->type);
    bool is_float = ws_type_is_float(b->type);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    switch (b->init) {
    case WS_INIT_ZERO:
        memset(dst, 0, b->bytes);       /* all-zero bits are 0 and 0.0 for every type */
        return;
    case WS_INIT_INDEX:
        for (uint64_t k = 0; k < n; k++) {
            if (s == WS_TYPE_FLOAT) {
                float f = (float)k;     /* direct C conversion, no detour through double */
                memcpy((char *)dst + 4 * k, &f, 4);
            } else if (is_float) store_float(s, dst, k, (double)k);
            else store_int(s, dst, k, (int64_t)k);
        }
        return;
    case WS_INIT_CONST:
        for (uint64_t k = 0; k < n; k++) store_from_double(s, dst, k, b->const_value);
        return;
    case WS_INIT_RANDOM:
        if (is_float) {
            for (uint64_t k = 0; k < n; k++) {
                uint64_t u = ws_splitmix64(b->seed + k);
                double r = b->lo + (b->hi - b->lo) * (double)(u >> 11) * 0x1p-53;
                store_float(s, dst, k, r);
            }
        } else {
            int64_t lo = to_i64(b->lo), hi = to_i64(b->hi);
            uint64_t range = hi > lo ? (uint64_t)hi - (uint64_t)lo : 1;   /* resolve guarantees hi > lo */
            for (uint64_t k = 0; k < n; k++) {
                uint64_t u = ws_splitmix64(b->seed + k);
                store_int(s, dst, k, (int64_t)((uint64_t)lo + u % range));
            }
        }
        return;
    }
}

/* Scalar k of buf as a double, and its raw bytes for bit-exact comparison. */
static double scalar_at(ws_type s, const void *buf, uint64_t k, uint64_t *bits)
{
    const char *p = buf;
    *bits = 0;
    switch (s) {
    case WS_TYPE_CHAR: { int8_t x; memcpy(&x, p + k, 1); memcpy(bits, &x, 1); return x; }
    case WS_TYPE_UCHAR: { uint8_t x; memcpy(&x, p + k, 1); *bits = x; return x; }
    case WS_TYPE_SHORT: { int16_t x; memcpy(&x, p + 2 * k, 2); memcpy(bits, &x, 2); return x; }
    case WS_TYPE_USHORT: { uint16_t x; memcpy(&x, p + 2 * k, 2); *bits = x; return x; }
    case WS_TYPE_INT: { int32_t x; memcpy(&x, p + 4 * k, 4); memcpy(bits, &x, 4); return x; }
    case WS_TYPE_UINT: { uint32_t x; memcpy(&x, p + 4 * k, 4); *bits = x; return x; }
    case WS_TYPE_LONG: { int64_t x; memcpy(&x, p + 8 * k, 8); memcpy(bits, &x, 8); return (double)x; }
    case WS_TYPE_ULONG: { uint64_t x; memcpy(&x, p + 8 * k, 8); *bits = x; return (double)x; }
    case WS_TYPE_FLOAT: { float x; memcpy(&x, p + 4 * k, 4); memcpy(bits, &x, 4); return x; }
    case WS_TYPE_DOUBLE: { double x; memcpy(&x, p + 8 * k, 8); memcpy(bits, &x, 8); return x; }
    default: return 0;
    }
}

int64_t ws_buffer_compare(const ws_buffer *b, const void *got, const void *want, double *got_out, double *want_out)
{
    ws_type s = ws_type_scalar(b->type);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    for (uint64_t k = 0; k < n; k++) {
        uint64_t gb, wb;
        double g = scalar_at(s, got, k, &gb);
        double w = scalar_at(s, want, k, &wb);
        bool same;
        if (gb == wb) same = true;                       /* identical bits: equal, NaN and inf included */
        else if (b->tol == 0) same = false;
        else if (g != g || w != w) same = false;         /* NaN equals NaN only bit-exactly */
        else if (isinf(g) || isinf(w)) same = false;     /* inf equals only the same inf */
        else {
            double scale = fabs(w) > 1.0 ? fabs(w) : 1.0;
            same = fabs(g - w) <= b->tol * scale;
        }
        if (!same) {
            if (got_out) *got_out = g;
            if (want_out) *want_out = w;
            return (int64_t)k;
        }
    }
    return -1;
}

/* Ordered integer of a float's bits: consecutive floats differ by one (-0 and +0 are one). */
static int64_t float_order(float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? -(int64_t)(i & 0x7fffffff) : (int64_t)i;
}

int64_t ws_buffer_compare_within(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                 double *got_out, double *want_out)
{
    ws_type s = ws_type_scalar(b->type);
    if (!bound || (!bound->ulps && bound->abs == 0) || (s != WS_TYPE_FLOAT && s != WS_TYPE_DOUBLE))
        return ws_buffer_compare(b, got, want, got_out, want_out);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    for (uint64_t k = 0; k < n; k++) {
        uint64_t gb, wb;
        double g = scalar_at(s, got, k, &gb), w = scalar_at(s, want, k, &wb);
        bool same = gb == wb;
        if (!same && isfinite(g) && isfinite(w)) {
            double d = fabs(g - w);
            same = (b->tol > 0 && d <= b->tol * (fabs(w) > 1.0 ? fabs(w) : 1.0)) || d <= bound->abs;
            if (s == WS_TYPE_FLOAT) {
                int64_t u = float_order((float)g) - float_order((float)w);
                same |= (u < 0 ? -u : u) <= (int64_t)bound->ulps;
            } else {
                same |= d <= ldexp((double)bound->ulps, -23) * fabs(w);
            }
        }
        if (!same) {
            if (got_out) *got_out = g;
            if (want_out) *want_out = w;
            return (int64_t)k;
        }
    }
    return -1;
}

/* Shortest %g form that reads back as the same value. */
static void format_real(double v, bool is_single, char *out, size_t cap)
{
    if (v != v) { snprintf(out, cap, "nan"); return; }
    if (isinf(v)) { snprintf(out, cap, v < 0 ? "-inf" : "inf"); return; }
    int max = is_single ? 9 : 17;
    for (int prec = 1; prec <= max; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        double back = strtod(out, NULL);
        if (is_single ? (float)back == (float)v : back == v) return;
    }
}

void ws_buffer_format_scalar(const ws_buffer *b, const void *buf, uint64_t k, char *out, size_t cap)
{
    if (!cap) return;
    ws_type s = ws_type_scalar(b->type);
    if (k >= b->count * (uint64_t)ws_type_lanes(b->type)) {
        snprintf(out, cap, "(out of range)");
        return;
    }
    uint64_t bits;
    double v = scalar_at(s, buf, k, &bits);
    switch (s) {
    case WS_TYPE_FLOAT: format_real(v, true, out, cap); return;
    case WS_TYPE_DOUBLE: format_real(v, false, out, cap); return;
    case WS_TYPE_LONG: snprintf(out, cap, "%" PRId64, (int64_t)bits); return;
    case WS_TYPE_ULONG: snprintf(out, cap, "%" PRIu64, bits); return;
    default: snprintf(out, cap, "%.0f", v); return;     /* narrow ints are exact in a double */
    }
}
