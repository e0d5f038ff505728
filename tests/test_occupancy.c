/* test_occupancy.c - the occupancy calculator against the measured H200 spot checks
 * of gpu-memory-rules.md App. H and the §6.2 shared-memory examples; each limit is
 * also re-derived here from the §6.2 formulas. The device figures are the H200's
 * cudaDeviceProp values (../shared/reference/h200-device-properties.txt). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include <string.h>

#include "../sim/frontend/occupancy.h"

static ws_device h200(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "h200";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.l1_unified_bytes = 256 * 1024;
    const uint32_t co[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    d.ncarveouts = 10;
    memcpy(d.carveouts_kb, co, sizeof co);
    d.smem_per_sm = 233472;
    d.smem_per_block = 49152;
    d.smem_per_block_optin = 232448;
    d.smem_reserved_per_block = 1024;
    d.smem_alloc_gran = 128;
    d.max_warps_per_sm = 64;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.regs_per_sm = 65536;
    d.max_regs_per_thread = 255;
    d.reg_alloc_gran = 256;
    d.subpartitions = 4;
    return d;
}

static ws_occupancy occ(const ws_device *d, int regs, int threads, uint32_t dyn)
{
    ws_occ_input in = {threads, regs, 0, dyn, -1, 1};
    ws_occupancy o;
    assert_int_equal(ws_occupancy_calc(d, &in, &o), 0);
    return o;
}

/* §6.2 register limit: floor(floor((65536/4) / rpw) * 4 / W), rpw = roundup(regs*32, 256) */
static int derived_reg_limit(int regs, int threads)
{
    int W = (threads + 31) / 32;
    int rpw = (regs * 32 + 255) / 256 * 256;
    return (65536 / 4 / rpw) * 4 / W;
}

typedef struct {
    int regs, threads;
    uint32_t dyn;
    int blocks;                         /* runtime API = cuda_occupancy.h, measured */
    int lreg, lsmem, lwarp, lblock;     /* limits as measured (0 = cannot launch) */
} apph_row;

static const apph_row appendix_h[] = {
    {40, 96, 0, 16, 16, 228, 21, 32},
    {48, 96, 0, 13, 13, 228, 21, 32},
    {96, 96, 0, 6, 6, 228, 21, 32},
    {64, 256, 48 * 1024, 4, 4, 4, 8, 32},
    {24, 256, 3000, 8, 10, 57, 8, 32},
};

static void test_appendix_h_spot_checks_are_reproduced(void **state)
{
    (void)state;
    ws_device d = h200();
    for (size_t i = 0; i < sizeof appendix_h / sizeof appendix_h[0]; i++) {
        const apph_row *r = &appendix_h[i];
        ws_occupancy o = occ(&d, r->regs, r->threads, r->dyn);
        assert_int_equal(o.blocks_per_sm, r->blocks);
        assert_int_equal(o.limit_regs, r->lreg);
        assert_int_equal(o.limit_regs, derived_reg_limit(r->regs, r->threads));
        assert_int_equal(o.limit_smem, r->lsmem);
        assert_int_equal(o.limit_warps, r->lwarp);
        assert_int_equal(o.limit_blocks, r->lblock);
    }
}

static void test_register_floor_per_sub_partition_beats_the_naive_division(void **state)
{
    (void)state;
    ws_device d = h200();
    /* 40 regs x 96 threads: naive 65536 / (1280*3) = 17; per sub-partition 12 warps x 4 / 3 = 16 */
    ws_occupancy o = occ(&d, 40, 96, 0);
    assert_int_equal(65536 / (1280 * 3), 17);
    assert_int_equal(o.limit_regs, 16);
    assert_int_equal(o.limiter, WS_OCC_LIMIT_REGISTERS);
    assert_int_equal(o.warps_per_sm, 48);
    assert_true(o.occupancy_pct > 74.99 && o.occupancy_pct < 75.01); /* ncu: Theoretical Occupancy 75 % */
}

static void test_too_many_registers_for_a_1024_thread_block_cannot_launch(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occupancy o = occ(&d, 72, 1024, 0); /* 72*32 = 2304 regs/warp x 32 warps > 65536 */
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(o.limit_regs, 0);
    assert_int_equal(o.limiter, WS_OCC_LIMIT_NONE);
    assert_true(strlen(o.reason) > 0);
    o = occ(&d, 256, 32, 0); /* over 255 registers per thread */
    assert_int_equal(o.blocks_per_sm, 0);
}

static void test_shared_memory_examples_of_section_6_2(void **state)
{
    (void)state;
    ws_device d = h200();
    const struct { uint32_t dyn, alloc; int blocks; } ex[] = {
        {0, 1024, 228}, {1, 1152, 202}, {3000, 4096, 57}, {48 * 1024, 50176, 4}, {100 * 1024, 103424, 2},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        ws_occupancy o = occ(&d, 32, 128, ex[i].dyn);
        /* allocation: roundup(dyn + 1 KB reserved, 128) */
        assert_int_equal(o.smem_per_block, (ex[i].dyn + 1024 + 127) / 128 * 128);
        assert_int_equal(o.smem_per_block, ex[i].alloc);
        assert_int_equal(o.limit_smem, ex[i].blocks);
        assert_int_equal(o.limit_smem, 233472 / ex[i].alloc);
    }
}

static void test_shared_memory_over_the_opt_in_limit_cannot_launch(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occupancy o = occ(&d, 32, 128, 232448 + 1); /* + 1 KB reserved > 227 KB + 1 KB */
    assert_int_equal(o.blocks_per_sm, 0);
    o = occ(&d, 32, 128, 232448);
    assert_int_equal(o.blocks_per_sm, 1);
}

static void test_carveout_preference_rounds_up_to_a_supported_size(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occ_input in = {256, 32, 0, 8 * 1024, 10, 1}; /* 10 % of 228 KB = 23347 B -> 32 KB */
    ws_occupancy o;
    ws_occupancy_calc(&d, &in, &o);
    assert_int_equal(o.smem_config, 32 * 1024);
    assert_int_equal(o.limit_smem, 32 * 1024 / ((8 * 1024 + 1024 + 127) / 128 * 128));
    in.dynamic_smem = 40 * 1024; /* more than the preference: the preference is overridden */
    ws_occupancy_calc(&d, &in, &o);
    assert_int_equal(o.smem_config, 64 * 1024);
    assert_int_equal(o.limit_smem, 1);
}

static void test_small_blocks_are_limited_by_the_block_count(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occupancy o = occ(&d, 16, 32, 0); /* 1 warp per block: 64 warps allow 64, 32 blocks max */
    assert_int_equal(o.limit_warps, 64);
    assert_int_equal(o.blocks_per_sm, 32);
    assert_int_equal(o.limiter, WS_OCC_LIMIT_BLOCKS);
    assert_true(o.occupancy_pct > 49.99 && o.occupancy_pct < 50.01);
    o = occ(&d, 16, 13, 0); /* 13 threads still take a whole warp slot */
    assert_int_equal(o.warps_per_block, 1);
    assert_int_equal(o.blocks_per_sm, 32);
}

static void test_driver_carveout_leaves_the_rest_of_the_unified_cache_to_l1(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occupancy o = occ(&d, 40, 96, 0);
    /* min(32 blocks, 21 warp-limited blocks) x 1 KB = 21 KB -> 32 KB carveout (ncu: 32 KB) */
    assert_int_equal(o.driver_carveout, 32 * 1024);
    assert_int_equal(o.l1_bytes, 256 * 1024 - 32 * 1024);
    o = occ(&d, 32, 256, 48 * 1024);
    assert_int_equal(o.driver_carveout, 228 * 1024);
    assert_int_equal(o.l1_bytes, 28 * 1024);
}

static void test_bad_block_sizes_are_errors(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occ_input in = {0, 32, 0, 0, -1, 1};
    ws_occupancy o;
    assert_int_equal(ws_occupancy_calc(&d, &in, &o), -1);
    in.threads_per_block = 1025;
    assert_int_equal(ws_occupancy_calc(&d, &in, &o), -1);
    assert_true(strstr(o.reason, "1025") != NULL);
}

static void test_the_shipped_h200_profile_gives_the_measured_limits(void **state)
{
    (void)state;
    const ws_device *d = ws_device_find("h200");
    assert_non_null(d);
    for (size_t i = 0; i < sizeof appendix_h / sizeof appendix_h[0]; i++) {
        ws_occupancy o = occ(d, appendix_h[i].regs, appendix_h[i].threads, appendix_h[i].dyn);
        assert_int_equal(o.blocks_per_sm, appendix_h[i].blocks);
        assert_int_equal(o.limit_smem, appendix_h[i].lsmem);
    }
    /* every shipped profile computes something sane for a plain 256-thread kernel */
    for (const ws_device *const *p = ws_device_all(); *p; p++) {
        ws_occupancy o = occ(*p, 32, 256, 0);
        assert_true(o.blocks_per_sm >= 1);
        assert_true(o.warps_per_sm <= (*p)->max_warps_per_sm);
        assert_true(o.l1_bytes <= (*p)->l1_unified_bytes);
    }
}

/* ncu's achieved occupancy averages the warps an SM holds over its active time, so a grid too
 * small to fill the SMs reaches less than the calculator's figure: the model's row is the grid's.
 * NVIDIA's dmmaTensorCoreGemm: 64 blocks of 512 threads on 132 SMs, one block on each of 64 SMs,
 * 16 of 64 warps = 25 % (ncu: achieved 24.4 %, theoretical 100 %); 256 one-warp blocks: 124 SMs
 * hold 2, 8 hold 1, 256 warps over 132 SMs' time = 256 / (132 x 64) = 3.03 % (ncu 3.03 %); whole
 * waves reach the calculator's figure, and a last wave of one block halves an SM's mean. */
static void test_a_grid_smaller_than_the_gpu_reaches_only_the_occupancy_its_blocks_give(void **state)
{
    (void)state;
    ws_device d = h200();
    ws_occupancy o = occ(&d, 24, 512, 0);
    assert_true(o.occupancy_pct > 99.99);
    assert_true(fabs(ws_occupancy_grid_pct(&d, &o, 64) - 25.0) < 1e-9);
    o = occ(&d, 32, 32, 0);
    assert_int_equal(o.blocks_per_sm, 32);
    assert_true(fabs(ws_occupancy_grid_pct(&d, &o, 256) - 100.0 * 256 / (132 * 64)) < 1e-9);
    assert_true(fabs(ws_occupancy_grid_pct(&d, &o, 132 * 32 * 3) - o.occupancy_pct) < 1e-9);
    o = occ(&d, 24, 512, 0); /* 4 blocks per SM: 5 blocks on each SM are 2 waves, 2.5 blocks a wave */
    assert_int_equal(o.blocks_per_sm, 4);
    assert_true(fabs(ws_occupancy_grid_pct(&d, &o, 132 * 5) - 100.0 * 16 * 2.5 / 64) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_grid_smaller_than_the_gpu_reaches_only_the_occupancy_its_blocks_give),
        cmocka_unit_test(test_appendix_h_spot_checks_are_reproduced),
        cmocka_unit_test(test_register_floor_per_sub_partition_beats_the_naive_division),
        cmocka_unit_test(test_too_many_registers_for_a_1024_thread_block_cannot_launch),
        cmocka_unit_test(test_shared_memory_examples_of_section_6_2),
        cmocka_unit_test(test_shared_memory_over_the_opt_in_limit_cannot_launch),
        cmocka_unit_test(test_carveout_preference_rounds_up_to_a_supported_size),
        cmocka_unit_test(test_small_blocks_are_limited_by_the_block_count),
        cmocka_unit_test(test_driver_carveout_leaves_the_rest_of_the_unified_cache_to_l1),
        cmocka_unit_test(test_bad_block_sizes_are_errors),
        cmocka_unit_test(test_the_shipped_h200_profile_gives_the_measured_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
