/* viz_export.c - PNG frames (libpng, zlib level chosen by the caller) and animated GIF
 * (giflib). A visualizer frame is mostly flat panels, so a GIF frame stores only the
 * bounding box of the pixels that changed since the previous frame, drawn over it
 * (disposal "do not dispose"); its colour table is exact when the box holds at most 256
 * colours, else giflib's median-cut quantizer picks 256.
 * Invariant: the previous frame kept here is the source pixels, so every box is found
 * against what the renderer drew, not against a quantized copy. */
#include "viz_export.h"
#include "../common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PNG ----------------------------------------------------------------------------- */

int viz_png_write(SDL_Surface *s, const char *path, int level, char *err, size_t cap)
{
    ws_outfile of;                      /* a failed write leaves the file that was there whole */
    FILE *fp = ws_outfile_fopen(&of, path);
    if (!fp) {
        snprintf(err, cap, "%s: cannot write PNG: %s", path, strerror(errno));
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *row = malloc((size_t)s->w * 3);
    if (!png || !info || !row) {
        snprintf(err, cap, "%s: cannot write PNG: out of memory", path);
        png_destroy_write_struct(&png, &info);
        free(row);
        fclose(fp);
        ws_outfile_commit_closed(&of, -1);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(err, cap, "%s: cannot write PNG (disk full?)", path);
        png_destroy_write_struct(&png, &info);
        free(row);
        fclose(fp);
        ws_outfile_commit_closed(&of, -1);
        return -1;
    }
    png_init_io(png, fp);
    png_set_compression_level(png, level);
    png_set_IHDR(png, info, (png_uint_32)s->w, (png_uint_32)s->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (level <= 2) /* flat UI: the sub filter alone compresses well and costs little */
        png_set_filter(png, 0, PNG_FILTER_SUB);
    png_write_info(png, info);
    for (int y = 0; y < s->h; y++) {
        const uint32_t *px = (const uint32_t *)((const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch);
        for (int x = 0; x < s->w; x++) {
            row[3 * x] = (uint8_t)(px[x] >> 16);
            row[3 * x + 1] = (uint8_t)(px[x] >> 8);
            row[3 * x + 2] = (uint8_t)px[x];
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (ws_outfile_commit_closed(&of, fclose(fp)) != 0) {
        snprintf(err, cap, "%s: cannot write PNG (%s)", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- GIF ----------------------------------------------------------------------------- */

struct viz_gif {
    GifFileType *gf;
    int w, h;
    uint32_t *prev;        /* the previous frame's pixels (0xRRGGBB) */
    bool started;          /* prev holds a frame */
    uint32_t *box;         /* the changed box's pixels */
    uint8_t *idx, *r, *g, *b;
    char path[512];
    ws_outfile out;        /* the GIF is written beside its path and renamed at a good close */
    bool failed;           /* a frame could not be written: close discards the file */
};

static void gif_err(char *err, size_t cap, const char *path, const char *what, int code)
{
    snprintf(err, cap, "%s: cannot write GIF (%s: %s)", path, what, GifErrorString(code));
}

viz_gif *viz_gif_open(const char *path, int w, int h, char *err, size_t cap)
{
    viz_gif *g = calloc(1, sizeof *g);
    size_t n = (size_t)w * (size_t)h;
    if (g) {
        g->prev = malloc(n * sizeof *g->prev);
        g->box = malloc(n * sizeof *g->box);
        g->idx = malloc(n);
        g->r = malloc(n);
        g->g = malloc(n);
        g->b = malloc(n);
    }
    if (!g || !g->prev || !g->box || !g->idx || !g->r || !g->g || !g->b) {
        snprintf(err, cap, "%s: cannot write GIF: out of memory", path);
        goto fail;
    }
    g->w = w;
    g->h = h;
    snprintf(g->path, sizeof g->path, "%s", path);
    int code = 0;
    int fd = ws_outfile_open(&g->out, path);   /* 0666 less the umask: giflib's own open makes it 0600 */
    g->out.fd = -1;                            /* giflib owns the descriptor from here */
    if (fd < 0) {
        snprintf(err, cap, "%s: cannot write GIF: %s", path, strerror(errno));
        goto fail;
    }
    g->gf = EGifOpenFileHandle(fd, &code);
    if (!g->gf) {
        close(fd);
        ws_outfile_abort(&g->out);
        gif_err(err, cap, path, "open", code);
        goto fail;
    }
    EGifSetGifVersion(g->gf, true);
    if (EGifPutScreenDesc(g->gf, w, h, 8, 0, NULL) == GIF_ERROR) {
        gif_err(err, cap, path, "screen", g->gf->Error);
        goto fail;
    }
    /* loop forever: the NETSCAPE2.0 application extension */
    static const uint8_t loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(g->gf, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(g->gf, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(g->gf, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(g->gf) == GIF_ERROR) {
        gif_err(err, cap, path, "loop extension", g->gf->Error);
        goto fail;
    }
    return g;
fail:
    if (g) {
        if (g->gf) {
            EGifCloseFile(g->gf, NULL);
            ws_outfile_abort(&g->out);
        }
        free(g->prev);
        free(g->box);
        free(g->idx);
        free(g->r);
        free(g->g);
        free(g->b);
        free(g);
    }
    return NULL;
}

static uint32_t px_at(const SDL_Surface *s, int x, int y)
{
    return ((const uint32_t *)((const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch))[x] & 0xFFFFFFu;
}

/* An exact table when the box has <= 256 colours: open addressing over 1024 slots. */
static int exact_palette(const uint32_t *px, size_t n, GifColorType *map, uint8_t *idx)
{
    uint32_t key[1024];
    int16_t val[1024];
    memset(val, -1, sizeof val);
    int ncol = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = px[i];
        uint32_t hsh = (c * 2654435761u) >> 22;
        while (val[hsh] >= 0 && key[hsh] != c)
            hsh = (hsh + 1) & 1023;
        if (val[hsh] < 0) {
            if (ncol == 256)
                return -1;
            key[hsh] = c;
            val[hsh] = (int16_t)ncol;
            map[ncol] = (GifColorType){(GifByteType)(c >> 16), (GifByteType)(c >> 8), (GifByteType)c};
            ncol++;
        }
        idx[i] = (uint8_t)val[hsh];
    }
    return ncol;
}

int viz_gif_add(viz_gif *g, const SDL_Surface *f, int delay_cs, char *err, size_t cap)
{
    if (f->w != g->w || f->h != g->h) {
        snprintf(err, cap, "%s: a %dx%d frame in a %dx%d GIF", g->path, f->w, f->h, g->w, g->h);
        g->failed = true;
        return -1;
    }
    /* the box that changed */
    int x0 = 0, y0 = 0, x1 = g->w - 1, y1 = g->h - 1;
    if (g->started) {
        x0 = g->w, y0 = g->h, x1 = -1, y1 = -1;
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++)
                if (px_at(f, x, y) != g->prev[(size_t)y * (size_t)g->w + (size_t)x]) {
                    x0 = x < x0 ? x : x0;
                    x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0;
                    y1 = y > y1 ? y : y1;
                }
        if (x1 < 0) /* nothing changed: one pixel, so the frame and its delay still count */
            x0 = x1 = y0 = y1 = 0;
    }
    int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
    size_t n = (size_t)bw * (size_t)bh;
    uint32_t *box = g->box;
    for (int y = 0; y < bh; y++)
        for (int x = 0; x < bw; x++)
            box[(size_t)y * (size_t)bw + (size_t)x] = px_at(f, x0 + x, y0 + y);
    GifColorType map[256];
    int ncol = exact_palette(box, n, map, g->idx);
    if (ncol < 0) {
        for (size_t i = 0; i < n; i++) {
            g->r[i] = (uint8_t)(box[i] >> 16);
            g->g[i] = (uint8_t)(box[i] >> 8);
            g->b[i] = (uint8_t)box[i];
        }
        ncol = 256;
        if (GifQuantizeBuffer((unsigned)bw, (unsigned)bh, &ncol, g->r, g->g, g->b, g->idx, map) == GIF_ERROR) {
            snprintf(err, cap, "%s: cannot write GIF: colour quantization failed", g->path);
            g->failed = true;
            return -1;
        }
    }
    int size = 2;
    while (size < ncol)
        size *= 2;
    for (int i = ncol; i < size; i++)
        map[i] = (GifColorType){0, 0, 0};
    ColorMapObject *cm = GifMakeMapObject(size, map);
    if (!cm) {
        snprintf(err, cap, "%s: cannot write GIF: out of memory", g->path);
        g->failed = true;
        return -1;
    }
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false,
                                .DelayTime = delay_cs, .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t el = EGifGCBToExtension(&gcb, ext);
    int rc = 0;
    if (EGifPutExtension(g->gf, GRAPHICS_EXT_FUNC_CODE, (int)el, ext) == GIF_ERROR ||
        EGifPutImageDesc(g->gf, x0, y0, bw, bh, false, cm) == GIF_ERROR) {
        gif_err(err, cap, g->path, "frame", g->gf->Error);
        rc = -1;
    }
    for (int y = 0; rc == 0 && y < bh; y++)
        if (EGifPutLine(g->gf, g->idx + (size_t)y * (size_t)bw, bw) == GIF_ERROR) {
            gif_err(err, cap, g->path, "pixels", g->gf->Error);
            rc = -1;
        }
    GifFreeMapObject(cm);
    g->failed |= rc != 0;
    g->started = true;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            g->prev[(size_t)y * (size_t)g->w + (size_t)x] = px_at(f, x, y);
    return rc;
}

int viz_gif_close(viz_gif *g, char *err, size_t cap)
{
    int code = 0, rc = 0;
    if (EGifCloseFile(g->gf, &code) == GIF_ERROR) {
        gif_err(err, cap, g->path, "close", code);
        rc = -1;
    }
    if (ws_outfile_commit_closed(&g->out, rc || g->failed ? -1 : 0) && !rc) {
        snprintf(err, cap, "%s: cannot write GIF: %s", g->path, g->failed ? "a frame failed" : strerror(errno));
        rc = -1;
    }
    free(g->prev);
    free(g->box);
    free(g->idx);
    free(g->r);
    free(g->g);
    free(g->b);
    free(g);
    return rc;
}

void viz_gif_abort(viz_gif *g)
{
    g->failed = true;
    char err[256];
    viz_gif_close(g, err, sizeof err);
}
