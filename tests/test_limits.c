/* test_limits.c - resource limits of the simulator: launches it could never
 * finish or hold are refused up front with the numbers, loops that never end
 * stop at the instruction budget naming the loop, and deep divergence stays
 * within the SIMT stack. Kernels are small handwritten PTX so each limit is
 * reached on purpose, not by accident. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/device.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/ptx.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[tid] = tid, one store: the cheapest kernel that touches memory. */
static const char *STORE_TID =
    HEAD
    ".visible .entry store_tid(.param .u64 out)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n"
    "  ret;\n}\n";

static ptx_module *parse(const char *text)
{
    ws_error err;
    ptx_module *m = ptx_parse("limits.ptx", text, &err);
    if (!m) fail_msg("PTX: %d:%d: %s", err.line, err.col, err.msg);
    return m;
}

/* A launch of fn with one float buffer of n elements per pointer parameter. */
static void launch_for(ws_launch *L, uint32_t grid, uint32_t block, uint64_t n)
{
    memset(L, 0, sizeof *L);
    L->grid[0] = grid; L->grid[1] = L->grid[2] = 1;
    L->block[0] = block; L->block[1] = L->block[2] = 1;
    L->nbuffers = 1;
    snprintf(L->buffers[0].name, sizeof L->buffers[0].name, "out");
    L->buffers[0].type = WS_TYPE_UINT;
    L->buffers[0].count = n;
    L->buffers[0].bytes = n * 4;
    L->buffers[0].output = true;
    L->nargs = 1;
    L->args[0].kind = WS_ARG_BUFFER;
    L->args[0].buffer = 0;
}

static int run(ptx_module *m, const ws_launch *L, uint64_t budget, uint64_t host_bytes, ws_sim_result *res, ws_error *err)
{
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = &m->funcs[0];
    cfg.launch = L;
    cfg.max_thread_insns = budget;
    cfg.max_host_bytes = host_bytes;
    return ws_sim_run(&cfg, res, err);
}

/* The largest shared window any device profile grants one block. */
static uint32_t max_shared_optin(const char **name)
{
    uint32_t best = 0;
    for (const ws_device *const *d = ws_device_all(); *d; d++)
        if ((*d)->smem_per_block_optin > best) { best = (*d)->smem_per_block_optin; *name = (*d)->name; }
    return best;
}

static void test_a_grid_with_more_threads_than_the_budget_is_refused_at_once(void **state)
{
    (void)state;
    ptx_module *m = parse(STORE_TID);
    ws_launch L;
    launch_for(&L, 1, 1024, 1024);
    L.grid[0] = 2147483647u; L.grid[1] = 65535; L.grid[2] = 65535;   /* CUDA's largest grid */
    ws_sim_result res;
    ws_error err;
    clock_t t0 = clock();
    assert_int_equal(run(m, &L, 1000000, 0, &res, &err), -1);
    /* 2^31-1 * 65535^2 blocks of 1024 threads: each thread runs >= 1 instruction */
    char want[160];
    snprintf(want, sizeof want, "%" PRIu64 " blocks of 1024 threads cannot finish within the instruction budget of 1000000",
             (uint64_t)2147483647u * 65535 * 65535);
    assert_non_null(strstr(err.msg, want));
    assert_int_equal(res.thread_insns, 0);                   /* refused before anything ran */
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
    ws_sim_result_free(&res);
    ptx_free(m);
}

static void test_a_grid_exactly_at_the_budget_runs(void **state)
{
    (void)state;
    ptx_module *m = parse(STORE_TID);
    ws_launch L;
    launch_for(&L, 4, 32, 32);
    ws_sim_result res;
    ws_error err;
    /* 4 blocks x 32 threads x 6 instructions = 768 thread-instructions exactly */
    if (run(m, &L, 768, 0, &res, &err)) fail_msg("%s", err.msg);
    assert_int_equal(res.thread_insns, 768);
    ws_sim_result_free(&res);
    /* one fewer: the kernel is straight-line, its shortest path is all 6, so the launch is refused
       before any block runs */
    assert_int_equal(run(m, &L, 767, 0, &res, &err), -1);
    if (!strstr(err.msg, "4 blocks of 32 threads cannot finish within the instruction budget of 767 "
                "thread-instructions: each thread runs at least 6 (the kernel's shortest path), so at least 768, "
                "found before any block ran"))
        fail_msg("%s", err.msg);
    assert_int_equal(res.stop, WS_SIM_REFUSED);
    assert_int_equal(res.thread_insns, 0);
    ws_sim_result_free(&res);
    ptx_free(m);
}

static void test_more_shared_memory_than_any_gpu_gives_a_block_is_refused(void **state)
{
    (void)state;
    ptx_module *m = parse(STORE_TID);
    const char *name = "";
    uint32_t most = max_shared_optin(&name);
    assert_true(most >= 48 * 1024);
    ws_launch L;
    launch_for(&L, 1, 32, 32);
    ws_sim_result res;
    ws_error err;
    L.shared_bytes = most;                                    /* exactly the limit: fine */
    if (run(m, &L, 0, 0, &res, &err)) fail_msg("%s", err.msg);
    ws_sim_result_free(&res);
    L.shared_bytes = (uint64_t)most + 1;                      /* one byte more: refused */
    assert_int_equal(run(m, &L, 0, 0, &res, &err), -1);
    char want[160];
    snprintf(want, sizeof want, "needs %u bytes of shared memory (0 static + %u dynamic), more than any GPU gives one "
             "block (%s: %u bytes)", most + 1, most + 1, name, most);
    assert_non_null(strstr(err.msg, want));
    ws_sim_result_free(&res);
    L.shared_bytes = 4294967295u;                             /* what a description may ask for */
    assert_int_equal(run(m, &L, 0, 0, &res, &err), -1);
    ws_sim_result_free(&res);
    ptx_free(m);
}

static void test_buffers_beyond_the_host_limit_are_refused_with_their_size(void **state)
{
    (void)state;
    ptx_module *m = parse(STORE_TID);
    ws_launch L;
    launch_for(&L, 1, 32, (1u << 20) / 4 + 1);               /* 1 MiB + 4 bytes */
    ws_sim_result res;
    ws_error err;
    assert_int_equal(run(m, &L, 0, 1u << 20, &res, &err), -1);
    assert_non_null(strstr(err.msg, "needs 1048580 bytes"));
    assert_non_null(strstr(err.msg, "limit of 1048576 bytes"));
    ws_sim_result_free(&res);
    ptx_free(m);
}

static void test_registers_beyond_the_host_limit_are_refused_before_the_warps_exist(void **state)
{
    (void)state;
    /* a million 32-bit registers: 32 lanes x 8 bytes each per warp = 256 MiB per warp */
    char *text = malloc(4096);
    snprintf(text, 4096, HEAD ".visible .entry regs(.param .u64 out)\n{\n  .reg .b32 %%r<1000000>;\n"
             "  mov.u32 %%r999999, %%tid.x;\n  ret;\n}\n");
    ptx_module *m = parse(text);
    free(text);
    ws_launch L;
    launch_for(&L, 1, 1024, 1);
    ws_sim_result res;
    ws_error err;
    assert_int_equal(run(m, &L, 0, 64u << 20, &res, &err), -1);
    assert_non_null(strstr(err.msg, "32 warps of registers"));
    assert_non_null(strstr(err.msg, "limit of 67108864 bytes"));
    ws_sim_result_free(&res);
    ptx_free(m);
}

static void test_a_loop_that_never_ends_stops_at_the_budget_naming_a_line_of_the_loop(void **state)
{
    (void)state;
    const char *text =
        HEAD
        ".visible .entry spin(.param .u64 out)\n{\n"           /* line 4 */
        "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n"            /* 5, 6 */
        "  mov.u32 %r1, 1;\n"                                  /* 7 */
        "$L_top:\n"                                            /* 8 */
        "  add.u32 %r1, %r1, 2;\n"                             /* 9: odd forever */
        "  setp.ne.u32 %p1, %r1, 0;\n"                         /* 10 */
        "  @%p1 bra $L_top;\n"                                 /* 11 */
        "  ret;\n}\n";
    ptx_module *m = parse(text);
    ws_launch L;
    launch_for(&L, 2, 64, 1);
    ws_sim_result res;
    ws_error err;
    assert_int_equal(run(m, &L, 100000, 0, &res, &err), -1);
    assert_non_null(strstr(err.msg, "stopped after the instruction budget of 100000 thread-instructions"));
    assert_true(err.line >= 9 && err.line <= 11);
    /* it stops within one slice of the budget, not at the end of time */
    assert_true(res.thread_insns > 100000 && res.thread_insns <= 100000 + 32 * WS_SIM_SLICE);
    ws_sim_result_free(&res);
    ptx_free(m);
}

/* Level k (k = 0..39) lets threads with tid <= k branch to the end and counts
 * for the rest; the exits nest, so 32 lanes peel off one level at a time. */
static void test_forty_nested_divergent_branches_reconverge_with_the_right_counts(void **state)
{
    (void)state;
    size_t cap = 16384, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, HEAD ".visible .entry nest(.param .u64 out)\n{\n"
                          "  .reg .pred %%p<2>;\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
                          "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, 0;\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)snprintf(text + n, cap - n, "  setp.le.u32 %%p1, %%r1, %d;\n  @%%p1 bra $L_end%d;\n"
                              "  add.u32 %%r2, %%r2, 1;\n", k, k);
    for (int k = 39; k >= 0; k--) n += (size_t)snprintf(text + n, cap - n, "$L_end%d:\n  add.u32 %%r3, %%r2, 0;\n", k);
    snprintf(text + n, cap - n, "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r2;\n  ret;\n}\n");
    ptx_module *m = parse(text);
    free(text);
    ws_launch L;
    launch_for(&L, 1, 32, 32);
    ws_sim_result res;
    ws_error err;
    if (run(m, &L, 0, 0, &res, &err)) fail_msg("%s", err.msg);
    const uint32_t *out = res.buffer_data[0];
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(out[t], t);   /* levels 0..t-1 counted: min(t, 40) */
    ws_sim_result_free(&res);
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_grid_with_more_threads_than_the_budget_is_refused_at_once),
        cmocka_unit_test(test_a_grid_exactly_at_the_budget_runs),
        cmocka_unit_test(test_more_shared_memory_than_any_gpu_gives_a_block_is_refused),
        cmocka_unit_test(test_buffers_beyond_the_host_limit_are_refused_with_their_size),
        cmocka_unit_test(test_registers_beyond_the_host_limit_are_refused_before_the_warps_exist),
        cmocka_unit_test(test_a_loop_that_never_ends_stops_at_the_budget_naming_a_line_of_the_loop),
        cmocka_unit_test(test_forty_nested_divergent_branches_reconverge_with_the_right_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
