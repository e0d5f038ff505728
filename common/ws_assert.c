/* ws_assert.c - what a failed WS_ASSERT does (see ws_assert.h): say where and what, abort. */
#include "ws_assert.h"

#include <stdio.h>
#include <stdlib.h>

void ws_assert_fail(const char *file, int line, const char *expr)
{
    fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
    fflush(stderr);
    abort();
}
