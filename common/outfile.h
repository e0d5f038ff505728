/* outfile.h - writing an output file so that a failure never leaves it half-written: the
 * bytes go to a temporary file beside it ("<path>.tmp-XXXXXX", same folder, so the rename
 * stays on one file system), which replaces the path only once every byte is written and
 * flushed. A good file that was there stays whole when the new one cannot be written.
 * A path that exists and is no regular file (/dev/stdout, /dev/null, a FIFO) is written in
 * place: renaming over a device node would replace it.
 * Invariant: after ws_outfile_commit or ws_outfile_abort no temporary file is left. */
#ifndef WS_OUTFILE_H
#define WS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    char path[4096];       /* the file asked for */
    char tmp[4096];        /* the temporary beside it; "" when writing in place */
    int fd;                /* open for writing */
} ws_outfile;

/* Opens for writing; returns the descriptor (also in o->fd) or -1 with errno set. */
int ws_outfile_open(ws_outfile *o, const char *path);

/* Flushes, closes and renames into place (written_ok false: abort instead). Returns 0, or -1
 * with errno set and the old file (if any) untouched. */
int ws_outfile_commit(ws_outfile *o, bool written_ok);

/* Closes (if fd >= 0) and removes the temporary; the path keeps what it had. */
void ws_outfile_abort(ws_outfile *o);

/* A FILE on o->fd ("wb"): fclose it, then ws_outfile_commit_closed. */
FILE *ws_outfile_fopen(ws_outfile *o, const char *path);

/* After the FILE from ws_outfile_fopen was fclose()d with result close_rc. */
int ws_outfile_commit_closed(ws_outfile *o, int close_rc);

#endif
