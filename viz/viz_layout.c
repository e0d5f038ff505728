/* viz_layout.c - where everything sits in a frame, as pure functions of the window
 * size and the step, shared by the renderer, the hit test (mouse hover) and the pixel
 * tests. Invariant: the rectangles returned here are the ones viz_render.c fills. */
#include "viz_render.h"

#include <string.h>

#define M 8        /* window margin */
#define G 8        /* gap between panels */
#define TITLE_H 40
#define STATUS_H 24
#define HEADER_H 30
#define MEM_TITLE_H 26
#define RAIL_H 16
#define FAN_H 30
#define ROWLABEL_W 46  /* bank grid: row offsets at the left */
#define BANKHEAD_H 14  /* bank grid: bank numbers on top */
#define BANKFOOT_H 24  /* bank grid: words-per-bank bars below */
#define LINE_LABEL_H 15
#define LEGEND_H 18     /* colour legend under the grid */
#define LINE_GAP_X 12
#define LINE_GAP_Y 8

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void viz_state_init(viz_state *s)
{
    memset(s, 0, sizeof *s);
    s->npanes = 1;
    s->speed = 4.0;
    s->phase = 1.0;
}

static void mem_inner(viz_pane_layout *p)
{
    SDL_Rect m = p->mem;
    p->rail = (SDL_Rect){m.x + 10 + ROWLABEL_W, m.y + MEM_TITLE_H, m.w - 20 - ROWLABEL_W, RAIL_H};
    int gy = p->rail.y + RAIL_H + FAN_H;
    p->grid = (SDL_Rect){m.x + 10, gy, m.w - 20, m.y + m.h - 8 - LEGEND_H - gy};
    if (p->grid.h < 0)
        p->grid.h = 0;
}

void viz_layout_compute(int w, int h, int npanes, viz_layout *L)
{
    memset(L, 0, sizeof *L);
    w = w < 480 ? 480 : w;
    h = h < 360 ? 360 : h;
    L->w = w;
    L->h = h;
    L->npanes = npanes == 2 ? 2 : 1;
    L->title = (SDL_Rect){0, 0, w, TITLE_H};
    L->status = (SDL_Rect){0, h - STATUS_H, w, STATUS_H};
    int y0 = TITLE_H + G, y1 = h - STATUS_H - G;
    int ch = y1 - y0;
    if (L->npanes == 1) {
        viz_pane_layout *p = &L->pane[0];
        int lw = clampi(w * 34 / 100, 260, 540);
        int src_h = (ch - G) * 62 / 100;
        p->all = (SDL_Rect){M, y0, w - 2 * M, ch};
        p->source = (SDL_Rect){M, y0, lw, src_h};
        p->ptx = (SDL_Rect){M, y0 + src_h + G, lw, ch - src_h - G};
        int rx = M + lw + G, rw = w - M - rx;
        int bh = clampi(ch * 26 / 100, 130, 210);
        p->header = (SDL_Rect){rx, y0, rw, HEADER_H};
        p->lanes = (SDL_Rect){rx, y0 + HEADER_H + G, rw, 80};
        int my = p->lanes.y + p->lanes.h + G;
        p->mem = (SDL_Rect){rx, my, rw, y1 - bh - G - my};
        int tw = rw * 60 / 100;
        p->totals = (SDL_Rect){rx, y1 - bh, tw, bh};
        p->throughput = (SDL_Rect){rx + tw + G, y1 - bh, rw - tw - G, bh};
    } else {
        int pw = (w - 2 * M - G) / 2;
        for (int i = 0; i < 2; i++) {
            viz_pane_layout *p = &L->pane[i];
            int x = M + i * (pw + G);
            int src_h = clampi(ch * 17 / 100, 80, 200);
            int bh = clampi(ch * 22 / 100, 120, 190);
            p->all = (SDL_Rect){x, y0, pw, ch};
            p->header = (SDL_Rect){x, y0, pw, HEADER_H};
            p->source = (SDL_Rect){x, y0 + HEADER_H + G, pw, src_h};
            p->ptx = (SDL_Rect){x, p->source.y + src_h, 0, 0};
            p->lanes = (SDL_Rect){x, p->source.y + src_h + G, pw, 68};
            int my = p->lanes.y + p->lanes.h + G;
            p->mem = (SDL_Rect){x, my, pw, y1 - bh - G - my};
            int tw = pw * 58 / 100;
            p->totals = (SDL_Rect){x, y1 - bh, tw, bh};
            p->throughput = (SDL_Rect){x + tw + G, y1 - bh, pw - tw - G, bh};
        }
    }
    for (int i = 0; i < L->npanes; i++)
        mem_inner(&L->pane[i]);
}

SDL_Rect viz_layout_lane_cell(const viz_pane_layout *p, int lane)
{
    const int pad = 6;
    int cw = (p->lanes.w - 2 * pad) / 16;
    int chh = (p->lanes.h - 2 * pad) / 2;
    int c = lane % 16, r = lane / 16;
    return (SDL_Rect){p->lanes.x + pad + c * cw + 1, p->lanes.y + pad + r * chh + 1, cw - 2, chh - 2};
}

SDL_Point viz_layout_rail_point(const viz_pane_layout *p, int lane)
{
    int cw = p->rail.w / VIZ_LANES;
    return (SDL_Point){p->rail.x + lane * cw + cw / 2, p->rail.y + p->rail.h};
}

SDL_Rect viz_layout_bank_cell(const viz_pane_layout *p, int nrows, int bank, int row_slot)
{
    int nr = nrows < 1 ? 1 : nrows;
    int x0 = p->grid.x + ROWLABEL_W;
    int cw = (p->grid.w - ROWLABEL_W) / VIZ_BANKS;
    int avail = p->grid.h - BANKHEAD_H - BANKFOOT_H;
    int ch = clampi(avail / nr, 1, 26);
    int gap = ch >= 8 ? 1 : 0;
    return (SDL_Rect){x0 + bank * cw + 1, p->grid.y + BANKHEAD_H + row_slot * ch + gap, cw - 2,
                      ch - 2 * gap > 1 ? ch - 2 * gap : 1};
}

/* Lines per row of the sector map for n lines. */
static int lines_per_row(int n)
{
    return n <= 4 ? (n < 1 ? 1 : n) : n <= 8 ? 4 : 8;
}

/* Row geometry of the sector map: label height, vertical gap and sector height. */
static void sector_rows(const viz_pane_layout *p, int nlines, int *C, int *lh, int *gy, int *sh)
{
    *C = lines_per_row(nlines);
    int rows = (nlines + *C - 1) / *C;
    rows = rows < 1 ? 1 : rows;
    int rowh = p->grid.h / rows;
    bool roomy = rowh >= LINE_LABEL_H + LINE_GAP_Y + 12; /* else drop the labels */
    *lh = roomy ? LINE_LABEL_H : 0;
    *gy = roomy ? LINE_GAP_Y : 2;
    *sh = clampi(rowh - *lh - *gy, 1, 90);
}

bool viz_layout_sector_labels(const viz_pane_layout *p, int nlines)
{
    int C, lh, gy, sh;
    sector_rows(p, nlines, &C, &lh, &gy, &sh);
    return lh > 0;
}

SDL_Rect viz_layout_sector_cell(const viz_pane_layout *p, int nlines, int line_slot, int sector)
{
    int C, lh, gy, sh;
    sector_rows(p, nlines, &C, &lh, &gy, &sh);
    int sw = (p->grid.w - (C - 1) * LINE_GAP_X) / (4 * C);
    sw = sw > 120 ? 120 : sw;
    int total = C * 4 * sw + (C - 1) * LINE_GAP_X;
    int xs = p->grid.x + (p->grid.w - total) / 2;
    int row = line_slot / C, col = line_slot % C;
    return (SDL_Rect){xs + col * (4 * sw + LINE_GAP_X) + sector * sw + 1,
                      p->grid.y + row * (lh + sh + gy) + lh, sw - 2, sh};
}

int viz_layout_source_first(const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (!ps->rec || ps->rec->nsrc == 0)
        return 1;
    int rows = (p->source.h - VIZ_SRC_TOP - 4) / VIZ_SRC_LINE_H;
    if (rows < 1)
        rows = 1;
    int cur = ps->step && ps->step->src_line > 0 ? ps->step->src_line : 1;
    int first = cur - rows / 3;
    if (first > ps->rec->nsrc - rows + 1)
        first = ps->rec->nsrc - rows + 1;
    return first < 1 ? 1 : first;
}

static bool inside(SDL_Rect r, int x, int y)
{
    return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

viz_hit viz_hit_test(const viz_layout *L, const viz_state *s, int x, int y)
{
    viz_hit h = {.kind = VIZ_HIT_NONE};
    for (int i = 0; i < L->npanes && i < s->npanes; i++) {
        const viz_pane_layout *p = &L->pane[i];
        const viz_pane_state *ps = &s->pane[i];
        h.pane = i;
        if (inside(p->source, x, y) && ps->rec && y >= p->source.y + VIZ_SRC_TOP) {
            int line = viz_layout_source_first(p, ps) + (y - p->source.y - VIZ_SRC_TOP) / VIZ_SRC_LINE_H;
            if (line <= ps->rec->nsrc) {
                h.kind = VIZ_HIT_SOURCE;
                h.src_line = line;
                return h;
            }
        }
        const viz_step *st = ps->step;
        if (!st)
            continue;
        for (int l = 0; l < VIZ_LANES; l++)
            if (inside(viz_layout_lane_cell(p, l), x, y)) {
                h.kind = VIZ_HIT_LANE;
                h.lane = l;
                return h;
            }
        if (!inside(p->grid, x, y))
            continue;
        if (st->space == WS_SPACE_SHARED) {
            for (int r = 0; r < st->nrows; r++)
                for (int b = 0; b < VIZ_BANKS; b++)
                    if (inside(viz_layout_bank_cell(p, st->nrows, b, r), x, y)) {
                        h.kind = VIZ_HIT_BANK;
                        h.bank = b;
                        h.row_slot = r;
                        return h;
                    }
        } else {
            for (int l = 0; l < st->nlines; l++)
                for (int k = 0; k < 4; k++)
                    if (inside(viz_layout_sector_cell(p, st->nlines, l, k), x, y)) {
                        h.kind = VIZ_HIT_SECTOR;
                        h.line_slot = l;
                        h.sector = k;
                        return h;
                    }
        }
    }
    h.kind = VIZ_HIT_NONE;
    return h;
}
