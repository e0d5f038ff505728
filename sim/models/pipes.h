/* pipes.h - which arithmetic pipe of the SM an instruction occupies (ws_pipe, common/device.h),
 * for the issue term's busiest pipe (sim/models/timing.c, docs/timing-model.md "Pipes").
 * By SASS opcode where the SASS is known (what the SM runs: ptxas spreads integer adds over
 * IADD3 on the ALU and IMAD.IADD on fma-heavy), else by PTX opcode and type (what ptxas
 * usually makes of it). Instructions that use no arithmetic pipe (memory, branches, barriers,
 * uniform-datapath, moves between special registers, ptxas's HFMA2.MMA zeroing move) are
 * WS_PIPE_NONE: they cost only their issue slot. Pure functions of the instruction. */
#ifndef WS_PIPES_H
#define WS_PIPES_H

#include <stdint.h>

#include "../../common/device.h"
#include "../frontend/ptx.h"

/* text: a SASS instruction as nvdisasm lists it, guard included ("@!P0 IMAD.IADD R1, R2, 0x1, R3").
 * Tensor instructions by form (HMMA.16816 -> WS_PIPE_HMMA, HMMA.1688.F32 -> WS_PIPE_HMMA_K8,
 * HGMMA.64x128x16.F32 -> WS_PIPE_GMMA, ...). */
ws_pipe ws_pipe_of_sass(const char *text);
/* What one execution of it counts in its pipe: 1, but a wgmma (HGMMA/QGMMA/IGMMA/BGMMA
 * .64xNxK) N/8, the units the GMMA rate is in. NULL: 0. */
unsigned ws_pipe_units_of_sass(const char *text);
/* A PTX instruction's pipe (mma, wmma.mma and wgmma as ptxas compiles them for sm_80+). */
ws_pipe ws_pipe_of_ptx(const ptx_insn *in);
/* Its units per execution: wmma.mma m16n16k16 2 (two HMMA), wgmma N/8, else 1. */
unsigned ws_pipe_units_of_ptx(const ptx_insn *in);
/* Warp instructions (tensor forms: units) per pipe of fn, from the interpreter's per-pc warp
 * counts (out[WS_PIPE_NONE]: the rest). pc_warp_count NULL: all zero. */
void ws_pipe_ptx_insns(const ptx_function *fn, const uint64_t *pc_warp_count, uint64_t out[WS_PIPE_COUNT]);

#endif
