/* slow.h - the split between `make test` (quick cases, every push) and `make test-slow` (cases
 * that are slow by nature: a whole-catalog sweep, many compiler runs), one binary per file.
 * A test file lists its quick cases and its slow ones in two arrays and ends main with
 *     return ws_run_tests(quick, slow, setup, teardown);
 * The environment variable WS_SLOW picks what runs:
 *     unset, "" or "0"  the quick cases; each slow case is named on a line of its own,
 *                       "[  SLOW    ] <name> (left to make test-slow)", which
 *                       scripts/run-tests.sh counts into its one summary line;
 *     "1"               the slow cases only (make test-slow);
 *     "all"             both, quick first (one binary run by hand).
 * Anything else is refused (exit 2), so a typo never passes by running nothing.
 * Only a file with at least one slow case calls ws_run_tests: the Makefile finds the binaries
 * `make test-slow` runs by that call. The group's setup and teardown run once, as in
 * cmocka_run_group_tests. */
#ifndef WS_TEST_SLOW_H
#define WS_TEST_SLOW_H

#include <stddef.h>

int ws_run_tests_split(const char *group, const struct CMUnitTest *quick, size_t nquick,
                       const struct CMUnitTest *slow, size_t nslow, CMFixtureFunction setup,
                       CMFixtureFunction teardown);

#define ws_run_tests(quick, slow, setup, teardown)                                                      \
    ws_run_tests_split(#quick, quick, sizeof(quick) / sizeof *(quick), slow, sizeof(slow) / sizeof *(slow), \
                       setup, teardown)

#endif
