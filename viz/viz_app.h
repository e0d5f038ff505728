/* viz_app.h - the visualizer program around the frame step: navigation through a
 * recording (a scope of one warp, one block or every recorded block; lockstep panes;
 * source-line and timeline jumps), a session that turns keys and clicks into navigator
 * calls (the same for the window, the headless exporter and --keys scripts), the SDL
 * window and its event loop, and the headless PNG / GIF export.
 * Invariant: the navigator alone decides which step each pane shows; the session only
 * translates input into navigator calls and hands the state to viz_render_frame. */
#ifndef VIZ_APP_H
#define VIZ_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "viz_model.h"
#include "viz_render.h"

/* Navigation: one ordinal shared by both panes (lockstep), each pane's sequence being
 * the steps of the scope; the timeline of a pane is its block's steps (warp and block
 * scope) or every recorded step (kernel scope), in issue order. */
typedef struct {
    int npanes;
    const viz_recording *rec[2];
    size_t *idx[2];          /* the pane's step sequence: indices into rec->steps, ascending */
    size_t count[2];
    size_t *tl[2];           /* the pane's timeline: indices into rec->steps, ascending */
    size_t tl_count[2];
    size_t ordinal;          /* position in the sequences (clamped per pane) */
    viz_scope scope;
    uint32_t block_linear;   /* selected block, and warp (warp scope) */
    uint32_t warp;
} viz_nav;

/* Sets up navigation over 1 or 2 recordings, selecting (block_linear, warp) in a scope.
 * Returns 0, or -1 when out of memory. */
int viz_nav_init(viz_nav *n, const viz_recording *const *recs, int npanes, uint32_t block_linear, uint32_t warp,
                 viz_scope scope);
void viz_nav_free(viz_nav *n);
/* Re-filters the sequences after the recordings grew (viz_steps_job.h: the first batch replaced
 * by the full recording, of which it is a prefix); the ordinal stays, so does the step shown.
 * Returns 0, or -1 when out of memory. */
int viz_nav_refresh(viz_nav *n);
/* Re-filters the sequences after a change of selection; keeps the ordinal in range. */
int viz_nav_select(viz_nav *n, uint32_t block_linear, uint32_t warp, viz_scope scope);
/* Changes the scope keeping pane 0's current step on screen (its block and warp become
 * the selection). */
int viz_nav_set_scope(viz_nav *n, viz_scope scope);
/* Moves by delta steps (clamped); returns true when the ordinal changed. */
bool viz_nav_step(viz_nav *n, long delta);
/* Playback's next step: the next of the sequence; at the end of a warp (warp scope) the
 * first step of the next warp that has one, then of the next block. False at the end. */
bool viz_nav_advance(viz_nav *n);
size_t viz_nav_length(const viz_nav *n);  /* the longer pane's sequence */
/* Next / previous warp of the block (wraps), next / previous recorded block. */
int viz_nav_cycle_warp(viz_nav *n, int dir);
int viz_nav_cycle_block(viz_nav *n, int dir);
/* Jumps to the next step (after the current one, wrapping) of pane 0 on source line
 * `line`, or the first line after it that has a step. Returns false if none. */
bool viz_nav_jump_line(viz_nav *n, int line);
/* Jumps to the step at timeline position pos of a pane (in warp scope its warp is
 * selected). Returns false when pos is past the timeline. */
bool viz_nav_jump_timeline(viz_nav *n, int pane, size_t pos);
/* The current step of a pane, NULL when its sequence is empty. */
const viz_step *viz_nav_current(const viz_nav *n, int pane);
/* Writes the panes' current steps (and timelines) into s. */
void viz_nav_apply(const viz_nav *n, viz_state *s);

typedef struct {
    const viz_recording *rec[2];
    int npanes;
    uint32_t block_linear, warp;  /* initial selection */
    viz_scope scope;              /* initial scope (VIZ_SCOPE_WARP = 0 when left zero) */
    size_t start_step;            /* initial ordinal (the export's first step) */
    bool has_last;                /* export: last_step is given (--to) */
    size_t last_step;             /* export: the last step, inclusive (else --frames, else the end) */
    int width, height;            /* window / frame size */
    double font_scale;            /* 0 = from the window size (viz_font_scale_for) */
    double speed;                 /* steps per second */
    bool headless;                /* no window: render frames to files */
    int frames;                   /* headless: frames to write (one step each), 0 = to last_step */
    const char *out_dir;          /* headless: where frame_0000.png ... go */
    const char *gif;              /* headless: the same range as one animated GIF */
    const char *screenshot;       /* save the first frame to this PNG and exit */
    const char *keys;             /* keys pressed before the first frame ("p 3 2 Return") */
    bool play;                    /* start playing */
    bool quiz;                    /* start in predict-then-reveal mode */
    bool first_frame_only;        /* headless: render the first frame, call tick once, return (--first-frame-time) */
    /* called after every frame presented (the first one first): returns true when the recordings
       changed (their totals came in, viz_totals.h, or their steps, viz_steps_job.h: the navigator
       is then refreshed); may write a status line into msg */
    bool (*tick)(void *ctx, char *msg, size_t cap);
    void *tick_ctx;
} viz_app_opts;

/* A running visualizer without its window: navigator, frame state, input handling. */
typedef struct {
    viz_nav nav;
    viz_state st;
    bool quit;
    bool stepped;      /* the step on screen changed since the last frame (restart the animation) */
    bool want_shot;    /* 's' was pressed: the window saves a screenshot */
} viz_session;

int viz_session_init(viz_session *ss, const viz_app_opts *o);
void viz_session_free(viz_session *ss);
/* One key press, as SDL names it (SDLK_*, KMOD_*). */
void viz_session_key(viz_session *ss, int sym, unsigned mod);
/* A click at (x, y) in a frame of layout L: a source line, a heat-map row or the timeline. */
void viz_session_click(viz_session *ss, const viz_layout *L, int x, int y);
/* Playback's tick: advances one step unless a quiz question is open. False at the end. */
bool viz_session_play_tick(viz_session *ss);
/* Presses the keys of a script, names separated by spaces as SDL_GetKeyFromName knows
 * them ("a", "Right", "Return", "3"); "S-Right" adds Shift. Returns 0, or -1 naming the
 * key it does not know. */
int viz_session_keys(viz_session *ss, const char *script, char *err, size_t cap);

/* Runs the window (or the headless export). Returns a WS_EXIT_* code; err says why. */
int viz_app_run(const viz_app_opts *o, char *err, size_t cap);

#endif
