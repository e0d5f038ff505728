/* sass_events.c - the PTX-to-SASS event stage (see sass_events.h).
 * The hot path (one call per PTX event) is a table lookup by pc and one forwarded copy;
 * the stage allocates nothing after ws_sass_stage_new. */
#include "sass_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/demangle.h"

struct ws_sass_stage {
    const ws_sass_plan *plan;
    ws_mem_listener down;
    void *down_ctx;
    uint64_t seq;
    uint64_t *emitted;         /* per SASS instruction: events emitted for it */
    int *spill_first, *spill_n;/* per PTX pc: its spills in plan->spills order (sorted by anchor) */
    int *spill_order;
    ws_sass_stage_stats st;
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
    if (!st->emitted || !st->spill_first || !st->spill_n || !st->spill_order) {
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

void ws_sass_stage_listener(void *ctx, const ws_mem_event *ev)
{
    ws_sass_stage *st = ctx;
    const ws_sass_plan *p = st->plan;
    st->st.in++;
    /* a tensor-era event (cp.async, ldmatrix, wmma, bulk/TMA) is counted apart from the plain
     * rows (memstats.h) and the plan matches only plain ld/st/atom: it passes unchanged */
    if (ev->pc >= (uint32_t)p->fn->ninsns || ev->kind != WS_KIND_PLAIN) { /* not the plan's: pass on */
        ws_mem_event e = *ev;
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
    if (!ss || !ss->active || !ss->stage || !res->pc_warp_count) return;
    ss->warp_insns = ws_sass_warp_insns(ss->plan, res->pc_warp_count);
}

void ws_sass_session_free(ws_sass_session *ss)
{
    if (!ss) return;
    ws_sass_stage_free(ss->stage);
    ws_sass_plan_free(ss->plan);
    ws_sass_free(ss->listing);
    free(ss);
}
