/* events.h - a listener that keeps every memory event the interpreter emits, in order, for the
 * tests that look at individual warp accesses (cmocka asserts inside). */
#ifndef WS_TEST_EVENTS_H
#define WS_TEST_EVENTS_H

#include "../sim/interp/interp.h"

typedef struct {
    int n, cap;
    ws_mem_event *ev;   /* malloc'd; the caller frees it */
} ws_test_events;

/* A ws_sim_config listener: ctx is a ws_test_events (zeroed before the run). */
void ws_test_events_add(void *ctx, const ws_mem_event *ev);

#endif
