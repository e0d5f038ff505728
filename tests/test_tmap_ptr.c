/* test_tmap_ptr.c - a tensor map passed by pointer (`const CUtensorMap *`, a buffer declared
 * init=tmap(NAME): common/desc.c, sim/interp/interp.c, sim/interp/exec_bulk.c) through the whole
 * pipeline, against the same map as a __grid_constant__ parameter. Kernels:
 * tests/data/tmap/tmap_ptr.cu (the box at (16, 8) of a 64 x 32 float tensor, 32 x 8, 128-byte
 * swizzle, its raw shared bytes copied out). The expected bytes follow the CUDA driver's
 * description of CU_TENSOR_MAP_SWIZZLE_128B (16-byte chunks XORed within each 128-byte row by the
 * row's index mod 8), written out here per row and chunk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/desc.h"
#include "../sim/simulate.h"

#define CU "tests/data/tmap/tmap_ptr.cu"

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

typedef struct {
    ws_simulation s;
    ws_error err;
    int rc;
    char msg[WS_PATH_MAX + WS_MSG_MAX + 64];
} run_t;

static void run(run_t *r, const char *arg, const char *define)
{
    memset(r, 0, sizeof *r);
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    if (define && ws_overrides_add(&ov, define, &r->err)) fail_msg("%s", r->err.msg);
    r->rc = ws_simulation_open(&r->s, cat, arg, &ov, ws_device_find("h200"), NULL, &r->err);
    if (r->rc == WS_EXIT_OK) {
        ws_simulation_opts o;
        memset(&o, 0, sizeof o);
        o.max_thread_insns = 10000000;
        o.threads = 1;
        r->rc = ws_simulation_run(&r->s, &o, &r->err);
    }
    if (r->rc) ws_error_format(&r->err, r->msg, sizeof r->msg);
}

/* 1-based line of the comment "/" "* marker *" "/" in the .cu. */
static int marker_line(const run_t *r, const char *marker)
{
    char want[64];
    snprintf(want, sizeof want, "/* %s */", marker);
    const char *src = r->s.file->source, *p = strstr(src, want);
    if (!p) fail_msg("%s has no marker '%s'", r->s.file->path, marker);
    int line = 1;
    for (const char *q = src; q < p; q++) line += *q == '\n';
    return line;
}

/* Byte offset in the tile of box element (i0, i1): rows of 32 floats = 128 bytes; under the 128-byte
 * swizzle, the 16-byte chunk c of row i1 sits at chunk c ^ (i1 mod 8) of the same row. */
static uint64_t swizzled_128(uint32_t i0, uint32_t i1)
{
    uint32_t byte = i0 * 4, chunk = byte / 16;
    return (uint64_t)i1 * 128 + ((chunk ^ (i1 % 8)) * 16) + byte % 16;
}

/* out holds the 32 x 8 box at (16, 8) of the 64-wide float tensor a, swizzled. */
static void expect_box(const float *a, const uint8_t *out)
{
    for (uint32_t i1 = 0; i1 < 8; i1++)
        for (uint32_t i0 = 0; i0 < 32; i0++) {
            float got, want = a[(8 + i1) * 64 + 16 + i0];
            memcpy(&got, out + swizzled_128(i0, i1), 4);
            if (got != want || want < 1)       /* randint(5, 1, 1000): never 0, so a missing copy shows */
                fail_msg("box element (%u, %u): %g, want %g", i0, i1, (double)got, (double)want);
        }
}

static void test_a_map_by_pointer_loads_the_same_box_as_the_grid_constant_map(void **state)
{
    (void)state;
    run_t v, p;
    run(&v, CU ":tma_by_value", NULL);
    if (v.rc) fail_msg("%s", v.msg);
    run(&p, CU ":tma_by_pointer", NULL);
    if (p.rc) fail_msg("%s", p.msg);
    /* buffers in declaration order: by value A, out; by pointer A, tA_ptr, out */
    expect_box(v.s.result.buffer_data[0], v.s.result.buffer_data[1]);
    expect_box(p.s.result.buffer_data[0], p.s.result.buffer_data[2]);
    assert_memory_equal(v.s.result.buffer_data[1], p.s.result.buffer_data[2], 1024);
    ws_simulation_close(&v.s);
    ws_simulation_close(&p.s);
}

static void test_a_pointer_to_a_buffer_without_a_map_is_an_error_at_its_line(void **state)
{
    (void)state;
    run_t r;
    run(&r, CU ":tma_pointer_no_map", NULL);
    assert_int_not_equal(r.rc, 0);
    char want[96];
    snprintf(want, sizeof want, "tmap_ptr.cu:%d:", marker_line(&r, "no-map call"));
    if (!strstr(r.msg, want) || !strstr(r.msg, "buffer 'junk'") || !strstr(r.msg, "hold no tensor map") ||
        !strstr(r.msg, "init=tmap(NAME)"))
        fail_msg("got: %s (wanted %s and the buffer)", r.msg, want);
    ws_simulation_close(&r.s);
}

static void test_a_map_pointer_off_its_64_byte_alignment_is_an_error_at_its_line(void **state)
{
    (void)state;
    run_t r;
    run(&r, CU ":tma_by_pointer", "SKEW=16");
    assert_int_not_equal(r.rc, 0);
    char want[96];
    snprintf(want, sizeof want, "tmap_ptr.cu:%d:", marker_line(&r, "by-pointer call"));
    if (!strstr(r.msg, want) || !strstr(r.msg, "not aligned to 64 bytes") || !strstr(r.msg, "16 past") ||
        !strstr(r.msg, "'tA_ptr'"))
        fail_msg("got: %s (wanted %s)", r.msg, want);
    ws_simulation_close(&r.s);
}

/* ---- the description's rules for init=tmap ---------------------------------------------------- */

static void parse_fails(const char *text, int line, int col, const char *want)
{
    ws_desc_file *f = NULL;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (!ws_desc_parse("t.cu", text, &f, &err)) {
        ws_desc_free(f);
        fail_msg("parse succeeded, expected '%s'", want);
    }
    if (err.line != line || err.col != col || !strstr(err.msg, want))
        fail_msg("got %d:%d: %s; expected %d:%d: ...%s...", err.line, err.col, err.msg, line, col, want);
}

#define HEAD "/*@warpscope\nkernel k\nbuffer a float 256\n"
#define TAIL "grid 1\nblock 32\nargs p\n*/\n__global__ void k(const void *p) {}\n"

static void test_init_tmap_names_an_earlier_tmap_and_a_128_byte_non_output_buffer(void **state)
{
    (void)state;
    parse_fails(HEAD "buffer p uchar 128 init=tmap(ta)\ntmap ta a dims=64,4 box=16,4\n" TAIL, 4, 30,
                "init=tmap(ta) names no tmap line before it");
    parse_fails(HEAD "tmap ta a dims=64,4 box=16,4\nbuffer p uchar 128 init=tmap\n" TAIL, 5, 29,
                "tmap(NAME)");
    parse_fails(HEAD "tmap ta a dims=64,4 box=16,4\nbuffer p uchar 128 init=tmap(ta) output\n" TAIL, 5, 8,
                "cannot be an output");
    ws_desc_file *f = NULL;
    ws_error err;
    if (ws_desc_parse("t.cu", HEAD "tmap ta a dims=64,4 box=16,4\nbuffer p uchar 64*2 init=tmap(ta)\n" TAIL, &f, &err))
        fail_msg("%s", err.msg);
    ws_launch L;
    if (ws_desc_resolve(&f->kernels[0], NULL, &L, &err)) fail_msg("%s", err.msg);
    assert_int_equal(L.buffers[1].init, WS_INIT_TMAP);
    assert_int_equal(L.buffers[1].tmap, 0);
    ws_desc_free(f);
    if (ws_desc_parse("t.cu", HEAD "tmap ta a dims=64,4 box=16,4\nbuffer p uint 64 init=tmap(ta)\n" TAIL, &f, &err))
        fail_msg("%s", err.msg);
    assert_int_not_equal(ws_desc_resolve(&f->kernels[0], NULL, &L, &err), 0);
    assert_int_equal(err.line, 5);
    if (!strstr(err.msg, "must be 128 bytes") || !strstr(err.msg, "not 256"))
        fail_msg("got %s", err.msg);
    ws_desc_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_map_by_pointer_loads_the_same_box_as_the_grid_constant_map),
        cmocka_unit_test(test_a_pointer_to_a_buffer_without_a_map_is_an_error_at_its_line),
        cmocka_unit_test(test_a_map_pointer_off_its_64_byte_alignment_is_an_error_at_its_line),
        cmocka_unit_test(test_init_tmap_names_an_earlier_tmap_and_a_128_byte_non_output_buffer),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
