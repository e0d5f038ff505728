/* viz_nav.c - moving through a recording: each pane's step sequence for the scope (one
 * warp, one block, every recorded block), one shared ordinal so two variants play in
 * lockstep, the timeline of the block, playback across warps, warp/block cycling and
 * jumps to a source line or a timeline position.
 * Invariant: after any call, ordinal < viz_nav_length() (or 0 when both sequences are
 * empty), and idx[i] / tl[i] list count[i] / tl_count[i] ascending valid step indices. */
#include "viz_app.h"

#include <stdlib.h>
#include <string.h>

/* Fills *out with the steps of (sc, block, warp); returns its length or (size_t)-1. */
static size_t fill_seq(const viz_recording *r, viz_scope sc, uint32_t block, uint32_t warp, size_t **out)
{
    size_t cnt = viz_recording_scope(r, sc, block, warp, NULL, 0);
    size_t *v = malloc((cnt ? cnt : 1) * sizeof *v);
    if (!v)
        return (size_t)-1;
    viz_recording_scope(r, sc, block, warp, v, cnt);
    free(*out);
    *out = v;
    return cnt;
}

static int refilter(viz_nav *n)
{
    for (int i = 0; i < n->npanes; i++) {
        const viz_recording *r = n->rec[i];
        size_t c = fill_seq(r, n->scope, n->block_linear, n->warp, &n->idx[i]);
        size_t t = fill_seq(r, n->scope == VIZ_SCOPE_KERNEL ? VIZ_SCOPE_KERNEL : VIZ_SCOPE_BLOCK, n->block_linear,
                            n->warp, &n->tl[i]);
        if (c == (size_t)-1 || t == (size_t)-1)
            return -1;
        n->count[i] = c;
        n->tl_count[i] = t;
    }
    size_t len = viz_nav_length(n);
    if (n->ordinal >= len)
        n->ordinal = len ? len - 1 : 0;
    return 0;
}

int viz_nav_refresh(viz_nav *n)
{
    return refilter(n);
}

int viz_nav_init(viz_nav *n, const viz_recording *const *recs, int npanes, uint32_t block_linear, uint32_t warp,
                 viz_scope scope)
{
    memset(n, 0, sizeof *n);
    n->npanes = npanes == 2 ? 2 : 1;
    for (int i = 0; i < n->npanes; i++)
        n->rec[i] = recs[i];
    n->block_linear = block_linear;
    n->warp = warp;
    n->scope = (unsigned)scope < VIZ_SCOPE_COUNT ? scope : VIZ_SCOPE_BLOCK;
    return refilter(n);
}

void viz_nav_free(viz_nav *n)
{
    for (int i = 0; i < 2; i++) {
        free(n->idx[i]);
        free(n->tl[i]);
    }
    memset(n, 0, sizeof *n);
}

int viz_nav_select(viz_nav *n, uint32_t block_linear, uint32_t warp, viz_scope scope)
{
    n->block_linear = block_linear;
    n->warp = warp;
    n->scope = (unsigned)scope < VIZ_SCOPE_COUNT ? scope : VIZ_SCOPE_BLOCK;
    return refilter(n);
}

/* Position of step index si in the ascending sequence v[0..cnt), or cnt when absent. */
static size_t position_of(const size_t *v, size_t cnt, size_t si)
{
    size_t lo = 0, hi = cnt;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < si)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cnt && v[lo] == si ? lo : cnt;
}

/* Selects step index si of pane 0's recording: its block and warp, and its ordinal. */
static bool show_step(viz_nav *n, size_t si, viz_scope scope)
{
    const viz_step *s = &n->rec[0]->steps[si];
    if (viz_nav_select(n, s->block_linear, s->warp, scope))
        return false;
    size_t pos = position_of(n->idx[0], n->count[0], si);
    if (pos == n->count[0])
        return false;
    n->ordinal = pos;
    return true;
}

int viz_nav_set_scope(viz_nav *n, viz_scope scope)
{
    const viz_step *cur = viz_nav_current(n, 0);
    if (!cur)
        return viz_nav_select(n, n->block_linear, n->warp, scope);
    return show_step(n, (size_t)(cur - n->rec[0]->steps), scope) ? 0 : -1;
}

size_t viz_nav_length(const viz_nav *n)
{
    size_t len = 0;
    for (int i = 0; i < n->npanes; i++)
        if (n->count[i] > len)
            len = n->count[i];
    return len;
}

bool viz_nav_step(viz_nav *n, long delta)
{
    size_t len = viz_nav_length(n), old = n->ordinal;
    if (!len)
        return false;
    if (delta < 0 && (size_t)-delta > n->ordinal)
        n->ordinal = 0;
    else if (delta > 0 && n->ordinal + (size_t)delta >= len)
        n->ordinal = len - 1;
    else
        n->ordinal = (size_t)((long)n->ordinal + delta);
    return n->ordinal != old;
}

bool viz_nav_advance(viz_nav *n)
{
    if (viz_nav_step(n, 1))
        return true;
    if (n->scope != VIZ_SCOPE_WARP)
        return false;
    /* the end of a warp: the first step after the warp's last one in issue order that
     * belongs to a later warp of this block, else to the next recorded block */
    const viz_recording *r = n->rec[0];
    uint32_t wpb = r->warps_per_block ? r->warps_per_block : 1;
    uint32_t nb = r->num_blocks ? r->num_blocks : 1;
    uint32_t b = n->block_linear, w = n->warp;
    for (;;) {
        if (++w >= wpb) {
            w = 0;
            if (++b >= r->first_block + nb)
                return false;
        }
        if (viz_recording_scope(r, VIZ_SCOPE_WARP, b, w, NULL, 0)) {
            viz_nav_select(n, b, w, VIZ_SCOPE_WARP);
            n->ordinal = 0;
            return true;
        }
    }
}

int viz_nav_cycle_warp(viz_nav *n, int dir)
{
    uint32_t wpb = n->rec[0]->warps_per_block ? n->rec[0]->warps_per_block : 1;
    uint32_t w = (n->warp + wpb + (uint32_t)(dir < 0 ? -1 : 1)) % wpb;
    return viz_nav_select(n, n->block_linear, w, VIZ_SCOPE_WARP);
}

int viz_nav_cycle_block(viz_nav *n, int dir)
{
    const viz_recording *r = n->rec[0];
    uint32_t nb = r->num_blocks ? r->num_blocks : 1;
    uint32_t rel = n->block_linear >= r->first_block ? n->block_linear - r->first_block : 0;
    rel = (rel + nb + (uint32_t)(dir < 0 ? -1 : 1)) % nb;
    return viz_nav_select(n, r->first_block + rel, n->warp,
                          n->scope == VIZ_SCOPE_KERNEL ? VIZ_SCOPE_BLOCK : n->scope);
}

bool viz_nav_jump_line(viz_nav *n, int line)
{
    size_t cnt = n->count[0];
    if (!cnt)
        return false;
    const viz_recording *r = n->rec[0];
    /* the smallest line >= `line` that has a step in this sequence */
    int best = 0;
    for (size_t k = 0; k < cnt; k++) {
        int l = r->steps[n->idx[0][k]].src_line;
        if (l >= line && (!best || l < best))
            best = l;
    }
    if (!best)
        return false;
    size_t cur = n->ordinal < cnt ? n->ordinal : cnt - 1;
    for (size_t d = 1; d <= cnt; d++) {
        size_t k = (cur + d) % cnt;
        if (r->steps[n->idx[0][k]].src_line == best) {
            n->ordinal = k;
            return true;
        }
    }
    return false;
}

bool viz_nav_jump_timeline(viz_nav *n, int pane, size_t pos)
{
    if (pane < 0 || pane >= n->npanes || pos >= n->tl_count[pane])
        return false;
    size_t si = n->tl[pane][pos];
    if (pane == 0)
        return show_step(n, si, n->scope);
    /* the right pane of --compare: its own ordinal is the shared one */
    size_t at = position_of(n->idx[1], n->count[1], si);
    if (at == n->count[1]) {
        const viz_step *s = &n->rec[1]->steps[si];
        if (viz_nav_select(n, s->block_linear, s->warp, n->scope))
            return false;
        at = position_of(n->idx[1], n->count[1], si);
        if (at == n->count[1])
            return false;
    }
    n->ordinal = at;
    return true;
}

const viz_step *viz_nav_current(const viz_nav *n, int i)
{
    if (i < 0 || i >= n->npanes || !n->count[i])
        return NULL;
    size_t o = n->ordinal < n->count[i] ? n->ordinal : n->count[i] - 1;
    return &n->rec[i]->steps[n->idx[i][o]];
}

void viz_nav_apply(const viz_nav *n, viz_state *s)
{
    s->npanes = n->npanes;
    for (int i = 0; i < n->npanes; i++) {
        viz_pane_state *p = &s->pane[i];
        p->rec = n->rec[i];
        p->count = n->count[i];
        p->scope = n->scope;
        p->block_linear = n->block_linear;
        p->warp = n->warp;
        p->tl = n->tl[i];
        p->tl_count = n->tl_count[i];
        p->step = viz_nav_current(n, i);
        p->ordinal = !n->count[i] ? 0 : n->ordinal < n->count[i] ? n->ordinal : n->count[i] - 1;
        p->tl_pos = p->step ? position_of(n->tl[i], n->tl_count[i], (size_t)(p->step - n->rec[i]->steps))
                            : n->tl_count[i];
    }
}
