/* buffers.c - initial contents and output comparison of described buffers,
 * exactly as specified in buffers.h; the simulator and the GPU backend both
 * fill host memory through here, so their inputs are bit-identical.
 * Invariant: scalar k depends only on (init, seed, lo, hi, const, lcg, file, k) and
 * the scalar type - never on the vector width or on the machine. All conversions
 * are range-checked so none is undefined behaviour. */
#include "buffers.h"
#include "demangle.h"
#include "npy.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

uint64_t ws_splitmix64(uint64_t x)
{
    /* SplitMix64 (Steele, Lea, Flood 2014): the state increment, then the output mix */
    uint64_t z = x + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- half and bfloat16 -------------------------------------------------------------------- */

/* Rounds v to a binary format with mant stored significand bits and exp exponent bits
 * (half 10/5, bfloat16 7/8), to nearest with ties to even, once, from the double. */
static uint16_t to_small_float(double v, int mant, int exp)
{
    uint16_t sign = signbit(v) ? (uint16_t)0x8000 : 0;
    uint32_t exp_all = (1u << exp) - 1;
    int bias = (int)(exp_all >> 1);
    if (isnan(v)) return (uint16_t)(sign | (exp_all << mant) | (1u << (mant - 1)));   /* a quiet NaN */
    double a = fabs(v);
    if (isinf(a)) return (uint16_t)(sign | (exp_all << mant));
    if (a == 0) return sign;
    int e;
    frexp(a, &e);                        /* a = f * 2^e, f in [0.5, 1): the leading bit is 2^(e-1) */
    int E = e - 1, emin = 1 - bias;
    int q = (E < emin ? emin : E) - mant; /* the value of the last significand bit */
    double units = nearbyint(ldexp(a, -q)); /* exact scaling, then one rounding (ties to even) */
    if (units == 0) return sign;
    /* a subnormal's units are its bits; a normal's add the biased exponent above the implicit
     * bit, and a carry out of the significand (units = 2^(mant+1)) lands in the exponent */
    uint64_t u = (uint64_t)units;
    uint64_t bits = E < emin ? u : ((uint64_t)(E + bias - 1) << mant) + u;
    if (bits >= (uint64_t)exp_all << mant) return (uint16_t)(sign | (exp_all << mant));
    return (uint16_t)(sign | bits);
}

static double from_small_float(uint16_t h, int mant, int exp)
{
    uint32_t exp_all = (1u << exp) - 1;
    int bias = (int)(exp_all >> 1);
    uint32_t ef = (h >> mant) & exp_all, m = h & ((1u << mant) - 1);
    double s = (h & 0x8000) ? -1.0 : 1.0;
    if (ef == exp_all) return m ? NAN : s * INFINITY;
    if (ef == 0) return s * ldexp((double)m, 1 - bias - mant);
    return s * ldexp((double)(m | (1u << mant)), (int)ef - bias - mant);
}

uint16_t ws_half_from_double(double v) { return to_small_float(v, 10, 5); }
double ws_half_to_double(uint16_t h) { return from_small_float(h, 10, 5); }
uint16_t ws_bf16_from_double(double v) { return to_small_float(v, 7, 8); }
double ws_bf16_to_double(uint16_t h) { return from_small_float(h, 7, 8); }

bool ws_small_float_param(const char *mangled, int i, uint64_t size, double v, uint8_t out[4])
{
    char t[64];
    if (!ws_demangled_param(mangled, i, t, sizeof t)) return false;
    bool half = !strcmp(t, "__half") || !strcmp(t, "__half2");
    bool bf16 = !strcmp(t, "__nv_bfloat16") || !strcmp(t, "__nv_bfloat162");
    bool pair = !strcmp(t, "__half2") || !strcmp(t, "__nv_bfloat162");
    if (!(half || bf16) || size != (pair ? 4u : 2u)) return false;
    uint16_t bits = half ? ws_half_from_double(v) : ws_bf16_from_double(v);
    memcpy(out, &bits, 2);
    if (pair) memcpy(out + 2, &bits, 2);   /* __floats2half2_rn(v, v) */
    return true;
}

static double scalar_at(ws_type s, const void *buf, uint64_t k, uint64_t *bits);

/* ---- storing one scalar ----------------------------------------------------------------------- */

/* double -> int64 without undefined behaviour: truncates, saturates, NaN -> 0 */
static int64_t to_i64(double d)
{
    if (d != d) return 0;
    if (d >= 9223372036854775808.0) return INT64_MAX;
    if (d < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
}

static bool is_small_float(ws_type s) { return s == WS_TYPE_HALF || s == WS_TYPE_BF16; }

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
    } else if (is_small_float(s)) {
        uint16_t h = s == WS_TYPE_HALF ? ws_half_from_double(v) : ws_bf16_from_double(v);
        memcpy((char *)dst + 2 * k, &h, 2);
    } else {
        memcpy((char *)dst + 8 * k, &v, 8);
    }
}

/* Value as an integer of the scalar type, for const() and index into integer buffers. */
static void store_from_double(ws_type s, void *dst, uint64_t k, double v)
{
    if (ws_type_is_float(s)) store_float(s, dst, k, v);
    else if (s == WS_TYPE_ULONG && v >= 9223372036854775808.0)
        store_int(s, dst, k, (int64_t)(uint64_t)(v < 18446744073709551616.0 ? v : 18446744073709551615.0));
    else store_int(s, dst, k, to_i64(v));
}

/* An integer value into any scalar type (randint, perm, lcg). */
static void store_integer(ws_type s, void *dst, uint64_t k, int64_t v)
{
    if (ws_type_is_float(s)) store_float(s, dst, k, (double)v);
    else store_int(s, dst, k, v);
}

/* ---- files ---------------------------------------------------------------------------------- */

/* The NumPy dtype (without its byte-order mark) a scalar type is stored as; bf16 has none in
 * NumPy itself, so its raw bits come as unsigned 16-bit or 2-byte void. */
static bool npy_dtype_ok(ws_type s, const char *d)
{
    switch (s) {
    case WS_TYPE_CHAR: return !strcmp(d, "i1");
    case WS_TYPE_UCHAR: return !strcmp(d, "u1") || !strcmp(d, "b1");
    case WS_TYPE_SHORT: return !strcmp(d, "i2");
    case WS_TYPE_USHORT: return !strcmp(d, "u2");
    case WS_TYPE_INT: return !strcmp(d, "i4");
    case WS_TYPE_UINT: return !strcmp(d, "u4");
    case WS_TYPE_LONG: return !strcmp(d, "i8");
    case WS_TYPE_ULONG: return !strcmp(d, "u8");
    case WS_TYPE_FLOAT: return !strcmp(d, "f4");
    case WS_TYPE_DOUBLE: return !strcmp(d, "f8");
    case WS_TYPE_HALF: return !strcmp(d, "f2");
    case WS_TYPE_BF16: return !strcmp(d, "u2") || !strcmp(d, "V2") || !strcmp(d, "bfloat16");
    default: return false;
    }
}

static const char *npy_dtype_for(ws_type s)
{
    static const char *const names[WS_TYPE_COUNT] = {
        [WS_TYPE_CHAR] = "'|i1'", [WS_TYPE_UCHAR] = "'|u1'", [WS_TYPE_SHORT] = "'<i2'", [WS_TYPE_USHORT] = "'<u2'",
        [WS_TYPE_INT] = "'<i4'", [WS_TYPE_UINT] = "'<u4'", [WS_TYPE_LONG] = "'<i8'", [WS_TYPE_ULONG] = "'<u8'",
        [WS_TYPE_FLOAT] = "'<f4'", [WS_TYPE_DOUBLE] = "'<f8'", [WS_TYPE_HALF] = "'<f2'", [WS_TYPE_BF16] = "'<u2' (raw bits)"};
    return (int)s >= 0 && s < WS_TYPE_COUNT && names[s] ? names[s] : "?";
}

/* The buffer's checks of a .npy whose header npy.c read strictly: the dtype is the scalar
 * type's, little-endian, and the shape holds as many values as the buffer has scalars, the
 * data exactly their bytes. */
static int npy_header(ws_buffer *b, FILE *f, uint64_t fsize, ws_error *err)
{
    const char *path = b->file;
    ws_npy_header h;
    if (ws_npy_read_header(f, fsize, path, &h, err)) return -1;
    const char *descr = h.descr, *kind;
    size_t size = ws_npy_descr_size(descr, &kind);
    if (*descr == '>' && size > 1) {
        ws_error_set(err, path, 0, 0, "%s holds big-endian data ('%s'); save it little-endian (a.astype('<%s'))", path, descr,
                     descr + 1);
        return -1;
    }
    ws_type s = ws_type_scalar(b->type);
    if (!npy_dtype_ok(s, kind)) {
        ws_error_set(err, path, 0, 0, "%s holds '%s' values but buffer '%s' is %s (a .npy of dtype %s)", path, descr, b->name,
                     ws_type_name(b->type), npy_dtype_for(s));
        return -1;
    }
    char shape[128] = "(";
    for (int i = 0; i < h.ndim; i++) {
        size_t l = strlen(shape);
        snprintf(shape + l, sizeof shape - l, "%s%" PRIu64 "%s", i ? ", " : "", h.shape[i], h.ndim == 1 ? "," : "");
    }
    size_t l = strlen(shape);
    snprintf(shape + l, sizeof shape - l, ")");
    uint64_t want = b->count * (uint64_t)ws_type_lanes(b->type);
    if (h.values != want) {
        ws_error_set(err, path, 0, 0, "%s: the .npy header's 'shape' %s holds %" PRIu64 " values but buffer '%s' has %" PRIu64
                     " (%" PRIu64 " %s%s)", path, shape, h.values, b->name, want, b->count, ws_type_name(b->type),
                     ws_type_lanes(b->type) > 1 ? " elements" : "");
        return -1;
    }
    if (fsize - h.data_offset != b->bytes) {
        ws_error_set(err, path, 0, 0, "%s: %" PRIu64 " bytes of data after the .npy header, but %" PRIu64 " values of %s are "
                     "%" PRIu64 " bytes", path, fsize - h.data_offset, h.values, descr, b->bytes);
        return -1;
    }
    b->file_offset = h.data_offset;
    return 0;
}

int ws_buffer_check_file(ws_buffer *b, ws_error *err)
{
    const char *path = b->file;
    struct stat st;
    if (stat(path, &st) != 0) {
        ws_error_set(err, path, 0, 0, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        ws_error_set(err, path, 0, 0, "%s is not a regular file", path);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    uint64_t fsize = (uint64_t)st.st_size;
    unsigned char magic[6] = {0};
    size_t got = fread(magic, 1, 6, f);
    int rc;
    if (got == 6 && !memcmp(magic, "\x93NUMPY", 6)) {
        rewind(f);
        rc = npy_header(b, f, fsize, err);
    } else if (fsize != b->bytes) {
        ws_error_set(err, path, 0, 0, "%s has %" PRIu64 " bytes but buffer '%s' is %" PRIu64 " bytes (%" PRIu64 " %s of %zu); "
                     "a raw file must match exactly", path, fsize, b->name, b->bytes, b->count, ws_type_name(b->type),
                     ws_type_size(b->type));
        rc = -1;
    } else {
        b->file_offset = 0;
        rc = 0;
    }
    fclose(f);
    return rc;
}

static int fill_file(const ws_buffer *b, void *dst, ws_error *err)
{
    FILE *f = fopen(b->file, "rb");
    int rc = -1;
    if (!f) {
        ws_error_set(err, b->file, 0, 0, "cannot open %s: %s", b->file, strerror(errno));
    } else if (fseek(f, (long)b->file_offset, SEEK_SET) != 0) {
        ws_error_set(err, b->file, 0, 0, "cannot seek in %s: %s", b->file, strerror(errno));
    } else if (fread(dst, 1, b->bytes, f) != b->bytes) {
        ws_error_set(err, b->file, 0, 0, "%s is shorter than when it was checked (buffer '%s' needs %" PRIu64 " bytes)",
                     b->file, b->name, b->bytes);
    } else {
        rc = 0;
    }
    if (f) fclose(f);
    if (rc) memset(dst, 0, b->bytes);
    return rc;
}

/* ---- filling --------------------------------------------------------------------------------- */

static void swap_scalars(unsigned char *p, size_t size, uint64_t i, uint64_t j)
{
    unsigned char t[8];
    memcpy(t, p + i * size, size);
    memcpy(p + i * size, p + j * size, size);
    memcpy(p + j * size, t, size);
}

/* (a * x + c) mod m without overflow: m <= 2^63, so 128 bits hold every product. */
static uint64_t lcg_step(uint64_t a, uint64_t c, uint64_t m, uint64_t x)
{
    return (uint64_t)(((unsigned __int128)a * x + c) % m);
}

bool ws_buffer_fill_is_local(const ws_buffer *b)
{
    return b->init == WS_INIT_ZERO || b->init == WS_INIT_INDEX || b->init == WS_INIT_CONST ||
           b->init == WS_INIT_RANDOM || b->init == WS_INIT_RANDINT;
}

/* Scalars [k0, k1) of a local init (ws_buffer_fill_is_local), dst being the buffer's start: the one
   loop both the whole fill and a lazy range fill run, so their bytes cannot differ. */
static void fill_scalars(const ws_buffer *b, void *dst, uint64_t k0, uint64_t k1)
{
    ws_type s = ws_type_scalar(b->type);
    bool is_float = ws_type_is_float(b->type);
    switch (b->init) {
    case WS_INIT_TMAP:                  /* zeros until the launcher writes the map (ws_buffer.tmap) */
    case WS_INIT_ZERO:
        memset((char *)dst + k0 * ws_type_size(s), 0, (k1 - k0) * ws_type_size(s)); /* all-zero bits: 0 and 0.0 */
        return;
    case WS_INIT_INDEX:
        /* integer types: the loop per width (the per-element switch made a realistic 2^27-byte buffer
           most of viz's first frame, issue 25); the same values, k truncated to the type */
        if (!is_float && ws_type_size(s) == 1) {
            for (uint64_t k = k0; k < k1; k++) ((uint8_t *)dst)[k] = (uint8_t)k;
            return;
        }
        if (!is_float && ws_type_size(s) == 4) {
            for (uint64_t k = k0; k < k1; k++) {
                uint32_t x = (uint32_t)k;
                memcpy((char *)dst + 4 * k, &x, 4);
            }
            return;
        }
        for (uint64_t k = k0; k < k1; k++) {
            if (s == WS_TYPE_FLOAT) {
                float f = (float)k;     /* direct C conversion, no detour through double */
                memcpy((char *)dst + 4 * k, &f, 4);
            } else if (is_float) store_float(s, dst, k, (double)k);
            else store_int(s, dst, k, (int64_t)k);
        }
        return;
    case WS_INIT_CONST:
        for (uint64_t k = k0; k < k1; k++) store_from_double(s, dst, k, b->const_value);
        return;
    case WS_INIT_RANDOM:
        if (is_float) {
            for (uint64_t k = k0; k < k1; k++) {
                uint64_t u = ws_splitmix64(b->seed + k);
                double r = b->lo + (b->hi - b->lo) * (double)(u >> 11) * 0x1p-53;
                store_float(s, dst, k, r);
            }
            return;
        }
        __attribute__((fallthrough));   /* integers in [lo, hi) are what randint gives */
    case WS_INIT_RANDINT: {
        int64_t lo = to_i64(b->lo), hi = to_i64(b->hi);
        uint64_t range = hi > lo ? (uint64_t)hi - (uint64_t)lo : 1;   /* resolve guarantees hi > lo */
        /* a power-of-two range (bytes in [0, 256)): u % range is u & (range - 1), the same values without
           a 64-bit division per element, which made filling a realistic-size buffer most of viz's first
           frame (issue 25) */
        uint64_t mask = (range & (range - 1)) == 0 ? range - 1 : 0;
        if (mask && (s == WS_TYPE_UCHAR || s == WS_TYPE_CHAR)) {
            uint8_t *d = dst;
            for (uint64_t k = k0; k < k1; k++) d[k] = (uint8_t)((uint64_t)lo + (ws_splitmix64(b->seed + k) & mask));
            return;
        }
        if (mask && (s == WS_TYPE_UINT || s == WS_TYPE_INT)) {
            for (uint64_t k = k0; k < k1; k++) {
                uint32_t x = (uint32_t)((uint64_t)lo + (ws_splitmix64(b->seed + k) & mask));
                memcpy((char *)dst + 4 * k, &x, 4);
            }
            return;
        }
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t u = ws_splitmix64(b->seed + k);
            store_integer(s, dst, k, (int64_t)((uint64_t)lo + (mask ? u & mask : u % range)));
        }
        return;
    }
    default:
        return;
    }
}

void ws_buffer_fill_range(const ws_buffer *b, void *dst, uint64_t off, uint64_t len)
{
    size_t size = ws_type_size(ws_type_scalar(b->type));
    uint64_t end = off + len < b->bytes ? off + len : b->bytes;
    if (!ws_buffer_fill_is_local(b) || off >= end)
        return;
    fill_scalars(b, dst, off / size, (end + size - 1) / size);
}

int ws_buffer_fill_checked(const ws_buffer *b, void *dst, ws_error *err)
{
    ws_type s = ws_type_scalar(b->type);
    bool is_float = ws_type_is_float(b->type);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    if (b->init == WS_INIT_ZERO) {      /* every byte, a buffer cut shorter than its count included */
        memset(dst, 0, b->bytes);
        return 0;
    }
    if (ws_buffer_fill_is_local(b)) {   /* never past b->bytes, which a caller may have cut short */
        uint64_t fit = b->bytes / ws_type_size(s);
        fill_scalars(b, dst, 0, n < fit ? n : fit);
        return 0;
    }
    switch (b->init) {
    case WS_INIT_PERM: {
        for (uint64_t k = 0; k < n; k++) store_integer(s, dst, k, (int64_t)k);
        size_t size = ws_type_size(s);
        for (uint64_t i = n > 0 ? n - 1 : 0; i > 0; i--)
            swap_scalars(dst, size, i, ws_splitmix64(b->seed + i) % (i + 1));
        return 0;
    }
    case WS_INIT_LCG: {
        uint64_t m = b->lcg_m ? b->lcg_m : 1, x = b->seed % m;
        int64_t lo = to_i64(b->lo), hi = to_i64(b->hi);
        bool ranged = hi > lo;
        uint64_t range = ranged ? (uint64_t)hi - (uint64_t)lo : 1;
        for (uint64_t k = 0; k < n; k++) {
            x = lcg_step(b->lcg_a % m, b->lcg_c % m, m, x);
            if (ranged) store_integer(s, dst, k, (int64_t)((uint64_t)lo + x % range));
            else if (is_float) store_float(s, dst, k, (double)x / (double)m);
            else store_int(s, dst, k, (int64_t)x);
        }
        return 0;
    }
    case WS_INIT_FILE:
        return fill_file(b, dst, err);
    default:
        return 0;
    }
}

void ws_buffer_fill(const ws_buffer *b, void *dst)
{
    ws_error err;
    if (ws_buffer_fill_checked(b, dst, &err))
        fprintf(stderr, "warpscope: %s; buffer '%s' starts zeroed\n", err.msg, b->name);
}

/* ---- reading back ------------------------------------------------------------------------------ */

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
    case WS_TYPE_HALF: { uint16_t x; memcpy(&x, p + 2 * k, 2); *bits = x; return ws_half_to_double(x); }
    case WS_TYPE_BF16: { uint16_t x; memcpy(&x, p + 2 * k, 2); *bits = x; return ws_bf16_to_double(x); }
    default: return 0;
    }
}

/* The bits of a floating scalar as a signed position on the number line: adjacent values are
 * adjacent integers, -0 and +0 both 0. */
static int64_t ordered(ws_type s, uint64_t bits)
{
    int w = s == WS_TYPE_DOUBLE ? 64 : s == WS_TYPE_FLOAT ? 32 : 16;
    uint64_t sign = 1ull << (w - 1), mag = bits & (sign - 1);
    return (bits & sign) ? -(int64_t)mag : (int64_t)mag;
}

uint64_t ws_buffer_ulp_distance(const ws_buffer *b, const void *a, const void *bb, uint64_t k)
{
    ws_type s = ws_type_scalar(b->type);
    if (!ws_type_is_float(s)) return UINT64_MAX;
    uint64_t x, y;
    double dx = scalar_at(s, a, k, &x), dy = scalar_at(s, bb, k, &y);
    if (x == y) return 0;
    if (dx != dx || dy != dy) return UINT64_MAX;
    int64_t ox = ordered(s, x), oy = ordered(s, y);
    /* doubles far apart: the difference of two int64 positions can overflow; saturate */
    if ((ox > 0 && oy < 0 && ox > INT64_MAX + oy) || (ox < 0 && oy > 0 && oy > INT64_MAX + ox)) return UINT64_MAX - 1;
    return ox > oy ? (uint64_t)(ox - oy) : (uint64_t)(oy - ox);
}

uint64_t ws_buffer_max_ulp(const ws_buffer *b, const void *got, const void *want)
{
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type), worst = 0;
    for (uint64_t k = 0; k < n && worst != UINT64_MAX; k++) {
        uint64_t d = ws_buffer_ulp_distance(b, got, want, k);
        if (d > worst) worst = d;
    }
    return worst;
}

/* The first scalar at or after from that differs under the description's tolerance alone. */
static int64_t compare_from(const ws_buffer *b, const void *got, const void *want, uint64_t from, double *got_out,
                            double *want_out)
{
    ws_type s = ws_type_scalar(b->type);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    for (uint64_t k = from; k < n; k++) {
        uint64_t gb, wb;
        double g = scalar_at(s, got, k, &gb);
        double w = scalar_at(s, want, k, &wb);
        bool same;
        if (gb == wb) same = true;                       /* identical bits: equal, NaN and inf included */
        else if (b->tol == 0 && b->ulp == 0) same = false;
        else if (g != g || w != w) same = false;         /* NaN equals NaN only bit-exactly */
        else if (isinf(g) || isinf(w)) same = false;     /* inf equals only the same inf */
        else {
            double scale = fabs(w) > 1.0 ? fabs(w) : 1.0;
            same = b->tol > 0 && fabs(g - w) <= b->tol * scale;
            if (!same && b->ulp > 0) same = ws_buffer_ulp_distance(b, got, want, k) <= b->ulp;
        }
        if (!same) {
            if (got_out) *got_out = g;
            if (want_out) *want_out = w;
            return (int64_t)k;
        }
    }
    return -1;
}

int64_t ws_buffer_compare(const ws_buffer *b, const void *got, const void *want, double *got_out, double *want_out)
{
    return compare_from(b, got, want, 0, got_out, want_out);
}

/* The same, floating scalars also agreeing within bound. */
static int64_t compare_within_from(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                   uint64_t from, double *got_out, double *want_out)
{
    ws_type s = ws_type_scalar(b->type);
    if (!bound || (!bound->ulps && bound->abs == 0) || !ws_type_is_float(s))
        return compare_from(b, got, want, from, got_out, want_out);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(b->type);
    for (uint64_t k = from; k < n; k++) {
        uint64_t gb, wb;
        double g = scalar_at(s, got, k, &gb), w = scalar_at(s, want, k, &wb);
        bool same = gb == wb;
        if (!same && isfinite(g) && isfinite(w)) {
            double d = fabs(g - w);
            uint64_t u = ws_buffer_ulp_distance(b, got, want, k);
            same = (b->tol > 0 && d <= b->tol * (fabs(w) > 1.0 ? fabs(w) : 1.0)) || (b->ulp > 0 && u <= b->ulp) ||
                   d <= bound->abs;
            if (s == WS_TYPE_FLOAT) same |= u <= bound->ulps;
            else if (s == WS_TYPE_DOUBLE) same |= d <= ldexp((double)bound->ulps, -23) * fabs(w);
            else same |= u <= 1;
        }
        if (!same) {
            if (got_out) *got_out = g;
            if (want_out) *want_out = w;
            return (int64_t)k;
        }
    }
    return -1;
}

int64_t ws_buffer_compare_within(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                 double *got_out, double *want_out)
{
    return compare_within_from(b, got, want, bound, 0, got_out, want_out);
}

int64_t ws_buffer_next_difference(const ws_buffer *b, const void *got, const void *want, const ws_fp_bound *bound,
                                  uint64_t from)
{
    return compare_within_from(b, got, want, bound, from, NULL, NULL);
}

/* Shortest %g form that reads back as the same value of scalar type s. */
static void format_real(double v, ws_type s, char *out, size_t cap)
{
    if (v != v) { snprintf(out, cap, "nan"); return; }
    if (isinf(v)) { snprintf(out, cap, v < 0 ? "-inf" : "inf"); return; }
    int max = s == WS_TYPE_DOUBLE ? 17 : 9;
    for (int prec = 1; prec <= max; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        double back = strtod(out, NULL);
        bool same = s == WS_TYPE_DOUBLE ? back == v
                    : s == WS_TYPE_FLOAT ? (float)back == (float)v
                    : s == WS_TYPE_HALF ? ws_half_from_double(back) == ws_half_from_double(v)
                    : ws_bf16_from_double(back) == ws_bf16_from_double(v);
        if (same) return;
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
    case WS_TYPE_FLOAT: case WS_TYPE_DOUBLE: case WS_TYPE_HALF: case WS_TYPE_BF16: format_real(v, s, out, cap); return;
    case WS_TYPE_LONG: snprintf(out, cap, "%" PRId64, (int64_t)bits); return;
    case WS_TYPE_ULONG: snprintf(out, cap, "%" PRIu64, bits); return;
    default: snprintf(out, cap, "%.0f", v); return;     /* narrow ints are exact in a double */
    }
}
