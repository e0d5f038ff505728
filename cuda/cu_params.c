/* cu_params.c - converts described arguments to PTX parameter values (see
 * cu_params.h). Integers are range-checked against the parameter width so a
 * -D override that overflows a 32-bit parameter is an error, not a wrap. */
#include "cu_params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void arg_error(const ws_launch *L, int i, ws_error *err, const char *fmt, const char *a, const char *b)
{
    const ws_kernel_desc *d = L->desc;
    const char *file = d && d->file ? d->file : "<launch>";
    int line = d && i < d->nargs ? d->args[i].line : 0;
    int col = d && i < d->nargs ? d->args[i].col : 0;
    ws_error_set(err, file, line, col, fmt, a, b);
}

static const char *arg_text(const ws_launch *L, int i, char *buf, size_t cap)
{
    const ws_arg *a = &L->args[i];
    if (a->kind == WS_ARG_BUFFER) {
        snprintf(buf, cap, "argument %d (buffer '%s')", i + 1,
                 a->buffer >= 0 && a->buffer < L->nbuffers ? L->buffers[a->buffer].name : "?");
    } else if (a->kind == WS_ARG_TMAP) {
        snprintf(buf, cap, "argument %d (tensor map '%s')", i + 1,
                 L->desc && a->buffer >= 0 && a->buffer < L->desc->ntmaps ? L->desc->tmaps[a->buffer].name : "?");
    } else if (a->kind == WS_ARG_INT) {
        snprintf(buf, cap, "argument %d (%lld)", i + 1, (long long)a->ivalue);
    } else {
        snprintf(buf, cap, "argument %d (%g)", i + 1, a->fvalue);
    }
    return buf;
}

/* Does v fit an integer parameter of `bytes` bytes? Unsigned and untyped (.bN)
 * parameters also take the negative values C++ would wrap (-1 -> 0xffffffff). */
static bool int_fits(int64_t v, int bytes, bool is_signed, bool is_untyped)
{
    if (bytes >= 8) return true;
    int64_t smin = -((int64_t)1 << (bytes * 8 - 1)), smax = ((int64_t)1 << (bytes * 8 - 1)) - 1;
    int64_t umax = ((int64_t)1 << (bytes * 8)) - 1;
    if (is_signed) return v >= smin && v <= smax;
    (void)is_untyped;
    return v >= smin && v <= umax;
}

static void put_int(uint8_t *dst, int64_t v, int bytes)
{
    uint64_t u = (uint64_t)v;
    for (int k = 0; k < bytes; k++) dst[k] = (uint8_t)(u >> (8 * k)); /* little-endian, as the GPU */
}

int cu_params_build(const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *buf,
                    size_t cap, size_t *offsets, ws_error *err)
{
    char what[WS_NAME_MAX + 64], ty[PTX_NAME_MAX + 64];
    const char *file = L->desc && L->desc->file ? L->desc->file : "<launch>";
    int args_line = L->desc && L->desc->nargs > 0 ? L->desc->args[0].line : 0;
    if (fn->param_bytes > cap || fn->param_bytes > CU_MAX_PARAM_BYTES) {
        ws_error_set(err, file, args_line, 0, "kernel '%s' takes %llu bytes of parameters, more than %zu",
                     fn->name, (unsigned long long)fn->param_bytes,
                     cap < CU_MAX_PARAM_BYTES ? cap : (size_t)CU_MAX_PARAM_BYTES);
        return -1;
    }
    if (fn->nparams != L->nargs) {
        ws_error_set(err, file, args_line, 0, "the description passes %d argument%s but kernel '%s' takes %d",
                     L->nargs, L->nargs == 1 ? "" : "s", fn->name, fn->nparams);
        return -1;
    }
    memset(buf, 0, cap);
    for (int i = 0; i < fn->nparams; i++) {
        int si = fn->param_syms[i];
        if (si < 0 || si >= fn->nsyms) {
            ws_error_set(err, file, args_line, 0, "kernel '%s': parameter %d has no symbol (PTX parser bug)",
                         fn->name, i + 1);
            return -1;
        }
        const ptx_symbol *p = &fn->syms[si];
        int tsize = ptx_type_size(p->type);
        snprintf(ty, sizeof ty, "parameter %d ('%s', %s%s)", i + 1, p->name, ptx_type_name(p->type),
                 p->size != (uint64_t)tsize ? " array" : "");
        if (p->offset + p->size > fn->param_bytes || p->size == 0) {
            ws_error_set(err, file, args_line, 0, "kernel '%s': %s lies outside the %llu-byte parameter buffer",
                         fn->name, ty, (unsigned long long)fn->param_bytes);
            return -1;
        }
        if (offsets) offsets[i] = (size_t)p->offset;
        uint8_t *dst = buf + p->offset;
        const ws_arg *a = &L->args[i];
        arg_text(L, i, what, sizeof what);
        if (a->kind == WS_ARG_TMAP) {            /* 128 bytes, filled by cu_tmaps_encode (cu_tmap.c) */
            if (p->size != WS_TMAP_BYTES || p->offset % 64 || a->buffer < 0 || a->buffer >= L->ntmaps) {
                arg_error(L, i, err, "%s: %s is not a const __grid_constant__ CUtensorMap (128 bytes, aligned 64)", what, ty);
                return -1;
            }
            continue;
        }
        if (p->size != (uint64_t)tsize) {
            arg_error(L, i, err, "%s: %s is a struct or array passed by value, which warpscope cannot fill", what, ty);
            return -1;
        }
        bool is_float = ptx_type_is_float(p->type);
        bool is_untyped = p->type >= PTX_T_B8 && p->type <= PTX_T_B128;
        switch (a->kind) {
        case WS_ARG_BUFFER:
            if (tsize != 8 || is_float) {
                arg_error(L, i, err, "%s is a pointer but %s is not a 64-bit integer", what, ty);
                return -1;
            }
            if (a->buffer < 0 || a->buffer >= L->nbuffers) {
                arg_error(L, i, err, "%s names no buffer of the launch%s", what, "");
                return -1;
            }
            put_int(dst, (int64_t)addr[a->buffer], 8);
            break;
        case WS_ARG_INT:
            if (is_float) {
                if (p->type == PTX_T_F32) { float f = (float)a->ivalue; memcpy(dst, &f, 4); }
                else if (p->type == PTX_T_F64) { double f = (double)a->ivalue; memcpy(dst, &f, 8); }
                else { arg_error(L, i, err, "%s: %s is a half-precision type, not supported", what, ty); return -1; }
            } else if (p->type == PTX_T_PRED || tsize > 8) {
                arg_error(L, i, err, "%s: %s cannot take an integer", what, ty);
                return -1;
            } else if (!int_fits(a->ivalue, tsize, ptx_type_is_signed(p->type), is_untyped)) {
                arg_error(L, i, err, "%s does not fit %s", what, ty);
                return -1;
            } else {
                put_int(dst, a->ivalue, tsize);
            }
            break;
        case WS_ARG_TMAP:                        /* handled above */
            break;
        case WS_ARG_FLOAT:
            if (p->type == PTX_T_F32) {
                float f = (float)a->fvalue;
                if (isfinite(a->fvalue) && !isfinite(f)) {
                    arg_error(L, i, err, "%s overflows %s", what, ty);
                    return -1;
                }
                memcpy(dst, &f, 4);
            } else if (p->type == PTX_T_F64) {
                memcpy(dst, &a->fvalue, 8);
            } else {
                arg_error(L, i, err, "%s is a floating-point literal but %s is not f32 or f64", what, ty);
                return -1;
            }
            break;
        }
    }
    return 0;
}
