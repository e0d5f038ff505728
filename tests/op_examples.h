/* op_examples.h - one PTX instruction per opcode of sim/frontend/ptx_ops.h, for the tests
 * that check every table row against the parser (test_ptx.c) and every ALU row
 * against its semantics (test_exec.c).
 * Invariant: an example names only registers both harnesses declare (%p0-3,
 * %r0-7, %rd0-7, %f0-7, %fd0-3) and the label L0; a d|p pair is written with '|'. */
#ifndef WS_OP_EXAMPLES_H
#define WS_OP_EXAMPLES_H

#include "../sim/frontend/ptx.h"

/* The example of op, or NULL when it has none (the tests then fail and name it). */
const char *ws_op_example(ptx_opcode op);

#endif
