/* csv.h - an RFC 4180 writer: fields joined by commas, CRLF-free ("\n") records, and a
 * field quoted (with its quotes doubled) exactly when it holds a comma, quote, CR or LF.
 * Invariant: whatever bytes a field holds, a reader following RFC 4180 gets them back. */
#ifndef WS_CSV_H
#define WS_CSV_H

#include <stdio.h>

/* Writes one field (NULL = empty), quoted only when it must be. */
void ws_csv_field(FILE *f, const char *s);
/* Writes n fields as one record and ends it with "\n". */
void ws_csv_row(FILE *f, int n, const char *const *fields);

/* The long-format columns every warpscope CSV carries (docs/csv.md), in order; verdict is
 * check's judgement of the metric (agree, differs, missing, unjudged), empty in sim's; cause: why a
 * check row differs (cuda/check_explain.h), on the simulator's record of a differing row, else empty. */
#define WS_CSV_COLUMNS "kernel,variant,scope,line,metric,unit,value,basis,verdict,cause"
#define WS_CSV_NCOLUMNS 10
#define WS_CSV_HEADER WS_CSV_COLUMNS "\n"

/* A metric's unit column comes from its row of the metric table: ws_metric_unit (sim/models/metrics.h). */
#endif
