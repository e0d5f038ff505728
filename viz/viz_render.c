/* viz_render.c - draws one frame of the visualizer from a viz_state: title, source (long
 * lines wrapped, a heat tick per line), the per-line heat map, PTX, the 32 lanes, the bank
 * grid (shared) or the line/sector map (global, local), the warp timeline, the running
 * totals, the throughput panel against the measured copy ceiling, the quiz card, the
 * hover tooltip and the help overlay.
 * Invariant: a pure function of (state, output size, fonts): no clock, no I/O, so the
 * window, the headless exporter and the pixel tests all see the same frame; every text
 * is measured and placed inside its panel (shortened or wrapped, never drawn past it),
 * which the draw log lets the geometry tests check. */
#include "viz_render.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const viz_key_help viz_keys[] = {
    {"space", "play / pause (to the end of the warp, block or kernel)"},
    {"Right / Left", "step forward / back (Shift: 10 steps)"},
    {"Home / End", "first / last step"},
    {"+ / -", "faster / slower"},
    {"a", "scope: one warp \xE2\x86\x92 the block \xE2\x86\x92 every recorded block"},
    {"w / W", "next / previous warp (warp scope)"},
    {"b / B", "next / previous block"},
    {"click timeline", "jump to that step (which warp issued it, in issue order)"},
    {"g 42 Enter", "jump to source line 42 (or click a source line)"},
    {"j / k", "next / previous line of the heat map (or click a row)"},
    {"r", "the costliest line (the longest heat-map bar)"},
    {"p", "predict-then-reveal: type the step's sectors/wavefronts, Enter"},
    {"mouse", "hover a lane, bank cell or sector for details"},
    {"s", "save a screenshot (PNG)"},
    {"h or ?", "this help"},
    {"q / Esc", "quit"},
};
const int viz_nkeys = (int)(sizeof viz_keys / sizeof viz_keys[0]);

/* ---- drawing context and primitives ------------------------------------------------- */

typedef struct {
    SDL_Renderer *r;
    const viz_fonts *f;
    const viz_state *s;
    const viz_layout *L;
    const viz_metrics *m;
    viz_draw_log *log;
    int panel;              /* log index of the panel being drawn, -1 = none */
} ctx;

static int S(const ctx *c, double v)
{
    return (int)lround(v * c->m->scale);
}

static SDL_Color col(uint32_t rgb, uint8_t a)
{
    return (SDL_Color){(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, a};
}


static void set_rgb(SDL_Renderer *r, uint32_t rgb, uint8_t a)
{
    SDL_SetRenderDrawBlendMode(r, a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, a);
}

static void fill(const ctx *c, SDL_Rect rc, uint32_t rgb, uint8_t a)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    set_rgb(c->r, rgb, a);
    SDL_RenderFillRect(c->r, &rc);
}

static void outline(const ctx *c, SDL_Rect rc, uint32_t rgb, uint8_t a)
{
    set_rgb(c->r, rgb, a);
    SDL_RenderDrawRect(c->r, &rc);
}

/* A filled rectangle with corners of radius rad, as horizontal spans. */
static void fill_round(const ctx *c, SDL_Rect rc, int rad, uint32_t rgb, uint8_t a)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    if (rad * 2 > rc.h)
        rad = rc.h / 2;
    set_rgb(c->r, rgb, a);
    SDL_Rect mid = {rc.x, rc.y + rad, rc.w, rc.h - 2 * rad};
    SDL_RenderFillRect(c->r, &mid);
    for (int dy = 0; dy < rad; dy++) {
        double d = rad - dy - 0.5;
        int in = (int)lround(rad - sqrt((double)rad * rad - d * d));
        SDL_Rect top = {rc.x + in, rc.y + dy, rc.w - 2 * in, 1};
        SDL_Rect bot = {rc.x + in, rc.y + rc.h - 1 - dy, rc.w - 2 * in, 1};
        SDL_RenderFillRect(c->r, &top);
        SDL_RenderFillRect(c->r, &bot);
    }
}

static void log_text(ctx *c, const viz_font *f, int x, int y, int w, const char *s)
{
    viz_draw_log *lg = c->log;
    if (!lg || !*s)
        return;
    if (lg->ntexts >= VIZ_LOG_TEXTS) {
        lg->dropped++;
        return;
    }
    lg->text[lg->ntexts].rect = (SDL_Rect){x, y, w, viz_font_height(f)};
    lg->text[lg->ntexts].panel = c->panel;
    snprintf(lg->text[lg->ntexts].text, sizeof lg->text[0].text, "%s", s);
    lg->ntexts++;
}

static void log_panel(ctx *c, SDL_Rect rc, const char *name, int pane, bool overlay)
{
    viz_draw_log *lg = c->log;
    c->panel = -1;
    if (!lg || lg->npanels >= VIZ_LOG_PANELS)
        return;
    lg->panel[lg->npanels].rect = rc;
    lg->panel[lg->npanels].name = name;
    lg->panel[lg->npanels].pane = pane;
    lg->panel[lg->npanels].overlay = overlay;
    c->panel = lg->npanels++;
}

static int text(ctx *c, const viz_font *f, int x, int y, uint32_t rgb, const char *s)
{
    log_text(c, f, x, y, viz_text_width(f, s), s);
    return viz_text_draw(c->r, f, x, y, col(rgb, 255), s);
}

/* Text shortened with "…" to fit maxw pixels. */
static int text_fit(ctx *c, const viz_font *f, int x, int y, int maxw, uint32_t rgb, const char *s)
{
    if (maxw <= 0)
        return x;
    int w = viz_text_width(f, s);
    if (w > maxw)
        w = maxw;
    log_text(c, f, x, y, w, s);
    return viz_text_draw_fit(c->r, f, x, y, maxw, col(rgb, 255), s);
}

static void text_right(ctx *c, const viz_font *f, int xr, int y, uint32_t rgb, const char *s)
{
    text(c, f, xr - viz_text_width(f, s), y, rgb, s);
}

static void text_center(ctx *c, const viz_font *f, SDL_Rect rc, uint32_t rgb, const char *s)
{
    int w = viz_text_width(f, s);
    text(c, f, rc.x + (rc.w - w) / 2, rc.y + (rc.h - viz_font_height(f)) / 2, rgb, s);
}

/* The first of the candidates that fits maxw (the last one shortened otherwise). */
static const char *pick(const viz_font *f, int maxw, const char *const *cand, int n)
{
    for (int i = 0; i < n; i++)
        if (cand[i] && viz_text_width(f, cand[i]) <= maxw)
            return cand[i];
    return cand[n - 1];
}

/* Words of s wrapped into lines of at most maxw pixels; draws them from (x, y) unless
 * draw is false, at most max_lines (the last shortened). Returns the lines used. */
static int paragraph(ctx *c, const viz_font *f, int x, int y, int maxw, int line_h, int max_lines, uint32_t rgb,
                     const char *s, bool draw)
{
    int lines = 0;
    const char *p = s;
    char buf[400];
    while (*p && lines < max_lines) {
        while (*p == ' ')
            p++;
        size_t best = 0, i = 0;
        for (;;) {
            size_t j = i;
            while (p[j] && p[j] != ' ')
                j++;
            if (j >= sizeof buf)
                break;
            memcpy(buf, p, j);
            buf[j] = 0;
            if (viz_text_width(f, buf) > maxw)
                break;
            best = j;
            if (!p[j])
                break;
            i = j + 1;
        }
        bool last = lines + 1 == max_lines;
        if (!best || last) { /* one word wider than the line, or the last line: shorten it */
            size_t n = strlen(p) < sizeof buf - 1 ? strlen(p) : sizeof buf - 1;
            if (!best || (last && p[best]))
                best = n;
        }
        memcpy(buf, p, best);
        buf[best] = 0;
        if (draw)
            text_fit(c, f, x, y + lines * line_h, maxw, rgb, buf);
        lines++;
        p += best;
    }
    return lines;
}

/* A panel: border, body, caption; logged under name. */
static void panel(ctx *c, SDL_Rect rc, const char *name, int pane, const char *caption)
{
    log_panel(c, rc, name, pane, false);
    int rad = S(c, 7);
    fill_round(c, rc, rad, VIZ_RGB_BORDER, 255);
    fill_round(c, (SDL_Rect){rc.x + 1, rc.y + 1, rc.w - 2, rc.h - 2}, rad - 1, VIZ_RGB_PANEL, 255);
    if (caption)
        text_fit(c, c->f->sans_small, rc.x + c->m->pad + 2, rc.y + S(c, 6), rc.w - 2 * c->m->pad - 4, VIZ_RGB_DIM,
                 caption);
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
    return ws_rgb_lerp(0x3FC8E8u, 0x9B7CFFu, lane / 31.0);
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

uint32_t viz_heat_rgb(double t)
{
    return ws_heat_rgb(t);
}

static uint32_t eff_rgb(double pct)
{
    return pct >= 90 ? VIZ_RGB_GOOD : pct >= 50 ? VIZ_RGB_WARN : VIZ_RGB_BAD;
}

uint32_t viz_step_rgb(const viz_step *s)
{
    if (s->what == VIZ_STEP_LANDED)
        return VIZ_RGB_LANDED;
    if (s->what == VIZ_STEP_MBAR_WAIT)
        return s->stalled ? VIZ_RGB_STALL : VIZ_RGB_DIM;
    int units = viz_step_answer(s);
    int ideal = s->space == WS_SPACE_SHARED ? s->ideal_wavefronts : s->ideal_sectors;
    return eff_rgb(units > 0 ? 100.0 * ideal / units : 100.0);
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

/* The quiz hides pane 0's answer while a question is open. */
static bool hidden(const ctx *c, int pane)
{
    return pane == 0 && c->s->quiz.on && c->s->quiz.asking;
}

/* ---- title, status, header --------------------------------------------------------- */

static void draw_title(ctx *c)
{
    const viz_layout *L = c->L;
    const viz_state *s = c->s;
    const viz_fonts *f = c->f;
    log_panel(c, L->title, "title", -1, false);
    fill(c, L->title, 0x111621u, 255);
    fill(c, (SDL_Rect){0, L->title.h - 1, L->w, 1}, VIZ_RGB_BORDER, 255);
    int ybig = (L->title.h - viz_font_height(f->sans_big)) / 2, y = (L->title.h - viz_font_height(f->sans)) / 2;
    int ys = (L->title.h - viz_font_height(f->sans_small)) / 2;
    char right[160], buf[256];
    int n = snprintf(right, sizeof right, "%s %s  %.3g steps/s", s->playing ? "\xE2\x96\xB6 playing" : "\xE2\x80\x96 paused",
                     viz_scope_name(s->pane[0].scope), s->speed);
    if (s->quiz.on && n > 0)
        snprintf(right + n, sizeof right - (size_t)n, "  \xC2\xB7  quiz %d/%d", s->quiz.right, s->quiz.tries);
    int rw = viz_text_width(f->sans, right);
    int xr = L->w - c->m->pad - S(c, 6);
    text(c, f->sans, xr - rw, y, s->playing ? VIZ_RGB_GOOD : VIZ_RGB_WARN, right);
    int x = text(c, f->sans_big, S(c, 14), ybig, VIZ_RGB_ACCENT, "warpscope");
    x = text(c, f->sans_big, x + S(c, 6), ybig, VIZ_RGB_TEXT, "viz");
    int room = xr - rw - S(c, 16);
    const viz_recording *a = s->pane[0].rec, *b = s->npanes == 2 ? s->pane[1].rec : NULL;
    if (!a || x + S(c, 22) >= room)
        return;
    if (b)                                       /* text_fit cuts what does not fit anyway */
        snprintf(buf, sizeof buf, "%.*s  vs  %.*s", 120, a->kernel, 120, b->kernel);
    else
        snprintf(buf, sizeof buf, "%.*s", (int)sizeof buf - 1, a->kernel);
    x = text_fit(c, f->sans, x + S(c, 22), y, room - x - S(c, 22), VIZ_RGB_TEXT, buf);
    snprintf(buf, sizeof buf, "grid (%u,%u,%u) \xC3\x97 block (%u,%u,%u)%s%s", a->grid[0], a->grid[1], a->grid[2],
             a->block_dim[0], a->block_dim[1], a->block_dim[2], a->device[0] ? " \xC2\xB7 " : "", a->device);
    /* the launch totals' source (issue 25): sampled, still simulating, or failed */
    char tot[200] = "";
    if (a->totals_state == VIZ_TOTALS_SAMPLED) { /* "sampled: N of M blocks", without the bounds */
        const char *cut = strstr(a->totals_note, " (");
        snprintf(tot, sizeof tot, " \xC2\xB7 totals %.*s", cut ? (int)(cut - a->totals_note) : 150, a->totals_note);
    }
    else if (a->totals_state == VIZ_TOTALS_PENDING)
        snprintf(tot, sizeof tot, " \xC2\xB7 totals: simulating the launch\xE2\x80\xA6");
    else if (a->totals_state == VIZ_TOTALS_FAILED)
        snprintf(tot, sizeof tot, " \xC2\xB7 totals failed");
    size_t bl = strlen(buf);
    if (tot[0] && x + S(c, 16) + viz_text_width(f->sans_small, buf) <= room) {
        snprintf(buf + bl, sizeof buf - bl, "%s", tot);  /* the long form where it fits, else the grid alone */
        if (x + S(c, 16) + viz_text_width(f->sans_small, buf) > room)
            buf[bl] = 0;
    }
    if (x + S(c, 16) + viz_text_width(f->sans_small, buf) <= room)
        text(c, f->sans_small, x + S(c, 16), ys + 1, VIZ_RGB_DIM, buf);
}

static void draw_status(ctx *c)
{
    const viz_layout *L = c->L;
    const viz_state *s = c->s;
    const viz_font *f = c->f->sans_small;
    log_panel(c, L->status, "status", -1, false);
    fill(c, L->status, 0x111621u, 255);
    fill(c, (SDL_Rect){0, L->status.y, L->w, 1}, VIZ_RGB_BORDER, 255);
    char buf[200];
    int y = L->status.y + (L->status.h - viz_font_height(f)) / 2, x = c->m->pad + S(c, 4);
    int w = L->w - 2 * x;
    if (s->jump_mode) {
        snprintf(buf, sizeof buf, "go to source line: %s_   (Enter to jump, Esc to cancel)", s->jump_text);
        text_fit(c, f, x, y, w, VIZ_RGB_ACCENT, buf);
        return;
    }
    if (s->quiz.on && s->quiz.asking) {
        const viz_step *st = s->pane[0].step;
        snprintf(buf, sizeof buf, "predict: %s for this step? %s_   (digits, Enter to reveal, Esc to skip)",
                 st ? viz_step_unit(st) : "sectors", s->quiz.guess);
        text_fit(c, f, x, y, w, VIZ_RGB_ACCENT, buf);
        return;
    }
    int mw = s->message[0] ? viz_text_width(f, s->message) : 0;
    if (mw > w)
        mw = w;
    if (s->message[0])
        text_fit(c, f, x + w - mw, y, mw, VIZ_RGB_GOOD, s->message);
    static const char *const hints[] = {
        "space play/pause \xC2\xB7 \xE2\x86\x90/\xE2\x86\x92 step \xC2\xB7 +/- speed \xC2\xB7 a scope \xC2\xB7 w/b warp/block "
        "\xC2\xB7 g line \xC2\xB7 j/k/r heat \xC2\xB7 p quiz \xC2\xB7 s screenshot \xC2\xB7 h help",
        "space play \xC2\xB7 \xE2\x86\x90/\xE2\x86\x92 step \xC2\xB7 a scope \xC2\xB7 w/b warp/block \xC2\xB7 p quiz \xC2\xB7 h help",
        "space play \xC2\xB7 \xE2\x86\x90/\xE2\x86\x92 step \xC2\xB7 h help", NULL};
    int room = w - (mw ? mw + S(c, 16) : 0);
    for (int i = 0; hints[i]; i++)
        if (viz_text_width(f, hints[i]) <= room) {
            text(c, f, x, y, VIZ_RGB_DIM, hints[i]);
            break;
        }
}

static void draw_header(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_fonts *f = c->f;
    panel(c, p->header, "header", pane, NULL);
    const viz_step *st = ps->step;
    char buf[256];
    int x = p->header.x + c->m->pad + 2, y = p->header.y + (p->header.h - viz_font_height(f->sans)) / 2;
    int xr = p->header.x + p->header.w - c->m->pad - 2;
    if (!ps->rec) {
        text(c, f->sans, x, y, VIZ_RGB_DIM, "no recording");
        return;
    }
    x = text_fit(c, f->sans, x, y, (xr - x) / 3, VIZ_RGB_TEXT, ps->rec->kernel);
    if (!st) {
        text_fit(c, f->sans, x + S(c, 12), y, xr - x - S(c, 12), VIZ_RGB_DIM,
                 "no memory instructions in the recorded blocks");
        return;
    }
    static const char *const sc[] = {"", " of the block", " of all blocks"};
    char lng[200], shrt[120];
    snprintf(lng, sizeof lng, "block (%u,%u,%u) \xC2\xB7 warp %u \xC2\xB7 step %zu/%zu%s", st->block[0], st->block[1],
             st->block[2], st->warp, ps->ordinal + 1, ps->count, sc[ps->scope % 3]);
    snprintf(shrt, sizeof shrt, "b%u w%u \xC2\xB7 %zu/%zu", st->block_linear, st->warp, ps->ordinal + 1, ps->count);
    const char *cand[] = {lng, shrt};
    snprintf(buf, sizeof buf, "%s", pick(f->sans, xr - x - S(c, 14), cand, 2));
    x = text_fit(c, f->sans, x + S(c, 14), y, xr - x - S(c, 14), VIZ_RGB_DIM, buf);
    int room = xr - (x + S(c, 16));
    if (room > S(c, 60) && st->ptx_text[0]) {
        int w = viz_text_width(f->mono, st->ptx_text);
        int tx = w < room ? xr - w : x + S(c, 16);
        text_fit(c, f->mono, tx, y + 1, room, VIZ_RGB_ACCENT, st->ptx_text);
    }
}

/* ---- source and PTX ----------------------------------------------------------------- */

static bool is_ident(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
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

/* Draws len bytes of C source with light colouring; *in_comment carries block comments.
 * Returns the x after it. */
static int draw_code(ctx *c, const viz_font *f, int x, int y, const char *s, size_t len, bool *in_comment)
{
    char seg[512];
    len = len < sizeof seg - 1 ? len : sizeof seg - 1;
    memcpy(seg, s, len);
    seg[len] = 0;
    log_text(c, f, x, y, viz_text_width(f, seg), seg);
    char tok[512];
    const char *p = seg;
    while (*p) {
        uint32_t rgb = VIZ_RGB_TEXT;
        size_t n = 1;
        if (*in_comment) {
            const char *e = strstr(p, "*/");
            n = e ? (size_t)(e - p) + 2 : strlen(p);
            if (e)
                *in_comment = false;
            rgb = VIZ_RGB_DIM;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            n = e ? (size_t)(e - p) + 2 : strlen(p);
            *in_comment = e == NULL;
            rgb = VIZ_RGB_DIM;
        } else if (p[0] == '/' && p[1] == '/') {
            n = strlen(p);
            rgb = VIZ_RGB_DIM;
        } else if (is_ident(*p)) {
            while (is_ident(p[n]))
                n++;
            if (is_keyword(p, n))
                rgb = 0x8FB8FFu;
            else if (*p >= '0' && *p <= '9')
                rgb = 0xF2C14Eu;
        } else {
            while (p[n] && !is_ident(p[n]) && p[n] != '/')
                n++;
            rgb = 0xAEB7C6u;
        }
        memcpy(tok, p, n);
        tok[n] = 0;
        x = viz_text_draw(c->r, f, x, y, col(rgb, 255), tok);
        p += n;
    }
    return x;
}

/* A "//" line comment that started in an earlier visual row of the same line runs on. */
static bool line_comment_before(const char *line, size_t upto)
{
    bool inq = false;
    for (size_t i = 0; i + 1 < upto; i++) {
        if (line[i] == '"')
            inq = !inq;
        if (!inq && line[i] == '/' && line[i + 1] == '/')
            return true;
    }
    return false;
}

/* The gutter tick's colour level: the line's waste over ideal (viz_heat_level), -1 = no tick */
static double line_heat(const viz_recording *rec, int line, uint64_t worst)
{
    if (!worst || line <= 0 || line >= rec->nheat)
        return -1;
    return rec->heat[line].instructions ? viz_heat_level(&rec->heat[line]) : -1;
}

static uint64_t worst_units(const viz_recording *rec)
{
    int wl = viz_recording_worst_line(rec);
    return wl ? viz_heat_units(&rec->heat[wl]) : 0;
}

static void draw_source(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_recording *rec = ps->rec;
    const viz_metrics *m = c->m;
    const viz_font *mono = c->f->mono;
    char cap[600];
    const char *base = rec ? strrchr(rec->source_path, '/') : NULL;
    snprintf(cap, sizeof cap, "SOURCE  %s", rec ? (base ? base + 1 : rec->source_path) : "");
    panel(c, p->source, "source", pane, cap);
    if (!rec || rec->nsrc == 0) {
        text(c, c->f->sans_small, p->source.x + m->pad, p->source.y + m->cap_h, VIZ_RGB_DIM, "no source text");
        return;
    }
    int rows = (p->source.h - m->cap_h - m->pad / 2) / m->line_h;
    int first = viz_layout_source_first(c->L, p, ps);
    int cols = viz_layout_source_cols(c->L, p);
    int cur = ps->step ? ps->step->src_line : 0;
    uint64_t worst = hidden(c, pane) ? 0 : worst_units(rec);
    /* block-comment state at the first visible line */
    bool inc = false;
    for (int i = 1; i < first && i <= rec->nsrc; i++) {
        const char *q = rec->src_lines[i - 1];
        while ((q = strstr(q, inc ? "*/" : "/*")) != NULL) {
            inc = !inc;
            q += 2;
        }
    }
    int xcode = p->source.x + m->src_gutter, row = 0;
    int tick_w = S(c, 5);
    for (int line = first; line <= rec->nsrc && row < rows; line++) {
        const char *t = rec->src_lines[line - 1];
        int nr = viz_wrap_rows(t, cols);
        int y = p->source.y + m->cap_h + row * m->line_h;
        int vis = nr < rows - row ? nr : rows - row;
        if (line == cur) {
            fill(c, (SDL_Rect){p->source.x + 2, y - 1, p->source.w - 4, vis * m->line_h}, 0x1E3450u, 255);
            fill(c, (SDL_Rect){p->source.x + 2, y - 1, S(c, 3), vis * m->line_h}, VIZ_RGB_ACCENT, 255);
        }
        double h = line_heat(rec, line, worst);
        if (h >= 0)
            fill(c, (SDL_Rect){p->source.x + S(c, 7), y + 1, tick_w, vis * m->line_h - 3}, viz_heat_rgb(h), 255);
        char ln[16];
        snprintf(ln, sizeof ln, "%4d", line);
        text(c, mono, p->source.x + S(c, 7) + tick_w + S(c, 3), y, line == cur ? VIZ_RGB_ACCENT : 0x4A5466u, ln);
        size_t at = 0;
        for (int k = 0; k < vis; k++) {
            int len = viz_wrap_len(t + at, k ? cols - 2 : cols);
            int xx = xcode + (k ? 2 * m->char_w : 0);
            bool cmt = k && !inc && line_comment_before(t, at + 1);
            if (cmt) {
                char seg[512];
                size_t n = (size_t)len < sizeof seg - 1 ? (size_t)len : sizeof seg - 1;
                memcpy(seg, t + at, n);
                seg[n] = 0;
                text(c, mono, xx, y + k * m->line_h, VIZ_RGB_DIM, seg);
            } else {
                draw_code(c, mono, xx, y + k * m->line_h, t + at, (size_t)len, &inc);
            }
            at += (size_t)len;
        }
        row += nr;
    }
}

static void draw_heat(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (p->heat.w <= 0)
        return;
    const viz_metrics *m = c->m;
    const viz_recording *rec = ps->rec;
    static const char *const caps[] = {
        "HEAT MAP  bar: sectors + wavefronts per line, whole launch \xC2\xB7 colour: \xC3\x97 ideal (blue \xC3\x97" "1, "
        "red \xC3\x97" "4+) \xC2\xB7 j/k, r = costliest",
        "HEAT MAP  bar: cost \xC2\xB7 colour: \xC3\x97 ideal (red \xC3\x97" "4+) \xC2\xB7 j/k, r",
        "HEAT MAP  colour: \xC3\x97 ideal", "HEAT MAP"};
    panel(c, p->heat, "heat", pane, pick(c->f->sans_small, p->heat.w - 2 * m->pad - 4, caps, 4));
    if (!rec)
        return;
    if (hidden(c, pane)) {
        text_fit(c, c->f->sans_small, p->heat.x + m->pad, p->heat.y + m->cap_h, p->heat.w - 2 * m->pad, VIZ_RGB_DIM,
                 "hidden while you predict");
        return;
    }
    if (!viz_heat_lines(rec, NULL, 0)) {
        text(c, c->f->sans_small, p->heat.x + m->pad, p->heat.y + m->cap_h, VIZ_RGB_DIM, "no memory instructions");
        return;
    }
    uint64_t worst = worst_units(rec);
    int rows = (p->heat.h - m->cap_h - m->pad / 2) / m->line_h;
    int first = viz_layout_heat_first(c->L, p, ps);
    bool roomy = viz_layout_heat_roomy(c->L, p, ps);
    int cols = viz_layout_heat_cols(c->L, p);
    int cur = ps->step ? ps->step->src_line : 0;
    const viz_font *mono = c->f->mono, *ms = c->f->mono_small;
    int xr = p->heat.x + p->heat.w - m->pad;
    for (int l = 1, k = 0; l < rec->nheat; l++) {
        const viz_line_heat *h = &rec->heat[l];
        if (!h->instructions)
            continue;
        int row = viz_layout_heat_row_of(c->L, p, ps, k++);
        if (row < 0)
            continue;
        const char *code = viz_heat_code(rec, l);
        int nr = roomy && *code ? 1 + viz_wrap_rows(code, cols) : 1;
        int vis = nr < rows - row ? nr : rows - row;
        int y = p->heat.y + m->cap_h + row * m->line_h;
        if (l == cur)
            fill(c, (SDL_Rect){p->heat.x + 2, y - 1, p->heat.w - 4, vis * m->line_h}, 0x1E3450u, 255);
        char buf[160], a[32], b[32];
        snprintf(buf, sizeof buf, "%4d", l);
        text(c, mono, p->heat.x + m->pad, y, l == cur ? VIZ_RGB_ACCENT : VIZ_RGB_DIM, buf);
        /* length: the line's cost against the costliest; colour: its waste over ideal, so a
           costly line that is as good as its bytes allow is not red */
        double t = (double)viz_heat_units(h) / (double)worst;
        SDL_Rect full = viz_layout_heat_bar(c->L, p, row, 1.0);
        fill(c, full, VIZ_RGB_EMPTY, 255);
        fill(c, viz_layout_heat_bar(c->L, p, row, t), viz_heat_rgb(viz_heat_level(h)), 255);
        /* the counts, then the ratio to ideal, then the code where there is room */
        uint64_t ideal = h->ideal_sectors + h->ideal_wavefronts;
        if (h->sectors && h->wavefronts)
            snprintf(buf, sizeof buf, "%s sect + %s wf", num(a, sizeof a, h->sectors), num(b, sizeof b, h->wavefronts));
        else if (h->wavefronts)
            snprintf(buf, sizeof buf, "%s wavefronts", num(a, sizeof a, h->wavefronts));
        else
            snprintf(buf, sizeof buf, "%s sectors", num(a, sizeof a, h->sectors));
        int x = full.x + full.w + m->char_w;
        int yt = y + (m->line_h - viz_font_height(ms)) / 2;
        if (x + viz_text_width(ms, buf) > xr)
            snprintf(buf, sizeof buf, "%s", num(a, sizeof a, viz_heat_units(h)));
        if (x + viz_text_width(ms, buf) <= xr)
            x = text(c, ms, x, yt, VIZ_RGB_TEXT, buf) + m->char_w;
        if (ideal) {
            snprintf(buf, sizeof buf, "\xC3\x97%.3g ideal", (double)viz_heat_units(h) / (double)ideal);
            if (x + viz_text_width(ms, buf) <= xr)
                x = text(c, ms, x, yt, eff_rgb(100.0 * (double)ideal / (double)viz_heat_units(h)), buf) + m->char_w;
        }
        double lanes = viz_heat_lanes_pct(h); /* x1 ideal with 1 lane of 32 running is still waste */
        if (lanes < 99.95) {
            snprintf(buf, sizeof buf, "%.3g%% lanes", lanes);
            if (x + viz_text_width(ms, buf) <= xr)
                x = text(c, ms, x, yt, eff_rgb(lanes), buf) + m->char_w;
        }
        if (!*code)
            continue;
        if (roomy) { /* the whole line under its figures, wrapped */
            bool inc = false;
            size_t at = 0;
            for (int r = 1; r < vis; r++) {
                int len = viz_wrap_len(code + at, r > 1 ? cols - 2 : cols);
                draw_code(c, mono, p->heat.x + m->pad + (5 + (r > 1 ? 2 : 0)) * m->char_w, y + r * m->line_h,
                          code + at, (size_t)len, &inc);
                at += (size_t)len;
            }
        } else if (x + viz_text_width(mono, code) <= xr) { /* whole, or not at all: never cut */
            text(c, mono, x, y, 0xAEB7C6u, code);
        }
    }
    int n = viz_heat_lines(rec, NULL, 0);
    if (!roomy && n > rows && rows > 0) {
        char more[64];
        snprintf(more, sizeof more, "%d-%d of %d", first + 1, first + rows < n ? first + rows : n, n);
        int w = viz_text_width(c->f->sans_small, more);
        if (w < p->heat.w / 3)
            text(c, c->f->sans_small, xr - w, p->heat.y + S(c, 6), VIZ_RGB_DIM, more);
    }
}

static void draw_ptx(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    if (p->ptx.w <= 0)
        return;
    const viz_metrics *m = c->m;
    panel(c, p->ptx, "ptx", pane, "PTX");
    const viz_recording *rec = ps->rec;
    const viz_step *st = ps->step;
    int rows = (p->ptx.h - m->cap_h - m->pad / 2) / m->line_h;
    int maxw = p->ptx.w - 2 * m->pad - 4;
    if (!rec || !st || rows < 1)
        return;
    if (st->sass_text[0] && rows >= 2) {        /* the machine instruction, on the panel's last row */
        rows--;
        char line[VIZ_SASS_TEXT + 8];
        snprintf(line, sizeof line, "SASS: %s", st->sass_text);
        int y = p->ptx.y + m->cap_h + rows * m->line_h;
        fill(c, (SDL_Rect){p->ptx.x + 2, y - 1, p->ptx.w - 4, m->line_h}, 0x2A2440u, 255);
        text_fit(c, c->f->mono, p->ptx.x + m->pad + 2, y, maxw, 0xE0C890u, line);
    }
    if (rec->nptx == 0 || st->ptx_line <= 0 || st->ptx_line > rec->nptx) {
        int y = p->ptx.y + m->cap_h;
        fill(c, (SDL_Rect){p->ptx.x + 2, y - 1, p->ptx.w - 4, m->line_h}, 0x1E3450u, 255);
        text_fit(c, c->f->mono, p->ptx.x + m->pad + 2, y, maxw, VIZ_RGB_TEXT, st->ptx_text);
        return;
    }
    int first = st->ptx_line - rows / 3;
    if (first > rec->nptx - rows + 1)
        first = rec->nptx - rows + 1;
    if (first < 1)
        first = 1;
    for (int k = 0; k < rows && first + k <= rec->nptx; k++) {
        int line = first + k;
        int y = p->ptx.y + m->cap_h + k * m->line_h;
        const char *t = rec->ptx_lines[line - 1];
        while (*t == ' ')
            t++;
        uint32_t rgb = 0xAEB7C6u;
        if (t[0] == '/' && t[1] == '/')
            rgb = 0x4A5466u;
        else if (!strncmp(t, "ld.", 3) || !strncmp(t, "st.", 3) || !strncmp(t, "atom.", 5) ||
                 !strncmp(t, "red.", 4))
            rgb = 0x8FB8FFu;
        else if (t[0] == '$' || t[0] == '.')
            rgb = VIZ_RGB_DIM;
        if (line == st->ptx_line) {
            fill(c, (SDL_Rect){p->ptx.x + 2, y - 1, p->ptx.w - 4, m->line_h}, 0x1E3450u, 255);
            fill(c, (SDL_Rect){p->ptx.x + 2, y - 1, S(c, 3), m->line_h}, VIZ_RGB_ACCENT, 255);
            rgb = VIZ_RGB_TEXT;
        }
        text_fit(c, c->f->mono, p->ptx.x + m->pad + 2, y, maxw, rgb, rec->ptx_lines[line - 1]);
    }
}

/* ---- lanes --------------------------------------------------------------------------- */

static uint64_t min_active_addr(const viz_step *st)
{
    uint64_t mn = UINT64_MAX;
    for (int l = 0; l < VIZ_LANES; l++)
        if (st->lane[l].active && st->lane[l].addr < mn)
            mn = st->lane[l].addr;
    return mn == UINT64_MAX ? 0 : mn;
}

static void draw_lanes(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps, int hover_lane)
{
    panel(c, p->lanes, "lanes", pane, NULL);
    const viz_step *st = ps->step;
    if (!st)
        return;
    const viz_font *ms = c->f->mono_small;
    bool shared = st->space == WS_SPACE_SHARED;
    bool local = st->space == WS_SPACE_LOCAL;
    uint64_t base = shared || local ? 0 : min_active_addr(st);
    int inset = S(c, 3);
    for (int l = 0; l < VIZ_LANES; l++) {
        SDL_Rect cl = viz_layout_lane_cell(p, c->m, l);
        const viz_lane *ln = &st->lane[l];
        char a[32], t[16];
        snprintf(t, sizeof t, "%d", l);
        if (!ln->active) {
            fill(c, cl, 0x141821u, 255);
            set_rgb(c->r, 0x222836u, 255);
            for (int d = 4; d < cl.w + cl.h; d += 6) /* hatching: masked off */
                SDL_RenderDrawLine(c->r, cl.x + (d < cl.h ? 0 : d - cl.h), cl.y + (d < cl.h ? d : cl.h - 1),
                                   cl.x + (d < cl.w ? d : cl.w - 1), cl.y + (d < cl.w ? 0 : d - cl.w));
            if (viz_text_width(ms, t) <= cl.w - 2 * inset)
                text(c, ms, cl.x + inset, cl.y + 2, 0x3C4454u, t);
            continue;
        }
        fill(c, cl, ws_rgb_lerp(VIZ_RGB_PANEL, lane_rgb(l), 0.22), 255);
        fill(c, (SDL_Rect){cl.x, cl.y, cl.w, 2}, lane_rgb(l), 255);
        if (shared && ln->conflict && !hidden(c, pane))
            outline(c, cl, VIZ_RGB_CONFLICT, 255);
        if (l == hover_lane)
            outline(c, cl, 0xFFFFFFu, 255);
        int tx = text(c, ms, cl.x + inset, cl.y + inset, VIZ_RGB_DIM, t);
        if (shared)
            snprintf(a, sizeof a, "b%u", ln->bank);
        else
            snprintf(a, sizeof a, "s%u", ln->sector);
        if (!hidden(c, pane) && tx + S(c, 4) + viz_text_width(ms, a) <= cl.x + cl.w - inset)
            text_right(c, ms, cl.x + cl.w - inset, cl.y + inset,
                       shared && ln->conflict && !hidden(c, pane) ? VIZ_RGB_CONFLICT : VIZ_RGB_DIM, a);
        if (shared || local)
            snprintf(a, sizeof a, "%" PRIx64, ln->addr);
        else
            snprintf(a, sizeof a, "+%" PRIx64, ln->addr - base);
        SDL_Rect lo = {cl.x, cl.y + cl.h / 2, cl.w, cl.h / 2};
        if (viz_text_width(ms, a) > cl.w - 2 && strlen(a) > 4) {   /* "...<last 4 digits>"; a shorter one is not drawn */
            char tail[8];
            snprintf(tail, sizeof tail, "%s", a + strlen(a) - 4);
            snprintf(a, sizeof a, "\xE2\x80\xA6%s", tail);
        }
        if (viz_text_width(ms, a) <= cl.w - 2)
            text_center(c, ms, lo, VIZ_RGB_TEXT, a);
    }
}

/* ---- memory: shared bank grid ---------------------------------------------------------- */

static void draw_legend(ctx *c, const viz_pane_layout *p, const uint32_t *rgb, const char *const *names,
                        const char *const *short_names, int n)
{
    const viz_font *f = c->f->sans_small;
    int sw = S(c, 10), need = 0, avail = p->mem.x + p->mem.w - c->m->pad - (p->grid.x + 4);
    for (int i = 0; i < n; i++)
        need += sw + S(c, 18) + viz_text_width(f, names[i]);
    const char *const *use = need <= avail ? names : short_names;
    int x = p->grid.x + 4, y = p->grid.y + p->grid.h + S(c, 4), xr = x + avail;
    for (int i = 0; i < n; i++) {
        int w = viz_text_width(f, use[i]);
        if (x + sw + S(c, 4) + w > xr)
            break;
        fill(c, (SDL_Rect){x, y + (viz_font_height(f) - sw) / 2, sw, sw}, rgb[i], 255);
        x = text(c, f, x + sw + S(c, 4), y, VIZ_RGB_DIM, use[i]) + S(c, 14);
    }
}

static void mem_title(ctx *c, const viz_pane_layout *p, const viz_step *st, const char *verdict,
                      uint32_t verdict_rgb)
{
    const viz_font *f = c->f->sans;
    const viz_metrics *m = c->m;
    char lng[160], shrt[120];
    int act = __builtin_popcount(st->active_mask);
    const char *kn = ws_mem_kind_name(st->kind);
    snprintf(lng, sizeof lng, "%s%s%s %s \xC2\xB7 %u B/lane \xC2\xB7 %d of 32 lanes active (%.3g%%)", kn, kn[0] ? " " : "", space_word(st->space),
             op_word(st->op), st->width, act, 100.0 * act / 32);
    snprintf(shrt, sizeof shrt, "%s %s \xC2\xB7 %u B \xC2\xB7 %d lanes", space_word(st->space), op_word(st->op),
             st->width, __builtin_popcount(st->active_mask));
    int x0 = p->mem.x + m->pad + 2, xr = p->mem.x + p->mem.w - m->pad - 2, y = p->mem.y + m->pad * 3 / 4;
    int row_h = viz_font_height(f) + m->pad / 2;
    bool two = m->mem_title_h > row_h + m->pad;
    int vw = viz_text_width(f, verdict), bp = S(c, 8);
    int vx = two ? x0 + bp : xr - bp - vw, vy = two ? y + row_h : y;
    const char *cand[] = {lng, shrt};
    text_fit(c, f, x0, y, two ? xr - x0 : vx - bp - S(c, 12) - x0, VIZ_RGB_TEXT,
             pick(f, two ? xr - x0 : vx - bp - S(c, 12) - x0, cand, 2));
    if (vx + vw > xr - bp)
        vw = xr - bp - vx;
    fill_round(c, (SDL_Rect){vx - bp, vy - S(c, 3), vw + 2 * bp, viz_font_height(f) + S(c, 5)}, S(c, 5),
               ws_rgb_lerp(VIZ_RGB_PANEL, verdict_rgb, 0.18), 255);
    text_fit(c, f, vx, vy, vw, verdict_rgb, verdict);
}

static void draw_rail(ctx *c, const viz_pane_layout *p, const viz_step *st)
{
    int cw = p->rail.w / VIZ_LANES;
    const viz_font *ms = c->f->mono_small;
    if (viz_text_width(c->f->sans_small, "lane") <= c->m->rowlabel_w - S(c, 6))
        text_right(c, c->f->sans_small, p->rail.x - S(c, 6), p->rail.y, VIZ_RGB_DIM, "lane");
    int dot = S(c, 5) > 3 ? S(c, 5) : 3;
    for (int l = 0; l < VIZ_LANES; l++) {
        SDL_Point pt = viz_layout_rail_point(p, l);
        bool on = st->lane[l].active;
        fill(c, (SDL_Rect){pt.x - dot / 2, pt.y - dot + 1, dot, dot}, on ? lane_rgb(l) : 0x2A3140u, 255);
        char t[16];
        snprintf(t, sizeof t, "%d", l);
        int w = viz_text_width(ms, t);
        if (w + S(c, 3) <= cw || (l % 4 == 0 && w + S(c, 3) <= 4 * cw))
            text(c, ms, pt.x - w / 2, p->rail.y - viz_font_height(ms) / 3, on ? VIZ_RGB_DIM : 0x3C4454u, t);
    }
}

/* A thin line from a lane's rail tick to (x, y), drawn part way while animating. */
static void fan_line(ctx *c, const viz_pane_layout *p, int lane, int x, int y, uint32_t rgb, uint8_t a, double t)
{
    SDL_Point s = viz_layout_rail_point(p, lane);
    double e = ease(t);
    int ex = s.x + (int)lround((x - s.x) * e), ey = s.y + (int)lround((y - s.y) * e);
    set_rgb(c->r, rgb, a);
    SDL_RenderDrawLine(c->r, s.x, s.y, ex, ey);
}

static void lane_list(uint32_t m, char *out, size_t cap);

static void draw_banks(ctx *c, const viz_pane_layout *p, const viz_step *st, double phase, const viz_hit *hv)
{
    static uint32_t cell[VIZ_MAX_ROWS][VIZ_BANKS]; /* lanes using each (row, bank) word */
    memset(cell, 0, sizeof cell);
    const viz_metrics *m = c->m;
    const viz_font *ms = c->f->mono_small;
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
    /* ldmatrix: its phases one after another (phase p's lanes appear in [p/n, (p+1)/n) of the step's
       animation); anything else at once */
    int np = st->what == VIZ_STEP_ACCESS ? st->nphases : 0;
    double lt[VIZ_LANES];
    for (int l = 0; l < VIZ_LANES; l++) {
        lt[l] = phase;
        for (int g = 0; g < np; g++)
            if (st->phase_lanes[g] >> l & 1)
                lt[l] = phase >= 1 ? 1 : phase * np - g;
    }
    int cur = np && phase < 1 ? (int)(phase * np) : -1;
    uint32_t vrgb = st->wavefronts <= st->ideal_wavefronts ? VIZ_RGB_GOOD
                    : st->wavefronts <= 2 * st->ideal_wavefronts ? VIZ_RGB_WARN : VIZ_RGB_BAD;
    if (st->what == VIZ_STEP_LANDED) {
        vrgb = VIZ_RGB_LANDED;
        snprintf(buf, sizeof buf, "landed: %" PRIu64 " B %s (issued at event %" PRIu64 ")", st->landed_bytes,
                 st->kind == WS_KIND_LDGSTS ? "after its wait_group" : "as its mbarrier phase completed",
                 st->issued_seq);
    } else if (cur >= 0) {
        char ll[48];
        lane_list(st->phase_lanes[cur], ll, sizeof ll);
        snprintf(buf, sizeof buf, "phase %d of %d \xC2\xB7 lanes %s \xC2\xB7 8 rows \xC3\x97 16 B \xC2\xB7 %d wavefront%s", cur + 1,
                 np, ll, st->phase_wavefronts[cur], st->phase_wavefronts[cur] == 1 ? "" : "s");
    } else if (np) {
        int o = snprintf(buf, sizeof buf, "%d phase%s \xC2\xB7 wavefronts ", np, np == 1 ? "" : "s");
        for (int g = 0; g < np && o < (int)sizeof buf - 24; g++)
            o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%d", g ? "+" : "", st->phase_wavefronts[g]);
        snprintf(buf + o, sizeof buf - (size_t)o, " = %d \xC2\xB7 ideal %d", st->wavefronts, st->ideal_wavefronts);
    } else if (st->wavefronts > st->ideal_wavefronts && conflict_ways > 1)
        snprintf(buf, sizeof buf, "%d wavefronts \xC2\xB7 ideal %d \xC2\xB7 %d-way bank conflict", st->wavefronts,
                 st->ideal_wavefronts, conflict_ways);
    else
        snprintf(buf, sizeof buf, "%d wavefront%s \xC2\xB7 ideal %d \xC2\xB7 conflict-free", st->wavefronts,
                 st->wavefronts == 1 ? "" : "s", st->ideal_wavefronts);
    mem_title(c, p, st, buf, vrgb);
    draw_rail(c, p, st);

    int nr = st->nrows;
    SDL_Rect c0 = viz_layout_bank_cell(p, m, nr, 0, 0);
    int cw = c0.w + 2, ch = viz_layout_bank_cell(p, m, nr, 0, 1).y - c0.y;
    /* bank numbers */
    for (int b = 0; b < VIZ_BANKS; b++) {
        char t[16];
        snprintf(t, sizeof t, "%d", b);
        int w = viz_text_width(ms, t);
        if (w + S(c, 3) <= cw || (b % 4 == 0 && w + S(c, 3) <= 4 * cw)) {
            SDL_Rect cb = viz_layout_bank_cell(p, m, nr, b, 0);
            text(c, ms, cb.x + (cb.w - w) / 2, p->grid.y, VIZ_RGB_DIM, t);
        }
    }
    if (viz_text_width(c->f->sans_small, "bank") <= m->rowlabel_w - S(c, 6))
        text_right(c, c->f->sans_small, c0.x - S(c, 6), p->grid.y - 1, VIZ_RGB_DIM, "bank");
    /* fan: each lane to its first word */
    for (int l = 0; l < VIZ_LANES; l++) {
        const viz_lane *ln = &st->lane[l];
        if (!ln->active)
            continue;
        int rs = 0;
        for (int i = 0; i < nr; i++)
            if (st->rows[i] == (uint32_t)(ln->addr / 128))
                rs = i;
        SDL_Rect cb = viz_layout_bank_cell(p, m, nr, ln->bank, rs);
        bool cf = st->bank_words[ln->group & 3][ln->bank] > 1;
        fan_line(c, p, l, cb.x + cb.w / 2, p->grid.y + m->bankhead_h - 1, cf ? VIZ_RGB_CONFLICT : lane_rgb(l),
                 cf ? 200 : 150, lt[l] * 1.3);
    }
    /* cells */
    static SDL_Rect empties[VIZ_MAX_ROWS * VIZ_BANKS];
    int ne = 0;
    double a = ease(phase * 1.6 - 0.3);
    int msh = viz_font_height(ms);
    for (int rs = 0; rs < nr; rs++) {
        SDL_Rect lc = viz_layout_bank_cell(p, m, nr, 0, rs);
        if (ch >= msh - 2 || rs == 0 || rs == nr - 1) {
            snprintf(buf, sizeof buf, "%" PRIx64, (uint64_t)st->rows[rs] * 128);
            int ly = lc.y + (lc.h - msh) / 2 + 1;
            bool room = ch >= msh - 2 || (rs == 0 && nr > 1 && ch * 2 >= msh) || (rs == nr - 1 && nr > 2);
            if (room && ly >= p->grid.y && ly + msh <= p->mem.y + p->mem.h)
                text_right(c, ms, lc.x - S(c, 6), ly, VIZ_RGB_DIM, buf);
        }
        for (int b = 0; b < VIZ_BANKS; b++) {
            SDL_Rect cb = viz_layout_bank_cell(p, m, nr, b, rs);
            uint32_t mk = cell[rs][b];
            if (!mk) {
                empties[ne++] = cb;
                continue;
            }
            bool cf = false;
            for (int g = 0; g < 4; g++)
                if ((mk & gmask[g]) && st->bank_words[g][b] > 1)
                    cf = true;
            int n = __builtin_popcount(mk);
            uint32_t rgb = cf ? VIZ_RGB_CONFLICT : n > 1 ? VIZ_RGB_BROADCAST : VIZ_RGB_ACCESS;
            if (st->what == VIZ_STEP_LANDED && !cf)
                rgb = VIZ_RGB_LANDED;
            double ca = a;
            if (np) { /* the cell's phase: its first lane's */
                double t = lt[__builtin_ctz(mk)];
                ca = ease(t * 1.6 - 0.3);
            }
            fill(c, cb, ws_rgb_lerp(VIZ_RGB_EMPTY, rgb, ca), 255);
            if (hv && hv->kind == VIZ_HIT_BANK && hv->bank == b && hv->row_slot == rs)
                outline(c, cb, 0xFFFFFFu, 255);
            char t[12];
            snprintf(t, sizeof t, n > 1 ? "%d+%d" : "%d", __builtin_ctz(mk), n - 1);
            if (viz_text_width(ms, t) > cb.w - 2)
                snprintf(t, sizeof t, "%d", __builtin_ctz(mk));
            if (cb.h >= msh - 1 && viz_text_width(ms, t) <= cb.w - 2)
                text_center(c, ms, (SDL_Rect){cb.x + 1, cb.y + 1, cb.w, cb.h}, 0x0D1017u, t);
        }
    }
    set_rgb(c->r, VIZ_RGB_EMPTY, 255);
    SDL_RenderFillRects(c->r, empties, ne);
    /* footer: words each bank serves (its wavefronts) */
    int fy = c0.y + nr * ch + S(c, 3), fh = m->bankfoot_h - msh - S(c, 4);
    fh = fh < 3 ? 3 : fh;
    for (int b = 0; b < VIZ_BANKS; b++) {
        if (!worst[b])
            continue;
        SDL_Rect cb = viz_layout_bank_cell(p, m, nr, b, 0);
        int h = 2 + (fh - 2) * worst[b] / maxw;
        fill(c, (SDL_Rect){cb.x, fy + fh - h, cb.w, h}, worst[b] > 1 ? VIZ_RGB_CONFLICT : VIZ_RGB_ACCESS, 255);
        if (worst[b] > 1) {
            snprintf(buf, sizeof buf, "\xC3\x97%d", worst[b]);
            int w = viz_text_width(ms, buf);
            if (w <= cw + S(c, 4) || b % 4 == 0)
                if (cb.x + (cb.w - w) / 2 + w <= p->mem.x + p->mem.w - m->pad)
                    text(c, ms, cb.x + (cb.w - w) / 2, fy + fh + 1, VIZ_RGB_CONFLICT, buf);
        }
    }
    static const uint32_t lrgb[] = {VIZ_RGB_ACCESS, VIZ_RGB_BROADCAST, VIZ_RGB_CONFLICT};
    static const char *const lname[] = {"word served in its own wavefront", "broadcast (lanes share a word)",
                                        "bank conflict (bank needs several words)"};
    static const char *const sname[] = {"word", "broadcast", "bank conflict"};
    draw_legend(c, p, lrgb, lname, sname, 3);
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

static void draw_sectors(ctx *c, const viz_pane_layout *p, const viz_step *st, double phase, const viz_hit *hv)
{
    const viz_metrics *m = c->m;
    const viz_font *ms = c->f->mono_small;
    char buf[200];
    double per = st->requests ? (double)st->sectors / st->requests : 0;
    uint32_t vrgb = st->sectors <= st->ideal_sectors ? VIZ_RGB_GOOD
                    : st->sectors <= 2 * st->ideal_sectors ? VIZ_RGB_WARN : VIZ_RGB_BAD;
    int used_pct = st->sectors ? (int)lround(100.0 * st->ideal_sectors / st->sectors) : 100;
    snprintf(buf, sizeof buf, "%.3g sectors/request \xC2\xB7 ideal %d \xC2\xB7 %d%% efficient", per,
             st->requests > 1 ? st->ideal_sectors / st->requests : st->ideal_sectors, used_pct);
    mem_title(c, p, st, buf, vrgb);
    draw_rail(c, p, st);
    int n = st->nlines;
    double a = ease(phase * 1.6 - 0.3);
    /* fan: each lane to the byte it starts at */
    for (int l = 0; l < VIZ_LANES; l++) {
        const viz_lane *ln = &st->lane[l];
        if (!ln->active)
            continue;
        SDL_Rect cs = viz_layout_sector_cell(p, m, n, ln->line_slot, ln->sector);
        uint64_t off = st->space == WS_SPACE_LOCAL ? (uint64_t)l * 4 % 32 : ln->addr % 32;
        fan_line(c, p, l, cs.x + (int)(off * (uint64_t)cs.w / 32) + 1, cs.y - 1, lane_rgb(l), n > 8 ? 80 : 150,
                 phase * 1.3);
    }
    uint64_t first = n ? st->lines[0].line : 0;
    int msh = viz_font_height(ms);
    for (int i = 0; i < n; i++) {
        const viz_line *ln = &st->lines[i];
        SDL_Rect c0 = viz_layout_sector_cell(p, m, n, i, 0);
        SDL_Rect c3 = viz_layout_sector_cell(p, m, n, i, 3);
        int lw = c3.x + c3.w - c0.x;
        if (i == 0 && st->space == WS_SPACE_GLOBAL)
            snprintf(buf, sizeof buf, "0x%" PRIx64, ln->line * 128);
        else if (i == 0)
            snprintf(buf, sizeof buf, "line %" PRIu64, ln->line);
        else
            snprintf(buf, sizeof buf, "+0x%" PRIx64, (ln->line - first) * 128);
        if (viz_layout_sector_labels(p, m, n)) {
            int tw = viz_text_width(ms, buf);
            fill(c, (SDL_Rect){c0.x - 1, c0.y - msh - 1, (tw < lw ? tw : lw) + 4, msh}, VIZ_RGB_PANEL, 255);
            text_fit(c, ms, c0.x + 1, c0.y - msh - 1, lw, VIZ_RGB_DIM, buf);
        }
        /* the 128-byte line frame behind its sectors */
        fill(c, (SDL_Rect){c0.x - 1, c0.y - 1, lw + 2, c0.h + 2}, VIZ_RGB_BORDER, 255);
        for (int k = 0; k < 4; k++) {
            SDL_Rect cs = viz_layout_sector_cell(p, m, n, i, k);
            viz_outcome o = (viz_outcome)ln->outcome[k];
            fill(c, cs, o == VIZ_OUT_NONE ? VIZ_RGB_EMPTY : ws_rgb_lerp(VIZ_RGB_EMPTY, viz_outcome_rgb(o), a), 255);
            if (o == VIZ_OUT_NONE)
                continue;
            /* bytes used, word by word, along the bottom */
            int sh = cs.h >= S(c, 20) ? S(c, 4) : 2;
            for (int wd = 0; wd < 8; wd++) {
                bool used = (ln->used[k] >> (wd * 4)) & 15u;
                SDL_Rect u = {cs.x + wd * cs.w / 8, cs.y + cs.h - sh, (wd + 1) * cs.w / 8 - wd * cs.w / 8, sh};
                fill(c, u, used ? 0xFFFFFFu : 0x0D1017u, used ? 150 : 200); /* dark = fetched, unused */
            }
            if (hv && hv->kind == VIZ_HIT_SECTOR && hv->line_slot == i && hv->sector == k)
                outline(c, cs, 0xFFFFFFu, 255);
            if (cs.h >= msh + sh + 2 && cs.w >= S(c, 26)) {
                char t[64];
                lane_list(ln->lanes[k], t, sizeof t);
                if (viz_text_width(ms, t) <= cs.w - 4)
                    text_center(c, ms, (SDL_Rect){cs.x, cs.y - (sh + 1) / 2, cs.w, cs.h}, 0x0D1017u, t);
            }
        }
    }
    static const uint32_t lrgb[] = {VIZ_RGB_L1, VIZ_RGB_L2, VIZ_RGB_DRAM, VIZ_RGB_WRITE, VIZ_RGB_TOUCHED,
                                    VIZ_RGB_EMPTY};
    static const char *const lname[] = {"L1 hit", "L2 hit", "DRAM", "written", "touched", "not touched"};
    draw_legend(c, p, lrgb, lname, lname, 6);
    const char *note = "128-B lines of four 32-B sectors; bar = bytes used";
    int nw = viz_text_width(c->f->sans_small, note);
    int need = nw + 12 * S(c, 10) * 6 + viz_text_width(c->f->sans_small, "L1 hitL2 hitDRAMwrittentouchednot touched");
    if (need <= p->grid.w)
        text_right(c, c->f->sans_small, p->grid.x + p->grid.w, p->grid.y + p->grid.h + S(c, 4), VIZ_RGB_DIM, note);
}

/* The question card that stands in for the memory panel while the learner predicts. */
static void draw_question(ctx *c, const viz_pane_layout *p, const viz_step *st)
{
    const viz_metrics *m = c->m;
    char q[200], g[64];
    bool sh = st->space == WS_SPACE_SHARED;
    snprintf(q, sizeof q, "%s %s, %u B per lane, %d lanes active: how many %s does it take?", space_word(st->space),
             op_word(st->op), st->width, __builtin_popcount(st->active_mask), sh ? "wavefronts" : "sectors");
    int x = p->mem.x + 2 * m->pad, w = p->mem.w - 4 * m->pad, y = p->mem.y + 2 * m->pad;
    int lh = viz_font_height(c->f->sans_big) + S(c, 4);
    int n = paragraph(c, c->f->sans_big, x, y, w, lh, 3, VIZ_RGB_TEXT, q, true);
    y += n * lh + m->pad;
    static const char *hint_sh = "Hint: bank = (byte offset / 4) % 32 (the lanes show each offset); a bank serves one "
                                 "4-byte word per wavefront, and lanes reading the same word share it.";
    static const char *hint_gl = "Hint: a sector is 32 aligned bytes; count the distinct sectors the active lanes' "
                                 "bytes fall in (the lanes show each address).";
    int sl = m->small_h;
    n = paragraph(c, c->f->sans_small, x, y, w, sl, 3, VIZ_RGB_DIM, sh ? hint_sh : hint_gl, true);
    y += n * sl + m->pad;
    snprintf(g, sizeof g, "your guess: %s_", c->s->quiz.guess);
    if (y + viz_font_height(c->f->sans_big) <= p->mem.y + p->mem.h - m->pad)
        text_fit(c, c->f->sans_big, x, y, w, VIZ_RGB_ACCENT, g);
    y += lh + m->pad;
    const viz_quiz *qz = &c->s->quiz;
    if (qz->have_last && y + sl <= p->mem.y + p->mem.h - m->pad) {
        bool ok = qz->last_guess == qz->last_answer;
        snprintf(q, sizeof q, "last step: you said %d, it took %d %s, %s \xC2\xB7 score %d of %d", qz->last_guess,
                 qz->last_answer, qz->last_shared ? "wavefronts" : "sectors", ok ? "right" : "not quite", qz->right,
                 qz->tries);
        text_fit(c, c->f->sans, x, y, w, ok ? VIZ_RGB_GOOD : VIZ_RGB_WARN, q);
    }
}

/* A bar of label and value v of full (clipped to it), in the memory panel at y. */
static int mbar_bar(ctx *c, const viz_pane_layout *p, int y, const char *label, double v, double full, uint32_t rgb)
{
    const viz_metrics *m = c->m;
    int x0 = p->mem.x + m->pad + 2, w = p->mem.w - 2 * m->pad - 4, h = S(c, 14);
    text_fit(c, c->f->sans_small, x0, y, w, VIZ_RGB_TEXT, label);
    y += viz_font_height(c->f->sans_small) + S(c, 3);
    fill(c, (SDL_Rect){x0, y, w, h}, VIZ_RGB_EMPTY, 255);
    double t = full > 0 ? v / full : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    if (t > 0)
        fill(c, (SDL_Rect){x0, y, (int)lround(w * t) > 1 ? (int)lround(w * t) : 1, h}, rgb, 255);
    return y + h + S(c, 8);
}

/* An mbarrier wait: whether the warp stalls, and the phase's arrivals and transaction bytes. */
static void draw_mbar_wait(ctx *c, const viz_pane_layout *p, const viz_step *st)
{
    char v[160], l1[160], l2[160];
    if (st->stalled)
        snprintf(v, sizeof v, "stalled: phase %u still open (%u wait%s so far)", st->mbar_phase, st->wait_tries,
                 st->wait_tries == 1 ? "" : "s");
    else if (st->stall_ended)
        snprintf(v, sizeof v, "passed after %u waits: the phase completed", st->wait_tries);
    else
        snprintf(v, sizeof v, "passed at once: the phase had completed");
    mem_title(c, p, st, v, st->stalled ? VIZ_RGB_STALL : VIZ_RGB_GOOD);
    int y = p->grid.y;
    snprintf(l1, sizeof l1, "mbarrier at shared 0x%" PRIx64 ": arrivals %u of %u", st->mbar, st->mbar_arrived,
             st->mbar_expected);
    y = mbar_bar(c, p, y, l1, st->mbar_arrived, st->mbar_expected, VIZ_RGB_ACCESS);
    uint64_t expect = st->mbar_tx_landed + (uint64_t)(st->mbar_tx > 0 ? st->mbar_tx : 0);
    snprintf(l2, sizeof l2, "expect_tx: %" PRIu64 " of %" PRIu64 " B landed (bulk copies / TMA)", st->mbar_tx_landed, expect);
    y = mbar_bar(c, p, y, l2, (double)st->mbar_tx_landed, (double)expect, VIZ_RGB_LANDED);
    text_fit(c, c->f->sans_small, p->mem.x + c->m->pad + 2, y, p->mem.w - 2 * c->m->pad - 4, VIZ_RGB_DIM,
             "the phase completes when every arrival is in and every expected byte has landed; the timeline "
             "shows the stall as a strip");
}

static void draw_mem(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps, double phase,
                     const viz_hit *hv)
{
    panel(c, p->mem, "mem", pane, NULL);
    if (!ps->step) {
        text(c, c->f->sans, p->mem.x + c->m->pad, p->mem.y + c->m->pad, VIZ_RGB_DIM, "nothing to show");
        return;
    }
    if (hidden(c, pane))
        draw_question(c, p, ps->step);
    else if (ps->step->what == VIZ_STEP_MBAR_WAIT)
        draw_mbar_wait(c, p, ps->step);
    else if (ps->step->space == WS_SPACE_SHARED)
        draw_banks(c, p, ps->step, phase, hv);
    else
        draw_sectors(c, p, ps->step, phase, hv);
}

/* ---- warp timeline ----------------------------------------------------------------------- */

static void draw_timeline(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_metrics *m = c->m;
    const viz_recording *rec = ps->rec;
    char l1[200], l2[160];
    const viz_step *st = ps->step;
    if (ps->scope == VIZ_SCOPE_KERNEL)
        snprintf(l1, sizeof l1, "WARP TIMELINE  blocks %u-%u \xC2\xB7 %zu steps in issue order \xC2\xB7 a row per warp "
                                "\xC2\xB7 click to jump", rec ? rec->first_block : 0,
                 rec ? rec->first_block + rec->num_blocks - 1 : 0, ps->tl_count);
    else
        snprintf(l1, sizeof l1, "WARP TIMELINE  block %u \xC2\xB7 %zu steps in issue order \xC2\xB7 a row per warp "
                                "\xC2\xB7 click to jump", st ? st->block_linear : ps->block_linear, ps->tl_count);
    snprintf(l2, sizeof l2, "TIMELINE  %zu steps", ps->tl_count);
    const char *cand[] = {l1, l2, "TIMELINE"};
    panel(c, p->timeline, "timeline", pane, pick(c->f->sans_small, p->timeline.w - 2 * m->pad - 4, cand, 3));
    if (!rec || !ps->tl_count)
        return;
    SDL_Rect pl = p->tl_plot;
    fill(c, pl, 0x10141Cu, 255);
    int rows = viz_timeline_rows(ps);
    const viz_font *ms = c->f->mono_small;
    int msh = viz_font_height(ms);
    /* row labels: as many warp numbers as fit */
    int every = 1;
    while (every < rows && (double)pl.h * every / rows < msh)
        every *= 2;
    uint32_t wpb = rec->warps_per_block ? rec->warps_per_block : 1;
    for (int r = 0; r < rows; r += every) {
        int y = pl.y + (int)((double)r * pl.h / rows);
        if (y + msh > pl.y + pl.h + msh / 2 || y + msh > p->timeline.y + p->timeline.h)
            break;
        char t[16];
        snprintf(t, sizeof t, ps->scope == VIZ_SCOPE_KERNEL ? "b%u" : "w%u",
                 ps->scope == VIZ_SCOPE_KERNEL ? rec->first_block + (uint32_t)r / wpb : (uint32_t)r);
        if (ps->scope == VIZ_SCOPE_KERNEL && r % (int)wpb)
            snprintf(t, sizeof t, "w%u", (uint32_t)r % wpb);
        if (viz_text_width(ms, t) <= pl.x - p->timeline.x - m->pad)
            text_right(c, ms, pl.x - S(c, 4), y, VIZ_RGB_DIM, t);
    }
    /* the selected warp's row, in warp scope */
    if (ps->scope == VIZ_SCOPE_WARP && rows > 0) {
        int y0 = pl.y + (int)((double)ps->warp * pl.h / rows), y1 = pl.y + (int)((double)(ps->warp + 1) * pl.h / rows);
        fill(c, (SDL_Rect){pl.x, y0, pl.w, y1 - y0 > 1 ? y1 - y0 : 1}, 0x1E3450u, 255);
    }
    bool hide = hidden(c, pane);
    SDL_Rect last = {-1, -1, 0, 0};
    uint32_t last_rgb = 0;
    for (size_t k = 0; k < ps->tl_count; k++) {
        const viz_step *s = &rec->steps[ps->tl[k]];
        SDL_Rect cell = viz_layout_timeline_cell(p, ps, k);
        bool later = hide && k >= ps->tl_pos;
        bool other = ps->scope == VIZ_SCOPE_WARP && s->warp != ps->warp;
        uint32_t rgb = later ? 0x3A4356u : viz_step_rgb(s);
        rgb = other ? ws_rgb_lerp(0x10141Cu, rgb, 0.45) : rgb;
        /* thousands of steps share a pixel column: draw each (column, row, colour) once */
        if (cell.x == last.x && cell.y == last.y && cell.w == last.w && rgb == last_rgb)
            continue;
        fill(c, cell, rgb, 255);
        last = cell;
        last_rgb = rgb;
    }
    /* mbarrier stalls: a strip along the warp's row from the wait that found the phase open to the
       wait that passed (or the end of the recording) */
    for (size_t k = 0; k < ps->tl_count; k++) {
        const viz_step *s = &rec->steps[ps->tl[k]];
        if (s->what != VIZ_STEP_MBAR_WAIT || !s->stalled || (hide && k >= ps->tl_pos))
            continue;
        size_t e = k + 1;
        while (e < ps->tl_count) {
            const viz_step *t = &rec->steps[ps->tl[e]];
            if (t->what == VIZ_STEP_MBAR_WAIT && t->stall_ended && t->stall_seq == s->seq &&
                t->block_linear == s->block_linear && t->warp == s->warp)
                break;
            e++;
        }
        SDL_Rect a = viz_layout_timeline_cell(p, ps, k), b = viz_layout_timeline_cell(p, ps, e < ps->tl_count ? e : ps->tl_count - 1);
        int h = a.h / 3 > 1 ? a.h / 3 : 1;
        fill(c, (SDL_Rect){a.x, a.y + (a.h - h) / 2, b.x + b.w - a.x > 1 ? b.x + b.w - a.x : 1, h}, VIZ_RGB_STALL, 200);
    }
    if (ps->tl_pos < ps->tl_count) {
        SDL_Rect cell = viz_layout_timeline_cell(p, ps, ps->tl_pos);
        int mw = S(c, 2) > 1 ? S(c, 2) : 1;
        fill(c, (SDL_Rect){cell.x + cell.w / 2 - mw / 2, pl.y, mw, pl.h}, 0xFFFFFFu, 255);
        outline(c, (SDL_Rect){cell.x - 1, cell.y - 1, cell.w + 2, cell.h + 2}, 0xFFFFFFu, 255);
    }
}

/* ---- totals and throughput ----------------------------------------------------------- */

/* The totals table: columns dropped (ideal, requests, launch, efficiency) until it fits. */
static void draw_totals(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_metrics *m = c->m;
    const viz_font *fs = c->f->sans_small, *mono = c->f->mono_small, *fn = c->f->sans_small;
    int w = p->totals.w - 2 * m->pad - 4, x0 = p->totals.x + m->pad + 2;
    /* where the launch column comes from (viz_totals.h) and where "so far" starts */
    const viz_recording *rec = ps->rec;
    char launch_of[96] = "", so_far[48] = "so far", caps_buf[3][200];
    if (rec && rec->totals_state == VIZ_TOTALS_SAMPLED)
        snprintf(launch_of, sizeof launch_of, ", sampled (%.60s)", rec->totals_note + (strncmp(rec->totals_note, "sampled: ", 9) ? 0 : 9));
    else if (rec && rec->totals_state == VIZ_TOTALS_PENDING)
        snprintf(launch_of, sizeof launch_of, ": simulating\xE2\x80\xA6");
    else if (rec && rec->totals_state == VIZ_TOTALS_FAILED)
        snprintf(launch_of, sizeof launch_of, ": failed");
    if (rec && rec->warm_partial)
        snprintf(so_far, sizeof so_far, "so far from block %u", rec->warm_first);
    snprintf(caps_buf[0], sizeof caps_buf[0], "RUNNING TOTALS  %s \xC2\xB7 last column: the whole launch%s", so_far, launch_of);
    snprintf(caps_buf[1], sizeof caps_buf[1], "TOTALS  %s \xC2\xB7 launch%s", so_far, launch_of);
    snprintf(caps_buf[2], sizeof caps_buf[2], "TOTALS  %s \xC2\xB7 launch%s", so_far,
             !rec || rec->totals_state == VIZ_TOTALS_FULL ? "" : rec->totals_state == VIZ_TOTALS_SAMPLED ? " sampled" : "\xE2\x80\xA6");
    const char *const caps[] = {caps_buf[0], caps_buf[1], caps_buf[2], "TOTALS"};
    panel(c, p->totals, "totals", pane, pick(fs, w, caps, 4));
    if (!ps->rec)
        return;
    if (hidden(c, pane)) {
        text_fit(c, fs, x0, p->totals.y + m->cap_h, w, VIZ_RGB_DIM, "hidden until you answer");
        return;
    }
    const viz_totals *t = ps->step ? &ps->step->totals : NULL;
    const viz_totals *L = &ps->rec->launch;
    enum { C_NAME, C_REQ, C_UNITS, C_IDEAL, C_EFF, C_LAUNCH, NC };
    static const char *const hd[NC] = {"", "requests", "sect./wavef.", "ideal", "efficiency", "launch"};
    static const char *const hs[NC] = {"", "req.", "sect/wf", "ideal", "eff.", "launch"};
    char cellv[VIZ_CAT_COUNT][NC][32];
    uint32_t cellrgb[VIZ_CAT_COUNT];
    int cats[VIZ_CAT_COUNT], nc = 0;
    for (int k = 0; k < VIZ_CAT_COUNT; k++) {
        if (!L->cat[k].requests && !(t && t->cat[k].requests))
            continue;
        const viz_counter *v = t ? &t->cat[k] : NULL;
        snprintf(cellv[nc][C_NAME], 32, "%s", viz_cat_name((viz_cat)k));
        cellv[nc][C_REQ][0] = cellv[nc][C_UNITS][0] = cellv[nc][C_IDEAL][0] = cellv[nc][C_EFF][0] = 0;
        cellrgb[nc] = VIZ_RGB_DIM;
        if (v) {
            num(cellv[nc][C_REQ], 32, v->requests);
            num(cellv[nc][C_UNITS], 32, v->units);
            num(cellv[nc][C_IDEAL], 32, v->ideal);
            if (v->units) {
                double pct = 100.0 * (double)v->ideal / (double)v->units;
                snprintf(cellv[nc][C_EFF], 32, "%ld%%", lround(pct));
                cellrgb[nc] = eff_rgb(pct);
            }
        }
        if (ps->rec->totals_state == VIZ_TOTALS_PENDING || ps->rec->totals_state == VIZ_TOTALS_FAILED)
            snprintf(cellv[nc][C_LAUNCH], 32, "%s", ps->rec->totals_state == VIZ_TOTALS_PENDING ? "\xE2\x80\xA6" : "-");
        else
            num(cellv[nc][C_LAUNCH], 32, L->cat[k].units);
        cats[nc++] = k;
    }
    /* widths, then drop columns by priority until the table fits */
    int cw[NC], gapw = S(c, 12);
    bool on[NC];
    bool shorth = false;
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < NC; j++) {
            cw[j] = j ? viz_text_width(fs, (pass ? hs : hd)[j]) : 0;
            for (int i = 0; i < nc; i++) {
                int tw = viz_text_width(j ? mono : fn, cellv[i][j]);
                cw[j] = tw > cw[j] ? tw : cw[j];
            }
            on[j] = true;
        }
        int sum = 0;
        for (int j = 0; j < NC; j++)
            sum += cw[j] + (j ? gapw : 0);
        if (sum <= w || pass == 1) {
            shorth = pass == 1;
            break;
        }
    }
    static const int drop[] = {C_IDEAL, C_REQ, C_LAUNCH, C_EFF};
    for (int d = 0; d < 4; d++) {
        int sum = 0;
        for (int j = 0; j < NC; j++)
            if (on[j])
                sum += cw[j] + (j ? gapw : 0);
        if (sum <= w)
            break;
        on[drop[d]] = false;
    }
    int sum = 0;
    for (int j = 0; j < NC; j++)
        if (on[j])
            sum += cw[j] + (j ? gapw : 0);
    int extra = sum < w ? (w - sum) : 0, non = 0;
    for (int j = 1; j < NC; j++)
        non += on[j];
    int xr[NC], x = x0 + cw[C_NAME];
    xr[C_NAME] = x0;
    for (int j = 1; j < NC; j++)
        if (on[j]) {
            x += gapw + cw[j] + (non ? extra / non : 0);
            xr[j] = x;
        }
    int y = p->totals.y + m->cap_h;
    int ybot = p->totals.y + p->totals.h - m->pad / 2 - m->small_h; /* the footer row */
    for (int j = 1; j < NC; j++)
        if (on[j])
            text_right(c, fs, xr[j], y, VIZ_RGB_DIM, (shorth ? hs : hd)[j]);
    y += m->small_h;
    int rows = 0;
    for (int i = 0; i < nc; i++) {
        if (y + m->small_h > ybot)
            break;
        if (cw[C_NAME] <= w)
            text(c, fn, x0, y, VIZ_RGB_TEXT, cellv[i][C_NAME]);
        for (int j = 1; j < NC; j++)
            if (on[j] && cellv[i][j][0])
                text_right(c, mono, xr[j], y + 1,
                           j == C_EFF ? cellrgb[i] : j == C_IDEAL || j == C_LAUNCH ? VIZ_RGB_DIM : VIZ_RGB_TEXT,
                           cellv[i][j]);
        y += m->small_h;
        rows++;
        (void)cats;
    }
    if (!rows && !nc)
        text(c, fn, x0, y, VIZ_RGB_DIM, "no memory instructions");
    if (t) {
        char buf[200], n1[32], n2[32], n3[32];
        uint64_t lookups = t->l1_hit_sectors + t->l2_hit_sectors + t->dram_sectors;
        if (lookups + t->write_sectors)
            snprintf(buf, sizeof buf, "sectors: L1 hit %.0f%% \xC2\xB7 L2 hit %s \xC2\xB7 from DRAM %s \xC2\xB7 written %s",
                     lookups ? 100.0 * (double)t->l1_hit_sectors / (double)lookups : 0.0,
                     num(n1, sizeof n1, t->l2_hit_sectors), num(n2, sizeof n2, t->dram_sectors),
                     num(n3, sizeof n3, t->write_sectors));
        else
            snprintf(buf, sizeof buf, "%s warp-level memory instructions so far", num(n1, sizeof n1, t->instructions));
        if (ybot >= y)
            text_fit(c, fs, x0, ybot, w, VIZ_RGB_DIM, buf);
    }
}

static void human_bytes(char *out, size_t cap, double b)
{
    if (b >= 1e9)
        snprintf(out, cap, "%.3g GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(out, cap, "%.3g MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(out, cap, "%.3g kB", b / 1e3);
    else
        snprintf(out, cap, "%.0f B", b);
}

static void draw_throughput(ctx *c, int pane, const viz_pane_layout *p, const viz_pane_state *ps)
{
    const viz_metrics *m = c->m;
    const viz_font *fs = c->f->sans_small, *ms = c->f->mono_small;
    static const char *const caps[] = {"THROUGHPUT  effective GB/s (1 GB = 1e9 B)", "THROUGHPUT  GB/s", "GB/s"};
    int x = p->throughput.x + m->pad + 2, w = p->throughput.w - 2 * m->pad - 4;
    panel(c, p->throughput, "throughput", pane, pick(fs, w, caps, 3));
    if (!ps->rec)
        return;
    const viz_throughput *tp = &ps->rec->tp;
    int y = p->throughput.y + m->cap_h, ybot = p->throughput.y + p->throughput.h - m->pad / 2;
    char para[3][400];
    int np = 0;
    if (tp->gpu[0]) {
        /* what the measurement is (its size, its time and the launch's share of it) first:
         * it is the line that survives a small panel */
        char mv[32] = "", run[400];
        if (tp->bytes_moved > 0)
            human_bytes(mv, sizeof mv, tp->bytes_moved);
        int n = snprintf(run, sizeof run, "%s%sat %s", mv, mv[0] ? " " : "",
                         tp->overrides[0] ? tp->overrides : "the defaults");
        if (tp->measured_us > 0 && n > 0)
            n += snprintf(run + n, sizeof run - (size_t)n, ": %.3g us", tp->measured_us);
        if (tp->measured_us > 0 && tp->launch_us > 0 && n > 0) {
            double frac = tp->launch_us / tp->measured_us;
            snprintf(run + n, sizeof run - (size_t)n, ", of it about %.2g us (%.0f%%) launch overhead%s", tp->launch_us,
                     100.0 * (frac > 1 ? 1 : frac), frac > 0.3 ? " \xC2\xB7 launch-bound: try a larger size" : "");
        }
        snprintf(para[np++], sizeof para[0], "%s", run);
        snprintf(para[np++], sizeof para[0], "%s \xC2\xB7 %s \xC2\xB7 %s", tp->gpu, tp->date, tp->source);
        if (tp->launch_us > 0)
            snprintf(para[np++], sizeof para[0], "launch overhead = the %s (docs/timing-model.md); ceiling = "
                                                 "cuMemcpyDtoD in the same run", tp->launch_basis);
    } else {
        snprintf(para[np++], sizeof para[0], "no GPU measurement recorded for this kernel (make gpu-test records one)");
    }
    /* the bars need at least one small row each: drop trailing paragraphs until they fit */
    int sl = m->small_h, need_bars = 3 * (sl + S(c, 2));
    int lines[3] = {0}, total = 0;
    for (int i = 0; i < np; i++) {
        lines[i] = paragraph(c, fs, x, 0, w, sl, 3, VIZ_RGB_TEXT, para[i], false);
        total += lines[i];
    }
    while (np > 1 && y + total * sl + need_bars > ybot)
        total -= lines[--np];
    while (lines[0] > 1 && y + total * sl + need_bars > ybot) { /* the first paragraph, shortened */
        lines[0]--;
        total--;
    }
    for (int i = 0; i < np; i++) {
        paragraph(c, fs, x, y, w, sl, lines[i], i == 0 ? VIZ_RGB_TEXT : VIZ_RGB_DIM, para[i], true);
        y += lines[i] * sl;
    }
    y += S(c, 2);
    char cl[64];
    if (tp->copy_bytes > 0) {
        char b[32];
        human_bytes(b, sizeof b, tp->copy_bytes);
        snprintf(cl, sizeof cl, "copy ceiling (%s)", b);
    } else {
        snprintf(cl, sizeof cl, "copy ceiling");
    }
    const char *names[3] = {"measured", cl, "predicted (sim)"};
    double v[3] = {tp->measured_gbs, tp->copy_gbs, tp->predicted_gbs};
    uint32_t rgb[3] = {VIZ_RGB_GOOD, 0x8C96AAu, VIZ_RGB_ACCENT};
    double mx = 1;
    for (int i = 0; i < 3; i++)
        if (v[i] > mx)
            mx = v[i];
    int lab = 0;
    for (int i = 0; i < 3; i++) {
        int tw = viz_text_width(fs, names[i]);
        lab = tw > lab ? tw : lab;
    }
    lab += S(c, 8);
    if (lab > w / 2) { /* a narrow panel: the short names */
        names[1] = "ceiling";
        names[2] = "predicted";
        lab = viz_text_width(fs, "predicted") + S(c, 8);
    }
    int bh = (ybot - y) / 3;
    int bmax = S(c, 26);
    bh = bh > bmax ? bmax : bh;
    if (bh < viz_font_height(ms))
        return;
    for (int i = 0; i < 3; i++) {
        int yy = y + i * bh;
        text(c, fs, x, yy + (bh - viz_font_height(fs)) / 2, VIZ_RGB_DIM, names[i]);
        int bw = w - lab;
        int inset = bh >= viz_font_height(ms) + 4 ? 2 : 0;
        SDL_Rect bar = {x + lab, yy + inset, bw, bh - 2 * inset};
        fill(c, bar, VIZ_RGB_EMPTY, 255);
        char buf[32];
        int ty = bar.y + (bar.h - viz_font_height(ms)) / 2;
        if (v[i] >= 0) {
            int len = (int)(bw * v[i] / mx);
            fill(c, (SDL_Rect){bar.x, bar.y, len, bar.h}, rgb[i], 255);
            snprintf(buf, sizeof buf, "%.0f", v[i]);
            int tw = viz_text_width(ms, buf);
            if (len >= tw + S(c, 8))
                text(c, ms, bar.x + S(c, 4), ty, 0x0D1017u, buf);
            else if (bar.x + len + S(c, 4) + tw <= x + w)
                text(c, ms, bar.x + len + S(c, 4), ty, VIZ_RGB_TEXT, buf);
        } else {
            text(c, ms, bar.x + S(c, 4), ty, VIZ_RGB_DIM, "unknown");
        }
    }
}

/* ---- overlays -------------------------------------------------------------------------- */

static void draw_tooltip(ctx *c, const viz_hit *h)
{
    const viz_state *s = c->s;
    const viz_layout *L = c->L;
    const viz_pane_state *ps = &s->pane[h->pane];
    const viz_step *st = ps->step;
    char lines[5][160];
    int n = 0;
    if (h->kind == VIZ_HIT_SOURCE || h->kind == VIZ_HIT_HEAT) {
        snprintf(lines[n++], sizeof lines[0], "line %d: click to jump to its next memory instruction", h->src_line);
    } else if (h->kind == VIZ_HIT_TIMELINE && h->tl_pos < ps->tl_count) {
        const viz_step *t = &ps->rec->steps[ps->tl[h->tl_pos]];
        snprintf(lines[n++], sizeof lines[0], "step %zu of the timeline \xC2\xB7 block %u warp %u \xC2\xB7 line %d",
                 h->tl_pos + 1, t->block_linear, t->warp, t->src_line);
        if (!hidden(c, h->pane) || h->tl_pos < ps->tl_pos)
            snprintf(lines[n++], sizeof lines[0], "%s %s \xC2\xB7 %d %s", space_word(t->space), op_word(t->op),
                     viz_step_answer(t), viz_step_unit(t));
        snprintf(lines[n++], sizeof lines[0], "click to jump there");
    } else if (hidden(c, h->pane)) {
        return;
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
        uint32_t mk = 0;
        for (int l = 0; l < VIZ_LANES; l++) {
            const viz_lane *ln = &st->lane[l];
            if (ln->active && ln->addr / 4 <= off / 4 && off / 4 < ln->addr / 4 + ln->nwords)
                mk |= 1u << l;
        }
        lane_list(mk, ls, sizeof ls);
        snprintf(lines[n++], sizeof lines[0], "bank %d \xC2\xB7 shared offset 0x%" PRIx64 " (word %" PRIu64 ")",
                 h->bank, off, off / 4);
        snprintf(lines[n++], sizeof lines[0], "lanes: %s", mk ? ls : "none");
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
    const viz_font *fs = c->f->sans_small;
    int w = 0, lh = c->m->small_h + S(c, 1);
    for (int i = 0; i < n; i++) {
        int tw = viz_text_width(fs, lines[i]);
        w = tw > w ? tw : w;
    }
    int pd = c->m->pad + 2;
    if (w > L->w - 2 * pd - 8)
        w = L->w - 2 * pd - 8;
    SDL_Rect box = {s->mouse_x + S(c, 16), s->mouse_y + S(c, 16), w + 2 * pd, n * lh + 2 * S(c, 6)};
    if (box.x + box.w > L->w - 4)
        box.x = s->mouse_x - box.w - S(c, 8);
    if (box.y + box.h > L->h - 4)
        box.y = s->mouse_y - box.h - S(c, 8);
    box.x = box.x < 4 ? 4 : box.x;
    box.y = box.y < 4 ? 4 : box.y;
    log_panel(c, box, "tooltip", h->pane, true);
    fill_round(c, box, S(c, 6), 0x4A5A78u, 255);
    fill_round(c, (SDL_Rect){box.x + 1, box.y + 1, box.w - 2, box.h - 2}, S(c, 5), 0x1B2230u, 255);
    for (int i = 0; i < n; i++)
        text_fit(c, fs, box.x + pd, box.y + S(c, 6) + i * lh, w, i ? VIZ_RGB_TEXT : VIZ_RGB_ACCENT, lines[i]);
}

static void draw_help(ctx *c)
{
    const viz_layout *L = c->L;
    const viz_fonts *f = c->f;
    fill(c, (SDL_Rect){0, 0, L->w, L->h}, 0x05070Bu, 190);
    int kw = 0, ww = 0;
    for (int i = 0; i < viz_nkeys; i++) {
        int a = viz_text_width(f->mono, viz_keys[i].keys), b = viz_text_width(f->sans, viz_keys[i].what);
        kw = a > kw ? a : kw;
        ww = b > ww ? b : ww;
    }
    static const char *foot[] = {"Shared: banks across, 4-byte words down; red cells share a bank with another word.",
                                 "Global/local: 128-B lines of four 32-B sectors, coloured by where the data came from.",
                                 "Heat map: sectors + wavefronts of each source line over the whole launch; red = costliest."};
    int fw = 0;
    for (int i = 0; i < 3; i++) {
        int a = viz_text_width(f->sans_small, foot[i]);
        fw = a > fw ? a : fw;
    }
    int pd = S(c, 24), rh = viz_font_height(f->sans) + S(c, 7);
    int w = pd + kw + S(c, 24) + ww + pd;
    w = fw + 2 * pd > w ? fw + 2 * pd : w;
    w = w > L->w - 16 ? L->w - 16 : w;
    int hh = pd + viz_font_height(f->sans_big) + S(c, 14) + viz_nkeys * rh + S(c, 8) + 3 * c->m->small_h + pd;
    hh = hh > L->h - 16 ? L->h - 16 : hh;
    SDL_Rect box = {(L->w - w) / 2, (L->h - hh) / 2, w, hh};
    log_panel(c, box, "help", -1, true);
    fill_round(c, box, S(c, 10), VIZ_RGB_ACCENT, 255);
    fill_round(c, (SDL_Rect){box.x + 1, box.y + 1, box.w - 2, box.h - 2}, S(c, 9), 0x151A23u, 255);
    text(c, f->sans_big, box.x + pd, box.y + pd - S(c, 6), VIZ_RGB_TEXT, "Keys");
    int y0 = box.y + pd + viz_font_height(f->sans_big) + S(c, 8);
    int wx = box.x + pd + kw + S(c, 24), wmax = box.x + box.w - pd - wx;
    for (int i = 0; i < viz_nkeys; i++) {
        int y = y0 + i * rh;
        fill_round(c, (SDL_Rect){box.x + pd, y - 2, kw + S(c, 14), rh - S(c, 3)}, S(c, 4), 0x232B3Au, 255);
        text(c, f->mono, box.x + pd + S(c, 7), y, VIZ_RGB_ACCENT, viz_keys[i].keys);
        text_fit(c, f->sans, wx, y, wmax, VIZ_RGB_TEXT, viz_keys[i].what);
    }
    int y = y0 + viz_nkeys * rh + S(c, 6);
    for (int i = 0; i < 3; i++)
        if (y + (i + 1) * c->m->small_h <= box.y + box.h - S(c, 6))
            text_fit(c, f->sans_small, box.x + pd, y + i * c->m->small_h, box.w - 2 * pd, VIZ_RGB_DIM, foot[i]);
}

void viz_render_frame(SDL_Renderer *r, const viz_fonts *f, const viz_state *s)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(r, &w, &h);
    viz_layout L;
    viz_layout_compute(w, h, s->npanes, f, &L);
    ctx c = {.r = r, .f = f, .s = s, .L = &L, .m = &L.m, .log = s->log, .panel = -1};
    if (c.log)
        memset(c.log, 0, sizeof *c.log);
    set_rgb(r, VIZ_RGB_BG, 255);
    SDL_RenderClear(r);
    viz_hit hv = {.kind = VIZ_HIT_NONE};
    if (s->mouse_in && !s->show_help)
        hv = viz_hit_test(&L, s, s->mouse_x, s->mouse_y);
    draw_title(&c);
    for (int i = 0; i < L.npanes; i++) {
        const viz_pane_layout *p = &L.pane[i];
        const viz_pane_state *ps = &s->pane[i];
        const viz_hit *hh = hv.kind != VIZ_HIT_NONE && hv.pane == i ? &hv : NULL;
        draw_header(&c, i, p, ps);
        draw_source(&c, i, p, ps);
        draw_heat(&c, i, p, ps);
        draw_ptx(&c, i, p, ps);
        draw_lanes(&c, i, p, ps, hh && hh->kind == VIZ_HIT_LANE ? hh->lane : -1);
        draw_mem(&c, i, p, ps, s->phase, hh);
        draw_timeline(&c, i, p, ps);
        draw_totals(&c, i, p, ps);
        draw_throughput(&c, i, p, ps);
    }
    draw_status(&c);
    if (hv.kind != VIZ_HIT_NONE)
        draw_tooltip(&c, &hv);
    if (s->show_help)
        draw_help(&c);
}
