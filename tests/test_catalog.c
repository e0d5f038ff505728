/* test_catalog.c - finding kernels and their PTX: the source hash, name / file /
 * file:name resolution, duplicate names, fresh versus stale checked-in PTX, the
 * NVRTC and nvcc compilers, the staleness of the demos PTX, and the `list` and
 * `ptx` commands run in-process on the whole catalog. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/ptxgen.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/ptx.h"
#include "../common/files.h"

static char tmpdir[64];

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ws-catalog-test-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#define KERNEL(name, note) \
    "/*@warpscope\nkernel  " name "\nnote    " note "\nparam   N = 1 << 10\n" \
    "buffer  in   float  N  init=index\nbuffer  out  float  N  init=zero  output\n" \
    "grid    cdiv(N, 256)\nblock   256\nargs    in, out, N\n*/\n" \
    "__global__ void " name "(const float *in, float *out, int n)\n{\n" \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n) out[i] = 2.0f * in[i];\n}\n"

/* ---- the source hash -------------------------------------------------------- */

static void test_source_hash_is_fnv1a_64_of_the_raw_bytes(void **state)
{
    (void)state;
    /* the published FNV-1a 64 test vectors */
    assert_true(ws_source_hash("", 0) == 0xcbf29ce484222325ull);
    assert_true(ws_source_hash("a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(ws_source_hash("foobar", 6) == 0x85944171f73967e8ull);
    /* every byte counts, including one past a NUL */
    assert_true(ws_source_hash("a\0b", 3) != ws_source_hash("a\0c", 3));
}

/* ---- resolution ------------------------------------------------------------- */

static void test_resolution_by_name_file_and_file_colon_name(void **state)
{
    (void)state;
    write_file("one.cu", KERNEL("alpha", "first"));
    write_file("two.cu", KERNEL("beta", "second") KERNEL("gamma", "third"));
    setenv("WARPSCOPE_CATALOG", tmpdir, 1);
    char dir[WS_PATH_MAX];
    ws_error err;
    assert_int_equal(ws_catalog_dir(dir, sizeof dir, &err), 0);
    assert_string_equal(dir, tmpdir);
    ws_catalog *c;
    assert_int_equal(ws_catalog_load(NULL, &c, &err), 0);
    assert_int_equal(c->nfiles, 2);
    assert_true(strcmp(c->files[0]->path, c->files[1]->path) < 0); /* sorted */

    const ws_desc_file *f;
    const ws_kernel_desc *d;
    ws_desc_file *owned;
    assert_int_equal(ws_catalog_resolve(c, "gamma", &f, &d, &owned, &err), 0);
    assert_string_equal(d->name, "gamma");
    assert_ptr_equal(f, c->files[1]);
    assert_null(owned);

    char path[256];
    snprintf(path, sizeof path, "%s/one.cu", tmpdir);
    assert_int_equal(ws_catalog_resolve(c, path, &f, &d, &owned, &err), 0);
    assert_string_equal(d->name, "alpha");
    assert_null(owned); /* a catalog file: the catalog's copy */

    snprintf(path, sizeof path, "%s/two.cu:beta", tmpdir);
    assert_int_equal(ws_catalog_resolve(c, path, &f, &d, &owned, &err), 0);
    assert_string_equal(d->name, "beta");

    /* a file with two descriptions needs a name, and the error lists them */
    snprintf(path, sizeof path, "%s/two.cu", tmpdir);
    assert_int_not_equal(ws_catalog_resolve(c, path, &f, &d, &owned, &err), 0);
    assert_non_null(strstr(err.msg, "beta, gamma"));
    assert_null(owned);

    snprintf(path, sizeof path, "%s/two.cu:delta", tmpdir);
    assert_int_not_equal(ws_catalog_resolve(c, path, &f, &d, &owned, &err), 0);
    assert_non_null(strstr(err.msg, "no description 'delta'"));

    /* a near miss is suggested */
    assert_int_not_equal(ws_catalog_resolve(c, "gamm", &f, &d, &owned, &err), 0);
    assert_non_null(strstr(err.msg, "did you mean 'gamma'"));
    assert_int_not_equal(ws_catalog_resolve(c, "zzzzzzzz", &f, &d, &owned, &err), 0);
    assert_non_null(strstr(err.msg, "unknown kernel 'zzzzzzzz'"));
    ws_catalog_free(c);

    /* a file outside any catalog is loaded and handed to the caller */
    char sub[200];
    snprintf(sub, sizeof sub, "%s/sub", tmpdir);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file("sub/three.cu", KERNEL("delta", "elsewhere"));
    snprintf(path, sizeof path, "%s/sub/three.cu", tmpdir);
    assert_int_equal(ws_catalog_resolve(NULL, path, &f, &d, &owned, &err), 0);
    assert_non_null(owned);
    assert_ptr_equal(f, owned);
    assert_string_equal(d->name, "delta");
    ws_desc_free(owned);
    assert_int_not_equal(ws_catalog_resolve(NULL, "delta", &f, &d, &owned, &err), 0);
    unsetenv("WARPSCOPE_CATALOG");
}

static void test_duplicate_name_across_files_is_an_error_naming_both_files(void **state)
{
    (void)state;
    char dup[200];
    snprintf(dup, sizeof dup, "%s/dup", tmpdir);
    assert_int_equal(mkdir(dup, 0700), 0);
    write_file("dup/a.cu", KERNEL("same", "one"));
    write_file("dup/b.cu", KERNEL("other", "two") KERNEL("same", "three"));
    ws_catalog *c = NULL;
    ws_error err;
    assert_int_not_equal(ws_catalog_load(dup, &c, &err), 0);
    assert_null(c);
    assert_non_null(strstr(err.file, "dup/b.cu"));
    assert_true(err.line > 1); /* the second block, not the first */
    assert_non_null(strstr(err.msg, "'same'"));
    assert_non_null(strstr(err.msg, "dup/a.cu"));
}

static void test_catalog_dir_rejects_a_missing_folder_in_the_environment(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "/nonexistent/warpscope", 1);
    char dir[WS_PATH_MAX];
    ws_error err;
    assert_int_not_equal(ws_catalog_dir(dir, sizeof dir, &err), 0);
    assert_non_null(strstr(err.msg, "/nonexistent/warpscope"));
    unsetenv("WARPSCOPE_CATALOG");
}

/* ---- checked-in PTX: fresh or stale ------------------------------------------------ */

static const char tiny_ptx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry alpha(\n\t.param .u64 p0,\n\t.param .u64 p1,\n\t.param .u32 p2\n)\n{\n"
    "\t.reg .b32 %r<2>;\n\t.loc 1 14 0\n\tret;\n}\n";

/* <tmpdir>/<sub>/k.cu describing alpha, beside a k.ptx (tiny_ptx, .target sm_90) whose hash
 * header matches it; ptx gets that file's text. Returns the loaded description file. */
static ws_desc_file *fresh_pair(const char *sub, char *ptx, size_t cap)
{
    char dir[200], name[64], path[256];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
    assert_int_equal(mkdir(dir, 0700), 0);
    const char *src = KERNEL("alpha", "first");
    snprintf(name, sizeof name, "%s/k.cu", sub);
    write_file(name, src);
    snprintf(ptx, cap, "// warpscope-source-hash: %016llx\n%s", ws_source_hash(src, strlen(src)), tiny_ptx);
    snprintf(name, sizeof name, "%s/k.ptx", sub);
    write_file(name, ptx);
    snprintf(path, sizeof path, "%s/%s/k.cu", tmpdir, sub);
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(path, &f, &err), 0);
    return f;
}

static void test_fresh_checked_in_ptx_is_used_and_a_stale_one_is_not(void **state)
{
    (void)state;
    const char *src = KERNEL("alpha", "first");
    char ptx[2048];
    ws_desc_file *f = fresh_pair("fresh", ptx, sizeof ptx);
    ws_error err;
    char how[600];
    /* the checked-in file is used as it is: no compiler is allowed */
    setenv("WARPSCOPE_PTXGEN", "none", 1);
    ptx_module *m = ws_catalog_ptx_ex(f, "sm_90", how, sizeof how, &err);
    assert_non_null(m);
    assert_non_null(strstr(m->path, "fresh/k.ptx"));
    assert_non_null(strstr(how, "checked in"));
    assert_int_equal(m->funcs[0].ninsns, 1); /* the handwritten one, not a compiled one */
    ptx_free(m);

    /* one byte more in the .cu: the header no longer matches, and without a compiler that is an error */
    snprintf(ptx, sizeof ptx, "// warpscope-source-hash: %016llx\n%s", ws_source_hash(src, strlen(src) - 1), tiny_ptx);
    write_file("fresh/k.ptx", ptx);
    m = ws_catalog_ptx(f, "sm_90", &err);
    assert_null(m);
    assert_non_null(strstr(err.msg, "stale"));
    assert_non_null(strstr(err.msg, "k.ptx"));
    unsetenv("WARPSCOPE_PTXGEN");
    ws_desc_free(f);
}

/* A GPU loads PTX of its own or an older .target (its driver JIT-compiles it); the
 * simulator asks for the exact target and falls back to the fresh file only when no
 * compiler can make it. No compiler is allowed here, so every answer is the file's. */
static void test_checked_in_ptx_text_serves_newer_gpus_but_not_older_ones(void **state)
{
    (void)state;
    char ptx[2048];
    ws_desc_file *f = fresh_pair("target", ptx, sizeof ptx);
    ws_error err;
    setenv("WARPSCOPE_PTXGEN", "none", 1);

    ws_ptx_origin o;
    char *text = ws_catalog_ptx_text(f, "sm_100", WS_PTX_LOADABLE, &o, &err); /* sm_90 PTX on a cc 10.0 GPU */
    assert_non_null(text);
    assert_string_equal(text, ptx);
    assert_true(o.checked_in);
    assert_non_null(strstr(o.path, "target/k.ptx"));
    assert_non_null(strstr(o.how, ".target sm_90 for sm_100"));
    free(text);

    text = ws_catalog_ptx_text(f, "sm_100", WS_PTX_SAME_TARGET, &o, &err); /* the simulator wanted sm_100 */
    assert_non_null(text);
    assert_true(o.checked_in);
    assert_non_null(strstr(o.how, "sm_100 not compiled"));
    free(text);

    /* an sm_80 GPU cannot load sm_90 PTX, and nothing may compile it */
    assert_null(ws_catalog_ptx_text(f, "sm_80", WS_PTX_LOADABLE, &o, &err));
    assert_true(err.msg[0] != 0);

    unsetenv("WARPSCOPE_PTXGEN");
    ws_desc_free(f);
}

/* ---- compiling ------------------------------------------------------------------- */

static bool have_nvcc(void)
{
    return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || system("command -v nvcc >/dev/null 2>&1") == 0;
}

static const char compile_src[] =
    "__global__ void twice(const float *in, float *out, int n)\n"   /* line 1 */
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = 2.0f * in[i];\n"                              /* line 5 */
    "}\n";

static void check_compiled(const char *how_wanted)
{
    setenv("WARPSCOPE_PTXGEN", how_wanted, 1);
    ws_error err;
    const char *how = NULL;
    char *ptx = ws_ptxgen_compile("twice.cu", compile_src, strlen(compile_src), "sm_90", &how, &err);
    if (!ptx) ws_error_print(&err);
    assert_non_null(ptx);
    assert_string_equal(how, how_wanted);
    char head[64];
    snprintf(head, sizeof head, "// warpscope-source-hash: %016llx\n", ws_source_hash(compile_src, strlen(compile_src)));
    assert_memory_equal(ptx, head, strlen(head));
    ptx_module *m = ptx_parse("twice.ptx", ptx, &err);
    assert_non_null(m);
    assert_string_equal(m->target, "sm_90");
    const ptx_function *fn = ptx_find_function(m, "twice");
    assert_non_null(fn);
    /* compiled with line information: the global load and store come from line 5 */
    int mem = 0;
    for (int i = 0; i < fn->ninsns; i++)
        if (ptx_insn_is_memory(&fn->insns[i])) {
            assert_int_equal(fn->insns[i].space, PTX_SPACE_GLOBAL);
            assert_int_equal(fn->insns[i].src_line, 5);
            mem++;
        }
    assert_int_equal(mem, 2);
    ptx_free(m);
    free(ptx);
    unsetenv("WARPSCOPE_PTXGEN");
}

static void test_nvrtc_and_nvcc_compile_with_line_info_and_the_hash_header(void **state)
{
    (void)state;
    if (!have_nvcc()) {
        fprintf(stderr, "  SKIPPED: no CUDA toolkit on this machine\n");
        skip();
    }
    check_compiled("nvrtc");
    check_compiled("nvcc");
}

static void test_compiler_errors_and_missing_compilers_are_reported_clearly(void **state)
{
    (void)state;
    ws_error err;
    const char *bad = "__global__ void k(float *p) { p[0] = undefined_thing; }\n";
    assert_null(ws_ptxgen_compile("bad.cu", bad, strlen(bad), "compute_90", NULL, &err));
    assert_non_null(strstr(err.msg, "sm_XX"));
    setenv("WARPSCOPE_PTXGEN", "none", 1);
    assert_null(ws_ptxgen_compile("bad.cu", bad, strlen(bad), "sm_90", NULL, &err));
    assert_non_null(strstr(err.msg, "neither libnvrtc"));
    assert_non_null(strstr(err.msg, "nor nvcc"));
    unsetenv("WARPSCOPE_PTXGEN");
    if (!have_nvcc()) {
        fprintf(stderr, "  SKIPPED (compile-error half): no CUDA toolkit on this machine\n");
        return;
    }
    const char *tools[] = {"nvrtc", "nvcc"};
    for (int i = 0; i < 2; i++) {
        setenv("WARPSCOPE_PTXGEN", tools[i], 1);
        memset(&err, 0, sizeof err);
        int saved = dup(2), devnull = open("/dev/null", O_WRONLY); /* the full log goes to stderr */
        dup2(devnull, 2);
        char *ptx = ws_ptxgen_compile("bad.cu", bad, strlen(bad), "sm_90", NULL, &err);
        dup2(saved, 2);
        close(saved);
        close(devnull);
        assert_null(ptx);
        assert_string_equal(err.file, "bad.cu");
        assert_non_null(strstr(err.msg, tools[i]));
        assert_non_null(strstr(err.msg, "undefined_thing"));
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

/* ---- the real catalog --------------------------------------------------------------- */

static int demo_files(glob_t *g)
{
    int r = glob("demos/*.cu", 0, NULL, g);
    if (r == GLOB_NOMATCH) { g->gl_pathc = 0; return 0; }
    assert_int_equal(r, 0);
    return (int)g->gl_pathc;
}

/* The staleness test: each demos/x.cu has demos/x.ptx whose header is the hash
 * of the .cu as it is now. Edit a .cu without `make ptx` and this fails. */
static void test_every_demo_has_fresh_checked_in_ptx(void **state)
{
    (void)state;
    glob_t g;
    int n = demo_files(&g);
    if (!n) {
        fprintf(stderr, "  SKIPPED: no demos/*.cu in this tree yet\n");
        skip();
    }
    int stale = 0;
    for (int i = 0; i < n; i++) {
        const char *cu = g.gl_pathv[i];
        size_t len;
        char *src = ws_read_file(cu, 0, &len, NULL);
        assert_non_null(src);
        char ptxpath[512];
        snprintf(ptxpath, sizeof ptxpath, "%.*s.ptx", (int)strlen(cu) - 3, cu);
        char *ptx = ws_read_file(ptxpath, 0, NULL, NULL);
        char want[64];
        snprintf(want, sizeof want, "// warpscope-source-hash: %016llx\n", ws_source_hash(src, len));
        if (!ptx) { fprintf(stderr, "%s: missing (run make ptx)\n", ptxpath); stale++; }
        else if (strncmp(ptx, want, strlen(want))) {
            fprintf(stderr, "%s: stale: %.42s, but %s hashes to %.16s (run make ptx)\n", ptxpath, ptx, cu, want + 26);
            stale++;
        }
        free(ptx);
        free(src);
    }
    globfree(&g);
    assert_int_equal(stale, 0);
}

/* Runs a command in-process with stdout captured; returns its exit code. */
static int run_captured(int (*cmd)(int, char **), int argc, char **argv, char **out)
{
    char path[] = "/tmp/ws-cmd-out-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    *out = ws_read_file(path, 0, NULL, NULL);
    unlink(path);
    assert_non_null(*out);
    return rc;
}

static void test_list_shows_every_catalog_description_with_its_parameters(void **state)
{
    (void)state;
    glob_t g;
    if (!demo_files(&g)) {
        fprintf(stderr, "  SKIPPED: no demos/*.cu in this tree yet\n");
        skip();
    }
    globfree(&g);
    ws_catalog *c;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &c, &err), 0);
    char *out;
    char *argv[] = {"list", NULL};
    assert_int_equal(run_captured(ws_cmd_list, 1, argv, &out), WS_EXIT_OK);
    int total = 0;
    for (int i = 0; i < c->nfiles; i++) {
        assert_non_null(strstr(out, c->files[i]->path));
        for (int k = 0; k < c->files[i]->nkernels; k++) {
            const ws_kernel_desc *d = &c->files[i]->kernels[k];
            char want[WS_KERNEL_NAME_MAX + 8];
            snprintf(want, sizeof want, "  %s ", d->name);
            assert_non_null(strstr(out, want));
            assert_non_null(strstr(out, d->note));
            total++;
        }
    }
    char count[64];
    snprintf(count, sizeof count, "%d descriptions in %d files", total, c->nfiles);
    assert_non_null(strstr(out, count));
    free(out);

    char *jargv[] = {"list", "--json", NULL};
    assert_int_equal(run_captured(ws_cmd_list, 2, jargv, &out), WS_EXIT_OK);
    cJSON *root = cJSON_Parse(out);
    assert_non_null(root);
    cJSON *files = cJSON_GetObjectItem(root, "files");
    assert_int_equal(cJSON_GetArraySize(files), c->nfiles);
    int jtotal = 0;
    for (int i = 0; i < c->nfiles; i++) {
        cJSON *kernels = cJSON_GetObjectItem(cJSON_GetArrayItem(files, i), "kernels");
        for (int k = 0; k < cJSON_GetArraySize(kernels); k++) {
            cJSON *o = cJSON_GetArrayItem(kernels, k);
            const ws_kernel_desc *d = &c->files[i]->kernels[k];
            assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(o, "name")), d->name);
            cJSON *params = cJSON_GetObjectItem(o, "params");
            assert_int_equal(cJSON_GetArraySize(params), d->nparams);
            for (int p = 0; p < d->nparams; p++) {
                cJSON *po = cJSON_GetArrayItem(params, p);
                assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(po, "name")), d->params[p].name);
                assert_true(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(po, "default"))) > 0);
            }
            assert_true(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(o, "grid"))) > 0);
            assert_true(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(o, "block"))) > 0);
            /* evaluated block: at most 1024 threads, as the description layer guarantees */
            cJSON *bv = cJSON_GetObjectItem(o, "block_value");
            double threads = 1;
            for (int j = 0; j < 3; j++) threads *= cJSON_GetNumberValue(cJSON_GetArrayItem(bv, j));
            assert_true(threads >= 1 && threads <= 1024);
            jtotal++;
        }
    }
    assert_int_equal(jtotal, total);
    cJSON_Delete(root);
    free(out);
    ws_catalog_free(c);
}

static void test_list_of_a_given_file_and_help_and_bad_options(void **state)
{
    (void)state;
    write_file("listed.cu", KERNEL("listed_kernel", "from a file") KERNEL("second_kernel", "also"));
    char path[256];
    snprintf(path, sizeof path, "%s/listed.cu", tmpdir);
    char *argv[] = {"list", path, NULL};
    char *out;
    assert_int_equal(run_captured(ws_cmd_list, 2, argv, &out), WS_EXIT_OK);
    assert_non_null(strstr(out, "listed_kernel"));
    assert_non_null(strstr(out, "N = 1 << 10"));
    assert_non_null(strstr(out, "grid cdiv(N, 256); block 256"));
    assert_non_null(strstr(out, "= grid (4) block (256)")); /* 1024 / 256 */
    assert_non_null(strstr(out, "2 descriptions in 1 file"));
    free(out);
    char *help[] = {"list", "--help", NULL};
    assert_int_equal(run_captured(ws_cmd_list, 2, help, &out), WS_EXIT_OK);
    assert_non_null(strstr(out, "usage: warpscope list"));
    free(out);
    char *bad[] = {"list", "--bogus", NULL};
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    int rc = run_captured(ws_cmd_list, 2, bad, &out);
    dup2(saved, 2);
    close(saved);
    close(devnull);
    assert_int_equal(rc, WS_EXIT_USAGE);
    free(out);
}

/* `warpscope ptx` works for every catalog kernel: each shows its source lines and
 * marks at least one memory instruction (every catalog kernel moves data). */
static void test_ptx_command_works_for_every_catalog_kernel(void **state)
{
    (void)state;
    glob_t g;
    if (!demo_files(&g)) {
        fprintf(stderr, "  SKIPPED: no demos/*.cu in this tree yet\n");
        skip();
    }
    globfree(&g);
    ws_catalog *c;
    ws_error err;
    assert_int_equal(ws_catalog_load("demos", &c, &err), 0);
    setenv("WARPSCOPE_PTXGEN", "none", 1); /* the checked-in PTX must suffice */
    int kernels = 0;
    for (int i = 0; i < c->nfiles; i++)
        for (int k = 0; k < c->files[i]->nkernels; k++) {
            const ws_kernel_desc *d = &c->files[i]->kernels[k];
            char *argv[] = {"ptx", (char *)d->name, NULL};
            char *out;
            int rc = run_captured(ws_cmd_ptx, 2, argv, &out);
            if (rc) fprintf(stderr, "ptx %s: exit %d\n", d->name, rc);
            assert_int_equal(rc, WS_EXIT_OK);
            char want[WS_KERNEL_NAME_MAX + 16];
            snprintf(want, sizeof want, "kernel  %s ", d->name);
            assert_non_null(strstr(out, want));
            assert_non_null(strstr(out, "checked in, fresh"));
            assert_non_null(strstr(out, " M "));
            /* the kernel's own source file and lines appear as group headers */
            char hdr[WS_PATH_MAX + 4];
            snprintf(hdr, sizeof hdr, "\n%s:", c->files[i]->path);
            assert_non_null(strstr(out, hdr));
            free(out);
            kernels++;
        }
    unsetenv("WARPSCOPE_PTXGEN");
    assert_true(kernels > 0);
    ws_catalog_free(c);
}

static void test_ptx_command_on_a_file_groups_instructions_under_source_lines(void **state)
{
    (void)state;
    if (!have_nvcc()) {
        fprintf(stderr, "  SKIPPED: no CUDA toolkit to compile a file without checked-in PTX\n");
        skip();
    }
    write_file("one_kernel.cu", KERNEL("solo", "doubling"));
    char path[256];
    snprintf(path, sizeof path, "%s/one_kernel.cu", tmpdir);
    char *argv[] = {"ptx", path, "-D", "N=4096", "--arch", "sm_90", NULL};
    char *out;
    assert_int_equal(run_captured(ws_cmd_ptx, 6, argv, &out), WS_EXIT_OK);
    assert_non_null(strstr(out, "compiled now with"));
    /* line 14 of the file is `if (i < n) out[i] = 2.0f * in[i];`: the global load and store sit under it */
    char *grp = strstr(out, "one_kernel.cu:14  if (i < n) out[i] = 2.0f * in[i];");
    assert_non_null(grp);
    char *next = strstr(grp + 1, "\none_kernel.cu:");
    char *ld = strstr(grp, "M global 4B    ld.global");
    char *st = strstr(grp, "M global 4B    st.global");
    assert_non_null(ld);
    assert_non_null(st);
    if (next) { assert_true(ld < next); assert_true(st < next); }
    free(out);
    char *bad[] = {"ptx", path, "-D", "NOPE=1", NULL};
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    int rc = run_captured(ws_cmd_ptx, 4, bad, &out);
    dup2(saved, 2);
    close(saved);
    close(devnull);
    assert_int_equal(rc, WS_EXIT_USAGE);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_hash_is_fnv1a_64_of_the_raw_bytes),
        cmocka_unit_test(test_resolution_by_name_file_and_file_colon_name),
        cmocka_unit_test(test_duplicate_name_across_files_is_an_error_naming_both_files),
        cmocka_unit_test(test_catalog_dir_rejects_a_missing_folder_in_the_environment),
        cmocka_unit_test(test_fresh_checked_in_ptx_is_used_and_a_stale_one_is_not),
        cmocka_unit_test(test_checked_in_ptx_text_serves_newer_gpus_but_not_older_ones),
        cmocka_unit_test(test_nvrtc_and_nvcc_compile_with_line_info_and_the_hash_header),
        cmocka_unit_test(test_compiler_errors_and_missing_compilers_are_reported_clearly),
        cmocka_unit_test(test_every_demo_has_fresh_checked_in_ptx),
        cmocka_unit_test(test_list_shows_every_catalog_description_with_its_parameters),
        cmocka_unit_test(test_list_of_a_given_file_and_help_and_bad_options),
        cmocka_unit_test(test_ptx_command_works_for_every_catalog_kernel),
        cmocka_unit_test(test_ptx_command_on_a_file_groups_instructions_under_source_lines),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
