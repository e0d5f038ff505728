/* test_threads.c - blocks on threads give the one-thread answer (sim/interp/interp_par.c): for every
 * catalog kernel, -j 1, 2 and 4 produce the same memory-event stream (every field, in order),
 * counters, per-pc counts and final buffers; a budget that runs out mid-launch and a fault in a
 * late block stop at the same place with the same message; launches whose blocks could see each
 * other's order run on one thread. The quick sweep runs each kernel's first and last 8 blocks
 * (where the grid's edge blocks are); the whole grids are `make test-slow`'s (tests/slow.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../common/desc.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/interp/interp.h"
#include "../sim/frontend/ptx.h"
#include "slow.h"

/* The stream, folded: FNV-1a over every event's fields in order (seq included), a 64-bit field
 * at a step rather than a byte (the byte loop was a fifth of this test's time under ASan). Each
 * step h -> (h ^ v) * odd prime is a bijection of h, so one differing field always changes the
 * fold. */
typedef struct { uint64_t h, n; } fold;

static void mix(fold *f, uint64_t v)
{
    f->h = (f->h ^ v) * 0x100000001b3ull;
}

/* Every field (not the struct's bytes: its padding is not part of the event). */
static void on_event(void *ctx, const ws_mem_event *ev)
{
    fold *f = ctx;
    uint64_t head[] = {ev->seq, ev->block_linear, ev->block[0], ev->block[1], ev->block[2], ev->warp,
                       ev->warp_global, ev->pc, (uint64_t)ev->src_line, (uint64_t)ev->ptx_line, ev->space, ev->op,
                       ev->cache, ev->kind, ev->part, ev->width, ev->elem_size, ev->vec, ev->active_mask,
                       ev->same_value_mask};
    for (size_t i = 0; i < sizeof head / sizeof *head; i++) mix(f, head[i]);
    for (int l = 0; l < 32; l++) mix(f, ev->addr[l]);
    f->n++;
}

typedef struct {
    int rc;
    fold f;
    ws_sim_result res;
    char msg[1200];
} outcome;

/* Blocks [first, first + num) of the launch; num 0 = every block. */
static void run_window(const ptx_module *m, const ptx_function *fn, const ws_launch *L, uint32_t first, uint32_t num,
                       int threads, uint64_t budget, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->f.h = 0xcbf29ce484222325ull;
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = fn;
    cfg.launch = L;
    cfg.source_file = "k.cu";
    cfg.listener = on_event;
    cfg.listener_ctx = &o->f;
    cfg.threads = threads;
    cfg.max_thread_insns = budget;
    cfg.first_block = first;
    cfg.num_blocks = num;
    ws_error err;
    o->rc = ws_sim_run(&cfg, &o->res, &err);
    if (o->rc) ws_error_format(&err, o->msg, sizeof o->msg);
}

static void run(const ptx_module *m, const ptx_function *fn, const ws_launch *L, int threads, uint64_t budget,
                outcome *o)
{
    run_window(m, fn, L, 0, 0, threads, budget, o);
}

static void expect_same(const char *name, const ws_launch *L, const ptx_function *fn, outcome *a, outcome *b)
{
    if (a->rc != b->rc || strcmp(a->msg, b->msg))
        fail_msg("%s: -j %d: rc %d '%s', one thread: rc %d '%s'", name, b->res.threads, b->rc, b->msg, a->rc, a->msg);
    if (a->f.n != b->f.n || a->f.h != b->f.h)
        fail_msg("%s: the event stream differs (%llu events vs %llu)", name, (unsigned long long)b->f.n,
                 (unsigned long long)a->f.n);
    assert_int_equal(a->res.thread_insns, b->res.thread_insns);
    assert_int_equal(a->res.warp_insns, b->res.warp_insns);
    assert_int_equal(a->res.mem_events, b->res.mem_events);
    assert_int_equal(a->res.stop, b->res.stop);
    if (a->rc) return;
    for (int p = 0; p < fn->ninsns; p++) assert_int_equal(a->res.pc_warp_count[p], b->res.pc_warp_count[p]);
    for (int i = 0; i < L->nbuffers; i++)
        if (memcmp(a->res.buffer_data[i], b->res.buffer_data[i], L->buffers[i].bytes))
            fail_msg("%s: buffer '%s' differs after the launch", name, L->buffers[i].name);
}

typedef struct {
    ws_catalog *cat;
    ptx_module **mods;
} fixture;

static int load(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    ws_error err;
    if (!fx || ws_catalog_load("demos", &fx->cat, &err)) return -1;
    fx->mods = calloc((size_t)fx->cat->nfiles, sizeof *fx->mods);
    for (int f = 0; f < fx->cat->nfiles; f++) {
        fx->mods[f] = ws_catalog_ptx(fx->cat->files[f], "sm_90", &err);
        if (!fx->mods[f]) { ws_error_print(&err); return -1; }
    }
    *state = fx;
    return 0;
}

static int unload(void **state)
{
    fixture *fx = *state;
    for (int f = 0; f < fx->cat->nfiles; f++) ptx_free(fx->mods[f]);
    free(fx->mods);
    ws_catalog_free(fx->cat);
    free(fx);
    return 0;
}

/* Finds a catalog kernel and resolves its launch at the default sizes. */
static const ptx_function *find(fixture *fx, const char *name, const ptx_module **m, ws_launch *L)
{
    ws_error err;
    for (int f = 0; f < fx->cat->nfiles; f++)
        for (int k = 0; k < fx->cat->files[f]->nkernels; k++) {
            const ws_kernel_desc *d = &fx->cat->files[f]->kernels[k];
            if (strcmp(d->name, name)) continue;
            assert_int_equal(ws_desc_resolve(d, NULL, L, &err), 0);
            *m = fx->mods[f];
            return ptx_find_function(*m, d->entry);
        }
    fail_msg("no catalog kernel %s", name);
    return NULL;
}

/* One kernel's blocks [first, first + num) on 1, 2 and 4 threads; *threaded counts the runs that
 * used threads, *runs the threaded runs asked for. */
static void same_on_1_2_and_4(const char *name, const ptx_module *m, const ptx_function *fn, const ws_launch *L,
                              uint32_t first, uint32_t num, int *threaded, int *runs)
{
    outcome one, many;
    run_window(m, fn, L, first, num, 1, 0, &one);
    assert_int_equal(one.res.threads, 1);
    for (int j = 2; j <= 4; j += 2) {
        run_window(m, fn, L, first, num, j, 0, &many);
        expect_same(name, L, fn, &one, &many);
        *threaded += many.res.threads > 1;
        ++*runs;
        ws_sim_result_free(&many.res);
    }
    ws_sim_result_free(&one.res);
}

/* Every catalog kernel; window 0 = whole grids, else its first and last `window` blocks (the
 * whole grid when it has no more than twice that many, or when its blocks must run together:
 * a cooperative launch, clusters). */
static void sweep(fixture *fx, uint32_t window)
{
    int threaded = 0, runs = 0;
    for (int f = 0; f < fx->cat->nfiles; f++)
        for (int k = 0; k < fx->cat->files[f]->nkernels; k++) {
            const ws_kernel_desc *d = &fx->cat->files[f]->kernels[k];
            ws_launch L;
            ws_error err;
            assert_int_equal(ws_desc_resolve(d, NULL, &L, &err), 0);
            ptx_module *m = fx->mods[f], *own = NULL;
            if (d->target[0]) {                  /* `target sm_90a`: its own PTX (wgmma_gemm) */
                own = m = ws_catalog_ptx(fx->cat->files[f], d->target, &err);
                if (!m) fail_msg("%s: %s", d->name, err.msg);
            }
            const ptx_function *fn = ptx_find_function(m, d->entry);
            assert_non_null(fn);
            uint64_t n = ws_launch_blocks(&L);
            bool together = L.cooperative || L.cluster[0] || fn->cluster[0];
            if (!window || together || n <= 2 * (uint64_t)window) {
                same_on_1_2_and_4(d->name, m, fn, &L, 0, 0, &threaded, &runs);
            } else {
                same_on_1_2_and_4(d->name, m, fn, &L, 0, window, &threaded, &runs);
                same_on_1_2_and_4(d->name, m, fn, &L, (uint32_t)(n - window), window, &threaded, &runs);
            }
            ptx_free(own);                       /* the sm_90a text (wgmma_gemm) runs: the sm_90 one traps */
        }
    /* most of the catalog is order-free: the threads were used, not skipped */
    if (2 * threaded < runs) print_message("%d of %d kernel runs used threads\n", threaded, runs);
    assert_true(2 * threaded >= runs);
}

static void test_every_catalog_kernels_first_and_last_8_blocks_are_the_same_on_1_2_and_4_threads(void **state)
{
    sweep(*state, 8);   /* 8 blocks: 4 threads get 2 each, and the replay waits on each of them */
}

static void test_every_catalog_kernel_gives_the_same_events_counters_and_buffers_on_1_2_and_4_threads(void **state)
{
    sweep(*state, 0);
}

static void test_a_budget_that_runs_out_mid_launch_stops_where_one_thread_stops(void **state)
{
    fixture *fx = *state;
    const ptx_module *m;
    ws_launch L;
    const ptx_function *fn = find(fx, "matmul_tiled32", &m, &L);
    outcome full;
    run(m, fn, &L, 1, 0, &full);
    assert_int_equal(full.rc, 0);
    /* a budget that ends inside a block somewhere past the middle, at several points */
    for (uint64_t cut = full.res.thread_insns / 2 + 4321; cut < full.res.thread_insns; cut += full.res.thread_insns / 7) {
        outcome one, two;
        run(m, fn, &L, 1, cut, &one);
        run(m, fn, &L, 2, cut, &two);
        assert_int_equal(one.rc, -1);
        assert_non_null(strstr(one.msg, "instruction budget"));
        expect_same("matmul_tiled32 (budget)", &L, fn, &one, &two);
        ws_sim_result_free(&one.res);
        ws_sim_result_free(&two.res);
    }
    ws_sim_result_free(&full.res);
}

static void test_a_fault_in_a_late_block_is_the_one_thread_fault(void **state)
{
    fixture *fx = *state;
    const ptx_module *m;
    ws_launch L;
    const ptx_function *fn = find(fx, "copy_float", &m, &L);
    /* the output buffer is cut short: the blocks past its end fault; the first of them is reported */
    int out = L.nbuffers - 1;
    L.buffers[out].bytes = L.buffers[out].bytes * 3 / 4 + 4;
    outcome one, two;
    run(m, fn, &L, 1, 0, &one);
    run(m, fn, &L, 2, 0, &two);
    assert_int_equal(one.rc, -1);
    assert_non_null(strstr(one.msg, "past the end"));
    expect_same("copy_float (fault)", &L, fn, &one, &two);
    ws_sim_result_free(&one.res);
    ws_sim_result_free(&two.res);
}

/* Three kernels over the same 64 blocks of 32 threads and two words n[0], n[1]:
 * count_seen: atomicAdd's old value is stored, so a block sees how many came before it - the
 *   blocks' order is visible: one thread;
 * count_blocks: atomicAdd with the old value unused (nvcc's atom into a register nothing reads)
 *   and atomicMax of the block index (red): integer updates in any order leave the same words,
 *   so threads, each update a host atomic: n[0] = 64 * 32, n[1] = 63;
 * sum_float: a float reduction rounds differently in another order: one thread. */
static const char ATOMIC_PTX[] =
    ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry count_seen(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  atom.global.add.u32 %r1, [%rd2], 1;\n  st.global.u32 [%rd2+4], %r1;\n  ret;\n}\n"
    ".visible .entry count_blocks(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  atom.global.add.u32 %r1, [%rd2], 1;\n  mov.u32 %r2, %ctaid.x;\n"
    "  red.global.max.u32 [%rd2+4], %r2;\n  ret;\n}\n"
    ".visible .entry sum_float(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  red.global.add.f32 [%rd2], 0f3DCCCCCD;\n  ret;\n}\n";

/* Runs kernel `name` of ATOMIC_PTX on 4 threads: the threads it used and n[0], n[1] after. */
static void run_atomic(const char *name, int *threads, uint32_t n[2])
{
    ws_error err;
    ptx_module *m = ptx_parse("atomic.ptx", ATOMIC_PTX, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    const ptx_function *fn = ptx_find_function(m, name);
    assert_non_null(fn);
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = 64; L.grid[1] = L.grid[2] = 1;
    L.block[0] = 32; L.block[1] = L.block[2] = 1;
    snprintf(L.buffers[0].name, sizeof L.buffers[0].name, "n");
    L.buffers[0].type = WS_TYPE_UINT;
    L.buffers[0].count = 2;
    L.buffers[0].bytes = 8;
    L.buffers[0].init = WS_INIT_ZERO;
    L.nbuffers = 1;
    L.args[0].kind = WS_ARG_BUFFER;
    L.args[0].buffer = 0;
    L.nargs = 1;
    outcome o;
    run(m, fn, &L, 4, 0, &o);
    if (o.rc) fail_msg("%s", o.msg);
    *threads = o.res.threads;
    memcpy(n, o.res.buffer_data[0], 8);
    ws_sim_result_free(&o.res);
    ptx_free(m);
}

static void test_a_kernel_that_reads_an_atomics_old_value_runs_on_one_thread(void **state)
{
    (void)state;
    int threads;
    uint32_t n[2];
    run_atomic("count_seen", &threads, n);
    assert_int_equal(threads, 1);
    assert_int_equal(n[0], 64 * 32);            /* every thread of every block added its 1 */
}

static void test_integer_atomics_whose_old_value_nothing_reads_run_on_threads_and_add_up_as_on_one(void **state)
{
    (void)state;
    int threads;
    uint32_t n[2];
    for (int rep = 0; rep < 20; rep++) {        /* a lost update would show in some run */
        run_atomic("count_blocks", &threads, n);
        assert_int_equal(threads, 4);
        assert_int_equal(n[0], 64 * 32);
        assert_int_equal(n[1], 63);             /* the largest block index */
    }
}

static void test_a_float_reduction_runs_on_one_thread(void **state)
{
    (void)state;
    int threads;
    uint32_t n[2];
    run_atomic("sum_float", &threads, n);
    assert_int_equal(threads, 1);
}

/* ws_sim_config.split_ahead: a split whose halves keep state across the blocks of one SM (the
 * cache model's L1 half, sim/split.c) needs block b to start only once block b - ahead was
 * replayed. A split listener that records each event's block and, at a block's first event on
 * a worker, checks how far the replay has come: never short, on 4 threads with ahead = 3 (the
 * ring would otherwise let them run 8 blocks ahead from the start). */
typedef struct {
    uint32_t ahead;
    int64_t replayed;          /* the last block whose record was replayed (-1: none); __atomic */
    int short_starts, starts;  /* __atomic */
} ahead_probe;

typedef struct {
    ahead_probe *p;
    int64_t block;             /* the block this worker half saw last */
} ahead_worker;

static void *ahead_new(void *ctx)
{
    ahead_worker *w = calloc(1, sizeof *w);
    if (w) { w->p = ctx; w->block = -1; }
    return w;
}
static void ahead_free(void *ctx, void *w) { (void)ctx; free(w); }
static void ahead_event(void *wp, const ws_mem_event *ev, ws_split_out *out)
{
    ahead_worker *w = wp;
    if ((int64_t)ev->block_linear != w->block) {   /* a block's first event */
        w->block = ev->block_linear;
        int64_t need = w->block - (int64_t)w->p->ahead;
        __atomic_add_fetch(&w->p->starts, 1, __ATOMIC_RELAXED);
        if (need >= 0 && __atomic_load_n(&w->p->replayed, __ATOMIC_ACQUIRE) < need)
            __atomic_add_fetch(&w->p->short_starts, 1, __ATOMIC_RELAXED);
    }
    uint32_t *r = ws_split_put(out, sizeof *r);
    if (r) *r = ev->block_linear;
}
static void ahead_watch(void *w, const ws_watch_hit *hit, ws_split_out *out) { (void)w; (void)hit; (void)out; }
static void ahead_flush(void *w, ws_split_out *out) { (void)w; (void)out; }
static void ahead_replay(void *ctx, void *rec, uint64_t seq0)
{
    (void)seq0;
    ahead_probe *p = ctx;
    __atomic_store_n(&p->replayed, (int64_t)*(uint32_t *)rec, __ATOMIC_RELEASE);
}
static const ws_split_listener ahead_halves = {ahead_new, ahead_free, ahead_event, ahead_watch, ahead_flush, ahead_replay, NULL};

static void test_a_split_with_split_ahead_starts_no_block_before_the_one_that_far_back_was_replayed(void **state)
{
    fixture *fx = *state;
    const ptx_module *m;
    ws_launch L;
    const ptx_function *fn = find(fx, "copy_float", &m, &L);
    ahead_probe p = {3, -1, 0, 0};
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = fn;
    cfg.launch = &L;
    cfg.source_file = "k.cu";
    cfg.listener = on_event;                     /* the split replaces it on threads */
    fold f = {0xcbf29ce484222325ull, 0};
    cfg.listener_ctx = &f;
    cfg.threads = 4;
    cfg.split = &ahead_halves;
    cfg.split_ctx = &p;
    cfg.split_ahead = p.ahead;
    ws_sim_result res;
    ws_error err;
    assert_int_equal(ws_sim_run(&cfg, &res, &err), 0);
    assert_int_equal(res.threads, 4);
    assert_true(ws_launch_blocks(&L) > 8);
    assert_int_equal(p.starts, (int)ws_launch_blocks(&L));
    assert_int_equal(p.short_starts, 0);
    assert_int_equal(p.replayed, (int64_t)ws_launch_blocks(&L) - 1);
    ws_sim_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_every_catalog_kernels_first_and_last_8_blocks_are_the_same_on_1_2_and_4_threads),
        cmocka_unit_test(test_a_budget_that_runs_out_mid_launch_stops_where_one_thread_stops),
        cmocka_unit_test(test_a_fault_in_a_late_block_is_the_one_thread_fault),
        cmocka_unit_test(test_a_kernel_that_reads_an_atomics_old_value_runs_on_one_thread),
        cmocka_unit_test(test_integer_atomics_whose_old_value_nothing_reads_run_on_threads_and_add_up_as_on_one),
        cmocka_unit_test(test_a_float_reduction_runs_on_one_thread),
        cmocka_unit_test(test_a_split_with_split_ahead_starts_no_block_before_the_one_that_far_back_was_replayed),
    };
    const struct CMUnitTest slow[] = {   /* the whole catalog's grids, three times: minutes under ASan */
        cmocka_unit_test(test_every_catalog_kernel_gives_the_same_events_counters_and_buffers_on_1_2_and_4_threads),
    };
    return ws_run_tests(quick, slow, load, unload);
}
