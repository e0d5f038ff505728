/* models.c - runs the coalescer, bank, cache and latency models on each event and hands
 * the verdict to the sinks (see models.h). Scratch results live in the ws_models so the
 * hot path allocates nothing. */
#include "models.h"

#include "../../common/ws_assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_BASE 0x0000700000000000ull
#define LOCAL_WARP_SPAN (32ull * 512 * 1024) /* 32 lanes x the 512 KiB per-thread local limit */

typedef struct {
    ws_verdict_fn fn;
    void *ctx;
} sink;

/* Bank results of recent access shapes (bank_memo below). */
#define BANK_MEMO_SLOTS 64
typedef struct {
    uint64_t hash;
    uint32_t mask, zfill;
    uint8_t rule, width, used;
    int rc;
    uint32_t rel[32];          /* the active lanes' addresses less the first one's row start, in lane order */
    uint8_t src[32];           /* LDGSTS: each lane's global line * 4 + sector (0xff none): its rule reads them */
    ws_bank_result r;
} bank_memo_entry;

struct ws_models {
    const ws_device *dev;
    int warps_per_block;
    int resident;              /* blocks per SM in one wave */
    int finished;
    ws_cache *cache;
    ws_atomics *atomics;
    sink sinks[WS_MODELS_MAX_SINKS];
    int nsinks;
    ws_coalesce_result co;     /* scratch */
    ws_bank_result bk;
    ws_cache_access ca;
    ws_atomic_result at;
    bank_memo_entry *memo;     /* BANK_MEMO_SLOTS, NULL = none (out of memory: every shape is costed) */
};

int ws_models_check_device(const ws_device *dev, char *why, size_t why_size)
{
    const char *bad = NULL;
    if (dev->sm_count <= 0)
        bad = "sm_count must be positive";
    else if (dev->sector_bytes != WS_SECTOR_BYTES)
        bad = "sector_bytes: the coalescer and caches implement 32-B sectors only";
    else if (dev->line_bytes != WS_LINE_BYTES)
        bad = "line_bytes: the coalescer and caches implement 128-B lines only";
    else if (dev->banks != WS_BANKS || dev->bank_bytes != 4)
        bad = "banks/bank_bytes: the bank model implements 32 banks of 4 bytes only";
    else if (!(dev->dram_queue_cycles >= 0))
        bad = "dram_queue_cycles must be a number >= 0 (the latency model's DRAM queueing)";
    if (!bad)
        return 0;
    snprintf(why, why_size, "device profile '%s': %s", dev->key ? dev->key : "?", bad);
    return -1;
}

ws_models *ws_models_new(const ws_device *dev, const ws_launch *launch, uint32_t l1_bytes)
{
    char why[160];
    if (!dev || !launch || ws_models_check_device(dev, why, sizeof why))
        return NULL;
    ws_models *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->dev = dev;
    m->warps_per_block = (int)ws_launch_warps_per_block(launch);
    m->resident = 1;
    ws_cache_config cfg;
    ws_cache_config_from_device(&cfg, dev, l1_bytes);
    m->cache = ws_cache_new(&cfg);
    m->atomics = ws_atomics_new(dev);
    m->memo = calloc(BANK_MEMO_SLOTS, sizeof *m->memo);  /* none: slower, the same answers */
    if (!m->cache || !m->atomics) {
        ws_models_free(m);
        return NULL;
    }
    ws_cache_set_grid_blocks(m->cache, ws_launch_blocks(launch)); /* read coalescing: drift, a small grid's GPCs */
    ws_cache_set_block_warps(m->cache, m->warps_per_block);      /* store merging's window */
    ws_models_set_resident_blocks(m, 1);
    return m;
}

void ws_models_set_resident_blocks(ws_models *m, int blocks_per_sm)
{
    m->resident = blocks_per_sm > 0 ? blocks_per_sm : 1;
    ws_cache_set_resident(m->cache, m->resident); /* read coalescing's block-slot clocks; on failure the old slots */
    /* the warps in flight together: the atomics' window (docs/timing-model.md "Contention") */
    ws_atomics_set_window(m->atomics, (uint64_t)m->resident * (uint64_t)(m->warps_per_block > 0 ? m->warps_per_block : 1) *
                                          (uint64_t)m->dev->sm_count);
}

void ws_models_set_drift_scale(ws_models *m, double scale) { ws_cache_set_drift_scale(m->cache, scale); }
void ws_models_set_trace(ws_models *m, ws_cache_trace_fn fn, void *ctx) { ws_cache_set_trace(m->cache, fn, ctx); }

int ws_models_add_sink(ws_models *m, ws_verdict_fn fn, void *ctx)
{
    if (m->nsinks == WS_MODELS_MAX_SINKS)
        return -1;
    m->sinks[m->nsinks++] = (sink){fn, ctx};
    return 0;
}

void ws_models_free(ws_models *m)
{
    if (!m)
        return;
    ws_cache_free(m->cache);
    ws_atomics_free(m->atomics);
    free(m->memo);
    free(m);
}

int ws_block_sm(uint32_t block_linear, int sm_count)
{
    return (int)(block_linear % (uint32_t)sm_count);
}

uint64_t ws_blocks_on_sm(uint64_t nblocks, int sm_count, int s)
{
    return nblocks / (uint64_t)sm_count + ((uint64_t)s < nblocks % (uint64_t)sm_count);
}

int ws_models_block_sm(const ws_models *m, uint32_t block_linear)
{
    return ws_block_sm(block_linear, m->dev->sm_count);
}

void ws_models_prefetch(const ws_models *m, uint32_t block_linear, int op, const void *entries, int n, int stage)
{
    ws_cache_prefetch(m->cache, ws_models_block_sm(m, block_linear), block_linear, op, entries, n, stage);
}

const ws_device *ws_models_device(const ws_models *m) { return m->dev; }
const ws_cache_totals *ws_models_cache_totals(const ws_models *m) { return ws_cache_get_totals(m->cache); }
const ws_atomic_totals *ws_models_atomic_totals(const ws_models *m) { return ws_atomics_totals(m->atomics); }

static uint64_t local_warp_base(const ws_models *m, const ws_mem_event *ev)
{
    uint64_t sm = ev->block_linear % (uint32_t)m->dev->sm_count;
    uint64_t slot = ev->block_linear / (uint32_t)m->dev->sm_count % (uint32_t)m->resident;
    uint64_t warp_slot = (sm * (uint64_t)m->resident + slot) * (uint64_t)m->warps_per_block + ev->warp;
    return LOCAL_BASE + warp_slot * LOCAL_WARP_SPAN;
}

/* The bank rule of a shared event: ldmatrix / stmatrix go by phases (banks.h). */
static int bank_rule(const ws_mem_event *ev, ws_bank_result *bk)
{
    if (ev->kind == WS_KIND_LDSM || ev->kind == WS_KIND_STSM)
        return ws_banks_ldsm(ev, bk);
    if (ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA)
        return -1; /* the TMA unit's shared side is no LSU access: no wavefronts are modelled for it */
    if (ev->kind == WS_KIND_GMMA)
        return -1; /* the tensor core's descriptor reads: their wavefront rule is not known (docs/interp.md) */
    if (ev->kind == WS_KIND_LDGSTS)
        return ws_banks_ldgsts(ev, bk);  /* the zero-filling form's copying lanes cost twice (banks.h) */
    return ws_banks(ev, bk);
}

/* bank_rule through m's memo. A warp's shared access repeats its shape in every block and
 * iteration (a tile row, a broadcast), and the rule reads the addresses only through their
 * differences, their equality and their banks (address / 4 % 32): moving every lane by whole
 * 128-byte rows changes no field of ws_bank_result. So the shape - the active lanes' addresses
 * less the first one's row start, with kind, width and masks - finds the result computed
 * before, the same bytes the rule would give. The bank rule is most of the models' time in a
 * shared-memory kernel (a tiled matmul), and it runs on the one thread that replays events in
 * order (sim/interp/interp_par.c) unless a worker does it first (ws_models_half). */
static int bank_memo(bank_memo_entry *memo, const ws_mem_event *ev, ws_bank_result *bk)
{
    int rule = ev->kind == WS_KIND_LDSM || ev->kind == WS_KIND_STSM ? 1 : ev->kind == WS_KIND_LDGSTS ? 2 : 0;
    uint32_t am = ev->active_mask;
    if (!memo || !am || ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA || ev->kind == WS_KIND_GMMA)
        return bank_rule(ev, bk);
    /* one pass: each lane's address less the first active lane's row start (within +-2 GiB, so
     * 32 bits name it; farther, or near 2^64 where the rule's wrap test matters: no memo) */
    uint64_t ref = ev->addr[__builtin_ctz(am)] & ~(uint64_t)127;
    uint32_t rel[32];
    int n = 0;
    /* the key's hash from the offsets' sum and xor and the last one (no multiply per lane: the
     * entry's own offsets are compared whole, so the hash only spreads shapes over the slots) */
    uint64_t bad = 0, sum = 0;
    uint32_t x = 0;
    if (am == 0xffffffffu) {                     /* a full warp: the same pass, vectorised */
        for (int l = 0; l < 32; l++) {
            uint64_t a = ev->addr[l];
            uint64_t d = a - ref;
            bad |= (a >> 62) | ((d + 0x80000000ull) >> 32);
            rel[l] = (uint32_t)d;
            sum += (uint32_t)d;
            x ^= (uint32_t)d;
        }
        n = 32;
    } else
        for (uint32_t mm = am; mm; mm &= mm - 1) {
            uint64_t a = ev->addr[__builtin_ctz(mm)];
            uint64_t d = a - ref;
            bad |= (a >> 62) | ((d + 0x80000000ull) >> 32);   /* d outside int32 */
            rel[n++] = (uint32_t)d;
            sum += (uint32_t)d;
            x ^= (uint32_t)d;
        }
    if (bad)
        return bank_rule(ev, bk);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)am << 8) ^ ((uint64_t)ev->width << 2) ^ (uint64_t)rule;
    h = (h ^ sum) * 0x100000001b3ull;
    h = (h ^ x ^ (uint64_t)rel[n - 1] << 32) * 0x100000001b3ull;
    h ^= ev->zfill_copy_mask;
    uint8_t src[32];                             /* the LDGSTS rule reads the lanes' global sectors too */
    if (rule == 2) {
        memset(src, 0xff, sizeof src);
        for (int l = 0; l < 32; l++)
            if (am >> l & 1 && ev->gline[l] != 0xff) {
                src[l] = (uint8_t)(ev->gline[l] * 4 + (ev->gsector[l] & 3));
                h = (h ^ src[l] ^ (uint64_t)l << 8) * 0x100000001b3ull;
            }
    }
    h ^= h >> 29;
    bank_memo_entry *e = &memo[(h ^ (h >> 17)) % BANK_MEMO_SLOTS];
    /* src is compared only for the LDGSTS rule: an entry of another rule holds none (all 0xff) */
    if (e->used && e->hash == h && e->mask == am && e->zfill == ev->zfill_copy_mask && e->rule == rule &&
        e->width == ev->width && !memcmp(e->rel, rel, (size_t)n * sizeof rel[0]) &&
        (rule != 2 || !memcmp(e->src, src, sizeof src))) {
        *bk = e->r;
        return e->rc;
    }
    if (rule != 2)
        memset(src, 0xff, sizeof src);
    int rc = bank_rule(ev, bk);
    e->used = 1;
    e->hash = h;
    e->mask = am;
    e->zfill = ev->zfill_copy_mask;
    e->rule = (uint8_t)rule;
    e->width = ev->width;
    e->rc = rc;
    memcpy(e->rel, rel, (size_t)n * sizeof rel[0]);
    memcpy(e->src, src, sizeof src);
    e->r = *bk;
    return rc;
}

static double outcome_latency(const ws_device *d, uint8_t o)
{
    switch (o) {
    case WS_SECT_L1_HIT: return d->l1_hit_cycles;
    case WS_SECT_MERGED: /* waits for the outstanding miss: assume it came from L2 */
    case WS_SECT_L2_HIT:
    case WS_SECT_L2_FAR: /* the fabric hop is not timed: as a hit */
        return d->l2_hit_cycles;
    case WS_SECT_DRAM: return d->dram_cycles; /* unloaded: timing.c adds the queueing the load causes */
    default: return 0;
    }
}

double ws_latency_of_access(const ws_device *dev, const ws_mem_verdict *v)
{
    if (v->ev->op == WS_MEM_STORE || v->ev->op == WS_MEM_REDUCE)
        return -1; /* a reduction returns nothing: nothing waits for it (docs/timing-model.md) */
    if (v->bk && v->at) /* a shared atomic waits for its last serialised pass */
        return dev->l1_hit_cycles + (v->at->shared_passes - 1) * dev->shared_atom_cycles_per_pass;
    if (v->bk) /* a shared load waits for its last wavefront */
        return dev->l1_hit_cycles + (v->bk->wavefronts - 1);
    double lat = -1;
    if (v->co && v->ca)
        for (int i = 0; i < v->co->nentries; i++) {
            double l = outcome_latency(dev, v->ca->outcome[i]);
            if (l > lat)
                lat = l;
        }
    if (lat >= 0 && v->ca && v->ca->l2_hit_inflight_sectors && dev->dram_cycles > lat)
        lat = dev->dram_cycles; /* a hit on a fill still in flight waits for it (cache.h) */
    if (lat >= 0 && v->at) { /* an ATOM returns after its own lanes on one address have gone in turn */
        double ns = v->ev->atom_float ? dev->atom_same_address_float_ns : dev->atom_same_address_ns;
        lat += (v->at->same_addr_max - 1) * ns * dev->sm_clock_mhz / 1000.0; /* ns -> SM cycles */
    }
    return lat;
}

/* The distinct 32-byte sectors of a distributed shared memory access (the assumed rule of
 * metrics.h's DSMEM rows): each active lane's bytes, in that block's window. */
static int dsmem_sectors(const ws_mem_event *ev)
{
    uint64_t seen[64];
    int n = 0;
    for (uint32_t mm = ev->active_mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        for (uint64_t s = ev->addr[l] / 32; s <= (ev->addr[l] + (ev->width ? ev->width : 1) - 1) / 32; s++) {
            int k = 0;
            while (k < n && seen[k] != s) k++;
            if (k == n && n < 64) seen[n++] = s;
        }
    }
    return n;
}

/* The geometry of ev (the order-free models): the coalescer's result in *co or the bank
 * rule's in *bk; returns 1 for co, 2 for bk, 0 for neither. */
static int geometry(const ws_models *m, bank_memo_entry *memo, const ws_mem_event *ev, ws_coalesce_result *co,
                    ws_bank_result *bk)
{
    if (ev->space == WS_SPACE_GLOBAL || ev->space == WS_SPACE_LOCAL)
        return ws_coalesce(ev, local_warp_base(m, ev), co) == 0 && co->requests ? 1 : 0;
    if (ev->space == WS_SPACE_SHARED && !ev->dsmem)
        return bank_memo(memo, ev, bk) == 0 && bk->wavefronts ? 2 : 0;
    return 0;
}

/* ws_models_event with the geometry known (co, bk: geometry's answer) and, when fr is not NULL, the
 * cache model's front half of a co event (ws_cache_front, run where the block ran). */
static void event_with(ws_models *m, const ws_mem_event *ev, const ws_coalesce_result *co, const ws_bank_result *bk,
                       const ws_cache_front *fr, const ws_atomic_result *at, ws_mem_verdict *v)
{
    v->ev = ev;
    v->sm = ws_models_block_sm(m, ev->block_linear);
    v->co = co;
    v->bk = bk;
    v->ca = NULL;
    v->latency = -1;
    v->has_latency = 0;
    v->at = NULL;
    v->ds_requests = v->ds_sectors = 0;
    if (ev->space == WS_SPACE_SHARED && ev->dsmem) {
        v->ds_requests = 1;
        v->ds_sectors = dsmem_sectors(ev);
    } else if (co && (fr ? ws_cache_access_back(m->cache, v->sm, ev, co, fr, &m->ca)
                         : ws_cache_access_event(m->cache, v->sm, ev, co, &m->ca)) == 0) {
        v->ca = &m->ca;
    }
    if ((ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE) &&
        (at ? ws_atomics_event_with(m->atomics, v->sm, ev, v->co, at, &m->at)
            : ws_atomics_event(m->atomics, v->sm, ev, v->co, &m->at)) != 0) /* -1 (out of memory): counts so far */
        v->at = &m->at;
    if (v->ca || v->bk) {
        v->has_latency = 1;
        v->latency = ws_latency_of_access(m->dev, v);
    }
    WS_ASSERT(ws_mem_verdict_check(v) == 0);
}

void ws_models_event(ws_models *m, const ws_mem_event *ev, ws_mem_verdict *v)
{
    int g = geometry(m, m->memo, ev, &m->co, &m->bk);
    event_with(m, ev, g == 1 ? &m->co : NULL, g == 2 ? &m->bk : NULL, NULL, NULL, v);
}

int ws_mem_verdict_check(const ws_mem_verdict *v)
{
    ws_space sp = v->ev->space;
    if (v->co && sp != WS_SPACE_GLOBAL && sp != WS_SPACE_LOCAL) return 1;
    if (v->bk && sp != WS_SPACE_SHARED) return 2;
    if (v->ca && !v->co) return 3;
    return 0;
}

void ws_models_listener(void *ctx, const ws_mem_event *ev)
{
    ws_models *m = ctx;
    if (m->finished)
        return;
    ws_mem_verdict v;
    ws_models_event(m, ev, &v);
    for (int i = 0; i < m->nsinks; i++)
        m->sinks[i].fn(m->sinks[i].ctx, &v);
}

void ws_models_listener_with(ws_models *m, const ws_mem_event *ev, const ws_coalesce_result *co,
                             const ws_bank_result *bk, const ws_cache_front *fr, const ws_atomic_result *at)
{
    if (m->finished)
        return;
    ws_mem_verdict v;
    event_with(m, ev, co, bk, fr, at, &v);
    for (int i = 0; i < m->nsinks; i++)
        m->sinks[i].fn(m->sinks[i].ctx, &v);
}

struct ws_models_half {
    ws_models *m;
    ws_coalesce_result co;
    ws_cache_front fr;
    ws_atomic_result at;
    ws_bank_result bk;
    bank_memo_entry memo[BANK_MEMO_SLOTS];
};

ws_models_half *ws_models_half_new(ws_models *m)
{
    ws_models_half *h = calloc(1, sizeof *h);
    if (h)
        h->m = m;
    return h;
}

void ws_models_half_free(ws_models_half *h) { free(h); }

void ws_models_half_event(ws_models_half *h, const ws_mem_event *ev, const ws_coalesce_result **co,
                          const ws_bank_result **bk, const ws_cache_front **fr, const ws_atomic_result **at)
{
    int g = geometry(h->m, h->memo, ev, &h->co, &h->bk);
    *co = g == 1 ? &h->co : NULL;
    *bk = g == 2 ? &h->bk : NULL;
    *fr = NULL;
    *at = NULL;
    if (ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE) { /* event_with's condition for the contention model */
        ws_atomics_result(h->m->dev, ev, *co, &h->at);
        *at = &h->at;
    }
    if (g == 1 && !(ev->space == WS_SPACE_SHARED && ev->dsmem)) { /* event_with's condition for the cache */
        ws_cache_access_front(h->m->cache, ws_models_block_sm(h->m, ev->block_linear), ev, &h->co, &h->fr);
        *fr = &h->fr;
    }
}

void ws_models_finish(ws_models *m)
{
    if (m->finished)
        return;
    ws_cache_finish(m->cache);
    m->finished = 1;
}

void ws_models_geometry(const ws_mem_event *ev, uint64_t local_warp_base, ws_coalesce_result *co,
                        ws_bank_result *bk, ws_mem_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->ev = ev;
    v->latency = -1;
    if (ev->space == WS_SPACE_GLOBAL || ev->space == WS_SPACE_LOCAL) {
        if (ws_coalesce(ev, local_warp_base, co) == 0 && co->requests)
            v->co = co;
    } else if (ev->space == WS_SPACE_SHARED && !ev->dsmem) {
        if (bank_rule(ev, bk) == 0 && bk->wavefronts)
            v->bk = bk;
    }
}
