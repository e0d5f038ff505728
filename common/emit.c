/* emit.c - the format table behind ws_emit (see emit.h): text, CSV and markdown hand the
 * document to its kind's layout, JSON builds the envelope and the kind's members and prints
 * them once; a registered format is one more row.
 * Invariant: the envelope is made here only, so every JSON document carries the same one. */
#include "emit.h"

#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "text.h"

static int layout(FILE *f, ws_layout_fn fn, const ws_doc *doc, ws_part part)
{
    if (!fn)
        return WS_EMIT_NOT_OFFERED;
    return fn(f, doc->body, part);
}

static int render_text(FILE *f, const ws_doc *doc, ws_part part) { return layout(f, doc->kind->text, doc, part); }
static int render_csv(FILE *f, const ws_doc *doc, ws_part part) { return layout(f, doc->kind->csv, doc, part); }
static int render_markdown(FILE *f, const ws_doc *doc, ws_part part)
{
    return layout(f, doc->kind->markdown, doc, part);
}

/* One document, printed once: a streamed document's parts before its tail write nothing. */
static int render_json(FILE *f, const ws_doc *doc, ws_part part)
{
    if (!doc->kind->json)
        return WS_EMIT_NOT_OFFERED;
    if (part != WS_PART_WHOLE && part != WS_PART_TAIL)
        return 0;
    cJSON *o = ws_emit_tree(doc);
    char *s = o ? ws_json_print(o) : NULL;
    cJSON_Delete(o);
    if (!s)
        return -1;
    fprintf(f, "%s\n", s);
    free(s);
    return 0;
}

static struct {
    const char *name;
    ws_render_fn render;
} formats[WS_FMT_MAX] = {
    [WS_FMT_TEXT] = {"text", render_text},
    [WS_FMT_JSON] = {"json", render_json},
    [WS_FMT_CSV] = {"csv", render_csv},
    [WS_FMT_MARKDOWN] = {"markdown", render_markdown},
};
static int nformats = WS_FMT_BUILTIN;

int ws_emit_register(const char *name, ws_render_fn render)
{
    if (nformats >= WS_FMT_MAX || !name || !render)
        return -1;
    formats[nformats].name = name;
    formats[nformats].render = render;
    return nformats++;
}

const char *ws_format_name(ws_format fmt)
{
    return (int)fmt >= 0 && (int)fmt < nformats ? formats[fmt].name : "?";
}

ws_format ws_emit_format(bool json, bool csv, ws_format otherwise)
{
    return json ? WS_FMT_JSON : csv ? WS_FMT_CSV : otherwise;
}

bool ws_emit_offers(ws_format fmt, const ws_doc_kind *kind)
{
    switch (fmt) {
    case WS_FMT_TEXT: return kind->text != NULL;
    case WS_FMT_JSON: return kind->json != NULL;
    case WS_FMT_CSV: return kind->csv != NULL;
    case WS_FMT_MARKDOWN: return kind->markdown != NULL;
    default: return (int)fmt >= 0 && (int)fmt < nformats; /* a registered format renders any document */
    }
}

int ws_emit_part(FILE *f, ws_format fmt, const ws_doc *doc, ws_part part)
{
    if ((int)fmt < 0 || (int)fmt >= nformats)
        return WS_EMIT_NOT_OFFERED;
    return formats[fmt].render(f, doc, part); /* a write error is main.c's to report (exit 1) */
}

int ws_emit(FILE *f, ws_format fmt, const ws_doc *doc) { return ws_emit_part(f, fmt, doc, WS_PART_WHOLE); }

cJSON *ws_json_envelope(const char *command, const char *status)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "schema_version", WS_JSON_SCHEMA_VERSION);
    if (status)
        cJSON_AddStringToObject(o, "status", status);
    cJSON *tool = cJSON_AddObjectToObject(o, "tool");
    cJSON_AddStringToObject(tool, "name", "warpscope");
    cJSON_AddStringToObject(tool, "version", WS_VERSION);
    cJSON_AddStringToObject(o, "command", command);
    return o;
}

cJSON *ws_emit_tree(const ws_doc *doc)
{
    if (!doc->kind->json)
        return NULL;
    cJSON *o = ws_json_envelope(doc->kind->command, doc->kind->status);
    if (o && doc->kind->json(o, doc->body)) {
        cJSON_Delete(o);
        o = NULL;
    }
    return o;
}
