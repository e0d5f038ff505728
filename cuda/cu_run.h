/* cu_run.h - running a described launch on the GPU: device buffers filled
 * exactly as the simulator fills them (ws_buffer_fill), the parameter buffer,
 * one verified launch, a timing loop and the device's copy ceiling.
 * Invariant: cu_run_verified launches on freshly uploaded initial contents, so
 * its outputs are comparable with the simulator whatever the kernel writes. */
#ifndef CU_RUN_H
#define CU_RUN_H

#include "cu_module.h"
#include "../common/commands.h"
#include "../sim/frontend/params.h"
#include "../common/desc.h"

#define CU_DEFAULT_REPS 20
#define CU_DEFAULT_TIMEOUT_S 60.0   /* one launch; $WARPSCOPE_GPU_TIMEOUT overrides */
#define CU_COPY_BYTES (1ull << 30)  /* cuMemcpyDtoD ceiling buffer: 1 GiB */

#ifdef WS_HAVE_CUDA
typedef struct {
    const ws_launch *launch;
    int nbuffers;
    CUdeviceptr dptr[WS_MAX_BUFFERS];
    void *init[WS_MAX_BUFFERS];     /* initial contents (host) */
    void *result[WS_MAX_BUFFERS];   /* after the verified run (host), every buffer */
    uint8_t params[WS_MAX_PARAM_BYTES];
    void *kparams[WS_MAX_ARGS];     /* cuLaunchKernel's array: pointers into params */
} cu_buffers;

/* The functions below return 0, a WS_EXIT_* code (> 0: WS_EXIT_USAGE for a launch
 * beyond the GPU's limits or arguments that do not fit, WS_EXIT_KERNEL_FAULT, WS_EXIT_INTERNAL
 * for host memory), or -1 when the GPU or its driver failed a valid request; cu_exit_code
 * turns that into the command's exit code (WS_EXIT_NO_GPU: no usable GPU). */
static inline int cu_exit_code(int rc) { return rc > 0 ? rc : rc < 0 ? WS_EXIT_NO_GPU : WS_EXIT_OK; }

/* Allocates and uploads every buffer of L and builds the parameters for fn. */
int cu_buffers_create(cu_session *s, const ws_launch *L, const ptx_function *fn, cu_buffers *b, ws_error *err);
void cu_buffers_free(cu_session *s, cu_buffers *b);

/* Uploads the initial contents again, launches once, waits (with a timeout:
 * a kernel that does not finish is reported, not waited on forever), and
 * downloads every buffer into b->result. An execution error returns
 * WS_EXIT_KERNEL_FAULT with err naming the CUDA error; a launch the GPU cannot
 * hold (threads, registers, shared memory) WS_EXIT_USAGE; driver failures -1. */
int cu_run_verified(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err);

/* Launches only (for the profiling child: ncu replays this one launch). */
int cu_run_once(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err);

/* One warm-up then `reps` timed launches with CUDA events, each preceded (outside
 * the timed interval) by a memset of a buffer twice the L2 size so every
 * repetition starts with a cold L2; then the cuMemcpyDtoD ceiling in the same
 * run (min(1 GiB, a quarter of free memory), warm-up + reps copies). */
int cu_run_timed(cu_session *s, cu_kernel *k, cu_buffers *b, int reps, cu_timing *t, ws_error *err);
#endif

/* Median, min and max of n samples (sorts v in place). */
void cu_stats(double *v, int n, double *median, double *min, double *max);

#endif
