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

/* Narrow float with `mant` fraction bits and exponent range [emin, emax]. */
static uint32_t f2small(double x, ptx_round rnd, int mant, int emin, int emax, int ebits)
{
    uint32_t sign = signbit(x) ? 1u : 0u, expmask = (1u << ebits) - 1;
    uint32_t out_sign = sign << (mant + ebits);
    if (isnan(x)) return (expmask << mant) | ((1u << mant) - 1);   /* the GPU's canonical NaN: 0x7fff */
    double ax = fabs(x);
    if (isinf(x)) return out_sign | (expmask << mant);
    if (ax == 0) return out_sign;
    int e; frexp(ax, &e);                        /* ax = m * 2^e, m in [0.5,1) */
    int E = e - 1;                               /* ax in [2^E, 2^(E+1)) */
    if (E < emin) E = emin;                      /* subnormal range: fixed quantum */
    double r = round_quantum(ax, E - mant, rnd, sign);
    double maxv = ldexp(2.0 - ldexp(1.0, -mant), emax);
    if (r > maxv) {                              /* overflow: inf or max per direction */
        bool to_inf = rnd == PTX_RND_NONE || rnd == PTX_RND_RN || rnd == PTX_RND_RNA ||
                      (rnd == PTX_RND_RP && !sign) || (rnd == PTX_RND_RM && sign);
        if (to_inf) return out_sign | (expmask << mant);
        r = maxv;
    }
    if (r == 0) return out_sign;
    frexp(r, &e);
    E = e - 1;
    if (E < emin) {                              /* subnormal */
        uint32_t f = (uint32_t)ldexp(r, -(emin - mant));
        return out_sign | f;
    }
    uint32_t f = (uint32_t)(ldexp(r, -E) * (double)(1u << mant)) - (1u << mant);
    return out_sign | ((uint32_t)(E + (int)(expmask >> 1)) << mant) | f;
}

uint16_t sim_f2h(double x, ptx_round rnd) { return (uint16_t)f2small(x, rnd, 10, -14, 15, 5); }
uint16_t sim_f2bf(double x, ptx_round rnd) { return (uint16_t)f2small(x, rnd, 7, -126, 127, 8); }
