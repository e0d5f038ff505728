/* tmap.c - tensor-map rules, image and swizzle (see tmap.h).
 * Invariant: ws_tmap_from_image(ws_tmap_image(t)) gives t back for every t ws_tmap_check accepts. */
#include "tmap.h"

#include <stdio.h>
#include <string.h>

static const char magic[8] = {'w', 's', 't', 'm', 'a', 'p', '0', '1'};

int ws_tmap_check(const ws_tmap *t, uint64_t buffer_bytes, char *why, size_t why_size)
{
    const char *bad = NULL;
    char tmp[160];
    if (t->rank < 1 || t->rank > WS_TMAP_MAX_RANK) bad = "a tensor map has 1 to 5 dimensions";
    else if (t->elem_size != 1 && t->elem_size != 2 && t->elem_size != 4 && t->elem_size != 8)
        bad = "the element type must be 1, 2, 4 or 8 bytes";
    else if (t->swizzle != 0 && t->swizzle != 32 && t->swizzle != 64 && t->swizzle != 128)
        bad = "swizzle must be none, 32B, 64B or 128B";
    else if (t->fill_nan && !t->is_float) bad = "fill=nan needs a floating-point element type";
    if (bad) goto out;
    uint64_t extent = 0;                          /* the byte past the last element */
    for (int d = 0; d < t->rank; d++) {
        if (t->dims[d] < 1 || t->dims[d] > (1ull << 32)) { bad = "each dimension must be 1 .. 2^32 elements"; goto out; }
        if (t->box[d] < 1 || t->box[d] > 256) { bad = "each box dimension must be 1 .. 256 elements"; goto out; }
        if (d > 0 && (t->strides[d] % 16 || t->strides[d] >= (1ull << 40))) {
            bad = "the strides of the outer dimensions must be multiples of 16 bytes below 2^40";
            goto out;
        }
        extent += (t->dims[d] - 1) * (d ? t->strides[d] : (uint64_t)t->elem_size);
    }
    extent += (uint64_t)t->elem_size;
    if ((uint64_t)t->box[0] * (uint64_t)t->elem_size % 16) { bad = "the inner box dimension must be a multiple of 16 bytes"; goto out; }
    if (t->swizzle && (uint64_t)t->box[0] * (uint64_t)t->elem_size > (uint64_t)t->swizzle) {
        snprintf(tmp, sizeof tmp, "the inner box dimension (%llu bytes) must be at most %d bytes with a %d-byte swizzle",
                 (unsigned long long)t->box[0] * (unsigned long long)t->elem_size, t->swizzle, t->swizzle);
        bad = tmp;
        goto out;
    }
    if (extent > buffer_bytes) {
        snprintf(tmp, sizeof tmp, "the tensor spans %llu bytes but its buffer has %llu", (unsigned long long)extent,
                 (unsigned long long)buffer_bytes);
        bad = tmp;
    }
out:
    if (!bad) return 0;
    snprintf(why, why_size, "%s", bad);
    return -1;
}

/* little-endian fields after the magic: base, rank, elem_size, flags, swizzle, dims[5], strides[5], box[5] */
void ws_tmap_image(const ws_tmap *t, uint64_t base_address, uint8_t out[WS_TMAP_BYTES])
{
    memset(out, 0, WS_TMAP_BYTES);
    memcpy(out, magic, 8);
    memcpy(out + 8, &base_address, 8);
    out[16] = (uint8_t)t->rank;
    out[17] = (uint8_t)t->elem_size;
    out[18] = (uint8_t)((t->is_float ? 1 : 0) | (t->fill_nan ? 2 : 0));
    out[19] = (uint8_t)(t->swizzle / 32 + (t->swizzle == 128 ? -1 : 0)); /* 0, 1, 2, 3 */
    for (int d = 0; d < WS_TMAP_MAX_RANK; d++) {
        uint32_t dim = (uint32_t)(t->dims[d] - (d < t->rank ? 1 : 0));    /* dims - 1: fits 2^32 */
        memcpy(out + 20 + 4 * d, &dim, 4);
        uint64_t s = d < t->rank ? t->strides[d] : 0;
        memcpy(out + 40 + 8 * d, &s, 8);
        out[80 + d] = (uint8_t)(d < t->rank ? t->box[d] - 1 : 0);
    }
}

int ws_tmap_from_image(const uint8_t in[WS_TMAP_BYTES], ws_tmap *t, uint64_t *base_address)
{
    if (memcmp(in, magic, 8)) return -1;
    memset(t, 0, sizeof *t);
    memcpy(base_address, in + 8, 8);
    t->rank = in[16];
    t->elem_size = in[17];
    t->is_float = in[18] & 1;
    t->fill_nan = in[18] & 2;
    static const int sw[4] = {0, 32, 64, 128};
    if (t->rank < 1 || t->rank > WS_TMAP_MAX_RANK || in[19] > 3) return -1;
    t->swizzle = sw[in[19]];
    for (int d = 0; d < t->rank; d++) {
        uint32_t dim;
        memcpy(&dim, in + 20 + 4 * d, 4);
        t->dims[d] = (uint64_t)dim + 1;
        memcpy(&t->strides[d], in + 40 + 8 * d, 8);
        t->box[d] = (uint32_t)in[80 + d] + 1;
    }
    t->buffer = -1;
    return 0;
}

uint64_t ws_tmap_swizzle(uint64_t a, int swizzle)
{
    int b = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
    return a ^ ((a >> 3) & ((uint64_t)((1 << b) - 1) << 4));
}
