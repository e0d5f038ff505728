/* test_toolkit.c - common/toolkit.c's one search order and common/toolcache.c's store.
 * Stand-in tools (shell scripts that append "<their path> <args>" to a log) make every run
 * visible: with CUDA_HOME=a and PATH=b:..., every stage of `warpscope sim` must run b's ptxas;
 * a second `sim` of the same kernel must run no tool at all (the cache answers); a corrupt
 * entry is a miss, said on stderr, and is rewritten; every kernel of a module is listed by one
 * ptxas and one nvdisasm run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/commands.h"
#include "../common/files.h"
#include "../common/ptxgen.h"
#include "../common/toolcache.h"
#include "../common/toolkit.h"
#include "../sim/sass/sass.h"

static char g_dir[64];      /* /tmp/ws-tk-XXXXXX */
static char g_log[128];     /* every stand-in appends a line here */

static void write_file(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    if (mode) assert_int_equal(chmod(path, (mode_t)mode), 0);
}

/* Lines of the log, 0 when it does not exist. */
static int log_lines(void)
{
    char *t = ws_read_file(g_log, 0, NULL, NULL);
    int n = 0;
    for (const char *p = t; p && *p; p++) n += *p == '\n';
    free(t);
    return n;
}

static char *log_text(void)
{
    char *t = ws_read_file(g_log, 0, NULL, NULL);
    return t ? t : strdup("");
}

/* A stand-in ptxas: `-v -e NAME` prints a report of 21 registers for NAME, `-o CUBIN ... -e NAME`
 * writes NAME into CUBIN (for the stand-in nvdisasm), without -e every .entry of the PTX (the
 * last argument), one a line, except that it refuses a PTX naming needs_e whole; --version says
 * release 99.0. */
static const char *PTXAS_SH =
    "#!/bin/sh\n"
    "echo \"$0 $*\" >> %s\n"
    "case \"$1\" in --version) echo 'Cuda compilation tools, release 99.0, V99.0.7'; exit 0;; esac\n"
    "v=; o=; e=; f=\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -v) v=1;; -o) o=$2; shift;; -e) e=$2; shift;; *) f=$1;; esac; shift; done\n"
    "if [ -n \"$v\" ]; then echo \"ptxas info    : Compiling entry function '$e' for 'sm_75'\";\n"
    "  echo 'ptxas info    : Used 21 registers, 0 bytes smem'; exit 0; fi\n"
    "if [ -z \"$e\" ] && grep -q needs_e \"$f\"; then echo 'ptxas fatal : refused whole'; exit 1; fi\n"
    "if [ -n \"$e\" ]; then echo \"$e\" > \"$o\"; else\n"
    "  sed -n 's/^[.a-z ]*\\.entry  *\\([A-Za-z0-9_$]*\\).*/\\1/p' \"$f\" > \"$o\"; fi\n";

/* A stand-in nvdisasm: a listing of one EXIT in each function the cubin names. */
static const char *NVDISASM_SH =
    "#!/bin/sh\n"
    "echo \"$0 $*\" >> %s\n"
    "case \"$1\" in --version) echo 'Cuda compilation tools, release 99.0, V99.0.7'; exit 0;; esac\n"
    "for a; do f=$a; done\n"
    "while read -r n; do\n"
    "  printf '\\t.section\\t.text.%%s,\"ax\",@progbits\\n        /*0000*/                   EXIT ;\\n' \"$n\"\n"
    "done < \"$f\"\n";

static void make_tool(const char *dir, const char *name, const char *fmt)
{
    char path[256], text[2048];
    snprintf(path, sizeof path, "%s", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(text, sizeof text, fmt, g_log);
    write_file(path, text, 0755);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws-tk-XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    snprintf(g_log, sizeof g_log, "%s/runs.log", g_dir);
    char d[128];
    const char *kits[] = {"a", "b"};
    for (int k = 0; k < 2; k++) {             /* two fake toolkits: a/bin and b/bin */
        snprintf(d, sizeof d, "%s/%s", g_dir, kits[k]);
        mkdir(d, 0755);
        snprintf(d, sizeof d, "%s/%s/bin", g_dir, kits[k]);
        make_tool(d, "ptxas", PTXAS_SH);
        make_tool(d, "nvdisasm", NVDISASM_SH);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);   /* our own mkdtemp name */
    return system(cmd) == 0 ? 0 : -1;
}

/* The environment a case sets, restored by clear_env(). */
static const char *const VARS[] = {"PATH", "CUDA_HOME", "WARPSCOPE_PTXAS", "WARPSCOPE_NVDISASM", "WARPSCOPE_NVCC",
                                   "NVCC", "WARPSCOPE_CACHE", "PYTHONPATH", "HOME", "XDG_CACHE_HOME"};
#define NVARS (sizeof VARS / sizeof VARS[0])
static char *g_saved[NVARS];

static void save_env(void)
{
    for (size_t i = 0; i < NVARS; i++) {
        const char *v = getenv(VARS[i]);
        g_saved[i] = v ? strdup(v) : NULL;
    }
}

static void clear_env(void)
{
    for (size_t i = 0; i < NVARS; i++) {
        if (g_saved[i]) setenv(VARS[i], g_saved[i], 1);
        else unsetenv(VARS[i]);
        free(g_saved[i]);
        g_saved[i] = NULL;
    }
    ws_tool_forget();
}

static void at(char *out, size_t cap, const char *rel) { snprintf(out, cap, "%s/%s", g_dir, rel); }

/* ---- the search order --------------------------------------------------------------------- */

static void test_path_comes_before_cuda_home_and_cuda_home_before_the_default(void **state)
{
    (void)state;
    save_env();
    char a[128], b[128], path[256], got[512];
    at(a, sizeof a, "a");
    at(b, sizeof b, "b/bin");
    snprintf(path, sizeof path, "%s:/usr/bin:/bin", b);
    setenv("CUDA_HOME", a, 1);
    setenv("PATH", path, 1);
    setenv("WARPSCOPE_CACHE", "off", 1);
    unsetenv("WARPSCOPE_PTXAS");
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), 0);
    char want[256];
    snprintf(want, sizeof want, "%s/ptxas", b);
    assert_string_equal(got, want);
    /* without it on PATH: $CUDA_HOME/bin */
    setenv("PATH", "/usr/bin:/bin", 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), 0);
    snprintf(want, sizeof want, "%s/bin/ptxas", a);
    assert_string_equal(got, want);
    /* $WARPSCOPE_PTXAS before all of them */
    snprintf(want, sizeof want, "%s/ptxas", b);
    setenv("WARPSCOPE_PTXAS", want, 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), 0);
    assert_string_equal(got, want);
    clear_env();
}

static void test_a_variable_naming_no_program_is_not_replaced_by_another(void **state)
{
    (void)state;
    save_env();
    char a[128], got[512];
    at(a, sizeof a, "a");
    setenv("CUDA_HOME", a, 1);                 /* a ptxas is there, but the variable asked for another */
    setenv("WARPSCOPE_PTXAS", "/nonexistent/ptxas", 1);
    ws_tool_forget();
    ws_error err;
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "$WARPSCOPE_PTXAS is '/nonexistent/ptxas', which is not an executable file"));
    /* a folder is not a program either */
    setenv("WARPSCOPE_PTXAS", a, 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), -1);
    clear_env();
}

static void test_nvcc_keeps_its_old_variable_and_the_new_one_wins(void **state)
{
    (void)state;
    save_env();
    char p1[128], p2[128], got[512];
    at(p1, sizeof p1, "a/bin/ptxas");          /* any executable file will do */
    at(p2, sizeof p2, "b/bin/ptxas");
    unsetenv("WARPSCOPE_NVCC");
    setenv("NVCC", p1, 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_NVCC, got, sizeof got, NULL), 0);
    assert_string_equal(got, p1);
    setenv("WARPSCOPE_NVCC", p2, 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_NVCC, got, sizeof got, NULL), 0);
    assert_string_equal(got, p2);
    clear_env();
}

static void test_the_answer_is_remembered_until_forgotten(void **state)
{
    (void)state;
    save_env();
    char tool[128], got[512];
    at(tool, sizeof tool, "once-ptxas");
    write_file(tool, "#!/bin/sh\n", 0755);
    setenv("WARPSCOPE_PTXAS", tool, 1);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), 0);
    unlink(tool);                              /* gone, but this process asked already */
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), 0);
    assert_string_equal(got, tool);
    ws_tool_forget();
    assert_int_equal(ws_tool_find(WS_TOOL_PTXAS, got, sizeof got, NULL), -1);
    clear_env();
}

/* An nvdisasm stand-in where pip --target puts the wheel's: <root>/nvidia/<sub>/bin/nvdisasm, every folder
 * on the way made; its path into out. */
static void plant_wheel(const char *root, const char *sub, char *out, size_t cap)
{
    snprintf(out, cap, "%s/nvidia/%s/bin/nvdisasm", root, sub);
    for (char *p = out + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        mkdir(out, 0755);
        *p = '/';
    }
    write_file(out, "#!/bin/sh\n", 0755);
}

/* Nothing for the search to find but what a case plants: no PATH (nor python3), no CUDA_HOME, no
 * $WARPSCOPE_NVDISASM or $PYTHONPATH; only /usr/local/cuda/bin stays. */
static void hide_toolkit(void)
{
    setenv("PATH", "/nonexistent", 1);
    setenv("CUDA_HOME", "/nonexistent", 1);
    unsetenv("WARPSCOPE_NVDISASM");
    unsetenv("PYTHONPATH");
}

static void test_a_wheel_in_the_cache_folder_is_found_and_a_missing_nvdisasm_says_what_to_run(void **state)
{
    (void)state;
    save_env();
    char cache[128], wheel[256], got[512];
    at(cache, sizeof cache, "wheelcache");
    setenv("WARPSCOPE_CACHE", cache, 1);
    setenv("HOME", "/nonexistent", 1);         /* nor the default cache's wheel */
    unsetenv("XDG_CACHE_HOME");
    hide_toolkit();
    ws_tool_forget();
    ws_error err;
    if (access("/usr/local/cuda/bin/nvdisasm", X_OK) != 0) {
        assert_int_equal(ws_tool_find(WS_TOOL_NVDISASM, got, sizeof got, &err), -1);
        char want[300];
        snprintf(want, sizeof want, "run scripts/deps.sh (make demo does), which fetches NVIDIA's nvidia-cuda-nvdisasm "
                 "wheel into %s/nvdisasm", cache);
        if (!strstr(err.msg, want)) fail_msg("message: %s", err.msg);
    }
    char root[160];
    snprintf(root, sizeof root, "%s/nvdisasm", cache);
    plant_wheel(root, "cu13", wheel, sizeof wheel);
    ws_tool_forget();
    if (access("/usr/local/cuda/bin/nvdisasm", X_OK) != 0) {
        assert_int_equal(ws_tool_find(WS_TOOL_NVDISASM, got, sizeof got, NULL), 0);
        assert_string_equal(got, wheel);
    }
    clear_env();
}

/* A run (make test's, or a user's project folder) that points WARPSCOPE_CACHE elsewhere still finds the
 * wheel scripts/deps.sh fetched into the default cache, ~/.cache/warpscope/nvdisasm. */
static void test_the_default_caches_wheel_is_found_when_the_cache_points_elsewhere(void **state)
{
    (void)state;
    save_env();
    char home[128], other[128], root[192], wheel[256], got[512];
    at(home, sizeof home, "wheelhome");
    at(other, sizeof other, "othercache");
    mkdir(home, 0755);
    mkdir(other, 0755);
    setenv("HOME", home, 1);
    unsetenv("XDG_CACHE_HOME");
    setenv("WARPSCOPE_CACHE", other, 1);
    hide_toolkit();
    snprintf(root, sizeof root, "%s/.cache/warpscope/nvdisasm", home);
    plant_wheel(root, "cu12", wheel, sizeof wheel);
    ws_tool_forget();
    if (access("/usr/local/cuda/bin/nvdisasm", X_OK) != 0) {
        assert_int_equal(ws_tool_find(WS_TOOL_NVDISASM, got, sizeof got, NULL), 0);
        assert_string_equal(got, wheel);
    }
    unlink(wheel);                             /* and without it, none: the search made nothing up */
    ws_tool_forget();
    if (access("/usr/local/cuda/bin/nvdisasm", X_OK) != 0)
        assert_int_equal(ws_tool_find(WS_TOOL_NVDISASM, got, sizeof got, NULL), -1);
    clear_env();
}

static void test_the_version_is_read_from_the_release_line(void **state)
{
    (void)state;
    save_env();
    char tool[128], ver[64];
    setenv("WARPSCOPE_CACHE", "off", 1);
    at(tool, sizeof tool, "ver-ncu");
    write_file(tool, "#!/bin/sh\necho 'NVIDIA (R) Nsight Compute Command Line Profiler'\necho 'Version 2025.3.1.0 (build 1)'\n",
               0755);
    ws_tool_version_of(tool, ver, sizeof ver);
    assert_string_equal(ver, "2025.3.1.0");
    at(tool, sizeof tool, "a/bin/ptxas");
    ws_tool_version_of(tool, ver, sizeof ver);
    assert_string_equal(ver, "99.0.7");
    ws_tool_version_of("/nonexistent/tool", ver, sizeof ver);
    assert_string_equal(ver, "unknown");
    clear_env();
}

/* ---- the store ---------------------------------------------------------------------------- */

static void entry_file(const char *cache, const char *kind, const char *key, char *out, size_t cap)
{
    char hash[33];
    ws_cache_hash(key, strlen(key), hash);
    snprintf(out, cap, "%s/%s/%s", cache, kind, hash);
}

static void test_an_entry_comes_back_whole_and_a_corrupt_one_is_a_miss_then_rewritten(void **state)
{
    (void)state;
    save_env();
    char cache[128], file[300];
    at(cache, sizeof cache, "store");
    setenv("WARPSCOPE_CACHE", cache, 1);
    const char *data = "listing\nwith\0a NUL";   /* 18 bytes, a NUL inside */
    assert_int_equal(ws_cache_put("sass", "key one", data, 18), 0);
    size_t n = 0;
    char *got = ws_cache_get("sass", "key one", &n);
    assert_non_null(got);
    assert_int_equal(n, 18);
    assert_memory_equal(got, data, 18);
    free(got);
    assert_null(ws_cache_get("sass", "key two", NULL));
    assert_null(ws_cache_get("resources", "key one", NULL));   /* kinds are apart */
    /* cut short: a miss */
    entry_file(cache, "sass", "key one", file, sizeof file);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(truncate(file, st.st_size - 1), 0);
    assert_null(ws_cache_get("sass", "key one", NULL));
    assert_int_equal(ws_cache_put("sass", "key one", data, 18), 0);
    assert_non_null((got = ws_cache_get("sass", "key one", NULL)));
    free(got);
    /* one byte of the data changed, the length kept: a miss (the recorded hash differs) */
    int fd = open(file, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, "L", 1, st.st_size - 18), 1);   /* "listing" -> "Listing" */
    close(fd);
    assert_null(ws_cache_get("sass", "key one", NULL));
    assert_int_equal(ws_cache_put("sass", "key one", data, 18), 0);
    assert_non_null((got = ws_cache_get("sass", "key one", NULL)));
    assert_memory_equal(got, data, 18);
    free(got);
    /* another key's entry under this key's name (a hash collision): the stored key differs, a miss */
    char other[300];
    assert_int_equal(ws_cache_put("sass", "key two", "x", 1), 0);
    entry_file(cache, "sass", "key two", other, sizeof other);
    assert_int_equal(rename(other, file), 0);
    assert_null(ws_cache_get("sass", "key one", NULL));
    /* not a regular file: a symbolic link and a FIFO are misses (and the FIFO does not block) */
    unlink(file);
    char target[300];
    snprintf(target, sizeof target, "%s/elsewhere", cache);
    assert_int_equal(ws_cache_put("sass", "key three", "y", 1), 0);
    entry_file(cache, "sass", "key three", target, sizeof target);
    assert_int_equal(symlink(target, file), 0);
    assert_null(ws_cache_get("sass", "key one", NULL));
    unlink(file);
    assert_int_equal(mkfifo(file, 0600), 0);
    assert_null(ws_cache_get("sass", "key one", NULL));
    unlink(file);
    /* no temporary file is left beside the entries */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls -a '%s/sass' | grep -q tmp", cache);
    assert_int_not_equal(system(cmd), 0);
    clear_env();
}

static void test_the_folder_follows_the_variables_and_off_keeps_nothing(void **state)
{
    (void)state;
    save_env();
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char dir[512];
    setenv("WARPSCOPE_CACHE", "/w", 1);
    setenv("XDG_CACHE_HOME", "/x", 1);
    setenv("HOME", "/h", 1);
    assert_true(ws_cache_dir(dir, sizeof dir));
    assert_string_equal(dir, "/w");
    unsetenv("WARPSCOPE_CACHE");
    assert_true(ws_cache_dir(dir, sizeof dir));
    assert_string_equal(dir, "/x/warpscope");
    unsetenv("XDG_CACHE_HOME");
    assert_true(ws_cache_dir(dir, sizeof dir));
    assert_string_equal(dir, "/h/.cache/warpscope");
    assert_true(ws_cache_tools_dir(dir, sizeof dir));
    assert_string_equal(dir, "/h/.cache/warpscope/nvdisasm");
    setenv("WARPSCOPE_CACHE", "off", 1);
    assert_false(ws_cache_dir(dir, sizeof dir));
    assert_true(ws_cache_tools_dir(dir, sizeof dir));          /* the wheel keeps its place */
    assert_string_equal(dir, "/h/.cache/warpscope/nvdisasm");
    assert_int_equal(ws_cache_put("sass", "k", "v", 1), -1);
    assert_null(ws_cache_get("sass", "k", NULL));
    if (xdg) setenv("XDG_CACHE_HOME", xdg, 1);
    if (home) setenv("HOME", home, 1);
    free(xdg);
    free(home);
    clear_env();
}

/* ---- the generated PTX of a .cu ---------------------------------------------------------------- */

static void test_a_cu_compiled_before_runs_no_compiler_until_a_header_it_includes_changes(void **state)
{
    (void)state;
    save_env();
    char cache[128], nvcc[128], cu[128], hdr[128], text[1024];
    at(cache, sizeof cache, "ptxcache");
    at(nvcc, sizeof nvcc, "nvcc");
    at(cu, sizeof cu, "k.cu");
    at(hdr, sizeof hdr, "k.h");
    snprintf(text, sizeof text,
             "#!/bin/sh\necho \"$0 $*\" >> %s\n"
             "case \"$1\" in --version) echo 'Cuda compilation tools, release 99.0, V99.0.7'; exit 0;; esac\n"
             "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && o=$2; shift; done\n"
             "printf '.version 8.0\\n.target sm_90\\n.address_size 64\\n.visible .entry k()\\n{\\n ret;\\n}\\n' > \"$o\"\n",
             g_log);
    write_file(nvcc, text, 0755);
    write_file(hdr, "#define W 1\n", 0);
    const char *src = "#include \"k.h\"\n__global__ void k() {}\n";
    setenv("WARPSCOPE_CACHE", cache, 1);
    setenv("WARPSCOPE_PTXGEN", "nvcc", 1);
    setenv("WARPSCOPE_NVCC", nvcc, 1);
    ws_tool_forget();
    ws_ptxgen_job job = {cu, src, strlen(src), "sm_90", NULL, 0, NULL};
    ws_ptxgen_info i1, i2;
    ws_error err;
    unlink(g_log);
    char *p1 = ws_ptxgen_run(&job, &i1, &err);
    if (!p1) fail_msg("%s", err.msg);
    int runs = log_lines();                    /* --version once, the compile once */
    assert_int_equal(runs, 2);
    char *p2 = ws_ptxgen_run(&job, &i2, &err);
    assert_non_null(p2);
    assert_int_equal(log_lines(), runs);       /* the cache answered */
    assert_string_equal(p1, p2);
    assert_int_equal(i2.tool, WS_PTXGEN_NVCC);
    assert_string_equal(i1.how, i2.how);
    assert_string_equal(i2.version, "99.0");
    free(p2);
    write_file(hdr, "#define W 2\n", 0);       /* a header it includes changed: compiled again */
    p2 = ws_ptxgen_run(&job, &i2, &err);
    assert_non_null(p2);
    assert_int_equal(log_lines(), runs + 1);
    free(p2);
    /* a computed #include is never cached */
    const char *computed = "#define H \"k.h\"\n#include H\n__global__ void k() {}\n";
    ws_ptxgen_job cj = {cu, computed, strlen(computed), "sm_90", NULL, 0, NULL};
    for (int r = 0; r < 2; r++) {
        p2 = ws_ptxgen_run(&cj, &i2, &err);
        assert_non_null(p2);
        free(p2);
    }
    assert_int_equal(log_lines(), runs + 3);
    free(p1);
    unsetenv("WARPSCOPE_PTXGEN");
    clear_env();
}

/* ---- the whole program -------------------------------------------------------------------- */

static const char *ws_bin(void)
{
    const char *b = getenv("WS_BIN");
    if (b && *b) return b;
    if (access("build/asan/warpscope", X_OK) == 0) return "build/asan/warpscope";
    fail_msg("no warpscope binary: set WS_BIN or build build/asan/warpscope");
    return NULL;
}

/* Runs warpscope sim copy_float --device t4 (sm_75: ptxas -v runs, the checked-in report is
 * sm_90's) with env added; returns the exit code, stdout into out (malloc'd). */
static int run_sim_of(const char *const *env, const char *const *kernels, char **out)
{
    char outp[128];
    snprintf(outp, sizeof outp, "%s/stdout.txt", g_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) _exit(126);
        dup2(fd, 1);
        for (int i = 0; env[i]; i++) putenv((char *)env[i]);
        putenv("WARPSCOPE_CATALOG=demos");
        const char *argv[16] = {ws_bin(), "sim"};
        int n = 2;
        while (*kernels && n < 10) argv[n++] = *kernels++;
        const char *rest[] = {"-D", "N=1024", "--device", "t4", NULL};
        for (int i = 0; rest[i]; i++) argv[n++] = rest[i];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    *out = ws_read_file(outp, 0, NULL, NULL);
    assert_non_null(*out);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static int run_sim(const char *const *env, char **out)
{
    const char *k[] = {"copy_float", NULL};
    return run_sim_of(env, k, out);
}

/* Lines of the log that contain both a and b. */
static int log_count(const char *a, const char *b)
{
    char *log = log_text();
    int n = 0;
    for (const char *l = log; *l;) {
        size_t len = strcspn(l, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, l);
        n += strstr(line, a) && (!b || strstr(line, b));
        l += len + (l[len] == '\n');
    }
    free(log);
    return n;
}

static void test_every_stage_runs_the_same_ptxas_whatever_cuda_home_and_path_say(void **state)
{
    (void)state;
    char home[160], path[300], bpath[160];
    at(bpath, sizeof bpath, "b/bin");
    snprintf(home, sizeof home, "CUDA_HOME=%s/a", g_dir);
    snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", bpath);
    const char *env[] = {home, path, "WARPSCOPE_CACHE=off", NULL};
    unlink(g_log);
    char *out;
    assert_int_equal(run_sim(env, &out), WS_EXIT_OK);
    /* the stand-in's 21 registers: the resource stage ran it */
    assert_non_null(strstr(out, "resources  21 registers/thread (ptxas -arch=sm_75, run now"));
    free(out);
    char *log = log_text();
    int ptxas_runs = 0;
    char want[200], bad[600] = "";
    snprintf(want, sizeof want, "%s/ptxas ", bpath);
    for (const char *l = log; *l;) {
        size_t n = strcspn(l, "\n");
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)n, l);
        char *first = strchr(line, ' ');    /* the program that ran: the line's first word */
        if (first && first - line >= 6 && !strncmp(first - 6, "/ptxas", 6)) {
            ptxas_runs++;
            if (strncmp(line, want, strlen(want)) && !bad[0]) snprintf(bad, sizeof bad, "%s", line);
        }
        l += n + (l[n] == '\n');
    }
    if (bad[0]) {
        free(log);
        fail_msg("a stage ran another ptxas: %s", bad);
    }
    assert_true(ptxas_runs >= 2);              /* -v for the registers, -lineinfo for the listing */
    assert_non_null(strstr(log, " -v "));
    assert_non_null(strstr(log, " -lineinfo "));
    free(log);
}

static void test_a_second_sim_of_the_same_kernel_runs_no_compiler(void **state)
{
    (void)state;
    char cache[160], ptxas[200], nvdisasm[200];
    snprintf(cache, sizeof cache, "WARPSCOPE_CACHE=%s/simcache", g_dir);
    snprintf(ptxas, sizeof ptxas, "WARPSCOPE_PTXAS=%s/a/bin/ptxas", g_dir);
    snprintf(nvdisasm, sizeof nvdisasm, "WARPSCOPE_NVDISASM=%s/a/bin/nvdisasm", g_dir);
    const char *env[] = {cache, ptxas, nvdisasm, NULL};
    unlink(g_log);
    char *first, *second;
    assert_int_equal(run_sim(env, &first), WS_EXIT_OK);
    char *log = log_text();
    /* the first run: versions, ptxas -v, ptxas for the listing, nvdisasm */
    assert_non_null(strstr(log, " -v "));
    assert_non_null(strstr(log, "nvdisasm -c -gi "));
    free(log);
    int runs = log_lines();
    assert_int_equal(run_sim(env, &second), WS_EXIT_OK);
    if (log_lines() != runs) {
        log = log_text();
        fail_msg("the second sim ran tools again:\n%s", log);
    }
    assert_non_null(strstr(second, "resources  21 registers/thread (ptxas -arch=sm_75, run before (cached)"));
    /* the same report otherwise: only the resource line's wording and the time differ */
    const char *a = strstr(first, "\noccupancy"), *b = strstr(second, "\noccupancy");
    assert_non_null(a);
    assert_non_null(b);
    const char *ta = strstr(a, "\nsimulated"), *tb = strstr(b, "\nsimulated");
    assert_non_null(ta);
    assert_non_null(tb);
    assert_int_equal(ta - a, tb - b);
    assert_memory_equal(a, b, (size_t)(ta - a));
    const char *ca = strstr(ta, "\ncounters"), *cb = strstr(tb, "\ncounters");
    assert_non_null(ca);
    assert_non_null(cb);
    assert_string_equal(ca, cb);
    free(first);
    free(second);
}

static void test_every_kernel_of_a_module_is_listed_by_one_ptxas_and_one_nvdisasm(void **state)
{
    (void)state;
    char cache[160], ptxas[200], nvdisasm[200];
    snprintf(ptxas, sizeof ptxas, "WARPSCOPE_PTXAS=%s/a/bin/ptxas", g_dir);
    snprintf(nvdisasm, sizeof nvdisasm, "WARPSCOPE_NVDISASM=%s/a/bin/nvdisasm", g_dir);
    /* two kernels of demos/coalescing.ptx in one process, nothing kept on disk */
    const char *both[] = {"--compare", "copy_float", "offset_copy_o0", NULL};
    const char *off[] = {"WARPSCOPE_CACHE=off", ptxas, nvdisasm, NULL};
    char *out;
    unlink(g_log);
    assert_int_equal(run_sim_of(off, both, &out), WS_EXIT_OK);
    free(out);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), 1);
    assert_int_equal(log_count("ptxas -arch=sm_75 -lineinfo", NULL), 1);
    assert_int_equal(log_count("-lineinfo", " -e "), 0);      /* the whole module, not one entry */
    assert_int_equal(log_count("ptxas -arch=sm_75 -v -e ", NULL), 2);  /* the register counts stay per kernel */
    /* with a disk cache, another kernel of the module in a later process runs no lister */
    snprintf(cache, sizeof cache, "WARPSCOPE_CACHE=%s/modcache", g_dir);
    const char *kept[] = {cache, ptxas, nvdisasm, NULL};
    const char *first[] = {"copy_float", NULL}, *second[] = {"offset_copy_o0", NULL};
    unlink(g_log);
    assert_int_equal(run_sim_of(kept, first, &out), WS_EXIT_OK);
    free(out);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), 1);
    assert_int_equal(run_sim_of(kept, second, &out), WS_EXIT_OK);
    free(out);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), 1);
    assert_int_equal(log_count("-lineinfo", NULL), 1);
}

/* A module of two kernels for ws_sass_compile; `second` names the other entry. */
static void two_entries(char *out, size_t cap, const char *second)
{
    snprintf(out, cap, ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry ka()\n{\n\tret;\n}\n\n"
             ".visible .entry %s()\n{\n\tret;\n}\n", second);
}

/* The one file under folder (the cache's only entry of a kind), into out. */
static void only_file(const char *folder, char *out, size_t cap)
{
    char cmd[400], *names;
    snprintf(cmd, sizeof cmd, "ls '%s' > '%s/ls.txt'", folder, g_dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/ls.txt", g_dir);
    assert_non_null((names = ws_read_file(cmd, 0, NULL, NULL)));
    size_t n = strcspn(names, "\n");
    assert_true(n > 0 && names[n] == '\n' && names[n + 1] == 0);   /* exactly one */
    snprintf(out, cap, "%s/%.*s", folder, (int)n, names);
    free(names);
}

/* Runs ws_sass_compile with stderr into a file; returns the listing, *said what stderr got. */
static char *compile_said(const char *ptx, const char *entry, char **said)
{
    char path[160];
    snprintf(path, sizeof path, "%s/stderr.txt", g_dir);
    fflush(stderr);
    int keep = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(keep >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    ws_error err;
    char *l = ws_sass_compile(ptx, "sm_90", entry, &err);
    fflush(stderr);
    dup2(keep, 2);
    close(keep);
    *said = ws_read_file(path, 0, NULL, NULL);
    if (!*said) *said = strdup("");
    if (!l) fail_msg("ws_sass_compile: %s", err.msg);
    return l;
}

static void test_a_changed_ptx_misses_and_a_damaged_listing_is_rejected_with_a_warning(void **state)
{
    (void)state;
    save_env();
    char cache[128], path[200], ptx[512], changed[512];
    at(cache, sizeof cache, "sasscache");
    setenv("WARPSCOPE_CACHE", cache, 1);
    at(path, sizeof path, "a/bin/ptxas");
    setenv("WARPSCOPE_PTXAS", path, 1);
    at(path, sizeof path, "a/bin/nvdisasm");
    setenv("WARPSCOPE_NVDISASM", path, 1);
    ws_tool_forget();
    ws_sass_forget();
    unlink(g_log);
    two_entries(ptx, sizeof ptx, "kb");
    char *said, *l1 = compile_said(ptx, "ka", &said);
    free(said);
    assert_non_null(strstr(l1, ".text.ka,"));
    assert_non_null(strstr(l1, ".text.kb,"));                 /* the module's other kernel is in it */
    int listings = log_count("nvdisasm -c -gi ", NULL);
    assert_int_equal(listings, 1);
    /* the other kernel, and the same one from the disk after this process forgets: no tool */
    char *l2 = compile_said(ptx, "kb", &said);
    free(said);
    assert_string_equal(l2, l1);
    free(l2);
    ws_sass_forget();
    l2 = compile_said(ptx, "ka", &said);
    assert_string_equal(said, "");
    free(said);
    assert_string_equal(l2, l1);
    free(l2);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), 1);
    assert_int_equal(log_count("-lineinfo", NULL), 1);
    /* one byte of the PTX changed: a miss, the tools run, the listing is the new module's */
    two_entries(changed, sizeof changed, "kc");
    l2 = compile_said(changed, "ka", &said);
    free(said);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), 2);
    assert_non_null(strstr(l2, ".text.kc,"));
    assert_null(strstr(l2, ".text.kb,"));
    free(l2);
    /* a byte of the kept listing flipped (same length): not trusted, said, made again, rewritten */
    char folder[200], file[400];
    snprintf(folder, sizeof folder, "%s/sass", cache);
    ws_sass_forget();
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf '%s'", folder);            /* start from the first module's entry alone */
    assert_int_equal(system(rm), 0);
    l2 = compile_said(ptx, "ka", &said);
    free(said);
    free(l2);
    only_file(folder, file, sizeof file);
    int fd = open(file, O_RDWR);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    char c;
    assert_int_equal(pread(fd, &c, 1, st.st_size - 3), 1);   /* inside the listing, past the key */
    c ^= 0x20;
    assert_int_equal(pwrite(fd, &c, 1, st.st_size - 3), 1);
    close(fd);
    ws_sass_forget();
    int before = log_count("nvdisasm -c -gi ", NULL);
    l2 = compile_said(ptx, "ka", &said);
    assert_non_null(strstr(said, "warning: cache entry"));
    assert_non_null(strstr(said, "is damaged (its bytes do not match their recorded hash)"));
    free(said);
    assert_string_equal(l2, l1);                              /* the tools' listing, not the damaged one */
    free(l2);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), before + 1);
    ws_sass_forget();
    l2 = compile_said(ptx, "ka", &said);                       /* rewritten whole: a quiet hit */
    assert_string_equal(said, "");
    free(said);
    assert_string_equal(l2, l1);
    free(l2);
    assert_int_equal(log_count("nvdisasm -c -gi ", NULL), before + 1);
    free(l1);
    /* a module ptxas refuses whole: the kernel alone, and next time its listing at once */
    two_entries(changed, sizeof changed, "needs_e");
    int lineinfo = log_count("-lineinfo", NULL);
    l2 = compile_said(changed, "ka", &said);
    free(said);
    assert_non_null(strstr(l2, ".text.ka,"));
    assert_null(strstr(l2, ".text.needs_e,"));
    free(l2);
    assert_int_equal(log_count("-lineinfo", NULL), lineinfo + 2);     /* refused whole, then -e ka */
    assert_int_equal(log_count("-lineinfo", " -e ka"), 1);
    ws_sass_forget();
    l2 = compile_said(changed, "ka", &said);
    free(said);
    assert_non_null(strstr(l2, ".text.ka,"));
    free(l2);
    assert_int_equal(log_count("-lineinfo", NULL), lineinfo + 2);     /* no whole attempt again */
    ws_sass_forget();
    clear_env();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_comes_before_cuda_home_and_cuda_home_before_the_default),
        cmocka_unit_test(test_a_variable_naming_no_program_is_not_replaced_by_another),
        cmocka_unit_test(test_nvcc_keeps_its_old_variable_and_the_new_one_wins),
        cmocka_unit_test(test_the_answer_is_remembered_until_forgotten),
        cmocka_unit_test(test_a_wheel_in_the_cache_folder_is_found_and_a_missing_nvdisasm_says_what_to_run),
        cmocka_unit_test(test_the_default_caches_wheel_is_found_when_the_cache_points_elsewhere),
        cmocka_unit_test(test_the_version_is_read_from_the_release_line),
        cmocka_unit_test(test_an_entry_comes_back_whole_and_a_corrupt_one_is_a_miss_then_rewritten),
        cmocka_unit_test(test_the_folder_follows_the_variables_and_off_keeps_nothing),
        cmocka_unit_test(test_a_cu_compiled_before_runs_no_compiler_until_a_header_it_includes_changes),
        cmocka_unit_test(test_every_stage_runs_the_same_ptxas_whatever_cuda_home_and_path_say),
        cmocka_unit_test(test_a_second_sim_of_the_same_kernel_runs_no_compiler),
        cmocka_unit_test(test_every_kernel_of_a_module_is_listed_by_one_ptxas_and_one_nvdisasm),
        cmocka_unit_test(test_a_changed_ptx_misses_and_a_damaged_listing_is_rejected_with_a_warning),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
