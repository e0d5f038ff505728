/* expr.c - the integer expressions of kernel descriptions (grammar in desc.h):
 * a recursive-descent parser into a flat node pool and a checked evaluator.
 * Invariant: evaluation never performs C undefined behaviour - every overflow,
 * division by zero and bad shift is a ws_error at the operator's column, and
 * tree depth is bounded so neither parsing nor evaluation can exhaust the stack. */
#include "desc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_MAX_DEPTH 200      /* nesting (parens, unary chains, long a+b+c+... chains) */

typedef enum {
    OP_NUM, OP_NAME,
    OP_NEG, OP_NOT,             /* unary - and ~ */
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    OP_AND, OP_XOR, OP_OR,
    OP_COND,                    /* a ? b : c */
    OP_MIN, OP_MAX, OP_CDIV
} expr_op;

typedef struct {
    expr_op op;
    int a, b, c;                /* child node indices, -1 = none */
    int col;                    /* column of the operator / literal / name in the file */
    int depth;                  /* height of the subtree, bounded by EXPR_MAX_DEPTH */
    int64_t value;              /* OP_NUM */
    char name[WS_NAME_MAX];     /* OP_NAME */
} expr_node;

struct ws_expr {
    char *file;                 /* copy of the file name for messages */
    char *src;                  /* copy of the source text */
    int line, col;              /* where src[0] sits in the file */
    int nnodes, cap;
    expr_node *nodes;
    int root;
};

typedef struct {
    const char *s;
    size_t pos;
    ws_expr *e;
    ws_error *err;
    int depth;                  /* current recursion depth of the parser */
} parser;

static int col_at(const parser *p, size_t pos) { return p->e->col + (int)pos; }

static int fail(parser *p, size_t pos, const char *msg)
{
    ws_error_set(p->err, p->e->file, p->e->line, col_at(p, pos), "%s", msg);
    return -1;
}

static void skip_ws(parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\r' || p->s[p->pos] == '\n')
        p->pos++;
}

/* Adds a node; returns its index or -1 (error set) when out of memory or too deep. */
static int add_node(parser *p, expr_op op, int a, int b, int c, size_t pos)
{
    ws_expr *e = p->e;
    int depth = 0;
    int kids[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (kids[i] >= 0 && e->nodes[kids[i]].depth > depth) depth = e->nodes[kids[i]].depth;
    depth++;
    if (depth > EXPR_MAX_DEPTH)
        return fail(p, pos, "expression too deeply nested (more than 200 levels)");
    if (e->nnodes == e->cap) {
        int ncap = e->cap ? e->cap * 2 : 16;
        expr_node *n = realloc(e->nodes, (size_t)ncap * sizeof *n);
        if (!n) return fail(p, pos, "out of memory");
        e->nodes = n;
        e->cap = ncap;
    }
    expr_node *n = &e->nodes[e->nnodes];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->a = a; n->b = b; n->c = c;
    n->col = col_at(p, pos);
    n->depth = depth;
    return e->nnodes++;
}

static int is_ident_start(int c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(int c) { return isalnum((unsigned char)c) || c == '_'; }

static int parse_cond(parser *p);

static int enter(parser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH) return fail(p, p->pos, "expression too deeply nested (more than 200 levels)");
    return 0;
}

/* Integer literal: decimal or 0x hex; a letter or digit glued on is an error. */
static int parse_number(parser *p)
{
    size_t start = p->pos;
    const char *s = p->s;
    uint64_t v = 0;
    int base = 10;
    if (s[p->pos] == '0' && (s[p->pos + 1] == 'x' || s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
        if (!isxdigit((unsigned char)s[p->pos])) return fail(p, start, "hex literal needs digits after 0x");
    }
    while (base == 16 ? isxdigit((unsigned char)s[p->pos]) : isdigit((unsigned char)s[p->pos])) {
        int c = s[p->pos];
        unsigned d = isdigit((unsigned char)c) ? (unsigned)(c - '0') : (unsigned)(tolower(c) - 'a' + 10);
        if (v > ((uint64_t)INT64_MAX - d) / (uint64_t)base)
            return fail(p, start, "integer literal too large (the limit is 9223372036854775807)");
        v = v * (uint64_t)base + d;
        p->pos++;
    }
    if (is_ident_char(s[p->pos]) || s[p->pos] == '.') {
        if (s[p->pos] == '.' || ((s[p->pos] == 'e' || s[p->pos] == 'E' || s[p->pos] == 'f') && base == 10))
            return fail(p, start, "floating-point number in an integer expression");
        return fail(p, p->pos, "bad character in a number");
    }
    int n = add_node(p, OP_NUM, -1, -1, -1, start);
    if (n >= 0) p->e->nodes[n].value = (int64_t)v;
    return n;
}

static int expect_char(parser *p, char c, size_t open_pos, const char *what)
{
    skip_ws(p);
    if (p->s[p->pos] == c) {
        p->pos++;
        return 0;
    }
    if (c == ')' && (p->s[p->pos] == '\0' || p->s[p->pos] == ','))
        return fail(p, open_pos, "unbalanced parentheses: this '(' is never closed");
    char msg[96];
    snprintf(msg, sizeof msg, "expected '%c' %s", c, what);
    return fail(p, p->pos, msg);
}

static int parse_unary(parser *p);

static int parse_primary(parser *p)
{
    skip_ws(p);
    const char *s = p->s;
    size_t start = p->pos;
    int c = (unsigned char)s[p->pos];
    if (isdigit(c)) return parse_number(p);
    if (c == '(') {
        p->pos++;
        if (enter(p)) return -1;
        int n = parse_cond(p);
        p->depth--;
        if (n < 0) return -1;
        if (expect_char(p, ')', start, "to close '('")) return -1;
        return n;
    }
    if (is_ident_start(c)) {
        size_t len = 0;
        while (is_ident_char(s[p->pos + len])) len++;
        if (len >= WS_NAME_MAX) return fail(p, start, "name too long (at most 63 characters)");
        char name[WS_NAME_MAX];
        memcpy(name, s + start, len);
        name[len] = '\0';
        p->pos += len;
        size_t after = p->pos;
        skip_ws(p);
        if (s[p->pos] == '(') {
            expr_op op;
            if (!strcmp(name, "min")) op = OP_MIN;
            else if (!strcmp(name, "max")) op = OP_MAX;
            else if (!strcmp(name, "cdiv")) op = OP_CDIV;
            else {
                char msg[128];
                snprintf(msg, sizeof msg, "unknown function '%s' (known: min, max, cdiv)", name);
                return fail(p, start, msg);
            }
            size_t open = p->pos++;
            if (enter(p)) return -1;
            int a = parse_cond(p);
            if (a < 0) return -1;
            skip_ws(p);
            if (s[p->pos] != ',') {
                if (s[p->pos] == ')' || s[p->pos] == '\0') {
                    char msg[96];
                    snprintf(msg, sizeof msg, "%s() takes two arguments", name);
                    return fail(p, s[p->pos] == ')' ? p->pos : open, msg);
                }
                return fail(p, p->pos, "expected ',' between function arguments");
            }
            p->pos++;
            int b = parse_cond(p);
            if (b < 0) return -1;
            p->depth--;
            skip_ws(p);
            if (s[p->pos] == ',') {
                char msg[96];
                snprintf(msg, sizeof msg, "%s() takes two arguments", name);
                return fail(p, p->pos, msg);
            }
            if (expect_char(p, ')', open, "to close the argument list")) return -1;
            return add_node(p, op, a, b, -1, start);
        }
        p->pos = after;
        int n = add_node(p, OP_NAME, -1, -1, -1, start);
        if (n >= 0) memcpy(p->e->nodes[n].name, name, len + 1);
        return n;
    }
    if (c == '\0') return fail(p, start, "expected an expression");
    if (c == ')') return fail(p, start, "unbalanced parentheses: ')' without a matching '('");
    char msg[64];
    if (isprint(c)) snprintf(msg, sizeof msg, "unexpected '%c' where an operand was expected", c);
    else snprintf(msg, sizeof msg, "unexpected byte 0x%02x where an operand was expected", c);
    return fail(p, start, msg);
}

static int parse_unary(parser *p)
{
    skip_ws(p);
    size_t start = p->pos;
    char c = p->s[p->pos];
    if (c == '-' || c == '~' || c == '+') {
        p->pos++;
        if (enter(p)) return -1;
        int a = parse_unary(p);
        p->depth--;
        if (a < 0) return -1;
        if (c == '+') return a;
        return add_node(p, c == '-' ? OP_NEG : OP_NOT, a, -1, -1, start);
    }
    return parse_primary(p);
}

/* Binary operator table, by precedence level (C's order, without && and ||). */
typedef struct { const char *tok; expr_op op; } binop;
static const binop level_mul[] = {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {NULL, 0}};
static const binop level_add[] = {{"+", OP_ADD}, {"-", OP_SUB}, {NULL, 0}};
static const binop level_shift[] = {{"<<", OP_SHL}, {">>", OP_SHR}, {NULL, 0}};
static const binop level_rel[] = {{"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}, {NULL, 0}};
static const binop level_eq[] = {{"==", OP_EQ}, {"!=", OP_NE}, {NULL, 0}};
static const binop level_and[] = {{"&", OP_AND}, {NULL, 0}};
static const binop level_xor[] = {{"^", OP_XOR}, {NULL, 0}};
static const binop level_or[] = {{"|", OP_OR}, {NULL, 0}};
static const binop *const levels[] = {level_or, level_xor, level_and, level_eq, level_rel,
                                      level_shift, level_add, level_mul};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

/* Matches an operator of this level at the cursor, refusing prefixes of longer
 * operators of other levels ('<' must not eat "<<", '&' must not eat "&&"). */
static const binop *match_op(const parser *p, const binop *ops)
{
    const char *s = p->s + p->pos;
    for (const binop *o = ops; o->tok; o++) {
        size_t n = strlen(o->tok);
        if (strncmp(s, o->tok, n)) continue;
        if (n == 1 && (o->op == OP_LT || o->op == OP_GT) && (s[1] == s[0] || s[1] == '=')) continue;
        if (n == 1 && (o->op == OP_AND || o->op == OP_OR) && s[1] == s[0]) continue;
        return o;
    }
    return NULL;
}

static int parse_level(parser *p, int level)
{
    if (level == NLEVELS) return parse_unary(p);
    int left = parse_level(p, level + 1);
    if (left < 0) return -1;
    for (;;) {
        skip_ws(p);
        const binop *o = match_op(p, levels[level]);
        if (!o) return left;
        size_t at = p->pos;
        p->pos += strlen(o->tok);
        int right = parse_level(p, level + 1);
        if (right < 0) return -1;
        left = add_node(p, o->op, left, right, -1, at);
        if (left < 0) return -1;
    }
}

static int parse_cond(parser *p)
{
    int c = parse_level(p, 0);
    if (c < 0) return -1;
    skip_ws(p);
    if (p->s[p->pos] != '?') return c;
    size_t q = p->pos++;
    if (enter(p)) return -1;
    int a = parse_cond(p);
    if (a < 0) return -1;
    skip_ws(p);
    if (p->s[p->pos] != ':') return fail(p, p->s[p->pos] ? p->pos : q, "expected ':' to complete '?:'");
    p->pos++;
    int b = parse_cond(p);
    if (b < 0) return -1;
    p->depth--;
    return add_node(p, OP_COND, c, a, b, q);
}

ws_expr *ws_expr_parse(const char *src, const char *file, int line, int col, ws_error *err)
{
    ws_expr *e = calloc(1, sizeof *e);
    if (!e) {
        ws_error_set(err, file, line, col, "out of memory");
        return NULL;
    }
    e->file = strdup(file ? file : "");
    e->src = strdup(src ? src : "");
    e->line = line;
    e->col = col > 0 ? col : 1;
    e->root = -1;
    if (!e->file || !e->src) {
        ws_error_set(err, file, line, col, "out of memory");
        ws_expr_free(e);
        return NULL;
    }
    parser p = {e->src, 0, e, err, 0};
    int root = parse_cond(&p);
    if (root >= 0) {
        skip_ws(&p);
        char c = p.s[p.pos];
        if (c == ')') root = fail(&p, p.pos, "unbalanced parentheses: ')' without a matching '('");
        else if (c == ':') root = fail(&p, p.pos, "':' without a matching '?'");
        else if (is_ident_char(c)) {     /* name the whole word: "unexpected 'outptu'" */
            size_t len = 0;
            while (is_ident_char(p.s[p.pos + len]) && len < 40) len++;
            char msg[96];
            snprintf(msg, sizeof msg, "unexpected '%.*s' after the expression", (int)len, p.s + p.pos);
            root = fail(&p, p.pos, msg);
        } else if (c != '\0') {
            char msg[96];
            if (isprint((unsigned char)c)) snprintf(msg, sizeof msg, "unexpected '%c' after the expression", c);
            else snprintf(msg, sizeof msg, "unexpected byte 0x%02x after the expression", (unsigned char)c);
            root = fail(&p, p.pos, msg);
        }
    }
    if (root < 0) {
        ws_expr_free(e);
        return NULL;
    }
    e->root = root;
    return e;
}

void ws_expr_free(ws_expr *e)
{
    if (!e) return;
    free(e->file);
    free(e->src);
    free(e->nodes);
    free(e);
}

const char *ws_expr_source(const ws_expr *e) { return e ? e->src : ""; }

void ws_expr_location(const ws_expr *e, int *line, int *col)
{
    *line = e ? e->line : 0;
    *col = e ? e->col : 0;
}

/* ----------------------------------------------------------------------------
 * Evaluation */

typedef struct {
    const ws_expr *e;
    int n;
    const char (*names)[WS_NAME_MAX];
    const int64_t *values;
    ws_error *err;
} evaluator;

static int eval_fail(const evaluator *ev, const expr_node *n, const char *msg)
{
    ws_error_set(ev->err, ev->e->file, ev->e->line, n->col, "%s", msg);
    return -1;
}

static int eval_node(const evaluator *ev, int idx, int64_t *out)
{
    const expr_node *n = &ev->e->nodes[idx];
    int64_t a = 0, b = 0;
    switch (n->op) {
    case OP_NUM:
        *out = n->value;
        return 0;
    case OP_NAME:
        for (int i = ev->n - 1; i >= 0; i--)
            if (!strcmp(ev->names[i], n->name)) {
                *out = ev->values[i];
                return 0;
            }
        {
            char msg[WS_NAME_MAX + 32];
            snprintf(msg, sizeof msg, "unknown parameter '%s'", n->name);
            return eval_fail(ev, n, msg);
        }
    case OP_COND:                       /* only the chosen branch is evaluated */
        if (eval_node(ev, n->a, &a)) return -1;
        return eval_node(ev, a ? n->b : n->c, out);
    default:
        break;
    }
    if (eval_node(ev, n->a, &a)) return -1;
    if (n->b >= 0 && eval_node(ev, n->b, &b)) return -1;
    switch (n->op) {
    case OP_NEG:
        if (a == INT64_MIN) return eval_fail(ev, n, "integer overflow in unary '-'");
        *out = -a;
        return 0;
    case OP_NOT: *out = ~a; return 0;
    case OP_ADD:
        if (__builtin_add_overflow(a, b, out)) return eval_fail(ev, n, "integer overflow in '+'");
        return 0;
    case OP_SUB:
        if (__builtin_sub_overflow(a, b, out)) return eval_fail(ev, n, "integer overflow in '-'");
        return 0;
    case OP_MUL:
        if (__builtin_mul_overflow(a, b, out)) return eval_fail(ev, n, "integer overflow in '*'");
        return 0;
    case OP_DIV:
    case OP_MOD:
    case OP_CDIV: {
        const char *what = n->op == OP_DIV ? "'/'" : n->op == OP_MOD ? "'%'" : "cdiv()";
        char msg[64];
        if (b == 0) {
            snprintf(msg, sizeof msg, "division by zero in %s", what);
            return eval_fail(ev, n, msg);
        }
        if (a == INT64_MIN && b == -1) {
            if (n->op == OP_MOD) { *out = 0; return 0; }
            snprintf(msg, sizeof msg, "integer overflow in %s", what);
            return eval_fail(ev, n, msg);
        }
        if (n->op == OP_DIV) *out = a / b;
        else if (n->op == OP_MOD) *out = a % b;
        else {                          /* ceiling: round the truncated quotient up when exact is above it */
            int64_t q = a / b;
            if (a % b != 0 && ((a < 0) == (b < 0))) q++;
            *out = q;
        }
        return 0;
    }
    case OP_SHL:
    case OP_SHR: {
        if (b < 0 || b > 63) {
            char msg[96];
            snprintf(msg, sizeof msg, "shift count %lld out of range (0..63)", (long long)b);
            return eval_fail(ev, n, msg);
        }
        if (n->op == OP_SHR) {          /* arithmetic shift, spelled without implementation-defined >> */
            *out = a >= 0 ? a >> b : -1 - ((-1 - a) >> b);
            return 0;
        }
        if (b == 63) {
            if (a == 0 || a == -1) { *out = a == 0 ? 0 : INT64_MIN; return 0; }
            return eval_fail(ev, n, "integer overflow in '<<'");
        }
        if (__builtin_mul_overflow(a, (int64_t)1 << b, out)) return eval_fail(ev, n, "integer overflow in '<<'");
        return 0;
    }
    case OP_LT: *out = a < b; return 0;
    case OP_LE: *out = a <= b; return 0;
    case OP_GT: *out = a > b; return 0;
    case OP_GE: *out = a >= b; return 0;
    case OP_EQ: *out = a == b; return 0;
    case OP_NE: *out = a != b; return 0;
    case OP_AND: *out = a & b; return 0;
    case OP_XOR: *out = a ^ b; return 0;
    case OP_OR: *out = a | b; return 0;
    case OP_MIN: *out = a < b ? a : b; return 0;
    case OP_MAX: *out = a > b ? a : b; return 0;
    default:
        return eval_fail(ev, n, "internal error: bad expression node");
    }
}

int ws_expr_eval(const ws_expr *e, int n, const char names[][WS_NAME_MAX], const int64_t *values,
                 int64_t *out, ws_error *err)
{
    if (!e || e->root < 0) {
        ws_error_set(err, "", 0, 0, "internal error: evaluating a missing expression");
        return -1;
    }
    evaluator ev = {e, n, names, values, err};
    int64_t v;
    if (eval_node(&ev, e->root, &v)) return -1;
    *out = v;
    return 0;
}

const char *ws_expr_first_unknown(const ws_expr *e, int n, const char names[][WS_NAME_MAX], int *col)
{
    /* nodes are created left to right, so the first unknown name is the leftmost */
    for (int i = 0; i < e->nnodes; i++) {
        const expr_node *node = &e->nodes[i];
        if (node->op != OP_NAME) continue;
        int found = 0;
        for (int k = 0; k < n && !found; k++) found = !strcmp(names[k], node->name);
        if (!found) {
            if (col) *col = node->col;
            return node->name;
        }
    }
    return NULL;
}
