/* child.h - the one way warpscope starts another program (ptxas, nvcc, cuobjdump, nvdisasm,
 * ncu): fork + exec in its own process group, stdout and stderr captured together, under a
 * wall-clock limit (the whole group is killed) and, per process, RLIMIT_CPU and RLIMIT_AS.
 * Invariant: no child outlives ws_child_run, and when a limit ended it the result says which
 * one, so a caller can tell "ptxas stopped after 60 s of CPU time" from "ptxas failed". */
#ifndef WS_CHILD_H
#define WS_CHILD_H

#include <stdint.h>

#include "ws_error.h"

/* Defaults for the compilers and disassemblers (a normal kernel needs well under a second and
 * a few hundred MiB; `.shared .align 1073741824` made ptxas take 26 s and 4 GB). */
#define WS_CHILD_WALL_S 120.0             /* seconds of wall-clock time for the whole group */
#define WS_CHILD_CPU_S 60.0               /* seconds of CPU time, each process */
#define WS_CHILD_MEM_BYTES (2ull << 30)   /* bytes of address space, each process */
#define WS_CHILD_NO_LIMIT (-1.0)          /* cpu_s: none */
#define WS_CHILD_NO_MEM_LIMIT UINT64_MAX  /* mem_bytes: none (a CUDA program: its driver maps
                                             the GPU's whole address space) */

typedef struct {
    double wall_s;            /* 0 = WS_CHILD_WALL_S */
    double cpu_s;             /* 0 = WS_CHILD_CPU_S; WS_CHILD_NO_LIMIT = none */
    uint64_t mem_bytes;       /* 0 = WS_CHILD_MEM_BYTES; WS_CHILD_NO_MEM_LIMIT = none */
    const char *tmpdir;       /* the child's TMPDIR (TMP and TEMP dropped); NULL = inherited. A tool
                                 that builds shell commands from its temporary paths (nvcc) gets a
                                 folder of warpscope's own making, never the user's TMPDIR text */
} ws_child_limits;

typedef enum { WS_CHILD_LIMIT_NONE, WS_CHILD_LIMIT_WALL, WS_CHILD_LIMIT_CPU, WS_CHILD_LIMIT_MEMORY } ws_child_limit;

typedef struct {
    int status;               /* exit status; -1 when a signal ended it */
    int signal;               /* the signal that ended it, 0 = none */
    char *output;             /* stdout + stderr, NUL-terminated, malloc'd: free it */
    ws_child_limit limit;     /* the limit that stopped it, WS_CHILD_LIMIT_NONE = none */
    char why[320];            /* "" when it exited 0, else one clause for a message: "ptxas was
                                 stopped after 60 s of CPU time (its limit)", "ptxas exited with
                                 status 255 after reaching 1.9 GiB of its 2 GiB memory limit", ... */
    double wall_used_s, cpu_used_s;
    uint64_t peak_bytes;      /* the largest address space seen (VmPeak), 0 = unknown */
} ws_child_result;

/* Runs argv[0] (a path, not looked up in PATH) with argv under lim (NULL = the defaults).
 * Returns 0 when it ran, whatever its status (r filled: free r->output); -1 when it could not
 * be started, with err set. Example:
 *   char *av[] = {ptxas, "-v", "-arch=sm_90", "-e", entry, "-o", "/dev/null", path, NULL};
 *   ws_child_result r;
 *   if (ws_child_run(av, NULL, &r, &err) == 0 && r.status == 0) parse(r.output);
 *   else if (r.limit) puts(r.why);
 *   free(r.output); */
int ws_child_run(char *const argv[], const ws_child_limits *lim, ws_child_result *r, ws_error *err);

/* A positive number of seconds from environment variable name ("WARPSCOPE_GPU_TIMEOUT"):
 * unset or empty gives def; anything but a finite number > 0 and <= max is refused with err
 * naming the variable and what it needs. Returns 0 or -1. */
int ws_env_seconds(const char *name, double def, double max, double *out, ws_error *err);

#endif
