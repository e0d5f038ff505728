/* catalog.h - finding kernels: the catalog folder (demos/), user .cu files,
 * and the PTX for each file (the checked-in PTX when it is fresh, otherwise
 * compiled now through NVRTC or nvcc; see ptxgen.h).
 * Invariant: description names are unique across the catalog. */
#ifndef WS_CATALOG_H
#define WS_CATALOG_H

#include "desc.h"
#include "ptxgen.h"
#include "ws_error.h"

typedef struct ws_catalog {
    char dir[WS_PATH_MAX];
    int nfiles;
    ws_desc_file **files;      /* sorted by path */
} ws_catalog;

/* The catalog folder: $WARPSCOPE_CATALOG, else <dir of the executable>/../demos,
 * else ./demos. Returns 0 and writes the path, or -1 with err set. */
int ws_catalog_dir(char *out, size_t cap, ws_error *err);

/* Loads every .cu in dir (NULL = ws_catalog_dir). A duplicate description name
 * across files is an error naming both files. */
int ws_catalog_load(const char *dir, ws_catalog **out, ws_error *err);
void ws_catalog_free(ws_catalog *c);

/* True when a kernel argument names a file ("k.cu", "path/k.cu:name"), not a catalog name. */
bool ws_catalog_arg_is_file(const char *arg);

/* The catalog for a command's kernel arguments: ws_catalog_load(NULL), except that where no
 * catalog folder is found and every argument names a file (a binary copied out of the project
 * running `sim path/to/k.cu`) *out is an empty catalog (dir "") and 0 is returned; the catalog
 * is only needed for catalog names. */
int ws_catalog_load_for(const char *const *args, int nargs, ws_catalog **out, ws_error *err);

/* Resolves a kernel argument as a user types it:
 *   "transpose_naive"          a description in the catalog
 *   "path/to/k.cu"             the only description in that file (error if several)
 *   "path/to/k.cu:name"        one description in that file
 * On success *file is the file (owned by the catalog, or by *owned_file when the
 * argument named a file outside it: free that with ws_desc_free). */
int ws_catalog_resolve(ws_catalog *c, const char *arg, const ws_desc_file **file,
                       const ws_kernel_desc **desc, ws_desc_file **owned_file, ws_error *err);

/* Which checked-in PTX a caller can use, judged by its .target against the arch asked for. */
typedef enum {
    WS_PTX_SAME_TARGET,  /* the simulator: .target must be arch, else compiled for arch (the fresh
                            checked-in text is still used when no compiler can make arch) */
    WS_PTX_LOADABLE      /* a GPU of arch: any .target up to arch, which its driver JIT-compiles */
} ws_ptx_match;

/* Where a PTX text came from. */
typedef struct {
    bool checked_in;              /* the <file>.ptx beside the .cu, else compiled now */
    char path[WS_PATH_MAX + 32];  /* the name for errors: "demos/transpose.ptx" or "k.cu (PTX from nvrtc)" */
    char how[WS_PATH_MAX + 96];   /* "demos/transpose.ptx (checked in, fresh)",
                                     "compiled now with NVRTC 13.0 for sm_90" */
    char compiler[WS_MSG_MAX];    /* the compile path in a few words, for reports: "compiled with NVRTC 13.0",
                                     "nvcc -ptx 13.0 (NVRTC could not: k.cu(1): ... \"cstdio\")", "checked-in PTX" */
    ws_ptxgen_tool tool;          /* NONE for checked-in text */
} ws_ptx_origin;

/* The PTX text for a description file (malloc'd, free it; sim/frontend/catalog_ptx.h parses it): the
 * checked-in <file without .cu>.ptx when it is fresh (its "// warpscope-source-hash: <16 hex>"
 * header matches ws_source_hash(file->source), ptxgen.h) and its .target suits arch under
 * match, else compiled now for arch with line information.
 * origin (may be NULL) says where it came from. Example: the GPU backend asks for
 * ws_catalog_ptx_text(f, "sm_90", WS_PTX_LOADABLE, &o, &err) and JIT-compiles it. */
char *ws_catalog_ptx_text(const ws_desc_file *f, const char *arch, ws_ptx_match match, ws_ptx_origin *origin,
                          ws_error *err);
/* The same for one launch: compiled with L's options (the description's compile line, the
 * command line's macros and options; NULL L = the file's first description's compile line).
 * Either way every entry of f that names an instantiation or an overload ("scale<4>",
 * "k(const int*, int*, int)") is compiled and its lowered name recorded in the text, and a
 * checked-in PTX counts as fresh only when it was made with the same options and names. A launch
 * whose description names a `target` (sm_90a) gets PTX for exactly that target, whatever arch and
 * match say: the checked-in text if it has that .target, else compiled now, else an error. The same
 * holds for any arch that has its own checked-in text beside the file's (x.sm_90a.ptx). */
char *ws_catalog_ptx_text_for(const ws_desc_file *f, const ws_launch *L, const char *arch, ws_ptx_match match,
                              ws_ptx_origin *origin, ws_error *err);


#endif
