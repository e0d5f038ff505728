/* viz_render.h - one visualizer frame: layout geometry (scaled with the fonts), hit testing and the pure
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
#define VIZ_RGB_LANDED    0x7FD6FFu /* a copy landed in shared memory (cp.async, TMA) */
#define VIZ_RGB_STALL     0xF2C14Eu /* a warp stalled on an mbarrier wait (timeline strip) */

uint32_t viz_outcome_rgb(viz_outcome o);
/* Heat of a source line, t = its sectors + wavefronts / the worst line's: from a cool
 * blue through yellow to VIZ_RGB_BAD (red) at t = 1. */
uint32_t viz_heat_rgb(double t);
/* Verdict colour of a step: VIZ_RGB_GOOD at >= 90 % of ideal, WARN >= 50 %, else BAD; a landed copy
 * VIZ_RGB_LANDED, a wait that stalls VIZ_RGB_STALL, one that passes VIZ_RGB_DIM. */
uint32_t viz_step_rgb(const viz_step *s);

/* One pane shows one recording (two panes side by side in --compare). */
typedef struct {
    const viz_recording *rec;
    const viz_step *step;   /* the step on screen, NULL = none (empty recording) */
    size_t ordinal, count;  /* its position in the pane's step sequence: "step 3 of 64" */
    viz_scope scope;        /* what the sequence is: one warp's, one block's or every block's steps */
    uint32_t block_linear;  /* the selected block and warp */
    uint32_t warp;
    const size_t *tl;       /* the timeline: indices into rec->steps in issue order */
    size_t tl_count;
    size_t tl_pos;          /* the current step's position on it (tl_count = not on it) */
} viz_pane_state;

/* Predict-then-reveal: the learner types the sectors (global, local) or wavefronts
 * (shared) of the next step before it is shown. */
typedef struct {
    bool on;
    bool asking;            /* the current step is hidden until a guess is entered */
    char guess[12];         /* digits typed so far */
    int tries, right;       /* the running score */
    bool have_last;         /* the last answer, shown until the next question */
    int last_guess, last_answer;
    bool last_shared;       /* its unit: wavefronts, else sectors */
} viz_quiz;

/* What a frame drew, for the geometry tests: each panel's rectangle and each text's
 * measured extent with the panel it belongs to. */
#define VIZ_LOG_PANELS 48
#define VIZ_LOG_TEXTS 6000
typedef struct viz_draw_log {
    int npanels, ntexts, dropped;
    struct { SDL_Rect rect; const char *name; int pane; bool overlay; } panel[VIZ_LOG_PANELS];
    struct { SDL_Rect rect; int panel; char text[128]; } text[VIZ_LOG_TEXTS];
} viz_draw_log;

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
    viz_quiz quiz;
    char message[160];      /* status line note ("saved shot.png"), may be empty */
    viz_draw_log *log;      /* NULL, or where the frame records what it drew (tests) */
} viz_state;

void viz_state_init(viz_state *s);

typedef struct {
    SDL_Rect all;
    SDL_Rect header;
    SDL_Rect source;
    SDL_Rect heat;          /* the per-line heat map; w == 0 in compare mode */
    SDL_Rect ptx;           /* w == 0 in compare mode (the instruction shows in the header) */
    SDL_Rect lanes;
    SDL_Rect mem;
    SDL_Rect rail;          /* inside mem: one tick per lane */
    SDL_Rect grid;          /* inside mem: bank grid or sector map */
    SDL_Rect timeline;
    SDL_Rect tl_plot;       /* inside timeline: one column per step, one row per warp */
    SDL_Rect totals;
    SDL_Rect throughput;
} viz_pane_layout;

/* Sizes that follow the fonts (all in pixels at the fonts' scale). */
typedef struct {
    double scale;           /* the fonts' scale: 1 = 13-px monospace */
    int pad, gap;           /* inside a panel / between panels */
    int line_h;             /* a source, PTX or heat-map row */
    int char_w;             /* the monospace advance */
    int cap_h;              /* a panel caption above its first row */
    int small_h;            /* a row of small text */
    int mem_title_h;        /* the memory panel's title (two rows when narrow) */
    int rail_h, fan_h, rowlabel_w, bankhead_h, bankfoot_h, legend_h, line_label_h;
    int src_gutter;         /* source rows: heat tick + line number before the code */
} viz_metrics;

typedef struct {
    int w, h, npanes;
    viz_metrics m;
    SDL_Rect title, status;
    viz_pane_layout pane[2];
} viz_layout;

/* The frame's geometry for a w x h window with fonts f (their scale and sizes). */
void viz_layout_compute(int w, int h, int npanes, const viz_fonts *f, viz_layout *out);
/* Lane cell in the lanes panel (lanes 0..15 top row, 16..31 bottom row). */
SDL_Rect viz_layout_lane_cell(const viz_pane_layout *p, const viz_metrics *m, int lane);
/* The lane's tick on the rail above the bank grid / sector map. */
SDL_Point viz_layout_rail_point(const viz_pane_layout *p, int lane);
/* Bank grid cell: bank 0..31 across, row_slot 0..nrows-1 down (step.rows[row_slot]). */
SDL_Rect viz_layout_bank_cell(const viz_pane_layout *p, const viz_metrics *m, int nrows, int bank, int row_slot);
/* Sector cell: sector 0..3 of step.lines[line_slot], nlines lines in the map. */
SDL_Rect viz_layout_sector_cell(const viz_pane_layout *p, const viz_metrics *m, int nlines, int line_slot,
                                int sector);
/* Whether the sector map has room for a label above each line. */
bool viz_layout_sector_labels(const viz_pane_layout *p, const viz_metrics *m, int nlines);

/* Source rows: long lines wrap (never cut) at viz_layout_source_cols characters, the
 * continuation rows indented by two. viz_wrap_len is the byte length of the first visual
 * row of s at cols characters (a break after a space or punctuation near the end is
 * preferred); viz_wrap_rows the number of visual rows. */
int viz_layout_source_cols(const viz_layout *L, const viz_pane_layout *p);
int viz_wrap_len(const char *s, int cols);
int viz_wrap_rows(const char *s, int cols);
/* The first source line shown (1-based), so that the current step's line sits about a
 * third of the way down; and the line drawn at visual row `row` (0 = none). */
int viz_layout_source_first(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps);
int viz_layout_source_line_at(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps, int row);
/* Heat map rows: the source lines with memory instructions, in line order; writes up to
 * cap line numbers and returns how many there are. The first row shown keeps the current
 * step's line in view. */
int viz_heat_lines(const viz_recording *r, int *lines, int cap);
int viz_layout_heat_first(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps);
/* When every entry fits with its code wrapped under its figures ("roomy"), entries take
 * 1 + that code's rows; else one row each, the code only where it fits whole beside
 * them. viz_layout_heat_row_of: the visual row of entry k (in line order), -1 when not
 * shown. viz_heat_code: the line's text without its indentation. */
bool viz_layout_heat_roomy(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps);
int viz_layout_heat_row_of(const viz_layout *L, const viz_pane_layout *p, const viz_pane_state *ps, int k);
int viz_layout_heat_cols(const viz_layout *L, const viz_pane_layout *p);
const char *viz_heat_code(const viz_recording *r, int line);
/* The heat bar of visual row `row` of the heat map, t of its full length (0..1). */
SDL_Rect viz_layout_heat_bar(const viz_layout *L, const viz_pane_layout *p, int row, double t);
/* Timeline: the plot column of timeline position pos, and the row of a step. */
SDL_Rect viz_layout_timeline_cell(const viz_pane_layout *p, const viz_pane_state *ps, size_t pos);
int viz_timeline_rows(const viz_pane_state *ps);

typedef enum { VIZ_HIT_NONE, VIZ_HIT_LANE, VIZ_HIT_BANK, VIZ_HIT_SECTOR, VIZ_HIT_SOURCE, VIZ_HIT_HEAT,
               VIZ_HIT_TIMELINE } viz_hit_kind;

typedef struct {
    viz_hit_kind kind;
    int pane;
    int lane;               /* LANE */
    int bank, row_slot;     /* BANK */
    int line_slot, sector;  /* SECTOR */
    int src_line;           /* SOURCE, HEAT: the line under the mouse */
    size_t tl_pos;          /* TIMELINE: the position under the mouse */
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
