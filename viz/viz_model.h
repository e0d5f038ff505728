/* viz_model.h - what the visualizer draws, as plain data: one "step" per executed
 * warp-level memory instruction, and a recording (the steps of one simulated launch
 * for a range of blocks, plus the source, the PTX and the launch-wide totals).
 * Invariant: a step is self-contained: every number a frame shows for it is stored
 * in it (the renderer never consults the simulator), every such number is a memory
 * model's verdict copied in (the visualizer keeps no model of its own), and lane
 * fields of inactive lanes are zero. No SDL here, so the model is testable and recordable anywhere. */
#ifndef VIZ_MODEL_H
#define VIZ_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/interp/event.h"
#include "../sim/models/models.h"
#include "../common/heat.h"

#define VIZ_LANES 32
#define VIZ_BANKS 32
#define VIZ_MAX_ROWS 64   /* distinct 128-B shared word rows one instruction can touch */
#define VIZ_MAX_LINES 64  /* distinct 128-B global lines one instruction can touch (32 lanes,
                             a misaligned lane can straddle two) */
#define VIZ_PTX_TEXT 96
#define VIZ_SASS_TEXT 176

/* Where a touched sector was served from (the cache model's verdict). */
typedef enum {
    VIZ_OUT_NONE = 0,  /* sector not touched by this instruction */
    VIZ_OUT_UNKNOWN,   /* touched; no cache model ran */
    VIZ_OUT_L1_HIT,
    VIZ_OUT_L2_HIT,    /* L1 miss (or bypass), hit in L2 */
    VIZ_OUT_DRAM,      /* missed L2 too: fetched from DRAM */
    VIZ_OUT_WRITE,     /* store: written through to L2 */
    VIZ_OUT_COUNT
} viz_outcome;

const char *viz_outcome_name(viz_outcome o); /* "L1 hit" */
/* The colour class of a cache-model sector outcome (ws_sector_outcome); a sector no cache
 * model judged is a write for a store, else VIZ_OUT_UNKNOWN. */
viz_outcome viz_outcome_of(int sector_outcome, bool store);

typedef struct {
    bool active;
    uint64_t addr;       /* as in the event: global address, shared/local byte offset */
    /* shared */
    uint8_t bank;        /* bank of the first word: (addr / 4) % 32 */
    uint8_t nwords;      /* 4-byte words the access covers: 1, 2 or 4 (16 B) */
    uint8_t group;       /* half/quarter-warp group the bank model processes it in */
    int8_t wavefront;    /* wavefront (0-based, within the instruction) serving it; -1 unknown */
    bool conflict;       /* another word of its bank is needed in the same group */
    uint16_t row_slot;   /* index into step.rows of its word row */
    uint8_t sharers;     /* lanes (itself included) reading the same first word: broadcast */
    /* global/local */
    uint16_t line_slot;  /* index into step.lines of the line holding its first byte */
    uint8_t sector;      /* 0..3: sector of its first byte inside that line */
} viz_lane;

typedef struct {
    uint64_t line;               /* 128-B line number: address / 128 */
    uint8_t outcome[4];          /* viz_outcome per sector; VIZ_OUT_NONE = untouched */
    uint32_t used[4];            /* bytes of each sector the lanes use, bit i = byte i */
    uint32_t lanes[4];           /* lanes touching each sector */
} viz_line;

/* Counter categories, as Nsight Compute splits them. */
typedef enum {
    VIZ_CAT_GLOBAL_LD, VIZ_CAT_GLOBAL_ST, VIZ_CAT_LOCAL_LD, VIZ_CAT_LOCAL_ST,
    VIZ_CAT_SHARED_LD, VIZ_CAT_SHARED_ST,
    VIZ_CAT_GLOBAL_ATOM, VIZ_CAT_SHARED_ATOM, /* atomics and reductions (atom.*, red.*) */
    VIZ_CAT_COUNT
} viz_cat;

const char *viz_cat_name(viz_cat c); /* "global ld", "global atom" */

typedef struct {
    uint64_t requests;   /* warp-level requests */
    uint64_t units;      /* sectors (global/local) or wavefronts (shared) */
    uint64_t ideal;      /* the same for a perfect access of the same bytes */
    uint64_t conflicts;  /* shared: wavefronts - ideal */
} viz_counter;

typedef struct {
    uint64_t instructions;        /* warp-level memory instructions */
    viz_counter cat[VIZ_CAT_COUNT];
    uint64_t l1_hit_sectors, l2_hit_sectors, dram_sectors, write_sectors;
} viz_totals;

/* What a step is: a memory instruction's access (the models' verdict), or one of the asynchronous
 * side's moments (issue 24), built by viz_async.c from the interpreter's ws_async_event records:
 *   LANDED:    a cp.async (its warp's wait_group covered its group) or a bulk copy / TMA (the phase of
 *              its mbarrier completed) has landed: the lanes and bank grid of its shared destination
 *              (a copy of its issuing step's), with its bytes;
 *   MBAR_WAIT: a warp's test/try_wait on an mbarrier: the first that found the phase still open
 *              (stalled: the stall begins) or the one that passed (the stall, if any, ends), with the
 *              mbarrier's arrivals and transaction bytes.
 * Only ACCESS steps carry counts (totals, heat, the quiz skip the others). */
typedef enum { VIZ_STEP_ACCESS = 0, VIZ_STEP_LANDED, VIZ_STEP_MBAR_WAIT } viz_step_kind;

#define VIZ_MAX_PHASES 4

typedef struct viz_step {
    uint64_t seq;                /* event sequence number in the launch */
    viz_step_kind what;
    ws_mem_kind kind;            /* the instruction family (event.h): plain, cp.async, ldmatrix, TMA ... */
    uint32_t block[3];
    uint32_t block_linear;
    uint32_t warp;
    uint32_t pc;
    int src_line, ptx_line;      /* 0 = unknown */
    char ptx_text[VIZ_PTX_TEXT]; /* the instruction, e.g. "ld.shared.f32 %f1, [%r9]" */
    char sass_text[VIZ_SASS_TEXT]; /* the SASS it became, "LDS.128 R4, [R2+0x10] (merged 4 PTX
                                      loads)"; "" when the recording is PTX-level */
    ws_space space;
    ws_mem_op op;
    uint8_t width;               /* bytes per lane */
    uint32_t active_mask;
    viz_lane lane[VIZ_LANES];

    /* shared: the bank grid is 32 banks across, rows[] down */
    int nrows;
    uint32_t rows[VIZ_MAX_ROWS]; /* distinct word rows (offset / 128), ascending */
    int ngroups;                 /* 1, 2 (64-bit) or 4 (128-bit) */
    int wavefronts, ideal_wavefronts;
    int degree;                  /* n-way: most distinct words one bank serves in one group */
    uint8_t bank_words[4][VIZ_BANKS]; /* distinct words bank b serves in group g */
    /* ldmatrix / stmatrix (banks.h's rule): one phase per 8x8 matrix, its 8 row addresses (16 B each,
       128 B in all) from lanes 8p..8p+7; x1 = 1 phase, x2 = 2, x4 = 4. A phase's wavefronts: the most
       distinct words one bank serves among its rows (1 when conflict-free); they sum to wavefronts */
    int nphases;
    uint32_t phase_lanes[VIZ_MAX_PHASES];
    uint8_t phase_wavefronts[VIZ_MAX_PHASES];

    /* global/local */
    int nlines;
    viz_line lines[VIZ_MAX_LINES]; /* ascending by line */
    int requests, sectors, ideal_sectors;

    /* LANDED */
    uint64_t landed_bytes;       /* the copy's bytes now in shared memory */
    uint64_t issued_seq;         /* seq of its issuing (shared-side) step */
    int landed_sectors;          /* cp.async: the global sectors its read took (its global step's) */
    /* LANDED of a bulk copy, MBAR_WAIT: the mbarrier (shared offset) and its state at that moment */
    uint64_t mbar;
    uint32_t mbar_arrived, mbar_expected; /* arrivals of the phase so far / per phase */
    int32_t mbar_tx;             /* transaction bytes still expected (negative: landed before expect_tx) */
    uint64_t mbar_tx_landed;     /* bytes bulk copies completed on it in this phase */
    uint32_t mbar_phase;         /* phases completed (mod 8) */
    /* MBAR_WAIT */
    bool stalled;                /* the wait found the phase open: the warp stalls from here */
    uint32_t wait_tries;         /* waits of this stall so far (the passing one included) */
    uint64_t stall_seq;          /* a passing wait that ended a stall: that stall's first step's seq; else 0 */
    bool stall_ended;            /* a passing wait that ended a stall */

    viz_totals totals;           /* running totals of the launch after this step */
} viz_step;

/* Fills *s from one event's verdict: lanes, the bank model's groups, wavefronts, per-lane
 * wavefront and conflict marks and per-bank word counts (shared), the coalescer's lines,
 * sectors and bytes used and the cache model's outcome of each sector (global/local);
 * word rows and line slots place them on screen. A sector without a cache outcome is
 * VIZ_OUT_UNKNOWN (stores VIZ_OUT_WRITE). Totals are left zero. */
void viz_step_from_verdict(viz_step *s, const ws_mem_verdict *v);

/* The same for an event seen outside a simulated launch: the verdict of the stateless
 * models (ws_models_geometry, local frames at 0), so no cache outcomes. */
void viz_step_from_event(viz_step *s, const ws_mem_event *ev);

/* The slot of 128-B line `line` in s->lines, inserted (zeroed, order kept) when absent;
 * -1 when the step already holds VIZ_MAX_LINES lines. */
int viz_step_line_slot(viz_step *s, uint64_t line);

/* Adds the step's own counts into t (the running total after it). */
void viz_totals_add(viz_totals *t, const viz_step *s);
/* The counter category of a (space, op): loads and stores of global, local and shared
 * memory, global and shared atomics (reductions with them); local atomics and const/param
 * give VIZ_CAT_COUNT (not in the table). A global atomic's units are its sectors by the
 * atomic rule (lanes on one address: one each, as sim counts them). */
viz_cat viz_cat_of(ws_space sp, ws_mem_op op);
viz_cat viz_step_cat(const viz_step *s);

/* Measured and predicted throughput for the panel; a value < 0 is unknown. */
typedef struct {
    char gpu[64];           /* "NVIDIA H200" */
    char date[32];          /* when measured, "2025-06-01" */
    char source[128];       /* where the measurement came from: "results/h200.json" */
    char overrides[96];     /* the -D of the measured run, "" = the description's defaults */
    double measured_gbs;    /* effective bandwidth measured on the GPU */
    double predicted_gbs;   /* the simulator's prediction */
    double peak_gbs;        /* the device profile's DRAM spec peak (not drawn as a bar) */
    double measured_us, predicted_us;
    double bytes_moved;     /* the description's bytes per launch of the measured run */
    double copy_gbs;        /* cuMemcpyDtoD ceiling recorded in the same run */
    double copy_bytes;      /* the size that ceiling was measured at */
    double launch_us;       /* the measured GPU's launch cost as its profile records it
                               (launch_overhead_us, docs/timing-model.md) */
    char launch_basis[64];  /* where launch_us comes from: "H200 profile launch_overhead_us" */
} viz_throughput;

/* Cost of one source line over the whole launch (every block, not only the recorded
 * ones): the sums of the models' verdicts of the memory instructions on it. */
typedef struct {
    uint64_t instructions;  /* warp-level memory instructions */
    uint64_t active_lanes;  /* their active lanes summed (/ 32 instructions: SIMT efficiency) */
    uint64_t sectors, ideal_sectors;       /* global and local */
    uint64_t wavefronts, ideal_wavefronts; /* shared */
} viz_line_heat;

/* What the heat map ranks lines by: L1TEX's work for the line, sectors plus wavefronts
 * (each one pass of its data path). The bar's length. */
uint64_t viz_heat_units(const viz_line_heat *h);
/* Its waste: units over the ideal units of the same bytes (1 = as good as the bytes allow;
 * 1 when there is no ideal to compare with). */
double viz_heat_waste(const viz_line_heat *h);
/* The heat map's colour level in [0, 1], from the waste alone, never from the cost: a
 * line at x1 of ideal is 0 however costly, x2 is 0.5, VIZ_HEAT_RED_WASTE and worse is 1
 * (log scale, so each doubling of waste is the same step of colour). */
#define VIZ_HEAT_RED_WASTE WS_HEAT_RED_WASTE
double viz_heat_level(const viz_line_heat *h);
/* Active lanes / 32 per instruction of the line, in %, 100 when it ran none. */
double viz_heat_lanes_pct(const viz_line_heat *h);

/* Which steps playback walks through: one warp's, one block's (every warp, in issue
 * order), or every recorded block's. */
typedef enum { VIZ_SCOPE_WARP, VIZ_SCOPE_BLOCK, VIZ_SCOPE_KERNEL, VIZ_SCOPE_COUNT } viz_scope;
const char *viz_scope_name(viz_scope s); /* "warp", "block", "kernel" */

/* Where a recording's launch totals, heat map and predicted time come from (issue 25: the
 * steps are simulated first, the totals by a second, sampled run, in the background in a window). */
typedef enum {
    VIZ_TOTALS_FULL = 0,     /* every block counted: the numbers `warpscope sim --full` prints (and a
                                recording built step by step) */
    VIZ_TOTALS_PENDING,      /* not in yet: the totals run has not finished */
    VIZ_TOTALS_SAMPLED,      /* block sampling (sim/sample.h): `warpscope sim`'s sampled estimates */
    VIZ_TOTALS_FAILED        /* the totals run stopped (totals_note says why) */
} viz_totals_state;

/* A simulated launch as the visualizer replays it. */
typedef struct viz_recording {
    char kernel[512];           /* the description's name (WS_KERNEL_NAME_MAX) */
    char source_path[512];
    char device[64];            /* device profile the simulation used */
    char **src_lines;           /* source text split into lines (owned) */
    int nsrc;
    char **ptx_lines;           /* PTX text split into lines (owned), may be 0 */
    int nptx;
    uint32_t grid[3], block_dim[3];
    uint32_t warps_per_block;
    uint32_t first_block, num_blocks; /* the recorded block range (linear) */
    viz_step *steps;            /* in execution order */
    size_t nsteps, cap;
    size_t max_steps;           /* recorder stops storing here (0 = no limit) */
    bool truncated;             /* steps were dropped at max_steps */
    /* what the steps' run simulated: the kept blocks, after a warm-up of the blocks just before them
       (the caches' state), never the whole grid */
    uint64_t grid_blocks;       /* blocks in the launch */
    uint64_t blocks_simulated;  /* blocks the steps' run simulated */
    uint32_t warm_first;        /* the warm-up's first contiguous block (first_block: none) */
    bool warm_partial;          /* the run did not begin at block 0, or skipped blocks before first_block:
                                   running totals and cache outcomes are not the full launch's (false:
                                   they are, up to each step; a recording built by hand) */
    viz_totals_state totals_state;
    char totals_note[160];      /* "sampled: 396 of 16384 blocks", why it failed; "" otherwise */
    viz_totals launch;          /* the whole launch, every block (from the totals run) */
    viz_line_heat *heat;        /* per source line, [0..nheat), index = line (0 = unknown); the whole
                                   launch (from the totals run) */
    int nheat;
    viz_throughput tp;
} viz_recording;

void viz_recording_init(viz_recording *r);
void viz_recording_free(viz_recording *r);
/* Appends a copy of *s; returns 0, or -1 when out of memory. */
int viz_recording_push(viz_recording *r, const viz_step *s);
/* Keeps a copy of text split into lines. Returns 0 or -1 (out of memory). */
int viz_recording_set_source(viz_recording *r, const char *path, const char *text);
int viz_recording_set_ptx(viz_recording *r, const char *text);

/* Adds one memory instruction's counts to source line `line` (grown as needed; lines
 * below 0 count as line 0); lanes: its active lanes (0-32). Returns 0, or -1 when out of
 * memory. */
int viz_recording_heat_add(viz_recording *r, int line, bool shared, uint64_t units, uint64_t ideal, int lanes);
/* The same from a step's own counts (for recordings built step by step). */
int viz_recording_heat_add_step(viz_recording *r, const viz_step *s);
/* The line of the largest viz_heat_units (the first on a tie), 0 when no line has any. */
int viz_recording_worst_line(const viz_recording *r);

/* Steps of one warp (block_linear, warp) in order, or of every warp when warp < 0:
 * writes up to cap step indices into idx and returns how many match. */
size_t viz_recording_filter(const viz_recording *r, uint32_t block_linear, int warp,
                            size_t *idx, size_t cap);
/* Steps of a scope around (block_linear, warp): that warp's, that block's, or all. */
size_t viz_recording_scope(const viz_recording *r, viz_scope sc, uint32_t block_linear, uint32_t warp,
                           size_t *idx, size_t cap);

/* The number a learner predicts for a step: sectors (global, local) or wavefronts (shared). */
int viz_step_answer(const viz_step *s);
/* Whether a step is a memory access with counts (VIZ_STEP_ACCESS). */
bool viz_step_counts(const viz_step *s);
const char *viz_step_unit(const viz_step *s); /* "sectors" / "wavefronts" */

#endif
