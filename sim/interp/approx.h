/* approx.h - the GPU's approximate instructions a kernel uses, and how far the GPU's
 * results may lie from the simulator's because of them. The simulator computes
 * ex2.approx, rsqrt.approx, sin.approx ... as the exact functions (the host's libm),
 * the GPU within the maximum error the PTX ISA states for each instruction; an
 * output comparison (cuda/cu_verify.c) allows that error instead of bit-exactness.
 * Invariant: a kernel without approximate f32 instructions gets a zero bound (its
 * outputs compare bit-exactly); the bound is the loosest of the instructions found
 * in the kernel and every function it reaches. */
#ifndef WS_APPROX_H
#define WS_APPROX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../frontend/ptx.h"

#define WS_APPROX_MAX 12

/* One approximate instruction form and the PTX ISA's stated maximum error. */
typedef struct {
    char insn[40];          /* "ex2.approx.ftz.f32" */
    double rel;             /* maximum relative error, 0 = none stated */
    double abs;             /* maximum absolute error, 0 = none stated */
    double ulp;             /* maximum error in units in the last place, 0 = none stated */
    const char *stated;     /* the bound as the PTX ISA words it: "max relative error 2^-22" */
    bool bounded;           /* false: the simulator records no bound for it (compared bit-exactly) */
} ws_approx_insn;

typedef struct {
    int n;                  /* distinct forms found */
    ws_approx_insn insn[WS_APPROX_MAX];
    bool more;              /* more forms than WS_APPROX_MAX (the bound still covers them) */
    uint32_t ulps;          /* float results may differ by this many ulps ... */
    double abs;             /* ... or by this much: the loosest bound of the forms found */
} ws_approx_use;

/* Fills *use with the approximate instructions of fn and the functions it calls or
 * takes the address of. Example: a kernel using expf() finds "ex2.approx.ftz.f32"
 * and gets use->ulps == 5 (2^-22 relative is at most 4 ulp of a float, and one for
 * the host's own rounding). */
void ws_approx_scan(const ptx_module *m, const ptx_function *fn, ws_approx_use *use);

/* "within 5 ulp or 1.6e-06 absolute (ex2.approx.ftz.f32: PTX ISA max relative error 2^-22;
 * sin.approx.f32: ...)" or "bit-exact"; for reports. */
void ws_approx_describe(const ws_approx_use *use, char *out, size_t cap);

#endif
