/* test_cli_errors.c - the malformed command-line corpus: the warpscope binary
 * ($WS_BIN, exported by scripts/run-tests.sh; build/asan/warpscope otherwise)
 * run with bad arguments, bad files and kernels that must be refused or
 * stopped. Each case asserts the exit code (common/commands.h) and a piece of
 * the one-line message that names what was wrong. Files the cases need (a .cu
 * with malformed PTX, a kernel that loops forever) are written to a temporary
 * folder, with the PTX's source-hash header computed so the catalog uses it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/ptxgen.h"

static const char *ws_bin(void)
{
    const char *b = getenv("WS_BIN");
    if (b && *b) return b;
    if (access("build/asan/warpscope", X_OK) == 0) return "build/asan/warpscope";
    fail_msg("no warpscope binary: set WS_BIN or build build/asan/warpscope (make test does both)");
    return NULL;
}

static char g_dir[64];           /* temporary folder for the file-based cases */
static char g_err[16384];        /* stderr of the last run */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t n = fread(g_err, 1, sizeof g_err - 1, f);
    g_err[n] = 0;
    fclose(f);
    return g_err;
}

/* Runs warpscope with args (NULL-terminated); returns the exit code, stderr in g_err. */
static int run_ws(const char *const *args)
{
    char errpath[128];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", g_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_WRONLY);
        if (fd < 0 || nul < 0) _exit(126);
        dup2(fd, 2);
        dup2(nul, 1);
        const char *argv[32];
        int n = 0;
        argv[n++] = ws_bin();
        for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    slurp(errpath);
    if (!WIFEXITED(st)) fail_msg("warpscope died with signal %d: %s", WTERMSIG(st), g_err);
    return WEXITSTATUS(st);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* x.cu and x.ptx in the temp folder, the PTX headed by x.cu's hash so it is used as is. */
static void write_kernel(const char *base, const char *cu, const char *ptx_body)
{
    char name[64], *ptx = malloc(strlen(ptx_body) + 64);
    snprintf(name, sizeof name, "%s.cu", base);
    write_file(name, cu);
    sprintf(ptx, "// warpscope-source-hash: %016llx\n%s", ws_source_hash(cu, strlen(cu)), ptx_body);
    snprintf(name, sizeof name, "%s.ptx", base);
    write_file(name, ptx);
    free(ptx);
}

typedef struct {
    const char *args[8];
    int exit_code;
    const char *want;            /* substring of stderr */
} cli_case;

/* Every argument-level error path of every command. */
static const cli_case CASES[] = {
    {{NULL}, WS_EXIT_USAGE, "usage: warpscope <command>"},
    {{"frobnicate"}, WS_EXIT_USAGE, "unknown command 'frobnicate'"},
    {{"help", "frobnicate"}, WS_EXIT_USAGE, "help: unknown command 'frobnicate'"},
    {{"list", "--bogus"}, WS_EXIT_USAGE, "list: unknown option '--bogus'"},
    {{"list", "no/such/file.cu"}, WS_EXIT_USAGE, "no/such/file.cu: error: cannot open"},
    {{"ptx"}, WS_EXIT_USAGE, "usage: warpscope ptx"},
    {{"ptx", "no_such_kernel"}, WS_EXIT_USAGE, "unknown kernel 'no_such_kernel'"},
    {{"ptx", "copy_32x32", "--arch"}, WS_EXIT_USAGE, "--arch needs a value"},
    {{"sim"}, WS_EXIT_USAGE, "sim: give one kernel"},
    {{"sim", "no_such_kernel"}, WS_EXIT_USAGE, "unknown kernel 'no_such_kernel'"},
    {{"sim", "-D"}, WS_EXIT_USAGE, "-D needs NAME=VALUE"},
    {{"sim", "-DW", "copy_32x32"}, WS_EXIT_USAGE, "<command line>:1:2: error: -D W: expected '='"},
    {{"sim", "-D", "W=1+", "copy_32x32"}, WS_EXIT_USAGE, "<command line>:1:5: error: -D W=1+: expected an expression"},
    {{"sim", "-D", "Q=3", "copy_32x32"}, WS_EXIT_USAGE, "'copy_32x32' has no parameter 'Q' (parameters: W, H)"},
    {{"sim", "-D", "W=1/0", "copy_32x32"}, WS_EXIT_USAGE, "division by zero"},
    {{"sim", "-D", "W=0", "copy_32x32"}, WS_EXIT_USAGE, "grid.x = 0; it must be between 1 and 2147483647"},
    {{"sim", "--device"}, WS_EXIT_USAGE, "--device needs a value"},
    {{"sim", "--device", "gtx480", "copy_32x32"}, WS_EXIT_USAGE, "unknown device 'gtx480'; known: h200"},
    {{"sim", "--json", "--csv", "copy_32x32"}, WS_EXIT_USAGE, "choose one of --json and --csv"},
    {{"sim", "--bogus", "copy_32x32"}, WS_EXIT_USAGE, "sim: unknown option '--bogus'"},
    {{"sim", "--budegt", "5", "copy_32x32"}, WS_EXIT_USAGE, "sim: unknown option '--budegt'; did you mean '--budget'?"},
    {{"sim", "--bud", "5", "copy_32x32"}, WS_EXIT_USAGE, "sim: unknown option '--bud'"}, /* no abbreviations */
    {{"sim", "-budget", "5", "copy_32x32"}, WS_EXIT_USAGE, "unknown option '-budget'; did you mean '--budget'?"},
    {{"sim", "--json=yes", "copy_32x32"}, WS_EXIT_USAGE, "sim: --json takes no value"},
    {{"sim", "--budget=0", "copy_32x32"}, WS_EXIT_USAGE, "--budget needs a positive number"},
    {{"sim", "--device=gtx480", "copy_32x32"}, WS_EXIT_USAGE, "unknown device 'gtx480'; known: h200"},
    {{"ptx", "--arch=", "copy_32x32"}, WS_EXIT_USAGE, "--arch needs a value"},
    {{"ptx", "copy_32x32", "--lines"}, WS_EXIT_USAGE, "ptx: unknown option '--lines'"},
    {{"list", "--jsn"}, WS_EXIT_USAGE, "list: unknown option '--jsn'; did you mean '--json'?"},
    {{"sin", "copy_32x32"}, WS_EXIT_USAGE, "unknown command 'sin'; did you mean 'sim'?"},
    {{"help", "sim", "ptx"}, WS_EXIT_USAGE, "help: one command at a time"},
    {{"gpu", "copy_32x32", "--reps=0"}, WS_EXIT_USAGE, "gpu: --reps 0: out of range; --reps needs a count from 1 to 100000"},
    {{"check", "copy_32x32", "--reps", "abc"}, WS_EXIT_USAGE, "check: --reps abc: expected a whole number"},
    {{"check", "--record"}, WS_EXIT_USAGE, "check: --record needs a file"},
    {{"sim", "a", "b", "c"}, WS_EXIT_USAGE, "too many kernels ('c')"},
    {{"sim", "--compare", "copy_32x32"}, WS_EXIT_USAGE, "--compare needs two kernels"},
    {{"sim", "--budget", "0", "copy_32x32"}, WS_EXIT_USAGE, "--budget needs a positive number"},
    {{"sim", "--budget", "-5", "copy_32x32"}, WS_EXIT_USAGE, "--budget needs a positive number"},
    {{"sim", "--budget", "99999999999999999999999", "copy_32x32"}, WS_EXIT_USAGE, "--budget needs a positive number"},
    {{"sim", "--results", "tests/data/nonexistent", "copy_32x32"}, WS_EXIT_USAGE,
     "sim: --results tests/data/nonexistent: no such folder"},
    {{"sim", "--results", "README.md", "copy_32x32"}, WS_EXIT_USAGE, "sim: --results README.md: not a folder"},
    {{"sim", "tests/data/nonexistent.cu"}, WS_EXIT_USAGE, "tests/data/nonexistent.cu: error: cannot open"},
    {{"sim", "tests/data/bad_desc/unknown_keyword.cu"}, WS_EXIT_USAGE,
     "tests/data/bad_desc/unknown_keyword.cu:4:1: error: unknown keyword 'kernal'"},
    {{"sim", "tests/data/desc/good_multi.cu"}, WS_EXIT_USAGE,
     "tests/data/desc/good_multi.cu has 3 descriptions (transpose_naive, transpose_wide, scale)"},
    {{"sim", "demos/transpose.cu:nope"}, WS_EXIT_USAGE, "demos/transpose.cu has no description 'nope'"},
    {{"sim", "demos"}, WS_EXIT_USAGE, "'demos' is a folder, not a kernel"},
    {{"sim", "README.md"}, WS_EXIT_USAGE, "'README.md' is not a .cu file, not a kernel"},
    /* resource limits: refused before anything is allocated or run */
    {{"sim", "-D", "W=100000000", "copy_32x32"}, WS_EXIT_KERNEL_FAULT,
     "50000000 blocks of 1024 threads cannot finish within the instruction budget"},
    {{"sim", "-D", "W=50000", "-D", "H=50000", "copy_32x32"}, WS_EXIT_KERNEL_FAULT,
     "needs 20000000000 bytes (18.63 GiB) of buffers, more than the simulator's limit"},
    {{"sim", "--budget", "1000", "copy_32x32"}, WS_EXIT_KERNEL_FAULT,
     "cannot finish within the instruction budget of 1000"},
    /* planted bugs through the command line */
    {{"sim", "tests/data/planted/read_past_end.cu"}, WS_EXIT_KERNEL_FAULT,
     "read_past_end.cu:21: error: read_past_end: block (3,0,0) warp 7 lane 7: global load of 4 bytes"},
    {{"sim", "--racecheck", "tests/data/planted/missing_sync_transpose.cu"}, WS_EXIT_KERNEL_FAULT,
     "racecheck: RAW hazard on shared memory"},
    {{"sim", "--memcheck", "tests/data/planted/reduction_off_by_one.cu"}, WS_EXIT_KERNEL_FAULT,
     "memcheck: 4 shared out of bounds accesses"},
    {{"sim", "tests/data/planted/divergent_barrier.cu"}, WS_EXIT_KERNEL_FAULT, "barrier reached by a diverged warp"},
    {{"gpu"}, WS_EXIT_USAGE, "gpu: which kernel?"},
    {{"check", "--bogus", "copy_32x32"}, WS_EXIT_USAGE, "check: unknown option '--bogus'"},
#ifdef WS_HAVE_CUDA /* a misspelt kernel is an input error before the driver is opened: same on any machine */
    {{"gpu", "no_such_kernel"}, WS_EXIT_USAGE, "unknown kernel 'no_such_kernel'"},
    {{"check", "copy_32x32", "no_such_kernel"}, WS_EXIT_USAGE, "unknown kernel 'no_such_kernel'"},
    {{"check", "demos/transpose.cu:nope"}, WS_EXIT_USAGE, "demos/transpose.cu has no description 'nope'"},
#endif
    /* a results file that is not one: empty, a folder, cut short (check works without a GPU here) */
    {{"check", "--markdown", "/dev/null"}, WS_EXIT_USAGE, "/dev/null: error: not valid JSON near: (end of file)"},
    {{"check", "--markdown", "tests/data"}, WS_EXIT_USAGE, "tests/data: error: read error: Is a directory"},
    {{"check", "--markdown", "tests/data/results/broken.json"}, WS_EXIT_USAGE,
     "tests/data/results/broken.json: error: not valid JSON"},
    {{"check", "--markdown", "tests/data/nonexistent.json"}, WS_EXIT_USAGE,
     "tests/data/nonexistent.json: error: cannot open: No such file or directory"},
    {{"check", "--replay", "/dev/null"}, WS_EXIT_USAGE, "/dev/null: error: not a warpscope results file"},
    {{"check", "--replay", "tests/data"}, WS_EXIT_USAGE, "tests/data: error: read error: Is a directory"},
    {{"check", "--replay", "results/h200.json", "copy_32x32", "no_such_kernel"}, WS_EXIT_USAGE,
     "results/h200.json: error: no recorded run with counters of kernel 'no_such_kernel'"},
    /* options --markdown / --replay would silently ignore */
    {{"check", "--replay", "results/h200.json", "--markdown", "results/h200.json"}, WS_EXIT_USAGE,
     "check: choose one of --markdown and --replay"},
    {{"check", "--markdown", "results/h200.json", "copy_float"}, WS_EXIT_USAGE,
     "check: --markdown takes one results file and no other option or kernel"},
    {{"check", "--replay", "results/h200.json", "--json"}, WS_EXIT_USAGE, "check: --replay takes kernel names"},
    {{"check", "--replay", "results/h200.json", "-D", "N=5", "copy_float"}, WS_EXIT_USAGE,
     "check: --replay takes kernel names"},
#ifdef WS_HAVE_SDL /* without SDL2, viz only says the build has no visualizer */
    {{"viz"}, WS_EXIT_USAGE, "viz: which kernel?"},
    {{"viz", "--bogus"}, WS_EXIT_USAGE, "viz: unknown option '--bogus'"},
    {{"viz", "copy_32x32", "--results", "tests/data/nonexistent"}, WS_EXIT_USAGE,
     "viz: --results tests/data/nonexistent: no such folder"},
    {{"viz", "copy_32x32", "--speed", "nan"}, WS_EXIT_USAGE, "--speed needs a number of steps per second"},
    {{"viz", "copy_32x32", "--blocks", "abc"}, WS_EXIT_USAGE, "viz: --blocks abc: expected a whole number"},
    {{"viz", "copy_32x32", "--blocks=0"}, WS_EXIT_USAGE, "viz: --blocks 0: out of range"},
    {{"viz", "copy_32x32", "--size=100x100"}, WS_EXIT_USAGE, "--size needs WIDTHxHEIGHT, at least 480x360"},
    {{"viz", "copy_32x32", "--warp", "32"}, WS_EXIT_USAGE, "viz: --warp 32: out of range"},
    /* output paths the user gave that cannot be written are input errors, not internal ones */
    {{"viz", "copy_32x32", "--headless", "--frames", "1", "--out", "README.md"}, WS_EXIT_USAGE,
     "README.md: exists and is not a folder"},
    {{"viz", "copy_32x32", "--headless", "--screenshot", "tests/data/nonexistent/x.png"}, WS_EXIT_USAGE,
     "tests/data/nonexistent/x.png: cannot write PNG"},
#endif
};

static void test_every_malformed_command_line_gets_its_exit_code_and_message(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const cli_case *c = &CASES[i];
        int code = run_ws(c->args);
        if (code != c->exit_code || !strstr(g_err, c->want) || strstr(g_err, "AddressSanitizer") ||
            strstr(g_err, "runtime error")) {
            char line[256] = "";
            for (int a = 0; c->args[a]; a++) {
                strncat(line, " ", sizeof line - strlen(line) - 1);
                strncat(line, c->args[a], sizeof line - strlen(line) - 1);
            }
            print_error("warpscope%s: exit %d (want %d), stderr: %.600s\n(want '%s')\n", line, code, c->exit_code,
                        g_err, c->want);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* The messages that name a file say only one line each: no stray newlines. */
static void test_an_error_is_one_line_that_starts_with_the_program_name(void **state)
{
    (void)state;
    const char *args[] = {"sim", "-D", "W=1+", "copy_32x32", NULL};
    assert_int_equal(run_ws(args), WS_EXIT_USAGE);
    assert_true(!strncmp(g_err, "warpscope: ", 11));
    assert_int_equal(strchr(g_err, '\n') - g_err + 1, (long)strlen(g_err));
}

static const char *LOOP_CU =
    "/*@warpscope\n"
    "kernel  spin\n"
    "buffer  out  int  32  init=zero  output\n"
    "grid    1\n"
    "block   32\n"
    "args    out\n"
    "*/\n"
    "__global__ void spin(int *out) { for (;;) out[threadIdx.x]++; }\n";

static const char *LOOP_PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".file 1 \"spin.cu\"\n"
    ".visible .entry spin(.param .u64 out)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "$L_top:\n"
    "  .loc 1 8 0\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  bra.uni $L_top;\n"
    "}\n";

static void test_a_kernel_that_never_ends_stops_at_the_budget_with_its_line(void **state)
{
    (void)state;
    write_kernel("spin", LOOP_CU, LOOP_PTX);
    char path[128];
    snprintf(path, sizeof path, "%s/spin.cu", g_dir);
    const char *args[] = {"sim", "--budget", "100000", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_KERNEL_FAULT);
    char want[256];
    snprintf(want, sizeof want, "%s:8: error: spin: block (0,0,0) warp 0: stopped after the instruction budget of 100000",
             path);
    if (!strstr(g_err, want)) fail_msg("got: %s\nwant: %s", g_err, want);
}

static void test_malformed_ptx_beside_a_kernel_is_named_by_file_line_and_column(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                     "grid    1\nblock   32\nargs    out\n*/\n__global__ void k(int *out) { }\n";
    write_kernel("badptx", cu, ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 out)\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n");
    char path[128], want[160];
    snprintf(path, sizeof path, "%s/badptx.cu", g_dir);
    snprintf(want, sizeof want, "%s/badptx.ptx:7:", g_dir);   /* hash line + 6: the bad instruction */
    const char *args[] = {"sim", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_USAGE);
    if (!strstr(g_err, want) || !strstr(g_err, "frobnicate")) fail_msg("got: %s\nwant: %s ... frobnicate", g_err, want);
    const char *args2[] = {"ptx", path, NULL};
    assert_int_equal(run_ws(args2), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, want));
}

static void test_a_description_whose_arguments_do_not_fit_the_kernel_is_refused(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                     "grid    1\nblock   32\nargs    out, 5\n*/\n__global__ void k(int *out) { }\n";
    write_kernel("argc", cu, ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out)\n{\n  ret;\n}\n");
    char path[128];
    snprintf(path, sizeof path, "%s/argc.cu", g_dir);
    const char *args[] = {"sim", path, NULL};
    int code = run_ws(args);
    assert_true(code == WS_EXIT_USAGE || code == WS_EXIT_KERNEL_FAULT);
    assert_non_null(strstr(g_err, "takes 1 parameters but the description passes 2 arguments"));
}

/* tests/data/bad_resolve: descriptions that parse but cannot be evaluated (range,
 * overflow, division by zero). Through `warpscope sim` each must exit 1 with
 * "file:LINE:COL: error: ..." as its first line says ("// expect: L:C: msg"). */
static void test_every_description_that_cannot_be_resolved_is_refused_at_its_expression(void **state)
{
    (void)state;
    const char *dir = "tests/data/bad_resolve";
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0, failures = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cu")) continue;
        char path[300], first[256], want[400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(first, sizeof first, f));
        fclose(f);
        int line = 0, col = 0, used = 0;
        if (sscanf(first, "// expect: %d:%d: %n", &line, &col, &used) != 2 || !used)
            fail_msg("%s: first line must be '// expect: LINE:COL: message'", path);
        first[strcspn(first, "\n")] = 0;
        snprintf(want, sizeof want, "warpscope: %s:%d:%d: error: ", path, line, col);
        const char *args[] = {"sim", path, NULL};
        int code = run_ws(args);
        if (code != WS_EXIT_USAGE || strncmp(g_err, want, strlen(want)) || !strstr(g_err, first + used)) {
            print_error("%s: exit %d, stderr: %s(want exit 1 and %s...%s)\n", path, code, g_err, want, first + used);
            failures++;
        }
        n++;
    }
    closedir(d);
    assert_true(n >= 15);
    assert_int_equal(failures, 0);
}

/* Valid JSON that is not a recording (no "runs") is refused, not rendered as an empty table. */
static void test_markdown_of_json_without_runs_is_refused_by_name(void **state)
{
    (void)state;
    write_file("norun.json", "{\"device\": {\"name\": \"x\"}}\n");
    char path[128];
    snprintf(path, sizeof path, "%s/norun.json", g_dir);
    const char *args[] = {"check", "--markdown", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "norun.json: error: not a warpscope results file (no \"runs\" array)"));
}

#ifdef WS_HAVE_SDL
/* With no display SDL opens an invisible window; viz must say so rather than wait forever. */
static void test_viz_without_a_display_says_so_instead_of_waiting(void **state)
{
    (void)state;
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    const char *args[] = {"viz", "copy_32x32", NULL};
    int code = run_ws(args);
    unsetenv("SDL_VIDEODRIVER");
    assert_int_equal(code, WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "viz: no display to open a window on (SDL video driver 'dummy')"));
}
#endif

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws_cli_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"stderr.txt", "spin.cu", "spin.ptx", "badptx.cu", "badptx.ptx", "argc.cu", "argc.ptx",
                           "norun.json"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        unlink(path);
    }
    return rmdir(g_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_malformed_command_line_gets_its_exit_code_and_message),
        cmocka_unit_test(test_an_error_is_one_line_that_starts_with_the_program_name),
        cmocka_unit_test(test_a_kernel_that_never_ends_stops_at_the_budget_with_its_line),
        cmocka_unit_test(test_malformed_ptx_beside_a_kernel_is_named_by_file_line_and_column),
        cmocka_unit_test(test_a_description_whose_arguments_do_not_fit_the_kernel_is_refused),
        cmocka_unit_test(test_every_description_that_cannot_be_resolved_is_refused_at_its_expression),
        cmocka_unit_test(test_markdown_of_json_without_runs_is_refused_by_name),
#ifdef WS_HAVE_SDL
        cmocka_unit_test(test_viz_without_a_display_says_so_instead_of_waiting),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
