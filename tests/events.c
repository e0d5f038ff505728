/* events.c - the event-keeping listener of events.h. */
#include "events.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

void ws_test_events_add(void *ctx, const ws_mem_event *ev)
{
    ws_test_events *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->ev = realloc(c->ev, (size_t)c->cap * sizeof *c->ev);
        assert_non_null(c->ev);
    }
    c->ev[c->n++] = *ev;
}
