/* sample.c - block sampling: choosing the blocks, per-block counts by stratum, the scaled
 * estimates and their bounds (see sample.h). */
#include "sample.h"

#include "frontend/provenance.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKINDS 27 /* first / interior / last in each of three dimensions */

typedef enum { SP_MEASURE, SP_SAMPLE, SP_FULL } sp_state;

/* The L2 replay (sample.h): an access as the cache model's trace gives it, a reference block's
   accesses in order, and every sampled block's count and hash of them. */
typedef struct {
    uint64_t line;
    uint32_t bytes[4];    /* of the written sectors; 0 for the others */
    uint32_t pc;          /* the access's instruction (the L1 replay's hits by pc) */
    uint8_t rd, wr;       /* sectors read, written */
} sp_op;

typedef struct {
    uint64_t block;       /* UINT64_MAX: none */
    sp_op *ops;
    size_t n, cap;
} sp_seq;

typedef struct {
    uint64_t block;       /* block + 1; 0 = empty slot */
    uint64_t n, hash;     /* its accesses, and op_hash over them in order */
} sp_seen;

#define NREF 5 /* the template kind's first block, the blocks a step from it along each dimension, its last */

typedef struct {
    uint64_t n, s;        /* blocks of the stratum in the grid, and run */
    double *sum, *sumsq;  /* per counter */
    double l2[2], l2sq[2]; /* a block's L2 read hit and miss sectors (its pcs' sum): sum, sum of squares */
} stratum;

struct ws_sampler {
    ws_sample_mode mode;
    int waves_asked;                          /* --sample-waves; 0 = WS_SAMPLE_WAVES within the budget */
    sp_state state;
    const ws_launch *L;
    uint64_t g[3], nblocks, wave, lead, bound; /* bound: the first wave's end (min(wave, lead)) */
    uint64_t rep[NKINDS];                     /* each kind's representative beyond the lead, or UINT64_MAX */
    ws_memstats *ms;
    ws_sim_result *res;
    int ninsns;
    size_t nms, nv;                           /* memstats' words; the whole vector: 3 + ninsns + nms */
    uint64_t *prev, *cur;
    stratum st[2 * NKINDS];                   /* [kind * 2 + later] */
    uint64_t blocks_run, edge_run;
    double wave_l2[2][WS_SAMPLE_MAX_WAVES + 1]; /* later full waves: L2 hit and miss sectors */
    uint64_t block0_cost;                     /* block 0's thread-instructions (the plan's measure) */
    uint64_t budget;                          /* the lead's budget: WS_SAMPLE_BUDGET or the raised one */
    double factor;
    double hit_factor, miss_factor;           /* the L2 read hits' and misses' own (by stratum, per pc) */
    double l1_factor;                         /* the L1 load sectors' (hits and misses, by stratum, per pc) */
    bool scaled, exact;
    int single;                               /* kinds of edge block estimated from one block each */
    double exact_bound, cache_bound;
    double cache_se;                          /* the later blocks' 3 standard errors (< 0: none) */
    double later_assumed;                     /* the later L2 lookups from kinds pooled with the first wave */
    uint64_t later_blocks;                    /* the later blocks sampled in kinds of their own */
    char text[2048];
    /* the L2 replay (sample.h): the reference blocks' accesses, every sampled block's hash */
    sp_seq ref[NREF];
    int tkind;                                /* the template: the kind of most blocks (the interior one) */
    uint64_t tbase[3];                        /* its first block's coordinates */
    sp_seen *seen;                            /* open addressing, seen_cap a power of two */
    size_t seen_cap, seen_n;
    bool trace_bad;                           /* out of memory, or a reference block past WS_SAMPLE_REPLAY_BLOCK_OPS */
    void (*on_plan)(void *ctx, double drift_scale); /* ws_sampler_on_plan */
    void *plan_ctx;
};

static int dim_class(uint64_t i, uint64_t g) { return g == 1 || i == 0 ? 0 : i == g - 1 ? 2 : 1; }

static int kind_of(const ws_sampler *sp, uint64_t b)
{
    uint64_t x = b % sp->g[0], y = (b / sp->g[0]) % sp->g[1], z = b / (sp->g[0] * sp->g[1]);
    return dim_class(x, sp->g[0]) + 3 * dim_class(y, sp->g[1]) + 9 * dim_class(z, sp->g[2]);
}

static uint64_t class_count(int c, uint64_t g) { return c == 0 ? 1 : c == 2 ? (g >= 2) : g >= 3 ? g - 2 : 0; }

/* The last block of a kind in linear order (each coordinate at its largest), UINT64_MAX if none. */
static uint64_t last_of_kind(const ws_sampler *sp, int k)
{
    uint64_t idx[3];
    for (int d = 0, c = k; d < 3; d++, c /= 3) {
        if (!class_count(c % 3, sp->g[d])) return UINT64_MAX;
        idx[d] = c % 3 == 0 ? 0 : c % 3 == 2 ? sp->g[d] - 1 : sp->g[d] - 2;
    }
    return idx[0] + sp->g[0] * (idx[1] + sp->g[1] * idx[2]);
}

/* An atom/red that may reach global memory: .global, or generic and not proven to address shared
   memory (sh: ws_provenance_shared's flag for it; libcu++'s pipelines and barriers keep their
   counters in shared memory behind generic pointers). */
static bool global_atomic(const ptx_insn *in, uint8_t sh)
{
    return (in->op == PTX_ATOM || in->op == PTX_RED) &&
           (in->space == PTX_SPACE_GLOBAL || (in->space == PTX_SPACE_NONE && !sh));
}

/* fn's generic instructions proven shared (provenance.h), per pc; all 0 when out of memory (none
   proven: the atomics then count as global). Freed by the caller. */
static uint8_t *shared_flags(const ptx_function *fn)
{
    uint8_t *sh = calloc((size_t)(fn->ninsns > 0 ? fn->ninsns : 1), 1);
    if (sh && ws_provenance_shared(fn, sh) < 0) memset(sh, 0, (size_t)(fn->ninsns > 0 ? fn->ninsns : 1));
    return sh;
}

/* True when fn holds an atomic that may reach global memory (true when out of memory). */
static bool has_global_atomics(const ptx_function *fn)
{
    uint8_t *sh = shared_flags(fn);
    bool any = !sh;
    for (int i = 0; sh && i < fn->ninsns && !any; i++) any = global_atomic(&fn->insns[i], sh[i]);
    free(sh);
    return any;
}

/* True when a register slot operand o reads (a register, an address's base, a vector's) is in t. */
static bool any_slot(const ptx_operand *o, const bool *t)
{
    if (o->kind == PTX_OPND_REG) return t[o->reg];
    if (o->kind == PTX_OPND_MEM) return o->base_kind == PTX_OPND_REG && t[o->reg];
    if (o->kind == PTX_OPND_VEC)
        for (int k = 0; k < o->vec_n && k < PTX_VEC_MAX; k++)
            if (o->vec[k] >= 0 && t[o->vec[k]]) return true;
    return false;
}

static bool mark_slots(const ptx_operand *o, bool *t)
{
    bool changed = false;
    if (o->kind == PTX_OPND_REG && !t[o->reg]) changed = t[o->reg] = true;
    if (o->kind == PTX_OPND_VEC)
        for (int k = 0; k < o->vec_n && k < PTX_VEC_MAX; k++)
            if (o->vec[k] >= 0 && !t[o->vec[k]]) changed = t[o->vec[k]] = true;
    return changed;
}

bool ws_atom_result_steers(const ptx_function *fn)
{
    /* a flow-insensitive taint over register slots, seeded by every global atom's result:
       conservative (a slot once written from a result counts wherever it is read) */
    bool *t = calloc((size_t)(fn->nregs > 0 ? fn->nregs : 1), sizeof *t), any = false;
    uint8_t *sh = shared_flags(fn);
    if (!t || !sh) {
        free(t);
        free(sh);
        return true;
    }
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *in = &fn->insns[i];
        if (in->op == PTX_ATOM && global_atomic(in, sh[i]))
            for (int d = 0; d < in->ndst && d < in->nopnd; d++) any |= mark_slots(&in->opnd[d], t);
    }
    free(sh);
    for (bool changed = any; changed;) {
        changed = false;
        for (int i = 0; i < fn->ninsns; i++) {
            const ptx_insn *in = &fn->insns[i];
            bool read = in->guard >= 0 && t[in->guard];
            for (int k = in->ndst; k < in->nopnd && !read; k++) read = any_slot(&in->opnd[k], t);
            for (int d = 0; read && d < in->ndst && d < in->nopnd; d++) changed |= mark_slots(&in->opnd[d], t);
        }
    }
    bool steers = false;
    for (int i = 0; any && i < fn->ninsns && !steers; i++) {
        const ptx_insn *in = &fn->insns[i];
        steers = in->guard >= 0 && t[in->guard]; /* a branch, or any predicated instruction */
        for (int k = 0; k < in->nopnd && !steers; k++) {
            const ptx_operand *o = &in->opnd[k];
            steers = o->kind == PTX_OPND_MEM && any_slot(o, t); /* an address */
        }
        /* kept in memory a thread may read back (a spill, a call's argument): followed no further */
        if (!steers && (in->op == PTX_ST || in->op == PTX_ATOM || in->op == PTX_RED) &&
            (in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM))
            for (int k = 0; k < in->nopnd && !steers; k++) steers = any_slot(&in->opnd[k], t);
        if (!steers && in->op == PTX_CALL) steers = any; /* through a call: not followed */
    }
    free(t);
    return steers;
}

/* True when a function fn reaches through calls (a __noinline__ one; ptx_reachable) holds an atomic
   that may reach global memory: the same grid-wide totals (whether its result steers is not
   followed into calls). An indirect call may reach any function of m; out of memory: true. */
static bool callee_global_atomics(const ptx_module *m, const ptx_function *fn)
{
    if (!m || !m->nfuncs) return false;
    int *reach = malloc((size_t)m->nfuncs * sizeof *reach);
    if (!reach) return true;
    int n = ptx_reachable(m, fn, reach);
    bool indirect = false, any = false;
    for (int q = 0; q < n && !indirect; q++)
        for (int i = 0; i < m->funcs[reach[q]].ninsns && !indirect; i++) {
            const ptx_insn *in = &m->funcs[reach[q]].insns[i];
            indirect = in->op == PTX_CALL && in->nopnd > 1 && in->opnd[1].kind == PTX_OPND_REG;
        }
    if (indirect)
        for (n = 0; n < m->nfuncs; n++) reach[n] = n;
    for (int q = 0; q < n && !any; q++) any = &m->funcs[reach[q]] != fn && has_global_atomics(&m->funcs[reach[q]]);
    free(reach);
    return any;
}

const char *ws_sample_refusal(const ptx_module *m, const ptx_function *fn, const ws_launch *L)
{
    if (L->cooperative) return "a cooperative launch: its blocks wait for each other at grid.sync()";
    if ((uint64_t)(fn->cluster[0] ? fn->cluster[0] : 1) * (fn->cluster[1] ? fn->cluster[1] : 1) *
            (fn->cluster[2] ? fn->cluster[2] : 1) > 1 ||
        (uint64_t)(L->cluster[0] ? L->cluster[0] : 1) * (L->cluster[1] ? L->cluster[1] : 1) *
            (L->cluster[2] ? L->cluster[2] : 1) > 1)
        return "a cluster launch: the blocks of a cluster wait for each other and share their shared memory";
    if (!has_global_atomics(fn))
        return callee_global_atomics(m, fn)
                   ? "global atomics in a function it calls: the contention terms are the hottest address's and "
                     "slice's totals over the whole grid, which a sample does not scale to"
                   : NULL;
    /* an atom's result that steers a branch or an address makes a block's work depend on what
       other blocks left there (a ticket, a last-block-done counter); without one the blocks are
       independent, but the contention terms (sim/models/atomics.h) are the hottest address's and
       slice's totals over the whole grid, which a sample's per-block counts do not scale to */
    return ws_atom_result_steers(fn)
               ? "global atomics whose results steer a branch or an address: a block's work may depend on other "
                 "blocks"
               : "global atomics (their results steer no branch or address): the contention terms are the hottest "
                 "address's and slice's totals over the whole grid, which a sample does not scale to";
}

ws_sampler *ws_sampler_new(ws_sample_mode mode, const ws_launch *L, uint64_t wave, ws_memstats *ms,
                           ws_sim_result *res, int ninsns)
{
    ws_sampler *sp = calloc(1, sizeof *sp);
    if (!sp) return NULL;
    sp->mode = mode;
    sp->L = L;
    for (int d = 0; d < 3; d++) sp->g[d] = L->grid[d];
    sp->nblocks = sp->g[0] * sp->g[1] * sp->g[2];
    sp->wave = wave ? wave : 1;
    sp->ms = ms;
    sp->res = res;
    sp->ninsns = ninsns;
    sp->nms = ws_memstats_nflat(ms);
    sp->nv = 3 + (size_t)ninsns + sp->nms;
    sp->prev = calloc(sp->nv, sizeof *sp->prev);
    sp->cur = calloc(sp->nv, sizeof *sp->cur);
    bool ok = sp->prev && sp->cur;
    for (int i = 0; ok && i < 2 * NKINDS; i++) { /* only the kinds the grid has: 3 of 27 for a 1D grid */
        if (last_of_kind(sp, i / 2) == UINT64_MAX) continue;
        sp->st[i].sum = calloc(sp->nv, sizeof(double));
        sp->st[i].sumsq = calloc(sp->nv, sizeof(double));
        ok = sp->st[i].sum && sp->st[i].sumsq;
    }
    if (!ok) {
        ws_sampler_free(sp);
        return NULL;
    }
    /* the L2 replay's template kind: the one of most blocks (ties: the first), its first block in
       linear order, the blocks one step from it along each dimension it spans, its last block */
    uint64_t most = 0;
    for (int k = 0; k < NKINDS; k++) {
        uint64_t n = 1;
        for (int d = 0, c = k; d < 3; d++, c /= 3) n *= class_count(c % 3, sp->g[d]);
        if (n > most) most = n, sp->tkind = k;
    }
    for (int r = 0; r < NREF; r++) sp->ref[r].block = UINT64_MAX;
    uint64_t lin = 0, step = 1;
    for (int d = 0, c = sp->tkind; d < 3; d++, c /= 3) {
        sp->tbase[d] = c % 3 == 0 ? 0 : c % 3 == 1 ? 1 : sp->g[d] - 1;
        lin += sp->tbase[d] * step;
        step *= sp->g[d];
    }
    sp->ref[0].block = lin;
    for (int d = 0, c = sp->tkind; d < 3; d++, c /= 3)
        if (c % 3 == 1 && sp->g[d] >= 4) /* an interior it spans: coordinates 1 .. g - 2 */
            sp->ref[1 + d].block = lin + (d == 0 ? 1 : d == 1 ? sp->g[0] : sp->g[0] * sp->g[1]);
    if (last_of_kind(sp, sp->tkind) != lin) sp->ref[4].block = last_of_kind(sp, sp->tkind);
    uint64_t threads = sp->nblocks * ws_launch_threads_per_block(L);
    sp->state = mode == WS_SAMPLE_OFF || (mode == WS_SAMPLE_AUTO && threads <= WS_SAMPLE_AUTO_THREADS) ? SP_FULL
                                                                                                       : SP_MEASURE;
    sp->factor = 1.0;
    return sp;
}

void ws_sampler_free(ws_sampler *sp)
{
    if (!sp) return;
    free(sp->prev);
    free(sp->cur);
    for (int r = 0; r < NREF; r++) free(sp->ref[r].ops);
    free(sp->seen);
    for (int i = 0; i < 2 * NKINDS; i++) {
        free(sp->st[i].sum);
        free(sp->st[i].sumsq);
    }
    free(sp);
}

/* After block 0: its cost decides the lead blocks, whether AUTO samples at all, and the
   representatives of the kinds the lead leaves out. */
static void plan(ws_sampler *sp, uint64_t cost)
{
    uint64_t by_budget = cost ? WS_SAMPLE_BUDGET / cost : sp->nblocks;
    uint64_t lead = (sp->waves_asked ? (uint64_t)sp->waves_asked : WS_SAMPLE_WAVES) * sp->wave;
    sp->block0_cost = cost;
    /* a lead that would not pass the first wave by a part of a wave leaves the cache counters
       without later blocks to bound them: the raised budget then */
    if (by_budget < sp->wave + sp->wave / WS_SAMPLE_LATER_PART) {
        uint64_t raised = cost ? WS_SAMPLE_BUDGET_RAISED / cost : sp->nblocks;
        by_budget = raised > by_budget ? raised : by_budget;
        sp->budget = WS_SAMPLE_BUDGET_RAISED;
    } else
        sp->budget = WS_SAMPLE_BUDGET;
    if (!sp->waves_asked && by_budget < lead) lead = by_budget;
    if (lead < 1) lead = 1;
    if ((sp->mode == WS_SAMPLE_AUTO && (double)cost * (double)sp->nblocks <= (double)WS_SAMPLE_AUTO_THREAD_INSNS) ||
        lead >= sp->nblocks / 2) {             /* small enough, or sampling would save little */
        sp->state = SP_FULL;
        return;
    }
    sp->lead = lead;
    sp->bound = lead < sp->wave ? lead : sp->wave;
    for (int k = 0; k < NKINDS; k++) {
        uint64_t last = last_of_kind(sp, k);
        sp->rep[k] = last != UINT64_MAX && last >= lead ? last : UINT64_MAX;
    }
    sp->state = SP_SAMPLE;
    /* the lead's slot clocks span its waves (a wave at least), the grid's nblocks / wave of them */
    if (sp->on_plan) sp->on_plan(sp->plan_ctx, sqrt((double)sp->nblocks / (double)(lead > sp->wave ? lead : sp->wave)));
}

void ws_sampler_on_plan(ws_sampler *sp, void (*fn)(void *ctx, double drift_scale), void *ctx)
{
    sp->on_plan = fn;
    sp->plan_ctx = ctx;
}

/* The first block at or after b that runs: the lead blocks, then the kinds' representatives
   (at most 27 of them), so a grid of 2^31 blocks is not walked block by block. */
static uint64_t next_block(void *ctx, uint64_t b)
{
    ws_sampler *sp = ctx;
    if (sp->state != SP_SAMPLE || b < sp->lead) return b;
    uint64_t best = UINT64_MAX;
    for (int k = 0; k < NKINDS; k++)
        if (sp->rep[k] != UINT64_MAX && sp->rep[k] >= b && sp->rep[k] < best) best = sp->rep[k];
    return best;
}

/* How many blocks run in all: every one, or the lead and the representatives once planned. */
static uint64_t planned(void *ctx)
{
    const ws_sampler *sp = ctx;
    if (sp->state == SP_FULL) return sp->nblocks;
    if (sp->state == SP_MEASURE) return UINT64_MAX;
    uint64_t n = sp->lead;
    for (int k = 0; k < NKINDS; k++) n += sp->rep[k] != UINT64_MAX;
    return n;
}

static void on_sync(void *ctx, uint32_t linear, int kind, int src_line)
{
    (void)src_line;
    ws_sampler *sp = ctx;
    if (kind != WS_SYNC_BLOCK_END || sp->state == SP_FULL) return;
    const ws_sim_result *r = sp->res;
    sp->cur[0] = r->thread_insns;
    sp->cur[1] = r->warp_insns;
    sp->cur[2] = r->mem_events;
    if (r->pc_warp_count) memcpy(sp->cur + 3, r->pc_warp_count, (size_t)sp->ninsns * sizeof *sp->cur);
    ws_memstats_flat_get(sp->ms, sp->cur + 3 + sp->ninsns);
    if (sp->state == SP_MEASURE) plan(sp, sp->cur[0] - sp->prev[0]);
    if (sp->state == SP_FULL) return;
    uint64_t b = linear;
    bool later = b >= sp->bound;
    stratum *st = &sp->st[kind_of(sp, b) * 2 + later];
    st->s++;
    sp->blocks_run++;
    sp->edge_run += b >= sp->lead;
    /* the L2's sectors of a later full wave: their spread bounds the cache counters' */
    size_t base = 3 + (size_t)sp->ninsns + offsetof(ws_mem_totals, cache) / 8;
    size_t rw = (offsetof(ws_pc_stats, atom_passes) + 8 - offsetof(ws_pc_stats, executions)) / 8;
    size_t hit = (offsetof(ws_pc_stats, l2_hit_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t miss = (offsetof(ws_pc_stats, l2_miss_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    uint64_t w = b / sp->wave;
    bool in_wave = b < sp->lead && w >= 1 && (w + 1) * sp->wave <= sp->lead && w <= WS_SAMPLE_MAX_WAVES;
    double hm[2] = {0, 0}; /* this block's L2 read hit and miss sectors */
    for (size_t i = 0; i < sp->nv; i++) {
        double d = (double)(sp->cur[i] - sp->prev[i]);
        st->sum[i] += d;
        st->sumsq[i] += d * d;
        if (i >= base && i < base + ((size_t)sp->ninsns + 1) * rw) {
            size_t f = (i - base) % rw;
            if (f == hit) hm[0] += d;
            if (f == miss) hm[1] += d;
        }
    }
    for (int h = 0; h < 2; h++) {
        if (in_wave) sp->wave_l2[h][w] += hm[h];
        st->l2[h] += hm[h];
        st->l2sq[h] += hm[h] * hm[h];
    }
    uint64_t *t = sp->prev;
    sp->prev = sp->cur;
    sp->cur = t;
}

void ws_sampler_set_waves(ws_sampler *sp, int waves)
{
    if (waves < 1) return;
    sp->waves_asked = waves > WS_SAMPLE_MAX_WAVES ? WS_SAMPLE_MAX_WAVES : waves;
    sp->mode = WS_SAMPLE_ON;
    if (sp->state == SP_FULL) sp->state = SP_MEASURE;
}

void ws_sampler_attach(ws_sampler *sp, ws_sim_config *cfg)
{
    cfg->block_next = next_block;
    cfg->blocks_planned = planned;
    cfg->filter_ctx = sp;
    cfg->on_sync = on_sync;
    cfg->sync_ctx = sp;
}

bool ws_sampler_scale(ws_sampler *sp)
{
    if (sp->state != SP_SAMPLE) return false;
    /* the grid's blocks per stratum: the first wave's by counting, the rest by kind */
    uint64_t n_kind[NKINDS];
    for (int k = 0; k < NKINDS; k++) {
        n_kind[k] = 1;
        for (int d = 0, c = k; d < 3; d++, c /= 3) n_kind[k] *= class_count(c % 3, sp->g[d]);
        sp->st[2 * k].n = 0;
    }
    for (uint64_t b = 0; b < sp->bound; b++) sp->st[2 * kind_of(sp, b)].n++;
    double *est = calloc(sp->nv, sizeof *est), *var = calloc(sp->nv, sizeof *var);
    uint64_t *v = calloc(sp->nv, sizeof *v);
    if (!est || !var || !v) {
        free(est); free(var); free(v);
        return false;
    }
    sp->exact = true;
    int single = 0;       /* kinds estimated from one block */
    double single_l2 = 0; /* the L2 sectors estimated from them */
    double hm_est[2] = {0, 0}, hm_var[2] = {0, 0}; /* the L2 read hits and misses: estimate, its variance */
    double later_own = 0, later_assumed = 0;      /* the later blocks' hits + misses: from their own samples, or not */
    uint64_t later_blocks = 0;                    /* the later samples of the kinds split */
    size_t ntot0 = 3 + (size_t)sp->ninsns + offsetof(ws_mem_totals, cache) / 8;
    size_t rw0 = (offsetof(ws_pc_stats, atom_passes) + 8 - offsetof(ws_pc_stats, executions)) / 8;
    size_t l20 = (offsetof(ws_pc_stats, l2_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    for (int k = 0; k < NKINDS; k++) {
        stratum *f = &sp->st[2 * k], *l = &sp->st[2 * k + 1];
        l->n = n_kind[k] - f->n;
        stratum pooled = {n_kind[k], f->s + l->s, NULL, NULL, {0, 0}, {0, 0}};
        if (!pooled.n) continue;
        /* the later blocks by their own samples where there are two; else the kind's, pooled */
        bool split = l->s >= 2 || l->n == 0;
        for (int part = 0; part < (split ? 2 : 1); part++) {
            const stratum *s = split ? (part ? l : f) : &pooled;
            if (!s->n) continue;
            if (s->n > s->s && s->s == 1) single++;
            /* the L2 read hits' and misses' own variance (a block's pcs summed), and which later
               blocks it rests on: their own samples (split) or the first wave's beside them (pooled) */
            for (int h = 0; h < 2; h++) {
                double sum = split ? s->l2[h] : f->l2[h] + l->l2[h], sq = split ? s->l2sq[h] : f->l2sq[h] + l->l2sq[h];
                double mean = sum / (double)s->s, n = (double)s->n, later = split ? (part ? n : 0) : (double)l->n;
                hm_est[h] += n * mean;
                if (s->s >= 2 && s->n > s->s) {
                    double vv = (sq - (double)s->s * mean * mean) / (double)(s->s - 1);
                    if (vv > 0) hm_var[h] += n * n * vv / (double)s->s * (1.0 - (double)s->s / n);
                }
                if (split || s->s >= s->n) later_own += later * mean; /* a kind run whole is its own */
                else later_assumed += later * mean;
            }
            if (split && part) later_blocks += s->s;
            for (size_t i = 0; i < sp->nv; i++) {
                double sum = split ? s->sum[i] : f->sum[i] + l->sum[i];
                double sq = split ? s->sumsq[i] : f->sumsq[i] + l->sumsq[i];
                double mean = sum / (double)s->s, n = (double)s->n;
                est[i] += n * mean;
                if (s->n > s->s && s->s == 1 && i >= ntot0 && i < ntot0 + ((size_t)sp->ninsns + 1) * rw0 &&
                    (i - ntot0) % rw0 == l20)
                    single_l2 += n * mean;
                if (s->s >= 2) {
                    double vv = (sq - (double)s->s * mean * mean) / (double)(s->s - 1);
                    if (vv > 1e-9 * (mean * mean + 1)) {
                        var[i] += n * n * vv / (double)s->s * (1.0 - (double)s->s / n);
                        if (i < 3 + (size_t)sp->ninsns + offsetof(ws_mem_totals, cache) / 8) sp->exact = false;
                    }
                }
            }
        }
    }
    /* the exact counters' bound: 3 standard errors, worst over the instruction counts and the
       totals (a pc row's own bound can be larger; the totals are what the report reads) */
    sp->exact_bound = 0;
    size_t ntot = 3 + (size_t)sp->ninsns + offsetof(ws_mem_totals, cache) / 8;
    for (size_t i = 0; i < ntot; i++)
        if (i < 3 || i >= 3 + (size_t)sp->ninsns) {
            double b = est[i] > 0 ? 3 * sqrt(var[i]) / est[i] : 0;
            if (b > sp->exact_bound) sp->exact_bound = b;
        }
    double sampled_l2 = 0, est_l2 = 0, sampled_ti = 0, est_hm[2] = {0, 0}, sampled_hm[2] = {0, 0};
    double sampled_l1 = 0, est_l1 = 0;
    size_t rw = (offsetof(ws_pc_stats, atom_passes) + 8 - offsetof(ws_pc_stats, executions)) / 8;
    size_t l2 = (offsetof(ws_pc_stats, l2_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t l1h = (offsetof(ws_pc_stats, l1_hit_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t l1m = (offsetof(ws_pc_stats, l1_miss_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t l2h = (offsetof(ws_pc_stats, l2_hit_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    size_t l2m = (offsetof(ws_pc_stats, l2_miss_sectors) - offsetof(ws_pc_stats, executions)) / 8;
    for (size_t i = 0; i < sp->nv; i++) {
        v[i] = (uint64_t)llround(est[i]);
        if (i >= ntot && i < ntot + ((size_t)sp->ninsns + 1) * rw) {
            size_t fld = (i - ntot) % rw;
            if (fld == l2) {
                est_l2 += est[i];
                sampled_l2 += (double)sp->prev[i];
            }
            if (fld == l1h || fld == l1m) {
                est_l1 += est[i];
                sampled_l1 += (double)sp->prev[i];
            }
            for (int h = 0; h < 2; h++)
                if (fld == (h ? l2m : l2h)) {
                    est_hm[h] += est[i];
                    sampled_hm[h] += (double)sp->prev[i];
                }
        }
    }
    sampled_ti = (double)sp->prev[0];
    sp->factor = sampled_l2 > 0 ? est_l2 / sampled_l2 : sampled_ti > 0 ? est[0] / sampled_ti : 1.0;
    sp->l1_factor = sampled_l1 > 0 ? est_l1 / sampled_l1 : sp->factor;
    /* the misses scale by their own strata, not by the sectors': the first wave's cold misses of
       data the whole grid reuses are counted once (measured: a 2048x2048x512 tiled matmul from 3
       waves had 3.2x the full run's DRAM reads scaled by the sectors' factor; by stratum, 262144
       sectors, the full run's exactly) */
    sp->hit_factor = sampled_hm[0] > 0 ? est_hm[0] / sampled_hm[0] : sp->factor;
    sp->miss_factor = sampled_hm[1] > 0 ? est_hm[1] / sampled_hm[1] : sp->factor;
    /* the cache counters: the spread of the later full waves' L2 hit and miss sectors */
    sp->cache_bound = -1;
    int nw = 0;
    for (uint64_t w = 1; w <= WS_SAMPLE_MAX_WAVES && (w + 1) * sp->wave <= sp->lead; w++) nw++;
    if (nw >= 2)
        for (int f = 0; f < 2; f++) {
            double lo = INFINITY, hi = 0, mean = 0;
            for (int w = 1; w <= nw; w++) {
                double x = sp->wave_l2[f][w];
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
                mean += x / nw;
            }
            double b = mean > 0 ? (hi - lo) / mean : 0;
            if (b > sp->cache_bound) sp->cache_bound = b;
        }
    /* fewer than two later whole waves: 3 standard errors of the later blocks' per-block spread
       (the first wave ran whole, counted once; finite-population corrected), where the kinds split
       (later blocks of their own, two at least) hold WS_SAMPLE_OWN_SHARE of the later blocks' L2
       lookups at least; the pooled rest is assumed alike and its share said */
    sp->cache_se = -1;
    double later_l2 = later_own + later_assumed;
    sp->later_assumed = later_l2 > 0 ? later_assumed / later_l2 : 0;
    sp->later_blocks = later_blocks;
    if (later_blocks >= 2 && later_l2 > 0 && later_own >= WS_SAMPLE_OWN_SHARE * later_l2) {
        sp->cache_se = 0;
        for (int h = 0; h < 2; h++) {
            double b = hm_est[h] > 0 ? 3 * sqrt(hm_var[h]) / hm_est[h] : 0;
            if (b > sp->cache_se) sp->cache_se = b;
        }
    }
    if (nw < 2 && sp->cache_se >= 0) sp->cache_bound = sp->cache_se;
    ws_sim_result *r = sp->res;
    r->thread_insns = v[0];
    r->warp_insns = v[1];
    r->mem_events = v[2];
    if (r->pc_warp_count) memcpy(r->pc_warp_count, v + 3, (size_t)sp->ninsns * sizeof *v);
    ws_memstats_flat_set(sp->ms, v + 3 + sp->ninsns);
    ws_memstats_spread_sms(sp->ms);
    free(est); free(var); free(v);
    sp->scaled = true;
    sp->single = single;

    char ex[160], ca[480];
    if (sp->exact && !single)
        snprintf(ex, sizeof ex, "exact counters exact (every sampled block of a kind ran the same counts)");
    else if (sp->exact)
        snprintf(ex, sizeof ex, "exact counters estimated (%d kind%s of edge block taken from one block each, "
                 "assumed alike)", single, single == 1 ? "" : "s");
    else
        snprintf(ex, sizeof ex, "exact counters estimated within %.2f%% (3 standard errors of the per-block spread)%s",
                 100 * sp->exact_bound, single ? "; some edge kinds from one block each" : "");
    if (sp->cache_bound >= 0 && nw < 2) {
        snprintf(ca, sizeof ca, "cache counters within %.1f%% (L2 read hits and DRAM read misses: 3 standard errors of "
                 "%llu later blocks' spread, the first wave counted once; fewer than 2 later whole waves for a "
                 "wave-to-wave spread)", 100 * sp->cache_bound, (unsigned long long)sp->later_blocks);
        if (sp->later_assumed > 0) {
            size_t k = strlen(ca);
            snprintf(ca + k, sizeof ca - k, "; %.1f%% of the later blocks' L2 lookups from kinds without 2 later "
                     "samples (pooled with the first wave), assumed alike", 100 * sp->later_assumed);
        }
    } else if (sp->cache_bound >= 0) {
        snprintf(ca, sizeof ca, "cache counters within %.1f%% (wave-to-wave spread of %d waves)", 100 * sp->cache_bound, nw);
        if (est_l2 > 0 && single_l2 > 0) { /* what the spread does not see: edge kinds taken from one block */
            size_t k = strlen(ca);
            snprintf(ca + k, sizeof ca - k, "; %.1f%% of the L2 sectors from edge kinds of one block each, assumed alike",
                     100 * single_l2 / est_l2);
        }
    } else {
        /* no wave-to-wave spread to bound them (the misses are stratified, see above, but a partial
           wave's stream need not be a whole one's); the trade-off stated: what the bound would cost,
           as a multiple of this run (its time scales so) */
        double need = (double)WS_SAMPLE_WAVES * (double)sp->wave * (double)sp->block0_cost;
        snprintf(ca, sizeof ca, "cache counters unbounded (neither 2 whole waves after the first nor later blocks "
                 "beside the whole first wave: %llu lead blocks, %.2f waves, the budget of %.0f M thread-instructions at "
                 "%.1f M per block): "
                 "%d whole waves would be %.3g thread-instructions, %.0fx this sample (--sample-waves %d), "
                 "or --full for the L2/DRAM numbers",
                 (unsigned long long)sp->lead, (double)sp->lead / (double)sp->wave, (double)sp->budget / 1e6,
                 (double)sp->block0_cost / 1e6, WS_SAMPLE_WAVES, need,
                 sampled_ti > 0 ? need / sampled_ti : 0.0, WS_SAMPLE_WAVES);
    }
    double waves = (double)sp->lead / (double)sp->wave;
    snprintf(sp->text, sizeof sp->text, "sampled: %llu of %llu blocks (%.*f waves + %llu edge blocks); counters scaled; %s; %s",
             (unsigned long long)sp->blocks_run, (unsigned long long)sp->nblocks, waves == floor(waves) ? 0 : 2, waves,
             (unsigned long long)sp->edge_run, ex, ca);
    return true;
}

/* Appends to the report's line (sp->text), cut at its size. */
static void __attribute__((format(printf, 2, 3))) text_add(ws_sampler *sp, const char *fmt, ...)
{
    size_t k = strlen(sp->text);
    if (k + 1 >= sizeof sp->text) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sp->text + k, sizeof sp->text - k, fmt, ap);
    va_end(ap);
}

/* ---- The L2 replay (sample.h) ---- */

/* Folds one access into a block's hash: order matters (the L2's LRU sees the order). */
static uint64_t op_hash(uint64_t h, uint64_t line, uint8_t rd, uint8_t wr, const uint32_t bytes[4])
{
    uint64_t x = line ^ ((uint64_t)rd << 56 | (uint64_t)wr << 48);
    for (int s = 0; s < 4; s++) {
        x = (x ^ bytes[s]) * 0xff51afd7ed558ccdull;
        x ^= x >> 33;
    }
    return (h ^ x) * 0x9E3779B97F4A7C15ull + 0x632be59bd9b4e019ull;
}

static size_t seen_home(uint64_t block, size_t cap) { return (size_t)((block * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1); }

/* The block's entry, or NULL. */
static sp_seen *seen_find(const ws_sampler *sp, uint64_t block)
{
    if (!sp->seen_cap) return NULL;
    for (size_t i = seen_home(block, sp->seen_cap);; i = (i + 1) & (sp->seen_cap - 1)) {
        if (sp->seen[i].block == block + 1) return &sp->seen[i];
        if (!sp->seen[i].block) return NULL;
    }
}

/* The block's entry, made when absent; NULL out of memory. */
static sp_seen *seen_get(ws_sampler *sp, uint64_t block)
{
    sp_seen *e = seen_find(sp, block);
    if (e) return e;
    if (2 * (sp->seen_n + 1) > sp->seen_cap) { /* at most half full */
        size_t cap = sp->seen_cap ? 2 * sp->seen_cap : 1024;
        sp_seen *t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (size_t i = 0; i < sp->seen_cap; i++)
            if (sp->seen[i].block) {
                size_t j = seen_home(sp->seen[i].block - 1, cap);
                while (t[j].block) j = (j + 1) & (cap - 1);
                t[j] = sp->seen[i];
            }
        free(sp->seen);
        sp->seen = t;
        sp->seen_cap = cap;
    }
    size_t i = seen_home(block, sp->seen_cap);
    while (sp->seen[i].block) i = (i + 1) & (sp->seen_cap - 1);
    sp->seen[i].block = block + 1;
    sp->seen_n++;
    return &sp->seen[i];
}


void ws_sampler_trace(void *ctx, uint32_t block_linear, uint32_t pc, uint64_t line, uint8_t rd, uint8_t wr,
                      const uint32_t bytes[4])
{
    ws_sampler *sp = ctx;
    if (sp->state == SP_FULL || sp->trace_bad) return;
    sp_seen *e = seen_get(sp, block_linear);
    if (!e) {
        sp->trace_bad = true;
        return;
    }
    e->n++;
    e->hash = op_hash(e->hash, line, rd, wr, bytes);
    for (int r = 0; r < NREF; r++) {
        sp_seq *q = &sp->ref[r];
        if (q->block != block_linear) continue;
        if (q->n == q->cap) {
            size_t cap = q->cap ? 2 * q->cap : 256;
            sp_op *t = cap <= WS_SAMPLE_REPLAY_BLOCK_OPS ? realloc(q->ops, cap * sizeof *t) : NULL;
            if (!t) {
                sp->trace_bad = true;
                return;
            }
            q->ops = t;
            q->cap = cap;
        }
        sp_op *o = &q->ops[q->n++];
        o->line = line;
        o->pc = pc;
        o->rd = rd;
        o->wr = wr;
        memcpy(o->bytes, bytes, sizeof o->bytes);
    }
}

/* The block's coordinates. */
static void block_xyz(const ws_sampler *sp, uint64_t b, uint64_t c[3])
{
    c[0] = b % sp->g[0];
    c[1] = b / sp->g[0] % sp->g[1];
    c[2] = b / (sp->g[0] * sp->g[1]);
}

/* The line of access i of the block at c under the fit (modulo 2^64, as the fit's differences). */
static uint64_t fit_line(const ws_sampler *sp, const sp_seq *base, const uint64_t *stride, size_t i, const uint64_t c[3])
{
    uint64_t l = base->ops[i].line;
    for (int d = 0; d < 3; d++) l += stride[3 * i + (size_t)d] * (c[d] - sp->tbase[d]);
    return l;
}

/* Solves access i's stride along d from block q (coordinates cq) whose other strides are known. */
static bool fit_one(const ws_sampler *sp, const sp_seq *base, const sp_seq *q, const uint64_t cq[3], int d,
                    uint64_t *stride)
{
    for (size_t i = 0; i < base->n; i++) {
        const sp_op *a = &base->ops[i], *b = &q->ops[i];
        uint64_t diff = b->line - a->line;
        for (int e = 0; e < 3; e++)
            if (e != d) diff -= stride[3 * i + (size_t)e] * (cq[e] - sp->tbase[e]);
        int64_t k = (int64_t)(cq[d] - sp->tbase[d]), sd = (int64_t)diff;
        if (a->rd != b->rd || a->wr != b->wr || memcmp(a->bytes, b->bytes, sizeof a->bytes) || !k || sd % k) return false;
        stride[3 * i + (size_t)d] = (uint64_t)(sd / k);
    }
    return true;
}

/* The fit (sample.h): each template access's strides along the block's coordinates (3 per access,
   calloc'd), NULL where the blocks' lines do not fit (why: a phrase for the report). *checked: the
   sampled blocks the fit predicted, *approx: the share of the grid's blocks of kinds whose sampled
   accesses the fit does not predict (replayed as the template's). */
static uint64_t *fit_lines(const ws_sampler *sp, const char **why, uint64_t *checked, double *approx)
{
    const sp_seq *base = &sp->ref[0];
    *checked = 0;
    *approx = 0;
    if (sp->trace_bad) {
        *why = "out of memory, or a block of more accesses than kept";
        return NULL;
    }
    size_t n = base->n;
    if (!seen_find(sp, base->block) || !n) {
        *why = !n && seen_find(sp, base->block) ? "the interior blocks made no global access"
                                                 : "the interior kind's first block was not sampled";
        return NULL;
    }
    uint64_t *stride = calloc(3 * n, sizeof *stride);
    if (!stride) {
        *why = "out of memory";
        return NULL;
    }
    /* the strides along the dimensions the template kind spans: from the block a step away where it
       ran, the one left (at most) from the kind's last block */
    int left = -1, nleft = 0;
    for (int d = 0, c = sp->tkind; d < 3 && !*why; d++, c /= 3) {
        if (c % 3 != 1 || sp->g[d] < 4) continue;
        const sp_seq *q = &sp->ref[1 + d];
        uint64_t cq[3];
        block_xyz(sp, q->block, cq);
        if (!seen_find(sp, q->block)) left = d, nleft++;
        else if (q->n != n || !fit_one(sp, base, q, cq, d, stride))
            *why = "the blocks' lines are not affine in their coordinates";
    }
    if (!*why && nleft > 1) *why = "too few blocks of the interior kind sampled to fit its lines";
    if (!*why && nleft == 1) {
        const sp_seq *q = &sp->ref[4];
        uint64_t cq[3];
        block_xyz(sp, q->block, cq);
        if (q->block == UINT64_MAX || !seen_find(sp, q->block) || q->n != n || !fit_one(sp, base, q, cq, left, stride))
            *why = "the blocks' lines are not affine in their coordinates";
    }
    /* every block sampled: the template kind's must be predicted; the other kinds' are, or are
       replayed as the template's (their share of the grid said, at most 1 - WS_SAMPLE_REPLAY_FIT_SHARE) */
    bool kind_off[NKINDS] = {false};
    for (size_t e = 0; e < sp->seen_cap && !*why; e++) {
        const sp_seen *s = &sp->seen[e];
        if (!s->block) continue;
        uint64_t c[3], h = 0;
        block_xyz(sp, s->block - 1, c);
        for (size_t i = 0; i < n && s->n == n; i++) {
            const sp_op *o = &base->ops[i];
            h = op_hash(h, fit_line(sp, base, stride, i, c), o->rd, o->wr, o->bytes);
        }
        int k = kind_of(sp, s->block - 1);
        if (s->n == n && h == s->hash) (*checked)++;
        else if (k == sp->tkind) *why = "the blocks' lines are not affine in their coordinates";
        else kind_off[k] = true;
    }
    for (int k = 0; k < NKINDS && !*why; k++)
        if (kind_off[k]) {
            double nk = 1;
            for (int d = 0, c = k; d < 3; d++, c /= 3) nk *= (double)class_count(c % 3, sp->g[d]);
            *approx += nk / (double)sp->nblocks;
        }
    if (!*why && *approx > 1 - WS_SAMPLE_REPLAY_FIT_SHARE)
        *why = "the edge blocks' accesses differ from the interior's, and they are too many to replay as the interior's";
    if (*why) {
        free(stride);
        return NULL;
    }
    return stride;
}

/* cc for a replay's cache of one SM, alone: no read coalescing, no far side (whose copies hold no
   dirty data), no fill window, no DRAM row model, no block placement. */
static ws_cache_config replay_config(const ws_cache_config *cc)
{
    ws_cache_config rc = *cc;
    rc.sm_count = 1;
    rc.read_coalescing = 0;
    rc.l2_far_lookups = 0;
    rc.fill_window = 0;
    rc.dram_row_bytes = rc.dram_banks = 0;
    rc.placement = NULL;
    return rc;
}

/* The bytes the grid's stream leaves dirty in an L2 of cc's geometry, from the replay of its last
   blocks' accesses under the fit (stride); -1 out of memory (why). *from: the first block
   replayed; *rt: the replay's totals (its partial writes' ECC reads among them). */
static double replay_dirty(const ws_sampler *sp, const ws_cache_config *cc, const uint64_t *stride, const char **why,
                           uint64_t *from, ws_cache_totals *rt)
{
    const sp_seq *base = &sp->ref[0];
    size_t n = base->n;
    /* an L2 of the model's geometry, dirty limit and partial-write limits, and no L1 */
    ws_cache_config rc = replay_config(cc);
    rc.l1_bytes = 0;
    double need = (double)WS_SAMPLE_REPLAY_TURNS * (double)(ws_cache_l2_lru_bytes(cc->l2_bytes, cc->l2_partitions) / 128);
    uint64_t most = WS_SAMPLE_REPLAY_OPS / n > 0 ? WS_SAMPLE_REPLAY_OPS / n : 1; /* blocks */
    if (most > sp->nblocks) most = sp->nblocks;
    /* a first tail of as many accesses as the allocations wanted (each allocates at most once) */
    uint64_t blocks = (uint64_t)ceil(need / (double)n);
    if (blocks < 1) blocks = 1;
    double dirty = -1;
    for (;;) {
        if (blocks > most) blocks = most;
        ws_cache *l2 = ws_cache_new(&rc);
        if (!l2) {
            *why = "out of memory";
            break;
        }
        *from = sp->nblocks - blocks;
        double allocated = 0;
        for (uint64_t b = *from; b < sp->nblocks; b++) {
            uint64_t c[3];
            block_xyz(sp, b, c);
            for (size_t i = 0; i < n; i++) {
                const sp_op *o = &base->ops[i];
                allocated += ws_cache_replay(l2, fit_line(sp, base, stride, i, c), o->rd, o->wr, o->bytes);
            }
        }
        ws_cache_finish(l2);
        *rt = *ws_cache_get_totals(l2);
        dirty = (double)rt->dirty_at_end_bytes;
        ws_cache_free(l2);
        if (allocated >= need || blocks == most) break;
        /* longer, at the allocations per block this tail showed (a tenth more), twice at least */
        double more = allocated > 0 ? 1.1 * need / allocated : 2;
        blocks = (uint64_t)ceil((double)blocks * (more > 2 ? more : 2));
    }
    return dirty;
}

/* The L1-allocating loads' sectors that hit in L1 over the whole grid, from the replay of SMs'
   block streams under the fit (stride) through an L1 of cc's geometry each; -1 where there is
   none. Block b runs on SM b mod the SMs, after that SM's earlier blocks (sim/models/models.c):
   its L1 keeps what they loaded, which a sample of the first waves never sees where the reuse
   is further apart (a 126-block-wide grid on 132 SMs: an SM's blocks share B's columns 21 blocks
   apart). As many SMs as WS_SAMPLE_REPLAY_L1_OPS accesses allow (evenly spread; each its first
   blocks where one SM's are more), the hits scaled by the grid's blocks over those replayed.
   *nsm: the SMs replayed; hits[pc] and lines[pc] (ninsns each, zeroed by the caller): the hit sectors
   and the (access, line)s all of whose sectors hit, by pc, for the grid. */
static double replay_l1(const ws_sampler *sp, const ws_cache_config *cc, const uint64_t *stride, uint64_t *nsm,
                        double *hits, double *lines)
{
    const sp_seq *base = &sp->ref[0];
    size_t n = base->n;
    uint64_t sms = cc->sm_count > 0 ? (uint64_t)cc->sm_count : 1;
    if (!cc->l1_bytes || !n) return -1;
    ws_cache_config rc = replay_config(cc);
    rc.l2_bytes = 0;
    rc.l2_partial_lines = rc.l2_partial_writeback_lines = 0;
    uint64_t per_sm = (sp->nblocks + sms - 1) / sms;
    uint64_t blocks = WS_SAMPLE_REPLAY_L1_OPS / n > 0 ? WS_SAMPLE_REPLAY_L1_OPS / n : 1; /* blocks replayed at most */
    uint64_t k = blocks / per_sm;
    k = k < 1 ? 1 : k > sms ? sms : k;
    uint64_t each = per_sm < blocks ? per_sm : blocks;
    double all = 0, ran = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t sm = i * sms / k;
        ws_cache *l1 = ws_cache_new(&rc);
        if (!l1) return -1;
        for (uint64_t j = 0, b = sm; j < each && b < sp->nblocks; j++, b += sms) {
            uint64_t c[3];
            block_xyz(sp, b, c);
            for (size_t a = 0; a < n; a++) {
                const sp_op *o = &base->ops[a];
                int h = ws_cache_replay_l1(l1, fit_line(sp, base, stride, a, c), o->rd, o->wr);
                all += h;
                if (o->pc < (uint32_t)sp->ninsns) {
                    hits[o->pc] += h;
                    lines[o->pc] += h && h == __builtin_popcount(o->rd >> 4);
                }
            }
            ran++;
        }
        ws_cache_free(l1);
    }
    *nsm = k;
    if (ran <= 0) return -1;
    for (int pc = 0; pc < sp->ninsns; pc++) {
        hits[pc] *= (double)sp->nblocks / ran;
        lines[pc] *= (double)sp->nblocks / ran;
    }
    return all * (double)sp->nblocks / ran;
}

void ws_sampler_scale_cache(ws_sampler *sp, ws_cache_totals *c, const ws_cache_config *cc)
{
    uint64_t l2_bytes = ws_cache_l2_lru_bytes(cc->l2_bytes, cc->l2_partitions), dirty_limit = cc->l2_dirty_limit;
    uint64_t partial_lines_limit = cc->ecc ? cc->l2_partial_lines : 0;
    _Static_assert(sizeof(ws_cache_totals) % sizeof(uint64_t) == 0, "ws_cache_totals: uint64_t counts");
    if (!sp || !sp->scaled) return;
    double f = sp->factor, fh = sp->hit_factor, fm = sp->miss_factor;
    /* with read coalescing (cache.h): an edge block run alone sends L2 the reads the blocks of its
       coalescer group would have sent once with it, so the L2 sectors' estimate by stratum
       overstates the grid's; its L1 lookups are its own whoever runs beside it: the totals scale
       as those (a tiled matmul of 0.05 waves had 1.5x the grid's L1 misses and L2 writes by the
       L2's factor), and the read hits are what the scaled reads leave beside the requested
       sectors that missed (those scale as the misses) */
    bool coalescing = c->coalesced_sectors > 0;
    uint64_t sect0 = c->l2_read_sectors;
    if (coalescing) f = sp->l1_factor;
    /* the read misses' fills and the DRAM accesses they make: the misses' factor (see ws_sampler_scale) */
    double fill = (double)c->dram_fill_bytes, other_dram = (double)c->dram_read_bytes - fill + (double)c->dram_write_bytes;
    double dram_f = fill + other_dram > 0 ? (fm * fill + f * other_dram) / (fill + other_dram) : f;
    uint64_t hit0 = c->l2_read_hit_sectors, miss0 = c->l2_read_miss_sectors;
    /* far-partition misses (cache.h "Far lookups"): a line's first lookup on each side, counted once
       as the cold misses are, so they scale by the misses' factor too; that factor comes from the
       per-PC misses that fetched from DRAM (memstats.c leaves the far ones out), which the fills follow */
    uint64_t far0 = c->l2_far_miss_sectors, dmiss0 = miss0 > far0 ? miss0 - far0 : 0;
    /* every byte written ends written back or dirty: that sum scales; the dirty share of the
       allocated lines stays the sampled stream's, in an L2 that fills up */
    double dirty_all = f * (double)(c->dram_write_bytes + c->dirty_at_end_bytes);
    /* the lines the read misses allocated (misses/4: a miss is promoted to whole 128-B lines where
       the whole line is fetched) scale as the misses, the rest (written lines) as the sectors */
    double alloc_rd = fmin((double)c->l2_cold_allocations, (double)dmiss0 / 4.0);
    double alloc = fm * alloc_rd + f * ((double)c->l2_cold_allocations - alloc_rd), lines = (double)l2_bytes / 128.0;
    double dirty_share = c->l2_cold_allocations ? (double)c->dirty_at_end_bytes / (128.0 * (double)c->l2_cold_allocations)
                                                : 0;
    /* ECC reads completing partly written lines: only those beyond the newest partial_lines_limit
       are read, so they do not scale with the grid (cache.h "Partial writes") */
    double plines = (double)c->partial_lines, pfill = (double)c->partial_fill_bytes;
    double per_line = plines > 0 ? (pfill + (double)c->partial_pending_bytes) / plines : 0;
    uint64_t *w = (uint64_t *)(void *)c;
    for (size_t i = 0; i < sizeof *c / sizeof *w; i++) w[i] = (uint64_t)llround((double)w[i] * f);
    c->l2_cold_allocations = (uint64_t)llround(alloc);
    c->l2_read_hit_sectors = (uint64_t)llround((double)hit0 * fh);
    if (coalescing && sp->cache_bound >= 0) { /* the lead's drift is a model of the grid's, not sampled */
        text_add(sp, "; read coalescing's drift scaled to the grid's, not bounded");
    }
    if (coalescing) {
        double asked_missed = sect0 > hit0 ? (double)(sect0 - hit0) * fm : 0; /* requested sectors that missed */
        double h = (double)c->l2_read_sectors - asked_missed;
        c->l2_read_hit_sectors = (uint64_t)llround(h > 0 ? h : 0);
    }
    c->l2_far_miss_sectors = (uint64_t)llround((double)far0 * fm);
    c->l2_read_miss_sectors = (uint64_t)llround((double)miss0 * fm);
    c->dram_fill_bytes = (uint64_t)llround(fill * fm);
    c->dram_read_bytes = c->dram_fill_bytes + c->ecc_read_bytes;
    uint64_t *da[] = {&c->dram_access_bytes, &c->dram_short_bytes, &c->dram_accesses, &c->dram_row_opens};
    for (size_t i = 0; i < sizeof da / sizeof da[0]; i++) *da[i] = (uint64_t)llround((double)*da[i] / f * dram_f);
    /* the replays of the grid's stream under the fit of the sampled blocks' lines (sample.h) */
    const char *why = NULL;
    uint64_t from = 0, checked = 0, l1_sms = 0;
    double approx = 0, replayed = -1;
    ws_cache_totals rt;
    memset(&rt, 0, sizeof rt);
    uint64_t *stride = fit_lines(sp, &why, &checked, &approx);
    if (stride && dirty_all > 0) replayed = replay_dirty(sp, cc, stride, &why, &from, &rt);
    /* L1 hits: the SMs' streams replayed, where the sample has no local loads (the trace does not
       tell them from global ones) */
    double *pc_hits = calloc(2 * (size_t)(sp->ninsns > 0 ? sp->ninsns : 1), sizeof *pc_hits), *pc_lines = pc_hits + sp->ninsns;
    double l1_hits = stride && pc_hits && !c->l1_local_ld_hit && !c->l1_local_ld_miss
                         ? replay_l1(sp, cc, stride, &l1_sms, pc_hits, pc_lines) : -1;
    free(stride);
    if (partial_lines_limit && plines > 0 && replayed >= 0) {
        /* the ECC reads of the lines still partly written when they leave the newest limit: the
           replay's, of the grid's stream (a sampled block's neighbour that completes its partial
           sectors did not run: the sample's pending bytes per line overstate the grid's 33x for a
           4100^2 transpose); where it replayed a tail, its reads per line that left the limit
           times the grid's lines beyond it, at the tail's partial lines per block */
        double rblocks = (double)(sp->nblocks - from), glines = (double)rt.partial_lines * (double)sp->nblocks / rblocks;
        double left = (double)rt.partial_lines - (double)partial_lines_limit;
        double fill = !from ? (double)rt.partial_fill_bytes
                    : left > 0 ? (double)rt.partial_fill_bytes / left * fmax(0, glines - (double)partial_lines_limit)
                               : 0;
        double d = fill - f * pfill;
        c->partial_lines = (uint64_t)llround(glines);
        c->partial_fill_bytes = (uint64_t)llround(fill);
        c->ecc_read_bytes = (uint64_t)llround(fmax(0, (double)c->ecc_read_bytes + d));
        c->dram_read_bytes = (uint64_t)llround(fmax(0, (double)c->dram_read_bytes + d));
        c->partial_pending_bytes = rt.partial_pending_bytes;
    } else if (partial_lines_limit && plines > 0) {
        double beyond = f * plines - (double)partial_lines_limit;
        double fill = beyond > 0 ? beyond * per_line : 0, scaled = f * pfill;
        double d = fill - scaled; /* the scaled reads replaced by the estimate (in ECC and DRAM reads) */
        c->partial_fill_bytes = (uint64_t)llround(fill);
        c->ecc_read_bytes = (uint64_t)llround(fmax(0, (double)c->ecc_read_bytes + d));
        c->dram_read_bytes = (uint64_t)llround(fmax(0, (double)c->dram_read_bytes + d));
        double pend = f * plines * per_line - fill;
        c->partial_pending_bytes = (uint64_t)llround(pend > 0 ? pend : 0);
    }
    if (l2_bytes && alloc > lines) c->l2_cold_allocations = (uint64_t)llround(lines);
    /* the split of the written bytes: the replay's end state where the blocks' lines fit; else the
       sampled stream's dirty share of an L2 that fills up */
    if (l1_hits >= 0) {
        /* the global loads' sectors are the sample's scaled (each block's own); the replay's hits
           among them, the rest misses. The sectors a pc's hits gain (or lose) left it, in the
           sample, as that pc's misses did: the share its L2 sectors are of its misses went to L2
           (hits there: the SM loaded those lines before), the rest merged (into an outstanding
           miss, or coalesced with another SM's request); one L2 request per (access, line) the
           replay found whole in L1 (a 4010^2 x 32 matmul's B rows straddle lines its neighbours
           share, and those coalesce; a 3990 x 3840 one's are aligned: all went to L2) */
        double ld = (double)(c->l1_global_ld_hit + c->l1_global_ld_miss), hit = fmin(l1_hits, ld);
        double dl2 = 0, dmerged = 0, dreq = 0;
        for (int pc = 0; pc < sp->ninsns; pc++) {
            const ws_pc_stats *row = ws_memstats_pc(sp->ms, pc);
            if (!row || (!pc_hits[pc] && !row->l1_hit_sectors)) continue;
            double dh = pc_hits[pc] - (double)row->l1_hit_sectors;
            double r = row->l1_miss_sectors ? fmin(1, (double)row->l2_sectors / (double)row->l1_miss_sectors) : 1;
            dl2 += dh * r;
            dmerged += dh * (1 - r);
            dreq += pc_hits[pc] > 0 ? dh * r * pc_lines[pc] / pc_hits[pc] : 0;
        }
        double coal = c->merged_sectors ? (double)c->coalesced_sectors / (double)c->merged_sectors : 0;
        c->l1_global_ld_hit = (uint64_t)llround(hit);
        c->l1_global_ld_miss = (uint64_t)llround(ld - hit);
        c->l2_read_sectors = (uint64_t)llround(fmax(0, (double)c->l2_read_sectors - dl2));
        c->l2_read_hit_sectors = (uint64_t)llround(fmax(0, (double)c->l2_read_hit_sectors - dl2));
        c->l2_read_requests = (uint64_t)llround(fmax(0, (double)c->l2_read_requests - dreq));
        c->merged_sectors = (uint64_t)llround(fmax(0, (double)c->merged_sectors - dmerged));
        c->coalesced_sectors = (uint64_t)llround(fmax(0, (double)c->coalesced_sectors - dmerged * coal));
        text_add(sp, "; L1 hits from the L1 of %llu SM%s replayed over %s blocks", (unsigned long long)l1_sms,
                 l1_sms == 1 ? "" : "s", l1_sms == (uint64_t)cc->sm_count ? "all their" : "their");
    }
    free(pc_hits);
    if (replayed >= 0) {
        double end = replayed < dirty_all ? replayed : dirty_all;
        c->dirty_at_end_bytes = (uint64_t)llround(end);
        c->dram_write_bytes = (uint64_t)llround(dirty_all - end);
        text_add(sp, "; DRAM write-backs vs bytes left dirty in L2: their sum scaled, the split from the L2 replayed "
                 "over the %s%llu blocks' accesses (their lines affine in the block's coordinates, as the %llu sampled "
                 "blocks' were", from ? "grid's last " : "grid's ", (unsigned long long)(sp->nblocks - from),
                 (unsigned long long)checked);
        if (approx > 0) text_add(sp, " but the edge kinds' of %.1f%% of the blocks, replayed as the interior's", 100 * approx);
        text_add(sp, "; no L1 in the replay)");
    } else if (l2_bytes && alloc > lines) {
        double end = (double)l2_bytes * dirty_share;
        if (dirty_limit && end > (double)dirty_limit)
            end = (double)dirty_limit; /* the L2 keeps no more dirty than its limit (cache.h) */
        if (end < dirty_all) {
            c->dirty_at_end_bytes = (uint64_t)llround(end);
            c->dram_write_bytes = (uint64_t)llround(dirty_all - end);
            /* which written lines the full L2 would have evicted the sampled one never filled to see
               (measured: 8.6 % off for an 8192^2 transpose's write-backs) */
            text_add(sp, "; DRAM write-backs vs bytes left dirty in L2: their sum scaled, the split estimated, not "
                     "bounded (the sample never fills the L2; nor does it see what the grid's later fills evict and read "
                     "again; no replay: %s)", why ? why : "nothing written");
        }
    }
}

double ws_sampler_factor(const ws_sampler *sp) { return sp && sp->scaled ? sp->factor : 1.0; }
double ws_sampler_l1_factor(const ws_sampler *sp) { return sp && sp->scaled ? sp->l1_factor : 1.0; }
const char *ws_sampler_text(const ws_sampler *sp) { return sp && sp->scaled ? sp->text : ""; }

void ws_sampler_info(const ws_sampler *sp, ws_sample_info *o)
{
    memset(o, 0, sizeof *o);
    o->blocks_total = sp ? sp->nblocks : 0;
    o->cache_bound = -1;
    if (!sp || !sp->scaled) {
        o->blocks_run = o->blocks_total;
        o->exact_exact = true;
        return;
    }
    o->sampled = true;
    o->blocks_run = sp->blocks_run;
    o->lead_blocks = sp->lead;
    o->edge_blocks = sp->edge_run;
    o->waves = (double)sp->lead / (double)sp->wave;
    o->exact_exact = sp->exact;
    o->single_kinds = sp->single;
    o->exact_bound = sp->exact_bound;
    o->cache_bound = sp->cache_bound;
}
