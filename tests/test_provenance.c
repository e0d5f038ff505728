/* test_provenance.c - which generic-address atomics are proven to address shared memory
 * (sim/frontend/provenance.h), on PTX written the way nvcc 13 writes it: libcu++'s
 * cuda::pipeline_shared_state counter (mov.u32 of the variable, cvt, cvta.shared in a scope of its
 * own, add of the field's offset), pointer arithmetic on it, and every way a register can stop
 * being provably shared: a parameter, a load, a select or a second definition from one, a 32-bit
 * copy, a vector, a called function's parameter. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/frontend/provenance.h"
#include "../sim/frontend/ptx.h"

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"
/* a kernel with a pointer parameter p, a 72-byte shared variable sh, and %rd1 = its generic address */
#define ENTRY ".visible .entry k(.param .u64 p)\n{\n" \
              "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n" \
              "  .shared .align 8 .b8 sh[72];\n"
#define SHARED_RD1 "  mov.u64 %rd9, sh;\n  cvta.shared.u64 %rd1, %rd9;\n"

static ptx_module *parse(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("test.ptx", text, &err);
    if (!m) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

/* The flag ws_provenance_shared gives the last atom/red of the kernel whose body is body. */
static int last_atomic_proven(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s%s  ret;\n}\n", HEADER, ENTRY, body);
    ptx_module *m = parse(text);
    const ptx_function *fn = &m->funcs[0];
    uint8_t *out = calloc((size_t)fn->ninsns, 1);
    assert_non_null(out);
    assert_true(ws_provenance_shared(fn, out) >= 0);
    int pc = -1;
    for (int i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].op == PTX_ATOM || fn->insns[i].op == PTX_RED) pc = i;
    assert_true(pc >= 0);
    int r = out[pc];
    free(out);
    ptx_free(m);
    return r;
}

static void test_the_pipeline_shared_state_counter_nvcc_13_writes_is_proven_shared(void **state)
{
    (void)state;
    /* MatrixMulAsyncCopyMultiStageSharedState's PTX (cuda-samples globalToShmemAsyncCopy), as
       nvcc 13.0 emits it: the %tmp of each inline-asm scope is a register of its own */
    assert_int_equal(last_atomic_proven("  mov.u32 %r1, sh;\n"
                                        "  { .reg .b64 %tmp;\n    cvt.u64.u32 %tmp, %r1;\n"
                                        "    cvta.shared.u64 %rd2, %tmp; }\n"
                                        "  add.s64 %rd3, %rd2, 64;\n"
                                        "  { .reg .b64 %tmp;\n    ld.param.u64 %tmp, [p];\n    mov.b64 %rd4, %tmp; }\n"
                                        "  atom.add.relaxed.cta.u32 %r2, [%rd3], 1;\n"),
                     1);
}

static void test_a_shared_variables_address_made_generic_is_proven_shared(void **state)
{
    (void)state;
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  atom.add.u32 %r1, [%rd1+4], 1;\n"), 1);
    assert_int_equal(last_atomic_proven("  cvta.shared.u64 %rd1, sh+8;\n  red.add.u32 [%rd1], 1;\n"), 1);
    /* generic to shared and back */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  cvta.to.shared.u64 %rd2, %rd1;\n  add.s64 %rd2, %rd2, 16;\n"
                                                   "  cvta.shared.u64 %rd3, %rd2;\n  atom.exch.b32 %r1, [%rd3], 1;\n"),
                     1);
}

static void test_a_shared_offset_used_as_a_generic_address_is_not_proven(void **state)
{
    (void)state;
    /* mov of a .shared variable gives its offset in the shared window; as a generic address it is
       a low global one */
    assert_int_equal(last_atomic_proven("  mov.u64 %rd1, sh;\n  atom.add.u32 %r1, [%rd1], 1;\n"), 0);
    /* a 32-bit generic address (cvta.shared.u32): not a 64-bit one */
    assert_int_equal(last_atomic_proven("  cvta.shared.u32 %r3, sh;\n  atom.add.u32 %r1, [%r3], 1;\n"), 0);
}

static void test_pointer_arithmetic_with_an_integer_offset_keeps_it_shared(void **state)
{
    (void)state;
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  mov.u32 %r2, %tid.x;\n  mad.wide.u32 %rd2, %r2, 4, %rd1;\n"
                                                   "  sub.s64 %rd3, %rd2, 8;\n  atom.add.u32 %r1, [%rd3], 1;\n"),
                     1);
    /* the offset from a parameter: an integer still (the run-time check guards the window) */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  ld.param.u64 %rd5, [p];\n  add.s64 %rd2, %rd5, %rd1;\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n"),
                     1);
    /* a loop's pointer: its own increment keeps what enters the loop */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  mov.u64 %rd2, %rd1;\n  mov.u32 %r2, 0;\n$L_top:\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n  add.s64 %rd2, %rd2, 4;\n"
                                                   "  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 8;\n"
                                                   "  @%p1 bra $L_top;\n"),
                     1);
}

static void test_arithmetic_that_is_no_pointer_plus_an_offset_is_not_proven(void **state)
{
    (void)state;
    /* two shared addresses added; an address subtracted from an integer; one scaled */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  add.s64 %rd2, %rd1, %rd1;\n  atom.add.u32 %r1, [%rd2], 1;\n"), 0);
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  ld.param.u64 %rd5, [p];\n  sub.s64 %rd2, %rd5, %rd1;\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n"),
                     0);
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  mad.lo.s64 %rd2, %rd1, 2, 0;\n  atom.add.u32 %r1, [%rd2], 1;\n"), 0);
    /* through 32 bits and back: the window's high bits are gone */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  cvt.u32.u64 %r3, %rd1;\n  cvt.u64.u32 %rd2, %r3;\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n"),
                     0);
    /* split into a vector and packed again */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  mov.b64 {%r3, %r4}, %rd1;\n  mov.b64 %rd2, {%r3, %r4};\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n"),
                     0);
}

static void test_a_kernel_parameter_a_load_or_cvta_global_is_not_proven(void **state)
{
    (void)state;
    assert_int_equal(last_atomic_proven("  ld.param.u64 %rd1, [p];\n  atom.add.u32 %r1, [%rd1], 1;\n"), 0);
    assert_int_equal(last_atomic_proven("  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                                        "  cvta.global.u64 %rd3, %rd2;\n  atom.add.u32 %r1, [%rd3], 1;\n"),
                     0);
    /* a generic shared address kept in memory and read back */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  st.shared.u64 [sh], %rd1;\n  ld.shared.u64 %rd2, [sh];\n"
                                                   "  atom.add.u32 %r1, [%rd2], 1;\n"),
                     0);
}

static void test_a_select_or_second_definition_with_a_global_side_is_not_proven(void **state)
{
    (void)state;
    const char *both = SHARED_RD1 "  add.s64 %rd2, %rd1, 8;\n  setp.eq.u32 %p1, %r9, 0;\n"
                                  "  selp.b64 %rd3, %rd1, %rd2, %p1;\n  atom.add.u32 %r1, [%rd3], 1;\n";
    assert_int_equal(last_atomic_proven(both), 1); /* both sides shared */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  ld.param.u64 %rd2, [p];\n  setp.eq.u32 %p1, %r9, 0;\n"
                                                   "  selp.b64 %rd3, %rd1, %rd2, %p1;\n  atom.add.u32 %r1, [%rd3], 1;\n"),
                     0);
    /* nvcc's join of two sides: one register written on each; and what is computed from it */
    assert_int_equal(last_atomic_proven(SHARED_RD1 "  setp.eq.u32 %p1, %r9, 0;\n  mov.u64 %rd3, %rd1;\n"
                                                   "  @%p1 bra $L_join;\n  ld.param.u64 %rd3, [p];\n$L_join:\n"
                                                   "  add.s64 %rd4, %rd3, 4;\n  atom.add.u32 %r1, [%rd4], 1;\n"),
                     0);
}

static void test_a_pointer_passed_to_a_called_function_is_not_proven_there(void **state)
{
    (void)state;
    /* the callee sees a .param: not followed across the call */
    ptx_module *m = parse(HEADER ".func f(.param .b64 a)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
                                 "  ld.param.u64 %rd1, [a];\n  atom.add.u32 %r1, [%rd1], 1;\n  ret;\n}\n"
                                 ENTRY SHARED_RD1 "  { .param .b64 a0;\n  st.param.b64 [a0], %rd1;\n"
                                 "  call f, (a0);\n  }\n  ret;\n}\n");
    const ptx_function *f = ptx_find_function(m, "f");
    assert_non_null(f);
    uint8_t out[8] = {0};
    assert_true(f->ninsns <= 8);
    assert_int_equal(ws_provenance_shared(f, out), 0);
    ptx_free(m);
}

static void test_generic_loads_and_stores_are_flagged_as_well(void **state)
{
    (void)state;
    ptx_module *m = parse(HEADER ENTRY SHARED_RD1 "  st.relaxed.cta.b32 [%rd1+64], 0;\n"
                                                 "  ld.relaxed.cta.b32 %r1, [%rd1+64];\n"
                                                 "  ld.global.u32 %r2, [%rd1];\n  ret;\n}\n");
    const ptx_function *fn = &m->funcs[0];
    uint8_t out[16] = {0};
    assert_true(fn->ninsns <= 16);
    assert_int_equal(ws_provenance_shared(fn, out), 2); /* the st and the ld; ld.global names its space */
    assert_int_equal(out[2] + out[3], 2);
    assert_int_equal(out[4], 0);
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_pipeline_shared_state_counter_nvcc_13_writes_is_proven_shared),
        cmocka_unit_test(test_a_shared_variables_address_made_generic_is_proven_shared),
        cmocka_unit_test(test_a_shared_offset_used_as_a_generic_address_is_not_proven),
        cmocka_unit_test(test_pointer_arithmetic_with_an_integer_offset_keeps_it_shared),
        cmocka_unit_test(test_arithmetic_that_is_no_pointer_plus_an_offset_is_not_proven),
        cmocka_unit_test(test_a_kernel_parameter_a_load_or_cvta_global_is_not_proven),
        cmocka_unit_test(test_a_select_or_second_definition_with_a_global_side_is_not_proven),
        cmocka_unit_test(test_a_pointer_passed_to_a_called_function_is_not_proven_there),
        cmocka_unit_test(test_generic_loads_and_stores_are_flagged_as_well),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
