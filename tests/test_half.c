/* test_half.c - narrowing doubles to f16 and bf16 (sim/frontend/half.c), every pattern of each
 * format from first principles: a value is (-1)^s * 2^(e - bias) * (1 + f / 2^mant) (subnormals
 * 2^(1 - bias) * f / 2^mant), built with ldexp, never with the converters under test. Round to
 * nearest even then means: each value converts to its own pattern; the midpoint of two neighbours
 * to the even one; the doubles just off the midpoint to the nearer; past the largest finite by half
 * a step or more, infinity. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "../sim/frontend/half.h"

typedef struct {
    const char *name;
    int mant, bias;
    uint16_t (*narrow)(double, ptx_round);
} format;

static const format f16 = {"f16", 10, 15, sim_f2h}, bf16 = {"bf16", 7, 127, sim_f2bf};

/* The value of the positive pattern p (below infinity's) of format f. */
static double value_of(const format *f, uint32_t p)
{
    uint32_t e = p >> f->mant, frac = p & ((1u << f->mant) - 1);
    if (e == 0) return ldexp((double)frac, 1 - f->bias - f->mant);
    return ldexp((double)((1u << f->mant) | frac), (int)e - f->bias - f->mant);
}

static void check_format(const format *f)
{
    uint32_t inf = (uint32_t)((2 * f->bias + 1) << f->mant); /* exponent all ones, fraction 0 */
    for (uint32_t p = 0; p < inf; p++) {
        double v = value_of(f, p);
        for (int neg = 0; neg < 2; neg++) {
            double sv = neg ? -v : v;
            uint32_t sign = neg ? 0x8000u : 0;
            for (int mode = 0; mode < 2; mode++) { /* RN and the default, which is RN too */
                ptx_round rnd = mode ? PTX_RND_RN : PTX_RND_NONE;
                if (f->narrow(sv, rnd) != (sign | p))
                    fail_msg("%s: %a -> 0x%04x, want 0x%04x", f->name, sv, f->narrow(sv, rnd), sign | p);
                if (p + 1 > inf) continue;
                /* the midpoint to the next pattern up (infinity's step past the largest finite) */
                double next = p + 1 < inf ? value_of(f, p + 1) : ldexp(1.0, f->bias + 1);
                double mid = (v + next) / 2; /* exact: one more bit than the format holds */
                uint32_t even = (p & 1) ? p + 1 : p;
                double smid = neg ? -mid : mid;
                if (f->narrow(smid, rnd) != (sign | even))
                    fail_msg("%s: midpoint %a -> 0x%04x, want 0x%04x", f->name, smid, f->narrow(smid, rnd),
                             sign | even);
                double above = nextafter(mid, INFINITY), below = nextafter(mid, 0);
                if (f->narrow(neg ? -above : above, rnd) != (sign | (p + 1)))
                    fail_msg("%s: just above the midpoint %a -> 0x%04x, want 0x%04x", f->name, above,
                             f->narrow(neg ? -above : above, rnd), sign | (p + 1));
                if (f->narrow(neg ? -below : below, rnd) != (sign | p))
                    fail_msg("%s: just below the midpoint %a -> 0x%04x, want 0x%04x", f->name, below,
                             f->narrow(neg ? -below : below, rnd), sign | p);
            }
        }
    }
    /* far beyond the largest finite, and infinity itself: infinity */
    assert_int_equal(f->narrow(ldexp(1.0, f->bias + 3), PTX_RND_RN), inf);
    assert_int_equal(f->narrow(-INFINITY, PTX_RND_RN), 0x8000u | inf);
    /* toward zero keeps the lower neighbour where nearest would round up */
    double one = 1.0, step = ldexp(1.0, -f->mant);
    assert_int_equal(f->narrow(one + 0.75 * step, PTX_RND_RZ), (uint32_t)f->bias << f->mant);
    assert_int_equal(f->narrow(one + 0.75 * step, PTX_RND_RN), ((uint32_t)f->bias << f->mant) + 1);
}

static void test_every_f16_pattern_and_midpoint_rounds_to_nearest_even(void **state)
{
    (void)state;
    check_format(&f16);
}

static void test_every_bf16_pattern_and_midpoint_rounds_to_nearest_even(void **state)
{
    (void)state;
    check_format(&bf16);
}

/* NaN becomes the GPU's canonical NaN (0x7fff for f16, its fraction all ones). */
static void test_nan_narrows_to_the_canonical_nan(void **state)
{
    (void)state;
    assert_int_equal(sim_f2h(NAN, PTX_RND_RN), 0x7fff);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_f16_pattern_and_midpoint_rounds_to_nearest_even),
        cmocka_unit_test(test_every_bf16_pattern_and_midpoint_rounds_to_nearest_even),
        cmocka_unit_test(test_nan_narrows_to_the_canonical_nan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
