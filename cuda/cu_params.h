/* cu_params.h - the kernel parameter buffer for a launch: the described
 * arguments converted to the types the PTX entry declares, laid out at the
 * offsets the PTX parser computed.
 * Invariant: a buffer built without error holds exactly fn->param_bytes bytes
 * and every parameter was written once, with a value that fits its type. */
#ifndef CU_PARAMS_H
#define CU_PARAMS_H

#include <stdint.h>
#include <stddef.h>

#include "../common/desc.h"
#include "../common/ws_error.h"
#include "../sim/ptx.h"

#define CU_MAX_PARAM_BYTES 32764 /* CUDA 12.1+ kernel parameter limit on Volta+ */

/* Writes the arguments of launch L for entry fn into buf (cap bytes, zeroed
 * first); buffer arguments become the 64-bit device addresses addr[buffer].
 * offsets[i] (fn->nparams entries, may be NULL) gets parameter i's offset, for
 * cuLaunchKernel's kernelParams. Errors name the description file, the args
 * line and column, the argument and the parameter type, e.g.
 * "argument 3 (W = 5000000000) does not fit parameter 3 of type .u32". */
int cu_params_build(const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *buf,
                    size_t cap, size_t *offsets, ws_error *err);

#endif
