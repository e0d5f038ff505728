/* ws_error.c - formatting of ws_error records (see ws_error.h). */
#include "ws_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

void ws_error_set(ws_error *err, const char *file, int line, int col, const char *fmt, ...)
{
    if (!err) return;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

void ws_error_format(const ws_error *err, char *buf, size_t cap)
{
    if (!cap) return;
    if (err->file[0] && err->line > 0 && err->col > 0)
        snprintf(buf, cap, "%s:%d:%d: error: %s", err->file, err->line, err->col, err->msg);
    else if (err->file[0] && err->line > 0)
        snprintf(buf, cap, "%s:%d: error: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, cap, "%s: error: %s", err->file, err->msg);
    else
        snprintf(buf, cap, "error: %s", err->msg);
}

void ws_error_print(const ws_error *err)
{
    char buf[WS_PATH_MAX + WS_MSG_MAX + 64];
    char shown[3 * sizeof buf];
    ws_error_format(err, buf, sizeof buf);
    /* errors quote the input ("unknown keyword '...'"): its control bytes must not reach a terminal */
    fprintf(stderr, "warpscope: %s\n", ws_text_visible(buf, shown, sizeof shown));
}
