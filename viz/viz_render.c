/* viz_render.c - draws one frame of the visualizer from a viz_state: title, source and
 * PTX, the 32 lanes, the bank grid (shared) or the line/sector map (global, local), the
 * running totals, the throughput panel, the hover tooltip and the help overlay.
 * Invariant: a pure function of (state, output size, fonts): no clock, no I/O, so the
 * window, the headless exporter and the pixel tests all see the same frame. */
#include "viz_render.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const viz_key_help viz_keys[] = {
    {"space", "play / pause"},
    {"Right / Left", "step forward / back (Shift: 10 steps)"},
    {"Home / End", "first / last step"},
    {"+ / -", "faster / slower"},
    {"w / W", "next / previous warp"},
    {"b / B", "next / previous block"},
    {"a", "all warps in execution order / one warp"},
    {"g 42 Enter", "jump to source line 42 (or click a line)"},
    {"mouse", "hover a lane, bank cell or sector for details"},
    {"s", "save a screenshot (PNG)"},
    {"h or ?", "this help"},
    {"q / Esc", "quit"},
};
const int viz_nkeys = (int)(sizeof viz_keys / sizeof viz_keys[0]);

/* ---- primitives ------------------------------------------------------------------ */

static SDL_Color col(uint32_t rgb, uint8_t a)
{
    return (SDL_Color){(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, a};
}

static uint32_t lerp_rgb(uint32_t a, uint32_t b, double t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    uint32_t out = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        double x = ((a >> sh) & 255) + (((b >> sh) & 255) - (double)((a >> sh) & 255)) * t;
        out |= (uint32_t)lround(x) << sh;
    }
    return out;
}

static void set_rgb(SDL_Renderer *r, uint32_t rgb, uint8_t a)
{
    SDL_SetRenderDrawBlendMode(r, a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, a);
}

static void fill(SDL_Renderer *r, SDL_Rect rc, uint32_t rgb, uint8_t a)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    set_rgb(r, rgb, a);
    SDL_RenderFillRect(r, &rc);
}

static void outline(SDL_Renderer *r, SDL_Rect rc, uint32_t rgb, uint8_t a)
{
    set_rgb(r, rgb, a);
    SDL_RenderDrawRect(r, &rc);
}

/* A filled rectangle with corners of radius rad, as horizontal spans. */
static void fill_round(SDL_Renderer *r, SDL_Rect rc, int rad, uint32_t rgb, uint8_t a)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    if (rad * 2 > rc.h)
        rad = rc.h / 2;
    set_rgb(r, rgb, a);
    SDL_Rect mid = {rc.x, rc.y + rad, rc.w, rc.h - 2 * rad};
    SDL_RenderFillRect(r, &mid);
    for (int dy = 0; dy < rad; dy++) {
        double d = rad - dy - 0.5;
        int in = (int)lround(rad - sqrt((double)rad * rad - d * d));
        SDL_Rect top = {rc.x + in, rc.y + dy, rc.w - 2 * in, 1};
        SDL_Rect bot = {rc.x + in, rc.y + rc.h - 1 - dy, rc.w - 2 * in, 1};
        SDL_RenderFillRect(r, &top);
        SDL_RenderFillRect(r, &bot);
    }
}

static void panel(SDL_Renderer *r, const viz_fonts *f, SDL_Rect rc, const char *caption)
{
    fill_round(r, rc, 7, VIZ_RGB_BORDER, 255);
    fill_round(r, (SDL_Rect){rc.x + 1, rc.y + 1, rc.w - 2, rc.h - 2}, 6, VIZ_RGB_PANEL, 255);
    if (caption)
        viz_text_draw_fit(r, f->sans_small, rc.x + 10, rc.y + 6, rc.w - 20, col(VIZ_RGB_DIM, 255),
                          caption);
}

static int text(SDL_Renderer *r, const viz_font *f, int x, int y, uint32_t rgb, const char *s)
{
    return viz_text_draw(r, f, x, y, col(rgb, 255), s);
}

static void text_right(SDL_Renderer *r, const viz_font *f, int xr, int y, uint32_t rgb, const char *s)
{
    viz_text_draw(r, f, xr - viz_text_width(f, s), y, col(rgb, 255), s);
}

static void text_center(SDL_Renderer *r, const viz_font *f, SDL_Rect rc, uint32_t rgb, const char *s)
{
    int w = viz_text_width(f, s);
    viz_text_draw(r, f, rc.x + (rc.w - w) / 2, rc.y + (rc.h - viz_font_height(f)) / 2, col(rgb, 255), s);
}

/* 1234567 -> "1,234,567" */
static const char *num(char *buf, size_t cap, uint64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
    return buf;
}

static uint32_t lane_rgb(int lane)
{
    return lerp_rgb(0x3FC8E8u, 0x9B7CFFu, lane / 31.0);
}

uint32_t viz_outcome_rgb(viz_outcome o)
{
    switch (o) {
    case VIZ_OUT_L1_HIT: return VIZ_RGB_L1;
    case VIZ_OUT_L2_HIT: return VIZ_RGB_L2;
    case VIZ_OUT_DRAM: return VIZ_RGB_DRAM;
    case VIZ_OUT_WRITE: return VIZ_RGB_WRITE;
    case VIZ_OUT_UNKNOWN: return VIZ_RGB_TOUCHED;
    default: return VIZ_RGB_EMPTY;
    }
}

static double ease(double t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return 1 - (1 - t) * (1 - t) * (1 - t);
}

static const char *space_word(ws_space s)
{
    static const char *n[] = {"global", "shared", "local", "const", "param"};
    return (unsigned)s < 5 ? n[s] : "?";
}

static const char *op_word(ws_mem_op o)
{
    static const char *n[] = {"load", "store", "atomic", "reduction"};
    return (unsigned)o < 4 ? n[o] : "?";
}

/* ---- title, status, header --------------------------------------------------------- */

static void draw_title(SDL_Renderer *r, const viz_fonts *f, const viz_layout *L, const viz_state *s)
{
    fill(r, L->title, 0x111621u, 255);
    fill(r, (SDL_Rect){0, L->title.h - 1, L->w, 1}, VIZ_RGB_BORDER, 255);
    int x = text(r, f->sans_big, 14, 10, VIZ_RGB_ACCENT, "warpscope");
    x = text(r, f->sans_big, x + 6, 10, VIZ_RGB_TEXT, "viz");
    char buf[256];
    const viz_recording *a = s->pane[0].rec, *b = s->npanes == 2 ? s->pane[1].rec : NULL;
    if (a) {
        if (b)
            snprintf(buf, sizeof buf, "%s  vs  %s", a->kernel, b->kernel);
        else
            snprintf(buf, sizeof buf, "%s", a->kernel);
        x = text(r, f->sans, x + 22, 13, VIZ_RGB_TEXT, buf);
        snprintf(buf, sizeof buf, "grid (%u,%u,%u) \xC3\x97 block (%u,%u,%u)%s%s", a->grid[0], a->grid[1],
                 a->grid[2], a->block_dim[0], a->block_dim[1], a->block_dim[2], a->device[0] ? " \xC2\xB7 " : "",
                 a->device);
        text(r, f->sans_small, x + 16, 15, VIZ_RGB_DIM, buf);
    }
    if (s->playing)
        snprintf(buf, sizeof buf, "\xE2\x96\xB6 playing  %.3g steps/s", s->speed);
    else
        snprintf(buf, sizeof buf, "\xE2\x80\x96 paused  %.3g steps/s", s->speed);
    text_right(r, f->sans, L->w - 14, 13, s->playing ? VIZ_RGB_GOOD : VIZ_RGB_WARN, buf);
}

static void draw_status(SDL_Renderer *r, const viz_fonts *f, const viz_layout *L, const viz_state *s)
{
    fill(r, L->status, 0x111621u, 255);
    fill(r, (SDL_Rect){0, L->status.y, L->w, 1}, VIZ_RGB_BORDER, 255);
    char buf[200];
    int y = L->status.y + 5;
    if (s->jump_mode) {
        snprintf(buf, sizeof buf, "go to source line: %s_   (Enter to jump, Esc to cancel)", s->jump_text);
        text(r, f->sans_small, 12, y, VIZ_RGB_ACCENT, buf);
        return;
    }
    text(r, f->sans_small, 12, y, VIZ_RGB_DIM,
         "space play/pause \xC2\xB7 \xE2\x86\x90/\xE2\x86\x92 step \xC2\xB7 +/- speed \xC2\xB7 w/b warp/block "
         "\xC2\xB7 g line \xC2\xB7 s screenshot \xC2\xB7 h help");
    if (s->message[0])
        text_right(r, f->sans_small, L->w - 12, y, VIZ_RGB_GOOD, s->message);
}

static void draw_header(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p,
                        const viz_pane_state *ps)
{
    panel(r, f, p->header, NULL);
    const viz_step *st = ps->step;
    char buf[256];
    int x = p->header.x + 10, y = p->header.y + 7;
    if (!ps->rec) {
        text(r, f->sans, x, y, VIZ_RGB_DIM, "no recording");
        return;
    }
    x = text(r, f->sans, x, y, VIZ_RGB_TEXT, ps->rec->kernel);
    if (!st) {
        text(r, f->sans, x + 12, y, VIZ_RGB_DIM, "no memory instructions in the recorded blocks");
        return;
    }
    snprintf(buf, sizeof buf, "block (%u,%u,%u) \xC2\xB7 warp %u \xC2\xB7 step %zu/%zu%s", st->block[0],
             st->block[1], st->block[2], st->warp, ps->ordinal + 1, ps->count,
             ps->all_warps ? " (all warps)" : "");
    x = text(r, f->sans, x + 14, y, VIZ_RGB_DIM, buf);
    int room = p->header.x + p->header.w - 10 - (x + 16);
    if (room > 60 && st->ptx_text[0]) {
        int w = viz_text_width(f->mono, st->ptx_text);
        int tx = w < room ? p->header.x + p->header.w - 10 - w : x + 16;
        viz_text_draw_fit(r, f->mono, tx, y + 1, room, col(VIZ_RGB_ACCENT, 255), st->ptx_text);
    }
}

/* ---- source and PTX ----------------------------------------------------------------- */

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_keyword(const char *w, size_t n)
{
    static const char *kw[] = {"__global__", "__shared__", "__syncthreads", "__device__", "for", "if",
                               "else", "while", "return", "const", "float", "int", "unsigned", "void",
                               "double", "float2", "float4", "int2", "int4", "char", "long", "extern",
                               "__restrict__", "struct", "blockIdx", "threadIdx", "blockDim", "gridDim"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == n && !strncmp(kw[i], w, n))
            return true;
    return false;
}

/* Draws one C source line with light colouring; *in_comment carries block comments. */
static void draw_code_line(SDL_Renderer *r, const viz_font *f, int x, int y, int maxx, const char *s,
                           bool *in_comment)
{
    char tok[256];
    const char *p = s;
    while (*p && x < maxx) {
        uint32_t c = VIZ_RGB_TEXT;
        size_t n = 1;
        if (*in_comment) {
            const char *e = strstr(p, "*/");
            n = e ? (size_t)(e - p) + 2 : strlen(p);
            if (e)
                *in_comment = false;
            c = VIZ_RGB_DIM;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            n = e ? (size_t)(e - p) + 2 : strlen(p);
            *in_comment = e == NULL;
            c = VIZ_RGB_DIM;
        } else if (p[0] == '/' && p[1] == '/') {
            n = strlen(p);
            c = VIZ_RGB_DIM;
        } else if (is_ident(*p)) {
            while (is_ident(p[n]))
                n++;
            if (is_keyword(p, n))
                c = 0x8FB8FFu;
            else if (*p >= '0' && *p <= '9')
                c = 0xF2C14Eu;
        } else {
            while (p[n] && !is_ident(p[n]) && p[n] != '/')
                n++;
            c = 0xAEB7C6u;
        }
        if (n >= sizeof tok)
            n = sizeof tok - 1;
        memcpy(tok, p, n);
        tok[n] = 0;
        x = viz_text_draw(r, f, x, y, col(c, 255), tok);
        p += n;
    }
}

static void draw_source(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p,
                        const viz_pane_state *ps)
{
    const viz_recording *rec = ps->rec;
    char cap[600];
    const char *base = rec ? strrchr(rec->source_path, '/') : NULL;
    snprintf(cap, sizeof cap, "SOURCE  %s", rec ? (base ? base + 1 : rec->source_path) : "");
    panel(r, f, p->source, cap);
    if (!rec || rec->nsrc == 0) {
        text(r, f->sans_small, p->source.x + 10, p->source.y + VIZ_SRC_TOP, VIZ_RGB_DIM, "no source text");
        return;
    }
    int rows = (p->source.h - VIZ_SRC_TOP - 4) / VIZ_SRC_LINE_H;
    int first = viz_layout_source_first(p, ps);
    int cur = ps->step ? ps->step->src_line : 0;
    /* block-comment state at the first visible line */
    bool inc = false;
    for (int i = 1; i < first && i <= rec->nsrc; i++) {
        const char *q = rec->src_lines[i - 1];
        while ((q = strstr(q, inc ? "*/" : "/*")) != NULL) {
            inc = !inc;
            q += 2;
        }
    }
    /* lines that hold memory instructions of this recording: a dot in the gutter */
    uint8_t has_mem[256] = {0};
    for (size_t i = 0; i < rec->nsteps; i++) {
        int l = rec->steps[i].src_line - first;
        if (l >= 0 && l < rows && l < 256)
            has_mem[l] = 1;
    }
    int gut = viz_text_width(f->mono, "0000") + 14;
    int maxx = p->source.x + p->source.w - 8;
    for (int k = 0; k < rows; k++) {
        int line = first + k;
        if (line > rec->nsrc)
            break;
        int y = p->source.y + VIZ_SRC_TOP + k * VIZ_SRC_LINE_H;
        if (line == cur) {
            fill(r, (SDL_Rect){p->source.x + 2, y - 1, p->source.w - 4, VIZ_SRC_LINE_H}, 0x1E3450u, 255);
            fill(r, (SDL_Rect){p->source.x + 2, y - 1, 3, VIZ_SRC_LINE_H}, VIZ_RGB_ACCENT, 255);
        }
        char ln[16];
        snprintf(ln, sizeof ln, "%4d", line);
        text(r, f->mono, p->source.x + 6, y, line == cur ? VIZ_RGB_ACCENT : 0x4A5466u, ln);
        if (has_mem[k])
            fill(r, (SDL_Rect){p->source.x + gut - 8, y + 6, 4, 4}, line == cur ? VIZ_RGB_ACCENT : 0x55627Au, 255);
        draw_code_line(r, f->mono, p->source.x + gut, y, maxx, rec->src_lines[line - 1], &inc);
    }
}

static void draw_ptx(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (p->ptx.w <= 0)
        return;
    panel(r, f, p->ptx, "PTX");
    const viz_recording *rec = ps->rec;
    const viz_step *st = ps->step;
    int rows = (p->ptx.h - VIZ_SRC_TOP - 4) / VIZ_SRC_LINE_H;
    int maxw = p->ptx.w - 20;
    if (!rec || !st)
        return;
    if (rec->nptx == 0 || st->ptx_line <= 0 || st->ptx_line > rec->nptx) {
        int y = p->ptx.y + VIZ_SRC_TOP;
        fill(r, (SDL_Rect){p->ptx.x + 2, y - 1, p->ptx.w - 4, VIZ_SRC_LINE_H}, 0x1E3450u, 255);
        viz_text_draw_fit(r, f->mono, p->ptx.x + 10, y, maxw, col(VIZ_RGB_TEXT, 255), st->ptx_text);
        return;
    }
    int first = st->ptx_line - rows / 3;
    if (first > rec->nptx - rows + 1)
        first = rec->nptx - rows + 1;
    if (first < 1)
        first = 1;
    for (int k = 0; k < rows && first + k <= rec->nptx; k++) {
        int line = first + k;
        int y = p->ptx.y + VIZ_SRC_TOP + k * VIZ_SRC_LINE_H;
        const char *t = rec->ptx_lines[line - 1];
        while (*t == ' ')
            t++;
        uint32_t c = 0xAEB7C6u;
        if (t[0] == '/' && t[1] == '/')
            c = 0x4A5466u;
        else if (!strncmp(t, "ld.", 3) || !strncmp(t, "st.", 3) || !strncmp(t, "atom.", 5) ||
                 !strncmp(t, "red.", 4))
            c = 0x8FB8FFu;
        else if (t[0] == '$' || t[0] == '.')
            c = VIZ_RGB_DIM;
        if (line == st->ptx_line) {
            fill(r, (SDL_Rect){p->ptx.x + 2, y - 1, p->ptx.w - 4, VIZ_SRC_LINE_H}, 0x1E3450u, 255);
            fill(r, (SDL_Rect){p->ptx.x + 2, y - 1, 3, VIZ_SRC_LINE_H}, VIZ_RGB_ACCENT, 255);
            c = VIZ_RGB_TEXT;
        }
        viz_text_draw_fit(r, f->mono, p->ptx.x + 10, y, maxw, col(c, 255), rec->ptx_lines[line - 1]);
    }
}

/* ---- lanes --------------------------------------------------------------------------- */

static uint64_t min_active_addr(const viz_step *st)
{
    uint64_t m = UINT64_MAX;
    for (int l = 0; l < VIZ_LANES; l++)
        if (st->lane[l].active && st->lane[l].addr < m)
            m = st->lane[l].addr;
    return m == UINT64_MAX ? 0 : m;
}

static void draw_lanes(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p,
                       const viz_pane_state *ps, int hover_lane)
{
    panel(r, f, p->lanes, NULL);
    const viz_step *st = ps->step;
    if (!st)
        return;
    bool shared = st->space == WS_SPACE_SHARED;
    bool local = st->space == WS_SPACE_LOCAL;
    uint64_t base = shared || local ? 0 : min_active_addr(st);
    for (int l = 0; l < VIZ_LANES; l++) {
        SDL_Rect c = viz_layout_lane_cell(p, l);
        const viz_lane *ln = &st->lane[l];
        char a[32], t[16];
        if (!ln->active) {
            fill(r, c, 0x141821u, 255);
            set_rgb(r, 0x222836u, 255);
            for (int d = 4; d < c.w + c.h; d += 6) /* hatching: masked off */
                SDL_RenderDrawLine(r, c.x + (d < c.h ? 0 : d - c.h), c.y + (d < c.h ? d : c.h - 1),
                                   c.x + (d < c.w ? d : c.w - 1), c.y + (d < c.w ? 0 : d - c.w));
            snprintf(t, sizeof t, "%d", l);
            text(r, f->mono_small, c.x + 3, c.y + 2, 0x3C4454u, t);
            continue;
        }
        fill(r, c, lerp_rgb(VIZ_RGB_PANEL, lane_rgb(l), 0.22), 255);
        fill(r, (SDL_Rect){c.x, c.y, c.w, 2}, lane_rgb(l), 255);
        if (shared && ln->conflict)
            outline(r, c, VIZ_RGB_CONFLICT, 255);
        if (l == hover_lane)
            outline(r, c, 0xFFFFFFu, 255);
        snprintf(t, sizeof t, "%d", l);
        text(r, f->mono_small, c.x + 3, c.y + 3, VIZ_RGB_DIM, t);
        if (shared)
            snprintf(a, sizeof a, "b%u", ln->bank);
        else
            snprintf(a, sizeof a, "s%u", ln->sector);
        if (c.w >= 44)
            text_right(r, f->mono_small, c.x + c.w - 3, c.y + 3, shared && ln->conflict ? VIZ_RGB_CONFLICT : VIZ_RGB_DIM, a);
        if (shared || local)
            snprintf(a, sizeof a, "%" PRIx64, ln->addr);
        else
            snprintf(a, sizeof a, "+%" PRIx64, ln->addr - base);
        SDL_Rect lo = {c.x, c.y + c.h / 2, c.w, c.h / 2};
        if (viz_text_width(f->mono_small, a) > c.w - 2) {
            char tail[8];
            snprintf(tail, sizeof tail, "%s", a + strlen(a) - 4);
            snprintf(a, sizeof a, "\xE2\x80\xA6%s", tail);
        }
        text_center(r, f->mono_small, lo, VIZ_RGB_TEXT, a);
    }
}

/* ---- memory: shared bank grid ---------------------------------------------------------- */

static void draw_legend(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const uint32_t *rgb,
                        const char *const *names, const char *const *short_names, int n)
{
    int need = 0;
    for (int i = 0; i < n; i++)
        need += 28 + viz_text_width(f->sans_small, names[i]);
    const char *const *use = need <= p->grid.w - 20 ? names : short_names;
    int x = p->grid.x + 4, y = p->grid.y + p->grid.h + 5;
    for (int i = 0; i < n; i++) {
        fill(r, (SDL_Rect){x, y + 2, 10, 10}, rgb[i], 255);
        x = text(r, f->sans_small, x + 14, y, VIZ_RGB_DIM, use[i]) + 14;
    }
}

static void mem_title(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_step *st,
                      const char *verdict, uint32_t verdict_rgb)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s %s \xC2\xB7 %u B/lane \xC2\xB7 %d of 32 lanes active",
             space_word(st->space), op_word(st->op), st->width, __builtin_popcount(st->active_mask));
    int x = text(r, f->sans, p->mem.x + 10, p->mem.y + 6, VIZ_RGB_TEXT, buf);
    int vw = viz_text_width(f->sans, verdict);
    int vx = p->mem.x + p->mem.w - 10 - vw;
    if (vx < x + 12)
        vx = x + 12;
    fill_round(r, (SDL_Rect){vx - 8, p->mem.y + 3, vw + 16, 21}, 5, lerp_rgb(VIZ_RGB_PANEL, verdict_rgb, 0.18), 255);
    text(r, f->sans, vx, p->mem.y + 6, verdict_rgb, verdict);
}

static void draw_rail(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_step *st)
{
    int cw = p->rail.w / VIZ_LANES;
    text_right(r, f->sans_small, p->rail.x - 6, p->rail.y + 1, VIZ_RGB_DIM, "lane");
    for (int l = 0; l < VIZ_LANES; l++) {
        SDL_Point pt = viz_layout_rail_point(p, l);
        bool on = st->lane[l].active;
        fill(r, (SDL_Rect){pt.x - 2, pt.y - 4, 5, 5}, on ? lane_rgb(l) : 0x2A3140u, 255);
        if (cw >= 16 || l % 4 == 0) {
            char t[16];
            snprintf(t, sizeof t, "%d", l);
            int w = viz_text_width(f->mono_small, t);
            text(r, f->mono_small, pt.x - w / 2, p->rail.y - 2, on ? VIZ_RGB_DIM : 0x3C4454u, t);
        }
    }
}

/* A thin line from a lane's rail tick to (x, y), drawn part way while animating. */
static void fan_line(SDL_Renderer *r, const viz_pane_layout *p, int lane, int x, int y, uint32_t rgb,
                     uint8_t a, double t)
{
    SDL_Point s = viz_layout_rail_point(p, lane);
    double e = ease(t);
    int ex = s.x + (int)lround((x - s.x) * e), ey = s.y + (int)lround((y - s.y) * e);
    set_rgb(r, rgb, a);
    SDL_RenderDrawLine(r, s.x, s.y, ex, ey);
}

static void draw_banks(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_step *st,
                       double phase, const viz_hit *hv)
{
    static uint32_t cell[VIZ_MAX_ROWS][VIZ_BANKS]; /* lanes using each (row, bank) word */
    memset(cell, 0, sizeof cell);
    uint32_t gmask[4] = {0};
    for (int l = 0; l < VIZ_LANES; l++) {
        const viz_lane *ln = &st->lane[l];
        if (!ln->active)
            continue;
        gmask[ln->group & 3] |= 1u << l;
        for (int k = 0; k < ln->nwords; k++) {
            uint64_t w = ln->addr / 4 + (uint64_t)k;
            for (int rs = 0; rs < st->nrows; rs++)
                if (st->rows[rs] == (uint32_t)(w / VIZ_BANKS))
                    cell[rs][w % VIZ_BANKS] |= 1u << l;
        }
    }
    /* the bank model's count of distinct words each bank serves per group: > 1 is a conflict */
    int worst[VIZ_BANKS] = {0}, maxw = 1;
    for (int g = 0; g < 4; g++)
        for (int b = 0; b < VIZ_BANKS; b++) {
            if (st->bank_words[g][b] > worst[b])
                worst[b] = st->bank_words[g][b];
            if (worst[b] > maxw)
                maxw = worst[b];
        }

    char buf[160];
    int conflict_ways = st->degree;
    uint32_t vrgb = st->wavefronts <= st->ideal_wavefronts ? VIZ_RGB_GOOD
                    : st->wavefronts <= 2 * st->ideal_wavefronts ? VIZ_RGB_WARN : VIZ_RGB_BAD;
    if (st->wavefronts > st->ideal_wavefronts && conflict_ways > 1)
        snprintf(buf, sizeof buf, "%d wavefronts \xC2\xB7 ideal %d \xC2\xB7 %d-way bank conflict", st->wavefronts,
                 st->ideal_wavefronts, conflict_ways);
    else
        snprintf(buf, sizeof buf, "%d wavefront%s \xC2\xB7 ideal %d \xC2\xB7 conflict-free", st->wavefronts,
                 st->wavefronts == 1 ? "" : "s", st->ideal_wavefronts);
    mem_title(r, f, p, st, buf, vrgb);
    draw_rail(r, f, p, st);

    int nr = st->nrows;
    SDL_Rect c0 = viz_layout_bank_cell(p, nr, 0, 0);
    int cw = c0.w + 2, ch = viz_layout_bank_cell(p, nr, 0, 1).y - c0.y;
    /* bank numbers */
    for (int b = 0; b < VIZ_BANKS; b++)
        if (cw >= 16 || b % 4 == 0) {
            SDL_Rect c = viz_layout_bank_cell(p, nr, b, 0);
            char t[16];
            snprintf(t, sizeof t, "%d", b);
            int w = viz_text_width(f->mono_small, t);
            text(r, f->mono_small, c.x + (c.w - w) / 2, p->grid.y, VIZ_RGB_DIM, t);
        }
    text_right(r, f->sans_small, c0.x - 6, p->grid.y - 1, VIZ_RGB_DIM, "bank");
    /* fan: each lane to its first word */
    for (int l = 0; l < VIZ_LANES; l++) {
        const viz_lane *ln = &st->lane[l];
        if (!ln->active)
            continue;
        int rs = 0;
        for (int i = 0; i < nr; i++)
            if (st->rows[i] == (uint32_t)(ln->addr / 128))
                rs = i;
        SDL_Rect c = viz_layout_bank_cell(p, nr, ln->bank, rs);
        bool cf = st->bank_words[ln->group & 3][ln->bank] > 1;
        fan_line(r, p, l, c.x + c.w / 2, p->grid.y + 13, cf ? VIZ_RGB_CONFLICT : lane_rgb(l), cf ? 200 : 150,
                 phase * 1.3);
    }
    /* cells */
    SDL_Rect empties[VIZ_MAX_ROWS * VIZ_BANKS];
    int ne = 0;
    double a = ease(phase * 1.6 - 0.3);
    for (int rs = 0; rs < nr; rs++) {
        SDL_Rect lc = viz_layout_bank_cell(p, nr, 0, rs);
        if (ch >= 9 || rs == 0 || rs == nr - 1) {
            snprintf(buf, sizeof buf, "%" PRIx64, (uint64_t)st->rows[rs] * 128);
            text_right(r, f->mono_small, lc.x - 6, lc.y + (lc.h - viz_font_height(f->mono_small)) / 2 + 1,
                       VIZ_RGB_DIM, buf);
        }
        for (int b = 0; b < VIZ_BANKS; b++) {
            SDL_Rect c = viz_layout_bank_cell(p, nr, b, rs);
            uint32_t m = cell[rs][b];
            if (!m) {
                empties[ne++] = c;
                continue;
            }
            bool cf = false;
            for (int g = 0; g < 4; g++)
                if ((m & gmask[g]) && st->bank_words[g][b] > 1)
                    cf = true;
            int n = __builtin_popcount(m);
            uint32_t rgb = cf ? VIZ_RGB_CONFLICT : n > 1 ? VIZ_RGB_BROADCAST : VIZ_RGB_ACCESS;
            fill(r, c, lerp_rgb(VIZ_RGB_EMPTY, rgb, a), 255);
            if (hv && hv->kind == VIZ_HIT_BANK && hv->bank == b && hv->row_slot == rs)
                outline(r, c, 0xFFFFFFu, 255);
            if (c.h >= 11 && c.w >= 14) {
                char t[12];
                snprintf(t, sizeof t, n > 1 && c.w >= 28 ? "%d+%d" : "%d", __builtin_ctz(m), n - 1);
                SDL_Rect tc = {c.x + 1, c.y + 1, c.w, c.h};
                text_center(r, f->mono_small, tc, 0x0D1017u, t);
            }
        }
    }
    set_rgb(r, VIZ_RGB_EMPTY, 255);
    SDL_RenderFillRects(r, empties, ne);
    /* footer: words each bank serves (its wavefronts) */
    int fy = c0.y + nr * ch + 4, fh = 14;
    for (int b = 0; b < VIZ_BANKS; b++) {
        if (!worst[b])
            continue;
        SDL_Rect c = viz_layout_bank_cell(p, nr, b, 0);
        int h = 3 + (fh - 3) * worst[b] / maxw;
        fill(r, (SDL_Rect){c.x, fy + fh - h, c.w, h}, worst[b] > 1 ? VIZ_RGB_CONFLICT : VIZ_RGB_ACCESS, 255);
        if (worst[b] > 1) {
            snprintf(buf, sizeof buf, "\xC3\x97%d", worst[b]);
            int w = viz_text_width(f->mono_small, buf);
            text(r, f->mono_small, c.x + (c.w - w) / 2, fy + fh + 1, VIZ_RGB_CONFLICT, buf);
        }
    }
    static const uint32_t lrgb[] = {VIZ_RGB_ACCESS, VIZ_RGB_BROADCAST, VIZ_RGB_CONFLICT};
    static const char *const lname[] = {"word served in its own wavefront", "broadcast (lanes share a word)",
                                        "bank conflict (bank needs several words)"};
    static const char *const sname[] = {"word", "broadcast", "bank conflict"};
    draw_legend(r, f, p, lrgb, lname, sname, 3);
}

/* ---- memory: global/local lines and sectors -------------------------------------------- */

/* "0-7", "0,8,16", "3" for the lanes in m; "" if it does not fit in cap. */
static void lane_list(uint32_t m, char *out, size_t cap)
{
    out[0] = 0;
    size_t o = 0;
    int l = 0;
    while (l < 32) {
        if (!(m & (1u << l))) {
            l++;
            continue;
        }
        int e = l;
        while (e + 1 < 32 && (m & (1u << (e + 1))))
            e++;
        int n = e > l ? snprintf(out + o, cap - o, "%s%d-%d", o ? "," : "", l, e)
                      : snprintf(out + o, cap - o, "%s%d", o ? "," : "", l);
        if (n < 0 || (size_t)n >= cap - o) {
            out[0] = 0;
            return;
        }
        o += (size_t)n;
        l = e + 1;
    }
}

static void draw_sectors(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_step *st,
                         double phase, const viz_hit *hv)
{
    char buf[200];
    double per = st->requests ? (double)st->sectors / st->requests : 0;
    uint32_t vrgb = st->sectors <= st->ideal_sectors ? VIZ_RGB_GOOD
                    : st->sectors <= 2 * st->ideal_sectors ? VIZ_RGB_WARN : VIZ_RGB_BAD;
    int used_pct = st->sectors ? (int)lround(100.0 * st->ideal_sectors / st->sectors) : 100;
    snprintf(buf, sizeof buf, "%.3g sectors/request \xC2\xB7 ideal %d \xC2\xB7 %d%% efficient", per,
             st->requests > 1 ? st->ideal_sectors / st->requests : st->ideal_sectors, used_pct);
    mem_title(r, f, p, st, buf, vrgb);
    draw_rail(r, f, p, st);
    int n = st->nlines;
    double a = ease(phase * 1.6 - 0.3);
    /* fan: each lane to the byte it starts at */
    for (int l = 0; l < VIZ_LANES; l++) {
        const viz_lane *ln = &st->lane[l];
        if (!ln->active)
            continue;
        SDL_Rect c = viz_layout_sector_cell(p, n, ln->line_slot, ln->sector);
        uint64_t off = st->space == WS_SPACE_LOCAL ? (uint64_t)l * 4 % 32 : ln->addr % 32;
        fan_line(r, p, l, c.x + (int)(off * (uint64_t)c.w / 32) + 1, c.y - 1, lane_rgb(l), n > 8 ? 80 : 150,
                 phase * 1.3);
    }
    uint64_t first = n ? st->lines[0].line : 0;
    for (int i = 0; i < n; i++) {
        const viz_line *ln = &st->lines[i];
        SDL_Rect c0 = viz_layout_sector_cell(p, n, i, 0);
        SDL_Rect c3 = viz_layout_sector_cell(p, n, i, 3);
        int lw = c3.x + c3.w - c0.x;
        if (i == 0 && st->space == WS_SPACE_GLOBAL)
            snprintf(buf, sizeof buf, "0x%" PRIx64, ln->line * 128);
        else if (i == 0)
            snprintf(buf, sizeof buf, "line %" PRIu64, ln->line);
        else
            snprintf(buf, sizeof buf, "+0x%" PRIx64, (ln->line - first) * 128);
        if (viz_layout_sector_labels(p, n)) {
            int tw = viz_text_width(f->mono_small, buf);
            fill(r, (SDL_Rect){c0.x - 1, c0.y - 14, (tw < lw ? tw : lw) + 4, 13}, VIZ_RGB_PANEL, 255);
            viz_text_draw_fit(r, f->mono_small, c0.x + 1, c0.y - 13, lw, col(VIZ_RGB_DIM, 255), buf);
        }
        /* the 128-byte line frame behind its sectors */
        fill(r, (SDL_Rect){c0.x - 1, c0.y - 1, lw + 2, c0.h + 2}, VIZ_RGB_BORDER, 255);
        for (int k = 0; k < 4; k++) {
            SDL_Rect c = viz_layout_sector_cell(p, n, i, k);
            viz_outcome o = (viz_outcome)ln->outcome[k];
            fill(r, c, o == VIZ_OUT_NONE ? VIZ_RGB_EMPTY : lerp_rgb(VIZ_RGB_EMPTY, viz_outcome_rgb(o), a), 255);
            if (o == VIZ_OUT_NONE)
                continue;
            /* bytes used, word by word, along the bottom */
            int sh = c.h >= 20 ? 4 : 2;
            for (int wd = 0; wd < 8; wd++) {
                bool used = (ln->used[k] >> (wd * 4)) & 15u;
                SDL_Rect u = {c.x + wd * c.w / 8, c.y + c.h - sh, (wd + 1) * c.w / 8 - wd * c.w / 8, sh};
                fill(r, u, used ? 0xFFFFFFu : 0x0D1017u, used ? 150 : 200); /* dark = fetched, unused */
            }
            if (hv && hv->kind == VIZ_HIT_SECTOR && hv->line_slot == i && hv->sector == k)
                outline(r, c, 0xFFFFFFu, 255);
            if (c.h >= 18 && c.w >= 26) {
                char t[64];
                lane_list(ln->lanes[k], t, sizeof t);
                if (viz_text_width(f->mono_small, t) <= c.w - 4)
                    text_center(r, f->mono_small, (SDL_Rect){c.x, c.y - (sh + 1) / 2, c.w, c.h}, 0x0D1017u, t);
            }
        }
    }
    static const uint32_t lrgb[] = {VIZ_RGB_L1, VIZ_RGB_L2, VIZ_RGB_DRAM, VIZ_RGB_WRITE, VIZ_RGB_TOUCHED,
                                    VIZ_RGB_EMPTY};
    static const char *const lname[] = {"L1 hit", "L2 hit", "DRAM", "written", "touched", "not touched"};
    draw_legend(r, f, p, lrgb, lname, lname, 6);
    if (p->grid.w >= 900)
        text_right(r, f->sans_small, p->grid.x + p->grid.w, p->grid.y + p->grid.h + 5, VIZ_RGB_DIM,
                   "128-B lines of four 32-B sectors; bar = bytes used");
}

static void draw_mem(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_pane_state *ps,
                     double phase, const viz_hit *hv)
{
    panel(r, f, p->mem, NULL);
    if (!ps->step) {
        text(r, f->sans, p->mem.x + 12, p->mem.y + 10, VIZ_RGB_DIM, "nothing to show");
        return;
    }
    if (ps->step->space == WS_SPACE_SHARED)
        draw_banks(r, f, p, ps->step, phase, hv);
    else
        draw_sectors(r, f, p, ps->step, phase, hv);
}

/* ---- totals and throughput ----------------------------------------------------------- */

static uint32_t eff_rgb(double pct)
{
    return pct >= 90 ? VIZ_RGB_GOOD : pct >= 50 ? VIZ_RGB_WARN : VIZ_RGB_BAD;
}

static void draw_totals(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p, const viz_pane_state *ps)
{
    panel(r, f, p->totals, p->totals.w >= 480 ? "RUNNING TOTALS  so far \xC2\xB7 last column: the whole launch"
                                              : "TOTALS  so far \xC2\xB7 launch");
    if (!ps->rec)
        return;
    const viz_totals *t = ps->step ? &ps->step->totals : NULL;
    const viz_totals *L = &ps->rec->launch;
    int x0 = p->totals.x + 10, w = p->totals.w - 20;
    int cx[6] = {x0, x0 + w * 38 / 100, x0 + w * 55 / 100, x0 + w * 69 / 100, x0 + w * 83 / 100, x0 + w};
    int y = p->totals.y + 26;
    static const char *hd[] = {"requests", "sect./wavef.", "ideal", "efficiency", "launch"};
    static const char *hd_short[] = {"req.", "sect/wf", "ideal", "eff.", "launch"};
    for (int i = 0; i < 5; i++)
        text_right(r, f->sans_small, cx[i + 1], y, VIZ_RGB_DIM, w >= 460 ? hd[i] : hd_short[i]);
    y += 17;
    char b1[32];
    int rows = 0;
    for (int c = 0; c < VIZ_CAT_COUNT; c++) {
        if (!L->cat[c].requests && !(t && t->cat[c].requests))
            continue;
        if (y + 16 > p->totals.y + p->totals.h - 22)
            break;
        const viz_counter *k = t ? &t->cat[c] : NULL;
        text(r, f->sans, cx[0], y, VIZ_RGB_TEXT, viz_cat_name((viz_cat)c));
        if (k) {
            text_right(r, f->mono, cx[1], y, VIZ_RGB_TEXT, num(b1, sizeof b1, k->requests));
            text_right(r, f->mono, cx[2], y, VIZ_RGB_TEXT, num(b1, sizeof b1, k->units));
            text_right(r, f->mono, cx[3], y, VIZ_RGB_DIM, num(b1, sizeof b1, k->ideal));
            if (k->units) {
                double pct = 100.0 * (double)k->ideal / (double)k->units;
                snprintf(b1, sizeof b1, "%ld%%", lround(pct));
                text_right(r, f->mono, cx[4], y, eff_rgb(pct), b1);
            }
        }
        text_right(r, f->mono, cx[5], y, VIZ_RGB_DIM, num(b1, sizeof b1, L->cat[c].units));
        y += 17;
        rows++;
    }
    if (!rows)
        text(r, f->sans, cx[0], y, VIZ_RGB_DIM, "no memory instructions");
    if (t) {
        char buf[200], n1[32], n2[32], n3[32];
        uint64_t lookups = t->l1_hit_sectors + t->l2_hit_sectors + t->dram_sectors;
        if (lookups + t->write_sectors)
            snprintf(buf, sizeof buf, "sectors: L1 hit %.0f%% \xC2\xB7 L2 hit %s \xC2\xB7 from DRAM %s \xC2\xB7 written %s",
                     lookups ? 100.0 * (double)t->l1_hit_sectors / (double)lookups : 0.0, num(n1, sizeof n1, t->l2_hit_sectors),
                     num(n2, sizeof n2, t->dram_sectors), num(n3, sizeof n3, t->write_sectors));
        else
            snprintf(buf, sizeof buf, "%s warp-level memory instructions so far",
                     num(n1, sizeof n1, t->instructions));
        viz_text_draw_fit(r, f->sans_small, cx[0], p->totals.y + p->totals.h - 19, w, col(VIZ_RGB_DIM, 255), buf);
    }
}

static void draw_throughput(SDL_Renderer *r, const viz_fonts *f, const viz_pane_layout *p,
                            const viz_pane_state *ps)
{
    panel(r, f, p->throughput, p->throughput.w >= 300 ? "THROUGHPUT  (effective GB/s, 1 GB = 1e9 B)"
                                                      : "THROUGHPUT  (GB/s)");
    if (!ps->rec)
        return;
    const viz_throughput *tp = &ps->rec->tp;
    int x = p->throughput.x + 10, w = p->throughput.w - 20, y = p->throughput.y + 24;
    char buf[320];
    if (tp->gpu[0])
        snprintf(buf, sizeof buf, "%s%s%s%s%s", tp->gpu, tp->date[0] ? " \xC2\xB7 " : "", tp->date,
                 tp->source[0] ? " \xC2\xB7 " : "", tp->source);
    else
        snprintf(buf, sizeof buf, "no GPU measurement recorded for this kernel");
    viz_text_draw_fit(r, f->sans_small, x, y, w, col(VIZ_RGB_TEXT, 255), buf);
    y += 20;
    const char *names[3] = {"measured", "predicted (sim)", "device peak"};
    double v[3] = {tp->measured_gbs, tp->predicted_gbs, tp->peak_gbs};
    uint32_t rgb[3] = {VIZ_RGB_GOOD, VIZ_RGB_ACCENT, 0x56607Au};
    double mx = 1;
    for (int i = 0; i < 3; i++)
        if (v[i] > mx)
            mx = v[i];
    int lab = viz_text_width(f->sans_small, "predicted (sim)") + 8;
    int bh = (p->throughput.y + p->throughput.h - 8 - y) / 3;
    bh = bh > 30 ? 30 : bh;
    for (int i = 0; i < 3; i++) {
        int yy = y + i * bh;
        text(r, f->sans_small, x, yy + (bh - 14) / 2, VIZ_RGB_DIM, names[i]);
        int bw = w - lab;
        fill(r, (SDL_Rect){x + lab, yy + 3, bw, bh - 8}, VIZ_RGB_EMPTY, 255);
        if (v[i] >= 0) {
            int len = (int)(bw * v[i] / mx);
            fill(r, (SDL_Rect){x + lab, yy + 3, len, bh - 8}, rgb[i], 255);
            snprintf(buf, sizeof buf, "%.0f", v[i]);
            int tw = viz_text_width(f->mono_small, buf);
            if (len >= tw + 8)
                text(r, f->mono_small, x + lab + 4, yy + 3 + (bh - 8 - 12) / 2, 0x0D1017u, buf);
            else
                text(r, f->mono_small, x + lab + len + 4, yy + 3 + (bh - 8 - 12) / 2, VIZ_RGB_TEXT, buf);
        } else {
            text(r, f->mono_small, x + lab + 4, yy + 3 + (bh - 8 - 12) / 2, VIZ_RGB_DIM, "unknown");
        }
    }
}

/* ---- overlays -------------------------------------------------------------------------- */

static void draw_tooltip(SDL_Renderer *r, const viz_fonts *f, const viz_layout *L, const viz_state *s,
                         const viz_hit *h)
{
    const viz_pane_state *ps = &s->pane[h->pane];
    const viz_step *st = ps->step;
    char lines[5][160];
    int n = 0;
    if (h->kind == VIZ_HIT_SOURCE) {
        snprintf(lines[n++], sizeof lines[0], "line %d: click to jump to its next memory instruction", h->src_line);
    } else if (st && h->kind == VIZ_HIT_LANE) {
        const viz_lane *ln = &st->lane[h->lane];
        if (!ln->active) {
            snprintf(lines[n++], sizeof lines[0], "lane %d: masked off (inactive)", h->lane);
        } else {
            snprintf(lines[n++], sizeof lines[0], "lane %d \xC2\xB7 %s address 0x%" PRIx64, h->lane,
                     space_word(st->space), ln->addr);
            if (st->space == WS_SPACE_SHARED) {
                snprintf(lines[n++], sizeof lines[0], "bank %u \xC2\xB7 word row %" PRIu64 " \xC2\xB7 %u word%s",
                         ln->bank, ln->addr / 128, ln->nwords, ln->nwords > 1 ? "s" : "");
                snprintf(lines[n++], sizeof lines[0], "group %u \xC2\xB7 wavefront %d%s%s", ln->group, ln->wavefront,
                         ln->conflict ? " \xC2\xB7 bank conflict" : "", ln->sharers > 1 ? " \xC2\xB7 broadcast" : "");
            } else {
                const viz_line *li = &st->lines[ln->line_slot];
                snprintf(lines[n++], sizeof lines[0], "line 0x%" PRIx64 " \xC2\xB7 sector %u \xC2\xB7 %s",
                         li->line * 128, ln->sector, viz_outcome_name((viz_outcome)li->outcome[ln->sector]));
            }
        }
    } else if (st && h->kind == VIZ_HIT_BANK) {
        uint32_t row = st->rows[h->row_slot];
        uint64_t off = (uint64_t)row * 128 + (uint64_t)h->bank * 4;
        char ls[100] = "";
        uint32_t m = 0;
        for (int l = 0; l < VIZ_LANES; l++) {
            const viz_lane *ln = &st->lane[l];
            if (ln->active && ln->addr / 4 <= off / 4 && off / 4 < ln->addr / 4 + ln->nwords)
                m |= 1u << l;
        }
        lane_list(m, ls, sizeof ls);
        snprintf(lines[n++], sizeof lines[0], "bank %d \xC2\xB7 shared offset 0x%" PRIx64 " (word %" PRIu64 ")",
                 h->bank, off, off / 4);
        snprintf(lines[n++], sizeof lines[0], "lanes: %s", m ? ls : "none");
    } else if (st && h->kind == VIZ_HIT_SECTOR) {
        const viz_line *li = &st->lines[h->line_slot];
        char ls[100];
        lane_list(li->lanes[h->sector], ls, sizeof ls);
        snprintf(lines[n++], sizeof lines[0], "sector 0x%" PRIx64 " (line 0x%" PRIx64 ", sector %d)",
                 li->line * 128 + (uint64_t)h->sector * 32, li->line * 128, h->sector);
        snprintf(lines[n++], sizeof lines[0], "%s \xC2\xB7 %d of 32 bytes used",
                 viz_outcome_name((viz_outcome)li->outcome[h->sector]), __builtin_popcount(li->used[h->sector]));
        snprintf(lines[n++], sizeof lines[0], "lanes: %s", li->lanes[h->sector] ? ls : "none");
    }
    if (!n)
        return;
    int w = 0;
    for (int i = 0; i < n; i++) {
        int tw = viz_text_width(f->sans_small, lines[i]);
        w = tw > w ? tw : w;
    }
    SDL_Rect box = {s->mouse_x + 16, s->mouse_y + 16, w + 20, n * 16 + 12};
    if (box.x + box.w > L->w - 4)
        box.x = s->mouse_x - box.w - 8;
    if (box.y + box.h > L->h - 4)
        box.y = s->mouse_y - box.h - 8;
    fill_round(r, box, 6, 0x4A5A78u, 255);
    fill_round(r, (SDL_Rect){box.x + 1, box.y + 1, box.w - 2, box.h - 2}, 5, 0x1B2230u, 255);
    for (int i = 0; i < n; i++)
        text(r, f->sans_small, box.x + 10, box.y + 6 + i * 16, i ? VIZ_RGB_TEXT : VIZ_RGB_ACCENT, lines[i]);
}

static void draw_help(SDL_Renderer *r, const viz_fonts *f, const viz_layout *L)
{
    fill(r, (SDL_Rect){0, 0, L->w, L->h}, 0x05070Bu, 190);
    int w = 560, h = 70 + viz_nkeys * 22 + 64;
    SDL_Rect box = {(L->w - w) / 2, (L->h - h) / 2, w, h};
    fill_round(r, box, 10, VIZ_RGB_ACCENT, 255);
    fill_round(r, (SDL_Rect){box.x + 1, box.y + 1, box.w - 2, box.h - 2}, 9, 0x151A23u, 255);
    text(r, f->sans_big, box.x + 24, box.y + 18, VIZ_RGB_TEXT, "Keys");
    for (int i = 0; i < viz_nkeys; i++) {
        int y = box.y + 56 + i * 22;
        fill_round(r, (SDL_Rect){box.x + 24, y - 2, 130, 19}, 4, 0x232B3Au, 255);
        text(r, f->mono, box.x + 32, y, VIZ_RGB_ACCENT, viz_keys[i].keys);
        text(r, f->sans, box.x + 170, y, VIZ_RGB_TEXT, viz_keys[i].what);
    }
    int y = box.y + 62 + viz_nkeys * 22;
    text(r, f->sans_small, box.x + 24, y, VIZ_RGB_DIM,
         "Shared: banks across, 4-byte words down; red cells share a bank with another word.");
    text(r, f->sans_small, box.x + 24, y + 16, VIZ_RGB_DIM,
         "Global/local: 128-B lines of four 32-B sectors, coloured by where the data came from.");
}

void viz_render_frame(SDL_Renderer *r, const viz_fonts *f, const viz_state *s)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(r, &w, &h);
    viz_layout L;
    viz_layout_compute(w, h, s->npanes, &L);
    set_rgb(r, VIZ_RGB_BG, 255);
    SDL_RenderClear(r);
    viz_hit hv = {.kind = VIZ_HIT_NONE};
    if (s->mouse_in && !s->show_help)
        hv = viz_hit_test(&L, s, s->mouse_x, s->mouse_y);
    draw_title(r, f, &L, s);
    for (int i = 0; i < L.npanes; i++) {
        const viz_pane_layout *p = &L.pane[i];
        const viz_pane_state *ps = &s->pane[i];
        const viz_hit *h = hv.kind != VIZ_HIT_NONE && hv.pane == i ? &hv : NULL;
        draw_header(r, f, p, ps);
        draw_source(r, f, p, ps);
        draw_ptx(r, f, p, ps);
        draw_lanes(r, f, p, ps, h && h->kind == VIZ_HIT_LANE ? h->lane : -1);
        draw_mem(r, f, p, ps, s->phase, h);
        draw_totals(r, f, p, ps);
        draw_throughput(r, f, p, ps);
    }
    draw_status(r, f, &L, s);
    if (hv.kind != VIZ_HIT_NONE)
        draw_tooltip(r, f, &L, s, &hv);
    if (s->show_help)
        draw_help(r, f, &L);
}
