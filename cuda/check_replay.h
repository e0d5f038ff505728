/* check_replay.h - `warpscope check --replay results/<gpu>.json`: re-runs the simulator
 * side of every recorded run (same kernel, -D values, registers) with the models as
 * built now and re-judges it against the recorded GPU values, so a model change can be
 * measured against the hardware without a GPU.
 * Invariant: the GPU values are taken from the file only; nothing is written back. */
#ifndef CHECK_REPLAY_H
#define CHECK_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/ws_error.h"

/* Replays json_path (only the runs of the nkernels names in kernels, all when 0) and
 * prints, to out: per run the time (GPU, recorded prediction, prediction now, bound) and
 * the cache rows that agree; agreement per class before (the recorded simulator values
 * judged by today's rules) and now; agreement per catalog file; and every row that
 * differs now. verbose adds every judged row. Returns WS_EXIT_OK, WS_EXIT_MISMATCH when
 * an exact counter that agreed in the record differs now, WS_EXIT_USAGE for a bad file or
 * kernel, or another WS_EXIT_* code with err set. */
int chk_replay(const char *json_path, const char *const *kernels, int nkernels, bool verbose, FILE *out,
               ws_error *err);

typedef enum { CHK_REPLAY_MARKDOWN, CHK_REPLAY_CSV, CHK_REPLAY_JSON } chk_replay_format;
/* chk_replay in a chosen form: CSV writes only the long-format records (docs/csv.md): per
 * run and judged metric, the GPU value (basis "measured") and the simulator's now (basis =
 * the metric's class); time in us. JSON: one document (docs/json-schema.json, "check --replay"). */
int chk_replay_as(const char *json_path, const char *const *kernels, int nkernels, bool verbose, chk_replay_format fmt,
                  FILE *out, ws_error *err);

#endif
