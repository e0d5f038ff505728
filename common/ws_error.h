/* ws_error.h - one error record that every parser and loader fills in.
 * Invariant: a function that returns non-zero has filled *err with a file, a
 * 1-based line and column (0 where not meaningful) and a one-line message. */
#ifndef WS_ERROR_H
#define WS_ERROR_H

#include <stddef.h>

#define WS_PATH_MAX 512
#define WS_MSG_MAX 512

typedef struct ws_error {
    char file[WS_PATH_MAX]; /* file at fault, or a label such as "<command line>" */
    int line;               /* 1-based; 0 = whole file */
    int col;                /* 1-based; 0 = whole line */
    char msg[WS_MSG_MAX];   /* one line, no trailing newline */
} ws_error;

/* ws_error_set(err, "k.cu", 12, 5, "unknown buffer '%s'", name): fills err (NULL-safe). */
void ws_error_set(ws_error *err, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Formats "file:line:col: error: msg" (parts that are 0 left out) into buf. */
void ws_error_format(const ws_error *err, char *buf, size_t cap);

/* Prints the formatted error to stderr with the "warpscope: " prefix. */
void ws_error_print(const ws_error *err);

#endif
