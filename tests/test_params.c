/* test_params.c - the one kernel parameter buffer of sim and gpu (sim/frontend/params.c): described arguments
 * converted to the PTX parameter types at the PTX offsets, with range checks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/ptxgen.h"
#include "../cuda/cu_target.h"
#include "../sim/frontend/params.h"
#include "../sim/simulate.h"

/* transpose(float *in, float *out, int W, float scale, unsigned short tag, double d):
 * PTX packs params by alignment: u64@0, u64@8, s32@16, f32@20, u16@24, f64@32 -> 40 bytes. */
typedef struct {
    ptx_function fn;
    ptx_symbol syms[6];
    int idx[6];
    ws_launch L;
} fixture;

static void add_param(fixture *f, const char *name, ptx_type t, uint64_t size, uint64_t off)
{
    int i = f->fn.nparams++;
    ptx_symbol *s = &f->syms[i];
    memset(s, 0, sizeof *s);
    s->name = name;                      /* a string literal: lives as long as the test */
    s->kind = PTX_SYM_PARAM;
    s->space = PTX_SPACE_PARAM;
    s->type = t;
    s->size = size;
    s->offset = off;
    f->idx[i] = i;
}

static void make(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->fn.name = "_Z9transposePfS_iftd";
    f->fn.is_entry = true;
    f->fn.syms = f->syms;
    f->fn.param_syms = f->idx;
    add_param(f, "p0", PTX_T_U64, 8, 0);
    add_param(f, "p1", PTX_T_U64, 8, 8);
    add_param(f, "p2", PTX_T_S32, 4, 16);
    add_param(f, "p3", PTX_T_F32, 4, 20);
    add_param(f, "p4", PTX_T_U16, 2, 24);
    add_param(f, "p5", PTX_T_F64, 8, 32);
    f->fn.nsyms = 6;
    f->fn.param_bytes = 40;
    ws_launch *L = &f->L;
    L->nbuffers = 2;
    snprintf(L->buffers[0].name, sizeof L->buffers[0].name, "in");
    snprintf(L->buffers[1].name, sizeof L->buffers[1].name, "out");
    L->nargs = 6;
    L->args[0] = (ws_arg){WS_ARG_BUFFER, 0, 0, 0};
    L->args[1] = (ws_arg){WS_ARG_BUFFER, 1, 0, 0};
    L->args[2] = (ws_arg){WS_ARG_INT, -1, -1024, 0};
    L->args[3] = (ws_arg){WS_ARG_FLOAT, -1, 0, 2.5};
    L->args[4] = (ws_arg){WS_ARG_INT, -1, 65535, 0};
    L->args[5] = (ws_arg){WS_ARG_INT, -1, 3, 0};
}

static const uint64_t addr[2] = {0x7f0000001000ull, 0x7f0000200000ull};

static void test_arguments_land_at_ptx_offsets_in_little_endian(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    uint8_t buf[64];
    size_t off[6];
    ws_error err;
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, off, &err), 0);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[2], 16);
    assert_int_equal(off[5], 32);
    uint64_t p;
    memcpy(&p, buf + 8, 8);
    assert_true(p == addr[1]);
    assert_int_equal(buf[0], 0x00); /* lowest byte first: 0x...1000 */
    assert_int_equal(buf[1], 0x10);
    int32_t w;
    memcpy(&w, buf + 16, 4);
    assert_int_equal(w, -1024);
    float s;
    memcpy(&s, buf + 20, 4);
    assert_true(s == 2.5f);
    assert_int_equal(buf[24], 0xff);
    assert_int_equal(buf[25], 0xff);
    double d;
    memcpy(&d, buf + 32, 8);
    assert_true(d == 3.0); /* an integer expression passed to a double parameter converts */
    for (int i = 26; i < 32; i++) assert_int_equal(buf[i], 0); /* padding is zero */
}

static void test_value_too_wide_for_its_parameter_is_an_error(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    uint8_t buf[64];
    ws_error err;
    f.L.args[4].ivalue = 65536; /* u16 holds 0..65535 */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "argument 5 (65536) does not fit parameter 5"));
    assert_non_null(strstr(err.msg, ".u16"));
    make(&f);
    f.L.args[2].ivalue = 5000000000ll; /* beyond s32 */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    make(&f);
    f.L.args[2].ivalue = -2147483648ll; /* s32 minimum fits */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), 0);
    make(&f);
    f.L.args[4].ivalue = -1; /* C++ wraps -1 into an unsigned parameter */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), 0);
    assert_int_equal(buf[24], 0xff);
}

static void test_kinds_that_cannot_convert_are_errors(void **state)
{
    (void)state;
    fixture f;
    uint8_t buf[64];
    ws_error err;
    make(&f);
    f.L.args[2] = (ws_arg){WS_ARG_BUFFER, 0, 0, 0}; /* a pointer into an int */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "buffer 'in'"));
    make(&f);
    f.L.args[2] = (ws_arg){WS_ARG_FLOAT, -1, 0, 1.5}; /* a float literal into an int */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    make(&f);
    f.L.args[3].fvalue = 1e300; /* overflows f32 */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "overflows"));
}

static void test_argument_count_and_struct_parameters_are_checked(void **state)
{
    (void)state;
    fixture f;
    uint8_t buf[64];
    ws_error err;
    make(&f);
    f.L.nargs = 5;
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "passes 5 arguments"));
    assert_non_null(strstr(err.msg, "takes 6"));
    make(&f);
    f.syms[5].type = PTX_T_B8; /* .param .align 8 .b8 p5[8]: a struct by value */
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "struct or array"));
    make(&f);
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, 32, NULL, &err), -1); /* 40 bytes needed */
}

/* A float literal in a half parameter rounds to nearest: 2.5 is exact in f16 (0x4100) and
 * bf16 (0x4020); an integer converts the same way. */
static void test_half_parameters_take_numbers_rounded_to_nearest(void **state)
{
    (void)state;
    fixture f;
    uint8_t buf[64];
    ws_error err;
    make(&f);
    f.syms[4].type = PTX_T_F16;
    f.L.args[4] = (ws_arg){WS_ARG_FLOAT, -1, 0, 2.5};
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), 0);
    assert_int_equal(buf[24] | buf[25] << 8, 0x4100); /* sign 0, exponent 16 (2^1), mantissa 0.25 * 1024 */
    f.syms[4].type = PTX_T_BF16;
    f.L.args[4] = (ws_arg){WS_ARG_INT, -1, 2, 0};
    assert_int_equal(ws_params_pack(&f.fn, &f.L, addr, buf, sizeof buf, NULL, &err), 0);
    assert_int_equal(buf[24] | buf[25] << 8, 0x4000); /* 2.0: exponent 128, mantissa 0 */
}

/* The simulator (ws_simulation_run) and the GPU backend (cu_target_open, before any device
 * memory exists) refuse the same argument with the same message, file, line and column. */
static void test_sim_and_gpu_refuse_a_bad_argument_with_one_message(void **state)
{
    (void)state;
    char dir[] = "/tmp/ws_params_XXXXXX", cu_path[64], ptx_path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(cu_path, sizeof cu_path, "%s/k.cu", dir);
    snprintf(ptx_path, sizeof ptx_path, "%s/k.ptx", dir);
    const char *bad[] = {"2.5", "1<<40"};
    for (int b = 0; b < 2; b++) {
        char cu[400];
        snprintf(cu, sizeof cu, "/*@warpscope\nkernel  k\nbuffer  out  int  32  init=zero  output\n"
                                "grid    1\nblock   32\nargs    out, %s\n*/\n__global__ void k(int *out, int n) { }\n",
                 bad[b]);
        FILE *f = fopen(cu_path, "w");
        assert_non_null(f);
        fputs(cu, f);
        fclose(f);
        f = fopen(ptx_path, "w");
        assert_non_null(f);
        fprintf(f, "// warpscope-source-hash: %016llx\n.version 8.0\n.target sm_90\n.address_size 64\n"
                   ".visible .entry k(.param .u64 out, .param .s32 n)\n{\n  ret;\n}\n",
                ws_source_hash(cu, strlen(cu)));
        fclose(f);
        ws_catalog *cat = NULL;
        ws_error err, gerr, serr;
        assert_int_equal(ws_catalog_load(NULL, &cat, &err), 0);
        cu_target t;
        assert_int_equal(cu_target_open(cat, cu_path, NULL, 0, 0, &t, &gerr), WS_EXIT_USAGE);
        ws_simulation sim;
        int rc = ws_simulation_open(&sim, cat, cu_path, NULL, ws_device_default(), "sm_90", &serr);
        if (rc == WS_EXIT_OK) rc = ws_simulation_run(&sim, NULL, &serr);
        assert_int_equal(rc, WS_EXIT_USAGE);
        ws_simulation_close(&sim);
        char gm[1024], sm[1024];
        ws_error_format(&gerr, gm, sizeof gm);
        ws_error_format(&serr, sm, sizeof sm);
        assert_string_equal(gm, sm);
        assert_int_equal(gerr.line, 6);
        assert_int_equal(gerr.col, 14);
        assert_non_null(strstr(gm, b == 0 ? "is a floating-point literal but parameter 2 ('n', .s32) is an integer"
                                          : "(1<<40 = 1099511627776) does not fit parameter 2 ('n', .s32)"));
        ws_catalog_free(cat);
    }
    unlink(cu_path);
    unlink(ptx_path);
    rmdir(dir);
}

/* k(float *p, __half h, __nv_bfloat16 b, __half2 h2): PTX declares the three by-value 16-bit
 * types as byte arrays (.align 2 .b8 [2], .align 4 .b8 [4]); the C++ signature in the mangled
 * name says they are halves, so a float literal becomes its round-to-nearest-even bits. */
static void test_half_and_bf16_values_are_encoded_from_the_kernel_signature(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    f.fn.name = "_Z1kPf6__half13__nv_bfloat167__half2";
    f.fn.is_entry = true;
    f.fn.syms = f.syms;
    f.fn.param_syms = f.idx;
    add_param(&f, "p0", PTX_T_U64, 8, 0);
    add_param(&f, "p1", PTX_T_B8, 2, 8);
    add_param(&f, "p2", PTX_T_B8, 2, 10);
    add_param(&f, "p3", PTX_T_B8, 4, 12);
    f.fn.nsyms = 4;
    f.fn.param_bytes = 16;
    f.L.nbuffers = 1;
    f.L.nargs = 4;
    f.L.args[0] = (ws_arg){WS_ARG_BUFFER, 0, 0, 0};
    f.L.args[1] = (ws_arg){WS_ARG_FLOAT, -1, 0, 1.5};     /* half 1.5 = 0x3e00: exponent 15, fraction .5 */
    f.L.args[2] = (ws_arg){WS_ARG_FLOAT, -1, 0, -2.0};    /* bf16 -2 = 0xc000, the top of float 0xc0000000 */
    f.L.args[3] = (ws_arg){WS_ARG_INT, -1, 3, 0};         /* half 3 = 0x4200, in both lanes */
    uint8_t buf[64];
    ws_error err;
    uint64_t a[1] = {0x1000};
    if (ws_params_pack(&f.fn, &f.L, a, buf, sizeof buf, NULL, &err)) fail_msg("%s", err.msg);
    assert_int_equal(buf[8] | buf[9] << 8, 0x3e00);
    assert_int_equal(buf[10] | buf[11] << 8, 0xc000);
    assert_int_equal(buf[12] | buf[13] << 8, 0x4200);
    assert_int_equal(buf[14] | buf[15] << 8, 0x4200);
    /* the same bytes as a 2-byte struct (no half in the signature) cannot be filled */
    f.fn.name = "_Z1kPf2S2S2S4";
    assert_int_equal(ws_params_pack(&f.fn, &f.L, a, buf, sizeof buf, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "struct or array"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments_land_at_ptx_offsets_in_little_endian),
        cmocka_unit_test(test_value_too_wide_for_its_parameter_is_an_error),
        cmocka_unit_test(test_kinds_that_cannot_convert_are_errors),
        cmocka_unit_test(test_argument_count_and_struct_parameters_are_checked),
        cmocka_unit_test(test_half_parameters_take_numbers_rounded_to_nearest),
        cmocka_unit_test(test_sim_and_gpu_refuse_a_bad_argument_with_one_message),
        cmocka_unit_test(test_half_and_bf16_values_are_encoded_from_the_kernel_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
