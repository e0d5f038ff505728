/* test_interp.c - the warp interpreter (sim/interp.c and friends) on real
 * nvcc PTX from the .cu files in tests/data/interp: divergence and reconvergence (masks
 * and the order of memory events), barriers and their misuse, bounds,
 * budget, warp-level operations, atomics, conversions, memory spaces.
 * Expectations are computed here from the kernels' C semantics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/interp.h"

#define DATA "tests/data/interp/"

/* --- harness ---------------------------------------------------------------- */

typedef struct {
    int n, cap;
    ws_mem_event *ev;
} capture;

static void on_event(void *ctx, const ws_mem_event *ev)
{
    capture *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->ev = realloc(c->ev, (size_t)c->cap * sizeof *c->ev);
        assert_non_null(c->ev);
    }
    c->ev[c->n++] = *ev;
}

typedef struct {
    ptx_module *mod;
    const ptx_function *fn;
    ws_launch L;
    ws_sim_config cfg;
    ws_sim_result res;
    ws_error err;
    capture cap;
    int rc;
} run_t;

static ptx_module *load_module(const char *file)
{
    ws_error e;
    char path[256];
    snprintf(path, sizeof path, DATA "%s", file);
    ptx_module *m = ptx_load(path, &e);
    if (!m) fail_msg("%s:%d: %s", e.file, e.line, e.msg);
    return m;
}

static void setup(run_t *r, const char *file, const char *kernel, uint32_t gx, uint32_t gy, uint32_t bx,
                  uint32_t by, uint32_t bz)
{
    memset(r, 0, sizeof *r);
    r->mod = load_module(file);
    r->fn = ptx_find_function(r->mod, kernel);
    assert_non_null(r->fn);
    r->L.grid[0] = gx; r->L.grid[1] = gy; r->L.grid[2] = 1;
    r->L.block[0] = bx; r->L.block[1] = by; r->L.block[2] = bz;
    r->cfg.module = r->mod;
    r->cfg.fn = r->fn;
    r->cfg.launch = &r->L;
    r->cfg.source_file = "k.cu";
}

/* Adds a buffer and passes it as the next argument. */
static void buf(run_t *r, const char *name, ws_type t, uint64_t count, ws_init_kind init)
{
    ws_buffer *b = &r->L.buffers[r->L.nbuffers];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->type = t;
    b->count = count;
    b->bytes = count * ws_type_size(t);
    b->init = init;
    r->L.args[r->L.nargs].kind = WS_ARG_BUFFER;
    r->L.args[r->L.nargs++].buffer = r->L.nbuffers++;
}

static void arg_int(run_t *r, int64_t v)
{
    r->L.args[r->L.nargs].kind = WS_ARG_INT;
    r->L.args[r->L.nargs++].ivalue = v;
}

static int run(run_t *r, bool listen)
{
    if (listen) { r->cfg.listener = on_event; r->cfg.listener_ctx = &r->cap; }
    r->rc = ws_sim_run(&r->cfg, &r->res, &r->err);
    return r->rc;
}

static void run_ok(run_t *r, bool listen)
{
    if (run(r, listen)) {
        char msg[1200];
        ws_error_format(&r->err, msg, sizeof msg);
        fail_msg("%s", msg);
    }
}

__attribute__((unused)) static char *error_text(run_t *r)
{
    static char msg[1200];
    ws_error_format(&r->err, msg, sizeof msg);
    return msg;
}

static void teardown(run_t *r)
{
    ws_sim_result_free(&r->res);
    ptx_free(r->mod);
    free(r->cap.ev);
}

/* Fills input buffer i after the run has allocated it? No: inputs come from
 * ws_buffer_fill, so tests pick init kinds (index, const) whose contents they
 * know: index gives element k the value k. */

__attribute__((unused)) static const int32_t *ints(run_t *r, int i) { return r->res.buffer_data[i]; }
__attribute__((unused)) static const uint32_t *uints(run_t *r, int i) { return r->res.buffer_data[i]; }
static const float *floats(run_t *r, int i) { return r->res.buffer_data[i]; }

/* Index of the int element an event's lane touched in buffer i. */
static int64_t elem_of(run_t *r, const ws_mem_event *ev, int lane, int i, int size)
{
    return (int64_t)(ev->addr[lane] - r->res.buffer_base[i]) / size;
}

/* Active mask and element range (first lane's element / 32) of each global store. */
__attribute__((unused)) static int stores(run_t *r, uint32_t *masks, int *region, int max)
{
    int k = 0;
    for (int e = 0; e < r->cap.n && k < max; e++) {
        const ws_mem_event *ev = &r->cap.ev[e];
        if (ev->op != WS_MEM_STORE || ev->space != WS_SPACE_GLOBAL) continue;
        masks[k] = ev->active_mask;
        region[k] = (int)(elem_of(r, ev, __builtin_ctz(ev->active_mask), 0, 4) / 32);
        k++;
    }
    return k;
}

/* --- vertical slice: copy ------------------------------------------------- */

static void test_copy_kernel_copies_and_emits_one_load_and_one_store_per_warp(void **state)
{
    (void)state;
    run_t r;
    setup(&r, "mem.ptx", "copy", 4, 1, 64, 1, 1);
    buf(&r, "in", WS_TYPE_FLOAT, 256, WS_INIT_INDEX);
    buf(&r, "out", WS_TYPE_FLOAT, 256, WS_INIT_ZERO);
    arg_int(&r, 250);
    run_ok(&r, true);
    for (int i = 0; i < 256; i++) assert_true(floats(&r, 1)[i] == (i < 250 ? (float)i : 0.0f));
    /* 8 warps, each one ld.global and one st.global: 16 events, load then store */
    assert_int_equal(r.cap.n, 16);
    assert_int_equal(r.res.mem_events, 16);
    for (int w = 0; w < 8; w++) {
        const ws_mem_event *ld = &r.cap.ev[2 * w], *st = &r.cap.ev[2 * w + 1];
        assert_int_equal(ld->op, WS_MEM_LOAD);
        assert_int_equal(st->op, WS_MEM_STORE);
        assert_int_equal(ld->warp_global, w);
        assert_int_equal(ld->block_linear, w / 2);
        assert_int_equal(ld->warp, w % 2);
        assert_int_equal(ld->width, 4);
        assert_int_equal(ld->src_line, 6);
        /* the last warp holds threads 224..255: 250..255 fail i < n */
        uint32_t want = w == 7 ? 0x03ffffffu : 0xffffffffu;
        assert_int_equal(ld->active_mask, want);
        assert_int_equal(st->active_mask, want);
        for (int l = 0; l < 32; l++) {
            if (!(want >> l & 1)) { assert_int_equal(ld->addr[l], 0); continue; }
            assert_int_equal(ld->addr[l], r.res.buffer_base[0] + 4 * (uint64_t)(w * 32 + l));
            assert_int_equal(st->addr[l], r.res.buffer_base[1] + 4 * (uint64_t)(w * 32 + l));
        }
    }
    /* buffers live at WS_GLOBAL_BASE, aligned */
    assert_int_equal(r.res.buffer_base[0], WS_GLOBAL_BASE);
    assert_int_equal(r.res.buffer_base[1] % WS_GLOBAL_ALIGN, 0);
    assert_true(r.res.thread_insns > 0 && r.res.warp_insns > 0);
    teardown(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_kernel_copies_and_emits_one_load_and_one_store_per_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
