/* half.c - IEEE binary16 (f16) and bfloat16 to and from wider floats, for every
 * part of the simulator that meets them (immediates, ALU, atomics, arguments).
 * Invariant: a narrowing conversion rounds once, in the PTX mode asked, from the
 * exact double value; NaN becomes the GPU's canonical NaN. */
#include "half.h"

#include <math.h>
#include <string.h>

float sim_h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, f = h & 0x3ff, u;
    if (e == 0) {
        if (f == 0) u = s;
        else {                                   /* subnormal half: normalise */
            float v = ldexpf((float)f, -24);
            return s ? -v : v;
        }
    } else if (e == 31) u = s | 0x7f800000u | (f << 13);
    else u = s | ((e + 112) << 23) | (f << 13);
    float r; memcpy(&r, &u, 4);
    return r;
}

float sim_bf2f(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float r; memcpy(&r, &u, 4);
    return r;
}

/* Rounds |x| (finite, >= 0) to a multiple of 2^q per rnd and sign. */
static double round_quantum(double ax, int q, ptx_round rnd, bool neg)
{
    double scaled = ldexp(ax, -q), r;
    switch (rnd) {
    case PTX_RND_RZ: r = trunc(scaled); break;
    case PTX_RND_RM: r = neg ? ceil(scaled) : floor(scaled); break;
    case PTX_RND_RP: r = neg ? floor(scaled) : ceil(scaled); break;
    case PTX_RND_RNA: r = round(scaled); break;
    default: r = nearbyint(scaled); break;      /* ties to even (default FP env) */
    }
    return ldexp(r, q);
}

/* Narrow float with `mant` fraction bits and smallest normal exponent emin, whose largest
 * finite magnitude is maxv: beyond it, infinity or maxv as the rounding direction says, or
 * maxv always when sat (.satfinite, and the fp8 formats, which have no infinity). */
static uint32_t f2small(double x, ptx_round rnd, int mant, int emin, int ebits, double maxv, bool sat)
{
    uint32_t sign = signbit(x) ? 1u : 0u, expmask = (1u << ebits) - 1;
    uint32_t out_sign = sign << (mant + ebits);
    if (isnan(x)) return (expmask << mant) | ((1u << mant) - 1);   /* the GPU's canonical NaN: 0x7fff */
    double ax = fabs(x);
    if (ax == 0) return out_sign;
    double r;
    if (isinf(x) && !sat) return out_sign | (expmask << mant);   /* infinity converts to infinity */
    if (isinf(x)) r = INFINITY;
    else {
        int e; frexp(ax, &e);                    /* ax = m * 2^e, m in [0.5,1) */
        int E = e - 1;                           /* ax in [2^E, 2^(E+1)) */
        if (E < emin) E = emin;                  /* subnormal range: fixed quantum */
        r = round_quantum(ax, E - mant, rnd, sign);
    }
    if (r > maxv) {                              /* overflow: inf or max per direction */
        bool to_inf = !sat && (rnd == PTX_RND_NONE || rnd == PTX_RND_RN || rnd == PTX_RND_RNA ||
                               (rnd == PTX_RND_RP && !sign) || (rnd == PTX_RND_RM && sign));
        if (to_inf) return out_sign | (expmask << mant);
        r = maxv;
    }
    if (r == 0) return out_sign;
    int e;
    frexp(r, &e);
    int E = e - 1;
    if (E < emin) {                              /* subnormal */
        uint32_t f = (uint32_t)ldexp(r, -(emin - mant));
        return out_sign | f;
    }
    uint32_t f = (uint32_t)(ldexp(r, -E) * (double)(1u << mant)) - (1u << mant);
    return out_sign | ((uint32_t)(E + (int)(expmask >> 1)) << mant) | f;
}

#define F16_MAX 65504.0                          /* (2 - 2^-10) * 2^15 */
#define BF16_MAX 0x1.fep127                      /* (2 - 2^-7) * 2^127 */

/* Round to nearest even of a double whose result is a normal number of the narrow format (mant
 * fraction bits, bias, exponent e = floor(log2 |x|) in [1 - bias, bias]), from the bits alone: the
 * exponent and the top mant fraction bits, plus one where the dropped 52 - mant bits are over half,
 * or exactly half with the kept last bit odd. A carry out of the fraction raises the exponent, and
 * past the largest finite it gives infinity's pattern, as f2small's rounding does. f2small's frexp
 * and ldexp calls were a third of a half-precision tensor-core GEMM's simulation (perf, 1024^3).
 * Returns false where x is outside that range (zero, subnormal results, overflow before rounding,
 * inf, NaN): the caller takes f2small. */
static inline bool rn_normal(double x, int mant, int bias, uint32_t *out)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    if (e < 1 - bias || e > bias) return false;
    int drop = 52 - mant;
    uint64_t frac = u & ((1ull << 52) - 1), rest = frac & ((1ull << drop) - 1), halfway = 1ull << (drop - 1);
    uint32_t r = (uint32_t)(e + bias) << mant | (uint32_t)(frac >> drop);
    if (rest > halfway || (rest == halfway && (r & 1))) r++;
    *out = (uint32_t)(u >> 63) << 15 | r;        /* both formats are 16 bits: the sign is bit 15 */
    return true;
}

uint16_t sim_f2h(double x, ptx_round rnd)
{
    uint32_t r;
    if ((rnd == PTX_RND_RN || rnd == PTX_RND_NONE) && rn_normal(x, 10, 15, &r)) return (uint16_t)r;
    return (uint16_t)f2small(x, rnd, 10, -14, 5, F16_MAX, false);
}

uint16_t sim_f2bf(double x, ptx_round rnd)
{
    uint32_t r;
    if ((rnd == PTX_RND_RN || rnd == PTX_RND_NONE) && rn_normal(x, 7, 127, &r)) return (uint16_t)r;
    return (uint16_t)f2small(x, rnd, 7, -126, 8, BF16_MAX, false);
}
uint16_t sim_f2h_sat(double x, ptx_round rnd) { return (uint16_t)f2small(x, rnd, 10, -14, 5, F16_MAX, true); }
uint16_t sim_f2bf_sat(double x, ptx_round rnd) { return (uint16_t)f2small(x, rnd, 7, -126, 8, BF16_MAX, true); }

/* e4m3: bias 7, no infinity, S.1111.111 the only NaN, so the largest is 1.75 * 2^8 = 448;
 * e5m2: IEEE-like (bias 15, infinities), largest 1.75 * 2^15 = 57344. */
uint8_t sim_f2e4m3(double x) { return (uint8_t)f2small(x, PTX_RND_RN, 3, -6, 4, 448.0, true); }
uint8_t sim_f2e5m2(double x) { return (uint8_t)f2small(x, PTX_RND_RN, 2, -14, 5, 57344.0, true); }

float sim_e4m32f(uint8_t b)
{
    int e = b >> 3 & 15, f = b & 7;
    float v;
    if (e == 15 && f == 7) return NAN;
    v = e == 0 ? ldexpf((float)f, -9) : ldexpf((float)(8 + f), e - 10);
    return b & 0x80 ? -v : v;
}

float sim_e5m22f(uint8_t b) { return sim_h2f((uint16_t)(b << 8)); } /* e5m2 is the top byte of an f16 */
