/* interp_par.c - a launch's blocks on several threads, with the one-thread answer.
 * Workers run whole blocks (each its own warps and shared window; global memory is the
 * launch's) and record what the block tells the listeners - its memory events and watch hits,
 * in order - plus a checkpoint after every warp slice. The calling thread replays the records
 * block by block in linear order, so the models (L1/L2/DRAM, which depend on the order) see the
 * one-thread stream exactly; it also runs blocks itself when nothing is ready to replay. A
 * listener split in halves (ws_sim_config.split: the SASS stage and the coalescer and bank
 * rule, sim/split.c) does its order-free half on the workers, into the records, so the replay -
 * the launch's critical path - is left only what depends on the order.
 * Invariant: events, sequence numbers, counters, the instruction budget's stop and the first
 * fault are those of the one-thread run. That holds when no block can observe another's order,
 * so launches that could are left to one thread (sim_run_parallel returns 1): cooperative
 * launches, cluster launches (a cluster's blocks run together on one thread), global or generic atomics and
 * reductions other than integer add/min/max/and/or/xor whose old value nothing reads (those give
 * the same memory in any order and run as host atomics: sim_red_commutes), fences and volatile/acquire accesses
 * outside the block's shared window
 * (flags between blocks), clocks (%clock counts the launch's instructions so far), calls
 * (printf, assert, function pointers), racecheck's block hooks, memcheck's warnings and
 * init=none buffers (their written-bitmap is shared per 8 bytes). Blocks that race on the same
 * global bytes without any of these race as the kernel does: the last writer may differ. */
#include "interp_priv.h"

#include <inttypes.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>

enum { REC_EVENT, REC_WATCH };

/* Without a split listener: what the block told the listeners, as it was. */
typedef struct {
    int tag;                  /* REC_* */
    union { ws_mem_event ev; ws_watch_hit hit; } u;
} par_rec;

/* A block's records: each a size_t of its (8-aligned) size, then its bytes. */
struct ws_split_out {
    unsigned char *buf;
    size_t len, cap;
    bool oom;
};

typedef struct {
    uint64_t tins, wins;      /* the block's counts after the slice */
    uint64_t seq;             /* the block's memory events so far */
    size_t nrec;              /* record bytes before the slice ended */
    uint32_t warp;
    int32_t pc;               /* where the warp was (sim_warp_pc) */
} par_ck;

enum { SLOT_EMPTY, SLOT_RUNNING, SLOT_READY };

typedef struct {
    int state;                /* SLOT_*, under par.lock */
    uint64_t k;               /* the block's place in the launch, 0..count-1 */
    ws_split_out out;         /* its records */
    par_ck *ck;
    uint32_t nck, capck;
    uint64_t tins, wins, seq;
    int rc;                   /* the block's run: 0, or -1 with err/stop */
    ws_sim_stop stop;
    ws_error err;
} par_slot;

typedef struct par par;

typedef struct {
    par *P;
    sim_ctx c;                /* a copy of the launch's, with its own block, counters and result */
    ws_sim_config cfg;
    ws_sim_result res;
    sim_block blk;
    bool have_blk;
    void *half;               /* the split listener's worker half, NULL without one */
    par_slot *slot;           /* being filled */
    pthread_t tid;
} par_worker;

struct par {
    sim_ctx *c;               /* the launch (the calling thread's) */
    const ws_split_listener *split;
    void *split_ctx;
    uint64_t first, count;
    uint32_t nslots;
    par_slot *slots;          /* ring: block k in slots[k % nslots] */
    uint64_t next_claim, next_replay;
    uint32_t window;          /* blocks claimed ahead of the replay at most (<= nslots) */
    uint32_t ahead;           /* the split's limit on window (ws_sim_config.split_ahead), 0 = none */
    size_t max_rec;           /* the largest block's record bytes replayed so far */
    ws_split_out *spare;      /* nspare large record buffers of replayed slots, for the next claims */
    uint32_t nspare;
    volatile int abort;       /* set once the replay met a fault: no later block is needed */
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

/* --- what a block tells its listeners, recorded ------------------------------------------ */

void *ws_split_put(ws_split_out *o, size_t bytes)
{
    size_t need = sizeof(size_t) + ((bytes + 7) & ~(size_t)7);
    if (o->cap - o->len < need) {
        size_t cap = o->cap ? o->cap : 16384;
        while (cap - o->len < need) cap *= 2;
        unsigned char *n = realloc(o->buf, cap);
        if (!n) { o->oom = true; return NULL; }
        o->buf = n;
        o->cap = cap;
    }
    unsigned char *r = o->buf + o->len;
    memcpy(r, &need, sizeof need);
    o->len += need;
    return r + sizeof(size_t);
}

/* The default halves: the events and watch hits as they came, fed to listener and on_watch. */
static void *raw_new(void *ctx) { return ctx; }
static void raw_free(void *ctx, void *w) { (void)ctx; (void)w; }
static void raw_event(void *w, const ws_mem_event *ev, ws_split_out *out)
{
    (void)w;
    par_rec *r = ws_split_put(out, offsetof(par_rec, u) + sizeof *ev);
    if (r) { r->tag = REC_EVENT; r->u.ev = *ev; }
}
static void raw_watch(void *w, const ws_watch_hit *hit, ws_split_out *out)
{
    (void)w;
    par_rec *r = ws_split_put(out, offsetof(par_rec, u) + sizeof *hit);
    if (r) { r->tag = REC_WATCH; r->u.hit = *hit; }
}
static void raw_flush(void *w, ws_split_out *out) { (void)w; (void)out; }
static void raw_replay(void *ctx, void *rec, uint64_t seq0)
{
    const ws_sim_config *cfg = ctx;
    par_rec *r = rec;
    if (r->tag == REC_EVENT) {
        r->u.ev.seq += seq0;                   /* the block's numbering, after the blocks before */
        cfg->listener(cfg->listener_ctx, &r->u.ev);
    } else {
        cfg->on_watch(cfg->watch_ctx, &r->u.hit);
    }
}
static const ws_split_listener raw_split = {raw_new, raw_free, raw_event, raw_watch, raw_flush, raw_replay, NULL};

static void rec_event(void *ctx, const ws_mem_event *ev)
{
    par_worker *pw = ctx;
    pw->P->split->event(pw->half, ev, &pw->slot->out);
}

static void rec_watch(void *ctx, const ws_watch_hit *hit)
{
    par_worker *pw = ctx;
    pw->P->split->watch(pw->half, hit, &pw->slot->out);
}

static void on_slice(sim_ctx *c, const sim_warp *w)
{
    par_worker *pw = c->par;
    par_slot *s = pw->slot;
    if (s->nck == s->capck) {
        uint32_t cap = s->capck ? s->capck * 2 : 64;
        par_ck *n = realloc(s->ck, (size_t)cap * sizeof *n);
        if (!n) { s->out.oom = true; return; }
        s->ck = n;
        s->capck = cap;
    }
    const sim_program *P;
    s->ck[s->nck++] = (par_ck){c->thread_insns, c->warp_insns, c->seq, s->out.len, w->index, sim_warp_pc(c, w, &P)};
}

/* --- which launches may run on threads ------------------------------------------------------ */

static bool order_free(const sim_ctx *c)
{
    const ws_sim_config *cfg = c->cfg;
    if (cfg->threads <= 1 || c->any_lazy || c->cooperative || c->cl_n > 1 || cfg->on_sync || cfg->on_async || cfg->block_next || cfg->stop || cfg->memory_errors_are_warnings || c->any_uninit ||
        c->prog.reads_clock || c->needs_grid_ws)
        return false;
    const ptx_function *fn = c->fn;
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *pi = &fn->insns[i];
        switch (pi->op) {
        case PTX_ATOM: case PTX_RED:
            if (pi->space != PTX_SPACE_SHARED && !sim_red_commutes(fn, pi)) return false;
            break;
        case PTX_MEMBAR: case PTX_FENCE: case PTX_CALL:
            return false;
        default:
            /* on the block's own shared window they order only its threads (the warp-synchronous
               reduction's volatile loads) */
            if (pi->space != PTX_SPACE_SHARED && (pi->flags & (PTX_F_VOLATILE | PTX_F_ACQUIRE | PTX_F_RELEASE | PTX_F_RELAXED)))
                return false;
        }
    }
    return true;
}

/* --- a worker ------------------------------------------------------------------------------- */

static int worker_init(par_worker *pw, par *P)
{
    memset(pw, 0, sizeof *pw);
    pw->P = P;
    pw->cfg = *P->c->cfg;
    pw->cfg.listener = P->c->cfg->listener ? rec_event : NULL;
    pw->cfg.listener_ctx = pw;
    pw->cfg.on_watch = P->c->cfg->on_watch ? rec_watch : NULL;
    pw->cfg.watch_ctx = pw;
    pw->cfg.progress = NULL;
    pw->c = *P->c;
    pw->c.cfg = &pw->cfg;
    pw->c.res = &pw->res;
    pw->c.blocks = &pw->blk;
    pw->c.nslots = 1;
    pw->c.on_slice = on_slice;
    pw->c.par = pw;
    pw->c.abort = &P->abort;
    pw->c.tc = NULL;
    pw->c.seen = NULL;                           /* its own records (progress.c) */
    pw->c.sliced = false;
    if (!(pw->half = P->split->worker_new(P->split_ctx))) return -1;
    pw->res.pc_warp_count = calloc((size_t)(P->c->fn->ninsns ? P->c->fn->ninsns : 1), sizeof *pw->res.pc_warp_count);
    if (!pw->res.pc_warp_count) return -1;
    if (P->c->res->pc_spin_count) {
        pw->res.pc_spin_count = calloc((size_t)(P->c->fn->ninsns ? P->c->fn->ninsns : 1), sizeof *pw->res.pc_spin_count);
        if (!pw->res.pc_spin_count) return -1;
    }
    if (sim_block_alloc(&pw->c, &pw->blk)) { pw->have_blk = true; return -1; }
    pw->have_blk = true;
    return 0;
}

static void worker_free(par_worker *pw)
{
    if (pw->have_blk) sim_block_free(&pw->c, &pw->blk);
    sim_progress_free(&pw->c);
    if (pw->half) pw->P->split->worker_free(pw->P->split_ctx, pw->half);
    free(pw->res.pc_warp_count);
    free(pw->res.pc_spin_count);
}

/* Runs block k of the launch into slot s. */
static void run_one(par_worker *pw, par_slot *s, uint64_t k)
{
    sim_ctx *c = &pw->c;
    s->out.len = 0;
    s->out.oom = false;
    s->nck = 0;
    s->k = k;
    pw->slot = s;
    c->thread_insns = c->warp_insns = c->seq = 0;
    pw->res.stop = WS_SIM_FAULT;
    c->err = &s->err;
    sim_block_start(c, &pw->blk, pw->P->first + k);
    s->rc = sim_blocks_run(c, &pw->blk, 1);
    if (!s->rc) pw->P->split->flush(pw->half, &s->out);  /* one thread would put it before the next block's */
    s->stop = pw->res.stop;
    s->tins = c->thread_insns;
    s->wins = c->warp_insns;
    s->seq = c->seq;
}

/* How far the workers may run ahead of the replay. A worker that finds the ring full sleeps
 * until the replay frees a slot, and on a busy machine its wake-up takes longer than a small
 * block runs (copy_float at 2^24 on two cores under load: 33,000 sleeps of 0.25 ms each, the
 * worker idle 80 % of the run with a ring of 4), so the ring is deep: PAR_AHEAD blocks per
 * thread, fewer when the blocks' records are large (PAR_AHEAD_BYTES of them in the ring at most,
 * by the largest block so far). Only the schedule changes: the replay stays in block order. */
enum { PAR_AHEAD = 64 };
/* A replayed slot's buffer above this goes to the spares, which the next claims take: the ring is
 * walked slot by slot, so without that every slot of a deep ring would come to hold a large
 * block's buffer (a 512^3 tiled matmul: 14 MB a block, 128 slots) where only `window` are live. */
#define PAR_SMALL_REC ((size_t)64 << 10)
#define PAR_AHEAD_BYTES ((size_t)32 << 20)

static void par_set_window(par *P, size_t rec_bytes)
{
    if (rec_bytes > P->max_rec) P->max_rec = rec_bytes;
    size_t w = P->max_rec ? PAR_AHEAD_BYTES / P->max_rec : P->nslots;
    uint32_t lo = P->nslots / PAR_AHEAD * 2;       /* 2 per thread, as many as any run needs */
    P->window = w < lo ? lo : w > P->nslots ? P->nslots : (uint32_t)w;
    if (P->ahead && P->window > P->ahead) P->window = P->ahead;
}

/* Claims the next block when its ring slot is free; false when none is left to claim. */
static bool claim(par *P, bool wait, par_slot **s, uint64_t *k)
{
    for (;;) {
        if (P->abort || P->next_claim >= P->count) return false;
        par_slot *t = &P->slots[P->next_claim % P->nslots];
        if (t->state == SLOT_EMPTY && P->next_claim - P->next_replay < P->window) {
            t->state = SLOT_RUNNING;
            if (!t->out.buf && P->nspare) t->out = P->spare[--P->nspare];
            *s = t;
            *k = P->next_claim++;
            return true;
        }
        if (!wait) return false;
        pthread_cond_wait(&P->cond, &P->lock);
    }
}

static void *worker_main(void *arg)
{
    par_worker *pw = arg;
    par *P = pw->P;
    pthread_mutex_lock(&P->lock);
    par_slot *s;
    uint64_t k;
    while (claim(P, true, &s, &k)) {
        pthread_mutex_unlock(&P->lock);
        run_one(pw, s, k);
        pthread_mutex_lock(&P->lock);
        s->state = SLOT_READY;
        pthread_cond_broadcast(&P->cond);
    }
    pthread_mutex_unlock(&P->lock);
    return NULL;
}

/* --- the replay, in block order --------------------------------------------------------------- */

#define REC_PREFETCH_BYTES 4096   /* record bytes asked for ahead of the replay (with a split's peek) */

/* The split's peek at the record at offset `at` of s (< upto: else none); the next record's offset. */
static size_t peek_one(par *P, par_slot *s, size_t at, size_t upto, int stage)
{
    if (at >= upto)
        return at;
    size_t n;
    memcpy(&n, s->out.buf + at, sizeof n);
    P->split->peek(P->split_ctx, s->out.buf + at + sizeof n, stage);
    return at + n;
}

/* Feeds slot s (block next_replay) to the launch's listeners as the one-thread run would have,
 * stopping where it would have stopped. 0, or -1 with the error set. */
static int replay(par *P, par_slot *s)
{
    sim_ctx *c = P->c;
    if (s->out.oom) {
        c->res->stop = WS_SIM_OUT_OF_MEMORY;
        ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory recording block %" PRIu64 "'s events for the "
                     "threads' ordered replay; run with -j 1", c->kname, P->first + s->k);
        return -1;
    }
    size_t upto = s->out.len;
    const par_ck *stop = NULL;
    for (uint32_t i = 0; i < s->nck && !stop; i++)   /* the slice after which one thread hit the budget */
        if (c->thread_insns + s->ck[i].tins > c->budget) stop = &s->ck[i];
    if (stop) upto = stop->nrec;
    uint64_t seq0 = c->seq;
    /* the split's peek sees each record WS_SPLIT_PEEK_FAR and then WS_SPLIT_PEEK_NEAR records before
     * its replay (the block's first ones fewer): far and near are the offsets of the next to peek at */
    void (*peek)(void *, const void *, int) = P->split->peek;
    size_t far = 0, near = 0, pf = 0;   /* pf: the bytes of records asked for so far (with peek) */
    for (int i = 0; peek && i < WS_SPLIT_PEEK_FAR; i++) {
        if (i < WS_SPLIT_PEEK_NEAR) near = peek_one(P, s, near, upto, 1);
        far = peek_one(P, s, far, upto, 0);
    }
    for (size_t at = 0; at < upto;) {
        size_t n;
        memcpy(&n, s->out.buf + at, sizeof n);
        if (peek) {
            /* the records a few KB on, written on another core: in this one's cache before peek reads them */
            for (size_t to = upto - at > REC_PREFETCH_BYTES ? at + REC_PREFETCH_BYTES : upto; pf < to; pf += 64)
                __builtin_prefetch(s->out.buf + pf);
            far = peek_one(P, s, far, upto, 0);
            near = peek_one(P, s, near, upto, 1);
        }
        P->split->replay(P->split_ctx, s->out.buf + at + sizeof n, seq0);
        at += n;
    }
    if (stop) {
        c->seq = seq0 + stop->seq;
        c->thread_insns += stop->tins;
        c->warp_insns += stop->wins;
        sim_block b;                               /* names the block, warp and line as one thread does */
        memset(&b, 0, sizeof b);
        uint64_t linear = P->first + s->k, gx = c->L->grid[0], gy = c->L->grid[1];
        b.linear = (uint32_t)linear;
        b.idx[0] = (uint32_t)(linear % gx);
        b.idx[1] = (uint32_t)(linear / gx % gy);
        b.idx[2] = (uint32_t)(linear / (gx * gy));
        b.warps = c->blocks[0].warps;
        sim_select_block(c, &b);
        sim_warp w = c->blocks[0].warps[stop->warp];   /* only its index and (kernel) frame are read */
        w.index = stop->warp;
        w.depth = 0;
        c->res->stop = WS_SIM_FAULT;
        return sim_budget_fault(c, &w, &c->prog, stop->pc);
    }
    c->thread_insns += s->tins;
    c->warp_insns += s->wins;
    c->seq = seq0 + s->seq;
    if (s->rc) {
        *c->err = s->err;
        c->res->stop = s->stop;
        return -1;
    }
    return 0;
}

int sim_run_parallel(sim_ctx *c, uint64_t first, uint64_t count)
{
    if (count < 2 || !order_free(c)) return 1;
    int nthreads = c->cfg->threads;
    if ((uint64_t)nthreads > count) nthreads = (int)count;
    par P;
    memset(&P, 0, sizeof P);
    P.c = c;
    P.split = c->cfg->split ? c->cfg->split : &raw_split;
    P.split_ctx = c->cfg->split ? c->cfg->split_ctx : (void *)c->cfg;
    P.first = first;
    P.count = count;
    P.nslots = (uint32_t)nthreads * PAR_AHEAD;
    P.window = (uint32_t)nthreads * 2;             /* until a replayed block says how large one is */
    P.ahead = c->cfg->split ? c->cfg->split_ahead : 0;
    if (P.ahead && P.window > P.ahead) P.window = P.ahead;
    P.slots = calloc(P.nslots, sizeof *P.slots);
    P.spare = calloc(P.nslots, sizeof *P.spare);
    par_worker *pw = calloc((size_t)nthreads, sizeof *pw);   /* pw[0]: the calling thread's */
    int rc = -1, started = 0;
    pthread_mutex_init(&P.lock, NULL);
    pthread_cond_init(&P.cond, NULL);
    bool ok = P.slots && P.spare && pw;
    for (int i = 0; ok && i < nthreads; i++) ok = worker_init(&pw[i], &P) == 0;
    if (!ok) {
        c->res->stop = WS_SIM_OUT_OF_MEMORY;
        ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for %d threads' blocks", c->kname, nthreads);
        goto done;
    }
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&pw[i].tid, NULL, worker_main, &pw[i])) break;   /* fewer threads: still correct */
        started = i;
    }
    uint64_t step = count / 200 ? count / 200 : 1;
    double t0 = sim_now();
    c->res->threads = started + 1;
    rc = 0;
    pthread_mutex_lock(&P.lock);
    while (P.next_replay < count) {
        par_slot *s = &P.slots[P.next_replay % P.nslots];
        if (s->state == SLOT_READY && s->k == P.next_replay) {
            pthread_mutex_unlock(&P.lock);
            int r = replay(&P, s);
            pthread_mutex_lock(&P.lock);
            s->state = SLOT_EMPTY;
            P.next_replay++;
            uint32_t was = P.window;
            par_set_window(&P, s->out.len);
            if (s->out.cap > PAR_SMALL_REC) {            /* the ring's slots share the large buffers */
                P.spare[P.nspare++] = s->out;
                memset(&s->out, 0, sizeof s->out);
            }
            /* a worker waits for a free slot: wake it once half the window is free, not at every
             * slot (saxpy_block13, 80,660 blocks of 13 threads: one futex wake and context switch
             * per block replayed, on a loaded machine slower than one thread) */
            if (P.next_claim - P.next_replay <= P.window / 2 || P.window != was)
                pthread_cond_broadcast(&P.cond);
            if (!r) r = sim_predict_after(c, P.next_replay, count, sim_now() - t0);  /* as one thread predicts */
            if (r) { rc = -1; P.abort = 1; break; }
            if (c->cfg->progress && (P.next_replay % step == 0 || P.next_replay == count)) {
                pthread_mutex_unlock(&P.lock);
                c->cfg->progress(c->cfg->progress_ctx, P.next_replay, count);
                pthread_mutex_lock(&P.lock);
            }
            continue;
        }
        par_slot *t;
        uint64_t k;
        if (claim(&P, false, &t, &k)) {            /* nothing to replay yet: run a block here */
            pthread_mutex_unlock(&P.lock);
            run_one(&pw[0], t, k);
            pthread_mutex_lock(&P.lock);
            t->state = SLOT_READY;
            pthread_cond_broadcast(&P.cond);
            continue;
        }
        pthread_cond_wait(&P.cond, &P.lock);
    }
    pthread_cond_broadcast(&P.cond);
    pthread_mutex_unlock(&P.lock);
    for (int i = 1; i <= started; i++) pthread_join(pw[i].tid, NULL);
    if (!rc)                                       /* per-pc counts: sums, whatever the order */
        for (int i = 0; i < nthreads; i++)
            for (int p = 0; p < c->fn->ninsns; p++) {
                c->res->pc_warp_count[p] += pw[i].res.pc_warp_count[p];
                if (c->res->pc_spin_count) c->res->pc_spin_count[p] += pw[i].res.pc_spin_count[p];
            }
    for (int i = 0; !rc && i < nthreads; i++) ws_nreg_merge(&c->res->nreg, &pw[i].res.nreg); /* the larger wins */
done:
    for (int i = 0; pw && i < nthreads; i++) worker_free(&pw[i]);
    for (uint32_t i = 0; P.slots && i < P.nslots; i++) { free(P.slots[i].out.buf); free(P.slots[i].ck); }
    free(P.slots);
    for (uint32_t i = 0; i < P.nspare; i++) free(P.spare[i].buf);
    free(P.spare);
    free(pw);
    pthread_mutex_destroy(&P.lock);
    pthread_cond_destroy(&P.cond);
    return rc;
}
