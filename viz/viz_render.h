/* viz_render.h - one visualizer frame: layout geometry, hit testing and the pure
 * frame step viz_render_frame(), which draws a viz_state onto any SDL_Renderer (a
 * window, or a software renderer on an SDL_Surface in tests and headless runs).
 * Invariant: drawing depends only on its arguments (no clocks, no globals), so a
 * state renders to the same pixels every time, and the cell rectangles the layout
 * functions return are exactly the rectangles that are filled. */
#ifndef VIZ_RENDER_H
#define VIZ_RENDER_H

#include <stdbool.h>
#include <SDL.h>

#include "viz_model.h"
#include "viz_text.h"

/* The palette (0xRRGGBB). Tests read these back from the pixels. */
#define VIZ_RGB_BG        0x0D1017u /* window background */
#define VIZ_RGB_PANEL     0x151A23u
#define VIZ_RGB_BORDER    0x262E3Cu
#define VIZ_RGB_TEXT      0xD9DEE7u
#define VIZ_RGB_DIM       0x7C879Bu
#define VIZ_RGB_ACCENT    0x5AB4FFu
#define VIZ_RGB_EMPTY     0x1C2230u /* bank cell no lane uses; sector no lane touches */
#define VIZ_RGB_ACCESS    0x3D9BE9u /* a lane's word in its bank, served without conflict */
#define VIZ_RGB_BROADCAST 0x2EC4B0u /* one word read by several lanes: broadcast, no conflict */
#define VIZ_RGB_CONFLICT  0xFF3358u /* a word whose bank must serve other words too */
#define VIZ_RGB_TOUCHED   0x5C7CF6u /* sector touched, no cache model */
#define VIZ_RGB_L1        0x49CF7Du /* sector hit in L1 */
#define VIZ_RGB_L2        0xF2C14Eu /* sector hit in L2 */
#define VIZ_RGB_DRAM      0xFF8A4Cu /* sector fetched from DRAM */
#define VIZ_RGB_WRITE     0xB48CFFu /* sector written (stores write through to L2) */
#define VIZ_RGB_GOOD      0x49CF7Du
#define VIZ_RGB_WARN      0xF2C14Eu
#define VIZ_RGB_BAD       0xFF3358u

uint32_t viz_outcome_rgb(viz_outcome o);

/* One pane shows one recording (two panes side by side in --compare). */
typedef struct {
    const viz_recording *rec;
    const viz_step *step;   /* the step on screen, NULL = none (empty recording) */
    size_t ordinal, count;  /* its position in the pane's step sequence: "step 3 of 64" */
    bool all_warps;         /* the sequence is every warp's steps, not one warp's */
    uint32_t block_linear;  /* the selected warp */
    uint32_t warp;
} viz_pane_state;

typedef struct viz_state {
    int npanes;             /* 1 or 2 */
    viz_pane_state pane[2];
    bool playing;
    double speed;           /* steps per second */
    double phase;           /* 0..1: animation progress of the current step (1 = settled) */
    bool show_help;
    bool mouse_in;
    int mouse_x, mouse_y;
    bool jump_mode;         /* typing a source line to jump to */
    char jump_text[16];
    char message[160];      /* status line note ("saved shot.png"), may be empty */
} viz_state;

void viz_state_init(viz_state *s);

typedef struct {
    SDL_Rect all;
    SDL_Rect header;
    SDL_Rect source;
    SDL_Rect ptx;           /* w == 0 in compare mode (the instruction shows in mem's title) */
    SDL_Rect lanes;
    SDL_Rect mem;
    SDL_Rect rail;          /* inside mem: one tick per lane */
    SDL_Rect grid;          /* inside mem: bank grid or sector map */
    SDL_Rect totals;
    SDL_Rect throughput;
} viz_pane_layout;

typedef struct {
    int w, h, npanes;
    SDL_Rect title, status;
    viz_pane_layout pane[2];
} viz_layout;

/* The frame's geometry for a w x h window (1280 x 800 by default). */
void viz_layout_compute(int w, int h, int npanes, viz_layout *out);
/* Lane cell in the lanes panel (lanes 0..15 top row, 16..31 bottom row). */
SDL_Rect viz_layout_lane_cell(const viz_pane_layout *p, int lane);
/* The lane's tick on the rail above the bank grid / sector map. */
SDL_Point viz_layout_rail_point(const viz_pane_layout *p, int lane);
/* Bank grid cell: bank 0..31 across, row_slot 0..nrows-1 down (step.rows[row_slot]). */
SDL_Rect viz_layout_bank_cell(const viz_pane_layout *p, int nrows, int bank, int row_slot);
/* Sector cell: sector 0..3 of step.lines[line_slot], nlines lines in the map. */
SDL_Rect viz_layout_sector_cell(const viz_pane_layout *p, int nlines, int line_slot, int sector);
/* Whether the sector map has room for a label above each line. */
bool viz_layout_sector_labels(const viz_pane_layout *p, int nlines);
/* Source panel rows: line height in pixels, and the first line shown (1-based) so
 * that the current step's line sits a third of the way down. */
#define VIZ_SRC_LINE_H 17
#define VIZ_SRC_TOP 26    /* panel caption height above the first source row */
int viz_layout_source_first(const viz_pane_layout *p, const viz_pane_state *ps);

typedef enum { VIZ_HIT_NONE, VIZ_HIT_LANE, VIZ_HIT_BANK, VIZ_HIT_SECTOR, VIZ_HIT_SOURCE } viz_hit_kind;

typedef struct {
    viz_hit_kind kind;
    int pane;
    int lane;               /* LANE */
    int bank, row_slot;     /* BANK */
    int line_slot, sector;  /* SECTOR */
    int src_line;           /* SOURCE: the line under the mouse */
} viz_hit;

/* What is under (x, y) in this frame. */
viz_hit viz_hit_test(const viz_layout *L, const viz_state *s, int x, int y);

/* Draws one frame at the renderer's output size. */
void viz_render_frame(SDL_Renderer *r, const viz_fonts *f, const viz_state *s);

/* The key bindings, for the help overlay and --help. */
typedef struct {
    const char *keys;
    const char *what;
} viz_key_help;
extern const viz_key_help viz_keys[];
extern const int viz_nkeys;

#endif
