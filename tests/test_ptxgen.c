/* test_ptxgen.c - compiling a user's .cu as their build would (common/ptxgen.c) and
 * launching what the description names (common/catalog.c: ws_catalog_ptx_text_for,
 * ws_catalog_entry), on the regression kernels in tests/data/frontend: toolkit headers with
 * NVRTC, C library headers through the nvcc fallback, compile options and -D macros,
 * template instantiations and overloads told apart by what they compute, a kernel defined in
 * a header attributed to the header's lines, and checked-in PTX used without a toolkit.
 * Needs the CUDA toolkit (NVRTC and nvcc; no GPU); without one each test says SKIPPED. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/buffers.h"
#include "../common/catalog.h"
#include "../common/demangle.h"
#include "../common/desc.h"
#include "../common/files.h"
#include "../common/ptxgen.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/ptx.h"

#define DATA "tests/data/frontend"

static bool have_toolkit(void)
{
    char dirs[2][WS_PATH_MAX];
    return ws_ptxgen_toolkit_includes(dirs, 2) > 0 &&
           (access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || system("command -v nvcc >/dev/null 2>&1") == 0);
}

#define NEED_TOOLKIT()                                                                  \
    do {                                                                                \
        if (!have_toolkit()) {                                                          \
            fprintf(stderr, "  SKIPPED: no CUDA toolkit (NVRTC and nvcc) on this machine\n"); \
            skip();                                                                     \
        }                                                                               \
    } while (0)

/* 1-based line of the first occurrence of needle in text, 0 if absent. */
static int line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p) return 0;
    int line = 1;
    for (const char *q = text; q < p; q++) line += *q == '\n';
    return line;
}

/* Runs stderr into /dev/null around a call that prints a compiler log on purpose. */
static int quiet_begin(void)
{
    fflush(stderr);
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    close(devnull);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* One description compiled, resolved and simulated. */
typedef struct {
    ws_desc_file *file;
    const ws_kernel_desc *d;
    ws_launch L;
    char *ptx;
    ws_ptx_origin origin;
    ptx_module *mod;
    const ptx_function *fn;
    ws_sim_result res;
    bool ran;
} run;

static void run_free(run *r)
{
    if (r->ran) ws_sim_result_free(&r->res);
    ptx_free(r->mod);
    free(r->ptx);
    ws_desc_free(r->file);
    memset(r, 0, sizeof *r);
}

/* Loads path, resolves description name with ov, compiles and finds its entry; simulates
 * when simulate. Fails the test on any error. */
static void run_desc(run *r, const char *path, const char *name, const ws_overrides *ov, bool simulate)
{
    memset(r, 0, sizeof *r);
    ws_error err;
    if (ws_desc_load(path, &r->file, &err)) fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    r->d = ws_desc_find(r->file, name);
    if (!r->d) fail_msg("%s has no description %s", path, name);
    if (ws_desc_resolve(r->d, ov, &r->L, &err)) fail_msg("resolve %s: %s:%d:%d: %s", name, err.file, err.line, err.col, err.msg);
    r->ptx = ws_catalog_ptx_text_for(r->file, &r->L, "sm_90", WS_PTX_SAME_TARGET, &r->origin, &err);
    if (!r->ptx) fail_msg("compile %s: %s:%d: %s", path, err.file, err.line, err.msg);
    r->mod = ptx_parse(r->origin.path, r->ptx, &err);
    if (!r->mod) fail_msg("parse %s: %s:%d: %s", r->origin.path, err.file, err.line, err.msg);
    r->fn = ws_catalog_entry(r->mod, r->ptx, r->d, &err);
    if (!r->fn) fail_msg("entry of %s: %s:%d:%d: %s", name, err.file, err.line, err.col, err.msg);
    if (!simulate) return;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r->mod;
    cfg.fn = r->fn;
    cfg.launch = &r->L;
    cfg.source_file = path;
    if (ws_sim_run(&cfg, &r->res, &err)) fail_msg("simulate %s: %s:%d: %s", name, err.file, err.line, err.msg);
    r->ran = true;
}

static int buffer_index(const ws_launch *L, const char *name)
{
    for (int i = 0; i < L->nbuffers; i++)
        if (!strcmp(L->buffers[i].name, name)) return i;
    fail_msg("no buffer %s", name);
    return -1;
}

static const char *const tools[] = {"nvrtc", "nvcc"};

/* ---- the compile path ---------------------------------------------------------------- */

static void test_toolkit_include_folders_hold_the_cuda_and_cccl_headers(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    char dirs[2][WS_PATH_MAX], p[WS_PATH_MAX + 64];
    int n = ws_ptxgen_toolkit_includes(dirs, 2);
    assert_true(n >= 1);
    snprintf(p, sizeof p, "%s/cuda_fp16.h", dirs[0]);
    assert_int_equal(access(p, R_OK), 0);
    snprintf(p, sizeof p, "%s/cooperative_groups.h", dirs[0]);
    assert_int_equal(access(p, R_OK), 0);
    /* CUDA 13 keeps libcu++ (cuda/std/...) under include/cccl; cooperative_groups needs it */
    snprintf(p, sizeof p, "%s/cccl/cuda/std/type_traits", dirs[0]);
    if (access(p, R_OK) == 0) {
        assert_int_equal(n, 2);
        snprintf(p, sizeof p, "%s/cuda/std/type_traits", dirs[1]);
        assert_int_equal(access(p, R_OK), 0);
    }
}

static void test_cuda_headers_compile_with_nvrtc_by_default(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    size_t len;
    ws_error err;
    char *src = ws_read_file(DATA "/includes.cu", 0, &len, &err);
    assert_non_null(src);
    ws_ptxgen_job job = {DATA "/includes.cu", src, len, "sm_90", NULL, 0, NULL};
    ws_ptxgen_info info;
    char *ptx = ws_ptxgen_run(&job, &info, &err);
    if (!ptx) fail_msg("%s", err.msg);
    assert_int_equal(info.tool, WS_PTXGEN_NVRTC);
    assert_non_null(strstr(info.how, "compiled with NVRTC "));
    assert_non_null(strstr(ptx, "// warpscope-compiler: compiled with NVRTC "));
    /* the kernel is there, under the C++ name of its signature */
    const char *e = strstr(ptx, ".entry _Z5widen");
    assert_non_null(e);
    char mangled[128], dem[256];
    snprintf(mangled, sizeof mangled, "%.*s", (int)strcspn(e + 7, "( \n"), e + 7);
    assert_string_equal(ws_demangle(mangled, dem, sizeof dem), "widen(__half const*, __nv_bfloat16 const*, float*, int)");
    free(ptx);
    free(src);
}

/* "116, 101, ..." : how a PTX .b8 initialiser spells the bytes of s. */
static void ptx_bytes(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *c = s; *c && n < cap; c++) n += (size_t)snprintf(out + n, cap - n, "%s%u", c == s ? "" : ", ", (unsigned char)*c);
}

/* Issue 21 item 10: through nvcc, __FILE__ (what a failed assert prints) is the user's file as
 * named, as under NVRTC, not the temporary copy <tmp>/k/kernel.cu nvcc was given. */
static void test_an_assert_compiled_by_nvcc_names_the_users_file(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    run r;
    run_desc(&r, DATA "/assert_nvcc.cu", "assert_small", NULL, false);
    assert_int_equal(r.origin.tool, WS_PTXGEN_NVCC);
    char want[400], tmp[200];
    ptx_bytes(DATA "/assert_nvcc.cu", want, sizeof want);
    ptx_bytes("/k/kernel.cu", tmp, sizeof tmp);
    if (!strstr(r.ptx, want)) fail_msg("the PTX holds no string \"%s\" (__FILE__)", DATA "/assert_nvcc.cu");
    assert_null(strstr(r.ptx, tmp));
    assert_null(strstr(r.ptx, "warpscope-ptx-"));
    run_free(&r);
}

static void test_c_library_headers_fall_back_to_nvcc_and_say_why(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    run r;
    run_desc(&r, DATA "/libc_headers.cu", "clamp_add", NULL, true);
    assert_int_equal(r.origin.tool, WS_PTXGEN_NVCC);
    /* NVRTC's first error is the missing C library header, and the origin says so */
    assert_non_null(strstr(r.origin.compiler, "nvcc -ptx "));
    assert_non_null(strstr(r.origin.compiler, "NVRTC could not: "));
    assert_non_null(strstr(r.origin.compiler, "cstdio"));
    assert_non_null(strstr(r.origin.how, "compiled now with nvcc -ptx"));
    /* and the kernel it compiled runs: out = min(a + 1, INT_MAX - 1) with a = index */
    int o = buffer_index(&r.L, "out");
    const int *out = r.res.buffer_data[o];
    for (int i = 0; i < 128; i++) assert_int_equal(out[i], i + 1);
    run_free(&r);
    /* restricted to NVRTC, the same file is an error naming the header */
    setenv("WARPSCOPE_PTXGEN", "nvrtc", 1);
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(DATA "/libc_headers.cu", &f, &err), 0);
    int saved = quiet_begin();
    char *ptx = ws_catalog_ptx_text(f, "sm_90", WS_PTX_SAME_TARGET, NULL, &err);
    quiet_end(saved);
    assert_null(ptx);
    assert_non_null(strstr(err.msg, "cstdio"));
    ws_desc_free(f);
    unsetenv("WARPSCOPE_PTXGEN");
}

/* A file that compiles only when TILE is 32 and the -I folder is searched. */
static const char opts_src[] =
    "#include \"only_with_minus_i.h\"\n"
    "#if TILE != 32\n#error TILE must be 32\n#endif\n"
    "__global__ void k(int *out) { out[threadIdx.x] = TILE + ONLY_WITH_MINUS_I; }\n";

static void test_compile_options_reach_both_compilers(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    ws_compile_opts o = {0};
    ws_error err;
    assert_int_equal(ws_compile_opts_parse("-I inc -DTILE=32 -std=c++17", DATA, "t.cu", 3, 9, &o, &err), 0);
    assert_int_equal(o.n, 3);
    assert_string_equal(o.opt[0], "-I" DATA "/inc");   /* relative to the .cu's folder */
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        ws_ptxgen_job job = {"opts.cu", opts_src, strlen(opts_src), "sm_90", &o, 0, NULL};
        ws_ptxgen_info info;
        char *ptx = ws_ptxgen_run(&job, &info, &err);
        if (!ptx) fail_msg("%s: %s", tools[t], err.msg);
        assert_non_null(strstr(ptx, "// warpscope-options: -I" DATA "/inc -DTILE=32 -std=c++17\n"));
        free(ptx);
        /* without the macro the #error fires: the options were what made it compile */
        ws_compile_opts fewer = o;
        fewer.n = 1;
        job.opts = &fewer;
        int saved = quiet_begin();
        ptx = ws_ptxgen_run(&job, &info, &err);
        quiet_end(saved);
        assert_null(ptx);
        assert_non_null(strstr(err.msg, "TILE must be 32"));
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

/* A __device__ lambda: an error unless --extended-lambda; both extensions' macros must be set. */
static const char lambda_src[] =
    "#if !defined(__CUDACC_RELAXED_CONSTEXPR__) || !defined(__CUDACC_EXTENDED_LAMBDA__)\n#error no extension macros\n#endif\n"
    "__global__ void k(int *out) { auto f = [] __device__ (int v) { return v; }; out[threadIdx.x] = f(threadIdx.x); }\n";
/* A host constexpr function called from a kernel: for nvcc (NVRTC has no host functions) an
 * error unless --expt-relaxed-constexpr. */
static const char relaxed_src[] =
    "constexpr int twice(int x) { return 2 * x; }\n"
    "__global__ void k(int *out) { out[threadIdx.x] = twice(threadIdx.x); }\n";

static void expect_compile_error(const char *tool, const char *src, const char *opt, const char *want)
{
    ws_compile_opts one = {0};
    ws_error err;
    assert_int_equal(ws_compile_opts_add(&one, opt, "", &err), 0);
    ws_ptxgen_job job = {"ext.cu", src, strlen(src), "sm_90", &one, 0, NULL};
    ws_ptxgen_info info;
    setenv("WARPSCOPE_PTXGEN", tool, 1);
    int saved = quiet_begin();
    char *ptx = ws_ptxgen_run(&job, &info, &err);
    quiet_end(saved);
    if (ptx) fail_msg("%s compiled with only %s", tool, opt);
    if (!strstr(err.msg, want)) fail_msg("%s: %s", tool, err.msg);
}

static void test_the_options_real_builds_pass_reach_both_compilers_and_bad_ones_are_named(void **state)
{
    (void)state;
    ws_compile_opts o = {0};
    ws_error err;
    assert_int_equal(ws_compile_opts_parse("--expt-relaxed-constexpr --expt-extended-lambda -lineinfo -Xptxas -v,-O3 "
                                           "--ptxas-options=--warn-on-spills", "", "t.cu", 3, 9, &o, &err), 0);
    assert_int_equal(o.n, 5);                                  /* -lineinfo is always on: nothing added */
    assert_string_equal(o.opt[0], "--expt-relaxed-constexpr");
    assert_string_equal(o.opt[1], "--extended-lambda");
    assert_string_equal(o.opt[2], "-Xptxas=-v");
    assert_string_equal(o.opt[3], "-Xptxas=-O3");
    assert_string_equal(o.opt[4], "-Xptxas=--warn-on-spills");
    assert_true(ws_compile_opt_is_ptxas(o.opt[2]) && !ws_compile_opt_is_ptxas(o.opt[0]));
    /* each bad one named at its column, the known list given */
    static const struct { const char *line, *want; int col; } bad[] = {
        {"-O2", "unknown compiler option '-O2' (known: -I DIR", 9},
        {"-lineinfo -G", "-G (device debug) is refused", 19},
        {"-Xptxas -v,--maxrregcount=32", "unknown ptxas option '--maxrregcount=32' in -Xptxas (known: -v", 9},
        {"-Xptxas", "-Xptxas needs a value after it", 9},
        {"--expt-relaxed-constexpr=1", "unknown compiler option", 9},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ws_compile_opts b = {0};
        assert_int_equal(ws_compile_opts_parse(bad[i].line, "", "t.cu", 3, 9, &b, &err), -1);
        if (!strstr(err.msg, bad[i].want)) fail_msg("'%s': %s", bad[i].line, err.msg);
        assert_int_equal(err.line, 3);
        assert_int_equal(err.col, bad[i].col);
        if (i == 0) assert_non_null(strstr(err.msg, "--expt-relaxed-constexpr, --expt-extended-lambda, -lineinfo, -Xptxas"));
    }
    NEED_TOOLKIT();
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        const char *src = t == 0 ? lambda_src : relaxed_src;  /* tools[0] is NVRTC: no host functions */
        ws_ptxgen_job job = {"ext.cu", src, strlen(src), "sm_90", &o, 0, NULL};
        ws_ptxgen_info info;
        char *ptx = ws_ptxgen_run(&job, &info, &err);
        if (!ptx) fail_msg("%s: %s", tools[t], err.msg);
        assert_non_null(strstr(ptx, ".entry"));
        free(ptx);
        if (t == 1) {
            job.source = lambda_src;
            job.len = strlen(lambda_src);
            ptx = ws_ptxgen_run(&job, &info, &err);
            if (!ptx) fail_msg("%s: %s", tools[t], err.msg);
            free(ptx);
            expect_compile_error(tools[t], relaxed_src, "--extended-lambda", "--expt-relaxed-constexpr");
        }
        /* without the option the same file does not compile: the option got there */
        expect_compile_error(tools[t], lambda_src, "--expt-relaxed-constexpr", "no extension macros");
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

/* Kernel names are C++ names of any length a build has: a 70-character kernel and a
 * 200-character template instantiation are described, compiled, found and run, every message
 * and result keeping the whole name. */
static void test_kernels_with_70_and_200_character_names_run(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    static const char *const names[2] = {
        "fused_rmsnorm_residual_add_bf16_vectorized_kernel_with_a_long_name_x70",
        "flash_attention_forward_split_kv_causal_bf16_sm90_kernel<7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 5, 12, 19, 26, 33, 40, 47, 54, 61, 68, 75, 82, 89, 96, 3, 10, 17, 24, 31, 38, 45, 52, 5>"};
    assert_int_equal(strlen(names[0]), 70);
    assert_int_equal(strlen(names[1]), 200);
    for (int i = 0; i < 2; i++) {
        run r;
        run_desc(&r, DATA "/long_names.cu", names[i], NULL, true);
        assert_string_equal(r.d->name, names[i]);
        const int *out = r.res.buffer_data[buffer_index(&r.L, "out")];
        for (int t = 0; t < (i ? 32 : 64); t++) assert_int_equal(out[t], i ? 37 + t : 2 * t);  /* 37 template arguments */
        run_free(&r);
    }
}

static void test_a_minus_d_macro_changes_what_the_kernel_computes(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    /* macro_scale.cu multiplies by SCALE (1 unless defined); -D SCALE=3 is a macro because
     * SCALE is no parameter of the description but a name in the file */
    ws_overrides ov = {0};
    ws_error err;
    assert_int_equal(ws_overrides_add(&ov, "SCALE=3", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "N=96", &err), 0);
    run r;
    run_desc(&r, DATA "/macro_scale.cu", "macro_scale", &ov, true);
    assert_int_equal(r.L.param_values[0], 96);
    assert_int_equal(r.L.compile.n, 1);
    assert_string_equal(r.L.compile.opt[0], "-DSCALE=3");
    const int *out = r.res.buffer_data[buffer_index(&r.L, "out")];
    for (int i = 0; i < 96; i++) assert_int_equal(out[i], 3 * i);
    run_free(&r);
    run_desc(&r, DATA "/macro_scale.cu", "macro_scale", NULL, true);
    out = r.res.buffer_data[buffer_index(&r.L, "out")];
    for (int i = 0; i < 64; i++) assert_int_equal(out[i], i);
    run_free(&r);
}

/* ---- half and bfloat16 ------------------------------------------------------------------ */

static void test_half_buffers_and_parameters_hold_round_to_nearest_values(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    run r;
    run_desc(&r, DATA "/half_buffers.cu", "half_axpy", NULL, true);
    /* h = half(k), b = bf16(0.5): 3k + 0.5 is exact in float for k < 256, then rounded to half once */
    const uint16_t *out = r.res.buffer_data[buffer_index(&r.L, "out")];
    for (int k = 0; k < 256; k++)
        if (out[k] != ws_half_from_double(3.0 * k + 0.5)) fail_msg("out[%d] = 0x%04x, want 0x%04x", k, out[k],
                                                                   ws_half_from_double(3.0 * k + 0.5));
    assert_true(ws_half_to_double(out[255]) == 765.5);   /* halves in [512, 1024) are 0.5 apart: exact */
    assert_true(ws_half_to_double(out[10]) == 30.5);
    run_free(&r);
    /* by-value __half 0.1 and __nv_bfloat16 -2.0: the kernel sees their rounded values */
    run_desc(&r, DATA "/half_buffers.cu", "half_bias", NULL, true);
    const float *f = r.res.buffer_data[buffer_index(&r.L, "out")];
    float base = (float)ws_half_to_double(ws_half_from_double(0.1)) + (float)ws_bf16_to_double(ws_bf16_from_double(-2.0));
    for (int k = 0; k < 64; k++) assert_true(f[k] == base + (float)k);
    assert_true(base != 0.1f - 2.0f);                    /* half(0.1) = 0.0999755859375, not 0.1 */
    run_free(&r);
}

/* ---- buffers from files and generators ----------------------------------------------------- */

static void test_gathers_read_file_and_generated_indices(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    /* gather_src.bin is 100 + k; gather_idx.npy is (5k) % 64 (tests/data/frontend/gather.cu) */
    run r;
    run_desc(&r, DATA "/gather.cu", "gather_files", NULL, true);
    const float *out = r.res.buffer_data[buffer_index(&r.L, "out")];
    for (int k = 0; k < 64; k++) assert_true(out[k] == 100.0f + (float)((5 * k) % 64));
    run_free(&r);
    /* perm(11): out is src permuted, so it holds each of 100..163 once */
    run_desc(&r, DATA "/gather.cu", "gather_perm", NULL, true);
    out = r.res.buffer_data[buffer_index(&r.L, "out")];
    int seen[64] = {0};
    for (int k = 0; k < 64; k++) {
        int v = (int)out[k] - 100;
        assert_true(v >= 0 && v < 64);
        seen[v]++;
    }
    for (int v = 0; v < 64; v++) assert_int_equal(seen[v], 1);
    run_free(&r);
    /* lcg(7, 1103515245, 12345, 2^31, 0, N): the host loop of the C standard's rand() example */
    run_desc(&r, DATA "/gather.cu", "gather_lcg", NULL, true);
    out = r.res.buffer_data[buffer_index(&r.L, "out")];
    uint32_t x = 7;
    for (int k = 0; k < 64; k++) {
        x = (1103515245u * x + 12345u) & 0x7fffffffu;
        assert_true(out[k] == 100.0f + (float)(x % 64));
    }
    run_free(&r);
}

/* ---- naming the kernel ---------------------------------------------------------------- */

static void test_template_instantiations_run_their_own_kernel(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        run a, b;
        run_desc(&a, DATA "/templates.cu", "scale<2>", NULL, true);
        run_desc(&b, DATA "/templates.cu", "scale4", NULL, true);
        assert_string_equal(a.d->entry, "scale<2>");
        assert_string_equal(b.d->entry, "scale<4>");
        /* the Itanium ABI spells scale<4>(const float*, float*, int) as _Z5scaleILi4EEvPKfPfi:
         * 5scale, template args I Li4E E (int literal 4), return type v, then the parameters */
        assert_string_equal(b.fn->name, "_Z5scaleILi4EEvPKfPfi");
        assert_string_equal(a.fn->name, "_Z5scaleILi2EEvPKfPfi");
        const float *oa = a.res.buffer_data[buffer_index(&a.L, "out")];
        const float *ob = b.res.buffer_data[buffer_index(&b.L, "out")];
        for (int i = 0; i < 64; i++) {      /* in = index, out = in * F */
            assert_true(oa[i] == 2.0f * (float)i);
            assert_true(ob[i] == 4.0f * (float)i);
        }
        /* the template named without arguments is ambiguous, not the first match */
        ws_error err;
        const ws_kernel_desc *w = ws_desc_find(a.file, "scale_which");
        assert_null(ws_catalog_entry(a.mod, a.ptx, w, &err));
        assert_int_equal(err.line, line_of(a.file->source, "entry   scale\n"));
        assert_non_null(strstr(err.msg, "'scale' is ambiguous"));
        assert_non_null(strstr(err.msg, "void scale<2>(float const*, float*, int)"));
        assert_non_null(strstr(err.msg, "void scale<4>(float const*, float*, int)"));
        run_free(&a);
        run_free(&b);
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

static void test_overloads_are_picked_by_their_parameter_types(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        run ri, rf;
        run_desc(&ri, DATA "/overloads.cu", "bump_int", NULL, true);
        run_desc(&rf, DATA "/overloads.cu", "bump_float", NULL, true);
        assert_string_equal(ri.fn->name, "_Z4bumpPKiPii");   /* bump(const int*, int*, int) */
        assert_string_equal(rf.fn->name, "_Z4bumpPKfPfi");   /* bump(const float*, float*, int) */
        const int *oi = ri.res.buffer_data[buffer_index(&ri.L, "out")];
        const float *of = rf.res.buffer_data[buffer_index(&rf.L, "out")];
        for (int i = 0; i < 64; i++) {
            assert_int_equal(oi[i], i + 1000);
            assert_true(of[i] == (float)i + 0.5f);
        }
        ws_error err;
        assert_null(ws_catalog_entry(ri.mod, ri.ptx, ws_desc_find(ri.file, "bump"), &err));
        assert_non_null(strstr(err.msg, "'bump' is ambiguous: 2 kernels match"));
        assert_non_null(strstr(err.msg, "bump(int const*, int*, int)"));
        assert_non_null(strstr(err.msg, "bump(float const*, float*, int)"));
        run_free(&ri);
        run_free(&rf);
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

static void test_a_misnamed_instantiation_is_an_error_at_its_entry_line(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    const char *src = "/*@warpscope\nkernel k\nentry nosuch<2>\ngrid 1\nblock 1\n*/\n"
                      "template <int N> __global__ void nosuch_other() {}\n__global__ void nosuch() {}\n";
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_parse("misnamed.cu", src, &f, &err), 0);
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        int saved = quiet_begin();
        char *ptx = ws_catalog_ptx_text(f, "sm_90", WS_PTX_SAME_TARGET, NULL, &err);
        quiet_end(saved);
        assert_null(ptx);
        /* nosuch is not a template: the compiler cannot instantiate nosuch<2>, and says which entry */
        if (!strstr(err.msg, "entry 'nosuch<2>'")) fail_msg("%s: %s", tools[t], err.msg);
    }
    unsetenv("WARPSCOPE_PTXGEN");
    ws_desc_free(f);
}

static void test_a_header_kernel_is_attributed_to_the_header_lines(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        run r;
        run_desc(&r, DATA "/header_kernel.cu", "from_header", NULL, false);
        const char *hdr = DATA "/header_kernel.cuh";
        assert_string_equal(r.d->kernel_file, hdr);
        size_t hlen;
        const char *htext = ws_desc_source_text(r.file, hdr, &hlen);
        assert_non_null(htext);
        assert_int_equal(r.d->kernel_line, line_of(htext, "__global__ void from_header"));
        /* the load and the store are on the header's "out[i] = twice(in[i]);" line, in the
         * header's .file, which ws_desc_source_path maps back to the header */
        int want = line_of(htext, "out[i] = twice(in[i]);"), mem = 0;
        assert_true(want > 0);
        for (int i = 0; i < r.fn->ninsns; i++) {
            const ptx_insn *in = &r.fn->insns[i];
            if (!ptx_insn_is_memory(in) || in->space != PTX_SPACE_GLOBAL) continue;
            mem++;
            assert_int_equal(in->src_line, want);
            const char *path = NULL;
            for (int k = 0; k < r.mod->nfiles; k++)
                if (r.mod->files[k].index == in->src_file) path = r.mod->files[k].path;
            assert_non_null(path);
            assert_string_equal(ws_desc_source_path(r.file, path), hdr);
        }
        assert_int_equal(mem, 2);
        run_free(&r);
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

/* ---- the README's example ---------------------------------------------------------------- */

static void test_the_readme_example_is_this_file_and_runs_as_it_says(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    unsetenv("WARPSCOPE_PTXGEN");
    char *readme = ws_read_file("README.md", 0, NULL, NULL);
    char *src = ws_read_file(DATA "/readme.cu", 0, NULL, NULL);
    assert_non_null(readme);
    assert_non_null(src);
    const char *body = strstr(src, "#include <cuda_fp16.h>");
    assert_non_null(body);
    if (!strstr(readme, body)) fail_msg("README.md does not show %s/readme.cu from its #include on", DATA);
    run r;
    run_desc(&r, DATA "/readme.cu", "scale_rows<128>", NULL, true);
    /* the compile path and the kernel the README shows are the ones taken */
    char line[1024];
    snprintf(line, sizeof line, "entry %.200s\nptx     %.700s; target sm_90", r.fn->name, r.origin.how);
    if (!strstr(readme, line)) fail_msg("README.md lacks '%s'", line);
    assert_non_null(strstr(r.origin.how, "compiled now with NVRTC "));
    /* out[r][c] = w[r] * m[r][c], w from the .npy (0.5 + r/128), m as buffers.c fills it */
    int wi = buffer_index(&r.L, "w"), mi = buffer_index(&r.L, "m");
    uint16_t *m = malloc(r.L.buffers[mi].bytes);
    assert_non_null(m);
    ws_buffer_fill(&r.L.buffers[mi], m);
    const float *w = r.res.buffer_data[wi], *out = r.res.buffer_data[buffer_index(&r.L, "out")];
    for (int row = 0; row < 64; row++) {
        assert_true(w[row] == 0.5f + (float)row / 128.0f);
        for (int c = 0; c < 128; c++)
            assert_true(out[row * 128 + c] == w[row] * (float)ws_half_to_double(m[row * 128 + c]));
    }
    free(m);
    run_free(&r);
    free(src);
    free(readme);
}

/* ---- without a toolkit ------------------------------------------------------------------ */

static void test_checked_in_ptx_with_names_runs_without_a_compiler(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    char dir[] = "/tmp/ws-test-ptxgen-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cu[128], ptxp[128];
    snprintf(cu, sizeof cu, "%s/templates.cu", dir);
    snprintf(ptxp, sizeof ptxp, "%s/templates.ptx", dir);
    size_t len;
    char *src = ws_read_file(DATA "/templates.cu", 0, &len, NULL);
    assert_non_null(src);
    FILE *o = fopen(cu, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(src, 1, len, o), len);
    fclose(o);
    /* the text compiled now, written beside the .cu, is what a checked-in PTX is */
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(cu, &f, &err), 0);
    ws_ptx_origin origin;
    char *ptx = ws_catalog_ptx_text(f, "sm_90", WS_PTX_SAME_TARGET, &origin, &err);
    assert_non_null(ptx);
    assert_false(origin.checked_in);
    o = fopen(ptxp, "wb");
    assert_non_null(o);
    fputs(ptx, o);
    fclose(o);
    free(ptx);
    setenv("WARPSCOPE_PTXGEN", "none", 1);
    ptx = ws_catalog_ptx_text(f, "sm_90", WS_PTX_SAME_TARGET, &origin, &err);
    if (!ptx) fail_msg("%s", err.msg);
    assert_true(origin.checked_in);
    assert_non_null(strstr(origin.compiler, "checked-in PTX"));
    ptx_module *m = ptx_parse(origin.path, ptx, &err);
    assert_non_null(m);
    const ptx_function *fn = ws_catalog_entry(m, ptx, ws_desc_find(f, "scale4"), &err);
    assert_non_null(fn);
    assert_string_equal(fn->name, "_Z5scaleILi4EEvPKfPfi");
    ptx_free(m);
    free(ptx);
    /* a launch with a compile option the checked-in text was not made with must compile */
    ws_overrides ov = {0};
    assert_int_equal(ws_overrides_add_kind(&ov, "EXTRA=1", WS_DEF_MACRO, &err), 0);
    ws_launch L;
    assert_int_equal(ws_desc_resolve(ws_desc_find(f, "scale4"), &ov, &L, &err), 0);
    assert_null(ws_catalog_ptx_text_for(f, &L, "sm_90", WS_PTX_SAME_TARGET, &origin, &err));
    assert_non_null(strstr(err.msg, "without this launch's compile options"));
    unsetenv("WARPSCOPE_PTXGEN");
    ws_desc_free(f);
    free(src);
    unlink(cu);
    unlink(ptxp);
    rmdir(dir);
}

/* `target sm_90a`: the description's kernel is compiled for the architecture-specific target (its PTX
 * says .target sm_90a, setmaxnreg in it runs: out[i] = 2 i); the same kernel without the line is
 * sm_90 PTX, where setmaxnreg may not be, and the error names the .cu line of the setmaxnreg. An
 * sm_90a target asked for on another GPU (sm_80) is refused at the description's target line. */
static void test_a_target_line_compiles_for_sm_90a_and_sm_90_refuses_its_instructions(void **state)
{
    (void)state;
    NEED_TOOLKIT();
    for (int t = 0; t < 2; t++) {
        setenv("WARPSCOPE_PTXGEN", tools[t], 1);
        run r;
        run_desc(&r, DATA "/target_90a.cu", "maxnreg_90a", NULL, true);
        assert_string_equal(r.mod->target, "sm_90a");
        assert_null(r.fn->refusal);
        const uint32_t *out = r.res.buffer_data[0];
        for (uint32_t i = 0; i < 256; i++) assert_int_equal(out[i], 2 * i);
        run_free(&r);

        ws_error err;
        char *src = ws_read_file(DATA "/target_90a.cu", 0, NULL, NULL);
        assert_non_null(src);
        ws_desc_file *f;
        assert_int_equal(ws_desc_load(DATA "/target_90a.cu", &f, &err), 0);
        if (t == 0) {                      /* NVRTC emits the PTX; the simulator refuses it, at the .cu line */
            run_desc(&r, DATA "/target_90a.cu", "maxnreg_90", NULL, false);
            assert_string_equal(r.mod->target, "sm_90");
            assert_int_equal(ws_sim_check_runnable(r.mod, r.fn, r.file->path, r.d->name, &err), -1);
            assert_string_equal(err.file, DATA "/target_90a.cu");
            assert_int_equal(err.line, line_of(src, "asm volatile(\"setmaxnreg"));
            assert_non_null(strstr(err.msg, "setmaxnreg exists only on the architecture-specific target sm_90a"));
            assert_non_null(strstr(err.msg, "'target sm_90a'"));
            run_free(&r);
        } else {                           /* nvcc's ptxas refuses it itself: its words, the user's file */
            ws_launch L90;
            assert_int_equal(ws_desc_resolve(ws_desc_find(f, "maxnreg_90"), NULL, &L90, &err), 0);
            int q = quiet_begin();
            char *text = ws_catalog_ptx_text_for(f, &L90, "sm_90", WS_PTX_SAME_TARGET, NULL, &err);
            quiet_end(q);
            assert_null(text);
            assert_string_equal(err.file, DATA "/target_90a.cu");
            assert_non_null(strstr(err.msg, "Instruction 'setmaxnreg.inc' not supported on .target 'sm_90'"));
        }
        const ws_kernel_desc *d = ws_desc_find(f, "maxnreg_90a");
        ws_launch L;
        assert_int_equal(ws_desc_resolve(d, NULL, &L, &err), 0);
        assert_null(ws_catalog_ptx_text_for(f, &L, "sm_80", WS_PTX_SAME_TARGET, NULL, &err));
        assert_int_equal(err.line, line_of(src, "target  sm_90a"));
        assert_non_null(strstr(err.msg, "'target sm_90a' runs only on a GPU of compute capability 9.0"));
        ws_desc_free(f);
        free(src);
    }
    unsetenv("WARPSCOPE_PTXGEN");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_assert_compiled_by_nvcc_names_the_users_file),
        cmocka_unit_test(test_toolkit_include_folders_hold_the_cuda_and_cccl_headers),
        cmocka_unit_test(test_cuda_headers_compile_with_nvrtc_by_default),
        cmocka_unit_test(test_c_library_headers_fall_back_to_nvcc_and_say_why),
        cmocka_unit_test(test_compile_options_reach_both_compilers),
        cmocka_unit_test(test_the_options_real_builds_pass_reach_both_compilers_and_bad_ones_are_named),
        cmocka_unit_test(test_kernels_with_70_and_200_character_names_run),
        cmocka_unit_test(test_a_minus_d_macro_changes_what_the_kernel_computes),
        cmocka_unit_test(test_half_buffers_and_parameters_hold_round_to_nearest_values),
        cmocka_unit_test(test_gathers_read_file_and_generated_indices),
        cmocka_unit_test(test_template_instantiations_run_their_own_kernel),
        cmocka_unit_test(test_overloads_are_picked_by_their_parameter_types),
        cmocka_unit_test(test_a_misnamed_instantiation_is_an_error_at_its_entry_line),
        cmocka_unit_test(test_a_header_kernel_is_attributed_to_the_header_lines),
        cmocka_unit_test(test_the_readme_example_is_this_file_and_runs_as_it_says),
        cmocka_unit_test(test_checked_in_ptx_with_names_runs_without_a_compiler),
        cmocka_unit_test(test_a_target_line_compiles_for_sm_90a_and_sm_90_refuses_its_instructions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
