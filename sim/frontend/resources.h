/* resources.h - what a kernel occupies per thread and per block, as ptxas reported it
 * in <file>.resources beside the .cu (written by `make ptx`), else estimated from the
 * PTX: the registers and static shared memory the occupancy calculator needs.
 * Invariant: `warpscope sim` and the visualizer read the same figures for a kernel, so
 * their occupancy, L1 size and cache outcomes agree. */
#ifndef WS_RESOURCES_H
#define WS_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "../../common/child.h"
#include "../../common/ws_error.h"
#include "ptx.h"

/* Registers assumed without a ptxas report (a typical small kernel). */
#define WS_ESTIMATED_REGS 32

typedef struct {
    int regs;                        /* registers per thread */
    uint32_t static_smem;            /* static shared bytes per block */
    uint64_t local_bytes;            /* local frame bytes per thread */
    bool from_ptxas;                 /* false: estimated */
    char arch[16];                   /* "sm_90": the target ptxas reported for; "" when unknown */
    char source[WS_PATH_MAX + 64];   /* "ptxas, demos/transpose.resources" or "estimate: ..." */
} ws_resources;

/* Reads the line "<entry> regs=<n> shared=<b> local=<b> ..." of <cu_path without .cu>.resources
 * ('#' lines are comments). Returns 0 and fills r when found, -1 when there is no such
 * file or line (r untouched). Example: ws_resources_read("demos/transpose.cu",
 * "_Z15transpose_naivePfS_ii", &r) gives r.regs = 10. */
int ws_resources_read(const char *cu_path, const char *entry, ws_resources *r);

/* Runs ptxas (common/toolkit.h's, the one every stage uses) on ptx_text for arch ("sm_90")
 * with -v, for entry alone (-e), under lim (common/child.h; NULL = the defaults), and takes
 * entry's registers, static shared memory and stack frame from its report. The report is kept
 * in the tool cache (common/toolcache.h) under the PTX's hash, ptxas's path and version, arch
 * and entry, so the same kernel again runs no ptxas (r->source then says "cached").
 * Returns 0 and fills r, or -1 (no ptxas, no report for entry, or a limit stopped it: then
 * r->source says which, "ptxas was stopped after 60 s of CPU time (its limit)"). */
int ws_resources_ptxas(const char *ptx_text, const char *arch, const char *entry, const ws_child_limits *lim,
                       ws_resources *r);

/* The checked-in report's figures for fn when it was made for arch (its "# ptxas <version>
 * <arch>" header), else ptxas -arch=<arch> run now on ptx_text (when both are given and a
 * toolkit is installed), else the checked-in report for another arch, named in r->source as
 * an approximation, else the estimate: WS_ESTIMATED_REGS registers and the static shared and
 * local bytes the PTX declares. */
void ws_resources_of(const char *cu_path, const ptx_function *fn, const char *ptx_text, const char *arch,
                     ws_resources *r);

#endif
