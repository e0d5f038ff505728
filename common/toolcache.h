/* toolcache.h - the products of the external compilers kept on disk, so a kernel seen before
 * costs no compile: ptxas -v's report, the ptxas + nvdisasm SASS listing, the PTX NVRTC or nvcc
 * made of a .cu, and the small answers the tool search needs (versions, python's site folders).
 * An entry is found by its key: the caller's text naming everything the product depends on (the
 * input's bytes as a hash, the tool's path and version, the options).
 * Folder: $WARPSCOPE_CACHE, else $XDG_CACHE_HOME/warpscope, else $HOME/.cache/warpscope;
 * WARPSCOPE_CACHE=off keeps nothing (every product is made again).
 * Invariant: a reader sees a whole entry or none. Writes go to a temporary file renamed into
 * place; reads take regular files only, at most WS_CACHE_MAX_BYTES, and an entry whose header,
 * key or length does not match, or whose bytes do not match the hash recorded with them, is a
 * miss (the next put rewrites it); one that is damaged, not merely another key's, is said on
 * stderr ("warpscope: warning: cache entry ... is damaged (...)"). Failing to write is never
 * an error: the product was made, it is only not kept. */
#ifndef WS_TOOLCACHE_H
#define WS_TOOLCACHE_H

#include <stdbool.h>
#include <stddef.h>

#define WS_CACHE_MAX_BYTES (64u << 20)   /* the largest entry read back */

/* The cache folder into out; false when the cache is off (WARPSCOPE_CACHE=off) or no folder can
 * be named (no HOME). */
bool ws_cache_dir(char *out, size_t cap);
/* Where scripts/deps.sh puts the nvdisasm wheel: <cache>/nvdisasm, with the default folder when
 * the cache is off (an installed tool, not a product). false when no folder can be named. */
bool ws_cache_tools_dir(char *out, size_t cap);
/* The same folder under the default cache ($XDG_CACHE_HOME/warpscope, else ~/.cache/warpscope),
 * whatever $WARPSCOPE_CACHE says: a wheel fetched there stays found when a run (or a test binary)
 * points its products at another cache. false when no folder can be named. */
bool ws_cache_default_tools_dir(char *out, size_t cap);

/* A 128-bit content hash of len bytes as 32 hex digits (two independent 64-bit FNV-1a style
 * hashes; not cryptographic: the folder is the user's own, made 0700). */
void ws_cache_hash(const void *data, size_t len, char out[33]);

/* The entry of kind ("sass", "resources", "ptx", "version", "pysite": a subfolder) for key, or
 * NULL (a miss). Returns malloc'd bytes with a NUL after them; *len (may be NULL) the count. */
char *ws_cache_get(const char *kind, const char *key, size_t *len);
/* Keeps data[0..len) as kind's entry for key. Returns 0, or -1 when it was not kept. */
int ws_cache_put(const char *kind, const char *key, const void *data, size_t len);

#endif
