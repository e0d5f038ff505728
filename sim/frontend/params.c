/* params.c - converts described arguments to PTX parameter values (see params.h).
 * Integers are range-checked against the parameter width, so an override that
 * overflows a 32-bit parameter is refused, never wrapped, by sim and gpu alike. */
#include "params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../common/buffers.h"
#include "../../common/demangle.h"
#include "../../common/tmap.h"
#include "half.h"

static void arg_error(const ws_launch *L, int i, ws_error *err, const char *fmt, const char *a, const char *b)
{
    const ws_kernel_desc *d = L->desc;
    const char *file = d && d->file ? d->file : "<launch>";
    int line = d && i < d->nargs ? d->args[i].line : 0;
    int col = d && i < d->nargs ? d->args[i].col : 0;
    ws_error_set(err, file, line, col, fmt, a, b);
}

/* "argument 3 (W = 1099511627776)": the expression as written beside its value. */
static const char *arg_text(const ws_launch *L, int i, char *buf, size_t cap)
{
    const ws_arg *a = &L->args[i];
    const ws_kernel_desc *d = L->desc;
    const char *src = d && i < d->nargs && d->args[i].kind == WS_ARG_INT && d->args[i].expr
                          ? ws_expr_source(d->args[i].expr) : NULL;
    char num[32];
    if (a->kind == WS_ARG_BUFFER) {
        snprintf(buf, cap, "argument %d (buffer '%s')", i + 1,
                 a->buffer >= 0 && a->buffer < L->nbuffers ? L->buffers[a->buffer].name : "?");
    } else if (a->kind == WS_ARG_TMAP) {
        snprintf(buf, cap, "argument %d (tensor map '%s')", i + 1,
                 L->desc && a->buffer >= 0 && a->buffer < L->desc->ntmaps ? L->desc->tmaps[a->buffer].name : "?");
    } else if (a->kind == WS_ARG_INT) {
        snprintf(num, sizeof num, "%lld", (long long)a->ivalue);
        if (src && strcmp(src, num)) snprintf(buf, cap, "argument %d (%.60s = %s)", i + 1, src, num);
        else snprintf(buf, cap, "argument %d (%s)", i + 1, num);
    } else {
        snprintf(buf, cap, "argument %d (%g)", i + 1, a->fvalue);
    }
    return buf;
}

/* Does v fit an integer parameter of `bytes` bytes? Unsigned and untyped (.bN)
 * parameters also take the negative values C++ would wrap (-1 -> 0xffffffff). */
static bool int_fits(int64_t v, int bytes, bool is_signed)
{
    if (bytes >= 8) return true;
    int64_t smin = -((int64_t)1 << (bytes * 8 - 1)), smax = ((int64_t)1 << (bytes * 8 - 1)) - 1;
    int64_t umax = ((int64_t)1 << (bytes * 8)) - 1;
    if (is_signed) return v >= smin && v <= smax;
    return v >= smin && v <= umax;
}

static void put_uint(uint8_t *dst, uint64_t u, int bytes)
{
    for (int k = 0; k < bytes; k++) dst[k] = (uint8_t)(u >> (8 * k)); /* little-endian, as the GPU */
}

/* A number into a floating-point parameter; -1 when the type is not one. */
static int put_real(uint8_t *dst, ptx_type t, double v)
{
    switch (t) {
    case PTX_T_F64: memcpy(dst, &v, 8); return 0;
    case PTX_T_F32: { float f = (float)v; memcpy(dst, &f, 4); return 0; }
    case PTX_T_F16: put_uint(dst, sim_f2h(v, PTX_RND_RN), 2); return 0;
    case PTX_T_BF16: put_uint(dst, sim_f2bf(v, PTX_RND_RN), 2); return 0;
    default: return -1;
    }
}

int ws_params_pack(const ptx_function *fn, const ws_launch *L, const uint64_t *addr, uint8_t *buf, size_t cap,
                   size_t *offsets, ws_error *err)
{
    char what[WS_NAME_MAX + 128], ty[PTX_NAME_MAX + 64], kname[256];
    ws_demangle(fn->name, kname, sizeof kname);   /* messages name the kernel as C++ does */
    const char *file = L->desc && L->desc->file ? L->desc->file : "<launch>";
    int args_line = L->desc && L->desc->nargs > 0 ? L->desc->args[0].line : L->desc ? L->desc->line : 0;
    if (fn->param_bytes > cap || fn->param_bytes > WS_MAX_PARAM_BYTES) {
        ws_error_set(err, file, args_line, 0, "kernel '%s' takes %llu bytes of parameters, more than %zu",
                     kname, (unsigned long long)fn->param_bytes,
                     cap < WS_MAX_PARAM_BYTES ? cap : (size_t)WS_MAX_PARAM_BYTES);
        return -1;
    }
    if (fn->nparams != L->nargs) {
        ws_error_set(err, file, args_line, 0, "the description passes %d argument%s but kernel '%s' takes %d",
                     L->nargs, L->nargs == 1 ? "" : "s", kname, fn->nparams);
        return -1;
    }
    memset(buf, 0, cap);
    for (int i = 0; i < fn->nparams; i++) {
        int si = fn->param_syms[i];
        if (si < 0 || si >= fn->nsyms) {
            ws_error_set(err, file, args_line, 0, "kernel '%s': parameter %d has no symbol (PTX parser bug)",
                         kname, i + 1);
            return -1;
        }
        const ptx_symbol *p = &fn->syms[si];
        int tsize = ptx_type_size(p->type);
        snprintf(ty, sizeof ty, "parameter %d ('%s', %s%s)", i + 1, p->name, ptx_type_name(p->type),
                 p->size != (uint64_t)tsize ? " array" : "");
        if (p->offset + p->size > fn->param_bytes || p->size == 0) {
            ws_error_set(err, file, args_line, 0, "kernel '%s': %s lies outside the %llu-byte parameter buffer",
                         kname, ty, (unsigned long long)fn->param_bytes);
            return -1;
        }
        if (offsets) offsets[i] = (size_t)p->offset;
        uint8_t *dst = buf + p->offset;
        const ws_arg *a = &L->args[i];
        arg_text(L, i, what, sizeof what);
        if (a->kind == WS_ARG_TMAP) {            /* a __grid_constant__ CUtensorMap: 128 bytes */
            if (p->size != WS_TMAP_BYTES || p->offset % 64 || a->buffer < 0 || a->buffer >= L->ntmaps) {
                arg_error(L, i, err, "%s: %s is not a const __grid_constant__ CUtensorMap (128 bytes, aligned 64)", what, ty);
                return -1;
            }
            /* the simulator's image of the map (common/tmap.h); the GPU backend writes the
             * driver's encoding over it (cu_tmaps_encode, cuda/cu_tmap.c) */
            const ws_tmap *t = &L->tmaps[a->buffer];
            ws_tmap_image(t, t->buffer >= 0 && t->buffer < L->nbuffers ? addr[t->buffer] : 0, dst);
            continue;
        }
        if (p->size != (uint64_t)tsize || tsize > 8) {
            /* a by-value __half / __nv_bfloat16 (pair) is a .b8 array in PTX: the signature says so */
            uint8_t small[4];
            if (a->kind != WS_ARG_BUFFER && p->size <= 4 &&
                ws_small_float_param(fn->name, i, p->size, a->kind == WS_ARG_FLOAT ? a->fvalue : (double)a->ivalue,
                                     small)) {
                memcpy(dst, small, p->size);
                continue;
            }
            arg_error(L, i, err, "%s: %s is a struct or array passed by value, which warpscope cannot fill (the PTX "
                      "gives no field types): pass its fields as separate parameters, or a pointer to a buffer "
                      "holding it", what, ty);
            return -1;
        }
        bool is_float = ptx_type_is_float(p->type);
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
            put_uint(dst, addr[a->buffer], 8);
            break;
        case WS_ARG_INT:
            if (is_float) {
                if (put_real(dst, p->type, (double)a->ivalue)) {
                    arg_error(L, i, err, "%s: %s cannot take an integer", what, ty);
                    return -1;
                }
            } else if (p->type == PTX_T_PRED) {
                arg_error(L, i, err, "%s: %s cannot take an integer", what, ty);
                return -1;
            } else if (!int_fits(a->ivalue, tsize, ptx_type_is_signed(p->type))) {
                arg_error(L, i, err, "%s does not fit %s", what, ty);
                return -1;
            } else {
                put_uint(dst, (uint64_t)a->ivalue, tsize);
            }
            break;
        case WS_ARG_TMAP:                        /* handled above */
            break;
        case WS_ARG_FLOAT:
            if (!is_float) {
                arg_error(L, i, err, "%s is a floating-point literal but %s is an integer: write a whole number", what,
                          ty);
                return -1;
            }
            if (p->type == PTX_T_F32 && isfinite(a->fvalue) && !isfinite((float)a->fvalue)) {
                arg_error(L, i, err, "%s overflows %s", what, ty);
                return -1;
            }
            if (put_real(dst, p->type, a->fvalue)) {
                arg_error(L, i, err, "%s: %s cannot take a floating-point literal", what, ty);
                return -1;
            }
            break;
        }
    }
    return 0;
}
