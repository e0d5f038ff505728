/* test_desc.c - kernel descriptions (common/desc.c): parsing a good
 * multi-kernel file, resolution with -D overrides, 2D/3D launches, every
 * resolve-time error, robustness (CRLF, long lines, NUL bytes), and the
 * malformed corpus in tests/data/bad_desc where each file's first line says
 * the exact error: "// expect: LINE:COL: message substring". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "../common/desc.h"
#include "../common/nearest.h"
#include "../common/desc_text.h"
#include "../common/files.h"

#define GOOD "tests/data/desc/good_multi.cu"
#define BAD_DIR "tests/data/bad_desc"

static char *read_text(const char *path, size_t *len_out)
{
    ws_error err;
    char *s = ws_read_file(path, 0, len_out, &err);
    if (!s) fail_msg("%s: %s", path, err.msg);
    return s;
}

/* 1-based line on which needle first occurs in text (0 if absent). */
static int line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p) return 0;
    int line = 1;
    for (const char *q = text; q < p; q++) line += *q == '\n';
    return line;
}

static ws_desc_file *parse_ok(const char *text)
{
    ws_desc_file *f = NULL;
    ws_error err;
    if (ws_desc_parse("t.cu", text, &f, &err)) fail_msg("parse failed: %d:%d: %s", err.line, err.col, err.msg);
    return f;
}

static void parse_fails(const char *text, int line, int col, const char *want)
{
    ws_desc_file *f = NULL;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (!ws_desc_parse("t.cu", text, &f, &err)) {
        ws_desc_free(f);
        fail_msg("parse succeeded, expected '%s'", want);
    }
    assert_null(f);
    assert_string_equal(err.file, "t.cu");
    if (err.line != line || err.col != col || !strstr(err.msg, want))
        fail_msg("got %d:%d: %s; expected %d:%d: ...%s...", err.line, err.col, err.msg, line, col, want);
}

static void resolve_ok(const ws_kernel_desc *d, const ws_overrides *ov, ws_launch *L)
{
    ws_error err;
    if (ws_desc_resolve(d, ov, L, &err)) fail_msg("resolve failed: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
}

static void resolve_fails(const ws_kernel_desc *d, const ws_overrides *ov, const char *file, int line, int col,
                          const char *want)
{
    ws_launch L;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (!ws_desc_resolve(d, ov, &L, &err)) fail_msg("resolve succeeded, expected '%s'", want);
    if (strcmp(err.file, file) || err.line != line || err.col != col || !strstr(err.msg, want))
        fail_msg("got %s:%d:%d: %s; expected %s:%d:%d: ...%s...", err.file, err.line, err.col, err.msg, file, line, col,
                 want);
}

static int64_t param(const ws_launch *L, const char *name)
{
    for (int i = 0; i < L->nparams; i++)
        if (!strcmp(L->param_names[i], name)) return L->param_values[i];
    fail_msg("no parameter %s", name);
    return 0;
}

/* ---------------------------------------------------------------------------- */

static void test_good_file_has_three_descriptions_in_order(void **state)
{
    (void)state;
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(GOOD, &f, &err), 0);
    char *text = read_text(GOOD, NULL);
    assert_string_equal(f->path, GOOD);
    assert_int_equal(f->source_len, strlen(text));
    assert_string_equal(f->source, text);
    assert_int_equal(f->nkernels, 3);

    const ws_kernel_desc *a = &f->kernels[0], *b = &f->kernels[1], *c = &f->kernels[2];
    assert_string_equal(a->name, "transpose_naive");
    assert_string_equal(a->entry, "transpose_naive");   /* defaults to the kernel name */
    assert_string_equal(a->note, "Naive transpose: reads coalesced, writes strided by H.");
    assert_int_equal(a->stars, 2);
    assert_ptr_equal(a->file, f->path);
    assert_int_equal(a->line, line_of(text, "/*@warpscope\nkernel  transpose_naive"));
    assert_int_equal(a->kernel_line, line_of(text, "__global__ void transpose_naive"));
    assert_int_equal(a->nparams, 2);
    assert_string_equal(a->params[0].name, "W");
    assert_string_equal(a->params[1].name, "H");
    assert_int_equal(a->params[1].line, line_of(text, "param   H = W"));
    assert_int_equal(a->nbuffers, 2);
    assert_int_equal(a->buffers[0].type, WS_TYPE_FLOAT);
    assert_int_equal(a->buffers[0].init, WS_INIT_INDEX);
    assert_false(a->buffers[0].output);
    assert_int_equal(a->buffers[1].init, WS_INIT_ZERO);
    assert_true(a->buffers[1].output);
    assert_string_equal(ws_expr_source(a->buffers[1].count), "W * H");
    assert_int_equal(a->ngrid, 2);
    assert_int_equal(a->nblock, 2);
    assert_null(a->shared);
    assert_null(a->bytes);
    assert_int_equal(a->nargs, 4);
    assert_int_equal(a->args[0].kind, WS_ARG_BUFFER);
    assert_int_equal(a->args[0].buffer, 0);
    assert_int_equal(a->args[1].buffer, 1);
    assert_int_equal(a->args[2].kind, WS_ARG_INT);

    /* a second description of the same entry */
    assert_string_equal(b->name, "transpose_wide");
    assert_string_equal(b->entry, "transpose_naive");
    assert_int_equal(b->stars, 1);                     /* default */
    assert_string_equal(b->note, "");
    assert_int_equal(b->kernel_line, a->kernel_line);
    assert_int_equal(b->buffers[0].init, WS_INIT_RANDOM);
    assert_null(b->buffers[0].lo);                      /* default range */
    assert_true(b->buffers[1].output);
    assert_true(b->buffers[1].tol == 1e-4);
    assert_int_equal(b->ngrid, 3);

    /* buffers may name a parameter declared after them; __launch_bounds__ is skipped */
    assert_string_equal(c->name, "scale");
    assert_int_equal(c->kernel_line, line_of(text, "__global__ void __launch_bounds__(128) scale"));
    assert_int_equal(c->buffers[0].type, WS_TYPE_FLOAT4);
    assert_int_equal(c->buffers[2].type, WS_TYPE_DOUBLE2);
    assert_int_equal(c->buffers[2].init, WS_INIT_CONST);
    assert_true(c->buffers[2].const_value == 0.5);
    assert_int_equal(c->nargs, 6);
    assert_int_equal(c->args[3].kind, WS_ARG_FLOAT);
    assert_true(c->args[3].fvalue == 2.5);
    assert_int_equal(c->args[4].kind, WS_ARG_INT);
    assert_int_equal(c->args[5].kind, WS_ARG_FLOAT);
    assert_true(c->args[5].fvalue == -1e-3);
    assert_int_equal(c->args[3].line, line_of(text, "args    v, idx"));
    assert_int_equal(c->args[3].col, (int)strlen("args    v, idx, c, ") + 1);

    assert_ptr_equal(ws_desc_find(f, "scale"), c);
    assert_ptr_equal(ws_desc_find(f, "transpose_wide"), b);
    assert_null(ws_desc_find(f, "transpose"));
    free(text);
    ws_desc_free(f);
}

static void test_default_launch_follows_the_parameter_formulas(void **state)
{
    (void)state;
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(GOOD, &f, &err), 0);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    const int64_t W = 1024, H = W;
    assert_ptr_equal(L.desc, &f->kernels[0]);
    assert_int_equal(param(&L, "W"), W);
    assert_int_equal(param(&L, "H"), H);
    assert_int_equal(L.grid[0], (W + 31) / 32);
    assert_int_equal(L.grid[1], (H + 31) / 32);
    assert_int_equal(L.grid[2], 1);
    assert_int_equal(L.block[0], 32);
    assert_int_equal(L.block[1], 32);
    assert_int_equal(L.block[2], 1);
    assert_int_equal(L.shared_bytes, 0);
    assert_int_equal(L.nbuffers, 2);
    assert_int_equal(L.buffers[0].count, W * H);
    assert_int_equal(L.buffers[0].bytes, W * H * 4);
    /* default bytes: every buffer once */
    assert_int_equal(L.bytes_moved, L.buffers[0].bytes + L.buffers[1].bytes);
    assert_int_equal(L.nargs, 4);
    assert_int_equal(L.args[2].kind, WS_ARG_INT);
    assert_int_equal(L.args[2].ivalue, W);
    assert_int_equal(L.args[3].ivalue, H);

    resolve_ok(&f->kernels[1], NULL, &L);
    const int64_t W2 = 2048, H2 = W2 / 2;
    assert_int_equal(L.grid[0], (W2 + 31) / 32);
    assert_int_equal(L.grid[1], (H2 + 7) / 8);
    assert_int_equal(L.grid[2], 1);
    assert_int_equal(L.block[0] * L.block[1] * L.block[2], 256);
    assert_int_equal(L.shared_bytes, 32 * 33 * 4);
    assert_int_equal(L.bytes_moved, 2 * W2 * H2 * 4);  /* explicit 'bytes' */
    assert_int_equal(L.buffers[0].init, WS_INIT_RANDOM);
    assert_int_equal(L.buffers[0].seed, 7);
    assert_true(L.buffers[0].lo == 0.0 && L.buffers[0].hi == 1.0);   /* float default range */
    assert_true(L.buffers[1].tol == 1e-4);

    resolve_ok(&f->kernels[2], NULL, &L);
    const int64_t N = 1000;
    assert_int_equal(L.grid[0], (N + 127) / 128);
    assert_int_equal(L.buffers[0].bytes, N * 16);      /* float4 */
    assert_true(L.buffers[0].lo == -5.0 && L.buffers[0].hi == 5.0);
    assert_true(L.buffers[1].lo == 0.0 && L.buffers[1].hi == (double)N);
    assert_int_equal(L.buffers[2].bytes, 8 * 16);      /* double2 */
    assert_true(L.buffers[2].const_value == 0.5);
    assert_int_equal(L.bytes_moved, N * 16 + N * 4 + 8 * 16);
    assert_true(L.args[3].kind == WS_ARG_FLOAT && L.args[3].fvalue == 2.5);
    assert_int_equal(L.args[4].ivalue, N);
    ws_desc_free(f);
}

static void test_overrides_change_later_parameters_and_the_launch(void **state)
{
    (void)state;
    ws_desc_file *f;
    ws_error err;
    assert_int_equal(ws_desc_load(GOOD, &f, &err), 0);
    ws_overrides ov = {0};
    assert_int_equal(ws_overrides_add(&ov, "W=100", &err), 0);
    ws_launch L;
    resolve_ok(&f->kernels[0], &ov, &L);
    assert_int_equal(param(&L, "W"), 100);
    assert_int_equal(param(&L, "H"), 100);             /* H = W follows */
    assert_int_equal(L.grid[0], (100 + 31) / 32);
    assert_int_equal(L.buffers[1].count, 100 * 100);

    /* an override may use earlier parameters; a later -D for a name replaces the earlier */
    assert_int_equal(ws_overrides_add(&ov, "H=W/4", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "W=1 << 9", &err), 0);
    assert_int_equal(ov.n, 2);
    assert_string_equal(ov.value[0], "1 << 9");
    resolve_ok(&f->kernels[0], &ov, &L);
    assert_int_equal(param(&L, "W"), 512);
    assert_int_equal(param(&L, "H"), 128);
    assert_int_equal(L.grid[1], (128 + 31) / 32);

    /* a name the description lacks is an error naming the command line */
    assert_int_equal(ws_overrides_add(&ov, "Q=3", &err), 0);
    resolve_fails(&f->kernels[0], &ov, "<command line>", 1, 1, "has no parameter 'Q'");

    /* an override referring to an unknown name: column inside "H=Z" */
    ws_overrides ov2 = {0};
    assert_int_equal(ws_overrides_add(&ov2, "H=Z+1", &err), 0);
    resolve_fails(&f->kernels[0], &ov2, "<command line>", 1, 3, "unknown parameter 'Z'");
    /* H cannot be seen from W's override: parameters only see earlier ones */
    ws_overrides ov3 = {0};
    assert_int_equal(ws_overrides_add(&ov3, "W=H", &err), 0);
    resolve_fails(&f->kernels[0], &ov3, "<command line>", 1, 3, "unknown parameter 'H'");
    ws_desc_free(f);
}

/* The text is the key results/<gpu>.json records a run under: pairs in the order given,
 * a later -D for a name replacing the earlier value in place, cut at a whole pair. */
static void test_overrides_print_as_name_value_pairs(void **state)
{
    (void)state;
    ws_overrides ov = {0};
    ws_error err;
    char out[64];
    ws_overrides_text(&ov, out, sizeof out);
    assert_string_equal(out, "");
    ws_overrides_text(NULL, out, sizeof out);
    assert_string_equal(out, "");
    assert_int_equal(ws_overrides_add(&ov, "W=4096", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "H=W/2", &err), 0);
    ws_overrides_text(&ov, out, sizeof out);
    assert_string_equal(out, "W=4096 H=W/2");
    assert_int_equal(ws_overrides_add(&ov, "W=64", &err), 0);
    ws_overrides_text(&ov, out, sizeof out);
    assert_string_equal(out, "W=64 H=W/2");
    char small[10]; /* "W=64 H=W/2" needs 11 bytes: only the first pair fits */
    ws_overrides_text(&ov, small, sizeof small);
    assert_string_equal(small, "W=64");
}

static void test_malformed_overrides_report_their_column(void **state)
{
    (void)state;
    /* a bad name is wrong whatever the description: refused when it is added */
    static const struct { const char *text; int col; const char *msg; } cases[] = {
        {"=5", 1, "NAME=EXPR"},
        {"1W=3", 1, "NAME=EXPR"},
        {"W-x=3", 2, "bad character '-'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ws_overrides ov = {0};
        ws_error err;
        memset(&err, 0, sizeof err);
        if (!ws_overrides_add(&ov, cases[i].text, &err)) fail_msg("-D %s accepted", cases[i].text);
        assert_string_equal(err.file, "<command line>");
        if (err.col != cases[i].col || !strstr(err.msg, cases[i].msg))
            fail_msg("-D %s: got col %d '%s', expected col %d '%s'", cases[i].text, err.col, err.msg, cases[i].col,
                     cases[i].msg);
        assert_int_equal(ov.n, 0);
    }
    /* a value is an expression only once W is known to be a parameter: checked at resolve,
     * at the same columns of NAME=EXPR */
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nparam W = 8\nparam LONG = 1\ngrid 1\nblock 1\n*/\n"
                               "__global__ void k() {}\n");
    static const struct { const char *text; int col; const char *msg; } late[] = {
        {"W", 2, "expected '='"},
        {"W=", 3, "expected an expression"},
        {"W=1+", 5, "expected an expression"},
        {"W=(2", 3, "never closed"},
        {"W=2 3", 5, "unexpected '3'"},
        {"LONG=1.5", 6, "floating-point"},
        {"W=1x", 4, "-D W=1x: bad character in a number"},
    };
    for (size_t i = 0; i < sizeof late / sizeof late[0]; i++) {
        ws_overrides ov = {0};
        ws_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(ws_overrides_add(&ov, late[i].text, &err), 0);
        resolve_fails(&f->kernels[0], &ov, "<command line>", 1, late[i].col, late[i].msg);
        /* --param says so at once, with the same column */
        ws_overrides ov2 = {0};
        if (!ws_overrides_add_kind(&ov2, late[i].text, WS_DEF_PARAM, &err)) fail_msg("--param %s accepted", late[i].text);
        if (err.col != late[i].col) fail_msg("--param %s: col %d, expected %d", late[i].text, err.col, late[i].col);
    }
    ws_desc_free(f);
    ws_overrides ov = {0};
    ws_error err;
    char big[300];
    memset(big, '1', sizeof big);
    big[0] = 'W'; big[1] = '=';
    big[sizeof big - 1] = '\0';
    assert_int_not_equal(ws_overrides_add(&ov, big, &err), 0);
    assert_non_null(strstr(err.msg, "too long"));
}

#define KERNEL "\n__global__ void k(float *a) {}\n"

static void test_a_tensor_map_resolves_its_shape_box_strides_and_swizzle(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\n"
                               "kernel  k\n"
                               "param   W = 256\n"
                               "param   H = 64\n"
                               "buffer  a  ushort  W*H\n"
                               "tmap    ta  a  dims=W,H box=64,32 swizzle=128B\n"
                               "tmap    tb  a  dims=W/2,H box=8,8 strides=W*2 fill=zero\n"
                               "grid    1\n"
                               "block   128\n"
                               "args    ta, a, tb, W\n"
                               "*/\n"
                               "__global__ void k(int a, const short *b, int c, int w) { }\n");
    const ws_kernel_desc *d = &f->kernels[0];
    assert_int_equal(d->ntmaps, 2);
    assert_int_equal(d->args[0].kind, WS_ARG_TMAP);
    assert_int_equal(d->args[0].buffer, 0);
    assert_int_equal(d->args[1].kind, WS_ARG_BUFFER);
    assert_int_equal(d->args[2].kind, WS_ARG_TMAP);
    assert_int_equal(d->args[2].buffer, 1);
    ws_launch L;
    resolve_ok(d, NULL, &L);
    assert_int_equal(L.ntmaps, 2);
    const ws_tmap *ta = &L.tmaps[0], *tb = &L.tmaps[1];
    assert_int_equal(ta->rank, 2);
    assert_int_equal(ta->elem_size, 2);
    assert_int_equal(ta->dims[0], 256);
    assert_int_equal(ta->dims[1], 64);
    assert_int_equal(ta->strides[1], 256 * 2);          /* dense: a row of W halves */
    assert_int_equal(ta->box[0], 64);
    assert_int_equal(ta->swizzle, 128);
    assert_int_equal(tb->dims[0], 128);
    assert_int_equal(tb->strides[1], 512);              /* given: the full row, though dims[0] is half of it */
    assert_int_equal(tb->swizzle, 0);
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ws_error err;
    assert_int_equal(ws_overrides_add(&ov, "W=24", &err), 0);  /* a box wider than the tensor is fine: TMA fills */
    resolve_ok(d, &ov, &L);
    assert_int_equal(L.tmaps[0].dims[0], 24);
    memset(&ov, 0, sizeof ov);
    assert_int_equal(ws_overrides_add(&ov, "W=20", &err), 0);  /* rows of 40 bytes: not a multiple of 16 */
    resolve_fails(d, &ov, "t.cu", 6, 9, "multiples of 16 bytes");
    ws_desc_free(f);
    /* bf16 and half tensors; a size-1 dimension may have stride 0 (and only such a one) */
    f = parse_ok("/*@warpscope\n"
                 "kernel  k\n"
                 "param   S = 0\n"
                 "buffer  q  bf16  64*128\n"
                 "buffer  h  half  64*128\n"
                 "tmap    tq  q  dims=64,1,128 box=64,1,16 strides=S,128 swizzle=128B\n"
                 "tmap    th  h  dims=64,128 box=64,16\n"
                 "grid    1\n"
                 "block   128\n"
                 "args    tq, th\n"
                 "*/\n"
                 "__global__ void k(int a, int b) { }\n");
    d = &f->kernels[0];
    resolve_ok(d, NULL, &L);
    assert_int_equal(L.tmaps[0].elem_size, 2);
    assert_true(L.tmaps[0].is_float && L.tmaps[1].is_float);
    assert_int_equal(L.tmaps[0].strides[1], 0);
    assert_int_equal(L.tmaps[0].strides[2], 128);
    memset(&ov, 0, sizeof ov);
    assert_int_equal(ws_overrides_add(&ov, "S=-16", &err), 0);
    resolve_fails(d, &ov, "t.cu", 6, 50, "stride 1 is -16 bytes");
    ws_desc_free(f);
}

static void test_three_dimensional_grid_and_block(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nparam Z = 4\ngrid 2, 3, Z\nblock 8, 8, Z\n*/" KERNEL);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.grid[0], 2);
    assert_int_equal(L.grid[1], 3);
    assert_int_equal(L.grid[2], 4);
    assert_int_equal(L.block[0], 8);
    assert_int_equal(L.block[1], 8);
    assert_int_equal(L.block[2], 4);
    assert_int_equal(f->kernels[0].nargs, 0);
    assert_int_equal(L.bytes_moved, 0);
    ws_desc_free(f);
}

static void test_each_resolve_error_points_at_its_expression(void **state)
{
    (void)state;
    static const struct { const char *lines; int line, col; const char *msg; } cases[] = {
        {"grid 1\nblock 32, 33", 4, 7, "block of 32x33x1 = 1056 threads; at most 1024"},
        {"grid 1\nblock 2048", 4, 7, "block.x = 2048"},
        {"grid 1\nblock 1, 1, 65", 4, 13, "block.z = 65; it must be between 1 and 64"},
        {"grid 0\nblock 32", 3, 6, "grid.x = 0; it must be between 1 and"},
        {"grid 1, 65536\nblock 32", 3, 9, "grid.y = 65536"},
        {"grid 1 << 31\nblock 32", 3, 6, "grid.x = 2147483648"},
        {"grid 1\nblock 32\nparam N = 4\nbuffer a float N - 10", 6, 16, "negative element count (-6)"},
        {"grid 1\nblock 32\nbuffer a double 1 << 61", 5, 17, "too large"},
        {"grid 1\nblock 32\nbuffer a double 1<<59\nbuffer b double 1<<59\nbuffer c double 1<<59\nbuffer d double 1<<59",
         8, 17, "total size overflows"},
        {"grid 1\nblock 32\nbuffer a int 4 init=random(1, 5, 5)", 5, 31, "random range is empty"},
        {"grid 1\nblock 32\nbuffer a int 4 init=random(1, 0, 1 << 60)", 5, 31, "beyond +-2^53"},
        {"grid 1\nblock 32\nshared -4", 5, 8, "shared = -4"},
        {"grid 1\nblock 32\nbytes 0 - 1", 5, 7, "must not be negative"},
        {"param D = 0\ngrid 64 / D\nblock 32", 4, 9, "division by zero"},
        {"grid 1\nblock 32\nparam S = 0\nargs 10 % S", 6, 9, "division by zero"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "/*@warpscope\nkernel k\n%s\n*/" KERNEL, cases[i].lines);
        ws_desc_file *f = parse_ok(text);
        resolve_fails(&f->kernels[0], NULL, "t.cu", cases[i].line, cases[i].col, cases[i].msg);
        ws_desc_free(f);
    }
}

static void test_override_can_cause_a_located_division_by_zero(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nparam D = 4\ngrid 64 / D\nblock 32\n*/" KERNEL);
    ws_overrides ov = {0};
    ws_error err;
    ws_launch L;
    resolve_ok(&f->kernels[0], &ov, &L);
    assert_int_equal(L.grid[0], 16);
    assert_int_equal(ws_overrides_add(&ov, "D=0", &err), 0);
    resolve_fails(&f->kernels[0], &ov, "t.cu", 4, 9, "division by zero");
    ws_desc_free(f);
}

static void test_crlf_file_parses_like_its_lf_twin(void **state)
{
    (void)state;
    char *lf = read_text(GOOD, NULL);
    size_t n = strlen(lf), lines = 0;
    for (size_t i = 0; i < n; i++) lines += lf[i] == '\n';
    char *crlf = malloc(n + lines + 1);
    assert_non_null(crlf);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (lf[i] == '\n') crlf[j++] = '\r';
        crlf[j++] = lf[i];
    }
    crlf[j] = '\0';
    ws_desc_file *a = parse_ok(lf), *b = parse_ok(crlf);
    assert_int_equal(a->nkernels, b->nkernels);
    for (int k = 0; k < a->nkernels; k++) {
        assert_string_equal(a->kernels[k].name, b->kernels[k].name);
        assert_string_equal(a->kernels[k].note, b->kernels[k].note);   /* no stray '\r' */
        assert_int_equal(a->kernels[k].line, b->kernels[k].line);
        assert_int_equal(a->kernels[k].kernel_line, b->kernels[k].kernel_line);
        assert_int_equal(a->kernels[k].nargs, b->kernels[k].nargs);
        ws_launch la, lb;
        resolve_ok(&a->kernels[k], NULL, &la);
        resolve_ok(&b->kernels[k], NULL, &lb);
        assert_int_equal(la.bytes_moved, lb.bytes_moved);
        assert_memory_equal(la.grid, lb.grid, sizeof la.grid);
    }
    ws_desc_free(a);
    ws_desc_free(b);
    free(lf);
    free(crlf);
}

static void test_very_long_lines_are_handled(void **state)
{
    (void)state;
    size_t pad = 200000;
    char *text = malloc(2 * pad + 512);
    assert_non_null(text);
    /* a 200 KB comment line outside the block, and a param whose value sits after 200 KB of spaces */
    strcpy(text, "// ");
    memset(text + 3, 'c', pad);
    strcpy(text + 3 + pad, "\n/*@warpscope\nkernel k\nparam N = ");
    size_t at = strlen(text);
    memset(text + at, ' ', pad);
    strcpy(text + at + pad, "37\ngrid N\nblock 1\n*/" KERNEL);
    ws_desc_file *f = parse_ok(text);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.grid[0], 37);
    ws_desc_free(f);
    /* the same spaces followed by garbage: the column counts every byte */
    strcpy(text + at + pad, "37 x\ngrid N\nblock 1\n*/" KERNEL);
    parse_fails(text, 4, (int)(strlen("param N = ") + pad + 4), "unexpected 'x'");
    free(text);
}

static void test_nul_byte_in_a_file_is_refused_with_its_position(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_desc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] = "/*@warpscope\nkernel k\ngri\0d 1\nblock 1\n*/" KERNEL;
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    ws_desc_file *f;
    ws_error err;
    assert_int_not_equal(ws_desc_load(path, &f, &err), 0);
    assert_null(f);
    assert_string_equal(err.file, path);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 4);
    assert_non_null(strstr(err.msg, "NUL byte"));
    unlink(path);
}

static void test_file_level_errors(void **state)
{
    (void)state;
    ws_desc_file *f;
    ws_error err;
    assert_int_not_equal(ws_desc_load("tests/data/desc/does_not_exist.cu", &f, &err), 0);
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_int_not_equal(ws_desc_parse("t.cu", "__global__ void k() {}\n", &f, &err), 0);
    assert_string_equal(err.file, "t.cu");
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.msg, "no warpscope description block"));
    assert_int_not_equal(ws_desc_parse("t.cu", "", &f, &err), 0);
    assert_non_null(strstr(err.msg, "no warpscope description block"));
}

static void test_definition_is_preferred_over_a_forward_declaration(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("__global__ void k(float *a);\n"
                               "/*@warpscope\nkernel k\ngrid 1\nblock 1\n*/\n"
                               "// __global__ void k(float *a) {}\n"
                               "extern \"C\"\n__global__\nvoid\nk(float *a)\n{\n}\n");
    assert_int_equal(f->kernels[0].kernel_line, 9);
    ws_desc_free(f);
    /* with only a declaration, that is the line */
    f = parse_ok("/*@warpscope\nkernel k\ngrid 1\nblock 1 */\n\n__global__ void k(float *a);\n");
    assert_int_equal(f->kernels[0].kernel_line, 6);
    ws_desc_free(f);
}

static void test_block_can_open_and_close_on_shared_lines(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("  /*@warpscope kernel k\ngrid 1\nblock 4 */ __global__ void k() {}\n");
    assert_string_equal(f->kernels[0].name, "k");
    assert_int_equal(f->kernels[0].line, 1);
    assert_int_equal(f->kernels[0].kernel_line, 3);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.block[0], 4);
    ws_desc_free(f);
    parse_fails("/*@warpscope kernel k grid 1\n*/" KERNEL, 1, 23, "unexpected 'grid' after the kernel name");
}

static void test_types_report_size_lanes_and_scalar(void **state)
{
    (void)state;
    static const struct { const char *name; size_t size; int lanes; ws_type scalar; bool is_float; } want[] = {
        {"char", 1, 1, WS_TYPE_CHAR, false},     {"uchar", 1, 1, WS_TYPE_UCHAR, false},
        {"short", 2, 1, WS_TYPE_SHORT, false},   {"ushort", 2, 1, WS_TYPE_USHORT, false},
        {"int", 4, 1, WS_TYPE_INT, false},       {"uint", 4, 1, WS_TYPE_UINT, false},
        {"long", 8, 1, WS_TYPE_LONG, false},     {"ulong", 8, 1, WS_TYPE_ULONG, false},
        {"float", 4, 1, WS_TYPE_FLOAT, true},    {"double", 8, 1, WS_TYPE_DOUBLE, true},
        {"float2", 8, 2, WS_TYPE_FLOAT, true},   {"float4", 16, 4, WS_TYPE_FLOAT, true},
        {"int2", 8, 2, WS_TYPE_INT, false},      {"int4", 16, 4, WS_TYPE_INT, false},
        {"double2", 16, 2, WS_TYPE_DOUBLE, true},
        /* IEEE binary16 and bfloat16 are two bytes; their pairs four */
        {"half", 2, 1, WS_TYPE_HALF, true},      {"bf16", 2, 1, WS_TYPE_BF16, true},
        {"half2", 4, 2, WS_TYPE_HALF, true},     {"bf16x2", 4, 2, WS_TYPE_BF16, true},
        {"char2", 2, 2, WS_TYPE_CHAR, false},    {"char4", 4, 4, WS_TYPE_CHAR, false},
        {"uchar2", 2, 2, WS_TYPE_UCHAR, false},  {"uchar4", 4, 4, WS_TYPE_UCHAR, false},
        {"short2", 4, 2, WS_TYPE_SHORT, false},  {"short4", 8, 4, WS_TYPE_SHORT, false},
        {"ushort2", 4, 2, WS_TYPE_USHORT, false}, {"ushort4", 8, 4, WS_TYPE_USHORT, false},
        {"uint2", 8, 2, WS_TYPE_UINT, false},    {"uint4", 16, 4, WS_TYPE_UINT, false},
        {"long2", 16, 2, WS_TYPE_LONG, false},   {"ulong2", 16, 2, WS_TYPE_ULONG, false},
    };
    assert_int_equal(sizeof want / sizeof want[0], WS_TYPE_COUNT);
    /* the list messages show names every type in table order */
    char list[600] = "";
    for (int i = 0; i < WS_TYPE_COUNT; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", want[i].name);
    assert_string_equal(ws_type_list(), list);
    /* stdint widths and CUDA's spellings name the same types */
    static const struct { const char *alias, *name; } aliases[] = {
        {"int8", "char"}, {"uint8", "uchar"}, {"int16", "short"}, {"uint16", "ushort"}, {"int32", "int"},
        {"uint32", "uint"}, {"int64", "long"}, {"uint64", "ulong"}, {"__half", "half"}, {"__nv_bfloat16", "bf16"},
        {"__half2", "half2"}, {"__nv_bfloat162", "bf16x2"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        ws_type t;
        assert_int_equal(ws_type_parse(aliases[i].alias, &t), 0);
        assert_string_equal(ws_type_name(t), aliases[i].name);
    }
    for (int i = 0; i < WS_TYPE_COUNT; i++) {
        ws_type t;
        assert_int_equal(ws_type_parse(want[i].name, &t), 0);
        assert_string_equal(ws_type_name(t), want[i].name);
        assert_int_equal(ws_type_size(t), want[i].size);
        assert_int_equal(ws_type_lanes(t), want[i].lanes);
        assert_int_equal(ws_type_scalar(t), want[i].scalar);
        assert_int_equal(ws_type_is_float(t), want[i].is_float);
        /* a vector is lanes scalars, packed */
        assert_int_equal(ws_type_size(t), (size_t)want[i].lanes * ws_type_size(want[i].scalar));
    }
    ws_type t;
    assert_int_equal(ws_type_parse("floot", &t), -1);
    assert_int_equal(ws_type_parse("Float", &t), -1);
    assert_null(ws_type_name(WS_TYPE_COUNT));
}

static void test_vector_buffer_sizes_count_whole_elements(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nparam N = 10\n"
                               "buffer a float2 N\nbuffer b int4 N\nbuffer c double2 N\nbuffer d int2 N\n"
                               "grid 1\nblock 1\nargs a, b, c, d\n*/" KERNEL);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.buffers[0].bytes, 10 * 2 * 4);
    assert_int_equal(L.buffers[1].bytes, 10 * 4 * 4);
    assert_int_equal(L.buffers[2].bytes, 10 * 2 * 8);
    assert_int_equal(L.buffers[3].bytes, 10 * 2 * 4);
    assert_int_equal(L.buffers[1].lo, 0);
    assert_int_equal(L.buffers[0].init, WS_INIT_ZERO);      /* no init= means zero */
    ws_desc_free(f);
}

static void test_documented_example_parses_and_resolves(void **state)
{
    (void)state;
    /* the first ```cuda block of docs/description-format.md */
    char *doc = read_text("docs/description-format.md", NULL);
    char *start = strstr(doc, "```cuda\n");
    assert_non_null(start);
    start += strlen("```cuda\n");
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    ws_desc_file *f = parse_ok(start);
    assert_int_equal(f->nkernels, 2);
    ws_overrides ov = {0};
    ws_error err;
    assert_int_equal(ws_overrides_add(&ov, "W=4096", &err), 0);
    ws_launch L;
    resolve_ok(&f->kernels[0], &ov, &L);
    assert_int_equal(param(&L, "H"), 4096);             /* as the text says */
    assert_int_equal(L.grid[0], 4096 / 32);
    resolve_ok(&f->kernels[1], NULL, &L);
    assert_int_equal(L.bytes_moved, 2 * 2048 * 1024 * 4);
    ws_desc_free(f);
    free(doc);
}

/* Mangles the good file a few bytes at a time (deterministically) and parses
 * and resolves every variant: each must either succeed or fail with a message
 * located inside the text - never crash (ASan/UBSan watch this run). */
static void test_mangled_descriptions_fail_cleanly(void **state)
{
    (void)state;
    size_t n;
    char *base = read_text(GOOD, &n);
    char *buf = malloc(2 * n + 64);
    assert_non_null(buf);
    static const char alphabet[] = "()#,=*/\n\r\t@x0 9-<>?:~^&|%+_aZ.fe\"'{};";
    uint64_t x = 0x2545f4914f6cdd1dULL;
    int failed = 0, resolved = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(buf, base, n + 1);
        size_t len = n;
        for (int m = 0; m < 1 + it % 4; m++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            size_t pos = (size_t)(x % len);
            char c = alphabet[(x >> 32) % (sizeof alphabet - 1)];
            switch ((x >> 40) % 3) {
            case 0: buf[pos] = c; break;
            case 1: memmove(buf + pos + 1, buf + pos, len - pos + 1); buf[pos] = c; len++; break;
            default: if (len > 1) { memmove(buf + pos, buf + pos + 1, len - pos); len--; } break;
            }
        }
        int lines = 1;
        for (size_t i = 0; i < len; i++) lines += buf[i] == '\n';
        ws_desc_file *f = NULL;
        ws_error err;
        memset(&err, 0, sizeof err);
        if (ws_desc_parse("t.cu", buf, &f, &err)) {
            failed++;
            assert_null(f);
            assert_string_equal(err.file, "t.cu");
            assert_true(err.msg[0] != '\0');
            assert_true(err.line >= 0 && err.line <= lines && err.col >= 0);
            continue;
        }
        for (int k = 0; k < f->nkernels; k++) {
            ws_launch L;
            if (!ws_desc_resolve(&f->kernels[k], NULL, &L, &err)) resolved++;
            else assert_true(err.msg[0] != '\0');
        }
        ws_desc_free(f);
    }
    assert_true(failed > 0 && resolved > 0);    /* both paths were exercised */
    free(buf);
    free(base);
}

/* ----------------------------------------------------------------------------
 * The malformed corpus */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }


/* ---- what a description names and how it is compiled -------------------------------- */

#define MACRO_SRC                                                                          \
    "/*@warpscope\nkernel k\nparam W = 8\ngrid 1\nblock 1\nargs W\n*/\n"                    \
    "#ifndef TILE\n#define TILE 16\n#endif\n"                                              \
    "__global__ void k(int w) { /* NOT_CODE */ (void)w; (void)TILE; }\n"

static void test_minus_d_is_a_parameter_when_declared_else_a_macro_the_source_uses(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok(MACRO_SRC);
    const ws_kernel_desc *d = &f->kernels[0];
    ws_error err;
    ws_overrides ov = {0};
    ws_def_kind kind;
    assert_int_equal(ws_overrides_add(&ov, "W=64", &err), 0);      /* a declared parameter */
    assert_int_equal(ws_overrides_add(&ov, "TILE=32", &err), 0);   /* a name in the C code */
    assert_int_equal(ws_overrides_add(&ov, "DEBUG", &err), 0);     /* no value: a macro, as with nvcc */
    assert_int_equal(ws_override_kind_of(d, &ov, 0, &kind, &err), 0);
    assert_int_equal(kind, WS_DEF_PARAM);
    assert_int_equal(ws_override_kind_of(d, &ov, 1, &kind, &err), 0);
    assert_int_equal(kind, WS_DEF_MACRO);
    assert_int_equal(ws_override_kind_of(d, &ov, 2, &kind, &err), 0);
    assert_int_equal(kind, WS_DEF_MACRO);
    ws_launch L;
    resolve_ok(d, &ov, &L);
    assert_int_equal(L.param_values[0], 64);
    assert_int_equal(L.args[0].ivalue, 64);
    assert_int_equal(L.compile.n, 2);
    assert_string_equal(L.compile.opt[0], "-DTILE=32");
    assert_string_equal(L.compile.opt[1], "-DDEBUG");
    char text[128];
    ws_overrides_text(&ov, text, sizeof text);
    assert_string_equal(text, "W=64 TILE=32 DEBUG");               /* the results key has them all */

    /* a name that is neither: an error, not a silent macro (a comment does not count) */
    ws_overrides bad = {0};
    assert_int_equal(ws_overrides_add(&bad, "NOT_CODE=1", &err), 0);
    resolve_fails(d, &bad, "<command line>", 1, 1, "'k' has no parameter 'NOT_CODE' (parameters: W)");
    assert_int_equal(ws_desc_resolve(d, &bad, &L, &err), -1);
    assert_non_null(strstr(err.msg, "--macro NOT_CODE=1"));
    /* a near miss of a parameter is a slip, even where the name is in the C code ('int w' here):
       as a macro it would rewrite every w the compiler reads */
    ws_overrides slip = {0};
    assert_int_equal(ws_overrides_add(&slip, "w=16", &err), 0);
    assert_int_equal(ws_override_kind_of(d, &slip, 0, &kind, &err), -1);
    assert_non_null(strstr(err.msg, "'k' has no parameter 'w'; did you mean 'W'?"));
    assert_non_null(strstr(err.msg, "--macro w=16"));
    resolve_fails(d, &slip, "<command line>", 1, 1, "did you mean 'W'?");
    ws_overrides slip_p = {0};
    assert_int_equal(ws_overrides_add_kind(&slip_p, "w=16", WS_DEF_PARAM, &err), 0);
    resolve_fails(d, &slip_p, "<command line>", 1, 1, "--param w: 'k' has no parameter 'w'; did you mean 'W'?");
    /* --macro forces a macro, --param a parameter */
    ws_overrides forced = {0};
    assert_int_equal(ws_overrides_add_kind(&forced, "NOT_CODE=1", WS_DEF_MACRO, &err), 0);
    assert_int_equal(ws_overrides_add_kind(&forced, "W=5", WS_DEF_MACRO, &err), 0);
    assert_int_equal(ws_overrides_add_kind(&forced, "w=3", WS_DEF_MACRO, &err), 0); /* the slip, on purpose */
    resolve_ok(d, &forced, &L);
    assert_int_equal(L.param_values[0], 8);                         /* W the parameter is untouched */
    assert_string_equal(L.compile.opt[0], "-DNOT_CODE=1");
    assert_string_equal(L.compile.opt[1], "-DW=5");
    assert_string_equal(L.compile.opt[2], "-Dw=3");
    ws_overrides p = {0};
    assert_int_equal(ws_overrides_add_kind(&p, "TILE=4", WS_DEF_PARAM, &err), 0);
    resolve_fails(d, &p, "<command line>", 1, 1, "--param TILE: 'k' has no parameter 'TILE'");
    /* each definition reads back as the command-line words that made it */
    const char *flag;
    ws_override_arg(&forced, 1, &flag, text, sizeof text);
    assert_string_equal(flag, "--macro");
    assert_string_equal(text, "W=5");
    ws_override_arg(&ov, 2, &flag, text, sizeof text);
    assert_string_equal(flag, "-D");
    assert_string_equal(text, "DEBUG");
    /* command-line compiler options follow the description's */
    ws_overrides c = {0};
    assert_int_equal(ws_overrides_add_compile(&c, "-std=c++20", &err), 0);
    assert_int_not_equal(ws_overrides_add_compile(&c, "-O3", &err), 0);
    assert_non_null(strstr(err.msg, "unknown compiler option '-O3'"));
    resolve_ok(d, &c, &L);
    assert_int_equal(L.compile.n, 1);
    assert_string_equal(L.compile.opt[0], "-std=c++20");
    ws_desc_free(f);
}

static void test_compile_line_options_are_relative_to_the_cu_folder(void **state)
{
    (void)state;
    ws_desc_file *f = NULL;
    ws_error err;
    const char *src = "/*@warpscope\nkernel k\ncompile -I inc -I/abs -DTILE=32 -D N -U OLD -std c++17 --use_fast_math "
                      "-ftz=true\ngrid 1\nblock 1\n*/\n__global__ void k() {}\n";
    if (ws_desc_parse("some/dir/t.cu", src, &f, &err)) fail_msg("%s", err.msg);
    const ws_compile_opts *o = &f->kernels[0].compile;
    static const char *const want[] = {"-Isome/dir/inc", "-I/abs", "-DTILE=32", "-DN", "-UOLD", "-std=c++17",
                                       "--use_fast_math", "-ftz=true"};
    assert_int_equal(o->n, 8);
    for (int i = 0; i < 8; i++) assert_string_equal(o->opt[i], want[i]);
    assert_int_equal(f->kernels[0].compile_line, 3);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.compile.n, 8);                               /* a launch carries them */
    char text[256];
    ws_compile_opts_text(o, text, sizeof text);
    assert_string_equal(text, "-Isome/dir/inc -I/abs -DTILE=32 -DN -UOLD -std=c++17 --use_fast_math -ftz=true");
    ws_desc_free(f);
    parse_fails("/*@warpscope\nkernel k\ncompile\ngrid 1\nblock 1\n*/" KERNEL, 3, 8, "compile needs compiler options");
    parse_fails("/*@warpscope\nkernel k\ncompile -I\ngrid 1\nblock 1\n*/" KERNEL, 3, 9, "-I needs a value");
    parse_fails("/*@warpscope\nkernel k\ncompile -D 1X\ngrid 1\nblock 1\n*/" KERNEL, 3, 9, "-D needs a macro name");
    parse_fails("/*@warpscope\nkernel k\ncompile -fmad=maybe\ngrid 1\nblock 1\n*/" KERNEL, 3, 9, "-fmad= takes true or false");
    parse_fails("/*@warpscope\nkernel k\ncompile inc\ngrid 1\nblock 1\n*/" KERNEL, 3, 9, "expected a compiler option");
}

/* `target sm_90a` reaches the launch; any other target is named at its column. */
static void test_a_target_line_names_sm_90a_for_the_launch(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\ntarget sm_90a\ngrid 1\nblock 1\n*/" KERNEL);
    assert_string_equal(f->kernels[0].target, "sm_90a");
    assert_int_equal(f->kernels[0].target_line, 3);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_string_equal(L.target, "sm_90a");
    ws_desc_free(f);
    f = parse_ok("/*@warpscope\nkernel k\ngrid 1\nblock 1\n*/" KERNEL);
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_string_equal(L.target, "");                              /* the GPU's own */
    ws_desc_free(f);
    parse_fails("/*@warpscope\nkernel k\ntarget sm_9\ngrid 1\nblock 1\n*/" KERNEL, 3, 8,
                "target must name an architecture such as sm_90a");
    parse_fails("/*@warpscope\nkernel k\ntarget sm_90a x\ngrid 1\nblock 1\n*/" KERNEL, 3, 8,
                "target must name an architecture such as sm_90a");
}

#define TEMPLATE_KERNEL "\ntemplate <int N> __global__ void scale(float *a) { a[0] = N; }\n"

static void test_entry_names_an_instantiation_or_an_overload(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel scale < 4 >\ngrid 1\nblock 1\n*/\n"
                               "/*@warpscope\nkernel s2\nentry  scale<2>\ngrid 1\nblock 1\n*/\n"
                               "/*@warpscope\nkernel k_int\nentry k(const int *, int*,  int)\ngrid 1\nblock 1\n*/\n"
                               "/*@warpscope\nkernel plain\nentry scale\ngrid 1\nblock 1\n*/\n"
                               "/*@warpscope\nkernel nsk\nentry ns::k<float, 8>\ngrid 1\nblock 1\n*/\n"
                               TEMPLATE_KERNEL "__global__ void k(const int *a, int *b, int n) {}\n");
    assert_int_equal(f->nkernels, 5);
    const ws_kernel_desc *d = &f->kernels[0];
    assert_string_equal(d->name, "scale<4>");                       /* blanks next to brackets go */
    assert_string_equal(d->entry, "scale<4>");
    assert_string_equal(d->entry_base, "scale");
    assert_true(d->entry_exact);
    assert_int_equal(d->entry_line, 2);
    d = &f->kernels[1];
    assert_string_equal(d->name, "s2");
    assert_string_equal(d->entry, "scale<2>");
    assert_int_equal(d->entry_col, 8);
    d = &f->kernels[2];
    assert_string_equal(d->entry, "k(const int*, int*, int)");
    assert_string_equal(d->entry_base, "k");
    assert_true(d->entry_exact);
    d = &f->kernels[3];
    assert_string_equal(d->entry, "scale");
    assert_false(d->entry_exact);
    /* a qualified name is checked by its last part; ns::k is no __global__ here, but k is */
    d = &f->kernels[4];
    assert_string_equal(d->entry_base, "k");
    assert_int_equal(d->kernel_line, line_of(f->source, "__global__ void k("));
    ws_desc_free(f);
    parse_fails("/*@warpscope\nkernel k\nentry k(int) extra\ngrid 1\nblock 1\n*/" KERNEL, 3, 7,
                "expected a function name");
}

static void test_a_kernel_defined_in_an_included_header_is_found_in_the_header(void **state)
{
    (void)state;
    ws_desc_file *f = NULL;
    ws_error err;
    if (ws_desc_load("tests/data/frontend/header_kernel.cu", &f, &err)) fail_msg("%s", err.msg);
    const ws_kernel_desc *d = &f->kernels[0];
    const char *hdr = "tests/data/frontend/header_kernel.cuh";
    assert_string_equal(d->kernel_file, hdr);
    size_t len;
    const char *text = ws_desc_source_text(f, hdr, &len);
    assert_non_null(text);
    assert_int_equal(d->kernel_line, line_of(text, "__global__ void from_header"));
    char want_text[64];
    ws_source_line(text, len, d->kernel_line, want_text, sizeof want_text);
    assert_non_null(strstr(want_text, "from_header"));
    /* the same file by an absolute path, or by its base name when it is gone (a PTX .file) */
    char abs[WS_PATH_MAX + 8], cwd[WS_PATH_MAX - 64];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(abs, sizeof abs, "%s/%s", cwd, hdr);
    assert_string_equal(ws_desc_source_path(f, abs), hdr);
    assert_string_equal(ws_desc_source_path(f, "/elsewhere/header_kernel.cuh"), hdr);
    assert_string_equal(ws_desc_source_path(f, "tests/data/frontend/header_kernel.cu"), f->path);
    assert_null(ws_desc_source_path(f, "/elsewhere/unrelated.h"));
    ws_desc_free(f);
    /* a missing kernel says the headers were looked in too */
    const char *src = "#include \"header_kernel.cuh\"\n/*@warpscope\nkernel nowhere\ngrid 1\nblock 1\n*/\n";
    assert_int_not_equal(ws_desc_parse("tests/data/frontend/x.cu", src, &f, &err), 0);
    assert_non_null(strstr(err.msg, "no __global__ function 'nowhere' in this file or the headers it includes"));
}

static void test_generators_and_files_are_checked_at_resolve(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nparam N = 300\n"
                               "buffer p uchar N init=perm(1)\n"                /* 300 indices do not fit a uchar */
                               "buffer r half N init=randint(1, 0, 5000)\n"     /* 4999 is not exact in half */
                               "buffer l int N init=lcg(-1)\n"
                               "buffer m int N init=lcg(1, 5, 3, 0)\n"
                               "buffer x float N init=file(no_such_file.bin)\n"
                               "grid 1\nblock 1\n*/" KERNEL);
    const ws_kernel_desc *d = &f->kernels[0];
    ws_kernel_desc one = *d;
    static const struct { int buffer, line, col; const char *msg; } cases[] = {
        {0, 4, 16, "perm() of 300 values needs indices up to 299, more than uchar holds exactly (255)"},
        {1, 5, 33, "randint values 0..4999 do not all fit half exactly (-2048..2048)"},
        {2, 6, 25, "lcg() seed -1 is negative"},
        {3, 7, 34, "lcg() modulus 0 must be at least 1"},
        {4, 8, 28, "buffer 'x': cannot open no_such_file.bin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        one.nbuffers = 1;
        one.buffers[0] = d->buffers[cases[i].buffer];
        resolve_fails(&one, NULL, "t.cu", cases[i].line, cases[i].col, cases[i].msg);
    }
    ws_desc_free(f);
    /* the .npy beside the .cu, by a path relative to the .cu's folder */
    f = NULL;
    ws_error err;
    if (ws_desc_load("tests/data/frontend/gather.cu", &f, &err)) fail_msg("%s", err.msg);
    ws_launch L;
    resolve_ok(ws_desc_find(f, "gather_files"), NULL, &L);
    assert_string_equal(L.buffers[1].file, "tests/data/frontend/gather_idx.npy");
    assert_int_equal(L.buffers[1].file_offset, 128);               /* NumPy pads the header to 128 bytes here */
    ws_desc_free(f);
}

static void test_every_malformed_description_gives_its_expected_error(void **state)
{
    (void)state;
    DIR *d = opendir(BAD_DIR);
    assert_non_null(d);
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 3 && !strcmp(e->d_name + len - 3, ".cu")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    assert_true(n >= 20);
    int failures = 0;
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", BAD_DIR, names[i]);
        char *text = read_text(path, NULL);
        int line = 0, col = 0, used = 0;
        if (sscanf(text, "// expect: %d:%d: %n", &line, &col, &used) != 2 || used == 0)
            fail_msg("%s: first line must be '// expect: LINE:COL: message'", path);
        char want[256];
        size_t k = 0;
        for (const char *p = text + used; *p && *p != '\n' && *p != '\r' && k < sizeof want - 1; p++) want[k++] = *p;
        want[k] = '\0';
        ws_desc_file *f = NULL;
        ws_error err;
        memset(&err, 0, sizeof err);
        if (!ws_desc_load(path, &f, &err)) {
            print_error("%s: parsed without error, expected %d:%d: %s\n", path, line, col, want);
            ws_desc_free(f);
            failures++;
        } else if (strcmp(err.file, path) || err.line != line || err.col != col || !strstr(err.msg, want)) {
            print_error("%s: got %s:%d:%d: %s\n    expected %d:%d: ...%s...\n", path, err.file, err.line, err.col,
                        err.msg, line, col, want);
            failures++;
        }
        free(text);
        free(names[i]);
    }
    assert_int_equal(failures, 0);
}

static void test_near_misses_are_case_slips_one_edit_or_a_swap_and_only_one_candidate(void **state)
{
    (void)state;
    assert_true(ws_near_miss("w", "W"));            /* case alone, however short */
    assert_true(ws_near_miss("ouput", "output"));   /* a letter dropped */
    assert_true(ws_near_miss("outptu", "output"));  /* neighbours swapped */
    assert_true(ws_near_miss("bufer", "buffer"));
    assert_true(ws_near_miss("Ntile", "NTILE"));
    assert_true(ws_near_miss("TILEX", "TILE"));     /* a letter added */
    assert_false(ws_near_miss("X", "W"));           /* one-letter names: no one-edit guess */
    assert_false(ws_near_miss("N", "N"));
    assert_false(ws_near_miss("grid", "block"));
    assert_false(ws_near_miss("TILE", "TI"));
    static const char *const names[] = {"TILE_X", "TILE_Y", "N"};
    assert_int_equal(ws_nearest("tile_x", names, 3, sizeof names[0], false), 0);
    assert_int_equal(ws_nearest("TILE_Z", names, 3, sizeof names[0], false), -1); /* X or Y: no guess */
    assert_int_equal(ws_nearest("n", names, 3, sizeof names[0], false), 2);
}

static void test_fixed_width_c_types_are_their_equivalents_and_const_takes_inf_and_nan(void **state)
{
    (void)state;
    ws_type t;
    const struct { const char *c; ws_type want; } fixed[] = {
        {"int8_t", WS_TYPE_CHAR}, {"uint8_t", WS_TYPE_UCHAR}, {"int16_t", WS_TYPE_SHORT}, {"uint16_t", WS_TYPE_USHORT},
        {"int32_t", WS_TYPE_INT}, {"uint32_t", WS_TYPE_UINT}, {"int64_t", WS_TYPE_LONG}, {"uint64_t", WS_TYPE_ULONG}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        assert_int_equal(ws_type_parse(fixed[i].c, &t), 0);
        assert_int_equal(t, fixed[i].want);
    }
    assert_int_equal(ws_type_parse("size_t", &t), -1); /* platform-wide: named in the error instead */
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nbuffer a float 4 init=const(-inf)\n"
                               "buffer b uint32_t 4 init=const(7)\nbuffer c half 4 init=const(nan)\n"
                               "buffer d double 4 init=const(INF)\ngrid 1\nblock 32\nargs a, b, c, d\n*/\n"
                               "__global__ void k(float *a, unsigned *b, void *c, double *d) { }\n");
    const ws_kernel_desc *d = &f->kernels[0];
    assert_true(isinf(d->buffers[0].const_value) && d->buffers[0].const_value < 0);
    assert_int_equal(d->buffers[1].type, WS_TYPE_UINT);
    assert_true(isnan(d->buffers[2].const_value));
    assert_true(isinf(d->buffers[3].const_value) && d->buffers[3].const_value > 0);
    ws_desc_free(f);
}

static void test_a_cluster_line_gives_the_launch_its_clusters_which_divide_the_grid(void **state)
{
    (void)state;
    const char *text = "/*@warpscope\nkernel k\nparam G = 4\nbuffer out int 64 init=zero output\ngrid 8, 2\n"
                       "block 32\ncluster G, 2 nonportable\nargs out\n*/\n__global__ void k(int *o) {}\n";
    ws_desc_file *f = parse_ok(text);
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.cluster[0], 4);
    assert_int_equal(L.cluster[1], 2);
    assert_int_equal(L.cluster[2], 1);
    assert_true(L.cluster_nonportable);
    /* G = 3 does not divide the grid's 8 */
    ws_overrides ov = {0};
    ov.n = 1;
    snprintf(ov.name[0], sizeof ov.name[0], "G");
    snprintf(ov.value[0], sizeof ov.value[0], "3");
    ov.has_value[0] = true;
    resolve_fails(&f->kernels[0], &ov, "t.cu", 7, 9, "grid.x = 8 is not a multiple of cluster.x = 3");
    ws_desc_free(f);
    /* without a cluster line: none */
    f = parse_ok("/*@warpscope\nkernel k\nbuffer out int 64 init=zero output\ngrid 8\nblock 32\nargs out\n*/\n"
                 "__global__ void k(int *o) {}\n");
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_int_equal(L.cluster[0], 0);
    ws_desc_free(f);
    parse_fails("/*@warpscope\nkernel k\nbuffer out int 64 init=zero output\ngrid 8\nblock 32\ncluster\nargs out\n*/\n"
                "__global__ void k(int *o) {}\n", 6, 8, "cluster needs 1 to 3 dimensions");
}

/* `target sm_90a`: the launch carries it, and it wins over the command's architecture. */
static void test_a_target_line_sets_the_launch_architecture(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\ntarget sm_90a\ngrid 1\nblock 128\n*/\n"
                               "__global__ void k() {}\n/*@warpscope\nkernel j\ngrid 1\nblock 32\n*/\n"
                               "__global__ void j() {}\n");
    ws_launch L;
    resolve_ok(&f->kernels[0], NULL, &L);
    assert_string_equal(L.target, "sm_90a");
    assert_string_equal(ws_launch_arch(&L, "sm_80"), "sm_90a");
    resolve_ok(&f->kernels[1], NULL, &L);
    assert_string_equal(L.target, "");
    assert_string_equal(ws_launch_arch(&L, "sm_80"), "sm_80");
    ws_desc_free(f);
    parse_fails("/*@warpscope\nkernel k\ntarget sm_90b\ngrid 1\nblock 32\n*/\n__global__ void k() {}\n", 3, 8,
                "target must name an architecture such as sm_90a");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_cluster_line_gives_the_launch_its_clusters_which_divide_the_grid),
        cmocka_unit_test(test_good_file_has_three_descriptions_in_order),
        cmocka_unit_test(test_default_launch_follows_the_parameter_formulas),
        cmocka_unit_test(test_overrides_change_later_parameters_and_the_launch),
        cmocka_unit_test(test_overrides_print_as_name_value_pairs),
        cmocka_unit_test(test_malformed_overrides_report_their_column),
        cmocka_unit_test(test_three_dimensional_grid_and_block),
        cmocka_unit_test(test_a_tensor_map_resolves_its_shape_box_strides_and_swizzle),
        cmocka_unit_test(test_each_resolve_error_points_at_its_expression),
        cmocka_unit_test(test_override_can_cause_a_located_division_by_zero),
        cmocka_unit_test(test_crlf_file_parses_like_its_lf_twin),
        cmocka_unit_test(test_very_long_lines_are_handled),
        cmocka_unit_test(test_nul_byte_in_a_file_is_refused_with_its_position),
        cmocka_unit_test(test_file_level_errors),
        cmocka_unit_test(test_definition_is_preferred_over_a_forward_declaration),
        cmocka_unit_test(test_block_can_open_and_close_on_shared_lines),
        cmocka_unit_test(test_types_report_size_lanes_and_scalar),
        cmocka_unit_test(test_vector_buffer_sizes_count_whole_elements),
        cmocka_unit_test(test_documented_example_parses_and_resolves),
        cmocka_unit_test(test_mangled_descriptions_fail_cleanly),
        cmocka_unit_test(test_minus_d_is_a_parameter_when_declared_else_a_macro_the_source_uses),
        cmocka_unit_test(test_compile_line_options_are_relative_to_the_cu_folder),
        cmocka_unit_test(test_a_target_line_names_sm_90a_for_the_launch),
        cmocka_unit_test(test_entry_names_an_instantiation_or_an_overload),
        cmocka_unit_test(test_a_kernel_defined_in_an_included_header_is_found_in_the_header),
        cmocka_unit_test(test_generators_and_files_are_checked_at_resolve),
        cmocka_unit_test(test_every_malformed_description_gives_its_expected_error),
        cmocka_unit_test(test_a_target_line_sets_the_launch_architecture),
        cmocka_unit_test(test_near_misses_are_case_slips_one_edit_or_a_swap_and_only_one_candidate),
        cmocka_unit_test(test_fixed_width_c_types_are_their_equivalents_and_const_takes_inf_and_nan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
