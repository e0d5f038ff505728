/* test_memcheck.c - the memory-error summary (sim/interp/memcheck.c and the counts the
 * interpreter keeps in ws_sim_result): with memory errors as warnings every
 * bad lane access is counted under its kind with the first of each kept; the
 * counts follow from the kernel's indexing (tests/data/memcheck/mixed.cu). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../sim/interp/interp.h"
#include "../sim/interp/memcheck.h"
#include "../sim/frontend/catalog_ptx.h"
#include "../sim/frontend/ptx.h"

typedef struct {
    ws_desc_file *file;
    ws_launch L;
    ptx_module *m;
    ws_sim_result res;
    ws_error err;
    int rc;
} mc_run;

static void run(mc_run *r, const char *path, bool warnings)
{
    memset(r, 0, sizeof *r);
    if (ws_desc_load(path, &r->file, &r->err)) fail_msg("%s: %s", path, r->err.msg);
    const ws_kernel_desc *d = &r->file->kernels[0];
    if (ws_desc_resolve(d, NULL, &r->L, &r->err)) fail_msg("%s", r->err.msg);
    r->m = ws_catalog_ptx(r->file, "sm_90", &r->err);
    if (!r->m) fail_msg("%s: %s", path, r->err.msg);
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = r->m;
    cfg.fn = ptx_find_function(r->m, d->entry);
    assert_non_null(cfg.fn);
    cfg.launch = &r->L;
    cfg.source_file = r->file->path;
    cfg.memory_errors_are_warnings = warnings;
    r->rc = ws_sim_run(&cfg, &r->res, &r->err);
}

static void done(mc_run *r)
{
    ws_sim_result_free(&r->res);
    ptx_free(r->m);
    ws_desc_free(r->file);
}

static int line_of(const ws_desc_file *f, const char *marker)
{
    const char *p = strstr(f->source, marker);
    if (!p) fail_msg("no marker %s", marker);
    int line = 1;
    for (const char *q = f->source; q < p; q++) line += *q == '\n';
    return line;
}

static void test_each_kind_is_counted_with_its_first_occurrence(void **state)
{
    (void)state;
    mc_run r;
    run(&r, "tests/data/memcheck/mixed.cu", true);
    assert_int_equal(r.rc, 0);
    /* all 32 lanes read in[32..63] (in holds 32 floats); lane 5 reads s[37] of s[32];
     * lane 7 loads 4 bytes at in + 29 */
    assert_int_equal(r.res.memerr_count[WS_MEMERR_GLOBAL], 32);
    assert_int_equal(r.res.memerr_count[WS_MEMERR_SHARED], 1);
    assert_int_equal(r.res.memerr_count[WS_MEMERR_MISALIGNED], 1);
    assert_int_equal(r.res.memerr_count[WS_MEMERR_LOCAL] + r.res.memerr_count[WS_MEMERR_CONST] +
                     r.res.memerr_count[WS_MEMERR_PARAM], 0);
    assert_int_equal(r.res.memory_warnings, 34);
    char want[64], g[WS_MSG_MAX], sh[WS_MSG_MAX], mis[WS_MSG_MAX], first[WS_MSG_MAX];
    ws_fault_format(&r.res.memerr_first[WS_MEMERR_GLOBAL], g, sizeof g);
    ws_fault_format(&r.res.memerr_first[WS_MEMERR_SHARED], sh, sizeof sh);
    ws_fault_format(&r.res.memerr_first[WS_MEMERR_MISALIGNED], mis, sizeof mis);
    /* first global: lane 0 reads in[32], whose 4 bytes end 4 past the 128-byte buffer */
    snprintf(want, sizeof want, "mixed.cu:%d:", line_of(r.file, "bad-global"));
    assert_non_null(strstr(g, want));
    assert_non_null(strstr(g, "warp 0 lane 0: global load of 4 bytes"));
    assert_non_null(strstr(g, "is 4 bytes past the end of buffer 'in' (128 bytes)"));
    snprintf(want, sizeof want, "mixed.cu:%d:", line_of(r.file, "bad-shared"));
    assert_non_null(strstr(sh, want));
    assert_non_null(strstr(sh, "lane 5: shared load of 4 bytes at offset 0x94"));
    snprintf(want, sizeof want, "mixed.cu:%d:", line_of(r.file, "bad-align"));
    assert_non_null(strstr(mis, want));
    assert_non_null(strstr(mis, "lane 7: global load of 4 bytes"));
    assert_non_null(strstr(mis, "is misaligned"));
    /* the records carry the same facts as fields: kind, where, line, tool */
    const ws_fault *fs = &r.res.memerr_first[WS_MEMERR_SHARED];
    assert_int_equal(fs->kind, WS_FAULT_MEMORY);
    assert_int_equal(fs->mem, WS_MEMERR_SHARED);
    assert_int_equal(fs->tool, WS_TOOL_MEMCHECK);
    assert_int_equal(fs->warp, 0);
    assert_int_equal(fs->lane, 5);
    assert_int_equal(fs->src_line, line_of(r.file, "bad-shared"));
    assert_true(fs->pc >= 0);
    assert_int_equal(r.res.memerr_first[WS_MEMERR_MISALIGNED].lane, 7);
    assert_int_equal(r.res.memerr_first[WS_MEMERR_MISALIGNED].mem, WS_MEMERR_MISALIGNED);
    /* the overall first is the first of the kind that happened first */
    ws_fault_format(&r.res.first_warning, first, sizeof first);
    assert_string_equal(first, g);
    done(&r);
}

static void test_the_summary_prints_each_kind_and_a_total_that_adds_up(void **state)
{
    (void)state;
    mc_run r;
    run(&r, "tests/data/memcheck/mixed.cu", true);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(ws_memcheck_print(&r.res, out), 34);
    fclose(out);
    assert_non_null(strstr(text, "memcheck: 32 global out of bounds accesses; the first: "));
    assert_non_null(strstr(text, "memcheck: 1 shared out of bounds access; the first: "));
    assert_non_null(strstr(text, "memcheck: 1 misaligned access; the first: "));
    assert_non_null(strstr(text, "memcheck summary: 34 memory errors"));
    assert_null(strstr(text, "local out of bounds"));
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 4);                           /* three kinds and the total */
    free(text);
    done(&r);
}

static void test_without_warnings_the_first_memory_error_stops_the_run(void **state)
{
    (void)state;
    mc_run r;
    run(&r, "tests/data/memcheck/mixed.cu", false);
    assert_int_equal(r.rc, -1);
    assert_int_equal(r.err.line, line_of(r.file, "bad-global"));
    assert_non_null(strstr(r.err.msg, "mixed_memory_errors: block (0,0,0) warp 0 lane 0: global load"));
    assert_int_equal(r.res.memory_warnings, 0);
    done(&r);
}

static void test_a_clean_run_has_no_memory_errors_and_prints_nothing(void **state)
{
    (void)state;
    mc_run r;
    run(&r, "tests/data/planted/uninit_shared.cu", true);  /* wrong values, but every access in bounds */
    assert_int_equal(r.rc, 0);
    for (int k = 0; k < WS_MEMERR_KINDS; k++) assert_int_equal(r.res.memerr_count[k], 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(ws_memcheck_print(&r.res, out), 0);
    fclose(out);
    assert_int_equal(len, 0);
    free(text);
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_kind_is_counted_with_its_first_occurrence),
        cmocka_unit_test(test_the_summary_prints_each_kind_and_a_total_that_adds_up),
        cmocka_unit_test(test_without_warnings_the_first_memory_error_stops_the_run),
        cmocka_unit_test(test_a_clean_run_has_no_memory_errors_and_prints_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
