/* ws_assert.h - invariants checked where the headers state them. WS_ASSERT(c) is compiled
 * in when WS_ASSERTS is defined (the Makefile's sanitizer test objects and fuzz builds) and
 * out of the release binary, where it evaluates nothing. A failed assertion prints
 * "file:line: assertion failed: expression" to stderr and aborts, so a fuzzer or a test
 * sees a broken invariant as a crash. The structure checkers it calls (ws_memstats_check,
 * sim_program_check ...) exist in every build: tests call them directly.
 * Example: WS_ASSERT(ws_memstats_check(ms) == 0); */
#ifndef WS_ASSERT_H
#define WS_ASSERT_H

_Noreturn void ws_assert_fail(const char *file, int line, const char *expr);

#ifdef WS_ASSERTS
#define WS_ASSERT(c) ((c) ? (void)0 : ws_assert_fail(__FILE__, __LINE__, #c))
#else
#define WS_ASSERT(c) ((void)sizeof((c) ? 1 : 0))   /* not evaluated; its names still count as used */
#endif

#endif
