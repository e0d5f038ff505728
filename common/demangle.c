/* demangle.c - C++ names for people (see demangle.h): the C++ runtime's demangler, and a
 * canonical spelling of type lists so a description's "const float*" meets the
 * demangler's "float const*".
 * Invariant: every output is NUL-terminated within its cap; nothing here decodes the
 * mangling grammar itself (that is __cxa_demangle's job). */
#include "demangle.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's demangler interface (section 3.4, "Demangler API"): an extern "C"
 * function of the C++ runtime, so C can call it once libstdc++ is linked. It returns a
 * malloc'd string and status 0 on success. */
char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length, int *status);

static char *runtime_demangle(const char *name)
{
    if (!name || strncmp(name, "_Z", 2)) return NULL; /* plain C names: the runtime would try them as types */
    int status = -1;
    char *s = __cxa_demangle(name, NULL, NULL, &status);
    if (status != 0) {
        free(s);
        return NULL;
    }
    return s;
}

bool ws_is_mangled(const char *name)
{
    char *s = runtime_demangle(name);
    free(s);
    return s != NULL;
}

char *ws_demangle(const char *name, char *out, size_t cap)
{
    if (!cap) return out;
    char *s = runtime_demangle(name);
    snprintf(out, cap, "%s", s ? s : name ? name : "");
    free(s);
    return out;
}

/* ---- splitting "base<targs>(params)" ------------------------------------------------ */

static void copy_span(char *dst, size_t cap, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* Index of the bracket that opens the group closing at s[close] (')' or '>'), -1 if none. */
static long opening_of(const char *s, long close)
{
    char c = s[close], o = c == ')' ? '(' : '<';
    int depth = 0;
    for (long i = close; i >= 0; i--) {
        if (s[i] == c) depth++;
        else if (s[i] == o && --depth == 0) return i;
    }
    return -1;
}

int ws_cxx_name_split(const char *text, ws_cxx_name *out)
{
    memset(out, 0, sizeof *out);
    size_t n = text ? strlen(text) : 0;
    while (n && isspace((unsigned char)text[n - 1])) n--;
    long end = (long)n; /* text[0, end) is what is left to split */
    if (end > 0 && text[end - 1] == ')') {
        long o = opening_of(text, end - 1);
        if (o < 0) return -1;
        copy_span(out->params, sizeof out->params, text + o + 1, (size_t)(end - 1 - o - 1));
        out->has_params = true;
        end = o;
    }
    while (end > 0 && isspace((unsigned char)text[end - 1])) end--;
    if (end > 0 && text[end - 1] == '>') {
        long o = opening_of(text, end - 1);
        if (o < 0) return -1;
        copy_span(out->targs, sizeof out->targs, text + o + 1, (size_t)(end - 1 - o - 1));
        out->has_targs = true;
        end = o;
    }
    /* the base is the last blank-separated word at bracket depth 0 (a return type goes) */
    long start = 0;
    int depth = 0;
    for (long i = 0; i < end; i++) {
        char c = text[i];
        if (c == '(' || c == '<') depth++;
        else if ((c == ')' || c == '>') && depth > 0) depth--;
        else if (depth == 0 && isspace((unsigned char)c)) start = i + 1;
    }
    if (depth != 0) return -1;
    copy_span(out->base, sizeof out->base, text + start, (size_t)(end - start));
    return 0;
}

/* ---- canonical type lists ------------------------------------------------------------ */

#define MAX_TOK 256

typedef struct {
    char t[64];
    bool word;        /* identifier or number */
} tok;

static int lex(const char *s, tok *toks, int max)
{
    int n = 0;
    while (*s && n < max) {
        if (isspace((unsigned char)*s)) { s++; continue; }
        tok *t = &toks[n];
        size_t len = 0;
        if (isalnum((unsigned char)*s) || *s == '_') {
            while ((isalnum((unsigned char)s[len]) || s[len] == '_')) len++;
            t->word = true;
        } else if (s[0] == ':' && s[1] == ':') {
            len = 2;
            t->word = false;
        } else {
            len = 1;
            t->word = false;
        }
        size_t k = len < sizeof t->t ? len : sizeof t->t - 1;
        memcpy(t->t, s, k);
        t->t[k] = 0;
        s += len;
        n++;
    }
    return n;
}

/* The LP64 builtin type behind a standard typedef, as the demangler prints it. */
static const char *typedef_of(const char *w)
{
    static const char *const map[][2] = {
        {"size_t", "unsigned long"}, {"ssize_t", "long"}, {"ptrdiff_t", "long"}, {"intptr_t", "long"},
        {"uintptr_t", "unsigned long"}, {"int8_t", "signed char"}, {"uint8_t", "unsigned char"},
        {"int16_t", "short"}, {"uint16_t", "unsigned short"}, {"int32_t", "int"}, {"uint32_t", "unsigned int"},
        {"int64_t", "long"}, {"uint64_t", "unsigned long"}, {"half", "__half"}, {"half2", "__half2"},
        {"nv_bfloat16", "__nv_bfloat16"}, {"nv_bfloat162", "__nv_bfloat162"}, {"uint", "unsigned int"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(w, map[i][0])) return map[i][1];
    return NULL;
}

static bool is_builtin_word(const char *w)
{
    static const char *const b[] = {"unsigned", "signed", "char", "short", "int", "long", "float", "double",
                                    "bool", "void", "wchar_t", "char16_t", "char32_t", "__int128"};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        if (!strcmp(w, b[i])) return true;
    return false;
}

static bool is_cv(const char *w) { return !strcmp(w, "const") || !strcmp(w, "volatile"); }

static void push(tok *out, int *n, const char *text, bool word)
{
    if (*n >= MAX_TOK) return;
    snprintf(out[*n].t, sizeof out[*n].t, "%.*s", (int)sizeof out[*n].t - 1, text);
    out[*n].word = word;
    (*n)++;
}

/* One list item (a type, or a template argument) in canonical tokens. */
static int canon_item(const tok *in, int n, tok *out)
{
    tok a[MAX_TOK];
    int m = 0;
    /* expand typedefs, drop restrict, drop literal suffixes */
    for (int i = 0; i < n; i++) {
        const char *w = in[i].t;
        if (!strcmp(w, "__restrict__") || !strcmp(w, "__restrict") || !strcmp(w, "restrict")) continue;
        const char *td = in[i].word ? typedef_of(w) : NULL;
        if (td) {
            tok tmp[4];
            int k = lex(td, tmp, 4);
            for (int j = 0; j < k; j++) push(a, &m, tmp[j].t, true);
            continue;
        }
        if (in[i].word && isdigit((unsigned char)w[0])) {
            char num[64];
            snprintf(num, sizeof num, "%s", w);
            size_t l = strlen(num);
            bool hex = l > 2 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
            while (l > 1 && strchr(hex ? "uUlL" : "uUlL", num[l - 1])) num[--l] = 0;
            push(a, &m, num, true);
            continue;
        }
        push(a, &m, w, in[i].word);
    }
    /* builtin spellings: "unsigned" alone is "unsigned int"; "long int" is "long"; "signed int" is "int" */
    tok b[MAX_TOK];
    int nb = 0;
    for (int i = 0; i < m; i++) {
        const char *w = a[i].t;
        bool next_builtin = i + 1 < m && a[i + 1].word && is_builtin_word(a[i + 1].t);
        if (!strcmp(w, "signed") && i + 1 < m && !strcmp(a[i + 1].t, "int")) continue;
        if (!strcmp(w, "signed") && !next_builtin) { push(b, &nb, "int", true); continue; }
        if (!strcmp(w, "int") && nb > 0 && (!strcmp(b[nb - 1].t, "long") || !strcmp(b[nb - 1].t, "short"))) continue;
        push(b, &nb, w, a[i].word);
        if (!strcmp(w, "unsigned") && !next_builtin) push(b, &nb, "int", true);
    }
    /* leading cv-qualifiers go after the first type name ("const float*" -> "float const*") */
    int lead = 0;
    char cv[2][16] = {"", ""};
    while (lead < nb && lead < 2 && b[lead].word && is_cv(b[lead].t)) {
        snprintf(cv[lead], sizeof cv[lead], "%.15s", b[lead].t);
        lead++;
    }
    int k = 0, i = lead;
    if (lead) {
        /* the type name: builtin words, or a qualified name with its template arguments */
        if (i < nb && b[i].word && is_builtin_word(b[i].t)) {
            while (i < nb && b[i].word && is_builtin_word(b[i].t)) push(out, &k, b[i++].t, true);
        } else {
            while (i < nb) {
                if (b[i].word && !is_cv(b[i].t)) push(out, &k, b[i++].t, true);
                else break;
                if (i < nb && !strcmp(b[i].t, "<")) {
                    int depth = 0;
                    do {
                        if (!strcmp(b[i].t, "<")) depth++;
                        else if (!strcmp(b[i].t, ">")) depth--;
                        push(out, &k, b[i].t, b[i].word);
                        i++;
                    } while (i < nb && depth > 0);
                }
                if (i < nb && !strcmp(b[i].t, "::")) push(out, &k, b[i++].t, false);
                else break;
            }
        }
        for (int c = 0; c < lead; c++) push(out, &k, cv[c], true);
    }
    for (; i < nb; i++) push(out, &k, b[i].t, b[i].word);
    /* a parameter's own (top-level) const is not part of the function's type */
    while (k > 0 && out[k - 1].word && is_cv(out[k - 1].t)) {
        bool after_type = k >= 2 && (out[k - 2].word || !strcmp(out[k - 2].t, ">") || !strcmp(out[k - 2].t, "*"));
        if (!after_type) break;
        /* "float const" (no pointer after it) is a top-level const too */
        k--;
    }
    return k;
}

void ws_cxx_list_canon(const char *list, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = 0;
    tok in[MAX_TOK];
    int n = lex(list ? list : "", in, MAX_TOK);
    size_t used = 0;
    int start = 0, depth = 0, items = 0;
    for (int i = 0; i <= n; i++) {
        bool end = i == n;
        if (!end) {
            const char *t = in[i].t;
            if (!strcmp(t, "<") || !strcmp(t, "(") || !strcmp(t, "[")) depth++;
            else if ((!strcmp(t, ">") || !strcmp(t, ")") || !strcmp(t, "]")) && depth > 0) depth--;
        }
        if (!end && !(depth == 0 && !strcmp(in[i].t, ","))) continue;
        tok item[MAX_TOK];
        int k = canon_item(in + start, i - start, item);
        if (!(k == 1 && !strcmp(item[0].t, "void") && n == 1)) { /* "(void)" is the empty list */
            if (items++ && used + 2 < cap) { memcpy(out + used, ", ", 2); used += 2; }
            for (int j = 0; j < k; j++) {
                bool space = j > 0 && item[j].word && item[j - 1].word;
                int w = snprintf(out + used, cap - used, "%s%s", space ? " " : "", item[j].t);
                if (w < 0 || (size_t)w >= cap - used) { out[cap - 1] = 0; return; }
                used += (size_t)w;
            }
        }
        start = i + 1;
    }
    out[used < cap ? used : cap - 1] = 0;
}

bool ws_demangled_param(const char *mangled, int i, char *out, size_t cap)
{
    if (!cap || i < 0) return false;
    out[0] = 0;
    char *dem = runtime_demangle(mangled);
    if (!dem) return false;
    ws_cxx_name n;
    bool ok = false;
    if (!ws_cxx_name_split(dem, &n) && n.has_params) {
        char canon[1024];
        ws_cxx_list_canon(n.params, canon, sizeof canon);
        /* canonical lists separate items with ", " at bracket depth 0 only */
        const char *p = canon;
        int k = 0, depth = 0;
        const char *start = p;
        for (;; p++) {
            if (*p == '<' || *p == '(' || *p == '[') depth++;
            else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0) depth--;
            if (*p == 0 || (depth == 0 && *p == ',')) {
                if (k == i) {
                    snprintf(out, cap, "%.*s", (int)(p - start), start);
                    ok = p > start;
                    break;
                }
                if (!*p) break;
                k++;
                start = p + 2;   /* past ", " */
                p++;
            }
        }
    }
    free(dem);
    return ok;
}
