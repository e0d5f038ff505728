/* files.c - whole-file reads (see files.h).
 * Invariant: the buffer grows geometrically, so a file of n bytes costs O(n) copies,
 * and it works on pipes and /proc files, whose size ftell cannot tell. */
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ws_read_file(const char *path, size_t max_bytes, size_t *len, ws_error *err)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1); /* +1: room for the NUL */
    for (;;) {
        if (!buf) {
            ws_error_set(err, path, 0, 0, "out of memory");
            break;
        }
        if (n == cap) {
            if (max_bytes && cap >= max_bytes) {
                ws_error_set(err, path, 0, 0, "file larger than %zu MiB", max_bytes >> 20);
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue; /* reports out of memory */
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (buf && ferror(f)) {
        ws_error_set(err, path, 0, 0, "read error: %s", strerror(errno));
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (!buf)
        return NULL;
    if (max_bytes && n > max_bytes) {
        ws_error_set(err, path, 0, 0, "file larger than %zu MiB", max_bytes >> 20);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

bool ws_text_has_nul(const char *text, size_t len, int *line, int *col)
{
    const char *nul = memchr(text, 0, len);
    if (!nul)
        return false;
    int l = 1, c = 1;
    for (const char *p = text; p < nul; p++) {
        if (*p == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    if (line)
        *line = l;
    if (col)
        *col = c;
    return true;
}
