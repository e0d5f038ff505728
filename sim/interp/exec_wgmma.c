/* exec_wgmma.c - warpgroup matrix multiply-accumulate (sm_90a): wgmma.mma_async with A from a
 * shared-memory matrix descriptor or from registers and B from a descriptor, and its ordering
 * instructions wgmma.fence, wgmma.commit_group, wgmma.wait_group (PTX ISA "Asynchronous
 * Warpgroup Level Matrix Multiply-Accumulate Instructions").
 *
 * A warpgroup is 4 consecutive warps (warps 4g .. 4g+3 of the block). Warp q of it owns rows
 * 16q .. 16q+15 of D (and of A when A is in registers), laid out as mma.m16n8k* lays out its
 * fragments (fragments.h, with m = 16, n = N). D's rows of warp q depend only on A's rows of
 * warp q and on all of B, so each warp computes its quarter when it reaches the instruction:
 * the warps of a warpgroup need not run in step.
 *
 * Descriptors (64 bits): start address (bits 0-13) << 4, leading byte offset (16-29) << 4,
 * stride byte offset (32-45) << 4, base offset (49-51: where a swizzle pattern that starts off its
 * 1024/512/256-byte boundary starts, (start >> 7) & 7; see elem_addr), swizzle (62-63: 0 none, 1 128B, 2 64B,
 * 3 32B). The canonical layouts, in 16-byte units, T = elements per 16 bytes, W = swizzle bytes / 16
 * (the PTX ISA's "Shared Memory Matrix Layout" figures, as CUTLASS's make_gmma_desc states them):
 *   K-major  none: ((8,m),(T,2)) : ((1,SBO),(1,LBO))      swizzled: ((8,m),(T,2)) : ((W,SBO),(1,1))
 *   MN-major none: ((T,m),(8,2)) : ((1,SBO),(1,LBO))      swizzled: ((T,W,m),(8,2)) : ((1,1,LBO),(W,SBO))
 * then the swizzle XORs address bits [4, 4+log2 W) with bits [7, 7+log2 W) of the shared address
 * (CUTLASS Swizzle<1|2|3,4,3>, the pattern TMA writes). K-major is A row-major / B column-major
 * (imm-trans 0); MN-major (imm-trans 1, f16/bf16 only) is A column-major / B row-major.
 *
 * Asynchrony: the product is computed when the warp issues the instruction (a completion the PTX
 * ISA allows: any time before the wait that covers it). What that hides, touching D or the A
 * registers before wgmma.wait_group has covered the wgmma, is undefined behaviour in the ISA, and
 * is reported instead: each register an in-flight wgmma holds remembers its group, and while any
 * is held every instruction of the warp is checked (exec_step.c). A later wgmma.mma_async may
 * name the same accumulators (the ISA's chained accumulation).
 *
 * Arithmetic as exec_mma.c: each element of D is C (or 0 when scale-d is false) plus its K
 * products summed in double and rounded once; f16/bf16/tf32/fp8 products are exact. Except fp8
 * (e4m3/e5m2) into f32: the H200 keeps 14 significant bits of that sum, truncated toward zero
 * (fp8_sum below; results/h200-wgmma/, docs/interp.md "wgmma").
 * Invariant: every source (A, B, C) is read before any D register is written. */
#include "exec_tc.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct sim_wg {
    int nslots;           /* registers of the kernel */
    uint32_t *group;      /* per register slot: 1 + the group of the in-flight wgmma holding it, 0 none */
    uint32_t *pc;         /* that wgmma's instruction */
    uint32_t committed;   /* groups committed so far: new wgmmas join group `committed` */
    uint32_t done;        /* groups below this are complete */
    uint32_t last;        /* highest group holding a register */
    bool any;             /* some register was held this block */
};

void sim_wgmma_free(sim_warp *w)
{
    if (!w->wg) return;
    free(w->wg->group);
    free(w->wg->pc);
    free(w->wg);
    w->wg = NULL;
    w->wg_busy = false;
}

void sim_wgmma_block_start(sim_warp *w)
{
    w->wg_busy = false;
    if (!w->wg) return;
    memset(w->wg->group, 0, (size_t)w->wg->nslots * sizeof *w->wg->group);
    w->wg->committed = w->wg->done = w->wg->last = 0;
    w->wg->any = false;
}

static struct sim_wg *wg_state(sim_ctx *c, sim_warp *w)
{
    if (w->wg) return w->wg;
    struct sim_wg *g = calloc(1, sizeof *g);
    int n = c->fn->nregs > 0 ? c->fn->nregs : 1;
    if (g) {
        g->nslots = n;
        g->group = calloc((size_t)n, sizeof *g->group);
        g->pc = calloc((size_t)n, sizeof *g->pc);
    }
    if (!g || !g->group || !g->pc) {
        w->wg = g;
        sim_wgmma_free(w);
        return NULL;
    }
    w->wg = g;
    return g;
}

static void update_busy(sim_warp *w)
{
    const struct sim_wg *g = w->wg;
    w->wg_busy = g && g->any && g->last >= g->done;
}

/* ---- the hazard: a register of an in-flight wgmma touched ------------------------------- */

static int held(sim_ctx *c, sim_warp *w, const sim_insn *in, int slot)
{
    const struct sim_wg *g = w->wg;
    if (slot < 0 || slot >= g->nslots || !g->group[slot] || g->group[slot] - 1 < g->done) return 0;
    const ptx_insn *wi = &c->fn->insns[g->pc[slot]];
    char txt[200];
    ptx_format_insn(c->fn, in->pi, txt, sizeof txt);
    bool committed = g->group[slot] - 1 < g->committed;
    return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' accesses %s, a register of the wgmma.mma_async at line %d (PTX "
                     "line %d), before a wgmma.wait_group covers it: %s (the PTX ISA leaves the value undefined)",
                     txt, c->fn->regs[slot].name, wi->src_line, wi->ptx_line,
                     committed ? "its group is not complete yet (wgmma.wait_group N waits for all but the N most "
                                 "recent groups)"
                               : "it is not committed yet (wgmma.commit_group, then wgmma.wait_group)");
}

int sim_wgmma_hazard(sim_ctx *c, sim_warp *w, const sim_insn *in)
{
    const ptx_insn *pi = in->pi;
    if (w->depth || pi->op == PTX_WGMMA_MMA || pi->op == PTX_WGMMA_FENCE || pi->op == PTX_WGMMA_COMMIT ||
        pi->op == PTX_WGMMA_WAIT)
        return 0;                                /* a callee numbers its own registers: not followed */
    if (pi->guard >= 0 && held(c, w, in, pi->guard)) return -1;
    for (int k = 0; k < pi->nopnd && k < PTX_MAX_OPND; k++) {
        const ptx_operand *o = &pi->opnd[k];
        if ((o->kind == PTX_OPND_REG || (o->kind == PTX_OPND_MEM && o->base_kind == PTX_OPND_REG)) && held(c, w, in, o->reg))
            return -1;
        if (o->kind == PTX_OPND_VEC)
            for (int e = 0; e < o->vec_n; e++)
                if (o->vec[e] >= 0 && held(c, w, in, o->vec[e])) return -1;
    }
    return 0;
}

/* ---- descriptors and layouts ---------------------------------------------------------------- */

typedef struct {
    uint64_t raw;
    uint64_t start, lbo, sbo;  /* bytes */
    int swz;                   /* swizzle width in bytes: 0 (none), 32, 64, 128 */
    int base;                  /* base offset, bits 49-51 */
} wg_desc;

static wg_desc desc_decode(uint64_t d)
{
    static const int swz[4] = {0, 128, 64, 32};
    wg_desc r = {d, (d & 0x3fff) << 4, (d >> 16 & 0x3fff) << 4, (d >> 32 & 0x3fff) << 4, swz[d >> 62], (int)(d >> 49 & 7)};
    return r;
}

/* Shared offset of element (mn, k) of an operand of eb-byte elements (file comment). */
static uint64_t elem_addr(const wg_desc *d, int mn, int k, int eb, bool mn_major)
{
    int T = 16 / eb;
    uint64_t off;
    if (!mn_major) {
        int r = mn % 8, i = mn / 8, j = k / T, e = k % T;
        off = d->swz ? (uint64_t)r * (uint64_t)d->swz + (uint64_t)i * d->sbo + (uint64_t)j * 16
                     : (uint64_t)r * 16 + (uint64_t)i * d->sbo + (uint64_t)j * d->lbo;
        off += (uint64_t)e * (uint64_t)eb;
    } else {
        int cidx = mn / T, e = mn % T, r = k % 8, j = k / 8;
        if (d->swz) {
            int W = d->swz / 16;
            off = (uint64_t)(cidx % W) * 16 + (uint64_t)(cidx / W) * d->lbo + (uint64_t)r * (uint64_t)d->swz +
                  (uint64_t)j * d->sbo;
        } else {
            off = (uint64_t)cidx * d->sbo + (uint64_t)r * 16 + (uint64_t)j * d->lbo;
        }
        off += (uint64_t)e * (uint64_t)eb;
    }
    uint64_t a = d->start + off;
    if (d->swz) {
        /* the XOR is the 128-byte row's index within the repeating pattern (1024/512/256 bytes);
           a pattern that starts off that boundary says where it starts with the base offset,
           (pattern start >> 7) & 7 (PTX ISA, "Matrix Descriptor Format"), so its row 0 is the
           row at base offset: row = (a >> 7) - base. No swizzle ignores the field (the ISA). */
        uint64_t bits = d->swz == 32 ? 1 : d->swz == 64 ? 3 : 7;
        a ^= (((a >> 7) - (uint64_t)d->base) & bits) << 4;
    }
    return a;
}

uint64_t sim_wgmma_elem_addr(uint64_t desc, int mn, int k, int elem_bytes, bool mn_major)
{
    wg_desc d = desc_decode(desc);
    return elem_addr(&d, mn, k, elem_bytes, mn_major);
}

static double elem_value(int mt, const uint8_t *p)
{
    uint32_t v = 0;
    switch (mt) {
    case PTX_MT_F16: memcpy(&v, p, 2); return sim_h2f((uint16_t)v);
    case PTX_MT_BF16: memcpy(&v, p, 2); return sim_bf2f((uint16_t)v);
    case PTX_MT_TF32: memcpy(&v, p, 4); return sim_f32(v & 0xffffe000u);
    case PTX_MT_E4M3: return sim_e4m32f(p[0]);
    case PTX_MT_E5M2: return sim_e5m22f(p[0]);
    case PTX_MT_S8: return (double)(int8_t)p[0];
    case PTX_MT_U8: return (double)p[0];
    default: return 0;
    }
}

static int elem_bytes(int mt)
{
    switch (mt) {
    case PTX_MT_F16: case PTX_MT_BF16: return 2;
    case PTX_MT_TF32: return 4;
    default: return 1;
    }
}

static const char *const swz_name[4] = {"none", "128B", "64B", "32B"};

/* The descriptor operand (a 64-bit register) of the warp: one value for every lane. */
static int read_desc(sim_ctx *c, sim_warp *w, const sim_insn *in, int k, char which, wg_desc *d)
{
    const uint64_t *v = w->file + in->src[k];
    for (int l = 1; l < 32; l++)
        if (v[l] != v[0])
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the matrix descriptor of %c differs between lanes (0x%016" PRIx64
                             " in lane 0, 0x%016" PRIx64 " in lane %d): the warpgroup passes one descriptor", which, v[0], v[l], l);
    *d = desc_decode(v[0]);
    return 0;
}

/* The matrix's element (mn, k) from shared memory; a place beyond the block's window faults. */
static int load_elem(sim_ctx *c, sim_warp *w, const sim_insn *in, const wg_desc *d, char which, int mn, int k, int mt,
                     bool mn_major, double *out)
{
    int eb = elem_bytes(mt);
    uint64_t a = elem_addr(d, mn, k, eb, mn_major);
    if (a + (uint64_t)eb > c->shared_bytes)
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "the matrix descriptor of %c (0x%016" PRIx64 ": start 0x%" PRIx64 ", "
                         "leading byte offset %" PRIu64 ", stride byte offset %" PRIu64 ", swizzle %s) reaches shared "
                         "offset 0x%" PRIx64 " for element (%s %d, k %d), outside the block's %" PRIu64 " bytes of shared "
                         "memory", which, d->raw, d->start, d->lbo, d->sbo, swz_name[d->raw >> 62], a,
                         which == 'A' ? "m" : "n", mn, k, c->shared_bytes);
    *out = elem_value(mt, c->shared + a);
    return 0;
}

/* The 16-byte chunks of an operand in a fixed order (chunk i of rows x 2 for K-major, of 16 k x
 * rows/T for MN-major), from chunk first, n of them, as GMMA events of up to 32 chunks. */
static int emit_chunks(sim_ctx *c, sim_warp *w, const sim_insn *in, const wg_desc *d, int mt, bool mn_major, int rows,
                       int first, int n, uint32_t *part)
{
    int eb = elem_bytes(mt), T = 16 / eb;
    uint64_t addr[32];
    int cnt = 0;
    for (int i = first; i < first + n; i++) {
        int mn, k;
        if (!mn_major) { mn = i / 2; k = (i % 2) * T; }       /* row mn, its two k chunks */
        else { int per = rows / T; k = i / per; mn = (i % per) * T; } /* k row, its mn chunks */
        addr[cnt++] = elem_addr(d, mn, k, eb, mn_major) & ~(uint64_t)15;
        if (cnt == 32 || i == first + n - 1) {
            uint32_t m = cnt == 32 ? SIM_FULL : (1u << cnt) - 1;
            if (c->tc && sim_tc_check_shared(c, w, in, m, addr, 16)) return -1;  /* a copy still in flight */
            sim_tc_emit_part(c, w, in, WS_SPACE_SHARED, WS_MEM_LOAD, WS_KIND_GMMA, m, addr, 16, (*part)++);
            cnt = 0;
        }
    }
    return 0;
}

static uint32_t wide_off(const ptx_function *fn, const ptx_operand *o, int e)
{
    if (o->wide_n) return (uint32_t)fn->wide[o->wide0 + e] * 32;
    return (uint32_t)o->vec[e] * 32;
}

static void hold(struct sim_wg *g, int slot, uint32_t pc)
{
    if (slot < 0 || slot >= g->nslots) return;
    g->group[slot] = g->committed + 1;
    g->pc[slot] = pc;
}

/* ---- fp8 accumulation as the H200 does it -------------------------------------------------- */

/* Significant bits the H200 keeps of an fp8 wgmma's f32 result: 14 reproduces its outputs, 13
 * truncates values it kept, 15 keeps bits it dropped (results/h200-wgmma/FP8-RULE.md). */
#define WS_FP8_ACC_BITS 14

/* x truncated toward zero to WS_FP8_ACC_BITS significant bits (0, infinities and NaN as they are). */
static double rz_bits(double x)
{
    if (x == 0 || x != x || x - x != 0) return x;
    int e;
    double m = frexp(x, &e);                     /* x = m 2^e, 0.5 <= |m| < 1 */
    return ldexp(trunc(ldexp(m, WS_FP8_ACC_BITS)), e - WS_FP8_ACC_BITS);
}

/* The exact sum of x[0..n), truncated toward zero to WS_FP8_ACC_BITS significant bits: what the
 * H200's fp8 wgmma writes into an f32 accumulator. It reproduces every scalar the GPU wrote for
 * tests/data/wgmma/wgmma.cu:wgmma_e4m3 (1703 of 4096 differ from the rounded exact sum, all
 * four swizzle modes); a per-k16 truncation or a grid set by the largest product does not.
 * Doubles do not hold every fp8 sum exactly (e5m2 products span 2^-32 .. 2^32, C any f32), so
 * the sum is kept as Shewchuk's non-overlapping partials (the algorithm of Python's
 * math.fsum): s, the top partials added, is within one unit of its last place of the exact
 * value V, and the sign of V - s decides the one case that matters, s on the 14-bit grid. */
static double fp8_sum(const double *x, int n)
{
    double p[80];                                /* partials, increasing magnitude: a double sum needs < 40 */
    int np = 0;
    double plain = 0;
    for (int i = 0; i < n; i++) plain += x[i];
    if (plain - plain != 0) return plain;        /* an e5m2 infinity or NaN: IEEE's answer, no partials */
    for (int i = 0; i < n; i++) {
        double v = x[i];
        int k = 0;
        for (int j = 0; j < np; j++) {
            double y = p[j];
            if (fabs(v) < fabs(y)) { double t = v; v = y; y = t; }
            double hi = v + y, lo = y - (hi - v);
            if (lo != 0) p[k++] = lo;
            v = hi;
        }
        np = k;
        if (np < (int)(sizeof p / sizeof *p)) p[np++] = v;
    }
    if (!np) return 0;
    double s = p[--np], rest = 0;
    while (np > 0) {                             /* s + the next partials, until one does not fit */
        double y = p[--np], hi = s + y, lo = y - (hi - s);
        s = hi;
        if (lo != 0) { rest = lo; break; }       /* |lo| > the partials below it: the residual's sign */
    }
    double t = rz_bits(s);
    if (t == s && rest != 0 && (rest < 0) != (s < 0)) t = rz_bits(nextafter(s, 0));   /* V just inside s */
    return t;
}

static int mma_async(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    const ptx_tc *tc = &pi->tc;
    const ptx_function *fn = w->prog->fn;
    char txt[200];
    if (m != SIM_FULL) {
        ptx_format_insn(fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' executed by lanes 0x%08x only: every thread of the warpgroup "
                         "must execute it (.sync.aligned)", txt, m);
    }
    uint32_t g4 = w->index / 4, q = w->index % 4;
    if ((g4 + 1) * 4 > c->nwarps) {
        ptx_format_insn(fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' executed by warp %u, whose warpgroup (warps %u..%u) is "
                         "incomplete: the block has %u warps (a warpgroup is 4 consecutive warps; the block size must be "
                         "a multiple of 128 threads)", txt, w->index, g4 * 4, g4 * 4 + 3, c->nwarps);
    }
    int N = tc->n, K = tc->k, at = tc->atype, bt = tc->btype, dt = tc->dtype;
    bool ints = at == PTX_MT_S8 || at == PTX_MT_U8, fp8 = at == PTX_MT_E4M3 || at == PTX_MT_E5M2;
    double terms[1 + 32];                        /* C and the K products of one fp8 element (K = 32) */
    bool adesc = tc->flags & PTX_TC_WG_ADESC, ta = tc->flags & PTX_TC_WG_TNSP_A, tb = tc->flags & PTX_TC_WG_TNSP_B;
    wg_desc da = {0}, db;
    if (adesc && read_desc(c, w, in, 1, 'A', &da)) return -1;
    if (read_desc(c, w, in, 2, 'B', &db)) return -1;
    /* sources: A's 16 rows of this warp, all of B, C */
    double *A = malloc(sizeof(double) * 16 * (size_t)K), *B = malloc(sizeof(double) * (size_t)K * (size_t)N);
    double *C = malloc(sizeof(double) * 16 * (size_t)N);
    uint64_t *out = malloc(sizeof(uint64_t) * 32 * 128);
    int rc = -1;
    if (!A || !B || !C || !out) {
        sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "out of memory for wgmma");
        goto done;
    }
    ws_frag_form fa = {16, N, K, elem_bytes(at) * 8, dt == PTX_MT_F16 ? 16 : 32, false};
    if (adesc) {
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < K; k++)
                if (load_elem(c, w, in, &da, 'A', (int)q * 16 + i, k, at, ta, &A[i * K + k])) goto done;
    } else {                                     /* the A fragment: mma.m16n8kK's layout, 4 registers */
        int bits = elem_bytes(at) * 8, ne = ws_frag_elems(&fa, 'a');
        for (int l = 0; l < 32; l++)
            for (int e = 0; e < ne; e++) {
                ws_frag_pos p;
                ws_frag_where(&fa, 'a', l, e, &p);
                uint64_t v = w->file[sim_tc_elem(c, &pi->opnd[1], p.reg) + (uint32_t)l] >> p.shift & ((1ull << bits) - 1);
                uint8_t by[4];
                memcpy(by, &v, 4);                /* little-endian host: the low bytes */
                A[p.row * K + p.col] = elem_value(at, by);
            }
    }
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            if (load_elem(c, w, in, &db, 'B', n, k, bt, tb, &B[k * N + n])) goto done;
    if (tc->flags & PTX_TC_WG_NEG_A) for (int i = 0; i < 16 * K; i++) A[i] = -A[i];
    if (tc->flags & PTX_TC_WG_NEG_B) for (int i = 0; i < K * N; i++) B[i] = -B[i];
    /* scale-d: a predicate (or 0/1): D = A*B + D, or D = A*B */
    const ptx_operand *sd = &pi->opnd[3];
    const uint64_t *sv = w->file + in->src[3];
    bool scale_d = sd->kind == PTX_OPND_IMM ? sd->imm != 0 : (bool)((sv[0] & 1) ^ sd->neg);
    int nd = ws_frag_elems(&fa, 'c'), dbits = fa.c_bits;
    uint64_t emask = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < nd; e++) {
            ws_frag_pos p;
            ws_frag_where(&fa, 'c', l, e, &p);
            uint64_t v = scale_d ? w->file[wide_off(fn, &pi->opnd[0], p.reg) + (uint32_t)l] >> p.shift & emask : 0;
            C[p.row * N + p.col] = !scale_d ? 0 : ints ? (double)(int32_t)v : dt == PTX_MT_F16 ? sim_h2f((uint16_t)v) : sim_f32(v);
        }
    /* the shared bytes the descriptors read: A's rows of this warp, a quarter of B's chunks */
    uint32_t part = 0;
    if (adesc && emit_chunks(c, w, in, &da, at, ta, 64, (int)q * 32, 32, &part)) goto done;
    if (emit_chunks(c, w, in, &db, bt, tb, N, (int)q * N / 2, N / 2, &part)) goto done;
    /* D: every source is in A, B, C above */
    int nreg = ws_frag_regs(&fa, 'c');
    memset(out, 0, sizeof(uint64_t) * 32 * (size_t)nreg);
    for (int l = 0; l < 32; l++)
        for (int e = 0; e < nd; e++) {
            ws_frag_pos p;
            ws_frag_where(&fa, 'c', l, e, &p);
            int i = p.row, j = p.col;
            uint64_t bits;
            if (ints) {
                int64_t acc = (int64_t)C[i * N + j];
                for (int k = 0; k < K; k++) acc += (int64_t)A[i * K + k] * (int64_t)B[k * N + j];
                if (tc->flags & PTX_TC_SATFINITE) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                bits = (uint32_t)acc;            /* wraps without .satfinite */
            } else if (fp8 && dt == PTX_MT_F32) {
                terms[0] = C[i * N + j];
                for (int k = 0; k < K; k++) terms[1 + k] = A[i * K + k] * B[k * N + j];
                bits = sim_f32b((float)fp8_sum(terms, K + 1));
            } else {
                double acc = C[i * N + j];
                for (int k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
                bits = dt == PTX_MT_F16 ? sim_f2h(acc, PTX_RND_RN) : sim_f32b((float)acc);
            }
            out[p.reg * 32 + l] |= (bits & emask) << p.shift;
        }
    for (int r = 0; r < nreg; r++) {
        uint64_t *d = w->file + wide_off(fn, &pi->opnd[0], r);
        for (int l = 0; l < 32; l++) d[l] = out[r * 32 + l];
    }
    /* the registers stay the wgmma's until a wait covers its group */
    if (!w->depth) {
        struct sim_wg *g = wg_state(c, w);
        if (!g) {
            sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "out of memory tracking wgmma");
            goto done;
        }
        uint32_t pc = (uint32_t)(in - c->prog.insns);
        const ptx_operand *d = &pi->opnd[0];
        for (int r = 0; r < nreg; r++) hold(g, d->wide_n ? fn->wide[d->wide0 + r] : d->vec[r], pc);
        if (!adesc)
            for (int r = 0; r < pi->opnd[1].vec_n; r++) hold(g, pi->opnd[1].vec[r], pc);
        g->last = g->committed;
        g->any = true;
        update_busy(w);
    }
    rc = 0;
done:
    free(A);
    free(B);
    free(C);
    free(out);
    return rc;
}

int sim_exec_wgmma(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (pi->op == PTX_WGMMA_MMA) return mma_async(c, w, in, m);
    if (m != SIM_FULL) {
        char txt[120];
        ptx_format_insn(w->prog->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' executed by lanes 0x%08x only: every thread of the warpgroup "
                         "must execute it (.sync.aligned)", txt, m);
    }
    struct sim_wg *g = w->wg;
    switch (pi->op) {
    case PTX_WGMMA_FENCE:                        /* orders register accesses before later wgmmas: in order here */
        return 0;
    case PTX_WGMMA_COMMIT:                       /* the uncommitted wgmmas become one group (maybe empty) */
        if (g) g->committed++;
        break;
    default: {                                   /* wait_group N: all but the N most recent groups complete */
        if (!g) return 0;
        uint32_t nkeep = (uint32_t)pi->opnd[0].imm;
        uint32_t upto = g->committed > nkeep ? g->committed - nkeep : 0;
        if (upto > g->done) g->done = upto;
        break;
    }
    }
    update_busy(w);
    return 0;
}
