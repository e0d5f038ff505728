/* memstats.c - ties the coalescer, bank and cache models to the event stream and
 * keeps per-pc rows, per-SM work and kernel totals (see memstats.h).
 * Scratch results live in the ws_memstats so the hot path allocates nothing. */
#include "memstats.h"
#include "deps.h"
#include "timing.h" /* WS_LOADED_DRAM_LATENCY_FACTOR */

#include <stdlib.h>
#include <string.h>

#define LOCAL_BASE 0x0000700000000000ull
#define LOCAL_WARP_SPAN (32ull * 512 * 1024) /* 32 lanes x the 512 KiB per-thread local limit */
#define MAX_TRACKED_WARPS (64ull << 20)      /* beyond this, every load is its own epoch */

/* A warp's current latency epoch: the loads it has in flight together (see epoch()). */
typedef struct {
    int32_t last_pc;           /* pc of its previous memory instruction, -1 before the first */
    float epoch_cycles;        /* the slowest load of the open epoch */
} warp_epoch;

struct ws_memstats {
    const ws_device *dev;
    int ninsns;
    int warps_per_block;
    int resident;              /* blocks per SM in one wave */
    uint64_t nblocks;
    ws_cache *cache;
    ws_pc_stats *pcs;
    ws_sm_stats *sms;
    ws_mem_totals t;
    int finished;
    ws_memstats_observer observer;
    void *observer_ctx;
    warp_epoch *warps;         /* per warp_global; NULL when too many to track */
    uint64_t nwarps;
    ws_deps deps;              /* barriers and dependent loads, from ws_memstats_set_function */
    ws_coalesce_result co;     /* scratch */
    ws_bank_result bk;
    ws_cache_access ca;
};

const char *ws_basis_name(ws_basis b)
{
    return b == WS_BASIS_EXACT ? "exact" : b == WS_BASIS_MODEL ? "model" : "derived";
}

ws_memstats *ws_memstats_new(const ws_device *dev, const ws_launch *launch, int ninsns, uint32_t l1_bytes)
{
    if (!dev || !launch || ninsns < 0 || dev->sm_count <= 0)
        return NULL;
    ws_memstats *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NULL;
    ms->dev = dev;
    ms->ninsns = ninsns;
    uint64_t threads = (uint64_t)launch->block[0] * launch->block[1] * launch->block[2];
    ms->warps_per_block = (int)((threads + 31) / 32);
    ms->resident = 1;
    ms->nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
    ws_cache_config cfg;
    ws_cache_config_from_device(&cfg, dev, l1_bytes);
    ms->cache = ws_cache_new(&cfg);
    ms->pcs = calloc((size_t)(ninsns ? ninsns : 1), sizeof *ms->pcs);
    ms->sms = calloc((size_t)dev->sm_count, sizeof *ms->sms);
    if (!ms->cache || !ms->pcs || !ms->sms) {
        ws_memstats_free(ms);
        return NULL;
    }
    ms->nwarps = ms->nblocks * (uint64_t)ms->warps_per_block;
    if (ms->nwarps <= MAX_TRACKED_WARPS) {
        ms->warps = malloc((size_t)(ms->nwarps ? ms->nwarps : 1) * sizeof *ms->warps);
        if (!ms->warps) {
            ws_memstats_free(ms);
            return NULL;
        }
        for (uint64_t w = 0; w < ms->nwarps; w++)
            ms->warps[w] = (warp_epoch){-1, 0.0f};
    }
    for (int s = 0; s < dev->sm_count; s++)
        ms->sms[s].blocks = ms->nblocks / (uint64_t)dev->sm_count +
                            ((uint64_t)s < ms->nblocks % (uint64_t)dev->sm_count);
    return ms;
}

void ws_memstats_set_resident_blocks(ws_memstats *ms, int blocks_per_sm)
{
    ms->resident = blocks_per_sm > 0 ? blocks_per_sm : 1;
}

int ws_memstats_set_function(ws_memstats *ms, const ptx_function *fn)
{
    ws_deps_free(&ms->deps);
    return ws_deps_init(&ms->deps, fn);
}

void ws_memstats_set_observer(ws_memstats *ms, ws_memstats_observer fn, void *ctx)
{
    ms->observer = fn;
    ms->observer_ctx = ctx;
}

void ws_memstats_free(ws_memstats *ms)
{
    if (!ms)
        return;
    ws_cache_free(ms->cache);
    ws_deps_free(&ms->deps);
    free(ms->warps);
    free(ms->pcs);
    free(ms->sms);
    free(ms);
}

int ws_memstats_block_sm(const ws_memstats *ms, uint32_t block_linear)
{
    return (int)(block_linear % (uint32_t)ms->dev->sm_count);
}

static uint64_t local_warp_base(const ws_memstats *ms, const ws_mem_event *ev)
{
    uint64_t sm = ev->block_linear % (uint32_t)ms->dev->sm_count;
    uint64_t slot = ev->block_linear / (uint32_t)ms->dev->sm_count % (uint32_t)ms->resident;
    uint64_t warp_slot = (sm * (uint64_t)ms->resident + slot) * (uint64_t)ms->warps_per_block + ev->warp;
    return LOCAL_BASE + warp_slot * LOCAL_WARP_SPAN;
}

static double outcome_latency(const ws_device *d, uint8_t o)
{
    switch (o) {
    case WS_SECT_L1_HIT: return d->l1_hit_cycles;
    case WS_SECT_MERGED: /* waits for the outstanding miss: assume it came from L2 */
    case WS_SECT_L2_HIT: return d->l2_hit_cycles;
    case WS_SECT_DRAM: return d->dram_cycles * WS_LOADED_DRAM_LATENCY_FACTOR;
    default: return 0;
    }
}

/* Memory-level parallelism of one warp. Its loads form epochs: the loads of an epoch
 * are in flight together (ptxas hoists independent loads of a loop body above their
 * first use, and the scoreboard lets a warp issue past outstanding loads), so an epoch
 * costs its slowest load, and epochs follow one another. An epoch ends at a barrier
 * (the block waits for every warp's loads), at a backward jump (the next loop
 * iteration: ptxas does not software-pipeline loads across iterations), and at an
 * access whose address comes from a global/local load (it must wait for that load).
 * lat < 0: an access that costs no latency (a store) but still moves the warp's pc. */
static void epoch(ws_memstats *ms, const ws_mem_event *ev, ws_sm_stats *S, double lat)
{
    warp_epoch *w = ms->warps && ev->warp_global < ms->nwarps ? &ms->warps[ev->warp_global] : NULL;
    if (!w) {
        if (lat > 0)
            S->latency_cycles += lat;
        return;
    }
    int pc = (int)ev->pc;
    bool dependent = ms->deps.ninsns && pc < ms->deps.ninsns && (ms->deps.flags[pc] & WS_DEP_ADDR_FROM_LOAD);
    if (w->last_pc < 0 || pc <= w->last_pc || dependent || ws_deps_barrier_between(&ms->deps, w->last_pc, pc)) {
        S->latency_cycles += w->epoch_cycles;
        w->epoch_cycles = 0;
    }
    w->last_pc = pc;
    if (lat > w->epoch_cycles)
        w->epoch_cycles = (float)lat;
}

void ws_memstats_listener(void *ctx, const ws_mem_event *ev)
{
    ws_memstats *ms = ctx;
    if (ms->finished)
        return;
    ms->t.events++;
    int sm = ws_memstats_block_sm(ms, ev->block_linear);
    ws_sm_stats *S = &ms->sms[sm];
    int op = ev->op <= WS_MEM_REDUCE ? (int)ev->op : WS_MEM_LOAD;
    ws_pc_stats *p = ev->pc < (uint32_t)ms->ninsns ? &ms->pcs[ev->pc] : NULL;
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
    }
    S->mem_inst++;

    const ws_coalesce_result *co = NULL;
    const ws_bank_result *bk = NULL;
    const ws_cache_access *ca = NULL;
    if (ev->space == WS_SPACE_GLOBAL || ev->space == WS_SPACE_LOCAL) {
        ws_mem_counts *c = ev->space == WS_SPACE_GLOBAL ? &ms->t.global[op] : &ms->t.local[op];
        c->inst++;
        if (ws_coalesce(ev, local_warp_base(ms, ev), &ms->co) == 0 && ms->co.requests) {
            co = &ms->co;
            c->requests += (uint64_t)co->requests;
            c->sectors += (uint64_t)co->sectors;
            c->ideal_sectors += (uint64_t)co->ideal_sectors;
            c->lines += (uint64_t)co->lines;
            c->bytes_used += (uint64_t)co->bytes_used;
            S->l1_wavefronts += (uint64_t)co->lines;
            if (ws_cache_access_event(ms->cache, sm, ev, co, &ms->ca) == 0) {
                ca = &ms->ca;
                double lat = -1;
                if (ev->op != WS_MEM_STORE)
                    for (int i = 0; i < co->nentries; i++) {
                        double l = outcome_latency(ms->dev, ca->outcome[i]);
                        if (l > lat)
                            lat = l;
                    }
                epoch(ms, ev, S, lat);
            }
            if (p) {
                p->requests += (uint64_t)co->requests;
                p->sectors += (uint64_t)co->sectors;
                p->ideal_sectors += (uint64_t)co->ideal_sectors;
                p->lines += (uint64_t)co->lines;
                p->bytes_used += (uint64_t)co->bytes_used;
                if (ca) {
                    p->l1_hit_sectors += (uint64_t)ca->l1_hit_sectors;
                    p->l1_miss_sectors += (uint64_t)ca->l1_miss_sectors;
                    p->l2_sectors += (uint64_t)ca->l2_sectors;
                    p->l2_hit_sectors += (uint64_t)ca->l2_hit_sectors;
                    p->l2_miss_sectors += (uint64_t)ca->l2_miss_sectors;
                    p->dram_read_bytes += ca->dram_read_bytes;
                }
            }
        }
    } else if (ev->space == WS_SPACE_SHARED) {
        ws_mem_counts *c = &ms->t.shared[op];
        c->inst++;
        if (ws_banks(ev, &ms->bk) == 0 && ms->bk.wavefronts) {
            bk = &ms->bk;
            c->wavefronts += (uint64_t)bk->wavefronts;
            c->ideal_wavefronts += (uint64_t)bk->ideal;
            c->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
            c->excess += (uint64_t)bk->excess;
            S->l1_wavefronts += (uint64_t)bk->wavefronts;
            /* a shared load waits for its last wavefront */
            epoch(ms, ev, S, ev->op != WS_MEM_STORE ? ms->dev->l1_hit_cycles + (bk->wavefronts - 1) : -1);
            if (p) {
                p->wavefronts += (uint64_t)bk->wavefronts;
                p->ideal_wavefronts += (uint64_t)bk->ideal;
                p->ncu_conflicts += (uint64_t)bk->ncu_conflicts;
                p->excess += (uint64_t)bk->excess;
            }
        }
    } else if (ev->space == WS_SPACE_CONST) {
        ms->t.const_inst++;
    } else {
        ms->t.param_inst++;
    }
    if (ms->observer)
        ms->observer(ms->observer_ctx, ev, sm, co, bk, ca);
}

void ws_memstats_finish(ws_memstats *ms)
{
    if (ms->finished)
        return;
    ws_cache_finish(ms->cache);
    for (uint64_t w = 0; ms->warps && w < ms->nwarps; w++) /* close every open epoch */
        ms->sms[w / (uint64_t)ms->warps_per_block % (uint64_t)ms->dev->sm_count].latency_cycles +=
            ms->warps[w].epoch_cycles;
    ms->t.cache = *ws_cache_get_totals(ms->cache);
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
    const ws_cache_totals *c = ms->finished ? &t->cache : ws_cache_get_totals(ms->cache);
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
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "sectors global atomics touched", (double)ga->sectors, WS_BASIS_EXACT},
        {"smsp__sass_inst_executed_op_global_red.sum", "global reduction instructions (atomics without return)", (double)gr->inst, WS_BASIS_EXACT},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "sectors global reductions touched", (double)gr->sectors, WS_BASIS_EXACT},
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
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared atomic wavefronts (bank rule assumed, not measured)", (double)(sa->wavefronts + sr->wavefronts), WS_BASIS_MODEL},
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
    return n;
}
