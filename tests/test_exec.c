/* test_exec.c - single instructions (sim/interp/exec_alu.c, exec_mem.c, exec_warp.c)
 * on hand-written PTX: each case is a few lines computing r3 (and r4) from
 * a = in[t] and b = in[256 + t] (random 32-bit patterns; lanes 0-7 of a get
 * special floats from a .const table), and a plain-C reference computes what
 * the PTX ISA says the result is, lane by lane, for 256 threads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/interp/interp.h"
#include "op_examples.h"

#define NT 256

static const uint32_t specials[8] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,   /* +0 -0 +inf -inf */
    0x7fc00000u, 0x00000001u, 0x807fffffu, 0xbfc00000u,   /* nan, min subnormal, -max subnormal, -1.5 */
};

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

typedef struct { uint32_t r3, r4; } out2;
typedef out2 (*ref_fn)(uint32_t a, uint32_t b, int t);

/* Builds the kernel around body and runs 256 threads: 0, or -1 with err set. */
static int run_body(const char *body, ws_sim_result *res, ws_error *err, ptx_module **mod)
{
    char text[8192];
    snprintf(text, sizeof text,
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".const .align 4 .b32 special[8] = {0, 2147483648, 2139095040, 4286578688, 2143289344, 1, 2155872255, 3217031168};\n"
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .pred %%p<8>;\n  .reg .b16 %%h<8>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<16>;\n"
        "  .reg .f32 %%f<16>;\n  .reg .f64 %%fd<8>;\n"
        "  ld.param.u64 %%rd1, [pin];\n  ld.param.u64 %%rd2, [pout];\n"
        "  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd3, %%r1, 4;\n"
        "  add.s64 %%rd4, %%rd1, %%rd3;\n  add.s64 %%rd5, %%rd2, %%rd3;\n"
        "  ld.global.u32 %%r2, [%%rd4];\n  ld.global.u32 %%r5, [%%rd4+1024];\n"
        "  setp.lt.u32 %%p7, %%r1, 8;\n  mov.u64 %%rd6, special;\n  add.s64 %%rd7, %%rd6, %%rd3;\n"
        "  @%%p7 ld.const.u32 %%r2, [%%rd7];\n"
        "  mov.u32 %%r3, 0;\n  mov.u32 %%r4, 0;\n"
        "%s\n"
        "  st.global.u32 [%%rd5], %%r3;\n  st.global.u32 [%%rd5+1024], %%r4;\n  ret;\n}\n", body);
    ptx_module *m = ptx_parse("isa.ptx", text, err);
    if (!m) fail_msg("%s:%d:%d: %s\n%s", err->file, err->line, err->col, err->msg, body);
    *mod = m;
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = NT; L.block[1] = L.block[2] = 1;
    L.nbuffers = 2;
    snprintf(L.buffers[0].name, WS_NAME_MAX, "in");
    L.buffers[0].type = WS_TYPE_UINT; L.buffers[0].count = 2 * NT; L.buffers[0].bytes = 8 * NT;
    L.buffers[0].init = WS_INIT_RANDOM; L.buffers[0].seed = 11; L.buffers[0].lo = 0; L.buffers[0].hi = 4294967296.0;
    snprintf(L.buffers[1].name, WS_NAME_MAX, "out");
    L.buffers[1].type = WS_TYPE_UINT; L.buffers[1].count = 2 * NT; L.buffers[1].bytes = 8 * NT;
    L.nargs = 2;
    L.args[0].kind = WS_ARG_BUFFER; L.args[0].buffer = 0;
    L.args[1].kind = WS_ARG_BUFFER; L.args[1].buffer = 1;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = &L;
    return ws_sim_run(&cfg, res, err);
}

/* Runs body, checks every lane against ref. */
static void check(const char *body, ref_fn ref)
{
    ws_error err;
    ws_sim_result res;
    ptx_module *m;
    if (run_body(body, &res, &err, &m)) fail_msg("%s:%d: %s\n%s", err.file, err.line, err.msg, body);
    const uint32_t *in = res.buffer_data[0], *out = res.buffer_data[1];
    for (int t = 0; t < NT; t++) {
        uint32_t a = t < 8 ? specials[t] : in[t], b = in[NT + t];
        out2 want = ref(a, b, t);
        if (out[t] != want.r3 || out[NT + t] != want.r4)
            fail_msg("lane %d: a=0x%08x b=0x%08x: got r3=0x%08x r4=0x%08x, want 0x%08x 0x%08x\n%s", t, a, b,
                     out[t], out[NT + t], want.r3, want.r4, body);
    }
    ws_sim_result_free(&res);
    ptx_free(m);
}

#define O(x, y) ((out2){ (uint32_t)(x), (uint32_t)(y) })

/* --- integer ------------------------------------------------------------- */

static out2 r_add_sat(uint32_t a, uint32_t b, int t)
{
    (void)t;
    int64_t s = (int64_t)(int32_t)a + (int32_t)b;
    return O(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s, 0);
}
static void test_add_sat_clamps_to_the_s32_range(void **s)
{
    (void)s;
    check("add.sat.s32 %r3, %r2, %r5;", r_add_sat);
}

static out2 r_carry(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint64_t s = (uint64_t)a + b;
    return O(s, s >> 32);
}
static void test_add_cc_then_addc_carries_into_the_high_word(void **s)
{
    (void)s;
    check("add.cc.u32 %r3, %r2, %r5;\n addc.u32 %r4, 0, 0;", r_carry);
}

static out2 r_borrow(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint64_t x = (uint64_t)a << 32 | b, y = (uint64_t)b << 32 | a, d = x - y;
    return O(d, d >> 32);
}
static void test_sub_cc_then_subc_is_64_bit_subtraction(void **s)
{
    (void)s;
    check("sub.cc.u32 %r3, %r5, %r2;\n subc.u32 %r4, %r2, %r5;", r_borrow);
}

static out2 r_mad_wide(uint32_t a, uint32_t b, int t)
{
    uint64_t p = (uint64_t)a * b + (uint64_t)t;
    return O(p, p >> 32);
}
static void test_mad_wide_u32_and_vector_unpack_of_the_64_bit_result(void **s)
{
    (void)s;
    check("cvt.u64.u32 %rd8, %r1;\n mad.wide.u32 %rd9, %r2, %r5, %rd8;\n mov.b64 {%r3, %r4}, %rd9;", r_mad_wide);
}

static out2 r_mul24(uint32_t a, uint32_t b, int t)
{
    (void)t;
    int64_t x = (int32_t)(a << 8) >> 8, y = (int32_t)(b << 8) >> 8;
    uint64_t p = (uint64_t)(x * y);
    return O(p, p >> 16);
}
static void test_mul24_lo_and_hi_use_the_low_24_bits_signed(void **s)
{
    (void)s;
    check("mul24.lo.s32 %r3, %r2, %r5;\n mul24.hi.s32 %r4, %r2, %r5;", r_mul24);
}

static uint32_t ref_bfe(uint32_t a, uint32_t pos, uint32_t len, bool sgn)
{
    uint32_t r = 0, sbit = len == 0 ? 0 : (a >> (pos + len - 1 > 31 ? 31 : pos + len - 1)) & 1;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t bit = (i < len && pos + i <= 31) ? (a >> (pos + i)) & 1 : (sgn ? sbit : 0);
        r |= bit << i;
    }
    return r;
}
static out2 r_bfe(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint32_t pos = b & 31, len = (b >> 5) & 31;
    return O(ref_bfe(a, pos, len, false), ref_bfe(a, pos, len, true));
}
static void test_bfe_extracts_with_zero_or_sign_fill_per_the_isa_pseudocode(void **s)
{
    (void)s;
    check("and.b32 %r6, %r5, 31;\n shr.u32 %r7, %r5, 5;\n and.b32 %r7, %r7, 31;\n"
          " bfe.u32 %r3, %r2, %r6, %r7;\n bfe.s32 %r4, %r2, %r6, %r7;", r_bfe);
}

static out2 r_bfi(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint32_t pos = b & 31, len = (b >> 5) & 31, r = b;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++) r = (r & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return O(r, 0);
}
static void test_bfi_inserts_the_low_bits_of_a_into_b(void **s)
{
    (void)s;
    check("and.b32 %r6, %r5, 31;\n shr.u32 %r7, %r5, 5;\n and.b32 %r7, %r7, 31;\n"
          " bfi.b32 %r3, %r2, %r5, %r6, %r7;", r_bfi);
}

static out2 r_bfind(uint32_t a, uint32_t b, int t)
{
    (void)b; (void)t;
    uint32_t u = a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu;
    uint32_t x = (int32_t)a < 0 ? ~a : a;
    uint32_t sv = x ? 31u - (uint32_t)__builtin_clz(x) : 0xffffffffu;
    return O(u, sv == 0xffffffffu ? sv : 31 - sv);
}
static void test_bfind_finds_the_top_bit_and_the_top_non_sign_bit(void **s)
{
    (void)s;
    check("bfind.u32 %r3, %r2;\n bfind.shiftamt.s32 %r4, %r2;", r_bfind);
}

static out2 r_shifts(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint32_t n = b & 63, c = n > 32 ? 32 : n;
    uint64_t v = (uint64_t)b << 32 | a;
    int32_t sa = (int32_t)a;
    return O((uint32_t)(v >> c), n >= 32 ? (uint32_t)(sa < 0 ? -1 : 0) : (uint32_t)(sa >> n));
}
static void test_shf_r_clamp_and_shr_s32_saturate_large_shift_counts(void **s)
{
    (void)s;
    check("and.b32 %r6, %r5, 63;\n shf.r.clamp.b32 %r3, %r2, %r5, %r6;\n shr.s32 %r4, %r2, %r6;", r_shifts);
}

static out2 r_lop3(uint32_t a, uint32_t b, int t)
{
    uint32_t c = (uint32_t)t * 0x9e3779b9u;
    return O(a ^ b ^ c, (a & b) | (a & c) | (b & c));
}
static void test_lop3_computes_any_three_input_function_from_its_table(void **s)
{
    (void)s;
    check("mul.lo.u32 %r6, %r1, -1640531527;\n lop3.b32 %r3, %r2, %r5, %r6, 0x96;\n"
          " lop3.b32 %r4, %r2, %r5, %r6, 0xe8;", r_lop3);
}

static out2 r_cvt_int(uint32_t a, uint32_t b, int t)
{
    (void)b; (void)t;
    int32_t x = (int32_t)a;
    int32_t s8 = x > 127 ? 127 : x < -128 ? -128 : x;
    return O((uint32_t)s8 & 0xffffu, (uint32_t)(int32_t)(int8_t)(a & 0xff));
}
static void test_cvt_sat_narrows_with_clamping_and_widens_with_sign_extension(void **s)
{
    (void)s;
    /* cvt.sat.s8.s32 writes a 16-bit register: the low 16 bits of the clamped value */
    check("cvt.sat.s8.s32 %h1, %r2;\n cvt.u32.u16 %r3, %h1;\n cvt.s32.s8 %r4, %r2;", r_cvt_int);
}

static out2 r_set(uint32_t a, uint32_t b, int t)
{
    (void)t;
    bool lt = (int32_t)a < (int32_t)b, ult = a < b;
    return O(lt ? 0xffffffffu : 0, (lt && !ult) ? 1 : 0);
}
static void test_set_gives_all_ones_and_setp_combines_with_a_boolop(void **s)
{
    (void)s;
    check("set.lt.u32.s32 %r3, %r2, %r5;\n setp.lt.u32 %p2, %r2, %r5;\n"
          " setp.lt.and.s32 %p3|%p4, %r2, %r5, !%p2;\n selp.u32 %r4, 1, 0, %p3;", r_set);
}

static out2 r_dp4a(uint32_t a, uint32_t b, int t)
{
    int32_t s = t;
    for (int i = 0; i < 4; i++) s += (int32_t)(int8_t)(a >> (8 * i)) * (int32_t)((b >> (8 * i)) & 0xff);
    uint32_t h = (uint32_t)t;
    for (int i = 0; i < 2; i++) h += (uint32_t)((a >> (16 * i)) & 0xffff) * ((b >> (16 + 8 * i)) & 0xff);
    return O(s, h);
}
static void test_dp4a_and_dp2a_hi_sum_byte_and_halfword_products(void **s)
{
    (void)s;
    check("dp4a.s32.u32 %r3, %r2, %r5, %r1;\n dp2a.hi.u32.u32 %r4, %r2, %r5, %r1;", r_dp4a);
}

/* --- float ----------------------------------------------------------------- */

static float ftz(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static out2 r_ftz(uint32_t a, uint32_t b, int t)
{
    (void)t;
    float x = f32(a), y = f32(b & 0x807fffffu);          /* y: a subnormal (or zero) */
    return O(bits(ftz(ftz(x) + ftz(y))), bits(x + y));
}
static void test_ftz_flushes_subnormal_inputs_and_results(void **s)
{
    (void)s;
    check("and.b32 %r6, %r5, -2139095041;\n mov.b32 %f1, %r2;\n mov.b32 %f2, %r6;\n"
          " add.ftz.f32 %f3, %f1, %f2;\n add.f32 %f4, %f1, %f2;\n mov.b32 %r3, %f3;\n mov.b32 %r4, %f4;", r_ftz);
}

static out2 r_fma(uint32_t a, uint32_t b, int t)
{
    float x = f32(a), y = f32(b), z = (float)t * 0.37f;
    volatile float p = x * y;                            /* rounded, not fused */
    return O(bits(fmaf(x, y, z)), bits(p + z));
}
static void test_fma_is_fused_and_separate_mul_add_round_twice(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n cvt.rn.f32.u32 %f3, %r1;\n mul.rn.f32 %f3, %f3, 0f3EBD70A4;\n"
          " fma.rn.f32 %f4, %f1, %f2, %f3;\n mul.f32 %f5, %f1, %f2;\n add.f32 %f6, %f5, %f3;\n"
          " mov.b32 %r3, %f4;\n mov.b32 %r4, %f6;", r_fma);
}

static uint32_t canon(float x) { return isnan(x) ? 0x7fffffffu : bits(x); }

static out2 r_minmax(uint32_t a, uint32_t b, int t)
{
    (void)t;
    float x = f32(a), y = f32(b);
    float mn = isnan(x) ? y : isnan(y) ? x : (x == y ? (signbit(x) ? x : y) : (x < y ? x : y));
    float mx = isnan(x) ? y : isnan(y) ? x : (x == y ? (signbit(x) ? y : x) : (x > y ? x : y));
    return O(canon(mn), canon(mx));
}
static void test_min_max_f32_prefer_the_number_over_nan(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n min.f32 %f3, %f1, %f2;\n max.f32 %f4, %f1, %f2;\n"
          " mov.b32 %r3, %f3;\n mov.b32 %r4, %f4;\n"
          " testp.notanumber.f32 %p1, %f3;\n @%p1 mov.u32 %r3, 2147483647;\n"
          " testp.notanumber.f32 %p1, %f4;\n @%p1 mov.u32 %r4, 2147483647;", r_minmax);
}

static out2 r_testp(uint32_t a, uint32_t b, int t)
{
    (void)b; (void)t;
    float x = f32(a);
    return O((isfinite(x) != 0) | (fpclassify(x) == FP_SUBNORMAL) << 1 | (isinf(x) != 0) << 2 |
             (fpclassify(x) == FP_NORMAL) << 3,
             0);
}
static void test_testp_classifies_floats(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n testp.finite.f32 %p1, %f1;\n testp.subnormal.f32 %p2, %f1;\n"
          " testp.infinite.f32 %p3, %f1;\n testp.normal.f32 %p4, %f1;\n"
          " selp.u32 %r6, 1, 0, %p1;\n selp.u32 %r7, 2, 0, %p2;\n selp.u32 %r8, 4, 0, %p3;\n selp.u32 %r9, 8, 0, %p4;\n"
          " or.b32 %r3, %r6, %r7;\n or.b32 %r3, %r3, %r8;\n or.b32 %r3, %r3, %r9;", r_testp);
}

static out2 r_f2i(uint32_t a, uint32_t b, int t)
{
    (void)b; (void)t;
    float x = f32(a);
    int32_t rn = isnan(x) ? 0 : x >= 2147483648.0f ? INT32_MAX : x < -2147483648.0f ? INT32_MIN : (int32_t)rintf(x);
    uint32_t rz = isnan(x) || x <= 0 ? 0 : x >= 4294967296.0f ? 0xffffffffu : (uint32_t)x;
    return O(rn, rz);
}
static void test_float_to_int_rounds_and_saturates_and_maps_nan_to_zero(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n cvt.rni.s32.f32 %r3, %f1;\n cvt.rzi.u32.f32 %r4, %f1;", r_f2i);
}

static out2 r_half(uint32_t a, uint32_t b, int t)
{
    (void)t;
    float x = f32(a), y = f32(b);
    _Float16 hx = (_Float16)x, hy = (_Float16)y, sum = hx + hy;
    uint16_t u;
    memcpy(&u, &sum, 2);
    if (sum != sum) u = 0x7fff;                          /* the GPU's canonical half NaN */
    /* bf16: round to nearest even on the top 16 bits; NaN canonical */
    uint32_t bx = bits(x), bf = isnan(x) ? 0x7fff : (bx + 0x7fff + ((bx >> 16) & 1)) >> 16;
    return O(u, bf & 0xffff);
}
static void test_f16_add_and_bf16_conversion_round_to_nearest_even(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n cvt.rn.f16.f32 %h1, %f1;\n cvt.rn.f16.f32 %h2, %f2;\n"
          " add.rn.f16 %h3, %h1, %h2;\n cvt.u32.u16 %r3, %h3;\n cvt.rn.bf16.f32 %h4, %f1;\n cvt.u32.u16 %r4, %h4;", r_half);
}

static out2 r_div_sqrt(uint32_t a, uint32_t b, int t)
{
    (void)t;
    float x = f32(a), y = f32(b);
    return O(canon(x / y), canon(sqrtf(fabsf(x))));
}
static void test_div_rn_and_sqrt_rn_are_correctly_rounded(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n div.rn.f32 %f3, %f1, %f2;\n abs.f32 %f5, %f1;\n"
          " sqrt.rn.f32 %f4, %f5;\n mov.b32 %r3, %f3;\n mov.b32 %r4, %f4;\n"
          " testp.notanumber.f32 %p1, %f3;\n @%p1 mov.u32 %r3, 2147483647;\n"
          " testp.notanumber.f32 %p1, %f4;\n @%p1 mov.u32 %r4, 2147483647;", r_div_sqrt);
}

static out2 r_negabs(uint32_t a, uint32_t b, int t)
{
    (void)t;
    return O(a ^ 0x80000000u, (b & 0x80000000u) | (a & 0x7fffffffu));
}
static void test_neg_flips_and_copysign_copies_the_sign_bit_even_of_nan(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n neg.f32 %f3, %f1;\n copysign.f32 %f4, %f2, %f1;\n"
          " mov.b32 %r3, %f3;\n mov.b32 %r4, %f4;", r_negabs);
}

/* --- warp-level and memory ------------------------------------------------ */

static out2 r_match(uint32_t a, uint32_t b, int t)
{
    (void)a; (void)b;
    uint32_t key = (uint32_t)t % 32 % 5, m = 0;
    for (int l = 0; l < 32; l++) if ((uint32_t)l % 5 == key) m |= 1u << l;
    uint32_t sum = 0;
    for (int l = 0; l < 32; l++) sum += (uint32_t)l % 5;
    return O(m, sum);
}
static void test_match_any_groups_lanes_by_value_and_redux_sums_the_warp(void **s)
{
    (void)s;
    check("and.b32 %r6, %r1, 31;\n rem.u32 %r7, %r6, 5;\n match.any.sync.b32 %r3, %r7, -1;\n"
          " redux.sync.add.u32 %r4, %r7, -1;", r_match);
}

static out2 r_vote_div(uint32_t a, uint32_t b, int t)
{
    (void)a; (void)b;
    int l = t % 32;
    /* inside `if (lane & 1)`: ballot over odd lanes of lane >= 16, uni over the odd lanes */
    if (!(l & 1)) return O(0, 0);
    return O(0xaaaa0000u, 0);
}
static void test_ballot_in_a_divergent_branch_sees_only_the_active_lanes(void **s)
{
    (void)s;
    check("and.b32 %r6, %r1, 1;\n setp.eq.u32 %p1, %r6, 0;\n @%p1 bra SKIP;\n"
          " and.b32 %r7, %r1, 31;\n setp.ge.u32 %p2, %r7, 16;\n activemask.b32 %r8;\n"
          " vote.sync.ballot.b32 %r3, %p2, %r8;\n vote.sync.uni.pred %p3, %p2, %r8;\n selp.u32 %r4, 1, 0, %p3;\n"
          "SKIP:", r_vote_div);
}

static out2 r_generic(uint32_t a, uint32_t b, int t)
{
    (void)b;
    return O(a, (uint32_t)t * 3);
}
static void test_generic_loads_and_stores_reach_shared_and_local_through_cvta(void **s)
{
    (void)s;
    check(".shared .align 4 .b32 sm[256];\n .local .align 4 .b32 lo[4];\n"
          " mov.u64 %rd8, sm;\n cvta.shared.u64 %rd9, %rd8;\n add.s64 %rd9, %rd9, %rd3;\n"
          " st.u32 [%rd9], %r2;\n bar.sync 0;\n ld.u32 %r3, [%rd9];\n"
          " mov.u64 %rd10, lo;\n cvta.local.u64 %rd11, %rd10;\n mul.lo.u32 %r6, %r1, 3;\n"
          " st.u32 [%rd11+8], %r6;\n ld.local.u32 %r4, [lo+8];\n"
          " isspacep.shared %p1, %rd9;\n @!%p1 mov.u32 %r3, 0;", r_generic);
}

static out2 r_mad_cc(uint32_t a, uint32_t b, int t)
{
    (void)t;
    uint64_t s = (uint64_t)a * b + b;          /* < 2^64: (2^32-1)^2 + 2^32-1 */
    return O(s, s >> 32);
}
static void test_mad_lo_cc_then_madc_hi_is_the_64_bit_product_plus_addend(void **s)
{
    (void)s;
    check("mad.lo.cc.u32 %r3, %r2, %r5, %r5;\n madc.hi.u32 %r4, %r2, %r5, 0;", r_mad_cc);
}

static out2 r_mad_hi_sat(uint32_t a, uint32_t b, int t)
{
    (void)t;
    int64_t hi = ((int64_t)(int32_t)a * (int32_t)b) >> 32;   /* in [-2^30, 2^30] */
    int64_t s = hi + (int32_t)b;
    return O(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s, 0);
}
static void test_mad_hi_sat_s32_clamps_the_sum_to_the_s32_range(void **s)
{
    (void)s;
    check("mad.hi.sat.s32 %r3, %r2, %r5, %r5;", r_mad_hi_sat);
}

static out2 r_atom_half(uint32_t a, uint32_t b, int t)
{
    (void)a; (void)b; (void)t;
    /* 32 lanes each add f16 1.0 to {0.0, 0.5}: {32.0, 32.5}; bf16 counter: 32 x 0.5 = 16.0 */
    return O(0x50105000u, 0x4180u);
}
static void test_atom_add_on_f16x2_and_bf16_adds_as_floats(void **s)
{
    (void)s;
    check(".shared .align 4 .b32 cnt[16];\n"
          " shr.u32 %r6, %r1, 5;\n shl.b32 %r6, %r6, 3;\n cvt.u64.u32 %rd8, %r6;\n mov.u64 %rd9, cnt;\n"
          " add.s64 %rd9, %rd9, %rd8;\n"
          " st.shared.u32 [%rd9], 939524096;\n st.shared.u32 [%rd9+4], 0;\n bar.sync 0;\n"
          /* the two halves travel in a .b32 register: ptxas takes no integer literal for .f16x2 */
          " mov.b32 %r8, 1006648320;\n atom.shared.add.noftz.f16x2 %r7, [%rd9], %r8;\n"
          " mov.b16 %h1, 0x3f00;\n atom.shared.add.noftz.bf16 %h2, [%rd9+4], %h1;\n bar.sync 0;\n"
          " ld.shared.u32 %r3, [%rd9];\n ld.shared.u32 %r4, [%rd9+4];", r_atom_half);
}

/* IEEE binary16 to float, from the format: 1 sign, 5 exponent (bias 15), 10 fraction bits. */
static float half_value(uint32_t h)
{
    uint32_t e = (h >> 10) & 31, f = h & 1023;
    float v = e == 0 ? ldexpf((float)f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexpf((float)(f | 1024), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}
static out2 r_setp_f16x2(uint32_t a, uint32_t b, int t)
{
    (void)t;
    /* p compares the low halves, q the high halves (not the negation of p) */
    return O(half_value(a & 0xffff) < half_value(b & 0xffff), half_value(a >> 16) < half_value(b >> 16));
}
static void test_setp_f16x2_compares_low_halves_into_p_and_high_halves_into_q(void **s)
{
    (void)s;
    check("setp.lt.f16x2 %p1|%p2, %r2, %r5;\n selp.u32 %r3, 1, 0, %p1;\n selp.u32 %r4, 1, 0, %p2;", r_setp_f16x2);
}

static out2 r_set_f16x2(uint32_t a, uint32_t b, int t)
{
    (void)t;
    bool lo = half_value(a & 0xffff) < half_value(b & 0xffff), hi = half_value(a >> 16) < half_value(b >> 16);
    /* per half: 1.0 (f16 0x3c00) for a float destination, all ones for an integer one */
    return O((lo ? 0x3c00u : 0) | (hi ? 0x3c00u << 16 : 0), (lo ? 0xffffu : 0) | (hi ? 0xffff0000u : 0));
}
static void test_set_f16x2_sets_each_half_from_its_own_compare(void **s)
{
    (void)s;
    check("set.lt.f16x2.f16x2 %r3, %r2, %r5;\n set.lt.u32.f16x2 %r4, %r2, %r5;", r_set_f16x2);
    check("mov.b32 {%h1, %h2}, %r2;\n mov.b32 {%h3, %h4}, %r5;\n"
          " set.lt.f16.f16 %h5, %h1, %h3;\n set.lt.f16.f16 %h6, %h2, %h4;\n mov.b32 %r3, {%h5, %h6};\n"
          " set.lt.u32.f16 %r6, %h1, %h3;\n set.lt.u32.f16 %r7, %h2, %h4;\n"
          " and.b32 %r6, %r6, 65535;\n and.b32 %r7, %r7, -65536;\n or.b32 %r4, %r6, %r7;", r_set_f16x2);
}

static out2 r_cvt_bf16_u64(uint32_t a, uint32_t b, int t)
{
    (void)a; (void)b; (void)t;
    /* 2^62 + 2^54 + 1 is just above the midpoint between bf16 neighbours 2^62 and
     * 2^62 + 2^55: round to nearest gives 2^62 (1 + 2^-7) = 0x5e81; rounding to
     * double first (dropping the +1) would tie and round to even, 0x5e80. */
    return O(0x5e81u, 0x5e80u);
}
static void test_cvt_rn_bf16_u64_rounds_once_not_through_double(void **s)
{
    (void)s;
    check("mov.u64 %rd8, 4629700416936869889;\n cvt.rn.bf16.u64 %h1, %rd8;\n mov.b16 %h2, 0;\n"
          " mov.b32 %r3, {%h1, %h2};\n"
          " mov.u64 %rd9, 4629700416936869888;\n cvt.rn.bf16.u64 %h3, %rd9;\n mov.b32 %r4, {%h3, %h2};", r_cvt_bf16_u64);
}

/* --- cvt's packing and narrow-float forms ---------------------------------- */

static uint32_t ref_f16(float x, bool satfinite, bool relu)
{
    if (isnan(x)) return 0x7fff;                         /* the canonical half NaN */
    if (satfinite && fabsf(x) > 65504.0f) x = copysignf(65504.0f, x);
    _Float16 h = (_Float16)x;                            /* the C compiler's round to nearest even */
    uint16_t u;
    memcpy(&u, &h, 2);
    return relu && (u & 0x8000) ? 0 : u;
}
static uint32_t ref_bf16(float x)
{
    uint32_t u = bits(x);
    return isnan(x) ? 0x7fff : ((u + 0x7fff + ((u >> 16) & 1)) >> 16) & 0xffff;
}
static out2 r_pack(uint32_t a, uint32_t b, int t)
{
    (void)t;
    return O(ref_f16(f32(a), false, false) << 16 | ref_f16(f32(b), false, false), ref_bf16(f32(a)) << 16 | ref_bf16(f32(b)));
}
static void test_cvt_packs_two_f32_into_f16x2_and_bf16x2_with_a_in_the_upper_half(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n cvt.rn.f16x2.f32 %r3, %f1, %f2;\n cvt.rn.bf16x2.f32 %r4, %f1, %f2;",
          r_pack);
}
static out2 r_pack_relu_sat(uint32_t a, uint32_t b, int t)
{
    (void)t;
    return O(ref_f16(f32(a), true, true) << 16 | ref_f16(f32(b), true, true),
             ref_f16(f32(b), true, false) << 16 | ref_f16(f32(a), false, true));
}
static void test_cvt_pack_relu_clamps_negatives_and_satfinite_keeps_results_finite(void **s)
{
    (void)s;
    check("mov.b32 %f1, %r2;\n mov.b32 %f2, %r5;\n cvt.rn.relu.satfinite.f16x2.f32 %r3, %f1, %f2;\n"
          " cvt.rn.satfinite.f16.f32 %h1, %f2;\n cvt.rn.relu.f16.f32 %h2, %f1;\n mov.b32 %r4, {%h2, %h1};",
          r_pack_relu_sat);
}

/* Each pair (r3, r4) worked out by hand from the formats' definitions. */
static out2 r_const_3c007c00(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x3c007c00u, 0x7bfffbffu); }
static out2 r_const_bf16_ties(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x3f803f82u, 0x00007fffu); }
static out2 r_const_e4m3(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x38fe383au, 0x01007f7eu); }
static out2 r_const_e5m2(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x3c7b7b7fu, 0x3c00df00u); }
static out2 r_const_tf32(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x3f802000u, 0x3f800000u); }
static out2 r_const_tf32b(uint32_t a, uint32_t b, int t) { (void)a; (void)b; (void)t; return O(0x3f804000u, 0x7f7fe000u); }
static void test_cvt_narrow_floats_give_the_hand_computed_bit_patterns(void **s)
{
    (void)s;
    /* f16 rn: 1.0 -> 0x3c00; 65520 (halfway to 2^16) -> inf 0x7c00. satfinite: 65520 -> 65504 0x7bff,
       -1e6 -> -65504 0xfbff */
    check("cvt.rn.f16x2.f32 %r3, 0f3F800000, 0f477FF000;\n cvt.rn.satfinite.f16x2.f32 %r4, 0f477FF000, 0fC9742400;",
          r_const_3c007c00);
    /* bf16 ties to even: 1 + 2^-8 -> 1.0 (0x3f80); 1 + 3*2^-8 -> 1 + 2^-6 (0x3f82). relu: -2 -> 0, NaN stays NaN */
    check("cvt.rn.bf16x2.f32 %r3, 0f3F808000, 0f3F818000;\n cvt.rn.relu.bf16x2.f32 %r4, 0fC0000000, 0f7FC00000;",
          r_const_bf16_ties);
    /* e4m3 (bias 7, max 448): 1.0 -> 0x38, -3000 -> -448 0xfe; ties to even: 1.0625 -> 1.0 0x38,
       1.1875 -> 1.25 0x3a. 2^-9 -> the least subnormal 0x01, 2^-10 (a tie with 0) -> 0x00; NaN -> 0x7f,
       +inf -> 448 0x7e */
    check("cvt.rn.satfinite.e4m3x2.f32 %h1, 0f3F800000, 0fC53B8000;\n"
          " cvt.rn.satfinite.e4m3x2.f32 %h2, 0f3F880000, 0f3F980000;\n mov.b32 %r3, {%h2, %h1};\n"
          " cvt.rn.satfinite.e4m3x2.f32 %h3, 0f3B000000, 0f3A800000;\n"
          " cvt.rn.satfinite.e4m3x2.f32 %h4, 0f7FC00000, 0f7F800000;\n mov.b32 %r4, {%h4, %h3};",
          r_const_e4m3);
    /* e5m2 (bias 15, max 57344 = 0x7b): 1.0 -> 0x3c, 60000 -> 0x7b, +inf -> 0x7b, NaN -> 0x7f; from f16x2 {1.0,
       57344}. Back to f16x2: e4m3 {1.0, -448} = 0x38fe -> {0x3c00, -448 = 0xdf00} */
    check("cvt.rn.satfinite.e5m2x2.f32 %h1, 0f3F800000, 0f476A6000;\n"
          " cvt.rn.satfinite.e5m2x2.f32 %h2, 0f7F800000, 0f7FC00000;\n mov.b32 %r3, {%h2, %h1};\n"
          " mov.b16 %h3, 0x38fe;\n cvt.rn.f16x2.e4m3x2 %r4, %h3;", r_const_e5m2);
    /* tf32 (10 fraction bits): 1 + 2^-11 is a tie: .rna -> 1 + 2^-10 (0x3f802000), .rn -> 1.0 (even) */
    check("cvt.rna.tf32.f32 %r3, 0f3F801000;\n cvt.rn.tf32.f32 %r4, 0f3F801000;", r_const_tf32);
    /* 1 + 3*2^-11 ties to even 1 + 2^-9 (0x3f804000); satfinite: FLT_MAX would round to inf -> 0x7f7fe000 */
    check("cvt.rn.tf32.f32 %r3, 0f3F803000;\n cvt.rna.satfinite.tf32.f32 %r4, 0f7F7FFFFF;", r_const_tf32b);
}

static out2 r_e5m2_from_f16x2(uint32_t a, uint32_t b, int t)
{
    (void)b; (void)t;
    /* e5m2 is an f16 cut to its top byte: round the low byte to nearest even, saturating at 0x7b */
    uint16_t hv[2] = {(uint16_t)(a >> 16), (uint16_t)a}, out[2];
    for (int i = 0; i < 2; i++) {
        uint16_t h = hv[i], mag = h & 0x7fff, sign = h & 0x8000;
        if (mag > 0x7c00) { out[i] = 0x7f; continue; }
        uint32_t r = (mag + 0x7f + ((mag >> 8) & 1)) >> 8;
        if (r > 0x7b) r = 0x7b;                          /* satfinite (inf too) */
        out[i] = (uint16_t)(sign >> 8 | r);
    }
    return O(out[0] << 8 | out[1], 0);
}
static void test_cvt_e5m2x2_from_f16x2_rounds_each_half_to_its_top_byte(void **s)
{
    (void)s;
    check("cvt.rn.satfinite.e5m2x2.f16x2 %h1, %r2;\n cvt.u32.u16 %r3, %h1;", r_e5m2_from_f16x2);
}

static out2 r_fma_bf16(uint32_t a, uint32_t b, int t)
{
    (void)a; (void)b; (void)t;
    /* (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8 is a bf16 tie; + 2^-100 puts it above: 1 + 2^-3 + 2^-7 (0x3f91).
     * Without the addend the tie goes to even, 0x3f90. */
    return O(0x3f91u, 0x3f90u);
}
static void test_fma_rn_bf16_rounds_the_exact_sum_once(void **s)
{
    (void)s;
    check("mov.b16 %h1, 0x3f88;\n mov.b16 %h2, 0x0d80;\n mov.b16 %h3, 0;\n mov.b16 %h5, 0;\n"
          " fma.rn.bf16 %h4, %h1, %h1, %h2;\n mov.b32 %r3, {%h4, %h5};\n"
          " fma.rn.bf16 %h6, %h1, %h1, %h3;\n mov.b32 %r4, {%h6, %h5};", r_fma_bf16);
}

static void test_vector_atomics_are_refused_not_run_as_one_scalar_atomic(void **s)
{
    (void)s;
    /* atom.v2.f32.add adds two floats per lane; running it as one scalar add would
     * silently leave the second element alone, so the simulator must refuse it */
    const char *text =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 pin)\n{\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [pin];\n  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f40000000;\n"
        "  atom.global.v2.f32.add {%f3, %f4}, [%rd1], {%f1, %f2};\n  ret;\n}\n";
    ws_error err;
    ptx_module *m = ptx_parse("va.ptx", text, &err);
    if (!m) {                                    /* refusing it at parse time is as good */
        assert_non_null(strstr(err.msg, "atom"));
        return;
    }
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32; L.block[1] = L.block[2] = 1;
    L.nbuffers = 1;
    snprintf(L.buffers[0].name, WS_NAME_MAX, "in");
    L.buffers[0].type = WS_TYPE_FLOAT; L.buffers[0].count = 2; L.buffers[0].bytes = 8;
    L.nargs = 1;
    L.args[0].kind = WS_ARG_BUFFER; L.args[0].buffer = 0;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = &L;
    ws_sim_result res;
    int rc = ws_sim_run(&cfg, &res, &err);
    if (rc == 0) ws_sim_result_free(&res);
    ptx_free(m);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(err.msg, "vector atomic"));
}

static out2 r_setp_pq_c(uint32_t a, uint32_t b, int t)
{
    (void)t;
    bool lt = (int32_t)a < (int32_t)b, c = (a & 1) != 0;
    /* p = (a < b) and c, q = !(a < b) and c, both with c's value before the setp */
    return O(lt && c, !lt && c);
}
static void test_setp_p_q_with_q_also_the_boolop_source_uses_its_old_value(void **s)
{
    (void)s;
    check("and.b32 %r6, %r2, 1;\n setp.ne.u32 %p2, %r6, 0;\n"
          " setp.lt.and.s32 %p1|%p2, %r2, %r5, %p2;\n selp.u32 %r3, 1, 0, %p1;\n selp.u32 %r4, 1, 0, %p2;",
          r_setp_pq_c);
}

/* A row of sim/frontend/ptx_ops.h in the ALU class whose semantics exec_alu.c lacks would run
 * into "unsupported instruction"; each ALU opcode's example must run. */
static void test_every_alu_opcode_runs_its_example_without_an_unsupported_fault(void **s)
{
    (void)s;
    int n = 0;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        if (ptx_op_info((ptx_opcode)op)->cls != PTX_CLS_ALU) continue;
        const char *body = ws_op_example((ptx_opcode)op);
        if (!body) fail_msg("ALU opcode '%s' has no example in tests/op_examples.c", ptx_opcode_name((ptx_opcode)op));
        ws_error err;
        ws_sim_result res;
        ptx_module *m;
        if (run_body(body, &res, &err, &m)) fail_msg("'%s': %s", body, err.msg);
        ws_sim_result_free(&res);
        ptx_free(m);
        n++;
    }
    assert_true(n >= 40);                        /* the arithmetic, logic, compare and move rows */
    /* a combination with no semantics still faults when a warp reaches it, naming it */
    ws_error err;
    ws_sim_result res;
    ptx_module *m;
    assert_int_not_equal(run_body("rem.f32 %f3, %f1, %f2;", &res, &err, &m), 0);
    assert_non_null(strstr(err.msg, "unsupported instruction 'rem.f32 %f3, %f1, %f2'"));
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sat_clamps_to_the_s32_range),
        cmocka_unit_test(test_add_cc_then_addc_carries_into_the_high_word),
        cmocka_unit_test(test_sub_cc_then_subc_is_64_bit_subtraction),
        cmocka_unit_test(test_mad_wide_u32_and_vector_unpack_of_the_64_bit_result),
        cmocka_unit_test(test_mul24_lo_and_hi_use_the_low_24_bits_signed),
        cmocka_unit_test(test_bfe_extracts_with_zero_or_sign_fill_per_the_isa_pseudocode),
        cmocka_unit_test(test_bfi_inserts_the_low_bits_of_a_into_b),
        cmocka_unit_test(test_bfind_finds_the_top_bit_and_the_top_non_sign_bit),
        cmocka_unit_test(test_shf_r_clamp_and_shr_s32_saturate_large_shift_counts),
        cmocka_unit_test(test_lop3_computes_any_three_input_function_from_its_table),
        cmocka_unit_test(test_cvt_sat_narrows_with_clamping_and_widens_with_sign_extension),
        cmocka_unit_test(test_set_gives_all_ones_and_setp_combines_with_a_boolop),
        cmocka_unit_test(test_dp4a_and_dp2a_hi_sum_byte_and_halfword_products),
        cmocka_unit_test(test_ftz_flushes_subnormal_inputs_and_results),
        cmocka_unit_test(test_fma_is_fused_and_separate_mul_add_round_twice),
        cmocka_unit_test(test_min_max_f32_prefer_the_number_over_nan),
        cmocka_unit_test(test_testp_classifies_floats),
        cmocka_unit_test(test_float_to_int_rounds_and_saturates_and_maps_nan_to_zero),
        cmocka_unit_test(test_f16_add_and_bf16_conversion_round_to_nearest_even),
        cmocka_unit_test(test_div_rn_and_sqrt_rn_are_correctly_rounded),
        cmocka_unit_test(test_neg_flips_and_copysign_copies_the_sign_bit_even_of_nan),
        cmocka_unit_test(test_match_any_groups_lanes_by_value_and_redux_sums_the_warp),
        cmocka_unit_test(test_ballot_in_a_divergent_branch_sees_only_the_active_lanes),
        cmocka_unit_test(test_generic_loads_and_stores_reach_shared_and_local_through_cvta),
        cmocka_unit_test(test_mad_lo_cc_then_madc_hi_is_the_64_bit_product_plus_addend),
        cmocka_unit_test(test_mad_hi_sat_s32_clamps_the_sum_to_the_s32_range),
        cmocka_unit_test(test_atom_add_on_f16x2_and_bf16_adds_as_floats),
        cmocka_unit_test(test_setp_f16x2_compares_low_halves_into_p_and_high_halves_into_q),
        cmocka_unit_test(test_set_f16x2_sets_each_half_from_its_own_compare),
        cmocka_unit_test(test_cvt_rn_bf16_u64_rounds_once_not_through_double),
        cmocka_unit_test(test_cvt_packs_two_f32_into_f16x2_and_bf16x2_with_a_in_the_upper_half),
        cmocka_unit_test(test_cvt_pack_relu_clamps_negatives_and_satfinite_keeps_results_finite),
        cmocka_unit_test(test_cvt_narrow_floats_give_the_hand_computed_bit_patterns),
        cmocka_unit_test(test_cvt_e5m2x2_from_f16x2_rounds_each_half_to_its_top_byte),
        cmocka_unit_test(test_fma_rn_bf16_rounds_the_exact_sum_once),
        cmocka_unit_test(test_vector_atomics_are_refused_not_run_as_one_scalar_atomic),
        cmocka_unit_test(test_setp_p_q_with_q_also_the_boolop_source_uses_its_old_value),
        cmocka_unit_test(test_every_alu_opcode_runs_its_example_without_an_unsupported_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
