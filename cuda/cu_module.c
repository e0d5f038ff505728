/* cu_module.c - JIT-loads PTX and reads the compiled kernel's attributes (see
 * cu_module.h). The JIT error log is the only place the driver says why PTX was
 * rejected, so it is always captured and shown. */
#include "cu_module.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef WS_HAVE_CUDA

#define STATIC_SHARED_LIMIT (48 * 1024) /* without the opt-in attribute */

static int fattr(cu_session *s, cu_kernel *k, CUfunction_attribute a, int *v, const char *what, ws_error *err)
{
    *v = 0;
    return cu_check(s, s->drv.FuncGetAttribute(v, a, k->fn), err, "cuFuncGetAttribute(%s) of '%s'", what, k->name);
}

int cu_kernel_load(cu_session *s, const char *ptx, const char *ptx_name, uint64_t dynamic_shared,
                   cu_kernel *k, ws_error *err)
{
    static char error_log[CU_JIT_LOG_BYTES];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", ptx_name);
    error_log[0] = 0;
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                          CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    void *val[] = {error_log, (void *)(uintptr_t)(sizeof error_log - 1), k->info_log,
                   (void *)(uintptr_t)(sizeof k->info_log - 1), (void *)(uintptr_t)1};
    CUresult r = s->drv.ModuleLoadDataEx(&k->module, ptx, (unsigned)(sizeof opt / sizeof opt[0]), opt, val);
    if (r != CUDA_SUCCESS) {
        char res[256];
        cu_result_text(&s->drv, r, res, sizeof res);
        error_log[sizeof error_log - 1] = 0;
        size_t first = strcspn(error_log, "\n");
        ws_error_set(err, "cuda", 0, 0, "the driver could not JIT-compile the PTX of '%s': %s%s%.*s", ptx_name, res,
                     first ? ": " : "", (int)(first > 300 ? 300 : first), error_log);
        if (error_log[0]) fprintf(stderr, "warpscope: JIT error log:\n%s\n", error_log);
        k->module = NULL;
        return -1;
    }
    r = s->drv.ModuleGetFunction(&k->fn, k->module, ptx_name);
    if (r != CUDA_SUCCESS) {
        cu_check(s, r, err, "cuModuleGetFunction(\"%s\")", ptx_name);
        cu_kernel_unload(s, k);
        return -1;
    }
    cu_kernel_attrs *a = &k->attrs;
    if (fattr(s, k, CU_FUNC_ATTRIBUTE_NUM_REGS, &a->num_regs, "NUM_REGS", err) ||
        fattr(s, k, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &a->local_bytes, "LOCAL_SIZE_BYTES", err) ||
        fattr(s, k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &a->static_shared_bytes, "SHARED_SIZE_BYTES", err) ||
        fattr(s, k, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &a->max_threads_per_block, "MAX_THREADS_PER_BLOCK",
              err) ||
        fattr(s, k, CU_FUNC_ATTRIBUTE_PTX_VERSION, &a->ptx_version, "PTX_VERSION", err) ||
        fattr(s, k, CU_FUNC_ATTRIBUTE_BINARY_VERSION, &a->binary_version, "BINARY_VERSION", err)) {
        cu_kernel_unload(s, k);
        return -1;
    }
    uint64_t total = dynamic_shared + (uint64_t)a->static_shared_bytes;
    if (total > (uint64_t)s->info.smem_optin_bytes) {
        ws_error_set(err, "cuda", 0, 0,
                     "'%s' needs %llu bytes of shared memory per block (%d static + %llu dynamic); %s allows %d",
                     ptx_name, (unsigned long long)total, a->static_shared_bytes, (unsigned long long)dynamic_shared,
                     s->info.name, s->info.smem_optin_bytes);
        cu_kernel_unload(s, k);
        return -1;
    }
    k->max_dynamic_shared = (int)dynamic_shared;
    if (total > STATIC_SHARED_LIMIT &&
        cu_check(s, s->drv.FuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dynamic_shared),
                 err, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = %llu) of '%s'",
                 (unsigned long long)dynamic_shared, ptx_name)) {
        cu_kernel_unload(s, k);
        return -1;
    }
    return 0;
}

void cu_kernel_unload(cu_session *s, cu_kernel *k)
{
    if (k->module) s->drv.ModuleUnload(k->module);
    k->module = NULL;
    k->fn = NULL;
}

#endif /* WS_HAVE_CUDA */
