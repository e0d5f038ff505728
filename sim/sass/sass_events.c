/* sass_events.c - the PTX-to-SASS event stage (see sass_events.h).
 * The hot path (one call per PTX event) is a table lookup by pc and one forwarded copy;
 * the stage allocates nothing after ws_sass_stage_new. A wmma.load/store's events (one per
 * fragment register, part 0 first) are held until its execution is complete - the next event
 * that is not its continuation, a watch hit, or ws_sass_stage_flush - then regrouped into the
 * SASS accesses the plan found for it. */
#include "sass_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/demangle.h"

struct ws_sass_stage {
    const ws_sass_plan *plan;
    ws_mem_listener down;
    void *down_ctx;
    uint64_t seq;
    uint64_t *emitted;         /* per SASS instruction: events emitted for it */
    int *spill_first, *spill_n;/* per PTX pc: its spills in plan->spills order (sorted by anchor) */
    int *spill_order;
    ws_sass_stage_stats st;
    uint64_t *bulk_lanes, *bulk_execs; /* per PTX pc: a bulk copy's lane issues and warp executions */
    uint64_t *bulk_last;       /* per PTX pc: warp_global << 5 | lane of its last lane issue, + 1 */
    int npend;                 /* events of the wmma execution being held */
    ws_mem_event pend[32];     /* up to 8 registers x 4 element events */
};

static const ws_sass_plan *sort_plan; /* qsort has no context argument in C11 */
static int cmp_spill(const void *a, const void *b)
{
    const ws_sass_extra *x = &sort_plan->spills[*(const int *)a], *y = &sort_plan->spills[*(const int *)b];
    if (x->anchor_pc != y->anchor_pc) return x->anchor_pc - y->anchor_pc;
    return x->sass - y->sass;
}

ws_sass_stage *ws_sass_stage_new(const ws_sass_plan *plan, ws_mem_listener down, void *down_ctx)
{
    ws_sass_stage *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    int n = plan->fn->ninsns, ns = plan->sf->ninsns;
    st->plan = plan;
    st->down = down;
    st->down_ctx = down_ctx;
    st->emitted = calloc((size_t)(ns ? ns : 1), sizeof *st->emitted);
    st->spill_first = calloc((size_t)(n ? n : 1), sizeof *st->spill_first);
    st->spill_n = calloc((size_t)(n ? n : 1), sizeof *st->spill_n);
    st->spill_order = calloc((size_t)(plan->nspills ? plan->nspills : 1), sizeof *st->spill_order);
    st->bulk_lanes = calloc((size_t)(n ? n : 1), sizeof *st->bulk_lanes);
    st->bulk_execs = calloc((size_t)(n ? n : 1), sizeof *st->bulk_execs);
    st->bulk_last = calloc((size_t)(n ? n : 1), sizeof *st->bulk_last);
    if (!st->emitted || !st->spill_first || !st->spill_n || !st->spill_order || !st->bulk_lanes || !st->bulk_execs ||
        !st->bulk_last) {
        ws_sass_stage_free(st);
        return NULL;
    }
    int k = 0;
    for (int i = 0; i < plan->nspills; i++)
        if (plan->spills[i].anchor_pc >= 0) st->spill_order[k++] = i;
    sort_plan = plan;
    qsort(st->spill_order, (size_t)k, sizeof *st->spill_order, cmp_spill);
    for (int i = k - 1; i >= 0; i--) {
        int pc = plan->spills[st->spill_order[i]].anchor_pc;
        st->spill_first[pc] = i;
        st->spill_n[pc]++;
    }
    return st;
}

void ws_sass_stage_free(ws_sass_stage *st)
{
    if (!st) return;
    free(st->emitted);
    free(st->spill_first);
    free(st->spill_n);
    free(st->spill_order);
    free(st->bulk_lanes);
    free(st->bulk_execs);
    free(st->bulk_last);
    free(st);
}

void ws_sass_stage_attach(ws_sass_stage *st, ws_sim_config *cfg)
{
    st->down = cfg->listener;
    st->down_ctx = cfg->listener_ctx;
    cfg->listener = ws_sass_stage_listener;
    cfg->listener_ctx = st;
    cfg->watch = st->plan->watch;
    cfg->on_watch = ws_sass_stage_watch;
    cfg->watch_ctx = st;
}

const ws_sass_stage_stats *ws_sass_stage_get_stats(const ws_sass_stage *st) { return &st->st; }

uint64_t ws_sass_stage_take_seq(ws_sass_stage *st)
{
    st->st.out++;
    return st->seq++;
}

void ws_sass_stage_add_counts(ws_sass_stage *st, const ws_sass_stage *w)
{
    st->st.in += w->st.in;
    st->st.merged_away += w->st.merged_away;
    st->st.spill_events += w->st.spill_events;
    for (int i = 0; i < st->plan->sf->ninsns; i++) st->emitted[i] += w->emitted[i];
    for (int pc = 0; pc < st->plan->fn->ninsns; pc++) {
        st->bulk_lanes[pc] += w->bulk_lanes[pc];
        st->bulk_execs[pc] += w->bulk_execs[pc];
    }
}

/* A per-lane bulk copy's lanes issue in ascending order (exec_bulk.c), each its own events: a lane
 * at or below the warp's previous one, or another warp, starts a new warp execution. */
static void count_bulk_lanes(ws_sass_stage *st, const ws_mem_event *ev)
{
    if (ev->kind != WS_KIND_BULK || ev->space != WS_SPACE_GLOBAL || ev->part != 0 || !ev->active_mask ||
        ev->pc >= (uint32_t)st->plan->fn->ninsns)
        return;
    uint64_t key = ((uint64_t)ev->warp_global << 5 | (uint64_t)(ev->issue_lane & 31)) + 1;
    uint64_t last = st->bulk_last[ev->pc];
    if (!last || key <= last || (key - 1) >> 5 != (last - 1) >> 5) st->bulk_execs[ev->pc]++;
    st->bulk_lanes[ev->pc]++;
    st->bulk_last[ev->pc] = key;
}

static void emit(ws_sass_stage *st, ws_mem_event *ev)
{
    ev->seq = st->seq++;
    st->st.out++;
    if (st->down) st->down(st->down_ctx, ev);
}

static void set_width(ws_mem_event *ev, int width)
{
    if (ev->width == width) return;
    ev->width = (uint8_t)width;
    if (ev->elem_size && width % ev->elem_size == 0 && width / ev->elem_size <= 4) {
        ev->vec = (uint8_t)(width / ev->elem_size);
    } else {
        ev->elem_size = (uint8_t)width;
        ev->vec = 1;
    }
}

/* ---- wmma: a fragment's events regrouped into its SASS ------------------------------ */

typedef struct { uint64_t a; uint32_t n; } piece;

static int cmp_piece(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    return a->a < b->a ? -1 : a->a > b->a;
}

/* Sorts v by address: a merge sort on the stack (qsort allocates and calls back per compare,
 * the SASS stage's hottest cost on wmma kernels). Pieces of one address may end in any order:
 * the callers merge overlapping pieces, which does not depend on it. */
static void sort_pieces(piece *v, int n)
{
    piece tmp[32 * 32];
    if (n > 32 * 32) { qsort(v, (size_t)n, sizeof *v, cmp_piece); return; }
    for (int lo = 0; lo < n; lo += 8) {          /* runs of 8 by insertion */
        int hi = lo + 8 < n ? lo + 8 : n;
        for (int i = lo + 1; i < hi; i++) {
            piece x = v[i];
            int j = i - 1;
            while (j >= lo && v[j].a > x.a) { v[j + 1] = v[j]; j--; }
            v[j + 1] = x;
        }
    }
    for (int width = 8; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            if (mid >= hi || v[mid - 1].a <= v[mid].a) continue;   /* already in order */
            while (i < mid && j < hi) tmp[k++] = v[j].a < v[i].a ? v[j++] : v[i++];
            while (i < mid) tmp[k++] = v[i++];
            while (j < hi) tmp[k++] = v[j++];
            memcpy(v + lo, tmp + lo, (size_t)(hi - lo) * sizeof *v);
        }
    }
}

/* The matrix's memory rows (ws_sass_wmma_rows): every byte the fragment's events touch, cut
 * into rows of row_bytes in address order. False when they are not n whole rows. */
static bool wmma_mem_rows(const ws_sass_stage *st, int n, int row_bytes, uint64_t *row)
{
    piece all[32 * 32];
    int k = 0, got = 0;
    for (int e = 0; e < st->npend; e++)
        for (int l = 0; l < 32; l++)
            if (st->pend[e].active_mask >> l & 1) all[k++] = (piece){st->pend[e].addr[l], st->pend[e].width};
    sort_pieces(all, k);
    for (int i = 0; i < k;) {
        uint64_t a = all[i].a, end = a + all[i].n;
        for (i++; i < k && all[i].a <= end; i++)
            if (all[i].a + all[i].n > end) end = all[i].a + all[i].n;
        if ((end - a) % (uint64_t)row_bytes) return false;
        for (; a < end; a += (uint64_t)row_bytes) {
            if (got == n) return false;
            row[got++] = a;
        }
    }
    return got == n;
}

/* LDG/STG/LDS/STS of width w. ptxas reads and writes a fragment in the stored matrix's own
 * order, whatever the fragment layout, and fixes the registers up after (seen in every sm_90
 * listing: a row-major B is 4 LDG.E of 16-byte row segments, like A): lane 4g + t of
 * instruction j moves w bytes at w*t + 4w*(j / (R/8)) of row g + 8*(j % (R/8)), for R rows
 * (16 A rows -> 4 LDG.E; 16 rows of 16 floats at w = 8 -> 4 STG.E.64). Where the rows do not
 * fit that (R not a multiple of 8, rows not of 4w-byte segments), each lane's own bytes, cut
 * at w-aligned boundaries, piece j of every lane in instruction j. */
static void wmma_plain(ws_sass_stage *st, const ws_sass_pcmap *pm)
{
    uint32_t w = pm->width ? pm->width : 4;
    int nrows, row_bytes;
    uint64_t row[64];
    ws_sass_wmma_rows(&st->plan->fn->insns[st->pend[0].pc], &nrows, &row_bytes);
    if (nrows % 8 == 0 && nrows <= 64 && row_bytes % (int)(4 * w) == 0 && wmma_mem_rows(st, nrows, row_bytes, row)) {
        int groups = nrows / 8, segs = row_bytes / (int)(4 * w);
        for (int j = 0; j < groups * segs; j++) {
            ws_mem_event e = st->pend[0];
            e.kind = WS_KIND_PLAIN;
            e.part = (uint32_t)j; /* the execution's j-th LDG/STG: one access of the latency epochs */
            e.active_mask = 0xffffffffu;
            for (int l = 0; l < 32; l++)
                e.addr[l] = row[l / 4 + 8 * (j % groups)] + (uint64_t)(4 * w * (uint32_t)(j / groups) + w * (uint32_t)(l % 4));
            set_width(&e, (int)w);
            st->emitted[pm->sass]++;
            emit(st, &e);
        }
        return;
    }

    piece cut[32][64];
    int ncut[32] = {0}, most = 0;
    for (int l = 0; l < 32; l++) {
        piece in[32];
        int n = 0;
        for (int k = 0; k < st->npend; k++)
            if (st->pend[k].active_mask >> l & 1) in[n++] = (piece){st->pend[k].addr[l], st->pend[k].width};
        sort_pieces(in, n);
        for (int k = 0; k < n;) {
            uint64_t a = in[k].a, end = a + in[k].n;
            for (k++; k < n && in[k].a <= end; k++)
                if (in[k].a + in[k].n > end) end = in[k].a + in[k].n;
            while (a < end && ncut[l] < 64) {
                uint64_t stop = (a / w + 1) * w;
                if (stop > end) stop = end;
                cut[l][ncut[l]++] = (piece){a, (uint32_t)(stop - a)};
                a = stop;
            }
        }
        if (ncut[l] > most) most = ncut[l];
    }
    for (int j = 0; j < most; j++) {
        ws_mem_event e = st->pend[0];
        e.kind = WS_KIND_PLAIN;
        e.part = (uint32_t)j;
        e.active_mask = 0;
        for (int l = 0; l < 32; l++) {
            e.addr[l] = 0;
            if (j < ncut[l]) {
                e.addr[l] = cut[l][j].a;
                e.active_mask |= 1u << l;
            }
        }
        set_width(&e, (int)w);
        st->emitted[pm->sass]++;
        emit(st, &e);
    }
}

/* LDSM/STSM: fragment register r is one 8x8 matrix, its rows the 16-byte segments its lanes
 * touch; an instruction of .xN carries N matrices, lane 8i + j the row address of row j of
 * its matrix i. False (nothing emitted) when a register touches more than 8 rows. */
static bool wmma_matrix(ws_sass_stage *st, const ws_sass_pcmap *pm)
{
    uint64_t rows[8][8];
    int nrows[8] = {0}, nregs = 0;
    for (int k = 0; k < st->npend; k++) {
        const ws_mem_event *e = &st->pend[k];
        int r = (int)(e->part / 8);
        if (r >= 8) return false;
        if (r + 1 > nregs) nregs = r + 1;
        for (int l = 0; l < 32; l++) {
            if (!(e->active_mask >> l & 1)) continue;
            for (uint64_t a = e->addr[l] & ~(uint64_t)15; a < e->addr[l] + e->width; a += 16) {
                bool have = false;
                for (int i = 0; i < nrows[r] && !have; i++) have = rows[r][i] == a;
                if (have) continue;
                if (nrows[r] == 8) return false;
                rows[r][nrows[r]++] = a;
            }
        }
    }
    int mats = pm->width >= 4 ? pm->width / 4 : 1; /* .x1 .x2 .x4 */
    for (int r0 = 0; r0 < nregs; r0 += mats) {
        ws_mem_event e = st->pend[0];
        e.kind = pm->form == WS_TC_FORM_LDSM ? WS_KIND_LDSM : WS_KIND_STSM;
        e.part = 0;
        e.width = 16;
        e.elem_size = 4;
        e.vec = 4;
        e.active_mask = 0;
        memset(e.addr, 0, sizeof e.addr);
        for (int i = 0; i < mats && r0 + i < nregs; i++)
            for (int j = 0; j < nrows[r0 + i]; j++) {
                e.addr[8 * i + j] = rows[r0 + i][j];
                e.active_mask |= 1u << (8 * i + j);
            }
        st->emitted[pm->sass]++;
        emit(st, &e);
    }
    return true;
}

void ws_sass_stage_flush(ws_sass_stage *st)
{
    if (!st->npend) return;
    const ws_sass_pcmap *pm = &st->plan->pc[st->pend[0].pc];
    bool done = true;
    if (pm->form == WS_TC_FORM_PLAIN) wmma_plain(st, pm);
    else done = wmma_matrix(st, pm);
    if (done) st->st.merged_away += (uint64_t)st->npend;
    else /* not the matrix form after all: counted as the PTX has it */
        for (int k = 0; k < st->npend; k++) emit(st, &st->pend[k]);
    st->npend = 0;
}

void ws_sass_stage_listener(void *ctx, const ws_mem_event *ev)
{
    ws_sass_stage *st = ctx;
    const ws_sass_plan *p = st->plan;
    st->st.in++;
    if (st->npend && !(ev->kind == WS_KIND_WMMA && ev->part != 0 && ev->pc == st->pend[0].pc &&
                       ev->warp_global == st->pend[0].warp_global && ev->block_linear == st->pend[0].block_linear &&
                       st->npend < 32))
        ws_sass_stage_flush(st);
    if (ev->kind == WS_KIND_WMMA && ev->pc < (uint32_t)p->fn->ninsns && p->pc[ev->pc].form != WS_TC_FORM_NONE &&
        (st->npend || ev->part == 0)) {
        st->pend[st->npend++] = *ev;
        return;
    }
    /* a tensor-era event (cp.async, ldmatrix, wmma, bulk/TMA) is counted apart from the plain
     * rows (memstats.h) and the plan matches only plain ld/st/atom: it passes unchanged */
    if (ev->pc >= (uint32_t)p->fn->ninsns || ev->kind != WS_KIND_PLAIN) { /* not the plan's: pass on */
        count_bulk_lanes(st, ev);
        ws_mem_event e = *ev;
        /* a cp.async's src-size operand that ptxas folded away (a constant equal to the copy size)
           leaves a plain LDGSTS: its shared write costs what the form without one does (banks.h) */
        const ws_sass_pcmap *pm = ev->pc < (uint32_t)p->fn->ninsns ? &p->pc[ev->pc] : NULL;
        if (e.kind == WS_KIND_LDGSTS && e.zfill_copy_mask && pm && pm->sass >= 0 && pm->sass < p->sf->ninsns &&
            !strncmp(p->sf->insns[pm->sass].opcode, "LDGSTS", 6) && !strstr(p->sf->insns[pm->sass].text, ".ZFILL"))
            e.zfill_copy_mask = 0;
        emit(st, &e);
        return;
    }
    const ws_sass_pcmap *pm = &p->pc[ev->pc];
    if (pm->action == WS_MAP_ABSORBED || pm->action == WS_MAP_DROPPED) {
        st->st.merged_away++;
        return;
    }
    ws_mem_event e = *ev;
    if (pm->action == WS_MAP_PASS || pm->action == WS_MAP_CARRY) {
        set_width(&e, pm->width);
        /* a widened access starts at or before its carrier's bytes, at its own alignment (sass_map.c
           cover_round): where this simulation lays the window out as ptxas did, that is the carrier's
           address less the bytes before it; where not, the start stays in the window */
        if (pm->widened)
            for (int l = 0; l < 32; l++)
                if (e.active_mask >> l & 1)
                    e.addr[l] &= ~(uint64_t)(pm->width - 1);
        if (e.op == WS_MEM_ATOMIC || e.op == WS_MEM_REDUCE)
            e.op = pm->op == WS_SASS_OP_RED ? WS_MEM_REDUCE : WS_MEM_ATOMIC;
        if (pm->aggregated && e.active_mask) { /* ptxas: the lowest active lane does the warp's op */
            uint32_t low = e.active_mask & (~e.active_mask + 1u);
            for (int l = 0; l < 32; l++)
                if (!(low >> l & 1))
                    e.addr[l] = 0;
            e.active_mask = low;
        }
        st->emitted[pm->sass]++;
    }
    emit(st, &e);
}

static void spill_event(ws_sass_stage *st, const ws_sass_insn *s, int sass, uint32_t mask, const ws_watch_hit *h,
                        ws_mem_event *e)
{
    memset(e, 0, sizeof *e);
    e->block_linear = h->block_linear;
    memcpy(e->block, h->block, sizeof e->block);
    e->warp = h->warp;
    e->warp_global = h->warp_global;
    e->pc = (uint32_t)st->plan->fn->ninsns + (uint32_t)sass;
    e->src_line = s->line;
    e->space = WS_SPACE_LOCAL;
    e->op = s->op == WS_SASS_OP_ST ? WS_MEM_STORE : WS_MEM_LOAD;
    e->cache = WS_CACHE_DEFAULT;
    e->width = s->width;
    e->elem_size = s->width >= 4 ? 4 : s->width;
    e->vec = (uint8_t)(s->width >= 4 ? s->width / 4 : 1);
    e->active_mask = mask;
    /* [R1+imm]: R1 is the stack pointer, the same frame offset in every thread */
    uint64_t off = s->offset > 0 ? (uint64_t)s->offset : 0;
    for (int l = 0; l < 32; l++) e->addr[l] = (mask >> l & 1) ? off : 0;
}

void ws_sass_stage_watch(void *ctx, const ws_watch_hit *h)
{
    ws_sass_stage *st = ctx;
    const ws_sass_plan *p = st->plan;
    if (h->pc >= (uint32_t)p->fn->ninsns || !h->active) return;
    if (st->spill_n[h->pc]) ws_sass_stage_flush(st); /* a held wmma comes before the spills */
    int first = st->spill_first[h->pc], n = st->spill_n[h->pc];
    for (int k = 0; k < n; k++) {
        const ws_sass_extra *x = &p->spills[st->spill_order[first + k]];
        const ws_sass_insn *s = &p->sf->insns[x->sass];
        ws_mem_event e;
        spill_event(st, s, x->sass, h->active, h, &e);
        st->emitted[x->sass]++;
        st->st.spill_events++;
        emit(st, &e);
    }
}

/* ---- session -------------------------------------------------------------------- */

ws_sass_session *ws_sass_session_open(const char *ptx, const ptx_function *fn, const char *arch,
                                      const char *listing_text)
{
    ws_sass_session *ss = calloc(1, sizeof *ss);
    if (!ss) return NULL;
    if (!arch || !*arch) arch = "sm_90";
    char *owned = NULL;
    const char *how = "a recorded nvdisasm listing";
    char howbuf[64];
    ws_error err;
    if (!listing_text) {
        if (ws_sass_disabled()) {
            snprintf(ss->level, sizeof ss->level, "PTX-level: the SASS path is off (WARPSCOPE_SASS=off)");
            return ss;
        }
        if (!ptx) {
            snprintf(ss->level, sizeof ss->level, "PTX-level: no PTX text to give ptxas");
            return ss;
        }
        owned = ws_sass_compile(ptx, arch, fn ? fn->name : NULL, &err);
        if (!owned) {
            snprintf(ss->level, sizeof ss->level, "PTX-level: %.300s; counters are the PTX's, not the machine code's", err.msg);
            return ss;
        }
        listing_text = owned;
        snprintf(howbuf, sizeof howbuf, "ptxas -arch=%s + nvdisasm", arch);
        how = howbuf;
    }
    ss->listing = ws_sass_parse("nvdisasm", listing_text, &err);
    free(owned);
    if (!ss->listing) {
        snprintf(ss->level, sizeof ss->level, "PTX-level: the SASS listing could not be read (%.300s)", err.msg);
        return ss;
    }
    ss->sf = ws_sass_find(ss->listing, fn->name);
    if (!ss->sf) {
        char shown[256];
        snprintf(ss->level, sizeof ss->level, "PTX-level: no function %.200s in the SASS listing",
                 ws_demangle(fn->name, shown, sizeof shown));
        return ss;
    }
    if (!ss->sf->has_lines) {
        snprintf(ss->level, sizeof ss->level, "PTX-level: the SASS listing has no source lines (needs nvdisasm -gi)");
        return ss;
    }
    ss->plan = ws_sass_map(fn, ss->sf);
    if (!ss->plan) {
        ws_sass_session_free(ss);
        return NULL;
    }
    char sum[300];
    ws_sass_plan_summary(ss->plan, sum, sizeof sum);
    snprintf(ss->level, sizeof ss->level, "SASS (%.60s): %.300s", how, sum);
    ss->active = true;
    return ss;
}

int ws_sass_session_attach(ws_sass_session *ss, ws_sim_config *cfg)
{
    if (!ss || !ss->active) return 0;
    ss->stage = ws_sass_stage_new(ss->plan, NULL, NULL);
    if (!ss->stage) return -1;
    ws_sass_stage_attach(ss->stage, cfg);
    return 0;
}

void ws_sass_session_finish(ws_sass_session *ss, const ws_sim_result *res)
{
    if (!ss || !ss->active || !ss->stage) return;
    ws_sass_stage_flush(ss->stage);           /* the last wmma execution, held until now */
    if (!res->pc_warp_count) return;
    for (int pc = 0; ss->plan->pc_lanes_per_exec && pc < ss->plan->fn->ninsns; pc++)   /* the waterfall loops' passes */
        ss->plan->pc_lanes_per_exec[pc] = ss->stage->bulk_execs[pc]
            ? (double)ss->stage->bulk_lanes[pc] / (double)ss->stage->bulk_execs[pc] : 0;
    ss->warp_insns = ws_sass_warp_insns(ss->plan, res->pc_warp_count);
    ws_sass_tensor_insns(ss->plan, res->pc_warp_count, ss->tensor_insns);
    ws_sass_pipe_insns(ss->plan, res->pc_warp_count, ss->pipe_insns);
    ws_sass_guessed(ss->plan, res->pc_warp_count, &ss->guess);
    const char *dump = getenv("WARPSCOPE_SASS_COUNTS"); /* per-instruction counts, for comparing with ncu's source page */
    if (dump && *dump) {
        FILE *f = fopen(dump, "a");
        if (!f) {
            fprintf(stderr, "warpscope: warning: WARPSCOPE_SASS_COUNTS=%s cannot be opened; no counts written\n", dump);
            return;
        }
        ws_sass_write_counts(f, ss->plan, res->pc_warp_count);
        fclose(f);
    }
}

void ws_sass_session_free(ws_sass_session *ss)
{
    if (!ss) return;
    ws_sass_stage_free(ss->stage);
    ws_sass_plan_free(ss->plan);
    ws_sass_free(ss->listing);
    free(ss);
}
