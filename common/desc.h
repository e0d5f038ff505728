/* desc.h - kernel descriptions: the small declarative header that sits in a
 * .cu file right above a __global__ kernel and says how to run it.
 *
 * Format (one block per described launch; several per file):
 *
 *   / *@warpscope       (written without the space: slash, star, @warpscope)
 *   kernel  transpose_naive            name of this description (unique per file)
 *   entry   transpose_naive            __global__ function to launch (default: kernel name)
 *   note    Naive transpose: reads coalesced, writes strided by H.
 *   stars   1                          difficulty 1..3 (default 1)
 *   param   W = 1024                   integer parameter, overridable with -D W=...
 *   param   H = W
 *   buffer  in   float  W*H  init=index
 *   buffer  out  float  W*H  init=zero  output
 *   buffer  idx  int    W    init=random(7, 0, W)       seeded: random(seed[, lo, hi])
 *   buffer  acc  float  1    init=const(0.5)  output tol=1e-4
 *   grid    (W+31)/32, (H+31)/32        1-3 integer expressions (x, y, z)
 *   block   32, 32
 *   shared  0                          dynamic shared memory in bytes (expression)
 *   bytes   2*W*H*4                    bytes a perfect kernel moves (default: sum of buffer sizes,
 *                                      output buffers that are also read count once)
 *   args    in, out, W, H              buffer names, integer expressions or float literals (2.0f / 2.5)
 *   * /                 (the comment's close, without the space)
 *
 * Lines are "keyword rest"; '#' starts a comment to end of line. Expressions are
 * 64-bit signed integer arithmetic over parameters: + - * / % << >> & | ^ ~ ( ),
 * unary -, comparisons (< <= > >= == != give 0/1), ?: , min(a,b), max(a,b),
 * cdiv(a,b) (ceiling division), and integer literals (decimal, 0x hex, 1<<k).
 * A parameter may use earlier parameters. Errors carry file, line and column.
 *
 * Element types: char uchar short ushort int uint long ulong float double
 * float2 float4 int2 int4 double2.  Vector types initialise lane by lane as if
 * the buffer were count*lanes scalars (see buffers.h for the exact contents). */
#ifndef WS_DESC_H
#define WS_DESC_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "tmap.h"
#include "ws_error.h"

#define WS_NAME_MAX 64
#define WS_NOTE_MAX 256
#define WS_MAX_PARAMS 24
#define WS_MAX_BUFFERS 16
#define WS_MAX_ARGS 24

typedef enum {
    WS_TYPE_CHAR, WS_TYPE_UCHAR, WS_TYPE_SHORT, WS_TYPE_USHORT, WS_TYPE_INT, WS_TYPE_UINT,
    WS_TYPE_LONG, WS_TYPE_ULONG, WS_TYPE_FLOAT, WS_TYPE_DOUBLE,
    WS_TYPE_FLOAT2, WS_TYPE_FLOAT4, WS_TYPE_INT2, WS_TYPE_INT4, WS_TYPE_DOUBLE2,
    WS_TYPE_COUNT
} ws_type;

/* Name as written in a description ("float4"); NULL for out-of-range. */
const char *ws_type_name(ws_type t);
/* Parses a type name; returns 0 and sets *out, or -1. */
int ws_type_parse(const char *name, ws_type *out);
size_t ws_type_size(ws_type t);     /* bytes of one element: float4 -> 16 */
int ws_type_lanes(ws_type t);       /* scalars per element: float4 -> 4 */
ws_type ws_type_scalar(ws_type t);  /* float4 -> float */
bool ws_type_is_float(ws_type t);   /* scalar is float or double */

typedef struct ws_expr ws_expr; /* parsed integer expression (opaque) */

typedef enum { WS_INIT_ZERO, WS_INIT_INDEX, WS_INIT_RANDOM, WS_INIT_CONST } ws_init_kind;

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
    bool output;          /* compared after a run */
    double tol;           /* relative tolerance for outputs; 0 = bit-exact */
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

typedef struct ws_kernel_desc {
    char name[WS_NAME_MAX];    /* description name, unique in its file */
    char entry[WS_NAME_MAX];   /* __global__ function */
    char note[WS_NOTE_MAX];
    int stars;
    const char *file;          /* path of the .cu (owned by the ws_desc_file) */
    int line;                  /* line of the block opener */
    int kernel_line;           /* line of the __global__ declaration that follows, 0 if none found */
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
} ws_kernel_desc;

typedef struct ws_desc_file {
    char path[WS_PATH_MAX];
    char *source;              /* whole file text, NUL-terminated */
    size_t source_len;
    int nkernels;
    ws_kernel_desc *kernels;
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

/* Overrides for -D NAME=EXPR, applied at resolve time. */
typedef struct {
    int n;
    char name[WS_MAX_PARAMS][WS_NAME_MAX];
    char value[WS_MAX_PARAMS][128];
} ws_overrides;

/* Parses "NAME=EXPR" into o; error names "<command line>" and the column. */
int ws_overrides_add(ws_overrides *o, const char *assignment, ws_error *err);
/* The overrides as the user gave them, "W=4096 H=W/2" ("" for none): the key under which
 * results/<gpu>.json records a run. */
void ws_overrides_text(const ws_overrides *ov, char *out, size_t cap);

/* A description with every expression evaluated: what a launch needs. */
typedef struct {
    char name[WS_NAME_MAX];
    ws_type type;
    uint64_t count;            /* elements */
    uint64_t bytes;            /* count * ws_type_size(type) */
    ws_init_kind init;
    uint64_t seed;
    double lo, hi;             /* random range (already defaulted) */
    double const_value;
    bool output;
    double tol;
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
} ws_launch;

/* Evaluates a description with overrides (NULL = none). Errors: unknown
 * override name, division by zero, a grid/block dimension < 1 or > 2^31-1, a
 * block of more than 1024 threads, a negative count; each names file:line:col. */
int ws_desc_resolve(const ws_kernel_desc *d, const ws_overrides *ov, ws_launch *out, ws_error *err);

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
