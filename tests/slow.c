/* slow.c - WS_SLOW's choice between a binary's quick and slow cases (tests/slow.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slow.h"

int ws_run_tests_split(const char *group, const struct CMUnitTest *quick, size_t nquick,
                       const struct CMUnitTest *slow, size_t nslow, CMFixtureFunction setup,
                       CMFixtureFunction teardown)
{
    const char *mode = getenv("WS_SLOW");
    if (!mode || !*mode || !strcmp(mode, "0")) {
        /* named before the run, so a crash in a quick case still shows what was left out */
        for (size_t i = 0; i < nslow; i++) printf("[  SLOW    ] %s (left to make test-slow)\n", slow[i].name);
        fflush(stdout);
        return _cmocka_run_group_tests(group, quick, nquick, setup, teardown);
    }
    if (!strcmp(mode, "1")) return _cmocka_run_group_tests(group, slow, nslow, setup, teardown);
    if (!strcmp(mode, "all")) {
        struct CMUnitTest *both = malloc((nquick + nslow) * sizeof *both);
        if (!both) {
            fprintf(stderr, "tests: out of memory\n");
            return 1;
        }
        memcpy(both, quick, nquick * sizeof *both);
        memcpy(both + nquick, slow, nslow * sizeof *both);
        int rc = _cmocka_run_group_tests(group, both, nquick + nslow, setup, teardown);
        free(both);
        return rc;
    }
    fprintf(stderr, "tests: WS_SLOW='%s': use 0 (quick cases), 1 (slow cases only) or all\n", mode);
    return 2;
}
