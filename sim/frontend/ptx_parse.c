/* ptx_parse.c - PTX text (what nvcc 13 / NVRTC emit for sm_90) to a resolved
 * ptx_module: registers become slots, labels instruction indices, variables
 * per-function symbols with byte offsets (layout rules in ptx.h).
 * Invariant: the lexer never reads past the text's NUL; input it does not
 * understand inside a function body refuses that function only (ptx_function.
 * refusal, with path:line:col and the token) and parsing goes on after the
 * body's closing brace; anywhere else it ends the parse through fail_at(), and
 * every allocation made so far is freed on that path. Names of any length live
 * in one arena per module (ptx_names), so every name pointer stays valid. */
#include "ptx.h"
#include "ptx_check.h"
#include "../../common/files.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REG_RANGE (1 << 20)           /* %r<N>: more than this is garbage, not a kernel */
#define MAX_IMAGE_BYTES (256u << 20)      /* module .const/.global image */
#define MAX_VAR_BYTES (1ull << 32)        /* one variable */

/* ---- lexer ------------------------------------------------------------------ */

typedef enum { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT } tk_kind;

typedef struct {
    tk_kind kind;
    const char *s;   /* points into the text */
    int len;
    int line, col;
} token;

typedef struct { const char *p; int line; const char *line_start; } lex_pos;

/* ---- builders --------------------------------------------------------------- */

typedef struct {           /* name -> index, with shadowing for nested { } blocks */
    int *bucket;           /* heads, -1 = empty */
    int nbucket;           /* power of two */
    struct hent { uint32_t hash; int value; int depth; int next; const char *name; } *ent;
    int n, cap;
} htab;

typedef struct {
    ptx_symbol s;          /* offset: image offset for CONST/GLOBAL */
    int seq;               /* declaration order */
    bool used_by_func;     /* referenced by some .func (layout rule for shared, see finish_shared) */
} modvar;

typedef struct {
    const char *name;
    int insn;              /* -1 until defined */
    int line, col;         /* first reference, for "undefined label" */
} label;

typedef struct { int insn, opnd, label; } label_fix;

/* A name in a .global/.const initialiser ({f, g} of a function-pointer table):
 * resolved by finish_module to the function's address, in the module image. */
typedef struct {
    int var;               /* module variable index; -1 while its declaration is parsed */
    uint64_t offset;       /* in the variable, then (var set) in the module image */
    int size;              /* bytes of the element */
    const char *name;
    int line, col;
} init_fix;

typedef struct {
    int func, insn;        /* function index in module, instruction index */
    int opnd;              /* the operand naming the function: a call's callee or a FUNC operand */
    bool is_call;
    const char *name;
    int line, col;
} call_fix;

typedef struct {
    ptx_function f;
    int cap_regs, cap_syms, cap_insns, cap_params;
    int *sym_modvar;       /* per sym: module var index or -1 */
    int *sym_seq;          /* per sym: declaration order (for the shared layout) */
    htab regs_ht, syms_ht, labels_ht;
    label *labels;
    int nlabels, cap_labels;
    label_fix *fixes;
    int nfixes, cap_fixes;
    int depth;             /* { } nesting inside the body */
    int scope_regs[64], scope_syms[64]; /* hash entry counts at each open brace */
    int scope_labels[64], scope_nlabels[64]; /* label entries and labels at each open brace */
    int cur_file, cur_line;
    int (*locs)[5];        /* every .loc of the body: its file, line, col, and the user's file, line it maps to */
    int nlocs, cap_locs;
    int retval_sym;        /* .func return parameter symbol, -1 none */
    int cap_call_args;
    int cap_wide;          /* f.wide */
    const char **protos;   /* .callprototype / .calltargets names declared in the body */
    int nprotos, cap_protos;
} func_builder;

typedef struct {
    const char *path;
    const char *text;
    lex_pos pos;
    token tok;             /* current token */
    ws_error *err;
    jmp_buf *jb;           /* where fail_at goes: the module's, or a function body's (refusal) */
    bool fatal;            /* the failure must end the parse (out of memory), not refuse one function */
    ws_error body_err;     /* a function body's failure, before it becomes the refusal */

    ptx_module *m;
    modvar *vars;
    int nvars, cap_vars;
    htab vars_ht;
    int cap_funcs, cap_files;
    func_builder **fb;     /* one per module function (kept until the end for layout) */
    uint8_t *pending_init; /* initialiser being parsed (freed on the error path) */
    call_fix *calls;
    int ncalls, cap_calls;
    init_fix *ifix;
    int nifix, cap_ifix;
    const char **protos;   /* functions declared without a body */
    int nprotos, cap_protos;
    size_t cap_const, cap_global;
    int seq;
    func_builder *cur;     /* function being parsed (owned by fb[] once registered) */
    ptx_operand coords;    /* [tensorMap, {c0, c1}]: the coordinates, the operand after the address */
    bool has_coords;
} parser;

static void fail_at(parser *ps, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5), noreturn));
static void fail_at(parser *ps, int line, int col, const char *fmt, ...)
{
    char msg[WS_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ws_error_set(ps->err, ps->path, line, col, "%s", msg);
    longjmp(*ps->jb, 1);
}

/* Token text, clipped and made printable, for messages. */
static const char *tok_text(const token *t, char *buf, size_t cap)
{
    if (t->kind == TK_EOF) return "end of file";
    size_t n = (size_t)t->len < cap - 1 ? (size_t)t->len : cap - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        buf[i] = isprint(c) ? (char)c : '?';
    }
    buf[n] = 0;
    return buf;
}

#define FAIL_TOK(ps, t, fmt, ...) fail_at(ps, (t)->line, (t)->col, fmt, __VA_ARGS__)

static void oom(parser *ps) __attribute__((noreturn));
static void oom(parser *ps)
{
    ps->fatal = true;
    fail_at(ps, ps->pos.line, 0, "out of memory");
}

static void *xrealloc(parser *ps, void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(ps);
    return q;
}

static void *xcalloc(parser *ps, size_t n, size_t sz)
{
    void *q = calloc(n ? n : 1, sz ? sz : 1);
    if (!q) oom(ps);
    return q;
}

/* ---- names -------------------------------------------------------------------- */

/* Chunks of NUL-terminated names; a chunk never moves, so names keep their address. */
struct ptx_names {
    struct ptx_names *next;
    size_t used, cap;
    char data[];
};

static const char *intern(parser *ps, const char *s, size_t n)
{
    struct ptx_names *c = ps->m->names;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > 16384 ? n + 1 : 16384;
        struct ptx_names *nc = malloc(sizeof *nc + cap);
        if (!nc) oom(ps);
        nc->next = c;
        nc->used = 0;
        nc->cap = cap;
        ps->m->names = c = nc;
    }
    char *out = c->data + c->used;
    memcpy(out, s, n);
    out[n] = 0;
    c->used += n + 1;
    return out;
}

/* Grows *arr (elements of sz) so that index need-1 exists. */
static void grow(parser *ps, void **arr, int *cap, int need, size_t sz)
{
    if (need <= *cap) return;
    int nc = *cap ? *cap : 8;
    while (nc < need) {
        if (nc > (1 << 28)) { ps->fatal = true; fail_at(ps, ps->pos.line, 0, "PTX too large"); }
        nc *= 2;
    }
    *arr = xrealloc(ps, *arr, (size_t)nc * sz);
    memset((char *)*arr + (size_t)*cap * sz, 0, (size_t)(nc - *cap) * sz);
    *cap = nc;
}

static bool is_word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool is_word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

static void lex(parser *ps)
{
    lex_pos *L = &ps->pos;
    const char *p = L->p;
    for (;;) {
        if (*p == '\n') { L->line++; p++; L->line_start = p; }
        else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') p++;
        else if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; }
        else if (p[0] == '/' && p[1] == '*') {
            int sl = L->line, sc = (int)(p - L->line_start) + 1;
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') { L->line++; L->line_start = p + 1; }
                p++;
            }
            if (!*p) fail_at(ps, sl, sc, "unterminated /* comment");
            p += 2;
        } else break;
    }
    token *t = &ps->tok;
    t->s = p;
    t->line = L->line;
    t->col = (int)(p - L->line_start) + 1;
    unsigned char c = (unsigned char)*p;
    if (!c) {
        t->kind = TK_EOF;
        t->len = 0;
    } else if (is_word_start(c)) {
        p++;
        for (;;) {
            if (is_word_char((unsigned char)*p)) p++;
            else if (p[0] == ':' && p[1] == ':' && is_word_char((unsigned char)p[2])) p += 2; /* L2::cache_hint */
            else break;
        }
        t->kind = TK_WORD;
    } else if (isdigit(c)) {
        bool radix = p[0] == '0' && p[1] && strchr("xXfFdDbB", p[1]);
        p++;
        if (radix) {
            p++;
            while (isalnum((unsigned char)*p)) p++;
        } else {
            while (isalnum((unsigned char)*p) || *p == '.' ||
                   ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E')))
                p++;
        }
        t->kind = TK_NUM;
    } else if (c == '"') {
        p++;
        while (*p && *p != '"' && *p != '\n') p++;
        if (*p != '"') fail_at(ps, t->line, t->col, "unterminated string");
        p++;
        t->kind = TK_STR;
    } else if (strchr("{}[](),;:+-!@|<>=", c)) {
        p++;
        t->kind = TK_PUNCT;
    } else {
        if (isprint(c)) fail_at(ps, t->line, t->col, "unexpected character '%c'", c);
        fail_at(ps, t->line, t->col, "unexpected byte 0x%02x", c);
    }
    t->len = (int)(p - t->s);
    L->p = p;
}

static bool is_p(const token *t, char c) { return t->kind == TK_PUNCT && t->s[0] == c; }
static bool is_w(const token *t, const char *w)
{
    return t->kind == TK_WORD && (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

static void expect_p(parser *ps, char c)
{
    char b[64];
    if (!is_p(&ps->tok, c)) FAIL_TOK(ps, &ps->tok, "expected '%c', found '%s'", c, tok_text(&ps->tok, b, sizeof b));
    lex(ps);
}

/* The current word as a name of any length (in the module's arena); advances. */
static const char *take_name(parser *ps, const char *what)
{
    char b[64];
    token *t = &ps->tok;
    if (t->kind != TK_WORD || t->s[0] == '.')
        FAIL_TOK(ps, t, "expected %s, found '%s'", what, tok_text(t, b, sizeof b));
    const char *name = intern(ps, t->s, (size_t)t->len);
    lex(ps);
    return name;
}

/* Token after the current one, without consuming anything. */
static token peek2(parser *ps)
{
    lex_pos save = ps->pos;
    token cur = ps->tok;
    lex(ps);
    token next = ps->tok;
    ps->pos = save;
    ps->tok = cur;
    return next;
}

/* Parses an unsigned/signed integer literal token (decimal, 0x, 0b, octal, U suffix). */
static int64_t parse_int_tok(parser *ps, const token *t)
{
    char buf[80], b[64];
    if (t->kind != TK_NUM || t->len >= (int)sizeof buf)
        FAIL_TOK(ps, t, "expected an integer, found '%s'", tok_text(t, b, sizeof b));
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = 0;
    size_t n = strlen(buf);
    if (n && (buf[n - 1] == 'U' || buf[n - 1] == 'u')) buf[--n] = 0;
    int base = 10;
    const char *d = buf;
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) { base = 16; d = buf + 2; }
    else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) { base = 2; d = buf + 2; }
    else if (buf[0] == '0' && buf[1]) { base = 8; d = buf + 1; }
    if (!*d) FAIL_TOK(ps, t, "malformed integer '%s'", tok_text(t, b, sizeof b));
    char *end;
    errno = 0;
    unsigned long long v = strtoull(d, &end, base);
    if (*end || errno) FAIL_TOK(ps, t, "malformed integer '%s'", tok_text(t, b, sizeof b));
    return (int64_t)v;
}

static int64_t expect_int(parser *ps)
{
    bool neg = false;
    if (is_p(&ps->tok, '-')) { neg = true; lex(ps); }
    int64_t v = parse_int_tok(ps, &ps->tok);
    lex(ps);
    return neg ? (int64_t)(0 - (uint64_t)v) : v;
}

/* Non-negative integer that fits an int (counts, alignments, line numbers). */
static int expect_small(parser *ps, const char *what)
{
    token t = ps->tok;
    int64_t v = expect_int(ps);
    if (v < 0 || v > 0x7fffffff) FAIL_TOK(ps, &t, "%s out of range: %" PRId64, what, v);
    return (int)v;
}

/* ---- hash table ------------------------------------------------------------- */

static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void ht_free(htab *h) { free(h->bucket); free(h->ent); memset(h, 0, sizeof *h); }

static void ht_rehash(parser *ps, htab *h, int nb)
{
    int *b = xrealloc(ps, NULL, (size_t)nb * sizeof *b);
    for (int i = 0; i < nb; i++) b[i] = -1;
    /* relink in insertion order so later (shadowing) entries end up in front */
    for (int i = 0; i < h->n; i++) {
        int k = (int)(h->ent[i].hash & (uint32_t)(nb - 1));
        h->ent[i].next = b[k];
        b[k] = i;
    }
    free(h->bucket);
    h->bucket = b;
    h->nbucket = nb;
}

/* name must stay valid while it is in the table (it points into a stable array or
 * is re-pointed by ht_repoint after the array moves). */
static void ht_put(parser *ps, htab *h, const char *name, int value, int depth)
{
    if (!h->nbucket || (h->n + 1) * 4 > h->nbucket * 3)
        ht_rehash(ps, h, h->nbucket ? h->nbucket * 2 : 64);
    grow(ps, (void **)&h->ent, &h->cap, h->n + 1, sizeof *h->ent);
    uint32_t hs = hash_str(name, strlen(name));
    int k = (int)(hs & (uint32_t)(h->nbucket - 1));
    h->ent[h->n] = (struct hent){hs, value, depth, h->bucket[k], name};
    h->bucket[k] = h->n++;
}

/* Returns the innermost visible entry index or -1. */
static int ht_find_ent(const htab *h, const char *name, size_t len)
{
    if (!h->nbucket) return -1;
    uint32_t hs = hash_str(name, len);
    for (int i = h->bucket[hs & (uint32_t)(h->nbucket - 1)]; i >= 0; i = h->ent[i].next)
        if (h->ent[i].hash == hs && strlen(h->ent[i].name) == len && !memcmp(h->ent[i].name, name, len))
            return i;
    return -1;
}

static int ht_get(const htab *h, const char *name, size_t len)
{
    int e = ht_find_ent(h, name, len);
    return e < 0 ? -1 : h->ent[e].value;
}

/* Drops the entries added since the table had n entries (leaving a { } block). */
static void ht_pop_to(htab *h, int n)
{
    while (h->n > n) {
        int i = --h->n;
        int k = (int)(h->ent[i].hash & (uint32_t)(h->nbucket - 1));
        h->bucket[k] = h->ent[i].next; /* it is the bucket head: entries leave in reverse order */
    }
}

/* ---- module and function builders ------------------------------------------- */

static void fb_free(func_builder *b)
{
    if (!b) return;
    free(b->f.param_syms);
    free(b->f.regs);
    free(b->f.syms);
    free(b->f.insns);
    free(b->sym_modvar);
    free(b->sym_seq);
    ht_free(&b->regs_ht);
    ht_free(&b->syms_ht);
    ht_free(&b->labels_ht);
    free(b->labels);
    free(b->fixes);
    free(b->locs);
    free(b->f.call_args);
    free(b->f.wide);
    free(b->protos);
    free(b->f.refusal);
    free(b);
}

/* name: in the arena. */
static int add_reg(parser *ps, const token *at, const char *name, ptx_type t)
{
    func_builder *b = ps->cur;
    int e = ht_find_ent(&b->regs_ht, name, strlen(name));
    if (e >= 0 && b->regs_ht.ent[e].depth == b->depth)
        FAIL_TOK(ps, at, "register '%s' declared twice", name);
    grow(ps, (void **)&b->f.regs, &b->cap_regs, b->f.nregs + 1, sizeof *b->f.regs);
    ptx_reg *r = &b->f.regs[b->f.nregs];
    r->name = name;
    r->type = t;
    r->width = ptx_type_size(t);
    ht_put(ps, &b->regs_ht, r->name, b->f.nregs, b->depth);
    return b->f.nregs++;
}

static int add_sym(parser *ps, const token *at, const ptx_symbol *s, int modvar_index, int seq)
{
    func_builder *b = ps->cur;
    int e = ht_find_ent(&b->syms_ht, s->name, strlen(s->name));
    if (e >= 0 && b->syms_ht.ent[e].depth == b->depth && modvar_index < 0)
        FAIL_TOK(ps, at, "'%s' declared twice", s->name);
    int c2 = b->cap_syms, c3 = b->cap_syms;
    grow(ps, (void **)&b->f.syms, &b->cap_syms, b->f.nsyms + 1, sizeof *b->f.syms);
    grow(ps, (void **)&b->sym_modvar, &c2, b->f.nsyms + 1, sizeof *b->sym_modvar);
    grow(ps, (void **)&b->sym_seq, &c3, b->f.nsyms + 1, sizeof *b->sym_seq);
    int i = b->f.nsyms++;
    b->f.syms[i] = *s;
    b->sym_modvar[i] = modvar_index;
    b->sym_seq[i] = seq;
    /* module variables are visible everywhere: depth 0 so a block exit never drops them */
    ht_put(ps, &b->syms_ht, b->f.syms[i].name, i, modvar_index >= 0 ? 0 : b->depth);
    return i;
}

/* Index of a function symbol by name, bringing a module variable into the
 * function's table the first time the function names it; -1 if unknown. */
static int find_sym(parser *ps, const char *name, size_t len)
{
    func_builder *b = ps->cur;
    int i = ht_get(&b->syms_ht, name, len);
    if (i >= 0) return i;
    int v = ht_get(&ps->vars_ht, name, len);
    if (v < 0) return -1;
    if (!b->f.is_entry) ps->vars[v].used_by_func = true;
    /* already brought in, but its name left the table with a { } block */
    for (int s = 0; s < b->f.nsyms; s++)
        if (b->sym_modvar[s] == v) {
            ht_put(ps, &b->syms_ht, b->f.syms[s].name, s, 0);
            return s;
        }
    token at = ps->tok;
    return add_sym(ps, &at, &ps->vars[v].s, v, ps->vars[v].seq);
}

/* ---- types and declarations --------------------------------------------------- */

static const struct { const char *name; ptx_type t; } type_words[] = {
    {".pred", PTX_T_PRED}, {".b8", PTX_T_B8}, {".b16", PTX_T_B16}, {".b32", PTX_T_B32}, {".b64", PTX_T_B64},
    {".b128", PTX_T_B128}, {".u8", PTX_T_U8}, {".u16", PTX_T_U16}, {".u32", PTX_T_U32}, {".u64", PTX_T_U64},
    {".s8", PTX_T_S8}, {".s16", PTX_T_S16}, {".s32", PTX_T_S32}, {".s64", PTX_T_S64}, {".f16", PTX_T_F16},
    {".f16x2", PTX_T_F16X2}, {".bf16", PTX_T_BF16}, {".bf16x2", PTX_T_BF16X2}, {".f32", PTX_T_F32},
    {".f64", PTX_T_F64},
};

static ptx_type type_of(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof type_words / sizeof type_words[0]; i++)
        if (strlen(type_words[i].name) == len && !memcmp(type_words[i].name, s, len)) return type_words[i].t;
    return PTX_T_NONE;
}

static ptx_type expect_type(parser *ps)
{
    char b[64];
    ptx_type t = ps->tok.kind == TK_WORD ? type_of(ps->tok.s, (size_t)ps->tok.len) : PTX_T_NONE;
    if (t == PTX_T_NONE) FAIL_TOK(ps, &ps->tok, "expected a type such as .u32, found '%s'", tok_text(&ps->tok, b, sizeof b));
    lex(ps);
    return t;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* A variable's declaration after the state space word:
 *   [.align N] [.v2|.v4] .type name[N][M]... [= init] */
typedef struct {
    ptx_symbol s;
    bool unsized;          /* name[] */
    uint64_t elems;
    int vecn;
    uint8_t *init;         /* malloc'd, s.size bytes, or NULL */
    token at;
} var_decl;

static void write_elem(uint8_t *dst, ptx_type t, int size, bool is_float_lit, double f, int64_t iv)
{
    uint64_t bits;
    if (t == PTX_T_F32) {
        float x = is_float_lit ? (float)f : (float)iv;
        uint32_t u;
        memcpy(&u, &x, 4);
        bits = u;
    } else if (t == PTX_T_F64) {
        double x = is_float_lit ? f : (double)iv;
        memcpy(&bits, &x, 8);
    } else {
        bits = (uint64_t)iv;
    }
    for (int i = 0; i < size && i < 8; i++) dst[i] = (uint8_t)(bits >> (8 * i)); /* little-endian */
}

/* One initialiser value; float literals 0f/0d keep their bits. */
static void parse_init_value(parser *ps, var_decl *d, uint64_t index)
{
    char b[64];
    int esz = ptx_type_size(d->s.type);
    bool neg = false;
    if (is_p(&ps->tok, '-')) { neg = true; lex(ps); }
    token t = ps->tok;
    if (t.kind == TK_WORD && t.s[0] != '.' && t.s[0] != '%' && !neg) {
        /* a name: a function's address (finish_module), or generic(var) / var, refused there */
        if (index >= d->elems * (uint64_t)d->vecn) FAIL_TOK(ps, &t, "too many initialisers for '%s'", d->s.name);
        token name = t;
        if (is_w(&t, "generic")) {
            lex(ps);
            expect_p(ps, '(');
            name = ps->tok;
            if (name.kind != TK_WORD) FAIL_TOK(ps, &name, "expected a variable in generic( ), found '%s'", tok_text(&name, b, sizeof b));
            lex(ps);
            if (!is_p(&ps->tok, ')')) FAIL_TOK(ps, &ps->tok, "expected ')', found '%s'", tok_text(&ps->tok, b, sizeof b));
        }
        grow(ps, (void **)&ps->ifix, &ps->cap_ifix, ps->nifix + 1, sizeof *ps->ifix);
        ps->ifix[ps->nifix++] = (init_fix){-1, index * (uint64_t)esz, esz, intern(ps, name.s, (size_t)name.len),
                                           name.line, name.col};
        lex(ps);
        return;
    }
    if (t.kind != TK_NUM)
        FAIL_TOK(ps, &t, "unsupported initialiser '%s' (numbers and function names are supported)", tok_text(&t, b, sizeof b));
    if (index >= d->elems * (uint64_t)d->vecn)
        FAIL_TOK(ps, &t, "too many initialisers for '%s'", d->s.name);
    uint8_t *dst = d->init + index * (uint64_t)esz;
    if (t.len > 2 && t.s[0] == '0' && (t.s[1] == 'f' || t.s[1] == 'F' || t.s[1] == 'd' || t.s[1] == 'D')) {
        char hx[40];
        int n = t.len - 2 < 39 ? t.len - 2 : 39;
        memcpy(hx, t.s + 2, (size_t)n);
        hx[n] = 0;
        char *end;
        uint64_t bits = strtoull(hx, &end, 16);
        if (*end) FAIL_TOK(ps, &t, "malformed float literal '%s'", tok_text(&t, b, sizeof b));
        bool dbl = t.s[1] == 'd' || t.s[1] == 'D';
        double v;
        if (dbl) memcpy(&v, &bits, 8);
        else { float f; uint32_t u = (uint32_t)bits; memcpy(&f, &u, 4); v = f; }
        write_elem(dst, d->s.type, esz, true, neg ? -v : v, 0);
    } else if (memchr(t.s, '.', (size_t)t.len) || ((t.s[1] != 'x' && t.s[1] != 'X') &&
                                                   (memchr(t.s, 'e', (size_t)t.len) || memchr(t.s, 'E', (size_t)t.len)))) {
        char fb[80];
        int n = t.len < 79 ? t.len : 79;
        memcpy(fb, t.s, (size_t)n);
        fb[n] = 0;
        char *end;
        double v = strtod(fb, &end);
        if (*end) FAIL_TOK(ps, &t, "malformed number '%s'", tok_text(&t, b, sizeof b));
        write_elem(dst, d->s.type, esz, true, neg ? -v : v, 0);
    } else {
        int64_t v = parse_int_tok(ps, &t);
        write_elem(dst, d->s.type, esz, false, 0, neg ? (int64_t)(0 - (uint64_t)v) : v);
    }
    lex(ps);
}

/* = v  |  = { v, v, ... }  (nested braces for multi-dimensional arrays flatten). */
static void parse_init_list(parser *ps, var_decl *d, uint64_t *index, int nest)
{
    if (nest > 8) FAIL_TOK(ps, &ps->tok, "initialiser nested too deeply%s", "");
    if (!is_p(&ps->tok, '{')) {
        parse_init_value(ps, d, (*index)++);
        return;
    }
    lex(ps);
    if (is_p(&ps->tok, '}')) { lex(ps); return; }
    for (;;) {
        parse_init_list(ps, d, index, nest + 1);
        if (is_p(&ps->tok, ',')) { lex(ps); continue; }
        expect_p(ps, '}');
        return;
    }
}

static void parse_var(parser *ps, var_decl *d, ptx_space space, bool is_extern, bool allow_init)
{
    char b[64];
    memset(d, 0, sizeof *d);
    d->s.kind = PTX_SYM_VAR;
    d->s.space = space;
    d->s.is_extern = is_extern;
    d->vecn = 1;
    for (;;) {
        if (is_w(&ps->tok, ".align")) {
            lex(ps);
            token at = ps->tok;
            int a = expect_small(ps, "alignment");
            if (a < 1 || (a & (a - 1))) FAIL_TOK(ps, &at, "alignment %d is not a power of two", a);
            d->s.align = (uint32_t)a;
        } else if (is_w(&ps->tok, ".v2") || is_w(&ps->tok, ".v4")) {
            d->vecn = ps->tok.s[2] - '0';
            lex(ps);
        } else if (is_w(&ps->tok, ".ptr")) {
            /* kernel pointer parameter attributes: .ptr [.space] [.align N] */
            lex(ps);
            if (is_w(&ps->tok, ".global") || is_w(&ps->tok, ".shared") || is_w(&ps->tok, ".const") ||
                is_w(&ps->tok, ".local")) lex(ps);
        } else if (ps->tok.kind == TK_WORD && ps->tok.s[0] == '.' && type_of(ps->tok.s, (size_t)ps->tok.len)) {
            if (d->s.type != PTX_T_NONE) FAIL_TOK(ps, &ps->tok, "two types in one declaration%s", "");
            d->s.type = expect_type(ps);
        } else break;
    }
    if (d->s.type == PTX_T_NONE)
        FAIL_TOK(ps, &ps->tok, "expected a type such as .u32, found '%s'", tok_text(&ps->tok, b, sizeof b));
    if (d->s.type == PTX_T_PRED && space != PTX_SPACE_REG) FAIL_TOK(ps, &ps->tok, "variable of type .pred%s", "");
    d->at = ps->tok;
    d->s.name = take_name(ps, "a variable name");
    d->s.ptx_line = d->at.line;
    uint64_t esz = (uint64_t)ptx_type_size(d->s.type) * (uint64_t)d->vecn;
    if (!d->s.align) d->s.align = (uint32_t)esz;
    d->elems = 1;
    while (is_p(&ps->tok, '[')) {
        token at = ps->tok;
        lex(ps);
        if (is_p(&ps->tok, ']')) {
            if (d->unsized) FAIL_TOK(ps, &at, "only the first dimension may be empty%s", "");
            d->unsized = true;
            lex(ps);
            continue;
        }
        int64_t n = expect_int(ps);
        if (n <= 0 || (uint64_t)n > MAX_VAR_BYTES) FAIL_TOK(ps, &at, "array size %" PRId64 " out of range", n);
        d->elems *= (uint64_t)n;
        if (d->elems * esz > MAX_VAR_BYTES) FAIL_TOK(ps, &at, "variable '%s' is too large", d->s.name);
        expect_p(ps, ']');
    }
    d->s.size = d->unsized ? 0 : d->elems * esz;
    if (d->unsized && !(space == PTX_SPACE_SHARED && is_extern)) {
        /* unsized arrays are fine for extern shared; for others only with an initialiser */
        if (!is_p(&ps->tok, '='))
            FAIL_TOK(ps, &d->at, "array '%s' has no size", d->s.name);
    }
    if (is_p(&ps->tok, '=')) {
        token at = ps->tok;
        if (!allow_init) FAIL_TOK(ps, &at, "initialiser on a %s variable is not supported", "non-.const/.global");
        lex(ps);
        if (d->unsized) {
            /* count the values first: scan a copy of the lexer */
            lex_pos save = ps->pos;
            token cur = ps->tok;
            uint64_t n = 0;
            int depth = 0;
            for (;;) {
                if (ps->tok.kind == TK_EOF) FAIL_TOK(ps, &at, "unterminated initialiser%s", "");
                if (is_p(&ps->tok, '{')) depth++;
                else if (is_p(&ps->tok, '}')) { if (--depth <= 0) break; }
                else if (ps->tok.kind == TK_NUM || (ps->tok.kind == TK_WORD && !is_w(&ps->tok, "generic"))) n++;
                else if (is_p(&ps->tok, ';')) break;
                lex(ps);
            }
            ps->pos = save;
            ps->tok = cur;
            if (!n) FAIL_TOK(ps, &at, "empty initialiser for unsized '%s'", d->s.name);
            d->elems = (n + (uint64_t)d->vecn - 1) / (uint64_t)d->vecn;
            d->s.size = d->elems * esz;
            d->unsized = false;
        }
        if (d->s.size > MAX_IMAGE_BYTES) FAIL_TOK(ps, &at, "initialised variable '%s' is too large", d->s.name);
        d->init = xcalloc(ps, (size_t)d->s.size, 1);
        ps->pending_init = d->init;
        uint64_t index = 0;
        parse_init_list(ps, d, &index, 0);
    }
}

/* Module-scope variable: goes to the module's table and, for .const/.global, its image. */
static void add_module_var(parser *ps, var_decl *d)
{
    ptx_module *m = ps->m;
    if (ht_get(&ps->vars_ht, d->s.name, strlen(d->s.name)) >= 0)
        FAIL_TOK(ps, &d->at, "'%s' declared twice", d->s.name);
    if (d->s.space == PTX_SPACE_CONST || d->s.space == PTX_SPACE_GLOBAL) {
        uint64_t *bytes = d->s.space == PTX_SPACE_CONST ? &m->const_bytes : &m->global_bytes;
        uint8_t **img = d->s.space == PTX_SPACE_CONST ? &m->const_image : &m->global_image;
        size_t *cap = d->s.space == PTX_SPACE_CONST ? &ps->cap_const : &ps->cap_global;
        uint64_t off = align_up(*bytes, d->s.align);
        if (off + d->s.size > MAX_IMAGE_BYTES) {
            FAIL_TOK(ps, &d->at, "module %s variables exceed %u MiB", d->s.space == PTX_SPACE_CONST ? ".const" : ".global",
                     MAX_IMAGE_BYTES >> 20);
        }
        if (off + d->s.size > *cap) {
            size_t nc = *cap ? *cap : 256;
            while (nc < off + d->s.size) nc *= 2;
            uint8_t *n = realloc(*img, nc);
            if (!n) fail_at(ps, d->at.line, 0, "out of memory");
            memset(n + *cap, 0, nc - *cap);
            *img = n;
            *cap = nc;
        }
        if (d->init) memcpy(*img + off, d->init, (size_t)d->s.size);
        d->s.offset = off;
        *bytes = off + d->s.size;
        for (int i = 0; i < ps->nifix; i++)     /* its names: now at their place in the image */
            if (ps->ifix[i].var < 0) { ps->ifix[i].var = ps->nvars; ps->ifix[i].offset += off; }
    }
    bool has_init = d->init != NULL;
    free(d->init);
    d->init = NULL;
    ps->pending_init = NULL;
    grow(ps, (void **)&ps->vars, &ps->cap_vars, ps->nvars + 1, sizeof *ps->vars);
    modvar *v = &ps->vars[ps->nvars];
    v->s = d->s;
    v->s.init = has_init ? (const uint8_t *)1 : NULL; /* real pointer set in finish_module */
    v->seq = ps->seq++;
    ht_put(ps, &ps->vars_ht, v->s.name, ps->nvars, 0);
    ps->nvars++;
}

static ptx_space space_word(const token *t)
{
    if (is_w(t, ".global")) return PTX_SPACE_GLOBAL;
    if (is_w(t, ".shared")) return PTX_SPACE_SHARED;
    if (is_w(t, ".local")) return PTX_SPACE_LOCAL;
    if (is_w(t, ".const")) return PTX_SPACE_CONST;
    if (is_w(t, ".param")) return PTX_SPACE_PARAM;
    return PTX_SPACE_NONE;
}

/* ---- opcodes and modifiers -------------------------------------------------- */
/* The opcode words and their operand rules are rows of ptx_ops.h; what stays here
 * is how each opcode spells its modifiers. */

static bool word_in(const char *w, size_t n, const char *const *list, int *idx)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], w, n)) { *idx = i; return true; }
    return false;
}

static const char *const cmp_words[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ",
                                        "neu", "ltu", "leu", "gtu", "geu", "num", "nan", NULL};
static const char *const rnd_words[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", NULL};
static const char *const cache_words[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", NULL};
static const char *const atom_words[] = {"", "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch",
                                         "cas", NULL};
static const char *const testp_words[] = {"", "finite", "infinite", "number", "notanumber", "normal",
                                          "subnormal", NULL};
static const char *const scope_words[] = {"cta", "gpu", "sys", "cluster", "gl", "weak", "sc", "mmio", NULL};

/* Applies one ".word" of an opcode to the instruction; false if not understood. */
static bool apply_modifier(ptx_insn *in, const char *w, size_t n, int *testp_class, bool *bar_red)
{
    int i;
    ptx_type t = PTX_T_NONE;
    char dotted[40];
    if (ptx_tc_op(in->op)) return ptx_tc_modifier(in, w, n); /* tensor-era: every word is theirs */
    if (n + 2 <= sizeof dotted) {
        dotted[0] = '.';
        memcpy(dotted + 1, w, n);
        dotted[n + 1] = 0;
        t = type_of(dotted, n + 1);
    }
    if (t != PTX_T_NONE) {
        if (in->type == PTX_T_NONE) in->type = t;
        else if (in->type2 == PTX_T_NONE) in->type2 = t;
        else return false;
        return true;
    }
#define W(s) (n == strlen(s) && !memcmp(w, s, n))
    switch (in->op) {
    case PTX_SETP: case PTX_SET:
        if (in->cmp == PTX_CMP_NONE && word_in(w, n, cmp_words, &i) && i) { in->cmp = (ptx_cmp)i; return true; }
        if (W("and")) { in->boolop = PTX_BOOL_AND; return true; }
        if (W("or")) { in->boolop = PTX_BOOL_OR; return true; }
        if (W("xor")) { in->boolop = PTX_BOOL_XOR; return true; }
        break;
    case PTX_ATOM: case PTX_RED: case PTX_REDUX:
        if (in->atomop == PTX_ATOM_NONE && word_in(w, n, atom_words, &i) && i) { in->atomop = (ptx_atomop)i; return true; }
        if (W("noftz")) return true;
        break;
    case PTX_SHFL:
        if (W("up")) { in->shfl = PTX_SHFL_UP; return true; }
        if (W("down")) { in->shfl = PTX_SHFL_DOWN; return true; }
        if (W("bfly")) { in->shfl = PTX_SHFL_BFLY; return true; }
        if (W("idx")) { in->shfl = PTX_SHFL_IDX; return true; }
        break;
    case PTX_VOTE: case PTX_MATCH:
        if (W("all")) { in->vote = PTX_VOTE_ALL; return true; }
        if (W("any")) { in->vote = PTX_VOTE_ANY; return true; }
        if (W("uni") && in->op == PTX_VOTE) { in->vote = PTX_VOTE_UNI; return true; }
        if (W("ballot") && in->op == PTX_VOTE) { in->vote = PTX_VOTE_BALLOT; return true; }
        break;
    case PTX_BAR: case PTX_BARRIER:
        if (W("warp") && in->op == PTX_BAR) { in->flags |= PTX_F_WARP; return true; }
        if (W("cluster") && in->op == PTX_BARRIER) { in->flags |= PTX_F_CLUSTER; return true; }
        if (W("wait") && (in->flags & PTX_F_CLUSTER)) { in->bar = PTX_BAR_WAIT; return true; }
        if (W("sync")) { in->bar = PTX_BAR_SYNC; return true; }
        if (W("arrive")) { in->bar = PTX_BAR_ARRIVE; return true; }
        if (W("red")) { *bar_red = true; return true; }
        if (*bar_red && W("popc")) { in->bar = PTX_BAR_RED_POPC; return true; }
        if (*bar_red && W("and")) { in->bar = PTX_BAR_RED_AND; return true; }
        if (*bar_red && W("or")) { in->bar = PTX_BAR_RED_OR; return true; }
        break;
    case PTX_SHF:
        if (W("l")) { in->flags |= PTX_F_SHF_L; return true; }
        if (W("r")) return true;
        if (W("wrap")) { in->flags |= PTX_F_WRAP; return true; }
        if (W("clamp")) return true;
        break;
    case PTX_TESTP:
        if (word_in(w, n, testp_words, &i) && i) { *testp_class = i; return true; }
        break;
    case PTX_BFIND:
        if (W("shiftamt")) { in->flags |= PTX_F_SHIFTAMT; return true; }
        break;
    case PTX_CVT:
        /* the packing and narrow-float forms (sm_80+, fp8 sm_89+): the fp8 pair and tf32
           are held in .b16 / .b32 registers; a flag says which side is the narrow float */
        if (W("relu")) { in->flags |= PTX_F_RELU; return true; }
        if (W("satfinite")) { in->flags |= PTX_F_SATFINITE; return true; }
        if ((W("e4m3x2") || W("e5m2x2") || W("tf32")) && in->type2 == PTX_T_NONE) {
            bool f8 = w[0] == 'e', dst = in->type == PTX_T_NONE;
            if (!f8 && !dst) return false;                   /* tf32 is only ever the destination */
            if (W("e5m2x2")) in->flags |= PTX_F_E5M2;
            in->flags |= !f8 ? PTX_F_TF32 : dst ? PTX_F_F8_DST : PTX_F_F8_SRC;
            if (dst) in->type = f8 ? PTX_T_B16 : PTX_T_B32;
            else in->type2 = PTX_T_B16;
            return true;
        }
        break;
    case PTX_CVTA: case PTX_ISSPACEP:
        if (W("to")) { in->flags |= PTX_F_TO; return true; }
        break;
    case PTX_PREFETCH:
        if (W("L1") || W("L2")) return true; /* prefetch level: no effect on the model */
        if (W("tensormap")) return true;     /* prefetch.tensormap: a hint to fetch a CUtensorMap */
        break;
    case PTX_MEMBAR: case PTX_FENCE:
        /* fence.proxy.async, fence.mbarrier_init.release.cluster, membar.proxy.alias ...:
         * orderings a sequential simulator already has */
        if (W("proxy") || W("alias") || W("async") || W("mbarrier_init") || W("op_restrict") ||
            W("tensormap::generic"))
            return true;
        break;
    case PTX_PMEVENT:
        if (W("mask")) return true;
        break;
    default:
        break;
    }
    /* state spaces */
    if (W("global")) { in->space = PTX_SPACE_GLOBAL; return true; }
    if (W("shared") || W("shared::cta")) { in->space = PTX_SPACE_SHARED; return true; }
    if (W("shared::cluster")) { in->space = PTX_SPACE_SHARED_CLUSTER; return true; }
    if (W("local")) { in->space = PTX_SPACE_LOCAL; return true; }
    if (W("const")) { in->space = PTX_SPACE_CONST; return true; }
    if (W("param") || W("param::func") || W("param::entry")) { in->space = PTX_SPACE_PARAM; return true; }
    if (W("v2")) { in->vec = 2; return true; }
    if (W("v4")) { in->vec = 4; return true; }
    if (in->op == PTX_LD || in->op == PTX_LDU || in->op == PTX_ST) {
        if (word_in(w, n, cache_words, &i) && i) { in->cache = (ptx_cacheop)i; return true; }
    }
    if (in->op == PTX_MUL || in->op == PTX_MAD || in->op == PTX_MUL24 || in->op == PTX_MAD24 || in->op == PTX_DP2A) {
        if (W("lo")) { in->mulmode = PTX_MULMODE_LO; return true; }
        if (W("hi")) { in->mulmode = PTX_MULMODE_HI; return true; }
        if (W("wide")) { in->mulmode = PTX_MULMODE_WIDE; return true; }
    }
    if (word_in(w, n, rnd_words, &i) && i) { in->rnd = (ptx_round)i; return true; }
    if (W("ftz")) { in->flags |= PTX_F_FTZ; return true; }
    if (W("sat")) { in->flags |= PTX_F_SAT; return true; }
    if (W("approx")) { in->flags |= PTX_F_APPROX; return true; }
    if (W("full")) { in->flags |= PTX_F_FULL; return true; }
    if (W("uni")) { in->flags |= PTX_F_UNI; return true; }
    if (W("volatile")) { in->flags |= PTX_F_VOLATILE; return true; }
    if (W("sync")) { in->flags |= PTX_F_SYNC; return true; }
    if (W("aligned")) { in->flags |= PTX_F_ALIGNED; return true; }
    if (W("cc")) { in->flags |= PTX_F_CC; return true; }
    if (W("relaxed")) { in->flags |= PTX_F_RELAXED; return true; }
    if (W("acquire")) { in->flags |= PTX_F_ACQUIRE; return true; }
    if (W("release")) { in->flags |= PTX_F_RELEASE; return true; }
    if (W("acq_rel")) { in->flags |= PTX_F_ACQUIRE | PTX_F_RELEASE; return true; }
    if (word_in(w, n, scope_words, &i)) return true; /* memory scopes: the simulator is sequential */
    /* cache eviction and prefetch-size hints (L1::evict_last, L2::128B); L2::cache_hint takes an operand */
    if (n > 4 && (w[0] == 'L') && (w[1] == '1' || w[1] == '2') && w[2] == ':' && !W("L2::cache_hint")) return true;
#undef W
    return false;
}

/* ---- operands ----------------------------------------------------------------- */

/* A register named without '%' (inline asm declares them so: { .reg .f16 low, high; ... }). */
static bool is_plain_reg(parser *ps, const token *t)
{
    return t->kind == TK_WORD && t->s[0] != '%' && t->s[0] != '.' && ps->cur &&
           ht_get(&ps->cur->regs_ht, t->s, (size_t)t->len) >= 0;
}

static int reg_slot(parser *ps, const token *t)
{
    char b[64];
    int r = ht_get(&ps->cur->regs_ht, t->s, (size_t)t->len);
    if (r < 0) FAIL_TOK(ps, t, "undeclared register '%s'", tok_text(t, b, sizeof b));
    return r;
}

static bool is_float_literal(const token *t)
{
    if (t->len > 2 && t->s[0] == '0' && strchr("fFdD", t->s[1])) return true;
    if (t->len > 1 && t->s[0] == '0' && strchr("xXbB", t->s[1])) return false;
    return memchr(t->s, '.', (size_t)t->len) || memchr(t->s, 'e', (size_t)t->len) || memchr(t->s, 'E', (size_t)t->len);
}

static void parse_imm(parser *ps, ptx_operand *o, const ptx_insn *in, bool neg)
{
    char b[64];
    token t = ps->tok;
    o->kind = PTX_OPND_IMM;
    if (is_float_literal(&t)) {
        o->is_float = true;
        if (t.s[0] == '0' && t.len > 2 && strchr("fFdD", t.s[1])) {
            bool dbl = t.s[1] == 'd' || t.s[1] == 'D';
            int want = dbl ? 16 : 8;
            if (t.len - 2 != want) FAIL_TOK(ps, &t, "float literal '%s' needs %d hex digits", tok_text(&t, b, sizeof b), want);
            uint64_t bits = 0;
            for (int i = 2; i < t.len; i++) {
                int c = t.s[i], v;
                if (c >= '0' && c <= '9') v = c - '0';
                else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
                else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
                else FAIL_TOK(ps, &t, "malformed float literal '%s'", tok_text(&t, b, sizeof b));
                bits = bits << 4 | (uint64_t)v;
            }
            if (neg) bits ^= dbl ? 0x8000000000000000ull : 0x80000000ull;
            o->is_double = dbl;
            o->imm = (int64_t)bits;
        } else {
            char fb[80];
            if (t.len >= (int)sizeof fb) FAIL_TOK(ps, &t, "malformed number '%s'", tok_text(&t, b, sizeof b));
            memcpy(fb, t.s, (size_t)t.len);
            fb[t.len] = 0;
            char *end;
            double v = strtod(fb, &end);
            if (*end) FAIL_TOK(ps, &t, "malformed number '%s'", tok_text(&t, b, sizeof b));
            if (neg) v = -v;
            bool dbl = in->type == PTX_T_F64 || in->type2 == PTX_T_F64;
            o->is_double = dbl;
            if (dbl) { uint64_t u; memcpy(&u, &v, 8); o->imm = (int64_t)u; }
            else { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); o->imm = u; }
        }
    } else {
        int64_t v = parse_int_tok(ps, &t);
        o->imm = neg ? (int64_t)(0 - (uint64_t)v) : v;
    }
    lex(ps);
}

static void add_label_fix(parser *ps, const token *t, int opnd)
{
    func_builder *b = ps->cur;
    int e = ht_find_ent(&b->labels_ht, t->s, (size_t)t->len);
    int l = e < 0 ? -1 : b->labels_ht.ent[e].value;
    /* labels are local to their { } block: an inline-asm loop inlined twice defines its label
       twice, each time in a new block, and a definition shadows one of an enclosing block */
    if (l >= 0 && opnd < 0 && b->labels[l].insn >= 0 && b->labels_ht.ent[e].depth < b->depth) l = -1;
    if (l < 0) {
        grow(ps, (void **)&b->labels, &b->cap_labels, b->nlabels + 1, sizeof *b->labels);
        l = b->nlabels++;
        b->labels[l].name = intern(ps, t->s, (size_t)t->len);
        b->labels[l].insn = -1;
        b->labels[l].line = t->line;
        b->labels[l].col = t->col;
        ht_put(ps, &b->labels_ht, b->labels[l].name, l, b->depth);
    }
    if (opnd < 0) { /* definition */
        if (b->labels[l].insn >= 0) FAIL_TOK(ps, t, "label '%s' defined twice", b->labels[l].name);
        b->labels[l].insn = b->f.ninsns;
        b->labels[l].line = t->line; /* from now on errors point at the definition */
        b->labels[l].col = t->col;
        return;
    }
    grow(ps, (void **)&b->fixes, &b->cap_fixes, b->nfixes + 1, sizeof *b->fixes);
    b->fixes[b->nfixes++] = (label_fix){b->f.ninsns, opnd, l};
}

static void parse_operand(parser *ps, ptx_insn *in, ptx_operand *o, int index);

/* A name that is a function (defined anywhere in the module, or declared): resolved
 * by finish_module, which refuses the function when nothing of that name exists. */
static void add_func_fix(parser *ps, const token *t, int opnd, bool is_call)
{
    grow(ps, (void **)&ps->calls, &ps->cap_calls, ps->ncalls + 1, sizeof *ps->calls);
    call_fix *cf = &ps->calls[ps->ncalls++];
    cf->func = ps->m->nfuncs;
    cf->insn = ps->cur->f.ninsns;
    cf->opnd = opnd;
    cf->is_call = is_call;
    cf->name = intern(ps, t->s, (size_t)t->len);
    cf->line = t->line;
    cf->col = t->col;
}

/* [reg], [reg+imm], [reg+-imm], [reg-imm], [sym], [sym+imm], [imm]; a tensor map's address may
 * carry coordinates, [map, {c0, c1}], which become the next operand (ps->coords) */
static void parse_mem(parser *ps, ptx_insn *in, ptx_operand *o)
{
    char b[64];
    token open = ps->tok;
    lex(ps);
    o->kind = PTX_OPND_MEM;
    o->base_kind = PTX_OPND_NONE;
    token t = ps->tok;
    if ((t.kind == TK_WORD && t.s[0] == '%') || is_plain_reg(ps, &t)) {
        o->base_kind = PTX_OPND_REG;
        o->reg = reg_slot(ps, &t);
        lex(ps);
    } else if (t.kind == TK_WORD && t.s[0] != '.') {
        int s = find_sym(ps, t.s, (size_t)t.len);
        if (s < 0) FAIL_TOK(ps, &t, "unknown variable or parameter '%s'", tok_text(&t, b, sizeof b));
        o->base_kind = PTX_OPND_SYM;
        o->sym = s;
        lex(ps);
    } else if (t.kind == TK_NUM || is_p(&t, '-')) {
        o->imm = expect_int(ps);
        expect_p(ps, ']');
        return;
    } else {
        FAIL_TOK(ps, &t, "expected an address inside [ ], found '%s'", tok_text(&t, b, sizeof b));
    }
    if (is_p(&ps->tok, '+')) {
        lex(ps);
        o->imm = expect_int(ps);
    } else if (is_p(&ps->tok, '-')) {
        lex(ps);
        int64_t v = parse_int_tok(ps, &ps->tok);
        lex(ps);
        o->imm = (int64_t)(0 - (uint64_t)v);
    }
    if (is_p(&ps->tok, ',') && in && (in->op == PTX_CP_BULK_TENSOR || in->op == PTX_CP_BULK)) {
        lex(ps);
        if (!is_p(&ps->tok, '{')) FAIL_TOK(ps, &ps->tok, "expected tensor coordinates {..} after ',', found '%s'", tok_text(&ps->tok, b, sizeof b));
        parse_operand(ps, in, &ps->coords, -1);
        ps->has_coords = true;
    }
    if (!is_p(&ps->tok, ']'))
        FAIL_TOK(ps, &ps->tok, "expected ']' to close the address opened at column %d, found '%s'", open.col,
                 tok_text(&ps->tok, b, sizeof b));
    lex(ps);
}

static void parse_operand(parser *ps, ptx_insn *in, ptx_operand *o, int index)
{
    char b[64];
    memset(o, 0, sizeof *o);
    o->reg = o->sym = -1;
    token t = ps->tok;
    if (is_p(&t, '[')) { parse_mem(ps, in, o); return; }
    if (is_p(&t, '{')) {
        lex(ps);
        o->kind = PTX_OPND_VEC;
        bool wide = ptx_tc_long_operands(in->op);   /* wgmma accumulators: up to 128 registers */
        func_builder *fb = ps->cur;
        if (wide) o->wide0 = fb->f.nwide;
        for (;;) {
            token e = ps->tok;
            int vmax = ptx_tc_op(in->op) ? PTX_VEC_MAX : 4;  /* fragments of mma/wmma hold up to 8 */
            if (wide && o->wide_n >= 128) FAIL_TOK(ps, &e, "vector operand with more than %d elements", 128);
            if (o->vec_n >= vmax && !wide) FAIL_TOK(ps, &e, "vector operand with more than %d elements", vmax);
            if (wide && ((e.kind == TK_WORD && e.s[0] == '%') || is_plain_reg(ps, &e))) {
                int slot = reg_slot(ps, &e);         /* every element in fn->wide, the first 8 in vec[] too */
                grow(ps, (void **)&fb->f.wide, &fb->cap_wide, fb->f.nwide + 1, sizeof *fb->f.wide);
                fb->f.wide[fb->f.nwide++] = slot;
                o->wide_n++;
                if (o->vec_n < PTX_VEC_MAX) o->vec[o->vec_n++] = slot;
            } else if (wide) {
                FAIL_TOK(ps, &e, "expected a register in the { } of '%s', found '%s'", ptx_opcode_name(in->op),
                         tok_text(&e, b, sizeof b));
            } else if (is_w(&e, "_")) {
                o->vec[o->vec_n++] = -1;
            } else if ((e.kind == TK_WORD && e.s[0] == '%') || is_plain_reg(ps, &e)) {
                int slot = reg_slot(ps, &e);
                o->vec[o->vec_n++] = slot;
            } else if (e.kind == TK_NUM || (is_p(&e, '-') && peek2(ps).kind == TK_NUM)) {
                /* an immediate element (st.param.v2.b32 [p], {0, %r1}): a source, never written */
                bool neg = is_p(&e, '-');
                if (neg) lex(ps);
                ptx_operand t;
                memset(&t, 0, sizeof t);
                parse_imm(ps, &t, in, neg);
                {
                    int k = o->vec_n++;
                    o->vec[k] = -1;
                    o->vec_imm |= (uint8_t)(1u << k);
                    if (t.is_float) o->vec_fimm |= (uint8_t)(1u << k);
                    if (t.is_double) o->vec_dimm |= (uint8_t)(1u << k);
                    o->vimm[k] = t.imm;
                }
                goto next;                                   /* parse_imm moved past it */
            } else FAIL_TOK(ps, &e, "expected a register or a number in { }, found '%s'", tok_text(&e, b, sizeof b));
            lex(ps);
        next:
            if (is_p(&ps->tok, ',')) { lex(ps); continue; }
            if (!is_p(&ps->tok, '}'))
                FAIL_TOK(ps, &ps->tok, "expected ',' or '}' in a vector operand, found '%s'", tok_text(&ps->tok, b, sizeof b));
            lex(ps);
            if (o->wide_n <= PTX_VEC_MAX) o->wide_n = 0; /* short: vec[] holds it all */
            return;
        }
    }
    if (is_p(&t, '!')) {
        lex(ps);
        token r = ps->tok;
        if ((r.kind != TK_WORD || r.s[0] != '%') && !is_plain_reg(ps, &r))
            FAIL_TOK(ps, &r, "expected a predicate after '!', found '%s'", tok_text(&r, b, sizeof b));
        o->kind = PTX_OPND_REG;
        o->neg = true;
        o->reg = reg_slot(ps, &r);
        if (ps->cur->f.regs[o->reg].type != PTX_T_PRED) FAIL_TOK(ps, &r, "'!' on '%s', which is not a predicate", ps->cur->f.regs[o->reg].name);
        lex(ps);
        return;
    }
    if (is_p(&t, '-')) {
        lex(ps);
        if (ps->tok.kind != TK_NUM) FAIL_TOK(ps, &ps->tok, "expected a number after '-', found '%s'", tok_text(&ps->tok, b, sizeof b));
        parse_imm(ps, o, in, true);
        return;
    }
    if (t.kind == TK_NUM) { parse_imm(ps, o, in, false); return; }
    if (is_plain_reg(ps, &t)) {
        o->kind = PTX_OPND_REG;
        o->reg = reg_slot(ps, &t);
        lex(ps);
        return;
    }
    if (t.kind == TK_WORD && t.s[0] == '%') {
        int r = ptx_sreg_lookup(t.s, (size_t)t.len);
        if (r >= 0) {
            o->kind = PTX_OPND_SREG;
            o->sreg = (ptx_sreg)r;
            lex(ps);
            return;
        }
        o->kind = PTX_OPND_REG;
        o->reg = reg_slot(ps, &t);
        lex(ps);
        return;
    }
    if (is_w(&t, "_")) { o->kind = PTX_OPND_SINK; lex(ps); return; }
    if (t.kind == TK_WORD && t.s[0] != '.') {
        if (in->op == PTX_BRA) {
            o->kind = PTX_OPND_LABEL;
            add_label_fix(ps, &t, index);
            lex(ps);
            return;
        }
        if (is_w(&t, "WARP_SZ")) {              /* a predefined constant (PTX ISA) */
            o->kind = PTX_OPND_IMM;
            o->imm = PTX_WARP_SZ;
            lex(ps);
            return;
        }
        int s = find_sym(ps, t.s, (size_t)t.len);
        if (s < 0) {                             /* a function's address, or unknown (finish_module) */
            o->kind = PTX_OPND_FUNC;
            o->target = PTX_CALLEE_UNRESOLVED;
            add_func_fix(ps, &t, index, false);
            lex(ps);
            return;
        }
        o->kind = PTX_OPND_SYM;
        o->sym = s;
        lex(ps);
        if (is_p(&ps->tok, '+')) { lex(ps); o->imm = expect_int(ps); }
        return;
    }
    FAIL_TOK(ps, &t, "expected an operand, found '%s'", tok_text(&t, b, sizeof b));
}

static bool is_proto(const func_builder *fb, const token *t)
{
    for (int i = 0; i < fb->nprotos; i++)
        if (strlen(fb->protos[i]) == (size_t)t->len && !memcmp(fb->protos[i], t->s, (size_t)t->len)) return true;
    return false;
}

/* call[.uni] [(ret),] callee[, (args)];  or, indirect, through a register holding a
 * function's address: call[.uni] [(ret),] %rd, (args), prototype;  The arguments,
 * any number of them, go to fn->call_args (ptx.h). */
static void parse_call(parser *ps, ptx_insn *in)
{
    char b[64];
    func_builder *fb = ps->cur;
    in->nopnd = 2;
    in->opnd[0].kind = PTX_OPND_NONE;
    in->opnd[0].reg = in->opnd[0].sym = -1;
    if (is_p(&ps->tok, '(')) {
        lex(ps);
        token at = ps->tok;
        parse_operand(ps, in, &in->opnd[0], 0);
        if (in->opnd[0].kind != PTX_OPND_SYM || fb->f.syms[in->opnd[0].sym].space != PTX_SPACE_PARAM)
            FAIL_TOK(ps, &at, "call: the return value must be a .param variable%s", "");
        expect_p(ps, ')');
        expect_p(ps, ',');
    }
    token callee = ps->tok;
    ptx_operand *c = &in->opnd[1];
    memset(c, 0, sizeof *c);
    c->reg = c->sym = -1;
    bool indirect = false;
    if (callee.kind == TK_WORD && callee.s[0] == '%') {
        indirect = true;
        c->kind = PTX_OPND_REG;
        c->reg = reg_slot(ps, &callee);
        if (fb->f.regs[c->reg].type == PTX_T_PRED)
            FAIL_TOK(ps, &callee, "call: '%s' is a predicate, not a function address", fb->f.regs[c->reg].name);
    } else if (callee.kind != TK_WORD || callee.s[0] == '.') {
        FAIL_TOK(ps, &callee, "call: expected a function name, found '%s'", tok_text(&callee, b, sizeof b));
    } else {
        if (ht_get(&fb->syms_ht, callee.s, (size_t)callee.len) >= 0)
            FAIL_TOK(ps, &callee, "call through the variable '%s' (not a function) is not supported",
                     tok_text(&callee, b, sizeof b));
        c->kind = PTX_OPND_LABEL;
        c->target = PTX_CALLEE_UNRESOLVED;
        add_func_fix(ps, &callee, 1, true);
        in->callee = ps->calls[ps->ncalls - 1].name;
    }
    lex(ps);
    in->call_arg0 = fb->f.ncall_args;
    bool have_proto = false;
    if (is_p(&ps->tok, ',')) {
        lex(ps);
        if (is_p(&ps->tok, '(')) {
            lex(ps);
            while (!is_p(&ps->tok, ')')) {
                token at = ps->tok;
                ptx_operand a;
                parse_operand(ps, in, &a, 2);
                if (a.kind != PTX_OPND_SYM || fb->f.syms[a.sym].space != PTX_SPACE_PARAM || a.imm)
                    FAIL_TOK(ps, &at, "call: arguments must be .param variables, found '%s'", tok_text(&at, b, sizeof b));
                grow(ps, (void **)&fb->f.call_args, &fb->cap_call_args, fb->f.ncall_args + 1, sizeof *fb->f.call_args);
                fb->f.call_args[fb->f.ncall_args++] = a.sym;
                in->ncall_args++;
                if (!is_p(&ps->tok, ',')) break;
                lex(ps);
            }
            expect_p(ps, ')');
            if (indirect && is_p(&ps->tok, ',')) { lex(ps); have_proto = true; }
        } else if (indirect) {
            have_proto = true;
        } else {
            FAIL_TOK(ps, &ps->tok, "call: expected '(' and the arguments, found '%s'", tok_text(&ps->tok, b, sizeof b));
        }
    }
    if (indirect) {
        token pt = ps->tok;
        if (!have_proto || pt.kind != TK_WORD || pt.s[0] == '.' || pt.s[0] == '%')
            FAIL_TOK(ps, &pt, "indirect call: expected the name of a .callprototype, found '%s'", tok_text(&pt, b, sizeof b));
        if (!is_proto(fb, &pt))
            FAIL_TOK(ps, &pt, "indirect call: '%s' is not a .callprototype or .calltargets of this function",
                     tok_text(&pt, b, sizeof b));
        lex(ps);
    }
}

/* bar{.cta}.sync/.arrive/.red and barrier{.cta}.*: the operand shapes of the PTX ISA
 * (sync a{, b}; arrive a, b; red.popc.u32 / red.and|or.pred d, a{, b}, {!}c) and what
 * ptxas refuses in immediates: a barrier number outside 0..15, a thread count that is
 * not a multiple of the warp size. Values in registers are checked when they run
 * (sim/interp/exec_barrier.c). */
static void check_barrier(parser *ps, const token *at, const ptx_insn *in, const char *optext)
{
    bool red = in->bar == PTX_BAR_RED_POPC || in->bar == PTX_BAR_RED_AND || in->bar == PTX_BAR_RED_OR;
    int lo = red ? 3 : in->bar == PTX_BAR_ARRIVE ? 2 : 1, hi = red ? 4 : 2;
    if (in->nopnd < lo || in->nopnd > hi)
        FAIL_TOK(ps, at, "'%s' takes %s operands, found %d", optext,
                 red ? "3 or 4 (d, a{, b}, {!}c)" : in->bar == PTX_BAR_ARRIVE ? "2 (a, b: arrive needs a thread count)"
                                                                              : "1 or 2 (a{, b})", in->nopnd);
    int ia = red ? 1 : 0, ib = (red ? in->nopnd == 4 : in->nopnd == 2) ? ia + 1 : -1;
    for (int i = ia; i <= (ib >= 0 ? ib : ia); i++) {
        const ptx_operand *o = &in->opnd[i];
        bool reg = o->kind == PTX_OPND_REG && ps->cur->f.regs[o->reg].type != PTX_T_PRED;
        if (o->kind != PTX_OPND_IMM && !reg)
            FAIL_TOK(ps, at, "'%s': the %s must be an integer or a 32-bit register", optext,
                     i == ia ? "barrier number" : "thread count");
    }
    const ptx_operand *a = &in->opnd[ia];
    if (a->kind == PTX_OPND_IMM && (a->imm < 0 || a->imm > 15))
        FAIL_TOK(ps, at, "'%s': barrier number %" PRId64 " is out of range: a block has barriers 0..15", optext, a->imm);
    if (ib >= 0 && in->opnd[ib].kind == PTX_OPND_IMM && in->opnd[ib].imm % 32)
        FAIL_TOK(ps, at, "'%s': thread count %" PRId64 " is not a multiple of the warp size (32)", optext, in->opnd[ib].imm);
    if (red) {
        const ptx_operand *d = &in->opnd[0], *c = &in->opnd[in->nopnd - 1];
        ptx_type want = in->bar == PTX_BAR_RED_POPC ? PTX_T_U32 : PTX_T_PRED;
        if (in->type != want) FAIL_TOK(ps, at, "'%s' must be %s", optext, want == PTX_T_U32 ? ".popc.u32" : ".and.pred / .or.pred");
        if (d->kind != PTX_OPND_REG || d->neg) FAIL_TOK(ps, at, "'%s': the destination must be a register", optext);
        if (c->kind != PTX_OPND_REG || ps->cur->f.regs[c->reg].type != PTX_T_PRED)
            FAIL_TOK(ps, at, "'%s': the last operand must be a predicate", optext);
    }
}

/* cvt's packing and narrow-float forms (PTX ISA "cvt"): which type pairs take .relu /
 * .satfinite, the three-operand pairs (d's upper half from a), the rounding each allows. */
static void check_cvt(parser *ps, const token *at, const ptx_insn *in, const char *optext)
{
    ptx_type dt = in->type, st = in->type2;
    uint32_t fl = in->flags;
    bool x2 = dt == PTX_T_F16X2 || dt == PTX_T_BF16X2, half = dt == PTX_T_F16 || dt == PTX_T_BF16;
    bool rn = in->rnd == PTX_RND_RN, rnz = rn || in->rnd == PTX_RND_RZ;
    if (fl & PTX_F_F8_DST) {
        if (!rn || !(fl & PTX_F_SATFINITE))
            FAIL_TOK(ps, at, "'%s': a conversion to an fp8 pair is .rn.satfinite", optext);
        if (!(st == PTX_T_F32 && in->nopnd == 3) && !(st == PTX_T_F16X2 && in->nopnd == 2))
            FAIL_TOK(ps, at, "'%s': an fp8 pair is made from two .f32 (d, a, b) or one .f16x2 (d, a)", optext);
        return;
    }
    if (fl & PTX_F_F8_SRC) {
        if (dt != PTX_T_F16X2 || !rn || (fl & PTX_F_SATFINITE) || in->nopnd != 2)
            FAIL_TOK(ps, at, "'%s': an fp8 pair converts only as cvt.rn{.relu}.f16x2.e4m3x2|e5m2x2 d, a", optext);
        return;
    }
    if (fl & PTX_F_TF32) {
        if (st != PTX_T_F32 || in->nopnd != 2 || !(in->rnd == PTX_RND_RNA || rnz) ||
            (in->rnd == PTX_RND_RNA && (fl & PTX_F_RELU)))
            FAIL_TOK(ps, at, "'%s': tf32 is made as cvt.rna{.satfinite}.tf32.f32 or cvt.rn|rz{.relu}{.satfinite}.tf32.f32 "
                     "d, a", optext);
        return;
    }
    if (x2 && st == PTX_T_F32) {
        if (in->nopnd != 3) FAIL_TOK(ps, at, "'%s' packs two values: d, a, b (a goes to the upper half)", optext);
        if (!rnz) FAIL_TOK(ps, at, "'%s': a packing conversion rounds .rn or .rz", optext);
        return;
    }
    if (in->nopnd != 2)
        FAIL_TOK(ps, at, "'%s' takes 2 operands (3 only when it packs two .f32 into .f16x2, .bf16x2 or an fp8 pair)",
                 optext);
    if ((fl & (PTX_F_RELU | PTX_F_SATFINITE)) && !(half && st == PTX_T_F32))
        FAIL_TOK(ps, at, "'%s': .relu and .satfinite apply to conversions from .f32 to f16, bf16, tf32 or fp8", optext);
}

/* Operand count limits and kinds; what the interpreter may rely on. The generic rules
 * come from the opcode's row in ptx_ops.h, the opcode-specific ones follow. */
static void check_insn(parser *ps, const token *at, ptx_insn *in, const char *optext, int testp_class, int pair)
{
    const ptx_opinfo *info = ptx_op_info(in->op);
    if (in->op == PTX_CALL) return; /* shaped by parse_call */
    int lo = info->lo, hi = info->hi;
    if (lo < 0) FAIL_TOK(ps, at, "unsupported instruction '%s'", optext);
    if (in->nopnd < lo || in->nopnd > hi)
        FAIL_TOK(ps, at, "'%s' takes %d%s operands, found %d", optext, lo, hi > lo ? " or more" : "", in->nopnd);
    int want = -1;
    if (in->op == PTX_SETP) want = 3 + pair + (in->boolop != PTX_BOOL_NONE);
    else if (in->op == PTX_SHFL) want = 5 + pair;
    else if (in->op == PTX_MATCH) want = 3 + pair;
    else if (in->op == PTX_SET) want = 3 + (in->boolop != PTX_BOOL_NONE);
    if (want >= 0 && in->nopnd != want) FAIL_TOK(ps, at, "'%s' takes %d operands, found %d", optext, want, in->nopnd);
    if (in->op == PTX_CVT) check_cvt(ps, at, in, optext);
    if (in->op == PTX_BRA && in->opnd[0].kind != PTX_OPND_LABEL) FAIL_TOK(ps, at, "'%s' needs a label", optext);
    if (in->op == PTX_ATOM && in->atomop == PTX_ATOM_CAS && in->nopnd != 4)
        FAIL_TOK(ps, at, "'%s' takes 4 operands", optext);
    if (in->op == PTX_ATOM && in->atomop != PTX_ATOM_CAS && in->nopnd != 3)
        FAIL_TOK(ps, at, "'%s' takes 3 operands", optext);
    if ((in->op == PTX_ATOM || in->op == PTX_RED || in->op == PTX_REDUX) && in->atomop == PTX_ATOM_NONE)
        FAIL_TOK(ps, at, "'%s' names no operation (.add, .min, ...)", optext);
    if (in->op == PTX_SETP && in->cmp == PTX_CMP_NONE) FAIL_TOK(ps, at, "'%s' names no comparison", optext);
    if (in->op == PTX_SET && in->cmp == PTX_CMP_NONE) FAIL_TOK(ps, at, "'%s' names no comparison", optext);
    if (in->op == PTX_SHFL && in->shfl == PTX_SHFL_NONE) FAIL_TOK(ps, at, "'%s' names no mode (.up .down .bfly .idx)", optext);
    if ((in->op == PTX_VOTE || in->op == PTX_MATCH) && in->vote == PTX_VOTE_NONE)
        FAIL_TOK(ps, at, "'%s' names no mode", optext);
    if (in->op == PTX_TESTP && !testp_class) FAIL_TOK(ps, at, "'%s' names no class (.finite, .nan ...)", optext);
    if ((in->op == PTX_BAR || in->op == PTX_BARRIER) && in->bar == PTX_BAR_NONE)
        FAIL_TOK(ps, at, "'%s' names no barrier operation (.sync, .arrive, .red)", optext);
    if (in->flags & PTX_F_WARP && in->nopnd != 1) FAIL_TOK(ps, at, "'%s' takes 1 operand (the member mask)", optext);
    if ((in->op == PTX_BAR || in->op == PTX_BARRIER) && (in->flags & PTX_F_CLUSTER)) {
        if (in->bar != PTX_BAR_ARRIVE && in->bar != PTX_BAR_WAIT) FAIL_TOK(ps, at, "'%s': a cluster barrier is .arrive or .wait", optext);
        if (in->nopnd) FAIL_TOK(ps, at, "'%s' takes no operands", optext);
    } else if ((in->op == PTX_BAR || in->op == PTX_BARRIER) && !(in->flags & PTX_F_WARP)) {
        check_barrier(ps, at, in, optext);
    }
    if (info->needs_type && in->type == PTX_T_NONE) FAIL_TOK(ps, at, "'%s' names no type", optext);
    /* memory operands exactly where the interpreter expects them */
    int mem_at = info->mem;
    uint32_t extra_mem = ptx_insn_extra_mem(in);
    for (int i = 0; i < in->nopnd; i++) {
        bool is_mem = in->opnd[i].kind == PTX_OPND_MEM;
        if (is_mem != (i == mem_at || (extra_mem >> i & 1)))
            FAIL_TOK(ps, at, "'%s': operand %d %s", optext, i + 1, is_mem ? "cannot be an address [..]" : "must be an address [..]");
    }
    if (in->op == PTX_LD || in->op == PTX_LDU || in->op == PTX_ST) {
        const ptx_operand *v = &in->opnd[in->op == PTX_ST ? 1 : 0];
        int want = in->vec ? in->vec : 1;
        int got = v->kind == PTX_OPND_VEC ? v->vec_n : 1;
        if (got != want) FAIL_TOK(ps, at, "'%s' moves %d value%s but the operand has %d", optext, want, want > 1 ? "s" : "", got);
        if (in->op != PTX_ST && v->kind != PTX_OPND_REG && v->kind != PTX_OPND_VEC && v->kind != PTX_OPND_SINK)
            FAIL_TOK(ps, at, "'%s': the destination must be a register", optext);
        /* one type and at most 16 bytes per thread (sm_90): ws_mem_event.width is 1..16 (found by fuzz_interp) */
        if (in->type2 != PTX_T_NONE) FAIL_TOK(ps, at, "'%s' names two types", optext);
        if (want * ptx_type_size(in->type) > 16)
            FAIL_TOK(ps, at, "'%s' moves %d bytes per thread; a load or store moves at most 16", optext,
                     want * ptx_type_size(in->type));
    }
    /* destinations of computing instructions are registers */
    if (info->dst != PTX_DST_NONE && in->nopnd > 0) {
        ptx_opnd_kind k = in->opnd[0].kind;
        if (k != PTX_OPND_REG && k != PTX_OPND_VEC && k != PTX_OPND_SINK)
            FAIL_TOK(ps, at, "'%s': the destination must be a register", optext);
        if (k == PTX_OPND_VEC && in->opnd[0].vec_imm)
            FAIL_TOK(ps, at, "'%s': a number in the destination { }", optext);
        if (in->opnd[0].neg) FAIL_TOK(ps, at, "'%s': '!' on a destination", optext);
        in->ndst = (uint8_t)(1 + pair);
    }
    if (in->op == PTX_TESTP) {
        ptx_operand *o = &in->opnd[in->nopnd++];
        memset(o, 0, sizeof *o);
        o->kind = PTX_OPND_IMM;
        o->reg = o->sym = -1;
        o->imm = testp_class;
    }
    if (ptx_tc_op(in->op)) {
        char why[160];
        const char *bad = ptx_tc_check(in, why, sizeof why);
        if (bad) FAIL_TOK(ps, at, "'%s': %s", optext, bad);
    }
    if (in->vec == 0) in->vec = 1;
}

static void parse_insn(parser *ps)
{
    char b[64];
    func_builder *fb = ps->cur;
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = -1;
    if (is_p(&ps->tok, '@')) {
        lex(ps);
        if (is_p(&ps->tok, '!')) { in.guard_neg = true; lex(ps); }
        token g = ps->tok;
        if ((g.kind != TK_WORD || g.s[0] != '%') && !is_plain_reg(ps, &g))
            FAIL_TOK(ps, &g, "expected a predicate after '@', found '%s'", tok_text(&g, b, sizeof b));
        in.guard = reg_slot(ps, &g);
        if (fb->f.regs[in.guard].type != PTX_T_PRED)
            FAIL_TOK(ps, &g, "guard '%s' is not a predicate", fb->f.regs[in.guard].name);
        lex(ps);
    }
    token opt = ps->tok;
    char optext[128];
    tok_text(&opt, optext, sizeof optext);
    if (opt.kind != TK_WORD || opt.s[0] == '.' || opt.s[0] == '%' || opt.s[0] == '$')
        FAIL_TOK(ps, &opt, "expected an instruction, found '%s'", optext);
    in.ptx_line = opt.line;
    in.src_file = fb->cur_file;
    in.src_line = fb->cur_line;
    /* opcode and its dot-separated modifiers */
    size_t base;
    in.op = ptx_opcode_lookup_prefix(opt.s, (size_t)opt.len, &base, &in.flags);
    if (in.op == PTX_OP_INVALID) FAIL_TOK(ps, &opt, "unsupported instruction '%s'", optext);
    if (in.op == PTX_BRX) FAIL_TOK(ps, &opt, "unsupported instruction '%s' (indirect branch)", optext);
    int testp_class = 0, pair = 0;
    bool bar_red = false;
    const char *p = opt.s + base, *end = opt.s + opt.len;
    while (p < end) {
        const char *w = p + 1, *q = w;
        while (q < end && *q != '.') q++;
        if (q == w || !apply_modifier(&in, w, (size_t)(q - w), &testp_class, &bar_red)) {
            char mod[64];
            int n = (int)(q - w) < 60 ? (int)(q - w) : 60;
            memcpy(mod, w, (size_t)n);
            mod[n] = 0;
            fail_at(ps, opt.line, opt.col + (int)(p - opt.s), "unsupported modifier '.%s' in '%s'", mod, optext);
        }
        p = q;
    }
    if (in.op == PTX_PRMT && in.type != PTX_T_B32) FAIL_TOK(ps, &opt, "unsupported instruction '%s' (prmt modes)", optext);
    /* the PTX ISA allows atom and red on .global, .shared (::cta, ::cluster) or a generic
     * address only, and no st into .const (read-only to a kernel) */
    if ((in.op == PTX_ATOM || in.op == PTX_RED) && in.space != PTX_SPACE_NONE && in.space != PTX_SPACE_GLOBAL &&
        in.space != PTX_SPACE_SHARED && in.space != PTX_SPACE_SHARED_CLUSTER)
        FAIL_TOK(ps, &opt, "'%s': %s takes a .global, .shared or generic address only (PTX ISA)", optext,
                 in.op == PTX_ATOM ? "atom" : "red");
    if (in.op == PTX_ST && in.space == PTX_SPACE_CONST)
        FAIL_TOK(ps, &opt, "'%s': .const memory is read-only to a kernel (PTX ISA: st takes .global, .shared, "
                 ".local or .param)", optext);
    lex(ps);
    if (in.op == PTX_CALL) {
        parse_call(ps, &in);
    } else if (!is_p(&ps->tok, ';')) {
        for (;;) {
            if (in.nopnd >= PTX_MAX_OPND && ptx_tc_long_operands(in.op)) { /* wgmma's imm-trans-a/-b */
                ptx_operand extra;
                token at = ps->tok;
                parse_operand(ps, &in, &extra, in.nopnd);
                if (extra.kind != PTX_OPND_IMM || in.tc.nx >= 2 || extra.imm < -128 || extra.imm > 127)
                    FAIL_TOK(ps, &at, "operand %d of '%s' must be an immediate (imm-trans-a, imm-trans-b)",
                             in.nopnd + in.tc.nx + 1, optext);
                in.tc.ximm[in.tc.nx++] = (int8_t)extra.imm;
                if (is_p(&ps->tok, ',')) { lex(ps); continue; }
                break;
            }
            if (in.nopnd >= PTX_MAX_OPND) FAIL_TOK(ps, &ps->tok, "too many operands for '%s'", optext);
            parse_operand(ps, &in, &in.opnd[in.nopnd], in.nopnd);
            in.nopnd++;
            if (ps->has_coords) {            /* [map, {c}]: the coordinates follow the address */
                ps->has_coords = false;
                if (in.nopnd >= PTX_MAX_OPND) FAIL_TOK(ps, &ps->tok, "too many operands for '%s'", optext);
                in.opnd[in.nopnd++] = ps->coords;
            }
            if (is_p(&ps->tok, '|')) {
                /* d|p: only the first destination of setp, shfl and match has a partner */
                if (in.nopnd != 1 || ptx_op_info(in.op)->dst != PTX_DST_PAIR)
                    FAIL_TOK(ps, &ps->tok, "unexpected '|' in '%s'", optext);
                pair = 1;
                lex(ps);
                continue;
            }
            if (is_p(&ps->tok, ',')) { lex(ps); continue; }
            break;
        }
    }
    if (!is_p(&ps->tok, ';'))
        FAIL_TOK(ps, &ps->tok, "expected ';' after '%s', found '%s'", optext, tok_text(&ps->tok, b, sizeof b));
    check_insn(ps, &opt, &in, optext, testp_class, pair);
    lex(ps);
    grow(ps, (void **)&fb->f.insns, &fb->cap_insns, fb->f.ninsns + 1, sizeof *fb->f.insns);
    fb->f.insns[fb->f.ninsns++] = in;
}

/* ---- directives inside and outside functions ---------------------------------- */

/* .loc file line col [, function_name label[+n], inlined_at file line col]. Code inlined
 * through several functions (a header calling a header) names, in inlined_at, the
 * .loc of the call it was inlined at, itself inlined: the chain is followed back to
 * the line that is not inlined, i.e. the user's. */
static void parse_loc(parser *ps)
{
    lex(ps);
    int file = expect_small(ps, "file index");
    int line = expect_small(ps, "line");
    int col = expect_small(ps, "column");
    int own[3] = {file, line, col};
    while (is_p(&ps->tok, ',')) {
        lex(ps);
        if (is_w(&ps->tok, "function_name")) {
            lex(ps);
            char b[64];
            if (ps->tok.kind != TK_WORD || ps->tok.s[0] == '.')
                FAIL_TOK(ps, &ps->tok, "expected a label, found '%s'", tok_text(&ps->tok, b, sizeof b));
            lex(ps);
            if (is_p(&ps->tok, '+')) { lex(ps); expect_int(ps); }
        } else if (is_w(&ps->tok, "inlined_at")) {
            lex(ps);
            /* the line the compiler inlined this code into, or the inlined .loc it names */
            file = expect_small(ps, "file index");
            line = expect_small(ps, "line");
            col = expect_small(ps, "column");
            if (ps->cur)
                for (int i = ps->cur->nlocs - 1; i >= 0; i--) {   /* the latest .loc of that place */
                    const int *r = ps->cur->locs[i];
                    if (r[0] == file && r[1] == line && r[2] == col && (r[3] != file || r[4] != line)) {
                        file = r[3];
                        line = r[4];
                        break;
                    }
                }
        } else {
            char b[64];
            FAIL_TOK(ps, &ps->tok, "unsupported .loc attribute '%s'", tok_text(&ps->tok, b, sizeof b));
        }
    }
    if (ps->cur) {
        ps->cur->cur_file = file;
        ps->cur->cur_line = line;
        /* all of them: the call a chain names may lie hundreds of .locs back (a long inlined body) */
        grow(ps, (void **)&ps->cur->locs, &ps->cur->cap_locs, ps->cur->nlocs + 1, sizeof *ps->cur->locs);
        int *r = ps->cur->locs[ps->cur->nlocs++];
        r[0] = own[0]; r[1] = own[1]; r[2] = own[2]; r[3] = file; r[4] = line;
    }
}

static void parse_pragma(parser *ps)
{
    lex(ps);
    while (ps->tok.kind == TK_STR) {
        lex(ps);
        if (!is_p(&ps->tok, ',')) break;
        lex(ps);
    }
    expect_p(ps, ';');
}

/* .reg .type %a, %b<N>, ...; */
static void parse_reg_decl(parser *ps)
{
    char b[64];
    lex(ps);
    if (is_w(&ps->tok, ".v2") || is_w(&ps->tok, ".v4"))
        FAIL_TOK(ps, &ps->tok, "vector registers ('%s') are not supported", tok_text(&ps->tok, b, sizeof b));
    ptx_type t = expect_type(ps);
    for (;;) {
        token nt = ps->tok;
        const char *name = take_name(ps, "a register name");
        if (is_p(&ps->tok, '<')) {
            lex(ps);
            token at = ps->tok;
            int n = expect_small(ps, "register count");
            if (n > MAX_REG_RANGE) FAIL_TOK(ps, &at, "register range %.60s<%d> too large", name, n);
            expect_p(ps, '>');
            size_t len = strlen(name);
            char *rn = xcalloc(ps, len + 16, 1);  /* freed below: no fail_at between */
            memcpy(rn, name, len);
            for (int i = 0; i < n; i++) {
                int k = snprintf(rn + len, 16, "%d", i);
                const char *r = intern(ps, rn, len + (size_t)k);  /* out of memory: fatal, rn leaks once */
                int e = ht_find_ent(&ps->cur->regs_ht, r, len + (size_t)k);
                if (e >= 0 && ps->cur->regs_ht.ent[e].depth == ps->cur->depth) {
                    free(rn);
                    FAIL_TOK(ps, &nt, "register '%s' declared twice", r);
                }
                add_reg(ps, &nt, r, t);
            }
            free(rn);
        } else {
            add_reg(ps, &nt, name, t);
        }
        if (is_p(&ps->tok, ',')) { lex(ps); continue; }
        break;
    }
    expect_p(ps, ';');
}

/* A variable declared inside a function body. */
static void parse_local_var(parser *ps, ptx_space space)
{
    var_decl d;
    lex(ps);
    for (;;) {
        parse_var(ps, &d, space, false, false);
        if (space == PTX_SPACE_CONST || space == PTX_SPACE_GLOBAL) {
            /* function-scope .const/.global live in the module image like module ones */
            token at = d.at;
            add_module_var(ps, &d);
            int v = ps->nvars - 1;
            add_sym(ps, &at, &ps->vars[v].s, v, ps->vars[v].seq);
        } else {
            if (d.unsized) FAIL_TOK(ps, &d.at, "array '%s' has no size", d.s.name);
            add_sym(ps, &d.at, &d.s, -1, ps->seq++);
        }
        if (is_p(&ps->tok, ',')) { lex(ps); continue; }
        break;
    }
    expect_p(ps, ';');
}

static void parse_body(parser *ps)
{
    char b[64];
    func_builder *fb = ps->cur;
    token open = ps->tok;
    expect_p(ps, '{');
    fb->depth = 1;
    for (;;) {
        token t = ps->tok;
        if (t.kind == TK_EOF) FAIL_TOK(ps, &open, "function '%s' is not closed (missing '}')", fb->f.name);
        if (is_p(&t, '{')) {
            if (fb->depth >= (int)(sizeof fb->scope_regs / sizeof fb->scope_regs[0]))
                FAIL_TOK(ps, &t, "blocks nested too deeply%s", "");
            fb->scope_regs[fb->depth] = fb->regs_ht.n;
            fb->scope_syms[fb->depth] = fb->syms_ht.n;
            fb->scope_labels[fb->depth] = fb->labels_ht.n;
            fb->scope_nlabels[fb->depth] = fb->nlabels;
            fb->depth++;
            lex(ps);
            continue;
        }
        if (is_p(&t, '}')) {
            lex(ps);
            if (--fb->depth == 0) return;
            ht_pop_to(&fb->regs_ht, fb->scope_regs[fb->depth]);
            ht_pop_to(&fb->syms_ht, fb->scope_syms[fb->depth]);
            ht_pop_to(&fb->labels_ht, fb->scope_labels[fb->depth]);
            for (int l = fb->scope_nlabels[fb->depth]; l < fb->nlabels; l++) /* still only referenced: */
                if (fb->labels[l].insn < 0)                                  /* may be defined outside */
                    ht_put(ps, &fb->labels_ht, fb->labels[l].name, l, fb->depth);
            continue;
        }
        if (t.kind == TK_WORD && t.s[0] == '.') {
            if (is_w(&t, ".reg")) parse_reg_decl(ps);
            else if (is_w(&t, ".loc")) parse_loc(ps);
            else if (is_w(&t, ".pragma")) parse_pragma(ps);
            else if (space_word(&t) != PTX_SPACE_NONE) parse_local_var(ps, space_word(&t));
            else FAIL_TOK(ps, &t, "unsupported directive '%s' in a function body", tok_text(&t, b, sizeof b));
            continue;
        }
        if (t.kind == TK_WORD && t.s[0] != '%') {
            token n = peek2(ps);
            if (is_p(&n, ':')) {
                lex(ps);
                lex(ps);
                if (is_w(&ps->tok, ".callprototype") || is_w(&ps->tok, ".calltargets")) {
                    /* name: .callprototype (.param .b32 _) _ (.param .b64 _); names the shape an
                     * indirect call has; the callee's own parameters decide at run time */
                    grow(ps, (void **)&fb->protos, &fb->cap_protos, fb->nprotos + 1, sizeof *fb->protos);
                    fb->protos[fb->nprotos++] = intern(ps, t.s, (size_t)t.len);
                    while (!is_p(&ps->tok, ';')) {
                        if (ps->tok.kind == TK_EOF) FAIL_TOK(ps, &t, "'%s' is not ended by ';'", fb->protos[fb->nprotos - 1]);
                        lex(ps);
                    }
                    lex(ps);
                    continue;
                }
                add_label_fix(ps, &t, -1);
                continue;
            }
        }
        parse_insn(ps);
    }
}

/* .param declarations of a function header: ( .param .u64 a, .param .align 8 .b8 s[16] ) */
static void parse_params(parser *ps, bool is_ret)
{
    func_builder *fb = ps->cur;
    expect_p(ps, '(');
    if (is_p(&ps->tok, ')')) { lex(ps); return; }
    for (;;) {
        char b[64];
        if (!is_w(&ps->tok, ".param") && !is_w(&ps->tok, ".reg"))
            FAIL_TOK(ps, &ps->tok, "expected .param, found '%s'", tok_text(&ps->tok, b, sizeof b));
        if (is_w(&ps->tok, ".reg")) FAIL_TOK(ps, &ps->tok, ".reg parameters are not supported%s", "");
        lex(ps);
        var_decl d;
        parse_var(ps, &d, PTX_SPACE_PARAM, false, false);
        if (d.unsized) FAIL_TOK(ps, &d.at, "parameter '%s' has no size", d.s.name);
        d.s.kind = PTX_SYM_PARAM;
        int s = add_sym(ps, &d.at, &d.s, -1, ps->seq++);
        if (is_ret) {
            if (fb->retval_sym >= 0) FAIL_TOK(ps, &d.at, "more than one return value%s", "");
            fb->retval_sym = s;
        } else {
            grow(ps, (void **)&fb->f.param_syms, &fb->cap_params, fb->f.nparams + 1, sizeof *fb->f.param_syms);
            fb->f.param_syms[fb->f.nparams++] = s;
        }
        if (is_p(&ps->tok, ',')) { lex(ps); continue; }
        break;
    }
    expect_p(ps, ')');
}

/* Lays out params (then the return value), then the body's .param variables (call
 * arguments) in the function's parameter space, and the local frame. */
static void layout_function(parser *ps)
{
    func_builder *fb = ps->cur;
    ptx_function *f = &fb->f;
    uint64_t off = 0;
    for (int i = 0; i < f->nparams; i++) {
        ptx_symbol *s = &f->syms[f->param_syms[i]];
        off = align_up(off, s->align);
        s->offset = off;
        off += s->size;
    }
    f->retval_sym = fb->retval_sym;
    if (fb->retval_sym >= 0) {
        ptx_symbol *s = &f->syms[fb->retval_sym];
        off = align_up(off, s->align);
        s->offset = off;
        off += s->size;
    }
    f->param_bytes = off;
    f->arg_base = align_up(off, 16);
    uint64_t args = f->arg_base, local = 0;
    for (int i = 0; i < f->nsyms; i++) {
        ptx_symbol *s = &f->syms[i];
        if (s->kind != PTX_SYM_VAR) continue;
        if (s->space == PTX_SPACE_PARAM) {
            args = align_up(args, s->align);
            s->offset = args;
            args += s->size;
        } else if (s->space == PTX_SPACE_LOCAL) {
            local = align_up(local, s->align);
            s->offset = local;
            local += s->size;
        }
    }
    f->arg_bytes = args - f->arg_base;
    f->local_bytes = local;
}

static void resolve_labels(parser *ps)
{
    func_builder *fb = ps->cur;
    ptx_function *f = &fb->f;
    for (int i = 0; i < fb->nlabels; i++)
        if (fb->labels[i].insn < 0)
            fail_at(ps, fb->labels[i].line, fb->labels[i].col, "undefined label '%s'", fb->labels[i].name);
    for (int i = 0; i < fb->nfixes; i++) {
        label_fix *x = &fb->fixes[i];
        int target = fb->labels[x->label].insn;
        /* a label at the very end is legal PTX; branching there means "fall off": the
         * interpreter needs an instruction, so it is an error only if nothing follows */
        if (target >= f->ninsns) {
            label *l = &fb->labels[x->label];
            fail_at(ps, l->line, l->col, "label '%s' is not followed by an instruction", l->name);
        }
        f->insns[x->insn].opnd[x->opnd].target = target;
    }
}

static void add_proto(parser *ps, const char *name)
{
    grow(ps, (void **)&ps->protos, &ps->cap_protos, ps->nprotos + 1, sizeof *ps->protos);
    ps->protos[ps->nprotos++] = name;
}

/* Refuses fb with err (the first refusal stands); the .loc in force is src_file/src_line. */
static void refuse(parser *ps, func_builder *fb, const ws_error *err, int src_file, int src_line)
{
    if (fb->f.refusal) return;
    fb->f.refusal = malloc(sizeof *fb->f.refusal);
    if (!fb->f.refusal) oom(ps);
    *fb->f.refusal = *err;
    fb->f.refusal_src_file = src_file;
    fb->f.refusal_src_line = src_line;
}

/* Moves the lexer just past the '}' that matches the '{' token open, skipping
 * comments and strings as the lexer does; false when the text ends first. */
static bool skip_body(parser *ps, const token *open)
{
    const char *p = open->s, *ls = open->s - (open->col - 1);
    int line = open->line, depth = 0;
    for (; *p; p++) {
        if (*p == '\n') { line++; ls = p + 1; }
        else if (p[0] == '/' && p[1] == '/') { while (p[1] && p[1] != '\n') p++; }
        else if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p == '\n') { line++; ls = p + 1; }
            if (!*p) return false;
            p++;
        } else if (*p == '"') {
            while (p[1] && p[1] != '"' && p[1] != '\n') p++;
            if (p[1] == '"') p++;
        } else if (*p == '{') depth++;
        else if (*p == '}' && --depth == 0) {
            ps->pos.p = p + 1;
            ps->pos.line = line;
            ps->pos.line_start = ls;
            lex(ps);
            return true;
        }
    }
    return false;
}

/* Parses the body and resolves its labels. Something it cannot understand refuses
 * this function only (ptx_function.refusal; its instructions are dropped) and parsing
 * goes on after the closing brace; out of memory, and a failure in a body that never
 * closes, end the parse with that failure. */
static void parse_body_or_refuse(parser *ps, func_builder *fb)
{
    jmp_buf jb, *outer = ps->jb;
    ws_error *caller_err = ps->err;
    token open = ps->tok;
    int ncalls = ps->ncalls;
    ps->jb = &jb;
    ps->err = &ps->body_err;
    if (setjmp(jb) == 0) {
        parse_body(ps);
        resolve_labels(ps);
        ps->jb = outer;
        ps->err = caller_err;
        return;
    }
    ps->jb = outer;
    ps->err = caller_err;
    if (ps->fatal) {
        *caller_err = ps->body_err;
        longjmp(*outer, 1);
    }
    if (!skip_body(ps, &open)) {                 /* the text ends inside it: the failure stands */
        *caller_err = ps->body_err;
        longjmp(*outer, 1);
    }
    refuse(ps, fb, &ps->body_err, fb->cur_file, fb->cur_line);
    fb->f.ninsns = 0;                            /* half a body never runs */
    fb->nlabels = fb->nfixes = 0;
    ps->ncalls = ncalls;                         /* its call fixes pointed into the dropped body */
}

static void parse_function(parser *ps, bool is_entry, bool is_extern)
{
    char b[64];
    token kw = ps->tok;
    lex(ps);
    func_builder *fb = xcalloc(ps, 1, sizeof *fb);
    fb->retval_sym = -1;
    ps->cur = fb;
    fb->f.is_entry = is_entry;
    fb->f.ptx_line = kw.line;
    if (!is_entry && is_p(&ps->tok, '(')) parse_params(ps, true);
    token nt = ps->tok;
    fb->f.name = take_name(ps, "a function name");
    if (is_p(&ps->tok, '(')) parse_params(ps, false);
    for (;;) {
        token t = ps->tok;
        if (is_w(&t, ".maxntid") || is_w(&t, ".reqntid")) {
            int *dims = is_w(&t, ".maxntid") ? fb->f.maxntid : fb->f.reqntid;
            lex(ps);
            for (int i = 0; i < 3; i++) {
                dims[i] = expect_small(ps, "thread count");
                if (!is_p(&ps->tok, ',')) break;
                lex(ps);
            }
            for (int i = 0; i < 3; i++) if (!dims[i]) dims[i] = 1;
        } else if (is_w(&t, ".minnctapersm") || is_w(&t, ".maxnreg")) { /* launch bounds: sim/launch_bounds.c */
            int *v = is_w(&t, ".minnctapersm") ? &fb->f.minnctapersm : &fb->f.maxnreg;
            lex(ps);
            *v = expect_small(ps, "count");
        } else if (is_w(&t, ".maxnctapersm") || is_w(&t, ".maxclusterrank")) {
            lex(ps);
            expect_small(ps, "count");
        } else if (is_w(&t, ".reqnctapercluster")) {
            lex(ps);
            for (int i = 0; i < 3; i++) {
                fb->f.cluster[i] = expect_small(ps, "count");
                if (!is_p(&ps->tok, ',')) break;
                lex(ps);
            }
            for (int i = 0; i < 3; i++) if (!fb->f.cluster[i]) fb->f.cluster[i] = 1;
        } else if (is_w(&t, ".noreturn") || is_w(&t, ".explicitcluster")) {
            lex(ps);
        } else if (is_w(&t, ".pragma")) {
            parse_pragma(ps);
        } else break;
    }
    if (is_p(&ps->tok, ';')) { /* declaration only */
        lex(ps);
        add_proto(ps, fb->f.name);
        fb_free(fb);
        ps->cur = NULL;
        return;
    }
    if (is_extern) FAIL_TOK(ps, &ps->tok, ".extern function '%s' has a body", fb->f.name);
    if (!is_p(&ps->tok, '{')) FAIL_TOK(ps, &ps->tok, "expected '{' or ';' after function '%s', found '%s'", fb->f.name, tok_text(&ps->tok, b, sizeof b));
    for (int i = 0; i < ps->m->nfuncs; i++)
        if (!strcmp(ps->fb[i]->f.name, fb->f.name)) FAIL_TOK(ps, &nt, "function '%s' defined twice", fb->f.name);
    /* register it now so the error path frees it with the rest */
    int capf = ps->cap_funcs;
    grow(ps, (void **)&ps->fb, &capf, ps->m->nfuncs + 1, sizeof *ps->fb);
    grow(ps, (void **)&ps->m->funcs, &ps->cap_funcs, ps->m->nfuncs + 1, sizeof *ps->m->funcs);
    ps->fb[ps->m->nfuncs] = fb;
    parse_body_or_refuse(ps, fb);
    layout_function(ps);
    ps->m->nfuncs++;
    ps->cur = NULL;
}

static void parse_module_var(parser *ps, ptx_space space, bool is_extern)
{
    lex(ps);
    for (;;) {
        var_decl d;
        parse_var(ps, &d, space, is_extern, space == PTX_SPACE_CONST || space == PTX_SPACE_GLOBAL);
        if (d.unsized && !(space == PTX_SPACE_SHARED && is_extern))
            FAIL_TOK(ps, &d.at, "array '%s' has no size", d.s.name);
        if (space == PTX_SPACE_SHARED && is_extern && d.s.align < 16) d.s.align = 16; /* dynamic shared starts 16-aligned */
        add_module_var(ps, &d);
        if (is_p(&ps->tok, ',')) { lex(ps); continue; }
        break;
    }
    expect_p(ps, ';');
}

/* .section name { anything } : debug sections, skipped whole. */
static void skip_section(parser *ps)
{
    token at = ps->tok;
    lex(ps);
    if (ps->tok.kind == TK_WORD) lex(ps);
    if (!is_p(&ps->tok, '{')) return;
    int depth = 0;
    for (;;) {
        if (ps->tok.kind == TK_EOF) FAIL_TOK(ps, &at, "unterminated .section%s", "");
        if (is_p(&ps->tok, '{')) depth++;
        else if (is_p(&ps->tok, '}') && --depth == 0) { lex(ps); return; }
        lex(ps);
    }
}

static void parse_file_directive(parser *ps)
{
    char b[64];
    lex(ps);
    int idx = expect_small(ps, "file index");
    token s = ps->tok;
    if (s.kind != TK_STR) FAIL_TOK(ps, &s, "expected a file name in quotes, found '%s'", tok_text(&s, b, sizeof b));
    grow(ps, (void **)&ps->m->files, &ps->cap_files, ps->m->nfiles + 1, sizeof *ps->m->files);
    ptx_file_entry *f = &ps->m->files[ps->m->nfiles++];
    f->index = idx;
    int n = s.len - 2 < (int)sizeof f->path - 1 ? s.len - 2 : (int)sizeof f->path - 1;
    memcpy(f->path, s.s + 1, (size_t)n);
    f->path[n] = 0;
    lex(ps);
    while (is_p(&ps->tok, ',')) { lex(ps); expect_int(ps); } /* timestamp, size */
}

static void parse_module(parser *ps)
{
    char b[64];
    ptx_module *m = ps->m;
    lex(ps);
    bool seen_version = false;
    while (ps->tok.kind != TK_EOF) {
        token t = ps->tok;
        if (t.kind != TK_WORD || t.s[0] != '.')
            FAIL_TOK(ps, &t, "expected a directive, found '%s'", tok_text(&t, b, sizeof b));
        if (is_w(&t, ".version")) {
            lex(ps);
            token v = ps->tok;
            int maj = 0, min = 0, n = 0;
            char vb[32];
            if (v.kind != TK_NUM || v.len >= (int)sizeof vb) FAIL_TOK(ps, &v, "malformed .version '%s'", tok_text(&v, b, sizeof b));
            memcpy(vb, v.s, (size_t)v.len);
            vb[v.len] = 0;
            if (sscanf(vb, "%d.%d%n", &maj, &min, &n) != 2 || n != v.len)
                FAIL_TOK(ps, &v, "malformed .version '%s'", vb);
            m->version_major = maj;
            m->version_minor = min;
            seen_version = true;
            lex(ps);
        } else if (is_w(&t, ".target")) {
            lex(ps);
            for (;;) {
                token w = ps->tok;
                if (w.kind != TK_WORD) FAIL_TOK(ps, &w, "malformed .target '%s'", tok_text(&w, b, sizeof b));
                if (!m->target[0] && w.len < (int)sizeof m->target) { memcpy(m->target, w.s, (size_t)w.len); m->target[w.len] = 0; }
                lex(ps);
                if (!is_p(&ps->tok, ',')) break;
                lex(ps);
            }
        } else if (is_w(&t, ".address_size")) {
            lex(ps);
            token v = ps->tok;
            m->address_size = expect_small(ps, "address size");
            if (m->address_size != 64 && m->address_size != 32) FAIL_TOK(ps, &v, ".address_size %d", m->address_size);
            if (m->address_size == 32) FAIL_TOK(ps, &v, "32-bit addressing is not supported%s", "");
        } else if (is_w(&t, ".file")) {
            parse_file_directive(ps);
        } else if (is_w(&t, ".section")) {
            skip_section(ps);
        } else if (is_w(&t, ".pragma")) {
            parse_pragma(ps);
        } else {
            if (!seen_version) FAIL_TOK(ps, &t, "'%s' before .version", tok_text(&t, b, sizeof b));
            bool is_extern = false;
            while (is_w(&ps->tok, ".visible") || is_w(&ps->tok, ".weak") || is_w(&ps->tok, ".extern") ||
                   is_w(&ps->tok, ".common")) {
                if (is_w(&ps->tok, ".extern")) is_extern = true;
                lex(ps);
            }
            token d = ps->tok;
            if (is_w(&d, ".entry")) parse_function(ps, true, is_extern);
            else if (is_w(&d, ".func")) parse_function(ps, false, is_extern);
            else if (is_w(&d, ".global") || is_w(&d, ".const") || is_w(&d, ".shared") || is_w(&d, ".local"))
                parse_module_var(ps, space_word(&d), is_extern);
            else FAIL_TOK(ps, &d, "unsupported directive '%s'", tok_text(&d, b, sizeof b));
        }
    }
    if (!seen_version) fail_at(ps, 1, 1, "no .version directive: this is not PTX");
    if (!m->address_size) m->address_size = 64;
}

/* ---- whole-module resolution ---------------------------------------------------- */

/* Shared layout (ptx.h): static shared variables a function references, in
 * declaration order, each aligned; dynamic (extern) shared after them aligned
 * to max(16, its .align). Module variables that a .func references are placed
 * first, at the same offsets in every function that reaches such a .func, so a
 * callee and its callers agree on addresses. */
static void finish_shared(parser *ps, const bool *reaches)
{
    ptx_module *m = ps->m;
    /* fixed prefix: module shared vars used by any .func, in declaration order */
    uint64_t prefix_end = 0;
    uint64_t *prefix_off = xcalloc(ps, (size_t)ps->nvars + 1, sizeof *prefix_off);
    for (int v = 0; v < ps->nvars; v++) {
        modvar *mv = &ps->vars[v];
        if (mv->s.space != PTX_SPACE_SHARED || mv->s.is_extern || !mv->used_by_func) continue;
        prefix_end = align_up(prefix_end, mv->s.align);
        prefix_off[v] = prefix_end;
        prefix_end += mv->s.size;
    }
    for (int fi = 0; fi < m->nfuncs; fi++) {
        func_builder *fb = ps->fb[fi];
        ptx_function *f = &fb->f;
        bool use_prefix = reaches[fi];
        uint64_t off = use_prefix ? prefix_end : 0;
        /* symbols in declaration order: selection by increasing seq */
        int n = f->nsyms;
        int *order = xcalloc(ps, (size_t)n + 1, sizeof *order);
        int k = 0;
        for (int i = 0; i < n; i++)
            if (f->syms[i].space == PTX_SPACE_SHARED && f->syms[i].kind == PTX_SYM_VAR) order[k++] = i;
        for (int i = 1; i < k; i++) /* insertion sort by declaration order; k is small */
            for (int j = i; j > 0 && fb->sym_seq[order[j - 1]] > fb->sym_seq[order[j]]; j--) {
                int tmp = order[j]; order[j] = order[j - 1]; order[j - 1] = tmp;
            }
        uint64_t dyn_align = 16;
        for (int i = 0; i < k; i++) {
            ptx_symbol *s = &f->syms[order[i]];
            int mv = fb->sym_modvar[order[i]];
            if (s->is_extern) {
                if (s->align > dyn_align) dyn_align = s->align;
                continue;
            }
            if (use_prefix && mv >= 0 && ps->vars[mv].used_by_func) {
                s->offset = prefix_off[mv];
                continue;
            }
            off = align_up(off, s->align);
            s->offset = off;
            off += s->size;
        }
        f->static_shared_bytes = off;
        f->dyn_shared_offset = align_up(off, dyn_align);
        for (int i = 0; i < k; i++)
            if (f->syms[order[i]].is_extern) f->syms[order[i]].offset = f->dyn_shared_offset;
        free(order);
    }
    free(prefix_off);
}

/* A name in an initialiser: a function's address goes into the image; anything else
 * (the address of a variable) refuses every function that uses the variable. */
static void resolve_init(parser *ps, const init_fix *x)
{
    ptx_module *m = ps->m;
    if (x->var < 0 || x->var >= ps->nvars) return;
    const modvar *v = &ps->vars[x->var];
    int target = -1;
    for (int f = 0; f < m->nfuncs; f++)
        if (!strcmp(ps->fb[f]->f.name, x->name)) target = f;
    if (target >= 0 && x->size == 8) {
        uint8_t *img = v->s.space == PTX_SPACE_CONST ? m->const_image : m->global_image;
        uint64_t a = PTX_FUNC_ADDRESS(target);
        memcpy(img + x->offset, &a, 8);          /* little-endian, as the GPU */
        return;
    }
    ws_error e;
    if (target >= 0)
        ws_error_set(&e, ps->path, x->line, x->col, "the initialiser of '%.150s' puts the address of '%.150s' in %d "
                     "bytes (a function address needs 8)", v->s.name, x->name, x->size);
    else
        ws_error_set(&e, ps->path, x->line, x->col, "the initialiser of '%.150s' takes the address of '%.150s' "
                     "(only function addresses are supported in initialisers)", v->s.name, x->name);
    for (int f = 0; f < m->nfuncs; f++) {
        func_builder *fb = ps->fb[f];
        for (int s = 0; s < fb->f.nsyms; s++)
            if (fb->sym_modvar[s] == x->var) { refuse(ps, fb, &e, 0, 0); break; }
    }
}

/* The function a call or a function address names: its index, a PTX_CALLEE_* the
 * simulator runs itself (printf, assert), or the caller is refused. */
static void resolve_call(parser *ps, const call_fix *c)
{
    ptx_module *m = ps->m;
    func_builder *fb = ps->fb[c->func];
    ptx_insn *in = &fb->f.insns[c->insn];
    int target = PTX_CALLEE_UNRESOLVED;
    for (int f = 0; f < m->nfuncs; f++)
        if (!strcmp(ps->fb[f]->f.name, c->name)) target = f;
    bool declared = false;
    for (int p = 0; p < ps->nprotos && !declared; p++) declared = !strcmp(ps->protos[p], c->name);
    if (target < 0 && declared && c->is_call) {
        if (!strcmp(c->name, "vprintf")) target = PTX_CALLEE_VPRINTF;
        else if (!strcmp(c->name, "__assertfail")) target = PTX_CALLEE_ASSERTFAIL;
    }
    in->opnd[c->opnd].target = target;
    if (target != PTX_CALLEE_UNRESOLVED) return;
    ws_error e;
    if (declared && c->is_call)
        ws_error_set(&e, ps->path, c->line, c->col, "call to '%.200s', which this PTX declares but does not define "
                     "(of the library functions the simulator runs printf and assert)", c->name);
    else if (declared)
        ws_error_set(&e, ps->path, c->line, c->col, "the address of '%.200s', which this PTX declares but does not "
                     "define", c->name);
    else if (c->is_call)
        ws_error_set(&e, ps->path, c->line, c->col, "call to unknown function '%.200s'", c->name);
    else
        ws_error_set(&e, ps->path, c->line, c->col, "unknown name '%.200s'", c->name);
    refuse(ps, fb, &e, in->src_file, in->src_line);
}

/* wgmma and setmaxnreg exist only on the architecture-specific target sm_90a (PTX ISA, "Target
 * ISA notes"): ptxas refuses them under .target sm_90, and so does the simulator, per function,
 * naming the instruction and the way to ask for sm_90a. */
static bool arch_specific_op(ptx_opcode op)
{
    return op == PTX_WGMMA_MMA || op == PTX_WGMMA_FENCE || op == PTX_WGMMA_COMMIT || op == PTX_WGMMA_WAIT ||
           op == PTX_SETMAXNREG;
}

static void refuse_arch_specific(parser *ps)
{
    const char *t = ps->m->target;
    size_t n = strlen(t);
    if (!n || t[n - 1] == 'a' || strncmp(t, "sm_", 3)) return;        /* sm_90a, or no sm_ target */
    for (int f = 0; f < ps->m->nfuncs; f++) {
        func_builder *fb = ps->fb[f];
        for (int i = 0; i < fb->f.ninsns && !fb->f.refusal; i++) {
            const ptx_insn *in = &fb->f.insns[i];
            if (!arch_specific_op(in->op)) continue;
            ws_error e;
            ws_error_set(&e, ps->path, in->ptx_line, 0, "%s exists only on the architecture-specific target sm_90a, "
                         "and this PTX's .target is %s (ptxas refuses it there too): ask for sm_90a with a "
                         "description line 'target sm_90a' (nvcc: -arch=sm_90a)", ptx_opcode_name(in->op), t);
            refuse(ps, fb, &e, in->src_file, in->src_line);
        }
    }
}

static void finish_module(parser *ps)
{
    ptx_module *m = ps->m;
    refuse_arch_specific(ps);
    /* calls and function addresses */
    for (int i = 0; i < ps->ncalls; i++) resolve_call(ps, &ps->calls[i]);
    for (int i = 0; i < ps->nifix; i++) resolve_init(ps, &ps->ifix[i]);
    /* which functions reach (call, transitively) a .func that names module shared memory */
    bool *reaches = xcalloc(ps, (size_t)m->nfuncs + 1, sizeof *reaches);
    for (int f = 0; f < m->nfuncs; f++) {
        func_builder *fb = ps->fb[f];
        if (fb->f.is_entry) continue;
        for (int s = 0; s < fb->f.nsyms; s++)
            if (fb->sym_modvar[s] >= 0 && fb->f.syms[s].space == PTX_SPACE_SHARED) reaches[f] = true;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < ps->ncalls; i++) {
            int caller = ps->calls[i].func;
            int callee = ps->fb[caller]->f.insns[ps->calls[i].insn].opnd[ps->calls[i].opnd].target;
            if (callee >= 0 && reaches[callee] && !reaches[caller]) reaches[caller] = changed = true;
        }
    }
    /* a caller lays out the callee's module shared variables too: bring them into its table */
    for (int i = 0; i < ps->ncalls; i++) {
        int caller = ps->calls[i].func;
        if (!reaches[caller]) continue;
        ps->cur = ps->fb[caller];
        for (int v = 0; v < ps->nvars; v++)
            if (ps->vars[v].used_by_func && ps->vars[v].s.space == PTX_SPACE_SHARED && !ps->vars[v].s.is_extern)
                find_sym(ps, ps->vars[v].s.name, strlen(ps->vars[v].s.name));
        ps->cur = NULL;
    }
    finish_shared(ps, reaches);
    free(reaches);
    /* initialiser pointers into the final images */
    for (int f = 0; f < m->nfuncs; f++) {
        func_builder *fb = ps->fb[f];
        for (int s = 0; s < fb->f.nsyms; s++) {
            ptx_symbol *sym = &fb->f.syms[s];
            int v = fb->sym_modvar[s];
            if (v < 0 || !ps->vars[v].s.init) { if (v >= 0) sym->init = NULL; continue; }
            sym->init = (sym->space == PTX_SPACE_CONST ? m->const_image : m->global_image) + sym->offset;
        }
    }
    /* hand the functions over */
    for (int f = 0; f < m->nfuncs; f++) {
        m->funcs[f] = ps->fb[f]->f;
        memset(&ps->fb[f]->f, 0, sizeof ps->fb[f]->f);
    }
}

static void parser_free(parser *ps)
{
    if (ps->cur) {
        bool registered = false;
        for (int i = 0; i < (ps->m ? ps->m->nfuncs + 1 : 0) && ps->fb && i < ps->cap_funcs; i++)
            if (ps->fb[i] == ps->cur) registered = true;
        if (!registered) fb_free(ps->cur);
    }
    if (ps->fb && ps->m)
        for (int i = 0; i <= ps->m->nfuncs && i < ps->cap_funcs; i++) fb_free(ps->fb[i]);
    free(ps->fb);
    free(ps->vars);
    ht_free(&ps->vars_ht);
    free(ps->calls);
    free(ps->ifix);
    free(ps->protos);
    free(ps->pending_init);
}

/* The module's setjmp (function bodies have their own): true when the whole module parsed. */
static bool run_parser(parser *ps)
{
    jmp_buf jb;
    ps->jb = &jb;
    if (setjmp(jb)) return false;
    parse_module(ps);
    finish_module(ps);
    return true;
}

ptx_module *ptx_parse(const char *path, const char *text, ws_error *err)
{
    parser *ps = calloc(1, sizeof *ps);
    ptx_module *m = calloc(1, sizeof *m);
    if (!ps || !m) {
        free(ps);
        free(m);
        ws_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    ps->path = path ? path : "<ptx>";
    ps->text = text ? text : "";
    ps->pos.p = ps->text;
    ps->pos.line = 1;
    ps->pos.line_start = ps->text;
    ps->err = err;
    ps->m = m;
    snprintf(m->path, sizeof m->path, "%s", ps->path);
    if (!run_parser(ps)) {
        parser_free(ps);
        /* no function was handed over to the module yet: the builders held them all */
        ps->m->nfuncs = 0;
        ptx_free(ps->m);
        free(ps);
        return NULL;
    }
    /* builders are empty shells now */
    for (int i = 0; i < m->nfuncs; i++) { fb_free(ps->fb[i]); ps->fb[i] = NULL; }
    ps->cur = NULL;
    parser_free(ps);
    free(ps);
    if (ptx_check_module(m, text ? text : "", err)) { /* what ptxas would refuse (sim/frontend/ptx_check.c) */
        ptx_free(m);
        return NULL;
    }
    return m;
}

ptx_module *ptx_load(const char *path, ws_error *err)
{
    size_t len;
    char *buf = ws_read_file(path, 0, &len, err);
    if (!buf)
        return NULL;
    int line;
    if (ws_text_has_nul(buf, len, &line, NULL)) { /* a NUL would silently end the text early */
        free(buf);
        ws_error_set(err, path, line, 0, "NUL byte in PTX text (binary file?)");
        return NULL;
    }
    ptx_module *m = ptx_parse(path, buf, err);
    free(buf);
    return m;
}

void ptx_free(ptx_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].param_syms);
        free(m->funcs[i].regs);
        free(m->funcs[i].syms);
        free(m->funcs[i].insns);
        free(m->funcs[i].call_args);
        free(m->funcs[i].wide);
        free(m->funcs[i].refusal);
    }
    free(m->funcs);
    free(m->files);
    free(m->const_image);
    free(m->global_image);
    for (struct ptx_names *c = m->names, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(m);
}

const ptx_function *ptx_refused_reach(const ptx_module *m, const ptx_function *fn, const ptx_function **via)
{
    if (via) *via = fn;
    if (!m || !fn) return NULL;
    if (fn->refusal) return fn;
    int n = m->nfuncs, root = -1;
    for (int i = 0; i < n; i++)
        if (&m->funcs[i] == fn) root = i;
    if (root < 0) return NULL;
    int *queue = malloc((size_t)n * 2 * sizeof *queue), *from = queue + n;
    if (!queue) return NULL;                     /* the interpreter refuses an unresolved callee itself */
    for (int i = 0; i < n; i++) from[i] = -1;
    int qh = 0, qt = 0;
    queue[qt++] = root;
    from[root] = root;
    const ptx_function *bad = NULL;
    while (qh < qt && !bad) {                   /* breadth first: the nearest refused function */
        const ptx_function *f = &m->funcs[queue[qh++]];
        for (int i = 0; i < f->ninsns && !bad; i++) {
            const ptx_insn *in = &f->insns[i];
            for (int k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
                const ptx_operand *o = &in->opnd[k];
                bool names = o->kind == PTX_OPND_FUNC || (in->op == PTX_CALL && k == 1 && o->kind == PTX_OPND_LABEL);
                if (!names || o->target < 0 || o->target >= n || from[o->target] >= 0) continue;
                from[o->target] = (int)(f - m->funcs);
                if (m->funcs[o->target].refusal) { bad = &m->funcs[o->target]; break; }
                queue[qt++] = o->target;
            }
        }
    }
    if (bad && via) *via = &m->funcs[from[bad - m->funcs]];
    free(queue);
    return bad;
}

/* "_Z15transpose_naivePfS_ii" -> "transpose_naive" (plain, non-nested names only). */
static bool mangled_base(const char *mangled, const char **base, size_t *len)
{
    if (strncmp(mangled, "_Z", 2) || !isdigit((unsigned char)mangled[2])) return false;
    char *end;
    unsigned long n = strtoul(mangled + 2, &end, 10);
    if (n == 0 || n > strlen(end)) return false;
    *base = end;
    *len = n;
    return true;
}

const ptx_function *ptx_find_function(const ptx_module *m, const char *name)
{
    if (!m || !name) return NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name)) return &m->funcs[i];
    const ptx_function *found = NULL;
    for (int i = 0; i < m->nfuncs; i++) {
        const char *b;
        size_t n;
        if (mangled_base(m->funcs[i].name, &b, &n) && n == strlen(name) && !memcmp(b, name, n)) {
            if (m->funcs[i].is_entry) return &m->funcs[i]; /* prefer a kernel over a device function */
            if (!found) found = &m->funcs[i];
        }
    }
    return found;
}
