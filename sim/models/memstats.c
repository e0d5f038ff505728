/* memstats.c - sums the models' verdicts into per-pc rows, per-SM work and kernel
 * totals (see memstats.h). It calls no model; the verdict says what each one found. */
#include "memstats.h"

#include "../../common/ws_assert.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct ws_memstats {
    const ws_device *dev;
    int ninsns;
    ws_pc_stats *pcs;
    ws_pc_stats outside;      /* the sums of events whose pc is outside the function (no row) */
    ws_sm_stats *sms;
    ws_mem_totals t;
    int finished;
};

ws_memstats *ws_memstats_new(const ws_device *dev, const ws_launch *launch, int ninsns)
{
    if (!dev || !launch || ninsns < 0 || dev->sm_count <= 0)
        return NULL;
    ws_memstats *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NULL;
    ms->dev = dev;
    ms->ninsns = ninsns;
    uint64_t nblocks = ws_launch_blocks(launch);
    ms->pcs = calloc((size_t)(ninsns ? ninsns : 1), sizeof *ms->pcs);
    ms->sms = calloc((size_t)dev->sm_count, sizeof *ms->sms);
    if (!ms->pcs || !ms->sms) {
        ws_memstats_free(ms);
        return NULL;
    }
    for (int s = 0; s < dev->sm_count; s++)
        ms->sms[s].blocks = ws_blocks_on_sm(nblocks, dev->sm_count, s);
    return ms;
}

void ws_memstats_free(ws_memstats *ms)
{
    if (!ms)
        return;
    free(ms->pcs);
    free(ms->sms);
    free(ms);
}

static void add_shared(ws_mem_counts *c, const ws_bank_result *bk)
{
    c->wavefronts += (uint64_t)bk->wavefronts;
    c->ideal_wavefronts += (uint64_t)bk->ideal;
    c->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
    c->excess += (uint64_t)bk->excess;
}

static void add_global(ws_mem_counts *c, const ws_coalesce_result *co)
{
    c->requests += (uint64_t)co->requests;
    c->sectors += (uint64_t)co->sectors;
    c->ideal_sectors += (uint64_t)co->ideal_sectors;
    c->lines += (uint64_t)co->lines;
    c->bytes_used += (uint64_t)co->bytes_used;
}

/* A tensor-era event: its family's counts, and its pc row (a cp.async's two events make one
 * execution: counted on the shared write, which every copying lane makes). */
static void tc_verdict(ws_memstats *ms, const ws_mem_verdict *v, ws_pc_stats *p, ws_sm_stats *S)
{
    const ws_mem_event *ev = v->ev;
    ws_tc_counts *t = &ms->t.tc;
    int store = ev->op == WS_MEM_STORE;
    bool copy = ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA;
    bool counts_execution = copy ? ev->space == WS_SPACE_GLOBAL && ev->part == 0
                          : ev->kind == WS_KIND_GMMA ? ev->part == 0
                                 : ev->kind != WS_KIND_LDGSTS || ev->space == WS_SPACE_SHARED;
    t->events++;
    if (p) {
        if (!p->used) {
            p->used = 1;
            p->src_line = ev->src_line;
            p->ptx_line = ev->ptx_line;
            p->space = ev->kind == WS_KIND_LDGSTS || copy ? WS_SPACE_GLOBAL : ev->space;
            p->op = ev->kind == WS_KIND_LDGSTS ? WS_MEM_LOAD : copy && ev->space == WS_SPACE_SHARED
                  ? (ev->op == WS_MEM_LOAD ? WS_MEM_STORE : WS_MEM_LOAD) : ev->op; /* the global side's op */
            p->cache = ev->cache;
            p->kind = ev->kind;
            p->width = ev->width;
        }
        if (counts_execution) {
            p->executions++;
            p->active_lanes += (uint64_t)__builtin_popcount(ev->active_mask);
        }
        if (v->co) {
            p->requests += (uint64_t)v->co->requests;
            p->sectors += (uint64_t)v->co->sectors;
            p->ideal_sectors += (uint64_t)v->co->ideal_sectors;
            p->lines += (uint64_t)v->co->lines;
            p->bytes_used += (uint64_t)v->co->bytes_used;
            if (v->ca) {
                p->l1_hit_sectors += (uint64_t)v->ca->l1_hit_sectors;
                p->l1_miss_sectors += (uint64_t)v->ca->l1_miss_sectors;
                p->l2_sectors += (uint64_t)v->ca->l2_sectors;
                p->l2_hit_sectors += (uint64_t)v->ca->l2_hit_sectors;
                p->l2_miss_sectors += (uint64_t)(v->ca->l2_miss_sectors - v->ca->l2_far_miss_sectors); /* DRAM's */
                p->dram_read_bytes += v->ca->dram_read_bytes;
            }
        }
        if (v->bk) {
            p->wavefronts += (uint64_t)v->bk->wavefronts;
            p->ideal_wavefronts += (uint64_t)v->bk->ideal;
            p->ncu_conflicts += (uint64_t)v->bk->ncu_conflicts;
            p->excess += (uint64_t)v->bk->excess;
        }
    }
    if (counts_execution)
        S->mem_inst++;
    /* The L1 data path's time (docs/timing-model.md "Tensor pipe"): a cp.async.cg fill goes from L2
     * to shared memory past the L1 data return, so it costs its shared writes' wavefronts only (on
     * the H200 mma_cp_async ran 1.47x faster than the same kernel with LDG + STS); the .ca form
     * fills L1 too and keeps its lines. A TMA (or plain bulk) copy into shared memory takes no LSU
     * data-pipe wavefronts at all: the TMA unit writes the banks itself (results/h200-tma-cpasync:
     * mma_tma's 8 KB per block k-tile cost 1.9 LSU wavefronts beside its 128.5 ldmatrix ones, where
     * cp.async's LDGSTS took 26.1; the same 2048 bank writes each). Its stores (shared -> global) keep
     * one per 128-B line: the TMA's reads of shared memory were not measured. */
    bool bypass = (ev->kind == WS_KIND_LDGSTS && ev->space != WS_SPACE_SHARED && ev->cache == WS_CACHE_CG) ||
                  ((ev->kind == WS_KIND_TMA || ev->kind == WS_KIND_BULK) && ev->space == WS_SPACE_GLOBAL &&
                   ev->op != WS_MEM_STORE);
    if (v->co && !bypass)
        S->l1_wavefronts += (uint64_t)v->co->lines;
    if (v->bk) {
        S->l1_wavefronts += (uint64_t)v->bk->wavefronts;
        S->shared_wavefronts += (uint64_t)v->bk->wavefronts;
    }
    ws_mem_counts *c = NULL;
    switch (ev->kind) {
    case WS_KIND_LDGSTS:
        if (ev->space == WS_SPACE_SHARED) {
            t->ldgsts_shared.inst++;
            t->ldgsts_global.inst++;
            if (ev->cache == WS_CACHE_CG) t->ldgsts_cg++;
            else t->ldgsts_ca++;
            c = &t->ldgsts_shared;
            if (v->bk) {                         /* a .cg copy's sectors requested again (banks.h) */
                t->ldgsts_global.sectors += (uint64_t)v->bk->sectors_rerequested;
                if (ev->cache == WS_CACHE_CG) t->ldgsts_cg_relookups += (uint64_t)v->bk->ld_sectors_extra;
                ms->t.global[WS_MEM_LOAD].sectors += (uint64_t)v->bk->ld_sectors_extra;
                if (p) p->sectors += (uint64_t)v->bk->ld_sectors_extra;   /* its row: as global[LOAD] */
            }
        } else {
            c = &t->ldgsts_global;               /* its inst is counted on the shared write */
            /* ncu counts LDGSTS's global reads in l1tex__t_{requests,sectors}_..._global_op_ld too
               (not in smsp__sass_inst_executed_op_global_ld): the H200 did for mma_cp_async */
            if (v->co) add_global(&ms->t.global[WS_MEM_LOAD], v->co);
        }
        break;
    case WS_KIND_BULK: case WS_KIND_TMA: {
        bool tma = ev->kind == WS_KIND_TMA;
        int to_global = (ev->space == WS_SPACE_GLOBAL) == (ev->op == WS_MEM_STORE);
        if (ev->space == WS_SPACE_GLOBAL) {
            if (ev->part == 0) (tma ? t->tma_inst : t->bulk_inst)[to_global]++;   /* one per copy */
            c = tma ? &t->tma_global[to_global] : &t->bulk_global[to_global];
            if (!to_global && v->co)
                *(tma ? &t->tma_delivered_sectors : &t->bulk_delivered_sectors) +=
                    (uint64_t)v->co->sectors * (ev->copies > 1 ? ev->copies : 1);
        } else {
            (tma ? t->tma_bytes : t->bulk_bytes)[to_global] += 16u * (uint64_t)__builtin_popcount(ev->active_mask);
            return;
        }
        break;
    }
    case WS_KIND_GMMA:                           /* one execution per warp: its first event */
        c = &t->gmma;
        if (ev->part == 0) c->inst++;
        c->bytes_used += 16u * (uint64_t)__builtin_popcount(ev->active_mask);
        break;
    case WS_KIND_LDSM: case WS_KIND_STSM:
        c = ev->kind == WS_KIND_LDSM ? &t->ldsm : &t->stsm;
        c->inst++;
        c->bytes_used += 16u * (uint64_t)__builtin_popcount(ev->active_mask);
        break;
    default:
        c = ev->space == WS_SPACE_SHARED ? &t->wmma_shared[store] : &t->wmma_global[store];
        c->inst++;
        break;
    }
    if (v->co)
        add_global(c, v->co);
    if (v->bk)
        add_shared(c, v->bk);
}

void ws_memstats_verdict(void *ctx, const ws_mem_verdict *v)
{
    ws_memstats *ms = ctx;
    if (ms->finished)
        return;
    const ws_mem_event *ev = v->ev;
    ms->t.events++;
    ws_sm_stats *S = &ms->sms[v->sm];
    int op = ev->op <= WS_MEM_REDUCE ? (int)ev->op : WS_MEM_LOAD;
    ws_pc_stats *p = ev->pc < (uint32_t)ms->ninsns ? &ms->pcs[ev->pc] : &ms->outside;
    if (ev->kind != WS_KIND_PLAIN) {
        tc_verdict(ms, v, p, &ms->sms[v->sm]);
        return;
    }
    if (p) {
        if (!p->used) {
            p->used = 1;
            p->src_line = ev->src_line;
            p->ptx_line = ev->ptx_line;
            p->space = ev->space;
            p->op = ev->op;
            p->cache = ev->cache;
            p->width = ev->width;
        }
        p->executions++;
        p->active_lanes += (uint64_t)__builtin_popcount(ev->active_mask);
        if (v->at) {
            p->atom_lane_ops += (uint64_t)v->at->lane_ops;
            p->atom_passes += (uint64_t)v->at->shared_passes;
            if ((uint32_t)v->at->same_addr_max > p->atom_same_addr_max)
                p->atom_same_addr_max = (uint32_t)v->at->same_addr_max;
        }
    }
    if (v->at)
        ms->t.shared_atom_passes += (uint64_t)v->at->shared_passes;
    S->mem_inst++;

    if (ev->space == WS_SPACE_GLOBAL || ev->space == WS_SPACE_LOCAL) {
        ws_mem_counts *c = ev->space == WS_SPACE_GLOBAL ? &ms->t.global[op] : &ms->t.local[op];
        c->inst++;
        c->active_lanes += (uint64_t)__builtin_popcount(ev->active_mask);
        const ws_coalesce_result *co = v->co;
        if (!co)
            return;
        /* an atomic's sectors follow the device's rule (lanes on one address: one each) */
        uint64_t sectors = v->at ? (uint64_t)v->at->sector_ops : (uint64_t)co->sectors;
        c->requests += (uint64_t)co->requests;
        c->sectors += sectors;
        c->ideal_sectors += (uint64_t)co->ideal_sectors;
        c->lines += (uint64_t)co->lines;
        c->bytes_used += (uint64_t)co->bytes_used;
        S->l1_wavefronts += (uint64_t)co->lines;
        if (!p)
            return;
        p->requests += (uint64_t)co->requests;
        p->sectors += sectors;
        p->ideal_sectors += (uint64_t)co->ideal_sectors;
        p->lines += (uint64_t)co->lines;
        p->bytes_used += (uint64_t)co->bytes_used;
        const ws_cache_access *ca = v->ca;
        if (ca) {
            p->l1_hit_sectors += (uint64_t)ca->l1_hit_sectors;
            p->l1_miss_sectors += (uint64_t)ca->l1_miss_sectors;
            p->l2_sectors += (uint64_t)ca->l2_sectors;
            p->l2_hit_sectors += (uint64_t)ca->l2_hit_sectors;
            p->l2_miss_sectors += (uint64_t)(ca->l2_miss_sectors - ca->l2_far_miss_sectors); /* DRAM's */
            p->dram_read_bytes += ca->dram_read_bytes;
        }
    } else if (ev->space == WS_SPACE_SHARED && ev->dsmem) {
        ws_mem_counts *c = &ms->t.dshared[op];     /* another block's window: no bank wavefronts here */
        c->inst++;
        c->active_lanes += (uint64_t)__builtin_popcount(ev->active_mask);
        c->requests += (uint64_t)v->ds_requests;
        c->sectors += (uint64_t)v->ds_sectors;
        if (p) {
            p->requests += (uint64_t)v->ds_requests;
            p->sectors += (uint64_t)v->ds_sectors;
        }
    } else if (ev->space == WS_SPACE_SHARED) {
        ws_mem_counts *c = &ms->t.shared[op];
        c->inst++;
        c->active_lanes += (uint64_t)__builtin_popcount(ev->active_mask);
        const ws_bank_result *bk = v->bk;
        if (!bk)
            return;
        c->wavefronts += (uint64_t)bk->wavefronts;
        c->ideal_wavefronts += (uint64_t)bk->ideal;
        c->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
        c->excess += (uint64_t)bk->excess;
        S->l1_wavefronts += (uint64_t)bk->wavefronts;
        S->shared_wavefronts += (uint64_t)bk->wavefronts;
        if (p) {
            p->wavefronts += (uint64_t)bk->wavefronts;
            p->ideal_wavefronts += (uint64_t)bk->ideal;
            p->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
            p->excess += (uint64_t)bk->excess;
        }
    } else if (ev->space == WS_SPACE_CONST) {
        ms->t.const_inst++;
    } else {
        ms->t.param_inst++;
    }
}

void ws_memstats_set_insts(ws_memstats *ms, uint64_t warp_insns, uint64_t thread_insns)
{
    ms->t.warp_insns = warp_insns;
    ms->t.thread_insns = thread_insns;
}

void ws_memstats_set_code(ws_memstats *ms, uint64_t code_bytes, int from_sass)
{
    ms->t.code_bytes = code_bytes;
    ms->t.code_from_sass = from_sass ? 1 : 0;
    ms->t.launch_fetch_bytes = ws_cache_launch_fetch_bytes(ms->dev, code_bytes);
}

void ws_memstats_set_tensor_insts(ws_memstats *ms, const uint64_t n[4])
{
    for (int i = 0; i < 4; i++) ms->t.tc.tensor_inst[i] = n[i];
}

void ws_memstats_set_sass_insns(ws_memstats *ms, uint64_t warp_insns, const uint64_t pipe[WS_PIPE_COUNT],
                                int approximate)
{
    ws_sass_insns *si = &ms->t.sass;
    si->counted = 1;
    si->approximate = approximate ? 1 : 0;
    si->warp_insns = warp_insns;
    for (int p = 0; p < WS_PIPE_COUNT; p++) si->pipe[p] = pipe[p];
}

void ws_memstats_finish(ws_memstats *ms, const ws_cache_totals *cache)
{
    if (ms->finished)
        return;
    if (cache) {
        ms->t.cache = *cache;
        /* a .cg copy's sectors read again are L1 lookups too: on the H200 the global-load lookup misses
           of the corpus's cp.async-only kernels equal their l1tex__t_sectors_..._global_op_ld, re-reads
           included (wmmaAsyncKernel 15360, 12288 distinct; results/h200-corpus-detail/NOTES.md) */
        ms->t.cache.l1_global_ld_miss += ms->t.tc.ldgsts_cg_relookups;
    }
    ms->finished = 1;
    WS_ASSERT(ws_memstats_check(ms) == 0);
}

/* The model sums a verdict adds to its pc row and to one ws_mem_counts of the totals alike
 * (bytes_used is not one: ldmatrix's total counts the rows' bytes). */
#define WS_ROW_SUMS(X) X(requests) X(sectors) X(ideal_sectors) X(lines) \
                       X(wavefronts) X(ideal_wavefronts) X(ncu_conflicts) X(excess)

static void add_counts(ws_mem_counts *sum, const ws_mem_counts *c, int n)
{
    for (int i = 0; i < n; i++) {
#define ADD(f) sum->f += c[i].f;
        WS_ROW_SUMS(ADD)
#undef ADD
    }
}

/* The tensor-era families' counts (ws_tc_counts), one list for the check and the flat vector. */
#define TC_FAMILIES(tc)                                                                                   \
    &(tc)->ldgsts_global, &(tc)->ldgsts_shared, &(tc)->ldsm, &(tc)->stsm, &(tc)->wmma_global[0],          \
        &(tc)->wmma_global[1], &(tc)->wmma_shared[0], &(tc)->wmma_shared[1], &(tc)->bulk_global[0],       \
        &(tc)->bulk_global[1], &(tc)->tma_global[0], &(tc)->tma_global[1]
#define TC_NFAMILIES 12

int ws_memstats_check(const ws_memstats *ms)
{
    ws_mem_counts rows = {0}, tot = {0};
    for (int pc = 0; pc <= ms->ninsns; pc++) {
        const ws_pc_stats *p = pc < ms->ninsns ? &ms->pcs[pc] : &ms->outside;
#define ADD(f) rows.f += p->f;
        WS_ROW_SUMS(ADD)
#undef ADD
    }
    const ws_mem_totals *t = &ms->t;
    const ws_tc_counts *tc = &t->tc;
    add_counts(&tot, t->global, 4);
    add_counts(&tot, t->local, 4);
    add_counts(&tot, t->shared, 4);
    add_counts(&tot, t->dshared, 4);
    const ws_mem_counts *fam[] = {TC_FAMILIES(tc)};
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) add_counts(&tot, fam[i], 1);
    /* a cp.async's global reads are in global[LOAD] as well (tc_verdict): counted once in the rows */
    tot.requests -= tc->ldgsts_global.requests;
    tot.sectors -= tc->ldgsts_global.sectors;
    tot.ideal_sectors -= tc->ldgsts_global.ideal_sectors;
    tot.lines -= tc->ldgsts_global.lines;
    int k = 0;
#define CMP(f) k++; if (rows.f != tot.f) return k;
    WS_ROW_SUMS(CMP)
#undef CMP
    return 0;
}

const ws_mem_totals *ws_memstats_totals(const ws_memstats *ms) { return &ms->t; }
int ws_memstats_ninsns(const ws_memstats *ms) { return ms->ninsns; }
int ws_memstats_sm_count(const ws_memstats *ms) { return ms->dev->sm_count; }
const ws_device *ws_memstats_device(const ws_memstats *ms) { return ms->dev; }

const ws_pc_stats *ws_memstats_pc(const ws_memstats *ms, int pc)
{
    return pc >= 0 && pc < ms->ninsns ? &ms->pcs[pc] : NULL;
}

const ws_sm_stats *ws_memstats_sm(const ws_memstats *ms, int sm)
{
    return sm >= 0 && sm < ms->dev->sm_count ? &ms->sms[sm] : NULL;
}

static double ratio(double a, double b) { return b ? a / b : 0; }

/* A table row with its value: the expression in the row's value column (metrics.h names its
 * context: the locals below). */
#define ROW(id, name, unit, basis, judge, slack, ncu, space, op, kind, help, value) \
    {name, help, (double)(value), WS_BASIS_##basis, &ws_metric_table[WS_METRIC_##id]},

/* every caller's row array holds 128 (sim/report/report.c, report_html.c): all scopes at once fit */
#define ONE(...) +1
_Static_assert(0 WS_METRICS_KERNEL(ONE) WS_METRICS_TENSOR(ONE) WS_METRICS_DSMEM(ONE) WS_METRICS_SASS(ONE) <= 128,
               "more kernel-total rows than the reports' arrays hold");
#undef ONE

int ws_memstats_metrics(const ws_memstats *ms, ws_metric *rows, int cap)
{
    const ws_mem_totals *t = &ms->t;
    const ws_cache_totals *c = &t->cache;
    const ws_mem_counts *gl = &t->global[WS_MEM_LOAD], *gs = &t->global[WS_MEM_STORE];
    const ws_mem_counts *ga = &t->global[WS_MEM_ATOMIC], *gr = &t->global[WS_MEM_REDUCE];
    const ws_mem_counts *ll = &t->local[WS_MEM_LOAD], *ls = &t->local[WS_MEM_STORE];
    const ws_mem_counts *sl = &t->shared[WS_MEM_LOAD], *ss = &t->shared[WS_MEM_STORE];
    const ws_mem_counts *sa = &t->shared[WS_MEM_ATOMIC], *sr = &t->shared[WS_MEM_REDUCE];
    double l1_hits = (double)(c->l1_global_ld_hit + c->l1_local_ld_hit + c->l1_st_hit_sectors);
    double l1_all = (double)(c->l1_global_ld_hit + c->l1_local_ld_hit + c->l1_global_ld_miss + c->l1_local_ld_miss +
                             c->l1_st_sectors);
    const ws_metric all[] = {WS_METRICS_KERNEL(ROW)};
    int n = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < n && i < cap; i++)
        rows[i] = all[i];
    if (t->tc.events || t->tc.tensor_inst[0]) {  /* the tensor-era rows only where such instructions ran */
        const ws_tc_counts *k = &t->tc;
        const ws_mem_counts *kg = &k->ldgsts_global, *ks = &k->ldgsts_shared, *lm = &k->ldsm, *sm = &k->stsm;
        const ws_metric tc[] = {WS_METRICS_TENSOR(ROW)};
        int ntc = (int)(sizeof tc / sizeof tc[0]);
        for (int i = 0; i < ntc; i++)
            if (n + i < cap) {
                rows[n + i] = tc[i];
                /* the tensor-pipe counts are the SASS blocks' runs: as approximate as the instruction count
                   where a block is anchored by line (ptxas's emulation of a b1 XOR in a switch: 1 vs the H200's 3) */
                ws_metric_id id = tc[i].info ? tc[i].info->id : WS_METRIC_COUNT;
                if (t->sass.counted && t->sass.approximate && tc[i].basis == WS_BASIS_EXACT &&
                    (id == WS_METRIC_TENSOR_HMMA || id == WS_METRIC_TENSOR_IMMA || id == WS_METRIC_TENSOR_DMMA))
                    rows[n + i].basis = WS_BASIS_MODEL;
            }
        n += ntc;
    }
    const ws_mem_counts *dl = &t->dshared[WS_MEM_LOAD], *ds = &t->dshared[WS_MEM_STORE];
    const ws_mem_counts *da = &t->dshared[WS_MEM_ATOMIC], *dr = &t->dshared[WS_MEM_REDUCE];
    if (dl->inst + ds->inst + da->inst + dr->inst) {   /* distributed shared memory rows where it was used */
        const ws_metric dsm[] = {WS_METRICS_DSMEM(ROW)};
        int nd = (int)(sizeof dsm / sizeof dsm[0]);
        for (int i = 0; i < nd; i++)
            if (n + i < cap)
                rows[n + i] = dsm[i];
        n += nd;
    }
    if (t->sass.counted) { /* the machine code's instruction counts: exact unless the plan says approximate */
        const ws_sass_insns *si = &t->sass;
        ws_metric sr[] = {WS_METRICS_SASS(ROW)};
        int ns = (int)(sizeof sr / sizeof sr[0]);
        for (int i = 0; i < ns; i++) {
            if (si->approximate && sr[i].basis == WS_BASIS_EXACT) sr[i].basis = WS_BASIS_MODEL;
            if (n + i < cap) rows[n + i] = sr[i];
        }
        n += ns;
    }
    return n;
}

/* --- the flat vector of block sampling --------------------------------------------- */

#define TOT_WORDS (offsetof(ws_mem_totals, cache) / sizeof(uint64_t))
#define ROW_FIRST offsetof(ws_pc_stats, executions)
#define ROW_WORDS ((offsetof(ws_pc_stats, atom_passes) + sizeof(uint64_t) - ROW_FIRST) / sizeof(uint64_t))
_Static_assert(offsetof(ws_mem_totals, cache) % sizeof(uint64_t) == 0, "ws_mem_totals: counts before cache");
_Static_assert(sizeof(ws_sm_stats) == 4 * sizeof(uint64_t), "ws_sm_stats: mem_inst, l1_wavefronts, shared_wavefronts, blocks");

size_t ws_memstats_nflat(const ws_memstats *ms)
{
    return TOT_WORDS + ((size_t)ms->ninsns + 1) * ROW_WORDS + 3 * (size_t)ms->dev->sm_count;
}

/* The words of the vector, in order; get copies out of them, set into them. */
static void flat_copy(ws_memstats *ms, uint64_t *v, bool get)
{
    size_t k = 0;
#define W(p, n) do { if (get) memcpy(v + k, (p), (n) * 8); else memcpy((p), v + k, (n) * 8); k += (n); } while (0)
    W((uint64_t *)(void *)&ms->t, TOT_WORDS);
    for (int pc = 0; pc <= ms->ninsns; pc++) {
        ws_pc_stats *p = pc < ms->ninsns ? &ms->pcs[pc] : &ms->outside;
        W((uint64_t *)(void *)((char *)p + ROW_FIRST), ROW_WORDS);
    }
    for (int s = 0; s < ms->dev->sm_count; s++) {
        W(&ms->sms[s].mem_inst, 1);
        W(&ms->sms[s].l1_wavefronts, 1);
        W(&ms->sms[s].shared_wavefronts, 1);
    }
#undef W
}

void ws_memstats_flat_get(const ws_memstats *ms, uint64_t *out) { flat_copy((ws_memstats *)ms, out, true); }

void ws_memstats_spread_sms(ws_memstats *ms)
{
    /* A stratum's estimate lands on the SM its sampled block ran on (one representative of 14
       edge blocks counted 14 times on one SM made a 512^3 matmul's L1 term 7x its full run's):
       the per-SM words are a grid's, so they are spread as the grid's blocks are. */
    uint64_t mem = 0, wf = 0, sh = 0, nb = 0;
    int n = ms->dev->sm_count;
    for (int s = 0; s < n; s++) {
        mem += ms->sms[s].mem_inst;
        wf += ms->sms[s].l1_wavefronts;
        sh += ms->sms[s].shared_wavefronts;
        nb += ms->sms[s].blocks;
    }
    for (int s = 0; s < n && nb; s++) {
        double share = (double)ms->sms[s].blocks / (double)nb;
        ms->sms[s].mem_inst = (uint64_t)llround((double)mem * share);
        ms->sms[s].l1_wavefronts = (uint64_t)llround((double)wf * share);
        ms->sms[s].shared_wavefronts = (uint64_t)llround((double)sh * share);
    }
}

void ws_memstats_flat_set(ws_memstats *ms, const uint64_t *in)
{
    flat_copy(ms, (uint64_t *)in, false);
    /* each value was rounded on its own: put the rows' sum back into the totals */
    ws_mem_counts rows = {0};
    for (int pc = 0; pc <= ms->ninsns; pc++) {
        const ws_pc_stats *p = pc < ms->ninsns ? &ms->pcs[pc] : &ms->outside;
#define ADD(f) rows.f += p->f;
        WS_ROW_SUMS(ADD)
#undef ADD
    }
    ws_mem_totals *t = &ms->t;
    ws_tc_counts *tc = &t->tc;
    ws_mem_counts *all[12 + TC_NFAMILIES];
    int n = 0;
    for (int i = 0; i < 4; i++) { all[n++] = &t->global[i]; all[n++] = &t->local[i]; all[n++] = &t->shared[i]; }
    ws_mem_counts *fam[] = {TC_FAMILIES(tc)};
    _Static_assert(sizeof fam / sizeof fam[0] == TC_NFAMILIES, "TC_NFAMILIES counts TC_FAMILIES");
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) all[n++] = fam[i];
    /* as ws_memstats_check sums them: a cp.async's global reads are in global[LOAD] too, so its
       requests, sectors, ideal sectors and lines count once (counted twice, the difference took a
       sampled cp.async kernel's global load sectors to 0) */
    const ws_mem_counts *twice = &tc->ldgsts_global;
#define FIX(f)                                                                            \
    {                                                                                     \
        bool once = offsetof(ws_mem_counts, f) == offsetof(ws_mem_counts, requests) ||    \
                    offsetof(ws_mem_counts, f) == offsetof(ws_mem_counts, sectors) ||     \
                    offsetof(ws_mem_counts, f) == offsetof(ws_mem_counts, ideal_sectors) || \
                    offsetof(ws_mem_counts, f) == offsetof(ws_mem_counts, lines);         \
        uint64_t tot = 0;                                                                 \
        int big = 0;                                                                      \
        for (int i = 0; i < n; i++) {                                                     \
            if (once && all[i] == twice) continue;                                        \
            tot += all[i]->f;                                                             \
            if (all[i]->f > all[big]->f) big = i;                                         \
        }                                                                                 \
        all[big]->f += rows.f - tot; /* unsigned wrap-around adds a negative difference */ \
    }
    WS_ROW_SUMS(FIX)
#undef FIX
}
