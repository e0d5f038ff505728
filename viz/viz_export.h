/* viz_export.h - writing frames to files: PNG through libpng at a chosen zlib level (a
 * frame export uses a fast one), and animated GIF through giflib, each frame stored as
 * the rectangle that changed since the previous one with its own colour table.
 * Invariant: a frame is ARGB8888 pixels as the software renderer leaves them; a GIF
 * decoded frame by frame (each drawn over the previous) shows every frame written. */
#ifndef VIZ_EXPORT_H
#define VIZ_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <SDL.h>

/* Writes an ARGB8888 surface as an RGB PNG at zlib level 0..9. Returns 0, or -1 with
 * err naming the file. */
int viz_png_write(SDL_Surface *s, const char *path, int level, char *err, size_t cap);

typedef struct viz_gif viz_gif;

/* Starts a looping animated GIF of w x h frames. NULL with err set on failure. */
viz_gif *viz_gif_open(const char *path, int w, int h, char *err, size_t cap);
/* Appends a frame shown for delay_cs hundredths of a second. Returns 0 or -1 (err). */
int viz_gif_add(viz_gif *g, const SDL_Surface *frame, int delay_cs, char *err, size_t cap);
/* Finishes the file; returns 0, or -1 when it could not be written completely. */
int viz_gif_close(viz_gif *g, char *err, size_t cap);
/* Frees g and removes what it wrote: a GIF that was at the path before stays whole. */
void viz_gif_abort(viz_gif *g);

#endif
