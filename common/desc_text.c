/* desc_text.c - a description's values as written, read back from the source
 * lines the description parser recorded (see desc_text.h).
 * Invariant: reads only inside f->source[0, f->source_len); output always NUL-terminated. */
#include "desc_text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void ws_source_line(const char *text, size_t len, int n, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = 0;
    if (!text || n < 1) return;
    size_t i = 0;
    for (int line = 1; line < n && i < len; i++)
        if (text[i] == '\n') line++;
    if (i >= len) return;
    size_t j = i;
    while (j < len && text[j] != '\n') j++;
    size_t k = j > i && text[j - 1] == '\r' ? j - 1 : j;
    snprintf(out, cap, "%.*s", (int)(k - i), text + i);
}

/* Cuts a '#' comment and the block's closing star-slash, then trims blanks. */
static void tidy(char *s)
{
    char *p = strchr(s, '#');
    if (p) *p = 0;
    p = strstr(s, "*/");
    if (p) *p = 0;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    size_t lead = strspn(s, " \t");
    memmove(s, s + lead, strlen(s + lead) + 1);
}

/* The expressions keep the text they were parsed from (ws_expr_source): nothing is read back
 * from the source, so listing n descriptions costs n, not n times the file. */
void ws_desc_param_text(const ws_desc_file *f, const ws_kernel_desc *d, int i, char *out, size_t cap)
{
    (void)f;
    if (!cap) return;
    out[0] = 0;
    if (i < 0 || i >= d->nparams) return;
    snprintf(out, cap, "%s", ws_expr_source(d->params[i].value));
    tidy(out);
}

void ws_desc_keyword_text(const ws_desc_file *f, const ws_kernel_desc *d, const char *keyword, char *out, size_t cap)
{
    (void)f;
    if (!cap) return;
    out[0] = 0;
    ws_expr *const *e = NULL;
    int n = 0;
    if (!strcmp(keyword, "grid")) { e = d->grid; n = d->ngrid; }
    else if (!strcmp(keyword, "block")) { e = d->block; n = d->nblock; }
    else if (!strcmp(keyword, "shared")) { e = &d->shared; n = d->shared ? 1 : 0; }
    else if (!strcmp(keyword, "bytes")) { e = &d->bytes; n = d->bytes ? 1 : 0; }
    size_t l = 0;
    for (int k = 0; k < n && l < cap; k++) {
        int w = snprintf(out + l, cap - l, "%s%s", k ? ", " : "", ws_expr_source(e[k]));
        if (w < 0) break;
        l += (size_t)w;
    }
    tidy(out);
}
