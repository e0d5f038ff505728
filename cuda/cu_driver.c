/* cu_driver.c - dlopen("libcuda.so.1"), resolve the entry points the backend
 * uses (the versioned _v2 names cuda.h maps to), open the device.
 * Invariant: every failure leaves a plain sentence in the ws_error and undoes
 * what was done so far (library closed, context released). */
#include "cu_driver.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/child.h"
#include "../common/commands.h"
#include "cu_run.h"

void cu_kernel_driver_version(char *out, size_t cap)
{
    snprintf(out, cap, "unknown");
    FILE *f = fopen("/sys/module/nvidia/version", "r");
    char line[256];
    if (f) {
        if (fgets(line, sizeof line, f)) {
            line[strcspn(line, " \r\n")] = 0;
            if (line[0]) snprintf(out, cap, "%s", line);
        }
        fclose(f);
        return;
    }
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." */
    f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) return;
    if (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "Kernel Module");
        if (p) {
            p += strlen("Kernel Module");
            while (*p == ' ') p++;
            p[strcspn(p, " \r\n")] = 0;
            if (*p) snprintf(out, cap, "%s", p);
        }
    }
    fclose(f);
}

#ifdef WS_HAVE_CUDA

#include <stddef.h>

typedef struct {
    size_t offset;             /* of the function pointer in cu_driver */
    const char *names[3];      /* symbols to try, newest first */
} cu_symbol;

#define SYM(field, ...) {offsetof(cu_driver, field), {__VA_ARGS__}}
static const cu_symbol symbols[] = {
    SYM(Init, "cuInit"),
    SYM(DriverGetVersion, "cuDriverGetVersion"),
    SYM(GetErrorName, "cuGetErrorName"),
    SYM(GetErrorString, "cuGetErrorString"),
    SYM(DeviceGetCount, "cuDeviceGetCount"),
    SYM(DeviceGet, "cuDeviceGet"),
    SYM(DeviceGetName, "cuDeviceGetName"),
    SYM(DeviceGetAttribute, "cuDeviceGetAttribute"),
    SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
    SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    SYM(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
    SYM(CtxSetCurrent, "cuCtxSetCurrent"),
    SYM(CtxSynchronize, "cuCtxSynchronize"),
    SYM(MemGetInfo, "cuMemGetInfo_v2"),
    SYM(MemAlloc, "cuMemAlloc_v2"),
    SYM(MemFree, "cuMemFree_v2"),
    SYM(MemcpyHtoD, "cuMemcpyHtoD_v2"),
    SYM(MemcpyDtoH, "cuMemcpyDtoH_v2"),
    SYM(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
    SYM(MemsetD8Async, "cuMemsetD8Async"),
    SYM(ModuleLoadDataEx, "cuModuleLoadDataEx"),
    SYM(ModuleUnload, "cuModuleUnload"),
    SYM(ModuleGetFunction, "cuModuleGetFunction"),
    SYM(FuncGetAttribute, "cuFuncGetAttribute"),
    SYM(FuncSetAttribute, "cuFuncSetAttribute"),
    SYM(LaunchKernel, "cuLaunchKernel"),
    SYM(LaunchCooperativeKernel, "cuLaunchCooperativeKernel"), /* descriptions marked `cooperative` */
    SYM(EventCreate, "cuEventCreate"),
    SYM(EventRecord, "cuEventRecord"),
    SYM(EventQuery, "cuEventQuery"),
    SYM(EventSynchronize, "cuEventSynchronize"),
    /* CUDA 12.8+ headers map cuEventElapsedTime to _v2; older drivers lack it */
    SYM(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
    SYM(EventDestroy, "cuEventDestroy_v2"),
};
#undef SYM

int cu_driver_resolve(cu_driver *d, void *lib, const char *path, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->lib = lib;
    snprintf(d->lib_path, sizeof d->lib_path, "%s", path);
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *fn = NULL;
        for (int k = 0; k < 3 && symbols[i].names[k] && !fn; k++)
            fn = dlsym(lib, symbols[i].names[k]);
        if (!fn) {
            ws_error_set(err, path, 0, 0,
                         "the CUDA driver library has no '%s': the driver is older than the CUDA %d.%d "
                         "headers warpscope was built with; update the NVIDIA driver",
                         symbols[i].names[0], CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
            return -1;
        }
        /* a data pointer to a function pointer: POSIX guarantees the representation */
        memcpy((char *)d + symbols[i].offset, &fn, sizeof fn);
    }
    void *lx = dlsym(lib, "cuLaunchKernelEx");
    if (lx) memcpy(&d->LaunchKernelEx, &lx, sizeof lx);
    void *tm = dlsym(lib, "cuTensorMapEncodeTiled");
    if (tm) memcpy(&d->TensorMapEncodeTiled, &tm, sizeof tm);
    return 0;
}

void cu_result_text(const cu_driver *d, CUresult r, char *out, size_t cap)
{
    const char *name = NULL, *desc = NULL;
    if (!d->GetErrorName || d->GetErrorName(r, &name) != CUDA_SUCCESS || !name) name = NULL;
    if (!d->GetErrorString || d->GetErrorString(r, &desc) != CUDA_SUCCESS || !desc) desc = NULL;
    if (name && desc) snprintf(out, cap, "%s (%s)", name, desc);
    else if (name) snprintf(out, cap, "%s", name);
    else {
        /* a driver that cannot name its errors (the toolkit's stub cannot): the usual suspects */
        static const struct { int code; const char *name; } known[] = {
            {2, "CUDA_ERROR_OUT_OF_MEMORY"}, {3, "CUDA_ERROR_NOT_INITIALIZED"},
            {34, "CUDA_ERROR_STUB_LIBRARY (this libcuda is the toolkit's link stub, not a driver)"},
            {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"}, {46, "CUDA_ERROR_DEVICES_UNAVAILABLE"},
            {100, "CUDA_ERROR_NO_DEVICE"}, {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
            {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"}, {999, "CUDA_ERROR_UNKNOWN"}};
        const char *k = NULL;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (known[i].code == (int)r) k = known[i].name;
        if (k) snprintf(out, cap, "%s, CUresult %d", k, (int)r);
        else snprintf(out, cap, "CUresult %d", (int)r);
    }
}

int cu_check(const cu_session *s, CUresult r, ws_error *err, const char *what, ...)
{
    if (r == CUDA_SUCCESS) return 0;
    char call[256], res[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    cu_result_text(&s->drv, r, res, sizeof res);
    ws_error_set(err, "cuda", 0, 0, "%s failed: %s", call, res);
    return -1;
}

static int attr(cu_session *s, CUdevice_attribute a, int *v, const char *name, ws_error *err)
{
    *v = 0;
    return cu_check(s, s->drv.DeviceGetAttribute(v, a, s->dev), err, "cuDeviceGetAttribute(%s)", name);
}

static int read_device_info(cu_session *s, ws_error *err)
{
    cu_device_info *in = &s->info;
    int v = 0;
    if (cu_check(s, s->drv.DeviceGetName(in->name, (int)sizeof in->name - 1, s->dev), err, "cuDeviceGetName"))
        return -1;
    cu_device_key(in->name, in->key, sizeof in->key);
    if (attr(s, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &in->cc_major, "compute capability major", err) ||
        attr(s, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &in->cc_minor, "compute capability minor", err) ||
        attr(s, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &in->sm_count, "SM count", err) ||
        attr(s, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &v, "clock rate", err))
        return -1;
    in->clock_mhz = v / 1000;
    if (attr(s, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &v, "memory clock rate", err)) return -1;
    in->mem_clock_mhz = v / 1000;
    if (attr(s, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &in->bus_width_bits, "memory bus width", err) ||
        attr(s, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &v, "L2 cache size", err))
        return -1;
    in->l2_bytes = (uint64_t)v;
    if (attr(s, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &in->smem_optin_bytes,
             "max shared memory per block (opt-in)", err) ||
        attr(s, CU_DEVICE_ATTRIBUTE_ECC_ENABLED, &in->ecc, "ECC enabled", err))
        return -1;
    size_t total = 0;
    if (cu_check(s, s->drv.DeviceTotalMem(&total, s->dev), err, "cuDeviceTotalMem")) return -1;
    in->total_mem_bytes = total;
    if (cu_check(s, s->drv.DriverGetVersion(&in->driver_api_version), err, "cuDriverGetVersion")) return -1;
    cu_kernel_driver_version(in->driver_version, sizeof in->driver_version);
    return 0;
}

int cu_session_open(cu_session *s, ws_error *err)
{
    memset(s, 0, sizeof *s);
    /* the environment is the user's input: checked before the driver, so a typo is not "no GPU" */
    const char *dev_env = getenv("WARPSCOPE_DEVICE");
    long ordinal = 0;
    if (dev_env && *dev_env) {
        char *end;
        errno = 0;
        ordinal = strtol(dev_env, &end, 10);
        if (*end || errno || ordinal < 0 || ordinal > 1023 || !(*dev_env >= '0' && *dev_env <= '9')) {
            ws_error_set(err, "<environment>", 0, 0, "WARPSCOPE_DEVICE='%.60s': expected a GPU index (0, 1, ...)",
                         dev_env);
            return WS_EXIT_USAGE;
        }
    }
    if (ws_env_seconds("WARPSCOPE_GPU_TIMEOUT", CU_DEFAULT_TIMEOUT_S, 86400, &s->launch_timeout_s, err))
        return WS_EXIT_USAGE;
    const char *path = getenv("WARPSCOPE_LIBCUDA");
    if (!path || !*path) path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        ws_error_set(err, "gpu", 0, 0,
                     "no CUDA driver: cannot load %s (%s); this machine has no NVIDIA driver installed, "
                     "so there is no GPU to run on ('warpscope sim' works without one)",
                     path, why ? why : "not found");
        return WS_EXIT_NO_GPU;
    }
    if (cu_driver_resolve(&s->drv, lib, path, err)) {
        dlclose(lib);
        memset(&s->drv, 0, sizeof s->drv);
        return WS_EXIT_NO_GPU;
    }
    char res[256];
    CUresult r = s->drv.Init(0);
    if (r != CUDA_SUCCESS) {
        cu_result_text(&s->drv, r, res, sizeof res);
        ws_error_set(err, "gpu", 0, 0,
                     "the CUDA driver (%s) did not initialise: cuInit failed with %s; no usable GPU here "
                     "(a stub library, a driver/kernel-module version mismatch, or no device node)",
                     path, res);
        goto no_gpu;
    }
    int n = 0;
    r = s->drv.DeviceGetCount(&n);
    if (r != CUDA_SUCCESS || n <= 0) {
        if (r != CUDA_SUCCESS) cu_result_text(&s->drv, r, res, sizeof res);
        ws_error_set(err, "gpu", 0, 0, "the CUDA driver sees no GPU (%s)",
                     r != CUDA_SUCCESS ? res : "cuDeviceGetCount returned 0; check CUDA_VISIBLE_DEVICES");
        goto no_gpu;
    }
    if (ordinal >= n) {
        ws_error_set(err, "gpu", 0, 0, "WARPSCOPE_DEVICE=%s but the driver sees %d GPU(s), numbered 0..%d",
                     dev_env, n, n - 1);
        goto no_gpu;
    }
    s->info.ordinal = (int)ordinal;
    if (cu_check(s, s->drv.DeviceGet(&s->dev, (int)ordinal), err, "cuDeviceGet(%ld)", ordinal)) goto internal;
    if (cu_check(s, s->drv.DevicePrimaryCtxRetain(&s->ctx, s->dev), err, "cuDevicePrimaryCtxRetain")) goto no_gpu;
    s->ctx_retained = true;
    if (cu_check(s, s->drv.CtxSetCurrent(s->ctx), err, "cuCtxSetCurrent")) goto internal;
    if (read_device_info(s, err)) goto internal;
    return 0;
no_gpu:
    cu_session_close(s);
    return WS_EXIT_NO_GPU;
internal:
    cu_session_close(s);
    return WS_EXIT_INTERNAL;
}

void cu_session_close(cu_session *s)
{
    if (s->ctx_retained && s->drv.DevicePrimaryCtxRelease) s->drv.DevicePrimaryCtxRelease(s->dev);
    s->ctx_retained = false;
    if (s->drv.lib) dlclose(s->drv.lib);
    memset(&s->drv, 0, sizeof s->drv);
}

#endif /* WS_HAVE_CUDA */
