/* test_cli.c - common/cli.c, the option parser every command uses: both value forms,
 * operand order, "--", the errors (each naming the option, an unknown one with the
 * nearest known one), and that nothing of one parse leaks into the next. The spec
 * here is a small stand-in command; the last tests run every real command. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/cli.h"
#include "../common/commands.h"

typedef struct {
    ws_cli_common c;
    bool lines;
    uint64_t budget;
    int reps;
    const char *out;
} demo_opts;

static const ws_opt demo_options[] = {
    WS_CLI_OPT_DEFINE,
    WS_CLI_OPT_DEVICE,
    WS_CLI_OPT_ARCH,
    WS_CLI_OPT_JSON,
    WS_CLI_OPT_CSV,
    WS_CLI_OPT_RESULTS,
    {.name = "lines", .kind = WS_OPT_FLAG, .at = offsetof(demo_opts, lines), .help = "every line"},
    {.name = "budget", .kind = WS_OPT_U64, .at = offsetof(demo_opts, budget), .arg = "N", .lo = 1,
     .needs = "a positive number", .help = "a limit"},
    {.name = "reps", .kind = WS_OPT_INT, .at = offsetof(demo_opts, reps), .arg = "N", .lo = 1, .hi = 100,
     .needs = "a count from 1 to 100", .help = "repetitions"},
    {.name = "out", .kind = WS_OPT_STRING, .at = offsetof(demo_opts, out), .arg = "DIR", .help = "a folder"},
};

static const ws_cli_spec demo_spec = {
    .command = "demo",
    .usage = "usage: warpscope demo <kernel> [options]\n",
    .opts = demo_options,
    .nopts = WS_CLI_COUNT(demo_options),
};

static char g_err[4096];         /* stderr of the last parse */

/* Parses the NULL-terminated words (after the command name) into *o; stderr in g_err. */
static int parse(demo_opts *o, int *nargs, char **argv, ...)
{
    int argc = 0;
    argv[argc++] = "demo";
    va_list ap;
    va_start(ap, argv);
    for (char *a; (a = va_arg(ap, char *));) argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    *o = (demo_opts){.reps = 3};
    char path[] = "/tmp/ws_test_cli_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    int rc = ws_cli_parse(&demo_spec, argc, argv, o, nargs);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, g_err, sizeof g_err - 1, 0);
    g_err[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return rc;
}

static void test_a_value_may_follow_after_a_space_or_an_equals_sign(void **state)
{
    (void)state;
    demo_opts a, b;
    char *va[16], *vb[16];
    int na, nb;
    assert_int_equal(parse(&a, &na, va, "--budget", "500", "--device", "t4", "-D", "N=8", "k", NULL), WS_CLI_RUN);
    assert_int_equal(parse(&b, &nb, vb, "--budget=500", "--device=t4", "-DN=8", "k", NULL), WS_CLI_RUN);
    assert_true(a.budget == 500 && b.budget == 500);
    assert_string_equal(a.c.dev->key, "t4");
    assert_ptr_equal(a.c.dev, b.c.dev);
    assert_int_equal(a.c.ov.n, 1);
    assert_int_equal(b.c.ov.n, 1);
    assert_string_equal(b.c.ov.name[0], "N");
    assert_string_equal(b.c.ov.value[0], "8");
    assert_int_equal(na, 1);
    assert_int_equal(nb, 1);
}

static void test_operands_keep_their_order_between_options_and_after_dash_dash(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "first", "--lines", "second", "--reps", "7", "--", "--json", "-D", NULL),
                     WS_CLI_RUN);
    assert_int_equal(n, 4);
    assert_string_equal(v[1], "first");
    assert_string_equal(v[2], "second");
    assert_string_equal(v[3], "--json"); /* after "--" an operand, not the flag */
    assert_string_equal(v[4], "-D");
    assert_true(o.lines);
    assert_false(o.c.json);
    assert_int_equal(o.reps, 7);
}

static void test_the_shared_options_get_their_defaults(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "k", NULL), WS_CLI_RUN);
    assert_ptr_equal(o.c.dev, ws_device_default());
    assert_string_equal(o.c.arch, WS_DEFAULT_ARCH);
    assert_null(o.c.results_dir);
    assert_int_equal(o.reps, 3); /* the command's own default is left alone */
}

static void test_the_arch_follows_the_device_unless_given(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "k", "--device", "t4", NULL), WS_CLI_RUN);
    assert_string_equal(o.c.arch, "sm_75");          /* a T4 is compute capability 7.5 */
    assert_int_equal(parse(&o, &n, v, "k", "--device", "a100", "--arch", "sm_90", NULL), WS_CLI_RUN);
    assert_string_equal(o.c.arch, "sm_90");          /* an explicit --arch wins */
}

static void test_an_unknown_option_is_named_with_the_nearest_known_one(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "k", "--budegt", "5", NULL), WS_EXIT_USAGE); /* two letters swapped */
    assert_non_null(strstr(g_err, "warpscope: demo: unknown option '--budegt'; did you mean '--budget'?"));
    assert_int_equal(parse(&o, &n, v, "--jsn=1", NULL), WS_EXIT_USAGE); /* the value is not part of the name */
    assert_non_null(strstr(g_err, "unknown option '--jsn'; did you mean '--json'?"));
    assert_int_equal(parse(&o, &n, v, "-budget", "5", NULL), WS_EXIT_USAGE); /* one dash short */
    assert_non_null(strstr(g_err, "unknown option '-budget'; did you mean '--budget'?"));
    assert_int_equal(parse(&o, &n, v, "--frobnicate", NULL), WS_EXIT_USAGE); /* nothing close: no guess */
    assert_non_null(strstr(g_err, "unknown option '--frobnicate'"));
    assert_null(strstr(g_err, "did you mean"));
    assert_int_equal(parse(&o, &n, v, "-x", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "unknown option '-x'"));
}

static void test_an_abbreviated_long_option_is_refused(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    /* getopt_long would take the unique prefix; a later --bud... option would change its meaning */
    assert_int_equal(parse(&o, &n, v, "--bud", "5", "k", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "unknown option '--bud'"));
    assert_true(o.budget == 0);
}

static void test_a_missing_or_malformed_value_names_the_option_and_what_it_needs(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "k", "--out", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "warpscope: demo: --out needs a value"));
    assert_int_equal(parse(&o, &n, v, "k", "--out=", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "--out needs a value"));
    assert_int_equal(parse(&o, &n, v, "k", "-D", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "-D needs NAME=VALUE"));
    assert_int_equal(parse(&o, &n, v, "--reps", "abc", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: --reps abc: expected a whole number; --reps needs a count from 1 to 100"));
    assert_int_equal(parse(&o, &n, v, "--reps=101", NULL), WS_EXIT_USAGE); /* one past the range */
    assert_non_null(strstr(g_err, "--reps 101: out of range"));
    assert_int_equal(parse(&o, &n, v, "--reps=100", NULL), WS_CLI_RUN);    /* the range is inclusive */
    assert_int_equal(o.reps, 100);
    assert_int_equal(parse(&o, &n, v, "--budget", "-1", NULL), WS_EXIT_USAGE); /* strtoull would wrap it */
    assert_non_null(strstr(g_err, "--budget -1: expected a whole number"));
    assert_int_equal(parse(&o, &n, v, "--budget", "18446744073709551616", NULL), WS_EXIT_USAGE); /* 2^64 */
    assert_non_null(strstr(g_err, "out of range"));
    assert_int_equal(parse(&o, &n, v, "--budget", "18446744073709551615", NULL), WS_CLI_RUN); /* 2^64 - 1 */
    assert_true(o.budget == UINT64_MAX);
    assert_int_equal(parse(&o, &n, v, "--lines=yes", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: --lines takes no value"));
}

static void test_the_shared_options_are_checked_once_for_every_command(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    assert_int_equal(parse(&o, &n, v, "--device", "gtx480", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: unknown device 'gtx480'; known: h200"));
    assert_int_equal(parse(&o, &n, v, "--results", "tests/data/nonexistent", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: --results tests/data/nonexistent: no such folder"));
    assert_int_equal(parse(&o, &n, v, "--results=README.md", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: --results README.md: not a folder"));
    assert_int_equal(parse(&o, &n, v, "--json", "--csv", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "demo: choose one of --json and --csv"));
    /* -D may name a macro, whose value is any text, so only a malformed name fails here; a
     * parameter's expression is checked when it is known to be one (--param) */
    assert_int_equal(parse(&o, &n, v, "-D", "1W=3", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "-D needs NAME=EXPR or NAME, got '1W=3'"));
    assert_int_equal(parse(&o, &n, v, "--param", "W=1+", NULL), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "--param W=1+: expected an expression"));
}

static void test_a_parse_that_stopped_inside_a_word_leaves_nothing_for_the_next(void **state)
{
    (void)state;
    demo_opts o;
    char *v[16];
    int n;
    /* -h returns in the middle of "-hq": getopt still points at the 'q' unless it is reset */
    int saved = dup(1), nul = open("/dev/null", O_WRONLY);
    fflush(stdout);
    dup2(nul, 1);
    int rc = parse(&o, &n, v, "-hq", NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(nul);
    assert_int_equal(rc, WS_EXIT_OK);
    assert_int_equal(parse(&o, &n, v, "k", NULL), WS_CLI_RUN);
    assert_int_equal(n, 1);
    assert_string_equal(v[1], "k");
    assert_string_equal(g_err, "");
}

static void test_edit_distance_counts_single_character_edits(void **state)
{
    (void)state;
    assert_int_equal(ws_cli_edit_distance("kitten", "sitting"), 3); /* k->s, e->i, +g */
    assert_int_equal(ws_cli_edit_distance("", "abc"), 3);
    assert_int_equal(ws_cli_edit_distance("json", "json"), 0);
    assert_int_equal(ws_cli_edit_distance("flaw", "lawn"), 2);      /* -f, +n */
    const char *names[] = {"--budget", "--blocks", "--block"};
    assert_string_equal(ws_cli_nearest("--blokcs", names, 3), "--blocks");
    assert_null(ws_cli_nearest("--budget", names, 3));              /* a known name is no typo */
}

/* Runs cmd with argv, stdout captured into out; returns the exit code. */
static int run_captured(int (*cmd)(int, char **), int argc, char **argv, char *out, size_t cap)
{
    char path[] = "/tmp/ws_test_cli_out_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ssize_t n = pread(fd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return rc;
}

static const struct {
    const char *name;
    int (*run)(int, char **);
} COMMANDS[] = {
    {"list", ws_cmd_list}, {"ptx", ws_cmd_ptx}, {"sim", ws_cmd_sim}, {"gpu", ws_cmd_gpu}, {"check", ws_cmd_check},
#ifdef WS_HAVE_SDL
    {"viz", ws_cmd_viz},
#endif
};

static void test_every_command_prints_the_one_version_and_its_help(void **state)
{
    (void)state;
    char out[16384], want[128];
    snprintf(want, sizeof want, "warpscope %s\n", ws_cli_version());
    assert_non_null(strstr(want, WS_VERSION));
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        char *av[] = {(char *)COMMANDS[i].name, "--version", NULL};
        assert_int_equal(run_captured(COMMANDS[i].run, 2, av, out, sizeof out), WS_EXIT_OK);
        assert_string_equal(out, want);
        char *hv[] = {(char *)COMMANDS[i].name, "-h", NULL};
        assert_int_equal(run_captured(COMMANDS[i].run, 2, hv, out, sizeof out), WS_EXIT_OK);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: warpscope %s", COMMANDS[i].name);
        assert_non_null(strstr(out, usage));
        assert_non_null(strstr(out, "--version"));
    }
}

static void test_every_command_refuses_an_unknown_option_with_exit_1(void **state)
{
    (void)state;
    char out[4096];
    int saved = dup(2), nul = open("/dev/null", O_WRONLY);
    fflush(stderr);
    dup2(nul, 2);
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        char *av[] = {(char *)COMMANDS[i].name, "--no-such-option", NULL};
        assert_int_equal(run_captured(COMMANDS[i].run, 2, av, out, sizeof out), WS_EXIT_USAGE);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(nul);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_value_may_follow_after_a_space_or_an_equals_sign),
        cmocka_unit_test(test_operands_keep_their_order_between_options_and_after_dash_dash),
        cmocka_unit_test(test_the_shared_options_get_their_defaults),
        cmocka_unit_test(test_the_arch_follows_the_device_unless_given),
        cmocka_unit_test(test_an_unknown_option_is_named_with_the_nearest_known_one),
        cmocka_unit_test(test_an_abbreviated_long_option_is_refused),
        cmocka_unit_test(test_a_missing_or_malformed_value_names_the_option_and_what_it_needs),
        cmocka_unit_test(test_the_shared_options_are_checked_once_for_every_command),
        cmocka_unit_test(test_a_parse_that_stopped_inside_a_word_leaves_nothing_for_the_next),
        cmocka_unit_test(test_edit_distance_counts_single_character_edits),
        cmocka_unit_test(test_every_command_prints_the_one_version_and_its_help),
        cmocka_unit_test(test_every_command_refuses_an_unknown_option_with_exit_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
