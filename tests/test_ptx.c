/* test_ptx.c - the PTX parser: small handwritten PTX with known layouts, every
 * checked-in PTX file (tests/data/ptx, demos), the malformed corpus in
 * tests/data/bad_ptx, and truncated / mutated / random input that must give an
 * error and never crash (run under ASan+UBSan). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/frontend/ptx.h"
#include "../common/files.h"
#include "op_examples.h"

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

static ptx_module *parse_ok(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("test.ptx", text, &err);
    if (!m) fprintf(stderr, "unexpected error: %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

/* The first refused function's error, or NULL. */
static const ws_error *first_refusal(const ptx_module *m)
{
    for (int i = 0; m && i < m->nfuncs; i++)
        if (m->funcs[i].refusal) return m->funcs[i].refusal;
    return NULL;
}

/* The error the text gets: the parse's, or the refusal of the function at fault (a
 * body the simulator cannot run refuses that function only; the module parses). */
static ws_error parse_err(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("bad.ptx", text, &err);
    const ws_error *r = first_refusal(m);
    if (r) err = *r;
    if (m && !r) fprintf(stderr, "parsed without an error or a refused function\n");
    assert_true(!m || r);
    if (m) ptx_free(m);
    assert_string_equal(err.file, "bad.ptx");
    assert_true(err.line >= 1);
    assert_true(err.msg[0] != 0);
    return err;
}

static int find_reg(const ptx_function *f, const char *name)
{
    for (int i = 0; i < f->nregs; i++)
        if (!strcmp(f->regs[i].name, name)) return i;
    return -1;
}

static const ptx_symbol *find_sym(const ptx_function *f, const char *name)
{
    for (int i = 0; i < f->nsyms; i++)
        if (!strcmp(f->syms[i].name, name)) return &f->syms[i];
    return NULL;
}

/* ---- handwritten PTX -------------------------------------------------------- */

static const char copy_ptx[] =
    HEADER
    "\n"
    ".visible .entry _Z4copyPKfPfi(\n"                     /* line 5 */
    "\t.param .u64 _Z4copyPKfPfi_param_0,\n"
    "\t.param .u64 _Z4copyPKfPfi_param_1,\n"
    "\t.param .u32 _Z4copyPKfPfi_param_2\n"
    ")\n"
    "{\n"                                                  /* line 10 */
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .f32 \t%f<2>;\n"
    "\t.reg .b32 \t%r<6>;\n"
    "\t.reg .b64 \t%rd<8>;\n"
    "\t.loc\t1 6 0\n"                                      /* line 15 */
    "\tld.param.u64 \t%rd1, [_Z4copyPKfPfi_param_0];\n"  /* insn 0 */
    "\tld.param.u64 \t%rd2, [_Z4copyPKfPfi_param_1];\n"
    "\tld.param.u32 \t%r2, [_Z4copyPKfPfi_param_2];\n"
    "\t.loc\t1 8 5\n"
    "\tmov.u32 \t%r3, %ctaid.x;\n"                         /* line 20, insn 3 */
    "\tmov.u32 \t%r4, %ntid.x;\n"
    "\tmov.u32 \t%r5, %tid.x;\n"
    "\tmad.lo.s32 \t%r1, %r3, %r4, %r5;\n"
    "\t.loc\t1 9 5\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r2;\n"                     /* line 25, insn 7 */
    "\t@%p1 bra \t$L__BB0_2;\n"                            /* insn 8 */
    "\t.loc\t1 10 9\n"
    "\tcvta.to.global.u64 \t%rd3, %rd1;\n"                 /* insn 9 */
    "\tmul.wide.s32 \t%rd4, %r1, 4;\n"
    "\tadd.s64 \t%rd5, %rd3, %rd4;\n"                      /* line 30 */
    "\tld.global.f32 \t%f1, [%rd5];\n"                     /* insn 12 */
    "\tcvta.to.global.u64 \t%rd6, %rd2;\n"
    "\tadd.s64 \t%rd7, %rd6, %rd4;\n"
    "\tst.global.f32 \t[%rd7], %f1;\n"                     /* insn 15 */
    "$L__BB0_2:\n"                                         /* line 35 */
    "\t.loc\t1 11 1\n"
    "\tret;\n"                                             /* insn 16 */
    "}\n"
    "\t.file\t1 \"/tmp/copy.cu\"\n";

static void test_copy_kernel_resolves_params_registers_labels_and_lines(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(copy_ptx);
    assert_string_equal(m->target, "sm_90");
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfiles, 1);
    assert_int_equal(m->files[0].index, 1);
    assert_string_equal(m->files[0].path, "/tmp/copy.cu");
    assert_int_equal(m->nfuncs, 1);
    const ptx_function *f = &m->funcs[0];
    assert_true(f->is_entry);
    /* two u64 pointers then a u32: offsets 0, 8, 16 and 20 bytes in all */
    assert_int_equal(f->nparams, 3);
    assert_int_equal(f->syms[f->param_syms[0]].offset, 0);
    assert_int_equal(f->syms[f->param_syms[1]].offset, 8);
    assert_int_equal(f->syms[f->param_syms[2]].offset, 16);
    assert_int_equal(f->syms[f->param_syms[2]].size, 4);
    assert_int_equal(f->param_bytes, 20);
    /* %p<2> %f<2> %r<6> %rd<8>: 18 slots, %r0..%r5 */
    assert_int_equal(f->nregs, 2 + 2 + 6 + 8);
    assert_true(find_reg(f, "%r0") >= 0);
    assert_true(find_reg(f, "%r5") >= 0);
    assert_int_equal(find_reg(f, "%r6"), -1);
    assert_int_equal(f->regs[find_reg(f, "%rd7")].width, 8);
    assert_int_equal(f->regs[find_reg(f, "%p1")].type, PTX_T_PRED);
    assert_int_equal(f->ninsns, 17);

    const ptx_insn *ld = &f->insns[12];
    assert_int_equal(ld->op, PTX_LD);
    assert_int_equal(ld->space, PTX_SPACE_GLOBAL);
    assert_int_equal(ld->type, PTX_T_F32);
    assert_int_equal(ld->vec, 1);
    assert_true(ptx_insn_is_memory(ld));
    assert_int_equal(ld->opnd[0].kind, PTX_OPND_REG);
    assert_int_equal(ld->opnd[0].reg, find_reg(f, "%f1"));
    assert_int_equal(ld->opnd[1].kind, PTX_OPND_MEM);
    assert_int_equal(ld->opnd[1].base_kind, PTX_OPND_REG);
    assert_int_equal(ld->opnd[1].reg, find_reg(f, "%rd5"));
    assert_int_equal(ld->ptx_line, 31);
    assert_int_equal(ld->src_file, 1);
    assert_int_equal(ld->src_line, 10);

    /* the parameter load reads the kernel's parameter buffer: not the memory pipeline */
    assert_int_equal(f->insns[0].space, PTX_SPACE_PARAM);
    assert_false(ptx_insn_is_memory(&f->insns[0]));
    assert_int_equal(f->insns[0].opnd[1].base_kind, PTX_OPND_SYM);
    assert_int_equal(f->insns[0].opnd[1].sym, f->param_syms[0]);
    assert_int_equal(f->insns[0].src_line, 6);

    const ptx_insn *mov = &f->insns[5];
    assert_int_equal(mov->opnd[1].kind, PTX_OPND_SREG);
    assert_int_equal(mov->opnd[1].sreg, PTX_SREG_TID_X);

    const ptx_insn *mul = &f->insns[10];
    assert_int_equal(mul->op, PTX_MUL);
    assert_int_equal(mul->mulmode, PTX_MULMODE_WIDE);
    assert_int_equal(mul->type, PTX_T_S32);
    assert_int_equal(mul->opnd[2].kind, PTX_OPND_IMM);
    assert_int_equal(mul->opnd[2].imm, 4);

    const ptx_insn *setp = &f->insns[7];
    assert_int_equal(setp->cmp, PTX_CMP_GE);
    assert_int_equal(setp->type, PTX_T_S32);

    /* the label sits before `ret`, instruction 16 */
    const ptx_insn *bra = &f->insns[8];
    assert_int_equal(bra->op, PTX_BRA);
    assert_int_equal(bra->guard, find_reg(f, "%p1"));
    assert_false(bra->guard_neg);
    assert_int_equal(bra->opnd[0].kind, PTX_OPND_LABEL);
    assert_int_equal(bra->opnd[0].target, 16);
    assert_int_equal(f->insns[16].op, PTX_RET);
    assert_int_equal(f->insns[16].src_line, 11);

    const ptx_insn *cvta = &f->insns[9];
    assert_int_equal(cvta->op, PTX_CVTA);
    assert_true(cvta->flags & PTX_F_TO);
    assert_int_equal(cvta->space, PTX_SPACE_GLOBAL);

    const ptx_insn *st = &f->insns[15];
    assert_int_equal(st->op, PTX_ST);
    assert_int_equal(st->opnd[0].kind, PTX_OPND_MEM);
    assert_int_equal(st->opnd[1].reg, find_reg(f, "%f1"));
    assert_true(ptx_insn_is_memory(st));
    ptx_free(m);
}

static void test_find_function_accepts_the_plain_cxx_name_of_a_mangled_kernel(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(copy_ptx);
    assert_ptr_equal(ptx_find_function(m, "_Z4copyPKfPfi"), &m->funcs[0]);
    assert_ptr_equal(ptx_find_function(m, "copy"), &m->funcs[0]);
    assert_null(ptx_find_function(m, "cop"));
    assert_null(ptx_find_function(m, "copyPKfPfi"));
    assert_null(ptx_find_function(m, "other"));
    ptx_free(m);
}

/* Static shared variables this function references, in declaration order, each
 * aligned; an unreferenced module variable takes no room; dynamic shared starts
 * at the next multiple of 16 (or of its own larger alignment). */
static void test_shared_layout_packs_referenced_variables_and_aligns_dynamic_shared(void **state)
{
    (void)state;
    const char *text = HEADER
        ".shared .align 4 .b8 unused[64];\n"
        ".shared .align 4 .u32 a;\n"
        ".extern .shared .align 8 .b8 dyn[];\n"
        ".visible .entry k()\n"
        "{\n"
        "\t.reg .b32 %r<4>;\n"
        "\t.shared .align 8 .b8 b[12];\n"
        "\t.shared .align 2 .b8 c[3];\n"
        "\tmov.u32 %r1, c;\n"
        "\tmov.u32 %r2, dyn;\n"
        "\tst.shared.u32 [a], %r1;\n"
        "\tst.shared.u32 [b+4], %r2;\n"
        "\tret;\n"
        "}\n"
        ".visible .entry k2()\n"
        "{\n"
        "\t.reg .b32 %r<2>;\n"
        "\tmov.u32 %r1, dyn;\n"
        "\tret;\n"
        "}\n";
    ptx_module *m = parse_ok(text);
    const ptx_function *f = ptx_find_function(m, "k");
    assert_non_null(f);
    /* a (module, declared first) at 0..4; b aligned to 8 at 8..20; c aligned to 2 at 20..23 */
    assert_int_equal(find_sym(f, "a")->offset, 0);
    assert_int_equal(find_sym(f, "b")->offset, 8);
    assert_int_equal(find_sym(f, "c")->offset, 20);
    assert_null(find_sym(f, "unused"));
    assert_int_equal(f->static_shared_bytes, 23);
    assert_int_equal(f->dyn_shared_offset, 32);
    assert_int_equal(find_sym(f, "dyn")->offset, 32);
    assert_true(find_sym(f, "dyn")->is_extern);
    assert_int_equal(find_sym(f, "dyn")->size, 0);
    const ptx_insn *st = &f->insns[3];
    assert_int_equal(st->opnd[0].base_kind, PTX_OPND_SYM);
    assert_string_equal(f->syms[st->opnd[0].sym].name, "b");
    assert_int_equal(st->opnd[0].imm, 4);
    /* k2 references nothing static: dynamic shared starts at 0 */
    const ptx_function *f2 = ptx_find_function(m, "k2");
    assert_int_equal(f2->static_shared_bytes, 0);
    assert_int_equal(f2->dyn_shared_offset, 0);
    ptx_free(m);
}

/* A device function's module shared variable gets the same offset in the
 * function and in every kernel that calls it (laid out first there); a kernel
 * that does not call it does not pay for it. */
static void test_shared_variables_of_a_called_function_agree_between_caller_and_callee(void **state)
{
    (void)state;
    const char *text = HEADER
        ".shared .align 4 .b8 s_func[8];\n"
        ".shared .align 4 .b8 s_entry[4];\n"
        ".func f()\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [s_func+4], %r1;\n\tret;\n}\n"
        ".visible .entry a()\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [s_entry], %r1;\n"
        "\tcall.uni f, ();\n\tret;\n}\n"
        ".visible .entry b()\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [s_entry], %r1;\n\tret;\n}\n";
    ptx_module *m = parse_ok(text);
    const ptx_function *f = ptx_find_function(m, "f"), *a = ptx_find_function(m, "a"), *b = ptx_find_function(m, "b");
    assert_int_equal(find_sym(f, "s_func")->offset, 0);
    assert_int_equal(find_sym(a, "s_func")->offset, 0);
    assert_int_equal(find_sym(a, "s_entry")->offset, 8);
    assert_int_equal(a->static_shared_bytes, 12);
    assert_int_equal(find_sym(b, "s_entry")->offset, 0);
    assert_null(find_sym(b, "s_func"));
    assert_int_equal(b->static_shared_bytes, 4);
    /* a call without a return value: opnd[0] is NONE, the callee is funcs[0] */
    const ptx_insn *call = &a->insns[1];
    assert_int_equal(call->op, PTX_CALL);
    assert_int_equal(call->opnd[0].kind, PTX_OPND_NONE);
    assert_int_equal(call->opnd[1].target, 0);
    ptx_free(m);
}

/* Parameters are packed in order at their own alignment: a struct passed by value
 * (.align 16 .b8 p[32]) after a u32 starts at 16. */
static void test_parameters_are_aligned_like_the_abi(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HEADER ".visible .entry k(\n\t.param .u32 n,\n\t.param .align 16 .b8 s[32],\n"
                             "\t.param .u64 .ptr .global .align 8 p\n)\n{\n\tret;\n}\n");
    const ptx_function *f = &m->funcs[0];
    assert_int_equal(f->nparams, 3);
    assert_int_equal(f->syms[f->param_syms[0]].offset, 0);
    assert_int_equal(f->syms[f->param_syms[1]].offset, 16);
    assert_int_equal(f->syms[f->param_syms[1]].size, 32);
    assert_int_equal(f->syms[f->param_syms[2]].offset, 48);
    assert_int_equal(f->param_bytes, 56);
    ptx_free(m);
}

static void test_type_sizes_and_names(void **state)
{
    (void)state;
    assert_int_equal(ptx_type_size(PTX_T_PRED), 1);
    assert_int_equal(ptx_type_size(PTX_T_U8), 1);
    assert_int_equal(ptx_type_size(PTX_T_S16), 2);
    assert_int_equal(ptx_type_size(PTX_T_F16X2), 4); /* two halves */
    assert_int_equal(ptx_type_size(PTX_T_F32), 4);
    assert_int_equal(ptx_type_size(PTX_T_B64), 8);
    assert_int_equal(ptx_type_size(PTX_T_B128), 16);
    assert_int_equal(ptx_type_size((ptx_type)999), 0);
    assert_true(ptx_type_is_signed(PTX_T_S32));
    assert_false(ptx_type_is_signed(PTX_T_U32));
    assert_true(ptx_type_is_float(PTX_T_BF16));
    assert_false(ptx_type_is_float(PTX_T_B32));
    assert_string_equal(ptx_type_name(PTX_T_U32), ".u32");
    assert_string_equal(ptx_opcode_name(PTX_LD), "ld");
    assert_string_equal(ptx_opcode_name((ptx_opcode)999), "?");
    assert_string_equal(ptx_sreg_name(PTX_SREG_NCTAID_Y), "%nctaid.y");
    for (int op = 1; op < PTX_OP_COUNT; op++) assert_string_not_equal(ptx_opcode_name((ptx_opcode)op), "?");
}

static void test_const_and_global_initialisers_fill_the_module_images(void **state)
{
    (void)state;
    const char *text = HEADER
        ".const .align 4 .b8 coeffs[8] = {0, 0, 128, 63, 0, 0, 0, 64};\n"
        ".const .align 4 .f32 half[2] = {0f3F000000, 0.25};\n"
        ".global .align 8 .u64 big = 0x1122334455667788;\n"
        ".global .align 4 .s32 neg[2] = {-2};\n"
        ".visible .entry k()\n"
        "{\n"
        "\t.reg .f32 %f<3>;\n"
        "\t.reg .b64 %rd<3>;\n"
        "\tld.const.f32 %f1, [coeffs+4];\n"
        "\tld.const.f32 %f2, [half];\n"
        "\tmov.u64 %rd1, big;\n"
        "\tmov.u64 %rd2, neg;\n"
        "\tret;\n"
        "}\n";
    ptx_module *m = parse_ok(text);
    assert_int_equal(m->const_bytes, 16);
    float f;
    memcpy(&f, m->const_image + 4, 4);
    assert_true(f == 2.0f); /* bytes 00 00 00 40 */
    memcpy(&f, m->const_image + 8, 4);
    assert_true(f == 0.5f);
    memcpy(&f, m->const_image + 12, 4);
    assert_true(f == 0.25f);
    assert_int_equal(m->global_bytes, 16);
    uint64_t u;
    memcpy(&u, m->global_image, 8);
    assert_true(u == 0x1122334455667788ull);
    int32_t s[2];
    memcpy(s, m->global_image + 8, 8);
    assert_int_equal(s[0], -2);
    assert_int_equal(s[1], 0); /* values not given are zero */
    const ptx_function *k = &m->funcs[0];
    const ptx_symbol *half = find_sym(k, "half");
    assert_non_null(half);
    assert_int_equal(half->space, PTX_SPACE_CONST);
    assert_int_equal(half->offset, 8);
    assert_ptr_equal(half->init, m->const_image + 8);
    assert_int_equal(find_sym(k, "neg")->offset, 8);
    ptx_free(m);
}

static const char call_ptx[] =
    HEADER
    ".func  (.param .b32 func_retval0) _Z6helperf(\n"
    "\t.param .b32 _Z6helperf_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .f32 %f<3>;\n"
    "\t.local .align 4 .b8 __local_depot0[28];\n"
    "\tld.param.f32 %f1, [_Z6helperf_param_0];\n"
    "\tadd.f32 %f2, %f1, %f1;\n"
    "\tst.param.f32 [func_retval0+0], %f2;\n"
    "\tret;\n"
    "}\n"
    ".visible .entry _Z6callerPf(\n"
    "\t.param .u64 _Z6callerPf_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .f32 %f<4>;\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [_Z6callerPf_param_0];\n"
    "\t{ // callseq 0, 0\n"
    "\t.reg .b32 temp_param_reg;\n"
    "\t.param .b32 param0;\n"
    "\tst.param.f32 \t[param0+0], %f1;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), \n\t_Z6helperf, \n\t(\n\tparam0\n\t);\n"
    "\tld.param.f32 %f2, [retval0+0];\n"
    "\t} // callseq 0\n"
    "\t{ // callseq 1, 0\n"
    "\t.param .b32 param0;\n"
    "\tst.param.f32 \t[param0+0], %f2;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), _Z6helperf, (param0);\n"
    "\tld.param.f32 %f3, [retval0+0];\n"
    "\t} // callseq 1\n"
    "\tret;\n"
    "}\n";

/* Two call sequences each declare param0/retval0 in their own { } block: two
 * distinct variables in the caller's parameter space, 4 bytes each, after its own
 * 8-byte parameter (from 16, the next 16-byte boundary); its local frame holds none. */
static void test_call_sequences_get_scoped_param_variables_and_a_resolved_callee(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(call_ptx);
    assert_int_equal(m->nfuncs, 2);
    const ptx_function *h = &m->funcs[0];
    assert_false(h->is_entry);
    assert_int_equal(h->nparams, 1);
    assert_int_equal(h->local_bytes, 28);
    const ptx_symbol *ret = find_sym(h, "func_retval0");
    assert_non_null(ret);
    assert_int_equal(ret->kind, PTX_SYM_PARAM);
    assert_int_equal(ret->offset, 4); /* after the one 4-byte parameter */
    assert_ptr_equal(&h->syms[h->retval_sym], ret);
    assert_int_equal(h->param_bytes, 8);
    const ptx_function *c = ptx_find_function(m, "caller");
    assert_non_null(c);
    assert_int_equal(c->local_bytes, 0);
    assert_int_equal(c->param_bytes, 8);
    assert_int_equal(c->arg_base, 16);
    assert_int_equal(c->arg_bytes, 16);
    int calls = 0, first = -1, second = -1;
    for (int i = 0; i < c->ninsns; i++) {
        const ptx_insn *in = &c->insns[i];
        if (in->op != PTX_CALL) continue;
        calls++;
        assert_true(in->flags & PTX_F_UNI);
        assert_int_equal(in->nopnd, 2);
        assert_int_equal(in->opnd[0].kind, PTX_OPND_SYM);
        assert_int_equal(in->opnd[1].kind, PTX_OPND_LABEL);
        assert_int_equal(in->opnd[1].target, 0); /* funcs[0] is the helper */
        assert_string_equal(in->callee, "_Z6helperf");
        assert_int_equal(in->ncall_args, 1);
        int arg = c->call_args[in->call_arg0];
        assert_int_equal(c->syms[arg].space, PTX_SPACE_PARAM);
        assert_true(c->syms[arg].offset >= c->arg_base);
        /* the store before the call writes the same param0 the call passes */
        assert_int_equal(c->insns[i - 1].opnd[0].sym, arg);
        assert_int_equal(c->insns[i + 1].opnd[1].sym, in->opnd[0].sym);
        if (first < 0) first = arg; else second = arg;
    }
    assert_int_equal(calls, 2);
    /* the second call's param0 is a different variable from the first's */
    assert_true(first != second);
    assert_int_not_equal(c->syms[first].offset, c->syms[second].offset);
    ptx_free(m);
}

static ptx_module *one_insn(const char *decls, const char *insn, const ptx_insn **out, const ptx_function **fn)
{
    static char text[4096];
    snprintf(text, sizeof text, HEADER ".visible .entry k()\n{\n"
             "\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n"
             "\t.reg .f32 %%f<8>;\n\t.reg .f64 %%fd<4>;\n%s\n"
             "L0:\n\t%s\n\tret;\n}\n", decls, insn);
    ptx_module *m = parse_ok(text);
    *fn = &m->funcs[0];
    *out = &m->funcs[0].insns[0];
    return m;
}

static void test_immediates_float_hex_negative_and_offsets_decode_exactly(void **state)
{
    (void)state;
    const ptx_insn *in;
    const ptx_function *f;
    ptx_module *m = one_insn("", "add.f32 %f1, %f2, 0f3FC00000;", &in, &f);
    assert_true(in->opnd[2].is_float);
    assert_false(in->opnd[2].is_double);
    assert_int_equal(in->opnd[2].imm, 0x3FC00000); /* 1.5f */
    ptx_free(m);
    m = one_insn("", "fma.rn.f64 %fd1, %fd2, 0d3FD0000000000000, 0d3F50624DD2F1A9FC;", &in, &f);
    assert_true(in->opnd[2].is_double);
    assert_true((uint64_t)in->opnd[2].imm == 0x3FD0000000000000ull);
    assert_int_equal(in->rnd, PTX_RND_RN);
    ptx_free(m);
    m = one_insn("", "add.s32 %r1, %r2, -128;", &in, &f);
    assert_int_equal(in->opnd[2].imm, -128);
    ptx_free(m);
    m = one_insn("", "and.b32 %r1, %r2, 0xFF00;", &in, &f);
    assert_int_equal(in->opnd[2].imm, 0xFF00);
    ptx_free(m);
    m = one_insn("", "or.b32 %r1, %r2, -2147483648;", &in, &f);
    assert_int_equal(in->opnd[2].imm, -2147483648LL);
    ptx_free(m);
    m = one_insn("", "ld.local.u32 %r1, [%rd1+-4];", &in, &f);
    assert_int_equal(in->opnd[1].imm, -4);
    assert_int_equal(in->space, PTX_SPACE_LOCAL);
    ptx_free(m);
    m = one_insn("", "ld.global.u32 %r1, [%rd1+256];", &in, &f);
    assert_int_equal(in->opnd[1].imm, 256);
    ptx_free(m);
    m = one_insn("", "mov.f32 %f1, 1.5;", &in, &f);
    assert_true(in->opnd[1].is_float);
    assert_int_equal(in->opnd[1].imm, 0x3FC00000);
    ptx_free(m);
}

static void test_vector_memory_operations_keep_their_lane_count_and_width(void **state)
{
    (void)state;
    const ptx_insn *in;
    const ptx_function *f;
    ptx_module *m = one_insn("", "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", &in, &f);
    assert_int_equal(in->vec, 4);
    assert_int_equal(in->cache, PTX_CACHE_NC);
    assert_int_equal(in->opnd[0].kind, PTX_OPND_VEC);
    assert_int_equal(in->opnd[0].vec_n, 4);
    assert_int_equal(in->opnd[0].vec[3], find_reg(f, "%f4"));
    /* 4 lanes x 4 bytes: a 16-byte access per thread */
    assert_int_equal(in->vec * ptx_type_size(in->type), 16);
    char buf[128];
    ptx_format_insn(f, in, buf, sizeof buf);
    assert_string_equal(buf, "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16]");
    ptx_free(m);
    m = one_insn("", "st.shared.v2.u64 [%r1], {%rd1, %rd2};", &in, &f);
    assert_int_equal(in->vec * ptx_type_size(in->type), 16);
    assert_int_equal(in->opnd[1].vec_n, 2);
    ptx_free(m);
    m = one_insn("", "mov.b64 {%r1, _}, %rd1;", &in, &f);
    assert_int_equal(in->opnd[0].vec[0], find_reg(f, "%r1"));
    assert_int_equal(in->opnd[0].vec[1], -1);
    ptx_free(m);
    m = one_insn("", "ld.volatile.shared.u16 %rs1, [%r1];", &in, &f);
    assert_true(in->flags & PTX_F_VOLATILE);
    assert_int_equal(ptx_type_size(in->type), 2);
    ptx_free(m);
    m = one_insn("", "ld.relaxed.gpu.global.u32 %r1, [%rd1];", &in, &f);
    assert_true(in->flags & PTX_F_RELAXED);
    assert_int_equal(in->space, PTX_SPACE_GLOBAL);
    ptx_free(m);
    m = one_insn("", "ld.global.L1::evict_last.L2::128B.f32 %f1, [%rd1];", &in, &f);
    assert_int_equal(in->type, PTX_T_F32);
    ptx_free(m);
}

static void test_pair_destinations_become_consecutive_operands(void **state)
{
    (void)state;
    const ptx_insn *in;
    const ptx_function *f;
    ptx_module *m = one_insn("", "shfl.sync.down.b32 %r1|%p1, %r2, %r3, %r4, %r5;", &in, &f);
    assert_int_equal(in->op, PTX_SHFL);
    assert_int_equal(in->shfl, PTX_SHFL_DOWN);
    assert_true(in->flags & PTX_F_SYNC);
    assert_int_equal(in->nopnd, 6);
    assert_int_equal(in->opnd[1].reg, find_reg(f, "%p1"));
    assert_int_equal(in->opnd[5].reg, find_reg(f, "%r5"));
    ptx_free(m);
    m = one_insn("", "shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;", &in, &f);
    assert_int_equal(in->nopnd, 5);
    assert_int_equal(in->opnd[4].imm, -1);
    ptx_free(m);
    m = one_insn("", "setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p3;", &in, &f);
    assert_int_equal(in->nopnd, 5);
    assert_int_equal(in->cmp, PTX_CMP_LT);
    assert_int_equal(in->boolop, PTX_BOOL_AND);
    assert_true(in->opnd[4].neg);
    char buf[128];
    ptx_format_insn(f, in, buf, sizeof buf);
    assert_string_equal(buf, "setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p3");
    ptx_free(m);
}

static void test_warp_and_barrier_instructions_keep_their_modes(void **state)
{
    (void)state;
    const ptx_insn *in;
    const ptx_function *f;
    ptx_module *m = one_insn("", "vote.sync.ballot.b32 %r1, %p1, -1;", &in, &f);
    assert_int_equal(in->vote, PTX_VOTE_BALLOT);
    ptx_free(m);
    m = one_insn("", "bar.sync 0;", &in, &f);
    assert_int_equal(in->op, PTX_BAR);
    assert_int_equal(in->bar, PTX_BAR_SYNC);
    assert_false(in->flags & PTX_F_WARP);
    ptx_free(m);
    m = one_insn("", "bar.warp.sync -1;", &in, &f);
    assert_int_equal(in->bar, PTX_BAR_SYNC);
    assert_true(in->flags & PTX_F_WARP);
    ptx_free(m);
    m = one_insn("", "barrier.sync.aligned 0;", &in, &f);
    assert_int_equal(in->op, PTX_BARRIER);
    assert_true(in->flags & PTX_F_ALIGNED);
    ptx_free(m);
    m = one_insn("", "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", &in, &f);
    assert_int_equal(in->atomop, PTX_ATOM_CAS);
    assert_true(ptx_insn_is_memory(in));
    ptx_free(m);
    m = one_insn("", "red.shared.add.u32 [%r1], 1;", &in, &f);
    assert_int_equal(in->op, PTX_RED);
    assert_int_equal(in->space, PTX_SPACE_SHARED);
    assert_true(ptx_insn_is_memory(in));
    ptx_free(m);
    m = one_insn("", "testp.finite.f32 %p1, %f1;", &in, &f);
    assert_int_equal(in->opnd[2].imm, PTX_TESTP_FINITE);
    ptx_free(m);
}

/* nvcc attributes inlined header code (atomicAdd from device_atomic_functions.hpp)
 * to the user's line through inlined_at; that is the line warpscope shows. */
static void test_inlined_code_maps_to_the_call_site_line(void **state)
{
    (void)state;
    const ptx_insn *in;
    const ptx_function *f;
    ptx_module *m = one_insn("\t.loc 1 45 9\n\t.loc 2 112 3, function_name $L__info_string0, inlined_at 1 45 9",
                             "atom.global.add.u32 %r1, [%rd1], 1;", &in, &f);
    assert_int_equal(in->src_file, 1);
    assert_int_equal(in->src_line, 45);
    ptx_free(m);
}

/* Formatting what nvcc wrote gives it back (modulo whitespace). */
static void test_formatting_round_trips_nvcc_instructions(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5]",
        "st.global.v4.f32 [%rd7], {%f1, %f2, %f3, %f4}",
        "mul.wide.s32 %rd4, %r1, 4",
        "mad.lo.s32 %r1, %r3, %r4, %r5",
        "cvta.to.global.u64 %rd3, %rd1",
        "cvt.rn.f32.s32 %f1, %r2",
        "cvt.rzi.ftz.s32.f32 %r1, %f1",
        "cvt.u64.u32 %rd6, %r1",
        "setp.ge.s32 %p1, %r1, %r2",
        "selp.b32 %r1, %r2, %r3, %p1",
        "shfl.sync.bfly.b32 %r1|%p1, %r2, %r3, %r4, %r5",
        "vote.sync.any.pred %p1, %p2, %r1",
        "atom.global.add.f32 %f1, [%rd1], %f2",
        "atom.shared.max.s32 %r1, [%r2], %r3",
        "ld.shared.f64 %fd1, [%r1]",
        "st.local.u32 [%rd1+24], %r1",
        "ld.local.u32 %r1, [%rd1+-4]",
        "div.rn.f32 %f1, %f2, %f3",
        "div.approx.ftz.f32 %f1, %f2, %f3",
        "fma.rn.f32 %f1, %f2, 0f3F800000, %f3",
        "mul.f64 %fd1, %fd2, 0d3BF921FB54442D19",
        "bfi.b64 %rd1, %rd2, %rd3, 32, 32",
        "shf.l.wrap.b32 %r1, %r2, %r3, %r4",
        "lop3.b32 %r1, %r2, %r3, %r4, 150",
        "mov.b64 {%r1, %r2}, %rd1",
        "and.pred %p1, %p2, %p3",
        "popc.b32 %r1, %r2",
        "addc.cc.u32 %r1, %r2, %r3",
        "bar.sync 0",
        "bar.warp.sync -1",
        "ex2.approx.ftz.f32 %f1, %f2",
        "@!%p1 bra L0",
        "@%p1 st.global.f32 [%rd1], %f1",
        "cvt.rn.f16x2.f32 %r1, %f1, %f2",
        "cvt.rz.relu.satfinite.bf16x2.f32 %r1, %f1, %f2",
        "cvt.rn.relu.satfinite.e4m3x2.f32 %rs1, %f1, %f2",
        "cvt.rn.satfinite.e5m2x2.f16x2 %rs1, %r2",
        "cvt.rn.relu.f16x2.e4m3x2 %r1, %rs2",
        "cvt.rna.satfinite.tf32.f32 %r1, %f2",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char insn[160];
        snprintf(insn, sizeof insn, "%s;", lines[i]);
        const ptx_insn *in;
        const ptx_function *f;
        ptx_module *m = one_insn("", insn, &in, &f);
        char buf[160];
        ptx_format_insn(f, in, buf, sizeof buf);
        if (strcmp(buf, lines[i])) fprintf(stderr, "round trip: '%s' -> '%s'\n", lines[i], buf);
        assert_string_equal(buf, lines[i]);
        ptx_free(m);
    }
}

/* ---- every checked-in PTX ---------------------------------------------------- */

static int count_occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The source line each PTX line inherits from the last .loc above it (the
 * inlined_at location when there is one); reset at each function header. */
static int *loc_lines(const char *text, int *nlines)
{
    int n = 1;
    for (const char *p = text; *p; p++) n += *p == '\n';
    int *lines = calloc((size_t)n + 2, sizeof *lines);
    assert_non_null(lines);
    /* every .loc of the function so far: its own file, line, column, and the user's line it
     * maps to; an inlined_at that names an earlier .loc (code a header inlined into a header)
     * maps to that one's line */
    static int seen[4096][4];
    int cur = 0, ln = 1, nseen = 0;
    for (const char *p = text; *p; ln++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        int f, l, c, f2, l2, c2;
        const char *inl = strstr(line, "inlined_at");
        if (strstr(line, ".entry ") || strstr(line, ".func ")) cur = nseen = 0;
        if (sscanf(line, " .loc %d %d %d", &f, &l, &c) == 3) {
            cur = l;
            if (inl && sscanf(inl, "inlined_at %d %d %d", &f2, &l2, &c2) == 3) {
                cur = l2;
                for (int i = nseen - 1; i >= 0; i--)
                    if (seen[i][0] == f2 && seen[i][1] == l2 && seen[i][2] == c2) { cur = seen[i][3]; break; }
            }
            if (nseen < 4096) { seen[nseen][0] = f; seen[nseen][1] = l; seen[nseen][2] = c; seen[nseen++][3] = cur; }
        }
        lines[ln] = cur;
        p = eol ? eol + 1 : p + len;
    }
    *nlines = ln;
    return lines;
}

static int check_ptx_file(const char *path)
{
    ws_error err;
    ptx_module *m = ptx_load(path, &err);
    if (!m) ws_error_print(&err);
    assert_non_null(m);
    char *text = ws_read_file(path, 0, NULL, NULL);
    assert_non_null(text);
    int nlines, with_line = 0, total = 0;
    int *want_line = loc_lines(text, &nlines);
    int entries = 0;
    for (int i = 0; i < m->nfuncs; i++) {
        const ptx_function *f = &m->funcs[i];
        entries += f->is_entry;
        assert_true(f->ninsns > 0);
        assert_true(f->ptx_line > 0);
        for (int k = 0; k < f->ninsns; k++) {
            const ptx_insn *in = &f->insns[k];
            assert_true(in->ptx_line > f->ptx_line);
            /* the line of the last .loc above it; nvcc writes line 0 for code it made up */
            assert_true(in->ptx_line < nlines);
            assert_int_equal(in->src_line, want_line[in->ptx_line]);
            with_line += in->src_line > 0;
            total++;
            if (ptx_insn_is_memory(in)) {
                int width = ptx_tc_op(in->op) ? ptx_tc_width(in) : in->vec * ptx_type_size(in->type);
                assert_true(width == 1 || width == 2 || width == 4 || width == 8 || width == 16);
            }
            for (int o = 0; o < in->nopnd; o++) {
                const ptx_operand *op = &in->opnd[o];
                if (op->kind == PTX_OPND_REG) assert_true(op->reg >= 0 && op->reg < f->nregs);
                if (op->kind == PTX_OPND_SYM) assert_true(op->sym >= 0 && op->sym < f->nsyms);
                if (op->kind == PTX_OPND_MEM && op->base_kind == PTX_OPND_REG) assert_true(op->reg >= 0 && op->reg < f->nregs);
                if (op->kind == PTX_OPND_MEM && op->base_kind == PTX_OPND_SYM) assert_true(op->sym >= 0 && op->sym < f->nsyms);
                if (op->kind == PTX_OPND_LABEL && in->op == PTX_BRA) assert_true(op->target >= 0 && op->target < f->ninsns);
                if (op->kind == PTX_OPND_LABEL && in->op == PTX_CALL) assert_true(op->target >= 0 && op->target < m->nfuncs);
            }
        }
    }
    /* every ".entry" in the text became a kernel */
    assert_int_equal(entries, count_occurrences(text, ".entry "));
    assert_true(entries > 0);
    /* compiled with -lineinfo: nearly every instruction maps to a source line */
    assert_true(with_line * 10 >= total * 9);
    free(want_line);
    free(text);
    ptx_free(m);
    return 1;
}

static void test_every_checked_in_ptx_parses_with_lines_and_widths(void **state)
{
    (void)state;
    const char *patterns[] = {"tests/data/ptx/*.ptx", "demos/*.ptx"};
    int files[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        glob_t g;
        if (glob(patterns[p], 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc; i++) files[p] += check_ptx_file(g.gl_pathv[i]);
            globfree(&g);
        }
    }
    fprintf(stderr, "  checked %d test PTX files and %d demos PTX files\n", files[0], files[1]);
    assert_true(files[0] >= 2);
}

/* ---- what real compilers emit -------------------------------------------------- */

/* Names of 300 characters: a function, a parameter, a module variable, a register and
 * a label; each keeps all its characters. */
static void test_identifiers_of_300_characters_keep_every_character(void **state)
{
    (void)state;
    char name[301];
    memset(name, 'a', 300);
    name[300] = 0;
    char text[4096];
    snprintf(text, sizeof text, HEADER ".global .u32 g_%s;\n"
             ".visible .entry k_%s(.param .u64 p_%s)\n{\n\t.reg .b32 %%r_%s;\n"
             "L_%s:\n\tld.global.u32 %%r_%s, [g_%s];\n\tbra.uni L_%s;\n}\n",
             name, name, name, name, name, name, name, name);
    ptx_module *m = parse_ok(text);
    const ptx_function *k = &m->funcs[0];
    assert_int_equal(strlen(k->name), 302);
    assert_int_equal(strncmp(k->name, "k_", 2), 0);
    assert_int_equal(strlen(k->syms[k->param_syms[0]].name), 302);
    assert_int_equal(strlen(k->regs[0].name), 303);        /* %r_ + 300 */
    snprintf(text, sizeof text, "g_%s", name);
    assert_non_null(find_sym(k, text));
    assert_int_equal(k->insns[1].opnd[0].target, 0);       /* the label resolves */
    ptx_free(m);
}

/* One kernel holds an instruction the simulator does not know; the module parses, that
 * function is refused with its line, column, construct and the .loc in force, and the
 * kernel after it is whole. */
static void test_an_unsupported_body_refuses_its_function_only(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HEADER ".file 1 \"k.cu\"\n"
                             ".visible .entry bad()\n{\n\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<2>;\n"
                             "\t.loc 1 7 3\n\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
                             "\tret;\n}\n"
                             ".visible .entry good()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 5;\n\tret;\n}\n");
    const ptx_function *bad = ptx_find_function(m, "bad"), *good = ptx_find_function(m, "good");
    assert_non_null(bad->refusal);
    assert_int_equal(bad->refusal->line, 10);            /* 3 header lines, .file, .entry, {, 2 .reg, .loc */
    assert_int_equal(bad->refusal->col, 2);
    assert_non_null(strstr(bad->refusal->msg, "unsupported instruction 'tex.1d.v4.f32.s32'"));
    assert_int_equal(bad->refusal_src_line, 7);
    assert_int_equal(bad->ninsns, 0);                      /* half a body never runs */
    assert_null(good->refusal);
    assert_int_equal(good->ninsns, 2);
    const ptx_function *via = NULL;
    assert_ptr_equal(ptx_refused_reach(m, bad, &via), bad);
    assert_null(ptx_refused_reach(m, good, &via));
    ptx_free(m);
}

/* A refused function is reached through calls: the caller is not refused itself, but
 * ptx_refused_reach finds the callee and the function that calls it. */
static void test_a_refused_callee_is_found_through_the_calls_that_reach_it(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HEADER ".func leaf()\n{\n\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%rd1];\n\tret;\n}\n"
                             ".func mid()\n{\n\tcall.uni leaf, ();\n\tret;\n}\n"
                             ".visible .entry top()\n{\n\tcall.uni mid, ();\n\tret;\n}\n");
    const ptx_function *top = ptx_find_function(m, "top"), *mid = ptx_find_function(m, "mid");
    const ptx_function *leaf = ptx_find_function(m, "leaf"), *via = NULL;
    assert_null(top->refusal);
    assert_ptr_equal(ptx_refused_reach(m, top, &via), leaf);
    assert_ptr_equal(via, mid);
    ptx_free(m);
}

/* WARP_SZ is the constant 32; %envreg7, %globaltimer_hi and the cluster registers are
 * special registers; a function name is an address operand; a vector holds immediates. */
static void test_predefined_identifiers_function_addresses_and_vector_immediates(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HEADER ".func f()\n{\n\tret;\n}\n"
                             ".visible .entry k()\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"
                             "\tmov.u32 %r1, WARP_SZ;\n\tmov.u32 %r2, %envreg7;\n\tmov.u32 %r3, %globaltimer_hi;\n"
                             "\tmov.u32 %r4, %cluster_nctarank;\n\tmov.u64 %rd1, f;\n"
                             "\tst.global.v2.b32 [%rd2], {-3, %r1};\n\tret;\n}\n");
    const ptx_function *k = ptx_find_function(m, "k");
    assert_int_equal(k->insns[0].opnd[1].kind, PTX_OPND_IMM);
    assert_int_equal(k->insns[0].opnd[1].imm, 32);
    assert_int_equal(k->insns[1].opnd[1].sreg, PTX_SREG_ENVREG0 + 7);
    assert_string_equal(ptx_sreg_name(k->insns[1].opnd[1].sreg), "%envreg7");
    assert_int_equal(k->insns[2].opnd[1].sreg, PTX_SREG_GLOBALTIMER_HI);
    assert_int_equal(k->insns[3].opnd[1].sreg, PTX_SREG_CLUSTER_NCTARANK);
    assert_int_equal(k->insns[4].opnd[1].kind, PTX_OPND_FUNC);
    assert_int_equal(k->insns[4].opnd[1].target, 0);                     /* f is funcs[0] */
    const ptx_operand *v = &k->insns[5].opnd[1];
    assert_int_equal(v->vec_n, 2);
    assert_int_equal(v->vec_imm, 1);
    assert_int_equal(v->vimm[0], -3);
    assert_int_equal(v->vec[1], find_reg(k, "%r1"));
    for (int r = 0; r < PTX_SREG_COUNT; r++)                 /* every name finds its register again */
        assert_int_equal(ptx_sreg_lookup(ptx_sreg_name((ptx_sreg)r), strlen(ptx_sreg_name((ptx_sreg)r))), r);
    ptx_free(m);
}

/* Inline asm (cuda_fp16.h's __low2float) declares registers without '%': { .reg .f16 low, high;
 * mov.b32 {low, high}, %r1; cvt.f32.f16 %f1, low; } — they are registers like any other. */
static void test_registers_named_without_a_percent_sign_are_registers(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(HEADER ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<2>;\n"
                             "\t{.reg .f16 low,high;\n\tmov.b32 {low,high},%r1;\n\tcvt.f32.f16 %f1, low;}\n"
                             "\t{.reg .pred p;\n\tsetp.eq.u32 p, %r1, 0;\n\t@!p bra L;\n\t}\nL:\n\tret;\n}\n");
    const ptx_function *k = &m->funcs[0];
    int low = find_reg(k, "low"), high = find_reg(k, "high"), p = find_reg(k, "p");
    assert_true(low >= 0 && high >= 0 && p >= 0);
    assert_int_equal(k->insns[0].opnd[0].kind, PTX_OPND_VEC);
    assert_int_equal(k->insns[0].opnd[0].vec[0], low);
    assert_int_equal(k->insns[0].opnd[0].vec[1], high);
    assert_int_equal(k->insns[1].opnd[1].kind, PTX_OPND_REG);
    assert_int_equal(k->insns[1].opnd[1].reg, low);
    assert_int_equal(k->insns[2].opnd[0].reg, p);
    assert_int_equal(k->insns[3].guard, p);
    assert_true(k->insns[3].guard_neg);
    ptx_free(m);
}

/* Six arguments (more than an instruction has operands), an indirect call through a
 * register with its prototype, printf's vprintf and assert's __assertfail resolved to
 * what the simulator runs, and a table of function addresses in a .global initialiser. */
static void test_calls_take_any_number_of_arguments_and_name_their_callee(void **state)
{
    (void)state;
    const char *text = HEADER
        ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
        ".func (.param .b32 r) f(.param .b32 a, .param .b32 b, .param .b32 c, .param .b32 d, .param .b32 e,"
        " .param .b64 g)\n{\n\tret;\n}\n"
        ".global .align 8 .u64 table[2] = {f, f};\n"
        ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\t{\n"
        "\t.param .b32 p0;\n\t.param .b32 p1;\n\t.param .b32 p2;\n\t.param .b32 p3;\n\t.param .b32 p4;\n"
        "\t.param .b64 p5;\n\t.param .b32 ret;\n"
        "\tcall.uni (ret), f, (p0, p1, p2, p3, p4, p5);\n"
        "\tproto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _, .param .b32 _, .param .b32 _,"
        " .param .b32 _, .param .b64 _);\n"
        "\tcall (ret), %rd1, (p0, p1, p2, p3, p4, p5), proto;\n"
        "\tcall.uni (ret), vprintf, (p5, p5);\n"
        "\t}\n\tret;\n}\n";
    ptx_module *m = parse_ok(text);
    const ptx_function *k = ptx_find_function(m, "k");
    const ptx_insn *direct = &k->insns[0], *indirect = &k->insns[1], *pr = &k->insns[2];
    assert_int_equal(direct->ncall_args, 6);
    for (int i = 0; i < 6; i++) {
        char want[16];
        snprintf(want, sizeof want, "p%d", i);
        assert_string_equal(k->syms[k->call_args[direct->call_arg0 + i]].name, want);
    }
    assert_int_equal(direct->opnd[1].target, 0);
    assert_int_equal(indirect->opnd[1].kind, PTX_OPND_REG);
    assert_int_equal(indirect->ncall_args, 6);
    assert_int_equal(pr->opnd[1].target, PTX_CALLEE_VPRINTF);
    char buf[256];
    ptx_format_insn(k, direct, buf, sizeof buf);
    assert_string_equal(buf, "call.uni (ret), f, (p0, p1, p2, p3, p4, p5)");
    uint64_t t0, t1;
    memcpy(&t0, m->global_image, 8);
    memcpy(&t1, m->global_image + 8, 8);
    assert_true(t0 == PTX_FUNC_ADDRESS(0) && t1 == PTX_FUNC_ADDRESS(0));
    ptx_free(m);
}

/* Unknown callees, a name that is neither a variable nor a function, and a call through
 * a prototype the function never declared: each refuses its function, located. */
static void test_calls_that_cannot_run_refuse_their_function_with_a_located_reason(void **state)
{
    (void)state;
    ws_error e = parse_err(HEADER ".visible .entry k()\n{\n\tcall.uni nowhere, ();\n\tret;\n}\n");
    assert_int_equal(e.line, 6);
    assert_non_null(strstr(e.msg, "call to unknown function 'nowhere'"));
    e = parse_err(HEADER ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, nothing;\n\tret;\n}\n");
    assert_int_equal(e.line, 7);
    assert_int_equal(e.col, 16);
    assert_non_null(strstr(e.msg, "unknown name 'nothing'"));
    e = parse_err(HEADER ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tcall %rd1, (), proto;\n\tret;\n}\n");
    assert_non_null(strstr(e.msg, "'proto' is not a .callprototype"));
}

/* ---- malformed input ----------------------------------------------------------- */

static void test_malformed_ptx_corpus_gives_the_expected_located_errors(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("tests/data/bad_ptx/*.ptx", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 15);
    int wrong = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i];
        char *text = ws_read_file(path, 0, NULL, NULL);
        assert_non_null(text);
        int line = 0, col = 0, n = 0;
        /* first line: // expect: <line>:<col>: <message substring> */
        assert_int_equal(sscanf(text, "// expect: %d:%d: %n", &line, &col, &n), 2);
        char want[256];
        const char *eol = strchr(text + n, '\n');
        assert_non_null(eol);
        snprintf(want, sizeof want, "%.*s", (int)(eol - (text + n)), text + n);
        ws_error err;
        memset(&err, 0, sizeof err);
        ptx_module *m = ptx_load(path, &err);
        const ws_error *r = first_refusal(m);    /* inside a body: that function is refused */
        if (r) err = *r;
        if (m && !r) fprintf(stderr, "%s: parsed, expected an error\n", path);
        assert_true(!m || r);
        ptx_free(m);
        if (err.line != line || err.col != col || !strstr(err.msg, want))
        {
            fprintf(stderr, "%s: got %d:%d: %s\n   want %d:%d: ...%s...\n", path, err.line, err.col, err.msg, line,
                    col, want);
            wrong++;
        }
        assert_string_equal(err.file, path);
        free(text);
    }
    globfree(&g);
    assert_int_equal(wrong, 0);
}

static void test_errors_name_the_token_line_and_column(void **state)
{
    (void)state;
    ws_error e = parse_err(HEADER ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %r7;\n\tret;\n}\n");
    assert_int_equal(e.line, 7);
    assert_int_equal(e.col, 15);
    assert_non_null(strstr(e.msg, "'%r7'"));
    e = parse_err(HEADER ".visible .entry k()\n{\n\ttex.2d.v4.f32.f32 {%f1}, [t, {%r1}];\n}\n");
    assert_int_equal(e.line, 6);
    assert_int_equal(e.col, 2);
    assert_non_null(strstr(e.msg, "unsupported instruction 'tex.2d.v4.f32.f32'"));
    e = parse_err("");
    assert_non_null(strstr(e.msg, ".version"));
    e = parse_err(HEADER ".visible .entry k()\n{\n\tbra L9;\n}\n");
    assert_non_null(strstr(e.msg, "undefined label 'L9'"));
    /* cvt's forms: each wrong combination named (PTX ISA "cvt") */
    static const struct { const char *insn, *want; } cvt_bad[] = {
        {"cvt.rn.f16x2.f32 %r1, %f1;", "packs two values: d, a, b"},
        {"cvt.rn.f32.f16 %f1, %rs1, %rs2;", "takes 2 operands (3 only when it packs"},
        {"cvt.rm.f16x2.f32 %r1, %f1, %f2;", "rounds .rn or .rz"},
        {"cvt.rn.e4m3x2.f32 %rs1, %f1, %f2;", "is .rn.satfinite"},
        {"cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1;", "two .f32 (d, a, b) or one .f16x2"},
        {"cvt.rn.f32.e4m3x2 %f1, %rs1;", "cvt.rn{.relu}.f16x2.e4m3x2"},
        {"cvt.rzi.relu.s32.f32 %r1, %f1;", ".relu and .satfinite apply"},
        {"cvt.rna.relu.tf32.f32 %r1, %f1;", "tf32 is made as"},
    };
    for (size_t i = 0; i < sizeof cvt_bad / sizeof cvt_bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".visible .entry k()\n{\n\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<4>;\n"
                 "\t.reg .f32 %%f<4>;\n\t%s\n\tret;\n}\n", cvt_bad[i].insn);
        e = parse_err(text);
        if (!strstr(e.msg, cvt_bad[i].want)) fprintf(stderr, "%s -> %s\n", cvt_bad[i].insn, e.msg);
        assert_non_null(strstr(e.msg, cvt_bad[i].want));
        assert_int_equal(e.line, 9);
    }
    /* wmma fragments hold the PTX ISA's register counts per shape and type */
    static const struct { const char *insn, *want; } wmma_bad[] = {
        {"wmma.load.b.sync.aligned.col.m32n8k16.global.bf16 {%r1, %r2, %r3, %r4}, [%rd1];",
         "the .b fragment of .m32n8k16.bf16 needs 2 registers, found 4"},
        {"wmma.load.a.sync.aligned.row.m8n32k16.global.s8 {%r1, %r2}, [%rd1];",
         "the .a fragment of .m8n32k16.s8 needs 1 register"},
        {"wmma.load.c.sync.aligned.row.m16n16k8.f32 {%r1, %r2}, [%rd1];", "needs 8 registers, found 2"},
    };
    for (size_t i = 0; i < sizeof wmma_bad / sizeof wmma_bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".visible .entry k()\n{\n\t.reg .b64 %%rd<4>;\n\t.reg .b32 %%r<9>;\n"
                 "\t%s\n\tret;\n}\n", wmma_bad[i].insn);
        e = parse_err(text);
        if (!strstr(e.msg, wmma_bad[i].want)) fprintf(stderr, "%s -> %s\n", wmma_bad[i].insn, e.msg);
        assert_non_null(strstr(e.msg, wmma_bad[i].want));
    }
}

static void test_load_reports_missing_files_and_nul_bytes(void **state)
{
    (void)state;
    ws_error err;
    assert_null(ptx_load("/nonexistent/k.ptx", &err));
    assert_string_equal(err.file, "/nonexistent/k.ptx");
    assert_non_null(strstr(err.msg, "cannot open"));
    char path[] = "/tmp/ws-nul-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] = ".version 9.0\n.target sm_90\n\0garbage";
    assert_int_equal(write(fd, text, sizeof text - 1), (int)(sizeof text - 1));
    close(fd);
    assert_null(ptx_load(path, &err));
    assert_int_equal(err.line, 3); /* the NUL sits on line 3 */
    assert_non_null(strstr(err.msg, "NUL byte"));
    unlink(path);
}

/* Cutting valid PTX anywhere gives either a module or a located error, never a crash. */
static void test_truncated_ptx_never_crashes(void **state)
{
    (void)state;
    char *text = ws_read_file("tests/data/ptx/basics.ptx", 0, NULL, NULL);
    assert_non_null(text);
    size_t len = strlen(text);
    int ok = 0, bad = 0;
    for (size_t cut = 0; cut < len; cut += (cut < 2000 ? 1 : 7)) {
        char *t = malloc(cut + 1);
        assert_non_null(t);
        memcpy(t, text, cut);
        t[cut] = 0;
        ws_error err;
        memset(&err, 0, sizeof err);
        ptx_module *m = ptx_parse("cut.ptx", t, &err);
        if (m) { ok++; ptx_free(m); }
        else {
            bad++;
            assert_true(err.line >= 1);
            assert_true(err.msg[0] != 0);
        }
        free(t);
    }
    assert_true(bad > 0);
    free(text);
    (void)ok;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Random bytes, random token soup and byte flips of real PTX. */
static void test_garbage_and_mutated_ptx_never_crash(void **state)
{
    (void)state;
    static const char *const toks[] = {".version 9.0", ".target sm_90", ".entry", ".func", ".reg .b32 %r<4>", "{",
                                       "}", "(", ")", "[", "]", ";", ",", "%r1", "%rd1", "@%p1", "bra", "L1:",
                                       "L1", "ld.global.f32", "st.shared.v4.u32", ".param .u64 p", "0f3F800000",
                                       "-", "+", "|", "!", "\n", "_", ".shared .b8 s[4]", "call", "0x", "\"",
                                       "/*", "//", "<", ">", ".loc 1 2 3", "mov.b64", "{%r1, %r2}", "= {1,2}"};
    char *orig = ws_read_file("tests/data/ptx/shared.ptx", 0, NULL, NULL);
    assert_non_null(orig);
    size_t olen = strlen(orig);
    char buf[4096];
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = 0;
        int kind = iter % 3;
        char *text = buf;
        if (kind == 0) {
            size_t want = rnd() % (sizeof buf - 1);
            for (; n < want; n++) buf[n] = (char)(1 + rnd() % 255);
            buf[n] = 0;
        } else if (kind == 1) {
            strcpy(buf, ".version 9.0\n.target sm_90\n");
            n = strlen(buf);
            for (int k = 0; k < 200; k++) {
                const char *t = toks[rnd() % (sizeof toks / sizeof toks[0])];
                size_t l = strlen(t);
                if (n + l + 2 >= sizeof buf) break;
                memcpy(buf + n, t, l);
                n += l;
                buf[n++] = ' ';
            }
            buf[n] = 0;
        } else {
            text = malloc(olen + 1);
            assert_non_null(text);
            memcpy(text, orig, olen + 1);
            for (int k = 0; k < 3; k++) text[rnd() % olen] = (char)(1 + rnd() % 255);
        }
        ws_error err;
        memset(&err, 0, sizeof err);
        ptx_module *m = ptx_parse("junk.ptx", text, &err);
        if (m) ptx_free(m);
        else assert_true(err.msg[0] != 0);
        if (text != buf) free(text);
    }
    free(orig);
}

/* A row of sim/frontend/ptx_ops.h that contradicts itself fails here, naming the opcode. */
#define ROW_OK(cond, what) do { if (!(cond)) fail_msg("ptx_ops.h row '%s': %s", r->name, what); } while (0)

static void test_every_opcode_row_is_complete_and_its_name_finds_it_again(void **state)
{
    (void)state;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        const ptx_opinfo *r = ptx_op_info((ptx_opcode)op);
        assert_non_null(r->name);
        ROW_OK(r->name[0] && strcmp(r->name, "?"), "no name");
        uint32_t fl = 1;
        /* a name shared by two rows would find the first of them */
        ROW_OK(ptx_opcode_lookup(r->name, strlen(r->name), &fl) == (ptx_opcode)op, "its name finds another opcode");
        ROW_OK(fl == 0, "its name implies flags");
        ROW_OK(r->cls <= PTX_CLS_UNSUPPORTED, "class out of range");
        if (r->lo < 0) {                             /* call, brx: their own parser decides */
            ROW_OK(r->hi < 0 && r->dst == PTX_DST_NONE && r->mem < 0, "an own-parser row with operand rules");
            continue;
        }
        ROW_OK(r->lo <= r->hi && r->hi <= PTX_MAX_OPND, "operand count lo > hi or above PTX_MAX_OPND");
        ROW_OK(r->dst == PTX_DST_NONE || r->lo >= 1, "a destination but no operand to hold it");
        ROW_OK(r->dst != PTX_DST_PAIR || r->hi > r->lo, "a d|p pair but no room for the second destination");
        ROW_OK(r->mem >= -1 && r->mem < (r->lo > 0 ? r->lo : 0), "address operand beyond the operands");
        ROW_OK((r->cls == PTX_CLS_MEM) <= (r->mem >= 0), "a memory opcode without an address operand");
        ROW_OK(r->mem < 0 || r->dst == PTX_DST_NONE || r->mem > 0, "the address operand is the destination");
        ROW_OK(r->t2 >= 0 && r->t2 < (r->hi > 1 ? r->hi : 1), "second-type operand beyond the operands");
    }
    /* words that fold a modifier into the opcode, and words that name nothing */
    uint32_t fl;
    assert_int_equal(ptx_opcode_lookup("addc", 4, &fl), PTX_ADD);
    assert_int_equal(fl, PTX_F_CARRYIN);
    assert_int_equal(ptx_opcode_lookup("madc", 4, &fl), PTX_MAD);
    assert_int_equal(fl, PTX_F_CARRYIN);
    assert_int_equal(ptx_opcode_lookup("prefetchu", 9, &fl), PTX_PREFETCH);
    assert_int_equal(fl, 0);
    assert_int_equal(ptx_opcode_lookup("adds", 4, &fl), PTX_OP_INVALID);
    assert_int_equal(ptx_opcode_lookup("ad", 2, &fl), PTX_OP_INVALID);
    assert_int_equal(ptx_op_info((ptx_opcode)999)->cls, PTX_CLS_UNSUPPORTED);
}

static void test_every_opcode_has_an_example_that_parses_into_its_row(void **state)
{
    (void)state;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        const ptx_opinfo *r = ptx_op_info((ptx_opcode)op);
        const char *text = ws_op_example((ptx_opcode)op);
        ROW_OK(text, "no example in tests/op_examples.c");
        if (op == PTX_CALL) continue;                /* needs a callee: test_call_sequences_... parses calls */
        if (op == PTX_BRX) {                         /* refused, saying why */
            char body[256];
            snprintf(body, sizeof body, HEADER ".visible .entry k()\n{\n\t.reg .b32 %%r<8>;\nL0:\n\t%s\n\tret;\n}\n", text);
            ws_error err = parse_err(body);
            assert_non_null(strstr(err.msg, "indirect branch"));
            continue;
        }
        const ptx_insn *in;
        const ptx_function *f;
        ptx_module *m = one_insn("", text, &in, &f);
        ROW_OK(in->op == (ptx_opcode)op, "its example parses as another opcode");
        /* the destinations: none, one, or two where the text writes d|p */
        int want = r->dst == PTX_DST_NONE ? 0 : strchr(text, '|') ? 2 : 1;
        ROW_OK(in->ndst == want, "ptx_insn.ndst disagrees with the dst column");
        int n = in->nopnd - (op == PTX_TESTP);       /* testp's class travels as one more operand */
        ROW_OK(n >= r->lo && n <= r->hi, "its example's operand count is outside lo..hi");
        for (int i = 0; i < in->nopnd; i++)
            ROW_OK((in->opnd[i].kind == PTX_OPND_MEM) == (i == r->mem || (ptx_insn_extra_mem(in) >> i & 1)),
                   "the address operand is not where mem (or ptx_insn_extra_mem) says");
        ROW_OK(ptx_insn_is_memory(in) == (r->cls == PTX_CLS_MEM), "memory-ness disagrees with the class");
        char buf[160];
        ptx_format_insn(f, in, buf, sizeof buf);
        size_t k = strlen(r->name);
        ROW_OK(!strncmp(buf, r->name, k) && (buf[k] == '.' || buf[k] == ' ' || !buf[k]), "formats under another name");
        ROW_OK(!strchr(text, '|') == !strchr(buf, '|'), "a d|p pair does not format back as one");
        ptx_free(m);
    }
}

/* Issue 21: the PTX ISA gives atom and red the spaces .global, .shared{::cta,::cluster} and
 * generic only, and st none of .const; each wrong one is refused at its line, the right ones parse. */
static void test_atomics_outside_global_and_shared_and_stores_into_const_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {"atom.const.add.u32 %r1, [c], 1;", "red.const.add.u32 [c], 1;",
                         "atom.local.add.u32 %r1, [%rd1], 1;", "atom.param.add.u32 %r1, [%rd1], 1;",
                         "st.const.u32 [c], %r1;"};
    const char *why[] = {"atom takes a .global, .shared or generic address only", "red takes a .global",
                         "atom takes a .global", "atom takes a .global", ".const memory is read-only to a kernel"};
    for (int i = 0; i < 5; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".const .align 4 .u32 c;\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n"
                 "\t.reg .b64 %%rd<3>;\n\t%s\n\tret;\n}\n", bad[i]);
        ws_error e = parse_err(text);
        assert_int_equal(e.line, 9);
        if (!strstr(e.msg, why[i])) fail_msg("'%s': %s", bad[i], e.msg);
    }
    const char *good[] = {"atom.global.add.u32 %r1, [%rd1], 1;", "atom.shared.add.u32 %r1, [%rd1], 1;",
                          "atom.shared::cta.add.u32 %r1, [%rd1], 1;", "atom.add.u32 %r1, [%rd1], 1;",
                          "red.global.add.u32 [%rd1], 1;", "ld.const.u32 %r1, [c];"};
    for (int i = 0; i < 6; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".const .align 4 .u32 c;\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n"
                 "\t.reg .b64 %%rd<3>;\n\t%s\n\tret;\n}\n", good[i]);
        ptx_free(parse_ok(text));
    }
}

/* wgmma and setmaxnreg only under .target sm_90a (ptxas: "not supported on .target 'sm_90'"): the
 * function that holds one is refused at its line, the module's other functions are not. */
static void test_sm_90a_instructions_under_an_sm_90_target_refuse_their_function(void **state)
{
    (void)state;
    static const char body[] =
        ".visible .entry k()\n{\n    setmaxnreg.inc.sync.aligned.u32 232;\n    ret;\n}\n"
        ".visible .entry other()\n{\n    ret;\n}\n";
    char text[512];
    snprintf(text, sizeof text, "%s%s", HEADER, body);                /* .target sm_90 */
    ptx_module *m = parse_ok(text);
    const ptx_function *k = ptx_find_function(m, "k"), *other = ptx_find_function(m, "other");
    assert_non_null(k->refusal);
    assert_null(other->refusal);
    assert_int_equal(k->refusal->line, 6);                            /* the setmaxnreg */
    assert_non_null(strstr(k->refusal->msg, "setmaxnreg exists only on the architecture-specific target sm_90a, "
                                            "and this PTX's .target is sm_90"));
    ptx_free(m);
    snprintf(text, sizeof text, ".version 9.0\n.target sm_90a\n.address_size 64\n%s", body);
    m = parse_ok(text);
    assert_null(ptx_find_function(m, "k")->refusal);
    ptx_free(m);
    snprintf(text, sizeof text, "%s.visible .entry w()\n{\n    wgmma.fence.sync.aligned;\n    ret;\n}\n", HEADER);
    m = parse_ok(text);
    assert_non_null(ptx_find_function(m, "w")->refusal);
    assert_non_null(strstr(ptx_find_function(m, "w")->refusal->msg, "wgmma.fence exists only on"));
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomics_outside_global_and_shared_and_stores_into_const_are_refused),
        cmocka_unit_test(test_copy_kernel_resolves_params_registers_labels_and_lines),
        cmocka_unit_test(test_find_function_accepts_the_plain_cxx_name_of_a_mangled_kernel),
        cmocka_unit_test(test_shared_layout_packs_referenced_variables_and_aligns_dynamic_shared),
        cmocka_unit_test(test_shared_variables_of_a_called_function_agree_between_caller_and_callee),
        cmocka_unit_test(test_parameters_are_aligned_like_the_abi),
        cmocka_unit_test(test_type_sizes_and_names),
        cmocka_unit_test(test_every_opcode_row_is_complete_and_its_name_finds_it_again),
        cmocka_unit_test(test_every_opcode_has_an_example_that_parses_into_its_row),
        cmocka_unit_test(test_sm_90a_instructions_under_an_sm_90_target_refuse_their_function),
        cmocka_unit_test(test_const_and_global_initialisers_fill_the_module_images),
        cmocka_unit_test(test_call_sequences_get_scoped_param_variables_and_a_resolved_callee),
        cmocka_unit_test(test_immediates_float_hex_negative_and_offsets_decode_exactly),
        cmocka_unit_test(test_vector_memory_operations_keep_their_lane_count_and_width),
        cmocka_unit_test(test_pair_destinations_become_consecutive_operands),
        cmocka_unit_test(test_warp_and_barrier_instructions_keep_their_modes),
        cmocka_unit_test(test_inlined_code_maps_to_the_call_site_line),
        cmocka_unit_test(test_formatting_round_trips_nvcc_instructions),
        cmocka_unit_test(test_every_checked_in_ptx_parses_with_lines_and_widths),
        cmocka_unit_test(test_identifiers_of_300_characters_keep_every_character),
        cmocka_unit_test(test_an_unsupported_body_refuses_its_function_only),
        cmocka_unit_test(test_a_refused_callee_is_found_through_the_calls_that_reach_it),
        cmocka_unit_test(test_predefined_identifiers_function_addresses_and_vector_immediates),
        cmocka_unit_test(test_registers_named_without_a_percent_sign_are_registers),
        cmocka_unit_test(test_calls_take_any_number_of_arguments_and_name_their_callee),
        cmocka_unit_test(test_calls_that_cannot_run_refuse_their_function_with_a_located_reason),
        cmocka_unit_test(test_malformed_ptx_corpus_gives_the_expected_located_errors),
        cmocka_unit_test(test_errors_name_the_token_line_and_column),
        cmocka_unit_test(test_load_reports_missing_files_and_nul_bytes),
        cmocka_unit_test(test_truncated_ptx_never_crashes),
        cmocka_unit_test(test_garbage_and_mutated_ptx_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
