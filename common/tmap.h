/* tmap.h - tensor maps (CUtensorMap) as a description declares them: the tensor a TMA copy
 * reads or writes (a buffer seen as a 1- to 5-D array), the box one copy moves, the swizzle it
 * lays the box out in shared memory with, and the fill of elements outside the tensor.
 * The GPU backend encodes one with cuTensorMapEncodeTiled; the simulator passes the kernel its
 * own 128-byte image of the same fields (ws_tmap_image), which only its TMA instructions read,
 * so the two never need the driver's opaque format.
 * Invariant: a ws_tmap that ws_tmap_check accepts satisfies cuTensorMapEncodeTiled's rules
 * (CUDA driver API, "Tensor Map Object Management"), so the GPU accepts what the simulator ran. */
#ifndef WS_TMAP_H
#define WS_TMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_TMAP_MAX_RANK 5
#define WS_TMAP_BYTES 128          /* sizeof(CUtensorMap), its alignment 64 */

typedef struct {
    int buffer;                    /* the launch's buffer it maps */
    int rank;                      /* 1..5 */
    int elem_size;                 /* bytes: 1, 2, 4 or 8 */
    bool is_float;                 /* a floating-point element type (NaN fill allowed) */
    uint64_t dims[WS_TMAP_MAX_RANK];    /* elements, innermost first */
    uint64_t strides[WS_TMAP_MAX_RANK]; /* bytes from one index to the next: strides[0] = elem_size */
    uint32_t box[WS_TMAP_MAX_RANK];     /* elements a copy moves per dimension, 1..256 */
    int swizzle;                   /* 0 (none), 32, 64 or 128: bytes of the swizzle span */
    bool fill_nan;                 /* elements outside the tensor read as NaN (else zero) */
} ws_tmap;

/* Whether t is one cuTensorMapEncodeTiled accepts for a buffer of buffer_bytes at an address
 * aligned to 16; 0, or -1 with why naming the rule. Example: box[0] * elem_size = 256 with
 * swizzle 128 -> "the inner box ... at most 128 bytes with a 128-byte swizzle". */
int ws_tmap_check(const ws_tmap *t, uint64_t buffer_bytes, char *why, size_t why_size);

/* The simulator's image of t for a tensor at base_address ("wstmap01" then the fields). */
void ws_tmap_image(const ws_tmap *t, uint64_t base_address, uint8_t out[WS_TMAP_BYTES]);
/* Reads an image back; -1 when the bytes are not one (no magic, fields out of range). */
int ws_tmap_from_image(const uint8_t in[WS_TMAP_BYTES], ws_tmap *t, uint64_t *base_address);

/* Where the byte at shared address a of a box lands under the swizzle (bytes 32, 64, 128;
 * 0 = none): the 16-byte chunk index bits [4, 4+b) XORed with the bits [7, 7+b) above them,
 * b = 1, 2, 3 (CUTLASS Swizzle<b, 4, 3> on byte addresses; the CUDA driver's
 * CU_TENSOR_MAP_SWIZZLE_32B/64B/128B). Example: swizzle 128, a = 0x180 (row 3, chunk 0) -> 0x1b0. */
uint64_t ws_tmap_swizzle(uint64_t a, int swizzle);

#endif
