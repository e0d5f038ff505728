/* toolkit.h - where the external CUDA programs are, in one search order for all of them, and
 * running them (through common/child.c). Every stage that needs ptxas (the register count, the
 * SASS listing) asks here, so one run uses one ptxas whatever CUDA_HOME and PATH say.
 * The order, for tool T (PTXAS, NVDISASM, CUOBJDUMP, NVCC, NCU):
 *   1. $WARPSCOPE_T (for nvcc also $NVCC, its old name): when set, that file or nothing;
 *   2. T on PATH;
 *   3. $CUDA_HOME/bin/T;
 *   4. /usr/local/cuda/bin/T;
 *   5. ncu: the newest /opt/nvidia/nsight-compute/<version>/ncu; the others: NVIDIA's pip wheels
 *      (nvidia/{cu13,cu12,cuda_nvdisasm,cuda_nvcc,cuda_cuobjdump}/bin/T) under <cache>/nvdisasm
 *      (where scripts/deps.sh fetches the nvdisasm wheel), each $PYTHONPATH folder, and python3's
 *      site folders. python3 is asked for those at most once per process, and its answer is kept
 *      in the cache (common/toolcache.h) keyed by the interpreter file and its environment.
 * Invariant: an answer (found or not) is memoised here and nowhere else; ws_tool_forget() is
 * for tests that change the environment. */
#ifndef WS_TOOLKIT_H
#define WS_TOOLKIT_H

#include <stdbool.h>
#include <stddef.h>

#include "child.h"
#include "ws_error.h"

typedef enum { WS_TOOL_PTXAS, WS_TOOL_NVDISASM, WS_TOOL_CUOBJDUMP, WS_TOOL_NVCC, WS_TOOL_NCU, WS_TOOL_COUNT } ws_tool;

const char *ws_tool_name(ws_tool t);        /* "ptxas" */

/* A regular file this process may execute (the one test every search uses). */
bool ws_tool_executable(const char *path);

/* Finds t in the order above. Returns 0 and the path in out, or -1 (why in err when err is not
 * NULL: what was looked at, or that $WARPSCOPE_T names no executable, and what to run).
 * Example: char ptxas[WS_PATH_MAX]; if (ws_tool_find(WS_TOOL_PTXAS, ptxas, sizeof ptxas, &err)) ... */
int ws_tool_find(ws_tool t, char *out, size_t cap, ws_error *err);

/* The version t reports ("13.0.88" from ptxas/nvcc/nvdisasm's "release 13.0, V13.0.88",
 * "2025.3.1.0" from ncu's "Version 2025.3.1.0"), "unknown" when it says none. Asked once per tool
 * file: the answer is memoised and kept in the cache keyed by the file's identity (device, inode,
 * size, modification time), so a later run starts no process for it. Returns 0, or -1 when t is
 * not found (out = ""). */
int ws_tool_version(ws_tool t, char *out, size_t cap);
/* The same for a tool file given by path (nvcc named by its caller, tests). */
void ws_tool_version_of(const char *path, char *out, size_t cap);

/* The sentence for a missing tool, what to run before where it looked: "nvdisasm not found; run
 * scripts/deps.sh (make demo does), which fetches NVIDIA's nvidia-cuda-nvdisasm wheel into
 * <cache>/nvdisasm (looked at ...)". */
void ws_tool_missing(ws_tool t, char *out, size_t cap);

/* Runs argv (argv[0] a path from ws_tool_find) under lim (NULL = common/child.h's defaults).
 * Returns its stdout+stderr (malloc'd) and *status, or NULL with why (the limit that stopped it,
 * or why it did not start; *status = -1). */
char *ws_tool_run(char *const argv[], const ws_child_limits *lim, int *status, char *why, size_t cap);

/* Where NVRTC may be loaded from, in order: the bare names for the system loader
 * ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"), then the same under $CUDA_HOME/lib64 and
 * /usr/local/cuda/lib64. Fills up to max paths; returns how many. */
int ws_tool_nvrtc_candidates(char paths[][WS_PATH_MAX], int max);

/* Drops every memoised answer (tests that change PATH, CUDA_HOME, WARPSCOPE_*). */
void ws_tool_forget(void);

#endif
