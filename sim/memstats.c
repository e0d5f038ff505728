/* memstats.c - sums the models' verdicts into per-pc rows, per-SM work and kernel
 * totals (see memstats.h). It calls no model; the verdict says what each one found. */
#include "memstats.h"

#include <stdlib.h>
#include <string.h>

struct ws_memstats {
    const ws_device *dev;
    int ninsns;
    ws_pc_stats *pcs;
    ws_sm_stats *sms;
    ws_mem_totals t;
    int finished;
    int all_rows;             /* list every metric row, the tensor-era ones too (ws_metric_basis) */
};

const char *ws_basis_name(ws_basis b)
{
    return b == WS_BASIS_EXACT ? "exact" : b == WS_BASIS_MODEL ? "model" : "derived";
}

ws_memstats *ws_memstats_new(const ws_device *dev, const ws_launch *launch, int ninsns)
{
    if (!dev || !launch || ninsns < 0 || dev->sm_count <= 0)
        return NULL;
    ws_memstats *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NULL;
    ms->dev = dev;
    ms->ninsns = ninsns;
    uint64_t nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
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
                p->l2_miss_sectors += (uint64_t)v->ca->l2_miss_sectors;
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
    if (v->co)
        S->l1_wavefronts += (uint64_t)v->co->lines;
    if (v->bk)
        S->l1_wavefronts += (uint64_t)v->bk->wavefronts;
    ws_mem_counts *c = NULL;
    switch (ev->kind) {
    case WS_KIND_LDGSTS:
        if (ev->space == WS_SPACE_SHARED) {
            t->ldgsts_shared.inst++;
            t->ldgsts_global.inst++;
            if (ev->cache == WS_CACHE_CG) t->ldgsts_cg++;
            else t->ldgsts_ca++;
            c = &t->ldgsts_shared;
        } else {
            c = &t->ldgsts_global;               /* its inst is counted on the shared write */
        }
        break;
    case WS_KIND_BULK: case WS_KIND_TMA: {
        bool tma = ev->kind == WS_KIND_TMA;
        int to_global = (ev->space == WS_SPACE_GLOBAL) == (ev->op == WS_MEM_STORE);
        if (ev->space == WS_SPACE_GLOBAL) {
            if (ev->part == 0) (tma ? t->tma_inst : t->bulk_inst)[to_global]++;   /* one per copy */
            c = tma ? &t->tma_global : &t->bulk_global;
        } else {
            (tma ? t->tma_bytes : t->bulk_bytes)[to_global] += 16u * (uint64_t)__builtin_popcount(ev->active_mask);
            return;
        }
        break;
    }
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
    ws_pc_stats *p = ev->pc < (uint32_t)ms->ninsns ? &ms->pcs[ev->pc] : NULL;
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
            p->l2_miss_sectors += (uint64_t)ca->l2_miss_sectors;
            p->dram_read_bytes += ca->dram_read_bytes;
        }
    } else if (ev->space == WS_SPACE_SHARED) {
        ws_mem_counts *c = &ms->t.shared[op];
        c->inst++;
        const ws_bank_result *bk = v->bk;
        if (!bk)
            return;
        c->wavefronts += (uint64_t)bk->wavefronts;
        c->ideal_wavefronts += (uint64_t)bk->ideal;
        c->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
        c->excess += (uint64_t)bk->excess;
        S->l1_wavefronts += (uint64_t)bk->wavefronts;
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

void ws_memstats_finish(ws_memstats *ms, const ws_cache_totals *cache)
{
    if (ms->finished)
        return;
    if (cache)
        ms->t.cache = *cache;
    ms->finished = 1;
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
    const ws_metric all[] = {
        {"smsp__sass_inst_executed_op_global_ld.sum", "global load instructions (per warp)", (double)gl->inst, WS_BASIS_EXACT},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests to L1 (1 per instruction)", (double)gl->requests, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "32-byte sectors global loads touched", (double)gl->sectors, WS_BASIS_EXACT},
        {"ws__t_sectors_ideal_global_op_ld.sum", "sectors the bytes actually used would need", (double)gl->ideal_sectors, WS_BASIS_EXACT},
        {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "sectors per global load request (4 = float, fully coalesced)", ratio((double)gl->sectors, (double)gl->requests), WS_BASIS_EXACT},
        {"ws__sector_efficiency_global_op_ld.pct", "global load efficiency: distinct bytes used / bytes in touched sectors, %", 100.0 * ratio((double)gl->bytes_used, 32.0 * (double)gl->sectors), WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_global_st.sum", "global store instructions", (double)gs->inst, WS_BASIS_EXACT},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests", (double)gs->requests, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32-byte sectors global stores touched", (double)gs->sectors, WS_BASIS_EXACT},
        {"ws__t_sectors_ideal_global_op_st.sum", "sectors the bytes actually stored would need", (double)gs->ideal_sectors, WS_BASIS_EXACT},
        {"ws__sector_efficiency_global_op_st.pct", "global store efficiency: distinct bytes used / bytes in touched sectors, %", 100.0 * ratio((double)gs->bytes_used, 32.0 * (double)gs->sectors), WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_global_atom.sum", "global atomic instructions", (double)ga->inst, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "sectors global atomics count (lanes on one address: one each, docs/memory-models.md)", (double)ga->sectors, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_global_red.sum", "global reduction instructions (atomics without return)", (double)gr->inst, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "sectors global reductions count (lanes on one address: one each)", (double)gr->sectors, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_local_ld.sum", "local loads (spills, stack arrays)", (double)ll->inst, WS_BASIS_EXACT},
        {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "local load requests (width/4 per instruction)", (double)ll->requests, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "sectors local loads touched", (double)ll->sectors, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_local_st.sum", "local stores (spills, stack arrays)", (double)ls->inst, WS_BASIS_EXACT},
        {"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "local store requests", (double)ls->requests, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "sectors local stores touched", (double)ls->sectors, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_shared_ld.sum", "shared-memory load instructions", (double)sl->inst, WS_BASIS_EXACT},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts (cycles of the 32 banks)", (double)sl->wavefronts, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts, as the SASS-patched counter counts them (no arbitration with other traffic)", (double)sl->wavefronts, WS_BASIS_EXACT},
        {"ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_ld.sum", "wavefronts the shared-load data would need (128 B each)", (double)sl->ideal_wavefronts, WS_BASIS_EXACT},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load bank conflicts, ncu convention (wavefronts - lane groups)", (double)sl->ncu_conflicts, WS_BASIS_EXACT},
        {"ws__data_bank_conflicts_excess_mem_shared_op_ld.sum", "shared load wavefronts beyond the ideal (true excess)", (double)sl->excess, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_shared_st.sum", "shared-memory store instructions", (double)ss->inst, WS_BASIS_EXACT},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts", (double)ss->wavefronts, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts, as the SASS-patched counter counts them", (double)ss->wavefronts, WS_BASIS_EXACT},
        {"ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_st.sum", "wavefronts the shared-store data would need", (double)ss->ideal_wavefronts, WS_BASIS_EXACT},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store bank conflicts, ncu convention", (double)ss->ncu_conflicts, WS_BASIS_EXACT},
        {"ws__data_bank_conflicts_excess_mem_shared_op_st.sum", "shared store wavefronts beyond the ideal (true excess)", (double)ss->excess, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_shared_atom.sum", "shared atomic instructions (reductions included)", (double)(sa->inst + sr->inst), WS_BASIS_EXACT},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared atomic wavefronts (the load bank rule; measured on the H200)", (double)(sa->wavefronts + sr->wavefronts), WS_BASIS_MODEL},
        {"ws__shared_atom_passes.sum", "shared atomic passes: per instruction its bank wavefronts, lanes on one word combining (contention model, measured on the H200)", (double)t->shared_atom_passes, WS_BASIS_MODEL},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "global load sectors that hit in L1", (double)c->l1_global_ld_hit, WS_BASIS_MODEL},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "global load sectors that missed L1", (double)c->l1_global_ld_miss, WS_BASIS_MODEL},
        {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "L1 hit rate of global loads, %", 100.0 * ratio((double)c->l1_global_ld_hit, (double)(c->l1_global_ld_hit + c->l1_global_ld_miss)), WS_BASIS_MODEL},
        {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum", "local load sectors that hit in L1", (double)c->l1_local_ld_hit, WS_BASIS_MODEL},
        {"l1tex__t_sector_hit_rate.pct", "L1 hit rate of global and local load and store sectors, % (a store hits a sector a load brought in)", 100.0 * ratio(l1_hits, l1_all), WS_BASIS_MODEL},
        {"lts__t_requests_srcunit_tex_op_read.sum", "L2 read requests from the SMs (one per 128-B line missing in L1)", (double)c->l2_read_requests, WS_BASIS_MODEL},
        {"lts__t_sectors_srcunit_tex_op_read.sum", "sectors the SMs read from L2", (double)c->l2_read_sectors, WS_BASIS_MODEL},
        {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "of those, found in L2", (double)c->l2_read_hit_sectors, WS_BASIS_MODEL},
        {"lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "sectors fetched from DRAM on read misses (promoted to the fetch granularity, as ncu counts them)", (double)c->l2_read_miss_sectors, WS_BASIS_MODEL},
        {"lts__t_requests_srcunit_tex_op_write.sum", "L2 write requests (stores are written through)", (double)c->l2_write_requests, WS_BASIS_MODEL},
        {"lts__t_sectors_srcunit_tex_op_write.sum", "sectors the SMs wrote to L2", (double)c->l2_write_sectors, WS_BASIS_MODEL},
        {"lts__t_sectors_srcunit_tex_op_atom.sum", "L2 sectors of atomics and reductions", (double)c->l2_atom_sectors, WS_BASIS_MODEL},
        /* all sources: the H200 counts 1.5 per L1 sector (the far L2 partition sees half of them again);
         * no device: the names-only table of ws_metric_basis */
        {"lts__t_sectors_op_atom.sum", "L2 sectors of atomics, all sources (l2_atom_sector_factor x the L1 sectors)", (ms->dev ? ms->dev->l2_atom_sector_factor : 0) * (double)ga->sectors, WS_BASIS_MODEL},
        {"lts__t_sectors_op_red.sum", "L2 sectors of reductions, all sources (l2_atom_sector_factor x the L1 sectors)", (ms->dev ? ms->dev->l2_atom_sector_factor : 0) * (double)gr->sectors, WS_BASIS_MODEL},
        {"ws__l1_merged_miss_sectors.sum", "L1 misses merged into an outstanding miss (no new L2 traffic)", (double)c->merged_sectors, WS_BASIS_MODEL},
        {"dram__bytes_read.sum", "bytes read from DRAM (fills at the fetch granularity + ECC reads)", (double)c->dram_read_bytes, WS_BASIS_MODEL},
        {"ws__dram_bytes_read_ecc.sum", "of which: sectors read because a store wrote part of them (ECC)", (double)c->ecc_read_bytes, WS_BASIS_MODEL},
        {"dram__bytes_write.sum", "bytes written to DRAM during the kernel (L2 evictions)", (double)c->dram_write_bytes, WS_BASIS_MODEL},
        {"ws__l2_displaced_write_bytes", "write-backs an L2 left dirty by earlier work would need for the lines this kernel allocates (timing only)", 128.0 * (double)c->l2_cold_allocations, WS_BASIS_MODEL},
        {"ws__l2_dirty_bytes_at_end", "dirty bytes left in L2 at kernel end (written later, not in dram__bytes_write)", (double)c->dirty_at_end_bytes, WS_BASIS_MODEL},
    };
    int n = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < n && i < cap; i++)
        rows[i] = all[i];
    if (!ms->all_rows && !t->tc.events)
        return n;                        /* the tensor-era rows only where such instructions ran */
    const ws_tc_counts *k = &t->tc;
    const ws_mem_counts *kg = &k->ldgsts_global, *ks = &k->ldgsts_shared, *lm = &k->ldsm, *sm = &k->stsm;
    const ws_metric tc[] = {
        {"smsp__sass_inst_executed_op_ldgsts.sum", "cp.async instructions (LDGSTS, per warp)", (double)kg->inst, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_ldgsts_cache_access.sum", "of which cp.async.ca (allocating in L1)", (double)k->ldgsts_ca, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", "of which cp.async.cg (bypassing L1)", (double)k->ldgsts_cg, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", "cp.async global read requests (1 per instruction with a lane reading)", (double)kg->requests, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "32-byte sectors cp.async read (lanes with a source size of 0 read none)", (double)kg->sectors, WS_BASIS_EXACT},
        {"ws__t_sectors_ideal_global_op_ldgsts.sum", "sectors the bytes cp.async read would need", (double)kg->ideal_sectors, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "cp.async shared-write wavefronts (the store rule of the same width, assumed)", (double)ks->wavefronts, WS_BASIS_MODEL},
        {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "cp.async shared-write bank conflicts, ncu convention (assumed)", (double)ks->ncu_conflicts, WS_BASIS_MODEL},
        {"smsp__sass_inst_executed_op_ldsm.sum", "ldmatrix instructions (LDSM)", (double)lm->inst, WS_BASIS_EXACT},
        {"smsp__sass_data_bytes_mem_shared_op_ldsm.sum", "bytes ldmatrix read (16 per row address)", (double)lm->bytes_used, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", "ldmatrix wavefronts (one phase per 8x8 matrix, more where its rows share banks)", (double)lm->wavefronts, WS_BASIS_EXACT},
        {"ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_ldsm.sum", "wavefronts the ldmatrix data would need (1 per matrix)", (double)lm->ideal_wavefronts, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", "ldmatrix bank conflicts: wavefronts beyond one per phase", (double)lm->ncu_conflicts, WS_BASIS_MODEL},
        {"smsp__sass_inst_executed_op_shared_stsm.sum", "stmatrix instructions (STSM)", (double)sm->inst, WS_BASIS_EXACT},
        {"smsp__sass_data_bytes_mem_shared_op_stsm.sum", "bytes stmatrix wrote", (double)sm->bytes_used, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", "stmatrix wavefronts (one phase per 8x8 matrix)", (double)sm->wavefronts, WS_BASIS_EXACT},
        {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum", "stmatrix bank conflicts: wavefronts beyond one per phase", (double)sm->ncu_conflicts, WS_BASIS_MODEL},
        {"ws__wmma_inst_global_op_ld.sum", "wmma.load fragment registers from global memory (PTX level: ptxas picks the SASS widths)", (double)k->wmma_global[0].inst, WS_BASIS_MODEL},
        {"ws__wmma_sectors_global_op_ld.sum", "sectors of those register loads", (double)k->wmma_global[0].sectors, WS_BASIS_MODEL},
        {"ws__wmma_inst_shared_op_ld.sum", "wmma.load fragment registers from shared memory", (double)k->wmma_shared[0].inst, WS_BASIS_MODEL},
        {"ws__wmma_wavefronts_shared_op_ld.sum", "wavefronts of those register loads", (double)k->wmma_shared[0].wavefronts, WS_BASIS_MODEL},
        {"ws__wmma_inst_global_op_st.sum", "wmma.store fragment registers to global memory", (double)k->wmma_global[1].inst, WS_BASIS_MODEL},
        {"ws__wmma_sectors_global_op_st.sum", "sectors of those register stores", (double)k->wmma_global[1].sectors, WS_BASIS_MODEL},
        {"ws__wmma_inst_shared_op_st.sum", "wmma.store fragment registers to shared memory", (double)k->wmma_shared[1].inst, WS_BASIS_MODEL},
        {"ws__wmma_wavefronts_shared_op_st.sum", "wavefronts of those register stores", (double)k->wmma_shared[1].wavefronts, WS_BASIS_MODEL},
        {"ws__bulk_copies_to_shared.sum", "cp.async.bulk copies global -> shared (completing on an mbarrier)", (double)k->bulk_inst[0], WS_BASIS_EXACT},
        {"ws__bulk_bytes_to_shared.sum", "bytes those copies wrote to shared memory", (double)k->bulk_bytes[0], WS_BASIS_EXACT},
        {"ws__bulk_copies_to_global.sum", "cp.async.bulk copies shared -> global (bulk groups)", (double)k->bulk_inst[1], WS_BASIS_EXACT},
        {"ws__bulk_sectors_global.sum", "32-byte sectors of the bulk copies' global sides", (double)k->bulk_global.sectors, WS_BASIS_MODEL},
        {"smsp__sass_inst_executed_op_tma_ld.sum", "tensor copies global -> shared (cp.async.bulk.tensor, UTMALDG)", (double)k->tma_inst[0], WS_BASIS_MODEL},
        {"smsp__sass_inst_executed_op_tma_st.sum", "tensor copies shared -> global", (double)k->tma_inst[1], WS_BASIS_MODEL},
        {"ws__tma_bytes_to_shared.sum", "bytes the tensor copies wrote to shared memory (boxes, out-of-bound fill included)", (double)k->tma_bytes[0], WS_BASIS_EXACT},
        {"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "bytes of the 32-byte sectors the tensor loads read (in-bound rows)", 32.0 * (double)k->tma_global.sectors, WS_BASIS_MODEL},
    };
    int ntc = (int)(sizeof tc / sizeof tc[0]);
    for (int i = 0; i < ntc; i++)
        if (n + i < cap)
            rows[n + i] = tc[i];
    return n + ntc;
}

int ws_metric_basis(const char *name, ws_basis *basis)
{
    static const ws_memstats none = {.all_rows = 1}; /* the rows' names and bases do not depend on the values */
    ws_metric rows[128];
    int n = ws_memstats_metrics(&none, rows, 128);
    for (int i = 0; i < n && i < 128; i++)
        if (!strcmp(rows[i].name, name)) {
            *basis = rows[i].basis;
            return 0;
        }
    return -1;
}
