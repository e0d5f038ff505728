/* cu_run.c - buffers, launches and event timing on the GPU (see cu_run.h).
 * Timing follows the llm.c / cuda-samples habit: warm up, flush L2 between
 * repetitions, report the median beside min and max, and measure the device's
 * own copy bandwidth in the same run as the ceiling. */
#include "cu_run.h"
#include "cu_tmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/buffers.h"
#include "../common/commands.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cu_stats(double *v, int n, double *median, double *min, double *max)
{
    if (n <= 0) {
        *median = *min = *max = 0;
        return;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *min = v[0];
    *max = v[n - 1];
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#ifdef WS_HAVE_CUDA

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cu_buffers_create(cu_session *s, const ws_launch *L, const ptx_function *fn, cu_buffers *b, ws_error *err)
{
    memset(b, 0, sizeof *b);
    b->launch = L;
    int rc = -1;                               /* a driver call failed, unless set otherwise */
    uint64_t need = 0;
    for (int i = 0; i < L->nbuffers; i++) need += L->buffers[i].bytes;
    size_t free_b = 0, total_b = 0;
    if (cu_check(s, s->drv.MemGetInfo(&free_b, &total_b), err, "cuMemGetInfo")) return -1;
    if (need > free_b) {
        ws_error_set(err, "cuda", 0, 0, "the launch needs %.3f GB of buffers but %s has %.3f GB free; use smaller -D values",
                     need / 1e9, s->info.name, free_b / 1e9);
        return WS_EXIT_USAGE;
    }
    uint64_t addr[WS_MAX_BUFFERS] = {0};
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *wb = &L->buffers[i];
        size_t bytes = wb->bytes ? (size_t)wb->bytes : 16; /* cuMemAlloc(0) is an error */
        b->init[i] = malloc(bytes);
        b->result[i] = malloc(bytes);
        if (!b->init[i] || !b->result[i]) {
            ws_error_set(err, "cuda", 0, 0, "out of host memory for buffer '%s' (%zu bytes)", wb->name, bytes);
            b->nbuffers = i + 1;
            rc = WS_EXIT_INTERNAL;
            goto fail;
        }
        memset(b->init[i], 0, bytes);
        ws_buffer_fill(wb, b->init[i]);
        b->nbuffers = i + 1;
        if (cu_check(s, s->drv.MemAlloc(&b->dptr[i], bytes), err, "cuMemAlloc(%zu bytes) for buffer '%s'", bytes,
                     wb->name)) {
            b->dptr[i] = 0;
            goto fail;
        }
        addr[i] = (uint64_t)b->dptr[i];
    }
    size_t offsets[WS_MAX_ARGS] = {0};
    if (fn->nparams > WS_MAX_ARGS) {
        ws_error_set(err, "cuda", 0, 0, "kernel '%s' has %d parameters, more than %d", fn->name, fn->nparams, WS_MAX_ARGS);
        rc = WS_EXIT_USAGE;
        goto fail;
    }
    if (ws_params_pack(fn, L, addr, b->params, sizeof b->params, offsets, err)) {
        rc = WS_EXIT_USAGE;                    /* the simulator's rule and message (sim/frontend/params.h) */
        goto fail;
    }
    if (L->ntmaps && cu_tmaps_encode(s, fn, L, addr, b->params, err)) goto fail; /* CUtensorMap parameters */
    if (L->ntmaps && cu_tmap_buffers_encode(s, L, addr, (void *const *)b->init, err)) goto fail; /* maps by pointer */
    for (int i = 0; i < fn->nparams; i++) b->kparams[i] = b->params + offsets[i];
    return 0;
fail:
    cu_buffers_free(s, b);
    return rc;
}

void cu_buffers_free(cu_session *s, cu_buffers *b)
{
    for (int i = 0; i < b->nbuffers; i++) {
        if (b->dptr[i]) s->drv.MemFree(b->dptr[i]);
        free(b->init[i]);
        free(b->result[i]);
        b->dptr[i] = 0;
        b->init[i] = b->result[i] = NULL;
    }
    b->nbuffers = 0;
}

static int upload(cu_session *s, cu_buffers *b, ws_error *err)
{
    for (int i = 0; i < b->nbuffers; i++) {
        const ws_buffer *wb = &b->launch->buffers[i];
        if (!wb->bytes || wb->uninit) continue; /* init=none: the GPU sees what cuMemAlloc left */
        if (cu_check(s, s->drv.MemcpyHtoD(b->dptr[i], b->init[i], (size_t)wb->bytes), err,
                     "cuMemcpyHtoD of buffer '%s' (%llu bytes)", wb->name, (unsigned long long)wb->bytes))
            return -1;
    }
    return 0;
}

/* A launch in the description's clusters (`cluster` line): cuLaunchKernelEx with the cluster
 * dimension, the non-portable size allowed first when the line asks for it. A kernel whose
 * clusters are fixed at compile time (__cluster_dims__) needs neither: cuLaunchKernel takes it. */
static CUresult launch_clusters(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err)
{
    const ws_launch *L = b->launch;
    if (!s->drv.LaunchKernelEx) {
        ws_error_set(err, "cuda", 0, 0, "the description asks for clusters of %ux%ux%u, but the driver has no "
                     "cuLaunchKernelEx (CUDA 12+); update the NVIDIA driver", L->cluster[0], L->cluster[1], L->cluster[2]);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (L->cluster_nonportable) {
        CUresult r = s->drv.FuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
        if (r != CUDA_SUCCESS) return r;
    }
    CUlaunchAttribute at;
    memset(&at, 0, sizeof at);
    at.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at.value.clusterDim.x = L->cluster[0];
    at.value.clusterDim.y = L->cluster[1];
    at.value.clusterDim.z = L->cluster[2];
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = L->grid[0]; cfg.gridDimY = L->grid[1]; cfg.gridDimZ = L->grid[2];
    cfg.blockDimX = L->block[0]; cfg.blockDimY = L->block[1]; cfg.blockDimZ = L->block[2];
    cfg.sharedMemBytes = (unsigned)L->shared_bytes;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    return s->drv.LaunchKernelEx(&cfg, k->fn, b->kparams, NULL);
}

static int launch(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err)
{
    const ws_launch *L = b->launch;
    if (L->cluster[0] && !L->cooperative) {
        CUresult r = launch_clusters(s, k, b, err);
        if (r == CUDA_ERROR_NOT_SUPPORTED && !s->drv.LaunchKernelEx) return -1;
        if (r != CUDA_SUCCESS) {
            cu_check(s, r, err, "cuLaunchKernelEx('%s', grid (%u,%u,%u), block (%u,%u,%u), clusters (%u,%u,%u)%s)",
                     k->name, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
                     L->cluster[0], L->cluster[1], L->cluster[2], L->cluster_nonportable ? ", non-portable size" : "");
            return r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
                           r == CUDA_ERROR_INVALID_CLUSTER_SIZE ? WS_EXIT_USAGE : -1;
        }
        return 0;
    }
    CUresult r = L->cooperative /* every block resident at once: grid.sync() */
        ? s->drv.LaunchCooperativeKernel(k->fn, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
                                         L->block[2], (unsigned)L->shared_bytes, NULL, b->kparams)
        : s->drv.LaunchKernel(k->fn, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
                              L->block[2], (unsigned)L->shared_bytes, NULL, b->kparams, NULL);
    if (r != CUDA_SUCCESS) {
        cu_check(s, r, err, "%s('%s', grid (%u,%u,%u), block (%u,%u,%u), %llu bytes dynamic shared)",
                 L->cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel",
                 k->name, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
                 (unsigned long long)L->shared_bytes);
        /* a launch that asks more than the GPU gives (a block, or a cooperative grid that cannot be resident)
         * is the input's fault, not the GPU's: exit 1, as sim refuses the same launch */
        return r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
                       r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
                   ? WS_EXIT_USAGE
                   : -1;
    }
    return 0;
}

/* Waits for e with a deadline; a kernel fault surfaces here as the event's error. */
static int wait_event(cu_session *s, cu_kernel *k, CUevent e, double limit_s, ws_error *err)
{
    double t0 = now_s();
    for (;;) {
        CUresult r = s->drv.EventQuery(e);
        if (r == CUDA_SUCCESS) return 0;
        if (r != CUDA_ERROR_NOT_READY) {
            char res[256];
            cu_result_text(&s->drv, r, res, sizeof res);
            ws_error_set(err, "cuda", 0, 0,
                         "kernel '%s' failed on the GPU: %s; 'warpscope sim' on the same kernel names the block, warp, "
                         "lane and line, or run it under compute-sanitizer",
                         k->name, res);
            return WS_EXIT_KERNEL_FAULT;
        }
        if (now_s() - t0 > limit_s) {
            ws_error_set(err, "cuda", 0, 0,
                         "kernel '%s' did not finish within %.0f s (set WARPSCOPE_GPU_TIMEOUT to wait longer); "
                         "giving up", k->name, limit_s);
            return WS_EXIT_KERNEL_FAULT;
        }
        struct timespec ts = {0, 200000}; /* 0.2 ms */
        nanosleep(&ts, NULL);
    }
}

static int launch_and_wait(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err)
{
    CUevent done = NULL;
    if (cu_check(s, s->drv.EventCreate(&done, CU_EVENT_DEFAULT), err, "cuEventCreate")) return -1;
    int rc = launch(s, k, b, err);
    if (!rc && cu_check(s, s->drv.EventRecord(done, NULL), err, "cuEventRecord")) rc = -1;
    if (!rc) rc = wait_event(s, k, done, s->launch_timeout_s > 0 ? s->launch_timeout_s : CU_DEFAULT_TIMEOUT_S, err);
    s->drv.EventDestroy(done);
    return rc;
}

int cu_run_once(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err)
{
    if (upload(s, b, err)) return -1;
    return launch_and_wait(s, k, b, err);
}

int cu_run_verified(cu_session *s, cu_kernel *k, cu_buffers *b, ws_error *err)
{
    int rc = cu_run_once(s, k, b, err);
    if (rc) return rc;
    for (int i = 0; i < b->nbuffers; i++) {
        const ws_buffer *wb = &b->launch->buffers[i];
        if (!wb->bytes) continue;
        if (cu_check(s, s->drv.MemcpyDtoH(b->result[i], b->dptr[i], (size_t)wb->bytes), err,
                     "cuMemcpyDtoH of buffer '%s' (%llu bytes)", wb->name, (unsigned long long)wb->bytes))
            return -1;
    }
    return 0;
}

/* Times `reps` repetitions of op (kernel launch or copy), each bracketed by its
 * own event pair; flush (if non-zero) is memset before each, outside the pair. */
typedef int (*timed_op)(cu_session *s, void *ctx, ws_error *err);

static int time_reps(cu_session *s, timed_op op, void *ctx, int reps, CUdeviceptr flush, size_t flush_bytes,
                     double *ms, ws_error *err)
{
    CUevent *ev = calloc((size_t)reps * 2, sizeof *ev);
    if (!ev) {
        ws_error_set(err, "cuda", 0, 0, "out of host memory for %d events", reps * 2);
        return WS_EXIT_INTERNAL;
    }
    int rc = 0, made = 0;
    for (; made < reps * 2; made++)
        if (cu_check(s, s->drv.EventCreate(&ev[made], CU_EVENT_DEFAULT), err, "cuEventCreate")) { rc = -1; goto out; }
    /* warm-up: first-launch costs (lazy loading, TLB, clocks) stay out of the figures */
    if ((rc = op(s, ctx, err))) goto out;
    for (int i = 0; i < reps; i++) {
        if (flush_bytes && cu_check(s, s->drv.MemsetD8Async(flush, (unsigned char)i, flush_bytes, NULL), err,
                                    "cuMemsetD8Async(L2 flush, %zu bytes)", flush_bytes)) { rc = -1; goto out; }
        if (cu_check(s, s->drv.EventRecord(ev[2 * i], NULL), err, "cuEventRecord")) { rc = -1; goto out; }
        if ((rc = op(s, ctx, err))) goto out;
        if (cu_check(s, s->drv.EventRecord(ev[2 * i + 1], NULL), err, "cuEventRecord")) { rc = -1; goto out; }
    }
    for (int i = 0; i < reps; i++) {
        CUresult r = s->drv.EventSynchronize(ev[2 * i + 1]);
        if (r != CUDA_SUCCESS) {
            cu_check(s, r, err, "cuEventSynchronize (timed repetition %d)", i + 1);
            rc = WS_EXIT_KERNEL_FAULT;
            goto out;
        }
        float f = 0;
        if (cu_check(s, s->drv.EventElapsedTime(&f, ev[2 * i], ev[2 * i + 1]), err, "cuEventElapsedTime")) {
            rc = -1;
            goto out;
        }
        if (!isfinite(f) || f < 0) {         /* never a bandwidth from a time that is not one */
            ws_error_set(err, "cuda", 0, 0, "cuEventElapsedTime gave %g ms for timed repetition %d: not a time", (double)f,
                         i + 1);
            rc = -1;
            goto out;
        }
        ms[i] = f;
    }
out:
    for (int i = 0; i < made; i++) s->drv.EventDestroy(ev[i]);
    free(ev);
    return rc;
}

typedef struct { cu_kernel *k; cu_buffers *b; } kernel_ctx;
static int kernel_op(cu_session *s, void *ctx, ws_error *err)
{
    kernel_ctx *c = ctx;
    return launch(s, c->k, c->b, err);
}

typedef struct { CUdeviceptr dst, src; size_t bytes; } copy_ctx;
static int copy_op(cu_session *s, void *ctx, ws_error *err)
{
    copy_ctx *c = ctx;
    return cu_check(s, s->drv.MemcpyDtoDAsync(c->dst, c->src, c->bytes, NULL), err, "cuMemcpyDtoDAsync(%zu bytes)",
                    c->bytes);
}

int cu_run_timed(cu_session *s, cu_kernel *k, cu_buffers *b, int reps, cu_timing *t, ws_error *err)
{
    memset(t, 0, sizeof *t);
    if (reps < 1) reps = 1;
    t->reps = reps;
    t->bytes_moved = b->launch->bytes_moved;
    double *ms = calloc((size_t)reps, sizeof *ms);
    if (!ms) {
        ws_error_set(err, "cuda", 0, 0, "out of host memory");
        return WS_EXIT_INTERNAL;
    }
    int rc = 0;
    CUdeviceptr flush = 0, src = 0, dst = 0;
    size_t flush_bytes = (size_t)(2 * s->info.l2_bytes);
    if (flush_bytes && cu_check(s, s->drv.MemAlloc(&flush, flush_bytes), err, "cuMemAlloc(%zu bytes) for the L2 flush",
                                flush_bytes)) {
        rc = -1;
        flush = 0;
        goto out;
    }
    t->flush_bytes = flush_bytes;
    kernel_ctx kc = {k, b};
    if ((rc = time_reps(s, kernel_op, &kc, reps, flush, flush_bytes, ms, err))) goto out;
    cu_stats(ms, reps, &t->median_ms, &t->min_ms, &t->max_ms);
    t->bandwidth_gbs = t->median_ms > 0 ? (double)t->bytes_moved / (t->median_ms * 1e-3) / 1e9 : 0;

    /* the ceiling: device-to-device copy of up to 1 GiB, same process, same clocks */
    size_t free_b = 0, total_b = 0;
    if (cu_check(s, s->drv.MemGetInfo(&free_b, &total_b), err, "cuMemGetInfo")) { rc = -1; goto out; }
    size_t cb = CU_COPY_BYTES;
    while (cb > (1u << 20) && cb > free_b / 4) cb /= 2;
    if (cu_check(s, s->drv.MemAlloc(&src, cb), err, "cuMemAlloc(%zu bytes) for the copy ceiling", cb)) {
        src = 0; rc = -1; goto out;
    }
    if (cu_check(s, s->drv.MemAlloc(&dst, cb), err, "cuMemAlloc(%zu bytes) for the copy ceiling", cb)) {
        dst = 0; rc = -1; goto out;
    }
    if (cu_check(s, s->drv.MemsetD8Async(src, 1, cb, NULL), err, "cuMemsetD8Async(copy source)")) { rc = -1; goto out; }
    copy_ctx cc = {dst, src, cb};
    if ((rc = time_reps(s, copy_op, &cc, reps, 0, 0, ms, err))) goto out;
    double mn, mx;
    cu_stats(ms, reps, &t->copy_median_ms, &mn, &mx);
    t->copy_bytes = cb;
    t->copy_gbs = t->copy_median_ms > 0 ? 2.0 * (double)cb / (t->copy_median_ms * 1e-3) / 1e9 : 0;
out:
    if (rc) s->drv.CtxSynchronize(); /* let queued work drain before buffers go */
    if (flush) s->drv.MemFree(flush);
    if (src) s->drv.MemFree(src);
    if (dst) s->drv.MemFree(dst);
    free(ms);
    return rc;
}

#endif /* WS_HAVE_CUDA */
