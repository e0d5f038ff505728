/* emit.h - the one output layer. A command fills one document (a struct of its own kind:
 * a ws_report for sim, the check run and its rows for check and replay, the files for list)
 * and hands it, with the format the user chose, to ws_emit, which renders it as text, JSON,
 * CSV or markdown. A document kind (ws_doc_kind) names its layouts; a format (ws_emit_register)
 * is one renderer over any document, so adding a format touches this layer only.
 * Invariant: every JSON document opens with ws_json_envelope's members (schema_version, tool,
 * command) and is written once, whole; layouts format what the document holds and judge nothing. */
#ifndef WS_EMIT_H
#define WS_EMIT_H

#include <stdbool.h>
#include <stdio.h>

struct cJSON;

/* The version of every JSON document (docs/json-schema.json): a member removed or renamed raises it. */
#define WS_JSON_SCHEMA_VERSION 1

/* The built-in formats; ws_emit_register adds more, numbered from WS_FMT_BUILTIN. */
typedef enum { WS_FMT_TEXT, WS_FMT_JSON, WS_FMT_CSV, WS_FMT_MARKDOWN, WS_FMT_BUILTIN } ws_format;
#define WS_FMT_MAX 8               /* built-in plus registered */

/* Which part of a streamed document a call renders. Most documents are rendered WHOLE; check
 * writes its text and CSV as each kernel finishes (HEAD, then ITEM_BEGIN and ITEM per kernel,
 * then TAIL). A JSON document is written whole at WHOLE or TAIL, never in parts. */
typedef enum { WS_PART_WHOLE, WS_PART_HEAD, WS_PART_ITEM_BEGIN, WS_PART_ITEM, WS_PART_TAIL } ws_part;

/* A layout of one document kind in one form: 0, or -1 when it cannot be written (out of memory). */
typedef int (*ws_layout_fn)(FILE *f, const void *body, ws_part part);

/* A document kind: what a command's document is and the layouts it has. */
typedef struct {
    const char *command;       /* the JSON "command": "sim", "sim --compare", "list", "check --replay" */
    const char *status;        /* the JSON "status" right after schema_version, NULL = none */
    ws_layout_fn text, csv, markdown;                  /* NULL = not offered in that form */
    int (*json)(struct cJSON *root, const void *body); /* adds the members after the envelope; 0 or -1 */
} ws_doc_kind;

typedef struct {
    const ws_doc_kind *kind;
    const void *body;          /* the kind's own struct, borrowed */
} ws_doc;

/* A format's renderer: the whole document (or a part of a streamed one). */
typedef int (*ws_render_fn)(FILE *f, const ws_doc *doc, ws_part part);

#define WS_EMIT_NOT_OFFERED (-2) /* the document kind has no layout in that format */

/* Renders doc whole in fmt. Returns 0, -1 out of memory, or WS_EMIT_NOT_OFFERED (a write error
 * shows in ferror(f): main.c reports stdout's).
 * Example: ws_emit(stdout, WS_FMT_CSV, &(ws_doc){&ws_report_kind, &sim_doc}). */
int ws_emit(FILE *f, ws_format fmt, const ws_doc *doc);
/* One part of a streamed document (see ws_part); a part a format does not write is a no-op. */
int ws_emit_part(FILE *f, ws_format fmt, const ws_doc *doc, ws_part part);
/* True when fmt renders documents of this kind. */
bool ws_emit_offers(ws_format fmt, const ws_doc_kind *kind);

/* The format of --json / --csv, else the command's own (text, or markdown for replay). */
ws_format ws_emit_format(bool json, bool csv, ws_format otherwise);
/* "text", "json", "csv", "markdown", or a registered format's name. */
const char *ws_format_name(ws_format fmt);

/* The members every JSON document opens with: schema_version, status (when given), tool
 * {name, version}, command. A new object (NULL when out of memory). */
struct cJSON *ws_json_envelope(const char *command, const char *status);
/* The document as a JSON tree: the envelope and the kind's members. NULL when out of memory
 * or the kind has no JSON members. Any renderer may start from it (what JSON prints). */
struct cJSON *ws_emit_tree(const ws_doc *doc);

/* Adds a format: render gets every document; returns its ws_format, or -1 when the table is
 * full. Example: an NDJSON renderer prints ws_emit_tree(doc) on one line. */
int ws_emit_register(const char *name, ws_render_fn render);

#endif
