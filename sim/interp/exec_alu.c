/* exec_alu.c - arithmetic, logic, comparison, selection and conversion, one
 * warp-level instruction at a time over its active lanes.
 * Invariant: results follow the PTX ISA bit for bit: integers wrap (unsigned
 * C arithmetic, no UB), f32 is computed in float (fmaf only where PTX says
 * fma/mad), .ftz flushes subnormal inputs and results, .sat clamps. */
#include "interp_priv.h"

#include <fenv.h>
#include <float.h>
#include <math.h>

/* --- float helpers --------------------------------------------------------- */

static inline float ftz32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
static inline double ftz64(double x) { return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x; }
static inline double sat01(double x) { return isnan(x) ? 0.0 : x < 0 ? 0.0 : x > 1 ? 1.0 : x; }

static int fe_mode(ptx_round r)
{
    switch (r) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static bool is_x2(ptx_type t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }

static double half_get(ptx_type t, uint64_t v)
{
    return t == PTX_T_BF16 || t == PTX_T_BF16X2 ? sim_bf2f((uint16_t)v) : sim_h2f((uint16_t)v);
}
static uint64_t half_put(ptx_type t, double x, ptx_round r)
{
    return t == PTX_T_BF16 || t == PTX_T_BF16X2 ? sim_f2bf(x, r) : sim_f2h(x, r);
}

static bool nan16(ptx_type t, uint16_t h)
{
    return (h & 0x7fff) > (t == PTX_T_BF16 || t == PTX_T_BF16X2 ? 0x7f80 : 0x7c00);
}

/* A float narrowed to f16/bf16 (t or its x2) with cvt's .relu (a negative result, -0
 * included, becomes +0; NaN stays the canonical NaN) and .satfinite (+-max finite beyond it). */
static uint64_t narrow_half(ptx_type t, double x, ptx_round r, uint32_t fl)
{
    bool bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    uint16_t h = fl & PTX_F_SATFINITE ? (bf ? sim_f2bf_sat(x, r) : sim_f2h_sat(x, r)) : (uint16_t)half_put(t, x, r);
    if ((fl & PTX_F_RELU) && (h & 0x8000) && !nan16(t, h)) h = 0;
    return h;
}

/* One fp8 of a pair (cvt.rn.satfinite{.relu}.e4m3x2|e5m2x2), from the exact value x. */
static uint64_t narrow_f8(double x, uint32_t fl)
{
    bool e5 = fl & PTX_F_E5M2;
    uint8_t b = e5 ? sim_f2e5m2(x) : sim_f2e4m3(x);
    bool nan = e5 ? (b & 0x7f) > 0x7c : (b & 0x7f) == 0x7f;
    if ((fl & PTX_F_RELU) && (b & 0x80) && !nan) b = 0;
    return b;
}

/* f32 bits to tf32 (an f32 whose low 13 fraction bits are 0): .rna ties away from zero,
 * .rn to even, .rz truncates; NaN is the canonical 0x7fffffff; .satfinite keeps it finite. */
static uint64_t to_tf32(uint32_t u, ptx_round r, uint32_t fl)
{
    uint32_t mag = u & 0x7fffffffu, sign = u & 0x80000000u;
    if (mag > 0x7f800000u) return 0x7fffffffu;
    if (mag < 0x7f800000u) {
        if (r == PTX_RND_RNA) mag += 0x1000u;
        else if (r != PTX_RND_RZ) mag += 0xfffu + (mag >> 13 & 1);
        mag &= 0xffffe000u;
        if (mag > 0x7f800000u) mag = 0x7f800000u;
    }
    if ((fl & PTX_F_SATFINITE) && mag == 0x7f800000u) mag = 0x7f7fe000u;
    if ((fl & PTX_F_RELU) && sign) return 0;
    return sign | mag;
}

static float fminmax32(bool mx, float a, float b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return (signbit(a) != mx) ? a : b;  /* min(-0,+0) = -0, max = +0 */
    return mx ? (a > b ? a : b) : (a < b ? a : b);
}
static double fminmax64(bool mx, double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return (signbit(a) != mx) ? a : b;
    return mx ? (a > b ? a : b) : (a < b ? a : b);
}

/* f32 operation on one lane. Volatile keeps the arithmetic between the
 * rounding-mode switches done by the caller. */
static float op32(ptx_opcode op, float x, float y, float z)
{
    volatile float r;
    switch (op) {
    case PTX_ADD: r = x + y; break;
    case PTX_SUB: r = x - y; break;
    case PTX_MUL: r = x * y; break;
    case PTX_MAD: case PTX_FMA: r = fmaf(x, y, z); break;
    case PTX_DIV: r = x / y; break;
    case PTX_ABS: r = fabsf(x); break;
    case PTX_NEG: r = -x; break;
    case PTX_MIN: r = fminmax32(false, x, y); break;
    case PTX_MAX: r = fminmax32(true, x, y); break;
    case PTX_COPYSIGN: r = copysignf(y, x); break;
    case PTX_RCP: r = 1.0f / x; break;
    case PTX_SQRT: r = sqrtf(x); break;
    case PTX_RSQRT: r = 1.0f / sqrtf(x); break;
    case PTX_SIN: r = sinf(x); break;
    case PTX_COS: r = cosf(x); break;
    case PTX_LG2: r = log2f(x); break;
    case PTX_EX2: r = exp2f(x); break;
    case PTX_TANH: r = tanhf(x); break;
    default: r = NAN; break;
    }
    return r;
}

static double op64(ptx_opcode op, double x, double y, double z)
{
    volatile double r;
    switch (op) {
    case PTX_ADD: r = x + y; break;
    case PTX_SUB: r = x - y; break;
    case PTX_MUL: r = x * y; break;
    case PTX_MAD: case PTX_FMA: r = fma(x, y, z); break;
    case PTX_DIV: r = x / y; break;
    case PTX_ABS: r = fabs(x); break;
    case PTX_NEG: r = -x; break;
    case PTX_MIN: r = fminmax64(false, x, y); break;
    case PTX_MAX: r = fminmax64(true, x, y); break;
    case PTX_COPYSIGN: r = copysign(y, x); break;
    case PTX_RCP: r = 1.0 / x; break;
    case PTX_SQRT: r = sqrt(x); break;
    case PTX_RSQRT: r = 1.0 / sqrt(x); break;
    case PTX_SIN: r = sin(x); break;
    case PTX_COS: r = cos(x); break;
    case PTX_LG2: r = log2(x); break;
    case PTX_EX2: r = exp2(x); break;
    case PTX_TANH: r = tanh(x); break;
    default: r = NAN; break;
    }
    return r;
}

static bool op_is_float_bitwise(ptx_opcode op) { return op == PTX_ABS || op == PTX_NEG; }

/* x*y + z for half-precision inputs, rounded to odd in double: x*y is exact (two
 * 11-bit significands), the sum's rounding error is recovered exactly (TwoSum), and
 * an inexact sum keeps a sticky last bit, so the later rounding to f16/bf16 cannot
 * mistake a value just off a tie for the tie (bf16 exponents span far more than
 * double's 53 bits). */
static double fma_to_odd(double x, double y, double z)
{
    double p = x * y, s = p + z;
    if (!isfinite(s)) return s;
    double bb = s - p, err = (p - (s - bb)) + (z - bb);
    if (err == 0) return s;
    if ((err > 0) != (s > 0)) s = nextafter(s, 0.0);   /* truncate toward zero */
    return sim_f64(sim_f64b(s) | 1);
}

/* Float operation on one lane of any float type. */
static uint64_t fop(ptx_opcode op, ptx_type t, uint32_t fl, ptx_round rnd, uint64_t a, uint64_t b, uint64_t c)
{
    bool ftz = fl & PTX_F_FTZ, sat = fl & PTX_F_SAT;
    switch (t) {
    case PTX_T_F32: {
        float x = sim_f32(a), y = sim_f32(b), z = sim_f32(c);
        if (ftz) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }
        float r = op32(op, x, y, z);
        if (ftz && !op_is_float_bitwise(op)) r = ftz32(r);
        if (sat) r = (float)sat01(r);
        return sim_f32b(r);
    }
    case PTX_T_F64: {
        double x = sim_f64(a), y = sim_f64(b), z = sim_f64(c);
        if (ftz) { x = ftz64(x); y = ftz64(y); z = ftz64(z); }
        double r = op64(op, x, y, z);
        if (sat) r = sat01(r);
        return sim_f64b(r);
    }
    case PTX_T_F16: case PTX_T_BF16: {
        if (op == PTX_NEG) return (a ^ 0x8000u) & 0xffffu;
        if (op == PTX_ABS) return a & 0x7fffu;
        double x = half_get(t, a), y = half_get(t, b), z = half_get(t, c);
        double r = (op == PTX_FMA || op == PTX_MAD) ? fma_to_odd(x, y, z) : op64(op, x, y, z);
        if (sat) r = sat01(r);
        return half_put(t, r, rnd);
    }
    case PTX_T_F16X2: case PTX_T_BF16X2: {
        ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        uint64_t lo = fop(op, h, fl, rnd, a & 0xffff, b & 0xffff, c & 0xffff);
        uint64_t hi = fop(op, h, fl, rnd, (a >> 16) & 0xffff, (b >> 16) & 0xffff, (c >> 16) & 0xffff);
        return (lo & 0xffff) | ((hi & 0xffff) << 16);
    }
    default:
        return 0;
    }
}

/* --- integer helpers ------------------------------------------------------- */

static uint64_t mulhi(uint64_t a, uint64_t b, int bits, bool sgn)
{
    if (bits == 64) {
        if (sgn) return (uint64_t)(((__int128)(int64_t)a * (__int128)(int64_t)b) >> 64);
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    if (sgn) return (uint64_t)((sim_sext(a, bits) * sim_sext(b, bits)) >> bits);
    return (sim_zext(a, bits) * sim_zext(b, bits)) >> bits;
}

static uint64_t mulwide(uint64_t a, uint64_t b, int bits, bool sgn)
{
    if (sgn) return (uint64_t)(sim_sext(a, bits) * sim_sext(b, bits));
    return sim_zext(a, bits) * sim_zext(b, bits);
}

static int64_t sat_s32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }

static uint64_t idiv(bool rem, uint64_t a, uint64_t b, int bits, bool sgn)
{
    if (sgn) {
        int64_t x = sim_sext(a, bits), y = sim_sext(b, bits);
        if (y == 0) return rem ? (uint64_t)x : ~0ull;           /* undefined in PTX: no trap */
        if (y == -1) return rem ? 0 : (uint64_t)0 - (uint64_t)x; /* INT_MIN / -1 wraps */
        return rem ? (uint64_t)(x % y) : (uint64_t)(x / y);
    }
    uint64_t x = sim_zext(a, bits), y = sim_zext(b, bits);
    if (y == 0) return rem ? x : ~0ull;
    return rem ? x % y : x / y;
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, bool sgn)
{
    pos &= 0xff; len &= 0xff;
    if (len == 0) return 0;
    if (pos >= (uint32_t)bits) return sgn && (a >> (bits - 1) & 1) ? ~0ull : 0;
    uint32_t el = len < (uint32_t)bits - pos ? len : (uint32_t)bits - pos;
    uint64_t v = sim_zext(a, bits) >> pos;
    uint64_t m = el >= 64 ? ~0ull : (1ull << el) - 1;
    v &= m;
    if (sgn && (v >> (el - 1) & 1)) v |= ~m;
    return v;
}

static uint64_t bfi(uint64_t f, uint64_t base, uint32_t pos, uint32_t len, int bits)
{
    pos &= 0xff; len &= 0xff;
    if (len == 0 || pos >= (uint32_t)bits) return base;
    uint32_t el = len < (uint32_t)bits - pos ? len : (uint32_t)bits - pos;
    uint64_t m = (el >= 64 ? ~0ull : (1ull << el) - 1) << pos;
    return (base & ~m) | ((f << pos) & m);
}

static uint64_t brev(uint64_t a, int bits)
{
    uint64_t r = 0;
    for (int i = 0; i < bits; i++) r |= ((a >> i) & 1) << (bits - 1 - i);
    return r;
}

static uint64_t bfind(uint64_t a, int bits, bool sgn, bool shiftamt)
{
    uint64_t v = sim_zext(a, bits);
    if (sgn && (v >> (bits - 1) & 1)) v = sim_zext(~v, bits);
    if (!v) return 0xffffffffu;
    int pos = 63 - __builtin_clzll(v);
    return shiftamt ? (uint64_t)(bits - 1 - pos) : (uint64_t)pos;
}

static uint64_t prmt(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t t = (sim_zext(b, 32) << 32) | sim_zext(a, 32), r = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sel = (uint32_t)(c >> (4 * i)) & 0xf;
        uint64_t byte = (t >> ((sel & 7) * 8)) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}

static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, uint32_t lut)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        if (lut >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* --- comparisons ----------------------------------------------------------- */

static bool fcmp(ptx_cmp c, double x, double y)
{
    bool un = isnan(x) || isnan(y);
    switch (c) {
    case PTX_CMP_EQ: return !un && x == y;
    case PTX_CMP_NE: return !un && x != y;
    case PTX_CMP_LT: return !un && x < y;
    case PTX_CMP_LE: return !un && x <= y;
    case PTX_CMP_GT: return !un && x > y;
    case PTX_CMP_GE: return !un && x >= y;
    case PTX_CMP_EQU: return un || x == y;
    case PTX_CMP_NEU: return un || x != y;
    case PTX_CMP_LTU: return un || x < y;
    case PTX_CMP_LEU: return un || x <= y;
    case PTX_CMP_GTU: return un || x > y;
    case PTX_CMP_GEU: return un || x >= y;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return false;
    }
}

static double fget(ptx_type t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_T_F32: { float f = sim_f32(v); return ftz ? ftz32(f) : f; }
    case PTX_T_F64: return ftz ? ftz64(sim_f64(v)) : sim_f64(v);
    default: return half_get(t, v);
    }
}

/* r[l] = (a[l] cmp b[l]) for the lanes of m. */
static void compare(ptx_cmp cmp, ptx_type t, uint32_t fl, const uint64_t *a, const uint64_t *b,
                    uint64_t *r, uint32_t m)
{
    int bits = sim_bits(t);
    if (ptx_type_is_float(t)) {
        bool ftz = fl & PTX_F_FTZ;
        SIM_LANES(m, r[l] = fcmp(cmp, fget(t, a[l], ftz), fget(t, b[l], ftz)));
        return;
    }
    if (t == PTX_T_PRED) bits = 1;
    bool sgn = ptx_type_is_signed(t);
    /* signed: sign-extend and compare as int64; else zero-extend as uint64.
     * lo/ls/hi/hs are unsigned by definition. */
    if (sgn && cmp != PTX_CMP_LO && cmp != PTX_CMP_LS && cmp != PTX_CMP_HI && cmp != PTX_CMP_HS) {
#define SCMP(OP) SIM_LANES(m, r[l] = sim_sext(a[l], bits) OP sim_sext(b[l], bits))
        switch (cmp) {
        case PTX_CMP_EQ: SCMP(==); break;
        case PTX_CMP_NE: SCMP(!=); break;
        case PTX_CMP_LT: SCMP(<); break;
        case PTX_CMP_LE: SCMP(<=); break;
        case PTX_CMP_GT: SCMP(>); break;
        case PTX_CMP_GE: SCMP(>=); break;
        default: SIM_LANES(m, r[l] = 0); break;
        }
#undef SCMP
        return;
    }
#define UCMP(OP) SIM_LANES(m, r[l] = sim_zext(a[l], bits) OP sim_zext(b[l], bits))
    switch (cmp) {
    case PTX_CMP_EQ: UCMP(==); break;
    case PTX_CMP_NE: UCMP(!=); break;
    case PTX_CMP_LT: case PTX_CMP_LO: UCMP(<); break;
    case PTX_CMP_LE: case PTX_CMP_LS: UCMP(<=); break;
    case PTX_CMP_GT: case PTX_CMP_HI: UCMP(>); break;
    case PTX_CMP_GE: case PTX_CMP_HS: UCMP(>=); break;
    default: SIM_LANES(m, r[l] = 0); break;
    }
#undef UCMP
}

/* --- conversion ------------------------------------------------------------ */

static double round_int(double v, ptx_round r)
{
    switch (r) {
    case PTX_RND_RNI: return nearbyint(v);
    case PTX_RND_RMI: return floor(v);
    case PTX_RND_RPI: return ceil(v);
    case PTX_RND_RZI: return trunc(v);
    default: return v;
    }
}

/* long double holds every int64 and double exactly (x86-64: 64-bit mantissa),
 * so conversions round once, in the mode asked. */
static float to_f32(long double x, ptx_round r)
{
    float f = (float)x;                          /* round to nearest even */
    switch (r) {
    case PTX_RND_RZ: if (fabsl((long double)f) > fabsl(x)) f = nextafterf(f, 0.0f); break;
    case PTX_RND_RM: if ((long double)f > x) f = nextafterf(f, -INFINITY); break;
    case PTX_RND_RP: if ((long double)f < x) f = nextafterf(f, INFINITY); break;
    default: break;
    }
    return f;
}
static double to_f64(long double x, ptx_round r)
{
    double f = (double)x;
    switch (r) {
    case PTX_RND_RZ: if (fabsl((long double)f) > fabsl(x)) f = nextafter(f, 0.0); break;
    case PTX_RND_RM: if ((long double)f > x) f = nextafter(f, -INFINITY); break;
    case PTX_RND_RP: if ((long double)f < x) f = nextafter(f, INFINITY); break;
    default: break;
    }
    return f;
}

static uint64_t float_to_int(double v, ptx_type dt, ptx_round r)
{
    int bits = sim_bits(dt);
    if (isnan(v)) return 0;
    v = round_int(v, r == PTX_RND_NONE ? PTX_RND_RZI : r);
    if (ptx_type_is_signed(dt)) {
        double lim = ldexp(1.0, bits - 1);
        if (v >= lim) return (uint64_t)((1ull << (bits - 1)) - 1);
        if (v < -lim) return (uint64_t)1 << (bits - 1);   /* INT_MIN bit pattern */
        return (uint64_t)(int64_t)v;
    }
    double lim = ldexp(1.0, bits);
    if (v >= lim) return bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (v <= 0) return 0;
    return (uint64_t)v;
}

static uint64_t cvt1(const ptx_insn *pi, uint64_t a)
{
    ptx_type dt = pi->type, st = pi->type2;
    ptx_round r = pi->rnd;
    bool ftz = pi->flags & PTX_F_FTZ, sat = pi->flags & PTX_F_SAT;
    bool df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
    int sb = sim_bits(st), db = sim_bits(dt);
    if (!df && !sf) {                            /* integer <-> integer */
        bool ss = ptx_type_is_signed(st), ds = ptx_type_is_signed(dt);
        uint64_t x = ss ? (uint64_t)sim_sext(a, sb) : sim_zext(a, sb);
        if (!sat) return x;
        bool neg = ss && (int64_t)x < 0;
        if (ds) {
            int64_t mx = (int64_t)((1ull << (db - 1)) - 1), mn = -mx - 1;
            if (neg) return (int64_t)x < mn ? (uint64_t)mn : x;
            return x > (uint64_t)mx ? (uint64_t)mx : x;
        }
        uint64_t mx = db == 64 ? ~0ull : (1ull << db) - 1;
        if (neg) return 0;
        return x > mx ? mx : x;
    }
    if (sf && !df) {                             /* float -> integer */
        double v = fget(st, a, ftz);
        return float_to_int(v, dt, r);
    }
    if (!sf && df) {                             /* integer -> float */
        long double x = ptx_type_is_signed(st) ? (long double)sim_sext(a, sb) : (long double)sim_zext(a, sb);
        double v;
        uint64_t out;
        if (dt == PTX_T_F32) { float f = to_f32(x, r); if (sat) f = (float)sat01(f); out = sim_f32b(f); }
        else if (dt == PTX_T_F64) { v = to_f64(x, r); if (sat) v = sat01(v); out = sim_f64b(v); }
        else {
            /* a 64-bit integer may not fit a double: round it to odd (truncate, then
             * set the last bit if inexact), which the narrower rounding cannot misread
             * as a tie, so the half/bf16 result is rounded once, as PTX says */
            v = to_f64(x, PTX_RND_RZ);
            if ((long double)v != x) { uint64_t u = sim_f64b(v) | 1; v = sim_f64(u); }
            if (sat) v = sat01(v);
            out = half_put(dt, v, r);
        }
        return out;
    }
    /* float -> float */
    double v = fget(st, a, ftz && st == PTX_T_F32);
    if (r >= PTX_RND_RNI && r <= PTX_RND_RPI) v = round_int(v, r);
    if (sat) v = sat01(v);
    switch (dt) {
    case PTX_T_F32: {
        float f = (st == PTX_T_F64) ? to_f32(v, r) : (float)v;
        if (ftz) f = ftz32(f);
        return sim_f32b(f);
    }
    case PTX_T_F64: return sim_f64b(v);
    default: return narrow_half(dt, v, r >= PTX_RND_RNI ? PTX_RND_RN : r, pi->flags);
    }
}

/* --- the semantics, one function per family --------------------------------
 * sim_alu_decode picks one per instruction, once, from its opcode, type and
 * modifiers; each runs the lanes with nothing left to decide per execution but
 * what varies by lane. */

#define ALU_FN(name) static int name(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
/* the operands every family reads: d = a op b (op cc), in the instruction's type */
#define OPERANDS                                                                   \
    uint64_t *F = w->file, *d = F + in->src[0];                                    \
    const uint64_t *a = F + in->src[1], *b = F + in->src[2], *cc = F + in->src[3]; \
    const int bits = in->bits;                                                     \
    const bool sgn = in->sgn;                                                      \
    (void)c; (void)a; (void)b; (void)cc; (void)bits; (void)sgn
/* a family that is one expression per lane */
#define LANEWISE(name, expr) ALU_FN(name) { OPERANDS; SIM_LANES(m, d[l] = (expr)); return 0; }
/* the same for an expression the compiler vectorises: a full warp's lanes go to a local row
 * first, then to d (d may be a's row: in place the loop could not be vectorised) */
#define LANEWISE_V(name, expr) ALU_FN(name) {                                     \
        OPERANDS;                                                                  \
        if (m == SIM_FULL) {                                                       \
            uint64_t t_[32];                                                       \
            for (int l = 0; l < 32; l++) t_[l] = (expr);                           \
            memcpy(d, t_, sizeof t_);                                              \
        } else SIM_LANES(m, d[l] = (expr));                                        \
        return 0;                                                                  \
    }
/* sim_zext's mask for a width: loop-invariant, so a lane loop using it vectorises */
static inline uint64_t zext_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

ALU_FN(alu_unsupported)
{
    (void)m;
    char txt[160];
    ptx_format_insn(w->prog->fn, in->pi, txt, sizeof txt);
    return sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s'", txt);
}

/* mov */
ALU_FN(alu_mov)
{
    OPERANDS;
    if (m == SIM_FULL) memmove(d, a, 32 * sizeof *d);   /* a row; d may be a */
    else SIM_LANES(m, d[l] = a[l]);
    return 0;
}
ALU_FN(alu_mov_pred) { OPERANDS; bool ng = in->pi->opnd[1].neg; SIM_LANES(m, d[l] = (a[l] & 1) ^ ng); return 0; }
/* mov with a vector operand: pack {a,b,..} into d, or unpack d into {a,b,..}. */
ALU_FN(alu_mov_vec)
{
    OPERANDS;
    int n = in->vec_n, eb = bits / (n ? n : 1);
    if (in->vec_opnd == 1) {
        SIM_LANES(m, {
            uint64_t v = 0;
            for (int i = 0; i < n; i++) v |= sim_zext(F[in->vec[i] + l], eb) << (i * eb);
            d[l] = v;
        });
    } else {
        SIM_LANES(m, {
            uint64_t v = a[l];
            for (int i = 0; i < n; i++) F[in->vec[i] + l] = sim_zext(v >> (i * eb), eb);
        });
    }
    return 0;
}

/* f32 with no .ftz/.sat in round-to-nearest: the C operators are the PTX ones */
LANEWISE_V(alu_add_f32, sim_f32b(sim_f32(a[l]) + sim_f32(b[l])))
LANEWISE_V(alu_sub_f32, sim_f32b(sim_f32(a[l]) - sim_f32(b[l])))
LANEWISE_V(alu_mul_f32, sim_f32b(sim_f32(a[l]) * sim_f32(b[l])))
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* fmaf of a full warp with the CPU's FMA instruction, where it has one: the single rounding libm's
 * fmaf gives there (glibc's picks that instruction too), without a library call per lane. Into a
 * local row first: d may be a's. */
__attribute__((target("fma"))) static void fma_f32_row(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                        const uint64_t *cc)
{
    uint64_t t[32];
    for (int l = 0; l < 32; l++) t[l] = sim_f32b(__builtin_fmaf(sim_f32(a[l]), sim_f32(b[l]), sim_f32(cc[l])));
    memcpy(d, t, sizeof t);
}
#define FMA_ROW_OK() __builtin_cpu_supports("fma")
#else
#define fma_f32_row(d, a, b, cc) ((void)0)
#define FMA_ROW_OK() 0
#endif
ALU_FN(alu_fma_f32)
{
    OPERANDS;
    if (m == SIM_FULL && FMA_ROW_OK()) fma_f32_row(d, a, b, cc);
    else SIM_LANES(m, d[l] = sim_f32b(fmaf(sim_f32(a[l]), sim_f32(b[l]), sim_f32(cc[l]))));
    return 0;
}

/* every float type and modifier; the rounding mode is set around directed ones */
ALU_FN(alu_float)
{
    OPERANDS;
    const ptx_insn *pi = in->pi;
    ptx_opcode op = pi->op;
    ptx_type t = pi->type;
    uint32_t fl = pi->flags;
    ptx_round r = pi->rnd;
    SIM_LANES(m, d[l] = fop(op, t, fl, r, a[l], b[l], cc[l]));
    return 0;
}
ALU_FN(alu_float_directed)
{
    int old = fegetround();
    fesetround(in->fe);
    int rc = alu_float(c, w, in, m);
    fesetround(old);
    return rc;
}

/* integer add/sub */
LANEWISE_V(alu_add, a[l] + b[l])
LANEWISE_V(alu_sub, a[l] - b[l])
LANEWISE(alu_add_sat, (uint64_t)sat_s32(sim_sext(a[l], 32) + sim_sext(b[l], 32)))
LANEWISE(alu_sub_sat, (uint64_t)sat_s32(sim_sext(a[l], 32) - sim_sext(b[l], 32)))
/* add.cc / addc / sub.cc / subc: the carry flag per lane in w->carry */
ALU_FN(alu_addsub_carry)
{
    OPERANDS;
    const ptx_insn *pi = in->pi;
    bool sub = pi->op == PTX_SUB, cin = pi->flags & PTX_F_CARRYIN, cout = pi->flags & PTX_F_CC;
    uint32_t carry = w->carry, nc = carry;
    SIM_LANES(m, {
        uint64_t x = sim_zext(a[l], bits), y = sim_zext(b[l], bits);
        uint64_t ci = cin ? (carry >> l & 1) : 0, rr, co;
        if (!sub) { rr = x + y + ci; co = bits == 64 ? (rr < x || (ci && rr == x)) : rr >> bits & 1; }
        else { rr = x - y - ci; co = bits == 64 ? (x < y || (ci && x == y)) : rr >> bits & 1; }
        d[l] = sim_zext(rr, bits);
        if (cout) nc = (nc & ~(1u << l)) | ((uint32_t)(co & 1) << l);
    });
    w->carry = nc;
    return 0;
}

/* integer mul/mad */
LANEWISE(alu_mul_lo, a[l] * b[l])
LANEWISE(alu_mul_hi, mulhi(a[l], b[l], bits, sgn))
LANEWISE(alu_mul_wide, mulwide(a[l], b[l], bits, sgn))
LANEWISE(alu_mad_lo, a[l] * b[l] + cc[l])
LANEWISE(alu_mad_hi, mulhi(a[l], b[l], bits, sgn) + cc[l])
LANEWISE(alu_mad_wide, mulwide(a[l], b[l], bits, sgn) + cc[l])
/* mad.lo.sat.s32 and mad.hi.sat.s32 (the only .sat forms): exact in int64 */
LANEWISE(alu_mad_lo_sat, (uint64_t)sat_s32(sim_sext(a[l], 32) * sim_sext(b[l], 32) + sim_sext(cc[l], 32)))
LANEWISE(alu_mad_hi_sat, (uint64_t)sat_s32((int64_t)mulhi(a[l], b[l], 32, true) + sim_sext(cc[l], 32)))
/* mad{c}{.cc}.lo/.hi: d = product half + c (+ CC.CF), carry out of that unsigned
 * addition into CC.CF, like add.cc/addc */
ALU_FN(alu_mad_carry)
{
    OPERANDS;
    const ptx_insn *pi = in->pi;
    bool cin = pi->flags & PTX_F_CARRYIN, cout = pi->flags & PTX_F_CC, hi = pi->mulmode == PTX_MULMODE_HI;
    uint32_t carry = w->carry, nc = carry;
    SIM_LANES(m, {
        uint64_t x = sim_zext(hi ? mulhi(a[l], b[l], bits, sgn) : a[l] * b[l], bits);
        uint64_t y = sim_zext(cc[l], bits), ci = cin ? (carry >> l & 1) : 0;
        uint64_t rr = x + y + ci, co = bits == 64 ? (rr < x || (ci && rr == x)) : rr >> bits & 1;
        d[l] = sim_zext(rr, bits);
        if (cout) nc = (nc & ~(1u << l)) | ((uint32_t)(co & 1) << l);
    });
    w->carry = nc;
    return 0;
}
ALU_FN(alu_mul24)
{
    OPERANDS;
    bool hi = in->pi->mulmode == PTX_MULMODE_HI, mad = in->pi->op == PTX_MAD24;
    SIM_LANES(m, {
        uint64_t p = sgn ? (uint64_t)(sim_sext(a[l], 24) * sim_sext(b[l], 24))
                         : sim_zext(a[l], 24) * sim_zext(b[l], 24);
        uint64_t r = hi ? p >> 16 : p;
        d[l] = mad ? r + cc[l] : r;
    });
    return 0;
}
ALU_FN(alu_sad)
{
    OPERANDS;
    SIM_LANES(m, {
        uint64_t x = a[l], y = b[l];
        bool lt = sgn ? sim_sext(x, bits) < sim_sext(y, bits) : sim_zext(x, bits) < sim_zext(y, bits);
        d[l] = (lt ? y - x : x - y) + cc[l];
    });
    return 0;
}

/* integer div/rem, abs/neg, min/max */
LANEWISE(alu_div, idiv(false, a[l], b[l], bits, sgn))
LANEWISE(alu_rem, idiv(true, a[l], b[l], bits, sgn))
LANEWISE_V(alu_neg, (uint64_t)0 - a[l])
ALU_FN(alu_abs)
{
    OPERANDS;
    SIM_LANES(m, { int64_t x = sim_sext(a[l], bits); d[l] = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x; });
    return 0;
}
LANEWISE(alu_min_s, (uint64_t)(sim_sext(a[l], bits) < sim_sext(b[l], bits) ? sim_sext(a[l], bits) : sim_sext(b[l], bits)))
LANEWISE(alu_max_s, (uint64_t)(sim_sext(a[l], bits) < sim_sext(b[l], bits) ? sim_sext(b[l], bits) : sim_sext(a[l], bits)))
LANEWISE(alu_min_u, sim_zext(a[l], bits) < sim_zext(b[l], bits) ? sim_zext(a[l], bits) : sim_zext(b[l], bits))
LANEWISE(alu_max_u, sim_zext(a[l], bits) < sim_zext(b[l], bits) ? sim_zext(b[l], bits) : sim_zext(a[l], bits))

/* bit manipulation */
LANEWISE(alu_popc, (uint64_t)__builtin_popcountll(sim_zext(a[l], bits)))
LANEWISE(alu_clz, sim_zext(a[l], bits) ? (uint64_t)(__builtin_clzll(sim_zext(a[l], bits)) - (64 - bits)) : (uint64_t)bits)
ALU_FN(alu_bfind) { OPERANDS; bool sh = in->pi->flags & PTX_F_SHIFTAMT; SIM_LANES(m, d[l] = bfind(a[l], bits, sgn, sh)); return 0; }
LANEWISE(alu_brev, brev(a[l], bits))
LANEWISE(alu_bfe, bfe(a[l], (uint32_t)b[l], (uint32_t)cc[l], bits, sgn))
ALU_FN(alu_bfi)
{
    OPERANDS;
    const uint64_t *dd = F + in->src[4];
    SIM_LANES(m, d[l] = bfi(a[l], b[l], (uint32_t)cc[l], (uint32_t)dd[l], bits));
    return 0;
}
LANEWISE(alu_prmt, prmt(a[l], b[l], cc[l]))
ALU_FN(alu_dp4a)
{
    OPERANDS;
    bool as = ptx_type_is_signed(in->pi->type), bs = ptx_type_is_signed(in->pi->type2);
    SIM_LANES(m, {
        uint64_t s = cc[l];
        for (int i = 0; i < 4; i++) {
            uint64_t x = (a[l] >> (8 * i)) & 0xff, y = (b[l] >> (8 * i)) & 0xff;
            int64_t xi = as ? sim_sext(x, 8) : (int64_t)x, yi = bs ? sim_sext(y, 8) : (int64_t)y;
            s += (uint64_t)(xi * yi);
        }
        d[l] = s;
    });
    return 0;
}
/* dp2a.lo/.hi: a's halves times b's low/high bytes */
ALU_FN(alu_dp2a)
{
    OPERANDS;
    bool as = ptx_type_is_signed(in->pi->type), bs = ptx_type_is_signed(in->pi->type2);
    int sh = in->pi->mulmode == PTX_MULMODE_HI ? 16 : 0;
    SIM_LANES(m, {
        uint64_t s = cc[l];
        for (int i = 0; i < 2; i++) {
            uint64_t x = (a[l] >> (16 * i)) & 0xffff, y = (b[l] >> (sh + 8 * i)) & 0xff;
            int64_t xi = as ? sim_sext(x, 16) : (int64_t)x, yi = bs ? sim_sext(y, 8) : (int64_t)y;
            s += (uint64_t)(xi * yi);
        }
        d[l] = s;
    });
    return 0;
}
/* testp.class p, a, CLASS (an IMM operand) */
ALU_FN(alu_testp)
{
    OPERANDS;
    ptx_type t = in->pi->type;
    int cls = (int)in->pi->opnd[2].imm;
    SIM_LANES(m, {
        double x = fget(t, a[l], false);
        int k = fpclassify(x);
        if (t == PTX_T_F32) k = fpclassify(sim_f32(a[l]));
        bool r;
        switch (cls) {
        case PTX_TESTP_FINITE: r = isfinite(x); break;
        case PTX_TESTP_INFINITE: r = isinf(x); break;
        case PTX_TESTP_NUMBER: r = !isnan(x); break;
        case PTX_TESTP_NOTANUMBER: r = isnan(x); break;
        case PTX_TESTP_NORMAL: r = k == FP_NORMAL; break;
        default: r = k == FP_SUBNORMAL; break;
        }
        d[l] = r;
    });
    return 0;
}

/* logic and shifts */
LANEWISE_V(alu_and, a[l] & b[l])
LANEWISE_V(alu_or, a[l] | b[l])
LANEWISE_V(alu_xor, a[l] ^ b[l])
LANEWISE_V(alu_not, ~a[l])
LANEWISE_V(alu_not_pred, (a[l] & 1) ^ 1)
LANEWISE(alu_cnot, sim_zext(a[l], bits) == 0)
ALU_FN(alu_lop3)
{
    OPERANDS;
    const uint64_t *lut = F + in->src[4];
    SIM_LANES(m, d[l] = lop3(a[l], b[l], cc[l], (uint32_t)lut[l] & 0xff));
    return 0;
}
ALU_FN(alu_shl) { OPERANDS; SIM_LANES(m, { uint32_t n = (uint32_t)b[l]; d[l] = n >= (uint32_t)bits ? 0 : a[l] << n; }); return 0; }
ALU_FN(alu_shr_s)
{
    OPERANDS;
    SIM_LANES(m, { uint32_t n = (uint32_t)b[l]; if (n > (uint32_t)bits - 1) n = (uint32_t)bits - 1;
                   d[l] = (uint64_t)(sim_sext(a[l], bits) >> n); });
    return 0;
}
ALU_FN(alu_shr_u)
{
    OPERANDS;
    SIM_LANES(m, { uint32_t n = (uint32_t)b[l]; d[l] = n >= (uint32_t)bits ? 0 : sim_zext(a[l], bits) >> n; });
    return 0;
}
ALU_FN(alu_shf)
{
    OPERANDS;
    bool left = in->pi->flags & PTX_F_SHF_L, wrap = in->pi->flags & PTX_F_WRAP;
    SIM_LANES(m, {
        uint32_t n = (uint32_t)cc[l];
        n = wrap ? (n & 31) : (n > 32 ? 32 : n);
        uint64_t v = (sim_zext(b[l], 32) << 32) | sim_zext(a[l], 32);
        d[l] = left ? (v << n) >> 32 : v >> n;
    });
    return 0;
}

/* comparison and selection */

/* r[l] = r[l] boolop (p[l] ^ pn): the c operand of set/setp. */
static void boolop(ptx_boolop op, const uint64_t *p, bool pn, uint64_t *r, uint32_t m)
{
    switch (op) {
    case PTX_BOOL_NONE: break;
    case PTX_BOOL_AND: SIM_LANES(m, r[l] &= (p[l] & 1) ^ pn); break;
    case PTX_BOOL_OR: SIM_LANES(m, r[l] |= (p[l] & 1) ^ pn); break;
    default: SIM_LANES(m, r[l] ^= (p[l] & 1) ^ pn); break;
    }
}

/* setp: d[|q], a, b[, c]. The parser puts q (if any) right after d (ndst 2). */
ALU_FN(alu_setp)
{
    OPERANDS;
    const ptx_insn *pi = in->pi;
    ptx_type t = pi->type;
    int ia = pi->ndst;
    const uint64_t *x = F + in->src[ia], *y = F + in->src[ia + 1], *p = F + in->src[ia + 2];
    bool pn = pi->opnd[ia + 2].neg;
    uint64_t *tmp = F + w->prog->scratch_off + 32;
    compare(pi->cmp, t, pi->flags, x, y, tmp, m);
    boolop(pi->boolop, p, pn, tmp, m);
    if (ia == 2) {
        /* q = !(a cmp b) boolop c: recompute the negated compare; for f16x2 and
         * bf16x2, q = (a.hi cmp b.hi) boolop c (p took the low halves) */
        uint64_t q[32];                          /* written last: q may also be c */
        if (is_x2(t)) {
            uint64_t xh[32], yh[32];
            SIM_LANES(m, { xh[l] = x[l] >> 16; yh[l] = y[l] >> 16; });
            compare(pi->cmp, t, pi->flags, xh, yh, q, m);
        } else {
            compare(pi->cmp, t, pi->flags, x, y, q, m);
            SIM_LANES(m, q[l] ^= 1);
        }
        boolop(pi->boolop, p, pn, q, m);
        uint64_t *qd = F + in->src[1];
        SIM_LANES(m, qd[l] = q[l]);
    }
    SIM_LANES(m, d[l] = tmp[l]);
    return 0;
}

/* set.cmp.dtype.stype d, a, b[, c]: compares stype; in->k is the destination's
 * "true" (1.0 in a float type, else all ones) */
ALU_FN(alu_set)
{
    OPERANDS;
    const ptx_insn *pi = in->pi;
    ptx_type t = pi->type2;
    const uint64_t *p = F + in->src[3];
    bool pn = pi->opnd[3].neg;
    uint64_t *tmp = F + w->prog->scratch_off + 32, one = in->k;
    compare(pi->cmp, t, pi->flags, a, b, tmp, m);
    boolop(pi->boolop, p, pn, tmp, m);
    if (is_x2(t)) {
        /* .f16x2: each half compared on its own, boolop'd with c */
        uint64_t xh[32] = {0}, yh[32] = {0}, hi[32];   /* zeroed: gcc cannot see compare reads only m */
        SIM_LANES(m, { xh[l] = a[l] >> 16; yh[l] = b[l] >> 16; });
        compare(pi->cmp, t, pi->flags, xh, yh, hi, m);
        boolop(pi->boolop, p, pn, hi, m);
        SIM_LANES(m, d[l] = (tmp[l] ? one : 0) | (hi[l] ? one << 16 : 0));
        return 0;
    }
    SIM_LANES(m, d[l] = tmp[l] ? one : 0);
    return 0;
}

ALU_FN(alu_selp) { OPERANDS; bool ng = in->pi->opnd[3].neg; SIM_LANES(m, d[l] = ((cc[l] & 1) ^ ng) ? a[l] : b[l]); return 0; }
ALU_FN(alu_slct_f32)
{
    OPERANDS;
    bool ftz = in->pi->flags & PTX_F_FTZ;
    SIM_LANES(m, { float s = sim_f32(cc[l]); if (ftz) s = ftz32(s); d[l] = s >= 0.0f ? a[l] : b[l]; });
    return 0;
}
LANEWISE(alu_slct_s32, sim_sext(cc[l], 32) >= 0 ? a[l] : b[l])

/* conversion; in->k holds the source width where it matters */
LANEWISE(alu_cvt_sext, (uint64_t)sim_sext(a[l], (int)in->k))
LANEWISE(alu_cvt_zext, sim_zext(a[l], (int)in->k))
LANEWISE_V(alu_cvt_f32_s32, sim_f32b((float)(int32_t)(uint32_t)a[l]))
LANEWISE_V(alu_cvt_f32_u32, sim_f32b((float)(uint32_t)a[l]))
LANEWISE(alu_cvt, cvt1(in->pi, a[l]))
/* cvt.rn|rz{.relu}{.satfinite}.f16x2|bf16x2.f32 d, a, b: a to the upper half, b to the lower */
ALU_FN(alu_cvt_pack_x2)
{
    OPERANDS;
    ptx_type h = in->pi->type == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
    ptx_round r = in->pi->rnd;
    uint32_t fl = in->pi->flags;
    SIM_LANES(m, d[l] = narrow_half(h, sim_f32(a[l]), r, fl) << 16 | narrow_half(h, sim_f32(b[l]), r, fl));
    return 0;
}
/* cvt.rn.satfinite{.relu}.e4m3x2|e5m2x2.f32 d, a, b: a to bits 15..8, b to bits 7..0 */
LANEWISE(alu_cvt_f8_f32, narrow_f8(sim_f32(a[l]), in->pi->flags) << 8 | narrow_f8(sim_f32(b[l]), in->pi->flags))
/* cvt.rn.satfinite{.relu}.e4m3x2|e5m2x2.f16x2 d, a: each half to the byte in its place */
LANEWISE(alu_cvt_f8_f16x2, narrow_f8(sim_h2f((uint16_t)(a[l] >> 16)), in->pi->flags) << 8 |
                           narrow_f8(sim_h2f((uint16_t)a[l]), in->pi->flags))
/* cvt.rn{.relu}.f16x2.e4m3x2|e5m2x2 d, a: exact (every fp8 is an f16) */
static uint64_t f8_to_h(uint8_t b, uint32_t fl)
{
    float v = fl & PTX_F_E5M2 ? sim_e5m22f(b) : sim_e4m32f(b);
    return narrow_half(PTX_T_F16, v, PTX_RND_RN, fl & PTX_F_RELU);
}
LANEWISE(alu_cvt_f16x2_f8, f8_to_h((uint8_t)(a[l] >> 8), in->pi->flags) << 16 | f8_to_h((uint8_t)a[l], in->pi->flags))
LANEWISE(alu_cvt_tf32, to_tf32((uint32_t)a[l], in->pi->rnd, in->pi->flags))

/* generic addresses; in->k is the space's window (0: global, which has none) */
LANEWISE_V(alu_cvta_to, (a[l] - in->k) & zext_mask(bits))
LANEWISE_V(alu_cvta_from, (a[l] & zext_mask(bits)) + in->k)
/* .local addresses are the running frame's (exec_call.c), generic ones the lane's whole stack */
LANEWISE(alu_cvta_to_local, sim_zext(a[l] - in->k - w->frames[w->depth].local_base, bits))
LANEWISE(alu_cvta_from_local, sim_zext(a[l], bits) + in->k + w->frames[w->depth].local_base)
LANEWISE(alu_isspacep, a[l] - in->k < SIM_WIN_SIZE)
LANEWISE(alu_isspacep_global, a[l] < SIM_WIN_SHARED)

static uint64_t space_window(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_SHARED: return SIM_WIN_SHARED;
    case PTX_SPACE_LOCAL: return SIM_WIN_LOCAL;
    case PTX_SPACE_CONST: return SIM_WIN_CONST;
    case PTX_SPACE_PARAM: return SIM_WIN_PARAM;
    default: return 0;
    }
}

/* --- choosing the semantics (decode time) ---------------------------------- */

/* The float family for ops that have one (else NULL): directed rounding in f32/f64
 * needs the FP environment switched around the lanes. */
static sim_alu_fn float_family(sim_insn *s, const ptx_insn *pi)
{
    switch (pi->op) {
    case PTX_ADD: case PTX_SUB: case PTX_MUL: case PTX_MAD: case PTX_FMA: case PTX_DIV:
    case PTX_ABS: case PTX_NEG: case PTX_MIN: case PTX_MAX: case PTX_COPYSIGN: case PTX_RCP:
    case PTX_SQRT: case PTX_RSQRT: case PTX_SIN: case PTX_COS: case PTX_LG2: case PTX_EX2:
    case PTX_TANH:
        break;
    default:
        return NULL;
    }
    ptx_round r = pi->rnd;
    if ((pi->type == PTX_T_F32 || pi->type == PTX_T_F64) && (r == PTX_RND_RZ || r == PTX_RND_RM || r == PTX_RND_RP)) {
        s->fe = fe_mode(r);
        return alu_float_directed;
    }
    return alu_float;
}

static sim_alu_fn choose(sim_insn *s, const ptx_insn *pi)
{
    ptx_type t = pi->type, st = pi->type2;
    uint32_t fl = pi->flags;
    bool isf = ptx_type_is_float(t), sgn = s->sgn;
    bool plain_f32 = t == PTX_T_F32 && !(fl & (PTX_F_FTZ | PTX_F_SAT)) &&
                     (pi->rnd == PTX_RND_NONE || pi->rnd == PTX_RND_RN);
    bool carry = fl & (PTX_F_CC | PTX_F_CARRYIN), sat = fl & PTX_F_SAT;
    if (isf) {
        switch (pi->op) {
        case PTX_ADD: if (plain_f32) return alu_add_f32; break;
        case PTX_SUB: if (plain_f32) return alu_sub_f32; break;
        case PTX_MUL: if (plain_f32) return alu_mul_f32; break;
        case PTX_FMA: if (plain_f32) return alu_fma_f32; break;
        default: break;
        }
        sim_alu_fn f = float_family(s, pi);
        if (f) return f;
    }
    switch (pi->op) {
    case PTX_MOV:
        if (s->vec_opnd >= 0) return alu_mov_vec;
        return t == PTX_T_PRED ? alu_mov_pred : alu_mov;
    case PTX_ADD: case PTX_SUB: {
        bool sub = pi->op == PTX_SUB;
        if (carry) return alu_addsub_carry;
        if (sat) return sub ? alu_sub_sat : alu_add_sat;
        return sub ? alu_sub : alu_add;
    }
    case PTX_MUL:
        if (pi->mulmode == PTX_MULMODE_HI) return alu_mul_hi;
        return pi->mulmode == PTX_MULMODE_WIDE ? alu_mul_wide : alu_mul_lo;
    case PTX_MAD:
        if (carry) return alu_mad_carry;
        if (pi->mulmode == PTX_MULMODE_HI) return sat ? alu_mad_hi_sat : alu_mad_hi;
        if (pi->mulmode == PTX_MULMODE_WIDE) return alu_mad_wide;
        return sat ? alu_mad_lo_sat : alu_mad_lo;
    case PTX_MUL24: case PTX_MAD24: return alu_mul24;
    case PTX_SAD: return alu_sad;
    case PTX_DIV: return isf ? alu_unsupported : alu_div;
    case PTX_REM: return isf ? alu_unsupported : alu_rem;
    case PTX_ABS: return alu_abs;
    case PTX_NEG: return alu_neg;
    case PTX_MIN: return sgn ? alu_min_s : alu_min_u;
    case PTX_MAX: return sgn ? alu_max_s : alu_max_u;
    case PTX_POPC: return alu_popc;
    case PTX_CLZ: return alu_clz;
    case PTX_BFIND: return alu_bfind;
    case PTX_BREV: return alu_brev;
    case PTX_BFE: return alu_bfe;
    case PTX_BFI: return alu_bfi;
    case PTX_PRMT: return alu_prmt;
    case PTX_DP4A: return alu_dp4a;
    case PTX_DP2A: return alu_dp2a;
    case PTX_TESTP: return alu_testp;
    case PTX_AND: return alu_and;
    case PTX_OR: return alu_or;
    case PTX_XOR: return alu_xor;
    case PTX_NOT: return t == PTX_T_PRED ? alu_not_pred : alu_not;
    case PTX_CNOT: return alu_cnot;
    case PTX_LOP3: return alu_lop3;
    case PTX_SHL: return alu_shl;
    case PTX_SHR: return sgn ? alu_shr_s : alu_shr_u;
    case PTX_SHF: return alu_shf;
    case PTX_SETP: return alu_setp;
    case PTX_SET:
        if (is_x2(st)) s->k = t == PTX_T_F16X2 ? 0x3c00 : t == PTX_T_BF16X2 ? 0x3f80 : 0xffff;
        else s->k = t == PTX_T_F32 ? sim_f32b(1.0f) : t == PTX_T_F16 ? 0x3c00 : t == PTX_T_BF16 ? 0x3f80 : ~0ull;
        return alu_set;
    case PTX_SELP: return alu_selp;
    case PTX_SLCT: return st == PTX_T_F32 ? alu_slct_f32 : alu_slct_s32;
    case PTX_CVT:
        if (fl & PTX_F_F8_DST) return pi->nopnd == 3 ? alu_cvt_f8_f32 : alu_cvt_f8_f16x2;
        if (fl & PTX_F_F8_SRC) return alu_cvt_f16x2_f8;
        if (fl & PTX_F_TF32) return alu_cvt_tf32;
        if (pi->nopnd == 3 && is_x2(t)) return alu_cvt_pack_x2;
        if (!fl && !ptx_type_is_float(st) && !isf) {
            s->k = (uint64_t)sim_bits(st);
            return ptx_type_is_signed(st) ? alu_cvt_sext : alu_cvt_zext;
        }
        if (t == PTX_T_F32 && !fl && (pi->rnd == PTX_RND_RN || pi->rnd == PTX_RND_NONE)) {
            if (st == PTX_T_S32) return alu_cvt_f32_s32;
            if (st == PTX_T_U32) return alu_cvt_f32_u32;
        }
        return alu_cvt;
    case PTX_CVTA:
        s->k = space_window(pi->space);
        if (pi->space == PTX_SPACE_LOCAL) return fl & PTX_F_TO ? alu_cvta_to_local : alu_cvta_from_local;
        return fl & PTX_F_TO ? alu_cvta_to : alu_cvta_from;
    case PTX_ISSPACEP:
        s->k = space_window(pi->space);
        return s->k ? alu_isspacep : alu_isspacep_global;
    default:
        return alu_unsupported;
    }
}

void sim_alu_decode(sim_insn *s)
{
    const ptx_insn *pi = s->pi;
    s->bits = (uint8_t)sim_bits(pi->type);
    s->sgn = ptx_type_is_signed(pi->type);
    s->fe = FE_TONEAREST;
    s->k = 0;
    s->alu = choose(s, pi);
}
