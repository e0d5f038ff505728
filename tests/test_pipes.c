/* test_pipes.c - the arithmetic pipe of SASS and PTX instructions (sim/models/pipes.h): the
 * classes of Nsight Compute's pipes and the CUDA C Programming Guide's throughput table, as the
 * H200 probe's ncu counters put each opcode (results/h200-latency/pipes-ncu.csv). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../sim/models/pipes.h"

static void test_sass_opcodes_go_to_the_pipes_ncu_counts_them_on(void **state)
{
    (void)state;
    assert_int_equal(ws_pipe_of_sass("IADD3 R1, R2, R3, RZ"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("LOP3.LUT R4, R4, 0x3, RZ, 0xc0, !PT"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("SHF.L.U32 R0, R0, 0x2, RZ"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("ISETP.GE.AND P0, PT, R0, c[0x0][0x168], PT"), WS_PIPE_ALU);
    /* ptxas's integer adds on fma-heavy (ncu: fmaheavy counts them) */
    assert_int_equal(ws_pipe_of_sass("@!P0 IMAD.IADD R1, R2, 0x1, R3"), WS_PIPE_FMAHEAVY);
    assert_int_equal(ws_pipe_of_sass("VIADD R5, R5, 0x1"), WS_PIPE_FMAHEAVY);
    assert_int_equal(ws_pipe_of_sass("IMAD.WIDE R2, R0, 0x4, R2"), WS_PIPE_FMAHEAVY);
    assert_int_equal(ws_pipe_of_sass("FFMA R1, R2, R3, R4"), WS_PIPE_FMA);
    assert_int_equal(ws_pipe_of_sass("HFMA2 R1, R2, R3, R4"), WS_PIPE_FMA);
    /* ptxas's zeroing move on the MMA datapath: ncu's fma pipe count leaves it out (results/h200-inst) */
    assert_int_equal(ws_pipe_of_sass("HFMA2.MMA R1, -RZ, RZ, 0, 0"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("@!P0 HFMA2.MMA R8, -RZ, RZ, 0, 0"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("DFMA R2, R4, R6, R2"), WS_PIPE_FP64);
    assert_int_equal(ws_pipe_of_sass("MUFU.EX2 R1, R2"), WS_PIPE_XU);
    assert_int_equal(ws_pipe_of_sass("F2I.TRUNC.NTZ R1, R2"), WS_PIPE_XU);
    /* sm_86+'s integer -> float conversion runs on the ALU, I2F on XU (results/h200-cluster/round3) */
    assert_int_equal(ws_pipe_of_sass("I2FP.F32.U32 R3, R2"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("I2F.U32 R3, R2"), WS_PIPE_XU);
    assert_int_equal(ws_pipe_of_sass("@P1 POPC R1, R2"), WS_PIPE_XU);
    /* ncu's per-instruction counts of 9 corpus kernels (results/h200-corpus-detail): the ALU count is
       the ALU opcodes' executions plus exactly the CS2R ..., SRZ ones, and myHGEMMAlignedV5's one
       VIMNMX moves 16 from fma to alu; a CS2R of a timer register is not measured */
    assert_int_equal(ws_pipe_of_sass("CS2R R4, SRZ"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("@!P2 CS2R R10, SRZ"), WS_PIPE_ALU);
    assert_int_equal(ws_pipe_of_sass("CS2R R6, SR_GLOBALTIMERLO"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("VIMNMX R3, R2, 0x10, PT"), WS_PIPE_ALU);
    /* memory, control and uniform-datapath instructions take only their issue slot */
    assert_int_equal(ws_pipe_of_sass("LDG.E R1, desc[UR4][R2.64]"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("BRA 0x70"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("UIADD3 UR4, UR4, 0x1, URZ"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass("IADD3X"), WS_PIPE_NONE); /* a prefix is not the opcode */
    assert_int_equal(ws_pipe_of_sass(""), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_of_sass(NULL), WS_PIPE_NONE);
}

static ptx_insn insn(ptx_opcode op, ptx_type t, ptx_type t2)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.type = t;
    in.type2 = t2;
    return in;
}

static void test_ptx_opcodes_go_to_the_pipe_of_what_ptxas_makes_of_them(void **state)
{
    (void)state;
    ptx_insn in = insn(PTX_ADD, PTX_T_S32, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_ALU);
    in = insn(PTX_ADD, PTX_T_F32, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_FMA);
    in = insn(PTX_MAD, PTX_T_S32, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_FMAHEAVY);
    in = insn(PTX_FMA, PTX_T_F64, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_FP64);
    in = insn(PTX_EX2, PTX_T_F32, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_XU);
    in = insn(PTX_CVT, PTX_T_F32, PTX_T_S32);   /* int -> float: I2F */
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_XU);
    in = insn(PTX_CVT, PTX_T_U64, PTX_T_U32);   /* widening: a move */
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_ALU);
    in = insn(PTX_LD, PTX_T_U32, PTX_T_NONE);
    assert_int_equal(ws_pipe_of_ptx(&in), WS_PIPE_NONE);
}

static void test_ptx_counts_are_the_warp_counts_of_each_pipe(void **state)
{
    (void)state;
    ptx_insn code[3] = {insn(PTX_ADD, PTX_T_S32, PTX_T_NONE), insn(PTX_FMA, PTX_T_F32, PTX_T_NONE),
                        insn(PTX_ADD, PTX_T_U32, PTX_T_NONE)};
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.insns = code;
    fn.ninsns = 3;
    uint64_t counts[3] = {5, 7, 11}, out[WS_PIPE_COUNT];
    ws_pipe_ptx_insns(&fn, counts, out);
    assert_int_equal(out[WS_PIPE_ALU], 16);
    assert_int_equal(out[WS_PIPE_FMA], 7);
    assert_int_equal(out[WS_PIPE_FMAHEAVY], 0);
    ws_pipe_ptx_insns(&fn, NULL, out);
    assert_int_equal(out[WS_PIPE_ALU], 0);
}

/* The tensor forms, as nvdisasm spells them on sm_90 (results/h200-tensorpipe/raw.tar.gz sass.txt):
 * their rates differ by shape and type, so each has its class; a wgmma counts N/8 units. */
static void test_tensor_instructions_go_to_their_forms_pipe(void **state)
{
    (void)state;
    assert_int_equal(ws_pipe_of_sass("HMMA.16816.F32 R4, R8.reuse, R12, R4 ;"), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_sass("@P0 HMMA.16816.F32.BF16 R4, R8, R12, R4"), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_sass("HMMA.16816.F16 R4, R8, R12, R4"), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_sass("HMMA.1688.F32.TF32 R4, R8, R12, R4"), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_sass("HMMA.1688.F32 R4, R8, R12, R4"), WS_PIPE_HMMA_K8);
    assert_int_equal(ws_pipe_of_sass("IMMA.16832.S8.S8 R4, R8.ROW, R12.COL, R4"), WS_PIPE_IMMA);
    assert_int_equal(ws_pipe_of_sass("DMMA.8x8x4 R4, R8, R12, R4"), WS_PIPE_DMMA);
    assert_int_equal(ws_pipe_of_sass("HGMMA.64x128x16.F32 R24, gdesc[UR4], R24"), WS_PIPE_GMMA);
    assert_int_equal(ws_pipe_of_sass("HFMA2.MMA R1, -RZ, RZ, 0, 0"), WS_PIPE_NONE); /* not a tensor op */
    assert_int_equal(ws_pipe_of_sass("HMMAX R1"), WS_PIPE_NONE);
    assert_int_equal(ws_pipe_units_of_sass("HGMMA.64x128x16.F32 R24, gdesc[UR4], R24"), 16);
    assert_int_equal(ws_pipe_units_of_sass("HGMMA.64x256x16.F32 R24, gdesc[UR4], R24, gsb0"), 32);
    assert_int_equal(ws_pipe_units_of_sass("HGMMA.64x8x16.F32 R24, gdesc[UR4], R24"), 1);
    assert_int_equal(ws_pipe_units_of_sass("HMMA.16816.F32 R4, R8, R12, R4"), 1);
    assert_int_equal(ws_pipe_units_of_sass("FFMA R1, R2, R3, R4"), 1);
    assert_int_equal(ws_pipe_units_of_sass(NULL), 0);
}

/* PTX: mma.sync by shape and type, wmma.mma m16n16k16 = two HMMA.16816, wgmma N/8 units. */
static void test_ptx_tensor_instructions_count_what_ptxas_makes_of_them(void **state)
{
    (void)state;
    ptx_insn code[4];
    memset(code, 0, sizeof code);
    code[0].op = PTX_MMA; code[0].tc.m = 16; code[0].tc.n = 8; code[0].tc.k = 16; code[0].tc.atype = PTX_MT_F16;
    code[1].op = PTX_MMA; code[1].tc.m = 16; code[1].tc.n = 8; code[1].tc.k = 8; code[1].tc.atype = PTX_MT_F16;
    code[2].op = PTX_WMMA_MMA; code[2].tc.m = 16; code[2].tc.n = 16; code[2].tc.k = 16; code[2].tc.atype = PTX_MT_F16;
    code[3].op = PTX_WGMMA_MMA; code[3].tc.m = 64; code[3].tc.n = 256; code[3].tc.k = 16; code[3].tc.atype = PTX_MT_F16;
    assert_int_equal(ws_pipe_of_ptx(&code[0]), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_ptx(&code[1]), WS_PIPE_HMMA_K8);
    assert_int_equal(ws_pipe_of_ptx(&code[2]), WS_PIPE_HMMA);
    assert_int_equal(ws_pipe_of_ptx(&code[3]), WS_PIPE_GMMA);
    code[1].tc.atype = PTX_MT_TF32;                 /* m16n8k8 tf32: the 16816 rate */
    assert_int_equal(ws_pipe_of_ptx(&code[1]), WS_PIPE_HMMA);
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.insns = code;
    fn.ninsns = 4;
    uint64_t counts[4] = {10, 3, 5, 7}, out[WS_PIPE_COUNT];
    ws_pipe_ptx_insns(&fn, counts, out);
    assert_int_equal(out[WS_PIPE_HMMA], 10 + 3 + 2 * 5);
    assert_int_equal(out[WS_PIPE_GMMA], 7 * 256 / 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensor_instructions_go_to_their_forms_pipe),
        cmocka_unit_test(test_ptx_tensor_instructions_count_what_ptxas_makes_of_them),
        cmocka_unit_test(test_sass_opcodes_go_to_the_pipes_ncu_counts_them_on),
        cmocka_unit_test(test_ptx_opcodes_go_to_the_pipe_of_what_ptxas_makes_of_them),
        cmocka_unit_test(test_ptx_counts_are_the_warp_counts_of_each_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
