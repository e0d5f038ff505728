/* bufdiff.c - every difference of two buffer contents counted, the first few kept with their
 * coordinates (see bufdiff.h). */
#include "bufdiff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "npy.h"

uint64_t ws_buffer_diff_of(const ws_buffer *buf, const void *got, const void *want, const ws_fp_bound *bound,
                           ws_buffer_diff *d)
{
    memset(d, 0, sizeof *d);
    int lanes = ws_type_lanes(buf->type);
    d->scalars = buf->count * (uint64_t)lanes;
    for (int64_t k = ws_buffer_next_difference(buf, got, want, bound, 0); k >= 0;
         k = ws_buffer_next_difference(buf, got, want, bound, (uint64_t)k + 1)) {
        if (d->shown < WS_DIFF_SHOWN) {
            ws_diff_elem *e = &d->elem[d->shown++];
            e->index = (uint64_t)k;
            if (lanes > 1)   /* the saved shape's coordinates: (count, lanes) */
                snprintf(e->where, sizeof e->where, "[%" PRIu64 ", %d]", (uint64_t)k / (uint64_t)lanes,
                         (int)((uint64_t)k % (uint64_t)lanes));
            else
                snprintf(e->where, sizeof e->where, "[%" PRIu64 "]", (uint64_t)k);
            ws_buffer_format_scalar(buf, got, (uint64_t)k, e->got, sizeof e->got);
            ws_buffer_format_scalar(buf, want, (uint64_t)k, e->want, sizeof e->want);
        }
        d->count++;
    }
    return d->count;
}

const char *ws_buffer_diff_text(const ws_buffer *buf, const ws_buffer_diff *d, const char *want_name, const char *got_name,
                                const char *indent, char *out, size_t cap)
{
    if (!cap) return out;
    out[0] = 0;
    if (!d->count) return out;
    size_t n = 0;
    int w = 0;                 /* the coordinates' column width */
    for (int i = 0; i < d->shown; i++)
        if ((int)strlen(d->elem[i].where) > w) w = (int)strlen(d->elem[i].where);
    char line[256];
    if (d->count > (uint64_t)d->shown)
        snprintf(line, sizeof line, "%soutput '%s': %" PRIu64 " of %" PRIu64 " scalars differ; the first %d:\n", indent,
                 buf->name, d->count, d->scalars, d->shown);
    else
        snprintf(line, sizeof line, "%soutput '%s': %" PRIu64 " of %" PRIu64 " scalars differ:\n", indent, buf->name,
                 d->count, d->scalars);
    for (int i = -1; i < d->shown; i++) {
        if (i >= 0)
            snprintf(line, sizeof line, "%s  %-*s  %s %s  %s %s\n", indent, w, d->elem[i].where, want_name,
                     d->elem[i].want, got_name, d->elem[i].got);
        size_t l = strlen(line);
        if (n + l >= cap) break;
        memcpy(out + n, line, l + 1);
        n += l;
    }
    return out;
}
