/* cu_types.c - small helpers on the plain GPU records (see cu_types.h). */
#include "cu_types.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void cu_device_key(const char *name, char *out, size_t cap)
{
    if (!cap) return;
    size_t n = 0;
    const char *p = name ? name : "";
    if (!strncasecmp(p, "NVIDIA ", 7)) p += 7; /* every device has it: no information */
    bool dash = false;
    for (; *p && n + 1 < cap; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n > 0 && n + 2 < cap) out[n++] = '-';
            dash = false;
            out[n++] = (char)tolower((unsigned char)*p);
        } else {
            dash = true;
        }
    }
    out[n] = 0;
    if (!n) snprintf(out, cap, "gpu");
}
