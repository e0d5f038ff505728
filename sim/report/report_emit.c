/* report_emit.c - `sim`'s document kinds for common/emit.h: one launch, two side by side
 * (--compare), and a run stopped at a fault, each a table of the layouts sim/report/report.c writes.
 * Invariant: the command says what to show, the kind how; nothing here computes a number. */
#include "report.h"

#include <cjson/cJSON.h>

static int sim_text(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const ws_sim_doc *d = body;
    ws_report_text(f, d->a, d->all_lines);
    return 0;
}

static int sim_csv(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const ws_sim_doc *d = body;
    ws_report_csv(f, d->a, d->a->overrides ? d->a->overrides : "", true);
    return 0;
}

static int sim_json(cJSON *o, const void *body)
{
    const ws_sim_doc *d = body;
    return ws_report_json_members(o, d->a);
}

const ws_doc_kind ws_report_kind = {
    .command = "sim", .status = "ok", .text = sim_text, .csv = sim_csv, .json = sim_json,
};

static int compare_text(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const ws_sim_doc *d = body;
    ws_report_compare(f, d->a, d->b);
    if (d->all_lines) { /* both per-line tables, A then B */
        ws_report_line_table(f, d->a, "A", true);
        ws_report_line_table(f, d->b, "B", true);
    }
    return 0;
}

static int compare_csv(FILE *f, const void *body, ws_part part)
{
    (void)part;
    const ws_sim_doc *d = body;
    ws_report_csv(f, d->a, "A", true);
    ws_report_csv(f, d->b, "B", false);
    ws_report_csv_verdict(f, d->a, d->b);
    return 0;
}

/* Each variant is a whole `sim` document of its own, envelope included. */
static int compare_json(cJSON *o, const void *body)
{
    const ws_sim_doc *d = body;
    cJSON *v = cJSON_AddArrayToObject(o, "variants");
    const ws_report *r[2] = {d->a, d->b};
    for (int k = 0; k < 2; k++) {
        ws_sim_doc one = {.a = r[k]};
        cJSON *x = ws_emit_tree(&(ws_doc){&ws_report_kind, &one});
        if (!x || !v)
            return cJSON_Delete(x), -1;
        cJSON_AddItemToArray(v, x);
    }
    return ws_report_json_verdict(o, d->a, d->b); /* which is faster and how sure (sim/models/confidence.h) */
}

const ws_doc_kind ws_report_compare_kind = {
    .command = "sim --compare", .text = compare_text, .csv = compare_csv, .json = compare_json,
};

static int fault_json(cJSON *o, const void *body)
{
    const ws_sim_fault_doc *d = body;
    return ws_report_fault_members(o, d->r, d->fault);
}

const ws_doc_kind ws_report_fault_kind = {.command = "sim", .status = "fault", .json = fault_json};

int ws_report_json(FILE *f, const ws_report *r)
{
    ws_sim_doc d = {.a = r};
    return ws_emit(f, WS_FMT_JSON, &(ws_doc){&ws_report_kind, &d});
}

int ws_report_fault_json(FILE *f, const ws_report *r, const ws_fault *fault)
{
    ws_sim_fault_doc d = {r, fault};
    return ws_emit(f, WS_FMT_JSON, &(ws_doc){&ws_report_fault_kind, &d});
}
