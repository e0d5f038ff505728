/* test_report.c - the sim report: a synthetic naive transpose (coalesced loads on
 * line 3, stores strided by a row on line 4, a padded shared read on line 5) must
 * flag line 4 only, and the text, JSON and CSV forms must carry the same totals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/csv.h"
#include "../sim/report/report.h"

static const char *SOURCE = "// k.cu\n__global__ void k(float *in, float *out, int n) {\n"
                            "    float v = in[i];\n    out[j * n] = v;\n    float s = tile[t][c];\n}\n";

typedef struct {
    ws_launch launch;
    ws_occupancy occ;
    ws_memstats *ms;
    ws_timing timing;
    ws_report rep;
} fixture;

static void build(fixture *fx, int store_stride_floats)
{
    memset(fx, 0, sizeof *fx);
    const ws_device *d = ws_device_find("h200");
    assert_non_null(d);
    fx->launch.grid[0] = 4; fx->launch.grid[1] = fx->launch.grid[2] = 1;
    fx->launch.block[0] = 32; fx->launch.block[1] = fx->launch.block[2] = 1;
    fx->launch.bytes_moved = 4 * 2 * 128;
    ws_occ_input in = {32, 10, 0, 0, -1, 1};
    ws_occupancy_calc(d, &in, &fx->occ);
    ws_models *models = ws_models_new(d, &fx->launch, fx->occ.l1_bytes);
    ws_latency *lat = ws_latency_new(d, &fx->launch);
    fx->ms = ws_memstats_new(d, &fx->launch, 3);
    ws_models_add_sink(models, ws_memstats_verdict, fx->ms);
    ws_models_add_sink(models, ws_latency_verdict, lat);
    for (uint32_t b = 0; b < 4; b++) {
        ws_mem_event ev;
        memset(&ev, 0, sizeof ev);
        ev.block_linear = b;
        ev.active_mask = 0xFFFFFFFFu;
        ev.width = 4;
        ev.space = WS_SPACE_GLOBAL;
        ev.op = WS_MEM_LOAD;
        ev.pc = 0;
        ev.src_line = 3;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 0x100000000ull + 128u * b + 4u * (uint64_t)l;
        ws_models_listener(models, &ev);
        ev.op = WS_MEM_STORE;
        ev.pc = 1;
        ev.src_line = 4;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 0x200000000ull + (store_stride_floats == 1 ? 128u : 4u) * b +
                          4u * (uint64_t)(store_stride_floats * l); /* column b, or row b when fixed */
        ws_models_listener(models, &ev);
        ev.space = WS_SPACE_SHARED;
        ev.op = WS_MEM_LOAD;
        ev.pc = 2;
        ev.src_line = 5;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = 4u * (uint64_t)(33 * l); /* padded tile column */
        ws_models_listener(models, &ev);
    }
    ws_models_finish(models);
    ws_memstats_finish(fx->ms, ws_models_cache_totals(models));
    ws_latency_finish(lat);
    ws_timing_input ti;
    ws_timing_input_from_memstats(fx->ms, lat, &fx->occ, 40, fx->launch.bytes_moved, &ti);
    ws_latency_free(lat);
    ws_models_free(models);
    ws_timing_predict(d, &ti, &fx->timing);
    ws_report *r = &fx->rep;
    r->kernel = "k";
    r->entry = "_Z1kPfS_i";
    r->source_path = "k.cu";
    r->source_text = SOURCE;
    r->kernel_line = 1;
    r->launch = &fx->launch;
    r->dev = d;
    r->regs = 10;
    r->regs_source = "test";
    r->occ = &fx->occ;
    r->ms = fx->ms;
    r->timing = &fx->timing;
    r->warp_insns = 40;
}

static void test_only_the_strided_store_line_is_flagged(void **state)
{
    (void)state;
    fixture fx;
    build(&fx, 1024);
    ws_line_row *rows;
    int n = ws_report_lines(&fx.rep, &rows);
    assert_int_equal(n, 3);
    assert_int_equal(rows[0].line, 3);
    assert_false(rows[0].poor);
    assert_int_equal(rows[0].sectors, 4 * 4);
    assert_int_equal(rows[1].line, 4);
    assert_true(rows[1].poor); /* 32 sectors per request where 4 would do */
    assert_int_equal(rows[1].sectors, 4 * 32);
    assert_int_equal(rows[1].ideal_sectors, 4 * 4);
    assert_non_null(strstr(rows[1].flag, "uncoalesced"));
    assert_int_equal(rows[2].line, 5);
    assert_false(rows[2].poor);
    assert_int_equal(rows[2].wavefronts, 4);
    assert_string_equal(rows[2].kinds, "ld.shared.4");
    free(rows);
    ws_memstats_free(fx.ms);
}

static char *capture(void (*fn)(FILE *, const ws_report *, const ws_report *), const ws_report *a, const ws_report *b)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, a, b);
    fclose(f);
    return buf;
}

static void text_all(FILE *f, const ws_report *a, const ws_report *b) { (void)b; ws_report_text(f, a, true); }
static void text_mem(FILE *f, const ws_report *a, const ws_report *b) { (void)b; ws_report_text(f, a, false); }
static void json(FILE *f, const ws_report *a, const ws_report *b) { (void)b; assert_int_equal(ws_report_json(f, a), 0); }
static void csv(FILE *f, const ws_report *a, const ws_report *b) { (void)b; ws_report_csv(f, a, "", true); }

static void test_text_report_names_metrics_lines_and_the_prediction(void **state)
{
    (void)state;
    fixture fx;
    build(&fx, 1024);
    char *t = capture(text_mem, &fx.rep, NULL);
    assert_non_null(strstr(t, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
    assert_non_null(strstr(t, "out[j * n] = v;"));
    assert_non_null(strstr(t, "uncoalesced"));
    assert_non_null(strstr(t, "predicted"));
    assert_null(strstr(t, "__global__ void k")); /* not a memory line */
    free(t);
    t = capture(text_all, &fx.rep, NULL); /* --lines: the whole kernel */
    assert_non_null(strstr(t, "__global__ void k"));
    free(t);
    ws_memstats_free(fx.ms);
}

static void test_json_and_csv_carry_the_same_totals(void **state)
{
    (void)state;
    fixture fx;
    build(&fx, 1024);
    ws_metric rows[128];
    int n = ws_memstats_metrics(fx.ms, rows, 128);
    char *j = capture(json, &fx.rep, NULL);
    cJSON *o = cJSON_Parse(j);
    assert_non_null(o);
    cJSON *tot = cJSON_GetObjectItem(o, "totals");
    assert_int_equal(cJSON_GetArraySize(tot), n);
    for (int i = 0; i < n; i++) {
        cJSON *m = cJSON_GetArrayItem(tot, i);
        assert_string_equal(cJSON_GetObjectItem(m, "name")->valuestring, rows[i].name);
        assert_true(cJSON_GetObjectItem(m, "value")->valuedouble == rows[i].value);
    }
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "lines")), 3);
    cJSON_Delete(o);
    free(j);

    char *c = capture(csv, &fx.rep, NULL);
    assert_memory_equal(c, WS_CSV_HEADER, strlen(WS_CSV_HEADER));
    int kernel_rows = 0;
    for (char *p = c; (p = strstr(p, "\nk,,kernel,,")); p++)
        kernel_rows++;
    assert_int_equal(kernel_rows, n + 3); /* metrics + time, bandwidth, occupancy */
    assert_non_null(strstr(c, "\nk,,line,4,sectors,sector,128,exact,,\n"));
    free(c);
    ws_memstats_free(fx.ms);
}

static void test_compare_shows_both_variants_and_the_ratio(void **state)
{
    (void)state;
    fixture a, b;
    build(&a, 1024);
    build(&b, 1); /* the fixed variant: stores coalesced too */
    char *t = capture(ws_report_compare, &a.rep, &b.rep);
    assert_non_null(strstr(t, "B/A"));
    /* store sectors: 128 for A, 16 for B -> ratio 0.12 */
    char *row = strstr(t, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    assert_non_null(row);
    long va, vb;
    assert_int_equal(sscanf(row + strlen("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), "%ld %ld", &va, &vb), 2);
    assert_int_equal(va, 128);
    assert_int_equal(vb, 16);
    free(t);
    ws_memstats_free(a.ms);
    ws_memstats_free(b.ms);
}

/* ---- the documents of sim for common/emit.h: each in each form it offers ----------------- */

static char *emit_to(ws_format fmt, const ws_doc_kind *kind, const void *body, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    *rc = ws_emit(f, fmt, &(ws_doc){kind, body});
    fclose(f);
    return buf;
}

/* A format added by the test: the document's tree on one line (NDJSON). */
static int render_ndjson(FILE *f, const ws_doc *doc, ws_part part)
{
    (void)part;
    cJSON *t = ws_emit_tree(doc);
    char *s = t ? cJSON_PrintUnformatted(t) : NULL;
    cJSON_Delete(t);
    if (!s) return -1;
    fprintf(f, "%s\n", s);
    free(s);
    return 0;
}

static int count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++) n++;
    return n;
}

static void test_every_sim_document_renders_in_each_of_its_forms(void **state)
{
    (void)state;
    fixture a, b;
    build(&a, 1024);
    build(&b, 1);
    a.rep.overrides = "N=32";
    ws_sim_doc one = {.a = &a.rep}, two = {.a = &a.rep, .b = &b.rep, .all_lines = true};
    ws_fault fault = {.kind = WS_FAULT_MEMORY, .mem = WS_MEMERR_GLOBAL, .tool = WS_TOOL_MEMCHECK,
                      .block = {1, 0, 0}, .warp = 0, .lane = 3, .pc = 2, .src_line = 4, .ptx_line = 20,
                      .file = "k.cu", .kernel = "k", .msg = "global store out of bounds"};
    ws_sim_fault_doc fd = {&a.rep, &fault};
    int rc;

    char *t = emit_to(WS_FMT_TEXT, &ws_report_kind, &one, &rc);
    assert_int_equal(rc, 0);
    assert_memory_equal(t, "warpscope sim: k (k.cu:1)", strlen("warpscope sim: k (k.cu:1)"));
    free(t);
    t = emit_to(WS_FMT_CSV, &ws_report_kind, &one, &rc); /* the -D text is the variant */
    assert_int_equal(rc, 0);
    assert_non_null(strstr(t, "\nk,N=32,line,4,sectors,sector,128,exact,,\n"));
    free(t);
    t = emit_to(WS_FMT_MARKDOWN, &ws_report_kind, &one, &rc);
    assert_int_equal(rc, WS_EMIT_NOT_OFFERED);
    free(t);

    t = emit_to(WS_FMT_TEXT, &ws_report_compare_kind, &two, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(t, "B/A"));
    assert_non_null(strstr(t, "\nA = k"));          /* --lines: both per-line tables */
    assert_non_null(strstr(t, "\nB = k"));
    free(t);
    t = emit_to(WS_FMT_CSV, &ws_report_compare_kind, &two, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(count_of(t, WS_CSV_HEADER), 1); /* one header for both variants */
    assert_non_null(strstr(t, "\nk,A,line,4,sectors,sector,128,exact,,\n"));
    assert_non_null(strstr(t, "\nk,B,line,4,sectors,sector,16,exact,,\n"));
    free(t);
    t = emit_to(WS_FMT_JSON, &ws_report_compare_kind, &two, &rc);
    assert_int_equal(rc, 0);
    cJSON *o = cJSON_Parse(t);
    assert_non_null(o);
    assert_string_equal(cJSON_GetObjectItem(o, "command")->valuestring, "sim --compare");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "variants")), 2);
    cJSON *v1 = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "variants"), 1);
    assert_string_equal(cJSON_GetObjectItem(v1, "command")->valuestring, "sim"); /* a whole sim document */
    assert_string_equal(cJSON_GetObjectItem(v1, "status")->valuestring, "ok");
    cJSON *vd = cJSON_GetObjectItem(o, "verdict");    /* which is faster: A's time over B's */
    assert_non_null(vd);
    double want = a.timing.t_kernel_us / b.timing.t_kernel_us;
    assert_true(fabs(cJSON_GetObjectItem(vd, "ratio_a_over_b")->valuedouble - want) <= 1e-12 * want);
    assert_string_equal(cJSON_GetObjectItem(vd, "faster")->valuestring, want > 1 ? "B" : want < 1 ? "A" : "same");
    cJSON_Delete(o);
    free(t);

    t = emit_to(WS_FMT_JSON, &ws_report_fault_kind, &fd, &rc);
    assert_int_equal(rc, 0);
    o = cJSON_Parse(t);
    assert_non_null(o);
    assert_string_equal(cJSON_GetObjectItem(o, "status")->valuestring, "fault");
    cJSON *f0 = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "findings"), 0);
    assert_int_equal(cJSON_GetObjectItem(f0, "line")->valueint, 4);
    assert_string_equal(cJSON_GetObjectItem(f0, "tool")->valuestring, "memcheck");
    /* warp 0 lane 3 of a 32x1x1 block is threadIdx (3,0,0) */
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(f0, "threadIdx"), 0)->valueint, 3);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(f0, "blockIdx"), 0)->valueint, 1);
    cJSON_Delete(o);
    free(t);
    t = emit_to(WS_FMT_TEXT, &ws_report_fault_kind, &fd, &rc); /* the text says it on stderr, not here */
    assert_int_equal(rc, WS_EMIT_NOT_OFFERED);
    free(t);

    /* one renderer added, and all three documents render in it */
    int nd = ws_emit_register("ndjson", render_ndjson);
    assert_true(nd >= WS_FMT_BUILTIN);
    const ws_doc_kind *kinds[] = {&ws_report_kind, &ws_report_compare_kind, &ws_report_fault_kind};
    const void *bodies[] = {&one, &two, &fd};
    const char *commands[] = {"sim", "sim --compare", "sim"};
    for (int i = 0; i < 3; i++) {
        t = emit_to((ws_format)nd, kinds[i], bodies[i], &rc);
        assert_int_equal(rc, 0);
        assert_int_equal(count_of(t, "\n"), 1);
        o = cJSON_Parse(t);
        assert_non_null(o);
        assert_string_equal(cJSON_GetObjectItem(o, "command")->valuestring, commands[i]);
        cJSON_Delete(o);
        free(t);
    }
    ws_memstats_free(a.ms);
    ws_memstats_free(b.ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_the_strided_store_line_is_flagged),
        cmocka_unit_test(test_text_report_names_metrics_lines_and_the_prediction),
        cmocka_unit_test(test_json_and_csv_carry_the_same_totals),
        cmocka_unit_test(test_compare_shows_both_variants_and_the_ratio),
        cmocka_unit_test(test_every_sim_document_renders_in_each_of_its_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
