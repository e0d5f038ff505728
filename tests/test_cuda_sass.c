/* test_cuda_sass.c - PTX and SASS access summaries on recorded compiler output
 * (tests/data/sass/, from real nvcc/ptxas/cuobjdump runs) and the cause
 * sentences `check` derives from them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cuda/cu_sass.h"
#include "../common/files.h"

static char *slurp(const char *path)
{
    char *text = ws_read_file(path, 0, NULL, NULL);
    assert_non_null(text);
    return text;
}

#define W1 0
#define W2 1
#define W4 2
#define W8 3
#define W16 4

static char *ptx, *sass;

static int setup(void **state)
{
    (void)state;
    ptx = slurp("tests/data/sass/access_kinds.ptx");
    sass = slurp("tests/data/sass/access_kinds.sass");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(ptx);
    free(sass);
    return 0;
}

static void test_width_index_covers_the_five_access_sizes(void **state)
{
    (void)state;
    assert_int_equal(cu_width_index(1), 0);
    assert_int_equal(cu_width_index(16), 4);
    assert_int_equal(cu_width_index(3), -1);
    assert_int_equal(cu_width_index(32), -1);
}

/* shared_sum4: t[b] + t[b+1] + t[b+2] + t[b+3] is four 4-byte shared loads in PTX
 * at offsets 0,4,8,12 of a 16-byte aligned address; ptxas makes one LDS.128. */
static void test_four_shared_float_loads_become_one_lds128(void **state)
{
    (void)state;
    cu_access_summary p, s;
    cu_ptx_summarize(ptx, "_Z11shared_sum4PKfPf", &p);
    cu_sass_summarize(sass, "_Z11shared_sum4PKfPf", &s);
    assert_true(p.found);
    assert_true(s.found);
    assert_int_equal(p.count[CU_SP_SHARED][CU_OP_LD][W4], 4);
    assert_int_equal(cu_summary_total(&p, CU_SP_SHARED, CU_OP_LD), 4);
    assert_int_equal(s.count[CU_SP_SHARED][CU_OP_LD][W16], 1);
    assert_int_equal(cu_summary_total(&s, CU_SP_SHARED, CU_OP_LD), 1);
    /* the parameter loads (ld.param) and constant loads (LDC) are not LSU traffic */
    assert_int_equal(p.count[CU_SP_GLOBAL][CU_OP_LD][W4], 1);
    assert_int_equal(s.count[CU_SP_GLOBAL][CU_OP_LD][W4], 1);
    assert_int_equal(p.count[CU_SP_SHARED][CU_OP_ST][W4], 1);
    assert_int_equal(s.count[CU_SP_SHARED][CU_OP_ST][W4], 1);
    char why[384];
    assert_true(cu_sass_cause("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "1 LDS.128"));
    assert_non_null(strstr(why, "4 ld.shared of 4 B"));
    assert_non_null(strstr(why, "merged"));
    /* the global side is identical: no cause to name there */
    assert_false(cu_sass_cause("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", &p, &s, why, sizeof why));
    assert_string_equal(why, "unexplained");
}

/* local_idx: a 16-float array indexed by data is in .local in the PTX (four
 * st.local.v4.f32 and one ld.local.f32) but ptxas keeps it in registers. */
static void test_local_array_promoted_to_registers_is_named(void **state)
{
    (void)state;
    cu_access_summary p, s;
    cu_ptx_summarize(ptx, "_Z9local_idxPKiPf", &p);
    cu_sass_summarize(sass, "_Z9local_idxPKiPf", &s);
    assert_int_equal(p.count[CU_SP_LOCAL][CU_OP_ST][W16], 4);
    assert_int_equal(p.count[CU_SP_LOCAL][CU_OP_LD][W4], 1);
    assert_int_equal(cu_summary_total(&s, CU_SP_LOCAL, CU_OP_LD) + cu_summary_total(&s, CU_SP_LOCAL, CU_OP_ST), 0);
    char why[384];
    assert_true(cu_sass_cause("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "registers"));
    assert_non_null(strstr(why, "1 ld.local and 4 st.local"));
}

/* atomics: 1-byte global load (LDG.E.U8), 2-byte store (STG.E.U16), a shared
 * atomic (ATOMS) and a global float atomic whose result is unused (REDG). */
static void test_narrow_accesses_and_atomics_are_classified(void **state)
{
    (void)state;
    cu_access_summary p, s;
    cu_ptx_summarize(ptx, "_Z7atomicsPfPKhPs", &p);
    cu_sass_summarize(sass, "_Z7atomicsPfPKhPs", &s);
    assert_int_equal(p.count[CU_SP_GLOBAL][CU_OP_LD][W1], 1);
    assert_int_equal(s.count[CU_SP_GLOBAL][CU_OP_LD][W1], 1);
    assert_int_equal(p.count[CU_SP_GLOBAL][CU_OP_ST][W2], 1);
    assert_int_equal(s.count[CU_SP_GLOBAL][CU_OP_ST][W2], 1);
    assert_int_equal(p.count[CU_SP_SHARED][CU_OP_ATOM][W4], 1);
    assert_int_equal(s.count[CU_SP_SHARED][CU_OP_ATOM][W4], 1);
    assert_int_equal(p.count[CU_SP_GLOBAL][CU_OP_ATOM][W4], 1);
    assert_int_equal(s.count[CU_SP_GLOBAL][CU_OP_ATOM][W4], 1);
}

static void test_copy_kernel_has_no_difference_and_missing_function_is_not_found(void **state)
{
    (void)state;
    cu_access_summary p, s;
    cu_ptx_summarize(ptx, "copy_f", &p);
    cu_sass_summarize(sass, "copy_f", &s);
    assert_true(p.found && s.found);
    assert_memory_equal(p.count, s.count, sizeof p.count);
    assert_int_equal(cu_summary_total(&p, CU_SP_GLOBAL, CU_OP_LD), 1);
    cu_sass_summarize(sass, "copy", &s); /* a prefix of a name is not the name */
    assert_false(s.found);
    cu_ptx_summarize(ptx, "copy", &p);
    assert_false(p.found);
}

static void test_spills_in_sass_are_named_as_local_memory_the_ptx_lacks(void **state)
{
    (void)state;
    const char *spill_sass =
        "\t\tFunction : k\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n"
        "                                                           /* 0x000fe20000000800 */\n"
        "        /*0010*/                   STL [R1+0x4], R20 ;     /* 0x0000041401007387 */\n"
        "        /*0020*/              @!P0 STL.64 [R1+0x8], R2 ;   /* 0x0000080201007387 */\n"
        "        /*0030*/                   LDL.LU R20, [R1+0x4] ; /* 0x0000040001147983 */\n"
        "        /*0040*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;\n"
        "        /*0050*/                   EXIT ;\n";
    const char *plain_ptx = ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b64 %rd<3>;\n"
                            "$L__BB0_1:\n\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]; // load\n\tret;\n}\n";
    cu_access_summary p, s;
    cu_sass_summarize(spill_sass, "k", &s);
    cu_ptx_summarize(plain_ptx, "k", &p);
    assert_int_equal(s.count[CU_SP_LOCAL][CU_OP_ST][W4], 1);
    assert_int_equal(s.count[CU_SP_LOCAL][CU_OP_ST][W8], 1);
    assert_int_equal(s.count[CU_SP_LOCAL][CU_OP_LD][W4], 1);
    assert_int_equal(s.count[CU_SP_GLOBAL][CU_OP_LD][W16], 1);
    assert_int_equal(p.count[CU_SP_GLOBAL][CU_OP_LD][W16], 1);
    char why[384];
    assert_true(cu_sass_cause("l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "1 LDL and 2 STL"));
    assert_non_null(strstr(why, "spills"));
}

static void test_metric_names_map_to_their_space(void **state)
{
    (void)state;
    cu_space sp;
    cu_op op;
    assert_true(cu_metric_space("smsp__sass_inst_executed_op_shared_st.sum", &sp, &op));
    assert_int_equal(sp, CU_SP_SHARED);
    assert_int_equal(op, CU_OP_ST);
    assert_true(cu_metric_space("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", &sp, &op));
    assert_int_equal(sp, CU_SP_GLOBAL);
    assert_int_equal(op, CU_OP_LD);
    assert_true(cu_metric_space("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &sp, &op));
    assert_int_equal(sp, CU_SP_SHARED);
    assert_false(cu_metric_space("dram__bytes_read.sum", &sp, &op));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width_index_covers_the_five_access_sizes),
        cmocka_unit_test(test_four_shared_float_loads_become_one_lds128),
        cmocka_unit_test(test_local_array_promoted_to_registers_is_named),
        cmocka_unit_test(test_narrow_accesses_and_atomics_are_classified),
        cmocka_unit_test(test_copy_kernel_has_no_difference_and_missing_function_is_not_found),
        cmocka_unit_test(test_spills_in_sass_are_named_as_local_memory_the_ptx_lacks),
        cmocka_unit_test(test_metric_names_map_to_their_space),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
