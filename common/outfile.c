/* outfile.c - temporary file beside the target, then rename (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ws_outfile_open(ws_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (strlen(path) + 16 >= sizeof o->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->fd = open(path, O_WRONLY | O_CLOEXEC);      /* a device or FIFO: in place */
        return o->fd;
    }
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp-XXXXXX", path);
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        o->tmp[0] = 0;
        return -1;
    }
    mode_t mask = umask(0);                             /* the mode a plain open(0666) would give */
    umask(mask);
    if (fchmod(o->fd, 0666 & ~mask)) {}
    return o->fd;
}

void ws_outfile_abort(ws_outfile *o)
{
    int e = errno;
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
    errno = e;
}

static int finish(ws_outfile *o, bool ok)
{
    if (!ok) {
        ws_outfile_abort(o);
        return -1;
    }
    if (o->tmp[0] && rename(o->tmp, o->path)) {
        ws_outfile_abort(o);
        return -1;
    }
    o->tmp[0] = 0;
    return 0;
}

int ws_outfile_commit(ws_outfile *o, bool written_ok)
{
    if (o->fd < 0) return finish(o, false);
    bool ok = written_ok && (!o->tmp[0] || fsync(o->fd) == 0);
    int e = errno;
    ok = close(o->fd) == 0 && ok;
    o->fd = -1;
    if (!ok && errno == 0) errno = e ? e : EIO;
    return finish(o, ok);
}

FILE *ws_outfile_fopen(ws_outfile *o, const char *path)
{
    if (ws_outfile_open(o, path) < 0) return NULL;
    FILE *f = fdopen(o->fd, "wb");
    if (!f) ws_outfile_abort(o);
    return f;
}

int ws_outfile_commit_closed(ws_outfile *o, int close_rc)
{
    o->fd = -1;                                         /* fclose closed it */
    return finish(o, close_rc == 0);
}
