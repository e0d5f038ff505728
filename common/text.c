/* text.c - UTF-8 validation and terminal-safe spelling of foreign text (see text.h).
 * Invariant: both transformations are total (any byte string goes in) and leave valid,
 * printable UTF-8 unchanged, so clean input prints exactly as before. */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

size_t ws_utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;                 /* the second byte's range (RFC 3629 table) */
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c == 0xe0) { n = 3; lo = 0xa0; }      /* no overlong 3-byte forms */
    else if (c == 0xed) { n = 3; hi = 0x9f; }      /* no surrogates */
    else if (c >= 0xe1 && c <= 0xef) n = 3;
    else if (c == 0xf0) { n = 4; lo = 0x90; }      /* no overlong 4-byte forms */
    else if (c == 0xf4) { n = 4; hi = 0x8f; }      /* nothing above U+10FFFF */
    else if (c >= 0xf1 && c <= 0xf3) n = 4;
    else return 0;                                 /* 80..C1, F5..FF never start one */
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

char *ws_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    char *out = malloc(3 * len + 1);               /* each bad byte may become 3 */
    if (!out) return NULL;
    size_t o = 0;
    while (*p) {
        size_t n = ws_utf8_seq(p);
        if (n) {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        } else {
            memcpy(out + o, "\xef\xbf\xbd", 3);
            o += 3;
            p++;
        }
    }
    out[o] = 0;
    return out;
}

const char *ws_text_visible(const char *s, char *buf, size_t cap)
{
    if (!cap) return buf;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t o = 0;
    while (*p) {
        char esc[8];
        const char *piece;
        size_t n = ws_utf8_seq(p), plen;
        if (n == 1 && ((*p < 0x20 && *p != '\t') || *p == 0x7f)) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            piece = esc;
            plen = 4;
        } else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* C1: U+0080..U+009F, e.g. CSI */
            snprintf(esc, sizeof esc, "\\u%04x", p[1]);
            piece = esc;
            plen = 6;
        } else if (n == 0) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            piece = esc;
            plen = 4;
            n = 1;
        } else {
            piece = (const char *)p;
            plen = n;
        }
        if (o + plen >= cap) break;                 /* cut at a whole character */
        memcpy(buf + o, piece, plen);
        o += plen;
        p += n;
    }
    buf[o] = 0;
    return buf;
}

char *ws_json_print(const struct cJSON *root)
{
    char *raw = cJSON_Print(root);
    if (!raw) return NULL;
    char *out = ws_utf8_valid(raw);
    cJSON_free(raw);
    return out;
}
