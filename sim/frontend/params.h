/* params.h - the kernel parameter buffer of a launch, the one packing rule of the
 * simulator and the GPU backend: the described arguments converted to the types
 * the PTX entry declares, laid out at the offsets the PTX parser computed.
 * Invariant: a buffer packed without error holds exactly fn->param_bytes bytes and
 * every parameter was written once, with a value that fits its type; anything else
 * is refused with the same message on both paths (an input error, exit 1). */
#ifndef WS_PARAMS_H
#define WS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/desc.h"
#include "../../common/ws_error.h"
#include "ptx.h"

#define WS_MAX_PARAM_BYTES 32764 /* CUDA 12.1+ kernel parameter limit on Volta+ */

/* Writes the arguments of launch L for entry fn into buf (cap bytes, zeroed first);
 * buffer argument i becomes the 64-bit address addr[buffer]. offsets[i] (fn->nparams
 * entries, may be NULL) gets parameter i's offset, for cuLaunchKernel's kernelParams.
 * Rules: a buffer needs a 64-bit integer parameter; an integer expression needs an
 * integer parameter it fits (unsigned and .bN take the negative values C++ wraps:
 * -1 -> 0xffffffff) or a floating-point one (converted); a float literal needs a
 * floating-point parameter (f16/bf16 rounded to nearest; f32 must not overflow).
 * Errors name the description file, the args line and column, the argument and the
 * parameter, e.g. "argument 3 (W = 1099511627776) does not fit parameter 3 ('n', .s32)". */
int ws_params_pack(const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *buf, size_t cap,
                   size_t *offsets, ws_error *err);

#endif
