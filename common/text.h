/* text.h - what warpscope prints of text it did not write (a description's note, .cu source
 * lines, paths, fragments quoted in errors): made valid UTF-8 for JSON and harmless for a
 * terminal. Invariant: the output of ws_text_visible holds no byte a terminal acts on (C0
 * and C1 controls, DEL) except tab, and ws_json_print's output is valid UTF-8 throughout. */
#ifndef WS_TEXT_H
#define WS_TEXT_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (1-4 bytes: no overlong forms, no surrogates,
 * nothing above U+10FFFF), or 0 when the bytes there are not one. s[0] must not be 0. */
size_t ws_utf8_seq(const unsigned char *s);

/* A malloc'd copy of s in which each byte that does not begin a valid UTF-8 sequence is
 * replaced by U+FFFD (EF BF BD), as the Unicode standard recommends; NULL when out of memory.
 * Example: ws_utf8_valid("caf\xe9") is "caf\xef\xbf\xbd". */
char *ws_utf8_valid(const char *s);

/* s for a terminal, into buf (cap bytes, always terminated; longer text is cut at a whole
 * character): control bytes except tab, DEL and bytes that are not valid UTF-8 become "\xHH",
 * C1 controls (U+0080..U+009F) "\u00HH"; other characters pass. Returns buf.
 * Example: ws_text_visible("a\x1b[2Jb", buf, sizeof buf) is "a\x1b[2Jb" with the ESC spelled
 * as the four characters \x1b. */
const char *ws_text_visible(const char *s, char *buf, size_t cap);

struct cJSON;
/* cJSON_Print made valid UTF-8 (cJSON escapes control characters but copies other bytes as they
 * are): every JSON document warpscope writes goes through it. malloc'd; NULL when out of memory. */
char *ws_json_print(const struct cJSON *root);

#endif
