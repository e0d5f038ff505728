/* cu_ptx.h - the PTX text the GPU backend JIT-compiles: the very text the
 * simulator parses, so both run the same code.
 * Invariant: the text returned is what ws_catalog_ptx would parse for the file
 * (the checked-in <file>.ptx when its source hash is fresh, else compiled now),
 * recompiled for the device only when its .target is newer than the device. */
#ifndef CU_PTX_H
#define CU_PTX_H

#include "../common/desc.h"
#include "../common/ws_error.h"

/* Returns malloc'd PTX text for file f that a device of compute capability
 * cc_major.cc_minor can load (cc 0.0 = any, use the checked-in PTX when fresh).
 * *how gets "checked-in <path>" or "compiled (nvrtc|nvcc) for sm_XX". NULL + err on failure. */
char *cu_ptx_text(const ws_desc_file *f, int cc_major, int cc_minor, char *how, size_t how_cap,
                  ws_error *err);

/* The number in the text's ".target sm_XX" line (90 for sm_90, 0 if none). */
int cu_ptx_target_sm(const char *text);

/* True when text starts with a "// warpscope-source-hash: <hex>" line equal to hash. */
bool cu_ptx_hash_matches(const char *text, unsigned long long hash);

#endif
