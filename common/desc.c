/* desc.c - kernel descriptions (format in desc.h, docs/description-format.md):
 * finds every warpscope block in a .cu file, parses and validates it, and
 * resolves it with -D overrides into a ws_launch.
 * Invariant: a description that parses has only known keywords, names, types
 * and parameters, its entry exists as a __global__ function in the file, and
 * every expression refers only to parameters it may see; resolve then only has
 * value errors left (division by zero, out-of-range dimensions). Nothing here
 * uses a fixed-size buffer for input text: lines are slices of the source. */
#include "desc.h"
#include "buffers.h"
#include "demangle.h"
#include "files.h"
#include "nearest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <search.h>
#include <string.h>
#include <sys/stat.h>

#define OPEN_MARK "/*@warpscope"
#define MAX_FILE_BYTES (64u << 20)      /* a .cu larger than this is surely not a kernel file */
#define CMDLINE "<command line>"

/* ----------------------------------------------------------------------------
 * Element types */

typedef struct {
    const char *name;
    size_t size;
    int lanes;
    ws_type scalar;
} type_info;

static const type_info types[WS_TYPE_COUNT] = {
    [WS_TYPE_CHAR] = {"char", 1, 1, WS_TYPE_CHAR},
    [WS_TYPE_UCHAR] = {"uchar", 1, 1, WS_TYPE_UCHAR},
    [WS_TYPE_SHORT] = {"short", 2, 1, WS_TYPE_SHORT},
    [WS_TYPE_USHORT] = {"ushort", 2, 1, WS_TYPE_USHORT},
    [WS_TYPE_INT] = {"int", 4, 1, WS_TYPE_INT},
    [WS_TYPE_UINT] = {"uint", 4, 1, WS_TYPE_UINT},
    [WS_TYPE_LONG] = {"long", 8, 1, WS_TYPE_LONG},      /* CUDA long on LP64 hosts: 8 bytes */
    [WS_TYPE_ULONG] = {"ulong", 8, 1, WS_TYPE_ULONG},
    [WS_TYPE_FLOAT] = {"float", 4, 1, WS_TYPE_FLOAT},
    [WS_TYPE_DOUBLE] = {"double", 8, 1, WS_TYPE_DOUBLE},
    [WS_TYPE_FLOAT2] = {"float2", 8, 2, WS_TYPE_FLOAT},
    [WS_TYPE_FLOAT4] = {"float4", 16, 4, WS_TYPE_FLOAT},
    [WS_TYPE_INT2] = {"int2", 8, 2, WS_TYPE_INT},
    [WS_TYPE_INT4] = {"int4", 16, 4, WS_TYPE_INT},
    [WS_TYPE_DOUBLE2] = {"double2", 16, 2, WS_TYPE_DOUBLE},
    [WS_TYPE_HALF] = {"half", 2, 1, WS_TYPE_HALF},
    [WS_TYPE_BF16] = {"bf16", 2, 1, WS_TYPE_BF16},
    [WS_TYPE_HALF2] = {"half2", 4, 2, WS_TYPE_HALF},
    [WS_TYPE_BF16X2] = {"bf16x2", 4, 2, WS_TYPE_BF16},
    [WS_TYPE_CHAR2] = {"char2", 2, 2, WS_TYPE_CHAR},
    [WS_TYPE_CHAR4] = {"char4", 4, 4, WS_TYPE_CHAR},
    [WS_TYPE_UCHAR2] = {"uchar2", 2, 2, WS_TYPE_UCHAR},
    [WS_TYPE_UCHAR4] = {"uchar4", 4, 4, WS_TYPE_UCHAR},
    [WS_TYPE_SHORT2] = {"short2", 4, 2, WS_TYPE_SHORT},
    [WS_TYPE_SHORT4] = {"short4", 8, 4, WS_TYPE_SHORT},
    [WS_TYPE_USHORT2] = {"ushort2", 4, 2, WS_TYPE_USHORT},
    [WS_TYPE_USHORT4] = {"ushort4", 8, 4, WS_TYPE_USHORT},
    [WS_TYPE_UINT2] = {"uint2", 8, 2, WS_TYPE_UINT},
    [WS_TYPE_UINT4] = {"uint4", 16, 4, WS_TYPE_UINT},
    [WS_TYPE_LONG2] = {"long2", 16, 2, WS_TYPE_LONG},
    [WS_TYPE_ULONG2] = {"ulong2", 16, 2, WS_TYPE_ULONG},
};

/* Other spellings people use for the same element types (stdint widths, CUDA's own names). */
static const struct { const char *alias; ws_type t; } type_aliases[] = {
    {"int8", WS_TYPE_CHAR}, {"uint8", WS_TYPE_UCHAR}, {"int16", WS_TYPE_SHORT}, {"uint16", WS_TYPE_USHORT},
    {"int32", WS_TYPE_INT}, {"uint32", WS_TYPE_UINT}, {"int64", WS_TYPE_LONG}, {"uint64", WS_TYPE_ULONG},
    {"__half", WS_TYPE_HALF}, {"__nv_bfloat16", WS_TYPE_BF16}, {"nv_bfloat16", WS_TYPE_BF16},
    {"bfloat16", WS_TYPE_BF16}, {"__half2", WS_TYPE_HALF2}, {"__nv_bfloat162", WS_TYPE_BF16X2},
    {"nv_bfloat162", WS_TYPE_BF16X2}, {"longlong", WS_TYPE_LONG}, {"ulonglong", WS_TYPE_ULONG},
    /* <stdint.h>'s fixed widths mean the same bytes everywhere: accepted as they are */
    {"int8_t", WS_TYPE_CHAR}, {"uint8_t", WS_TYPE_UCHAR}, {"int16_t", WS_TYPE_SHORT}, {"uint16_t", WS_TYPE_USHORT},
    {"int32_t", WS_TYPE_INT}, {"uint32_t", WS_TYPE_UINT}, {"int64_t", WS_TYPE_LONG}, {"uint64_t", WS_TYPE_ULONG},
};

/* C names whose width depends on the platform: not taken silently, but named in the error with
 * the type that has their width on the 64-bit hosts CUDA runs on. */
static const struct { const char *c_name, *use; } type_hints[] = {
    {"size_t", "ulong (size_t is 8 bytes on a 64-bit host)"}, {"ssize_t", "long (8 bytes)"},
    {"ptrdiff_t", "long (8 bytes)"}, {"intptr_t", "long (8 bytes)"}, {"uintptr_t", "ulong (8 bytes)"},
    {"unsigned", "uint"}, {"signed", "int"}, {"bool", "uchar (a CUDA bool is 1 byte)"},
};

/* The hint for an unknown type name: "; use ulong (...)" or "; did you mean 'float'?", or "". */
static void type_hint(const char *name, char *out, size_t cap)
{
    out[0] = 0;
    for (size_t i = 0; i < sizeof type_hints / sizeof type_hints[0]; i++)
        if (!strcmp(name, type_hints[i].c_name)) {
            snprintf(out, cap, "; for '%s' use %s", name, type_hints[i].use);
            return;
        }
    int k = ws_nearest(name, &types[0].name, WS_TYPE_COUNT, sizeof types[0], false);
    if (k >= 0) {
        snprintf(out, cap, "; did you mean '%s'?", types[k].name);
        return;
    }
    k = ws_nearest(name, &type_aliases[0].alias, (int)(sizeof type_aliases / sizeof type_aliases[0]),
                   sizeof type_aliases[0], false);
    if (k >= 0) snprintf(out, cap, "; did you mean '%s'?", type_aliases[k].alias);
}

static int type_ok(ws_type t) { return (int)t >= 0 && t < WS_TYPE_COUNT; }

const char *ws_type_name(ws_type t) { return type_ok(t) ? types[t].name : NULL; }
size_t ws_type_size(ws_type t) { return type_ok(t) ? types[t].size : 0; }
int ws_type_lanes(ws_type t) { return type_ok(t) ? types[t].lanes : 0; }
ws_type ws_type_scalar(ws_type t) { return type_ok(t) ? types[t].scalar : t; }

bool ws_type_is_float(ws_type t)
{
    ws_type s = ws_type_scalar(t);
    return s == WS_TYPE_FLOAT || s == WS_TYPE_DOUBLE || s == WS_TYPE_HALF || s == WS_TYPE_BF16;
}

bool ws_type_is_signed(ws_type t)
{
    ws_type s = ws_type_scalar(t);
    return ws_type_is_float(s) || s == WS_TYPE_CHAR || s == WS_TYPE_SHORT || s == WS_TYPE_INT || s == WS_TYPE_LONG;
}

int ws_type_parse(const char *name, ws_type *out)
{
    if (!name) return -1;
    for (int i = 0; i < WS_TYPE_COUNT; i++)
        if (!strcmp(name, types[i].name)) {
            *out = (ws_type)i;
            return 0;
        }
    for (size_t i = 0; i < sizeof type_aliases / sizeof type_aliases[0]; i++)
        if (!strcmp(name, type_aliases[i].alias)) {
            *out = type_aliases[i].t;
            return 0;
        }
    return -1;
}

const char *ws_type_list(void)
{
    /* every types[] name in order (test_desc checks it against the table) */
    return "char uchar short ushort int uint long ulong float double float2 float4 int2 int4 double2 half bf16 "
           "half2 bf16x2 char2 char4 uchar2 uchar4 short2 short4 ushort2 ushort4 uint2 uint4 long2 ulong2";
}

/* ----------------------------------------------------------------------------
 * Text slices */

typedef struct {
    const char *s;
    size_t n;
    int col;        /* 1-based column of s[0] in its line */
} span;

static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
static int is_ident_start(int c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(int c) { return isalnum((unsigned char)c) || c == '_'; }

static span trim(span x)
{
    while (x.n && is_blank((unsigned char)x.s[0])) { x.s++; x.n--; x.col++; }
    while (x.n && is_blank((unsigned char)x.s[x.n - 1])) x.n--;
    return x;
}

/* Next whitespace-separated word of *rest, with parentheses kept together
 * ("init=random(7, 0, W)" is one word); advances *rest past it. */
static span take_word(span *rest)
{
    *rest = trim(*rest);
    size_t i = 0;
    int depth = 0;
    while (i < rest->n && (depth > 0 || !is_blank((unsigned char)rest->s[i]))) {
        if (rest->s[i] == '(') depth++;
        else if (rest->s[i] == ')' && depth > 0) depth--;
        i++;
    }
    span w = {rest->s, i, rest->col};
    rest->s += i;
    rest->n -= i;
    rest->col += (int)i;
    return w;
}

/* Splits x at sep characters outside parentheses. Fills up to max items and
 * returns how many there are (which may be more than max). */
static int split_top(span x, char sep, span *items, int max)
{
    int count = 0, depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= x.n; i++) {
        char c = i < x.n ? x.s[i] : sep;
        if (c == '(') depth++;
        else if (c == ')' && depth > 0) depth--;
        else if (c == sep && (depth == 0 || i == x.n)) {
            if (count < max) items[count] = trim((span){x.s + start, i - start, x.col + (int)start});
            count++;
            start = i + 1;
        }
    }
    return count;
}

static char *span_dup(span x)
{
    char *s = malloc(x.n + 1);
    if (!s) return NULL;
    memcpy(s, x.s, x.n);
    s[x.n] = '\0';
    return s;
}

static int span_eq(span x, const char *lit) { return strlen(lit) == x.n && !memcmp(x.s, lit, x.n); }

static const char *find_in(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (!memcmp(s + i, needle, m)) return s + i;
    return NULL;
}

/* ----------------------------------------------------------------------------
 * __global__ functions in the source (for entry validation and kernel_line) */

typedef struct {
    char name[WS_KERNEL_NAME_MAX];
    int line;           /* line of the __global__ keyword */
    int file;           /* -1: the .cu; else index into f->headers */
    bool defined;       /* followed by a body, not just a declaration */
    int order;          /* position in the file: ties in the sorted list keep file order */
} global_fn;

#define MAX_HEADERS 64          /* included files read per .cu (f->headers never moves once made) */
#define MAX_INCLUDE_DEPTH 8
#define MAX_HEADER_BYTES (16u << 20)

typedef struct {
    ws_desc_file *f;
    ws_error *err;
    global_fn *globals; /* sorted by (name, order) once scanned, so an entry is found by bsearch */
    int nglobals, cap_globals;
    int cur_file;       /* file being scanned: -1 the .cu, else a header index */
    /* description names seen so far (hsearch_r): a file of n descriptions is parsed in time
     * linear in n, not n^2 (issue 17: 5000 descriptions took `list` over a minute) */
    struct hsearch_data names;
    bool have_names;
    char **name_keys;   /* the table's keys, freed with it */
    int nname_keys;
    int sorted_n;       /* globals[0..sorted_n) are in (name, order) order; headers read later append */
} ctx;

static int fail_at(ctx *c, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail_at(ctx *c, int line, int col, const char *fmt, ...)
{
    char msg[WS_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ws_error_set(c->err, c->f->path, line, col, "%s", msg);
    return -1;
}

/* From just after "__global__" at s[i], finds the declared function's name:
 * the identifier right before the first '(' that is not the argument list of
 * an attribute (__launch_bounds__(...), __attribute__((...)), alignas). */
static void record_global(ctx *c, const char *s, size_t len, size_t i, int line)
{
    size_t name_at = 0, name_len = 0;
    size_t limit = i + 4096 < len ? i + 4096 : len;
    while (i < limit) {
        char ch = s[i];
        if (isspace((unsigned char)ch) || ch == '*' || ch == '&' || ch == ':') { i++; continue; }
        if (is_ident_start(ch)) {
            size_t st = i;
            while (i < limit && is_ident_char(s[i])) i++;
            size_t n = i - st;
            if ((n == 17 && !memcmp(s + st, "__launch_bounds__", n)) || (n == 13 && !memcmp(s + st, "__attribute__", n)) ||
                (n == 7 && !memcmp(s + st, "alignas", n)) || (n == 11 && !memcmp(s + st, "__declspec", n)) ||
                (n == 16 && !memcmp(s + st, "__cluster_dims__", 16))) {
                while (i < limit && isspace((unsigned char)s[i])) i++;
                if (i < limit && s[i] == '(') {
                    int depth = 0;
                    for (; i < limit; i++) {
                        if (s[i] == '(') depth++;
                        else if (s[i] == ')' && --depth == 0) { i++; break; }
                    }
                }
                continue;
            }
            name_at = st;
            name_len = n;
            continue;
        }
        if (ch == '<') {        /* template arguments of a return type: skip them */
            int depth = 0;
            for (; i < limit; i++) {
                if (s[i] == '<') depth++;
                else if (s[i] == '>' && --depth == 0) { i++; break; }
            }
            continue;
        }
        break;
    }
    if (i >= limit || s[i] != '(' || !name_len || name_len >= WS_KERNEL_NAME_MAX) return;
    int depth = 0;
    for (; i < len; i++) {
        if (s[i] == '(') depth++;
        else if (s[i] == ')' && --depth == 0) { i++; break; }
    }
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (c->nglobals == c->cap_globals) {
        int ncap = c->cap_globals ? 2 * c->cap_globals : 8;
        global_fn *g = realloc(c->globals, (size_t)ncap * sizeof *g);
        if (!g) return;                 /* out of memory: the entry check will then report it missing */
        c->globals = g;
        c->cap_globals = ncap;
    }
    global_fn *g = &c->globals[c->nglobals];
    g->order = c->nglobals++;
    memcpy(g->name, s + name_at, name_len);
    g->name[name_len] = '\0';
    g->line = line;
    g->file = c->cur_file;
    g->defined = i < len && s[i] == '{';
}

static int global_cmp(const void *a, const void *b)
{
    const global_fn *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->order > y->order) - (x->order < y->order);
}

static int name_cmp(const void *key, const void *elem) { return strcmp(key, ((const global_fn *)elem)->name); }

/* Calls fn for each identifier of C/C++ text outside comments, strings and character
 * literals (s[st, st+n) on line). Stops early when fn returns true; returns that. */
static bool each_identifier(const char *s, size_t len, bool (*fn)(void *ctx, const char *s, size_t len, size_t st,
                                                                   size_t n, int line), void *ctx)
{
    int line = 1;
    size_t i = 0;
    while (i < len) {
        char ch = s[i];
        if (ch == '\n') { line++; i++; continue; }
        if (ch == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n') i++;
            continue;
        }
        if (ch == '/' && i + 1 < len && s[i + 1] == '*') {
            i += 2;
            while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) {
                if (s[i] == '\n') line++;
                i++;
            }
            i += 2;
            continue;
        }
        if (ch == '"' || ch == '\'') {
            i++;
            while (i < len && s[i] != ch && s[i] != '\n') i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
            i++;
            continue;
        }
        if (is_ident_start(ch)) {
            size_t st = i;
            while (i < len && is_ident_char(s[i])) i++;
            if (fn(ctx, s, len, st, i - st, line)) return true;
            continue;
        }
        if (isdigit((unsigned char)ch)) {  /* 1e5f, 0x1fu: not identifiers */
            while (i < len && (is_ident_char(s[i]) || s[i] == '.')) i++;
            continue;
        }
        i++;
    }
    return false;
}

static bool on_global(void *cx, const char *s, size_t len, size_t st, size_t n, int line)
{
    if (n == 10 && !memcmp(s + st, "__global__", 10)) record_global(cx, s, len, st + n, line);
    return false;
}

/* Scans C/C++ text for the token __global__ outside comments, strings and
 * character literals. */
static void scan_globals(ctx *c, const char *s, size_t len)
{
    each_identifier(s, len, on_global, c);
}

/* ---- included files ------------------------------------------------------------------ */

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool is_regular(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Folder of path ("." for a bare name), into out. */
static void folder_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(out, cap, "%.*s", (int)(slash - path), path);
    else snprintf(out, cap, ".");
}

/* Joins dir and name as a path that a reader recognises ("inc/x.cuh", not "./inc/x.cuh"). */
static void join(const char *dir, const char *name, char *out, size_t cap)
{
    if (name[0] == '/' || !strcmp(dir, ".") || !*dir) snprintf(out, cap, "%s", name);
    else snprintf(out, cap, "%s/%s", dir, name);
}

static void read_includes(ctx *c, const char *text, size_t len, const char *dir, const char (*idirs)[WS_PATH_MAX],
                          int nidirs, int depth);

/* Reads one included file (once) and everything it includes. */
static void add_header(ctx *c, const char *path, const char (*idirs)[WS_PATH_MAX], int nidirs, int depth)
{
    ws_desc_file *f = c->f;
    if (same_file(path, f->path)) return;
    for (int i = 0; i < f->nheaders; i++)
        if (!strcmp(f->headers[i].path, path) || same_file(f->headers[i].path, path)) return;
    if (!f->headers && !(f->headers = calloc(MAX_HEADERS, sizeof *f->headers))) return;
    if (f->nheaders >= MAX_HEADERS || strlen(path) >= WS_PATH_MAX) return;
    size_t n;
    char *text = ws_read_file(path, MAX_HEADER_BYTES, &n, NULL);
    if (!text) return;          /* unreadable: the compiler will say so; a description need not */
    ws_source_file *h = &f->headers[f->nheaders++];
    snprintf(h->path, sizeof h->path, "%s", path);
    h->text = text;
    h->len = strlen(text);      /* a NUL inside ends the text, as for the .cu */
    int saved = c->cur_file;
    c->cur_file = f->nheaders - 1;
    scan_globals(c, h->text, h->len);
    c->cur_file = saved;
    char hdir[WS_PATH_MAX];
    folder_of(path, hdir, sizeof hdir);
    read_includes(c, h->text, h->len, hdir, idirs, nidirs, depth + 1);
}

/* #include "x" (the includer's folder, then -I folders) and #include <x> (-I folders
 * only: the toolkit's and the system's headers hold no user kernels). */
static void read_includes(ctx *c, const char *text, size_t len, const char *dir, const char (*idirs)[WS_PATH_MAX],
                          int nidirs, int depth)
{
    if (depth > MAX_INCLUDE_DEPTH) return;
    size_t i = 0;
    bool line_start = true;
    while (i < len) {
        char ch = text[i];
        if (ch == '\n') { line_start = true; i++; continue; }
        if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/')) i++;
            i += 2;
            continue;
        }
        if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        if (is_blank(ch)) { i++; continue; }
        if (ch == '#' && line_start) {
            size_t j = i + 1;
            while (j < len && is_blank(text[j])) j++;
            if (j + 7 <= len && !memcmp(text + j, "include", 7)) {
                j += 7;
                while (j < len && is_blank(text[j])) j++;
                char open = j < len ? text[j] : 0, close = open == '"' ? '"' : open == '<' ? '>' : 0;
                size_t st = j + 1, e = st;
                while (close && e < len && text[e] != close && text[e] != '\n') e++;
                if (close && e < len && text[e] == close && e - st < WS_PATH_MAX / 2) {
                    char name[WS_PATH_MAX / 2], cand[WS_PATH_MAX];
                    snprintf(name, sizeof name, "%.*s", (int)(e - st), text + st);
                    bool found = false;
                    if (close == '"' || name[0] == '/') {
                        join(dir, name, cand, sizeof cand);
                        found = is_regular(cand);
                    }
                    for (int k = 0; k < nidirs && !found; k++) {
                        join(idirs[k], name, cand, sizeof cand);
                        found = is_regular(cand);
                    }
                    if (found) add_header(c, cand, idirs, nidirs, depth);
                }
            }
        }
        line_start = false;
        while (i < len && text[i] != '\n') i++;   /* the rest of the line holds no directive */
    }
}

/* ----------------------------------------------------------------------------
 * One block */

typedef enum { KW_KERNEL, KW_ENTRY, KW_NOTE, KW_STARS, KW_PARAM, KW_BUFFER, KW_GRID, KW_BLOCK, KW_SHARED,
               KW_BYTES, KW_ARGS, KW_TMAP, KW_COMPILE, KW_COOPERATIVE, KW_CLUSTER, KW_TARGET, KW_REALISTIC,
               KW_COUNT } keyword;
static const char *const keywords[KW_COUNT] = {"kernel", "entry", "note", "stars", "param", "buffer",
                                               "grid", "block", "shared", "bytes", "args", "tmap", "compile",
                                               "cooperative", "cluster", "target", "realistic"};

typedef struct {
    char *text;
    int line, col;
} raw_arg;

typedef struct {
    ws_kernel_desc k;
    int open_line, open_col;
    int seen[KW_COUNT];             /* line of the keyword's first use, 0 = not yet */
    int kernel_col, entry_col;      /* column of the name after kernel / entry */
    bool kernel_expr;               /* 'kernel NAME<...>' named the entry too */
    int grid_col, block_col;        /* column of the first dimension */
    int nraw;
    raw_arg raw[WS_MAX_ARGS];
    char pnames[WS_MAX_PARAMS][WS_NAME_MAX];
    char *realistic_text;           /* the realistic line after its keyword, parsed once the params are known */
    int realistic_col;
} block;

static void free_kernel_exprs(ws_kernel_desc *k)
{
    for (int i = 0; i < k->nparams; i++) ws_expr_free(k->params[i].value);
    for (int i = 0; i < k->nrealistic; i++) ws_expr_free(k->realistic[i].value);
    for (int i = 0; i < k->nbuffers; i++) {
        ws_expr_free(k->buffers[i].count);
        ws_expr_free(k->buffers[i].seed);
        ws_expr_free(k->buffers[i].lo);
        ws_expr_free(k->buffers[i].hi);
        ws_expr_free(k->buffers[i].lcg_a);
        ws_expr_free(k->buffers[i].lcg_c);
        ws_expr_free(k->buffers[i].lcg_m);
    }
    for (int i = 0; i < 3; i++) {
        ws_expr_free(k->grid[i]);
        ws_expr_free(k->block[i]);
        ws_expr_free(k->cluster[i]);
    }
    ws_expr_free(k->shared);
    ws_expr_free(k->bytes);
    for (int i = 0; i < k->nargs; i++) ws_expr_free(k->args[i].expr);
    for (int i = 0; i < k->ntmaps; i++)
        for (int d = 0; d < WS_TMAP_MAX_RANK; d++) {
            ws_expr_free(k->tmaps[i].dims[d]);
            ws_expr_free(k->tmaps[i].box[d]);
            ws_expr_free(k->tmaps[i].strides[d]);
        }
    memset(k, 0, sizeof *k);
}

static void free_block(block *b)
{
    free_kernel_exprs(&b->k);
    for (int i = 0; i < b->nraw; i++) free(b->raw[i].text);
    b->nraw = 0;
    free(b->realistic_text);
    b->realistic_text = NULL;
}

static ws_expr *parse_expr(ctx *c, int line, span x, const char *what)
{
    x = trim(x);
    if (!x.n) {
        fail_at(c, line, x.col, "%s needs an expression", what);
        return NULL;
    }
    char *src = span_dup(x);
    if (!src) {
        fail_at(c, line, x.col, "out of memory");
        return NULL;
    }
    ws_expr *e = ws_expr_parse(src, c->f->path, line, x.col, c->err);
    free(src);
    return e;
}

/* Reads a name (C identifier) that must be all of x. */
static int parse_name_cap(ctx *c, int line, span x, const char *what, char *out, size_t cap)
{
    x = trim(x);
    if (!x.n) return fail_at(c, line, x.col, "%s needs a name", what);
    if (!is_ident_start((unsigned char)x.s[0]))
        return fail_at(c, line, x.col, "bad %s name '%.*s' (a name is a C identifier)", what,
                       (int)(x.n > 40 ? 40 : x.n), x.s);
    size_t i = 0;
    while (i < x.n && is_ident_char((unsigned char)x.s[i])) i++;
    if (i < x.n) {
        span more = {x.s + i, x.n - i, x.col + (int)i};
        span w = take_word(&more);
        return fail_at(c, line, w.col, "unexpected '%.*s' after the %s name", (int)(w.n > 40 ? 40 : w.n), w.s, what);
    }
    if (i >= cap) return fail_at(c, line, x.col, "%s name too long (at most %d characters)", what, (int)cap - 1);
    memcpy(out, x.s, i);
    out[i] = '\0';
    return 0;
}

static int parse_name(ctx *c, int line, span x, const char *what, char out[WS_NAME_MAX])
{
    return parse_name_cap(c, line, x, what, out, WS_NAME_MAX);
}

/* Copies x with each run of blanks made one space, and none next to punctuation other
 * than a comma: "scale < 4 >" -> "scale<4>", "k(const int *, int)" -> "k(const int*, int)". */
static void collapse_blanks(span x, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < x.n && n + 1 < cap; i++) {
        char ch = x.s[i];
        if (!is_blank((unsigned char)ch)) { out[n++] = ch; continue; }
        while (i + 1 < x.n && is_blank((unsigned char)x.s[i + 1])) i++;
        char prev = n ? out[n - 1] : 0, next = i + 1 < x.n ? x.s[i + 1] : 0;
        if (is_ident_char((unsigned char)prev) && is_ident_char((unsigned char)next)) out[n++] = ' ';
        else if (prev == ',' && next) out[n++] = ' ';
    }
    out[n] = 0;
}

/* entry NAME, entry NAME<targs>, entry NAME(types), entry ns::NAME<targs>(types) */
static int parse_entry(ctx *c, ws_kernel_desc *k, int line, span x, const char *what)
{
    x = trim(x);
    if (!x.n) return fail_at(c, line, x.col, "%s needs a name", what);
    char text[WS_ENTRY_MAX * 2];
    if (x.n >= WS_ENTRY_MAX) return fail_at(c, line, x.col, "%s too long (at most %d characters)", what, WS_ENTRY_MAX - 1);
    collapse_blanks(x, text, sizeof text);
    ws_cxx_name cn;
    if (ws_cxx_name_split(text, &cn))
        return fail_at(c, line, x.col, "%s '%s': unbalanced '<>' or '()'", what, text);
    /* the base is a qualified C++ name: [::]id(::id)* */
    const char *b = cn.base, *last = b;
    if (!strncmp(b, "::", 2)) b += 2;
    bool ok = *b != 0;
    while (*b && ok) {
        if (!is_ident_start((unsigned char)*b)) { ok = false; break; }
        last = b;
        while (is_ident_char((unsigned char)*b)) b++;
        if (!strncmp(b, "::", 2)) b += 2;
        else if (*b) ok = false;
    }
    if (strncmp(text, cn.base, strlen(cn.base))) ok = false;   /* "void k<2>", "k(int) extra": more than a name */
    if (!ok) {
        if (!cn.has_targs && !cn.has_params && !is_ident_start((unsigned char)x.s[0]))
            return fail_at(c, line, x.col, "bad %s name '%.*s' (a name is a C identifier)", what, (int)(x.n > 40 ? 40 : x.n), x.s);
        return fail_at(c, line, x.col, "%s '%s': expected a function name, NAME<template args> or "
                       "NAME(parameter types)", what, text);
    }
    if (strlen(last) >= WS_KERNEL_NAME_MAX)
        return fail_at(c, line, x.col, "%s name too long (at most %d characters)", what, WS_KERNEL_NAME_MAX - 1);
    snprintf(k->entry, sizeof k->entry, "%.*s", WS_ENTRY_MAX - 1, text);
    snprintf(k->entry_base, sizeof k->entry_base, "%.*s", WS_KERNEL_NAME_MAX - 1, last);
    k->entry_exact = cn.has_targs || cn.has_params;
    k->entry_line = line;
    k->entry_col = x.col;
    return 0;
}

/* kernel NAME, or kernel NAME<targs> / NAME(types): the description is named by what it
 * launches, which is also its entry. */
static int parse_kernel_name(ctx *c, block *b, int line, span x)
{
    ws_kernel_desc *k = &b->k;
    x = trim(x);
    size_t i = 0;
    while (i < x.n && is_ident_char((unsigned char)x.s[i])) i++;
    size_t j = i;
    while (j < x.n && is_blank((unsigned char)x.s[j])) j++;
    bool expr = i > 0 && is_ident_start((unsigned char)x.s[0]) && j < x.n && (x.s[j] == '<' || x.s[j] == '(' || x.s[j] == ':');
    if (!expr) return parse_name_cap(c, line, x, "kernel", k->name, sizeof k->name);
    char text[WS_ENTRY_MAX * 2];
    collapse_blanks(x, text, sizeof text);
    if (strstr(text, "::"))
        return fail_at(c, line, x.col, "a description name cannot hold '::' (it is typed as file.cu:name); "
                       "write 'kernel NAME' and 'entry %s'", text);
    if (strlen(text) >= WS_KERNEL_NAME_MAX)
        return fail_at(c, line, x.col, "kernel name too long (at most %d characters); write 'kernel NAME' and "
                       "'entry %.100s'", WS_KERNEL_NAME_MAX - 1, text);
    if (parse_entry(c, k, line, x, "kernel")) return -1;
    snprintf(k->name, sizeof k->name, "%.*s", WS_KERNEL_NAME_MAX - 1, text);
    b->kernel_expr = true;
    return 0;
}

static int find_param(const ws_kernel_desc *k, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->params[i].name, name)) return i;
    return -1;
}

static int find_buffer(const ws_kernel_desc *k, const char *name)
{
    for (int i = 0; i < k->nbuffers; i++)
        if (!strcmp(k->buffers[i].name, name)) return i;
    return -1;
}

static int find_tmap(const ws_kernel_desc *k, const char *name)
{
    for (int i = 0; i < k->ntmaps; i++)
        if (!strcmp(k->tmaps[i].name, name)) return i;
    return -1;
}

/* A new param or buffer name must not clash with any earlier one of either kind
 * (both can appear in args, so one namespace). */
static int check_new_name(ctx *c, block *b, int line, int col, const char *name)
{
    int i = find_param(&b->k, name);
    if (i >= 0) return fail_at(c, line, col, "duplicate name '%s' (parameter at line %d)", name, b->k.params[i].line);
    i = find_buffer(&b->k, name);
    if (i >= 0) return fail_at(c, line, col, "duplicate name '%s' (buffer at line %d)", name, b->k.buffers[i].line);
    i = find_tmap(&b->k, name);
    if (i >= 0) return fail_at(c, line, col, "duplicate name '%s' (tmap at line %d)", name, b->k.tmaps[i].line);
    return 0;
}

static int kw_param(ctx *c, block *b, int line, span rest)
{
    ws_kernel_desc *k = &b->k;
    size_t i = 0;
    while (i < rest.n && is_ident_char((unsigned char)rest.s[i])) i++;
    span name_sp = {rest.s, i, rest.col};
    if (!i) return fail_at(c, line, rest.col, "param needs a name: param NAME = EXPR");
    span after = trim((span){rest.s + i, rest.n - i, rest.col + (int)i});
    if (!after.n || after.s[0] != '=')
        return fail_at(c, line, after.col, "expected '=' after the parameter name: param NAME = EXPR");
    if (k->nparams == WS_MAX_PARAMS) return fail_at(c, line, rest.col, "too many parameters (at most %d)", WS_MAX_PARAMS);
    ws_param_decl *p = &k->params[k->nparams];
    if (parse_name(c, line, name_sp, "parameter", p->name)) return -1;
    if (check_new_name(c, b, line, rest.col, p->name)) return -1;
    span value = {after.s + 1, after.n - 1, after.col + 1};
    p->value = parse_expr(c, line, value, "param");
    if (!p->value) return -1;
    p->line = line;
    memcpy(b->pnames[k->nparams], p->name, WS_NAME_MAX);
    k->nparams++;
    return 0;
}

/* Float literal as written in descriptions: 2.0f, 2.5, -1e-3, 3f. Returns 0
 * and *v when all of x is one. */
static int parse_float(span x, double *v)
{
    if (!x.n || x.n > 100) return -1;
    char buf[128];
    memcpy(buf, x.s, x.n);
    buf[x.n] = '\0';
    if (!(isdigit((unsigned char)buf[0]) || buf[0] == '-' || buf[0] == '+' || buf[0] == '.')) return -1;
    if (strchr(buf, 'x') || strchr(buf, 'X')) return -1;
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (end == buf) return -1;
    if (*end == 'f' || *end == 'F') end++;
    if (*end || !isfinite(d) || errno == ERANGE) return -1;
    *v = d;
    return 0;
}

/* inf, +inf, -inf, infinity, nan, -nan (any case; C's INFINITY and NAN too), for const():
 * the fill value of a max- or min-reduction's identity. Returns 0 and *v when x is one. */
static int parse_special_float(span x, double *v)
{
    static const char *const inf[] = {"inf", "infinity"}, *const nan_[] = {"nan"};
    char buf[16];
    if (!x.n || x.n >= sizeof buf) return -1;
    for (size_t i = 0; i < x.n; i++) buf[i] = (char)tolower((unsigned char)x.s[i]);
    buf[x.n] = 0;
    const char *w = buf;
    bool neg = *w == '-';
    if (*w == '-' || *w == '+') w++;
    for (int i = 0; i < 2; i++)
        if (!strcmp(w, inf[i])) { *v = neg ? -HUGE_VAL : HUGE_VAL; return 0; }
    if (!strcmp(w, nan_[0])) { *v = neg ? -NAN : NAN; return 0; }
    return -1;
}

static int looks_like_float(span x)
{
    for (size_t i = 0; i < x.n; i++)
        if (x.s[i] == '.' || x.s[i] == 'e' || x.s[i] == 'E' || x.s[i] == 'f' || x.s[i] == 'F') return 1;
    return 0;
}

/* Converting an out-of-range double to an integer or float type is undefined
 * in C, so a const() that does not fit its buffer's type is refused. half and bf16
 * take what rounds to a finite value (65504 is the largest half). */
static bool const_fits(ws_type t, double c)
{
    static const double lim[WS_TYPE_COUNT] = {
        [WS_TYPE_CHAR] = 128.0, [WS_TYPE_UCHAR] = 256.0, [WS_TYPE_SHORT] = 32768.0, [WS_TYPE_USHORT] = 65536.0,
        [WS_TYPE_INT] = 2147483648.0, [WS_TYPE_UINT] = 4294967296.0, [WS_TYPE_LONG] = 9223372036854775808.0,
        [WS_TYPE_ULONG] = 18446744073709551616.0, [WS_TYPE_FLOAT] = 3.4028234663852886e38,
        [WS_TYPE_HALF] = 65520.0,                    /* below it rounds to 65504, from it to infinity */
        [WS_TYPE_BF16] = 3.3961775292304111e38};     /* (2 - 2^-8) * 2^127: the round-to-infinity point */
    ws_type s = ws_type_scalar(t);
    if (s == WS_TYPE_DOUBLE) return true;
    if (s == WS_TYPE_FLOAT) return fabs(c) <= lim[s];
    if (s == WS_TYPE_HALF || s == WS_TYPE_BF16) return fabs(c) < lim[s];
    bool is_signed = s == WS_TYPE_CHAR || s == WS_TYPE_SHORT || s == WS_TYPE_INT || s == WS_TYPE_LONG;
    return is_signed ? (c > -lim[s] - 1.0 && c < lim[s]) : (c > -1.0 && c < lim[s]);
}

typedef struct {
    const char *name;
    ws_init_kind kind;
    const char *form;     /* for messages */
    int nargs[3];         /* accepted argument counts (0 = end); -1 = one raw text (file) */
} init_form;

static const init_form init_forms[] = {
    {"zero", WS_INIT_ZERO, "zero", {0}},
    {"index", WS_INIT_INDEX, "index", {0}},
    {"const", WS_INIT_CONST, "const(v)", {1}},
    {"random", WS_INIT_RANDOM, "random(seed[, lo, hi])", {1, 3}},
    {"randint", WS_INIT_RANDINT, "randint(seed, lo, hi)", {3}},
    {"perm", WS_INIT_PERM, "perm(seed)", {1}},
    {"lcg", WS_INIT_LCG, "lcg(seed[, a, c, m[, lo, hi]])", {1, 4, 6}},
    {"file", WS_INIT_FILE, "file(path)", {-1}},
};
#define INIT_KNOWN "known: zero, index, const(v), random(seed[, lo, hi]), randint(seed, lo, hi), perm(seed), " \
                   "lcg(seed[, a, c, m[, lo, hi]]), file(path), tmap(NAME), none"

/* init=tmap(NAME): the buffer holds tmap NAME's encoded map, for a kernel that takes the map by
 * pointer (`const CUtensorMap *`) rather than as a __grid_constant__ parameter. */
static int parse_init_tmap(ctx *c, const ws_kernel_desc *k, int line, span rest, ws_buffer_decl *bd)
{
    if (!rest.n || rest.s[0] != '(' || rest.s[rest.n - 1] != ')')
        return fail_at(c, line, rest.col, "init=tmap needs a tensor map's name in parentheses: tmap(NAME)");
    span inner = trim((span){rest.s + 1, rest.n - 2, rest.col + 1});
    char name[WS_NAME_MAX];
    if (parse_name(c, line, inner, "init=tmap()'s tensor map", name)) return -1;
    if ((bd->tmap = find_tmap(k, name)) < 0)
        return fail_at(c, line, inner.col, "buffer '%s': init=tmap(%s) names no tmap line before it", bd->name, name);
    bd->init = WS_INIT_TMAP;
    return 0;
}

static int parse_init(ctx *c, const ws_kernel_desc *k, int line, span spec, ws_buffer_decl *bd)
{
    size_t i = 0;
    while (i < spec.n && is_ident_char((unsigned char)spec.s[i])) i++;
    span kind = {spec.s, i, spec.col};
    span rest = {spec.s + i, spec.n - i, spec.col + (int)i};
    if (span_eq(kind, "none") && !rest.n) {     /* no contents: the simulator checks reads (issue 17) */
        bd->uninit = true;
        bd->init = WS_INIT_ZERO;
        return 0;
    }
    if (span_eq(kind, "tmap")) return parse_init_tmap(c, k, line, rest, bd);
    const init_form *form = NULL;
    for (size_t k = 0; k < sizeof init_forms / sizeof init_forms[0]; k++)
        if (span_eq(kind, init_forms[k].name)) form = &init_forms[k];
    if (!form) {
        if (!kind.n) return fail_at(c, line, spec.col, "init= needs a kind (%s)", INIT_KNOWN);
        return fail_at(c, line, spec.col, "unknown init kind '%.*s' (%s)", (int)(kind.n > 40 ? 40 : kind.n), kind.s, INIT_KNOWN);
    }
    bd->init = form->kind;
    if (!form->nargs[0]) {
        if (rest.n) return fail_at(c, line, rest.col, "unexpected '%.*s' after init=%.*s", (int)(rest.n > 20 ? 20 : rest.n),
                                   rest.s, (int)kind.n, kind.s);
        return 0;
    }
    if (!rest.n || rest.s[0] != '(')
        return fail_at(c, line, rest.col, "init=%s needs arguments in parentheses: %s", form->name, form->form);
    if (rest.s[rest.n - 1] != ')')
        return fail_at(c, line, rest.col, "init=%s: '(' is never closed", form->name);
    span inner = {rest.s + 1, rest.n - 2, rest.col + 1};
    /* the closing ')' must be the one matching the opening '(' */
    int depth = 0;
    for (size_t j = 0; j < inner.n; j++) {
        if (inner.s[j] == '(') depth++;
        else if (inner.s[j] == ')' && --depth < 0)
            return fail_at(c, line, inner.col + (int)j + 1, "unexpected text after init=%s(...)", form->name);
    }
    if (form->kind == WS_INIT_FILE) {
        span p = trim(inner);
        if (!p.n) return fail_at(c, line, inner.col, "file() needs a path: file(data.bin) or file(data.npy)");
        if (p.n >= sizeof bd->file) return fail_at(c, line, p.col, "file() path too long (at most %zu characters)", sizeof bd->file - 1);
        memcpy(bd->file, p.s, p.n);
        bd->file[p.n] = 0;
        bd->file_col = p.col;
        return 0;
    }
    span args[7];
    int nargs = trim(inner).n ? split_top(inner, ',', args, 7) : 0;
    bool ok = false;
    for (int k = 0; k < 3 && form->nargs[k]; k++) ok |= nargs == form->nargs[k];
    if (!ok) {
        char counts[32] = "";
        for (int k = 0; k < 3 && form->nargs[k]; k++)
            snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%d", k ? (k + 1 < 3 && form->nargs[k + 1] ? ", " : " or ") : "",
                     form->nargs[k]);
        if (form->kind == WS_INIT_CONST) return fail_at(c, line, rest.col, "const() takes one number: const(v)");
        return fail_at(c, line, rest.col, "%s() takes %s argument%s: %s, not %d", form->name, counts,
                       form->nargs[0] == 1 && !form->nargs[1] ? "" : "s", form->form, nargs);
    }
    for (int k = 0; k < nargs; k++)
        if (!args[k].n) return fail_at(c, line, args[k].col, "empty argument in %s", form->form);
    if (form->kind == WS_INIT_CONST) {
        if (!parse_special_float(args[0], &bd->const_value)) { /* inf, -inf, nan: floating-point buffers only */
            if (!ws_type_is_float(bd->type))
                return fail_at(c, line, args[0].col, "const(%.*s): %s has no infinity or NaN (a floating-point buffer "
                               "does)", (int)(args[0].n > 40 ? 40 : args[0].n), args[0].s,
                               ws_type_name(ws_type_scalar(bd->type)));
            return 0;
        }
        if (parse_float(args[0], &bd->const_value))
            return fail_at(c, line, args[0].col, "const() needs a number (or inf, -inf, nan), not '%.*s'",
                           (int)(args[0].n > 40 ? 40 : args[0].n), args[0].s);
        if (!const_fits(bd->type, bd->const_value))
            return fail_at(c, line, args[0].col, "const(%.*s) does not fit in %s", (int)(args[0].n > 40 ? 40 : args[0].n),
                           args[0].s, ws_type_name(ws_type_scalar(bd->type)));
        return 0;
    }
    char what[48];
    snprintf(what, sizeof what, "%s() seed", form->name);
    if (!(bd->seed = parse_expr(c, line, args[0], what))) return -1;
    if (form->kind == WS_INIT_LCG && nargs >= 4) {
        if (!(bd->lcg_a = parse_expr(c, line, args[1], "lcg() a")) || !(bd->lcg_c = parse_expr(c, line, args[2], "lcg() c")) ||
            !(bd->lcg_m = parse_expr(c, line, args[3], "lcg() m")))
            return -1;
        if (nargs == 6 && (!(bd->lo = parse_expr(c, line, args[4], "lcg() lo")) || !(bd->hi = parse_expr(c, line, args[5], "lcg() hi"))))
            return -1;
    } else if (nargs == 3) {
        snprintf(what, sizeof what, "%s() lo", form->name);
        if (!(bd->lo = parse_expr(c, line, args[1], what))) return -1;
        snprintf(what, sizeof what, "%s() hi", form->name);
        if (!(bd->hi = parse_expr(c, line, args[2], what))) return -1;
    }
    return 0;
}

/* A word of a buffer line that is a slip of 'output' ("ouput", "Output") and no parameter's name. */
static bool slip_of_output(const ws_kernel_desc *k, span w)
{
    char typed[24] = "";
    if (!w.n || w.n >= sizeof typed) return false;
    memcpy(typed, w.s, w.n);
    for (int p = 0; p < k->nparams; p++)
        if (!strcmp(k->params[p].name, typed)) return false;
    return ws_near_miss(typed, "output");
}

/* buffer NAME TYPE COUNT [init=KIND] [output] [tol=X] [ulp=N] */
static int kw_buffer(ctx *c, block *b, int line, span rest)
{
    ws_kernel_desc *k = &b->k;
    if (k->nbuffers == WS_MAX_BUFFERS) return fail_at(c, line, rest.col, "too many buffers (at most %d)", WS_MAX_BUFFERS);
    ws_buffer_decl *bd = &k->buffers[k->nbuffers];
    memset(bd, 0, sizeof *bd);
    bd->line = line;
    span name = take_word(&rest);
    if (parse_name(c, line, name, "buffer", bd->name)) return -1;
    if (check_new_name(c, b, line, name.col, bd->name)) return -1;
    span type = take_word(&rest);
    if (!type.n) return fail_at(c, line, type.col, "buffer '%s' needs a type and a count: buffer NAME TYPE COUNT", bd->name);
    char tname[24] = "";
    if (type.n < sizeof tname) {
        memcpy(tname, type.s, type.n);
        tname[type.n] = '\0';
    }
    if (ws_type_parse(tname, &bd->type)) {
        char hint[96];
        type_hint(tname, hint, sizeof hint);
        return fail_at(c, line, type.col, "unknown type '%.*s'%s (known: %s; also int8 .. uint64, int8_t .. uint64_t, "
                       "__half, __nv_bfloat16)", (int)(type.n > 40 ? 40 : type.n), type.s, hint, ws_type_list());
    }
    /* The count runs until the first option word, so it may contain spaces. */
    rest = trim(rest);
    span count = {rest.s, 0, rest.col};
    span opt = rest;
    for (;;) {
        span probe = opt;
        span w = take_word(&probe);
        if (!w.n) break;
        size_t id = 0;
        while (id < w.n && is_ident_char((unsigned char)w.s[id])) id++;
        bool is_option = span_eq(w, "output") || (id > 0 && id < w.n && w.s[id] == '=' && (id + 1 == w.n || w.s[id + 1] != '='));
        if (is_option || (id == w.n && slip_of_output(k, w))) break; /* "ouput": an option word, misspelt */
        count.n = (size_t)(w.s + w.n - count.s);
        opt = probe;
    }
    if (!trim(count).n) return fail_at(c, line, count.col, "buffer '%s' needs an element count after its type", bd->name);
    if (!(bd->count = parse_expr(c, line, count, "buffer count"))) {
        k->nbuffers++;      /* so free_block releases what was parsed */
        return -1;
    }
    k->nbuffers++;
    bool seen_init = false, seen_tol = false, seen_output = false, seen_ulp = false;
    int tol_col = 0, ulp_col = 0;
    for (;;) {
        span w = take_word(&opt);
        if (!w.n) break;
        if (span_eq(w, "output")) {
            if (seen_output) return fail_at(c, line, w.col, "'output' given twice");
            seen_output = true;
            bd->output = true;
            continue;
        }
        size_t id = 0;
        while (id < w.n && is_ident_char((unsigned char)w.s[id])) id++;
        if (id == 0 || id >= w.n || w.s[id] != '=')
            return fail_at(c, line, w.col, "unexpected '%.*s' in buffer options%s (expected init=..., output, tol=... or "
                           "ulp=...)", (int)(w.n > 40 ? 40 : w.n), w.s,
                           id == w.n && slip_of_output(k, w) ? "; did you mean 'output'?" : "");
        span key = {w.s, id, w.col};
        span val = {w.s + id + 1, w.n - id - 1, w.col + (int)id + 1};
        if (span_eq(key, "init")) {
            if (seen_init) return fail_at(c, line, w.col, "init= given twice");
            seen_init = true;
            if (parse_init(c, k, line, val, bd)) return -1;
        } else if (span_eq(key, "tol")) {
            if (seen_tol) return fail_at(c, line, w.col, "tol= given twice");
            seen_tol = true;
            tol_col = w.col;
            if (parse_float(val, &bd->tol) || bd->tol < 0)
                return fail_at(c, line, val.col, "tol= needs a number >= 0, not '%.*s'", (int)(val.n > 40 ? 40 : val.n), val.s);
        } else if (span_eq(key, "ulp")) {
            if (seen_ulp) return fail_at(c, line, w.col, "ulp= given twice");
            seen_ulp = true;
            ulp_col = w.col;
            char num[24];
            size_t i = 0;
            while (i < val.n && i < sizeof num - 1 && isdigit((unsigned char)val.s[i])) { num[i] = val.s[i]; i++; }
            num[i] = 0;
            unsigned long v = i ? strtoul(num, NULL, 10) : 0;
            if (!i || i != val.n || v > (1ul << 30))
                return fail_at(c, line, val.col, "ulp= needs a whole number of units in the last place (0 to 2^30), not "
                               "'%.*s'", (int)(val.n > 40 ? 40 : val.n), val.s);
            bd->ulp = (uint32_t)v;
            if (!ws_type_is_float(bd->type))
                return fail_at(c, line, w.col, "ulp= applies to floating-point buffers; '%s' is %s", bd->name,
                               ws_type_name(bd->type));
        } else {
            static const char *const opts[] = {"init", "tol", "ulp"};
            char typed[24] = "";
            if (key.n < sizeof typed) memcpy(typed, key.s, key.n);
            int near = typed[0] ? ws_nearest(typed, opts, 3, sizeof opts[0], false) : -1;
            return fail_at(c, line, w.col, "unknown buffer option '%.*s='%s%s%s (known: init=, tol=, ulp=, output)",
                           (int)(key.n > 40 ? 40 : key.n), key.s, near >= 0 ? "; did you mean '" : "",
                           near >= 0 ? opts[near] : "", near >= 0 ? "='?" : "");
        }
    }
    if (seen_tol && !bd->output)
        return fail_at(c, line, tol_col, "tol= applies to output buffers only; add 'output' to buffer '%s'", bd->name);
    if (seen_ulp && !bd->output)
        return fail_at(c, line, ulp_col, "ulp= applies to output buffers only; add 'output' to buffer '%s'", bd->name);
    /* the map holds a device address: the GPU's and the simulator's bytes differ by design */
    if (bd->init == WS_INIT_TMAP && bd->output)
        return fail_at(c, line, name.col, "buffer '%s' holds a tensor map (init=tmap): it cannot be an output", bd->name);
    return 0;
}

static int kw_dims(ctx *c, block *b, int line, span rest, bool is_grid)
{
    const char *what = is_grid ? "grid" : "block";
    span items[3];
    int n = trim(rest).n ? split_top(rest, ',', items, 3) : 0;
    if (n == 0) return fail_at(c, line, rest.col, "%s needs 1 to 3 dimensions (x[, y[, z]])", what);
    if (n > 3) {
        span all[4];
        split_top(rest, ',', all, 4);
        return fail_at(c, line, all[3].col, "%s has %d dimensions; at most 3 (x, y, z)", what, n);
    }
    ws_expr **dst = is_grid ? b->k.grid : b->k.block;
    for (int i = 0; i < n; i++) {
        if (!items[i].n) return fail_at(c, line, items[i].col, "empty %s dimension", what);
        if (!(dst[i] = parse_expr(c, line, items[i], what))) return -1;
    }
    if (is_grid) { b->k.ngrid = n; b->grid_col = items[0].col; }
    else { b->k.nblock = n; b->block_col = items[0].col; }
    return 0;
}

/* cluster X[, Y[, Z]] [nonportable]: the launch's cluster dimensions, as cudaLaunchKernelEx's
 * cudaLaunchAttributeClusterDimension gives them; `nonportable` sets the function's
 * cudaFuncAttributeNonPortableClusterSizeAllowed (more than 8 blocks, up to the GPU's 16). */
static int kw_cluster(ctx *c, block *b, int line, span rest)
{
    span r = trim(rest);
    static const char np[] = "nonportable";
    size_t npn = sizeof np - 1;
    if (r.n >= npn && !memcmp(r.s + r.n - npn, np, npn) && (r.n == npn || isspace((unsigned char)r.s[r.n - npn - 1]))) {
        b->k.cluster_nonportable = true;
        r.n -= npn;
        r = trim(r);
    }
    span items[4];
    int n = r.n ? split_top(r, ',', items, 4) : 0;
    if (n == 0) return fail_at(c, line, rest.col, "cluster needs 1 to 3 dimensions (x[, y[, z]]) and then optionally 'nonportable'");
    if (n > 3) return fail_at(c, line, items[3].col, "cluster has %d dimensions; at most 3 (x, y, z)", n);
    for (int i = 0; i < n; i++) {
        if (!items[i].n) return fail_at(c, line, items[i].col, "empty cluster dimension");
        if (!(b->k.cluster[i] = parse_expr(c, line, items[i], "cluster"))) return -1;
    }
    b->k.ncluster = n;
    b->k.cluster_line = line;
    b->k.cluster_col = items[0].col;
    return 0;
}

/* ---- tmap (tensor maps, common/tmap.h) ------------------------------------------------- */

/* "a,b,c" after key=: up to WS_TMAP_MAX_RANK expressions into out; returns how many, -1 on error. */
static int tmap_list(ctx *c, int line, span val, const char *what, ws_expr **out)
{
    span items[WS_TMAP_MAX_RANK + 1];
    int n = val.n ? split_top(val, ',', items, WS_TMAP_MAX_RANK + 1) : 0;
    if (n < 1) return fail_at(c, line, val.col, "%s needs 1 to %d comma-separated values", what, WS_TMAP_MAX_RANK);
    if (n > WS_TMAP_MAX_RANK) return fail_at(c, line, items[WS_TMAP_MAX_RANK].col, "%s has more than %d values", what,
                                             WS_TMAP_MAX_RANK);
    for (int i = 0; i < n; i++)
        if (!(out[i] = parse_expr(c, line, items[i], what))) return -1;
    return n;
}

static int kw_tmap(ctx *c, block *b, int line, span rest)
{
    ws_kernel_desc *k = &b->k;
    if (k->ntmaps == WS_MAX_TMAPS) return fail_at(c, line, rest.col, "too many tensor maps (at most %d)", WS_MAX_TMAPS);
    ws_tmap_decl *t = &k->tmaps[k->ntmaps];
    span name = take_word(&rest), buf = take_word(&rest);
    if (parse_name(c, line, name, "tmap", t->name) || check_new_name(c, b, line, name.col, t->name)) return -1;
    char bname[WS_NAME_MAX];
    if (parse_name(c, line, buf, "tmap's buffer", bname)) return -1;
    if ((t->buffer = find_buffer(k, bname)) < 0)
        return fail_at(c, line, buf.col, "tmap '%s': no buffer '%s' declared before it", t->name, bname);
    if (ws_type_lanes(k->buffers[t->buffer].type) != 1)
        return fail_at(c, line, buf.col, "tmap '%s': buffer '%s' has vector elements; a tensor map needs a scalar type",
                       t->name, bname);
    t->line = line;
    t->col = name.col;
    k->ntmaps++;                                 /* owns its expressions from here on */
    int nbox = 0, nstr = -1;
    for (;;) {
        span w = take_word(&rest);
        if (!w.n) break;
        const char *eq = memchr(w.s, '=', w.n);
        if (!eq) return fail_at(c, line, w.col, "expected key=value in tmap options (dims=, box=, strides=, swizzle=, fill=)");
        span key = {w.s, (size_t)(eq - w.s), w.col};
        span val = {eq + 1, w.n - key.n - 1, w.col + (int)key.n + 1};
        if (span_eq(key, "dims")) {
            if ((t->rank = tmap_list(c, line, val, "dims=", t->dims)) < 0) return -1;
        } else if (span_eq(key, "box")) {
            if ((nbox = tmap_list(c, line, val, "box=", t->box)) < 0) return -1;
        } else if (span_eq(key, "strides")) {
            if ((nstr = tmap_list(c, line, val, "strides=", t->strides + 1)) < 0) return -1;
        } else if (span_eq(key, "swizzle")) {
            if (span_eq(val, "none")) t->swizzle = 0;
            else if (span_eq(val, "32B")) t->swizzle = 32;
            else if (span_eq(val, "64B")) t->swizzle = 64;
            else if (span_eq(val, "128B")) t->swizzle = 128;
            else return fail_at(c, line, val.col, "swizzle must be none, 32B, 64B or 128B");
        } else if (span_eq(key, "fill")) {
            if (span_eq(val, "nan")) t->fill_nan = true;
            else if (!span_eq(val, "zero")) return fail_at(c, line, val.col, "fill must be zero or nan");
        } else {
            return fail_at(c, line, key.col, "unknown tmap option '%.*s=' (known: dims=, box=, strides=, swizzle=, fill=)",
                           (int)(key.n > 40 ? 40 : key.n), key.s);
        }
    }
    if (!t->rank) return fail_at(c, line, t->col, "tmap '%s' needs dims=D0[,D1..] (innermost first)", t->name);
    if (nbox != t->rank)
        return fail_at(c, line, t->col, "tmap '%s' has %d dims but %d box sizes (box=B0[,B1..])", t->name, t->rank, nbox);
    if (nstr >= 0 && nstr != t->rank - 1)
        return fail_at(c, line, t->col, "tmap '%s': strides= gives the %d outer dimensions' strides in bytes, found %d",
                       t->name, t->rank - 1, nstr);
    return 0;
}

static int kw_args(ctx *c, block *b, int line, span rest)
{
    if (!trim(rest).n) return 0;       /* "args" alone: a kernel without arguments */
    /* a by-value struct is a .b8 array in the PTX, which gives no field types or offsets to
       lay a braced list out by: refuse it here, saying what works instead */
    const char *brace = memchr(rest.s, '{', rest.n);
    if (brace)
        return fail_at(c, line, rest.col + (int)(brace - rest.s),
                       "a braced struct argument is not supported: an argument is a buffer name, an integer "
                       "expression, a float literal or a tmap name; pass the struct's fields as separate kernel "
                       "parameters, or declare a buffer holding it (e.g. 'buffer p int 2 init=file(p.bin)') "
                       "and take a pointer to the struct");
    span items[WS_MAX_ARGS];
    int n = split_top(rest, ',', items, WS_MAX_ARGS);
    if (n > WS_MAX_ARGS) return fail_at(c, line, rest.col, "too many arguments (%d; at most %d)", n, WS_MAX_ARGS);
    for (int i = 0; i < n; i++) {
        if (!items[i].n) return fail_at(c, line, items[i].col, "empty argument");
        raw_arg *r = &b->raw[b->nraw];
        if (!(r->text = span_dup(items[i]))) return fail_at(c, line, items[i].col, "out of memory");
        r->line = line;
        r->col = items[i].col;
        b->nraw++;
    }
    return 0;
}

static int do_line(ctx *c, block *b, int line, span x)
{
    /* '#' starts a comment */
    const char *hash = memchr(x.s, '#', x.n);
    if (hash) x.n = (size_t)(hash - x.s);
    x = trim(x);
    if (!x.n) return 0;
    if (find_in(x.s, x.n, OPEN_MARK))
        return fail_at(c, line, x.col + (int)(find_in(x.s, x.n, OPEN_MARK) - x.s),
                       "a new warpscope block starts inside the one opened at line %d (missing '*/')", b->open_line);
    span rest = x;
    span word = take_word(&rest);
    rest = trim(rest);
    int kw = -1;
    for (int i = 0; i < KW_COUNT; i++)
        if (span_eq(word, keywords[i])) kw = i;
    if (kw < 0) {
        char typed[24] = "", hint[48] = "";
        if (word.n < sizeof typed) memcpy(typed, word.s, word.n);
        int near = typed[0] ? ws_nearest(typed, keywords, KW_COUNT, sizeof keywords[0], false) : -1;
        if (near >= 0) snprintf(hint, sizeof hint, "; did you mean '%s'?", keywords[near]);
        return fail_at(c, line, word.col, "unknown keyword '%.*s'%s (known: kernel entry compile note stars param buffer "
                       "grid block shared bytes args tmap cooperative cluster target realistic)", (int)(word.n > 40 ? 40 : word.n), word.s, hint);
    }
    if (kw != KW_PARAM && kw != KW_BUFFER && kw != KW_TMAP && b->seen[kw])
        return fail_at(c, line, word.col, "'%s' given twice in one block (first at line %d)", keywords[kw], b->seen[kw]);
    if (!b->seen[kw]) b->seen[kw] = line;
    ws_kernel_desc *k = &b->k;
    switch ((keyword)kw) {
    case KW_KERNEL:
        b->kernel_col = rest.col;
        if (parse_kernel_name(c, b, line, rest)) return -1;
        {
            ENTRY want = {.key = k->name}, *found = NULL;
            if (c->have_names && hsearch_r(want, FIND, &found, &c->names) && found)
                return fail_at(c, line, rest.col, "duplicate description name '%s' (first at line %d)", k->name,
                               c->f->kernels[(intptr_t)found->data].line);
        }
        return 0;
    case KW_ENTRY:
        b->entry_col = rest.col;
        if (b->kernel_expr)
            return fail_at(c, line, word.col, "'kernel %s' already names the function; with 'entry', give the "
                           "description a plain name", k->name);
        return parse_entry(c, k, line, rest, "entry");
    case KW_COMPILE: {
        if (!rest.n) return fail_at(c, line, rest.col, "compile needs compiler options (-I DIR, -D NAME=VALUE, -std=c++17, ...)");
        char dir[WS_PATH_MAX], *text = span_dup(rest);
        if (!text) return fail_at(c, line, rest.col, "out of memory");
        folder_of(c->f->path, dir, sizeof dir);
        int rc = ws_compile_opts_parse(text, dir, c->f->path, line, rest.col, &k->compile, c->err);
        free(text);
        k->compile_line = line;
        return rc;
    }
    case KW_NOTE:
        if (!rest.n) return fail_at(c, line, rest.col, "note needs text");
        if (rest.n >= WS_NOTE_MAX) return fail_at(c, line, rest.col + WS_NOTE_MAX - 1, "note too long (at most %d characters)", WS_NOTE_MAX - 1);
        memcpy(k->note, rest.s, rest.n);
        k->note[rest.n] = '\0';
        return 0;
    case KW_STARS:
        if (rest.n != 1 || rest.s[0] < '1' || rest.s[0] > '3')
            return fail_at(c, line, rest.col, "stars must be 1, 2 or 3");
        k->stars = rest.s[0] - '0';
        return 0;
    case KW_PARAM: return kw_param(c, b, line, rest);
    case KW_BUFFER: return kw_buffer(c, b, line, rest);
    case KW_GRID: return kw_dims(c, b, line, rest, true);
    case KW_BLOCK: return kw_dims(c, b, line, rest, false);
    case KW_SHARED: return (k->shared = parse_expr(c, line, rest, "shared")) ? 0 : -1;
    case KW_BYTES: return (k->bytes = parse_expr(c, line, rest, "bytes")) ? 0 : -1;
    case KW_ARGS: return kw_args(c, b, line, rest);
    case KW_TMAP: return kw_tmap(c, b, line, rest);
    case KW_COOPERATIVE:
        if (rest.n) return fail_at(c, line, rest.col, "'cooperative' takes nothing after it");
        k->cooperative = true;
        return 0;
    case KW_CLUSTER: return kw_cluster(c, b, line, rest);
    case KW_REALISTIC:                           /* names parameters: read in finish_block */
        if (!(b->realistic_text = span_dup(rest))) return fail_at(c, line, rest.col, "out of memory");
        b->realistic_col = rest.col;
        k->realistic_line = line;
        return 0;
    case KW_TARGET: {                            /* sm_NN or sm_NNa: what wgmma and setmaxnreg need */
        size_t d = 3;
        bool ok = rest.n >= 5 && rest.n <= 7 && !memcmp(rest.s, "sm_", 3);
        while (ok && d < rest.n && rest.s[d] >= '0' && rest.s[d] <= '9') d++;
        ok = ok && d >= 5 && (d == rest.n || (d + 1 == rest.n && rest.s[d] == 'a'));
        if (!ok)
            return fail_at(c, line, rest.col, "target must name an architecture such as sm_90a (sm_ and its number, "
                           "optionally 'a'), found '%.*s'", (int)(rest.n > 40 ? 40 : rest.n), rest.s);
        memcpy(k->target, rest.s, rest.n);
        k->target[rest.n] = '\0';
        k->target_line = line;
        return 0;
    }
    default: return fail_at(c, line, word.col, "internal error: keyword");
    }
}

/* Checks that e names only parameters 0..visible-1; explains any other name. */
static int check_names(ctx *c, block *b, const ws_expr *e, int visible, int self, const char *where)
{
    if (!e) return 0;
    int col = 0, line = 0, start_col;
    const char *name = ws_expr_first_unknown(e, visible, b->pnames, &col);
    if (!name) return 0;
    ws_expr_location(e, &line, &start_col);
    int p = find_param(&b->k, name);
    if (p >= 0 && p == self) return fail_at(c, line, col, "parameter '%s' refers to itself", name);
    if (p >= 0) return fail_at(c, line, col, "parameter '%s' is used before it is declared (line %d)", name, b->k.params[p].line);
    if (find_buffer(&b->k, name) >= 0)
        return fail_at(c, line, col, "buffer '%s' cannot be used in an expression (%s); only parameters can", name, where);
    return fail_at(c, line, col, "unknown parameter '%s' in %s", name, where);
}

static int finish_args(ctx *c, block *b)
{
    ws_kernel_desc *k = &b->k;
    for (int i = 0; i < b->nraw; i++) {
        raw_arg *r = &b->raw[i];
        ws_arg_decl *a = &k->args[k->nargs];
        span x = {r->text, strlen(r->text), r->col};
        a->line = r->line;
        a->col = r->col;
        int bi = find_buffer(k, r->text);
        if (bi >= 0) {
            a->kind = WS_ARG_BUFFER;
            a->buffer = bi;
            k->nargs++;
            continue;
        }
        if ((bi = find_tmap(k, r->text)) >= 0) {
            a->kind = WS_ARG_TMAP;
            a->buffer = bi;
            k->nargs++;
            continue;
        }
        if (looks_like_float(x) && !parse_float(x, &a->fvalue)) {
            a->kind = WS_ARG_FLOAT;
            k->nargs++;
            continue;
        }
        a->kind = WS_ARG_INT;
        if (!(a->expr = ws_expr_parse(r->text, c->f->path, r->line, r->col, c->err))) return -1;
        k->nargs++;
        int col;
        const char *name = ws_expr_first_unknown(a->expr, k->nparams, b->pnames, &col);
        if (name) {
            if (find_buffer(k, name) >= 0)
                return fail_at(c, r->line, col, "buffer '%s' cannot be used in an expression; pass it alone", name);
            return fail_at(c, r->line, col, "unknown buffer or parameter '%s' in args", name);
        }
    }
    return 0;
}

/* The __global__ function named name: its definition rather than a declaration, in the
 * .cu rather than a header; NULL when there is none. */
static const global_fn *find_global(ctx *c, const char *name)
{
    /* sorted once (again only when headers read since added more), then found by bsearch: a
     * file of n descriptions costs n log n here, not n^2 */
    if (c->sorted_n != c->nglobals) {
        qsort(c->globals, (size_t)c->nglobals, sizeof *c->globals, global_cmp);
        c->sorted_n = c->nglobals;
    }
    const global_fn *hit = c->nglobals ? bsearch(name, c->globals, (size_t)c->nglobals, sizeof *c->globals, name_cmp)
                                       : NULL;
    if (!hit) return NULL;
    while (hit > c->globals && !strcmp(hit[-1].name, name)) hit--;
    const global_fn *best = NULL;              /* in file order, as the names tie on order */
    for (const global_fn *g = hit; g < c->globals + c->nglobals && !strcmp(g->name, name); g++)
        if (!best || (!best->defined && g->defined) || (best->defined == g->defined && best->file >= 0 && g->file < 0))
            best = g;
    return best;
}

/* The -I folders of a compile line. */
static int include_dirs(const ws_compile_opts *o, char (*out)[WS_PATH_MAX], int max)
{
    int n = 0;
    for (int i = 0; i < o->n && n < max; i++)
        if (!strncmp(o->opt[i], "-I", 2)) snprintf(out[n++], WS_PATH_MAX, "%s", o->opt[i] + 2);
    return n;
}

const char *ws_realistic_class_name(ws_realistic_class cl)
{
    switch (cl) {
    case WS_REAL_DRAM: return "beyond-l2";
    case WS_REAL_L2_RESIDENT: return "l2-resident";
    case WS_REAL_COMPUTE_BOUND: return "compute-bound";
    default: return "none";
    }
}

/* `realistic [l2-resident|compute-bound] [NAME = EXPR {, NAME = EXPR}]`: each NAME a parameter,
 * each EXPR over the parameters declared before NAME (as a -D override's may be). */
static int finish_realistic(ctx *c, block *b)
{
    ws_kernel_desc *k = &b->k;
    int line = k->realistic_line;
    span rest = trim((span){b->realistic_text, strlen(b->realistic_text), b->realistic_col});
    span save = rest, w = take_word(&rest);
    k->realistic_class = WS_REAL_DRAM;
    if (span_eq(w, "l2-resident")) k->realistic_class = WS_REAL_L2_RESIDENT;
    else if (span_eq(w, "compute-bound")) k->realistic_class = WS_REAL_COMPUTE_BOUND;
    else rest = save;
    rest = trim(rest);
    if (!rest.n && k->realistic_class == WS_REAL_DRAM)
        return fail_at(c, line, rest.col, "realistic needs NAME = EXPR (its sizes beyond the L2), or a class "
                       "word first: l2-resident, compute-bound");
    while (rest.n) {
        size_t i = 0;                            /* this assignment: up to a comma outside parentheses */
        int depth = 0;
        while (i < rest.n && (depth || rest.s[i] != ',')) {
            if (rest.s[i] == '(') depth++;
            else if (rest.s[i] == ')' && depth) depth--;
            i++;
        }
        span one = trim((span){rest.s, i, rest.col});
        size_t n = 0;
        while (n < one.n && is_ident_char((unsigned char)one.s[n])) n++;
        span after = trim((span){one.s + n, one.n - n, one.col + (int)n});
        if (!n || !is_ident_start((unsigned char)one.s[0]) || !after.n || after.s[0] != '=')
            return fail_at(c, line, one.col, "realistic expects NAME = EXPR (comma-separated), found '%.*s'",
                           (int)(one.n > 40 ? 40 : one.n), one.s);
        char name[WS_NAME_MAX];
        if (parse_name(c, line, (span){one.s, n, one.col}, "parameter", name)) return -1;
        int p = find_param(k, name);
        if (p < 0) {
            char list[512] = "";
            for (int q = 0; q < k->nparams; q++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", q ? ", " : "", k->params[q].name);
            return fail_at(c, line, one.col, "realistic: '%s' is not a parameter of '%s' (parameters: %s)", name,
                           k->name, list[0] ? list : "none");
        }
        for (int q = 0; q < k->nrealistic; q++)
            if (k->realistic[q].param == p)
                return fail_at(c, line, one.col, "realistic: '%s' given twice", name);
        ws_realistic_decl *r = &k->realistic[k->nrealistic];
        if (!(r->value = parse_expr(c, line, (span){after.s + 1, after.n - 1, after.col + 1}, "realistic")))
            return -1;
        r->param = p;
        k->nrealistic++;
        if (check_names(c, b, r->value, p, p, "a realistic size")) return -1;
        if (i == rest.n) break;
        rest = trim((span){rest.s + i + 1, rest.n - i - 1, rest.col + (int)i + 1});
        if (!rest.n) return fail_at(c, line, rest.col, "realistic: nothing after the last ','");
    }
    return 0;
}

static int finish_block(ctx *c, block *b)
{
    ws_kernel_desc *k = &b->k;
    if (!b->seen[KW_KERNEL])
        return fail_at(c, b->open_line, b->open_col, "warpscope block has no 'kernel' line (kernel NAME: the name "
                       "commands use, and the __global__ function's unless an 'entry' line names another)");
    if (!b->seen[KW_GRID]) return fail_at(c, b->open_line, b->open_col, "description '%s' has no 'grid' line", k->name);
    if (!b->seen[KW_BLOCK]) return fail_at(c, b->open_line, b->open_col, "description '%s' has no 'block' line", k->name);
    for (int i = 0; i < k->nparams; i++)
        if (check_names(c, b, k->params[i].value, i, i, "a param")) return -1;
    for (int i = 0; i < k->nbuffers; i++) {
        const ws_buffer_decl *bd = &k->buffers[i];
        if (check_names(c, b, bd->count, k->nparams, -1, "a buffer count") ||
            check_names(c, b, bd->seed, k->nparams, -1, "a random seed") ||
            check_names(c, b, bd->lo, k->nparams, -1, "a random range") ||
            check_names(c, b, bd->hi, k->nparams, -1, "a random range") ||
            check_names(c, b, bd->lcg_a, k->nparams, -1, "an lcg() parameter") ||
            check_names(c, b, bd->lcg_c, k->nparams, -1, "an lcg() parameter") ||
            check_names(c, b, bd->lcg_m, k->nparams, -1, "an lcg() parameter"))
            return -1;
    }
    for (int i = 0; i < 3; i++)
        if (check_names(c, b, k->grid[i], k->nparams, -1, "grid") || check_names(c, b, k->block[i], k->nparams, -1, "block"))
            return -1;
    if (check_names(c, b, k->shared, k->nparams, -1, "shared") || check_names(c, b, k->bytes, k->nparams, -1, "bytes"))
        return -1;
    for (int i = 0; i < k->ntmaps; i++)
        for (int d = 0; d < WS_TMAP_MAX_RANK; d++)
            if (check_names(c, b, k->tmaps[i].dims[d], k->nparams, -1, "a tmap") ||
                check_names(c, b, k->tmaps[i].box[d], k->nparams, -1, "a tmap") ||
                check_names(c, b, k->tmaps[i].strides[d], k->nparams, -1, "a tmap"))
                return -1;
    if (finish_args(c, b)) return -1;
    if (b->realistic_text && finish_realistic(c, b)) return -1;
    if (!k->entry[0]) {             /* 'kernel NAME': the entry is the function of that name */
        snprintf(k->entry, sizeof k->entry, "%s", k->name);
        snprintf(k->entry_base, sizeof k->entry_base, "%s", k->name);
        k->entry_line = b->seen[KW_KERNEL];
        k->entry_col = b->kernel_col;
    }
    const global_fn *best = find_global(c, k->entry_base);
    if (!best && k->compile.n) {    /* a header found only through this block's -I folders */
        char idirs[WS_COMPILE_MAX_OPTS][WS_PATH_MAX], dir[WS_PATH_MAX];
        int nd = include_dirs(&k->compile, idirs, WS_COMPILE_MAX_OPTS);
        folder_of(c->f->path, dir, sizeof dir);
        read_includes(c, c->f->source, c->f->source_len, dir, (const char (*)[WS_PATH_MAX])idirs, nd, 0);
        best = find_global(c, k->entry_base);
    }
    if (!best) {
        /* the hint: the near name, or, with no 'entry' line, the rule and the functions there are */
        char hint[WS_MSG_MAX / 2] = "";
        size_t h = 0;
        int near = c->nglobals ? ws_nearest(k->entry_base, c->globals[0].name, c->nglobals, sizeof c->globals[0], true)
                               : -1;
        if (near >= 0)
            h += (size_t)snprintf(hint, sizeof hint, "; did you mean '%s'?", c->globals[near].name);
        if (!b->seen[KW_ENTRY] && h < sizeof hint)
            h += (size_t)snprintf(hint + h, sizeof hint - h, " (with no 'entry' line the kernel's name is taken for "
                                  "the function's: add 'entry FUNCTION'%s", c->nglobals ? "; __global__ functions here:" : "");
        for (int i = 0; !b->seen[KW_ENTRY] && i < c->nglobals && i < 8 && h < sizeof hint; i++)
            if (i == 0 || strcmp(c->globals[i].name, c->globals[i - 1].name))
                h += (size_t)snprintf(hint + h, sizeof hint - h, " %s", c->globals[i].name);
        if (!b->seen[KW_ENTRY] && h < sizeof hint) snprintf(hint + h, sizeof hint - h, ")");
        return fail_at(c, k->entry_line, k->entry_col, "no __global__ function '%s' in this file%s%s", k->entry_base,
                       c->f->nheaders ? " or the headers it includes" : "", hint);
    }
    k->kernel_line = best->line;
    k->kernel_file = best->file < 0 ? c->f->path : c->f->headers[best->file].path;
    if (!k->stars) k->stars = 1;
    k->line = b->open_line;
    k->file = c->f->path;
    int n = c->f->nkernels;
    ws_kernel_desc *grown = c->f->kernels;
    if ((n & (n - 1)) == 0) {           /* capacity doubles at each power of two: linear copying */
        grown = realloc(c->f->kernels, (size_t)(n ? 2 * n : 1) * sizeof *grown);
        if (!grown) return fail_at(c, b->open_line, b->open_col, "out of memory");
        c->f->kernels = grown;
    }
    char *key = c->have_names ? strdup(k->name) : NULL;
    int nk = c->nname_keys;                      /* the key list doubles at powers of two too */
    char **keys = !key ? NULL : (nk & (nk - 1)) ? c->name_keys
                                                 : realloc(c->name_keys, (size_t)(nk ? 2 * nk : 1) * sizeof *keys);
    ENTRY e = {.key = key, .data = (void *)(intptr_t)n}, *slot;
    if (!key || !keys || !hsearch_r(e, ENTER, &slot, &c->names)) {
        free(key);
        if (keys) c->name_keys = keys;
        return fail_at(c, b->open_line, b->open_col, "out of memory");
    }
    c->name_keys = keys;
    c->name_keys[c->nname_keys++] = key;
    grown[c->f->nkernels++] = *k;
    memset(k, 0, sizeof *k);            /* the file owns the expressions now */
    return 0;
}

/* Walks the text line by line; a block runs from the line holding the opener
 * to the first following "*" "/" (text after the opener and before the close
 * on those lines is part of the block). */
static int parse_blocks(ctx *c, const char *text, size_t len)
{
    block *b = calloc(1, sizeof *b);
    if (!b) return fail_at(c, 0, 0, "out of memory");
    bool in_block = false;
    int line = 1, rc = 0;
    size_t pos = 0;
    while (pos < len && !rc) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        span x = {text + pos, n, 1};
        if (!in_block) {
            const char *m = find_in(x.s, x.n, OPEN_MARK);
            if (m) {
                in_block = true;
                memset(&b->seen, 0, sizeof b->seen);
                b->kernel_expr = false;
                b->open_line = line;
                b->open_col = (int)(m - x.s) + 1;
                size_t skip = (size_t)(m - x.s) + strlen(OPEN_MARK);
                x = (span){x.s + skip, x.n - skip, x.col + (int)skip};
                /* no close anywhere below: say so now, rather than tripping over the code that follows */
                if (!find_in(x.s, (size_t)(text + len - x.s), "*/"))
                    rc = fail_at(c, line, b->open_col, "unterminated warpscope block: no '*/' before the end of the file");
                else if (x.n && is_ident_char((unsigned char)x.s[0]))
                    rc = fail_at(c, line, x.col, "'%s' must be followed by a space or a new line", OPEN_MARK);
            }
        }
        if (in_block && !rc) {
            const char *close = find_in(x.s, x.n, "*/");
            span content = x;
            if (close) content.n = (size_t)(close - x.s);
            rc = do_line(c, b, line, content);
            if (!rc && close) {
                rc = finish_block(c, b);
                free_block(b);
                in_block = false;
            }
        }
        pos += n + (nl ? 1 : 0);
        line++;
    }
    if (!rc && in_block)
        rc = fail_at(c, b->open_line, b->open_col, "unterminated warpscope block: no '*/' before the end of the file");
    if (!rc && c->f->nkernels == 0) rc = fail_at(c, 0, 0, "no warpscope description block (a '%s' comment)", OPEN_MARK);
    free_block(b);
    free(b);
    return rc;
}

int ws_desc_parse(const char *path, const char *text, ws_desc_file **out, ws_error *err)
{
    *out = NULL;
    if (!path) path = "<input>";
    if (strlen(path) >= WS_PATH_MAX) {
        ws_error_set(err, "", 0, 0, "path too long (at most %d bytes)", WS_PATH_MAX - 1);
        return -1;
    }
    ws_desc_file *f = calloc(1, sizeof *f);
    if (!f) {
        ws_error_set(err, path, 0, 0, "out of memory");
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->source_len = strlen(text);
    f->source = malloc(f->source_len + 1);
    if (!f->source) {
        ws_error_set(err, path, 0, 0, "out of memory");
        free(f);
        return -1;
    }
    memcpy(f->source, text, f->source_len + 1);
    ctx c = {.f = f, .err = err, .cur_file = -1};
    scan_globals(&c, f->source, f->source_len);
    char dir[WS_PATH_MAX];
    folder_of(f->path, dir, sizeof dir);
    read_includes(&c, f->source, f->source_len, dir, NULL, 0, 0);
    /* at most one description per 16 bytes of text; hsearch_r tables do not grow */
    c.have_names = hcreate_r(f->source_len / 16 + 64, &c.names) != 0;
    int rc = c.have_names ? parse_blocks(&c, f->source, f->source_len)
                          : fail_at(&c, 0, 0, "out of memory for the description names");
    if (c.have_names) hdestroy_r(&c.names);
    for (int i = 0; i < c.nname_keys; i++) free(c.name_keys[i]);
    free(c.name_keys);
    free(c.globals);
    for (int i = 0; !rc && i < f->nkernels; i++) f->kernels[i].owner = f;
    if (rc) {
        ws_desc_free(f);
        return -1;
    }
    *out = f;
    return 0;
}

int ws_desc_load(const char *path, ws_desc_file **out, ws_error *err)
{
    *out = NULL;
    size_t len;
    char *buf = ws_read_file(path, MAX_FILE_BYTES, &len, err);
    if (!buf)
        return -1;
    int rc = -1, line, col;
    if (ws_text_has_nul(buf, len, &line, &col)) /* a NUL would silently end the text: refuse it, saying where */
        ws_error_set(err, path, line, col, "NUL byte in the file (binary file?)");
    else
        rc = ws_desc_parse(path, buf, out, err);
    free(buf);
    return rc;
}

void ws_desc_free(ws_desc_file *f)
{
    if (!f) return;
    for (int i = 0; i < f->nkernels; i++) free_kernel_exprs(&f->kernels[i]);
    free(f->kernels);
    for (int i = 0; i < f->nheaders; i++) free(f->headers[i].text);
    free(f->headers);
    free(f->source);
    free(f);
}

const ws_kernel_desc *ws_desc_find(const ws_desc_file *f, const char *name)
{
    if (!f || !name) return NULL;
    for (int i = 0; i < f->nkernels; i++)
        if (!strcmp(f->kernels[i].name, name)) return &f->kernels[i];
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Index of the file path names: -1 the .cu, 0.. a header, -2 none (see desc.h). */
static int source_index(const ws_desc_file *f, const char *path)
{
    if (!f || !path) return -2;
    if (!strcmp(path, f->path)) return -1;
    for (int i = 0; i < f->nheaders; i++)
        if (!strcmp(path, f->headers[i].path)) return i;
    if (same_file(path, f->path)) return -1;
    for (int i = 0; i < f->nheaders; i++)
        if (same_file(path, f->headers[i].path)) return i;
    /* the files are gone or moved (a checked-in PTX's .file): the one with that base name */
    int found = -2, count = 0;
    if (!strcmp(base_name(path), base_name(f->path))) { found = -1; count++; }
    for (int i = 0; i < f->nheaders; i++)
        if (!strcmp(base_name(path), base_name(f->headers[i].path))) { found = i; count++; }
    return count == 1 ? found : -2;
}

const char *ws_desc_source_path(const ws_desc_file *f, const char *path)
{
    int i = source_index(f, path);
    return i == -1 ? f->path : i >= 0 ? f->headers[i].path : NULL;
}

const char *ws_desc_source_text(const ws_desc_file *f, const char *path, size_t *len)
{
    int i = source_index(f, path);
    if (i == -2) return NULL;
    if (len) *len = i == -1 ? f->source_len : f->headers[i].len;
    return i == -1 ? f->source : f->headers[i].text;
}

/* ----------------------------------------------------------------------------
 * -D overrides */

static const char *def_flag(ws_def_kind k) { return k == WS_DEF_PARAM ? "--param" : k == WS_DEF_MACRO ? "--macro" : "-D"; }

int ws_overrides_add_kind(ws_overrides *o, const char *assignment, ws_def_kind kind, ws_error *err)
{
    const char *a = assignment ? assignment : "";
    const char *flag = def_flag(kind);
    const char *eq = strchr(a, '=');
    size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
    if (!nlen || !is_ident_start((unsigned char)a[0])) {
        ws_error_set(err, CMDLINE, 1, 1, "%s needs NAME=EXPR%s, got '%.60s'", flag, kind == WS_DEF_PARAM ? "" : " or NAME", a);
        return -1;
    }
    for (size_t i = 0; i < nlen; i++)
        if (!is_ident_char((unsigned char)a[i])) {
            ws_error_set(err, CMDLINE, 1, (int)i + 1, "%s %.60s: bad character '%c' in the name", flag, a, a[i]);
            return -1;
        }
    if (!eq && kind == WS_DEF_PARAM) {
        ws_error_set(err, CMDLINE, 1, (int)nlen + 1, "%s %.60s: expected '=' after the name (NAME=EXPR)", flag, a);
        return -1;
    }
    if (nlen >= WS_NAME_MAX) {
        ws_error_set(err, CMDLINE, 1, 1, "%s: name too long (at most %d characters)", flag, WS_NAME_MAX - 1);
        return -1;
    }
    const char *value = eq ? eq + 1 : "";
    if (strlen(value) >= sizeof o->value[0]) {
        ws_error_set(err, CMDLINE, 1, (int)nlen + 2, "%s %.*s: value too long (at most %zu characters)", flag, (int)nlen, a,
                     sizeof o->value[0] - 1);
        return -1;
    }
    if (kind == WS_DEF_PARAM) {         /* known to be a parameter: its expression can be checked now */
        ws_expr *e = ws_expr_parse(value, CMDLINE, 1, (int)nlen + 2, err);
        if (!e) {
            if (err) {
                char msg[WS_MSG_MAX];
                snprintf(msg, sizeof msg, "%s", err->msg);
                snprintf(err->msg, sizeof err->msg, "%s %.100s: %.400s", flag, a, msg);
            }
            return -1;
        }
        ws_expr_free(e);
    }
    int slot = -1;
    for (int i = 0; i < o->n; i++)      /* a later definition of the same name replaces the earlier one */
        if (strlen(o->name[i]) == nlen && !memcmp(o->name[i], a, nlen)) slot = i;
    if (slot < 0) {
        if (o->n == WS_MAX_OVERRIDES) {
            ws_error_set(err, CMDLINE, 1, 1, "too many -D definitions (at most %d)", WS_MAX_OVERRIDES);
            return -1;
        }
        slot = o->n++;
    }
    memcpy(o->name[slot], a, nlen);
    o->name[slot][nlen] = '\0';
    snprintf(o->value[slot], sizeof o->value[slot], "%s", value);
    o->has_value[slot] = eq != NULL;
    o->kind[slot] = kind;
    return 0;
}

int ws_overrides_add(ws_overrides *o, const char *assignment, ws_error *err)
{
    return ws_overrides_add_kind(o, assignment, WS_DEF_AUTO, err);
}

int ws_overrides_add_compile(ws_overrides *o, const char *opt, ws_error *err)
{
    ws_error e;
    if (ws_compile_opts_add(&o->compile, opt, NULL, &e)) {
        ws_error_set(err, CMDLINE, 1, 1, "%s", e.msg);
        return -1;
    }
    return 0;
}

typedef struct {
    const char *name;
    size_t n;
} ident_query;

static bool is_that_ident(void *cx, const char *s, size_t len, size_t st, size_t n, int line)
{
    (void)len;
    (void)line;
    const ident_query *q = cx;
    return n == q->n && !memcmp(s + st, q->name, n);
}

/* Does name occur as an identifier (outside comments and strings) in the .cu or a header it read? */
static bool occurs_in_source(const ws_kernel_desc *d, const char *name)
{
    const ws_desc_file *f = d->owner;
    if (!f) return false;
    ident_query q = {name, strlen(name)};
    if (each_identifier(f->source, f->source_len, is_that_ident, &q)) return true;
    for (int i = 0; i < f->nheaders; i++)
        if (each_identifier(f->headers[i].text, f->headers[i].len, is_that_ident, &q)) return true;
    return false;
}

static void param_list(const ws_kernel_desc *d, char *list, size_t cap)
{
    size_t used = 0;
    list[0] = 0;
    for (int p = 0; p < d->nparams && used < cap; p++)
        used += (size_t)snprintf(list + used, cap - used, "%s%s", p ? ", " : "", d->params[p].name);
}

int ws_override_kind_of(const ws_kernel_desc *d, const ws_overrides *ov, int i, ws_def_kind *kind, ws_error *err)
{
    const char *name = ov->name[i];
    int p = -1;
    for (int k = 0; k < d->nparams && p < 0; k++)
        if (!strcmp(d->params[k].name, name)) p = k;
    char list[WS_MSG_MAX / 2];
    param_list(d, list, sizeof list);
    switch (ov->kind[i]) {
    case WS_DEF_MACRO:
        *kind = WS_DEF_MACRO;
        return 0;
    case WS_DEF_PARAM:
        if (p < 0) {
            int near = ws_nearest(name, d->params[0].name, d->nparams, sizeof d->params[0], true);
            if (near >= 0)
                ws_error_set(err, CMDLINE, 1, 1, "--param %s: '%s' has no parameter '%s'; did you mean '%s'?", name,
                             d->name, name, d->params[near].name);
            else
                ws_error_set(err, CMDLINE, 1, 1, "--param %s: '%s' has no parameter '%s' (%s%s)", name, d->name, name,
                             d->nparams ? "parameters: " : "it has no parameters", list);
            return -1;
        }
        *kind = WS_DEF_PARAM;
        return 0;
    case WS_DEF_AUTO:
        break;
    }
    if (p >= 0) {
        if (!ov->has_value[i]) {
            ws_error_set(err, CMDLINE, 1, (int)strlen(name) + 1, "-D %s: expected '=' after the name: '%s' is a parameter "
                         "of '%s' (-D %s=EXPR; --macro %s defines a macro of that name instead)", name, name, d->name,
                         name, name);
            return -1;
        }
        *kind = WS_DEF_PARAM;
        return 0;
    }
    /* a near miss of a parameter (-D w=16 for W) is a slip, even where 'w' is a name in the
       source: as a macro it would rewrite every 'w' the compiler sees, headers included */
    int near = ov->has_value[i] ? ws_nearest(name, d->params[0].name, d->nparams, sizeof d->params[0], true) : -1;
    if (near >= 0) {
        ws_error_set(err, CMDLINE, 1, 1, "-D %s: '%s' has no parameter '%s'; did you mean '%s'? (-D %s=%s; --macro "
                     "%s=%s passes '%s' to the compiler as a macro instead)", name, d->name, name, d->params[near].name,
                     d->params[near].name, ov->value[i], name, ov->value[i], name);
        return -1;
    }
    if (!ov->has_value[i] || occurs_in_source(d, name)) {
        *kind = WS_DEF_MACRO;
        return 0;
    }
    ws_error_set(err, CMDLINE, 1, 1, "-D %s: '%s' has no parameter '%s' (%s%s), and '%s' is no name in %s either, so it "
                 "is not taken for a macro (--macro %s=%s passes it to the compiler anyway)", name, d->name, name,
                 d->nparams ? "parameters: " : "it has no parameters", list, name, d->file ? d->file : "the source",
                 name, ov->value[i]);
    return -1;
}

void ws_override_arg(const ws_overrides *ov, int i, const char **flag, char *text, size_t cap)
{
    *flag = def_flag(ov->kind[i]);
    if (ov->has_value[i]) snprintf(text, cap, "%s=%s", ov->name[i], ov->value[i]);
    else snprintf(text, cap, "%s", ov->name[i]);
}

int ws_overrides_for(const ws_kernel_desc *d, const ws_overrides *ov, ws_overrides *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    if (!ov) return 0;
    if (!ov->realistic) {
        *out = *ov;
        return 0;
    }
    if (d->realistic_class == WS_REAL_NONE) {
        ws_error_set(err, d->file ? d->file : CMDLINE, d->line, 1, "--realistic: '%s' has no realistic line "
                     "(realistic NAME = EXPR: its sizes beyond the L2; docs/description-format.md)", d->name);
        return -1;
    }
    out->compile = ov->compile;
    for (int i = 0; i < d->nrealistic; i++) {
        const char *name = d->params[d->realistic[i].param].name;
        bool given = false;                    /* the user's -D of that name replaces it: leave it out of the key */
        for (int j = 0; j < ov->n; j++)
            given |= ov->has_value[j] && ov->kind[j] != WS_DEF_MACRO && !strcmp(ov->name[j], name);
        if (given) continue;
        char a[WS_NAME_MAX + 130];
        int n = snprintf(a, sizeof a, "%s=", name);
        for (const char *q = ws_expr_source(d->realistic[i].value); *q && n < (int)sizeof a - 1; q++)
            if (!is_blank((unsigned char)*q)) a[n++] = *q; /* no blanks: the key's words are blank-separated */
        a[n] = 0;
        if (ws_overrides_add_kind(out, a, WS_DEF_PARAM, err)) return -1;
    }
    for (int i = 0; i < ov->n; i++) {
        if (out->n == WS_MAX_OVERRIDES) {
            ws_error_set(err, CMDLINE, 1, 1, "--realistic: '%s''s realistic sizes and the command line's "
                         "definitions are more than %d", d->name, WS_MAX_OVERRIDES);
            return -1;
        }
        int j = out->n++;
        memcpy(out->name[j], ov->name[i], WS_NAME_MAX);
        memcpy(out->value[j], ov->value[i], sizeof out->value[j]);
        out->has_value[j] = ov->has_value[i];
        out->kind[j] = ov->kind[i];
    }
    return 0;
}

void ws_overrides_text_for(const ws_kernel_desc *d, const ws_overrides *ov, char *out, size_t cap)
{
    ws_overrides *x = malloc(sizeof *x);
    if (x && d && !ws_overrides_for(d, ov, x, NULL)) ws_overrides_text(x, out, cap);
    else ws_overrides_text(ov, out, cap);
    free(x);
}

uint64_t ws_launch_working_set(const ws_launch *L)
{
    uint64_t sum = 0;
    for (int i = 0; i < L->nbuffers; i++) sum += L->buffers[i].bytes;
    return sum;
}

void ws_overrides_text(const ws_overrides *ov, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; ov && i < ov->n; i++) {
        int k = ov->has_value[i] ? snprintf(out + n, cap - n, "%s%s=%s", n ? " " : "", ov->name[i], ov->value[i])
                                 : snprintf(out + n, cap - n, "%s%s", n ? " " : "", ov->name[i]);
        if (k < 0 || (size_t)k >= cap - n) {
            out[n] = 0; /* cut at the last whole pair that fits, not inside one */
            return;
        }
        n += (size_t)k;
    }
}

/* ----------------------------------------------------------------------------
 * Resolution */

static int where_fail(const ws_kernel_desc *d, const ws_expr *e, ws_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int where_fail(const ws_kernel_desc *d, const ws_expr *e, ws_error *err, const char *fmt, ...)
{
    char msg[WS_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line, col;
    ws_expr_location(e, &line, &col);
    ws_error_set(err, d->file, line, col, "%s", msg);
    return -1;
}

static int eval(const ws_launch *L, const ws_expr *e, int64_t *v, ws_error *err)
{
    return ws_expr_eval(e, L->nparams, L->param_names, L->param_values, v, err);
}

/* Largest magnitude for which an int64 survives the round trip through double. */
#define EXACT_DOUBLE_INT ((int64_t)1 << 53)

/* Largest integer magnitude a scalar type holds exactly (floats) or at all (integers), for
 * the generators that promise exact values: [min, max]. */
static void exact_range(ws_type t, double *min, double *max)
{
    switch (ws_type_scalar(t)) {
    case WS_TYPE_CHAR: *min = -128; *max = 127; return;
    case WS_TYPE_UCHAR: *min = 0; *max = 255; return;
    case WS_TYPE_SHORT: *min = -32768; *max = 32767; return;
    case WS_TYPE_USHORT: *min = 0; *max = 65535; return;
    case WS_TYPE_INT: *min = -2147483648.0; *max = 2147483647.0; return;
    case WS_TYPE_UINT: *min = 0; *max = 4294967295.0; return;
    case WS_TYPE_ULONG: *min = 0; *max = 0x1p64; return;
    case WS_TYPE_HALF: *min = -2048; *max = 2048; return;         /* 11 significand bits */
    case WS_TYPE_BF16: *min = -256; *max = 256; return;           /* 8 */
    case WS_TYPE_FLOAT: *min = -16777216.0; *max = 16777216.0; return;  /* 24 */
    default: *min = -0x1p63; *max = 0x1p63; return;               /* long, double (inputs are within 2^53) */
    }
}

static int resolve_buffer(const ws_kernel_desc *d, const ws_buffer_decl *bd, ws_launch *L, ws_buffer *b, ws_error *err)
{
    int64_t v;
    memcpy(b->name, bd->name, WS_NAME_MAX);
    b->type = bd->type;
    b->init = bd->init;
    b->output = bd->output;
    b->tol = bd->tol;
    b->ulp = bd->ulp;
    b->const_value = bd->const_value;
    b->uninit = bd->uninit;
    b->tmap = bd->init == WS_INIT_TMAP ? bd->tmap : -1;
    if (eval(L, bd->count, &v, err)) return -1;
    if (v < 0) return where_fail(d, bd->count, err, "buffer '%s' has a negative element count (%lld)", bd->name, (long long)v);
    b->count = (uint64_t)v;
    if (__builtin_mul_overflow(b->count, (uint64_t)ws_type_size(bd->type), &b->bytes))
        return where_fail(d, bd->count, err, "buffer '%s' is too large (%lld elements)", bd->name, (long long)v);
    if (bd->init == WS_INIT_TMAP && b->bytes != WS_TMAP_BYTES)     /* sizeof(CUtensorMap) */
        return where_fail(d, bd->count, err, "buffer '%s' holds a tensor map (init=tmap(%s)): it must be %d bytes "
                          "(e.g. uchar 128), not %llu", bd->name, d->tmaps[bd->tmap].name, WS_TMAP_BYTES,
                          (unsigned long long)b->bytes);
    bool is_float = ws_type_is_float(bd->type);
    const char *kind = bd->init == WS_INIT_RANDOM ? "random" : bd->init == WS_INIT_RANDINT ? "randint"
                     : bd->init == WS_INIT_PERM ? "perm" : "lcg";
    double tmin, tmax;
    exact_range(bd->type, &tmin, &tmax);
    uint64_t n = b->count * (uint64_t)ws_type_lanes(bd->type);
    if (bd->init == WS_INIT_RANDOM || bd->init == WS_INIT_RANDINT || bd->init == WS_INIT_PERM || bd->init == WS_INIT_LCG) {
        if (eval(L, bd->seed, &v, err)) return -1;
        if (bd->init == WS_INIT_LCG && v < 0)
            return where_fail(d, bd->seed, err, "buffer '%s': lcg() seed %lld is negative", bd->name, (long long)v);
        b->seed = (uint64_t)v;
    }
    if (bd->init == WS_INIT_RANDOM || bd->init == WS_INIT_RANDINT || (bd->init == WS_INIT_LCG && bd->lo)) {
        int64_t lo = 0, hi = is_float && bd->init == WS_INIT_RANDOM ? 1 : 100;
        if (bd->lo && (eval(L, bd->lo, &lo, err) || eval(L, bd->hi, &hi, err))) return -1;
        if (bd->lo && (lo < -EXACT_DOUBLE_INT || lo > EXACT_DOUBLE_INT || hi < -EXACT_DOUBLE_INT || hi > EXACT_DOUBLE_INT))
            return where_fail(d, bd->lo, err, "buffer '%s': %s range beyond +-2^53 cannot be represented exactly", bd->name, kind);
        if (hi <= lo)
            return where_fail(d, bd->lo ? bd->lo : bd->seed, err, "buffer '%s': %s range is empty (lo %lld >= hi %lld)",
                              bd->name, kind, (long long)lo, (long long)hi);
        /* randint and lcg promise integers: every one of them must be exact in the type */
        if (bd->init != WS_INIT_RANDOM && ((double)lo < tmin || (double)(hi - 1) > tmax))
            return where_fail(d, bd->lo, err, "buffer '%s': %s values %lld..%lld do not all fit %s exactly (%.0f..%.0f)",
                              bd->name, kind, (long long)lo, (long long)(hi - 1), ws_type_name(ws_type_scalar(bd->type)),
                              tmin, tmax);
        b->lo = (double)lo;
        b->hi = (double)hi;
    }
    if (bd->init == WS_INIT_PERM && n > 0 && (double)(n - 1) > tmax)
        return where_fail(d, bd->count, err, "buffer '%s': perm() of %llu values needs indices up to %llu, more than %s "
                          "holds exactly (%.0f)", bd->name, (unsigned long long)n, (unsigned long long)(n - 1),
                          ws_type_name(ws_type_scalar(bd->type)), tmax);
    if (bd->init == WS_INIT_LCG) {
        int64_t a = 1664525, c = 1013904223, m = (int64_t)1 << 32;   /* Numerical Recipes' LCG */
        if (bd->lcg_a && (eval(L, bd->lcg_a, &a, err) || eval(L, bd->lcg_c, &c, err) || eval(L, bd->lcg_m, &m, err)))
            return -1;
        if (m < 1) return where_fail(d, bd->lcg_m, err, "buffer '%s': lcg() modulus %lld must be at least 1", bd->name, (long long)m);
        if (a < 0 || c < 0)
            return where_fail(d, a < 0 ? bd->lcg_a : bd->lcg_c, err, "buffer '%s': lcg() a and c must not be negative",
                              bd->name);
        b->lcg_a = (uint64_t)a;
        b->lcg_c = (uint64_t)c;
        b->lcg_m = (uint64_t)m;
    }
    if (bd->init == WS_INIT_FILE) {
        char dir[WS_PATH_MAX];
        folder_of(d->file ? d->file : "", dir, sizeof dir);
        join(dir, bd->file, b->file, sizeof b->file);
        ws_error e;
        if (ws_buffer_check_file(b, &e)) {
            ws_error_set(err, d->file, bd->line, bd->file_col, "buffer '%s': %s", bd->name, e.msg);
            return -1;
        }
    }
    return 0;
}

static int resolve_tmap(const ws_kernel_desc *d, const ws_tmap_decl *td, const ws_launch *L, ws_tmap *t, ws_error *err)
{
    const ws_buffer *b = &L->buffers[td->buffer];
    memset(t, 0, sizeof *t);
    t->buffer = td->buffer;
    t->rank = td->rank;
    t->elem_size = (int)ws_type_size(b->type);
    t->is_float = ws_type_is_float(b->type);
    t->swizzle = td->swizzle;
    t->fill_nan = td->fill_nan;
    for (int k = 0; k < td->rank; k++) {
        int64_t v, x;
        if (eval(L, td->dims[k], &v, err) || eval(L, td->box[k], &x, err)) return -1;
        if (v < 1 || x < 1)
            return where_fail(d, v < 1 ? td->dims[k] : td->box[k], err, "tmap '%s': dimension %d is %lld elements",
                              td->name, k, (long long)(v < 1 ? v : x));
        t->dims[k] = (uint64_t)v;
        t->box[k] = x > 1000 ? 1000u : (uint32_t)x;  /* ws_tmap_check names the limit */
        if (k == 0) t->strides[0] = (uint64_t)t->elem_size;
        else if (td->strides[k]) {
            if (eval(L, td->strides[k], &x, err)) return -1;
            /* 0 only where the index is always 0 (a dimension of size 1), as builds write it */
            if (x < 0 || (x == 0 && v != 1))
                return where_fail(d, td->strides[k], err, "tmap '%s': stride %d is %lld bytes (0 only for a dimension "
                                  "of size 1)", td->name, k, (long long)x);
            t->strides[k] = (uint64_t)x;
        } else {
            t->strides[k] = t->strides[k - 1] * t->dims[k - 1];
        }
    }
    char why[200];
    if (ws_tmap_check(t, b->bytes, why, sizeof why)) {
        ws_error_set(err, d->file, td->line, td->col, "tmap '%s' over buffer '%s': %s", td->name, b->name, why);
        return -1;
    }
    return 0;
}

/* The cluster line's dimensions: each >= 1 and dividing the grid's (the driver refuses a grid that
 * is no whole number of clusters: CUDA_ERROR_INVALID_CLUSTER_SIZE); the size limit is the
 * GPU's, checked where the launch meets one (sim/interp/launch_check.c, the driver). */
static int resolve_cluster(const ws_kernel_desc *d, ws_launch *L, ws_error *err)
{
    static const char axis[3] = {'x', 'y', 'z'};
    L->cluster_nonportable = d->cluster_nonportable;
    if (!d->ncluster) return 0;
    for (int i = 0; i < 3; i++) L->cluster[i] = 1;
    for (int i = 0; i < d->ncluster; i++) {
        int64_t v;
        if (eval(L, d->cluster[i], &v, err)) return -1;
        if (v < 1 || v > 16) {
            ws_error_set(err, d->file, d->cluster_line, d->cluster_col, "cluster.%c = %lld; a cluster dimension is 1..16 "
                         "(at most 16 blocks in all, 8 without 'nonportable')", axis[i], (long long)v);
            return -1;
        }
        L->cluster[i] = (uint32_t)v;
    }
    for (int i = 0; i < 3; i++)
        if (L->grid[i] % L->cluster[i]) {
            ws_error_set(err, d->file, d->cluster_line, d->cluster_col, "grid.%c = %u is not a multiple of cluster.%c = %u: "
                         "a grid is made of whole clusters (the driver refuses it: CUDA_ERROR_INVALID_CLUSTER_SIZE)",
                         axis[i], L->grid[i], axis[i], L->cluster[i]);
            return -1;
        }
    return 0;
}

static int resolve_dims(const ws_kernel_desc *d, const ws_launch *L, bool is_grid, uint32_t out[3], ws_error *err)
{
    int n = is_grid ? d->ngrid : d->nblock;
    ws_expr *const *ex = is_grid ? d->grid : d->block;
    /* CUDA limits: grid x < 2^31, y and z <= 65535; block x, y <= 1024, z <= 64 */
    static const int64_t grid_max[3] = {2147483647, 65535, 65535};
    static const int64_t block_max[3] = {1024, 1024, 64};
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) out[i] = 1;
    for (int i = 0; i < n; i++) {
        int64_t v;
        if (eval(L, ex[i], &v, err)) return -1;
        int64_t max = is_grid ? grid_max[i] : block_max[i];
        if (v < 1 || v > max)
            return where_fail(d, ex[i], err, "%s.%c = %lld; it must be between 1 and %lld", is_grid ? "grid" : "block",
                              axis[i], (long long)v, (long long)max);
        out[i] = (uint32_t)v;
    }
    if (!is_grid && (uint64_t)out[0] * out[1] * out[2] > 1024)
        return where_fail(d, ex[0], err, "block of %ux%ux%u = %llu threads; at most 1024", out[0], out[1], out[2],
                          (unsigned long long)out[0] * out[1] * out[2]);
    return 0;
}

int ws_desc_resolve(const ws_kernel_desc *d, const ws_overrides *ov, ws_launch *out, ws_error *err)
{
    if (ov && ov->realistic) {                 /* the realistic sizes as --param definitions, then as usual */
        ws_overrides *x = malloc(sizeof *x);
        if (!x) {
            ws_error_set(err, CMDLINE, 1, 1, "out of memory");
            return -1;
        }
        int rc = ws_overrides_for(d, ov, x, err) ? -1 : ws_desc_resolve(d, x, out, err);
        free(x);
        return rc;
    }
    ws_launch *L = out;
    memset(L, 0, sizeof *L);
    L->desc = d;
    L->cooperative = d->cooperative;
    memcpy(L->target, d->target, sizeof L->target);
    /* each definition is a parameter or a macro (desc.h states the rule) */
    ws_def_kind kinds[WS_MAX_OVERRIDES];
    for (int i = 0; ov && i < ov->n; i++)
        if (ws_override_kind_of(d, ov, i, &kinds[i], err)) return -1;
    L->compile = d->compile;
    for (int i = 0; ov && i < ov->n; i++) {
        if (kinds[i] != WS_DEF_MACRO) continue;
        char def[WS_COMPILE_OPT_MAX];
        if (ov->has_value[i]) snprintf(def, sizeof def, "-D%s=%s", ov->name[i], ov->value[i]);
        else snprintf(def, sizeof def, "-D%s", ov->name[i]);
        ws_error e;
        if (ws_compile_opts_add(&L->compile, def, NULL, &e)) {
            ws_error_set(err, CMDLINE, 1, 1, "-D %s: %s", ov->name[i], e.msg);
            return -1;
        }
    }
    for (int i = 0; ov && i < ov->compile.n; i++) {
        if (L->compile.n >= WS_COMPILE_MAX_OPTS) {
            ws_error_set(err, CMDLINE, 1, 1, "too many compiler options (at most %d with the description's)",
                         WS_COMPILE_MAX_OPTS);
            return -1;
        }
        memcpy(L->compile.opt[L->compile.n++], ov->compile.opt[i], WS_COMPILE_OPT_MAX);
    }
    /* parameters in order; each sees only the ones before it */
    for (int p = 0; p < d->nparams; p++) {
        int64_t v;
        int o = -1;
        for (int i = 0; ov && i < ov->n; i++)
            if (kinds[i] == WS_DEF_PARAM && !strcmp(ov->name[i], d->params[p].name)) o = i;
        if (o >= 0) {
            int col = (int)strlen(ov->name[o]) + 2;
            ws_expr *e = ws_expr_parse(ov->value[o], CMDLINE, 1, col, err);
            int rc = e ? eval(L, e, &v, err) : -1;
            int ucol;
            const char *unknown = rc && e ? ws_expr_first_unknown(e, L->nparams, L->param_names, &ucol) : NULL;
            if (unknown && !strcmp(unknown, d->params[p].name)) {
                /* -D N=N*2: the override replaces N, so N has no value inside it; say what it
                 * would be with the default, which is what the user meant */
                int64_t dflt, meant;
                bool known = !eval(L, d->params[p].value, &dflt, NULL);
                if (known) {
                    memcpy(L->param_names[p], d->params[p].name, WS_NAME_MAX);
                    L->param_values[p] = dflt;
                    L->nparams = p + 1;
                    known = !eval(L, e, &meant, NULL);
                    L->nparams = p;
                }
                char hint[160] = "";
                if (known)
                    snprintf(hint, sizeof hint, " (%s is %lld by default: for that, write -D %s=%lld)",
                             d->params[p].name, (long long)dflt, d->params[p].name, (long long)meant);
                ws_expr_free(e);
                char may[WS_NAME_MAX + 64];
                if (p) snprintf(may, sizeof may, "the parameters declared before %s", d->params[p].name);
                else snprintf(may, sizeof may, "no parameter (%s is the first)", d->params[p].name);
                ws_error_set(err, CMDLINE, 1, ucol > 0 ? ucol : col,
                             "-D %.63s=%.60s: an override cannot use %s itself, it replaces its value; it may use "
                             "%s%s", ov->name[o], ov->value[o], d->params[p].name, may, hint);
                return -1;
            }
            ws_expr_free(e);
            if (rc) {
                char msg[WS_MSG_MAX];
                snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
                if (err) snprintf(err->msg, sizeof err->msg, "-D %.63s=%.60s: %.300s", ov->name[o], ov->value[o], msg);
                return -1;
            }
        } else if (eval(L, d->params[p].value, &v, err)) {
            return -1;
        }
        memcpy(L->param_names[p], d->params[p].name, WS_NAME_MAX);
        L->param_values[p] = v;
        L->nparams = p + 1;
    }
    if (resolve_dims(d, L, true, L->grid, err) || resolve_dims(d, L, false, L->block, err)) return -1;
    if (resolve_cluster(d, L, err)) return -1;
    if (d->shared) {
        int64_t v;
        if (eval(L, d->shared, &v, err)) return -1;
        if (v < 0 || v > UINT32_MAX)
            return where_fail(d, d->shared, err, "shared = %lld bytes; it must be between 0 and 4294967295", (long long)v);
        L->shared_bytes = (uint64_t)v;
    }
    uint64_t total = 0;
    for (int i = 0; i < d->nbuffers; i++) {
        if (resolve_buffer(d, &d->buffers[i], L, &L->buffers[i], err)) return -1;
        if (__builtin_add_overflow(total, L->buffers[i].bytes, &total))
            return where_fail(d, d->buffers[i].count, err, "the buffers' total size overflows 64 bits");
        L->nbuffers = i + 1;
    }
    /* Default bytes_moved: every buffer once - inputs are read once, outputs
     * written once, and a buffer that is both read and written (in place) also
     * counts once. This is what a perfect kernel must at least move; a
     * description whose kernel moves more by design (a transpose reads and
     * writes, so in + out already covers it) or less (reads a sub-range) says
     * so with 'bytes'. */
    if (d->bytes) {
        int64_t v;
        if (eval(L, d->bytes, &v, err)) return -1;
        if (v < 0) return where_fail(d, d->bytes, err, "bytes = %lld; it must not be negative", (long long)v);
        L->bytes_moved = (uint64_t)v;
    } else {
        L->bytes_moved = total;
    }
    for (int i = 0; i < d->ntmaps; i++)
        if (resolve_tmap(d, &d->tmaps[i], L, &L->tmaps[i], err)) return -1;
    L->ntmaps = d->ntmaps;
    for (int i = 0; i < d->nargs; i++) {
        const ws_arg_decl *a = &d->args[i];
        ws_arg *r = &L->args[i];
        r->kind = a->kind;
        r->buffer = a->buffer;
        r->fvalue = a->fvalue;
        if (a->kind == WS_ARG_INT && eval(L, a->expr, &r->ivalue, err)) return -1;
        L->nargs = i + 1;
    }
    return 0;
}
