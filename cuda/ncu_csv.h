/* ncu_csv.h - reading Nsight Compute's CSV output (ncu --csv, long "details"
 * format: one row per kernel launch and metric).
 * The stream is not clean CSV: values keep thousands separators ("4,194,304"),
 * the profiled program's own output and ncu's ==PROF==/==WARNING== lines are
 * interleaved, and columns may be added by later ncu versions; so rows are
 * found by their quoted header and fields by header name.
 * Invariant: a counter set returned without error holds the metrics of exactly
 * one kernel launch (the first ID in the stream). */
#ifndef NCU_CSV_H
#define NCU_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/ws_error.h"

/* check asks for every ncu-named row of the metric table (cmd_check.c MAX_ROWS, asserted there);
 * ncu prints them sorted by name, so a cap below the request drops the late names silently
 * (the H200 corpus run of 2026-12-02 lost every smsp__sass_l1tex_* row after the 64th) */
#define CU_MAX_METRICS 128
#define CU_METRIC_NAME_MAX 128

typedef struct {
    char name[CU_METRIC_NAME_MAX]; /* "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" */
    char unit[32];                 /* "sector", "byte", "%", "nsecond", "" */
    char raw[64];                  /* the value as printed: "4,194,304", "n/a" */
    double value;                  /* parsed value; valid when numeric */
    bool numeric;
} cu_metric;

typedef struct {
    int n;
    cu_metric m[CU_MAX_METRICS];
    char kernel[256];              /* "Kernel Name" of the launch read */
    char id[32];                   /* its "ID" */
    int launches;                  /* distinct IDs in the stream (1 expected) */
    int dropped;                   /* metrics of the launch beyond CU_MAX_METRICS, not kept */
    bool no_kernels;               /* ncu said no kernels were profiled */
    bool permission;               /* ERR_NVGPUCTRPERM: counters need privileges */
    char tool_error[512];          /* first ==ERROR== line, if any */
} cu_counters;

/* Splits one CSV line into fields ("" escapes a quote inside a quoted field).
 * Fields are written NUL-separated into storage; out[i] points at each.
 * Returns the field count (at most max), or -1 for an unterminated quote. */
int cu_csv_split(const char *line, char **out, int max, char *storage, size_t cap);

/* Parses a metric value as ncu prints it: "4,194,304" -> 4194304, "70.68",
 * "1,234.5", "-3", "2.5e+06". Returns 0, or -1 when it is not a number ("n/a"). */
int cu_ncu_number(const char *s, double *out);

/* Parses ncu's whole output (stdout and stderr mixed). Returns 0 with at least
 * one metric, else -1 with err explaining why (no CSV rows, permission,
 * no kernel profiled, ncu's own error line). */
int cu_ncu_parse(const char *text, cu_counters *c, ws_error *err);

/* The metric named exactly `name`, or NULL. */
const cu_metric *cu_counters_get(const cu_counters *c, const char *name);

/* True when `metric` ("sm__warps_active.avg.pct_of_peak_sustained_active") has
 * its base name ("sm__warps_active") listed at the start of a line of
 * `ncu --query-metrics` output. ncu aborts a whole collection on one unknown
 * name, so requests are filtered through this first. */
bool cu_ncu_metric_listed(const char *query_text, const char *metric);

#endif
