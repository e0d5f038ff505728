/* ptxgen.h - compiling CUDA C to PTX with line information, the way the user's build
 * does: NVRTC loaded at run time (dlopen, so one binary runs everywhere) with the
 * toolkit's headers (CUDA and CCCL) on its include path and the user's -I, -D, -std;
 * where NVRTC cannot compile the file (C/C++ library headers such as <cstdio>), nvcc -ptx.
 * Template instantiations and overloads a description names are compiled and resolved
 * exactly (NVRTC name expressions; for nvcc, an address-taking __device__ variable).
 * Invariant: returned PTX text starts with the "// warpscope-source-hash:" line of the
 * source bytes compiled, then the "// warpscope-..." lines below, then the compiler's PTX. */
#ifndef WS_PTXGEN_H
#define WS_PTXGEN_H

#include <stdbool.h>
#include <stddef.h>
#include "ws_error.h"

/* ---- compiler options ------------------------------------------------------------------ */

#define WS_COMPILE_MAX_OPTS 48
#define WS_COMPILE_OPT_MAX 256

/* Options in the one spelling both compilers take: "-Idir", "-DNAME", "-DNAME=VALUE",
 * "-UNAME", "-std=c++17", "--use_fast_math", "-ftz=true", "-prec-div=false",
 * "-prec-sqrt=false", "-fmad=false", "--expt-relaxed-constexpr", "--extended-lambda"; and
 * "-Xptxas=-v" (one per ptxas option, from a fixed list), which neither PTX compiler is given.
 * Every one is a fixed word or a value checked to a plain character set (docs/security.md).
 * Order is kept (a later -D wins, as in a compiler). */
typedef struct {
    int n;
    char opt[WS_COMPILE_MAX_OPTS][WS_COMPILE_OPT_MAX];
} ws_compile_opts;

/* Parses a description's compile line ("-I inc -DTILE=32 -std=c++17") and appends its
 * options to o. base_dir ("" or NULL = none) is joined to relative -I folders, so they are
 * relative to the .cu as #include "..." is. file/line/col locate text for errors, which
 * point at the offending word: "unknown compiler option '-O2' (known: ...)". */
int ws_compile_opts_parse(const char *text, const char *base_dir, const char *file, int line, int col,
                          ws_compile_opts *o, ws_error *err);
/* Appends one option, written either way ("-I", "dir" as two words is for parse). */
int ws_compile_opts_add(ws_compile_opts *o, const char *opt, const char *base_dir, ws_error *err);
/* Is opt a recorded ptxas option ("-Xptxas=-v"), kept out of the PTX compilers' options? */
bool ws_compile_opt_is_ptxas(const char *opt);
/* "-Iinc -DTILE=32 -std=c++17" ("" when none). */
void ws_compile_opts_text(const ws_compile_opts *o, char *out, size_t cap);

/* ---- compiling ------------------------------------------------------------------------- */

typedef enum { WS_PTXGEN_NONE = 0, WS_PTXGEN_NVRTC, WS_PTXGEN_NVCC } ws_ptxgen_tool;

typedef struct {
    const char *path;             /* the .cu, for messages, .file and its folder's #include "..." */
    const char *source;           /* its text (len bytes) */
    size_t len;
    const char *arch;             /* "sm_90" */
    const ws_compile_opts *opts;  /* NULL = none */
    int nnames;                   /* entries to instantiate and resolve: "scale<4>", */
    const char *const *names;     /* "k(const int*, int*, int)", "ns::k<float>(float*)" */
} ws_ptxgen_job;

typedef struct {
    ws_ptxgen_tool tool;
    char version[32];             /* "13.0" (NVRTC's own, or nvcc's release) */
    char tool_text[64];           /* "NVRTC 13.0", "nvcc -ptx 13.0" */
    char why[WS_MSG_MAX / 2];     /* why nvcc: "NVRTC could not: <its first error>", "no NVRTC library found"; "" */
    char how[WS_MSG_MAX];         /* "compiled with NVRTC 13.0", "nvcc -ptx 13.0 (NVRTC could not: ...)" */
} ws_ptxgen_info;

/* Compiles job; returns malloc'd PTX or NULL with err set (compiler diagnostics: the first
 * line in err->msg, the whole log on stderr). The text starts with
 *   // warpscope-source-hash: <16 hex>          FNV-1a 64 of the source bytes
 *   // warpscope-compiler: <how>
 *   // warpscope-options: <ws_compile_opts_text>  (only when there are options)
 *   // warpscope-name: <name> = <mangled>        one per job name, the compiler's own answer
 * Tool choice: NVRTC when it loads; on any NVRTC failure nvcc -ptx when it is found (info->how
 * says "NVRTC could not: <its first error>"); WARPSCOPE_PTXGEN=nvrtc|nvcc|none restricts it. */
char *ws_ptxgen_run(const ws_ptxgen_job *job, ws_ptxgen_info *info, ws_error *err);

/* The mangled name the text's "// warpscope-name:" lines give for name, into out; false
 * when the text has none for it. */
bool ws_ptxgen_lowered_name(const char *ptx_text, const char *name, char *out, size_t cap);

/* The compile options a PTX text was made with (its "// warpscope-options:" line), "" if none. */
void ws_ptxgen_text_options(const char *ptx_text, char *out, size_t cap);

/* Compiles source (named path) for arch ("sm_90") with no options and no names.
 * *how gets "nvrtc" or "nvcc" (may be NULL). Same text and errors as ws_ptxgen_run. */
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

/* The toolkit folders NVRTC is given (-I): the CUDA headers next to the NVRTC library that
 * was loaded (else $CUDA_HOME, /usr/local/cuda), and their cccl/ folder when it exists.
 * Returns how many were written (0 without a toolkit). */
int ws_ptxgen_toolkit_includes(char dirs[][WS_PATH_MAX], int max);

#endif
