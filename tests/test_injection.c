/* test_injection.c - no text of the user's reaches a shell (docs/security.md). nvcc runs its
 * sub-steps through sh with its options and file names pasted in double quotes, so every way
 * text reaches the nvcc fallback is tried with a payload that would create a marker file:
 * the description's compile line (-D value, -I folder), the file's name and folder, -D when it
 * is a macro, --macro, --compile-opt, TMPDIR, a catalog folder, and a results file replayed by
 * check --replay. Each case runs the built warpscope twice: once with a stand-in nvcc that
 * does what nvcc does with its arguments (pastes them into `sh -c`, in double quotes) and says
 * it ran - so the case proves the text got as far as the compiler - and, where the toolkit is
 * installed, once with the real nvcc. No marker may appear. Control characters (a newline ends
 * the PTX header's comment) are refused with exit 1. The stand-in passes run in make test, the
 * real nvcc's (a compile of a few seconds each) in make test-slow (tests/slow.h); each case has
 * a folder of its own, so either may run first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/commands.h"
#include "child_run.h"
#include "slow.h"

static char g_dir[64];             /* the test's folder: /tmp/ws-inj-XXXXXX */
static char g_err[16384];          /* stderr of the last run */
static char g_fake[128];           /* the stand-in nvcc */
static char g_ran[128];            /* it appends a line here each time it runs */
static char g_real_nvcc[256];      /* the toolkit's nvcc, "" when there is none */
static char g_catalog[300];        /* WARPSCOPE_CATALOG=<repo>/demos: warpscope runs in g_dir */
static bool g_real;                /* this case's pass: the real nvcc (else the stand-in) */

static void write_file(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    if (mode) assert_int_equal(chmod(path, (mode_t)mode), 0);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Runs warpscope with args (NULL-terminated) and env ("NAME=VALUE" pairs, NULL-terminated) in
 * cwd; returns its exit code, stderr in g_err. */
static int run_ws(const char *cwd, const char *const *env, const char *const *args)
{
    const char *all[32];
    int n = 0;
    all[n++] = g_catalog;                      /* a case's own catalog comes later and wins */
    for (int i = 0; env && env[i] && n < 31; i++) all[n++] = env[i];
    all[n] = NULL;
    return ws_test_run_child_at(cwd ? cwd : g_dir, all, args, g_dir, NULL, g_err, sizeof g_err, NULL);
}

/* A kernel that needs the nvcc fallback (<cstdio>) and reads the macro X. */
static const char *KERNEL_FMT =
    "#include <cstdio>\n"
    "#ifndef X\n#define X 1\n#endif\n"
    "/*@warpscope\n"
    "kernel  inj_k\n"
    "param   N = 32\n"
    "buffer  a    int  N  init=index\n"
    "buffer  out  int  N  output\n"
    "grid    1\n"
    "block   N\n"
    "args    a, out, N\n"
    "%s"
    "*/\n"
    "__global__ void inj_k(const int *a, int *out, int n)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < n) out[i] = a[i] + 1;\n"
    "}\n";

static void write_kernel(const char *path, const char *extra_desc_line)
{
    char text[2048];
    snprintf(text, sizeof text, KERNEL_FMT, extra_desc_line ? extra_desc_line : "");
    write_file(path, text, 0);
}

/* "$(touch${IFS}<name>)": a payload with no space and no slash in it, so no option parser splits
 * it and it fits in a file name; warpscope runs in g_dir, so the marker would appear there. */
static void payload(char *out, size_t cap, const char *marker)
{
    snprintf(out, cap, "$(touch${IFS}%s)", marker);
}

/* A case's folder with the stand-in nvcc in it (each case its own). */
static int make_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/ws-inj-XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    snprintf(g_fake, sizeof g_fake, "%s/fake/nvcc", g_dir);
    snprintf(g_ran, sizeof g_ran, "%s/fake/ran", g_dir);
    char fake_dir[128];
    snprintf(fake_dir, sizeof fake_dir, "%s/fake", g_dir);
    if (mkdir(fake_dir, 0755)) return -1;
    FILE *f = fopen(g_fake, "w");
    if (!f) return -1;
    /* nvcc's way with its arguments: each pasted into one sh command line in double quotes */
    fputs("#!/bin/sh\n"
          "echo \"$*\" >> \"$(dirname \"$0\")/ran\"\n"
          "cmd=:\n"
          "for a in \"$@\"; do cmd=\"$cmd \\\"$a\\\"\"; done\n"
          "sh -c \"$cmd \\\"$TMPDIR/x\\\"\"\n"
          "exit 1\n",
          f);
    fclose(f);
    chmod(g_fake, 0755);
    char here[200];
    if (!getcwd(here, sizeof here)) return -1;
    snprintf(g_catalog, sizeof g_catalog, "WARPSCOPE_CATALOG=%s/demos", here);
    const char *home = getenv("CUDA_HOME");
    snprintf(g_real_nvcc, sizeof g_real_nvcc, "%s/bin/nvcc", home && *home ? home : "/usr/local/cuda");
    if (access(g_real_nvcc, X_OK)) g_real_nvcc[0] = 0;
    return 0;
}

static int with_standin(void **state)
{
    (void)state;
    g_real = false;
    return make_dir();
}

static int with_real_nvcc(void **state)
{
    (void)state;
    g_real = true;
    return make_dir();
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);   /* our own mkdtemp name: no user text */
    return system(cmd) == 0 ? 0 : -1;
}

typedef struct {
    const char *cwd;
    const char *env[4];
    const char *args[12];
} ws_call;

/* Runs call with the stand-in nvcc or the real one (g_real; a real pass with no toolkit nvcc is
 * skipped, as cmocka's summary says); no marker may appear. expect_refused: exit 1 with refusal
 * naming why, and (the stand-in shows it) the compiler never started. */
static void run_both(const ws_call *c, const char *marker, bool expect_refused, const char *refusal)
{
    char mpath[160], nvcc_fake[200], nvcc_real[300];
    snprintf(mpath, sizeof mpath, "%s/%s", g_dir, marker);
    snprintf(nvcc_fake, sizeof nvcc_fake, "NVCC=%s", g_fake);
    snprintf(nvcc_real, sizeof nvcc_real, "NVCC=%s", g_real_nvcc);
    for (int pass = g_real; pass <= g_real; pass++) {
        if (pass == 1 && !g_real_nvcc[0]) {
            fprintf(stderr, "  note: no CUDA toolkit nvcc: %s cannot be run with the real one\n", marker);
            skip();
        }
        unlink(g_ran);
        const char *env[8];
        int ne = 0;
        env[ne++] = "WARPSCOPE_PTXGEN=nvcc";
        env[ne++] = pass == 0 ? nvcc_fake : nvcc_real;
        for (int i = 0; c->env[i]; i++) env[ne++] = c->env[i];
        env[ne] = NULL;
        int code = run_ws(c->cwd, env, c->args);
        if (exists(mpath)) fail_msg("%s: the payload ran a command (%s nvcc): %s", marker, pass ? "real" : "stand-in", g_err);
        if (expect_refused) {
            if (code != WS_EXIT_USAGE) fail_msg("%s: exit %d, expected %d: %s", marker, code, WS_EXIT_USAGE, g_err);
            if (!strstr(g_err, refusal)) fail_msg("%s: expected '%s' in: %s", marker, refusal, g_err);
            if (pass == 0 && exists(g_ran)) fail_msg("%s: nvcc was started though the input was refused", marker);
        } else if (pass == 0) {
            if (!exists(g_ran)) fail_msg("%s: the stand-in nvcc never ran, so the case proves nothing: %s", marker, g_err);
            assert_int_equal(code, WS_EXIT_USAGE);   /* the stand-in makes no PTX */
        } else if (code != WS_EXIT_OK) {
            fail_msg("%s: the real nvcc did not compile it (exit %d): %s", marker, code, g_err);
        }
    }
}

static void test_compile_line_macro(void **state)
{
    (void)state;
    char p[200], line[300], path[160];
    payload(p, sizeof p, "m_compile_dollar");
    snprintf(line, sizeof line, "compile -DX=%s\n", p);
    snprintf(path, sizeof path, "%s/a.cu", g_dir);
    write_kernel(path, line);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_compile_dollar", false, NULL);
}

static void test_compile_line_backticks(void **state)
{
    (void)state;
    char line[300], path[160];
    snprintf(line, sizeof line, "compile -DX=`touch${IFS}m_backtick`\n");
    snprintf(path, sizeof path, "%s/b.cu", g_dir);
    write_kernel(path, line);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_backtick", false, NULL);
}

static void test_compile_line_include_folder(void **state)
{
    (void)state;
    char p[200], line[300], path[160], inc[300];
    payload(p, sizeof p, "m_incdir");
    snprintf(inc, sizeof inc, "%s/inc%s", g_dir, p);
    assert_int_equal(mkdir(inc, 0755), 0);
    snprintf(line, sizeof line, "compile -I inc%s\n", p);
    snprintf(path, sizeof path, "%s/c.cu", g_dir);
    write_kernel(path, line);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_incdir", false, NULL);
}

static void test_file_name(void **state)
{
    (void)state;
    char p[200], path[300];
    payload(p, sizeof p, "m_filename");
    snprintf(path, sizeof path, "%s/k%s.cu", g_dir, p);
    write_kernel(path, NULL);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_filename", false, NULL);
}

static void test_file_name_quotes(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/k\";touch${IFS}m_quote;\".cu", g_dir);
    write_kernel(path, NULL);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_quote", true, "double quote");
}

static void test_folder_name(void **state)
{
    (void)state;
    char p[200], dir[300], path[320];
    payload(p, sizeof p, "m_folder");
    snprintf(dir, sizeof dir, "%s/d%s", g_dir, p);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/k.cu", dir);
    write_kernel(path, NULL);
    ws_call c = {NULL, {NULL}, {"sim", path, NULL}};
    run_both(&c, "m_folder", false, NULL);
}

static void test_command_line_macros(void **state)
{
    (void)state;
    char path[160], d[240], m[240], o[240], p[200];
    snprintf(path, sizeof path, "%s/e.cu", g_dir);
    write_kernel(path, NULL);
    payload(p, sizeof p, "m_dash_d");
    snprintf(d, sizeof d, "X=1%s", p);               /* X is a macro of the file, not a parameter */
    ws_call c1 = {NULL, {NULL}, {"sim", path, "-D", d, NULL}};
    run_both(&c1, "m_dash_d", false, NULL);
    payload(p, sizeof p, "m_macro");
    snprintf(m, sizeof m, "X=%s", p);
    ws_call c2 = {NULL, {NULL}, {"sim", path, "--macro", m, NULL}};
    run_both(&c2, "m_macro", false, NULL);
    payload(p, sizeof p, "m_compile_opt");
    snprintf(o, sizeof o, "-DX=%s", p);
    ws_call c3 = {NULL, {NULL}, {"sim", path, "--compile-opt", o, NULL}};
    run_both(&c3, "m_compile_opt", false, NULL);
}

static void test_tmpdir(void **state)
{
    (void)state;
    char p[200], t[300], env[320], path[160];
    payload(p, sizeof p, "m_tmpdir");
    snprintf(t, sizeof t, "%s/t%s", g_dir, p);
    assert_int_equal(mkdir(t, 0755), 0);
    snprintf(env, sizeof env, "TMPDIR=%s", t);
    snprintf(path, sizeof path, "%s/f.cu", g_dir);
    write_kernel(path, NULL);
    ws_call c = {NULL, {env, NULL}, {"sim", path, NULL}};
    run_both(&c, "m_tmpdir", false, NULL);
}

static void test_catalog_folder(void **state)
{
    (void)state;
    char p[200], cat[160], env[200], path[400];
    snprintf(cat, sizeof cat, "%s/cat", g_dir);
    assert_int_equal(mkdir(cat, 0755), 0);
    payload(p, sizeof p, "m_catalog");
    snprintf(path, sizeof path, "%s/k%s.cu", cat, p);
    write_kernel(path, NULL);
    snprintf(env, sizeof env, "WARPSCOPE_CATALOG=%s", cat);
    ws_call c = {NULL, {env, NULL}, {"ptx", "inj_k", NULL}};
    run_both(&c, "m_catalog", false, NULL);
}

/* A recorded run whose overrides carry the payload, replayed with no GPU. */
static void test_replay_overrides(void **state)
{
    (void)state;
    char p[200], cat[160], env[200], path[300], res[200], json[2048];
    snprintf(cat, sizeof cat, "%s/rcat", g_dir);
    assert_int_equal(mkdir(cat, 0755), 0);
    snprintf(path, sizeof path, "%s/r.cu", cat);
    write_kernel(path, NULL);
    payload(p, sizeof p, "m_replay");
    snprintf(json, sizeof json,
             "{\"device\": {\"name\": \"NVIDIA H200\", \"key\": \"h200\", \"compute_capability\": \"9.0\", "
             "\"sm_count\": 132, \"clock_mhz\": 1980, \"memory_clock_mhz\": 3201, \"memory_bus_bits\": 6016, "
             "\"l2_bytes\": 62914560, \"memory_bytes\": 150109880320, \"ecc\": true, \"driver\": \"580.159.04\", "
             "\"driver_cuda_version\": \"13.0\", \"toolkit_headers\": \"13.0\", \"ncu\": \"2025.3.1.0\"}, "
             "\"date\": \"2026-12-01T10:04:38Z\", \"recorded_by\": \"warpscope check --record\", \"runs\": [{"
             "\"kernel\": \"inj_k\", \"file\": \"%s\", \"overrides\": \"X=%s\", \"grid\": [1, 1, 1], "
             "\"block\": [32, 1, 1], \"dynamic_shared_bytes\": 0, \"registers\": 10, \"local_bytes\": 0, "
             "\"static_shared_bytes\": 0, \"output_ok\": true, \"output\": \"agrees with the simulator\", "
             "\"time\": {\"median_ms\": 0.005, \"min_ms\": 0.005, \"max_ms\": 0.006, \"reps\": 20, "
             "\"l2_flush_bytes\": 125829120}, \"bytes_moved\": 256, \"bandwidth_gbs\": 0.05, \"counters\": [{"
             "\"metric\": \"smsp__sass_inst_executed_op_global_ld.sum\", \"class\": \"exact\", \"sim\": 1, "
             "\"gpu\": 1, \"ratio\": 1, \"verdict\": \"agree\"}]}]}\n",
             path, p);
    snprintf(res, sizeof res, "%s/replay.json", g_dir);
    write_file(res, json, 0);
    snprintf(env, sizeof env, "WARPSCOPE_CATALOG=%s", cat);
    ws_call c = {NULL, {env, NULL}, {"check", "--replay", res, NULL}};
    /* the replay reports a run it could not simulate and goes on: only the marker is judged */
    char mpath[160], nv[200];
    snprintf(mpath, sizeof mpath, "%s/m_replay", g_dir);
    snprintf(nv, sizeof nv, "NVCC=%s", g_fake);
    unlink(g_ran);
    const char *e[] = {"WARPSCOPE_PTXGEN=nvcc", nv, env, NULL};
    run_ws(NULL, e, c.args);
    if (!exists(g_ran)) fail_msg("the replay never reached nvcc, so the case proves nothing: %s", g_err);
    if (exists(mpath)) fail_msg("the replayed overrides ran a command: %s", g_err);
}

static void test_control_characters_refused(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/g.cu", g_dir);
    write_kernel(path, NULL);
    ws_call c1 = {NULL, {NULL}, {"sim", path, "--macro", "X=1\n.entry evil", NULL}};
    run_both(&c1, "m_newline", true, "control character");
    ws_call c2 = {NULL, {NULL}, {"sim", path, "--compile-opt", "-DX=1\\", NULL}};
    run_both(&c2, "m_backslash", true, "backslash");
}

/* The same case with the real nvcc, named so. */
#define REAL_NVCC(f) {#f " (real nvcc)", f, with_real_nvcc, teardown, NULL}
#define STANDIN(f) cmocka_unit_test_setup_teardown(f, with_standin, teardown)

int main(void)
{
    setenv("WARPSCOPE_CACHE", "off", 1);  /* tools run now, not products an earlier run kept */
    const struct CMUnitTest quick[] = {
        STANDIN(test_compile_line_macro),  STANDIN(test_compile_line_backticks),
        STANDIN(test_compile_line_include_folder),
        STANDIN(test_file_name),           STANDIN(test_file_name_quotes),
        STANDIN(test_folder_name),         STANDIN(test_command_line_macros),
        STANDIN(test_tmpdir),              STANDIN(test_catalog_folder),
        STANDIN(test_replay_overrides),    STANDIN(test_control_characters_refused),
    };
    /* test_replay_overrides runs the stand-in alone: it has no real-nvcc pass */
    const struct CMUnitTest slow[] = {
        REAL_NVCC(test_compile_line_macro),  REAL_NVCC(test_compile_line_backticks),
        REAL_NVCC(test_compile_line_include_folder),
        REAL_NVCC(test_file_name),           REAL_NVCC(test_file_name_quotes),
        REAL_NVCC(test_folder_name),         REAL_NVCC(test_command_line_macros),
        REAL_NVCC(test_tmpdir),              REAL_NVCC(test_catalog_folder),
        REAL_NVCC(test_control_characters_refused),
    };
    return ws_run_tests(quick, slow, NULL, NULL);
}
