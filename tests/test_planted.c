/* test_planted.c - warpscope's verdict on each planted-bug kernel in
 * tests/data/planted/ (the same kernels scripts/sanitizer-compare.sh runs under
 * compute-sanitizer): the kind of fault, the .cu line (found by the marker
 * comment in the file, never typed in), and the threads, derived from the
 * kernel's indexing. Each runs through the real pipeline: description,
 * checked-in PTX, interpreter, racecheck. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../sim/interp/launch_check.h"
#include "../common/desc.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/ptx.h"
#include "../sim/interp/racecheck.h"

#define DIR "tests/data/planted/"

typedef struct {
    ws_desc_file *file;
    ws_launch L;
    ptx_module *m;
    const ptx_function *fn;
    ws_racecheck *rc;
    ws_sim_result res;
    ws_error err;
    int rc_run;
    char msg[WS_PATH_MAX + WS_MSG_MAX + 64];  /* the formatted error, if the run failed */
} planted_run;

/* 1-based line of the comment "/" "* marker *" "/" in the file's text. */
static int marker_line(const ws_desc_file *f, const char *marker)
{
    char want[64];
    snprintf(want, sizeof want, "/* %s */", marker);
    const char *p = strstr(f->source, want);
    if (!p) fail_msg("%s has no marker '%s'", f->path, marker);
    int line = 1;
    for (const char *q = f->source; q < p; q++) line += *q == '\n';
    return line;
}

/* Loads DIR/name.cu and runs its one description; warnings: memory errors are
 * counted instead of stopping the run; racecheck attached when asked. */
static void run_planted(planted_run *r, const char *name, bool warnings, bool racecheck)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s.cu", name);
    memset(r, 0, sizeof *r);
    if (ws_desc_load(path, &r->file, &r->err)) fail_msg("%s: %s", path, r->err.msg);
    assert_int_equal(r->file->nkernels, 1);
    const ws_kernel_desc *d = &r->file->kernels[0];
    if (ws_desc_resolve(d, NULL, &r->L, &r->err)) fail_msg("%s: %s", path, r->err.msg);
    r->m = ws_catalog_ptx(r->file, "sm_90", &r->err);
    if (!r->m) fail_msg("%s: PTX: %s", path, r->err.msg);
    r->fn = ptx_find_function(r->m, d->entry);
    assert_non_null(r->fn);
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r->m;
    cfg.fn = r->fn;
    cfg.launch = &r->L;
    cfg.source_file = r->file->path;
    cfg.max_thread_insns = 10000000;
    cfg.memory_errors_are_warnings = warnings;
    if (racecheck) {
        r->rc = ws_racecheck_new(r->L.block);
        ws_racecheck_attach(r->rc, &cfg);
    }
    r->rc_run = ws_sim_run(&cfg, &r->res, &r->err);
    if (r->rc_run) ws_error_format(&r->err, r->msg, sizeof r->msg);
}

static void planted_free(planted_run *r)
{
    ws_sim_result_free(&r->res);
    ws_racecheck_free(r->rc);
    ptx_free(r->m);
    ws_desc_free(r->file);
}

/* The first hazard of a kind, NULL if none. */
static const ws_race *first_of(const ws_racecheck *rc, ws_race_kind k)
{
    for (int i = 0; i < ws_racecheck_count(rc); i++)
        if (ws_racecheck_get(rc, i)->kind == k) return ws_racecheck_get(rc, i);
    return NULL;
}

/* Every hazard reads as one "file:line: error: kernel: ..." line. */
static void check_messages(const planted_run *r)
{
    char buf[2048], head[WS_PATH_MAX + WS_KERNEL_NAME_MAX + 64];  /* kernel names are as long as descriptions allow */
    for (int i = 0; i < ws_racecheck_count(r->rc); i++) {
        const ws_race *h = ws_racecheck_get(r->rc, i);
        ws_racecheck_format(r->rc, i, r->file->path, r->file->kernels[0].name, buf, sizeof buf);
        snprintf(head, sizeof head, "%s:%d: error: %s: ", r->file->path, h->second.src_line, r->file->kernels[0].name);
        assert_true(!strncmp(buf, head, strlen(head)));
        assert_null(strchr(buf, '\n'));
    }
}

/* --- missing __syncthreads() in a tiled transpose ------------------------- */

static void test_missing_barrier_in_the_transpose_is_a_race_between_the_tile_write_and_read(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "missing_sync_transpose", false, true);
    check_messages(&r);
    assert_int_equal(r.rc_run, 0);                      /* no memory error: only a race */
    int wline = marker_line(r.file, "planted-write"), rline = marker_line(r.file, "planted-read");
    /* thread (tx,ty) reads tile[tx][ty], written by thread (ty,tx): the RAW
     * pairs a writer and a reader whose (x,y) are swapped */
    const ws_race *raw = first_of(r.rc, WS_RACE_RAW);
    assert_non_null(raw);
    assert_int_equal(raw->first.src_line, wline);
    assert_int_equal(raw->second.src_line, rline);
    assert_int_equal(raw->first.tid[0], raw->second.tid[1]);
    assert_int_equal(raw->first.tid[1], raw->second.tid[0]);
    assert_int_not_equal(raw->first.warp, raw->second.warp);
    /* tile[ty][tx] lives at (ty*33 + tx)*4; the reader's element is tile[tx][ty] */
    assert_int_equal(raw->addr, ((uint64_t)raw->second.tid[0] * 33 + raw->second.tid[1]) * 4);
    assert_int_equal(raw->interval, 0);                 /* there is no barrier at all */
    /* a warp that reads before the writer ran: a WAR with the same pairing */
    const ws_race *war = first_of(r.rc, WS_RACE_WAR);
    assert_non_null(war);
    assert_int_equal(war->first.src_line, rline);
    assert_int_equal(war->second.src_line, wline);
    assert_int_equal(war->first.tid[0], war->second.tid[1]);
    assert_int_equal(war->first.tid[1], war->second.tid[0]);
    planted_free(&r);
}

/* --- off-by-one in a reduction ---------------------------------------------- */

static void test_off_by_one_reduction_reads_one_past_the_shared_array_from_thread_128(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "reduction_off_by_one", false, false);
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.err.line, marker_line(r.file, "planted-read"));
    /* first step s = 128: thread 128 (warp 4, lane 0) is the first with tid + s = 256,
     * one float past sdata[256], i.e. offset 256*4 = 0x400 = the array's 1024 bytes */
    assert_non_null(strstr(r.msg, "reduction_off_by_one: block (0,0,0) warp 4 lane 0: shared load of 4 bytes"));
    assert_non_null(strstr(r.msg, "offset 0x400 is outside the block's 1024 bytes of shared memory"));
    planted_free(&r);
}

static void test_off_by_one_reduction_with_warnings_counts_one_overrun_per_block_and_races(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "reduction_off_by_one", true, true);
    check_messages(&r);
    assert_int_equal(r.rc_run, 0);
    /* only s = 128 reaches past the array (tid <= 64 reads at most sdata[128]): one per block */
    uint64_t blocks = (uint64_t)r.L.grid[0] * r.L.grid[1] * r.L.grid[2];
    assert_int_equal(r.res.memory_warnings, blocks);
    const ws_fault *fw = &r.res.first_warning;   /* thread 128: warp 4, lane 0 of block 0 */
    assert_true(fw->block[0] == 0 && fw->block[1] == 0 && fw->block[2] == 0);
    assert_int_equal(fw->warp, 4);
    assert_int_equal(fw->lane, 0);
    assert_int_equal(fw->mem, WS_MEMERR_SHARED);
    /* thread 0 reads sdata[s] while thread s writes it; s = 128, 64, 32 are other warps:
     * a WAR at the planted line up to three times per block. s = 64 and 32 add sdata[2s] > 0
     * (in = index), so they change memory; at s = 128 thread 128's load past the array is
     * skipped (memcheck), so its store adds a stale register and may leave sdata[128] as it
     * was: a store of the value already there is no write to race with (racecheck.c) */
    int line = marker_line(r.file, "planted-read");
    const ws_race *war = first_of(r.rc, WS_RACE_WAR);
    assert_non_null(war);
    assert_int_equal(war->first.src_line, line);
    assert_int_equal(war->second.src_line, line);
    assert_int_equal(war->first.tid[0], 0);
    assert_int_equal(war->addr, (uint64_t)war->second.tid[0] * 4);
    assert_true(war->second.tid[0] == 128 || war->second.tid[0] == 64 || war->second.tid[0] == 32);
    assert_true(war->interval >= 1);                    /* after the barrier that follows the load */
    assert_false(war->warp_level);
    uint64_t warp_war = ws_racecheck_total_warp(r.rc, WS_RACE_WAR);
    assert_true(ws_racecheck_total(r.rc, WS_RACE_WAR) - warp_war >= 2 * blocks);
    assert_true(ws_racecheck_total(r.rc, WS_RACE_WAR) - warp_war <= 3 * blocks);
    /* s = 16, 8, 4, 2, 1: thread 0 reads sdata[s] and thread s adds into it, lanes of warp 0
     * with no __syncwarp() between: a warp-level WAR per step and block (sdata[2s] > 0, so
     * each store changes memory), and nothing else at warp level */
    assert_int_equal(warp_war, 5 * blocks);
    assert_int_equal(ws_racecheck_total_warp(r.rc, WS_RACE_RAW) + ws_racecheck_total_warp(r.rc, WS_RACE_WAW), 0);
    for (int i = 0; i < ws_racecheck_count(r.rc); i++) {
        const ws_race *h = ws_racecheck_get(r.rc, i);
        if (!h->warp_level) continue;
        assert_int_equal(h->kind, WS_RACE_WAR);
        assert_int_equal(h->first.warp, 0);
        assert_int_equal(h->second.warp, 0);
        assert_int_equal(h->first.lane, 0);
        assert_int_equal(h->addr, (uint64_t)h->second.lane * 4);   /* sdata[s], s = the writer */
    }
    planted_free(&r);
}

/* --- a read past the end of a buffer ------------------------------------------ */

static void test_read_past_the_end_names_the_last_thread_and_the_four_bytes_past_in(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "read_past_end", false, false);
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.err.line, marker_line(r.file, "planted-read"));
    /* i = n - 1 = 999 reads in[1000]: block 999/256 = 3, thread 999 - 768 = 231 = warp 7 lane 7,
     * and the 4-byte load ends 4 bytes past the 4000-byte buffer */
    assert_int_equal(r.L.param_values[0], 1000);
    assert_non_null(strstr(r.msg, "read_past_end: block (3,0,0) warp 7 lane 7: global load of 4 bytes"));
    assert_non_null(strstr(r.msg, "is 4 bytes past the end of buffer 'in' (4000 bytes)"));
    planted_free(&r);

    run_planted(&r, "read_past_end", true, true);
    assert_int_equal(r.rc_run, 0);
    assert_int_equal(r.res.memory_warnings, 1);         /* only that one thread */
    assert_int_equal(ws_racecheck_count(r.rc), 0);      /* no shared memory at all */
    planted_free(&r);
}

/* --- a barrier inside a divergent branch ------------------------------------- */

static void test_barrier_inside_a_branch_that_splits_warp_1_is_a_barrier_error(void **state)
{
    (void)state;
    planted_run r;
    for (int warnings = 0; warnings < 2; warnings++) {  /* not a memory error: fatal either way */
        run_planted(&r, "divergent_barrier", warnings, true);
        assert_int_equal(r.rc_run, -1);
        assert_int_equal(r.err.line, marker_line(r.file, "planted-barrier"));
        /* tid < 48: all of warp 0, and lanes 0..15 of warp 1 (threads 32..47) */
        assert_non_null(strstr(r.msg, "block (0,0,0) warp 1: barrier reached by a diverged warp: lanes 0x0000ffff"));
        planted_free(&r);
    }
}

/* --- barrier and warp-collective misuse (synccheck's ground) ------------------- */

static void test_a_loop_barrier_whose_trip_count_differs_by_warp_is_divergent_threads_in_block(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "divergent_loop_barrier", false, false);
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.err.line, marker_line(r.file, "planted-barrier"));
    /* warp w runs w + 1 rounds: 0..2 take the remainder loop, warp 3 the unrolled body */
    assert_non_null(strstr(r.msg, "barrier error, divergent threads in block"));
    char want[96];
    snprintf(want, sizeof want, "warps 0-2 at line %d", marker_line(r.file, "planted-barrier"));
    assert_non_null(strstr(r.msg, want));
    snprintf(want, sizeof want, "warp 3 at line %d", marker_line(r.file, "planted-barrier"));
    assert_non_null(strstr(r.msg, want));
    planted_free(&r);
}

static void test_a_full_mask_shuffle_in_a_half_warp_branch_names_the_absent_lanes(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "divergent_shfl_mask", true, false);   /* not a memory error: fatal either way */
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.err.line, marker_line(r.file, "planted-mask"));
    /* tid % 32 < 16: lanes 0..15 of warp 0 run first and miss lanes 16..31 */
    assert_non_null(strstr(r.msg, "block (0,0,0) warp 0 lane 0: shfl.sync.down.b32 with member mask 0xffffffff "
                                  "names lanes 0xffff0000"));
    planted_free(&r);
}

static void test_syncwarp_called_by_a_lane_its_mask_leaves_out_is_invalid_arguments(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "divergent_syncwarp_mask", false, false);
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.err.line, marker_line(r.file, "planted-mask"));
    /* the ballot of tid < 16 is 0x0000ffff; tid <= 16 lets lane 16 in */
    assert_non_null(strstr(r.msg, "warp 0 lane 16: bar.warp.sync with member mask 0x0000ffff, which does not name "
                                  "this lane"));
    assert_non_null(strstr(r.msg, "'Invalid arguments'"));
    planted_free(&r);
}

/* --- an uninitialised shared read --------------------------------------------- */

static void test_reading_the_unwritten_half_of_shared_memory_is_an_uninitialised_read(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "uninit_shared", false, true);
    check_messages(&r);
    assert_int_equal(r.rc_run, 0);
    assert_int_equal(ws_racecheck_count(r.rc), 1);
    const ws_race *u = first_of(r.rc, WS_RACE_UNINIT);
    assert_non_null(u);
    assert_int_equal(u->second.src_line, marker_line(r.file, "planted-read"));
    /* threads 0..31 read s[63 - t] (never written); 32..63 read s[31..0] (written) */
    assert_int_equal(u->count, 32);
    assert_true(u->second.tid[0] < 32);
    assert_int_equal(u->addr, (63 - (uint64_t)u->second.tid[0]) * 4);
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_RAW) + ws_racecheck_total(r.rc, WS_RACE_WAR) +
                     ws_racecheck_total(r.rc, WS_RACE_WAW), 0);
    planted_free(&r);
}

/* --- an uninitialised global read (initcheck) ---------------------------------- */

/* out is init=none: out[t] += in[t] reads each out[t] before any thread wrote it. Without
 * --memcheck the first read stops the run, thread (0,0,0) of block (0,0,0) at byte 0; with
 * it every thread's read is counted: 2 blocks x 128 threads = 256. */
static void test_reading_a_never_written_global_buffer_is_reported_with_thread_and_block(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "uninit_global", false, false);
    assert_true(r.L.buffers[1].uninit);
    assert_false(r.L.buffers[0].uninit);
    assert_int_equal(r.rc_run, -1);
    assert_int_equal(r.res.stop, WS_SIM_FAULT);
    char want[160];
    snprintf(want, sizeof want, "uninit_global.cu:%d: error: uninit_global: block (0,0,0) warp 0 lane 0: "
             "uninitialised global load of 4 bytes", marker_line(r.file, "planted-read"));
    if (!strstr(r.msg, want) || !strstr(r.msg, "by thread (0,0,0): byte 0 of buffer 'out' (init=none) was never written"))
        fail_msg("got: %s", r.msg);
    planted_free(&r);
    run_planted(&r, "uninit_global", true, false);
    assert_int_equal(r.rc_run, 0);
    uint64_t threads = (uint64_t)r.L.grid[0] * r.L.block[0];
    assert_int_equal(r.res.memerr_count[WS_MEMERR_UNINIT], threads);
    assert_int_equal(r.res.memory_warnings, threads);
    planted_free(&r);
}

/* --- the same value stored by many threads is no race ----------------------- */

/* compute-sanitizer's racecheck reports nothing here: no order of stores of 1 to a flag that
 * holds 1 changes memory. The first store of each block (0 -> 1) is still a real write. */
static void test_threads_storing_the_same_value_to_one_flag_are_no_hazard(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "same_value_flag", false, true);
    assert_int_equal(r.rc_run, 0);
    assert_int_equal(ws_racecheck_count(r.rc), 0);
    for (int k = 0; k < WS_RACE_KINDS; k++) assert_int_equal(ws_racecheck_total(r.rc, (ws_race_kind)k), 0);
    /* every block has a positive input (in = index: all but in[0]), so every out[t] is 1 */
    const float *out = r.res.buffer_data[1];
    for (uint64_t t = 0; t < r.L.buffers[1].count; t++) assert_true(out[t] == 1.0f);
    planted_free(&r);
}

/* --- warp-synchronous code without __syncwarp() ------------------------------ */

/* The unrolled last warp, without volatile: nvcc keeps sdata[t] in a register, loads
 * sdata[t + 32], [t + 16] ... [t + 1] (one line each, the planted line holding + 16) and
 * stores the sum once, at the + 1 line. Lane j's store of sdata[j] follows the reads of it
 * by lanes j - 16, j - 8, j - 4, j - 2, j - 1 (those >= 0) with no __syncwarp(): for every
 * j >= 1 a warp-level WAR, 31 lane accesses per block; the + 32 reads see warp 1's
 * elements, ordered by the barrier before. One distinct hazard per step s, first seen as
 * lane 0 reading sdata[s] (offset 4s) and lane s storing it. */
static void test_the_last_warp_of_a_reduction_without_syncwarp_races_between_its_lanes(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "warp_sync_reduce", false, true);
    check_messages(&r);
    assert_int_equal(r.rc_run, 0);
    uint64_t blocks = (uint64_t)r.L.grid[0] * r.L.grid[1] * r.L.grid[2];
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_WAR), 31 * blocks);
    assert_int_equal(ws_racecheck_total_warp(r.rc, WS_RACE_WAR), 31 * blocks);
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_RAW) + ws_racecheck_total(r.rc, WS_RACE_WAW), 0);
    int line16 = marker_line(r.file, "planted-read"), store_line = line16 + 4;  /* + 16 ... + 1 */
    bool seen[5] = {false};
    assert_int_equal(ws_racecheck_count(r.rc), 5);
    for (int i = 0; i < ws_racecheck_count(r.rc); i++) {
        const ws_race *h = ws_racecheck_get(r.rc, i);
        assert_true(h->warp_level);
        assert_int_equal(h->kind, WS_RACE_WAR);
        assert_int_equal(h->first.op, WS_MEM_LOAD);
        assert_int_equal(h->second.op, WS_MEM_STORE);
        assert_int_equal(h->second.src_line, store_line);
        int step = h->first.src_line - line16;          /* 0: s = 16, ... 4: s = 1 */
        assert_true(step >= 0 && step < 5);
        uint32_t s = 16u >> step;
        seen[step] = true;
        assert_int_equal(h->block_linear, 0);
        assert_int_equal(h->first.warp, 0);
        assert_int_equal(h->second.warp, 0);
        assert_int_equal(h->first.lane, 0);
        assert_int_equal(h->second.lane, s);
        assert_int_equal(h->addr, 4 * s);
    }
    for (int k = 0; k < 5; k++) assert_true(seen[k]);
    char buf[2048];
    ws_racecheck_format(r.rc, 0, r.file->path, r.file->kernels[0].name, buf, sizeof buf);
    assert_non_null(strstr(buf, "hazard between lanes of one warp"));
    assert_non_null(strstr(buf, "'(Warp Level Programming) Potential WAR hazard'"));
    planted_free(&r);
}

/* One row of 32 floats per warp, 8 warps in all. Lane l stores row[l], reads
 * row[(l + j) % 32] for j = 1..31 (written by lane l + j), overwrites row[l] and reads
 * row[(l + j) % 32] for j = 0..31 again. RAW: 31 foreign elements per lane per loop,
 * 2 x 31 x 32 x 8 = 15872. WAR: every lane's second store follows 31 other lanes' reads
 * of its element, one lane access each, 32 x 8 = 256. No WAW: each lane writes only its
 * own element. The first RAW: j = 1, lane 0 reads row[1], which lane 1 wrote. */
static void test_a_row_softmax_sharing_its_row_without_syncwarp_races_between_lanes(void **state)
{
    (void)state;
    planted_run r;
    run_planted(&r, "warp_sync_softmax", false, true);
    check_messages(&r);
    assert_int_equal(r.rc_run, 0);
    uint64_t warps = (uint64_t)r.L.grid[0] * (r.L.block[0] / 32);
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_RAW), 2 * 31 * 32 * warps);
    assert_int_equal(ws_racecheck_total_warp(r.rc, WS_RACE_RAW), 2 * 31 * 32 * warps);
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_WAR), 32 * warps);
    assert_int_equal(ws_racecheck_total_warp(r.rc, WS_RACE_WAR), 32 * warps);
    assert_int_equal(ws_racecheck_total(r.rc, WS_RACE_WAW), 0);
    const ws_race *raw = first_of(r.rc, WS_RACE_RAW);
    assert_non_null(raw);
    assert_true(raw->warp_level);
    assert_int_equal(raw->first.src_line, marker_line(r.file, "planted-write"));
    assert_int_equal(raw->second.src_line, marker_line(r.file, "planted-read"));
    assert_int_equal(raw->first.lane, 1);
    assert_int_equal(raw->second.lane, 0);
    assert_int_equal(raw->addr, 4);
    assert_int_equal(raw->interval, 0);
    /* every hazard pairs two lanes of one warp, at the lines the kernel's comments name */
    int rewrite = marker_line(r.file, "planted-rewrite"), sum = marker_line(r.file, "planted-sum");
    for (int i = 0; i < ws_racecheck_count(r.rc); i++) {
        const ws_race *h = ws_racecheck_get(r.rc, i);
        assert_true(h->warp_level);
        assert_int_equal(h->first.warp, h->second.warp);
        assert_int_not_equal(h->first.lane, h->second.lane);
        /* row[w][lane] of the writer for a WAR, of the reader's element for a RAW: in warp w's row */
        assert_int_equal(h->addr / 128, h->first.warp % 2);
        if (h->kind == WS_RACE_WAR) {
            assert_int_equal(h->second.src_line, rewrite);
            assert_int_equal(h->addr % 128, 4 * h->second.lane);
        } else {
            assert_true(h->second.src_line == marker_line(r.file, "planted-read") || h->second.src_line == sum);
            assert_int_equal(h->addr % 128, 4 * h->first.lane);
        }
    }
    planted_free(&r);
}

/* The fixed twins: __syncwarp() between every lane's store and another lane's access. */
static void test_the_syncwarp_twins_of_the_reduction_and_the_softmax_have_no_hazard(void **state)
{
    (void)state;
    const char *names[] = {"warp_sync_reduce_fixed", "warp_sync_softmax_fixed"};
    for (int i = 0; i < 2; i++) {
        planted_run r;
        run_planted(&r, names[i], false, true);
        assert_int_equal(r.rc_run, 0);
        if (ws_racecheck_count(r.rc)) {
            char buf[2048];
            ws_racecheck_format(r.rc, 0, r.file->path, r.file->kernels[0].name, buf, sizeof buf);
            fail_msg("%s: %s", names[i], buf);
        }
        planted_free(&r);
    }
}

/* --- and no false alarms on correct kernels --------------------------------- */

static void test_every_catalog_kernel_is_free_of_hazards_in_its_first_two_blocks(void **state)
{
    (void)state;
    ws_catalog *cat;
    ws_error err;
    if (ws_catalog_load("demos", &cat, &err)) fail_msg("%s", err.msg);
    int ran = 0;
    for (int f = 0; f < cat->nfiles; f++) {
        ws_desc_file *file = cat->files[f];
        ptx_module *m = ws_catalog_ptx(file, "sm_90", &err);
        if (!m) fail_msg("%s: %s", file->path, err.msg);
        for (int k = 0; k < file->nkernels; k++) {
            const ws_kernel_desc *d = &file->kernels[k];
            ws_launch L;
            if (ws_desc_resolve(d, NULL, &L, &err)) fail_msg("%s: %s", d->name, err.msg);
            ws_sim_config cfg;
            memset(&cfg, 0, sizeof cfg);
            ptx_module *own = NULL;              /* `target sm_90a`: its own PTX (the sm_90 text traps) */
            if (d->target[0] && !(own = ws_catalog_ptx(file, d->target, &err))) fail_msg("%s: %s", d->name, err.msg);
            cfg.module = own ? own : m;
            cfg.fn = ptx_find_function(cfg.module, d->entry);
            assert_non_null(cfg.fn);
            cfg.launch = &L;
            cfg.source_file = file->path;
            uint64_t nb = (uint64_t)L.grid[0] * L.grid[1] * L.grid[2];
            cfg.num_blocks = nb < 2 ? (uint32_t)nb : 2;
            bool usage;                          /* a cluster's blocks are followed together, as sim does */
            ws_racecheck *rc = ws_racecheck_for_launch(cfg.fn, &L, d->name, file->path, d->line, &err, &usage);
            if (!rc) fail_msg("%s", err.msg);
            ws_racecheck_attach(rc, &cfg);
            ws_sim_result res;
            if (ws_sim_run(&cfg, &res, &err)) fail_msg("%s: %s", d->name, err.msg);
            if (ws_racecheck_count(rc)) {
                char buf[2048];
                ws_racecheck_format(rc, 0, file->path, d->name, buf, sizeof buf);
                fail_msg("false alarm: %s", buf);
            }
            ws_sim_result_free(&res);
            ws_racecheck_free(rc);
            ptx_free(own);
            ran++;
        }
        ptx_free(m);
    }
    assert_true(ran >= 60);                              /* the whole catalog, not a corner of it */
    ws_catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_barrier_in_the_transpose_is_a_race_between_the_tile_write_and_read),
        cmocka_unit_test(test_off_by_one_reduction_reads_one_past_the_shared_array_from_thread_128),
        cmocka_unit_test(test_off_by_one_reduction_with_warnings_counts_one_overrun_per_block_and_races),
        cmocka_unit_test(test_read_past_the_end_names_the_last_thread_and_the_four_bytes_past_in),
        cmocka_unit_test(test_barrier_inside_a_branch_that_splits_warp_1_is_a_barrier_error),
        cmocka_unit_test(test_a_loop_barrier_whose_trip_count_differs_by_warp_is_divergent_threads_in_block),
        cmocka_unit_test(test_a_full_mask_shuffle_in_a_half_warp_branch_names_the_absent_lanes),
        cmocka_unit_test(test_syncwarp_called_by_a_lane_its_mask_leaves_out_is_invalid_arguments),
        cmocka_unit_test(test_reading_the_unwritten_half_of_shared_memory_is_an_uninitialised_read),
        cmocka_unit_test(test_threads_storing_the_same_value_to_one_flag_are_no_hazard),
        cmocka_unit_test(test_reading_a_never_written_global_buffer_is_reported_with_thread_and_block),
        cmocka_unit_test(test_the_last_warp_of_a_reduction_without_syncwarp_races_between_its_lanes),
        cmocka_unit_test(test_a_row_softmax_sharing_its_row_without_syncwarp_races_between_lanes),
        cmocka_unit_test(test_the_syncwarp_twins_of_the_reduction_and_the_softmax_have_no_hazard),
        cmocka_unit_test(test_every_catalog_kernel_is_free_of_hazards_in_its_first_two_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
