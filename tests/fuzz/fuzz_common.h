/* fuzz_common.h - helpers shared by the libFuzzer targets in tests/fuzz/ and
 * the regression replay in tests/test_fuzz_regressions.c.
 * Invariant: a broken ws_error contract aborts, so libFuzzer records it as a
 * crash with the input that caused it. */
#ifndef WS_FUZZ_COMMON_H
#define WS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/ws_error.h"

/* The input as a NUL-terminated string (parsers take C strings; an embedded
 * NUL simply ends the text early, as it would for a file read by the tool). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (!t) abort();
    if (size) memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

/* ws_error.h promises a one-line, non-empty message and 1-based (or 0) positions. */
static inline void fuzz_check_error(const ws_error *err)
{
    size_t n = strnlen(err->msg, sizeof err->msg);
    if (n == 0 || n == sizeof err->msg || memchr(err->msg, '\n', n) || err->line < 0 || err->col < 0) {
        fprintf(stderr, "fuzz: broken error record: %d:%d: '%.*s'\n", err->line, err->col, (int)n, err->msg);
        abort();
    }
}

#endif
