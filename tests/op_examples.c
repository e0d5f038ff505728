/* op_examples.c - the examples of op_examples.h, one row per opcode: adding a row
 * to sim/frontend/ptx_ops.h means adding its example here (docs/adding-an-opcode.md).
 * Invariant: each text parses inside a kernel body as exactly one instruction. */
#include "op_examples.h"

#include <stddef.h>

static const struct { ptx_opcode op; const char *text; } examples[] = {
    {PTX_ADD, "add.s32 %r3, %r2, %r5;"},             {PTX_SUB, "sub.s32 %r3, %r2, %r5;"},
    {PTX_MUL, "mul.lo.s32 %r3, %r2, %r5;"},          {PTX_MAD, "mad.lo.s32 %r3, %r2, %r5, %r2;"},
    {PTX_MUL24, "mul24.lo.s32 %r3, %r2, %r5;"},      {PTX_MAD24, "mad24.lo.s32 %r3, %r2, %r5, %r2;"},
    {PTX_SAD, "sad.u32 %r3, %r2, %r5, %r2;"},        {PTX_FMA, "fma.rn.f32 %f3, %f1, %f2, %f1;"},
    {PTX_DIV, "div.s32 %r3, %r2, %r5;"},             {PTX_REM, "rem.u32 %r3, %r2, %r5;"},
    {PTX_ABS, "abs.s32 %r3, %r2;"},                  {PTX_NEG, "neg.s32 %r3, %r2;"},
    {PTX_MIN, "min.s32 %r3, %r2, %r5;"},             {PTX_MAX, "max.u32 %r3, %r2, %r5;"},
    {PTX_POPC, "popc.b32 %r3, %r2;"},                {PTX_CLZ, "clz.b32 %r3, %r2;"},
    {PTX_BFIND, "bfind.u32 %r3, %r2;"},              {PTX_BREV, "brev.b32 %r3, %r2;"},
    {PTX_BFE, "bfe.u32 %r3, %r2, 8, 4;"},            {PTX_BFI, "bfi.b32 %r3, %r2, %r5, 8, 4;"},
    {PTX_PRMT, "prmt.b32 %r3, %r2, %r5, 12816;"},    {PTX_COPYSIGN, "copysign.f32 %f3, %f1, %f2;"},
    {PTX_RCP, "rcp.rn.f32 %f3, %f1;"},               {PTX_SQRT, "sqrt.rn.f32 %f3, %f1;"},
    {PTX_RSQRT, "rsqrt.approx.f32 %f3, %f1;"},       {PTX_SIN, "sin.approx.f32 %f3, %f1;"},
    {PTX_COS, "cos.approx.f32 %f3, %f1;"},           {PTX_LG2, "lg2.approx.f32 %f3, %f1;"},
    {PTX_EX2, "ex2.approx.f32 %f3, %f1;"},           {PTX_TANH, "tanh.approx.f32 %f3, %f1;"},
    {PTX_TESTP, "testp.finite.f32 %p1, %f1;"},       {PTX_DP4A, "dp4a.u32.u32 %r3, %r2, %r5, %r2;"},
    {PTX_DP2A, "dp2a.lo.u32.u32 %r3, %r2, %r5, %r2;"},
    {PTX_AND, "and.b32 %r3, %r2, %r5;"},             {PTX_OR, "or.b32 %r3, %r2, %r5;"},
    {PTX_XOR, "xor.b32 %r3, %r2, %r5;"},             {PTX_NOT, "not.b32 %r3, %r2;"},
    {PTX_CNOT, "cnot.b32 %r3, %r2;"},                {PTX_LOP3, "lop3.b32 %r3, %r2, %r5, %r2, 150;"},
    {PTX_SHL, "shl.b32 %r3, %r2, 3;"},               {PTX_SHR, "shr.u32 %r3, %r2, 3;"},
    {PTX_SHF, "shf.l.wrap.b32 %r3, %r2, %r5, %r2;"},
    {PTX_SETP, "setp.lt.u32 %p1|%p2, %r2, %r5;"},    {PTX_SET, "set.lt.u32.u32 %r3, %r2, %r5;"},
    {PTX_SELP, "selp.b32 %r3, %r2, %r5, %p1;"},      {PTX_SLCT, "slct.b32.s32 %r3, %r2, %r5, %r2;"},
    {PTX_MOV, "mov.b32 %r3, %r2;"},                  {PTX_CVT, "cvt.u64.u32 %rd3, %r2;"},
    {PTX_CVTA, "cvta.to.global.u64 %rd3, %rd1;"},    {PTX_LD, "ld.global.u32 %r3, [%rd1];"},
    {PTX_LDU, "ldu.global.u32 %r3, [%rd1];"},        {PTX_ST, "st.global.u32 [%rd1], %r3;"},
    {PTX_PREFETCH, "prefetch.global.L2 [%rd1];"},    {PTX_ISSPACEP, "isspacep.global %p1, %rd1;"},
    {PTX_ATOM, "atom.global.add.u32 %r3, [%rd1], %r2;"}, {PTX_RED, "red.global.add.u32 [%rd1], %r2;"},
    {PTX_SHFL, "shfl.sync.bfly.b32 %r3|%p1, %r2, 16, 31, -1;"},
    {PTX_VOTE, "vote.sync.ballot.b32 %r3, %p1, -1;"}, {PTX_MATCH, "match.any.sync.b32 %r3, %r2, -1;"},
    {PTX_ACTIVEMASK, "activemask.b32 %r3;"},         {PTX_REDUX, "redux.sync.add.u32 %r3, %r2, -1;"},
    {PTX_BAR, "bar.sync 0;"},                        {PTX_BARRIER, "barrier.sync 0;"},
    {PTX_MEMBAR, "membar.gl;"},                      {PTX_FENCE, "fence.acq_rel.gpu;"},
    {PTX_NANOSLEEP, "nanosleep.u32 100;"},           {PTX_PMEVENT, "pmevent 3;"},
    {PTX_BRA, "bra.uni L0;"},
    {PTX_BRX, "brx.idx %r2, L0;"},                   {PTX_CALL, "call f;"},
    {PTX_RET, "ret;"},                               {PTX_EXIT, "exit;"},
    {PTX_TRAP, "trap;"},                             {PTX_BRKPT, "brkpt;"},
    {PTX_CP_ASYNC, "cp.async.ca.shared.global [%r1], [%rd1], 16, %r2;"},
    {PTX_CP_COMMIT, "cp.async.commit_group;"},       {PTX_CP_WAIT, "cp.async.wait_group 1;"},
    {PTX_CP_WAIT_ALL, "cp.async.wait_all;"},
    {PTX_CP_MBAR_ARRIVE, "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];"},
    {PTX_LDMATRIX, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r4];"},
    {PTX_STMATRIX, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r4], {%r0, %r1};"},
    {PTX_WMMA_LOAD, "wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%r0, %r1, %r2, %r3}, [%rd1], %r4;"},
    {PTX_WMMA_STORE, "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], "
                     "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, %r4;"},
    {PTX_WMMA_MMA, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, "
                   "%f7}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};"},
    {PTX_MMA, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, "
              "{%r4, %r5}, {%f4, %f5, %f6, %f7};"},
    {PTX_MBAR_INIT, "mbarrier.init.shared.b64 [%r1], %r2;"},
    {PTX_MBAR_ARRIVE, "mbarrier.arrive.shared.b64 %rd2, [%r1];"},
    {PTX_MBAR_ARRIVE_DROP, "mbarrier.arrive_drop.shared.b64 %rd2, [%r1];"},
    {PTX_MBAR_EXPECT_TX, "mbarrier.expect_tx.relaxed.cta.shared.b64 [%r1], 1024;"},
    {PTX_MBAR_COMPLETE_TX, "mbarrier.complete_tx.relaxed.cta.shared.b64 [%r1], 1024;"},
    {PTX_MBAR_TEST_WAIT, "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd2;"},
    {PTX_MBAR_TRY_WAIT, "mbarrier.try_wait.parity.shared.b64 %p1, [%r1], %r2;"},
    {PTX_MBAR_INVAL, "mbarrier.inval.shared.b64 [%r1];"},
    {PTX_CP_BULK, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];"},
    {PTX_CP_BULK_TENSOR, "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], "
                         "[%rd1, {%r2, %r3}], [%r4];"},
    {PTX_CP_BULK_COMMIT, "cp.async.bulk.commit_group;"},
    {PTX_CP_BULK_WAIT, "cp.async.bulk.wait_group.read 0;"},
    {PTX_WGMMA_MMA, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;"},
    {PTX_WGMMA_FENCE, "wgmma.fence.sync.aligned;"},  {PTX_WGMMA_COMMIT, "wgmma.commit_group.sync.aligned;"},
    {PTX_WGMMA_WAIT, "wgmma.wait_group.sync.aligned 0;"},
    {PTX_MAPA, "mapa.shared::cluster.u32 %r1, %r2, 0;"}, {PTX_GETCTARANK, "getctarank.shared::cluster.u32 %r1, %r2;"},
    {PTX_ELECT, "elect.sync %r1|%p1, -1;"},         {PTX_BARRIER_CLUSTER, "barrier.cluster.arrive.aligned;"},
    {PTX_SETMAXNREG, "setmaxnreg.inc.sync.aligned.u32 240;"}, {PTX_GRIDDEPCONTROL, "griddepcontrol.wait;"},
};

const char *ws_op_example(ptx_opcode op)
{
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        if (examples[i].op == op) return examples[i].text;
    return NULL;
}
