/* csv.c - RFC 4180 field quoting for warpscope's CSV outputs (common/csv.h).
 * Invariant: a field is written verbatim unless it holds , " CR or LF; then it is
 * enclosed in quotes with each quote doubled, so no byte is lost or reinterpreted. */
#include "csv.h"

#include <string.h>

void ws_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

void ws_csv_row(FILE *f, int n, const char *const *fields)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        ws_csv_field(f, fields[i]);
    }
    fputc('\n', f);
}
