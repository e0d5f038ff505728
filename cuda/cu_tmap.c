/* cu_tmap.c - cuTensorMapEncodeTiled for the launch's tensor maps (see cu_tmap.h), into the
 * __grid_constant__ parameters and into init=tmap buffers (maps passed by pointer). The fields
 * are the ws_tmap's as the description resolved them; interleave none, L2 promotion none (a
 * fetch-size hint: no effect on the data), element strides 1. */
#include "cu_tmap.h"

#ifdef WS_HAVE_CUDA
#include <string.h>

int cu_tmap_data_type(ws_type t)
{
    switch (ws_type_scalar(t)) {
    case WS_TYPE_CHAR: case WS_TYPE_UCHAR: return CU_TENSOR_MAP_DATA_TYPE_UINT8;  /* TMA moves bytes: no sign */
    case WS_TYPE_SHORT: case WS_TYPE_USHORT: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
    case WS_TYPE_INT: return CU_TENSOR_MAP_DATA_TYPE_INT32;
    case WS_TYPE_UINT: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
    case WS_TYPE_LONG: return CU_TENSOR_MAP_DATA_TYPE_INT64;
    case WS_TYPE_ULONG: return CU_TENSOR_MAP_DATA_TYPE_UINT64;
    case WS_TYPE_FLOAT: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case WS_TYPE_DOUBLE: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    case WS_TYPE_HALF: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case WS_TYPE_BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    default: return -1;
    }
}

/* tmap ti of L over its buffer at addr[], as the driver encodes it, into out (128 bytes). */
static int encode_one(cu_session *s, const ws_launch *L, int ti, const uint64_t *addr, uint8_t *out, ws_error *err)
{
    const ws_tmap *t = &L->tmaps[ti];
    const char *name = L->desc ? L->desc->tmaps[ti].name : "?";
    const char *file = L->desc && L->desc->file ? L->desc->file : "<launch>";
    int line = L->desc ? L->desc->tmaps[ti].line : 0;
    if (!s->drv.TensorMapEncodeTiled) {
        ws_error_set(err, file, line, 0, "tmap '%s': this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later "
                     "needed for tensor maps)", name);
        return -1;
    }
    int dt = cu_tmap_data_type(L->buffers[t->buffer].type);
    if (dt < 0) {
        ws_error_set(err, file, line, 0, "tmap '%s': TMA has no data type for buffer '%s' (%s)", name,
                     L->buffers[t->buffer].name, ws_type_name(L->buffers[t->buffer].type));
        return -1;
    }
    cuuint64_t dims[WS_TMAP_MAX_RANK], strides[WS_TMAP_MAX_RANK];
    cuuint32_t box[WS_TMAP_MAX_RANK], es[WS_TMAP_MAX_RANK];
    for (int d = 0; d < t->rank; d++) {
        dims[d] = t->dims[d];
        /* a size-1 dimension's stride never multiplies a non-zero index: the driver is given a
           valid one (the dense stride, rounded up to 16) where the description wrote 0 */
        if (d) strides[d - 1] = t->strides[d] ? t->strides[d]
                                              : ((d > 1 ? strides[d - 2] : (cuuint64_t)t->elem_size) * t->dims[d - 1] + 15) / 16 * 16;
        box[d] = t->box[d];
        es[d] = 1;
    }
    CUtensorMapSwizzle sw = t->swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : t->swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                          : t->swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMap map;
    memset(&map, 0, sizeof map);
    CUresult r = s->drv.TensorMapEncodeTiled(&map, (CUtensorMapDataType)dt, (cuuint32_t)t->rank,
                                             (void *)(uintptr_t)addr[t->buffer], dims, strides, box, es,
                                             CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                             t->fill_nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                                         : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (cu_check(s, r, err, "cuTensorMapEncodeTiled for tmap '%s' (%s:%d)", name, file, line)) return -1;
    memcpy(out, &map, sizeof map);
    return 0;
}

int cu_tmaps_encode(cu_session *s, const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *params,
                    ws_error *err)
{
    for (int i = 0; i < L->nargs && i < fn->nparams; i++) {
        if (L->args[i].kind != WS_ARG_TMAP) continue;
        const ptx_symbol *p = &fn->syms[fn->param_syms[i]];
        if (encode_one(s, L, L->args[i].buffer, addr, params + p->offset, err)) return -1;
    }
    return 0;
}

int cu_tmap_buffers_encode(cu_session *s, const ws_launch *L, const uint64_t *addr, void *const *init, ws_error *err)
{
    _Static_assert(sizeof(CUtensorMap) == WS_TMAP_BYTES, "a CUtensorMap is 128 bytes");
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        if (b->init != WS_INIT_TMAP) continue;
        if (b->tmap < 0 || b->tmap >= L->ntmaps || b->bytes != WS_TMAP_BYTES) {
            ws_error_set(err, L->desc && L->desc->file ? L->desc->file : "<launch>", 0, 0,
                         "buffer '%s': init=tmap needs a 128-byte buffer and a tmap line (desc.c checks both)", b->name);
            return -1;
        }
        if (encode_one(s, L, b->tmap, addr, init[i], err)) return -1;
    }
    return 0;
}
#endif
