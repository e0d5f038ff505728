/* fresh_cache.c - the test binary's own empty tool cache (tests/fresh_cache.h). */
#include "fresh_cache.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_cache[256];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

static void remove_cache(void)
{
    if (g_cache[0]) nftw(g_cache, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int ws_test_fresh_cache(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(g_cache, sizeof g_cache, "%s/warpscope-test-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(g_cache)) {
        perror(g_cache);
        g_cache[0] = 0;
        return -1;
    }
    atexit(remove_cache);
    return setenv("WARPSCOPE_CACHE", g_cache, 1);
}
