/* viz_text.h - anti-aliased text for the visualizer: system fonts found through
 * fontconfig, each size rasterised once by SDL2_ttf into a glyph atlas texture, then
 * drawn glyph by glyph with a colour modulation (cheap enough for 60 fps in software).
 * Invariant: a viz_font belongs to the SDL_Renderer it was opened with. */
#ifndef VIZ_TEXT_H
#define VIZ_TEXT_H

#include <stddef.h>
#include <SDL.h>

typedef struct viz_font viz_font;

typedef struct {
    viz_font *mono;       /* source, PTX, numbers */
    viz_font *mono_small; /* cell labels */
    viz_font *sans;       /* labels */
    viz_font *sans_small;
    viz_font *sans_big;   /* headlines */
    double scale;         /* 1 = 13-px monospace; every size scales with it */
} viz_fonts;

/* The font scale a w x h window gets: 1 at 1280x800, following the smaller of the two
 * ratios, from 0.85 (1024x768) to 3 (4K and beyond). */
double viz_font_scale_for(int w, int h);

/* Finds a font file for a fontconfig pattern ("monospace", "DejaVu Sans:bold") and
 * checks it can be read. $WARPSCOPE_FONT (a .ttf path) overrides every pattern.
 * Returns 0, or -1 with a message naming the pattern and the package to install. */
int viz_font_find(const char *pattern, char *path, size_t cap, char *err, size_t errcap);

/* Opens the visualizer's fonts on r at a scale (TTF_Init is done here when needed). */
int viz_fonts_open(SDL_Renderer *r, double scale, viz_fonts *out, char *err, size_t errcap);
void viz_fonts_close(viz_fonts *f);

int viz_font_height(const viz_font *f);
/* Advance of one glyph (the monospace cell width for a monospace font). */
int viz_font_advance(const viz_font *f, unsigned codepoint);
/* Width in pixels of UTF-8 text (glyphs outside the atlas count as '?'). */
int viz_text_width(const viz_font *f, const char *utf8);
/* Draws text with its top-left at (x, y); returns the x after the last glyph. */
int viz_text_draw(SDL_Renderer *r, const viz_font *f, int x, int y, SDL_Color c, const char *utf8);
/* Same, cut with "…" so it fits in maxw pixels. */
int viz_text_draw_fit(SDL_Renderer *r, const viz_font *f, int x, int y, int maxw, SDL_Color c,
                      const char *utf8);

#endif
