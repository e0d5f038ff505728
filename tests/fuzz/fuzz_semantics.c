/* fuzz_semantics.c - libFuzzer target that checks what the interpreter computes, not only that it
 * survives: the input's bytes pick a straight-line PTX kernel (integer, bit-field, f32 and cvt
 * instructions on %tid.x, three parameters and immediates), one warp runs it with every lane storing
 * each result to a global buffer, and a plain-C evaluator written from the PTX ISA's definitions (it
 * shares nothing with sim/interp/exec_alu.c) computes the same values for each lane.
 * Invariant checked: every generated kernel parses and runs, and every lane's every result equals the
 * reference bit for bit (f32 NaNs: any NaN equals any NaN); a difference aborts with the PTX text, the
 * lane, the instruction and both values. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/interp/interp.h"
#include "fuzz_common.h"

#define SEM_LANES 32
#define SEM_MAX_INSNS 40                  /* generated instructions per kernel */
#define SEM_MAX_REGS (SEM_MAX_INSNS + 8)  /* values: the prologue's and one per instruction */
#define SEM_SLOTS 64                      /* 8-byte result slots per lane in the output buffer */
#define SEM_TEXT 24576

enum { SEM_K32, SEM_K64, SEM_KF, SEM_KP };   /* register classes: b32, b64, f32, pred */
static const char *const sem_prefix[] = {"%r", "%rd", "%f", "%p"};

typedef struct {
    const uint8_t *d;
    size_t n, i;
    char text[SEM_TEXT];
    size_t len;
    int nregs;
    int kind[SEM_MAX_REGS], num[SEM_MAX_REGS], count[4];
    int line[SEM_MAX_REGS];                  /* where in the text the value was made (for messages) */
    uint64_t val[SEM_LANES][SEM_MAX_REGS];   /* the reference: 32-bit values zero-extended, preds 0/1 */
} sem_gen;

typedef struct {
    char s[48];
    uint64_t v[SEM_LANES];
} sem_opnd;

static unsigned sem_byte(sem_gen *g) { return g->i < g->n ? g->d[g->i++] : 0; }
static uint32_t sem_u32(sem_gen *g)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v = v << 8 | sem_byte(g);
    return v;
}

static void sem_emit(sem_gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->text + g->len, sizeof g->text - g->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof g->text - g->len) abort();   /* sizes above keep it in */
    g->len += (size_t)n;
}

static int sem_lines(const sem_gen *g)
{
    int l = 1;
    for (size_t i = 0; i < g->len; i++) l += g->text[i] == '\n';
    return l;
}

/* A new value register of kind k; its reference values are filled by the caller. */
static int sem_new(sem_gen *g, int k)
{
    int r = g->nregs++;
    g->kind[r] = k;
    g->num[r] = g->count[k]++;
    g->line[r] = sem_lines(g);
    return r;
}

static const char *sem_name(const sem_gen *g, int r, char *buf)
{
    sprintf(buf, "%s%d", sem_prefix[g->kind[r]], g->num[r]);
    return buf;
}

static const uint32_t sem_imm32[] = {0, 1, 2, 3, 7, 8, 15, 16, 24, 31, 32, 33, 63, 64, 255, 0x100, 0xffff,
                                     0x7fffffff, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x3210,
                                     0x7654, 0x4321, 0x1808};
static const uint64_t sem_imm64[] = {0, 1, 2, 63, 64, 0x7fffffffull, 0x80000000ull, 0xffffffffull,
                                     0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                     0xffffffffffffffffull, 0x123456789abcdef0ull};
static const uint32_t sem_immf[] = {0x00000000, 0x80000000u, 0x3f800000, 0xbf800000u, 0x3f000000, 0x3fc00000,
                                    0x40200000, 0xc0200000u, 0x4b800001, 0x4f000000, 0xcf000000u, 0x4f800000,
                                    0x5f000000, 0x5f800000, 0x7f800000, 0xff800000u, 0x7fc00000, 0x00000001,
                                    0x007fffff, 0x7f7fffff, 0x00800000, 0x3eaaaaab, 0x4b000000, 0xcb000001u};

/* An operand of kind k: an existing register, or (when imm) an immediate. */
static void sem_operand(sem_gen *g, int k, int imm, sem_opnd *o)
{
    int have[SEM_MAX_REGS], nh = 0;
    for (int r = 0; r < g->nregs; r++)
        if (g->kind[r] == k) have[nh++] = r;
    unsigned b = sem_byte(g);
    if (nh && (!imm || b % 4 != 0)) {
        int r = have[(b / 4) % nh];
        sem_name(g, r, o->s);
        for (int l = 0; l < SEM_LANES; l++) o->v[l] = g->val[l][r];
        return;
    }
    uint64_t v;
    unsigned c = sem_byte(g);
    if (k == SEM_K32) {
        v = c < 200 ? sem_imm32[c % (sizeof sem_imm32 / sizeof *sem_imm32)] : sem_u32(g);
        snprintf(o->s, sizeof o->s, "0x%08llX", (unsigned long long)v);
    } else if (k == SEM_K64) {
        v = c < 200 ? sem_imm64[c % (sizeof sem_imm64 / sizeof *sem_imm64)] : (uint64_t)sem_u32(g) << 32 | sem_u32(g);
        snprintf(o->s, sizeof o->s, "0x%016llX", (unsigned long long)v);
    } else {
        v = c < 200 ? sem_immf[c % (sizeof sem_immf / sizeof *sem_immf)] : sem_u32(g);
        snprintf(o->s, sizeof o->s, "0f%08llX", (unsigned long long)v);
    }
    for (int l = 0; l < SEM_LANES; l++) o->v[l] = v;
}

/* ---- the reference, from the PTX ISA's definitions ---- */

static float sem_f(uint64_t bits) { uint32_t b = (uint32_t)bits; float f; memcpy(&f, &b, 4); return f; }
static uint64_t sem_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static int64_t sem_sx32(uint64_t v) { return (int32_t)(uint32_t)v; }

static int sem_clz(uint64_t v, int w)
{
    int n = 0;
    for (int i = w - 1; i >= 0 && !(v >> i & 1); i--) n++;
    return n;
}

/* Integer -> f32 under a rounding mode (0 rn, 1 rz, 2 rm, 3 rp): the magnitude's top 24 bits, rounded. */
static uint64_t sem_int_to_f32(uint64_t m, int neg, int mode)
{
    if (m == 0) return 0;
    int e = 63 - sem_clz(m, 64), shift = e - 23;
    uint64_t mant, rem = 0, half = 0;
    if (shift <= 0) mant = m << -shift;
    else { mant = m >> shift; rem = m & ((1ull << shift) - 1); half = 1ull << (shift - 1); }
    int up = 0;
    if (rem) {
        if (mode == 0) up = rem > half || (rem == half && (mant & 1));
        else if (mode == 2) up = neg;
        else if (mode == 3) up = !neg;
    }
    mant += (uint64_t)up;
    if (mant >> 24) { mant >>= 1; e++; }
    return (uint64_t)neg << 31 | (uint64_t)(e + 127) << 23 | (mant & 0x7fffff);
}

/* f32 -> integer: round (0 rni, 1 rzi, 2 rmi, 3 rpi), then saturate; NaN gives 0. */
static uint64_t sem_f32_to_int(float f, int mode, int sgn, int w)
{
    if (isnan(f)) return 0;
    float r = mode == 0 ? nearbyintf(f) : mode == 1 ? truncf(f) : mode == 2 ? floorf(f) : ceilf(f);
    if (sgn) {
        double lim = w == 32 ? 2147483648.0 : 9223372036854775808.0;
        int64_t mx = w == 32 ? INT32_MAX : INT64_MAX, mn = w == 32 ? INT32_MIN : INT64_MIN;
        int64_t v = r >= lim ? mx : r < -lim ? mn : (int64_t)r;
        return w == 32 ? (uint32_t)v : (uint64_t)v;
    }
    double lim = w == 32 ? 4294967296.0 : 18446744073709551616.0;
    return r <= 0 ? 0 : r >= lim ? (w == 32 ? 0xffffffffull : ~0ull) : (uint64_t)r;
}

static uint64_t sem_bfe(uint64_t a, uint32_t b, uint32_t c, int sgn, int w)
{
    int msb = w - 1, pos = b & 0xff, len = c & 0xff;
    int sbit = 0;
    if (sgn && len) { int i = pos + len - 1 < msb ? pos + len - 1 : msb; sbit = (int)(a >> i & 1); }
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        int bit = (i < len && pos + i <= msb) ? (int)(a >> (pos + i) & 1) : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}

static uint64_t sem_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int w)
{
    int msb = w - 1, pos = c & 0xff, len = d & 0xff;
    uint64_t f = b;
    for (int i = 0; i < len && pos + i <= msb; i++)
        f = (f & ~(1ull << (pos + i))) | (a >> i & 1) << (pos + i);
    return f;
}

static uint64_t sem_prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t tmp = (uint64_t)b << 32 | a;
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) {
        unsigned sel = c >> (4 * k) & 0xf;
        uint32_t byte = (uint32_t)(tmp >> (8 * (sel & 7)) & 0xff);
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * k);
    }
    return d;
}

/* min/max.f32: a NaN operand yields the other; -0.0 counts as less than +0.0. */
static float sem_fminmax(int mx, float a, float b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return (signbit(a) != 0) == !mx ? a : b;
    return (a < b) != mx ? a : b;
}

static int sem_cmp_int(int cmp, uint64_t a, uint64_t b, int sgn, int w)
{
    int64_t sa = w == 32 ? sem_sx32(a) : (int64_t)a, sb = w == 32 ? sem_sx32(b) : (int64_t)b;
    int lt = sgn ? sa < sb : a < b, eq = a == b;
    switch (cmp) {
    case 0: return eq;
    case 1: return !eq;
    case 2: return lt;
    case 3: return lt || eq;
    case 4: return !lt && !eq;
    default: return !lt;
    }
}

static int sem_cmp_f(int cmp, float a, float b)
{
    int un = isnan(a) || isnan(b);
    switch (cmp) {
    case 0: return !un && a == b;
    case 1: return !un && a != b;
    case 2: return !un && a < b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a >= b;
    case 6: return un || a == b;
    case 7: return un || a != b;
    case 8: return un || a < b;
    case 9: return un || a <= b;
    case 10: return un || a > b;
    case 11: return un || a >= b;
    case 12: return !un;
    default: return un;
    }
}

/* ---- generation: one instruction, its text and its reference values ---- */

static const char *const sem_itype[] = {"u32", "s32", "u64", "s64"};

static void sem_insn(sem_gen *g)
{
    unsigned op = sem_byte(g) % 27, t = sem_byte(g) % 4;
    int w = t < 2 ? 32 : 64, sgn = t & 1, ik = w == 32 ? SEM_K32 : SEM_K64;
    uint64_t mask = w == 32 ? 0xffffffffull : ~0ull;
    const char *ty = sem_itype[t];
    sem_opnd a, b, c, e;
    char dn[16];
    int d;
    switch (op) {
    case 0: case 1: case 2: case 3: case 4: {                  /* add sub mul.lo mul.hi mad.lo */
        static const char *const nm[] = {"add", "sub", "mul.lo", "mul.hi", "mad.lo"};
        sem_operand(g, ik, 1, &a);
        sem_operand(g, ik, 1, &b);
        if (op == 4) sem_operand(g, ik, 1, &c);
        d = sem_new(g, ik);
        if (op == 4) sem_emit(g, "\tmad.lo.%s %s, %s, %s, %s;\n", ty, sem_name(g, d, dn), a.s, b.s, c.s);
        else sem_emit(g, "\t%s.%s %s, %s, %s;\n", nm[op], ty, sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++) {
            uint64_t x = a.v[l], y = b.v[l], r;
            if (op == 0) r = x + y;
            else if (op == 1) r = x - y;
            else if (op == 2) r = x * y;
            else if (op == 4) r = x * y + c.v[l];
            else if (w == 32) r = sgn ? (uint64_t)((sem_sx32(x) * sem_sx32(y)) >> 32) : (x * y) >> 32;
            else if (sgn) r = (uint64_t)(((__int128)(int64_t)x * (int64_t)y) >> 64);
            else r = (uint64_t)(((unsigned __int128)x * y) >> 64);
            g->val[l][d] = r & mask;
        }
        break;
    }
    case 5: {                                                  /* mul.wide */
        sem_operand(g, SEM_K32, 1, &a);
        sem_operand(g, SEM_K32, 1, &b);
        d = sem_new(g, SEM_K64);
        sem_emit(g, "\tmul.wide.%s %s, %s, %s;\n", sgn ? "s32" : "u32", sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++)
            g->val[l][d] = sgn ? (uint64_t)(sem_sx32(a.v[l]) * sem_sx32(b.v[l])) : a.v[l] * b.v[l];
        break;
    }
    case 6: case 7: case 8: case 9: {                          /* and or xor not */
        static const char *const nm[] = {"and", "or", "xor", "not"};
        sem_operand(g, ik, 1, &a);
        if (op != 9) sem_operand(g, ik, 1, &b);
        d = sem_new(g, ik);
        if (op == 9) sem_emit(g, "\tnot.b%d %s, %s;\n", w, sem_name(g, d, dn), a.s);
        else sem_emit(g, "\t%s.b%d %s, %s, %s;\n", nm[op - 6], w, sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++) {
            uint64_t x = a.v[l], r = op == 6 ? x & b.v[l] : op == 7 ? x | b.v[l] : op == 8 ? x ^ b.v[l] : ~x;
            g->val[l][d] = r & mask;
        }
        break;
    }
    case 10: case 11: {                                        /* shl.b, shr.u/s: amounts clamp at the width */
        sem_operand(g, ik, 1, &a);
        sem_operand(g, SEM_K32, 1, &b);
        d = sem_new(g, ik);
        if (op == 10) sem_emit(g, "\tshl.b%d %s, %s, %s;\n", w, sem_name(g, d, dn), a.s, b.s);
        else sem_emit(g, "\tshr.%s %s, %s, %s;\n", ty, sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++) {
            uint64_t x = a.v[l], n = b.v[l] > (uint64_t)w ? (uint64_t)w : b.v[l], r;
            int neg = (int)(x >> (w - 1) & 1);
            if (n == (uint64_t)w) r = op == 10 || !sgn || !neg ? 0 : mask;
            else if (op == 10) r = x << n;
            else if (n == 0 || !sgn || !neg) r = x >> n;
            else r = (x >> n) | (mask << (w - n));
            g->val[l][d] = r & mask;
        }
        break;
    }
    case 12: case 13: {                                        /* min max */
        sem_operand(g, ik, 1, &a);
        sem_operand(g, ik, 1, &b);
        d = sem_new(g, ik);
        sem_emit(g, "\t%s.%s %s, %s, %s;\n", op == 12 ? "min" : "max", ty, sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++) {
            int lt = sem_cmp_int(2, a.v[l], b.v[l], sgn, w);
            g->val[l][d] = (op == 12) == lt ? a.v[l] : b.v[l];
        }
        break;
    }
    case 14: {                                                 /* abs neg (signed types) */
        int neg = t & 1;
        const char *st = w == 32 ? "s32" : "s64";
        sem_operand(g, ik, 0, &a);
        d = sem_new(g, ik);
        sem_emit(g, "\t%s.%s %s, %s;\n", neg ? "neg" : "abs", st, sem_name(g, d, dn), a.s);
        for (int l = 0; l < SEM_LANES; l++) {
            uint64_t x = a.v[l];
            int isneg = (int)(x >> (w - 1) & 1);
            g->val[l][d] = (neg || isneg ? 0 - x : x) & mask;
        }
        break;
    }
    case 15: case 16: {                                        /* setp (int or f32), then selp on it */
        int fl = op == 16, cmp;
        const char *cn;
        static const char *const icmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
        static const char *const ucmp[] = {"eq", "ne", "lo", "ls", "hi", "hs"};
        static const char *const fcmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
                                           "leu", "gtu", "geu", "num", "nan"};
        if (fl) { cmp = (int)(sem_byte(g) % 14); cn = fcmp[cmp]; }
        else { cmp = (int)(sem_byte(g) % 6); cn = (!sgn && sem_byte(g) & 1) ? ucmp[cmp] : icmp[cmp]; }
        int k = fl ? SEM_KF : ik;
        sem_operand(g, k, 1, &a);
        sem_operand(g, k, 1, &b);
        d = sem_new(g, SEM_KP);
        sem_emit(g, "\tsetp.%s.%s %s, %s, %s;\n", cn, fl ? "f32" : ty, sem_name(g, d, dn), a.s, b.s);
        for (int l = 0; l < SEM_LANES; l++)
            g->val[l][d] = (uint64_t)(fl ? sem_cmp_f(cmp, sem_f(a.v[l]), sem_f(b.v[l])) : sem_cmp_int(cmp, a.v[l], b.v[l], sgn, w));
        /* fall into a selp on some predicate, so the comparison reaches memory */
    }
    /* fall through */
    case 17: {                                                 /* selp */
        static const int sk[] = {SEM_K32, SEM_K64, SEM_KF, SEM_K32};
        static const char *const sn[] = {"b32", "b64", "f32", "s32"};
        int which = (int)(sem_byte(g) % 4);
        int have = 0;
        for (int r = 0; r < g->nregs; r++) have += g->kind[r] == SEM_KP;
        if (!have) break;                                      /* no predicate yet: nothing to select on */
        sem_operand(g, sk[which], 1, &a);
        sem_operand(g, sk[which], 1, &b);
        sem_operand(g, SEM_KP, 0, &c);
        d = sem_new(g, sk[which]);
        sem_emit(g, "\tselp.%s %s, %s, %s, %s;\n", sn[which], sem_name(g, d, dn), a.s, b.s, c.s);
        for (int l = 0; l < SEM_LANES; l++) g->val[l][d] = c.v[l] ? a.v[l] : b.v[l];
        break;
    }
    case 18: case 19: {                                        /* bfe bfi */
        sem_operand(g, ik, 1, &a);
        if (op == 19) sem_operand(g, ik, 1, &e);
        sem_operand(g, SEM_K32, 1, &b);
        sem_operand(g, SEM_K32, 1, &c);
        d = sem_new(g, ik);
        if (op == 18) sem_emit(g, "\tbfe.%s %s, %s, %s, %s;\n", ty, sem_name(g, d, dn), a.s, b.s, c.s);
        else sem_emit(g, "\tbfi.b%d %s, %s, %s, %s, %s;\n", w, sem_name(g, d, dn), a.s, e.s, b.s, c.s);
        for (int l = 0; l < SEM_LANES; l++)
            g->val[l][d] = (op == 18 ? sem_bfe(a.v[l], (uint32_t)b.v[l], (uint32_t)c.v[l], sgn, w)
                                     : sem_bfi(a.v[l], e.v[l], (uint32_t)b.v[l], (uint32_t)c.v[l], w)) & mask;
        break;
    }
    case 20: {                                                 /* popc clz brev */
        static const char *const nm[] = {"popc", "clz", "brev", "brev"};
        int kind = (int)(sem_byte(g) % 4);
        sem_operand(g, ik, 0, &a);
        d = sem_new(g, kind >= 2 ? ik : SEM_K32);
        sem_emit(g, "\t%s.b%d %s, %s;\n", nm[kind], w, sem_name(g, d, dn), a.s);
        for (int l = 0; l < SEM_LANES; l++) {
            uint64_t x = a.v[l], r = 0;
            if (kind == 0) for (int i = 0; i < w; i++) r += x >> i & 1;
            else if (kind == 1) r = (uint64_t)sem_clz(x, w);
            else for (int i = 0; i < w; i++) r |= (x >> i & 1) << (w - 1 - i);
            g->val[l][d] = r;
        }
        break;
    }
    case 21: {                                                 /* prmt (default mode) */
        sem_operand(g, SEM_K32, 1, &a);
        sem_operand(g, SEM_K32, 1, &b);
        sem_operand(g, SEM_K32, 1, &c);
        d = sem_new(g, SEM_K32);
        sem_emit(g, "\tprmt.b32 %s, %s, %s, %s;\n", sem_name(g, d, dn), a.s, b.s, c.s);
        for (int l = 0; l < SEM_LANES; l++)
            g->val[l][d] = sem_prmt((uint32_t)a.v[l], (uint32_t)b.v[l], (uint32_t)c.v[l]);
        break;
    }
    case 22: case 23: {                                        /* f32 add sub mul fma min max neg abs */
        static const char *const nm[] = {"add.rn", "sub.rn", "mul.rn", "fma.rn", "min", "max", "neg", "abs"};
        int kind = (int)(sem_byte(g) % 8);
        sem_operand(g, SEM_KF, 1, &a);
        if (kind < 6) sem_operand(g, SEM_KF, 1, &b);
        if (kind == 3) sem_operand(g, SEM_KF, 1, &c);
        d = sem_new(g, SEM_KF);
        sem_name(g, d, dn);
        if (kind == 3) sem_emit(g, "\tfma.rn.f32 %s, %s, %s, %s;\n", dn, a.s, b.s, c.s);
        else if (kind < 6) sem_emit(g, "\t%s.f32 %s, %s, %s;\n", nm[kind], dn, a.s, b.s);
        else sem_emit(g, "\t%s.f32 %s, %s;\n", nm[kind], dn, a.s);
        for (int l = 0; l < SEM_LANES; l++) {
            float x = sem_f(a.v[l]), y = kind < 6 ? sem_f(b.v[l]) : 0;
            uint64_t r;
            switch (kind) {
            case 0: r = sem_bits(x + y); break;
            case 1: r = sem_bits(x - y); break;
            case 2: r = sem_bits(x * y); break;
            case 3: r = sem_bits(fmaf(x, y, sem_f(c.v[l]))); break;
            case 4: r = sem_bits(sem_fminmax(0, x, y)); break;
            case 5: r = sem_bits(sem_fminmax(1, x, y)); break;
            case 6: r = a.v[l] ^ 0x80000000u; break;           /* sign flips, NaN or not */
            default: r = a.v[l] & 0x7fffffffu; break;
            }
            g->val[l][d] = r;
        }
        break;
    }
    case 24: case 25: {                                        /* cvt int <-> f32 with explicit rounding */
        static const char *const fr[] = {"rn", "rz", "rm", "rp"}, *const ir[] = {"rni", "rzi", "rmi", "rpi"};
        int mode = (int)(sem_byte(g) % 4);
        if (op == 24) {
            sem_operand(g, ik, 0, &a);
            d = sem_new(g, SEM_KF);
            sem_emit(g, "\tcvt.%s.f32.%s %s, %s;\n", fr[mode], ty, sem_name(g, d, dn), a.s);
            for (int l = 0; l < SEM_LANES; l++) {
                uint64_t x = a.v[l];
                int neg = sgn && (x >> (w - 1) & 1);
                uint64_t m = neg ? (0 - x) & mask : x;
                g->val[l][d] = sem_int_to_f32(m, neg, mode);
            }
        } else {
            sem_operand(g, SEM_KF, 0, &a);
            d = sem_new(g, ik);
            sem_emit(g, "\tcvt.%s.%s.f32 %s, %s;\n", ir[mode], ty, sem_name(g, d, dn), a.s);
            for (int l = 0; l < SEM_LANES; l++) g->val[l][d] = sem_f32_to_int(sem_f(a.v[l]), mode, sgn, w);
        }
        break;
    }
    default: {                                                 /* cvt between integer widths */
        static const char *const pair[][2] = {{"u64", "u32"}, {"s64", "s32"}, {"u64", "s32"}, {"s64", "u32"},
                                               {"u32", "u64"}, {"s32", "s64"}, {"u32", "s64"}, {"s32", "u64"}};
        int p = (int)(sem_byte(g) % 8), widen = p < 4;
        sem_operand(g, widen ? SEM_K32 : SEM_K64, 0, &a);
        d = sem_new(g, widen ? SEM_K64 : SEM_K32);
        sem_emit(g, "\tcvt.%s.%s %s, %s;\n", pair[p][0], pair[p][1], sem_name(g, d, dn), a.s);
        for (int l = 0; l < SEM_LANES; l++)
            g->val[l][d] = widen ? (pair[p][1][0] == 's' ? (uint64_t)sem_sx32(a.v[l]) : a.v[l]) : a.v[l] & 0xffffffffull;
        break;
    }
    }
}

/* Generates the kernel from the bytes; returns the parameter values through pa, pb, pf. */
static void sem_generate(sem_gen *g, uint32_t *pa, uint32_t *pb, float *pf)
{
    *pa = sem_u32(g);
    *pb = sem_u32(g);
    uint32_t fb = sem_u32(g);
    if ((fb & 0x7f800000) == 0x7f800000) fb &= 0xbfffffff;   /* a finite parameter: descriptions pass numbers */
    *pf = sem_f(fb);
    int ninsns = (int)(sem_byte(g) % SEM_MAX_INSNS) + 1;
    sem_emit(g, ".version 7.0\n.target sm_70\n.address_size 64\n\n"
                ".visible .entry sem(.param .u64 sem_out, .param .u32 sem_a, .param .u32 sem_b, .param .f32 sem_f)\n{\n"
                "\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<64>;\n\t.reg .f32 %%f<64>;\n\t.reg .pred %%p<64>;\n"
                "\tld.param.u64 %%rd60, [sem_out];\n\tcvta.to.global.u64 %%rd60, %%rd60;\n");
    char n1[16], n2[16];
    int tid = sem_new(g, SEM_K32), ra = sem_new(g, SEM_K32), rb = sem_new(g, SEM_K32), rf = sem_new(g, SEM_KF);
    sem_emit(g, "\tmov.u32 %s, %%tid.x;\n", sem_name(g, tid, n1));
    sem_emit(g, "\tld.param.u32 %s, [sem_a];\n", sem_name(g, ra, n1));
    sem_emit(g, "\tld.param.u32 %s, [sem_b];\n", sem_name(g, rb, n1));
    sem_emit(g, "\tld.param.f32 %s, [sem_f];\n", sem_name(g, rf, n1));
    sem_emit(g, "\tmul.wide.u32 %%rd61, %s, %d;\n\tadd.s64 %%rd61, %%rd60, %%rd61;\n", sem_name(g, tid, n1), SEM_SLOTS * 8);
    for (int l = 0; l < SEM_LANES; l++) {
        g->val[l][tid] = (uint64_t)l;
        g->val[l][ra] = *pa;
        g->val[l][rb] = *pb;
        g->val[l][rf] = fb;
    }
    while (ninsns-- > 0 && g->nregs < SEM_MAX_REGS - 1) sem_insn(g);
    /* each value to its slot: 32-bit values fill the slot's low half, predicates go as 1/0 */
    for (int r = 0; r < g->nregs; r++) {
        sem_name(g, r, n1);
        if (g->kind[r] == SEM_KP) {
            sem_emit(g, "\tselp.u32 %%r63, 1, 0, %s;\n\tst.global.u32 [%%rd61+%d], %%r63;\n", n1, r * 8);
        } else {
            const char *st = g->kind[r] == SEM_K64 ? "b64" : g->kind[r] == SEM_KF ? "f32" : "b32";
            sem_emit(g, "\tst.global.%s [%%rd61+%d], %s;\n", st, r * 8, n1);
        }
    }
    (void)n2;
    sem_emit(g, "\tret;\n}\n");
}

static int fuzz_semantics_one(const uint8_t *data, size_t size)
{
    static sem_gen g;   /* big (the reference values); one input at a time */
    memset(&g, 0, sizeof g);
    g.d = data;
    g.n = size;
    uint32_t pa, pb;
    float pf;
    sem_generate(&g, &pa, &pb, &pf);

    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("sem.ptx", g.text, &err);
    if (!m) {
        fprintf(stderr, "fuzz_semantics: the generated kernel does not parse: %s:%d:%d: %s\n%s", "sem.ptx", err.line,
                err.col, err.msg, g.text);
        abort();
    }
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = SEM_LANES; L.block[1] = L.block[2] = 1;
    ws_buffer *b = &L.buffers[L.nbuffers++];
    snprintf(b->name, sizeof b->name, "out");
    b->type = WS_TYPE_ULONG;
    b->count = SEM_LANES * SEM_SLOTS;
    b->bytes = b->count * 8;
    b->init = WS_INIT_ZERO;
    L.args[0].kind = WS_ARG_BUFFER;
    L.args[0].buffer = 0;
    L.args[1].kind = WS_ARG_INT;
    L.args[1].ivalue = pa;
    L.args[2].kind = WS_ARG_INT;
    L.args[2].ivalue = pb;
    L.args[3].kind = WS_ARG_FLOAT;
    L.args[3].fvalue = pf;
    L.nargs = 4;

    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = &L;
    cfg.source_file = "sem.cu";
    cfg.max_thread_insns = 100000;
    ws_sim_result res;
    if (ws_sim_run(&cfg, &res, &err)) {
        fprintf(stderr, "fuzz_semantics: the generated kernel did not run: %s\n%s", err.msg, g.text);
        abort();
    }
    const uint64_t *out = res.buffer_data[0];
    for (int l = 0; l < SEM_LANES; l++)
        for (int r = 0; r < g.nregs; r++) {
            uint64_t got = out[l * SEM_SLOTS + r], want = g.val[l][r];
            if (got == want) continue;
            if (g.kind[r] == SEM_KF && isnan(sem_f(got)) && isnan(sem_f(want)) && got >> 32 == 0) continue;
            char n1[16];
            fprintf(stderr, "%s\nfuzz_semantics: lane %d, %s (made on sem.ptx line %d): interpreter 0x%llx, PTX ISA 0x%llx\n",
                    g.text, l, sem_name(&g, r, n1), g.line[r], (unsigned long long)got, (unsigned long long)want);
            abort();
        }
    ws_sim_result_free(&res);
    ptx_free(m);
    return 0;
}

#ifndef FUZZ_NO_MAIN /* tests/test_fuzz_regressions.c includes this file and calls fuzz_semantics_one */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_semantics_one(data, size); }
#endif
