/* sass_events.c - the PTX-to-SASS event stage (see sass_events.h).
 * The hot path (one call per PTX event) is a table lookup by pc and one forwarded copy;
 * the stage allocates nothing after ws_sass_stage_new. */
#include "sass_events.h"

#include <stdlib.h>
#include <string.h>

struct ws_sass_stage {
    const ws_sass_plan *plan;
    ws_mem_listener down;
    void *down_ctx;
    uint64_t nblocks;
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

ws_sass_stage *ws_sass_stage_new(const ws_sass_plan *plan, ws_mem_listener down, void *down_ctx, uint64_t nblocks)
{
    ws_sass_stage *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    int n = plan->fn->ninsns, ns = plan->sf->ninsns;
    st->plan = plan;
    st->down = down;
    st->down_ctx = down_ctx;
    st->nblocks = nblocks ? nblocks : 1;
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
    if (ev->pc >= (uint32_t)p->fn->ninsns) { /* not the function's: pass on */
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

void ws_sass_stage_flush(ws_sass_stage *st, const uint64_t *pc_warp_count)
{
    const ws_sass_plan *p = st->plan;
    uint64_t next_block = 0;
    for (int k = 0; k < p->npreds; k++) {
        const ws_sass_extra *x = &p->preds[k];
        if (x->anchor_pc < 0 || x->carrier_pc < 0) continue;
        uint64_t runs = pc_warp_count[x->anchor_pc], seen = st->emitted[x->sass];
        const ws_sass_insn *s = &p->sf->insns[x->sass];
        const ptx_insn *pi = &p->fn->insns[x->carrier_pc];
        for (; seen < runs; seen++) {
            ws_mem_event e;
            memset(&e, 0, sizeof e);
            e.block_linear = (uint32_t)(next_block++ % st->nblocks);
            e.pc = (uint32_t)x->carrier_pc;
            e.src_line = pi->src_line;
            e.ptx_line = pi->ptx_line;
            e.space = s->space == WS_SASS_SP_SHARED ? WS_SPACE_SHARED
                    : s->space == WS_SASS_SP_LOCAL ? WS_SPACE_LOCAL : WS_SPACE_GLOBAL;
            e.op = s->op == WS_SASS_OP_ST ? WS_MEM_STORE : s->op == WS_SASS_OP_ATOM ? WS_MEM_ATOMIC
                 : s->op == WS_SASS_OP_RED ? WS_MEM_REDUCE : WS_MEM_LOAD;
            e.width = s->width;
            e.elem_size = s->width >= 4 ? 4 : s->width;
            e.vec = (uint8_t)(s->width >= 4 ? s->width / 4 : 1);
            e.active_mask = 0;
            st->emitted[x->sass]++;
            st->st.predicated_off++;
            emit(st, &e);
        }
    }
}
