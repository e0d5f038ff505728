/* desc_text.h - the text of a description's values as the user wrote them
 * ("W*H", "(W+31)/32"), read back from the .cu source for listings; the parsed
 * expressions in desc.h are opaque. Shared by `list` and `ptx`. */
#ifndef WS_DESC_TEXT_H
#define WS_DESC_TEXT_H

#include <stddef.h>
#include "desc.h"

/* The default expression of parameter i ("1 << 20"); "" if not found. */
void ws_desc_param_text(const ws_desc_file *f, const ws_kernel_desc *d, int i, char *out, size_t cap);
/* The expression(s) of keyword ("grid", "block", "shared", "bytes") as written, ", " between
 * dimensions ("(W+31)/32, (H+31)/32"); "" if absent. Constant time: no source is re-read. */
void ws_desc_keyword_text(const ws_desc_file *f, const ws_kernel_desc *d, const char *keyword, char *out, size_t cap);
/* Line n (1-based) of text without its newline; "" past the end. */
void ws_source_line(const char *text, size_t len, int n, char *out, size_t cap);

#endif
