/* test_readme_commands.c - the README's commands exit as the README says (issue 26): runs
 * scripts/readme-commands.sh, which runs every command README.md shows a user in a scratch folder
 * like a fresh clone against $WS_BIN (build/asan/warpscope otherwise), and fails naming each line
 * whose exit status is not the documented one. Its lines are printed into this binary's log.
 * The quick lines run under make test, the lines marked `# slow` under make test-slow. The
 * script's own rules are tested on a small README of known outcomes first, so a script that
 * passes everything would fail here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slow.h"

static char g_dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws_test_readme_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    const char *b = getenv("WS_BIN");
    if (!(b && *b)) setenv("WS_BIN", "build/asan/warpscope", 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs the script on readme (NULL = README.md) with WS_SLOW=slow; its output goes to out (NULL =
 * this binary's stdout). Returns its exit status, -1 when it did not exit. */
static int run_script(const char *readme, const char *slow, const char *out)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (out && !freopen(out, "w", stdout)) _exit(126);
        if (out) dup2(1, 2);
        setenv("WS_SLOW", slow, 1);
        char *argv[] = {"sh", "scripts/readme-commands.sh", (char *)readme, NULL};
        execv("/bin/sh", argv);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* A README of five lines whose outcomes follow from the convention: a list that works, a
 * mistyped kernel documented as working (exit 1, not 0: named), a race documented as exit 2, a
 * GPU command with no driver (exit 4), a slow line left out of the quick run. */
static void test_the_script_names_each_line_that_does_not_exit_as_documented(void **state)
{
    (void)state;
    char readme[128], out[128];
    snprintf(readme, sizeof readme, "%s/FAKE.md", g_dir);
    snprintf(out, sizeof out, "%s/out.txt", g_dir);
    FILE *f = fopen(readme, "w");
    assert_non_null(f);
    fputs("# a page\n"
          "```sh\n"
          "build/warpscope list                      # the catalog\n"
          "build/warpscope sim no_such_kernel        # works, it says\n"
          "build/warpscope sim tests/data/planted/missing_sync_transpose.cu --racecheck   # exit 2: a race\n"
          "build/warpscope gpu copy_float            # needs a GPU\n"
          "build/warpscope sim copy_float            # slow: left to make test-slow\n"
          "```\n"
          "```\n"
          "not a command: this block is not tagged sh\n"
          "```\n",
          f);
    fclose(f);
    int rc = run_script(readme, "0", out);
    char *text = slurp(out);
    assert_non_null(text);
    if (rc != 1) fail_msg("exit %d, want 1: %s", rc, text);
    const char *want[] = {
        "ok    FAKE.md:3: build/warpscope list: exit 0",
        "FAIL  FAKE.md:4: build/warpscope sim no_such_kernel: exit 1, documented 0",
        "ok    FAKE.md:5: build/warpscope sim tests/data/planted/missing_sync_transpose.cu --racecheck: exit 2",
        "ok    FAKE.md:6: build/warpscope gpu copy_float: exit 4 (gpu",
        "left to make test-slow: FAKE.md:7: build/warpscope sim copy_float",
        "README commands: 4 run, 1 not as documented, 1 left to make test-slow",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i])) fail_msg("no '%s' in:\n%s", want[i], text);
    assert_null(strstr(text, "not a command"));
}

static void test_every_quick_readme_command_exits_as_documented(void **state)
{
    (void)state;
    int rc = run_script(NULL, "0", NULL);
    if (rc) fail_msg("scripts/readme-commands.sh: exit %d; the FAIL lines above name each command", rc);
}

static void test_every_slow_readme_command_exits_as_documented(void **state)
{
    (void)state;
    int rc = run_script(NULL, "1", NULL);
    if (rc == 77) fail_msg("the README marks no line `# slow`: this case would test nothing");
    if (rc) fail_msg("scripts/readme-commands.sh (WS_SLOW=1): exit %d; the FAIL lines above name each command", rc);
}

int main(void)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_the_script_names_each_line_that_does_not_exit_as_documented),
        cmocka_unit_test(test_every_quick_readme_command_exits_as_documented),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_every_slow_readme_command_exits_as_documented),
    };
    return ws_run_tests(quick, slow, setup, teardown);
}
