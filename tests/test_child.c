/* test_child.c - running other programs under limits (common/child.c): the output and status
 * come back, and each limit (wall clock, CPU time, address space) stops a child that passes it
 * and is named as the one that did; ptxas, run for the kernel's registers, is bounded the same
 * way and compiles only the entry asked for. The children are /bin/sh one-liners whose cost is
 * known by construction (a busy loop burns one CPU second per second; `sleep 30` none). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/child.h"
#include "../sim/frontend/resources.h"

static int sh(const char *script, const ws_child_limits *lim, ws_child_result *r)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    ws_error err;
    int rc = ws_child_run(argv, lim, r, &err);
    if (rc) fail_msg("ws_child_run: %s", err.msg);
    return rc;
}

static void test_output_and_exit_status_come_back(void **state)
{
    (void)state;
    ws_child_result r;
    sh("echo out; echo err >&2; exit 3", NULL, &r);
    assert_int_equal(r.status, 3);
    assert_int_equal(r.limit, WS_CHILD_LIMIT_NONE);
    assert_string_equal(r.output, "out\nerr\n");
    assert_string_equal(r.why, "sh exited with status 3");
    free(r.output);
    sh("exit 0", NULL, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.why, "");
    free(r.output);
}

static void test_a_program_that_cannot_be_started_says_so(void **state)
{
    (void)state;
    char *argv[] = {"/nonexistent/ptxas", NULL};
    ws_child_result r;
    ws_error err;
    assert_int_equal(ws_child_run(argv, NULL, &r, &err), 0);
    assert_int_equal(r.status, 127);
    assert_non_null(strstr(r.why, "cannot run /nonexistent/ptxas: No such file or directory"));
    free(r.output);
}

/* A tmpdir limit sets the child's TMPDIR and drops TMP and TEMP; the rest of the environment
 * is passed on, and the parent's own environment is untouched. */
static void test_tmpdir_replaces_the_temporary_folder_variables(void **state)
{
    (void)state;
    setenv("TMPDIR", "/tmp/$(user-text)", 1);
    setenv("TMP", "/tmp/tmp-var", 1);
    setenv("TEMP", "/tmp/temp-var", 1);
    setenv("WS_CHILD_KEPT", "kept", 1);
    ws_child_limits lim = {.wall_s = 30, .tmpdir = "/tmp/warpscope-own"};
    ws_child_result r;
    sh("echo \"[$TMPDIR][${TMP-unset}][${TEMP-unset}][$WS_CHILD_KEPT]\"", &lim, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.output, "[/tmp/warpscope-own][unset][unset][kept]\n");
    free(r.output);
    assert_string_equal(getenv("TMPDIR"), "/tmp/$(user-text)");
    unsetenv("TMPDIR");
    unsetenv("TMP");
    unsetenv("TEMP");
    unsetenv("WS_CHILD_KEPT");
}

/* The wall clock stops a child that waits (no CPU used), and the whole group goes: the
 * background sleep the script started is gone too. */
static void test_the_wall_clock_limit_kills_the_whole_process_group(void **state)
{
    (void)state;
    char pidfile[] = "/tmp/ws_child_XXXXXX";
    int fd = mkstemp(pidfile);
    assert_true(fd >= 0);
    close(fd);
    char script[200];
    snprintf(script, sizeof script, "sleep 30 & echo $! > %s; sleep 30", pidfile);
    ws_child_limits lim = {.wall_s = 0.3};
    ws_child_result r;
    sh(script, &lim, &r);
    assert_int_equal(r.limit, WS_CHILD_LIMIT_WALL);
    assert_true(r.wall_used_s >= 0.3 && r.wall_used_s < 5);
    assert_string_equal(r.why, "sh was stopped after 0.3 s of wall-clock time (its limit)");
    free(r.output);
    FILE *f = fopen(pidfile, "r");
    assert_non_null(f);
    int bg = 0;
    assert_int_equal(fscanf(f, "%d", &bg), 1);
    fclose(f);
    unlink(pidfile);
    bool alive = true;
    for (int i = 0; i < 100 && alive; i++) {        /* killed: gone, or a zombie its new parent reaps */
        char path[64], st[256] = "";
        snprintf(path, sizeof path, "/proc/%d/stat", bg);
        FILE *p = fopen(path, "r");
        if (p) {
            if (!fgets(st, sizeof st, p)) st[0] = 0;
            fclose(p);
        }
        const char *close_paren = strrchr(st, ')');
        alive = p && close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z';
        if (alive) nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    assert_false(alive);
}

static void test_the_cpu_limit_stops_a_busy_loop_and_is_named(void **state)
{
    (void)state;
    ws_child_limits lim = {.wall_s = 30, .cpu_s = 1};
    ws_child_result r;
    sh("while :; do :; done", &lim, &r);
    assert_int_equal(r.limit, WS_CHILD_LIMIT_CPU);
    if (r.cpu_used_s < 0.9) {                  /* seen once under a loaded make test: say the number */
        free(r.output);
        fail_msg("stopped at its CPU limit after %.3f s of CPU time (want >= 0.9); %s", r.cpu_used_s, r.why);
    }
    assert_string_equal(r.why, "sh was stopped after 1 s of CPU time (its limit)");
    free(r.output);
}

/* A shell holding 200 MB in a variable cannot under a 64 MiB address space. */
static void test_the_memory_limit_stops_a_growing_child_and_is_named(void **state)
{
    (void)state;
    ws_child_limits lim = {.wall_s = 30, .mem_bytes = 64ull << 20};
    ws_child_result r;
    sh("x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo ${#x}", &lim, &r);
    assert_int_equal(r.limit, WS_CHILD_LIMIT_MEMORY);
    assert_non_null(strstr(r.why, "sh stopped at its memory limit (64 MiB of address space"));
    free(r.output);
}

static void test_garbage_in_a_seconds_variable_is_refused(void **state)
{
    (void)state;
    double t;
    ws_error err;
    setenv("WS_TEST_SECONDS", "abc", 1);
    assert_int_equal(ws_env_seconds("WS_TEST_SECONDS", 60, 3600, &t, &err), -1);
    assert_non_null(strstr(err.msg, "WS_TEST_SECONDS='abc': expected a number of seconds above 0"));
    const char *bad[] = {"-5", "0", "nan", "inf", "10x", "1e9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("WS_TEST_SECONDS", bad[i], 1);
        if (ws_env_seconds("WS_TEST_SECONDS", 60, 3600, &t, &err) != -1) fail_msg("'%s' was accepted", bad[i]);
    }
    setenv("WS_TEST_SECONDS", "2.5", 1);
    assert_int_equal(ws_env_seconds("WS_TEST_SECONDS", 60, 3600, &t, &err), 0);
    assert_true(t == 2.5);
    unsetenv("WS_TEST_SECONDS");
    assert_int_equal(ws_env_seconds("WS_TEST_SECONDS", 60, 3600, &t, &err), 0);
    assert_true(t == 60);
}

static bool have_ptxas(void)
{
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0;
}

/* `.shared .align 1073741824` made ptxas take 26 s and 4 GB: under a 256 MiB limit it stops
 * at once, the resources fall back to the estimate, and the estimate says why. */
static void test_ptxas_on_a_huge_alignment_stops_at_its_memory_limit(void **state)
{
    (void)state;
    if (!have_ptxas()) {
        print_message("no ptxas at /usr/local/cuda/bin: checking that ws_resources_ptxas says so\n");
        ws_resources r;
        assert_int_equal(ws_resources_ptxas(".version 8.0\n", "sm_90", "k", NULL, &r), -1);
        return;
    }
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out)\n{\n  .shared .align 1073741824 .b8 s[4];\n"
                      "  .reg .b32 %r<2>;\n  ld.shared.u32 %r1, [s];\n  ret;\n}\n";
    ws_child_limits lim = {.wall_s = 60, .cpu_s = 30, .mem_bytes = 256ull << 20};
    ws_resources r;
    memset(&r, 0, sizeof r);
    assert_int_equal(ws_resources_ptxas(ptx, "sm_90", "k", &lim, &r), -1);
    if (!strstr(r.source, "ptxas stopped at its memory limit (256 MiB of address space"))
        fail_msg("source: %s", r.source);
}

/* ptxas compiles the entry asked for only (-e): beside an entry that would exhaust the memory
 * limit (the alignment above), the small one's report comes back at once, 64 bytes of smem. */
static void test_ptxas_compiles_only_the_entry_asked_for(void **state)
{
    (void)state;
    if (!have_ptxas()) {
        print_message("no ptxas at /usr/local/cuda/bin\n");
        return;
    }
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry big(.param .u64 out)\n{\n  .shared .align 1073741824 .b8 s[4];\n"
                      "  .reg .b32 %r<2>;\n  ld.shared.u32 %r1, [s];\n  ret;\n}\n"
                      ".visible .entry small(.param .u64 out)\n{\n  .shared .align 4 .b8 t[64];\n"
                      "  .reg .b32 %r<2>;\n  ld.shared.u32 %r1, [t];\n  ret;\n}\n";
    ws_child_limits lim = {.wall_s = 60, .cpu_s = 30, .mem_bytes = 256ull << 20};
    ws_resources r;
    memset(&r, 0, sizeof r);
    if (ws_resources_ptxas(ptx, "sm_90", "small", &lim, &r)) fail_msg("small: %s", r.source);
    assert_true(r.from_ptxas);
    assert_int_equal(r.static_smem, 64);            /* .b8 t[64] */
}

int main(void)
{
    setenv("WARPSCOPE_CACHE", "off", 1);  /* tools run now, not products an earlier run kept */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_and_exit_status_come_back),
        cmocka_unit_test(test_a_program_that_cannot_be_started_says_so),
        cmocka_unit_test(test_tmpdir_replaces_the_temporary_folder_variables),
        cmocka_unit_test(test_the_wall_clock_limit_kills_the_whole_process_group),
        cmocka_unit_test(test_the_cpu_limit_stops_a_busy_loop_and_is_named),
        cmocka_unit_test(test_the_memory_limit_stops_a_growing_child_and_is_named),
        cmocka_unit_test(test_garbage_in_a_seconds_variable_is_refused),
        cmocka_unit_test(test_ptxas_on_a_huge_alignment_stops_at_its_memory_limit),
        cmocka_unit_test(test_ptxas_compiles_only_the_entry_asked_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
