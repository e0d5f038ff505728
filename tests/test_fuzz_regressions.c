/* test_fuzz_regressions.c - replays inputs through the libFuzzer targets' own
 * entry points (tests/fuzz/fuzz_{desc,ptx,interp,semantics}.c, compiled in here without
 * their LLVMFuzzerTestOneInput), under ASan+UBSan like every test:
 *   - every reproducer kept in tests/data/fuzz-regressions/<target>/ (each one
 *     crashed, hung, leaked or broke an invariant before its fix), and
 *   - the malformed corpora and the catalog, which seed the fuzzers, and
 *   - the semantics target's seeds plus a fixed sweep of pseudo-random inputs (each one a
 *     straight-line kernel whose every result must equal the PTX ISA's, lane by lane).
 * An input passes when the entry point returns: the targets abort on any
 * broken promise (unresolved module, bad error record, bad event). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NO_MAIN
#include "fuzz/fuzz_desc.c"
#include "fuzz/fuzz_interp.c"
#include "fuzz/fuzz_ptx.c"
#include "fuzz/fuzz_semantics.c"

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* Feeds every regular file in dir whose name ends in suffix ("" = any) to entry;
 * returns how many. A missing folder counts as none. */
static int replay_dir(const char *dir, const char *suffix, fuzz_entry entry)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_name[0] == '.' || len < sl || strcmp(e->d_name + len - sl, suffix)) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t size;
        uint8_t *data = read_all(path, &size);
        print_message("replay %s\n", path);
        assert_int_equal(entry(data, size), 0);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

static void test_every_kept_reproducer_replays_cleanly(void **state)
{
    (void)state;
    int n = replay_dir("tests/data/fuzz-regressions/fuzz_desc", "", fuzz_desc_one) +
            replay_dir("tests/data/fuzz-regressions/fuzz_ptx", "", fuzz_ptx_one) +
            replay_dir("tests/data/fuzz-regressions/fuzz_interp", "", fuzz_interp_one) +
            replay_dir("tests/data/fuzz-regressions/fuzz_semantics", "", fuzz_semantics_one);
    assert_true(n >= 1);                                 /* the folder is where findings live */
}

static void test_the_malformed_description_corpus_fails_cleanly_through_the_desc_target(void **state)
{
    (void)state;
    assert_true(replay_dir("tests/data/bad_desc", ".cu", fuzz_desc_one) >= 40);
    assert_true(replay_dir("tests/data/planted", ".cu", fuzz_desc_one) >= 5);
}

static void test_the_malformed_ptx_corpus_fails_cleanly_through_the_ptx_and_interp_targets(void **state)
{
    (void)state;
    int n = replay_dir("tests/data/bad_ptx", ".ptx", fuzz_ptx_one);
    assert_true(n >= 20);
    assert_int_equal(replay_dir("tests/data/bad_ptx", ".ptx", fuzz_interp_one), n);
}

static void test_the_catalog_ptx_runs_through_the_interp_target(void **state)
{
    (void)state;
    /* each entry on the target's tiny launch: garbage arguments, warnings, a small budget */
    assert_true(replay_dir("demos", ".ptx", fuzz_interp_one) >= 9);
    assert_true(replay_dir("tests/data/planted", ".ptx", fuzz_interp_one) >= 5);
}

static void test_random_straight_line_kernels_compute_what_the_ptx_isa_defines_on_every_lane(void **state)
{
    (void)state;
    assert_true(replay_dir("tests/data/fuzz-corpus/fuzz_semantics", "", fuzz_semantics_one) >= 6);
    /* a fixed sweep so CI checks meaning without clang's fuzzer: 400 inputs of 40..295 bytes
     * (the first 13 pick the parameters and the length, then about 4 bytes an instruction) */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    uint8_t buf[296];
    for (int k = 0; k < 400; k++) {
        size_t n = 40 + (size_t)(k * 37 % 256);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;      /* xorshift64 */
            buf[i] = (uint8_t)(x >> 24);
        }
        assert_int_equal(fuzz_semantics_one(buf, n), 0);   /* a mismatch aborts with the kernel and lane */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kept_reproducer_replays_cleanly),
        cmocka_unit_test(test_the_malformed_description_corpus_fails_cleanly_through_the_desc_target),
        cmocka_unit_test(test_the_malformed_ptx_corpus_fails_cleanly_through_the_ptx_and_interp_targets),
        cmocka_unit_test(test_the_catalog_ptx_runs_through_the_interp_target),
        cmocka_unit_test(test_random_straight_line_kernels_compute_what_the_ptx_isa_defines_on_every_lane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
