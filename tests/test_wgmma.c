/* test_wgmma.c - wgmma.mma_async in the interpreter (sim/interp/exec_wgmma.c) on nvcc PTX from
 * tests/data/wgmma/wgmma.cu: one warpgroup multiplies 64 x K by K x 64 with its operands placed in
 * shared memory in each swizzle mode's layout (none, 32B, 64B, 128B), K-major and MN-major
 * (imm-trans), A from shared memory or from registers, f16, bf16, tf32, e4m3 and s8, with and
 * without the accumulator (scale-d) and with imm-scale-a = -1. Every D is compared with a matrix
 * product computed here from the input buffers (small integers: every product and sum is exact in
 * f32, so the comparison is exact). Also: the shared chunks the descriptors read, as events; a
 * descriptor outside shared memory and an accumulator read before wgmma.wait_group as located
 * faults; an incomplete warpgroup. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "../common/files.h"
#include "../sim/interp/interp.h"
#include "../sim/interp/exec_tc.h"

#define DATA "tests/data/wgmma/wgmma.ptx"
#define SRC "tests/data/wgmma/wgmma.cu"

/* --- harness ------------------------------------------------------------------------------ */

typedef struct {
    ptx_module *mod;
    ws_launch L;
    ws_sim_config cfg;
    ws_sim_result res;
    ws_error err;
    ws_test_events cap;
} run_t;

static ptx_module *module(void)
{
    static ptx_module *m;
    if (!m) {
        ws_error e;
        m = ptx_load(DATA, &e);
        if (!m) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    }
    return m;
}

static void setup(run_t *r, const char *kernel, uint32_t threads)
{
    memset(r, 0, sizeof *r);
    r->mod = module();
    r->cfg.fn = ptx_find_function(r->mod, kernel);
    assert_non_null(r->cfg.fn);
    r->L.grid[0] = r->L.grid[1] = r->L.grid[2] = 1;
    r->L.block[0] = threads; r->L.block[1] = r->L.block[2] = 1;
    r->cfg.module = r->mod;
    r->cfg.launch = &r->L;
    r->cfg.source_file = "wgmma.cu";
    r->cfg.listener = ws_test_events_add;
    r->cfg.listener_ctx = &r->cap;
}

static void buf(run_t *r, ws_type t, uint64_t count, ws_init_kind init, uint64_t seed, double lo, double hi)
{
    ws_buffer *b = &r->L.buffers[r->L.nbuffers];
    snprintf(b->name, sizeof b->name, "b%d", r->L.nbuffers);
    b->type = t;
    b->count = count;
    b->bytes = count * ws_type_size(t);
    b->init = init;
    b->seed = seed;
    b->lo = lo;
    b->hi = hi;
    r->L.args[r->L.nargs].kind = WS_ARG_BUFFER;
    r->L.args[r->L.nargs++].buffer = r->L.nbuffers++;
}

static void arg_int(run_t *r, int64_t v)
{
    r->L.args[r->L.nargs].kind = WS_ARG_INT;
    r->L.args[r->L.nargs++].ivalue = v;
}

static const char *error_text(run_t *r)
{
    static char msg[1600];
    ws_error_format(&r->err, msg, sizeof msg);
    return msg;
}

static int run(run_t *r) { return ws_sim_run(&r->cfg, &r->res, &r->err); }

static void run_ok(run_t *r)
{
    if (run(r)) fail_msg("%s", error_text(r));
}

static void teardown(run_t *r)
{
    ws_sim_result_free(&r->res);
    free(r->cap.ev);
}

static const void *data(run_t *r, int i) { return r->res.buffer_data[i]; }

/* The line of wgmma.cu holding text (an instruction's .loc line). */
static int line_of(const char *text)
{
    size_t n;
    ws_error e;
    char *s = ws_read_file(SRC, 0, &n, &e);
    assert_non_null(s);
    char *p = strstr(s, text);
    assert_non_null(p);
    int line = 1;
    for (char *q = s; q < p; q++) line += *q == '\n';
    free(s);
    return line;
}

/* --- element values from first principles -------------------------------------------------- */

static double f16(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : ldexp(1024 + f, e - 25);
    return h >> 15 ? -v : v;
}

static double bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double e4m3(uint8_t b)   /* sign, 4 exponent bits (bias 7), 3 fraction bits; no infinity */
{
    int e = b >> 3 & 15, f = b & 7;
    double v = e == 0 ? ldexp(f, -9) : ldexp(8 + f, e - 10);
    return b >> 7 ? -v : v;
}

/* --- the 16-bit kernels: D = A (64 x 16) * B (16 x 64) [+ C], every mode ------------------------ */

enum { SWZ_NONE = 0, SWZ_128 = 1, SWZ_64 = 2, SWZ_32 = 3 };

static void run_16bit(const char *kernel, bool bf, int mode, int accumulate, double sign)
{
    run_t r;
    setup(&r, kernel, 128);
    ws_type t = bf ? WS_TYPE_BF16 : WS_TYPE_HALF;
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);            /* out */
    buf(&r, t, 64 * 16, WS_INIT_RANDINT, 11 + (uint64_t)mode, -4, 5);  /* A, row-major */
    buf(&r, t, 16 * 64, WS_INIT_RANDINT, 23 + (uint64_t)mode, -4, 5);  /* B, K x N row-major */
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_RANDINT, 5, -50, 50);      /* C */
    arg_int(&r, mode);
    arg_int(&r, accumulate);
    run_ok(&r);
    const float *D = data(&r, 0);
    const uint16_t *A = data(&r, 1), *B = data(&r, 2);
    const float *C = data(&r, 3);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            double want = accumulate ? C[i * 64 + j] : 0;
            for (int k = 0; k < 16; k++)
                want += sign * (bf ? bf16(A[i * 16 + k]) * bf16(B[k * 64 + j]) : f16(A[i * 16 + k]) * f16(B[k * 64 + j]));
            if (D[i * 64 + j] != (float)want && bad++ < 4)
                print_message("%s mode %d: D[%d][%d] = %g, want %g\n", kernel, mode, i, j, D[i * 64 + j], want);
        }
    assert_int_equal(bad, 0);
    teardown(&r);
}

static void test_f16_from_shared_memory_agrees_with_the_product_in_every_swizzle_mode(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) run_16bit("wgmma_ss_f16", false, mode, 0, 1);
}

static void test_bf16_from_shared_memory_agrees_with_the_product_in_every_swizzle_mode(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) run_16bit("wgmma_ss_bf16", true, mode, 1, 1);
}

static void test_transposed_operands_mn_major_agree_in_every_swizzle_mode(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        run_16bit("wgmma_ss_f16_tnsp", false, mode, 1, 1);
        run_16bit("wgmma_ss_bf16_tnsp", true, mode, 0, 1);
    }
}

static void test_scale_d_adds_the_accumulator_only_when_true(void **state)
{
    (void)state;
    run_16bit("wgmma_ss_f16", false, SWZ_128, 1, 1);
    run_16bit("wgmma_ss_f16", false, SWZ_128, 0, 1);
}

static void test_a_from_registers_agrees_and_imm_scale_a_negates_it(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        run_16bit("wgmma_rs_f16", false, mode, 1, 1);
        run_16bit("wgmma_rs_f16_tnsp_neg", false, mode, 1, -1);   /* B N-major, imm-scale-a = -1 */
    }
}

/* --- tf32, e4m3, s8: A and B^T 64 rows of 32 bytes ----------------------------------------------- */

/* The H200's fp8 accumulation keeps 14 significant bits of the exact sum, truncated toward zero
 * (results/h200-wgmma/FP8-RULE.md). Here on an integer: these inputs' products are multiples of
 * 1/64 (every factor is (8 + m) 2^(e-10), e >= 7), so 64 x the sum is an integer S, and keeping
 * 14 bits of S is clearing its bits below its 14 leading ones. */
static double rz14(double exact)
{
    int64_t S = (int64_t)(exact * 64), mag = S < 0 ? -S : S;
    assert_true((double)S == exact * 64);
    int len = 0;
    while (len < 63 && (mag >> len) > 0) len++;
    if (len > 14) mag = mag >> (len - 14) << (len - 14);
    return (double)(S < 0 ? -mag : mag) / 64;
}

/* What the H200 wrote for tests/data/wgmma/wgmma.cu:wgmma_e4m3 (its description's inputs, seeds 3
 * and 4), in every swizzle mode (results/h200-wgmma/check.log): 1703 of the 4096 scalars differ from
 * the rounded exact sum; the first eight differing ones with the GPU's values. */
static void test_e4m3_agrees_with_the_h200(void **state)
{
    (void)state;
    static const struct { int i; float gpu; } rec[] = {
        {1, -343.59375f}, {2, -291.0f}, {3, -376.78125f}, {6, -318.4375f},
        {8, -311.75f}, {10, -380.84375f}, {11, -332.71875f}, {17, -311.5625f},
    };
    for (int mode = 0; mode < 4; mode++) {
        run_t r;
        setup(&r, "wgmma_e4m3", 128);
        buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
        buf(&r, WS_TYPE_UCHAR, 64 * 32, WS_INIT_RANDINT, 3, 0x38, 0x50);
        buf(&r, WS_TYPE_UCHAR, 64 * 32, WS_INIT_RANDINT, 4, 0xb8, 0xd0);
        arg_int(&r, mode);
        run_ok(&r);
        const float *D = data(&r, 0);
        const uint8_t *a8 = data(&r, 1), *b8 = data(&r, 2);
        int differ = 0, first[8], nf = 0;
        for (int i = 0; i < 64 * 64; i++) {
            double exact = 0;
            for (int k = 0; k < 32; k++) exact += e4m3(a8[i / 64 * 32 + k]) * e4m3(b8[i % 64 * 32 + k]);
            if (D[i] != (float)exact) {
                differ++;
                if (nf < 8) first[nf++] = i;
            }
        }
        assert_int_equal(differ, 1703);
        for (int f = 0; f < 8; f++) {
            assert_int_equal(first[f], rec[f].i);
            assert_true(D[rec[f].i] == rec[f].gpu);
        }
        teardown(&r);
    }
}

static void test_tf32_e4m3_and_s8_agree_with_the_product(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        run_t r;
        setup(&r, "wgmma_tf32", 128);                                  /* k8: 8 floats per row */
        buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
        buf(&r, WS_TYPE_FLOAT, 64 * 8, WS_INIT_RANDINT, 3, -8, 9);
        buf(&r, WS_TYPE_FLOAT, 64 * 8, WS_INIT_RANDINT, 4, -8, 9);
        arg_int(&r, mode);
        run_ok(&r);
        const float *D = data(&r, 0), *A = data(&r, 1), *Bt = data(&r, 2);
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) {
                double want = 0;
                for (int k = 0; k < 8; k++) want += (double)A[i * 8 + k] * Bt[j * 8 + k];
                assert_true(D[i * 64 + j] == (float)want);
            }
        teardown(&r);

        setup(&r, "wgmma_e4m3", 128);                                  /* k32: 32 bytes per row */
        buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
        buf(&r, WS_TYPE_UCHAR, 64 * 32, WS_INIT_RANDINT, 5, 0x38, 0x50); /* 1 .. 7.5: every sum exact */
        buf(&r, WS_TYPE_UCHAR, 64 * 32, WS_INIT_RANDINT, 6, 0xb8, 0xd0); /* -1 .. -7.5 */
        arg_int(&r, mode);
        run_ok(&r);
        D = data(&r, 0);
        const uint8_t *a8 = data(&r, 1), *b8 = data(&r, 2);
        int cut = 0;
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) {
                double exact = 0;
                for (int k = 0; k < 32; k++) exact += e4m3(a8[i * 32 + k]) * e4m3(b8[j * 32 + k]);
                assert_true(D[i * 64 + j] == (float)rz14(exact));
                cut += rz14(exact) != exact;
            }
        assert_true(cut > 100);                                        /* the truncation is exercised */
        teardown(&r);

        setup(&r, "wgmma_s8", 128);
        buf(&r, WS_TYPE_INT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
        buf(&r, WS_TYPE_CHAR, 64 * 32, WS_INIT_RANDINT, 7, -128, 128);
        buf(&r, WS_TYPE_CHAR, 64 * 32, WS_INIT_RANDINT, 8, -128, 128);
        arg_int(&r, mode);
        run_ok(&r);
        const int32_t *Di = data(&r, 0);
        const int8_t *ai = data(&r, 1), *bi = data(&r, 2);
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) {
                int32_t want = 0;
                for (int k = 0; k < 32; k++) want += ai[i * 32 + k] * bi[j * 32 + k];
                assert_int_equal(Di[i * 64 + j], want);
            }
        teardown(&r);
    }
}

/* --- what the descriptors read -------------------------------------------------------------- */

/* Swizzle<3,4,3>: address bits 4-6 ^= bits 7-9. */
static uint64_t sw128(uint64_t a) { return a ^ ((a >> 7 & 7) << 4); }

static void test_the_descriptors_read_each_placed_chunk_once_per_warpgroup(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "wgmma_ss_f16", 128);
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
    buf(&r, WS_TYPE_HALF, 64 * 16, WS_INIT_RANDINT, 1, -4, 5);
    buf(&r, WS_TYPE_HALF, 16 * 64, WS_INIT_RANDINT, 2, -4, 5);
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
    arg_int(&r, SWZ_128);
    arg_int(&r, 0);
    run_ok(&r);
    /* A at shared offset 0 and B at 8192 (two 1024-aligned 8 KiB arrays, in declaration order):
       each row r of 64 holds its 32 bytes of K at sw128(r * 128 + 0 / 16) */
    int seen[2][64][2] = {{{0}}};
    int nev = 0, lanes = 0;
    uint32_t warps = 0;
    for (int i = 0; i < r.cap.n; i++) {
        const ws_mem_event *ev = &r.cap.ev[i];
        if (ev->kind != WS_KIND_GMMA) continue;
        assert_int_equal(ev->space, WS_SPACE_SHARED);
        assert_int_equal(ev->op, WS_MEM_LOAD);
        assert_int_equal(ev->width, 16);
        nev++;
        warps |= 1u << ev->warp;
        for (int l = 0; l < 32; l++) {
            if (!(ev->active_mask >> l & 1)) continue;
            lanes++;
            uint64_t a = ev->addr[l];
            int op = a >= 8192;
            uint64_t o = sw128(a - (op ? 8192 : 0));   /* the swizzle is its own inverse */
            assert_true(o % 16 == 0 && o % 128 < 32 && o / 128 < 64);
            seen[op][o / 128][o % 128 / 16]++;
        }
    }
    assert_int_equal(warps, 0xf);                      /* every warp reads its share */
    assert_int_equal(lanes, 2 * 64 * 2);               /* 4096 bytes: A and B once each */
    assert_int_equal(nev, 8);                          /* per warp: its 32 A chunks, 32 of B's 128 */
    for (int op = 0; op < 2; op++)
        for (int row = 0; row < 64; row++)
            for (int j = 0; j < 2; j++) assert_int_equal(seen[op][row][j], 1);
    teardown(&r);
}

/* --- faults ------------------------------------------------------------------------------- */

static void test_a_descriptor_outside_shared_memory_is_a_fault_naming_the_line(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "wgmma_desc_outside", 128);
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
    assert_int_equal(run(&r), -1);
    const char *msg = error_text(&r);
    assert_non_null(strstr(msg, "the matrix descriptor of B"));
    assert_non_null(strstr(msg, "outside the block's 2048 bytes of shared memory"));
    assert_int_equal(r.res.fault.kind, WS_FAULT_KERNEL);
    assert_int_equal(r.res.fault.src_line, line_of("// B outside"));
    teardown(&r);
}

static void test_an_accumulator_read_before_wait_group_is_reported(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "wgmma_read_before_wait", 128);
    buf(&r, WS_TYPE_FLOAT, 256, WS_INIT_ZERO, 0, 0, 0);
    assert_int_equal(run(&r), -1);
    const char *msg = error_text(&r);
    assert_non_null(strstr(msg, "a register of the wgmma.mma_async at line"));
    assert_non_null(strstr(msg, "before a wgmma.wait_group covers it"));
    assert_int_equal(r.res.fault.src_line, line_of("out[threadIdx.x] = d[0];"));
    teardown(&r);
}

static void test_a_warpgroup_of_fewer_than_four_warps_is_a_fault(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "wgmma_ss_f16", 96);
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
    buf(&r, WS_TYPE_HALF, 64 * 16, WS_INIT_ZERO, 0, 0, 0);
    buf(&r, WS_TYPE_HALF, 16 * 64, WS_INIT_ZERO, 0, 0, 0);
    buf(&r, WS_TYPE_FLOAT, 64 * 64, WS_INIT_ZERO, 0, 0, 0);
    arg_int(&r, 0);
    arg_int(&r, 0);
    assert_int_equal(run(&r), -1);
    assert_non_null(strstr(error_text(&r), "whose warpgroup (warps 0..3) is incomplete: the block has 3 warps"));
    teardown(&r);
}

/* --- parsing ------------------------------------------------------------------------------ */

static void test_a_wgmma_keeps_all_its_accumulators_and_its_immediates(void **state)
{
    (void)state;
    const ptx_function *fn = ptx_find_function(module(), "wgmma_ss_f16_tnsp");
    assert_non_null(fn);
    const ptx_insn *in = NULL;
    for (int i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].op == PTX_WGMMA_MMA) in = &fn->insns[i];
    assert_non_null(in);
    assert_int_equal(in->opnd[0].wide_n, 32);
    assert_int_equal(in->tc.m, 64);
    assert_int_equal(in->tc.n, 64);
    assert_int_equal(in->tc.k, 16);
    assert_true(in->tc.flags & PTX_TC_WG_ADESC);
    assert_true(in->tc.flags & PTX_TC_WG_TNSP_A);
    assert_true(in->tc.flags & PTX_TC_WG_TNSP_B);
    assert_false(in->tc.flags & PTX_TC_WG_NEG_A);
    assert_null(in->tc.refuse);
    /* the 32 accumulators are 32 distinct registers */
    for (int a = 0; a < 32; a++)
        for (int b = a + 1; b < 32; b++)
            assert_int_not_equal(fn->wide[in->opnd[0].wide0 + a], fn->wide[in->opnd[0].wide0 + b]);
}

static void test_wgmma_forms_the_isa_does_not_have_are_parse_errors(void **state)
{
    (void)state;
    static const struct { const char *insn, *msg; } cases[] = {
        {"wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%f1,%f2,%f3,%f4,%f5,%f6}, %rd1, %rd1, 1, 1, 1, 0, 0;",
         "the shape must be .m64nNk16"},
        {"wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r1,%r2}, %rd1, %rd1, 1, 1, 1, 0, 0;",
         ".bf16 inputs accumulate in .f32"},
        {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3}, %rd1, %rd1, 1, 1, 1, 0, 0;",
         "needs 4 registers, found 3"},
        {"wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f1,%f2,%f3,%f4}, %rd1, %rd1, 1, 1, 1, 0, 0;",
         "takes 2 immediates after scale-d"},
        {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd1, 1, 2, 1, 0, 0;",
         "imm-scale-a and imm-scale-b are 1 or -1"},
        {"wgmma.wait_group.sync.aligned 9;", "the group count must be a number in 0..7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                 ".reg .f32 %%f<8>;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\n%s\nret;\n}\n", cases[i].insn);
        ws_error e;
        ptx_module *m = ptx_parse("t.ptx", text, &e);
        const char *got = m ? (m->funcs[0].refusal ? m->funcs[0].refusal->msg : "(parsed)") : e.msg;
        if (!strstr(got, cases[i].msg)) fail_msg("%s: got '%s', want '%s'", cases[i].insn, got, cases[i].msg);
        ptx_free(m);
    }
}

/* --- the descriptor's base offset (PTX ISA, "Matrix Descriptor Format") ------------------------- */

static uint64_t make_desc(uint64_t start, uint64_t lbo, uint64_t sbo, uint64_t base, uint64_t mode)
{
    return (start >> 4 & 0x3fff) | (lbo >> 4 & 0x3fff) << 16 | (sbo >> 4 & 0x3fff) << 32 | (base & 7) << 49 | mode << 62;
}

/* A K-major f16 operand whose swizzle pattern starts at P: the ISA's base offset is 0 when P is on
 * the pattern's boundary (1024 B for 128B, 512 B for 64B) and (P >> 7) & 7 otherwise, and row 0 of
 * the pattern is the row at P. So element (mn, k) is at P + o, o = (mn / 8) SBO + (mn % 8) span +
 * (k / 8) 16 + (k % 8) 2 within the pattern, its 16-byte chunk XORed with o's 128-byte row in the
 * pattern (mod 8 for 128B, mod 4 for 64B). */
static void check_base_offset(uint64_t P, int span, uint64_t mode)
{
    uint64_t sbo = 8 * (uint64_t)span, base = P % (8 * (uint64_t)span) ? (P >> 7) & 7 : 0;
    uint64_t rows = span == 128 ? 7 : 3;
    for (int mn = 0; mn < 64; mn++)
        for (int k = 0; k < span / 2; k++) {
            uint64_t o = (uint64_t)(mn / 8) * sbo + (uint64_t)(mn % 8) * (uint64_t)span + (uint64_t)(k / 8) * 16 +
                         (uint64_t)(k % 8) * 2;
            uint64_t want = P + (o ^ ((o >> 7 & rows) << 4));
            uint64_t got = sim_wgmma_elem_addr(make_desc(P, 16, sbo, base, mode), mn, k, 2, false);
            if (got != want)
                fail_msg("span %d, pattern at 0x%llx (base offset %llu): element (%d, %d) at 0x%llx, want 0x%llx", span,
                         (unsigned long long)P, (unsigned long long)base, mn, k, (unsigned long long)got,
                         (unsigned long long)want);
        }
}

static void test_a_base_offset_places_a_pattern_that_starts_off_its_boundary(void **state)
{
    (void)state;
    check_base_offset(0x1000, 128, SWZ_128);          /* on the 1024-byte boundary: base offset 0 */
    check_base_offset(0x1000 + 384, 128, SWZ_128);    /* base offset 3 */
    check_base_offset(0x2000 + 896, 128, SWZ_128);    /* base offset 7 */
    check_base_offset(0x800, 64, SWZ_64);             /* on the 512-byte boundary */
    check_base_offset(0x800 + 256, 64, SWZ_64);       /* base offset (0x900 >> 7) & 7 = 2 */
    /* base offset 0 keeps the address-bit swizzle of an unaligned start (a K step inside a pattern) */
    assert_int_equal(sim_wgmma_elem_addr(make_desc(0x1020, 16, 1024, 0, SWZ_128), 1, 0, 2, false), 0x10a0 ^ 0x10);
    /* no swizzle: the ISA says the field is not used */
    assert_int_equal(sim_wgmma_elem_addr(make_desc(0x1180, 128, 256, 5, SWZ_NONE), 9, 11, 2, false),
                     sim_wgmma_elem_addr(make_desc(0x1180, 128, 256, 0, SWZ_NONE), 9, 11, 2, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_from_shared_memory_agrees_with_the_product_in_every_swizzle_mode),
        cmocka_unit_test(test_bf16_from_shared_memory_agrees_with_the_product_in_every_swizzle_mode),
        cmocka_unit_test(test_transposed_operands_mn_major_agree_in_every_swizzle_mode),
        cmocka_unit_test(test_scale_d_adds_the_accumulator_only_when_true),
        cmocka_unit_test(test_a_from_registers_agrees_and_imm_scale_a_negates_it),
        cmocka_unit_test(test_tf32_e4m3_and_s8_agree_with_the_product),
        cmocka_unit_test(test_e4m3_agrees_with_the_h200),
        cmocka_unit_test(test_the_descriptors_read_each_placed_chunk_once_per_warpgroup),
        cmocka_unit_test(test_a_base_offset_places_a_pattern_that_starts_off_its_boundary),
        cmocka_unit_test(test_a_descriptor_outside_shared_memory_is_a_fault_naming_the_line),
        cmocka_unit_test(test_an_accumulator_read_before_wait_group_is_reported),
        cmocka_unit_test(test_a_warpgroup_of_fewer_than_four_warps_is_a_fault),
        cmocka_unit_test(test_a_wgmma_keeps_all_its_accumulators_and_its_immediates),
        cmocka_unit_test(test_wgmma_forms_the_isa_does_not_have_are_parse_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ptx_free(module());
    return rc;
}
