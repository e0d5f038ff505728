/* report_pictures.c - keeps the first verdict of each (source line, space, op) for the pictures
 * of --html (report_pictures.h). A row with a picture is looked up linearly: a kernel has tens
 * of memory lines, not thousands, and each event is one scan of them. */
#include "report_pictures.h"

#include <stdlib.h>
#include <string.h>

const ws_line_pic *ws_line_pics_find(const ws_line_pics *p, int line, ws_space space, ws_mem_op op)
{
    for (int i = 0; p && i < p->n; i++)
        if (p->pic[i].line == line && p->pic[i].space == space && p->pic[i].op == op)
            return &p->pic[i];
    return NULL;
}

void ws_line_pics_verdict(void *ctx, const ws_mem_verdict *v)
{
    ws_line_pics *p = ctx;
    const ws_mem_event *ev = v->ev;
    if (!ev->active_mask || (!v->co && !v->bk))   /* nothing to draw: no lane, or no sector or bank verdict */
        return;
    int line = ev->src_line > 0 ? ev->src_line : 0;
    if (ws_line_pics_find(p, line, ev->space, ev->op))
        return;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        ws_line_pic *np = realloc(p->pic, (size_t)cap * sizeof *np);
        if (!np) {
            p->oom = true;
            return;
        }
        p->pic = np;
        p->cap = cap;
    }
    ws_line_pic *x = &p->pic[p->n++];
    memset(x, 0, sizeof *x);
    x->line = line;
    x->space = ev->space;
    x->op = ev->op;
    x->kind = ev->kind;
    memcpy(x->block, ev->block, sizeof x->block);
    x->warp = ev->warp;
    x->width = ev->width;
    x->active_mask = ev->active_mask;
    memcpy(x->addr, ev->addr, sizeof x->addr);
    if ((x->has_co = v->co != NULL))
        x->co = *v->co;
    if ((x->has_bk = v->bk != NULL))
        x->bk = *v->bk;
}

void ws_line_pics_free(ws_line_pics *p)
{
    free(p->pic);
    memset(p, 0, sizeof *p);
}
