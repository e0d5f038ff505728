/* test_sass.c - the machine code's view: reading nvdisasm listings, matching PTX memory
 * instructions to SASS ones, and the counters the simulator gives through the SASS stage,
 * one test per way ptxas changes a kernel (merged LDS.128 / STS.64 / LDG.128, a removed
 * store with a predicated load, unrolled loops, register spills). Listings are recorded
 * in tests/data/sass/ (README.md there says how), so no toolkit is needed; the expected
 * counts are derived here from those listings and the access addresses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/files.h"
#include "../common/toolkit.h"
#include "../sim/models/coalesce.h"
#include "../sim/sass/sass.h"
#include "../sim/sass/sass_events.h"
#include "../sim/sass/sass_map.h"
#include "../sim/sass/sass_unroll.h"
#include "../sim/simulate.h"

static ws_catalog *cat;

static int load(void **state)
{
    (void)state;
    ws_error err;
    if (ws_catalog_load("demos", &cat, &err)) {
        ws_error_print(&err);
        return -1;
    }
    return 0;
}

static int unload(void **state)
{
    (void)state;
    ws_catalog_free(cat);
    return 0;
}

static char *slurp(const char *path)
{
    ws_error err;
    char *t = ws_read_file(path, 0, NULL, &err);
    if (!t) ws_error_print(&err);
    assert_non_null(t);
    return t;
}

static ws_sass_listing *listing(const char *path)
{
    char *t = slurp(path);
    ws_error err;
    ws_sass_listing *l = ws_sass_parse(path, t, &err);
    free(t);
    if (!l) ws_error_print(&err);
    assert_non_null(l);
    return l;
}

/* The first instruction of f whose listed text starts with text. */
static const ws_sass_insn *find_insn(const ws_sass_function *f, const char *text)
{
    for (int i = 0; i < f->ninsns; i++)
        if (!strncmp(f->insns[i].text, text, strlen(text))) return &f->insns[i];
    fail_msg("no instruction '%s' in %s", text, f->name);
    return NULL;
}

static double metric(const ws_memstats *ms, const char *name)
{
    ws_metric rows[128];
    int n = ws_memstats_metrics(ms, rows, 128);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name)) return rows[i].value;
    fail_msg("metric %s missing", name);
    return -1;
}

/* Runs kernel with -D d1 (may be NULL) through the SASS stage with the recorded listing
 * sass_path, or PTX-level when sass_path is NULL. The caller closes s. */
static void run(ws_simulation *s, const char *kernel, const char *d1, const char *d2, const char *sass_path)
{
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ws_error err;
    if (d1) assert_int_equal(ws_overrides_add(&ov, d1, &err), 0);
    if (d2) assert_int_equal(ws_overrides_add(&ov, d2, &err), 0);
    char *text = sass_path ? slurp(sass_path) : NULL;
    ws_simulation_opts o = {.ptx_level = sass_path == NULL, .sass_listing = text};
    int rc = ws_simulation_open(s, cat, kernel, &ov, ws_device_find("h200"), NULL, &err);
    if (!rc) rc = ws_simulation_run(s, &o, &err);
    free(text);
    if (rc) ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
    if (sass_path) {
        assert_non_null(s->sass);
        if (!s->sass->active) fail_msg("%s", s->sass->level);
    }
}

/* ---- reading listings ----------------------------------------------------------- */

static void test_listing_gives_opcode_width_guard_base_offset_and_source_line(void **state)
{
    (void)state;
    ws_sass_listing *l = listing("tests/data/sass/matmul.sass");
    assert_string_equal(l->arch, "sm_90");
    const ws_sass_function *f = ws_sass_find(l, "_Z12matmul_tiledPfS_S_iii");
    assert_non_null(f);
    assert_true(f->has_lines);
    /* "LDS.128 R8, [R5+0x10]": the second 16-byte row of As[ty][k..k+3], demos/matmul.cu:153 */
    const ws_sass_insn *lds = find_insn(f, "LDS.128 R8, [R5+0x10]");
    assert_int_equal(lds->space, WS_SASS_SP_SHARED);
    assert_int_equal(lds->op, WS_SASS_OP_LD);
    assert_int_equal(lds->width, 16);
    assert_string_equal(lds->base, "R5");
    assert_int_equal(lds->offset, 16);
    assert_int_equal(lds->line, 153);
    assert_int_equal(lds->guard, -1);
    /* "@!P1 LDG.E R22, desc[UR8][R6.64]": the guarded tile load of A (line 135) */
    const ws_sass_insn *ldg = find_insn(f, "@!P1 LDG.E R22");
    assert_int_equal(ldg->space, WS_SASS_SP_GLOBAL);
    assert_int_equal(ldg->guard, 1);
    assert_true(ldg->guard_neg);
    assert_string_equal(ldg->base, "R6");
    assert_int_equal(ldg->line, 135);
    /* the k loop closes with "@!P0 BRA `(.L_x_1)" back to the tile loads: they are in a loop */
    assert_int_equal(ldg->loop_depth, 1);
    ws_sass_free(l);
}

static void test_spill_code_is_marked_and_addressed_from_the_stack_pointer(void **state)
{
    (void)state;
    ws_sass_listing *l = listing("tests/data/sass/spills.sass");
    const ws_sass_function *f = ws_sass_find(l, "_Z12spill_forcedPKjS0_Pjii");
    assert_non_null(f);
    /* ptxas -v (demos/spills.resources) reports 208 bytes of spill stores and 212 of spill
     * loads: the widths of the instructions nvdisasm marks (*"SpillRefill"*) add up to that */
    int st = 0, ld = 0;
    for (int i = 0; i < f->ninsns; i++) {
        const ws_sass_insn *s = &f->insns[i];
        if (!s->spill) continue;
        assert_int_equal(s->space, WS_SASS_SP_LOCAL);
        assert_string_equal(s->base, "R1");
        if (s->op == WS_SASS_OP_ST) st += s->width;
        else ld += s->width;
    }
    assert_int_equal(st, 208);
    assert_int_equal(ld, 212);
    const ws_sass_function *free_fn = ws_sass_find(l, "_Z10spill_freePKjS0_Pjii");
    assert_non_null(free_fn);
    for (int i = 0; i < free_fn->ninsns; i++) assert_false(free_fn->insns[i].spill); /* 0 bytes in .resources */
    ws_sass_free(l);
}

static void test_cuobjdump_listing_without_lines_is_read_and_says_so(void **state)
{
    (void)state;
    ws_sass_listing *l = listing("tests/data/sass/access_kinds.sass");
    const ws_sass_function *f = ws_sass_find(l, "_Z11shared_sum4PKfPf");
    assert_non_null(f);
    assert_false(f->has_lines);
    assert_int_equal(find_insn(f, "LDS.128")->width, 16);
    const ws_sass_insn *red = find_insn(ws_sass_find(l, "_Z7atomicsPfPKhPs"), "REDG");
    assert_int_equal(red->space, WS_SASS_SP_GLOBAL);
    assert_int_equal(red->op, WS_SASS_OP_RED);
    ws_sass_free(l);
}

static void test_a_listing_with_no_function_or_a_broken_line_is_an_error(void **state)
{
    (void)state;
    ws_error err;
    assert_null(ws_sass_parse("empty.sass", "\t.target sm_90\n", &err));
    assert_non_null(strstr(err.msg, "no function"));
    assert_string_equal(err.file, "empty.sass");
    const char *broken = "\t.section\t.text.k,\"ax\",@progbits\n"
                         "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                         "        /*0010*/                   LDS R2, [R1]\n";
    assert_null(ws_sass_parse("broken.sass", broken, &err));
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "';'"));
}

/* ---- merges ---------------------------------------------------------------------- */

/* lds128: lane l of a warp reads t[4m..4m+3], m = l + 32w (mod 256). In PTX that is four
 * 4-byte loads with a 16-byte stride between lanes: lanes l and l+8 share a bank, 4
 * wavefronts each, 16 per warp. The SASS LDS.128 reads 32 x 16 = 512 consecutive bytes:
 * 4 wavefronts of 128 bytes, and one instruction instead of four. */
static void test_four_shared_float_loads_become_one_lds128_with_a_quarter_of_the_wavefronts(void **state)
{
    (void)state;
    static ws_simulation p, s;
    run(&p, "tests/data/sass/probes.cu:lds128", NULL, NULL, NULL);
    run(&s, "tests/data/sass/probes.cu:lds128", NULL, NULL, "tests/data/sass/probes.sass");
    const double warps = 4 * 1024 / 32;
    assert_true(metric(p.ms, "smsp__sass_inst_executed_op_shared_ld.sum") == 4 * warps);
    assert_true(metric(p.ms, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 4 * 4 * warps);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_ld.sum") == warps);
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 32 * 16 / 128 * warps);
    assert_int_equal(s.sass->plan->st.merges, 1);
    assert_int_equal(s.sass->plan->st.merged_ptx, 4);
    assert_false(s.sass->plan->approximate);
    /* the answer does not depend on the view */
    assert_memory_equal(p.result.buffer_data[1], s.result.buffer_data[1], 1024 * sizeof(float));
    ws_simulation_close(&p);
    ws_simulation_close(&s);
}

/* demos/cluster.cu's block_sum: thread 0 of each block reads warp_sums[0..7], eight 4-byte
 * loads. ptxas placed `part` (4 bytes) before warp_sums in the shared window and loads words
 * 0..8 as LDS.128 [UR4], LDS.128 [UR4+0x10], LDS [UR4+0x20]: 3 + 4 + 1 of the PTX loads, the
 * first LDS.128 also taking `part`. Thread 0 is one warp a block, its address uniform: each of
 * the three is one instruction and one wavefront per block. Read by the GPU (results/h200-cluster,
 * N = 2^20, G = 2): 14336 shared loads = 4096 blocks x 3 + 2048 (rank 0's own `part`). */
static void test_loads_widened_past_their_variable_are_matched_at_the_shift_that_covers_them(void **state)
{
    (void)state;
    static ws_simulation s;
    run(&s, "demos/cluster.cu:cluster_dsmem_reduce", "N=1048576", "G=2", "tests/data/sass/cluster.sass");
    const double blocks = 1048576 / 256, clusters = blocks / 2;
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_ld.sum") == 3 * blocks + clusters);
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 3 * blocks + clusters);
    assert_int_equal(s.sass->plan->st.sass_only, 0);
    assert_int_equal(s.sass->plan->st.merged_ptx, 7); /* 3 + 4; the last load passes one for one */
    ws_simulation_close(&s);
}

/* sts64: lane l stores t[2l] and t[2l+1]. Each 4-byte PTX store has an 8-byte lane stride:
 * 32 lanes span 256 bytes, 2 wavefronts each, 4 per warp. The STS.64 stores the same 256
 * consecutive bytes once: 2 wavefronts. */
static void test_two_shared_float_stores_become_one_sts64(void **state)
{
    (void)state;
    static ws_simulation p, s;
    run(&p, "tests/data/sass/probes.cu:sts64", NULL, NULL, NULL);
    run(&s, "tests/data/sass/probes.cu:sts64", NULL, NULL, "tests/data/sass/probes.sass");
    const double warps = 2 * 256 / 32;
    assert_true(metric(p.ms, "smsp__sass_inst_executed_op_shared_st.sum") == 2 * warps);
    assert_true(metric(p.ms, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 2 * 2 * warps);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_st.sum") == warps);
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 32 * 8 / 128 * warps);
    ws_simulation_close(&p);
    ws_simulation_close(&s);
}

/* ldg128.ptx loads p[0..3] of a 16-byte aligned quad per lane as four ld.global.f32;
 * ldg128.sass is that kernel's listing with the four LDG.E.CONSTANT written as the one
 * LDG.E.128.CONSTANT ptxas emits when it merges (README.md: ptxas 13 did not merge these).
 * Per warp: PTX 4 requests of 16 sectors (each load touches one float in each of 32 quads:
 * 32 x 16 B = 512 B span, a word in every one of its 16 sectors); SASS 1 request over the
 * same 512 B: 16 sectors, a quarter of the traffic. */
static void test_four_global_float_loads_merged_into_ldg128_are_one_request_of_16_sectors(void **state)
{
    (void)state;
    ws_error err;
    char *ptx = slurp("tests/data/sass/ldg128.ptx");
    ptx_module *m = ptx_parse("tests/data/sass/ldg128.ptx", ptx, &err);
    assert_non_null(m);
    ws_sass_listing *l = listing("tests/data/sass/ldg128.sass");
    const ptx_function *fn = ptx_find_function(m, "ldg128");
    ws_sass_plan *plan = ws_sass_map(fn, ws_sass_find(l, "ldg128"));
    assert_non_null(plan);
    assert_int_equal(plan->st.merges, 1);
    /* the four PTX loads of one warp (lane l: quad l at 0x1000 + 16 l) through the stage */
    uint64_t sectors = 0, requests = 0, out = 0;
    ws_sass_stage *st = ws_sass_stage_new(plan, NULL, NULL);
    assert_non_null(st);
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op != PTX_LD || in->space != PTX_SPACE_GLOBAL) continue;
        ws_mem_event ev;
        memset(&ev, 0, sizeof ev);
        ev.pc = (uint32_t)pc;
        ev.space = WS_SPACE_GLOBAL;
        ev.op = WS_MEM_LOAD;
        ev.width = ev.elem_size = 4;
        ev.vec = 1;
        ev.active_mask = 0xffffffffu;
        for (int lane = 0; lane < 32; lane++) ev.addr[lane] = 0x1000 + 16 * (uint64_t)lane + (uint64_t)in->opnd[1].imm;
        /* the PTX view, for comparison */
        ws_coalesce_result co;
        assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
        assert_int_equal(co.sectors, 32 * 16 / 32);
        ws_sass_stage_listener(st, &ev);
    }
    const ws_sass_stage_stats *ss = ws_sass_stage_get_stats(st);
    assert_int_equal(ss->in, 4);
    assert_int_equal(ss->out, 1);
    assert_int_equal(ss->merged_away, 3);
    ws_sass_stage_free(st);
    /* the one event left, as the coalescer sees it */
    for (int pc = 0; pc < fn->ninsns; pc++)
        if (plan->pc[pc].action == WS_MAP_CARRY) {
            ws_mem_event ev;
            memset(&ev, 0, sizeof ev);
            ev.space = WS_SPACE_GLOBAL;
            ev.width = plan->pc[pc].width;
            ev.elem_size = 4;
            ev.vec = 4;
            ev.active_mask = 0xffffffffu;
            for (int lane = 0; lane < 32; lane++) ev.addr[lane] = 0x1000 + 16 * (uint64_t)lane;
            ws_coalesce_result co;
            assert_int_equal(ws_coalesce(&ev, 0, &co), 0);
            requests += (uint64_t)co.requests;
            sectors += (uint64_t)co.sectors;
            out++;
        }
    assert_int_equal(out, 1);
    assert_int_equal(requests, 1);
    assert_int_equal(sectors, 32 * 16 / 32);
    ws_sass_plan_free(plan);
    ws_sass_free(l);
    ptx_free(m);
    free(ptx);
}

/* The ldg128 plan folds three of the four PTX loads into the fourth's LDG.E.128. A tensor-era
 * event at those pcs (an ldmatrix row-address event, 16 bytes a lane; a TMA copy's part 3) is
 * no plain load the plan speaks of: each must come out once, its width, kind and part as
 * they went in, so 4 pcs x 2 kinds in = 8 out, none merged away. */
typedef struct { int n; ws_mem_event ev[16]; } captured;

static void capture(void *ctx, const ws_mem_event *ev)
{
    captured *c = ctx;
    if (c->n < 16) c->ev[c->n++] = *ev;
}

static void test_tensor_era_events_pass_the_sass_stage_unchanged_even_where_plain_loads_merge(void **state)
{
    (void)state;
    ws_error err;
    char *ptx = slurp("tests/data/sass/ldg128.ptx");
    ptx_module *m = ptx_parse("tests/data/sass/ldg128.ptx", ptx, &err);
    assert_non_null(m);
    ws_sass_listing *l = listing("tests/data/sass/ldg128.sass");
    const ptx_function *fn = ptx_find_function(m, "ldg128");
    ws_sass_plan *plan = ws_sass_map(fn, ws_sass_find(l, "ldg128"));
    assert_non_null(plan);
    captured got = {0};
    ws_sass_stage *st = ws_sass_stage_new(plan, capture, &got);
    assert_non_null(st);
    int sent = 0, absorbed = 0;
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        if (in->op != PTX_LD || in->space != PTX_SPACE_GLOBAL) continue;
        absorbed += plan->pc[pc].action == WS_MAP_ABSORBED;
        for (int k = 0; k < 2; k++) {
            ws_mem_event ev;
            memset(&ev, 0, sizeof ev);
            ev.pc = (uint32_t)pc;
            ev.kind = k ? WS_KIND_TMA : WS_KIND_LDSM;
            ev.space = k ? WS_SPACE_GLOBAL : WS_SPACE_SHARED;
            ev.op = WS_MEM_LOAD;
            ev.part = k ? 3 : 0;
            ev.width = ev.elem_size = 16;
            ev.vec = 1;
            ev.active_mask = k ? 0xffu : 0xffffffffu;
            for (int lane = 0; lane < 32; lane++) ev.addr[lane] = 0x2000 + 16 * (uint64_t)lane;
            ws_sass_stage_listener(st, &ev);
            sent++;
        }
    }
    assert_int_equal(absorbed, 3);
    const ws_sass_stage_stats *ss = ws_sass_stage_get_stats(st);
    assert_int_equal(ss->in, 8);
    assert_int_equal(ss->out, 8);
    assert_int_equal(ss->merged_away, 0);
    assert_int_equal(got.n, sent);
    for (int i = 0; i < got.n; i++) {
        bool tma = i % 2;
        assert_int_equal(got.ev[i].kind, tma ? WS_KIND_TMA : WS_KIND_LDSM);
        assert_int_equal(got.ev[i].width, 16);
        assert_int_equal(got.ev[i].elem_size, 16);
        assert_int_equal(got.ev[i].part, tma ? 3 : 0);
        assert_int_equal(got.ev[i].active_mask, tma ? 0xffu : 0xffffffffu);
        assert_int_equal(got.ev[i].seq, (uint64_t)i);
    }
    ws_sass_stage_free(st);
    ws_sass_plan_free(plan);
    ws_sass_free(l);
    ptx_free(m);
    free(ptx);
}

/* ---- tensor-core instructions as their machine code ------------------------------------ */

/* wmma_gemm_naive at M = N = K = 128: 64 warps, one 16x16 tile of C each, K / 16 = 8 steps.
 * tensorcore.sass (ptxas 13.0 of demos/tensorcore.ptx) loads each f16 fragment with 4 LDG.E:
 * a lane's 4 bytes at (row g + 8i, col 2t + 8j) - 8 rows x 16 contiguous bytes, 8 sectors -
 * and stores the f32 tile with 4 STG.E.64 of 8 rows x 32 bytes (8 sectors). So loads:
 * 64 x 8 x 2 x 4 = 4096 instructions = requests, 8 x 4096 = 32768 sectors; stores: 64 x 4 =
 * 256, 2048 sectors - what ncu counted on the H200 (issue 24); wmma.mma is two HMMA.16816:
 * 64 x 8 x 2 = 1024. Nothing is left counted as PTX-level wmma. */
static void test_wmma_from_global_is_counted_as_the_ldg_and_stg_ptxas_made(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "wmma_gemm_naive", NULL, NULL, "tests/data/sass/tensorcore.sass");
    assert_false(s.sass->plan->approximate);
    assert_int_equal(s.sass->plan->st.sass_only, 0);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 4096);
    assert_true(metric(s.ms, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 4096);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 32768);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_st.sum") == 256);
    assert_true(metric(s.ms, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 256);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 2048);
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 1024);
    assert_true(metric(s.ms, "ws__wmma_inst_global_op_ld.sum") == 0);
    ws_simulation_close(&s);
    /* PTX-level the same kernel keeps its fragment registers apart and the HMMA count by rule */
    run(&s, "wmma_gemm_naive", NULL, NULL, NULL);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 0);
    assert_true(metric(s.ms, "ws__wmma_inst_global_op_ld.sum") == 4096);
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 1024);
    ws_simulation_close(&s);
}

/* mma_cp_async at 128^3: 16 blocks x 4 warps; per 32x64 half tile (4096 B = 256 chunks of 16 B)
 * each of the 128 threads copies 2 chunks of A and 2 of B, and K / 64 = 2 tiles: 4 x 2 = 8
 * LDGSTS.E.BYPASS.128 per warp, 512 in all, each 32 lanes x 16 B of 4 whole rows of 128 B =
 * 16 sectors. ncu counts their reads under the global load requests and sectors too (512 and
 * 8192) but not as global load instructions; the "@!PT LDS RZ, [RZ]" ptxas pads them with
 * never run, so the machine code has no access the plan cannot place. ldmatrix: 4 k-steps x 2
 * x 2 tiles x 64 warps = 1024 LDSM.x4; mma: 2 per k-step, 1024 HMMA. */
static void test_cp_async_reads_are_global_load_requests_and_sectors_as_ncu_counts_them(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "mma_cp_async", NULL, NULL, "tests/data/sass/tensorcore.sass");
    assert_false(s.sass->plan->approximate);
    assert_int_equal(s.sass->plan->st.sass_only, 0);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_ldgsts.sum") == 512);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 0);
    assert_true(metric(s.ms, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 512);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 8192);
    assert_true(metric(s.ms, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum") == 8192);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_ldsm.sum") == 1024);
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 1024);
    ws_simulation_close(&s);
}

/* wmma_shared (tests/data/tensor/sass_forms.cu), 4 one-warp blocks: the 16x16 f16 A and B
 * fragments come from dense tiles in shared memory (rows of 32 B). sass_forms.sass has one
 * LDSM.16.M88.4 per fragment: 8 LDSM, 512 B each (32 row addresses x 16 B) = 4096 B. Each of
 * the 4 matrices has 8 rows 32 B apart, so rows r and r + 4 share a 16-byte bank group:
 * 2 wavefronts a phase, 8 an LDSM, 64 in all, of which 32 beyond one a phase. The f32 tile
 * goes to shared with 4 STS.64 (8 rows x 32 B at a 64-B pitch: rows g and g + 2, 4, 6 share
 * banks, 4 wavefronts each) beside the 2 STS.128 of the tile copy (4 each): 4 x (16 + 8) = 96. */
static void test_wmma_from_shared_is_one_ldsm_x4_per_fragment(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_forms.cu:wmma_shared", NULL, NULL, "tests/data/sass/sass_forms.sass");
    assert_false(s.sass->plan->approximate);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_ldsm.sum") == 8);
    assert_true(metric(s.ms, "smsp__sass_data_bytes_mem_shared_op_ldsm.sum") == 4096);
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum") == 64);
    assert_true(metric(s.ms, "ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_ldsm.sum") == 32);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_st.sum") == 4 * (2 + 4));
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 96);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_ld.sum") == 4 * 8); /* the plain copy out */
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 8);
    ws_simulation_close(&s);
}

/* wmma_global_h: a row-major B is not what the fragment layout holds contiguously (its
 * registers pair elements 32 B apart), yet sass_forms.sass loads it as A is loaded - 4 LDG.E
 * of 16-byte row segments - and shuffles in registers: A, B and the f16 C are 12 LDG.E per
 * warp, 8 sectors each (8 rows x 16 B at a 32-B pitch), D 4 STG.E: 4 warps x 12 = 48 loads,
 * 384 sectors, 16 stores, 128 sectors. */
static void test_wmma_of_a_row_major_b_is_loaded_in_the_stored_order(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_forms.cu:wmma_global_h", NULL, NULL, "tests/data/sass/sass_forms.sass");
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 48);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 384);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_st.sum") == 16);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 128);
    ws_simulation_close(&s);
}

/* ---- removed and predicated accesses ------------------------------------------------- */

/* guarded, LIM = 40: t[i] = 0, then t[i] = in[..] for i < 40. The SASS keeps one STS per
 * warp (of a register preset to 0 and overwritten by the predicated LDG): 8 warps x 2
 * blocks = 16 stores of 32 lanes, 1 wavefront each. The PTX also stores for warps 0 (32
 * lanes) and 1 (lanes 32..39) of each block: 4 more. The predicated LDG runs where some
 * lane's i < 40, as in the PTX: warps 0 and 1, 4 + 1 sectors (in[256b + 32..39] is 32 B). */
static void test_store_overwritten_on_every_path_is_one_sts_and_the_load_stays_predicated(void **state)
{
    (void)state;
    static ws_simulation p, s;
    run(&p, "tests/data/sass/probes.cu:guarded", NULL, NULL, NULL);
    run(&s, "tests/data/sass/probes.cu:guarded", NULL, NULL, "tests/data/sass/probes.sass");
    assert_true(metric(p.ms, "smsp__sass_inst_executed_op_shared_st.sum") == 16 + 4);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_shared_st.sum") == 16);
    assert_true(metric(s.ms, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 16);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 2 * 2);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 2 * (4 + 1));
    assert_int_equal(s.sass->plan->st.dropped, 1);
    assert_int_equal(s.sass->plan->st.predicated, 1);
    assert_false(s.sass->plan->approximate);
    assert_memory_equal(p.result.buffer_data[1], s.result.buffer_data[1], 512 * sizeof(float));
    ws_simulation_close(&p);
    ws_simulation_close(&s);
}

/* ---- unrolling ------------------------------------------------------------------------ */

/* matmul_naive: each thread reads a row of A and a column of B, K loads each. ptxas unrolls
 * the k loop further than the PTX (more LDG at line 47 in the listing than ld.global in
 * the PTX), but every PTX load is still one executed LDG: 2 K per warp. */
static void test_unrolled_loop_keeps_one_global_load_per_ptx_load(void **state)
{
    (void)state;
    static ws_simulation s;
    run(&s, "matmul_naive", "M=32", "N=32", "tests/data/sass/matmul.sass");
    const ws_sass_function *f = s.sass->sf;
    int sass_ldg = 0, ptx_ld = 0;
    for (int i = 0; i < f->ninsns; i++) sass_ldg += f->insns[i].space == WS_SASS_SP_GLOBAL && f->insns[i].op == WS_SASS_OP_LD;
    for (int pc = 0; pc < s.fn->ninsns; pc++) ptx_ld += s.fn->insns[pc].op == PTX_LD && s.fn->insns[pc].space == PTX_SPACE_GLOBAL;
    assert_true(sass_ldg > ptx_ld);
    assert_true(s.sass->plan->st.unrolled > 0);
    const ws_launch *L = &s.launch;
    double warps = (double)L->grid[0] * L->grid[1] * L->block[0] * L->block[1] / 32;
    double k = 128; /* the description's default K */
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 2 * k * warps);
    ws_simulation_close(&s);
}

/* How many of op's instructions (opcode prefix) SASS block b holds. */
static int block_count(const ws_sass_function *f, int b, const char *op)
{
    int n = 0;
    for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].n; i++)
        n += !strncmp(f->insns[i].opcode, op, strlen(op));
    return n;
}

/* matmul_naive's listing (tests/data/sass/matmul.sass) lays the PTX's 4x k loop out as a loop
 * over 16 k (32 LDG: one A and one B load per k), one straight block of 8 k (16 LDG) behind
 * `R4 > 4`, a loop over 4 k (8 LDG) while `R4 != 0`, and the PTX's remainder loop, 1 k (2 LDG),
 * K % 4 times. With R4 = K - K % 4 and the 16 loop running while R4 > 12: K = 143 = 8 x 16 +
 * 8 + 4 + 3 runs them 8, 1, 1 and 3 times per warp; K = 128: 8, 0, 0, 0. */
static void check_naive_runs(int k, const int want[4])
{
    char dk[16];
    snprintf(dk, sizeof dk, "K=%d", k);
    static ws_simulation t;
    ws_error err;
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    assert_int_equal(ws_overrides_add(&ov, "M=32", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "N=32", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, dk, &err), 0);
    char *text = slurp("tests/data/sass/matmul.sass");
    ws_simulation_opts o = {.sass_listing = text};
    int rc = ws_simulation_open(&t, cat, "matmul_naive", &ov, ws_device_find("h200"), NULL, &err);
    if (!rc) rc = ws_simulation_run(&t, &o, &err);
    free(text);
    if (rc) ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
    assert_true(t.sass && t.sass->active);
    const ws_sass_function *f = t.sass->sf;
    const uint64_t warps = 32 * 32 / 32;
    uint64_t *runs = calloc((size_t)f->nblocks, sizeof *runs);
    assert_non_null(runs);
    ws_sass_block_runs(t.sass->plan, t.result.pc_warp_count, runs);
    const int ldg[4] = {32, 16, 8, 2};
    int seen = 0;
    for (int b = 0; b < f->nblocks; b++)
        for (int u = 0; u < 4; u++)
            if (block_count(f, b, "LDG") == ldg[u]) {
                if (runs[b] != warps * (uint64_t)want[u])
                    fail_msg("K=%d: the %d-LDG block runs %llu times, not %llu", k, ldg[u],
                             (unsigned long long)runs[b], (unsigned long long)(warps * (uint64_t)want[u]));
                seen |= 1 << u;
            }
    assert_int_equal(seen, 15); /* all four copies found */
    free(runs);
    ws_simulation_close(&t);
}

static void test_unrolled_loop_copies_run_largest_first_as_the_listing_guards_say(void **state)
{
    (void)state;
    const int k128[4] = {8, 0, 0, 0}, k143[4] = {8, 1, 1, 3}, k7[4] = {0, 0, 1, 3};
    check_naive_runs(128, k128);
    check_naive_runs(143, k143);
    check_naive_runs(7, k7);
}

/* The issue count of matmul_naive at M = N = 32, K = 128, from the listing's path: every warp
 * passes `row < M && col < N` and `K >= 1`, `K - 1 >= 3` and R4 = 128 > 12, so it runs each
 * straight-line block of the entry and the guards once, the 16-k loop (73 instructions: 0x250
 * to 0x6d0) 128 / 16 = 8 times, skips the 8-k block and the 4-k loop (R4 = 0 after the
 * loop) and the remainder's set-up (0xb50, 6 instructions) and loop (K % 4 = 0): 632
 * instructions per warp, 5.6x fewer than the 1801216 / 512 warps counted when every copy ran
 * once per PTX iteration. */
static void test_unrolled_matmul_issues_the_instructions_of_its_path(void **state)
{
    (void)state;
    static ws_simulation s;
    run(&s, "matmul_naive", "M=32", "N=32", "tests/data/sass/matmul.sass");
    const ws_sass_function *f = s.sass->sf;
    const uint64_t warps = 32;
    uint64_t per_warp = 0;
    for (int b = 0; b < f->nblocks; b++) {
        const ws_sass_block *B = &f->blocks[b];
        const ws_sass_insn *first = &f->insns[B->first];
        if (first->is_branch && first->target == B->first) break; /* padding */
        int ldg = block_count(f, b, "LDG");
        if (ldg == 32) per_warp += 8 * (uint64_t)B->n;
        else if (ldg == 16 || ldg == 8 || ldg == 2) continue;   /* not run at K = 128 */
        else if (b + 1 < f->nblocks && block_count(f, b + 1, "LDG") == 2) continue; /* remainder set-up */
        else per_warp += (uint64_t)B->n;
    }
    assert_int_equal(per_warp, 632); /* the sum above, as read off the listing by hand */
    assert_int_equal(s.sass->warp_insns, warps * per_warp);
    ws_simulation_close(&s);
}

/* matMulShared's tile loop (N / 16 tiles) is one PTX loop; ptxas makes it a loop over 4 tiles
 * (8 BAR.SYNC: two a tile), then one straight copy of 2 tiles and one of 1. N = 128: 8 tiles,
 * the 4-tile loop twice; N = 112: 7 = 4 + 2 + 1, each once. */
static void test_unrolled_tile_loop_runs_four_then_two_then_one(void **state)
{
    (void)state;
    const char *ns[2] = {"N=128", "N=112"};
    const int want[2][3] = {{2, 0, 0}, {1, 1, 1}};
    for (int c = 0; c < 2; c++) {
        static ws_simulation s;
        run(&s, "matmul_tiled16", ns[c], NULL, "tests/data/sass/matmul.sass");
        const ws_sass_function *f = s.sass->sf;
        const uint64_t warps = (uint64_t)s.launch.grid[0] * s.launch.grid[1] * 256 / 32;
        uint64_t *runs = calloc((size_t)f->nblocks, sizeof *runs);
        assert_non_null(runs);
        ws_sass_block_runs(s.sass->plan, s.result.pc_warp_count, runs);
        const int bars[3] = {8, 4, 2};
        int seen = 0;
        for (int b = 0; b < f->nblocks; b++)
            for (int u = 0; u < 3; u++)
                if (block_count(f, b, "BAR.SYNC") == bars[u]) {
                    if (runs[b] != warps * (uint64_t)want[c][u])
                        fail_msg("%s: the %d-BAR block runs %llu, not %llu", ns[c], bars[u],
                                 (unsigned long long)runs[b], (unsigned long long)(warps * (uint64_t)want[c][u]));
                    seen |= 1 << u;
                }
        assert_int_equal(seen, 7);
        free(runs);
        ws_simulation_close(&s);
    }
}

/* The split itself: 35 PTX iterations (K = 140 in fours) over a loop of 4, a straight 2 and a
 * loop of 1 are 8 x 4 + 2 + 1; a loop of 4 alone leaves 2 of 6 unplaced. */
static void test_unroll_split_takes_the_largest_copy_first(void **state)
{
    (void)state;
    const int mult[3] = {4, 2, 1};
    const bool loop[3] = {true, false, true};
    uint64_t runs[3];
    assert_int_equal(ws_sass_unroll_split(35, mult, loop, 3, runs), 0);
    assert_int_equal(runs[0], 8);
    assert_int_equal(runs[1], 1);
    assert_int_equal(runs[2], 1);
    assert_int_equal(ws_sass_unroll_split(6, mult, loop, 1, runs), 2);
    assert_int_equal(runs[0], 1);
    assert_int_equal(ws_sass_unroll_split(1, mult, loop, 3, runs), 0); /* straight 2 needs 2 */
    assert_int_equal(runs[1], 0);
    assert_int_equal(runs[2], 1);
}

/* ---- spills --------------------------------------------------------------------------- */

/* spill_forced, N = 2048, ITERS = 3: every warp runs the straight-line spill code once and
 * the loop's ITERS times. Each spill of w bytes by a full warp is w/4 requests and, with
 * the local interleave (consecutive lanes' words adjacent), 32 w / 32 = w sectors. */
static void test_spill_code_adds_the_local_traffic_the_listing_implies(void **state)
{
    (void)state;
    static ws_simulation s, f;
    run(&s, "spill_forced", "N=2048", "ITERS=3", "tests/data/sass/spills.sass");
    run(&f, "spill_free", "N=2048", "ITERS=3", "tests/data/sass/spills.sass");
    const double warps = 2048 / 32, iters = 3;
    double inst[2] = {0, 0}, req[2] = {0, 0}, sect[2] = {0, 0};
    const ws_sass_function *fn = s.sass->sf;
    for (int i = 0; i < fn->ninsns; i++) {
        const ws_sass_insn *x = &fn->insns[i];
        if (!x->spill) continue;
        double runs = warps * (x->loop_depth ? iters : 1);
        int st = x->op == WS_SASS_OP_ST;
        inst[st] += runs;
        req[st] += runs * x->width / 4;
        sect[st] += runs * x->width;
    }
    assert_true(inst[0] > 0 && inst[1] > 0);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_local_ld.sum") == inst[0]);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_local_st.sum") == inst[1]);
    assert_true(metric(s.ms, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum") == req[0]);
    assert_true(metric(s.ms, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum") == sect[1]);
    assert_false(s.sass->plan->approximate);
    assert_true(metric(f.ms, "smsp__sass_inst_executed_op_local_ld.sum") == 0);
    assert_true(metric(f.ms, "smsp__sass_inst_executed_op_local_st.sum") == 0);
    /* the same answer either way */
    assert_memory_equal(s.result.buffer_data[2], f.result.buffer_data[2], 2048 * sizeof(unsigned));
    ws_simulation_close(&s);
    ws_simulation_close(&f);
}

/* The issue term counts SASS instructions: each block's size times its runs. spill_free,
 * N = 2048, ITERS = 3: blocks in the t loop run ITERS times per warp, the others once
 * (every warp is full and passes the i < n test), the padding after the last EXIT (a BRA
 * to itself and NOPs) never. */
static void test_sass_issue_count_is_block_sizes_times_their_runs(void **state)
{
    (void)state;
    static ws_simulation s;
    run(&s, "spill_free", "N=2048", "ITERS=3", "tests/data/sass/spills.sass");
    const ws_sass_function *f = s.sass->sf;
    const double warps = 2048 / 32;
    double expect = 0;
    for (int b = 0; b < f->nblocks; b++) {
        const ws_sass_block *B = &f->blocks[b];
        const ws_sass_insn *first = &f->insns[B->first];
        if (first->is_branch && first->target == B->first) break; /* BRA to itself, then NOPs: padding */
        expect += B->n * warps * (B->loop_depth ? 3 : 1);
    }
    if ((double)s.sass->warp_insns != expect) fail_msg("%llu != %.0f", (unsigned long long)s.sass->warp_insns, expect);
    assert_true(s.sass->warp_insns != s.result.warp_insns); /* not the PTX's count */
    ws_simulation_close(&s);
}

/* ---- loops of the issue-24 corpus (tests/data/tensor/sass_loops.cu, sass_loops.sass) -------- */

/* HFMA2.MMA is an HFMA2 ptxas issues on the tensor pipe (here to zero a register): ncu counts it in
 * smsp__inst_executed_pipe_tensor_op_hmma (the H200: 2,048 in fp32 matrixMul kernels without one
 * HMMA). matmul_tiled32 at 128^3: 16 blocks x 32 warps; matmul.sass has one HFMA2.MMA in the entry
 * block (once a warp) and one in the tile loop (K / 32 = 4 passes): 512 x (1 + 4) = 2560. */
static void test_hfma2_mma_counts_on_the_tensor_pipe(void **state)
{
    (void)state;
    ws_sass_listing *l = listing("tests/data/sass/matmul.sass");
    const ws_sass_function *f = ws_sass_find(l, "_Z12matmul_tiledPfS_S_iii");
    assert_non_null(f);
    assert_int_equal(find_insn(f, "HFMA2.MMA R11")->tensor, WS_SASS_TENSOR_HMMA);
    assert_int_equal(find_insn(f, "FFMA")->tensor, WS_SASS_TENSOR_NONE);
    ws_sass_free(l);
    ws_simulation s;
    run(&s, "matmul_tiled32", NULL, NULL, "tests/data/sass/matmul.sass");
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 512 * (1 + 4));
    ws_simulation_close(&s);
}

/* wmma u8 and f64 fragments from global memory, one warp. u8 m16n16k16 (K = 64, 4 steps): an A or B
 * fragment is 256 bytes, 8 a lane, which ptxas loads as two LDG.E; the s32 C is 1024 bytes, 32 a
 * lane, four LDG.E.64: 4 x (2 + 2) + 4 = 20 loads; each wmma.mma is two IMMA.16816 (its n8
 * halves): 8. f64 m8n8k4 (K = 32, 8 steps): A and B are 32 doubles, one a lane, one LD.E.64 each:
 * 16 loads; one DMMA.8x8x4 a step: 8. */
static void test_wmma_u8_and_f64_fragments_load_their_element_size(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_loops.cu:wmma_u8_global", NULL, NULL, "tests/data/sass/sass_loops.sass");
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 4 * (2 + 2) + 4);
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_imma.sum") == 4 * 2);
    ws_simulation_close(&s);
    run(&s, "tests/data/tensor/sass_loops.cu:wmma_f64_global", NULL, NULL, "tests/data/sass/sass_loops.sass");
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_global_ld.sum") == 8 * 2);
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_dmma.sum") == 8);
    ws_simulation_close(&s);
}

/* wmma_shared_loop, K = 128: 4 warps x 8 steps x 8 fragments, each one LDSM.x4 (512 B): 256 LDSM,
 * 131072 bytes, however nvdisasm attributes the 8 LDSMs to the source lines of the 8 loads. */
static void test_every_wmma_load_from_shared_is_its_ldsm_whatever_line_the_listing_gives(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_loops.cu:wmma_shared_loop", NULL, NULL, "tests/data/sass/sass_loops.sass");
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_ldsm.sum") == 4 * 8 * 8);
    assert_true(metric(s.ms, "smsp__sass_data_bytes_mem_shared_op_ldsm.sum") == 4 * 8 * 8 * 512);
    assert_true(metric(s.ms, "ws__wmma_inst_shared_op_ld.sum") == 0); /* none left PTX-level */
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 4 * 8 * 16 * 2);
    ws_simulation_close(&s);
}

/* mma_peeled_loop, K = 256: 16 steps, one HMMA each. ptxas unrolls the loop by 4 (4 HMMA a pass, 4
 * passes) and keeps a remainder: a peeled first pass and a loop entered only from it (1 HMMA each),
 * which no warp runs since 16 % 4 == 0: 16 HMMA, not the unrolled loop's 16 plus a guess for the
 * remainder loop, and 16 ldmatrix x4 + 16 x2 = 32 LDSM. */
static void test_a_loop_entered_only_from_code_no_warp_runs_runs_zero_times(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_loops.cu:mma_peeled_loop", NULL, NULL, "tests/data/sass/sass_loops.sass");
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 16);
    assert_true(metric(s.ms, "smsp__sass_inst_executed_op_ldsm.sum") == 32);
    ws_simulation_close(&s);
}

/* The zero-run rule trusts only a 0 it knows: wgmma_gemm at K = 192 (3 tiles of 64) runs its k loop
 * unrolled by 2 once and then its remainder pass, whose entry block has no access of its own (a
 * stand-in anchor that reads 0). Every tile is 4 HGMMA.64x64x16 by each of the 4 warps of the
 * warpgroup, in 2 x 2 blocks: 4 x 4 x 3 x 4 = 192 (the H200 counted 720 = 15 x 4 x 3 x 4 at
 * M = 192, N = 320). wgmma_gemm.sass is its function of demos/tensorcore.sm_90a.ptx (README). */
static void test_a_stand_in_anchors_zero_does_not_zero_the_code_after_it(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "wgmma_gemm", "K=192", NULL, "tests/data/sass/wgmma_gemm.sass");
    assert_true(metric(s.ms, "smsp__inst_executed_pipe_tensor_op_hmma.sum") == 4 * 4 * 3 * 4);
    ws_simulation_close(&s);
}

/* ---- a branch ladder on one source line (tests/data/tensor/sass_branches.cu) --------------- */

/* wait_switch, 2 warps x ITERS = 4 iterations: a switch on LEFT, inlined into one source line, that
 * ptxas lays out as a compare-and-branch ladder (sass_branches.sass). LEFT is a kernel parameter, so
 * every warp takes one path. Read off the listing: the entry (0x0000-0x0070) is 8 instructions, the
 * loop's preheader (0x0080-0x0160) 15, its head (0x0170-0x01d0: LDGSTS, LDGDEPBAR, @P0 BRA on
 * LEFT > 19) 7, the tail (0x0330-0x03f0: the wait_all's LDGDEPBAR and DEPBAR, BAR, LDS.128, BAR, the
 * back branch) 13, the exit 4. Between
 * head and tail, LEFT = 20: ISETP + @!P1 BRA at 0x0260 (2), DEPBAR.LE SB0, 0x2 (1); LEFT = 0: 0x01e0
 * (2), DEPBAR.LE SB0, 0x0 + BRA (2); LEFT = 40: 0x0260, 0x0280, 0x02a0 (2 each), DEPBAR.LE SB0, 0x4
 * + BRA (2). Each case's DEPBAR runs 8 times, the other cases' never (every block of the ladder was
 * counted as often as the line's first PTX instruction, 8 times). ALU for LEFT = 20: the entry's ISETP
 * and two CS2R ..., SRZ, the preheader's two CS2R, two LEA, ISETP and LOP3, and per iteration the
 * ladder's ISETP and the tail's: 2 x (3 + 6 + 4 x 2) = 34. */
static void test_a_warp_uniform_switch_on_one_line_runs_only_its_path(void **state)
{
    (void)state;
    static const struct { const char *left; unsigned between; const char *depbar; } cases[] = {
        {"LEFT=20", 2 + 1, "DEPBAR.LE SB0, 0x2"},
        {"LEFT=0", 2 + 2, "DEPBAR.LE SB0, 0x0"},
        {"LEFT=40", 3 * 2 + 2, "DEPBAR.LE SB0, 0x4"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ws_simulation s;
        run(&s, "tests/data/tensor/sass_branches.cu:wait_switch", "ITERS=4", cases[c].left, "tests/data/sass/sass_branches.sass");
        const uint64_t expect = 2 * (8 + 15 + 4 * (7 + cases[c].between + 13) + 4);
        if (s.sass->warp_insns != expect)
            fail_msg("%s: %llu SASS instructions, expected %llu", cases[c].left, (unsigned long long)s.sass->warp_insns,
                     (unsigned long long)expect);
        const ws_sass_function *f = s.sass->sf;
        uint64_t runs[64];
        assert_true(f->nblocks <= 64);
        ws_sass_block_runs(s.sass->plan, s.result.pc_warp_count, runs);
        for (int i = 0; i < f->ninsns; i++) {
            if (strncmp(f->insns[i].text, "DEPBAR.LE SB0", 13) || f->blocks[f->insns[i].block].n > 2) continue; /* the cases' */
            uint64_t want = strcmp(f->insns[i].text, cases[c].depbar) ? 0 : 2 * 4;
            if (runs[f->insns[i].block] != want)
                fail_msg("%s: %s ran %llu times, expected %llu", cases[c].left, f->insns[i].text,
                         (unsigned long long)runs[f->insns[i].block], (unsigned long long)want);
        }
        if (c == 0) assert_true(metric(s.ms, "sm__inst_executed_pipe_alu.sum") == 2 * (3 + 6 + 4 * 2));
        ws_simulation_close(&s);
    }
}

/* early_exit, 4 warps, N = 64: warps 2 and 3 return at the bounds check (`@P0 EXIT`, line 77), warps
 * 0 and 1 go on. ptxas computes the loop's trip count (w = 7K + 3, line 76: the PTX runs it before the
 * check) in the block after the EXIT, so that block's lines stand for 4 warps, not the 2 that run it;
 * it is the one fall-through of the EXIT, as the PTX's instruction after `@%p bra` to `ret` is: 2 runs.
 * From the listing: the entry (0x0000-0x0060) 7 instructions and the EXIT 1, every warp; then 0x0080-
 * 0x00d0 6, the preheader 0x00e0-0x0140 7, the loop 0x0150-0x0190 5 a pass (K = 3: 24 passes), the
 * store and EXIT 0x01a0-0x01e0 5. */
static void test_the_code_after_an_early_exit_runs_for_the_warps_that_go_on(void **state)
{
    (void)state;
    ws_simulation s;
    run(&s, "tests/data/tensor/sass_branches.cu:early_exit", "K=3", NULL, "tests/data/sass/sass_branches.sass");
    const uint64_t expect = 4 * (7 + 1) + 2 * (6 + 7 + 5 * 24 + 5);
    if (s.sass->warp_insns != expect)
        fail_msg("%llu SASS instructions, expected %llu", (unsigned long long)s.sass->warp_insns, (unsigned long long)expect);
    ws_simulation_close(&s);
}


/* bulk_lanes, 2 warps: LANES lanes of each issue their own cp.async.bulk. The SASS serves one lane
 * a pass: the block from ELECT to `@P0 BRA.U.ANY` back to itself runs once per copying lane of each
 * warp, 2 x LANES times, not once per warp as the PTX's cp.async.bulk (its anchor's line) runs. */
static void test_a_per_lane_bulk_copy_is_a_sass_pass_per_lane(void **state)
{
    (void)state;
    const int lanes[] = {1, 5, 32};
    for (int c = 0; c < 3; c++) {
        char d[32];
        snprintf(d, sizeof d, "LANES=%d", lanes[c]);
        ws_simulation s;
        run(&s, "tests/data/tensor/sass_branches.cu:bulk_lanes", d, NULL, "tests/data/sass/sass_branches.sass");
        const ws_sass_function *f = s.sass->sf;
        uint64_t runs[512];
        assert_true(f->nblocks <= 512);
        ws_sass_block_runs(s.sass->plan, s.result.pc_warp_count, runs);
        int found = 0;
        for (int i = 0; i < f->ninsns; i++) {
            if (strncmp(f->insns[i].opcode, "UBLKCP", 6)) continue;
            found++;
            if (runs[f->insns[i].block] != (uint64_t)(2 * lanes[c]))
                fail_msg("LANES=%d: the UBLKCP block ran %llu times, expected %d", lanes[c],
                         (unsigned long long)runs[f->insns[i].block], 2 * lanes[c]);
        }
        assert_int_equal(found, 1);
        ws_simulation_close(&s);
    }
}

/* ---- side by side ----------------------------------------------------------------------- */

static char *print_plan(const char *ptx_path, const char *sass_path, const char *fn_name, const char *cu_path)
{
    ws_error err;
    char *ptx = slurp(ptx_path), *cu = slurp(cu_path);
    ptx_module *m = ptx_parse(ptx_path, ptx, &err);
    assert_non_null(m);
    ws_sass_listing *l = listing(sass_path);
    const ptx_function *fn = ptx_find_function(m, fn_name);
    ws_sass_plan *plan = ws_sass_map(fn, ws_sass_find(l, fn->name));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_sass_print(f, plan, cu, strlen(cu));
    fclose(f);
    ws_sass_plan_free(plan);
    ws_sass_free(l);
    ptx_free(m);
    free(ptx);
    free(cu);
    return buf;
}

/* The line 'return t[b] + ...' of lds128 shows the four PTX loads against one LDS.128; the
 * guarded probe its removed store and predicated load; spill_forced its spill code. */
static void test_side_by_side_marks_merges_removals_predication_and_spills(void **state)
{
    (void)state;
    char *a = print_plan("tests/data/sass/probes.ptx", "tests/data/sass/probes.sass", "lds128", "tests/data/sass/probes.cu");
    assert_non_null(strstr(a, "t[b] + t[b + 1] + t[b + 2] + t[b + 3]"));
    assert_non_null(strstr(a, "merge 4->1 (16 B)"));
    assert_non_null(strstr(a, "merged into LDS.128"));
    char *b = print_plan("tests/data/sass/probes.ptx", "tests/data/sass/probes.sass", "guarded", "tests/data/sass/probes.cu");
    assert_non_null(strstr(b, "removed by ptxas"));
    assert_non_null(strstr(b, "predicated"));
    char *c = print_plan("demos/spills.ptx", "tests/data/sass/spills.sass", "spill_forced", "demos/spills.cu");
    assert_non_null(strstr(c, "spill store"));
    assert_non_null(strstr(c, "spill load (refill)"));
    free(a);
    free(b);
    free(c);
}

/* ---- the PTX-level path ---------------------------------------------------------------- */

static void test_without_the_tools_or_when_switched_off_the_simulator_says_it_is_ptx_level(void **state)
{
    (void)state;
    char *ptx = slurp("demos/spills.ptx");
    ws_error err;
    ptx_module *m = ptx_parse("demos/spills.ptx", ptx, &err);
    assert_non_null(m);
    const ptx_function *fn = ptx_find_function(m, "spill_forced");
    setenv("WARPSCOPE_SASS", "off", 1);
    ws_sass_session *ss = ws_sass_session_open(ptx, fn, "sm_90", NULL);
    assert_false(ss->active);
    assert_non_null(strstr(ss->level, "PTX-level"));
    assert_non_null(strstr(ss->level, "WARPSCOPE_SASS=off"));
    ws_sass_session_free(ss);
    unsetenv("WARPSCOPE_SASS");
    char a[1024], b[1024];
    bool tools = ws_tool_find(WS_TOOL_PTXAS, a, sizeof a, NULL) == 0 && ws_tool_find(WS_TOOL_NVDISASM, b, sizeof b, NULL) == 0;
    ss = ws_sass_session_open(ptx, fn, "sm_90", NULL);
    if (tools) { /* ptxas + nvdisasm here: the machine code, with the spills -Xptxas -v reports */
        assert_true(ss->active);
        assert_true(ss->plan->st.spill_st > 0 && ss->plan->st.spill_ld > 0);
        assert_non_null(strstr(ss->level, "SASS (ptxas -arch=sm_90 + nvdisasm)"));
    } else {   /* none: PTX-level, and the line says which tool is missing */
        assert_false(ss->active);
        assert_non_null(strstr(ss->level, "not found"));
    }
    ws_sass_session_free(ss);
    ptx_free(m);
    free(ptx);
}

/* The loop of NVIDIA's dmmaTensorCoreGemm as ptxas 13 emits it (results/h200-corpus-detail, sass
 * of cs_wmma_f64): each k-step's two LD.E.64 then the DMMA that reads them. SASS issues in order,
 * so the DMMA stops the warp until both loads are back (ncu: 86 % of its stall samples, long
 * scoreboard, at the DMMAs) and the next step's loads issue after it: a wait before every step
 * but the first. A load that reads a loaded register as its address waits too; an instruction
 * reading only other registers (the IADD3) does not. */
static void test_a_use_of_a_loaded_register_is_where_the_warp_waits_for_its_loads(void **state)
{
    (void)state;
    const char *text =
        "\t.target\tsm_90\n"
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "        .global         k\n"
        "        .type           k,@function\n"
        "k:\n"
        ".text.k:\n"
        "        /*0000*/                   LD.E.64 R16, desc[UR4][R16.64] ;\n"
        "        /*0010*/                   LD.E.64 R18, desc[UR4][R18.64] ;\n"
        "        /*0020*/                   IADD3 R4, R4, 0x20, RZ ;\n"
        "        /*0030*/                   DMMA.8x8x4 R8, R16, R18, R8 ;\n"
        "        /*0040*/                   LD.E.64 R20, desc[UR4][R20.64] ;\n"
        "        /*0050*/                   LD.E.64 R22, desc[UR4][R22.64+0x20] ;\n"
        "        /*0060*/                   DMMA.8x8x4 R8, R20, R23, R8 ;\n"
        "        /*0070*/                   LDG.E R2, desc[UR4][R4.64] ;\n"
        "        /*0080*/                   LDG.E R6, desc[UR4][R2.64] ;\n"
        "        /*0090*/                   EXIT ;\n";
    ws_error err;
    ws_sass_listing *l = ws_sass_parse("k.sass", text, &err);
    if (!l) ws_error_print(&err);
    assert_non_null(l);
    const ws_sass_function *sf = ws_sass_find(l, "k");
    assert_non_null(sf);
    assert_int_equal(sf->ninsns, 10);
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.ninsns = 2; /* two PTX accesses: the first load and the last */
    ws_sass_pcmap pc[2];
    memset(pc, 0, sizeof pc);
    pc[0].sass = 0;
    pc[1].sass = 8;
    ws_sass_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.fn = &fn;
    plan.sf = sf;
    plan.pc = pc;
    int n = 0;
    int *w = ws_sass_load_waits(&plan, &n);
    assert_non_null(w);
    assert_int_equal(n, 2 + 10);
    int at[10] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3}; /* DMMA, DMMA (R23: the second half of R22.64), LDG through R2 */
    for (int j = 0; j < 10; j++)
        assert_int_equal(w[2 + j], at[j]);
    assert_int_equal(w[0], 0);
    assert_int_equal(w[1], 3);
    free(w);
    ws_sass_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_use_of_a_loaded_register_is_where_the_warp_waits_for_its_loads),
        cmocka_unit_test(test_listing_gives_opcode_width_guard_base_offset_and_source_line),
        cmocka_unit_test(test_spill_code_is_marked_and_addressed_from_the_stack_pointer),
        cmocka_unit_test(test_cuobjdump_listing_without_lines_is_read_and_says_so),
        cmocka_unit_test(test_a_listing_with_no_function_or_a_broken_line_is_an_error),
        cmocka_unit_test(test_four_shared_float_loads_become_one_lds128_with_a_quarter_of_the_wavefronts),
        cmocka_unit_test(test_two_shared_float_stores_become_one_sts64),
        cmocka_unit_test(test_loads_widened_past_their_variable_are_matched_at_the_shift_that_covers_them),
        cmocka_unit_test(test_four_global_float_loads_merged_into_ldg128_are_one_request_of_16_sectors),
        cmocka_unit_test(test_tensor_era_events_pass_the_sass_stage_unchanged_even_where_plain_loads_merge),
        cmocka_unit_test(test_wmma_from_global_is_counted_as_the_ldg_and_stg_ptxas_made),
        cmocka_unit_test(test_cp_async_reads_are_global_load_requests_and_sectors_as_ncu_counts_them),
        cmocka_unit_test(test_wmma_from_shared_is_one_ldsm_x4_per_fragment),
        cmocka_unit_test(test_wmma_of_a_row_major_b_is_loaded_in_the_stored_order),
        cmocka_unit_test(test_store_overwritten_on_every_path_is_one_sts_and_the_load_stays_predicated),
        cmocka_unit_test(test_unrolled_loop_keeps_one_global_load_per_ptx_load),
        cmocka_unit_test(test_unrolled_loop_copies_run_largest_first_as_the_listing_guards_say),
        cmocka_unit_test(test_unrolled_matmul_issues_the_instructions_of_its_path),
        cmocka_unit_test(test_unrolled_tile_loop_runs_four_then_two_then_one),
        cmocka_unit_test(test_unroll_split_takes_the_largest_copy_first),
        cmocka_unit_test(test_spill_code_adds_the_local_traffic_the_listing_implies),
        cmocka_unit_test(test_sass_issue_count_is_block_sizes_times_their_runs),
        cmocka_unit_test(test_hfma2_mma_counts_on_the_tensor_pipe),
        cmocka_unit_test(test_wmma_u8_and_f64_fragments_load_their_element_size),
        cmocka_unit_test(test_every_wmma_load_from_shared_is_its_ldsm_whatever_line_the_listing_gives),
        cmocka_unit_test(test_a_loop_entered_only_from_code_no_warp_runs_runs_zero_times),
        cmocka_unit_test(test_a_stand_in_anchors_zero_does_not_zero_the_code_after_it),
        cmocka_unit_test(test_a_warp_uniform_switch_on_one_line_runs_only_its_path),
        cmocka_unit_test(test_the_code_after_an_early_exit_runs_for_the_warps_that_go_on),
        cmocka_unit_test(test_a_per_lane_bulk_copy_is_a_sass_pass_per_lane),
        cmocka_unit_test(test_side_by_side_marks_merges_removals_predication_and_spills),
        cmocka_unit_test(test_without_the_tools_or_when_switched_off_the_simulator_says_it_is_ptx_level),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
