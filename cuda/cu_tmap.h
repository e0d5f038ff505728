/* cu_tmap.h - the tensor maps of a launch, encoded for the GPU with cuTensorMapEncodeTiled from
 * the same ws_tmap the simulator runs (common/tmap.h).
 * Invariant: every WS_ARG_TMAP parameter of a built parameter buffer, and every init=tmap
 * buffer's upload, holds the driver's map of the launch's tmap over that buffer's device address. */
#ifndef CU_TMAP_H
#define CU_TMAP_H

#include <stdint.h>

#include "../common/desc.h"
#include "../sim/frontend/ptx.h"
#include "cu_driver.h"

#ifdef WS_HAVE_CUDA
/* Fills the tensor-map parameters of params (laid out by ws_params_pack, sim/frontend/params.c) for launch L with
 * buffers at addr[]. Returns 0, or -1 with err naming the tmap and the driver's answer. */
int cu_tmaps_encode(cu_session *s, const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *params,
                    ws_error *err);
/* Writes the driver's map into the host copy init[i] of every init=tmap buffer i of L (buffers at
 * addr[]), before the upload copies it to the device: a kernel taking `const CUtensorMap *` reads
 * it there. Returns 0, or -1 with err naming the tmap and the driver's answer. */
int cu_tmap_buffers_encode(cu_session *s, const ws_launch *L, const uint64_t *addr, void *const *init, ws_error *err);
/* The CUtensorMapDataType of a description's element type; -1 for one TMA has no type for. */
int cu_tmap_data_type(ws_type t);
#endif

#endif
