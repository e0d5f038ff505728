/* cu_selftest.c - `warpscope gpu --self-test`: the driver-facing layer on its
 * own, with a built-in kernel and no catalog, PTX parser or simulator: JIT,
 * buffers, parameters, launch, event timing, copy ceiling and (with
 * --counters) ncu, each checked against values known from first principles.
 * Invariant: it prints one PASS/FAIL line per check and returns non-zero when
 * any check fails, so a GPU machine shows at once whether this layer works. */
#include "cu_selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../sim/models/metrics.h"
#include "cu_counters.h"
#include "cu_run.h"

#ifdef WS_HAVE_CUDA

/* nvcc -ptx -arch=sm_90 of:
 *   extern "C" __global__ void ws_selftest_copy(const float *in, float *out, int n)
 *   { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i] * 2.0f; } */
static const char selftest_ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\t// .globl\tws_selftest_copy\n"
    ".visible .entry ws_selftest_copy(\n"
    "\t.param .u64 ws_selftest_copy_param_0,\n"
    "\t.param .u64 ws_selftest_copy_param_1,\n"
    "\t.param .u32 ws_selftest_copy_param_2\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .f32 \t%f<3>;\n"
    "\t.reg .b32 \t%r<6>;\n"
    "\t.reg .b64 \t%rd<8>;\n"
    "\tld.param.u64 \t%rd1, [ws_selftest_copy_param_0];\n"
    "\tld.param.u64 \t%rd2, [ws_selftest_copy_param_1];\n"
    "\tld.param.u32 \t%r2, [ws_selftest_copy_param_2];\n"
    "\tmov.u32 \t%r3, %ctaid.x;\n"
    "\tmov.u32 \t%r4, %ntid.x;\n"
    "\tmov.u32 \t%r5, %tid.x;\n"
    "\tmad.lo.s32 \t%r1, %r3, %r4, %r5;\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r2;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\tcvta.to.global.u64 \t%rd3, %rd1;\n"
    "\tmul.wide.s32 \t%rd4, %r1, 4;\n"
    "\tadd.s64 \t%rd5, %rd3, %rd4;\n"
    "\tld.global.f32 \t%f1, [%rd5];\n"
    "\tadd.f32 \t%f2, %f1, %f1;\n"
    "\tcvta.to.global.u64 \t%rd6, %rd2;\n"
    "\tadd.s64 \t%rd7, %rd6, %rd4;\n"
    "\tst.global.f32 \t[%rd7], %f2;\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "}\n"
    ;

#define N_ELEMS (1u << 24) /* 64 MiB per buffer: 128 MiB moved, beyond the L2 */

static int report(const char *what, bool ok, const char *detail)
{
    printf("  %s  %s%s%s\n", ok ? "PASS" : "FAIL", what, detail && *detail ? ": " : "", detail ? detail : "");
    return ok ? 0 : 1;
}

/* The launch and the entry's parameters, as ws_desc_resolve and the PTX parser would make them:
 * in (index-initialised) and out (zeroed), N_ELEMS floats each, 256-thread blocks. */
static void selftest_launch(ws_launch *L, ptx_function *fn)
{
    static ptx_symbol syms[3];
    static int idx[3] = {0, 1, 2};
    memset(L, 0, sizeof *L);
    L->nbuffers = 2;
    for (int i = 0; i < 2; i++) {
        ws_buffer *b = &L->buffers[i];
        snprintf(b->name, sizeof b->name, "%s", i ? "out" : "in");
        b->type = WS_TYPE_FLOAT;
        b->count = N_ELEMS;
        b->bytes = (uint64_t)N_ELEMS * 4;
        b->init = i ? WS_INIT_ZERO : WS_INIT_INDEX;
        b->output = i == 1;
    }
    L->nargs = 3;
    L->args[0] = (ws_arg){WS_ARG_BUFFER, 0, 0, 0};
    L->args[1] = (ws_arg){WS_ARG_BUFFER, 1, 0, 0};
    L->args[2] = (ws_arg){WS_ARG_INT, -1, N_ELEMS, 0};
    L->grid[0] = N_ELEMS / 256;
    L->grid[1] = L->grid[2] = 1;
    L->block[0] = 256;
    L->block[1] = L->block[2] = 1;
    L->bytes_moved = 2ull * N_ELEMS * 4;
    memset(syms, 0, sizeof syms);
    memset(fn, 0, sizeof *fn);
    const ptx_type types[3] = {PTX_T_U64, PTX_T_U64, PTX_T_U32};
    const uint64_t offs[3] = {0, 8, 16}, sizes[3] = {8, 8, 4};
    static const char *const names[3] = {"ws_selftest_copy_param_0", "ws_selftest_copy_param_1",
                                         "ws_selftest_copy_param_2"};
    for (int i = 0; i < 3; i++) {
        syms[i].name = names[i];
        syms[i].kind = PTX_SYM_PARAM;
        syms[i].space = PTX_SPACE_PARAM;
        syms[i].type = types[i];
        syms[i].offset = offs[i];
        syms[i].size = sizes[i];
    }
    fn->name = "ws_selftest_copy";
    fn->retval_sym = -1;
    fn->is_entry = true;
    fn->nparams = 3;
    fn->param_syms = idx;
    fn->nsyms = 3;
    fn->syms = syms;
    fn->param_bytes = 20;
}

/* Every output element is twice its index-initialised input. Returns the failures (0 or 1). */
static int selftest_output(const cu_buffers *b)
{
    char d[256];
    const float *in = b->result[0], *o = b->result[1];
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < N_ELEMS; i++)
        if (in[i] != (float)i || o[i] != 2.0f * (float)i) { if (!bad++) first = i; }
    snprintf(d, sizeof d, "%llu of %u elements wrong%s", (unsigned long long)bad, N_ELEMS, bad ? ", first at" : "");
    if (bad) snprintf(d + strlen(d), sizeof d - strlen(d), " %llu: in %g out %g", (unsigned long long)first,
                      in[first], o[first]);
    return report("output = 2 x input (index-initialised)", bad == 0, d);
}

/* Event timing is ordered and a streaming copy is within reach of the device's own copy.
 * Returns the failures; *stop when timing failed (nothing after it can run). */
static int selftest_timing(cu_session *s, cu_kernel *k, cu_buffers *b, bool *stop)
{
    ws_error err;
    char d[256];
    cu_timing t;
    if (cu_run_timed(s, k, b, CU_DEFAULT_REPS, &t, &err)) {
        *stop = true;
        return report("timing", false, err.msg);
    }
    snprintf(d, sizeof d, "median %.4f ms (min %.4f, max %.4f), %.1f GB/s; copy ceiling %.1f GB/s (%.0f MiB)",
             t.median_ms, t.min_ms, t.max_ms, t.bandwidth_gbs, t.copy_gbs, t.copy_bytes / 1048576.0);
    int fails = report("event timing", t.median_ms > 0 && t.min_ms <= t.median_ms && t.median_ms <= t.max_ms, d);
    /* a streaming copy cannot beat the device's own copy by much, nor be absurdly slow */
    snprintf(d, sizeof d, "%.0f%% of the copy ceiling", 100 * t.bandwidth_gbs / t.copy_gbs);
    fails += report("bandwidth plausible (20%..120% of cuMemcpyDtoD)",
                    t.copy_gbs > 0 && t.bandwidth_gbs > 0.2 * t.copy_gbs && t.bandwidth_gbs < 1.2 * t.copy_gbs, d);
    return fails;
}

/* ncu's counters of the copy against their values from first principles. Returns the failures. */
static int selftest_counters(void)
{
    ws_error err;
    char d[2048];
    cu_counters c;
    cu_counters_info ci;
    cu_counters_request rq = {"--self-test", NULL, "ws_selftest_copy", cu_default_metrics};
    if (cu_counters_collect(&rq, &c, &ci, &err)) return report("ncu counters", false, err.msg);
    snprintf(d, sizeof d, "%d of %d metrics from %s %s%s%s", ci.collected, ci.requested, ci.ncu_path,
             ci.ncu_version, ci.not_listed[0] ? "; not listed: " : "", ci.not_listed);
    int fails = report("ncu counters", c.n > 0, d);
    /* one 4-byte load and store per thread: N/32 warp requests of 4 sectors each */
    struct { ws_metric_id id; double want; } exp[] = {
        {WS_METRIC_GLD_REQUESTS, N_ELEMS / 32.0},
        {WS_METRIC_GLD_SECTORS, N_ELEMS / 8.0},
        {WS_METRIC_GST_REQUESTS, N_ELEMS / 32.0},
        {WS_METRIC_GST_SECTORS, N_ELEMS / 8.0},
        {WS_METRIC_GLD_INST, N_ELEMS / 32.0},
        {WS_METRIC_SLD_WAVEFRONTS_RAW, 0},
    };
    for (size_t i = 0; i < sizeof exp / sizeof exp[0]; i++) {
        const char *name = ws_metric_table[exp[i].id].name;
        const cu_metric *m = cu_counters_get(&c, name);
        snprintf(d, sizeof d, "gpu %s, expected %.0f", m ? m->raw : "(missing)", exp[i].want);
        fails += report(name, m && m->numeric && m->value == exp[i].want, d);
    }
    const char *dram = ws_metric_table[WS_METRIC_DRAM_READ].name;
    const cu_metric *dr = cu_counters_get(&c, dram);
    double want = (double)N_ELEMS * 4;
    snprintf(d, sizeof d, "gpu %s, expected about %.0f (the input once)", dr ? dr->raw : "(missing)", want);
    return fails + report(dram, dr && dr->numeric && fabs(dr->value - want) < 0.1 * want, d);
}

int cu_selftest(bool counters, bool profile_child)
{
    ws_error err;
    cu_session s;
    int rc = cu_session_open(&s, &err);
    if (rc) {
        ws_error_print(&err);
        return rc;
    }
    static ws_launch L;
    static ptx_function fn;
    selftest_launch(&L, &fn);
    int fails = 0;
    char d[2048];
    cu_kernel k;
    cu_buffers b;
    bool have_k = false, have_b = false, stop = false;
    if (!profile_child) {
        printf("warpscope gpu --self-test on %s (cc %d.%d, %d SMs, L2 %llu B, driver %s)\n", s.info.name,
               s.info.cc_major, s.info.cc_minor, s.info.sm_count, (unsigned long long)s.info.l2_bytes,
               s.info.driver_version);
        snprintf(d, sizeof d, "%s via %s", s.info.name, s.drv.lib_path);
        fails += report("driver loaded, device opened", true, d);
    }
    if (cu_kernel_load(&s, selftest_ptx, "ws_selftest_copy", 0, &k, &err)) {
        ws_error_print(&err);
        fails += report("JIT of the built-in PTX", false, err.msg);
        goto out;
    }
    have_k = true;
    if (cu_buffers_create(&s, &L, &fn, &b, &err)) {
        fails += report("buffers and parameters", false, err.msg);
        goto out;
    }
    have_b = true;
    if (profile_child) {
        rc = cu_run_once(&s, &k, &b, &err);
        if (rc) ws_error_print(&err);
        else fprintf(stderr, "warpscope: profile child: ws_selftest_copy launched once\n");
        goto out;
    }
    snprintf(d, sizeof d, "%d registers, %d B local", k.attrs.num_regs, k.attrs.local_bytes);
    fails += report("JIT of the built-in PTX", k.attrs.num_regs > 0, d);
    rc = cu_run_verified(&s, &k, &b, &err);
    fails += report("verified launch", rc == 0, rc ? err.msg : "");
    if (rc) goto out;
    fails += selftest_output(&b);
    fails += selftest_timing(&s, &k, &b, &stop);
    if (!stop && counters) fails += selftest_counters();
out:
    if (have_b) cu_buffers_free(&s, &b);
    if (have_k) cu_kernel_unload(&s, &k);
    cu_session_close(&s);
    if (profile_child) return cu_exit_code(rc);
    printf("self-test: %s\n", fails ? "FAILED" : "all checks passed");
    return fails ? WS_EXIT_INTERNAL : 0;
}
#endif /* WS_HAVE_CUDA */
