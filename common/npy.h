/* npy.h - NumPy's .npy format (numpy.lib.format): the one header warpscope writes and the one
 * strict reader of a header. A file is the magic "\x93NUMPY", a version (major, minor), the
 * header's length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the header - a Python dict
 * literal "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), }" padded with spaces and
 * ended by "\n" - and then the data.
 * Invariants: a written header is version 1.0, its length (magic to "\n") a multiple of 64
 * (numpy's own alignment); the reader accepts a header only when it holds exactly the keys
 * 'descr', 'fortran_order' and 'shape', each once, descr one of the dtypes below, fortran_order
 * False, and shape a tuple of integers, and it names the file and the key at fault. */
#ifndef WS_NPY_H
#define WS_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "desc.h"
#include "ws_error.h"

#define WS_NPY_MAX_DIMS 32   /* numpy's own limit (NPY_MAXDIMS) */

typedef struct {
    int major, minor;         /* format version */
    char descr[16];           /* as written: "<f4", "|u1", "bfloat16" */
    int ndim;
    uint64_t shape[WS_NPY_MAX_DIMS];
    uint64_t values;          /* the product of shape (1 for shape ()) */
    uint64_t data_offset;     /* where the data starts: magic + length field + header */
} ws_npy_header;

/* The dtype a scalar type is written as: "<f4" for float, "|i1" for char, "<f2" for half;
 * bf16 (which NumPy lacks) as its raw bits, "<u2". NULL for a vector type. */
const char *ws_npy_descr(ws_type scalar);

/* The shape a buffer is written with: (count,) for a scalar type, (count, lanes) for a vector
 * one (float4: (count, 4)). Returns ndim (1 or 2). */
int ws_npy_buffer_shape(const ws_buffer *b, uint64_t shape[2]);

/* The whole version-1.0 header for descr and shape, from the magic to its "\n", into out
 * (at most cap bytes). Returns its length, or 0 when it does not fit in cap or in 1.0's
 * 65535-byte header. Example: ws_npy_format_header("<f4", (uint64_t[]){3}, 1, out, 128) gives
 * "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" plus
 * spaces and "\n", 128 bytes in all. */
size_t ws_npy_format_header(const char *descr, const uint64_t *shape, int ndim, char *out, size_t cap);

/* Reads and checks the header at the start of f (file size fsize; path names it in errors).
 * Returns 0, or -1 with err->msg naming path and what is wrong ("x.npy: the .npy header's
 * 'fortran_order' is True: ..."); err's file is path, line 0. The data's size is not checked:
 * the caller knows how many bytes the dtype and shape mean. */
int ws_npy_read_header(FILE *f, uint64_t fsize, const char *path, ws_npy_header *h, ws_error *err);

/* The scalar size of a dtype descr the reader knows ('<f4' 4, '|u1' 1, 'bfloat16' 2), with
 * its byte order mark stripped into *kind ("f4"); 0 when unknown. */
size_t ws_npy_descr_size(const char *descr, const char **kind);

#endif
