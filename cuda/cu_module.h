/* cu_module.h - loading the kernel on the GPU: the PTX text the simulator
 * interprets, JIT-compiled by the driver (cuModuleLoadDataEx), its entry found
 * by the mangled PTX name.
 * Invariant: a cu_kernel returned without error can be launched with up to
 * `max_dynamic_shared` bytes of dynamic shared memory. */
#ifndef CU_MODULE_H
#define CU_MODULE_H

#include "cu_driver.h"

#define CU_JIT_LOG_BYTES 16384

#ifdef WS_HAVE_CUDA
typedef struct {
    CUmodule module;
    CUfunction fn;
    char name[256];            /* PTX (mangled) entry name */
    cu_kernel_attrs attrs;
    int max_dynamic_shared;    /* bytes the launch may ask for */
    char info_log[CU_JIT_LOG_BYTES]; /* ptxas' info output from the JIT ("Used 10 registers") */
} cu_kernel;

/* JIT-compiles ptx (NUL-terminated) and finds entry `ptx_name`; sets the
 * dynamic shared-memory limit when dynamic_shared + static shared > 48 KB.
 * On a JIT failure err carries the first line of the driver's error log and the
 * whole log is printed to stderr. Returns 0, or -1 with err set. */
int cu_kernel_load(cu_session *s, const char *ptx, const char *ptx_name, uint64_t dynamic_shared,
                   cu_kernel *k, ws_error *err);
void cu_kernel_unload(cu_session *s, cu_kernel *k);
#endif

#endif
