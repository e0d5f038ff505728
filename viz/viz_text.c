/* viz_text.c - fontconfig lookup and glyph atlases. Each font size is rendered once:
 * every glyph the visualizer uses (ASCII, Latin-1 and a few symbols) is drawn white and
 * anti-aliased (TTF_RenderGlyph32_Blended) into one texture; text is then a run of
 * textured copies tinted with SDL_SetTextureColorMod. Kerning is not applied (the UI
 * is mostly monospace and numbers), which keeps drawing a table lookup per glyph. */
#include "viz_text.h"

#include <fontconfig/fontconfig.h>
#include <SDL_ttf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Codepoints beyond Latin-1 the UI draws; their glyphs follow the 224 Latin ones. */
static const uint32_t extra_cp[] = {0x2026, 0x2192, 0x2190, 0x2191, 0x2193, 0x2014, 0x2013,
                                    0x2264, 0x2265, 0x25B6, 0x25CF, 0x2248, 0x2016, 0x21BA};
#define NLATIN 224 /* 32..255 */
#define NEXTRA (int)(sizeof extra_cp / sizeof extra_cp[0])
#define NGLYPH (NLATIN + NEXTRA)

typedef struct {
    SDL_Rect src;   /* in the atlas; w == 0: glyph missing */
    int advance;
} glyph;

struct viz_font {
    SDL_Texture *atlas;
    int height, ascent;
    glyph g[NGLYPH];
};

int viz_font_find(const char *pattern, char *path, size_t cap, char *err, size_t errcap)
{
    const char *env = getenv("WARPSCOPE_FONT");
    if (env && *env) {
        if (access(env, R_OK) != 0) {
            snprintf(err, errcap, "WARPSCOPE_FONT=%s: cannot read that font file", env);
            return -1;
        }
        snprintf(path, cap, "%s", env);
        return 0;
    }
    if (!FcInit()) {
        snprintf(err, errcap, "fontconfig failed to initialise; install fontconfig and "
                              "fonts-dejavu-core, or set WARPSCOPE_FONT to a .ttf file");
        return -1;
    }
    FcPattern *pat = FcNameParse((const FcChar8 *)pattern);
    if (!pat) {
        snprintf(err, errcap, "fontconfig cannot parse the font pattern '%s'", pattern);
        return -1;
    }
    FcPatternAddBool(pat, FC_SCALABLE, FcTrue);
    FcConfigSubstitute(NULL, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(NULL, pat, &res);
    FcPatternDestroy(pat);
    FcChar8 *file = NULL;
    int rc = -1;
    if (m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch && file &&
        access((const char *)file, R_OK) == 0) {
        snprintf(path, cap, "%s", (const char *)file);
        rc = 0;
    } else {
        snprintf(err, errcap, "no font found through fontconfig for '%s' (is any font "
                              "installed? try: apt-get install fonts-dejavu-core; or set "
                              "WARPSCOPE_FONT to a .ttf file)", pattern);
    }
    if (m)
        FcPatternDestroy(m);
    return rc;
}

static int glyph_index(uint32_t cp)
{
    if (cp >= 32 && cp < 256)
        return (int)cp - 32;
    for (int i = 0; i < NEXTRA; i++)
        if (extra_cp[i] == cp)
            return NLATIN + i;
    return '?' - 32;
}

static uint32_t glyph_cp(int i)
{
    return i < NLATIN ? (uint32_t)(i + 32) : extra_cp[i - NLATIN];
}

static viz_font *font_open(SDL_Renderer *r, const char *path, int px, char *err, size_t errcap)
{
    TTF_Font *tf = TTF_OpenFont(path, px);
    if (!tf) {
        snprintf(err, errcap, "%s: cannot open font: %s", path, TTF_GetError());
        return NULL;
    }
    TTF_SetFontHinting(tf, TTF_HINTING_LIGHT);
    viz_font *f = calloc(1, sizeof *f);
    SDL_Surface *glyphs[NGLYPH] = {0};
    SDL_Surface *atlas = NULL;
    if (!f)
        goto fail;
    f->height = TTF_FontHeight(tf);
    f->ascent = TTF_FontAscent(tf);
    /* pack rows into a 1024-wide atlas */
    const int aw = 1024;
    int x = 0, y = 0, rowh = 0;
    SDL_Color white = {255, 255, 255, 255};
    for (int i = 0; i < NGLYPH; i++) {
        uint32_t cp = glyph_cp(i);
        int minx, maxx, miny, maxy, adv;
        if (!TTF_GlyphIsProvided32(tf, cp) ||
            TTF_GlyphMetrics32(tf, cp, &minx, &maxx, &miny, &maxy, &adv) != 0)
            continue;
        f->g[i].advance = adv;
        if (cp == ' ' || cp == 0xA0)
            continue;
        glyphs[i] = TTF_RenderGlyph32_Blended(tf, cp, white);
        if (!glyphs[i])
            continue;
        if (x + glyphs[i]->w > aw) {
            x = 0;
            y += rowh + 1;
            rowh = 0;
        }
        f->g[i].src = (SDL_Rect){x, y, glyphs[i]->w, glyphs[i]->h};
        x += glyphs[i]->w + 1;
        if (glyphs[i]->h > rowh)
            rowh = glyphs[i]->h;
    }
    atlas = SDL_CreateRGBSurfaceWithFormat(0, aw, y + rowh + 1, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!atlas)
        goto fail;
    SDL_FillRect(atlas, NULL, 0);
    for (int i = 0; i < NGLYPH; i++) {
        if (!glyphs[i])
            continue;
        SDL_SetSurfaceBlendMode(glyphs[i], SDL_BLENDMODE_NONE); /* copy alpha as is */
        SDL_Rect d = f->g[i].src;
        SDL_BlitSurface(glyphs[i], NULL, atlas, &d);
    }
    f->atlas = SDL_CreateTextureFromSurface(r, atlas);
    if (!f->atlas)
        goto fail;
    SDL_SetTextureBlendMode(f->atlas, SDL_BLENDMODE_BLEND);
    for (int i = 0; i < NGLYPH; i++)
        SDL_FreeSurface(glyphs[i]);
    SDL_FreeSurface(atlas);
    TTF_CloseFont(tf);
    return f;
fail:
    snprintf(err, errcap, "%s: cannot build the glyph atlas: %s", path, SDL_GetError());
    for (int i = 0; i < NGLYPH; i++)
        SDL_FreeSurface(glyphs[i]);
    SDL_FreeSurface(atlas);
    free(f);
    TTF_CloseFont(tf);
    return NULL;
}

static void font_close(viz_font *f)
{
    if (!f)
        return;
    if (f->atlas)
        SDL_DestroyTexture(f->atlas);
    free(f);
}

double viz_font_scale_for(int w, int h)
{
    double k = (double)w / 1280.0 < (double)h / 800.0 ? (double)w / 1280.0 : (double)h / 800.0;
    return k < 0.85 ? 0.85 : k > 3.0 ? 3.0 : k;
}

static int px(double base, double scale)
{
    int p = (int)(base * scale + 0.5);
    return p < 7 ? 7 : p;
}

int viz_fonts_open(SDL_Renderer *r, double scale, viz_fonts *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (!(scale >= 0.5 && scale <= 4.0)) {
        snprintf(err, errcap, "font scale %g is outside 0.5..4", scale);
        return -1;
    }
    out->scale = scale;
    if (!TTF_WasInit() && TTF_Init() != 0) {
        snprintf(err, errcap, "SDL2_ttf failed to initialise: %s", TTF_GetError());
        return -1;
    }
    char mono[1024], sans[1024], bold[1024];
    if (viz_font_find("DejaVu Sans Mono,monospace", mono, sizeof mono, err, errcap) ||
        viz_font_find("DejaVu Sans,sans-serif", sans, sizeof sans, err, errcap))
        return -1;
    if (viz_font_find("DejaVu Sans,sans-serif:bold", bold, sizeof bold, err, errcap))
        snprintf(bold, sizeof bold, "%s", sans);
    if (!(out->mono = font_open(r, mono, px(13, scale), err, errcap)) ||
        !(out->mono_small = font_open(r, mono, px(10, scale), err, errcap)) ||
        !(out->sans = font_open(r, sans, px(13, scale), err, errcap)) ||
        !(out->sans_small = font_open(r, sans, px(11, scale), err, errcap)) ||
        !(out->sans_big = font_open(r, bold, px(17, scale), err, errcap))) {
        viz_fonts_close(out);
        return -1;
    }
    return 0;
}

void viz_fonts_close(viz_fonts *f)
{
    font_close(f->mono);
    font_close(f->mono_small);
    font_close(f->sans);
    font_close(f->sans_small);
    font_close(f->sans_big);
    memset(f, 0, sizeof *f);
    FcFini(); /* drop fontconfig's caches: nothing else in warpscope uses it */
}

int viz_font_height(const viz_font *f)
{
    return f->height;
}

/* Decodes one UTF-8 codepoint; bad bytes come back as '?' one byte at a time. */
static uint32_t next_cp(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t c = s[0];
    int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (n < 0) {
        (*p)++;
        return '?';
    }
    if (n > 0)
        c &= 0x3Fu >> n;
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p += i;
            return '?';
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    *p += n + 1;
    return c;
}

int viz_font_advance(const viz_font *f, unsigned cp)
{
    return f->g[glyph_index(cp)].advance;
}

int viz_text_width(const viz_font *f, const char *s)
{
    int w = 0;
    while (*s)
        w += f->g[glyph_index(next_cp(&s))].advance;
    return w;
}

int viz_text_draw(SDL_Renderer *r, const viz_font *f, int x, int y, SDL_Color c, const char *s)
{
    SDL_SetTextureColorMod(f->atlas, c.r, c.g, c.b);
    SDL_SetTextureAlphaMod(f->atlas, c.a);
    while (*s) {
        const glyph *g = &f->g[glyph_index(next_cp(&s))];
        if (g->src.w) {
            SDL_Rect d = {x, y, g->src.w, g->src.h};
            SDL_RenderCopy(r, f->atlas, &g->src, &d);
        }
        x += g->advance;
    }
    return x;
}

int viz_text_draw_fit(SDL_Renderer *r, const viz_font *f, int x, int y, int maxw, SDL_Color c,
                      const char *s)
{
    if (viz_text_width(f, s) <= maxw)
        return viz_text_draw(r, f, x, y, c, s);
    const char *ell = "\xE2\x80\xA6";
    int budget = maxw - viz_text_width(f, ell);
    char buf[512];
    size_t n = 0;
    int w = 0;
    const char *p = s;
    while (*p && n + 4 < sizeof buf) {
        const char *q = p;
        int gw = f->g[glyph_index(next_cp(&q))].advance;
        if (w + gw > budget)
            break;
        memcpy(buf + n, p, (size_t)(q - p));
        n += (size_t)(q - p);
        w += gw;
        p = q;
    }
    memcpy(buf + n, ell, 4);
    return viz_text_draw(r, f, x, y, c, buf);
}
