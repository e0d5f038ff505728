/* viz_plot.c - predicted vs measured time on log-log axes (see viz_plot.h). The axes span whole
 * decades around every point, so y = x is the diagonal of a square plot area; the band is the
 * two lines y = 0.8x and y = 1.2x. Drawn with a software renderer on a surface, as the
 * visualizer's headless frames are. */
#include "viz_plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <SDL.h>

#include "viz_export.h"
#include "viz_text.h"

static const SDL_Color class_colour[VIZ_PLOT_CLASSES] = {
    {0x1f, 0x77, 0xb4, 255}, {0xff, 0x7f, 0x0e, 255}, {0x2c, 0xa0, 0x2c, 255}, {0xd6, 0x27, 0x28, 255},
    {0x94, 0x67, 0xbd, 255}, {0x8c, 0x56, 0x4b, 255}, {0x7f, 0x7f, 0x7f, 255}, {0xe3, 0x77, 0xc2, 255},
};

typedef struct {
    int x0, y0, side;          /* the square plot area: left, top, size in pixels */
    double lo, hi;             /* log10 of the axes' ends (whole decades) */
} axes;

static int px_x(const axes *a, double us) { return a->x0 + (int)lround((log10(us) - a->lo) / (a->hi - a->lo) * a->side); }
static int px_y(const axes *a, double us)
{
    return a->y0 + a->side - (int)lround((log10(us) - a->lo) / (a->hi - a->lo) * a->side);
}

/* The line y = k x across the plot area, clipped to it. */
static void ratio_line(SDL_Renderer *r, const axes *a, double k)
{
    double x1 = pow(10, a->lo), x2 = pow(10, a->hi);
    if (k > 1) x2 /= k;
    else x1 /= k;
    SDL_RenderDrawLine(r, px_x(a, x1), px_y(a, k * x1), px_x(a, x2), px_y(a, k * x2));
}

static void dot(SDL_Renderer *r, int cx, int cy, int rad)
{
    for (int dy = -rad; dy <= rad; dy++)
        for (int dx = -rad; dx <= rad; dx++)
            if (dx * dx + dy * dy <= rad * rad) SDL_RenderDrawPoint(r, cx + dx, cy + dy);
}

int viz_plot_time_png(const viz_plot_point *pts, int n, const char *const *classes, const char *title,
                      const char *path, int w, int h, char *err, size_t cap)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (!(pts[i].measured_us > 0) || !(pts[i].predicted_us > 0)) continue;
        double a = fmin(pts[i].measured_us, pts[i].predicted_us), b = fmax(pts[i].measured_us, pts[i].predicted_us);
        lo = fmin(lo, log10(a));
        hi = fmax(hi, log10(b));
    }
    if (!isfinite(lo)) lo = 0, hi = 1;
    lo = floor(lo);
    hi = ceil(hi);
    if (hi <= lo) hi = lo + 1;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = s ? SDL_CreateSoftwareRenderer(s) : NULL;
    viz_fonts f;
    int rc = -1;
    if (!r) {
        snprintf(err, cap, "%s: cannot draw the plot: %s", path, SDL_GetError());
        goto out;
    }
    if (viz_fonts_open(r, 1.0, &f, err, cap)) goto out;
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
    SDL_RenderClear(r);
    const SDL_Color ink = {30, 30, 30, 255}, grey = {110, 110, 110, 255};
    int fh = viz_font_height(f.sans);
    int margin_l = 70, margin_t = 40 + fh, legend_w = 170;
    int side = w - margin_l - legend_w - 30;
    if (h - margin_t - 60 < side) side = h - margin_t - 60;
    axes a = {margin_l, margin_t, side, lo, hi};
    viz_text_draw(r, f.sans_big, margin_l, 12, ink, title);
    /* decade grid and labels */
    for (int e = (int)lo; e <= (int)hi; e++) {
        double us = pow(10, e);
        char lab[32];
        if (us >= 1e3) snprintf(lab, sizeof lab, "%g ms", us / 1e3);
        else snprintf(lab, sizeof lab, "%g us", us);
        SDL_SetRenderDrawColor(r, 225, 225, 225, 255);
        SDL_RenderDrawLine(r, px_x(&a, us), a.y0, px_x(&a, us), a.y0 + side);
        SDL_RenderDrawLine(r, a.x0, px_y(&a, us), a.x0 + side, px_y(&a, us));
        viz_text_draw(r, f.sans_small, px_x(&a, us) - viz_text_width(f.sans_small, lab) / 2, a.y0 + side + 6, grey, lab);
        viz_text_draw(r, f.sans_small, a.x0 - 8 - viz_text_width(f.sans_small, lab), px_y(&a, us) - fh / 2, grey, lab);
    }
    SDL_SetRenderDrawColor(r, 60, 60, 60, 255);
    SDL_Rect frame = {a.x0, a.y0, side + 1, side + 1};
    SDL_RenderDrawRect(r, &frame);
    SDL_SetRenderDrawColor(r, 170, 170, 170, 255); /* the +-20% band */
    ratio_line(r, &a, 0.8);
    ratio_line(r, &a, 1.2);
    SDL_SetRenderDrawColor(r, 40, 40, 40, 255);
    ratio_line(r, &a, 1.0);
    const char *xl = "measured on the GPU (event-timed median)", *yl = "predicted by the simulator";
    viz_text_draw(r, f.sans, a.x0 + side / 2 - viz_text_width(f.sans, xl) / 2, a.y0 + side + 10 + fh, ink, xl);
    viz_text_draw(r, f.sans, a.x0 + 8, a.y0 + 6, ink, yl);
    for (int i = 0; i < n; i++) {
        const viz_plot_point *p = &pts[i];
        if (!(p->measured_us > 0) || !(p->predicted_us > 0) || p->cls < 0 || p->cls >= VIZ_PLOT_CLASSES) continue;
        SDL_Color c = class_colour[p->cls];
        SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
        dot(r, px_x(&a, p->measured_us), px_y(&a, p->predicted_us), 4);
    }
    int lx = a.x0 + side + 24, ly = a.y0;
    viz_text_draw(r, f.sans, lx, ly, ink, "bound (predicted)");
    for (int c = 0; c < VIZ_PLOT_CLASSES; c++) {
        int k = 0;
        for (int i = 0; i < n; i++) k += pts[i].cls == c;
        char lab[64];
        snprintf(lab, sizeof lab, "%s (%d)", classes[c], k);
        ly += fh + 6;
        SDL_SetRenderDrawColor(r, class_colour[c].r, class_colour[c].g, class_colour[c].b, 255);
        dot(r, lx + 5, ly + fh / 2, 4);
        viz_text_draw(r, f.sans_small, lx + 16, ly, ink, lab);
    }
    ly += 2 * fh;
    viz_text_draw(r, f.sans_small, lx, ly, grey, "dark line: y = x");
    viz_text_draw(r, f.sans_small, lx, ly + fh + 4, grey, "grey lines: +-20%");
    SDL_RenderPresent(r);
    rc = viz_png_write(s, path, 6, err, cap);
    viz_fonts_close(&f);
out:
    if (r) SDL_DestroyRenderer(r);
    if (s) SDL_FreeSurface(s);
    return rc;
}
