/* fresh_cache.h - a tool cache (common/toolcache.h) of the test binary's own, for the binaries whose
 * cases must see the compilers run now, not products an earlier run kept: WARPSCOPE_CACHE is set
 * to a new empty folder, removed when the process exits. Within the binary a listing made once is
 * served from it, as for a user's second `sim` - the compilers' first run for each input is the
 * one the cases see. (WARPSCOPE_CACHE=off made every case run ptxas and nvdisasm again: about
 * 0.7 s of CPU each in nvdisasm alone, most of test_cmd_sim's time.) */
#ifndef WS_TEST_FRESH_CACHE_H
#define WS_TEST_FRESH_CACHE_H

/* Sets WARPSCOPE_CACHE as above. Returns 0, or -1 (printed) when no folder could be made. */
int ws_test_fresh_cache(void);

#endif
