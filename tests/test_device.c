/* test_device.c - device profiles (common/device.c): lookup by key and driver
 * name, the H200 profile against the properties read on the real device
 * (tests/data/h200-device-properties.txt, a copy of
 * shared/reference/h200-device-properties.txt), and the internal consistency
 * every profile must keep. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/device.h"

static void test_default_is_the_h200_and_the_list_is_null_terminated(void **state)
{
    (void)state;
    const ws_device *const *all = ws_device_all();
    assert_ptr_equal(all[0], ws_device_default());
    assert_string_equal(ws_device_default()->key, "h200");
    int n = 0;
    while (all[n]) n++;
    assert_int_equal(n, 5);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) assert_string_not_equal(all[i]->key, all[j]->key);
}

static void test_find_by_key_ignores_case(void **state)
{
    (void)state;
    static const char *keys[] = {"h200", "H100", "A100", "t4", "V100"};
    for (size_t i = 0; i < 5; i++) {
        const ws_device *d = ws_device_find(keys[i]);
        assert_non_null(d);
        assert_int_equal(strlen(d->key), strlen(keys[i]));
    }
    assert_string_equal(ws_device_find("H200")->key, "h200");
    assert_null(ws_device_find("h20"));
    assert_null(ws_device_find("h2000"));
    assert_null(ws_device_find(""));
    assert_null(ws_device_find(NULL));
}

static void test_find_by_driver_name(void **state)
{
    (void)state;
    static const struct { const char *name, *key; } cases[] = {
        {"NVIDIA H200", "h200"},
        {"nvidia h200", "h200"},
        {"NVIDIA H100 80GB HBM3", "h100"},
        {"NVIDIA A100-SXM4-40GB", "a100"},
        {"Tesla T4", "t4"},
        {"Tesla V100-SXM2-16GB", "v100"},
        {"Tesla V100-SXM2-32GB", "v100"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ws_device *d = ws_device_find(cases[i].name);
        if (!d || strcmp(d->key, cases[i].key)) fail_msg("'%s' should find %s", cases[i].name, cases[i].key);
    }
    /* each profile answers to its own driver name */
    for (const ws_device *const *d = ws_device_all(); *d; d++) assert_ptr_equal(ws_device_find((*d)->name), *d);
    /* other boards of the same families differ (SMs, clocks, memory): no profile */
    assert_null(ws_device_find("NVIDIA H200 NVL"));
    assert_null(ws_device_find("NVIDIA H100 PCIe"));
    assert_null(ws_device_find("NVIDIA A100-SXM4-80GB"));
    assert_null(ws_device_find("NVIDIA H2000"));
    assert_null(ws_device_find("NVIDIA GeForce RTX 4090"));
}

/* Reads "KEY=VALUE" from the properties dump; fails the test when absent. */
static long long prop(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(text, pat);
    if (!p) fail_msg("property %s not in the dump", key);
    return strtoll(p + strlen(pat), NULL, 10);
}

static void test_h200_profile_matches_the_measured_device_properties(void **state)
{
    (void)state;
    FILE *f = fopen("tests/data/h200-device-properties.txt", "r");
    assert_non_null(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const ws_device *d = ws_device_find("h200");
    assert_non_null(strstr(text, "name=NVIDIA H200 "));
    assert_string_equal(d->name, "NVIDIA H200");
    assert_int_equal(d->sm_count, prop(text, "SMs"));
    assert_int_equal(d->l2_bytes, prop(text, "l2CacheSize"));
    assert_int_equal(d->smem_per_sm, prop(text, "sharedMemPerMultiprocessor"));
    assert_int_equal(d->smem_per_block, prop(text, "sharedMemPerBlock"));
    assert_int_equal(d->smem_per_block_optin, prop(text, "sharedMemPerBlockOptin"));
    assert_int_equal(d->smem_reserved_per_block, prop(text, "reservedSharedMemPerBlock"));
    assert_int_equal(d->regs_per_sm, prop(text, "regsPerMultiprocessor"));
    assert_int_equal(d->max_threads_per_sm, prop(text, "maxThreadsPerMultiProcessor"));
    assert_int_equal(d->max_blocks_per_sm, prop(text, "maxBlocksPerMultiProcessor"));
    assert_int_equal(d->dram_fetch_bytes, prop(text, "cudaLimitMaxL2FetchGranularity"));
    assert_int_equal(d->cc_major, 9);
    assert_int_equal(d->cc_minor, 0);
}

static void test_h200_shared_memory_limits_reproduce_the_measured_block_counts(void **state)
{
    (void)state;
    /* gpu-memory-rules.md §6.2 [MEAS]: dynamic smem 3,000 B -> 57 blocks/SM, 48 KB -> 4, 100 KB -> 2,
     * computed as smem_per_sm / roundup(smem + reserved, granularity) */
    const ws_device *d = ws_device_default();
    static const struct { uint32_t smem; uint32_t blocks; } cases[] = {{3000, 57}, {49152, 4}, {102400, 2}, {1, 202}};
    for (size_t i = 0; i < 4; i++) {
        uint32_t need = cases[i].smem + d->smem_reserved_per_block;
        uint32_t alloc = (need + d->smem_alloc_gran - 1) / d->smem_alloc_gran * d->smem_alloc_gran;
        assert_int_equal(d->smem_per_sm / alloc, cases[i].blocks);
    }
}

static void test_every_profile_is_internally_consistent(void **state)
{
    (void)state;
    for (const ws_device *const *p = ws_device_all(); *p; p++) {
        const ws_device *d = *p;
        print_message("  checking %s (%s)\n", d->key, d->name);
        assert_true(d->cc_major >= 7 && d->cc_major <= 9);
        /* the profile's compile target is its compute capability: 7.5 is sm_75 */
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", d->cc_major, d->cc_minor);
        assert_non_null(d->arch);
        assert_string_equal(d->arch, arch);
        assert_true(d->sm_count > 0 && d->sm_clock_mhz > 500 && d->dram_bw_gbs > 100);
        assert_int_equal(d->max_threads_per_sm, 32 * d->max_warps_per_sm);
        /* the largest carveout is the per-SM shared memory; carveouts ascend */
        assert_true(d->ncarveouts > 0 && d->ncarveouts <= WS_MAX_CARVEOUTS);
        for (int i = 1; i < d->ncarveouts; i++) assert_true(d->carveouts_kb[i] > d->carveouts_kb[i - 1]);
        assert_int_equal(d->carveouts_kb[d->ncarveouts - 1] * 1024u, d->smem_per_sm);
        assert_true(d->l1_unified_bytes >= d->smem_per_sm);
        /* the opt-in maximum per block plus its reservation fits the SM */
        assert_true(d->smem_per_block_optin + d->smem_reserved_per_block <= d->smem_per_sm);
        assert_true(d->smem_per_block <= d->smem_per_block_optin);
        assert_int_equal(d->smem_per_block, 48 * 1024);
        /* allocation granularity: 256 B on 7.x, 128 B from 8.0 (rules §6.1) */
        assert_int_equal(d->smem_alloc_gran, d->cc_major == 7 ? 256 : 128);
        /* a line is 4 sectors; 32 banks of 4 bytes cover one line */
        assert_int_equal(d->sector_bytes, 32);
        assert_int_equal(d->line_bytes, 4 * d->sector_bytes);
        assert_int_equal(d->banks * d->bank_bytes, d->line_bytes);
        assert_true(d->dram_fetch_bytes == 32 || d->dram_fetch_bytes == 64 || d->dram_fetch_bytes == 128);
        /* registers: 64 K per SM, split over 4 sub-partitions, allocated 256 per warp */
        assert_int_equal(d->regs_per_sm, 65536);
        assert_int_equal(d->subpartitions, 4);
        assert_int_equal(d->reg_alloc_gran, 256);
        assert_int_equal(d->max_regs_per_thread, 255);
        assert_true(d->l2_bytes >= 4u << 20);
        assert_true(d->l1_hit_cycles < d->l2_hit_cycles && d->l2_hit_cycles < d->dram_cycles);
        assert_true(d->l2_bw_gbs > d->dram_bw_gbs);
        assert_true(d->launch_overhead_us > 0);
    }
}

/* Where the H200 put small grids' blocks (results/h200-gemm-lrc place-small.txt, results/h200-lrc-map
 * placement.txt): blocks per GPC for 16, 32, 64 and 66 blocks, each GPC's blocks one run in launch
 * order; a grid of at least one block per SM is not placed here. */
static void test_small_grids_are_dealt_over_the_gpcs_as_the_h200_placed_them(void **state)
{
    (void)state;
    const ws_device *d = ws_device_find("h200");
    static const struct { int grid, per_gpc[8]; } cases[] = {
        {16, {9, 1, 1, 1, 1, 1, 1, 1}},
        {32, {11, 3, 3, 3, 3, 3, 3, 3}},
        {64, {12, 8, 8, 8, 7, 7, 7, 7}},
        {66, {12, 8, 8, 8, 8, 8, 7, 7}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int count[8] = {0}, last = 0;
        for (int b = 0; b < cases[k].grid; b++) {
            int g = ws_device_block_gpc(d, (uint64_t)cases[k].grid, (uint64_t)b);
            assert_true(g >= last && g < 8); /* runs in launch order */
            count[g]++;
            last = g;
        }
        for (int g = 0; g < 8; g++) assert_int_equal(count[g], cases[k].per_gpc[g]);
    }
    assert_int_equal(ws_device_block_gpc(d, 132, 0), -1);
    assert_int_equal(ws_device_grid_groups(d, 4), 1);
    assert_int_equal(ws_device_grid_groups(d, 16), 8);
    assert_int_equal(ws_device_grid_groups(d, 1024), 33); /* 132 SMs in groups of 4 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_is_the_h200_and_the_list_is_null_terminated),
        cmocka_unit_test(test_find_by_key_ignores_case),
        cmocka_unit_test(test_small_grids_are_dealt_over_the_gpcs_as_the_h200_placed_them),
        cmocka_unit_test(test_find_by_driver_name),
        cmocka_unit_test(test_h200_profile_matches_the_measured_device_properties),
        cmocka_unit_test(test_h200_shared_memory_limits_reproduce_the_measured_block_counts),
        cmocka_unit_test(test_every_profile_is_internally_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
