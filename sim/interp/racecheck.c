/* racecheck.c - shared-memory hazards (RAW, WAR, WAW) between barriers, between
 * lanes of one warp between __syncwarp()s, and reads of never-written shared
 * bytes, from the event stream (see racecheck.h).
 * Invariant: a shadow byte's write/read records count only when their epoch
 * is the current one (same block, same barrier interval), so neither a new
 * block nor a barrier ever has to clear the shadow: bumping the epoch does.
 * Likewise each access records the warp-sync ordinal of its time, and two lanes
 * are ordered exactly when a later __syncwarp() held both (pair_sync), so a
 * __syncwarp() touches only its warp's lane pairs, never the shadow.
 * In a cluster launch each block of the running cluster (by rank) has its own shadow and its
 * own interval epoch; a thread is named cluster-wide (rank * warps per block * 32 + thread), and
 * an access from another block than the record's is ordered only by a barrier.cluster since
 * (the cluster epoch), whichever window it touches. A launch without clusters is one rank.
 * Workload: every shared access of every lane goes through here, byte by byte,
 * so the per-byte work is a few compares and stores, no allocation. */
#include "racecheck.h"

#include "launch_check.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define MAX_REPORTS 256           /* distinct hazards kept; more are only counted */
#define MAX_SHADOW (1u << 20)     /* shared bytes tracked; the hardware window is <= 228 KiB */
#define LANE_READS 8              /* per byte: the instructions whose reads warp-level WAR looks back on */
#define MAX_RANKS 16              /* blocks per cluster: the non-portable maximum (launch_check.h) */

/* The lanes of one warp that read a byte at one instruction, all at one warp-sync ordinal
 * (a later execution of it at another ordinal starts the set over: a lane forgotten so
 * may hide a hazard, never make one up). */
typedef struct {
    uint32_t pc;
    uint32_t warp;                /* cluster-wide warp */
    uint32_t ord;                 /* sync_ord of those reads */
    uint32_t lanes;               /* lanes that read at pc, at ord */
    uint32_t ep;                  /* the reading block's interval epoch then */
} lane_reads;

/* One access's time: the interval epoch of its thread's block and the cluster epoch. */
typedef struct { uint32_t ep, cl; } stamp;

typedef struct {
    uint32_t w_epoch;             /* writer block's epoch at the last write; < block_epoch = never written */
    uint32_t w_cl;                /* cluster epoch at the last write */
    uint32_t w_thread;            /* cluster-wide thread (NONE: a bulk/tensor copy) */
    uint32_t w_pc;
    uint32_t w_seq;               /* low 32 bits of the writing event's seq: same store = same seq */
    uint32_t w_atomic;            /* the last write was an atomic (atomics do not race each other) */
    uint32_t r1_thread, r1_pc;    /* a plain reader not ordered before the later ones; NONE = none */
    stamp r1;
    uint32_t r2_thread, r2_pc;    /* a reader from a warp other than r1's, NONE if none yet */
    stamp r2;
    uint32_t w_ord;               /* sync_ord when the last write happened */
    uint32_t nrd, rd_next;        /* rd[0..nrd) hold this epoch's plain reads; rd_next: the next to reuse */
    lane_reads rd[LANE_READS];    /* the last LANE_READS (pc, warp) groups of plain readers */
} shadow_byte;

typedef struct { int src_line, ptx_line; ws_mem_op op; bool seen; } pc_info;

struct ws_racecheck {
    uint32_t bdim[3];
    uint32_t grid[3], cdim[3];    /* the launch's grid and cluster dims (1,1,1: no clusters) */
    uint32_t nranks;              /* blocks per cluster */
    uint32_t tpw;                 /* threads per block rounded up to whole warps: a rank's thread span */
    shadow_byte *sh[MAX_RANKS];   /* per rank: that block's shared window */
    uint32_t nsh[MAX_RANKS];      /* shadow bytes allocated */
    uint32_t epoch;               /* the last epoch handed out (every epoch is new) */
    uint32_t cl_epoch;            /* cluster interval: bumped at each barrier.cluster and cluster start */
    uint32_t cl_start;            /* the epoch the running cluster started at (= every block_epoch) */
    uint32_t cl_interval;         /* cluster barriers passed in the running cluster */
    int cl_bar_line;
    uint32_t ep[MAX_RANKS];       /* per rank: its block's current interval epoch */
    uint32_t block_epoch[MAX_RANKS]; /* per rank: first epoch of its block */
    uint32_t interval[MAX_RANKS]; /* barriers passed in the rank's block */
    int bar_line[MAX_RANKS];      /* line of the barrier that opened the interval */
    uint32_t cur_block[MAX_RANKS];
    bool in_block[MAX_RANKS];
    pc_info *pcs;
    uint32_t npcs;
    ws_race reports[MAX_REPORTS];
    int nreports;
    uint64_t totals[WS_RACE_KINDS];
    uint64_t warp_totals[WS_RACE_KINDS];
    /* warp-level ordering: sync_ord counts __syncwarp()s (and partial barriers) of the launch;
       lanes a < b of warp w are ordered after an access made at ordinal o when
       max(full_sync[w], pair_sync[w][a][b]) > o */
    uint32_t nwarps;              /* warps per block */
    uint32_t ncwarps;             /* warps per cluster: full_sync/pair_sync are indexed cluster-wide */
    uint32_t sync_ord;
    uint32_t *full_sync;          /* per warp: ordinal of its last __syncwarp() of all 32 lanes */
    uint32_t (*pair_sync)[32][32];/* per warp, [a][b] with a < b: of the last one holding both */
    /* chained hooks (ws_racecheck_attach) */
    ws_mem_listener next_listener;
    void *next_ctx;
    ws_sync_fn next_sync;
    void *next_sync_ctx;
    ws_warp_sync_fn next_warp_sync;
    void *next_warp_sync_ctx;
};

const char *ws_race_kind_name(ws_race_kind k)
{
    switch (k) {
    case WS_RACE_RAW: return "RAW";
    case WS_RACE_WAR: return "WAR";
    case WS_RACE_WAW: return "WAW";
    case WS_RACE_UNINIT: return "uninitialised read";
    default: return "?";
    }
}

static int alloc_sync(ws_racecheck *rc)
{
    free(rc->full_sync);
    free(rc->pair_sync);
    rc->ncwarps = rc->nwarps * rc->nranks;
    rc->full_sync = calloc(rc->ncwarps, sizeof *rc->full_sync);
    rc->pair_sync = calloc(rc->ncwarps, sizeof *rc->pair_sync);
    return rc->full_sync && rc->pair_sync ? 0 : -1;
}

ws_racecheck *ws_racecheck_new(const uint32_t block[3])
{
    ws_racecheck *rc = calloc(1, sizeof *rc);
    if (!rc) return NULL;
    for (int i = 0; i < 3; i++) rc->bdim[i] = block && block[i] ? block[i] : 1;
    for (int i = 0; i < 3; i++) rc->grid[i] = rc->cdim[i] = 1;
    uint64_t threads = (uint64_t)rc->bdim[0] * rc->bdim[1] * rc->bdim[2];
    rc->nwarps = threads > 1024 ? 32 : (uint32_t)((threads + 31) / 32); /* more is refused by the launch */
    rc->tpw = rc->nwarps * 32;
    rc->nranks = 1;
    if (alloc_sync(rc)) {
        ws_racecheck_free(rc);
        return NULL;
    }
    rc->epoch = 1;                    /* 0 in a fresh shadow means "never" */
    rc->cl_epoch = rc->cl_start = rc->ep[0] = rc->block_epoch[0] = 1;
    for (int r = 0; r < MAX_RANKS; r++) rc->cur_block[r] = NONE;
    return rc;
}

int ws_racecheck_set_cluster(ws_racecheck *rc, const uint32_t grid[3], const uint32_t cluster[3])
{
    uint32_t n = 1;
    for (int i = 0; i < 3; i++) {
        rc->grid[i] = grid && grid[i] ? grid[i] : 1;
        rc->cdim[i] = cluster && cluster[i] ? cluster[i] : 1;
        n *= rc->cdim[i];
    }
    if (n > MAX_RANKS) return -1;
    rc->nranks = n;
    return alloc_sync(rc);
}

ws_racecheck *ws_racecheck_for_launch(const ptx_function *fn, const ws_launch *L, const char *kernel,
                                      const char *file, int line, ws_error *err, bool *usage)
{
    uint32_t cl[3];
    bool expl;
    *usage = true;
    if (ws_cluster_dims(fn, L, cl, &expl, kernel, file, line, err)) return NULL;
    *usage = false;
    ws_racecheck *rc = ws_racecheck_new(L->block);
    if (!rc || ws_racecheck_set_cluster(rc, L->grid, cl)) {
        ws_racecheck_free(rc);
        ws_error_set(err, file, line, 0, "out of memory for the race checker of %s", kernel);
        return NULL;
    }
    return rc;
}

void ws_racecheck_free(ws_racecheck *rc)
{
    if (!rc) return;
    for (int r = 0; r < MAX_RANKS; r++) free(rc->sh[r]);
    free(rc->pcs);
    free(rc->full_sync);
    free(rc->pair_sync);
    free(rc);
}

/* A new epoch; on the (theoretical) wrap every shadow is cleared so old records cannot match. */
static uint32_t next_epoch(ws_racecheck *rc)
{
    if (rc->epoch >= UINT32_MAX - 2) {
        for (int r = 0; r < MAX_RANKS; r++) {
            if (rc->sh[r]) memset(rc->sh[r], 0, (size_t)rc->nsh[r] * sizeof *rc->sh[r]);
            rc->ep[r] = rc->block_epoch[r] = 1;
        }
        rc->epoch = rc->cl_epoch = rc->cl_start = 1;
    }
    return ++rc->epoch;
}

/* The rank in its cluster of the block at coordinates b (x fastest, %cluster_ctarank). */
static uint32_t rank_of_coords(const ws_racecheck *rc, const uint32_t b[3])
{
    return b[0] % rc->cdim[0] + b[1] % rc->cdim[1] * rc->cdim[0] + b[2] % rc->cdim[2] * rc->cdim[0] * rc->cdim[1];
}

static void coords_of(const ws_racecheck *rc, uint32_t linear, uint32_t b[3])
{
    b[0] = linear % rc->grid[0];
    b[1] = linear / rc->grid[0] % rc->grid[1];
    b[2] = linear / (rc->grid[0] * rc->grid[1]);
}

static uint32_t rank_of_linear(const ws_racecheck *rc, uint32_t linear)
{
    if (rc->nranks == 1) return 0;
    uint32_t b[3];
    coords_of(rc, linear, b);
    return rank_of_coords(rc, b);
}

/* The cluster (linear, in %clusterid order) block `linear` belongs to. */
static uint32_t cluster_of(const ws_racecheck *rc, uint32_t linear)
{
    uint32_t b[3];
    coords_of(rc, linear, b);
    uint32_t ngx = rc->grid[0] / rc->cdim[0] ? rc->grid[0] / rc->cdim[0] : 1;
    uint32_t ngy = rc->grid[1] / rc->cdim[1] ? rc->grid[1] / rc->cdim[1] : 1;
    return b[0] / rc->cdim[0] + ngx * (b[1] / rc->cdim[1] + ngy * (b[2] / rc->cdim[2]));
}

/* A block starts in rank r. The first block of a cluster (or any block without clusters) starts
 * a new cluster: a new cluster epoch, and every rank's shadow counts as unwritten from here. */
static void start_block(ws_racecheck *rc, uint32_t block_linear, uint32_t r)
{
    bool new_cluster = rc->nranks == 1 || (!rc->in_block[r] && r == 0);
    for (uint32_t k = 0; k < rc->nranks && !new_cluster; k++)   /* a rank still holds another cluster */
        new_cluster = rc->cur_block[k] != NONE && rc->in_block[k] && cluster_of(rc, rc->cur_block[k]) != cluster_of(rc, block_linear);
    if (new_cluster) {
        rc->cl_start = rc->cl_epoch = next_epoch(rc);
        rc->cl_interval = 0;
        rc->cl_bar_line = 0;
        for (uint32_t k = 0; k < rc->nranks; k++) rc->block_epoch[k] = rc->cl_start;
    }
    rc->ep[r] = next_epoch(rc);
    rc->block_epoch[r] = rc->cl_start;
    rc->interval[r] = 0;
    rc->bar_line[r] = 0;
    rc->cur_block[r] = block_linear;
    rc->in_block[r] = true;
}

void ws_racecheck_on_sync(void *ctx, uint32_t block_linear, int kind, int src_line)
{
    ws_racecheck *rc = ctx;
    uint32_t r = rank_of_linear(rc, block_linear);
    switch (kind) {
    case WS_SYNC_BLOCK_START: start_block(rc, block_linear, r); break;
    case WS_SYNC_BARRIER:
        rc->ep[r] = next_epoch(rc);
        rc->interval[r]++;
        rc->bar_line[r] = src_line;
        break;
    case WS_SYNC_CLUSTER_BARRIER:                  /* orders every access of every block of the cluster */
        rc->cl_epoch = next_epoch(rc);
        rc->cl_interval++;
        rc->cl_bar_line = src_line;
        for (uint32_t k = 0; k < rc->nranks; k++) {
            rc->ep[k] = rc->cl_epoch;
            rc->interval[k]++;
            rc->bar_line[k] = src_line;
        }
        break;
    case WS_SYNC_BLOCK_END: rc->in_block[r] = false; break;
    default: break;
    }
    if (rc->next_sync) rc->next_sync(rc->next_sync_ctx, block_linear, kind, src_line);
}

void ws_racecheck_on_warp_sync(void *ctx, uint32_t block_linear, uint32_t warp, uint32_t lanes, int src_line)
{
    ws_racecheck *rc = ctx;
    uint32_t r = rank_of_linear(rc, block_linear);
    if (warp < rc->nwarps) {
        if (rc->sync_ord >= UINT32_MAX - 2) {
            /* the (theoretical) wrap: start the ordinals over in new epochs, so no access
               recorded under the old ones is judged against the new */
            memset(rc->full_sync, 0, rc->ncwarps * sizeof *rc->full_sync);
            memset(rc->pair_sync, 0, rc->ncwarps * sizeof *rc->pair_sync);
            rc->sync_ord = 0;
            rc->cl_epoch = next_epoch(rc);
            for (uint32_t k = 0; k < rc->nranks; k++) rc->ep[k] = rc->cl_epoch;
        }
        warp += r * rc->nwarps;                    /* cluster-wide */
        uint32_t ord = ++rc->sync_ord;
        if (lanes == UINT32_MAX) {
            rc->full_sync[warp] = ord;
        } else {
            for (uint32_t a = lanes; a; a &= a - 1)
                for (uint32_t b = a & (a - 1); b; b &= b - 1)
                    rc->pair_sync[warp][__builtin_ctz(a)][__builtin_ctz(b)] = ord;
        }
    }
    if (rc->next_warp_sync) rc->next_warp_sync(rc->next_warp_sync_ctx, block_linear, warp, lanes, src_line);
}

/* Lanes la and lb of warp (both of the current block) are ordered after an access at
 * ordinal ord: a __syncwarp() holding both came later. One lane is ordered with itself. */
static bool warp_ordered(const ws_racecheck *rc, uint32_t warp, uint32_t la, uint32_t lb, uint32_t ord)
{
    if (la == lb) return true;
    if (warp >= rc->ncwarps) return true;      /* not a warp of the cluster: nothing to say */
    uint32_t a = la < lb ? la : lb, b = la < lb ? lb : la;
    uint32_t last = rc->full_sync[warp] > rc->pair_sync[warp][a][b] ? rc->full_sync[warp] : rc->pair_sync[warp][a][b];
    return last > ord;
}

/* The first lane of `lanes` (of warp) not ordered with `lane` after an access at ord; NONE if all are. */
static uint32_t unordered_lane(const ws_racecheck *rc, uint32_t warp, uint32_t lanes, uint32_t lane, uint32_t ord)
{
    if (!lanes || warp >= rc->ncwarps || rc->full_sync[warp] > ord) return NONE;
    for (; lanes; lanes &= lanes - 1)
        if (!warp_ordered(rc, warp, (uint32_t)__builtin_ctz(lanes), lane, ord)) return (uint32_t)__builtin_ctz(lanes);
    return NONE;
}

/* Is a group of reads of warp (cluster-wide) from an interval its block has left? */
static bool stale_group(const ws_racecheck *rc, const lane_reads *q)
{
    return q->ep != rc->ep[q->warp / rc->nwarps % MAX_RANKS];
}

/* Adds lane's read at pc (ordinal ord, epoch ep of its block) to the byte's reading instructions. */
static void note_lane_read(const ws_racecheck *rc, shadow_byte *s, uint32_t pc, uint32_t warp, uint32_t lane,
                           uint32_t ord, uint32_t ep)
{
    for (uint32_t g = 0; g < s->nrd; g++) {
        lane_reads *q = &s->rd[g];
        if (q->pc != pc || q->warp != warp) continue;
        if (q->ord != ord || q->ep != ep) { q->ord = ord; q->ep = ep; q->lanes = 0; } /* a later run: older lanes go */
        q->lanes |= 1u << lane;
        return;
    }
    lane_reads *q = NULL;
    for (uint32_t g = 0; g < s->nrd && !q; g++)  /* a group of an interval that has ended is free */
        if (stale_group(rc, &s->rd[g])) q = &s->rd[g];
    if (q) {
    } else if (s->nrd < LANE_READS) {
        q = &s->rd[s->nrd++];
    } else {                                   /* the oldest group goes */
        q = &s->rd[s->rd_next];
        s->rd_next = (s->rd_next + 1) % LANE_READS;
    }
    *q = (lane_reads){.pc = pc, .warp = warp, .ord = ord, .lanes = 1u << lane, .ep = ep};
}

static bool grow_shadow(ws_racecheck *rc, uint32_t r, uint64_t end)
{
    if (end <= rc->nsh[r]) return true;
    if (end > MAX_SHADOW) return false;
    uint32_t n = rc->nsh[r] ? rc->nsh[r] : 4096;
    while (n < end) n *= 2;
    shadow_byte *s = realloc(rc->sh[r], (size_t)n * sizeof *s);
    if (!s) return false;
    memset(s + rc->nsh[r], 0, (size_t)(n - rc->nsh[r]) * sizeof *s);
    rc->sh[r] = s;
    rc->nsh[r] = n;
    return true;
}

static void note_pc(ws_racecheck *rc, const ws_mem_event *ev)
{
    if (ev->pc >= rc->npcs) {
        uint32_t n = rc->npcs ? rc->npcs : 256;
        while (n <= ev->pc) n *= 2;
        pc_info *p = realloc(rc->pcs, (size_t)n * sizeof *p);
        if (!p) return;
        memset(p + rc->npcs, 0, (size_t)(n - rc->npcs) * sizeof *p);
        rc->pcs = p;
        rc->npcs = n;
    }
    pc_info *i = &rc->pcs[ev->pc];
    if (!i->seen) { i->src_line = ev->src_line; i->ptx_line = ev->ptx_line; i->op = ev->op; i->seen = true; }
}

/* thread: cluster-wide (rank * tpw + thread in its block). */
static void fill_access(const ws_racecheck *rc, ws_race_access *a, uint32_t cthread, uint32_t pc)
{
    uint32_t thread = cthread % rc->tpw;
    a->rank = cthread / rc->tpw;
    uint32_t lin = a->rank < MAX_RANKS ? rc->cur_block[a->rank] : NONE;
    if (lin != NONE) coords_of(rc, lin, a->block);
    else a->block[0] = a->block[1] = a->block[2] = 0;
    a->warp = thread / 32;
    a->lane = thread % 32;
    a->tid[0] = thread % rc->bdim[0];
    a->tid[1] = thread / rc->bdim[0] % rc->bdim[1];
    a->tid[2] = thread / (rc->bdim[0] * rc->bdim[1]);
    a->pc = pc;
    if (pc < rc->npcs && rc->pcs[pc].seen) {
        a->src_line = rc->pcs[pc].src_line;
        a->ptx_line = rc->pcs[pc].ptx_line;
        a->op = rc->pcs[pc].op;
    } else {
        a->src_line = a->ptx_line = 0;
        a->op = WS_MEM_LOAD;
    }
}

/* tally: this is the lane access's first hazard of the kind (the totals count lane accesses;
 * a write can pair with several earlier reads, each a distinct hazard). */
static void record(ws_racecheck *rc, ws_race_kind kind, bool warp_level, const ws_mem_event *ev, uint32_t win,
                   uint64_t addr, uint32_t first_thread, uint32_t first_pc, uint32_t thread, bool tally)
{
    if (tally) rc->totals[kind]++;
    if (tally && warp_level) rc->warp_totals[kind]++;
    for (int i = 0; i < rc->nreports; i++) {
        ws_race *r = &rc->reports[i];
        if (r->kind == kind && r->warp_level == warp_level && r->second.pc == ev->pc &&
            (kind == WS_RACE_UNINIT || r->first.pc == first_pc)) {
            r->count++;
            return;
        }
    }
    if (rc->nreports == MAX_REPORTS) return;
    ws_race *r = &rc->reports[rc->nreports++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->warp_level = warp_level;
    r->count = 1;
    memcpy(r->block, ev->block, sizeof r->block);
    r->block_linear = ev->block_linear;
    r->addr = addr;
    r->window_rank = win;
    if (rc->cur_block[win] != NONE) coords_of(rc, rc->cur_block[win], r->window_block);
    r->cluster = rc->nranks > 1;
    if (kind != WS_RACE_UNINIT) fill_access(rc, &r->first, first_thread, first_pc);
    fill_access(rc, &r->second, thread, ev->pc);
    if (rc->nranks == 1) {                       /* one block (the grid may be unknown): the event's */
        memcpy(r->first.block, ev->block, sizeof r->first.block);
        memcpy(r->second.block, ev->block, sizeof r->second.block);
        memcpy(r->window_block, ev->block, sizeof r->window_block);
    }
    r->cross_block = kind != WS_RACE_UNINIT && r->first.rank != r->second.rank;
    uint32_t me = r->second.rank;
    r->interval = r->cross_block ? rc->cl_interval : rc->interval[me];
    r->bar_before_line = r->cross_block ? rc->cl_bar_line : rc->bar_line[me];
}

/* Is the access recorded as (thread, st) ordered before an access by cthread now? Same thread:
 * program order. Same block: a barrier of the block (or of the cluster) since. Another block:
 * a barrier.cluster since. */
static bool ordered_before(const ws_racecheck *rc, uint32_t thread, stamp st, uint32_t cthread)
{
    if (thread == NONE || thread == cthread) return true;
    uint32_t r = thread / rc->tpw, me = cthread / rc->tpw;
    if (r == me) return st.ep != rc->ep[me % MAX_RANKS];
    return st.cl != rc->cl_epoch;
}

/* Checks and records one lane's access of n bytes at addr. same: a store of the bytes already
 * there (ws_mem_event.same_value_mask), which no order of the accesses can tell from no store:
 * like compute-sanitizer's racecheck, it is no write to race with (32 lanes storing one flag
 * value are no WAW hazard). It still initialises a byte the block never wrote. */
static void lane_access(ws_racecheck *rc, const ws_mem_event *ev, uint32_t win, uint32_t thread, uint64_t addr,
                        uint32_t n, bool same)
{
    const uint32_t me = thread / rc->tpw;          /* the accessing block's rank */
    const uint32_t E = rc->ep[me], warp = thread / 32, lane = thread % 32, seq = (uint32_t)ev->seq, O = rc->sync_ord;
    const stamp now = {E, rc->cl_epoch};
    const bool atomic = ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE;
    const bool reads = ev->op != WS_MEM_STORE;     /* an atomic reads the old value */
    const bool writes = ev->op != WS_MEM_LOAD;
    /* a bulk or tensor copy (TMA) is ordered by its mbarrier, which barrier intervals do not
       describe: its shared bytes count as written (or, for a copy out, as read for initcheck)
       and take part in no hazard; an access after it is judged against the warps before it */
    const bool async_copy = ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA;
    bool found[WS_RACE_KINDS] = {false}, found_w[WS_RACE_KINDS] = {false};
    for (uint32_t k = 0; k < n; k++) {
        shadow_byte *s = &rc->sh[win][addr + k];
        bool written = s->w_epoch >= rc->block_epoch[win];
        if (same && written) continue;             /* memory unchanged: nothing to order */
        bool w_now = written && s->w_thread != NONE && !ordered_before(rc, s->w_thread, (stamp){s->w_epoch, s->w_cl}, thread);
        /* the last writer is another lane of this warp, not ordered with this one since */
        bool w_lane = w_now && s->w_thread / 32 == warp && !warp_ordered(rc, warp, s->w_thread % 32, lane, s->w_ord);
        if (reads && !written && !found[WS_RACE_UNINIT]) {
            found[WS_RACE_UNINIT] = true;
            record(rc, WS_RACE_UNINIT, false, ev, win, addr + k, NONE, 0, thread, true);
        }
        if (async_copy) {
            if (writes) {
                s->w_epoch = E;
                s->w_cl = now.cl;
                s->w_thread = NONE;
                s->w_pc = ev->pc;
                s->w_seq = seq;
                s->w_atomic = false;
            }
            continue;
        }
        if (reads && !atomic) {
            if (w_now && s->w_thread / 32 != warp && !found[WS_RACE_RAW]) {
                found[WS_RACE_RAW] = true;
                record(rc, WS_RACE_RAW, false, ev, win, addr + k, s->w_thread, s->w_pc, thread, true);
            } else if (w_lane && !found_w[WS_RACE_RAW]) {
                found_w[WS_RACE_RAW] = true;
                record(rc, WS_RACE_RAW, true, ev, win, addr + k, s->w_thread, s->w_pc, thread, true);
            }
            bool r1_old = !(s->r1.ep >= rc->block_epoch[win]) || ordered_before(rc, s->r1_thread, s->r1, thread);
            bool r2_old = !(s->r2.ep >= rc->block_epoch[win]) || ordered_before(rc, s->r2_thread, s->r2, thread);
            if (r1_old) {                          /* the first reader is ordered before this one */
                s->r1_thread = thread;
                s->r1_pc = ev->pc;
                s->r1 = now;
                if (r2_old) s->r2_thread = NONE;
            } else if (r2_old && s->r1_thread / 32 != warp) {
                s->r2_thread = thread;
                s->r2_pc = ev->pc;
                s->r2 = now;
            }
            note_lane_read(rc, s, ev->pc, warp, lane, O, E);
        }
        if (!writes) continue;
        if (w_now && !(atomic && s->w_atomic) && !found[WS_RACE_WAW]) {
            bool other_warp = s->w_thread / 32 != warp;
            bool same_store = !atomic && s->w_thread != thread && s->w_seq == seq; /* lanes of one st */
            if (other_warp || same_store) {
                found[WS_RACE_WAW] = true;
                record(rc, WS_RACE_WAW, false, ev, win, addr + k, s->w_thread, s->w_pc, thread, true);
            } else if (w_lane && !found_w[WS_RACE_WAW]) {
                found_w[WS_RACE_WAW] = true;
                record(rc, WS_RACE_WAW, true, ev, win, addr + k, s->w_thread, s->w_pc, thread, true);
            }
        }
        bool r1_live = s->r1_thread != NONE && s->r1.ep >= rc->block_epoch[win] &&
                       !ordered_before(rc, s->r1_thread, s->r1, thread);
        bool r2_live = s->r2_thread != NONE && s->r2.ep >= rc->block_epoch[win] &&
                       !ordered_before(rc, s->r2_thread, s->r2, thread);
        if ((r1_live || r2_live) && !found[WS_RACE_WAR]) {
            uint32_t rt = NONE, rp = 0;
            if (r1_live && s->r1_thread / 32 != warp) { rt = s->r1_thread; rp = s->r1_pc; }
            else if (r2_live && s->r2_thread / 32 != warp) { rt = s->r2_thread; rp = s->r2_pc; }
            if (rt != NONE) {
                found[WS_RACE_WAR] = true;
                record(rc, WS_RACE_WAR, false, ev, win, addr + k, rt, rp, thread, true);
            }
        }
        if (s->nrd && !found[WS_RACE_WAR] && !found_w[WS_RACE_WAR]) {
            /* reads by other lanes of this warp since the last __syncwarp() holding both: one
               hazard per reading instruction, the lane access counted once */
            for (uint32_t g = 0; g < s->nrd; g++) {
                const lane_reads *q = &s->rd[g];
                bool mine = q->warp == warp && q->ep == E;  /* this warp, this interval of its block */
                uint32_t x = mine ? unordered_lane(rc, warp, q->lanes & ~(1u << lane), lane, q->ord) : NONE;
                if (x == NONE) continue;
                record(rc, WS_RACE_WAR, true, ev, win, addr + k, warp * 32 + x, q->pc, thread, !found_w[WS_RACE_WAR]);
                found_w[WS_RACE_WAR] = true;
            }
        }
        s->w_epoch = E;
        s->w_cl = now.cl;
        s->w_thread = thread;
        s->w_pc = ev->pc;
        s->w_seq = seq;
        s->w_atomic = atomic;
        s->w_ord = O;
    }
}

void ws_racecheck_on_event(void *ctx, const ws_mem_event *ev)
{
    ws_racecheck *rc = ctx;
    if (ev->space == WS_SPACE_SHARED) {
        uint32_t me = rc->nranks == 1 ? 0 : rank_of_coords(rc, ev->block);
        /* the window: the block's own, or (DSMEM) that of the rank its .shared::cluster address names */
        uint32_t win = ev->dsmem ? ev->dsmem - 1u : me;
        if (me >= rc->nranks || win >= rc->nranks) win = me = 0;   /* not of this launch's clusters */
        /* without on_sync, a new block is still seen from the events themselves */
        if (!rc->in_block[me] || ev->block_linear != rc->cur_block[me]) start_block(rc, ev->block_linear, me);
        note_pc(rc, ev);
        uint32_t n = ev->width;
        for (uint32_t m = ev->active_mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t a = ev->addr[l];
            if (a + n < a || !grow_shadow(rc, win, a + n)) continue; /* outside any real window */
            lane_access(rc, ev, win, me * rc->tpw + ev->warp * 32 + (uint32_t)l, a, n,
                        ev->op == WS_MEM_STORE && (ev->same_value_mask >> l & 1));
        }
    }
    if (rc->next_listener) rc->next_listener(rc->next_ctx, ev);
}

void ws_racecheck_attach(ws_racecheck *rc, ws_sim_config *cfg)
{
    rc->next_listener = cfg->listener;
    rc->next_ctx = cfg->listener_ctx;
    rc->next_sync = cfg->on_sync;
    rc->next_sync_ctx = cfg->sync_ctx;
    rc->next_warp_sync = cfg->on_warp_sync;
    rc->next_warp_sync_ctx = cfg->warp_sync_ctx;
    cfg->on_warp_sync = ws_racecheck_on_warp_sync;
    cfg->warp_sync_ctx = rc;
    cfg->listener = ws_racecheck_on_event;
    cfg->listener_ctx = rc;
    cfg->on_sync = ws_racecheck_on_sync;
    cfg->sync_ctx = rc;
}

int ws_racecheck_count(const ws_racecheck *rc) { return rc->nreports; }

uint64_t ws_racecheck_total(const ws_racecheck *rc, ws_race_kind k)
{
    return k < WS_RACE_KINDS ? rc->totals[k] : 0;
}

uint64_t ws_racecheck_total_warp(const ws_racecheck *rc, ws_race_kind k)
{
    return k < WS_RACE_KINDS ? rc->warp_totals[k] : 0;
}

const ws_race *ws_racecheck_get(const ws_racecheck *rc, int i)
{
    return i >= 0 && i < rc->nreports ? &rc->reports[i] : NULL;
}

static const char *verb(ws_mem_op op)
{
    switch (op) {
    case WS_MEM_STORE: return "wrote";
    case WS_MEM_ATOMIC: case WS_MEM_REDUCE: return "atomically updated";
    default: return "read";
    }
}

static int where(char *buf, size_t cap, const ws_race_access *a)
{
    if (a->src_line > 0) return snprintf(buf, cap, "line %d", a->src_line);
    return snprintf(buf, cap, "PTX line %d", a->ptx_line);
}

void ws_racecheck_format(const ws_racecheck *rc, int i, const char *source_file, const char *kernel,
                         char *buf, size_t cap)
{
    const ws_race *r = ws_racecheck_get(rc, i);
    if (!r || !cap) { if (cap) buf[0] = 0; return; }
    const ws_race_access *a = &r->first, *b = &r->second;
    char wa[32], wb[32], interval[96], head[WS_PATH_MAX + 32];
    where(wa, sizeof wa, a);
    where(wb, sizeof wb, b);
    if (b->src_line > 0) snprintf(head, sizeof head, "%s:%d", source_file ? source_file : "?", b->src_line);
    else snprintf(head, sizeof head, "%s", source_file ? source_file : "?");
    if (r->interval == 0) snprintf(interval, sizeof interval, "before the block's first barrier");
    else if (r->bar_before_line > 0)
        snprintf(interval, sizeof interval, "after barrier %u of the block (line %d)", r->interval, r->bar_before_line);
    else snprintf(interval, sizeof interval, "after barrier %u of the block", r->interval);
    if (r->kind == WS_RACE_UNINIT) {
        snprintf(buf, cap, "%s: error: %s: initcheck: thread (%u,%u,%u) (warp %u lane %u) of block (%u,%u,%u) "
                 "%s shared memory at offset 0x%" PRIx64 " at %s, but no thread of the block has written it "
                 "(%" PRIu64 " such accesses at this line)",
                 head, kernel ? kernel : "?", b->tid[0], b->tid[1], b->tid[2], b->warp, b->lane,
                 r->block[0], r->block[1], r->block[2], verb(b->op), r->addr, wb, r->count);
        return;
    }
    if (r->cluster && (r->cross_block || r->window_rank != b->rank)) {
        /* distributed shared memory: name each access's block and rank and the cluster barrier */
        char cl_interval[96];
        if (!r->cross_block) snprintf(cl_interval, sizeof cl_interval, "%s", interval);
        else if (r->interval == 0) snprintf(cl_interval, sizeof cl_interval, "before the cluster's first barrier.cluster");
        else if (r->bar_before_line > 0)
            snprintf(cl_interval, sizeof cl_interval, "after barrier.cluster %u of the cluster (line %d)", r->interval,
                     r->bar_before_line);
        else snprintf(cl_interval, sizeof cl_interval, "after barrier.cluster %u of the cluster", r->interval);
        snprintf(buf, cap, "%s: error: %s: racecheck: %s hazard on distributed shared memory at offset 0x%" PRIx64
                 " of block (%u,%u,%u) (cluster rank %u): thread (%u,%u,%u) of block (%u,%u,%u) (rank %u, warp %u lane %u) "
                 "%s it at %s, then thread (%u,%u,%u) of block (%u,%u,%u) (rank %u, warp %u lane %u) %s it at %s, with "
                 "no %s between (%s); %" PRIu64 " such accesses",
                 head, kernel ? kernel : "?", ws_race_kind_name(r->kind), r->addr, r->window_block[0], r->window_block[1],
                 r->window_block[2], r->window_rank, a->tid[0], a->tid[1], a->tid[2], a->block[0], a->block[1],
                 a->block[2], a->rank, a->warp, a->lane, verb(a->op), wa, b->tid[0], b->tid[1], b->tid[2], b->block[0],
                 b->block[1], b->block[2], b->rank, b->warp, b->lane, verb(b->op), wb,
                 r->cross_block ? "barrier.cluster (cluster.sync())" : "barrier", cl_interval, r->count);
        return;
    }
    if (r->warp_level) {
        /* compute-sanitizer's words for it, so a reader can match the two reports */
        snprintf(buf, cap, "%s: error: %s: racecheck: %s hazard between lanes of one warp on shared memory at offset "
                 "0x%" PRIx64 " in block (%u,%u,%u) warp %u: lane %u (thread (%u,%u,%u)) %s it at %s, then lane %u "
                 "(thread (%u,%u,%u)) %s it at %s, with no __syncwarp() or barrier between (%s): since Volta the "
                 "lanes of a warp need not run in lockstep (compute-sanitizer racecheck: '(Warp Level Programming) "
                 "Potential %s hazard'); %" PRIu64 " such accesses",
                 head, kernel ? kernel : "?", ws_race_kind_name(r->kind), r->addr, r->block[0], r->block[1],
                 r->block[2], b->warp, a->lane, a->tid[0], a->tid[1], a->tid[2], verb(a->op), wa, b->lane,
                 b->tid[0], b->tid[1], b->tid[2], verb(b->op), wb, interval, ws_race_kind_name(r->kind), r->count);
        return;
    }
    snprintf(buf, cap, "%s: error: %s: racecheck: %s hazard on shared memory at offset 0x%" PRIx64
             " in block (%u,%u,%u): thread (%u,%u,%u) (warp %u lane %u) %s it at %s, then thread (%u,%u,%u) "
             "(warp %u lane %u) %s it at %s, with no barrier between (%s)%s; %" PRIu64 " such accesses",
             head, kernel ? kernel : "?", ws_race_kind_name(r->kind), r->addr, r->block[0], r->block[1], r->block[2],
             a->tid[0], a->tid[1], a->tid[2], a->warp, a->lane, verb(a->op), wa,
             b->tid[0], b->tid[1], b->tid[2], b->warp, b->lane, verb(b->op), wb, interval,
             a->warp == b->warp ? " (two lanes of one warp in the same instruction: the order is undefined)" : "",
             r->count);
}

void ws_racecheck_print(const ws_racecheck *rc, FILE *out, const char *source_file, const char *kernel)
{
    if (!rc->nreports) return;
    char buf[2048];
    for (int i = 0; i < rc->nreports; i++) {
        ws_racecheck_format(rc, i, source_file, kernel, buf, sizeof buf);
        fprintf(out, "warpscope: %s\n", buf);
    }
    uint64_t wl = rc->warp_totals[WS_RACE_RAW] + rc->warp_totals[WS_RACE_WAR] + rc->warp_totals[WS_RACE_WAW];
    char of_them[96] = "";
    if (wl) snprintf(of_them, sizeof of_them, " (%" PRIu64 " of them between lanes of one warp)", wl);
    fprintf(out, "warpscope: racecheck summary: %" PRIu64 " RAW, %" PRIu64 " WAR, %" PRIu64 " WAW hazard accesses%s, "
            "%" PRIu64 " uninitialised shared reads, in %d distinct place%s%s\n",
            rc->totals[WS_RACE_RAW], rc->totals[WS_RACE_WAR], rc->totals[WS_RACE_WAW], of_them, rc->totals[WS_RACE_UNINIT],
            rc->nreports, rc->nreports == 1 ? "" : "s", rc->nreports == MAX_REPORTS ? " (list cut short)" : "");
}

int ws_sim_run_racecheck(const ws_sim_config *cfg, ws_sim_result *res, ws_error *err, FILE *report, int *hazards)
{
    if (hazards) *hazards = 0;
    ws_error ignored;                            /* a bad cluster is ws_sim_run's error to report */
    bool usage;
    ws_racecheck *rc = cfg && cfg->launch && cfg->fn
                           ? ws_racecheck_for_launch(cfg->fn, cfg->launch, "", "", 0, &ignored, &usage) : NULL;
    if (!rc) return ws_sim_run(cfg, res, err);
    ws_sim_config c = *cfg;
    ws_racecheck_attach(rc, &c);
    int r = ws_sim_run(&c, res, err);
    if (report) {
        const char *kernel = cfg->launch->desc ? cfg->launch->desc->name : cfg->fn ? cfg->fn->name : "?";
        ws_racecheck_print(rc, report, cfg->source_file, kernel);
    }
    if (hazards) *hazards = ws_racecheck_count(rc);
    ws_racecheck_free(rc);
    return r;
}
