/* save.h - a launch's buffers written to a folder as NumPy .npy files with a manifest: what
 * `sim --save`, `gpu --save` and `check --save` write, through one writer whoever computed
 * the contents (the simulator or the GPU).
 *
 * DIR/<buffer>.npy      each output buffer's final contents (role "output")
 * DIR/<buffer>.in.npy   with inputs: each buffer's initial contents (role "input"), as
 *                       ws_buffer_fill makes them for both sides; an init=none buffer has none
 * DIR/manifest.json     the kernel, its file, the -D text and the parameters' values, grid,
 *                       block and dynamic shared bytes, who computed the contents, and per file:
 *                       name, file, role, type, dtype, shape, bytes, sha256 (of the whole file)
 * Each .npy is format 1.0 (common/npy.h): dtype from the buffer's scalar type (bf16 as its raw
 * '<u2' bits), shape (count,) or, for a vector type, (count, lanes).
 * Invariants: every file is written through common/outfile.c (a temporary, then a rename), so
 * none is ever half-written; the manifest is written last, so a manifest lists files that
 * are all whole; a file name is the buffer's name (a C identifier; any other is refused), so
 * no name leaves DIR. Files of an earlier save that this one does not list are left alone. */
#ifndef WS_SAVE_H
#define WS_SAVE_H

#include <stdbool.h>

#include "desc.h"
#include "ws_error.h"

typedef struct {
    const char *computed_by;   /* "simulator" or "gpu": whose contents these are */
    const char *overrides;     /* the -D text as the user gave it ("N=4096"), "" or NULL for none */
    const char *entry;         /* the PTX entry (mangled) name, NULL = not known */
    bool inputs;               /* also every buffer's initial contents (<buffer>.in.npy) */
} ws_save_opts;

/* Creates dir, and its missing parents, as mkdir -p does. Returns 0, or -1 with err naming
 * dir and why ("out/run is a file, not a folder"). */
int ws_save_mkdir(const char *dir, ws_error *err);

/* Writes the files above for launch L into dir (made with ws_save_mkdir): final[i] holds
 * buffer i's final contents (L->buffers[i].bytes; only outputs' are read). *written (may be
 * NULL) gets the number of .npy files. Returns WS_EXIT_OK; WS_EXIT_USAGE with err naming the
 * file when one cannot be written (or a buffer name is no C identifier, or an input's data
 * file cannot be read); WS_EXIT_INTERNAL when memory runs out. */
int ws_save_buffers(const char *dir, const ws_launch *L, void *const *final, const ws_save_opts *o, int *written,
                    ws_error *err);

/* Writes one .npy (header for descr and shape, then bytes of data) through common/outfile.c;
 * sha256 (may be NULL) gets the file's digest in hex. Returns 0, or -1 with errno set. */
int ws_save_npy(const char *path, const char *descr, const uint64_t *shape, int ndim, const void *data, uint64_t bytes,
                char sha256[65]);

#endif
