/* report_pictures.h - one execution of each (source line, space, op) of a run, kept for the
 * pictures of `sim --html` (sim/report/report_html.c): which lanes ran, each lane's address, and
 * what the models said of it: the sectors of a global or local access, the banks and wavefronts
 * of a shared one. An observer of the verdicts (sim/simulate.h's observer); it copies the
 * verdict and computes nothing.
 * Invariant: the first execution seen of each row is the one kept; the verdicts arrive in the
 * one-thread order whatever -j is, so the pictures of a run are the same for every -j. *
 * Room sim/report/: what sim prints: documents for common/emit.h, built from finished sums; no model runs here. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_REPORT_PICTURES_H
#define WS_REPORT_PICTURES_H

#include <stdbool.h>
#include <stdint.h>

#include "../models/models.h"

typedef struct {
    int line;                    /* .cu line, 0 = unknown */
    ws_space space;
    ws_mem_op op;
    ws_mem_kind kind;
    uint32_t block[3];           /* blockIdx of the execution kept */
    uint32_t warp;               /* warp index inside that block */
    uint8_t width;               /* bytes per lane */
    uint32_t active_mask;
    uint64_t addr[32];           /* the event's lane addresses (event.h: 0 for inactive lanes) */
    bool has_co, has_bk;         /* which verdict part is there */
    ws_coalesce_result co;       /* global / local: requests, sectors, each lane's sectors */
    ws_bank_result bk;           /* shared: each lane's bank and wavefront */
} ws_line_pic;

typedef struct ws_line_pics {
    ws_line_pic *pic;            /* malloc'd, [0..n) */
    int n, cap;
    bool oom;                    /* an allocation failed: some rows have no picture */
} ws_line_pics;

/* ws_verdict_fn: ctx = a zeroed ws_line_pics. Keeps the first execution of each row. */
void ws_line_pics_verdict(void *ctx, const ws_mem_verdict *v);
/* The picture of (line, space, op), NULL when none was kept. */
const ws_line_pic *ws_line_pics_find(const ws_line_pics *p, int line, ws_space space, ws_mem_op op);
void ws_line_pics_free(ws_line_pics *p);

#endif
