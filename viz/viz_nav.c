/* viz_nav.c - moving through a recording: the selected warp's step sequence per pane,
 * one shared ordinal so two variants play in lockstep, warp/block cycling and jumps
 * to a source line. Invariant: after any call, ordinal < viz_nav_length() (or 0 when
 * both sequences are empty), and idx[i] lists count[i] valid step indices. */
#include "viz_app.h"

#include <stdlib.h>
#include <string.h>

static int refilter(viz_nav *n)
{
    for (int i = 0; i < n->npanes; i++) {
        const viz_recording *r = n->rec[i];
        size_t cnt = viz_recording_filter(r, n->block_linear, n->all_warps ? -1 : (int)n->warp, NULL, 0);
        size_t *v = malloc((cnt ? cnt : 1) * sizeof *v);
        if (!v)
            return -1;
        viz_recording_filter(r, n->block_linear, n->all_warps ? -1 : (int)n->warp, v, cnt);
        free(n->idx[i]);
        n->idx[i] = v;
        n->count[i] = cnt;
    }
    size_t len = viz_nav_length(n);
    if (n->ordinal >= len)
        n->ordinal = len ? len - 1 : 0;
    return 0;
}

int viz_nav_init(viz_nav *n, const viz_recording *const *recs, int npanes, uint32_t block_linear, uint32_t warp)
{
    memset(n, 0, sizeof *n);
    n->npanes = npanes == 2 ? 2 : 1;
    for (int i = 0; i < n->npanes; i++)
        n->rec[i] = recs[i];
    n->block_linear = block_linear;
    n->warp = warp;
    return refilter(n);
}

void viz_nav_free(viz_nav *n)
{
    for (int i = 0; i < 2; i++)
        free(n->idx[i]);
    memset(n, 0, sizeof *n);
}

int viz_nav_select(viz_nav *n, uint32_t block_linear, uint32_t warp, bool all_warps)
{
    n->block_linear = block_linear;
    n->warp = warp;
    n->all_warps = all_warps;
    return refilter(n);
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

int viz_nav_cycle_warp(viz_nav *n, int dir)
{
    uint32_t wpb = n->rec[0]->warps_per_block ? n->rec[0]->warps_per_block : 1;
    uint32_t w = (n->warp + wpb + (uint32_t)(dir < 0 ? -1 : 1)) % wpb;
    return viz_nav_select(n, n->block_linear, w, false);
}

int viz_nav_cycle_block(viz_nav *n, int dir)
{
    const viz_recording *r = n->rec[0];
    uint32_t nb = r->num_blocks ? r->num_blocks : 1;
    uint32_t rel = n->block_linear >= r->first_block ? n->block_linear - r->first_block : 0;
    rel = (rel + nb + (uint32_t)(dir < 0 ? -1 : 1)) % nb;
    return viz_nav_select(n, r->first_block + rel, n->warp, n->all_warps);
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
    for (size_t d = 1; d <= cnt; d++) {
        size_t k = (n->ordinal + d) % cnt;
        if (r->steps[n->idx[0][k]].src_line == best) {
            n->ordinal = k;
            return true;
        }
    }
    return false;
}

void viz_nav_apply(const viz_nav *n, viz_state *s)
{
    s->npanes = n->npanes;
    for (int i = 0; i < n->npanes; i++) {
        viz_pane_state *p = &s->pane[i];
        p->rec = n->rec[i];
        p->count = n->count[i];
        p->all_warps = n->all_warps;
        p->block_linear = n->block_linear;
        p->warp = n->warp;
        if (!n->count[i]) {
            p->step = NULL;
            p->ordinal = 0;
            continue;
        }
        p->ordinal = n->ordinal < n->count[i] ? n->ordinal : n->count[i] - 1;
        p->step = &n->rec[i]->steps[n->idx[i][p->ordinal]];
    }
}
