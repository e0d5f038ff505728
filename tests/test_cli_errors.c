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
#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/ptxgen.h"
#include "../common/text.h"
#include "child_run.h"

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

/* Runs warpscope with args (NULL-terminated) and stdout to out_path; returns the exit
 * code, stderr in g_err. */
static int run_ws_to(const char *const *args, const char *out_path)
{
    return ws_test_run_child(args, g_dir, out_path, g_err, sizeof g_err, NULL);
}

static int run_ws(const char *const *args)
{
    return run_ws_to(args, "/dev/null");
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
    /* issue 21: an override over the parameter itself; W = 512 in demos/transpose.cu, so W*2 meant 1024 */
    {{"sim", "-D", "W=W*2", "copy_32x32"}, WS_EXIT_USAGE,
     "<command line>:1:3: error: -D W=W*2: an override cannot use W itself, it replaces its value; it may use no "
     "parameter (W is the first) (W is 512 by default: for that, write -D W=1024)"},
    {{"sim", "-D", "H=W+H", "copy_32x32"}, WS_EXIT_USAGE,
     "-D H=W+H: an override cannot use H itself, it replaces its value; it may use the parameters declared before H "
     "(H is 512 by default: for that, write -D H=1024)"},
    {{"sim", "-D", "W=0", "copy_32x32"}, WS_EXIT_USAGE, "grid.x = 0; it must be between 1 and 2147483647"},
    {{"sim", "--device"}, WS_EXIT_USAGE, "--device needs a value"},
    {{"sim", "--device", "gtx480", "copy_32x32"}, WS_EXIT_USAGE, "unknown device 'gtx480'; known: h200"},
    {{"sim", "--json", "--csv", "copy_32x32"}, WS_EXIT_USAGE, "choose one of --json and --csv"},
    /* issue 26: --save DIR (common/save.h) */
    {{"sim", "copy_32x32", "--save-inputs"}, WS_EXIT_USAGE, "sim: --save-inputs goes with --save DIR"},
    {{"sim", "--compare", "copy_32x32", "copy_32x32", "--save", "x"}, WS_EXIT_USAGE,
     "sim: --save takes one kernel, not --compare"},
    {{"sim", "copy_32x32", "--sample", "--save", "x"}, WS_EXIT_USAGE, "sim: --save needs every block simulated"},
    {{"sim", "copy_32x32", "--save", "README.md"}, WS_EXIT_USAGE,
     "README.md: error: cannot save into README.md: README.md is a file, not a folder"},
    {{"sim", "copy_32x32", "--save", "README.md/out"}, WS_EXIT_USAGE,
     "cannot save into README.md/out: README.md is a file, not a folder"},
    {{"sim", "copy_32x32", "--save="}, WS_EXIT_USAGE, "--save"},
    {{"check", "copy_32x32", "--save-inputs"}, WS_EXIT_USAGE, "check: --save-inputs goes with --save DIR"},
    {{"check", "--replay", "results/h200.json", "--save", "x"}, WS_EXIT_USAGE,
     "check: --save writes the buffers of a run; --markdown and --replay run nothing"},
    {{"gpu", "copy_32x32", "--save-inputs"}, WS_EXIT_USAGE, "gpu: --save-inputs goes with --save DIR"},
    /* a misspelt kernel gets the nearest catalog name, in sim as in ptx */
    {{"sim", "copy_flaot"}, WS_EXIT_USAGE, "unknown kernel 'copy_flaot' (did you mean 'copy_float'?"},
    {{"ptx", "copy_flaot"}, WS_EXIT_USAGE, "unknown kernel 'copy_flaot' (did you mean 'copy_float'?"},
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
    /* resource limits: refused before anything is allocated or run, as input errors (issue 17) */
    {{"sim", "--full", "-D", "W=100000000", "copy_32x32"}, WS_EXIT_USAGE,
     "50000000 blocks of 1024 threads cannot finish within the instruction budget"},
    {{"sim", "-D", "W=50000", "-D", "H=50000", "copy_32x32"}, WS_EXIT_USAGE,
     "needs 20000000000 bytes (18.63 GiB) of buffers, more than the simulator's limit"},
    {{"sim", "--budget", "1000", "copy_32x32"}, WS_EXIT_USAGE,
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
    /* issue 21: --record that cannot be written or is no results file: exit 1 before the GPU is opened */
    {{"check", "copy_32x32", "--record", "tests/data/nonexistent/h200.json"}, WS_EXIT_USAGE,
     "tests/data/nonexistent/h200.json: error: cannot write the results file: No such file or directory"},
    {{"check", "copy_32x32", "--record", "README.md"}, WS_EXIT_USAGE,
     "README.md: error: not a warpscope results file (not a JSON object); --record leaves it as it is"},
    {{"check", "copy_32x32", "--record", "tests/data/results/broken.json"}, WS_EXIT_USAGE,
     "tests/data/results/broken.json: error: not valid JSON near"},
#endif
    /* a results file that is not one: empty, a folder, cut short (check works without a GPU here) */
    {{"check", "--markdown", "/dev/null"}, WS_EXIT_USAGE, "/dev/null: error: cannot read a character device: only regular files are read"},
    {{"check", "--markdown", "tests/data"}, WS_EXIT_USAGE, "tests/data: error: cannot read a folder: only regular files are read"},
    {{"check", "--markdown", "tests/data/results/broken.json"}, WS_EXIT_USAGE,
     "tests/data/results/broken.json: error: not valid JSON"},
    {{"check", "--markdown", "tests/data/nonexistent.json"}, WS_EXIT_USAGE,
     "tests/data/nonexistent.json: error: cannot open: No such file or directory"},
    {{"check", "--replay", "/dev/null"}, WS_EXIT_USAGE, "/dev/null: error: cannot read a character device: only regular files are read"},
    {{"check", "--replay", "tests/data"}, WS_EXIT_USAGE, "tests/data: error: cannot read a folder: only regular files are read"},
    {{"check", "--replay", "tests/data/results/broken.json"}, WS_EXIT_USAGE,
     "tests/data/results/broken.json: error: not a warpscope results file"},
    {{"check", "--replay", "results/h200.json", "copy_32x32", "no_such_kernel"}, WS_EXIT_USAGE,
     "results/h200.json: error: no recorded run with counters of kernel 'no_such_kernel'"},
    /* a -D that is a slip of a parameter is no macro (issue 26: 923 lines of header errors) */
    {{"sim", "transpose_naive", "-D", "w=16"}, WS_EXIT_USAGE,
     "-D w: 'transpose_naive' has no parameter 'w'; did you mean 'W'?"},
    {{"sim", "copy_float", "--param", "n=16"}, WS_EXIT_USAGE, "--param n: 'copy_float' has no parameter 'n'; did you mean 'N'?"},
    /* options --markdown / --replay would silently ignore */
    {{"check", "--replay", "results/h200.json", "--markdown", "results/h200.json"}, WS_EXIT_USAGE,
     "check: choose one of --markdown and --replay"},
    {{"check", "--markdown", "results/h200.json", "copy_float"}, WS_EXIT_USAGE,
     "check: --markdown takes one results file and no other option or kernel"},
    /* (--replay --json is a JSON report now, issue 16; --replay with another option still is not) */
    {{"check", "--replay", "results/h200.json", "--gpu-only"}, WS_EXIT_USAGE, "check: --replay takes kernel names"},
    {{"check", "--replay", "results/h200.json", "-D", "N=5", "copy_float"}, WS_EXIT_USAGE,
     "check: --replay takes kernel names"},
    /* --no-sim is the GPU's time and counters: with --gpu-only or --no-counters one of the two is dropped
       silently, so the pair is refused naming both (before the GPU is looked for: no GPU here) */
    {{"check", "copy_float", "--no-sim", "--gpu-only"}, WS_EXIT_USAGE, "check: choose one of --no-sim and --gpu-only"},
    {{"check", "--gpu-only", "copy_float", "--no-sim"}, WS_EXIT_USAGE, "check: choose one of --no-sim and --gpu-only"},
    {{"check", "copy_float", "--no-sim", "--no-counters"}, WS_EXIT_USAGE,
     "check: choose one of --no-sim and --no-counters"},
    {{"check", "--replay", "results/h200.json", "--no-sim"}, WS_EXIT_USAGE, "check: --replay takes kernel names"},
    {{"check", "--validate", "results/h200.json", "--no-sim"}, WS_EXIT_USAGE,
     "check: --validate takes results files and --png only"},
    {{"check", "--markdown", "results/h200.json", "--no-sim"}, WS_EXIT_USAGE,
     "check: --markdown takes one results file and no other option or kernel"},
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
    "__global__ void spin(int *out) { while (++out[threadIdx.x] != 0) { } }\n";

static const char *LOOP_PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".file 1 \"spin.cu\"\n"
    ".visible .entry spin(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "$L_top:\n"
    "  .loc 1 8 0\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n"             /* ends after 2^32 increments: the budget comes first */
    "  @%p1 bra $L_top;\n"
    "  ret;\n"
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

/* Block 0 spins until block 1 sets a flag: on a GPU both blocks are resident and it ends; here
 * block 1 only starts once block 0 has finished, so the budget stops it, and the message says
 * why (a one-block loop gets no such hint: there is no other block to wait for). */
static void test_waiting_for_another_block_ends_with_the_hint_that_blocks_run_in_turn(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  wait\nbuffer  flag  int  1  init=zero  output\n"
                     "grid    2\nblock   32\nargs    flag\n*/\n__global__ void wait(volatile int *flag) {\n"
                     "  if (blockIdx.x == 1) *flag = 1;\n  else while (*flag == 0) { }\n}\n";
    write_kernel("wait", cu, ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"wait.cu\"\n"
                             ".visible .entry wait(.param .u64 flag)\n{\n  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n"
                             "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [flag];\n  mov.u32 %r1, %ctaid.x;\n"
                             "  setp.eq.u32 %p1, %r1, 1;\n  @%p1 bra $L_set;\n$L_spin:\n  .loc 1 10 0\n"
                             "  ld.volatile.global.u32 %r2, [%rd1];\n  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra $L_spin;\n"
                             "  ret;\n$L_set:\n  .loc 1 9 0\n  mov.u32 %r3, 1;\n  st.volatile.global.u32 [%rd1], %r3;\n"
                             "  ret;\n}\n");
    char path[128], want[300];
    snprintf(path, sizeof path, "%s/wait.cu", g_dir);
    const char *args[] = {"sim", "--budget", "100000", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_KERNEL_FAULT);
    snprintf(want, sizeof want, "%s:10: error: wait: block (0,0,0) warp 0: stopped after the instruction budget", path);
    if (!strstr(g_err, want) || !strstr(g_err, "warpscope runs the blocks one after another"))
        fail_msg("got: %s", g_err);
    write_kernel("spin", LOOP_CU, LOOP_PTX);           /* grid 1 */
    snprintf(path, sizeof path, "%s/spin.cu", g_dir);
    const char *one[] = {"sim", "--budget", "100000", path, NULL};
    assert_int_equal(run_ws(one), WS_EXIT_KERNEL_FAULT);
    assert_null(strstr(g_err, "one after another"));
}

/* init=none: a buffer each thread writes before it reads it is clean. Reading out[t + 32]
 * instead (the buffer holds 64 ints, the one warp writes out[0..31]) reads bytes no thread
 * wrote: 32 uninitialised reads, the first by thread 0 at byte 32 * 4 = 128. */
static void test_a_never_initialised_buffer_is_clean_when_written_before_it_is_read(void **state)
{
    (void)state;
    const char *ptx_fmt = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"%s.cu\"\n"
                          ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<6>;\n"
                          "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
                          "  add.s64 %%rd3, %%rd1, %%rd2;\n  .loc 1 8 0\n  st.global.u32 [%%rd3], %%r1;\n"
                          "  add.s64 %%rd4, %%rd3, %d;\n  .loc 1 9 0\n  ld.global.u32 %%r2, [%%rd4];\n  ret;\n}\n";
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  int  64  init=none\n"
                     "grid    1\nblock   32\nargs    out\n*/\n__global__ void k(int *out) { }\n";
    char ptx[1024], path[128];
    snprintf(ptx, sizeof ptx, ptx_fmt, "own", 0);      /* reads its own element back */
    write_kernel("own", cu, ptx);
    snprintf(path, sizeof path, "%s/own.cu", g_dir);
    const char *args[] = {"sim", path, NULL};
    if (run_ws(args) != WS_EXIT_OK) fail_msg("own: %s", g_err);
    snprintf(ptx, sizeof ptx, ptx_fmt, "next", 128);   /* reads out[t + 32]: never written */
    write_kernel("next", cu, ptx);
    snprintf(path, sizeof path, "%s/next.cu", g_dir);
    const char *args2[] = {"sim", "--memcheck", path, NULL};
    assert_int_equal(run_ws(args2), WS_EXIT_KERNEL_FAULT);
    if (!strstr(g_err, "memcheck: 32 uninitialised global read accesses") ||
        !strstr(g_err, "by thread (0,0,0): byte 128 of buffer 'out' (init=none) was never written"))
        fail_msg("next: %s", g_err);
}

/* A NUL byte in the PTX beside a .cu ended the text there: what followed (here a second
 * function that would not even parse) was silently dropped. It is refused with its place. */
static void test_a_nul_byte_in_the_ptx_is_refused_with_its_line(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                     "grid    1\nblock   32\nargs    out\n*/\n__global__ void k(int *out) { }\n";
    write_file("nul.cu", cu);
    char head[64], path[128];
    snprintf(head, sizeof head, "// warpscope-source-hash: %016llx\n", ws_source_hash(cu, strlen(cu)));
    const char body[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                        ".visible .entry k(.param .u64 out)\n{\n  ret;\n}\n\0frobnicate\n";
    snprintf(path, sizeof path, "%s/nul.ptx", g_dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(head, f);
    fwrite(body, 1, sizeof body - 1, f);            /* the NUL and what follows it too */
    fclose(f);
    snprintf(path, sizeof path, "%s/nul.cu", g_dir);
    const char *args[] = {"sim", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_USAGE);
    char want[200];
    snprintf(want, sizeof want, "%s/nul.ptx:9:1: error: NUL byte in the PTX text", g_dir); /* header + 7 lines */
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
    assert_int_equal(run_ws(args), WS_EXIT_USAGE); /* an input error, not a kernel fault */
    char want[200];
    snprintf(want, sizeof want, "%s:6:", path);   /* the args line */
    if (!strstr(g_err, want) || !strstr(g_err, "the description passes 2 arguments but kernel 'k' takes 1"))
        fail_msg("got: %s", g_err);
}

/* One packing rule for sim and gpu (sim/frontend/params.c): a value that is not the parameter's type
 * or does not fit it is refused at its argument, exit 1. 2.5 is no int; 1<<40 = 2^40 needs 41
 * bits, a .u32 holds 32. */
static void test_an_argument_that_does_not_fit_its_parameter_is_refused_at_the_args_line(void **state)
{
    (void)state;
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n  ret;\n}\n";
    struct { const char *arg, *want; } cases[] = {
        {"2.5", "argument 2 (2.5) is a floating-point literal but parameter 2 ('n', .u32) is an integer"},
        {"1<<40", "argument 2 (1<<40 = 1099511627776) does not fit parameter 2 ('n', .u32)"},
        {"-1", NULL},                              /* C++ wraps -1 into an unsigned int: accepted */
        {"(1<<32)-1", NULL},                       /* the largest .u32 */
        {"1<<32", "argument 2 (1<<32 = 4294967296) does not fit parameter 2 ('n', .u32)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cu[512], path[128], want[256];
        snprintf(cu, sizeof cu, "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                                "grid    1\nblock   32\nargs    out, %s\n*/\n__global__ void k(int *out, unsigned n) { }\n",
                 cases[i].arg);
        write_kernel("argfit", cu, ptx);
        snprintf(path, sizeof path, "%s/argfit.cu", g_dir);
        const char *args[] = {"sim", path, NULL};
        int code = run_ws(args);
        if (!cases[i].want) {
            if (code != WS_EXIT_OK) fail_msg("args out, %s: exit %d: %s", cases[i].arg, code, g_err);
            continue;
        }
        snprintf(want, sizeof want, "%s:6:14: error: %s", path, cases[i].want); /* "args    out, " is 13 wide */
        if (code != WS_EXIT_USAGE || !strstr(g_err, want))
            fail_msg("args out, %s: exit %d, got: %s\nwant: %s", cases[i].arg, code, g_err, want);
    }
}

/* An instruction the simulator does not run is a refusal of the input (exit 1), not a fault
 * of the kernel: red.global.v2.f32 (sm_90 vector reductions) parses but is not simulated. */
static void test_an_unsupported_instruction_is_an_input_error(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  float  64  init=zero  output\n"
                     "grid    1\nblock   32\nargs    out\n*/\n__global__ void k(float *out) { }\n";
    write_kernel("unsup", cu, ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out)\n{\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<2>;\n"
                              "  ld.param.u64 %rd1, [out];\n  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f3F800000;\n"
                              "  red.global.v2.f32.add [%rd1], {%f1, %f2};\n  ret;\n}\n");
    char path[128];
    snprintf(path, sizeof path, "%s/unsup.cu", g_dir);
    const char *args[] = {"sim", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_USAGE);
    if (!strstr(g_err, "unsupported instruction")) fail_msg("got: %s", g_err);
}

/* --memcheck keeps going past memory errors; when the run later stops for another reason (the
 * budget here) what it found up to then is still reported: all 32 lanes read out[32 + tid], past
 * the 32-int buffer, once, before the loop that never ends. */
static void test_memcheck_reports_what_it_found_before_the_budget_stopped_the_run(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                     "grid    1\nblock   32\nargs    out\n*/\n__global__ void k(int *out) { }\n";
    write_kernel("mcstop", cu, ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 out)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
                               "  .reg .b64 %rd<4>;\n"
                               "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  add.u32 %r1, %r1, 32;\n"
                               "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
                               "  ld.global.u32 %r2, [%rd3];\n$L_top:\n  add.u32 %r2, %r2, 1;\n"
                               "  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra $L_top;\n  ret;\n}\n"); /* 2^32 rounds: the budget first */
    char path[128];
    snprintf(path, sizeof path, "%s/mcstop.cu", g_dir);
    const char *args[] = {"sim", "--memcheck", "--budget", "100000", path, NULL};
    assert_int_equal(run_ws(args), WS_EXIT_KERNEL_FAULT);
    if (!strstr(g_err, "stopped after the instruction budget of 100000") ||
        !strstr(g_err, "memcheck: 32 global out of bounds accesses; the first:") ||
        !strstr(g_err, "memcheck summary: 32 memory errors found before the run stopped"))
        fail_msg("got: %s", g_err);
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

/* One table of exit codes (common/cli.c) in every command's --help, the general usage and
 * the README, word for word. */
static void test_every_help_and_the_readme_show_the_one_exit_code_table(void **state)
{
    (void)state;
    const char *cmds[] = {"list", "ptx", "sim", "gpu", "check", "help",
#ifdef WS_HAVE_SDL
                          "viz",
#endif
                          NULL};
    char out[128];
    snprintf(out, sizeof out, "%s/help.txt", g_dir);
    static char text[65536];
    for (int i = 0; cmds[i]; i++) {
        const char *args[] = {cmds[i], "--help", NULL};
        assert_int_equal(run_ws_to(args, out), WS_EXIT_OK);
        FILE *f = fopen(out, "r");
        assert_non_null(f);
        text[fread(text, 1, sizeof text - 1, f)] = 0;
        fclose(f);
        if (!strstr(text, ws_cli_exit_table)) fail_msg("warpscope %s --help lacks the exit-code table:\n%s", cmds[i], text);
    }
    const char *args[] = {"--help", NULL};
    assert_int_equal(run_ws_to(args, out), WS_EXIT_OK);
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    assert_non_null(strstr(text, ws_cli_exit_table));
    f = fopen("README.md", "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    if (!strstr(text, ws_cli_exit_table)) fail_msg("README.md lacks the exit-code table of common/cli.c:\n%s", ws_cli_exit_table);
}

/* A report that cannot reach stdout (a full disk: /dev/full fails every write with ENOSPC)
 * is not a success: exit 1 and a message, whether it fails mid-way or at the final flush. */
static void test_output_that_cannot_be_written_is_an_error_not_a_truncated_success(void **state)
{
    (void)state;
    const char *json[] = {"sim", "--json", "copy_32x32", NULL};
    assert_int_equal(run_ws_to(json, "/dev/full"), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "warpscope: cannot write the output to stdout"));
    const char *list[] = {"list", NULL};
    assert_int_equal(run_ws_to(list, "/dev/full"), WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "cannot write the output to stdout: No space left on device"));
    const char *help[] = {"sim", "--help", NULL};
    assert_int_equal(run_ws_to(help, "/dev/full"), WS_EXIT_USAGE);
}

static char *slurp_text(const char *path)
{
    static char text[1 << 17];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    return text;
}

/* A note with a Latin-1 byte (E9, not UTF-8), an ANSI colour sequence (ESC [ 31 m), a C1 CSI
 * (C2 9B) and a euro sign, and a source line ending in an OSC title sequence (ESC ] 0 ; ... BEL):
 * JSON stays valid UTF-8 (E9 -> U+FFFD), text output spells every control out. */
static void test_bytes_from_a_description_neither_break_json_nor_reach_the_terminal(void **state)
{
    (void)state;
    const char *cu = "/*@warpscope\nkernel  k\nnote    caf\xe9 \x1b[31mred\x1b[0m \xc2\x9b" "2J \xe2\x82\xac\n"
                     "buffer  out  int  32  init=zero  output\ngrid    1\nblock   32\nargs    out\n*/\n"
                     "__global__ void k(int *out) { out[threadIdx.x] = 1; } // \x1b]0;t\x07\n";
    write_kernel("hostile", cu, ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"hostile.cu\"\n"
                                ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
                                "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
                                "  add.s64 %rd3, %rd1, %rd2;\n  mov.u32 %r2, 1;\n  .loc 1 9 0\n"
                                "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n");
    char path[128], out[128];
    snprintf(path, sizeof path, "%s/hostile.cu", g_dir);
    snprintf(out, sizeof out, "%s/out.txt", g_dir);
    const char *json_cmds[][5] = {{"list", "--json", path, NULL}, {"sim", "--json", path, NULL}};
    for (int c = 0; c < 2; c++) {
        assert_int_equal(run_ws_to(json_cmds[c], out), WS_EXIT_OK);
        const char *t = slurp_text(out);
        for (const unsigned char *p = (const unsigned char *)t; *p;) {
            size_t n = ws_utf8_seq(p);
            if (!n) fail_msg("%s --json: byte 0x%02x at %ld is not UTF-8", json_cmds[c][0], *p, (long)(p - (const unsigned char *)t));
            p += n;
        }
        if (c == 0 && !strstr(t, "caf\xef\xbf\xbd \\u001b[31mred")) fail_msg("list --json: %s", t);
    }
    const char *text_cmds[][5] = {{"list", path, NULL}, {"sim", "--lines", path, NULL}, {"ptx", path, NULL}};
    for (int c = 0; c < 3; c++) {
        assert_int_equal(run_ws_to(text_cmds[c], out), WS_EXIT_OK);
        const char *t = slurp_text(out);
        for (const unsigned char *p = (const unsigned char *)t; *p; p++)
            if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0))
                fail_msg("%s: control byte 0x%02x reached stdout:\n%s", text_cmds[c][0], *p, t);
        if (c < 2 && !strstr(t, "caf\\xe9 \\x1b[31mred\\x1b[0m \\u009b2J \xe2\x82\xac")) fail_msg("%s: %s", text_cmds[c][0], t);
        if (c == 2 && !strstr(t, "// \\x1b]0;t\\x07")) fail_msg("ptx: %s", t);
    }
}

/* An empty catalog folder is an empty list (qsort of no names was undefined behaviour, which
 * this sanitizer build turns into an abort). */
static void test_an_empty_catalog_folder_lists_no_descriptions(void **state)
{
    (void)state;
    char dir[128], out[128];
    snprintf(dir, sizeof dir, "%s/empty", g_dir);
    snprintf(out, sizeof out, "%s/out.txt", g_dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    setenv("WARPSCOPE_CATALOG", dir, 1);
    const char *args[] = {"list", NULL};
    int code = run_ws_to(args, out);
    unsetenv("WARPSCOPE_CATALOG");
    rmdir(dir);
    assert_int_equal(code, WS_EXIT_OK);
    assert_null(strstr(g_err, "runtime error"));
    assert_non_null(strstr(slurp_text(out), "0 descriptions in 0 files"));
}

#ifdef WS_HAVE_CUDA
/* WARPSCOPE_DEVICE and WARPSCOPE_GPU_TIMEOUT are input: garbage is refused by name (exit 1)
 * before the driver is opened, so the answer is the same with or without a GPU. */
static void test_garbage_in_the_gpu_environment_is_refused_by_name(void **state)
{
    (void)state;
    struct { const char *var, *value, *want; } cases[] = {
        {"WARPSCOPE_DEVICE", "abc", "WARPSCOPE_DEVICE='abc': expected a GPU index"},
        {"WARPSCOPE_DEVICE", "-1", "WARPSCOPE_DEVICE='-1': expected a GPU index"},
        {"WARPSCOPE_DEVICE", "1x", "WARPSCOPE_DEVICE='1x': expected a GPU index"},
        {"WARPSCOPE_GPU_TIMEOUT", "abc", "WARPSCOPE_GPU_TIMEOUT='abc': expected a number of seconds"},
        {"WARPSCOPE_GPU_TIMEOUT", "0", "WARPSCOPE_GPU_TIMEOUT='0': expected a number of seconds"},
        {"WARPSCOPE_GPU_TIMEOUT", "-5", "WARPSCOPE_GPU_TIMEOUT='-5'"},
        {"WARPSCOPE_GPU_TIMEOUT", "nan", "WARPSCOPE_GPU_TIMEOUT='nan'"},
    };
    const char *cmds[][3] = {{"gpu", "copy_float", NULL}, {"check", "copy_float", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int c = 0; c < 2; c++) {
            setenv(cases[i].var, cases[i].value, 1);
            int code = run_ws(cmds[c]);
            unsetenv(cases[i].var);
            if (code != WS_EXIT_USAGE || !strstr(g_err, cases[i].want))
                fail_msg("%s=%s %s: exit %d: %s", cases[i].var, cases[i].value, cmds[c][0], code, g_err);
        }
}
#endif

#ifdef WS_HAVE_SDL
/* A font that cannot be read or is not a font is the user's input, exit 1 (it was 5). */
static void test_a_bad_font_file_is_an_input_error(void **state)
{
    (void)state;
    char out[128];
    snprintf(out, sizeof out, "%s/frames", g_dir);
    mkdir(out, 0755);
    const char *args[] = {"viz", "copy_32x32", "--headless", "--frames", "1", "--out", out, NULL};
    setenv("WARPSCOPE_FONT", "tests/data/nonexistent.ttf", 1);
    int code = run_ws(args);
    assert_int_equal(code, WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "WARPSCOPE_FONT=tests/data/nonexistent.ttf: cannot read that font file"));
    setenv("WARPSCOPE_FONT", "README.md", 1);
    code = run_ws(args);
    unsetenv("WARPSCOPE_FONT");
    assert_int_equal(code, WS_EXIT_USAGE);
    assert_non_null(strstr(g_err, "README.md: cannot open font"));
    rmdir(out);
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
    const char *names[] = {"stderr.txt", "spin.cu", "spin.ptx", "badptx.cu", "badptx.ptx", "argc.cu", "argc.ptx", "argfit.cu", "argfit.ptx", "unsup.cu", "unsup.ptx", "mcstop.cu", "mcstop.ptx", "help.txt", "hostile.cu", "hostile.ptx", "out.txt", "wait.cu", "wait.ptx", "own.cu", "own.ptx", "next.cu", "next.ptx", "nul.cu", "nul.ptx",
                           "norun.json", "ptx_out.txt"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        unlink(path);
    }
    return rmdir(g_dir);
}

/* Issue 21 item 10: a file name holding a terminal escape is printed spelled out (\x1b) in
 * sim's and ptx's headers, never as the byte a terminal acts on. */
static void test_a_file_name_with_a_terminal_escape_is_printed_escaped(void **state)
{
    (void)state;
    char cu[160], ptx[160], cmd[600], out[128];
    snprintf(cu, sizeof cu, "%s/e\x1b[31mvil.cu", g_dir);
    snprintf(ptx, sizeof ptx, "%s/e\x1b[31mvil.ptx", g_dir);
    snprintf(cmd, sizeof cmd, "cp demos/coalescing.cu '%s' && cp demos/coalescing.ptx '%s'", cu, ptx);
    assert_int_equal(system(cmd), 0);
    snprintf(out, sizeof out, "%s/out.txt", g_dir);
    char arg[200];
    snprintf(arg, sizeof arg, "%s:copy_float", cu);
    const char *cmds[] = {"sim", "ptx"};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {cmds[i], arg, NULL};
        assert_int_equal(run_ws_to(args, out), WS_EXIT_OK);
        char *text = slurp(out);
        if (strchr(text, 0x1b)) fail_msg("%s printed an ESC byte: %.300s", cmds[i], text);
        assert_non_null(strstr(text, "e\\x1b[31mvil.cu"));
    }
    unlink(cu);
    unlink(ptx);
}

/* Issue 21 item 10: --help describes the CSV every --csv writes (common/csv.h's header), not
 * the columns of an older layout. */
static void test_help_names_the_csv_header_that_is_written(void **state)
{
    (void)state;
    char out[128];
    snprintf(out, sizeof out, "%s/help.txt", g_dir);
    const char *cmds[] = {"sim", "check"};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {cmds[i], "--help", NULL};
        assert_int_equal(run_ws_to(args, out), WS_EXIT_OK);
        char *text = slurp(out);
        assert_non_null(text);
        if (!strstr(text, "--csv               long-format CSV on stdout: " WS_CSV_COLUMNS))
            fail_msg("%s --help: %.2000s", cmds[i], text);
        assert_null(strstr(text, "scope,line,name,value,basis,description"));
    }
}

/* Issue 21 item 9: a binary copied out of the project (no demos/ beside it or in the working
 * folder) simulates a .cu named by path; only a catalog name needs the catalog. The sanitizer
 * build, two folders below the project (build/asan/), finds the catalog from any folder. */
static void test_a_binary_outside_the_project_simulates_a_file_without_a_catalog(void **state)
{
    (void)state;
    char bin[160], cmd[600], out[160];
    snprintf(bin, sizeof bin, "%s/bin", g_dir);
    assert_int_equal(mkdir(bin, 0755), 0);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/warpscope' && cp demos/coalescing.cu demos/coalescing.ptx '%s/'", ws_test_bin(),
             bin, g_dir);
    assert_int_equal(system(cmd), 0);
    char here[4096], exe[200], abs_bin[4200];
    assert_non_null(getcwd(here, sizeof here));
    snprintf(exe, sizeof exe, "%s/warpscope", bin);
    snprintf(abs_bin, sizeof abs_bin, "%s/%s", here, ws_test_bin());
    snprintf(out, sizeof out, "%s/out.txt", g_dir);
    const struct { const char *exe, *arg; int code; const char *want_out, *want_err; } runs[] = {
        {exe, "coalescing.cu:copy_float", WS_EXIT_OK, "copy_float (coalescing.cu:", ""},
        {exe, "copy_float", WS_EXIT_USAGE, "", "no catalog folder"},
        {ws_test_bin()[0] == '/' ? ws_test_bin() : abs_bin, "copy_float", WS_EXIT_OK, "copy_float (", ""},
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char errpath[200];
        snprintf(errpath, sizeof errpath, "%s/stderr.txt", g_dir);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644), o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (e < 0 || o < 0 || chdir(g_dir)) _exit(126);
            dup2(e, 2);
            dup2(o, 1);
            unsetenv("WARPSCOPE_CATALOG");
            execl(runs[i].exe, runs[i].exe, "sim", runs[i].arg, (char *)NULL);
            _exit(127);
        }
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st));
        char err_text[16384];
        snprintf(err_text, sizeof err_text, "%s", slurp(errpath));
        char *o = slurp(out);
        if (WEXITSTATUS(st) != runs[i].code || !strstr(o, runs[i].want_out) || !strstr(err_text, runs[i].want_err))
            fail_msg("%s sim %s: exit %d (want %d), stdout %.200s, stderr %.300s", runs[i].exe, runs[i].arg,
                     WEXITSTATUS(st), runs[i].code, o, err_text);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s/coalescing.cu' '%s/coalescing.ptx'", bin, g_dir, g_dir);
    assert_int_equal(system(cmd), 0);
}

/* One kernel lookup for every command: a template on an enum, named by its enumerator
 * (bitonic_step<ASCENDING>, which the PTX demangles as <(sort_order)0>), is found by ptx as
 * sim finds it: by the compiler's lowered name, not by a demangled match. */
static void test_ptx_finds_an_enum_templated_kernel_that_sim_finds(void **state)
{
    (void)state;
    char out[192];
    snprintf(out, sizeof out, "%s/ptx_out.txt", g_dir);
    const char *ptx[] = {"ptx", "tests/data/frontend/enum_template.cu:sort_up", NULL};
    int rc = run_ws_to(ptx, out);
    if (rc) fail_msg("ptx: exit %d: %s", rc, g_err);
    char *text = slurp(out);
    assert_non_null(text);
    assert_non_null(strstr(text, "entry _Z12bitonic_stepIL10sort_order0EEvPi")); /* ASCENDING = 0 */
    const char *sim[] = {"sim", "tests/data/frontend/enum_template.cu:sort_up", NULL};
    assert_int_equal(run_ws(sim), WS_EXIT_OK);
}

/* A clean --racecheck / --memcheck run ends as compute-sanitizer ends one
 * (results/sanitizer-logs/, the racecheck and memcheck logs); a JSON run keeps stderr for
 * findings, and a run with findings prints no "0 errors". */
static void test_a_clean_sanitizer_run_says_zero_errors_in_compute_sanitizers_words(void **state)
{
    (void)state;
    const char *clean[] = {"sim", "--racecheck", "--memcheck", "copy_float", "-D", "N=1024", NULL};
    assert_int_equal(run_ws(clean), WS_EXIT_OK);
    assert_non_null(strstr(g_err, "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"));
    assert_non_null(strstr(g_err, "========= ERROR SUMMARY: 0 errors\n"));
    const char *json[] = {"sim", "--racecheck", "--memcheck", "copy_float", "-D", "N=1024", "--json", NULL};
    assert_int_equal(run_ws(json), WS_EXIT_OK);
    assert_null(strstr(g_err, "SUMMARY"));
    const char *dirty[] = {"sim", "--memcheck", "tests/data/planted/reduction_off_by_one.cu", NULL};
    assert_int_equal(run_ws(dirty), WS_EXIT_KERNEL_FAULT);
    assert_null(strstr(g_err, "ERROR SUMMARY: 0 errors"));
    const char *racy[] = {"sim", "--racecheck", "tests/data/planted/missing_sync_transpose.cu", NULL};
    assert_int_equal(run_ws(racy), WS_EXIT_KERNEL_FAULT);
    assert_null(strstr(g_err, "0 hazards displayed"));
}

/* Where nvdisasm is missing (issue 26): every command that needs it says so and what to run, and
 * check --replay leaves out the rows the PTX level cannot reproduce (the record counted the
 * machine code) instead of calling them regressions (exit 3). The search (common/toolkit.h) is
 * given nothing to find: no PATH, no CUDA_HOME, no PYTHONPATH, a fresh cache folder with no wheel,
 * a HOME without one (the default cache's wheel is looked for too); only /usr/local/cuda/bin is fixed in it. */
static void test_without_nvdisasm_each_command_says_what_to_run_and_replay_leaves_out_sass_rows(void **state)
{
    (void)state;
    if (access("/usr/local/cuda/bin/nvdisasm", X_OK) == 0) skip(); /* SKIPPED: it cannot be hidden here */
    const char *vars[] = {"PATH", "CUDA_HOME", "PYTHONPATH", "WARPSCOPE_NVDISASM", "WARPSCOPE_CACHE", "HOME",
                          "XDG_CACHE_HOME"};
    enum { NV = sizeof vars / sizeof vars[0] };
    char *saved[NV];
    for (int i = 0; i < NV; i++) {
        const char *v = getenv(vars[i]);
        saved[i] = v ? strdup(v) : NULL;
    }
    /* a long cache folder: the remedy must survive the bounded counters line whole */
    char cache[160], remedy[320], out[192];
    snprintf(cache, sizeof cache, "%s/a-cache-folder-with-a-long-name-as-a-home-directory-may-have", g_dir);
    snprintf(remedy, sizeof remedy, "nvdisasm not found; run scripts/deps.sh (make demo does), which fetches NVIDIA's "
             "nvidia-cuda-nvdisasm wheel into %s/nvdisasm", cache);
    snprintf(out, sizeof out, "%s/nvdisasm_out.txt", g_dir);
    setenv("PATH", "/nonexistent", 1);
    setenv("CUDA_HOME", "/nonexistent", 1);
    unsetenv("PYTHONPATH");
    unsetenv("WARPSCOPE_NVDISASM");
    setenv("WARPSCOPE_CACHE", cache, 1);
    setenv("HOME", g_dir, 1);
    unsetenv("XDG_CACHE_HOME");
    /* the environment is put back before any failure is reported, so later cases see their own */
    static char why[sizeof g_err + 64];
    why[0] = 0;
    /* ptx --sass exists to show the machine code: without it, an input error naming the remedy */
    const char *sass[] = {"ptx", "--sass", "copy_float", NULL};
    int rc = run_ws(sass);
    if (rc != WS_EXIT_USAGE || !strstr(g_err, remedy)) snprintf(why, sizeof why, "ptx --sass: exit %d: %s", rc, g_err);
    /* sim runs on, PTX-level, and its counters line says why and what to run */
    const char *sim[] = {"sim", "copy_float", "-D", "N=1024", NULL};
    rc = run_ws_to(sim, out);
    char *text = slurp(out);
    if (!why[0] && (rc != WS_EXIT_OK || !text || !strstr(text, "counters   PTX-level: ") || !strstr(text, remedy)))
        snprintf(why, sizeof why, "sim: exit %d: %s", rc, text ? text : "(no output)");
    /* results/h200.json counted copy_float's machine code: the exact rows are left out, not failed */
    const char *replay[] = {"check", "--replay", "results/h200.json", "copy_float", NULL};
    rc = run_ws_to(replay, out);
    text = slurp(out);
    if (!why[0] && (rc != WS_EXIT_OK || !text || !strstr(text, "exact rows of 1 runs left out: the record counted the "
                                                              "machine code") || !strstr(text, remedy)))
        snprintf(why, sizeof why, "check --replay: exit %d: %s", rc, text ? text : "(no output)");
    for (int i = 0; i < NV; i++) {
        if (saved[i]) setenv(vars[i], saved[i], 1);
        else unsetenv(vars[i]);
        free(saved[i]);
    }
    char rm[256];                      /* the group's teardown removes only the files it names */
    snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
    if (system(rm) != 0 && !why[0]) snprintf(why, sizeof why, "cannot remove %s", cache);
    unlink(out);
    if (why[0]) fail_msg("%s", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_malformed_command_line_gets_its_exit_code_and_message),
        cmocka_unit_test(test_ptx_finds_an_enum_templated_kernel_that_sim_finds),
        cmocka_unit_test(test_a_clean_sanitizer_run_says_zero_errors_in_compute_sanitizers_words),
        cmocka_unit_test(test_without_nvdisasm_each_command_says_what_to_run_and_replay_leaves_out_sass_rows),
        cmocka_unit_test(test_an_error_is_one_line_that_starts_with_the_program_name),
        cmocka_unit_test(test_a_kernel_that_never_ends_stops_at_the_budget_with_its_line),
        cmocka_unit_test(test_waiting_for_another_block_ends_with_the_hint_that_blocks_run_in_turn),
        cmocka_unit_test(test_a_never_initialised_buffer_is_clean_when_written_before_it_is_read),
        cmocka_unit_test(test_a_nul_byte_in_the_ptx_is_refused_with_its_line),
        cmocka_unit_test(test_malformed_ptx_beside_a_kernel_is_named_by_file_line_and_column),
        cmocka_unit_test(test_a_description_whose_arguments_do_not_fit_the_kernel_is_refused),
        cmocka_unit_test(test_an_argument_that_does_not_fit_its_parameter_is_refused_at_the_args_line),
        cmocka_unit_test(test_an_unsupported_instruction_is_an_input_error),
        cmocka_unit_test(test_memcheck_reports_what_it_found_before_the_budget_stopped_the_run),
        cmocka_unit_test(test_every_description_that_cannot_be_resolved_is_refused_at_its_expression),
        cmocka_unit_test(test_markdown_of_json_without_runs_is_refused_by_name),
        cmocka_unit_test(test_every_help_and_the_readme_show_the_one_exit_code_table),
        cmocka_unit_test(test_output_that_cannot_be_written_is_an_error_not_a_truncated_success),
        cmocka_unit_test(test_bytes_from_a_description_neither_break_json_nor_reach_the_terminal),
        cmocka_unit_test(test_an_empty_catalog_folder_lists_no_descriptions),
        cmocka_unit_test(test_a_binary_outside_the_project_simulates_a_file_without_a_catalog),
        cmocka_unit_test(test_help_names_the_csv_header_that_is_written),
        cmocka_unit_test(test_a_file_name_with_a_terminal_escape_is_printed_escaped),
#ifdef WS_HAVE_CUDA
        cmocka_unit_test(test_garbage_in_the_gpu_environment_is_refused_by_name),
#endif
#ifdef WS_HAVE_SDL
        cmocka_unit_test(test_a_bad_font_file_is_an_input_error),
#endif
#ifdef WS_HAVE_SDL
        cmocka_unit_test(test_viz_without_a_display_says_so_instead_of_waiting),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
