/* desc.h - kernel descriptions: the small declarative header that sits in a
 * .cu file right above a __global__ kernel and says how to run it.
 *
 * Format (one block per described launch; several per file):
 *
 *   / *@warpscope       (written without the space: slash, star, @warpscope)
 *   kernel  transpose_naive            name of this description (unique per file)
 *   entry   transpose_naive            __global__ function to launch (default: kernel name);
 *                                      a template instantiation "scale<4>" or an overload
 *                                      "k(const int*, int*, int)" names one exactly
 *   compile -I inc -DTILE=32 -std=c++17   compiler options (-I -D -U -std and the maths flags)
 *   note    Naive transpose: reads coalesced, writes strided by H.
 *   stars   1                          difficulty 1..3 (default 1)
 *   param   W = 1024                   integer parameter, overridable with -D W=...
 *   param   H = W
 *   buffer  in   float  W*H  init=index
 *   buffer  out  float  W*H  init=zero  output
 *   buffer  idx  int    W    init=random(7, 0, W)       seeded: random(seed[, lo, hi])
 *   buffer  p    int    W    init=perm(3)               a seeded permutation of 0..W-1
 *   buffer  x    half   W    init=file(x.npy)           raw bytes or a NumPy .npy, beside the .cu
 *   buffer  acc  float  1    init=const(0.5)  output tol=1e-4   (or ulp=2: units in the last place)
 *   buffer  tmp  float  N    init=none        never initialised: reads before writes are reported
 *   grid    (W+31)/32, (H+31)/32        1-3 integer expressions (x, y, z)
 *   block   32, 32
 *   shared  0                          dynamic shared memory in bytes (expression)
 *   bytes   2*W*H*4                    bytes a perfect kernel moves (default: sum of buffer sizes,
 *                                      output buffers that are also read count once)
 *   args    in, out, W, H              buffer names, integer expressions or float literals (2.0f / 2.5);
 *                                      a braced struct {..} is refused (fields as parameters, or a buffer)
 *   cooperative                        launch it as cudaLaunchCooperativeKernel does: every block
 *                                      resident at once, so cooperative_groups' grid.sync() works
 *   cluster 2, 1, 1                    launch in thread-block clusters of these dimensions (as
 *                                      cudaLaunchKernelEx's cluster attribute does); each divides the
 *                                      grid's; a kernel's __cluster_dims__ needs no line. Add
 *                                      `nonportable` for more than 8 blocks (at most 16 on Hopper)
 *   realistic N = 1<<26                the size `--realistic` runs it at (NAME = EXPR, ...; each a
 *                                      param): beyond the L2. A class word first says why a smaller
 *                                      one is right: `l2-resident` (the lesson's data lives in L2:
 *                                      contended atomics) or `compute-bound` (a GEMM's reuse)
 *   target  sm_90a                     the architecture its PTX must be compiled for, whatever the
 *                                      command line's or the device's (wgmma, setmaxnreg: sm_90a)
 *   * /                 (the comment's close, without the space)
 *
 * Lines are "keyword rest"; '#' starts a comment to end of line. Expressions are
 * 64-bit signed integer arithmetic over parameters: + - * / % << >> & | ^ ~ ( ),
 * unary -, comparisons (< <= > >= == != give 0/1), ?: , min(a,b), max(a,b),
 * cdiv(a,b) (ceiling division), and integer literals (decimal, 0x hex, 1<<k).
 * A parameter may use earlier parameters. Errors carry file, line and column.
 *
 * Element types (docs/description-format.md has the table): char uchar short ushort int
 * uint long ulong (also int8 uint8 int16 uint16 int32 uint32 int64 uint64), half bf16 float
 * double, and vectors of them (float2 float4 int2 int4 uint2 uint4 double2 half2 bf16x2
 * char2 char4 uchar2 uchar4 short2 short4 ushort2 ushort4 long2 ulong2). Vector types
 * initialise lane by lane as if the buffer were count*lanes scalars (see buffers.h). */
#ifndef WS_DESC_H
#define WS_DESC_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "tmap.h"
#include "ptxgen.h"
#include "ws_error.h"

#define WS_NAME_MAX 64
/* kernel names and the descriptions named by them: C++ names and instantiations of any length a
 * real build has (CUTLASS template names run to hundreds of characters) */
#define WS_KERNEL_NAME_MAX 512
#define WS_NOTE_MAX 256
#define WS_MAX_PARAMS 24
#define WS_MAX_BUFFERS 16
#define WS_MAX_ARGS 24

typedef enum {
    WS_TYPE_CHAR, WS_TYPE_UCHAR, WS_TYPE_SHORT, WS_TYPE_USHORT, WS_TYPE_INT, WS_TYPE_UINT,
    WS_TYPE_LONG, WS_TYPE_ULONG, WS_TYPE_FLOAT, WS_TYPE_DOUBLE,
    WS_TYPE_FLOAT2, WS_TYPE_FLOAT4, WS_TYPE_INT2, WS_TYPE_INT4, WS_TYPE_DOUBLE2,
    WS_TYPE_HALF, WS_TYPE_BF16,                 /* IEEE binary16 (__half), bfloat16 (__nv_bfloat16) */
    WS_TYPE_HALF2, WS_TYPE_BF16X2,              /* __half2, __nv_bfloat162 */
    WS_TYPE_CHAR2, WS_TYPE_CHAR4, WS_TYPE_UCHAR2, WS_TYPE_UCHAR4, WS_TYPE_SHORT2, WS_TYPE_SHORT4,
    WS_TYPE_USHORT2, WS_TYPE_USHORT4, WS_TYPE_UINT2, WS_TYPE_UINT4, WS_TYPE_LONG2, WS_TYPE_ULONG2,
    WS_TYPE_COUNT
} ws_type;

/* Name as written in a description ("float4"); NULL for out-of-range. */
const char *ws_type_name(ws_type t);
/* Parses a type name or one of its aliases ("int64" = long, "__half" = half, "__nv_bfloat16" = bf16);
 * returns 0 and sets *out, or -1. */
int ws_type_parse(const char *name, ws_type *out);
size_t ws_type_size(ws_type t);     /* bytes of one element: float4 -> 16 */
int ws_type_lanes(ws_type t);       /* scalars per element: float4 -> 4 */
ws_type ws_type_scalar(ws_type t);  /* float4 -> float */
bool ws_type_is_float(ws_type t);   /* scalar is half, bf16, float or double */
bool ws_type_is_signed(ws_type t);  /* scalar is a signed integer or floating point */
/* The known type names, space-separated, for messages. */
const char *ws_type_list(void);

typedef struct ws_expr ws_expr; /* parsed integer expression (opaque) */

typedef enum {
    WS_INIT_ZERO, WS_INIT_INDEX, WS_INIT_RANDOM, WS_INIT_CONST,
    WS_INIT_FILE,        /* file(path): raw bytes or a NumPy .npy (v1, v2, v3) */
    WS_INIT_PERM,        /* perm(seed): a seeded permutation of 0..n-1 (n scalars) */
    WS_INIT_RANDINT,     /* randint(seed, lo, hi): integers in [lo, hi), for any element type */
    WS_INIT_LCG,         /* lcg(seed[, a, c, m[, lo, hi]]): a linear congruential sequence */
    WS_INIT_TMAP         /* tmap(NAME): the 128-byte encoded tensor map of a tmap line, for a kernel that
                            takes `const CUtensorMap *`; written by the launcher once addresses exist */
} ws_init_kind;

typedef struct {
    char name[WS_NAME_MAX];
    ws_expr *value;     /* default value expression; replaced by -D */
    int line;
} ws_param_decl;

typedef struct {
    char name[WS_NAME_MAX];
    ws_type type;
    ws_expr *count;       /* elements */
    ws_init_kind init;
    ws_expr *seed;        /* random: seed */
    ws_expr *lo, *hi;     /* random: range [lo, hi); NULL = default (0,1 floats; 0,100 ints) */
    double const_value;   /* const(v) */
    ws_expr *lcg_a, *lcg_c, *lcg_m; /* lcg: multiplier, increment, modulus; NULL = 1664525, 1013904223, 2^32 */
    char file[WS_PATH_MAX]; /* file(path) as written; relative paths are from the .cu's folder */
    int file_col;         /* column of the path, for messages about the file */
    bool output;          /* compared after a run */
    double tol;           /* relative tolerance for outputs; 0 = bit-exact */
    uint32_t ulp;         /* outputs: also equal within this many units in the last place; 0 = none */
    bool uninit;          /* init=none: no initial contents (see ws_buffer.uninit) */
    int tmap;             /* init=tmap(NAME): index into tmaps[] (declared before the buffer) */
    int line;
} ws_buffer_decl;

typedef enum { WS_ARG_BUFFER, WS_ARG_INT, WS_ARG_FLOAT, WS_ARG_TMAP } ws_arg_kind;

#define WS_MAX_TMAPS 4

/* tmap NAME BUFFER dims=D0,D1[,..] box=B0,B1[,..] [strides=S1,..] [swizzle=none|32B|64B|128B]
 * [fill=zero|nan]: a tensor map over BUFFER (its element type), dims and box innermost first,
 * strides in bytes for dimensions 1.. (default: dense); passed by naming it in args, as the
 * kernel's `const __grid_constant__ CUtensorMap` parameter (common/tmap.h). */
typedef struct {
    char name[WS_NAME_MAX];
    int buffer;           /* index into buffers[] */
    int rank;             /* 1..5 */
    ws_expr *dims[WS_TMAP_MAX_RANK], *box[WS_TMAP_MAX_RANK];
    ws_expr *strides[WS_TMAP_MAX_RANK]; /* [1..rank-1]; NULL = dense */
    int swizzle;          /* 0, 32, 64, 128 */
    bool fill_nan;
    int line, col;
} ws_tmap_decl;

typedef struct {
    ws_arg_kind kind;
    int buffer;           /* WS_ARG_BUFFER: index into buffers[]; WS_ARG_TMAP: index into tmaps[] */
    ws_expr *expr;        /* WS_ARG_INT */
    double fvalue;        /* WS_ARG_FLOAT */
    int line, col;
} ws_arg_decl;

#define WS_ENTRY_MAX WS_KERNEL_NAME_MAX

/* The `realistic` line: the sizes a GPU user runs the kernel at (desc.h's format comment). */
typedef enum {
    WS_REAL_NONE,          /* no realistic line */
    WS_REAL_DRAM,          /* working set beyond 4x the L2 (the default class) */
    WS_REAL_L2_RESIDENT,   /* `l2-resident`: the lesson's data stays in L2 by design */
    WS_REAL_COMPUTE_BOUND  /* `compute-bound`: beyond the L2, the reuse (a GEMM) is the lesson */
} ws_realistic_class;

typedef struct {
    int param;             /* index into params[] */
    ws_expr *value;        /* may use parameters declared before that one */
} ws_realistic_decl;

typedef struct ws_kernel_desc {
    char name[WS_KERNEL_NAME_MAX]; /* description name, unique in its file */
    char entry[WS_ENTRY_MAX];  /* __global__ function as the user names it: "transpose", "scale<4>",
                                  "k(const int*, int*, int)", "ns::k<float>" */
    char entry_base[WS_KERNEL_NAME_MAX]; /* the function's unqualified name: "scale", "k" */
    bool entry_exact;          /* entry has template arguments or a parameter list: the compiler is asked
                                  for exactly that function (ws_ptxgen name expressions) */
    int entry_line, entry_col; /* where entry (or kernel, when entry is absent) names it */
    const char *kernel_file;   /* file holding the __global__ definition: file, or a header it includes
                                  (owned by the ws_desc_file) */
    ws_compile_opts compile;   /* the 'compile' line's options (relative -I paths already joined to the
                                  .cu's folder); empty when absent */
    int compile_line;          /* 0 = no compile line */
    char note[WS_NOTE_MAX];
    int stars;
    const char *file;          /* path of the .cu (owned by the ws_desc_file) */
    int line;                  /* line of the block opener */
    int kernel_line;           /* line of the __global__ declaration in kernel_file, 0 if none found */
    int nparams;
    ws_param_decl params[WS_MAX_PARAMS];
    int nbuffers;
    ws_buffer_decl buffers[WS_MAX_BUFFERS];
    int ngrid, nblock;         /* 1..3 */
    ws_expr *grid[3], *block[3];
    ws_expr *shared;           /* NULL = 0 */
    ws_expr *bytes;            /* NULL = default */
    int nargs;
    ws_arg_decl args[WS_MAX_ARGS];
    int ntmaps;
    ws_tmap_decl tmaps[WS_MAX_TMAPS];
    const struct ws_desc_file *owner; /* the file this description is in */
    bool cooperative;          /* `cooperative`: launched as cuLaunchCooperativeKernel does (grid.sync()) */
    int ncluster;              /* `cluster x[, y[, z]] [nonportable]`: 0 = no cluster line */
    ws_expr *cluster[3];
    bool cluster_nonportable;  /* more than 8 blocks allowed (cudaFuncAttributeNonPortableClusterSizeAllowed) */
    int cluster_line, cluster_col;
    char target[16];           /* `target sm_90a`: the PTX target it needs, "" = the command's */
    int target_line;
    ws_realistic_class realistic_class; /* NONE = no realistic line */
    int realistic_line;
    int nrealistic;            /* 0 with a class word alone: the defaults are its realistic size */
    ws_realistic_decl realistic[WS_MAX_PARAMS];
} ws_kernel_desc;

/* "l2-resident", "compute-bound", "beyond-l2" (DRAM) or "none", for listings. */
const char *ws_realistic_class_name(ws_realistic_class c);

/* A header the .cu includes with #include "..." (or <...> from a -I folder), read when a
 * description's entry is defined there. */
typedef struct {
    char path[WS_PATH_MAX];    /* as found: "tests/data/desc/header_kernel.cuh" */
    char *text;                /* NUL-terminated */
    size_t len;
} ws_source_file;

typedef struct ws_desc_file {
    char path[WS_PATH_MAX];
    char *source;              /* whole file text, NUL-terminated */
    size_t source_len;
    int nkernels;
    ws_kernel_desc *kernels;
    int nheaders;
    ws_source_file *headers;   /* included files read while looking for entries */
} ws_desc_file;

/* Reads and parses every warpscope block of a .cu file.
 * Example: ws_desc_file *f; ws_error e; if (ws_desc_load("demos/transpose.cu", &f, &e)) ws_error_print(&e);
 * A file with no block is an error ("no warpscope description block"). Returns 0 on success. */
int ws_desc_load(const char *path, ws_desc_file **out, ws_error *err);
/* Same, from text already in memory; path is used for messages and ->path. */
int ws_desc_parse(const char *path, const char *text, ws_desc_file **out, ws_error *err);
void ws_desc_free(ws_desc_file *f);
/* Finds a description by name, NULL if absent. */
const ws_kernel_desc *ws_desc_find(const ws_desc_file *f, const char *name);
/* The text of path when it is f's .cu or a header f read (matched as the same file on disk,
 * or by the same name relative to the .cu's folder, or by the same base name when only one
 * matches); NULL otherwise. Lets a per-line table show a header kernel's own lines:
 * ws_desc_source_text(f, d->kernel_file, &len), or for a PTX .file path. */
const char *ws_desc_source_text(const ws_desc_file *f, const char *path, size_t *len);
/* The file among f's .cu and headers that path names (see above), or NULL. */
const char *ws_desc_source_path(const ws_desc_file *f, const char *path);

/* Command-line definitions: -D NAME[=VALUE], --param NAME=EXPR, --macro NAME[=VALUE].
 *
 * The rule that tells description parameters and preprocessor macros apart (one per
 * definition, decided by ws_override_kind_of when the description is known):
 *   --param NAME=EXPR   always a parameter; an error when the description has none of that name
 *   --macro NAME[=V]    always a macro, passed to the compiler as -DNAME[=V]
 *   -D NAME=VALUE       a parameter when the description declares NAME; an error with "did you
 *                       mean" when NAME is a near miss of one parameter (common/nearest.h: -D w
 *                       for W), wherever NAME occurs; otherwise a macro when NAME occurs as an
 *                       identifier in the .cu or a header it read; otherwise an error (a
 *                       misspelt parameter must not silently become a macro)
 *   -D NAME             (no value) a macro NAME=1, as with nvcc; an error when NAME is a parameter
 * So -D means what nvcc users expect for every name the description does not claim, and a
 * description parameter is never shadowed by accident. */
typedef enum { WS_DEF_AUTO, WS_DEF_PARAM, WS_DEF_MACRO } ws_def_kind;

#define WS_MAX_OVERRIDES WS_MAX_PARAMS  /* callers size re-invocation argv by WS_MAX_PARAMS */

typedef struct {
    int n;
    char name[WS_MAX_OVERRIDES][WS_NAME_MAX];
    char value[WS_MAX_OVERRIDES][128];
    bool has_value[WS_MAX_OVERRIDES];   /* "NAME=VALUE" rather than "NAME" */
    ws_def_kind kind[WS_MAX_OVERRIDES]; /* as the user asked: -D is AUTO */
    ws_compile_opts compile;            /* other compiler options from the command line (-I, -std, ...) */
    bool realistic;                     /* --realistic: each description's realistic line applies,
                                           before the definitions above (so -D still wins) */
} ws_overrides;

/* ov as it applies to d: with ov->realistic, d's realistic assignments become --param definitions
 * ahead of ov's own (a later one of the same name replaces them), and out->realistic is false, so
 * out is self-contained: its text (the results key) names the sizes, "N=1<<26", and a child
 * re-invoked with its words (ncu) runs the same launch. Without ov->realistic, a copy. An error,
 * naming d's file and line, when d has no realistic line or the definitions would overflow.
 * ov may be NULL (then out is empty). */
int ws_overrides_for(const ws_kernel_desc *d, const ws_overrides *ov, ws_overrides *out, ws_error *err);
/* ws_overrides_text of ws_overrides_for(d, ov); ws_overrides_text's when that fails. */
void ws_overrides_text_for(const ws_kernel_desc *d, const ws_overrides *ov, char *out, size_t cap);

/* Adds -D "NAME=VALUE" (kind AUTO); error names "<command line>" and the column. Checks the
 * name; the value is checked at resolve time, as an expression when NAME is a parameter. */
int ws_overrides_add(ws_overrides *o, const char *assignment, ws_error *err);
/* The same for --param (kind PARAM: "NAME=EXPR", the expression checked now) and --macro
 * (kind MACRO: "NAME" or "NAME=VALUE", any value). */
int ws_overrides_add_kind(ws_overrides *o, const char *assignment, ws_def_kind kind, ws_error *err);
/* Adds a command-line compiler option (-I DIR as "-IDIR", -std=c++20, --use_fast_math, ...;
 * ws_compile_opts_add's list; a relative -I is relative to the working folder). */
int ws_overrides_add_compile(ws_overrides *o, const char *opt, ws_error *err);
/* What definition i of ov is for description d under the rule above: sets *kind to PARAM or
 * MACRO and returns 0, or returns -1 with err naming "<command line>" and the reason. */
int ws_override_kind_of(const ws_kernel_desc *d, const ws_overrides *ov, int i, ws_def_kind *kind, ws_error *err);
/* The overrides as the user gave them, "W=4096 H=W/2" ("" for none): the key under which
 * results/<gpu>.json records a run. --param and --macro definitions appear as -D ones do. */
void ws_overrides_text(const ws_overrides *ov, char *out, size_t cap);
/* Definition i as command-line words that ws_overrides_add_kind reads back the same:
 * *flag gets "-D", "--param" or "--macro", text gets "NAME=VALUE" or "NAME". For a
 * command that re-runs warpscope with the user's definitions (ncu profiling). */
void ws_override_arg(const ws_overrides *ov, int i, const char **flag, char *text, size_t cap);

/* A description with every expression evaluated: what a launch needs. */
typedef struct {
    char name[WS_NAME_MAX];
    ws_type type;
    uint64_t count;            /* elements */
    uint64_t bytes;            /* count * ws_type_size(type) */
    ws_init_kind init;
    uint64_t seed;
    double lo, hi;             /* random/randint range [lo, hi) (already defaulted); lcg: hi > lo maps
                                  each value to lo + x mod (hi - lo), else lo = hi = 0 */
    double const_value;
    uint64_t lcg_a, lcg_c, lcg_m; /* lcg: x' = (a*x + c) mod m, 1 <= m <= 2^63 */
    char file[WS_PATH_MAX];    /* file: the path to read (relative to the working folder) */
    uint64_t file_offset;      /* file: where the data starts (the .npy header's length; 0 raw) */
    bool output;
    double tol;
    uint32_t ulp;              /* units in the last place an output may differ by (floating types); 0 = none */
    bool uninit;               /* init=none: never initialised. The simulator poisons it and reports
                                  reads of bytes no thread has written (as initcheck does); the GPU
                                  gets it as cuMemAlloc leaves it. Filled with zeros on the host. */
    int tmap;                  /* init=tmap: index into ws_launch.tmaps; the buffer is 128 bytes, and the
                                  simulator (ws_tmap_image) or the GPU backend (cuTensorMapEncodeTiled)
                                  writes the map over its zeros once every buffer has its address */
} ws_buffer;

typedef struct {
    ws_arg_kind kind;
    int buffer;                    /* WS_ARG_BUFFER: the buffer; WS_ARG_TMAP: the tensor map */
    int64_t ivalue;
    double fvalue;
} ws_arg;

typedef struct {
    const ws_kernel_desc *desc;
    int nparams;
    char param_names[WS_MAX_PARAMS][WS_NAME_MAX];
    int64_t param_values[WS_MAX_PARAMS];
    uint32_t grid[3], block[3];    /* unused dims are 1 */
    uint64_t shared_bytes;         /* dynamic shared memory */
    uint64_t bytes_moved;          /* for effective bandwidth */
    int nbuffers;
    ws_buffer buffers[WS_MAX_BUFFERS];
    int nargs;
    ws_arg args[WS_MAX_ARGS];
    int ntmaps;
    ws_tmap tmaps[WS_MAX_TMAPS];   /* resolved tmap lines, checked by ws_tmap_check */
    ws_compile_opts compile;       /* the description's compile line, then the command line's macros */
    bool cooperative;              /* all blocks co-resident, grid workspace (desc `cooperative`) */
    uint32_t cluster[3];           /* the description's cluster line (cudaLaunchAttributeClusterDimension);
                                      all 0 = none (the kernel's __cluster_dims__, if any, then decides) */
    bool cluster_nonportable;      /* `cluster ... nonportable`: up to 16 blocks a cluster */
    char target[16];               /* desc `target`: compile for this architecture ("" = the command's) */
} ws_launch;

/* The architecture a launch's PTX is compiled for: its description's `target`, else arch. */
static inline const char *ws_launch_arch(const ws_launch *L, const char *arch)
{
    return L && L->target[0] ? L->target : arch;
}

/* The launch's derived shape, named once here (block and grid are its source). */
static inline uint64_t ws_launch_threads_per_block(const ws_launch *L)
{
    return (uint64_t)L->block[0] * L->block[1] * L->block[2];
}
static inline uint32_t ws_launch_warps_per_block(const ws_launch *L)
{
    return (uint32_t)((ws_launch_threads_per_block(L) + 31) / 32);
}
static inline uint64_t ws_launch_blocks(const ws_launch *L)
{
    return (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
}

/* Evaluates a description with overrides (NULL = none): parameters, launch shape, buffers
 * (a file() buffer's file is opened and checked against the buffer now), and the compile
 * options (the description's, then each override that ws_override_kind_of calls a macro).
 * Errors: an override that is neither parameter nor macro, division by zero, a grid/block
 * dimension < 1 or > 2^31-1, a block of more than 1024 threads, a negative count, a data
 * file that does not fit its buffer; each names file:line:col. With ov->realistic, the
 * description's realistic sizes apply first (ws_overrides_for). */
int ws_desc_resolve(const ws_kernel_desc *d, const ws_overrides *ov, ws_launch *out, ws_error *err);
/* The sum of a launch's buffer bytes: the working set the realistic line is judged by. */
uint64_t ws_launch_working_set(const ws_launch *L);

/* Expression API (also used by tests): parse src (file/line/col locate it for
 * messages), evaluate against names/values. */
ws_expr *ws_expr_parse(const char *src, const char *file, int line, int col, ws_error *err);
int ws_expr_eval(const ws_expr *e, int n, const char names[][WS_NAME_MAX], const int64_t *values,
                 int64_t *out, ws_error *err);
void ws_expr_free(ws_expr *e);
/* The text the expression was parsed from ("W*H"), for listings. */
const char *ws_expr_source(const ws_expr *e);
/* Line and column where the expression's text starts (for messages about its value). */
void ws_expr_location(const ws_expr *e, int *line, int *col);
/* The leftmost identifier in e that is not among names[0..n), with its column
 * in *col; NULL when every identifier is known. Lets a parser reject unknown or
 * not-yet-declared parameters before anything is evaluated. */
const char *ws_expr_first_unknown(const ws_expr *e, int n, const char names[][WS_NAME_MAX], int *col);

#endif
