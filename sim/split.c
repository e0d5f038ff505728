/* split.c - the pipeline's threads' split listener (see split.h). A worker's record is one
 * event the SASS stage emitted, with its geometry: an atomic's own contention result, then the
 * coalescer's result packed (its counts, the per-lane arrays, only the entries it has) and the
 * cache model's front, or the bank result whole; the replay unpacks the sectors into one
 * scratch result and feeds the ordered models. */
#include "split.h"

#include <stdlib.h>
#include <string.h>

enum { GEOM_NONE, GEOM_CO, GEOM_BK };
enum { ADDR_WHOLE, ADDR_AFFINE, ADDR_DELTA };

/* The event's fields before its per-lane arrays; then its addresses in the smallest form that
 * gives them back exactly (lane l at base + l x stride; base + a signed 32-bit offset each; or
 * whole), then gline and gsector only for the event that has them (an LDGSTS shared write: the
 * bank rule, on the worker, is their only reader). A matmul's shared load is 296 bytes here
 * with its bank result's rows (below), instead of 688 (the ring's records went through memory). */
#define EV_HEAD offsetof(ws_mem_event, gline)
_Static_assert(offsetof(ws_mem_event, block_linear) + sizeof(uint32_t) <= EV_HEAD &&
               offsetof(ws_mem_event, op) + sizeof(ws_mem_op) <= EV_HEAD, "peek reads them from the head");
_Static_assert(offsetof(ws_mem_event, gsector) == EV_HEAD + 32 && offsetof(ws_mem_event, addr) >= EV_HEAD + 64 &&
               sizeof(ws_mem_event) == offsetof(ws_mem_event, addr) + 32 * sizeof(uint64_t),
               "split.c packs ws_mem_event as its head, gline, gsector, addr");

typedef struct {
    uint8_t geom;             /* GEOM_* */
    uint8_t has_at;           /* 1: an atomic's ws_atomic_result follows the event */
    uint8_t addr_form;        /* ADDR_* */
    uint8_t lanes_bytes;      /* 1: gline and gsector follow the addresses */
    uint32_t pad;
    unsigned char ev[(EV_HEAD + 7) & ~(size_t)7];
} rec_head;

/* The addresses' form and its bytes after the head. */
static int addr_form(const uint64_t *a, size_t *bytes)
{
    /* affine when each half, quarter, ... continues the one before it by its length x the stride
     * (lanes 0 and 1 define it): fixed-length passes, which the compiler vectorises */
    uint64_t s = a[1] - a[0], x = 0;
    for (int l = 0; l < 16; l++) x |= a[l + 16] ^ (a[l] + 16 * s);
    for (int l = 0; l < 8; l++) x |= a[l + 8] ^ (a[l] + 8 * s);
    for (int l = 0; l < 4; l++) x |= a[l + 4] ^ (a[l] + 4 * s);
    for (int l = 0; l < 2; l++) x |= a[l + 2] ^ (a[l] + 2 * s);
    if (!x) {
        *bytes = 2 * sizeof(uint64_t);
        return ADDR_AFFINE;
    }
    uint64_t bad = 0;
    for (int k = 0; k < 32; k++)
        bad |= (a[k] - a[0] + 0x80000000ull) >> 32;   /* outside int32 */
    if (!bad) {
        *bytes = sizeof(uint64_t) + 32 * sizeof(int32_t);
        return ADDR_DELTA;
    }
    *bytes = 32 * sizeof(uint64_t);
    return ADDR_WHOLE;
}

static unsigned char *put_addr(unsigned char *r, int form, const uint64_t *a)
{
    if (form == ADDR_AFFINE) {
        uint64_t v[2] = {a[0], a[1] - a[0]};
        memcpy(r, v, sizeof v);
        return r + sizeof v;
    }
    if (form == ADDR_DELTA) {
        int32_t d[32];
        for (int l = 0; l < 32; l++)
            d[l] = (int32_t)(uint32_t)(a[l] - a[0]);
        memcpy(r, &a[0], sizeof a[0]);
        memcpy(r + sizeof a[0], d, sizeof d);
        return r + sizeof a[0] + sizeof d;
    }
    memcpy(r, a, 32 * sizeof *a);
    return r + 32 * sizeof *a;
}

static const unsigned char *get_addr(const unsigned char *r, int form, uint64_t *a)
{
    if (form == ADDR_AFFINE) {
        uint64_t v[2];
        memcpy(v, r, sizeof v);
        a[0] = v[0];
        a[1] = v[0] + v[1];
        /* lanes n..2n-1 are lanes 0..n-1 moved by n strides: fixed-length passes, vectorised */
        for (int l = 0; l < 2; l++) a[l + 2] = a[l] + 2 * v[1];
        for (int l = 0; l < 4; l++) a[l + 4] = a[l] + 4 * v[1];
        for (int l = 0; l < 8; l++) a[l + 8] = a[l] + 8 * v[1];
        for (int l = 0; l < 16; l++) a[l + 16] = a[l] + 16 * v[1];
        return r + sizeof v;
    }
    if (form == ADDR_DELTA) {
        uint64_t b;
        int32_t d[32];
        memcpy(&b, r, sizeof b);
        memcpy(d, r + sizeof b, sizeof d);
        for (int l = 0; l < 32; l++)
            a[l] = b + (uint64_t)(int64_t)d[l];
        return r + sizeof b + sizeof d;
    }
    memcpy(a, r, 32 * sizeof *a);
    return r + 32 * sizeof *a;
}

/* A bank result with its group_words rows past ngroups left out when they are 0 (banks.h: they
 * are; checked, as a rule that filled them would be kept whole): a 4-byte access's is 176 bytes
 * instead of 272. The rows kept: the first bk_rows(bk) of them, 4 when whole. */
#define BK_HEAD offsetof(ws_bank_result, group_words)
#define BK_TAIL offsetof(ws_bank_result, sectors_rerequested)
_Static_assert(BK_TAIL == BK_HEAD + sizeof(((ws_bank_result *)0)->group_words), "group_words, then the rest");

static int bk_rows(const ws_bank_result *bk)
{
    int g = bk->ngroups >= 1 && bk->ngroups <= 4 ? bk->ngroups : 4;
    uint64_t any = 0, w[16];
    memcpy(w, bk->group_words, sizeof w);
    for (int i = g * 4; i < 16; i++) any |= w[i];
    return any ? 4 : g;
}

static size_t bk_bytes(int rows) { return BK_HEAD + (size_t)rows * WS_BANKS + (sizeof(ws_bank_result) - BK_TAIL); }

/* ws_coalesce_result's counts and lane_nsectors, then nentries entries, then each lane's
 * lane_nsectors[l] indices in lane order (the record a worker passes through the caches of
 * two cores: a few hundred bytes where the whole result is 6.7 KB) */
typedef struct {
    int requests, sectors, lines, ideal_sectors, bytes_used, distinct_sectors, nentries, nidx;
    int one;                  /* 1: every lane in at most one entry, the one whose lanes hold it; no indices
                                 follow (the replay finds them from the entries) */
    uint8_t lane_nsectors[32];
} co_head;

/* Whether co's per-lane lists are implied by its entries: each lane lists at most one entry, and
 * the entries' lane masks hold nidx lanes in all (so each listed lane is in exactly its entry). */
static int one_entry_per_lane(const ws_coalesce_result *co, int *nidx)
{
    uint64_t w[4], any = 0;
    memcpy(w, co->lane_nsectors, sizeof w);
    for (int i = 0; i < 4; i++) any |= w[i];
    if (any & 0xFEFEFEFEFEFEFEFEull) {
        *nidx = 0;
        for (int l = 0; l < 32; l++) *nidx += co->lane_nsectors[l];
        return 0;
    }
    *nidx = __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) + __builtin_popcountll(w[2]) + __builtin_popcountll(w[3]);
    int held = 0;
    for (int i = 0; i < co->nentries; i++) held += __builtin_popcount(co->entries[i].lanes);
    return held == *nidx;
}

/* The cache model's front of a GEOM_CO event (ws_cache_front), less its per-group bytes, which
 * follow (8-byte aligned after the lanes' indices): ngroups of g, then ngroups of gn */
typedef struct {
    uint64_t now;
    int rc, ngroups, st_hit, st_merged, st_partial;
} fr_head;

struct ws_pipeline_split {
    ws_models *m;
    ws_sass_stage *stage;     /* the calling thread's: it numbers the replayed events */
    const ws_sass_plan *plan;
    ws_coalesce_result co;    /* the replayed event's sectors */
    ws_cache_front fr;        /* and its cache front */
    ws_mem_event ev;          /* and the event itself */
    ws_bank_result bk;        /* or its bank result */
};

typedef struct {
    ws_pipeline_split *p;
    ws_sass_stage *stage;     /* the worker's, downstream: worker_down */
    ws_models_half *half;
    ws_split_out *out;        /* the block's records, during a call */
} worker;

static void worker_down(void *ctx, const ws_mem_event *ev)
{
    worker *w = ctx;
    const ws_coalesce_result *co;
    const ws_bank_result *bk;
    const ws_cache_front *fr;
    const ws_atomic_result *ar;
    ws_models_half_event(w->half, ev, &co, &bk, &fr, &ar);
    size_t abytes;
    int form = addr_form(ev->addr, &abytes);
    int lanes_bytes = ev->kind == WS_KIND_LDGSTS;
    size_t n = sizeof(rec_head) + abytes + (lanes_bytes ? 64 : 0) + (ar ? sizeof *ar : 0);
    int nidx = 0, one = 0;
    if (co) {   /* ws_models_half_event gives a front with every co */
        one = one_entry_per_lane(co, &nidx);
        n += sizeof(co_head) + (size_t)co->nentries * sizeof co->entries[0] + (one ? 0 : (size_t)nidx * sizeof(uint16_t));
        n = (n + 7) & ~(size_t)7;
        n += sizeof(fr_head) + 2 * (size_t)fr->ngroups;
    }
    int rows = bk ? bk_rows(bk) : 0;
    if (bk) n += 8 + ((bk_bytes(rows) + 7) & ~(size_t)7);
    unsigned char *r = ws_split_put(w->out, n), *rec0 = r;
    if (!r) return;
    rec_head *h = (rec_head *)r;
    h->geom = co ? GEOM_CO : bk ? GEOM_BK : GEOM_NONE;
    h->has_at = ar != NULL;
    h->addr_form = (uint8_t)form;
    h->lanes_bytes = (uint8_t)lanes_bytes;
    h->pad = 0;
    memcpy(h->ev, ev, EV_HEAD);
    r = put_addr(r + sizeof *h, form, ev->addr);
    if (lanes_bytes) {
        memcpy(r, ev->gline, 64);   /* gline, then gsector */
        r += 64;
    }
    if (ar) {
        memcpy(r, ar, sizeof *ar);
        r += sizeof *ar;
    }
    if (co) {
        co_head *c = (co_head *)r;
        c->requests = co->requests;
        c->sectors = co->sectors;
        c->lines = co->lines;
        c->ideal_sectors = co->ideal_sectors;
        c->bytes_used = co->bytes_used;
        c->distinct_sectors = co->distinct_sectors;
        c->nentries = co->nentries;
        c->nidx = nidx;
        c->one = one;
        memcpy(c->lane_nsectors, co->lane_nsectors, sizeof c->lane_nsectors);
        unsigned char *at = r + sizeof *c;
        memcpy(at, co->entries, (size_t)co->nentries * sizeof co->entries[0]);
        at += (size_t)co->nentries * sizeof co->entries[0];
        if (!one)
            for (int l = 0; l < 32; l++)
                for (int k = 0; k < co->lane_nsectors[l]; k++, at += 2) memcpy(at, &co->lane_sector[l][k], 2);
        at = rec0 + (((size_t)(at - rec0) + 7) & ~(size_t)7);
        fr_head *f = (fr_head *)at;
        *f = (fr_head){fr->now, fr->rc, fr->ngroups, fr->st_hit, fr->st_merged, fr->st_partial};
        memcpy(at + sizeof *f, fr->g, (size_t)fr->ngroups);
        memcpy(at + sizeof *f + fr->ngroups, fr->gn, (size_t)fr->ngroups);
    } else if (bk) {
        uint64_t nr = (uint64_t)rows;
        memcpy(r, &nr, 8);
        memcpy(r + 8, bk, BK_HEAD);
        if (rows == 1) memcpy(r + 8 + BK_HEAD, bk->group_words, WS_BANKS);   /* constant sizes: no library call */
        else memcpy(r + 8 + BK_HEAD, bk->group_words, (size_t)rows * WS_BANKS);
        memcpy(r + 8 + BK_HEAD + (size_t)rows * WS_BANKS, (const unsigned char *)bk + BK_TAIL, sizeof *bk - BK_TAIL);
    }
}

static void *worker_new(void *ctx)
{
    ws_pipeline_split *p = ctx;
    worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->p = p;
    w->half = ws_models_half_new(p->m);
    if (p->plan) w->stage = ws_sass_stage_new(p->plan, worker_down, w);
    if (!w->half || (p->plan && !w->stage)) {
        ws_models_half_free(w->half);
        ws_sass_stage_free(w->stage);
        free(w);
        return NULL;
    }
    return w;
}

static void worker_free(void *ctx, void *wp)
{
    ws_pipeline_split *p = ctx;
    worker *w = wp;
    if (w->stage) ws_sass_stage_add_counts(p->stage, w->stage);
    ws_sass_stage_free(w->stage);
    ws_models_half_free(w->half);
    free(w);
}

static void on_event(void *wp, const ws_mem_event *ev, ws_split_out *out)
{
    worker *w = wp;
    w->out = out;
    if (w->stage) ws_sass_stage_listener(w->stage, ev);
    else worker_down(w, ev);
}

static void on_watch(void *wp, const ws_watch_hit *hit, ws_split_out *out)
{
    worker *w = wp;
    w->out = out;
    if (w->stage) ws_sass_stage_watch(w->stage, hit);
}

static void on_flush(void *wp, ws_split_out *out)
{
    worker *w = wp;
    w->out = out;
    if (w->stage) ws_sass_stage_flush(w->stage);
}

static void replay(void *ctx, void *rec, uint64_t seq0)
{
    ws_pipeline_split *p = ctx;
    const unsigned char *r = rec;
    const rec_head *h = rec;
    ws_mem_event *ev = &p->ev;
    memcpy(ev, h->ev, EV_HEAD);
    r = get_addr(r + sizeof *h, h->addr_form, ev->addr);
    if (h->lanes_bytes) {
        memcpy(ev->gline, r, 64);
        r += 64;
    } else {                  /* read by no model after the workers' (the bank rule of an LDGSTS) */
        memset(ev->gline, 0xff, sizeof ev->gline);
        memset(ev->gsector, 0, sizeof ev->gsector);
    }
    /* the stage numbers what it emits from 0 over the launch; without it, the interpreter's */
    ev->seq = p->stage ? ws_sass_stage_take_seq(p->stage) : ev->seq + seq0;
    const ws_coalesce_result *co = NULL;
    const ws_bank_result *bk = NULL;
    const ws_cache_front *fr = NULL;
    const ws_atomic_result *ar = NULL;
    if (h->has_at) {
        ar = (const ws_atomic_result *)r;
        r += sizeof *ar;
    }
    if (h->geom == GEOM_CO) {
        const co_head *c = (const co_head *)r;
        ws_coalesce_result *d = &p->co;
        d->requests = c->requests;
        d->sectors = c->sectors;
        d->lines = c->lines;
        d->ideal_sectors = c->ideal_sectors;
        d->bytes_used = c->bytes_used;
        d->distinct_sectors = c->distinct_sectors;
        d->nentries = c->nentries;
        memcpy(d->lane_nsectors, c->lane_nsectors, sizeof d->lane_nsectors);
        const unsigned char *at = r + sizeof *c;
        memcpy(d->entries, at, (size_t)c->nentries * sizeof d->entries[0]);
        at += (size_t)c->nentries * sizeof d->entries[0];
        if (c->one)                        /* each lane's one entry: the one holding it */
            for (int i = 0; i < c->nentries; i++)
                for (uint32_t m = d->entries[i].lanes; m; m &= m - 1) d->lane_sector[__builtin_ctz(m)][0] = (uint16_t)i;
        else
            for (int l = 0; l < 32; l++)   /* the rest of a lane's row means nothing */
                for (int k = 0; k < c->lane_nsectors[l]; k++, at += 2) memcpy(&d->lane_sector[l][k], at, 2);
        co = d;
        at = (const unsigned char *)rec + (((size_t)(at - (const unsigned char *)rec) + 7) & ~(size_t)7);
        const fr_head *f = (const fr_head *)at;
        ws_cache_front *df = &p->fr;
        df->now = f->now;
        df->rc = f->rc;
        df->ngroups = f->ngroups;
        df->st_hit = f->st_hit;
        df->st_merged = f->st_merged;
        df->st_partial = f->st_partial;
        memcpy(df->g, at + sizeof *f, (size_t)f->ngroups);
        memcpy(df->gn, at + sizeof *f + f->ngroups, (size_t)f->ngroups);
        fr = df;
    } else if (h->geom == GEOM_BK) {
        uint64_t nr;
        memcpy(&nr, r, 8);
        ws_bank_result *d = &p->bk;
        memcpy(d, r + 8, BK_HEAD);
        if (nr == 1) {        /* constant sizes: no library call */
            memcpy(d->group_words, r + 8 + BK_HEAD, WS_BANKS);
            memset(d->group_words[1], 0, 3 * WS_BANKS);
        } else {
            memcpy(d->group_words, r + 8 + BK_HEAD, (size_t)nr * WS_BANKS);
            memset(d->group_words[nr], 0, (4 - (size_t)nr) * WS_BANKS);
        }
        memcpy((unsigned char *)d + BK_TAIL, r + 8 + BK_HEAD + (size_t)nr * WS_BANKS, sizeof *d - BK_TAIL);
        bk = d;
    }
    ws_models_listener_with(p->m, ev, co, bk, fr, ar);
}

/* A coalesced access's sectors (in its record), a few records before its replay, to the cache
 * model's prefetch: the replay thread's L2 tables miss the host's caches (a copy's every line is new). */
static void peek(void *ctx, const void *rec, int stage)
{
    const ws_pipeline_split *p = ctx;
    const rec_head *h = rec;
    if (h->geom != GEOM_CO)
        return;
    size_t abytes = h->addr_form == ADDR_AFFINE ? 2 * sizeof(uint64_t)
                  : h->addr_form == ADDR_DELTA ? sizeof(uint64_t) + 32 * sizeof(int32_t) : 32 * sizeof(uint64_t);
    const unsigned char *r = (const unsigned char *)rec + sizeof *h + abytes + (h->lanes_bytes ? 64 : 0) +
                             (h->has_at ? sizeof(ws_atomic_result) : 0);
    const co_head *c = (const co_head *)r;
    uint32_t block;
    ws_mem_op op;
    memcpy(&block, h->ev + offsetof(ws_mem_event, block_linear), sizeof block);
    memcpy(&op, h->ev + offsetof(ws_mem_event, op), sizeof op);
    ws_models_prefetch(p->m, block, (int)op, r + sizeof *c, c->nentries, stage);
}

static const ws_split_listener halves = {worker_new, worker_free, on_event, on_watch, on_flush, replay, peek};

ws_pipeline_split *ws_pipeline_split_attach(ws_sim_config *cfg, ws_models *m, ws_sass_stage *stage,
                                            const ws_sass_plan *plan, bool *oom)
{
    *oom = false;
    if (stage ? cfg->listener != ws_sass_stage_listener || cfg->listener_ctx != stage
              : cfg->listener != ws_models_listener || cfg->listener_ctx != m)
        return NULL;
    ws_pipeline_split *p = calloc(1, sizeof *p);
    if (!p) { *oom = true; return NULL; }
    p->m = m;
    p->stage = stage;
    p->plan = stage ? plan : NULL;
    cfg->split = &halves;
    cfg->split_ctx = p;
    /* the cache fronts keep each SM's L1 across its blocks: block b starts only after block
     * b - sm_count, the SM's block before it, was replayed (so its front has run) */
    cfg->split_ahead = (uint32_t)ws_models_device(m)->sm_count;
    return p;
}

void ws_pipeline_split_free(ws_pipeline_split *p) { free(p); }
