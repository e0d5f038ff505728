/* check_save.h - `check --save DIR`: one kernel's buffers as the simulator and the GPU left them,
 * written by the one writer `sim --save` uses (common/save.h) into DIR/sim and DIR/gpu, or, when
 * the check runs several kernels, DIR/<kernel>/sim and DIR/<kernel>/gpu. Needs no CUDA (the
 * contents are host memory), so the tests run it here.
 * Invariant: the two folders hold the same file names, so `diff -r` or numpy compares them. */
#ifndef CHECK_SAVE_H
#define CHECK_SAVE_H

#include <stdbool.h>

#include "../common/desc.h"
#include "../common/ws_error.h"

typedef struct {
    const char *dir;          /* --save's folder */
    bool per_kernel;          /* several kernels: a folder per kernel under dir */
    bool inputs;              /* --save-inputs: the initial contents in each folder too */
    const char *overrides;    /* the -D text */
    const char *entry;        /* the PTX entry name */
} chk_save_opts;

/* Writes sim's buffers (NULL: not simulated, --gpu-only) and gpu's for L. Returns WS_EXIT_OK,
 * or save.h's codes with err set; *where gets the folder written (the kernel's under
 * per_kernel). */
int chk_save_run(const chk_save_opts *o, const ws_launch *L, void *const *sim, void *const *gpu, char *where,
                 size_t where_cap, ws_error *err);

#endif
