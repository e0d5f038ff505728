/* viz_async.c - LANDED and MBAR_WAIT steps from the interpreter's asynchronous records (viz_async.h).
 * The simulator copies a cp.async's or bulk copy's bytes when it issues (sim/interp/exec_tc.c); what
 * the PTX ISA promises is only that they are there once the wait covering them is done, so that is
 * where the picture shows them landing: it follows the recording's own waits and phases, no model
 * of copy latency is made up here. */
#include "viz_async.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t step;          /* the copy's (first) shared-side step */
    uint32_t block, warp, pc;
    uint32_t group;       /* cp.async: the warp's group it joined */
    bool bulk, has_mbar;
    uint64_t mbar, bytes;
    int sectors;
} pend;

typedef struct { uint32_t block, warp, open; } wgroups;
typedef struct { uint32_t block, warp; uint64_t mbar; size_t step; uint64_t seq; uint32_t tries; } stall;
typedef struct { uint32_t block; uint64_t mbar, landed; } mtx;

struct viz_async {
    pend *p; size_t np, cp;
    wgroups *g; size_t ng, cg;
    stall *s; size_t ns, cs;
    mtx *m; size_t nm, cm;
};

/* Room for one more element in a growing array; 0, or -1 out of memory. */
static int grow(void **v, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *nv = realloc(*v, c * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = c;
    return 0;
}
#define GROW(arr, n, cap) grow((void **)&(arr), (n), &(cap), sizeof *(arr))

viz_async *viz_async_new(void)
{
    return calloc(1, sizeof(viz_async));
}

void viz_async_free(viz_async *a)
{
    if (!a)
        return;
    free(a->p);
    free(a->g);
    free(a->s);
    free(a->m);
    free(a);
}

static wgroups *groups_of(viz_async *a, uint32_t block, uint32_t warp)
{
    for (size_t i = 0; i < a->ng; i++)
        if (a->g[i].block == block && a->g[i].warp == warp)
            return &a->g[i];
    if (GROW(a->g, a->ng, a->cg))
        return NULL;
    a->g[a->ng] = (wgroups){block, warp, 0};
    return &a->g[a->ng++];
}

static mtx *mtx_of(viz_async *a, uint32_t block, uint64_t mbar)
{
    for (size_t i = 0; i < a->nm; i++)
        if (a->m[i].block == block && a->m[i].mbar == mbar)
            return &a->m[i];
    if (GROW(a->m, a->nm, a->cm))
        return NULL;
    a->m[a->nm] = (mtx){block, mbar, 0};
    return &a->m[a->nm++];
}

int viz_async_step(viz_async *a, viz_recording *r, size_t i)
{
    const viz_step *st = &r->steps[i];
    if (st->what != VIZ_STEP_ACCESS || st->space != WS_SPACE_SHARED || st->op != WS_MEM_STORE)
        return 0;
    bool bulk = st->kind == WS_KIND_BULK || st->kind == WS_KIND_TMA;
    if (st->kind != WS_KIND_LDGSTS && !bulk)
        return 0;
    if (bulk) /* a copy of more than 32 chunks comes in several events: one pending copy */
        for (size_t k = a->np; k-- > 0;)
            if (a->p[k].bulk && !a->p[k].has_mbar && a->p[k].block == st->block_linear && a->p[k].pc == st->pc &&
                a->p[k].warp == st->warp)
                return 0;
    if (GROW(a->p, a->np, a->cp))
        return -1;
    pend p = {.step = i, .block = st->block_linear, .warp = st->warp, .pc = st->pc, .bulk = bulk};
    if (!bulk) {
        const wgroups *g = groups_of(a, st->block_linear, st->warp);
        if (!g)
            return -1;
        p.group = g->open;
        for (int l = 0; l < VIZ_LANES; l++)
            if (st->lane[l].active)
                p.bytes += st->width;
        /* its global read is the event just before (exec_tc.c emits the two sides together) */
        if (i > 0 && r->steps[i - 1].seq + 1 == st->seq && r->steps[i - 1].kind == WS_KIND_LDGSTS &&
            r->steps[i - 1].space == WS_SPACE_GLOBAL)
            p.sectors = r->steps[i - 1].sectors;
    }
    a->p[a->np++] = p;
    return 0;
}

static int push(viz_recording *r, const viz_step *s)
{
    if (r->max_steps && r->nsteps >= r->max_steps) {
        r->truncated = true;
        return 0;
    }
    return viz_recording_push(r, s);
}

/* The LANDED step of pending copy k (removed from the list). */
static int land(viz_async *a, viz_recording *r, size_t k, const ws_async_event *e, const viz_totals *run)
{
    static viz_step s; /* large: off the stack */
    pend p = a->p[k];
    memmove(&a->p[k], &a->p[k + 1], (a->np - k - 1) * sizeof *a->p);
    a->np--;
    s = r->steps[p.step];
    s.what = VIZ_STEP_LANDED;
    s.issued_seq = s.seq;
    s.seq = e->seq;
    s.landed_bytes = p.bytes;
    s.landed_sectors = p.sectors;
    if (p.bulk) {
        const mtx *m = mtx_of(a, p.block, p.mbar);
        s.mbar = p.mbar;
        s.mbar_arrived = s.mbar_expected = e->expected;
        s.mbar_tx = e->tx;
        s.mbar_tx_landed = m ? m->landed : 0;
        s.mbar_phase = e->phase;
    }
    s.totals = *run;
    return push(r, &s);
}

/* A step of warp e->warp waiting on e->mbar. */
static int wait_step(viz_async *a, viz_recording *r, const ws_async_event *e, const viz_totals *run, bool stalled,
                     const stall *open)
{
    static viz_step s;
    memset(&s, 0, sizeof s);
    s.what = VIZ_STEP_MBAR_WAIT;
    s.seq = e->seq;
    uint32_t gx = r->grid[0] ? r->grid[0] : 1, gy = r->grid[1] ? r->grid[1] : 1;
    s.block[0] = e->block_linear % gx;
    s.block[1] = e->block_linear / gx % gy;
    s.block[2] = e->block_linear / gx / gy;
    s.block_linear = e->block_linear;
    s.warp = e->warp;
    s.pc = e->pc;
    s.src_line = e->src_line;
    s.ptx_line = e->ptx_line;
    s.space = WS_SPACE_SHARED;
    s.op = WS_MEM_LOAD;
    s.width = 8;
    s.active_mask = e->lanes;
    s.nrows = 1;
    s.rows[0] = (uint32_t)(e->mbar / 128);
    for (int l = 0; l < VIZ_LANES; l++) {
        s.lane[l].wavefront = -1;
        if (!(e->lanes >> l & 1))
            continue;
        s.lane[l].active = true;
        s.lane[l].addr = e->mbar;
        s.lane[l].bank = (uint8_t)(e->mbar / 4 % VIZ_BANKS);
        s.lane[l].nwords = 2;
    }
    const mtx *m = mtx_of(a, e->block_linear, e->mbar);
    s.mbar = e->mbar;
    s.mbar_expected = e->expected;
    s.mbar_arrived = e->expected >= e->pending ? e->expected - e->pending : 0;
    s.mbar_tx = e->tx;
    s.mbar_tx_landed = m ? m->landed : 0;
    s.mbar_phase = e->phase;
    s.stalled = stalled;
    s.wait_tries = open ? open->tries : 1;
    s.stall_ended = !stalled && open;
    s.stall_seq = !stalled && open ? open->seq : 0;
    s.totals = *run;
    return push(r, &s);
}

int viz_async_event(viz_async *a, viz_recording *r, const ws_async_event *e, const viz_totals *run)
{
    switch (e->kind) {
    case WS_ASYNC_CP_COMMIT: {
        wgroups *g = groups_of(a, e->block_linear, e->warp);
        if (!g)
            return -1;
        g->open = e->groups;
        return 0;
    }
    case WS_ASYNC_CP_WAIT:
        for (size_t k = 0; k < a->np;)
            if (!a->p[k].bulk && a->p[k].block == e->block_linear && a->p[k].warp == e->warp &&
                a->p[k].group < e->groups) {
                if (land(a, r, k, e, run))
                    return -1;
            } else {
                k++;
            }
        return 0;
    case WS_ASYNC_MBAR_TX: {
        mtx *m = mtx_of(a, e->block_linear, e->mbar);
        if (!m)
            return -1;
        m->landed += e->bytes > 0 ? (uint64_t)e->bytes : 0;
        for (size_t k = a->np; k-- > 0;)
            if (a->p[k].bulk && !a->p[k].has_mbar && a->p[k].block == e->block_linear) {
                a->p[k].has_mbar = true;
                a->p[k].mbar = e->mbar;
                a->p[k].bytes = e->bytes > 0 ? (uint64_t)e->bytes : 0;
                break;
            }
        return 0;
    }
    case WS_ASYNC_MBAR_PHASE: {
        for (size_t k = 0; k < a->np;)
            if (a->p[k].bulk && a->p[k].has_mbar && a->p[k].block == e->block_linear && a->p[k].mbar == e->mbar) {
                if (land(a, r, k, e, run))
                    return -1;
            } else {
                k++;
            }
        mtx *m = mtx_of(a, e->block_linear, e->mbar);
        if (!m)
            return -1;
        m->landed = 0; /* a new phase counts its own bytes */
        return 0;
    }
    case WS_ASYNC_MBAR_WAIT: {
        size_t k = 0;
        while (k < a->ns && !(a->s[k].block == e->block_linear && a->s[k].warp == e->warp && a->s[k].mbar == e->mbar))
            k++;
        bool open = k < a->ns;
        if ((e->done & e->lanes) != e->lanes) { /* some lane's phase is still open: the warp stalls */
            if (open) {
                a->s[k].tries++;
                if (a->s[k].step < r->nsteps)
                    r->steps[a->s[k].step].wait_tries = a->s[k].tries;
                return 0;
            }
            if (GROW(a->s, a->ns, a->cs))
                return -1;
            a->s[a->ns] = (stall){e->block_linear, e->warp, e->mbar, r->nsteps, e->seq, 1};
            a->ns++;
            size_t before = r->nsteps;
            int rc = wait_step(a, r, e, run, true, NULL);
            if (r->nsteps == before)
                a->s[a->ns - 1].step = SIZE_MAX; /* not recorded (full): nothing to update */
            return rc;
        }
        if (!open)
            return wait_step(a, r, e, run, false, NULL);
        stall st = a->s[k];
        st.tries++;
        memmove(&a->s[k], &a->s[k + 1], (a->ns - k - 1) * sizeof *a->s);
        a->ns--;
        return wait_step(a, r, e, run, false, &st);
    }
    default:
        return 0;
    }
}
