/* test_memstats.c - the memory listener: per-pc rows add up to the kernel totals,
 * the ncu-named table carries the counts the models produced, blocks land on SMs
 * round-robin, and local frames are per resident warp slot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../sim/models/memstats.h"
#include "../sim/models/models.h"

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.cc_major = 9;
    d.sm_count = 4;
    d.sm_clock_mhz = 1000;
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.dram_fetch_bytes = 64;
    d.ecc = 1;
    d.l2_bytes = 1 << 20;
    d.l1_hit_cycles = 30;
    d.l2_hit_cycles = 200;
    d.dram_cycles = 500;
    d.sector_bytes = 32; d.line_bytes = 128; d.banks = 32; d.bank_bytes = 4;
    return d;
}

static ws_launch launch(uint32_t blocks, uint32_t threads)
{
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = blocks; L.grid[1] = L.grid[2] = 1;
    L.block[0] = threads; L.block[1] = L.block[2] = 1;
    return L;
}

static ws_mem_event event(ws_space sp, ws_mem_op op, int width, uint32_t pc, uint32_t block, uint64_t stride)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = sp;
    ev.op = op;
    ev.width = (uint8_t)width;
    ev.pc = pc;
    ev.block_linear = block;
    ev.active_mask = 0xFFFFFFFFu;
    ev.src_line = (int)pc + 10;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = (sp == WS_SPACE_GLOBAL ? 0x100000000ull : 0) + (uint64_t)l * stride;
    return ev;
}

/* The models feeding a memstats, as ws_simulation_run wires them. */
typedef struct {
    ws_models *models;
    ws_memstats *ms;
} chain;

static chain chain_new(const ws_device *d, const ws_launch *L, int ninsns, uint32_t l1_bytes)
{
    chain c = {ws_models_new(d, L, l1_bytes), ws_memstats_new(d, L, ninsns)};
    assert_non_null(c.models);
    assert_non_null(c.ms);
    assert_int_equal(ws_models_add_sink(c.models, ws_memstats_verdict, c.ms), 0);
    return c;
}

static void chain_finish(chain *c)
{
    ws_models_finish(c->models);
    ws_memstats_finish(c->ms, ws_models_cache_totals(c->models));
}

static void chain_free(chain *c)
{
    ws_memstats_free(c->ms);
    ws_models_free(c->models);
}

static double metric(const ws_memstats *ms, const char *name)
{
    ws_metric rows[128];
    int n = ws_memstats_metrics(ms, rows, 128);
    assert_true(n <= 128);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return rows[i].value;
    fail_msg("no metric %s", name);
    return -1;
}

static void test_per_pc_rows_add_up_to_the_kernel_totals(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(8, 64);
    chain c = chain_new(&d, &L, 4, 32 * 1024);
    ws_memstats *ms = c.ms;
    for (uint32_t b = 0; b < 8; b++) {
        ws_mem_event e0 = event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0, b, 8);     /* float stride 2: 8 sectors */
        ws_mem_event e1 = event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 1, b, 4);     /* 4 sectors */
        ws_mem_event e2 = event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 2, b, 128);   /* 32 wavefronts */
        ws_mem_event e3 = event(WS_SPACE_GLOBAL, WS_MEM_STORE, 4, 3, b, 4);
        ws_models_listener(c.models, &e0);
        ws_models_listener(c.models, &e1);
        ws_models_listener(c.models, &e2);
        ws_models_listener(c.models, &e3);
    }
    chain_finish(&c);
    const ws_mem_totals *t = ws_memstats_totals(ms);
    uint64_t sectors = 0, wf = 0, req = 0;
    for (int pc = 0; pc < 4; pc++) {
        const ws_pc_stats *p = ws_memstats_pc(ms, pc);
        assert_int_equal(p->executions, 8);
        assert_int_equal(p->src_line, pc + 10);
        if (p->space == WS_SPACE_GLOBAL && p->op == WS_MEM_LOAD) {
            sectors += p->sectors;
            req += p->requests;
        }
        wf += p->wavefronts;
    }
    assert_int_equal(ws_memstats_pc(ms, 0)->sectors, 8 * 8);
    assert_int_equal(ws_memstats_pc(ms, 0)->ideal_sectors, 8 * 4);
    assert_int_equal(sectors, t->global[WS_MEM_LOAD].sectors);
    assert_int_equal(req, t->global[WS_MEM_LOAD].requests);
    assert_int_equal(wf, t->shared[WS_MEM_LOAD].wavefronts);
    assert_int_equal(t->shared[WS_MEM_LOAD].ncu_conflicts, 8 * 31);
    assert_null(ws_memstats_pc(ms, 4));

    /* the table carries the same numbers under ncu's names */
    assert_true(metric(ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 8 * (8 + 4));
    assert_true(metric(ms, "smsp__sass_inst_executed_op_global_ld.sum") == 16);
    assert_true(metric(ms, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 8);
    assert_true(metric(ms, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 8 * 32);
    assert_true(metric(ms, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 8 * 31);
    assert_true(metric(ms, "lts__t_sectors_srcunit_tex_op_write.sum") == 8 * 4);
    /* each of the 4 SMs sees pc 0's 8 sectors first in blocks 0..3 (misses), again in
     * blocks 4..7 (hits); pc 0 (bytes 0..251) already brought pc 1's sectors 0..3 into L1,
     * so every pc 1 access hits */
    assert_int_equal(ws_memstats_pc(ms, 1)->l1_hit_sectors, 8 * 4);
    assert_int_equal(ws_memstats_pc(ms, 0)->l1_hit_sectors, 4 * 8); /* blocks 4..7 */
    double rate = metric(ms, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct");
    assert_true(rate > 100.0 * 64 / 96 - 1e-9 && rate < 100.0 * 64 / 96 + 1e-9);
    chain_free(&c);
}

static void test_blocks_are_placed_round_robin_over_the_sms(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(10, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    ws_memstats *ms = c.ms;
    for (uint32_t b = 0; b < 10; b++)
        assert_int_equal(ws_models_block_sm(c.models, b), (int)(b % 4));
    assert_int_equal(ws_memstats_sm(ms, 0)->blocks, 3); /* blocks 0, 4, 8 */
    assert_int_equal(ws_memstats_sm(ms, 1)->blocks, 3);
    assert_int_equal(ws_memstats_sm(ms, 2)->blocks, 2);
    assert_int_equal(ws_memstats_sm(ms, 3)->blocks, 2);
    chain_free(&c);
}

static int observed;
static void observer(void *ctx, const ws_mem_verdict *v)
{
    (void)ctx;
    observed++;
    assert_int_equal(v->sm, (int)(v->ev->block_linear % 4));
    if (v->ev->space == WS_SPACE_LOCAL) {
        assert_non_null(v->co);
        assert_non_null(v->ca);
        assert_null(v->bk);
    }
}

static void test_local_frames_are_reused_by_the_next_wave_on_the_same_slot(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(8, 32);
    chain c = chain_new(&d, &L, 2, 32 * 1024);
    ws_memstats *ms = c.ms;
    ws_models_set_resident_blocks(c.models, 1);
    assert_int_equal(ws_models_add_sink(c.models, observer, NULL), 0);
    observed = 0;
    /* block b stores then (for b >= 4) the next wave's block on the same SM reloads */
    for (uint32_t b = 0; b < 8; b++) {
        ws_mem_event st = event(WS_SPACE_LOCAL, WS_MEM_STORE, 4, 0, b, 0);
        ws_models_listener(c.models, &st);
    }
    for (uint32_t b = 4; b < 8; b++) {
        ws_mem_event ld = event(WS_SPACE_LOCAL, WS_MEM_LOAD, 4, 1, b, 0);
        ws_models_listener(c.models, &ld);
    }
    chain_finish(&c);
    assert_int_equal(observed, 12);
    const ws_mem_totals *t = ws_memstats_totals(ms);
    assert_int_equal(t->local[WS_MEM_STORE].sectors, 8 * 4);
    assert_int_equal(t->local[WS_MEM_LOAD].requests, 4);
    /* one slot per SM: block b+4 finds block b's frame in its SM's L1 */
    assert_int_equal(t->cache.l1_local_ld_hit, 4 * 4);
    /* 4 SMs x 1 slot x 128 B: the 8 blocks wrote only 4 distinct frames */
    assert_int_equal(t->cache.dirty_at_end_bytes, 4 * 128);
    chain_free(&c);
}

/* A warp's first load of its local frame finds nothing in L1: its 4 sectors (32 lanes x 4 B,
 * interleaved) miss; the same load again finds them all. */
static void test_a_local_frame_misses_l1_once_then_hits(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    for (int i = 0; i < 2; i++) {
        ws_mem_event ld = event(WS_SPACE_LOCAL, WS_MEM_LOAD, 4, 0, 0, 0);
        ws_models_listener(c.models, &ld);
    }
    chain_finish(&c);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") == 8);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum") == 4);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum") == 4);
    chain_free(&c);
}

static void test_every_metric_row_has_a_name_and_a_description(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    ws_memstats *ms = ws_memstats_new(&d, &L, 1);
    int n = ws_memstats_metrics(ms, NULL, 0);
    assert_true(n > 30);
    ws_metric rows[128];
    ws_memstats_metrics(ms, rows, 128);
    for (int i = 0; i < n; i++) {
        assert_true(strlen(rows[i].name) > 5 && strlen(rows[i].desc) > 5);
        assert_true(rows[i].value == 0); /* nothing ran */
        for (int j = 0; j < i; j++)
            assert_true(strcmp(rows[i].name, rows[j].name) != 0);
    }
    ws_memstats_free(ms);
}

/* The rows are the metric table's (sim/models/metrics.h) in its order: the KERNEL rows, and the
 * TENSOR rows after them once a tensor-era instruction ran. */
static void test_the_rows_are_the_tables_and_the_tensor_rows_follow_a_tensor_instruction(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    int nkernel = 0, ntensor = 0;
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        nkernel += ws_metric_table[i].scope == WS_SCOPE_KERNEL;
        ntensor += ws_metric_table[i].scope == WS_SCOPE_TENSOR;
    }
    assert_int_equal(ws_memstats_metrics(c.ms, NULL, 0), nkernel);
    /* one ldmatrix.x1: 8 lanes give the rows of one 8x8 matrix, 16 bytes each, in 8 distinct
     * 16-byte columns of the banks: one instruction, 128 bytes, one wavefront */
    ws_mem_event ev = event(WS_SPACE_SHARED, WS_MEM_LOAD, 16, 0, 0, 16);
    ev.kind = WS_KIND_LDSM;
    ev.active_mask = 0xFFu;
    for (int l = 8; l < 32; l++) ev.addr[l] = 0;
    ws_models_listener(c.models, &ev);
    chain_finish(&c);
    ws_metric rows[128];
    int n = ws_memstats_metrics(c.ms, rows, 128);
    assert_int_equal(n, nkernel + ntensor);
    for (int i = 0; i < n; i++) {
        const ws_metric_info *m = &ws_metric_table[i];
        assert_ptr_equal(rows[i].info, m);
        assert_string_equal(rows[i].name, m->name);
        assert_string_equal(rows[i].desc, m->help);
        assert_int_equal(rows[i].basis, m->basis);
        assert_int_equal(m->scope, i < nkernel ? WS_SCOPE_KERNEL : WS_SCOPE_TENSOR);
    }
    assert_true(metric(c.ms, "smsp__sass_inst_executed_op_ldsm.sum") == 1);
    assert_true(metric(c.ms, "smsp__sass_data_bytes_mem_shared_op_ldsm.sum") == 8 * 16);
    assert_true(metric(c.ms, "smsp__sass_inst_executed_op_shared_ld.sum") == 0); /* counted apart */
    chain_free(&c);
}

static void test_a_profile_whose_geometry_the_models_do_not_implement_is_refused_by_name(void **state)
{
    (void)state;
    ws_launch L = launch(1, 32);
    char why[160];
    ws_device d = dev();
    assert_int_equal(ws_models_check_device(&d, why, sizeof why), 0);
    d.sector_bytes = 64; /* the coalescer cuts 32-B sectors: a 64-B profile would be modelled wrong */
    assert_int_equal(ws_models_check_device(&d, why, sizeof why), -1);
    assert_non_null(strstr(why, "sector_bytes"));
    assert_null(ws_models_new(&d, &L, 0));
    d = dev();
    d.banks = 16;
    assert_int_equal(ws_models_check_device(&d, why, sizeof why), -1);
    assert_non_null(strstr(why, "banks"));
    d = dev();
    d.dram_queue_cycles = -1; /* a queue that shortens the latency */
    assert_int_equal(ws_models_check_device(&d, why, sizeof why), -1);
    assert_non_null(strstr(why, "dram_queue_cycles"));
    for (const ws_device *const *p = ws_device_all(); *p; p++)
        assert_int_equal(ws_models_check_device(*p, why, sizeof why), 0);
}

/* Block sampling writes the counters back through ws_memstats_flat_set, which evens out each
 * value's rounding against the rows: a cp.async's global read is in global[LOAD] and in its own
 * family (ncu counts it under global_op_ld too) but once in its row, so the family must not count
 * twice there (it did: a sampled cp.async kernel reported 0 global load sectors). */
static void test_a_cp_async_read_survives_the_samplers_round_trip_through_the_flat_vector(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    ws_mem_event rd = event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0, 0, 4), wr = event(WS_SPACE_SHARED, WS_MEM_STORE, 4, 0, 0, 4);
    rd.kind = wr.kind = WS_KIND_LDGSTS;  /* cp.async.ca 4 bytes a lane: 128 B, 4 sectors */
    ws_models_listener(c.models, &rd);
    ws_models_listener(c.models, &wr);
    uint64_t v[4096];
    assert_true(ws_memstats_nflat(c.ms) <= sizeof v / sizeof v[0]);
    ws_memstats_flat_get(c.ms, v);
    ws_memstats_flat_set(c.ms, v);        /* the sampler's write-back with nothing scaled */
    chain_finish(&c);
    assert_int_equal(ws_memstats_check(c.ms), 0);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 4);
    assert_true(metric(c.ms, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 1);
    chain_free(&c);
}

static void test_a_32_lane_red_to_one_address_counts_32_l1_and_l2_sectors(void **state)
{
    (void)state;
    ws_device d = dev();
    d.atom_sector_rule = WS_ATOM_SECTORS_PASS;
    d.l2_atom_sector_factor = 1.5;   /* the H200's (results/h200-contention.md) */
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 4, 0);
    ws_mem_event red = event(WS_SPACE_GLOBAL, WS_MEM_REDUCE, 4, 0, 0, 0);    /* stride 0: one word */
    ws_mem_event atom = event(WS_SPACE_GLOBAL, WS_MEM_ATOMIC, 4, 1, 0, 4);   /* 32 consecutive words */
    ws_mem_event sh = event(WS_SPACE_SHARED, WS_MEM_ATOMIC, 4, 2, 0, 0);     /* one shared word */
    ws_models_listener(c.models, &red);
    ws_models_listener(c.models, &atom);
    ws_models_listener(c.models, &sh);
    chain_finish(&c);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") == 32); /* one per lane */
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") == 4); /* 128 B: 4 sectors */
    assert_true(metric(c.ms, "lts__t_sectors_srcunit_tex_op_atom.sum") == 4);  /* the ATOM's only: the H200 counts REDs apart */
    assert_true(metric(c.ms, "lts__t_sectors_op_red.sum") == 1.5 * 32);   /* all sources: the far partition's half again */
    assert_true(metric(c.ms, "lts__t_sectors_op_atom.sum") == 1.5 * 4);
    assert_true(metric(c.ms, "ws__shared_atom_passes.sum") == 1);   /* lanes on one word combine (H200, ncu) */
    assert_true(metric(c.ms, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum") == 1);
    const ws_atomic_totals *t = ws_models_atomic_totals(c.models);
    assert_int_equal(t->addr_ops_max, 32 + 1);   /* the first word: 32 REDs and lane 0's ATOM */
    assert_int_equal(ws_memstats_pc(c.ms, 0)->atom_same_addr_max, 32);
    chain_free(&c);
}

static void test_a_distributed_shared_store_counts_under_dshared_not_the_blocks_own_banks(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    int nkernel = 0, ndsmem = 0;
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        nkernel += ws_metric_table[i].scope == WS_SCOPE_KERNEL;
        ndsmem += ws_metric_table[i].scope == WS_SCOPE_DSMEM;
    }
    /* 32 lanes store 4 bytes each, 8 bytes apart, into block rank 1's window: 256 bytes = 8 sectors */
    ws_mem_event ev = event(WS_SPACE_SHARED, WS_MEM_STORE, 4, 0, 0, 8);
    ev.dsmem = 2;
    ws_models_listener(c.models, &ev);
    chain_finish(&c);
    ws_metric rows[128];
    assert_int_equal(ws_memstats_metrics(c.ms, rows, 128), nkernel + ndsmem);
    assert_true(metric(c.ms, "smsp__sass_inst_executed_op_dshared_st.sum") == 1);
    assert_true(metric(c.ms, "l1tex__t_requests_pipe_lsu_mem_dshared_op_st.sum") == 1);
    assert_true(metric(c.ms, "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum") == 8);
    assert_true(metric(c.ms, "smsp__sass_inst_executed_op_shared_st.sum") == 0);   /* not the own window's */
    assert_true(metric(c.ms, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 0);
    assert_int_equal(ws_memstats_check(c.ms), 0);
    chain_free(&c);
}

/* The SASS instruction rows (metrics.h's SASS scope) exist only once the machine code's counts are
 * given: a PTX-level run has none. The fma row is both FMA pipes: 20 FFMA-class (heavy or lite) + 5
 * IMAD-class (heavy only) = 25; an approximate count is reported as "model", the same numbers. */
static void test_the_sass_instruction_rows_follow_the_machine_codes_counts_and_say_when_approximate(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_launch L = launch(1, 32);
    chain c = chain_new(&d, &L, 1, 32 * 1024);
    int nkernel = 0, nsass = 0;
    for (int i = 0; i < WS_METRIC_COUNT; i++) {
        nkernel += ws_metric_table[i].scope == WS_SCOPE_KERNEL;
        nsass += ws_metric_table[i].scope == WS_SCOPE_SASS;
    }
    assert_int_equal(nsass, 3); /* the total, alu and fma: the pipes the opcode alone decides */
    chain_finish(&c);
    ws_metric rows[128];
    int n = ws_memstats_metrics(c.ms, rows, 128);
    assert_int_equal(n, nkernel); /* PTX level: no SASS rows */
    for (int i = 0; i < n; i++) assert_string_not_equal(rows[i].name, "smsp__inst_executed.sum");
    uint64_t pipe[WS_PIPE_COUNT] = {0};
    pipe[WS_PIPE_NONE] = 60;
    pipe[WS_PIPE_ALU] = 15;
    pipe[WS_PIPE_FMA] = 20;
    pipe[WS_PIPE_FMAHEAVY] = 5;
    for (int approx = 0; approx < 2; approx++) {
        ws_memstats_set_sass_insns(c.ms, 100, pipe, approx);
        n = ws_memstats_metrics(c.ms, rows, 128);
        assert_int_equal(n, nkernel + nsass);
        assert_true(metric(c.ms, "smsp__inst_executed.sum") == 100);
        assert_true(metric(c.ms, "sm__inst_executed_pipe_alu.sum") == 15);
        assert_true(metric(c.ms, "sm__inst_executed_pipe_fma.sum") == 25);
        for (int i = nkernel; i < n; i++) {
            assert_int_equal(rows[i].info->scope, WS_SCOPE_SASS);
            assert_int_equal(rows[i].info->basis, WS_BASIS_EXACT);
            assert_int_equal(rows[i].basis, approx ? WS_BASIS_MODEL : WS_BASIS_EXACT);
        }
    }
    chain_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_sass_instruction_rows_follow_the_machine_codes_counts_and_say_when_approximate),
        cmocka_unit_test(test_per_pc_rows_add_up_to_the_kernel_totals),
        cmocka_unit_test(test_a_32_lane_red_to_one_address_counts_32_l1_and_l2_sectors),
        cmocka_unit_test(test_blocks_are_placed_round_robin_over_the_sms),
        cmocka_unit_test(test_local_frames_are_reused_by_the_next_wave_on_the_same_slot),
        cmocka_unit_test(test_a_local_frame_misses_l1_once_then_hits),
        cmocka_unit_test(test_every_metric_row_has_a_name_and_a_description),
        cmocka_unit_test(test_the_rows_are_the_tables_and_the_tensor_rows_follow_a_tensor_instruction),
        cmocka_unit_test(test_a_distributed_shared_store_counts_under_dshared_not_the_blocks_own_banks),
        cmocka_unit_test(test_a_profile_whose_geometry_the_models_do_not_implement_is_refused_by_name),
        cmocka_unit_test(test_a_cp_async_read_survives_the_samplers_round_trip_through_the_flat_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
