/* ptx_check.h - the checks ptxas makes that parsing alone does not (sim/frontend/ptx_check.c):
 * operand types against instruction types, writes to input parameters, .version and
 * .target. ptx_parse runs it on every module, so no PTX that ptxas would refuse for these
 * reasons reaches the interpreter. */
#ifndef WS_PTX_CHECK_H
#define WS_PTX_CHECK_H

#include "../../common/ws_error.h"
#include "ptx.h"

#define WS_PTX_MAX_VERSION_MAJOR 9   /* PTX ISA 9.x: CUDA 13 */

/* Checks the parsed module m (text: the PTX it was parsed from, for columns). Returns 0,
 * or -1 with err naming m->path, the line and column of the operand at fault, the
 * instruction and the function, e.g. "k.ptx:16:13: error: operand 2 is %rd1, a .b64
 * register where .s32 is needed (ptxas: Arguments mismatch) in 'add.s32 %r1, %rd1, %r3' (k)". */
int ptx_check_module(const ptx_module *m, const char *text, ws_error *err);

#endif
