/* test_emit.c - the output layer (common/emit.h): the one JSON envelope, a document kind's
 * layouts chosen by format, streamed parts (JSON written once, at the tail), and a new format
 * added as one renderer that then renders any document, `check --replay`'s included. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/emit.h"
#include "../cuda/check_replay.h"

/* ---- a trivial document kind: a greeting with text and JSON layouts, no CSV ---------------- */

typedef struct {
    const char *who;
    int times;
} greeting;

static int greet_text(FILE *f, const void *body, ws_part part)
{
    const greeting *g = body;
    if (part == WS_PART_HEAD) fprintf(f, "head\n");
    else if (part == WS_PART_ITEM) fprintf(f, "item\n");
    else if (part == WS_PART_TAIL) fprintf(f, "tail\n");
    else if (part == WS_PART_WHOLE) fprintf(f, "hello %s x%d\n", g->who, g->times);
    return 0;
}

static int greet_json(cJSON *o, const void *body)
{
    const greeting *g = body;
    cJSON_AddStringToObject(o, "who", g->who);
    cJSON_AddNumberToObject(o, "times", g->times);
    return 0;
}

static const ws_doc_kind greeting_kind = {.command = "greet", .text = greet_text, .json = greet_json};

static char *render(ws_format fmt, const ws_doc *doc, ws_part part, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    *rc = ws_emit_part(f, fmt, doc, part);
    fclose(f);
    return buf;
}

/* The extra format: "command: member member ...", from the document's tree alone. */
static int render_keys(FILE *f, const ws_doc *doc, ws_part part)
{
    if (part != WS_PART_WHOLE && part != WS_PART_TAIL) return 0;
    cJSON *t = ws_emit_tree(doc);
    if (!t) return -1;
    fprintf(f, "%s:", cJSON_GetObjectItem(t, "command")->valuestring);
    const cJSON *m;
    cJSON_ArrayForEach(m, t) fprintf(f, " %s", m->string);
    fputc('\n', f);
    cJSON_Delete(t);
    return 0;
}

static void test_every_json_document_opens_with_one_envelope(void **state)
{
    (void)state;
    cJSON *e = ws_json_envelope("sim", "ok");
    const char *want[] = {"schema_version", "status", "tool", "command"};
    int i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, e) assert_string_equal(m->string, want[i++]);
    assert_int_equal(i, 4);
    assert_int_equal(cJSON_GetObjectItem(e, "schema_version")->valueint, WS_JSON_SCHEMA_VERSION);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "tool"), "name")->valuestring, "warpscope");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "tool"), "version")->valuestring, WS_VERSION);
    cJSON_Delete(e);
    e = ws_json_envelope("list", NULL); /* no status: three members */
    assert_int_equal(cJSON_GetArraySize(e), 3);
    assert_null(cJSON_GetObjectItem(e, "status"));
    assert_string_equal(cJSON_GetObjectItem(e, "command")->valuestring, "list");
    cJSON_Delete(e);
}

static void test_the_format_picks_the_kinds_layout_and_a_missing_one_is_refused(void **state)
{
    (void)state;
    greeting g = {"warp", 32};
    ws_doc doc = {&greeting_kind, &g};
    int rc;
    char *t = render(WS_FMT_TEXT, &doc, WS_PART_WHOLE, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(t, "hello warp x32\n");
    free(t);
    t = render(WS_FMT_JSON, &doc, WS_PART_WHOLE, &rc);
    assert_int_equal(rc, 0);
    cJSON *o = cJSON_Parse(t);
    assert_non_null(o);
    assert_string_equal(cJSON_GetObjectItem(o, "command")->valuestring, "greet");
    assert_string_equal(cJSON_GetObjectItem(o, "who")->valuestring, "warp");
    assert_int_equal(cJSON_GetObjectItem(o, "times")->valueint, 32);
    cJSON_Delete(o);
    free(t);
    t = render(WS_FMT_CSV, &doc, WS_PART_WHOLE, &rc); /* the kind has no CSV layout */
    assert_int_equal(rc, WS_EMIT_NOT_OFFERED);
    assert_string_equal(t, "");
    free(t);
    assert_false(ws_emit_offers(WS_FMT_CSV, &greeting_kind));
    assert_true(ws_emit_offers(WS_FMT_TEXT, &greeting_kind));
    assert_int_equal(ws_emit_format(true, false, WS_FMT_MARKDOWN), WS_FMT_JSON);
    assert_int_equal(ws_emit_format(false, true, WS_FMT_MARKDOWN), WS_FMT_CSV);
    assert_int_equal(ws_emit_format(false, false, WS_FMT_MARKDOWN), WS_FMT_MARKDOWN);
}

static void test_a_streamed_document_writes_json_once_at_its_tail(void **state)
{
    (void)state;
    greeting g = {"lane", 1};
    ws_doc doc = {&greeting_kind, &g};
    const ws_part parts[] = {WS_PART_HEAD, WS_PART_ITEM_BEGIN, WS_PART_ITEM, WS_PART_TAIL};
    const char *text_want[] = {"head\n", "", "item\n", "tail\n"};
    for (int i = 0; i < 4; i++) {
        int rc;
        char *t = render(WS_FMT_TEXT, &doc, parts[i], &rc);
        assert_int_equal(rc, 0);
        assert_string_equal(t, text_want[i]);
        free(t);
        t = render(WS_FMT_JSON, &doc, parts[i], &rc);
        assert_int_equal(rc, 0);
        if (parts[i] != WS_PART_TAIL) assert_string_equal(t, "");
        else assert_non_null(strstr(t, "\"who\":\t\"lane\""));
        free(t);
    }
}

/* One record of copy_float whose recorded simulator and GPU values agree (131,072 sectors:
 * 2^20 floats x 4 B / 32 B), as tests/test_check_replay.c writes it. */
static void write_record(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [{\"kernel\": \"copy_float\", \"overrides\": \"\","
               " \"registers\": 10, \"local_bytes\": 0, \"static_shared_bytes\": 0, \"counters\": ["
               "{\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"sim\": 131072, \"gpu\": 131072}]}]}\n");
    fclose(f);
}

static void test_a_new_format_is_one_renderer_for_every_document(void **state)
{
    (void)state;
    int keys = ws_emit_register("keys", render_keys);
    assert_true(keys >= WS_FMT_BUILTIN);
    assert_string_equal(ws_format_name((ws_format)keys), "keys");
    assert_true(ws_emit_offers((ws_format)keys, &greeting_kind));
    greeting g = {"sm", 132};
    int rc;
    char *t = render((ws_format)keys, &(ws_doc){&greeting_kind, &g}, WS_PART_WHOLE, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(t, "greet: schema_version tool command who times\n");
    free(t);

    /* the same renderer, untouched, on a real document: the replay of a recorded run */
    char path[] = "/tmp/ws_test_emit_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_record(path);
    chk_replay_doc d;
    ws_error err;
    assert_int_equal(chk_replay_collect(path, NULL, 0, false, &d, &err), WS_EXIT_OK);
    assert_int_equal(d.nruns, 1);
    assert_int_equal(d.runs[0].nrows, 1);
    assert_int_equal(d.judged[1][CHK_EXACT], 1);
    assert_int_equal(d.agree[1][CHK_EXACT], 1);
    t = render((ws_format)keys, &(ws_doc){&chk_replay_kind, &d}, WS_PART_WHOLE, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(t, "check --replay: schema_version tool command results_file runs device\n");
    free(t);
    /* and the replay's own forms come from the same structure: no text is parsed back */
    t = render(WS_FMT_CSV, &(ws_doc){&chk_replay_kind, &d}, WS_PART_WHOLE, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(t, "copy_float,,kernel,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,131072,measured,agree,\n"));
    assert_non_null(strstr(t, "copy_float,,kernel,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,131072,exact,agree,\n"));
    free(t);
    t = render(WS_FMT_TEXT, &(ws_doc){&chk_replay_kind, &d}, WS_PART_WHOLE, &rc); /* replay is markdown */
    assert_int_equal(rc, WS_EMIT_NOT_OFFERED);
    free(t);
    chk_replay_doc_free(&d);
    unlink(path);

    /* the table has room for WS_FMT_MAX formats, and says so when full */
    int last = keys;
    while (last >= 0) last = ws_emit_register("more", render_keys);
    assert_int_equal(last, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_json_document_opens_with_one_envelope),
        cmocka_unit_test(test_the_format_picks_the_kinds_layout_and_a_missing_one_is_refused),
        cmocka_unit_test(test_a_streamed_document_writes_json_once_at_its_tail),
        cmocka_unit_test(test_a_new_format_is_one_renderer_for_every_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
