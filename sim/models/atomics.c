/* atomics.c - per-address and per-slice-range operation counts of atomics (see atomics.h).
 * Three open-addressing tables (address -> lane-ops, slice range -> sector-ops, slice range
 * -> operand bytes) that double at half load: a histogram touches a few hundred addresses, a
 * distinct-word probe millions, so the tables are sized by what the kernel touches, never by
 * the buffers. */
#include "atomics.h"

#include "banks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY UINT64_MAX   /* no key: global addresses are buffer offsets, never 2^64 - 1 */
#define FLOAT_KEY (1ull << 63) /* a float add's address key: counted apart from integer ops */

typedef struct {
    uint64_t *keys, *counts;
    uint64_t cap, used;    /* cap is a power of two */
} table;

struct ws_atomics {
    const ws_device *dev;
    table addr, slice, data;
    table win_lo, win_hi;  /* (window, slice range) -> its first / last warp + 1: a new key is a new range */
    uint64_t window_warps; /* warps in flight together (ws_atomics_set_window) */
    uint64_t *win_ops, *win_ranges, *win_span; /* per window: sector-ops, distinct ranges, the sum of
                                                  their ranges' warp spans (last - first + 1) */
    uint64_t nwin;
    uint64_t slice_bytes;  /* a power of two */
    uint64_t *sm_passes;   /* per SM: shared atomic passes */
    ws_atomic_totals t;
};

static int table_init(table *t, uint64_t cap)
{
    t->keys = malloc(cap * sizeof *t->keys);
    t->counts = calloc(cap, sizeof *t->counts);
    if (!t->keys || !t->counts) {
        free(t->keys);
        free(t->counts);
        t->keys = t->counts = NULL;
        return -1;
    }
    memset(t->keys, 0xff, cap * sizeof *t->keys);
    t->cap = cap;
    t->used = 0;
    return 0;
}

static uint64_t hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static uint64_t *slot(table *t, uint64_t key)
{
    uint64_t i = hash(key) & (t->cap - 1);
    while (t->keys[i] != EMPTY && t->keys[i] != key)
        i = (i + 1) & (t->cap - 1);
    if (t->keys[i] == EMPTY) {
        t->keys[i] = key;
        t->used++;
    }
    return &t->counts[i];
}

static int grow(table *t)
{
    table n;
    if (table_init(&n, t->cap * 2))
        return -1;
    for (uint64_t i = 0; i < t->cap; i++)
        if (t->keys[i] != EMPTY)
            *slot(&n, t->keys[i]) = t->counts[i];
    free(t->keys);
    free(t->counts);
    *t = n;
    return 0;
}

/* Adds n to key's count; returns the new count, 0 when the table cannot grow. */
static uint64_t table_add(table *t, uint64_t key, uint64_t n)
{
    if (2 * (t->used + 1) > t->cap && grow(t))
        return 0;
    uint64_t *c = slot(t, key);
    *c += n;
    return *c;
}

ws_atomics *ws_atomics_new(const ws_device *dev)
{
    if (!dev || dev->sm_count <= 0)
        return NULL;
    ws_atomics *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->dev = dev;
    /* a profile without a slice granularity: each line its own range */
    a->slice_bytes = WS_LINE_BYTES;
    while (a->slice_bytes < (uint64_t)dev->atom_slice_bytes)
        a->slice_bytes *= 2;
    a->sm_passes = calloc((size_t)dev->sm_count, sizeof *a->sm_passes);
    a->window_warps = 1;
    if (!a->sm_passes || table_init(&a->addr, 64) || table_init(&a->slice, 64) || table_init(&a->data, 64) ||
        table_init(&a->win_lo, 64) || table_init(&a->win_hi, 64)) {
        ws_atomics_free(a);
        return NULL;
    }
    return a;
}

void ws_atomics_free(ws_atomics *a)
{
    if (!a)
        return;
    free(a->addr.keys);
    free(a->addr.counts);
    free(a->slice.keys);
    free(a->slice.counts);
    free(a->data.keys);
    free(a->data.counts);
    free(a->win_lo.keys);
    free(a->win_lo.counts);
    free(a->win_hi.keys);
    free(a->win_hi.counts);
    free(a->win_ops);
    free(a->win_ranges);
    free(a->win_span);
    free(a->sm_passes);
    free(a);
}

void ws_atomics_set_window(ws_atomics *a, uint64_t warps)
{
    a->window_warps = warps > 0 ? warps : 1;
}

/* The units a window's atomics keep busy (device.h; measured on the H200, results/h200-l2req): R
 * distinct ranges visited one after another (warps in launch order on consecutive words) reach the
 * fitted log law; ranges the window's warps all visit throughout (hashed bins) are busy at once:
 * A = the ranges active on average (their warp spans / the window), spread over the slices as balls
 * in bins, atom_slices x (1 - exp(-A / atom_slices)). The larger of the two. */
static double window_units(const ws_device *d, uint64_t ranges, uint64_t span, uint64_t window)
{
    double u = d->atom_window_units_base + d->atom_window_units_per_doubling * log2((double)ranges);
    double at_once = (double)span / (double)window;
    double spread = d->atom_slices * (1 - exp(-at_once / d->atom_slices));
    if (spread > u)
        u = spread;
    if (u > d->atom_slices)
        u = d->atom_slices;
    return u < 1 ? 1 : u;
}

/* key's slot in t (inserted as 0 when new; *fresh says so), NULL when t cannot grow */
static uint64_t *table_slot(table *t, uint64_t key, int *fresh)
{
    if (2 * (t->used + 1) > t->cap && grow(t))
        return NULL;
    uint64_t before = t->used;
    uint64_t *c = slot(t, key);
    *fresh = t->used != before;
    return c;
}

/* Adds n sector-ops on range to the window of warp w: keeps t->window_unit_ops = the sum over
 * windows of ops / units(ranges) (a window's term changes when it gains ops or a range). 0 when
 * the per-window arrays cannot grow. */
static int window_add(ws_atomics *a, uint32_t warp, uint64_t range, uint64_t n)
{
    const ws_device *d = a->dev;
    if (!(d->atom_window_units_base > 0 || d->atom_window_units_per_doubling > 0) || !(d->atom_slices > 0))
        return 1;
    uint64_t w = warp / a->window_warps;
    if (w >= a->nwin) {
        uint64_t cap = a->nwin ? a->nwin : 16;
        while (cap <= w)
            cap *= 2;
        uint64_t *o = realloc(a->win_ops, cap * sizeof *o);
        if (!o)
            return 0;
        a->win_ops = o;
        uint64_t *r = realloc(a->win_ranges, cap * sizeof *r);
        if (!r)
            return 0;
        a->win_ranges = r;
        uint64_t *sp = realloc(a->win_span, cap * sizeof *sp);
        if (!sp)
            return 0;
        a->win_span = sp;
        memset(a->win_ops + a->nwin, 0, (cap - a->nwin) * sizeof *o);
        memset(a->win_ranges + a->nwin, 0, (cap - a->nwin) * sizeof *r);
        memset(a->win_span + a->nwin, 0, (cap - a->nwin) * sizeof *sp);
        a->nwin = cap;
    }
    /* range < 2^36 (addresses below 2^45), windows < 2^27: the pair as one key */
    uint64_t key = w << 36 | (range & ((1ull << 36) - 1));
    int fresh, fresh_hi;
    uint64_t *lo = table_slot(&a->win_lo, key, &fresh);
    if (!lo)
        return 0;
    uint64_t *hi = table_slot(&a->win_hi, key, &fresh_hi);
    if (!hi)
        return 0;
    uint64_t W = a->window_warps;
    double old = a->win_ranges[w] ? (double)a->win_ops[w] / window_units(d, a->win_ranges[w], a->win_span[w], W) : 0;
    uint64_t span_before = fresh ? 0 : *hi - *lo + 1;
    if (fresh || warp + 1 < *lo)
        *lo = warp + 1;
    if (fresh || warp + 1 > *hi)
        *hi = warp + 1;
    a->win_span[w] += *hi - *lo + 1 - span_before;
    a->win_ranges[w] += (uint64_t)fresh;
    a->win_ops[w] += n;
    a->t.window_unit_ops += (double)a->win_ops[w] / window_units(d, a->win_ranges[w], a->win_span[w], W) - old;
    return 1;
}

int ws_atomics_shared_passes(const ws_mem_event *ev)
{
    /* measured (H200, results/h200-contention.md): a shared atomic's wavefronts follow the
     * load rule, lanes on one word combining: one address 1 per instruction, 32 words of one
     * bank 32 */
    ws_bank_result bk;
    if (ws_banks(ev, &bk) != 0)
        return 0;
    return bk.wavefronts;
}

/* The most active lanes on one address (any space). */
static int same_address_max(const ws_mem_event *ev)
{
    int worst = 0;
    for (int a = 0; a < 32; a++) {
        if (!(ev->active_mask >> a & 1))
            continue;
        int same = 0;
        for (int b = a; b < 32; b++)
            same += (ev->active_mask >> b & 1) && ev->addr[b] == ev->addr[a];
        if (same > worst)
            worst = same;
    }
    return worst;
}

int ws_atomics_result(const ws_device *dev, const ws_mem_event *ev, const ws_coalesce_result *co, ws_atomic_result *r)
{
    memset(r, 0, sizeof *r);
    if ((ev->op != WS_MEM_ATOMIC && ev->op != WS_MEM_REDUCE) || !ev->active_mask || ev->kind != WS_KIND_PLAIN)
        return 0;
    r->lane_ops = __builtin_popcount(ev->active_mask);
    r->same_addr_max = same_address_max(ev);
    if (ev->space == WS_SPACE_SHARED)
        r->shared_passes = ws_atomics_shared_passes(ev);
    else if (ev->space == WS_SPACE_GLOBAL && co)
        r->sector_ops = ws_coalesce_atom_sectors(co, dev->atom_sector_rule);
    else
        return 0;
    return 1;
}

int ws_atomics_event(ws_atomics *a, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                     ws_atomic_result *r)
{
    ws_atomic_result pre;
    ws_atomics_result(a->dev, ev, co, &pre);
    return ws_atomics_event_with(a, sm, ev, co, &pre, r);
}

int ws_atomics_event_with(ws_atomics *a, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                          const ws_atomic_result *pre, ws_atomic_result *r)
{
    memset(r, 0, sizeof *r);
    if ((ev->op != WS_MEM_ATOMIC && ev->op != WS_MEM_REDUCE) || !ev->active_mask || ev->kind != WS_KIND_PLAIN)
        return 0;
    ws_atomic_totals *t = &a->t;
    r->lane_ops = pre->lane_ops;
    r->same_addr_max = pre->same_addr_max;
    if (ev->space == WS_SPACE_SHARED) {
        r->shared_passes = pre->shared_passes;
        t->shared_inst++;
        t->shared_passes += (uint64_t)r->shared_passes;
        t->shared_serialised_inst += r->shared_passes > 1;
        if (sm >= 0 && sm < a->dev->sm_count) {
            a->sm_passes[sm] += (uint64_t)r->shared_passes;
            if (a->sm_passes[sm] > t->shared_passes_sm_max)
                t->shared_passes_sm_max = a->sm_passes[sm];
        }
        return 1;
    }
    if (ev->space != WS_SPACE_GLOBAL || !co)
        return 0;
    r->sector_ops = pre->sector_ops;
    if (ev->op == WS_MEM_ATOMIC)
        t->global_inst++;
    else
        t->global_red_inst++;
    t->global_lane_ops += (uint64_t)r->lane_ops;
    t->global_sector_ops += (uint64_t)r->sector_ops;
    int oom = 0;
    uint64_t tag = ev->atom_float ? FLOAT_KEY : 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(ev->active_mask >> lane & 1))
            continue;
        uint64_t before = a->addr.used;
        uint64_t n = table_add(&a->addr, ev->addr[lane] | tag, 1);
        oom |= n == 0;
        t->addresses += a->addr.used - before;
        uint64_t *max = tag ? &t->addr_float_ops_max : &t->addr_ops_max;
        if (n > *max) {
            *max = n;
            t->addr_max = ev->addr[lane];
        }
    }
    for (int i = 0; i < co->nentries; i++) {
        const ws_sector_entry *e = &co->entries[i];
        uint64_t range = e->sector / a->slice_bytes;
        uint64_t ops = (uint64_t)ws_coalesce_entry_atom_sectors(e, a->dev->atom_sector_rule);
        uint64_t n = table_add(&a->slice, range, ops);
        oom |= n == 0;
        oom |= ops && !window_add(a, ev->warp_global, range, ops);
        if (n > t->slice_sector_ops_max)
            t->slice_sector_ops_max = n;
        /* the operands the lanes send into the slice: width bytes per lane in this sector */
        n = table_add(&a->data, range, (uint64_t)__builtin_popcount(e->lanes) * ev->width);
        oom |= n == 0;
        if (n > t->slice_operand_bytes_max)
            t->slice_operand_bytes_max = n;
    }
    return oom ? -1 : 1;
}

const ws_atomic_totals *ws_atomics_totals(const ws_atomics *a) { return &a->t; }
