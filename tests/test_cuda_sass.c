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
    assert_string_equal(why, ""); /* the caller names the evidence missing (check_explain.h) */
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


/* ---- with source lines: nvdisasm listings and -lineinfo PTX (.loc before instructions) ---- */

/* Memory instructions of function name counted straight from the PTX text: the lines
 * between its ".entry name(" and the closing "}" that start with op and name the space. */
static int count_ptx_lines(const char *text, const char *name, const char *op, const char *space)
{
    char head[160];
    snprintf(head, sizeof head, ".entry %s(", name);
    const char *p = strstr(text, head);
    assert_non_null(p);
    const char *end = strstr(p, "\n}");
    int n = 0;
    for (const char *l = p; l && l < end; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *q = l;
        while (*q == '\t' || *q == ' ') q++;
        if (*q == '@') { while (*q && *q != ' ' && *q != '\t') q++; while (*q == ' ' || *q == '\t') q++; }
        size_t ol = strlen(op);
        const char *e = strchr(q, '\n');
        if (!strncmp(q, op, ol) && q[ol] == '.' && (!space || (strstr(q, space) && (!e || strstr(q, space) < e)))) n++;
    }
    return n;
}

static void pair(const char *ptx_path, const char *sass_path, const char *fn, cu_access_summary *p,
                 cu_access_summary *s, char **ptx_text)
{
    char *pt = slurp(ptx_path), *st = slurp(sass_path);
    cu_ptx_summarize(pt, fn, p);
    cu_sass_summarize(st, fn, s);
    assert_true(p->found);
    assert_true(s->found);
    free(st);
    if (ptx_text) *ptx_text = pt;
    else free(pt);
}

/* matmul_tiled: nvcc -lineinfo puts a ".loc" line before most instructions. The PTX has
 * 2 x 32 ld.shared (As[ty][k], Bs[k][tx], k < 32 unrolled) and atomics none; the summary
 * must count every one, not skip those right after a .loc (the old bug said "ptxas added
 * accesses" where ptxas merged them). */
static void test_loc_lines_do_not_hide_the_instruction_after_them_and_the_merge_is_named(void **state)
{
    (void)state;
    cu_access_summary p, s;
    char *pt;
    pair("demos/matmul.ptx", "tests/data/sass/matmul.sass", "_Z12matmul_tiledPfS_S_iii", &p, &s, &pt);
    assert_non_null(strstr(pt, "\t.loc\t1 153"));
    assert_int_equal(cu_summary_total(&p, CU_SP_SHARED, CU_OP_LD), count_ptx_lines(pt, "_Z12matmul_tiledPfS_S_iii", "ld", ".shared"));
    assert_int_equal(cu_summary_total(&p, CU_SP_SHARED, CU_OP_LD), 64);
    assert_int_equal(cu_summary_total(&p, CU_SP_GLOBAL, CU_OP_LD), 2);
    /* the listing: 8 LDS.128 (As rows) and 32 LDS (Bs columns) */
    assert_int_equal(s.count[CU_SP_SHARED][CU_OP_LD][W16], 8);
    assert_int_equal(s.count[CU_SP_SHARED][CU_OP_LD][W4], 32);
    char why[384];
    assert_true(cu_sass_cause("smsp__sass_inst_executed_op_shared_ld.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "merged"));
    assert_null(strstr(why, "copies"));
    assert_non_null(strstr(why, "8 LDS.128"));
    assert_non_null(strstr(why, "64 ld.shared of 4 B"));
    free(pt);
}

/* probes.cu atomics: atomicAdd on a shared histogram, on a global sum and on hist[i]: three
 * atom/red in the PTX, each right after a .loc; the machine code has one ATOMS and two REDG
 * (results unused). Nothing differs, so no cause: the old bug reported "no atomics in the PTX". */
static void test_atomics_after_loc_lines_are_counted(void **state)
{
    (void)state;
    cu_access_summary p, s;
    char *pt;
    pair("tests/data/sass/probes.ptx", "tests/data/sass/probes.sass", "_Z7atomicsPKiPiS1_", &p, &s, &pt);
    int atom_lines = count_ptx_lines(pt, "_Z7atomicsPKiPiS1_", "atom", NULL) +
                     count_ptx_lines(pt, "_Z7atomicsPKiPiS1_", "red", NULL);
    assert_int_equal(atom_lines, 3);
    assert_int_equal(cu_summary_total(&p, CU_SP_SHARED, CU_OP_ATOM) + cu_summary_total(&p, CU_SP_GLOBAL, CU_OP_ATOM), 3);
    assert_int_equal(cu_summary_total(&s, CU_SP_SHARED, CU_OP_ATOM), 1);
    assert_int_equal(cu_summary_total(&s, CU_SP_GLOBAL, CU_OP_ATOM), 2);
    char why[384];
    assert_false(cu_sass_cause("smsp__sass_inst_executed_op_shared_atom.sum", &p, &s, why, sizeof why));
    free(pt);
}

/* probes.cu guarded: the PTX stores t[i] twice (0, then in[..] for i < LIM); ptxas keeps
 * one STS. */
static void test_a_removed_store_is_named_as_removed(void **state)
{
    (void)state;
    cu_access_summary p, s;
    pair("tests/data/sass/probes.ptx", "tests/data/sass/probes.sass", "_Z7guardedPKfPfi", &p, &s, NULL);
    assert_int_equal(cu_summary_total(&p, CU_SP_SHARED, CU_OP_ST), 2);
    assert_int_equal(cu_summary_total(&s, CU_SP_SHARED, CU_OP_ST), 1);
    char why[384];
    assert_true(cu_sass_cause("smsp__sass_inst_executed_op_shared_st.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "removed"));
    assert_non_null(strstr(why, "overwritten"));
}

/* matmul_naive: ptxas unrolls the PTX's k loop further: more LDG than ld.global. */
static void test_unrolled_copies_are_named_as_copies_that_need_not_change_counts(void **state)
{
    (void)state;
    cu_access_summary p, s;
    pair("demos/matmul.ptx", "tests/data/sass/matmul.sass", "_Z12matmul_naivePfS_S_iii", &p, &s, NULL);
    assert_true(cu_summary_total(&s, CU_SP_GLOBAL, CU_OP_LD) > cu_summary_total(&p, CU_SP_GLOBAL, CU_OP_LD));
    char why[384];
    assert_true(cu_sass_cause("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "copies"));
    assert_non_null(strstr(why, "unrolled"));
}

/* spills.cu spill_forced: no .local in the PTX; LDL/STL spill code in the machine code. */
static void test_real_spill_code_is_named_as_local_memory_the_ptx_lacks(void **state)
{
    (void)state;
    cu_access_summary p, s;
    pair("demos/spills.ptx", "tests/data/sass/spills.sass", "_Z12spill_forcedPKjS0_Pjii", &p, &s, NULL);
    assert_int_equal(cu_summary_total(&p, CU_SP_LOCAL, CU_OP_LD) + cu_summary_total(&p, CU_SP_LOCAL, CU_OP_ST), 0);
    char why[384];
    assert_true(cu_sass_cause("smsp__sass_inst_executed_op_local_st.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "register spills"));
    char want[64];
    snprintf(want, sizeof want, "%d LDL and %d STL", cu_summary_total(&s, CU_SP_LOCAL, CU_OP_LD),
             cu_summary_total(&s, CU_SP_LOCAL, CU_OP_ST));
    assert_non_null(strstr(why, want));
}

/* probes.cu generic_ld: *p with p a shared address in odd lanes and a global one in even
 * lanes: a generic ld in the PTX, a generic LD in the machine code. The PTX and the SASS
 * agree, yet the hardware counts that LD by the space each lane reaches. */
static void test_generic_loads_are_named_as_counted_by_the_space_they_reach(void **state)
{
    (void)state;
    cu_access_summary p, s;
    pair("tests/data/sass/probes.ptx", "tests/data/sass/probes.sass", "_Z10generic_ldPKfPf", &p, &s, NULL);
    assert_int_equal(cu_summary_total(&p, CU_SP_GENERIC, CU_OP_LD), 1);
    assert_int_equal(cu_summary_total(&s, CU_SP_GENERIC, CU_OP_LD), 1);
    char why[384];
    assert_true(cu_sass_cause("smsp__sass_inst_executed_op_shared_ld.sum", &p, &s, why, sizeof why));
    assert_non_null(strstr(why, "generic"));
    assert_non_null(strstr(why, "1 generic LD (the PTX 1 generic ld)"));
}

/* Equal counts, other widths: no pair of real compiler output shows it, so built by hand;
 * the sentence then only describes. */
static void test_same_count_other_widths_is_described_without_a_guess(void **state)
{
    (void)state;
    cu_access_summary p, s;
    memset(&p, 0, sizeof p);
    memset(&s, 0, sizeof s);
    p.found = s.found = true;
    p.count[CU_SP_SHARED][CU_OP_LD][W8] = 2;
    s.count[CU_SP_SHARED][CU_OP_LD][W4] = 1;
    s.count[CU_SP_SHARED][CU_OP_LD][W16] = 1;
    char why[384];
    assert_true(cu_sass_cause("smsp__sass_inst_executed_op_shared_ld.sum", &p, &s, why, sizeof why));
    assert_string_equal(why, "the machine code has 1 LDS, 1 LDS.128 where the PTX has 2 ld.shared of 8 B");
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
        cmocka_unit_test(test_loc_lines_do_not_hide_the_instruction_after_them_and_the_merge_is_named),
        cmocka_unit_test(test_atomics_after_loc_lines_are_counted),
        cmocka_unit_test(test_a_removed_store_is_named_as_removed),
        cmocka_unit_test(test_unrolled_copies_are_named_as_copies_that_need_not_change_counts),
        cmocka_unit_test(test_real_spill_code_is_named_as_local_memory_the_ptx_lacks),
        cmocka_unit_test(test_generic_loads_are_named_as_counted_by_the_space_they_reach),
        cmocka_unit_test(test_same_count_other_widths_is_described_without_a_guess),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
