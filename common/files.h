/* files.h - reading a whole file as text: the one loader every module uses for
 * descriptions, PTX, ptxas reports and recorded results.
 * Invariant: a returned buffer holds every byte of the file followed by a NUL, so
 * text parsers can stop at the NUL; failures return NULL with err naming the file. */
#ifndef WS_FILES_H
#define WS_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "ws_error.h"

/* The cap a read takes when its caller names none: larger than any PTX, description or
 * results file warpscope makes, small enough that a stray file cannot eat the memory. */
#define WS_READ_MAX_BYTES (256u << 20)

/* Reads the regular file at path into a malloc'd buffer with a NUL after the last byte
 * (free it). *len (may be NULL) gets the byte count. A file over max_bytes (0 =
 * WS_READ_MAX_BYTES) is refused, and so is anything but a regular file (a FIFO would block,
 * /dev/zero never ends): a repository can ship `k.ptx -> /dev/zero`.
 * Returns NULL with err (may be NULL) set to "cannot open: <reason>", "cannot read a FIFO:
 * only regular files are read", "read error: <reason>", "file larger than N MiB" or "out of
 * memory". Example:
 *   size_t n; char *ptx = ws_read_file("demos/transpose.ptx", 0, &n, &err); */
char *ws_read_file(const char *path, size_t max_bytes, size_t *len, ws_error *err);

/* True when text[0..len) holds a NUL byte (a binary file: the NUL would end the text
 * early); *line and *col (1-based, may be NULL) give where. */
bool ws_text_has_nul(const char *text, size_t len, int *line, int *col);

#endif
