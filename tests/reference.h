/* reference.h - plain-C references for every description in the catalog
 * (the .cu files in demos/): what a correct GPU run of the launch leaves in its output
 * buffers. Each reference models its kernel through the launch's arguments and
 * grid/block, as the GPU sees them, not through parameter names.
 * Invariant: a reference touches only bytes inside the buffers it is given; a
 * launch it cannot model exactly (a buffer too small for the arguments, a block
 * shape the kernel assumes otherwise) is refused, never guessed. */
#ifndef WS_REFERENCE_H
#define WS_REFERENCE_H

#include <stdbool.h>

#include "../common/desc.h"

#define WS_REF_UNKNOWN (-1)   /* no reference for L->desc->name */
#define WS_REF_UNSUPPORTED (-2) /* the launch breaks an assumption the reference states */

/* Given the resolved launch and its buffers holding their INITIAL contents
 * (ws_buffer_fill), overwrites the output buffers with the expected results.
 * Float results are computed in double and rounded once; kernels whose float
 * summation order differs from the reference's carry a tol in their description.
 * Example: if (ws_reference(&L, bufs) != 0) ... ; then ws_buffer_compare each output.
 * Returns 0, WS_REF_UNKNOWN or WS_REF_UNSUPPORTED. */
int ws_reference(const ws_launch *L, void *const *buffers);

/* True when ws_reference knows the description name. */
bool ws_reference_has(const char *desc_name);

/* The names ws_reference knows, for the test that every one is in the catalog:
 * *count gets the number of entries. */
const char *const *ws_reference_names(int *count);

#endif
