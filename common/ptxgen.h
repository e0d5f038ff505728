/* ptxgen.h - compiling CUDA C to PTX with line information: NVRTC loaded at run
 * time (dlopen, so one binary runs everywhere), falling back to `nvcc -ptx`.
 * Invariant: returned PTX text starts with the "// warpscope-source-hash:" line. */
#ifndef WS_PTXGEN_H
#define WS_PTXGEN_H

#include <stddef.h>
#include "ws_error.h"

/* Compiles source (named path, for messages and .loc) for arch ("sm_90").
 * Returns malloc'd PTX text or NULL with err set; compiler diagnostics are put
 * in err->msg (first line) and printed in full to stderr. *how gets "nvrtc" or
 * "nvcc" (may be NULL). */
char *ws_ptxgen_compile(const char *path, const char *source, size_t len, const char *arch,
                        const char **how, ws_error *err);

/* nvcc's limits (common/child.h): a file of a few thousand kernels compiles in ~15 s and 150 MiB;
 * a limit that stops it is named in err. */
#define WS_PTXGEN_NVCC_WALL_S 600.0
#define WS_PTXGEN_NVCC_CPU_S 300.0
#define WS_PTXGEN_NVCC_MEM_BYTES (4ull << 30)

/* FNV-1a 64 of the source text: the freshness key written into generated PTX
 * (and checked against the checked-in PTX by ws_catalog_ptx_text). */
unsigned long long ws_source_hash(const char *text, size_t len);

#endif
