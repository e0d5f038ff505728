/* viz_layout.c - where everything sits in a frame, as pure functions of the window
 * size, the fonts (their scale and measured sizes) and the step, shared by the renderer,
 * the hit test (mouse) and the pixel and geometry tests. Sizes are the fonts' heights
 * plus paddings scaled alike, so a frame holds together from 1024x768 to 3840x2160.
 * Invariant: the rectangles returned here are the ones viz_render.c fills, panels never
 * overlap and every one lies inside the window. */
#include "viz_render.h"

#include <math.h>
#include <string.h>

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

/* The widest one-line memory title and verdict badge, to choose one title row or two. */
static int mem_title_rows(const viz_fonts *f, const viz_metrics *m, int w)
{
    int need = viz_text_width(f->sans, "global store \xC2\xB7 16 B/lane \xC2\xB7 31 of 32 lanes active (96.9%)") +
               viz_text_width(f->sans, "32 wavefronts \xC2\xB7 ideal 1 \xC2\xB7 32-way bank conflict") + 6 * m->pad;
    return need <= w ? 1 : 2;
}

static void mem_inner(const viz_fonts *f, viz_metrics *m, viz_pane_layout *p)
{
    SDL_Rect r = p->mem;
    int rows = mem_title_rows(f, m, r.w);
    m->mem_title_h = rows * (viz_font_height(f->sans) + m->pad / 2) + m->pad;
    p->rail = (SDL_Rect){r.x + m->pad + m->rowlabel_w, r.y + m->mem_title_h + m->rail_h / 2,
                         r.w - 2 * m->pad - m->rowlabel_w, m->rail_h};
    int gy = p->rail.y + m->rail_h + m->fan_h;
    p->grid = (SDL_Rect){r.x + m->pad, gy, r.w - 2 * m->pad, r.y + r.h - m->pad / 2 - m->legend_h - gy};
    if (p->grid.h < 0)
        p->grid.h = 0;
}

static void timeline_inner(const viz_metrics *m, viz_pane_layout *p)
{
    SDL_Rect t = p->timeline;
    int lab = m->char_w * 4 + m->pad;
    p->tl_plot = (SDL_Rect){t.x + m->pad + lab, t.y + m->cap_h, t.w - 2 * m->pad - lab, t.h - m->cap_h - m->pad};
    if (p->tl_plot.h < 1)
        p->tl_plot.h = 1;
}

static void metrics(const viz_fonts *f, viz_metrics *m)
{
    double k = f->scale > 0 ? f->scale : 1.0;
#define S(x) ((int)lround((x) * k))
    memset(m, 0, sizeof *m);
    m->scale = k;
    m->pad = S(8);
    m->gap = S(8);
    m->line_h = viz_font_height(f->mono) + S(2);
    m->char_w = viz_font_advance(f->mono, 'M');
    m->small_h = viz_font_height(f->sans_small) + S(3);
    m->cap_h = viz_font_height(f->sans_small) + S(12);
    m->rail_h = viz_font_height(f->mono_small) + S(3);
    m->fan_h = S(20);
    m->rowlabel_w = viz_font_advance(f->mono_small, '0') * 5 + S(12);
    m->bankhead_h = viz_font_height(f->mono_small) + S(2);
    m->bankfoot_h = viz_font_height(f->mono_small) + S(10);
    m->legend_h = viz_font_height(f->sans_small) + S(6);
    m->line_label_h = viz_font_height(f->mono_small) + S(3);
    m->src_gutter = S(12) + viz_font_advance(f->mono, '0') * 4 + S(10);
#undef S
}

void viz_layout_compute(int w, int h, int npanes, const viz_fonts *f, viz_layout *L)
{
    memset(L, 0, sizeof *L);
    w = w < 480 ? 480 : w;
    h = h < 360 ? 360 : h;
    L->w = w;
    L->h = h;
    L->npanes = npanes == 2 ? 2 : 1;
    viz_metrics *m = &L->m;
    metrics(f, m);
    const int M = m->pad, G = m->gap;
    int title_h = viz_font_height(f->sans_big) + 2 * M + m->pad / 2;
    int status_h = viz_font_height(f->sans_small) + M + 2;
    int header_h = viz_font_height(f->sans) + M + M / 2 + 2;
    int lane_cell = 2 * viz_font_height(f->mono_small) + M / 2 + 4;
    int lanes_h = 2 * lane_cell + 2 * (M * 3 / 4) + 2;
    L->title = (SDL_Rect){0, 0, w, title_h};
    L->status = (SDL_Rect){0, h - status_h, w, status_h};
    int y0 = title_h + G, y1 = h - status_h - G;
    int ch = y1 - y0;
    int bmin = m->cap_h + 6 * m->small_h + M;
    if (L->npanes == 1) {
        viz_pane_layout *p = &L->pane[0];
        int lw = clampi(w * 32 / 100, 36 * m->char_w, 110 * m->char_w);
        int src_h = (ch - 2 * G) * 52 / 100, heat_h = (ch - 2 * G) * 22 / 100;
        p->all = (SDL_Rect){M, y0, w - 2 * M, ch};
        p->source = (SDL_Rect){M, y0, lw, src_h};
        p->heat = (SDL_Rect){M, y0 + src_h + G, lw, heat_h};
        p->ptx = (SDL_Rect){M, p->heat.y + heat_h + G, lw, y1 - (p->heat.y + heat_h + G)};
        int rx = M + lw + G, rw = w - M - rx;
        int bh = clampi(ch * 25 / 100, bmin, bmin + 4 * m->small_h);
        int th = clampi(ch * 15 / 100, m->cap_h + 5 * M, m->cap_h + 18 * M);
        p->header = (SDL_Rect){rx, y0, rw, header_h};
        p->lanes = (SDL_Rect){rx, y0 + header_h + G, rw, lanes_h};
        int my = p->lanes.y + p->lanes.h + G;
        p->timeline = (SDL_Rect){rx, y1 - bh - G - th, rw, th};
        p->mem = (SDL_Rect){rx, my, rw, p->timeline.y - G - my};
        int tw = rw * 54 / 100;
        p->totals = (SDL_Rect){rx, y1 - bh, tw, bh};
        p->throughput = (SDL_Rect){rx + tw + G, y1 - bh, rw - tw - G, bh};
    } else {
        int pw = (w - 2 * M - G) / 2;
        for (int i = 0; i < 2; i++) {
            viz_pane_layout *p = &L->pane[i];
            int x = M + i * (pw + G);
            int src_h = clampi(ch * 14 / 100, 4 * m->line_h + m->cap_h, 16 * m->line_h + m->cap_h);
            int bh = clampi(ch * 20 / 100, bmin, bmin + 3 * m->small_h);
            int th = clampi(ch * 9 / 100, m->cap_h + 4 * M, m->cap_h + 14 * M);
            p->all = (SDL_Rect){x, y0, pw, ch};
            p->header = (SDL_Rect){x, y0, pw, header_h};
            p->source = (SDL_Rect){x, y0 + header_h + G, pw, src_h};
            p->lanes = (SDL_Rect){x, p->source.y + src_h + G, pw, lanes_h};
            int my = p->lanes.y + p->lanes.h + G;
            p->timeline = (SDL_Rect){x, y1 - bh - G - th, pw, th};
            p->mem = (SDL_Rect){x, my, pw, p->timeline.y - G - my};
            int tw = pw * 54 / 100;
            p->totals = (SDL_Rect){x, y1 - bh, tw, bh};
            p->throughput = (SDL_Rect){x + tw + G, y1 - bh, pw - tw - G, bh};
        }
    }
    for (int i = 0; i < L->npanes; i++) {
        mem_inner(f, m, &L->pane[i]);
        timeline_inner(m, &L->pane[i]);
    }
}

SDL_Rect viz_layout_lane_cell(const viz_pane_layout *p, const viz_metrics *m, int lane)
{
    const int pad = m->pad * 3 / 4;
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

SDL_Rect viz_layout_bank_cell(const viz_pane_layout *p, const viz_metrics *m, int nrows, int bank, int row_slot)
{
    int nr = nrows < 1 ? 1 : nrows;
    int x0 = p->grid.x + m->rowlabel_w;
    int cw = (p->grid.w - m->rowlabel_w) / VIZ_BANKS;
    int avail = p->grid.h - m->bankhead_h - m->bankfoot_h;
    int ch = clampi(avail / nr, 1, (int)lround(26 * m->scale));
    int gap = ch >= 8 ? 1 : 0;
    return (SDL_Rect){x0 + bank * cw + 1, p->grid.y + m->bankhead_h + row_slot * ch + gap, cw - 2,
                      ch - 2 * gap > 1 ? ch - 2 * gap : 1};
}

/* Lines per row of the sector map for n lines. */
static int lines_per_row(int n)
{
    return n <= 4 ? (n < 1 ? 1 : n) : n <= 8 ? 4 : 8;
}

/* Row geometry of the sector map: label height, vertical gap and sector height. */
static void sector_rows(const viz_pane_layout *p, const viz_metrics *m, int nlines, int *C, int *lh, int *gy,
                        int *sh)
{
    *C = lines_per_row(nlines);
    int rows = (nlines + *C - 1) / *C;
    rows = rows < 1 ? 1 : rows;
    int rowh = p->grid.h / rows;
    bool roomy = rowh >= m->line_label_h + m->pad + m->line_label_h; /* else drop the labels */
    *lh = roomy ? m->line_label_h : 0;
    *gy = roomy ? m->pad : 2;
    *sh = clampi(rowh - *lh - *gy, 1, (int)lround(90 * m->scale));
}

bool viz_layout_sector_labels(const viz_pane_layout *p, const viz_metrics *m, int nlines)
{
    int C, lh, gy, sh;
    sector_rows(p, m, nlines, &C, &lh, &gy, &sh);
    return lh > 0;
}

SDL_Rect viz_layout_sector_cell(const viz_pane_layout *p, const viz_metrics *m, int nlines, int line_slot,
                                int sector)
{
    int C, lh, gy, sh;
    sector_rows(p, m, nlines, &C, &lh, &gy, &sh);
    int gx = (int)lround(12 * m->scale);
    int sw = (p->grid.w - (C - 1) * gx) / (4 * C);
    int smax = (int)lround(120 * m->scale);
    sw = sw > smax ? smax : sw;
    int total = C * 4 * sw + (C - 1) * gx;
    int xs = p->grid.x + (p->grid.w - total) / 2;
    int row = line_slot / C, col = line_slot % C;
    return (SDL_Rect){xs + col * (4 * sw + gx) + sector * sw + 1, p->grid.y + row * (lh + sh + gy) + lh, sw - 2,
                      sh};
}

/* ---- source rows: wrapping, scrolling ------------------------------------------------ */

static int cp_len(unsigned char c)
{
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
}

static bool break_after(char c)
{
    return c == ' ' || c == ',' || c == ';' || c == '(' || c == '[' || c == '+' || c == '-' || c == '*' ||
           c == '/' || c == '=' || c == '&' || c == '|' || c == '<' || c == '>' || c == '?' || c == ':';
}

int viz_wrap_len(const char *s, int cols)
{
    cols = cols < 4 ? 4 : cols;
    int n = 0, brk = 0;
    size_t i = 0;
    while (s[i] && n < cols) {
        int l = cp_len((unsigned char)s[i]);
        for (int k = 1; k < l; k++)
            if (!s[i + (size_t)k]) { l = k; break; }
        i += (size_t)l;
        n++;
        if (break_after(s[i - 1]) && n * 10 >= cols * 6)
            brk = (int)i;
    }
    if (!s[i])
        return (int)i;
    return brk ? brk : (int)i;
}

int viz_wrap_rows(const char *s, int cols)
{
    int rows = 1;
    size_t k = (size_t)viz_wrap_len(s, cols);
    while (s[k]) {
        k += (size_t)viz_wrap_len(s + k, cols - 2);
        rows++;
    }
    return rows;
}

int viz_layout_source_cols(const viz_layout *L, const viz_pane_layout *p)
{
    int cols = (p->source.w - L->m.src_gutter - L->m.pad) / (L->m.char_w > 0 ? L->m.char_w : 1);
    return cols < 8 ? 8 : cols;
}

static int source_rows_avail(const viz_layout *L, const viz_pane_layout *p)
{
    int rows = (p->source.h - L->m.cap_h - L->m.pad / 2) / L->m.line_h;
    return rows < 1 ? 1 : rows;
}

int viz_layout_source_first(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_recording *r = ps->rec;
    if (!r || r->nsrc == 0)
        return 1;
    int rows = source_rows_avail(L, p), cols = viz_layout_source_cols(L, p);
    int cur = ps->step && ps->step->src_line > 0 && ps->step->src_line <= r->nsrc ? ps->step->src_line : 1;
    int first = cur, above = 0;
    while (first > 1) {
        int n = viz_wrap_rows(r->src_lines[first - 2], cols);
        if (above + n > rows / 3)
            break;
        above += n;
        first--;
    }
    /* no empty rows at the bottom while earlier lines could fill them */
    int used = 0;
    for (int l = first; l <= r->nsrc && used < rows; l++)
        used += viz_wrap_rows(r->src_lines[l - 1], cols);
    while (first > 1 && used < rows) {
        int n = viz_wrap_rows(r->src_lines[first - 2], cols);
        if (used + n > rows)
            break;
        used += n;
        first--;
    }
    return first;
}

int viz_layout_source_line_at(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps, int row)
{
    const viz_recording *r = ps->rec;
    if (!r || row < 0 || row >= source_rows_avail(L, p))
        return 0;
    int cols = viz_layout_source_cols(L, p), at = 0;
    for (int l = viz_layout_source_first(L, p, ps); l <= r->nsrc; l++) {
        at += viz_wrap_rows(r->src_lines[l - 1], cols);
        if (row < at)
            return l;
    }
    return 0;
}

/* ---- heat map rows -------------------------------------------------------------------- */

int viz_heat_lines(const viz_recording *r, int *lines, int cap)
{
    int n = 0;
    for (int l = 1; l < r->nheat; l++)
        if (r->heat[l].instructions) {
            if (n < cap)
                lines[n] = l;
            n++;
        }
    return n;
}

static int heat_rows_avail(const viz_layout *L, const viz_pane_layout *p)
{
    int rows = (p->heat.h - L->m.cap_h - L->m.pad / 2) / L->m.line_h;
    return rows < 0 ? 0 : rows;
}

const char *viz_heat_code(const viz_recording *r, int line)
{
    if (line < 1 || line > r->nsrc)
        return "";
    const char *c = r->src_lines[line - 1];
    while (*c == ' ')
        c++;
    return c;
}

int viz_layout_heat_cols(const viz_layout *L, const viz_pane_layout *p)
{
    int cols = (p->heat.w - 2 * L->m.pad - 5 * L->m.char_w) / (L->m.char_w > 0 ? L->m.char_w : 1);
    return cols < 8 ? 8 : cols;
}

/* Visual rows of one entry: its figures, then (roomy) its code wrapped under them. */
static int entry_rows(const viz_layout *L, const viz_pane_layout *p, const viz_recording *r, int line, bool roomy)
{
    const char *code = viz_heat_code(r, line);
    return roomy && *code ? 1 + viz_wrap_rows(code, viz_layout_heat_cols(L, p)) : 1;
}

bool viz_layout_heat_roomy(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (!ps->rec)
        return false;
    int need = 0;
    for (int l = 1; l < ps->rec->nheat; l++)
        if (ps->rec->heat[l].instructions)
            need += entry_rows(L, p, ps->rec, l, true);
    return need <= heat_rows_avail(L, p);
}

int viz_layout_heat_first(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (!ps->rec || viz_layout_heat_roomy(L, p, ps))
        return 0;
    int n = viz_heat_lines(ps->rec, NULL, 0), rows = heat_rows_avail(L, p);
    if (n <= rows)
        return 0;
    int cur = ps->step ? ps->step->src_line : 0, at = 0;
    for (int l = 1; l < cur && l < ps->rec->nheat; l++)
        at += ps->rec->heat[l].instructions != 0;
    int first = at - rows / 2;
    return clampi(first, 0, n - rows);
}

int viz_layout_heat_row_of(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps, int k)
{
    if (!ps->rec)
        return -1;
    bool roomy = viz_layout_heat_roomy(L, p, ps);
    int first = viz_layout_heat_first(L, p, ps), row = 0, avail = heat_rows_avail(L, p);
    for (int l = 1, e = 0; l < ps->rec->nheat; l++) {
        if (!ps->rec->heat[l].instructions)
            continue;
        if (e >= first) {
            if (row >= avail)
                return -1;
            if (e == k)
                return row;
            row += entry_rows(L, p, ps->rec, l, roomy);
        }
        e++;
    }
    return -1;
}

static int heat_line_at(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps, int row)
{
    bool roomy = viz_layout_heat_roomy(L, p, ps);
    int first = viz_layout_heat_first(L, p, ps), at = 0;
    if (row < 0 || row >= heat_rows_avail(L, p))
        return 0;
    for (int l = 1, e = 0; l < ps->rec->nheat; l++) {
        if (!ps->rec->heat[l].instructions)
            continue;
        if (e++ < first)
            continue;
        at += entry_rows(L, p, ps->rec, l, roomy);
        if (row < at)
            return l;
    }
    return 0;
}

SDL_Rect viz_layout_heat_bar(const viz_layout *L, const viz_pane_layout *p, int row, double t)
{
    const viz_metrics *m = &L->m;
    int x = p->heat.x + m->pad + m->char_w * 5, full = m->char_w * 10;
    int y = p->heat.y + m->cap_h + row * m->line_h + m->line_h / 5;
    int len = (int)lround(full * (t < 0 ? 0 : t > 1 ? 1 : t));
    return (SDL_Rect){x, y, len > 1 ? len : 1, m->line_h - 2 * (m->line_h / 5)};
}

/* ---- timeline ------------------------------------------------------------------------- */

int viz_timeline_rows(const viz_pane_state *ps)
{
    const viz_recording *r = ps->rec;
    if (!r)
        return 1;
    int wpb = r->warps_per_block ? (int)r->warps_per_block : 1;
    int nb = r->num_blocks ? (int)r->num_blocks : 1;
    return ps->scope == VIZ_SCOPE_KERNEL ? wpb * nb : wpb;
}

static int timeline_row(const viz_pane_state *ps, const viz_step *s)
{
    const viz_recording *r = ps->rec;
    int wpb = r->warps_per_block ? (int)r->warps_per_block : 1;
    if (ps->scope == VIZ_SCOPE_KERNEL)
        return (int)(s->block_linear - r->first_block) * wpb + (int)s->warp;
    return (int)s->warp;
}

SDL_Rect viz_layout_timeline_cell(const viz_pane_layout *p, const viz_pane_state *ps, size_t pos)
{
    SDL_Rect t = p->tl_plot;
    size_t n = ps->tl_count ? ps->tl_count : 1;
    int x0 = t.x + (int)((double)pos * t.w / (double)n), x1 = t.x + (int)((double)(pos + 1) * t.w / (double)n);
    int rows = viz_timeline_rows(ps);
    int row = pos < ps->tl_count ? timeline_row(ps, &ps->rec->steps[ps->tl[pos]]) : 0;
    row = clampi(row, 0, rows - 1);
    int y0 = t.y + (int)((double)row * t.h / rows), y1 = t.y + (int)((double)(row + 1) * t.h / rows);
    int h = y1 - y0 > 2 ? y1 - y0 : 2; /* thin rows still show: at most a pixel into the next */
    if (y0 + h > t.y + t.h)
        y0 = t.y + t.h - h;
    return (SDL_Rect){x0, y0, x1 - x0 > 1 ? x1 - x0 : 1, h};
}

/* ---- hit testing ---------------------------------------------------------------------- */

static bool inside(SDL_Rect r, int x, int y)
{
    return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

viz_hit viz_hit_test(const viz_layout *L, const viz_state *s, int x, int y)
{
    viz_hit h = {.kind = VIZ_HIT_NONE};
    const viz_metrics *m = &L->m;
    for (int i = 0; i < L->npanes && i < s->npanes; i++) {
        const viz_pane_layout *p = &L->pane[i];
        const viz_pane_state *ps = &s->pane[i];
        h.pane = i;
        if (inside(p->source, x, y) && ps->rec && y >= p->source.y + m->cap_h) {
            int line = viz_layout_source_line_at(L, p, ps, (y - p->source.y - m->cap_h) / m->line_h);
            if (line > 0) {
                h.kind = VIZ_HIT_SOURCE;
                h.src_line = line;
                return h;
            }
        }
        if (p->heat.w > 0 && inside(p->heat, x, y) && ps->rec && y >= p->heat.y + m->cap_h) {
            int line = heat_line_at(L, p, ps, (y - p->heat.y - m->cap_h) / m->line_h);
            if (line > 0) {
                h.kind = VIZ_HIT_HEAT;
                h.src_line = line;
                return h;
            }
        }
        if (inside(p->tl_plot, x, y) && ps->tl_count) {
            size_t pos = (size_t)((double)(x - p->tl_plot.x) * (double)ps->tl_count / p->tl_plot.w);
            if (pos < ps->tl_count) {
                h.kind = VIZ_HIT_TIMELINE;
                h.tl_pos = pos;
                return h;
            }
        }
        const viz_step *st = ps->step;
        if (!st)
            continue;
        for (int l = 0; l < VIZ_LANES; l++)
            if (inside(viz_layout_lane_cell(p, m, l), x, y)) {
                h.kind = VIZ_HIT_LANE;
                h.lane = l;
                return h;
            }
        if (!inside(p->grid, x, y))
            continue;
        if (st->space == WS_SPACE_SHARED) {
            for (int r = 0; r < st->nrows; r++)
                for (int b = 0; b < VIZ_BANKS; b++)
                    if (inside(viz_layout_bank_cell(p, m, st->nrows, b, r), x, y)) {
                        h.kind = VIZ_HIT_BANK;
                        h.bank = b;
                        h.row_slot = r;
                        return h;
                    }
        } else {
            for (int l = 0; l < st->nlines; l++)
                for (int k = 0; k < 4; k++)
                    if (inside(viz_layout_sector_cell(p, m, st->nlines, l, k), x, y)) {
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
