/* ptxgen_cache.h - the generated PTX of a .cu kept in the tool cache (common/toolcache.h), so
 * compiling a kernel seen before costs no NVRTC or nvcc run. The key holds everything the PTX
 * depends on that warpscope can name: the source bytes, the bytes of every header it includes
 * from its own folder or an -I folder (found by following the #include lines, transitively),
 * the .cu's absolute path (it is written into .file), arch, options, names, both compilers'
 * identities and WARPSCOPE_PTXGEN. Headers of the toolkit and the system are covered by the
 * compiler's identity.
 * Invariant: a source with a computed #include (`#include MACRO`), or more headers than
 * WS_PTXGEN_CACHE_MAX_DEPS, gets no key: it is always compiled. */
#ifndef WS_PTXGEN_CACHE_H
#define WS_PTXGEN_CACHE_H

#include "ptxgen.h"

#define WS_PTXGEN_CACHE_MAX_DEPS 64

/* The key for job (malloc'd), or NULL when it cannot be cached (see above, or out of memory).
 * compilers: one line per compiler naming it ("nvrtc=<lib> 13.0 <file id>\nnvcc=<path> 13.0.88\n");
 * toolkit_inc: the folders NVRTC is given after the user's -I (count n). */
char *ws_ptxgen_cache_key(const ws_ptxgen_job *job, const char *compilers, char toolkit_inc[][WS_PATH_MAX], int n);

/* The cached PTX for key with info as it was when it was made (malloc'd), or NULL. */
char *ws_ptxgen_cache_get(const char *key, ws_ptxgen_info *info);
/* Keeps ptx and info under key (best effort). */
void ws_ptxgen_cache_put(const char *key, const ws_ptxgen_info *info, const char *ptx);

#endif
