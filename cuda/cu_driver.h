/* cu_driver.h - the CUDA driver API, loaded at run time with dlopen so one
 * warpscope binary runs on machines with and without a GPU.
 * Invariant: a cu_session that cu_session_open returned 0 for has every entry
 * point resolved, a current primary context, and filled device information.
 * <cuda.h> is used for types only; nothing links against libcuda. */
#ifndef CU_DRIVER_H
#define CU_DRIVER_H

#include "../common/ws_error.h"
#include "cu_types.h"

#ifdef WS_HAVE_CUDA
#include <cuda.h>

/* Entry points, named without the "cu" prefix so that cuda.h's version macros
 * (cuMemAlloc -> cuMemAlloc_v2) never rewrite them; cu_driver.c resolves the
 * versioned symbol each one stands for. */
typedef struct cu_driver {
    void *lib;
    char lib_path[WS_PATH_MAX];
    CUresult (*Init)(unsigned int flags);
    CUresult (*DriverGetVersion)(int *version);
    CUresult (*GetErrorName)(CUresult r, const char **s);
    CUresult (*GetErrorString)(CUresult r, const char **s);
    CUresult (*DeviceGetCount)(int *n);
    CUresult (*DeviceGet)(CUdevice *d, int ordinal);
    CUresult (*DeviceGetName)(char *name, int len, CUdevice d);
    CUresult (*DeviceGetAttribute)(int *v, CUdevice_attribute a, CUdevice d);
    CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice d);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *c, CUdevice d);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice d);
    CUresult (*CtxSetCurrent)(CUcontext c);
    CUresult (*CtxSynchronize)(void);
    CUresult (*MemGetInfo)(size_t *free_bytes, size_t *total_bytes);
    CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
    CUresult (*MemFree)(CUdeviceptr p);
    CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s);
    CUresult (*MemsetD8Async)(CUdeviceptr dst, unsigned char v, size_t bytes, CUstream s);
    CUresult (*ModuleLoadDataEx)(CUmodule *m, const void *image, unsigned int nopt, CUjit_option *opt,
                                 void **optval);
    CUresult (*ModuleUnload)(CUmodule m);
    CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
    CUresult (*FuncGetAttribute)(int *v, CUfunction_attribute a, CUfunction f);
    CUresult (*FuncSetAttribute)(CUfunction f, CUfunction_attribute a, int v);
    CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shared, CUstream s, void **params,
                             void **extra);
    CUresult (*LaunchCooperativeKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shared, CUstream s, void **params);
    CUresult (*EventCreate)(CUevent *e, unsigned int flags);
    CUresult (*EventRecord)(CUevent e, CUstream s);
    CUresult (*EventQuery)(CUevent e);
    CUresult (*EventSynchronize)(CUevent e);
    CUresult (*EventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*EventDestroy)(CUevent e);
    /* optional (CUDA 12+ drivers): NULL when the driver lacks it; only a description's `cluster` line
       needs it (cudaLaunchAttributeClusterDimension) */
    CUresult (*LaunchKernelEx)(const CUlaunchConfig *config, CUfunction f, void **params, void **extra);
    /* optional (CUDA 12+ drivers): NULL when the driver lacks it; only tensor-map launches need it */
    CUresult (*TensorMapEncodeTiled)(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                     const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                     const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
                                     CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill);
} cu_driver;

typedef struct cu_session {
    cu_driver drv;
    CUdevice dev;
    CUcontext ctx;
    bool ctx_retained;
    cu_device_info info;
    double launch_timeout_s;   /* $WARPSCOPE_GPU_TIMEOUT (checked at open), else CU_DEFAULT_TIMEOUT_S */
} cu_session;

/* Opens the driver ($WARPSCOPE_LIBCUDA, else "libcuda.so.1"), resolves every
 * entry point, initialises it, picks device $WARPSCOPE_DEVICE (default 0),
 * retains its primary context and reads the device facts. $WARPSCOPE_DEVICE (a GPU
 * index) and $WARPSCOPE_GPU_TIMEOUT (seconds) are checked first, so garbage in either
 * is WS_EXIT_USAGE on any machine, GPU or not.
 * Returns 0; or WS_EXIT_USAGE, WS_EXIT_NO_GPU (no driver, driver unusable, no device) or
 * WS_EXIT_INTERNAL with err saying what happened in plain words. */
int cu_session_open(cu_session *s, ws_error *err);
void cu_session_close(cu_session *s);

/* Fills err with "<what>: CUDA_ERROR_X (driver's description)" and returns -1
 * when r is not CUDA_SUCCESS; returns 0 otherwise. what is a printf format.
 * Example: if (cu_check(s, s->drv.MemAlloc(&p, n), err, "cuMemAlloc(%zu bytes)", n)) goto fail; */
int cu_check(const cu_session *s, CUresult r, ws_error *err, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

/* "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)". */
void cu_result_text(const cu_driver *d, CUresult r, char *out, size_t cap);

/* Fills d from an already dlopen'ed library; on a missing symbol returns -1 with
 * err naming it. Exposed for tests (the toolkit's stub libcuda.so exports them all). */
int cu_driver_resolve(cu_driver *d, void *lib, const char *path, ws_error *err);
#endif /* WS_HAVE_CUDA */

/* The kernel module version ("580.159.04") from /sys/module/nvidia/version or
 * /proc/driver/nvidia/version; "unknown" when neither is readable. */
void cu_kernel_driver_version(char *out, size_t cap);

#endif
