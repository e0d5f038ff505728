/* exec_mma.c - the warp's matrix multiply-accumulate: mma.sync (m16n8k16 / m16n8k8 f16 and
 * bf16, m16n8k8 / m16n8k4 tf32, m16n8k32 / m16n8k16 s8 and u8, m16n8k32 e4m3/e5m2 (sm_89+),
 * m8n8k4 f64) and wmma.mma (m16n16k16, m32n8k16, m8n32k16 f16, bf16, s8 and u8; m16n16k8
 * tf32; m8n8k4 f64), D = A * B + C, the fragments laid out as fragments.h says.
 *
 * Arithmetic, f16, bf16 and tf32 (hmma_bits, the H200's rule, results/h200-hmma-rule/ and
 * results/h200-hmma-chain/): the K exact products and C are aligned to the largest exponent E
 * among them, a product's exponent being the sum of its operands' exponents (not renormalised),
 * C's its own; every term is truncated toward zero to a multiple of 2^(E-25) and the terms are
 * summed exactly. An f32 D is that sum truncated toward zero to f32; an f16 D is the same sum
 * rounded once to nearest even f16 (not through f32); a zero result is +0. wmma m16n16k8 tf32 is
 * two such sums of k = 0..3 and 4..7 in turn. tf32 operands are f32 bit patterns of which the
 * tensor core reads the top 19 bits: the low 13 are dropped (truncated, also at 0x1000). This
 * reproduces all 11,776 single mma.sync outputs of the first record and all 9,961,472 chained
 * outputs of the second (f16 into f16 m16n8k16 / m16n8k8, f16 and bf16 into f32 m16n8k16, tf32
 * m16n8k8 / m16n8k4, wmma m16n16k8 tf32 in both layouts; crafted families: ties, cancellation,
 * overflow, subnormals, mixed exponents). fp8: C + the K products in double rounded once (the
 * wgmma fp8 rule, exec_wgmma.c, was measured for wgmma only).
 * f64: C + products one fused multiply-add at a time, k = 0, 1, 2, 3. s8/u8, s4/u4 (m8n8k32,
 * m16n8k32, m16n8k64) and b1 (m8n8k128, m16n8k128, m16n8k256, .and.popc / .xor.popc): exact 32-bit
 * wrapping sums, or saturating with .satfinite.
 * Invariant: every source fragment is read into matrices before any destination register is
 * written, so D may be C's registers. */
#include "exec_tc.h"

#include <math.h>

static double elem_value(int mt, uint64_t bits)
{
    switch (mt) {
    case PTX_MT_F16: return sim_h2f((uint16_t)bits);
    case PTX_MT_BF16: return sim_bf2f((uint16_t)bits);
    case PTX_MT_TF32: return sim_f32(bits & 0xffffe000u);
    case PTX_MT_F32: return sim_f32(bits);
    case PTX_MT_F64: return sim_f64(bits);
    case PTX_MT_E4M3: return sim_e4m32f((uint8_t)bits);
    case PTX_MT_E5M2: return sim_e5m22f((uint8_t)bits);
    case PTX_MT_S8: return (double)(int8_t)bits;
    case PTX_MT_U8: return (double)(uint8_t)bits;
    case PTX_MT_S32: return (double)(int32_t)bits;
    default: return 0;
    }
}

/* sim_h2f inlined for normal numbers (the common case; the same bits: a normal half widens
 * exactly by rebiasing its exponent), the library call for zeros, subnormals, inf and NaN. */
static inline double h2d(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1f;
    if (e == 0 || e == 31) return sim_h2f(h);
    uint32_t u = (uint32_t)(h >> 15) << 31 | (e + 112) << 23 | (uint32_t)(h & 0x3ff) << 13;
    float r;
    memcpy(&r, &u, 4);
    return r;
}

/* An integer element's value: s8 and s4 sign-extended, u8, u4 and b1 as they are, s32. */
static inline int64_t int_value(int mt, uint64_t v)
{
    switch (mt) {
    case PTX_MT_U8: case PTX_MT_U4: case PTX_MT_B1: return (int64_t)v;
    case PTX_MT_S8: return (int64_t)(int8_t)v;
    case PTX_MT_S4: return (int64_t)((v & 7) - (v & 8));
    default: return (int64_t)(int32_t)v;
    }
}

/* Reads fragment which of operand o into mat (rows x cols, row-major), as doubles. The layout
 * comes from the cached fragment map and the element conversion is chosen once per fragment:
 * this is the tensor-core path's hottest loop. */
static void gather(const sim_ctx *c, const sim_warp *w, const ws_frag_form *f, char which, const ptx_operand *o,
                   int mt, double *mat, int64_t *imat)
{
    int rows, cols, bits = ptx_mma_type_bits(mt);
    ws_frag_dims(f, which, &rows, &cols);
    int ne = ws_frag_elems(f, which);
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const ws_frag_map *fm = ws_frag_map_get(f, which);
    if (!fm) {
        for (int l = 0; l < 32; l++)
            for (int e = 0; e < ne; e++) {
                ws_frag_pos p;
                ws_frag_where(f, which, l, e, &p);
                uint64_t v = w->file[sim_tc_elem(c, o, p.reg) + l] >> p.shift & mask;
                if (mat) mat[p.row * cols + p.col] = elem_value(mt, v);
                if (imat) imat[p.row * cols + p.col] = int_value(mt, v);
            }
        return;
    }
    for (int e = 0; e < ne; e++) {
        const uint64_t *reg = w->file + sim_tc_elem(c, o, fm->reg[e]);
        int sh = fm->shift[e];
        if (mat && mt == PTX_MT_F16) {
            for (int l = 0; l < 32; l++) mat[fm->at[l][e]] = h2d((uint16_t)(reg[l] >> sh));
        } else if (mat && mt == PTX_MT_F32) {
            for (int l = 0; l < 32; l++) mat[fm->at[l][e]] = sim_f32(reg[l] >> sh & mask);
        } else {
            for (int l = 0; l < 32; l++) {
                uint64_t v = reg[l] >> sh & mask;
                int at = fm->at[l][e];
                if (mat) mat[at] = elem_value(mt, v);
                if (imat) imat[at] = int_value(mt, v);
            }
        }
    }
}

static uint64_t encode(int mt, double x)
{
    switch (mt) {
    case PTX_MT_F16: return sim_f2h(x, PTX_RND_RN);
    case PTX_MT_F32: return sim_f32b((float)x);
    default: return sim_f64b(x);
    }
}

/* The exponent field the tensor core aligns by: floor(log2 |x|) of a normal double, the format's
 * smallest normal exponent for a subnormal input (its field is that of the smallest normal with
 * a leading 0; not in the record, which has no subnormal operand), INT_MIN/2 for 0. */
static inline int field_exp(double x, int emin)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    int e = (int)((u >> 52) & 0x7ff);
    if (!e && !(u << 1)) return INT32_MIN / 2;
    e = e ? e - 1023 : -1074;
    return e < emin ? emin : e;
}

/* 2^n for n in the double's normal exponent range, where it is exactly ldexp(1.0, n): built from
 * its bits, since ldexp (a library call) was a tenth of a tensor-core GEMM's simulation. */
static inline double pow2(int n)
{
    uint64_t u = (uint64_t)(n + 1023) << 52;
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* x truncated toward zero to f32 (24 significant bits, subnormals at 2^-149; beyond the f32 range
 * the conversion's infinity). Where x's exponent is f32's normal range or above, truncating to 24
 * bits is clearing the double's low 29 significand bits (what the scaled trunc below computes). */
static inline float f32_rz(double x)
{
    if (x == 0 || !isfinite(x)) return (float)x;
    uint64_t u;
    memcpy(&u, &x, 8);
    int be = (int)((u >> 52) & 0x7ff);
    if (be >= 1023 - 126) {
        u &= ~((1ull << 29) - 1);
        memcpy(&x, &u, 8);
        return (float)x;
    }
    int e = ilogb(x);
    if (e < -126) e = -126;
    double q = ldexp(trunc(ldexp(x, 23 - e)), e - 23);
    return (float)q;
}

/* The bits of D from the exact window sum (hmma_bits's rule): an f16 D rounded once to nearest even,
 * an f32 D truncated; a sum of zero magnitude is +0 whatever the terms' signs (results/h200-hmma-chain). */
static inline uint64_t hmma_finish(double sum, bool f16d)
{
    if (f16d) {
        uint16_t h = sim_f2h(sum, PTX_RND_RN);
        return h == 0x8000 ? 0 : h;             /* a negative sum that rounds to zero: +0 */
    }
    float f = f32_rz(sum);
    return f == 0 ? 0 : sim_f32b(f);
}

/* One element of an f16/bf16/tf32 D as the H200's tensor core sums it (the header's rule), as
 * the bits of D (f32, or f16 when f16d): C and the K products a[k] * b[k*ldb], ea/eb their
 * operands' exponent fields. Each truncated term is an integer below 2^28 in units of 2^(E-25),
 * so 17 of them sum exactly in int64, and the sum is exact in a double. An f32 D is that sum
 * truncated to f32, an f16 D the sum rounded once to nearest even f16 (not through f32:
 * results/h200-hmma-chain); a result of zero magnitude is +0 whatever the terms' signs. Infinities
 * and NaN take the plain sum (IEEE's results); so do all-zero terms (their sign rule unmeasured). */
static uint64_t hmma_bits(double c, const double *a, const int *ea, const double *b, const int *eb, int ldb, int K,
                          int cemin, bool f16d)
{
    int E = field_exp(c, cemin);
    double plain = c, p[32];      /* K <= 16 here; each product once, used three times */
    for (int k = 0; k < K; k++) {
        p[k] = a[k] * b[k * ldb];
        plain += p[k];
        if (p[k] != 0 && ea[k] + eb[k * ldb] > E) E = ea[k] + eb[k * ldb];
    }
    if (!isfinite(plain) || E == INT32_MIN / 2) return f16d ? sim_f2h(plain, PTX_RND_RN) : sim_f32b((float)plain);
    bool normal = E - 25 >= -1022 && 25 - E >= -1022;   /* always, for f16/bf16/tf32 operands */
    double scale = normal ? pow2(25 - E) : ldexp(1.0, 25 - E);
    int64_t units = (int64_t)(c * scale);       /* the casts truncate toward zero */
    for (int k = 0; k < K; k++) units += (int64_t)(p[k] * scale);
    /* units has at most 34 significant bits: the product by a normal power of two is exact, as ldexp is */
    return hmma_finish(normal ? (double)units * pow2(E - 25) : ldexp((double)units, E - 25), f16d);
}

/* One row of D, N elements, each as hmma_bits sums it, for finite operands (all of A, B and C):
 * then no sum can overflow a double (a product is below 2^256), so hmma_bits's plain sum matters
 * only where every term is zero (its signed zero), and a product is zero exactly when an operand
 * is (none underflows a double), whose exponent field is INT32_MIN / 2: a plain maximum over
 * every product's field sum is E, or far below any real exponent when all terms are zero.
 * The row's elements go side by side, k outer: their maxima and integer sums are independent
 * chains that overlap in the CPU, where hmma_bits's one element at a time waits on each add. */
static inline __attribute__((always_inline)) void hmma_row(const double *c, const double *a, const int *ea,
                                                           const double *B, const int *EB, int N, int K, int cemin,
                                                           bool f16d, uint64_t *d)
{
    int E[32];
    double scale[32];
    int64_t units[32];
    for (int j = 0; j < N; j++) E[j] = field_exp(c[j], cemin);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            int e = ea[k] + EB[k * N + j];    /* >= INT32_MIN: two zero fields */
            E[j] = e > E[j] ? e : E[j];
        }
    for (int j = 0; j < N; j++) {
        if (E[j] < -100000) E[j] = INT32_MIN / 2;    /* no nonzero term: real fields are >= -300 */
        bool normal = E[j] != INT32_MIN / 2 && E[j] - 25 >= -1022 && 25 - E[j] >= -1022;
        scale[j] = normal ? pow2(25 - E[j]) : E[j] == INT32_MIN / 2 ? 0 : ldexp(1.0, 25 - E[j]);
        units[j] = (int64_t)(c[j] * scale[j]);        /* the casts truncate toward zero */
    }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) /* each term is below 2^28 (hmma_bits): int32 truncation, packed by SSE2 */
            units[j] += (int32_t)(a[k] * B[k * N + j] * scale[j]);
    for (int j = 0; j < N; j++) {
        if (E[j] == INT32_MIN / 2) {                  /* every term zero: their sum's sign */
            double plain = c[j];
            for (int k = 0; k < K; k++) plain += a[k] * B[k * N + j];
            d[j] = f16d ? sim_f2h(plain, PTX_RND_RN) : sim_f32b((float)plain);
            continue;
        }
        bool normal = E[j] - 25 >= -1022 && 25 - E[j] >= -1022;
        d[j] = hmma_finish(normal ? (double)units[j] * pow2(E[j] - 25) : ldexp((double)units[j], E[j] - 25), f16d);
    }
}

/* acc[j] += a[k] * b[k][j] for k = 0 .. K-1 in order (b rows of n): one row of D. */
static void row_mac(double *acc, const double *a, const double *b, int K, int n)
{
    for (int k = 0; k < K; k++)
        for (int j = 0; j < n; j++) acc[j] += a[k] * b[k * n + j];
}

/* row_mac for n = 8, the common mma width, with the row held in locals. */
static void row_mac8(double *acc, const double *a, const double *b, int K)
{
    double r[8];
    for (int j = 0; j < 8; j++) r[j] = acc[j];
    for (int k = 0; k < K; k++)
        for (int j = 0; j < 8; j++) r[j] += a[k] * b[k * 8 + j];
    for (int j = 0; j < 8; j++) acc[j] = r[j];
}

/* Writes D's bits (M x N, row-major) into operand 0's fragment registers. */
static void scatter_d(sim_ctx *c, sim_warp *w, const ptx_insn *pi, const ws_frag_form *f, const uint64_t *bits);

/* The sub-byte forms (s4/u4, b1): exact 32-bit sums of the K products (b1: of a AND b or a XOR
 * b, the population count of the row's and column's bits), wrapping, or saturating with
 * .satfinite. K is up to 256: the matrices are this function's own. */
static void subbyte_mma(sim_ctx *c, sim_warp *w, const ptx_insn *pi, const ws_frag_form *f)
{
    const ptx_tc *tc = &pi->tc;
    int M = f->m, N = f->n, K = f->k;
    int64_t IA[16 * 256], IB[256 * 8], IC[16 * 8];
    gather(c, w, f, 'a', &pi->opnd[1], tc->atype, NULL, IA);
    gather(c, w, f, 'b', &pi->opnd[2], tc->btype, NULL, IB);
    gather(c, w, f, 'c', &pi->opnd[3], tc->ctype, NULL, IC);
    uint64_t bits[16 * 8];
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t acc = IC[i * N + j];
            for (int k = 0; k < K; k++) {
                int64_t a = IA[i * K + k], b = IB[k * N + j];
                acc += tc->bitop == 'x' ? (a ^ b) : tc->bitop == 'a' ? (a & b) : a * b;
            }
            if (tc->flags & PTX_TC_SATFINITE) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            bits[i * N + j] = (uint32_t)acc;
        }
    scatter_d(c, w, pi, f, bits);
}

int sim_exec_mma(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    const ptx_tc *tc = &pi->tc;
    if (m != SIM_FULL) {
        char txt[200];
        ptx_format_insn(c->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' executed by lanes 0x%08x only: every lane of the warp must execute it "
                         "(.sync.aligned)", txt, m);
    }
    bool wm = pi->op == PTX_WMMA_MMA;
    ws_frag_form f = {tc->m, tc->n, tc->k, ptx_mma_type_bits(tc->atype), ptx_mma_type_bits(tc->ctype), wm};
    int M = f.m, N = f.n, K = f.k;
    double A[16 * 32], B[32 * 16], C[16 * 16];
    int64_t IA[16 * 32], IB[32 * 16], IC[16 * 16];
    if (ptx_mma_type_subbyte(tc->atype)) {
        subbyte_mma(c, w, pi, &f);
        return 0;
    }
    bool integer = tc->atype == PTX_MT_S8 || tc->atype == PTX_MT_U8;
    if (integer) {
        gather(c, w, &f, 'a', &pi->opnd[1], tc->atype, NULL, IA);
        gather(c, w, &f, 'b', &pi->opnd[2], tc->btype, NULL, IB);
        gather(c, w, &f, 'c', &pi->opnd[3], tc->ctype, NULL, IC);
    } else {
        gather(c, w, &f, 'a', &pi->opnd[1], tc->atype, A, NULL);
        gather(c, w, &f, 'b', &pi->opnd[2], tc->btype, B, NULL);
        gather(c, w, &f, 'c', &pi->opnd[3], tc->ctype, C, NULL);
    }
    uint64_t bits[16 * 16];
    bool hmma = tc->atype == PTX_MT_F16 || tc->atype == PTX_MT_BF16 || tc->atype == PTX_MT_TF32;
    if (hmma) {
        /* operand exponent fields once per fragment (f16 normals from 2^-14, bf16 and tf32 2^-126) */
        int emin = tc->atype == PTX_MT_F16 ? -14 : -126, cemin = tc->ctype == PTX_MT_F16 ? -14 : -126;
        int EA[16 * 32], EB[32 * 16];
        for (int x = 0; x < M * K; x++) EA[x] = field_exp(A[x], emin);
        for (int x = 0; x < K * N; x++) EB[x] = field_exp(B[x], emin);
        /* wmma m16n16k8 tf32 runs as two k4 halves in k order, the first's f32 D the second's C
         * (results/h200-hmma-chain: 1,048,576 of 1,048,576 outputs; one k8 sum reproduces 69 %) */
        int ks = wm && tc->atype == PTX_MT_TF32 ? 4 : K;
        bool f16d = tc->dtype == PTX_MT_F16;
        bool finite = true;
        for (int x = 0; x < M * K; x++) finite &= isfinite(A[x]) != 0;
        for (int x = 0; x < K * N; x++) finite &= isfinite(B[x]) != 0;
        for (int x = 0; x < M * N; x++) finite &= isfinite(C[x]) != 0;
        for (int i = 0; i < M; i++) {
            if (finite && ks == K && N == 8 && K == 16) {   /* m16n8k16, the common shape: constant bounds unroll */
                hmma_row(C + i * N, A + i * K, EA + i * K, B, EB, 8, 16, cemin, f16d, bits + i * N);
                continue;
            }
            if (finite && ks == K) {
                hmma_row(C + i * N, A + i * K, EA + i * K, B, EB, N, K, cemin, f16d, bits + i * N);
                continue;
            }
            for (int j = 0; j < N; j++) {
                double cv = C[i * N + j];
                uint64_t d = 0;
                for (int k0 = 0; k0 < K; k0 += ks) {
                    if (k0) cv = sim_f32(d);
                    d = hmma_bits(cv, A + i * K + k0, EA + i * K + k0, B + k0 * N + j, EB + k0 * N + j, N, ks, cemin,
                                  f16d);
                }
                bits[i * N + j] = d;
            }
        }
    } else if (!integer && tc->atype != PTX_MT_F64) {
        /* k outside j: each element still adds its K products to C in k order (the same sums,
         * rounded the same), but the inner loop runs along a row of B and vectorises */
        for (int i = 0; i < M; i++) {
            double acc[32];       /* N <= 32 (m8n32k16) */
            for (int j = 0; j < N; j++) acc[j] = C[i * N + j];
            switch (N) {          /* constant widths: the compiler keeps acc in vector registers */
            case 8: row_mac8(acc, A + i * K, B, K); break;
            default: row_mac(acc, A + i * K, B, K, N); break;
            }
            for (int j = 0; j < N; j++) bits[i * N + j] = encode(tc->dtype, acc[j]);
        }
    } else
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            if (integer) {
                int64_t acc = IC[i * N + j];
                for (int k = 0; k < K; k++) acc += IA[i * K + k] * IB[k * N + j];
                if (tc->flags & PTX_TC_SATFINITE) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                bits[i * N + j] = (uint32_t)acc;    /* wraps without .satfinite */
                continue;
            }
            double acc = C[i * N + j];
            if (tc->atype == PTX_MT_F64) {
                for (int k = 0; k < K; k++) acc = fma(A[i * K + k], B[k * N + j], acc);
            } else {
                for (int k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
            }
            bits[i * N + j] = encode(tc->dtype, acc);
        }
    /* scatter D: every source is in A, B, C above, so D may overwrite any of them */
    scatter_d(c, w, pi, &f, bits);
    return 0;
}

static void scatter_d(sim_ctx *c, sim_warp *w, const ptx_insn *pi, const ws_frag_form *f, const uint64_t *bits)
{
    const ptx_tc *tc = &pi->tc;
    int N = f->n;
    ws_frag_form fd = *f;
    fd.c_bits = ptx_mma_type_bits(tc->dtype);
    int nd = ws_frag_elems(&fd, 'c'), dbits = fd.c_bits;
    uint64_t emask = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
    uint64_t out[8][32];
    int nreg = ws_frag_regs(&fd, 'c');
    memset(out, 0, sizeof out);
    const ws_frag_map *dm = ws_frag_map_get(&fd, 'c');
    if (dm) {
        for (int e = 0; e < nd; e++) {
            uint64_t *o = out[dm->reg[e]];
            int sh = dm->shift[e];
            for (int l = 0; l < 32; l++) o[l] |= (bits[dm->at[l][e]] & emask) << sh; /* D has N columns */
        }
    } else {
        for (int l = 0; l < 32; l++)
            for (int e = 0; e < nd; e++) {
                ws_frag_pos p;
                ws_frag_where(&fd, 'c', l, e, &p);
                out[p.reg][l] |= (bits[p.row * N + p.col] & emask) << p.shift;
            }
    }
    for (int r = 0; r < nreg; r++) {
        uint64_t *d = w->file + sim_tc_elem(c, &pi->opnd[0], r);
        for (int l = 0; l < 32; l++) d[l] = out[r][l];
    }
}
