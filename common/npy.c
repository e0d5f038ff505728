/* npy.c - the .npy header: written as numpy.save writes version 1.0, read strictly (npy.h).
 * The reader is a small parser of the one dict literal the format allows, not a search for
 * keys in the text, so a misspelt, repeated or extra key is an error and not a default. */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *ws_npy_descr(ws_type s)
{
    static const char *const names[WS_TYPE_COUNT] = {
        [WS_TYPE_CHAR] = "|i1", [WS_TYPE_UCHAR] = "|u1", [WS_TYPE_SHORT] = "<i2", [WS_TYPE_USHORT] = "<u2",
        [WS_TYPE_INT] = "<i4", [WS_TYPE_UINT] = "<u4", [WS_TYPE_LONG] = "<i8", [WS_TYPE_ULONG] = "<u8",
        [WS_TYPE_FLOAT] = "<f4", [WS_TYPE_DOUBLE] = "<f8", [WS_TYPE_HALF] = "<f2", [WS_TYPE_BF16] = "<u2"};
    return (int)s >= 0 && s < WS_TYPE_COUNT ? names[s] : NULL;
}

int ws_npy_buffer_shape(const ws_buffer *b, uint64_t shape[2])
{
    int lanes = ws_type_lanes(b->type);
    shape[0] = b->count;
    shape[1] = (uint64_t)lanes;
    return lanes > 1 ? 2 : 1;
}

size_t ws_npy_format_header(const char *descr, const uint64_t *shape, int ndim, char *out, size_t cap)
{
    char dict[64 + WS_NPY_MAX_DIMS * 22], sh[WS_NPY_MAX_DIMS * 22 + 4];
    if (ndim < 0 || ndim > WS_NPY_MAX_DIMS) return 0;
    size_t k = 0;
    sh[k++] = '(';
    for (int i = 0; i < ndim; i++)      /* Python's tuple: "(3,)" for one dimension, "(3, 4)" */
        k += (size_t)snprintf(sh + k, sizeof sh - k, "%s%" PRIu64 "%s", i ? ", " : "", shape[i], ndim == 1 ? "," : "");
    snprintf(sh + k, sizeof sh - k, ")");
    int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, sh);
    if (dl < 0 || (size_t)dl >= sizeof dict) return 0;
    size_t total = (10 + (size_t)dl + 1 + 63) / 64 * 64;   /* magic..length (10), dict, "\n", padded */
    size_t hlen = total - 10;
    if (hlen > 65535 || total > cap) return 0;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)(hlen & 0xff);
    out[9] = (char)(hlen >> 8);
    memcpy(out + 10, dict, (size_t)dl);
    memset(out + 10 + dl, ' ', total - 10 - (size_t)dl - 1);
    out[total - 1] = '\n';
    return total;
}

size_t ws_npy_descr_size(const char *descr, const char **kind)
{
    static const struct { const char *k; size_t size; } known[] = {
        {"b1", 1}, {"i1", 1}, {"u1", 1}, {"i2", 2}, {"u2", 2}, {"i4", 4}, {"u4", 4}, {"i8", 8}, {"u8", 8},
        {"f2", 2}, {"f4", 4}, {"f8", 8}, {"V2", 2}, {"bfloat16", 2}};
    const char *d = descr;
    if (*d == '<' || *d == '>' || *d == '|' || *d == '=') d++;
    if (kind) *kind = d;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(d, known[i].k)) return known[i].size;
    return 0;
}

/* ---- reading ------------------------------------------------------------------------------------ */

typedef struct {
    const char *p, *end;
    const char *path;
    ws_error *err;
} cursor;

static void blanks(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static bool eat(cursor *c, char ch)
{
    blanks(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted Python string (no escapes: no dtype or key holds one) into out. */
static int string(cursor *c, char *out, size_t cap, const char *what)
{
    blanks(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's %s is not a quoted string (at '%.20s')", c->path, what,
                     c->p < c->end ? c->p : "");
        return -1;
    }
    char q = *c->p++;
    const char *s = c->p;
    while (c->p < c->end && *c->p != q && *c->p != '\\') c->p++;
    if (c->p >= c->end || *c->p != q) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's %s string does not end", c->path, what);
        return -1;
    }
    size_t n = (size_t)(c->p - s);
    c->p++;
    if (n >= cap) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's %s '%.20s...' is too long", c->path, what, s);
        return -1;
    }
    memcpy(out, s, n);
    out[n] = 0;
    return 0;
}

/* The shape's text for a message: up to its ')' (or the dict's end). */
static int shape_text(const char *start)
{
    int n = (int)strcspn(start, ")}");
    return start[n] == ')' ? n + 1 : n;
}

/* shape: "()", "(5,)", "(3, 4)", "(3, 4,)"; Python 2's "5L" as numpy reads it. */
static int shape_tuple(cursor *c, ws_npy_header *h)
{
    blanks(c);
    const char *start = c->p;
    if (!eat(c, '(')) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'shape' is not a tuple (at '%.20s')", c->path, start);
        return -1;
    }
    h->ndim = 0;
    h->values = 1;
    bool comma = false;                  /* a comma after the last number: "(5)" is an int, not a tuple */
    for (;;) {
        if (eat(c, ')')) break;
        blanks(c);
        if (c->p >= c->end || !isdigit((unsigned char)*c->p) || (h->ndim && !comma)) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'shape' '%.*s' is not a tuple of integers", c->path,
                         shape_text(start), start);
            return -1;
        }
        errno = 0;
        char *e;
        unsigned long long v = strtoull(c->p, &e, 10);
        if (e > c->end || errno || h->ndim == WS_NPY_MAX_DIMS ||
            __builtin_mul_overflow(h->values, (uint64_t)v, &h->values)) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'shape' '%.*s' is too large", c->path,
                         shape_text(start), start);
            return -1;
        }
        c->p = e;
        if (c->p < c->end && *c->p == 'L') c->p++;
        h->shape[h->ndim++] = v;
        comma = eat(c, ',');
    }
    if (h->ndim == 1 && !comma) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'shape' %.*s is a number, not a tuple (one dimension "
                     "is written (%" PRIu64 ",))", c->path, (int)(c->p - start), start, h->shape[0]);
        return -1;
    }
    return 0;
}

/* The dict: exactly descr, fortran_order and shape, each once, then blanks to the end. */
static int dict(cursor *c, ws_npy_header *h)
{
    enum { DESCR = 1, FORTRAN = 2, SHAPE = 4 };
    int seen = 0;
    if (!eat(c, '{')) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header is not a dict literal ('{...}')", c->path);
        return -1;
    }
    while (!eat(c, '}')) {
        char key[32];
        if (string(c, key, sizeof key, "key")) return -1;
        int bit = !strcmp(key, "descr") ? DESCR : !strcmp(key, "fortran_order") ? FORTRAN : !strcmp(key, "shape") ? SHAPE : 0;
        if (!bit) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header has key '%s'; a .npy header holds exactly 'descr', "
                         "'fortran_order' and 'shape'", c->path, key);
            return -1;
        }
        if (seen & bit) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header gives key '%s' twice", c->path, key);
            return -1;
        }
        seen |= bit;
        if (!eat(c, ':')) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header has no ':' after key '%s'", c->path, key);
            return -1;
        }
        if (bit == DESCR) {
            if (string(c, h->descr, sizeof h->descr, "'descr'")) return -1;
            if (!ws_npy_descr_size(h->descr, NULL)) {
                ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'descr' '%s' is not a dtype warpscope reads (b1, "
                             "i1, u1, i2, u2, i4, u4, i8, u8, f2, f4, f8, V2, bfloat16; no structured dtypes)", c->path,
                             h->descr);
                return -1;
            }
        } else if (bit == FORTRAN) {
            blanks(c);
            if ((size_t)(c->end - c->p) >= 5 && !strncmp(c->p, "False", 5)) {
                c->p += 5;
            } else if ((size_t)(c->end - c->p) >= 4 && !strncmp(c->p, "True", 4)) {
                ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'fortran_order' is True; save the array in C "
                             "order (np.save(f, np.ascontiguousarray(a)))", c->path);
                return -1;
            } else {
                ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header's 'fortran_order' is '%.*s', not False", c->path,
                             (int)strcspn(c->p, ",}"), c->p);
                return -1;
            }
        } else if (shape_tuple(c, h)) {
            return -1;
        }
        if (!eat(c, ',')) {
            blanks(c);
            if (c->p >= c->end || *c->p != '}') {
                ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header has '%.10s' after key '%s' (a ',' or '}' was "
                             "expected)", c->path, c->p, key);
                return -1;
            }
        }
    }
    static const char *const names[] = {"descr", "fortran_order", "shape"};
    for (int i = 0; i < 3; i++)
        if (!(seen & 1 << i)) {
            ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header has no key '%s'", c->path, names[i]);
            return -1;
        }
    blanks(c);
    if (c->p != c->end) {
        ws_error_set(c->err, c->path, 0, 0, "%s: the .npy header has '%.10s' after its dict", c->path, c->p);
        return -1;
    }
    return 0;
}

int ws_npy_read_header(FILE *f, uint64_t fsize, const char *path, ws_npy_header *h, ws_error *err)
{
    memset(h, 0, sizeof *h);
    unsigned char pre[12];
    if (fsize < 10 || fread(pre, 1, 10, f) != 10) {
        ws_error_set(err, path, 0, 0, "%s: truncated .npy header", path);
        return -1;
    }
    if (memcmp(pre, "\x93NUMPY", 6)) {
        ws_error_set(err, path, 0, 0, "%s: not a .npy file (no \\x93NUMPY magic)", path);
        return -1;
    }
    h->major = pre[6];
    h->minor = pre[7];
    uint64_t hlen, start;
    if (h->major == 1 && h->minor == 0) {
        hlen = (uint64_t)pre[8] | (uint64_t)pre[9] << 8;
        start = 10;
    } else if ((h->major == 2 || h->major == 3) && h->minor == 0) {
        if (fread(pre + 10, 1, 2, f) != 2) {
            ws_error_set(err, path, 0, 0, "%s: truncated .npy header", path);
            return -1;
        }
        hlen = (uint64_t)pre[8] | (uint64_t)pre[9] << 8 | (uint64_t)pre[10] << 16 | (uint64_t)pre[11] << 24;
        start = 12;
    } else {
        ws_error_set(err, path, 0, 0, "%s: .npy format version %d.%d; warpscope reads 1.0, 2.0 and 3.0", path, h->major,
                     h->minor);
        return -1;
    }
    if (hlen > (1u << 20) || start + hlen > fsize) {
        ws_error_set(err, path, 0, 0, "%s: .npy header length %" PRIu64 " runs past the end of the file", path, hlen);
        return -1;
    }
    char *text = malloc(hlen + 1);
    if (!text) {
        ws_error_set(err, path, 0, 0, "out of memory");
        return -1;
    }
    int rc = -1;
    if (fread(text, 1, hlen, f) != hlen) {
        ws_error_set(err, path, 0, 0, "%s: truncated .npy header", path);
    } else if (memchr(text, 0, hlen)) {
        ws_error_set(err, path, 0, 0, "%s: the .npy header holds a NUL byte", path);
    } else {
        text[hlen] = 0;
        cursor c = {text, text + hlen, path, err};
        rc = dict(&c, h);
    }
    free(text);
    h->data_offset = start + hlen;
    return rc;
}
