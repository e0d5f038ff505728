/* viz_app.h - the visualizer program around the frame step: navigation through a
 * recording (warp selection, lockstep panes, source-line jumps), the SDL window and
 * its event loop, and headless PNG export.
 * Invariant: the navigator alone decides which step each pane shows; the event loop
 * only translates input into navigator calls and hands the state to viz_render_frame. */
#ifndef VIZ_APP_H
#define VIZ_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "viz_model.h"
#include "viz_render.h"

/* Navigation: one ordinal shared by both panes (lockstep), each pane's sequence being
 * the steps of the selected warp (or of every warp). */
typedef struct {
    int npanes;
    const viz_recording *rec[2];
    size_t *idx[2];          /* the pane's step sequence: indices into rec->steps */
    size_t count[2];
    size_t ordinal;          /* position in the sequences (clamped per pane) */
    uint32_t block_linear;   /* selected warp */
    uint32_t warp;
    bool all_warps;
} viz_nav;

/* Sets up navigation over 1 or 2 recordings, selecting (block_linear, warp).
 * Returns 0, or -1 when out of memory. */
int viz_nav_init(viz_nav *n, const viz_recording *const *recs, int npanes, uint32_t block_linear, uint32_t warp);
void viz_nav_free(viz_nav *n);
/* Re-filters the sequences after a change of selection; keeps the ordinal in range. */
int viz_nav_select(viz_nav *n, uint32_t block_linear, uint32_t warp, bool all_warps);
/* Moves by delta steps (clamped); returns true when the ordinal changed. */
bool viz_nav_step(viz_nav *n, long delta);
size_t viz_nav_length(const viz_nav *n);  /* the longer pane's sequence */
/* Next / previous warp of the block (wraps), next / previous recorded block. */
int viz_nav_cycle_warp(viz_nav *n, int dir);
int viz_nav_cycle_block(viz_nav *n, int dir);
/* Jumps to the next step (after the current one, wrapping) of pane 0 on source line
 * `line`, or the first line after it that has a step. Returns false if none. */
bool viz_nav_jump_line(viz_nav *n, int line);
/* Writes the panes' current steps into s. */
void viz_nav_apply(const viz_nav *n, viz_state *s);

typedef struct {
    const viz_recording *rec[2];
    int npanes;
    uint32_t block_linear, warp;  /* initial selection */
    size_t start_step;            /* initial ordinal */
    int width, height;            /* window / frame size */
    double speed;                 /* steps per second */
    bool headless;                /* no window: render frames to PNG files */
    int frames;                   /* headless: frames to write (one step each) */
    const char *out_dir;          /* headless: where frame_0000.png ... go */
    const char *screenshot;       /* save the first frame to this PNG and exit */
    bool play;                    /* start playing */
} viz_app_opts;

/* Runs the window (or the headless export). Returns a WS_EXIT_* code; err says why. */
int viz_app_run(const viz_app_opts *o, char *err, size_t cap);

#endif
