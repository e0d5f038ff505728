/* files.c - whole-file reads (see files.h).
 * Invariant: only regular files are read (opened O_NONBLOCK, so a FIFO named like a .ptx
 * cannot block the open, then refused by fstat), never more than the cap; the buffer grows
 * geometrically, so a file of n bytes costs O(n) copies. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

char *ws_read_file(const char *path, size_t max_bytes, size_t *len, ws_error *err)
{
    if (len)
        *len = 0;
    if (!max_bytes)
        max_bytes = WS_READ_MAX_BYTES;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        ws_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        ws_error_set(err, path, 0, 0, "cannot read %s: only regular files are read", kind_of(st.st_mode));
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > (uint64_t)max_bytes) {
        ws_error_set(err, path, 0, 0, "file larger than %zu MiB", max_bytes >> 20);
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        ws_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        close(fd);
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
            if (cap >= max_bytes) {
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
    if (n > max_bytes) {
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
