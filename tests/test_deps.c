/* test_deps.c - barriers and load-address dependences found in PTX (sim/frontend/deps.h), and
 * the latency epochs they give the timing model (memstats: independent loads of a warp
 * overlap; a dependent load, a barrier or a loop iteration starts a new epoch). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../sim/frontend/deps.h"
#include "../sim/models/latency.h"
#include "../sim/models/memstats.h"
#include "../sim/frontend/ptx.h"
#include "../sim/models/timing.h"

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

/* pc 0-1: parameters; 2: ld idx (independent); 3: address from idx; 4: ld through it
 * (dependent); 5: bar.sync; 6: ld at a fixed offset from the parameter (independent);
 * 7: st of the loaded value (its address is the parameter: independent). */
static const char *GATHER =
    HEADER
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.u32 %r1, [%rd2];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  ld.global.f32 %f1, [%rd3];\n"
    "  bar.sync 0;\n"
    "  ld.global.f32 %f2, [%rd2+4];\n"
    "  st.global.f32 [%rd2+8], %f1;\n"
    "  ret;\n}\n";

static ptx_module *parse(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("test.ptx", text, &err);
    if (!m) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

static void test_a_load_through_a_loaded_index_is_dependent_and_others_are_not(void **state)
{
    (void)state;
    ptx_module *m = parse(GATHER);
    ws_deps d;
    assert_int_equal(ws_deps_init(&d, &m->funcs[0]), 0);
    assert_int_equal(d.ninsns, 9);
    assert_false(d.flags[2] & WS_DEP_ADDR_FROM_LOAD); /* idx = in[0]: address from a parameter */
    assert_true(d.flags[4] & WS_DEP_ADDR_FROM_LOAD);  /* data[idx] */
    assert_true(d.flags[5] & WS_DEP_BARRIER);
    assert_false(d.flags[6] & WS_DEP_ADDR_FROM_LOAD);
    assert_false(d.flags[7] & WS_DEP_ADDR_FROM_LOAD); /* stores a loaded value, at a parameter address */
    /* the barrier at pc 5 lies between pcs 4 and 6, not between 2 and 4; a jump back from
     * 7 to 2 passes it (5 is not on 7..end, but the wrap checks 0..2: none) */
    assert_true(ws_deps_barrier_between(&d, 4, 6));
    assert_false(ws_deps_barrier_between(&d, 2, 4));
    assert_false(ws_deps_barrier_between(&d, 7, 2));
    assert_true(ws_deps_barrier_between(&d, 7, 6)); /* 7 -> end, then 0 -> 6 passes pc 5 */
    ws_deps_free(&d);
    ptx_free(m);
}

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.cc_major = 9;
    d.sm_count = 1;
    d.sm_clock_mhz = 1000;
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.dram_fetch_bytes = 32;
    d.l2_bytes = 1 << 20;
    d.l1_hit_cycles = 30;
    d.l2_hit_cycles = 200;
    d.dram_cycles = 500;
    d.sector_bytes = 32; d.line_bytes = 128; d.banks = 32; d.bank_bytes = 4;
    return d;
}

/* One block of `warps` warps on device *dp through the models into a latency model: events go to
 * r->models; rig_cycles finishes both, frees them and gives SM 0's latency cycles (and in *epochs,
 * unless NULL, its DRAM queue waits). */
typedef struct {
    ws_device d;
    ws_launch L;
    ws_models *models;
    ws_latency *lat;
} lat_rig;

static void rig_open(lat_rig *r, const ws_device *dp, int warps, const ptx_function *fn)
{
    r->d = *dp;
    memset(&r->L, 0, sizeof r->L);
    r->L.grid[0] = r->L.grid[1] = r->L.grid[2] = 1;
    r->L.block[0] = 32 * (uint32_t)warps;
    r->L.block[1] = r->L.block[2] = 1;
    r->models = ws_models_new(&r->d, &r->L, 0);
    r->lat = ws_latency_new(&r->d, &r->L);
    assert_non_null(r->models);
    assert_non_null(r->lat);
    ws_models_add_sink(r->models, ws_latency_verdict, r->lat);
    if (fn) assert_int_equal(ws_latency_set_function(r->lat, fn), 0);
}

static double rig_cycles(lat_rig *r, double *epochs)
{
    ws_models_finish(r->models);
    ws_latency_finish(r->lat);
    double c = ws_latency_sm_cycles(r->lat, 0);
    if (epochs)
        *epochs = ws_latency_sm_dram_epochs(r->lat, 0);
    ws_latency_free(r->lat);
    ws_models_free(r->models);
    return c;
}

/* Each of `warps` warps loads `n` cold lines, at pcs[0..n-1]; returns the SM's latency cycles
 * (each load misses to DRAM: 500, unloaded) and, in *epochs unless NULL, its DRAM queue waits. */
static double block_latency_epochs(const ws_device *dp, int warps, const ptx_function *fn, const int *pcs, int n,
                                   double *epochs)
{
    lat_rig r;
    rig_open(&r, dp, warps, fn);
    for (int w = 0; w < warps; w++)
        for (int i = 0; i < n; i++) {
            ws_mem_event ev;
            memset(&ev, 0, sizeof ev);
            ev.space = WS_SPACE_GLOBAL;
            ev.op = WS_MEM_LOAD;
            ev.width = 4;
            ev.active_mask = 0xFFFFFFFFu;
            ev.warp = (uint32_t)w;
            ev.warp_global = (uint32_t)w;
            ev.pc = (uint32_t)pcs[i];
            for (int l = 0; l < 32; l++)
                ev.addr[l] = 0x100000000ull + (uint64_t)(w * n + i) * 4096 + 4u * (uint64_t)l;
            ws_models_listener(r.models, &ev);
        }
    return rig_cycles(&r, epochs);
}

static double block_latency(const ws_device *dp, int warps, const ptx_function *fn, const int *pcs, int n)
{
    return block_latency_epochs(dp, warps, fn, pcs, n, NULL);
}

/* Under load a block's slowest warp also waited longest in the DRAM queue: the largest of K
 * exponential waits of mean q averages q x (1 + 1/2 + ... + 1/K). So a DRAM epoch that ends at the
 * block's exit or barrier counts that many queue waits per warp: 4 warps, 1 + 1/2 + 1/3 + 1/4 =
 * 25/12 each; a warp's epochs inside a loop count one each; a block of one warp one. */
static void test_a_block_wide_dram_epoch_waits_for_its_slowest_queue_wait(void **state)
{
    (void)state;
    ws_device d = dev();
    d.dram_tail_per_ln = 0.25;
    int one[1] = {1};
    double e = 0;
    block_latency_epochs(&d, 4, NULL, one, 1, &e);
    assert_true(fabs(e - 4 * 25.0 / 12) < 1e-9);
    block_latency_epochs(&d, 1, NULL, one, 1, &e);
    assert_true(fabs(e - 1) < 1e-12);
    int loop[3] = {3, 3, 3};                              /* two loop epochs, then the exit's */
    block_latency_epochs(&d, 4, NULL, loop, 3, &e);
    assert_true(fabs(e - 4 * (2 + 25.0 / 12)) < 1e-9);
    d.dram_tail_per_ln = 0;                               /* a profile without the tail: one wait each */
    block_latency_epochs(&d, 4, NULL, one, 1, &e);
    assert_true(fabs(e - 4) < 1e-12);
}

static double warp_latency(const ptx_function *fn, const int *pcs, int n)
{
    ws_device d = dev();
    return block_latency(&d, 1, fn, pcs, n);
}

/* A block's DRAM epoch that ends at its barrier or its exit waits for the slowest of its warps'
 * loads: 1 + dram_tail_per_ln x ln(warps) times one load (the probe's slowest-of-K rule). */
static void test_a_block_waits_for_its_slowest_warp_at_a_barrier_and_at_exit(void **state)
{
    (void)state;
    ws_device d = dev();
    d.dram_tail_per_ln = 0.25;
    const double tail = 500 * (1 + 0.25 * log(4.0));
    int one[1] = {1};
    double c = block_latency(&d, 4, NULL, one, 1);       /* 4 warps, one load each, then exit */
    assert_true(c > 4 * tail - 1e-3 && c < 4 * tail + 1e-3);
    assert_true(block_latency(&d, 1, NULL, one, 1) == 500); /* one warp: no slower warp to wait for */
    ptx_module *m = parse(GATHER);
    int two[2] = {2, 6};                                  /* a barrier between: two block-wide epochs */
    c = block_latency(&d, 4, &m->funcs[0], two, 2);
    assert_true(c > 8 * tail - 1e-3 && c < 8 * tail + 1e-3);
    int loop[2] = {3, 3};                                 /* a loop iteration is no barrier: only the last */
    c = block_latency(&d, 4, NULL, loop, 2);
    assert_true(c > 4 * (500 + tail) - 1e-3 && c < 4 * (500 + tail) + 1e-3);
    ptx_free(m);
}

static void test_independent_loads_of_a_warp_overlap_and_a_loop_serialises_them(void **state)
{
    (void)state;
    const double L = 500 /* unloaded: the queue is the timing model's */;
    int straight[8] = {1, 2, 3, 4, 5, 6, 7, 8}; /* an unrolled body: all 8 in flight */
    int loop[8] = {3, 3, 3, 3, 3, 3, 3, 3};     /* one load per iteration of a loop */
    assert_true(warp_latency(NULL, straight, 8) == L);
    assert_true(warp_latency(NULL, loop, 8) == 8 * L);
}

static void test_a_dependent_load_and_a_barrier_each_start_an_epoch(void **state)
{
    (void)state;
    ptx_module *m = parse(GATHER);
    const double L = 500 /* unloaded: the queue is the timing model's */;
    int pcs[3] = {2, 4, 6}; /* idx, data[idx] (waits for idx), after the barrier */
    assert_true(warp_latency(&m->funcs[0], pcs, 3) == 3 * L);
    int two[2] = {2, 6};    /* the barrier still separates them */
    assert_true(warp_latency(&m->funcs[0], two, 2) == 2 * L);
    ptx_free(m);
}

/* A cp.async (LDGSTS) is one instruction with two sides: its global read (the load that waits for
 * memory) and then, at the same pc, its shared write. The write is not the loop coming round: four
 * cp.async in a row in a function with a barrier are four loads in flight together, one epoch of one
 * DRAM latency (500), not four. The same pc with a new global read (part 0) is the next iteration.
 * Likewise the further parts (part > 0) of one wmma execution. */
/* kind (the last argument): 0 cp.async, 1 a wmma load's 4 LDG, 2 a bulk copy (global read, shared write) */
static double copy_latency(const ptx_function *fn, const int *pcs, int n, int wmma)
{
    ws_device d = dev();
    lat_rig r;
    rig_open(&r, &d, 1, fn);
    for (int i = 0; i < n; i++)
        for (int side = 0; side < (wmma == 1 ? 4 : 2); side++) {
            ws_mem_event ev;
            memset(&ev, 0, sizeof ev);
            ev.space = side && wmma != 1 ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
            ev.op = side && wmma != 1 ? WS_MEM_STORE : WS_MEM_LOAD;
            ev.kind = wmma == 1 ? WS_KIND_PLAIN : wmma == 2 ? WS_KIND_BULK : WS_KIND_LDGSTS;
            ev.part = wmma == 1 ? (uint32_t)side : 0; /* a wmma load regrouped into its 4 LDG (sass_events.c) */
            ev.width = 16;
            ev.elem_size = 4;
            ev.vec = 4;
            ev.active_mask = 0xFFFFFFFFu;
            ev.pc = (uint32_t)pcs[i];
            for (int l = 0; l < 32; l++)
                ev.addr[l] = wmma == 1 ? 0x100000000ull + (uint64_t)(i * 4 + side) * 4096 + 16u * (uint64_t)l
                       : side ? (uint64_t)i * 512 + 16u * (uint64_t)l
                                  : 0x100000000ull + (uint64_t)i * 4096 + 16u * (uint64_t)l;
            ws_models_listener(r.models, &ev);
        }
    return rig_cycles(&r, NULL);
}

static void test_a_cp_async_shared_write_is_the_same_access_as_its_global_read(void **state)
{
    (void)state;
    ptx_module *m = parse(GATHER); /* a barrier at pc 5; pcs 0-3 are no dependent accesses */
    int straight[4] = {0, 1, 2, 3};
    assert_true(copy_latency(&m->funcs[0], straight, 4, 0) == 500);
    int loop[3] = {3, 3, 3};        /* one cp.async per iteration: three epochs */
    assert_true(copy_latency(&m->funcs[0], loop, 3, 0) == 3 * 500);
    /* a wmma fragment load in SASS is 4 LDG of one execution (parts 0-3, each its own DRAM line):
       in flight together, one latency; a loop of them one per iteration */
    assert_true(copy_latency(&m->funcs[0], straight, 4, 1) == 500);
    assert_true(copy_latency(&m->funcs[0], loop, 3, 1) == 3 * 500);
    /* bulk copies at one pc one after another (each lane's cp.async.bulk of one warp instruction is
       an event of its own) are in flight together: one latency, not three */
    assert_true(copy_latency(&m->funcs[0], loop, 3, 2) == 500);
    ptx_free(m);
}

/* Loads of one line each (line -1: a store), in this order: {warp, pc, line}, one block of `warps`
 * warps; waits: the SASS waits for a load between pcs 1 and 2, and has pc 3's load before that wait
 * (ws_sass_load_waits). Returns the SM's latency cycles. */
typedef struct { int warp, pc, line; } load_at;

static double loads_latency(const load_at *ld, int n, int warps, int waits)
{
    ws_device d = dev();
    lat_rig r;
    rig_open(&r, &d, warps, NULL);
    if (waits) {
        int *wv = malloc(4 * sizeof *wv);
        assert_non_null(wv);
        wv[0] = 0, wv[1] = 0, wv[2] = 1, wv[3] = 0; /* pc 3: the SASS issues it before the wait */
        ws_latency_set_load_waits(r.lat, wv, 4);
    }
    for (int i = 0; i < n; i++) {
        ws_mem_event ev;
        memset(&ev, 0, sizeof ev);
        ev.space = WS_SPACE_GLOBAL;
        ev.op = ld[i].line < 0 ? WS_MEM_STORE : WS_MEM_LOAD;
        ev.width = 4;
        ev.active_mask = 0xFFFFFFFFu;
        ev.warp = ev.warp_global = (uint32_t)ld[i].warp;
        ev.pc = (uint32_t)ld[i].pc;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 0x100000000ull + (uint64_t)(ld[i].line < 0 ? 100 : ld[i].line) * 4096 + 4u * (uint64_t)l;
        ws_models_listener(r.models, &ev);
    }
    return rig_cycles(&r, NULL);
}

/* SASS issues in order: an instruction that reads a loaded register stops the warp until that
 * load is back, so a load after it in the listing starts an epoch of its own, though the PTX
 * loop has not come round (NVIDIA's dmmaTensorCoreGemm: LD, LD, DMMA four times per iteration).
 * One warp, two cold lines (DRAM: 500 each) at pcs 1 and 2: one latency without a wait between
 * them, two with one. A store's place changes nothing: the epoch keeps its loads' count. */
static void test_a_load_after_a_use_of_an_earlier_load_in_the_sass_is_a_new_epoch(void **state)
{
    (void)state;
    load_at two[] = {{0, 1, 1}, {0, 2, 2}};
    assert_true(loads_latency(two, 2, 1, 0) == 500);
    assert_true(loads_latency(two, 2, 1, 1) == 500 + 500);
    /* a tile copy: ld (SASS before the wait), st (after it: it reads the load), ld (before it too):
       the PTX's order is not the SASS's, both loads are in flight together */
    load_at copy[] = {{0, 1, 1}, {0, 2, -1}, {0, 3, 2}};
    assert_true(loads_latency(copy, 3, 1, 1) == 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_load_through_a_loaded_index_is_dependent_and_others_are_not),
        cmocka_unit_test(test_independent_loads_of_a_warp_overlap_and_a_loop_serialises_them),
        cmocka_unit_test(test_a_dependent_load_and_a_barrier_each_start_an_epoch),
        cmocka_unit_test(test_a_block_waits_for_its_slowest_warp_at_a_barrier_and_at_exit),
        cmocka_unit_test(test_a_block_wide_dram_epoch_waits_for_its_slowest_queue_wait),
        cmocka_unit_test(test_a_cp_async_shared_write_is_the_same_access_as_its_global_read),
        cmocka_unit_test(test_a_load_after_a_use_of_an_earlier_load_in_the_sass_is_a_new_epoch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
