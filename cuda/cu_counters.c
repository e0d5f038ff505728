/* cu_counters.c - collecting hardware counters through ncu (see cu_counters.h).
 * Why ncu rather than CUPTI's range profiler in-process: ncu is the tool whose
 * numbers people compare against, it flushes caches before every pass by
 * default (deterministic L2/DRAM counts), and a crash or hang inside the
 * profiler cannot take the warpscope process down with it. */
#include "cu_counters.h"

#include "../common/child.h"
#include "../common/toolkit.h"
#include "../sim/models/metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The table's rows with ncu column COLLECT, in table order (the column is pasted, so a
 * NAMED or OWN row expands to nothing). */
#define IF_COLLECT_COLLECT(name) name,
#define IF_COLLECT_NAMED(name)
#define IF_COLLECT_OWN(name)
#define COLLECT(id, name, unit, basis, judge, slack, ncu, space, op, kind, help, value) IF_COLLECT_##ncu(name)
const char *const cu_default_metrics[] = {WS_METRICS(COLLECT) NULL};
#undef COLLECT

/* ncu runs the CUDA program it profiles: no address-space limit (the driver maps the GPU's whole
 * address space) and no CPU limit (replay passes), only the wall clock, whole group killed. */
static int run_ncu(char *const argv[], double wall_s, char **output, int *status, ws_error *err)
{
    ws_child_limits lim = {.wall_s = wall_s, .cpu_s = WS_CHILD_NO_LIMIT, .mem_bytes = WS_CHILD_NO_MEM_LIMIT};
    ws_child_result r;
    *output = NULL;
    *status = -1;
    if (ws_child_run(argv, &lim, &r, err)) return -1;
    if (r.limit) {                               /* the limit is the news, not the partial output */
        ws_error_set(err, argv[0], 0, 0, "%s", r.why);
        free(r.output);
        return -1;
    }
    *output = r.output;
    *status = r.status;
    return 0;
}

static void keep_log(const char *text, char *path, size_t cap)
{
    const char *tmpdir = getenv("TMPDIR");
    snprintf(path, cap, "%s/warpscope-ncu-%d.log", tmpdir && *tmpdir ? tmpdir : "/tmp", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) { snprintf(path, cap, "(could not be saved)"); return; }
    fputs(text ? text : "", f);
    fclose(f);
}

#define NCU_DEFAULT_TIMEOUT_S 300.0

int cu_counters_collect(const cu_counters_request *rq, cu_counters *c, cu_counters_info *info, ws_error *err)
{
    memset(c, 0, sizeof *c);
    memset(info, 0, sizeof *info);
    if (ws_tool_find(WS_TOOL_NCU, info->ncu_path, sizeof info->ncu_path, err)) return -1;
    ws_tool_version(WS_TOOL_NCU, info->ncu_version, sizeof info->ncu_version);
    char self[1024];
    ssize_t sn = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sn <= 0) {
        ws_error_set(err, "ncu", 0, 0, "cannot find this program's path (/proc/self/exe): %s", strerror(errno));
        return -1;
    }
    self[sn] = 0;

    /* keep only metrics this ncu knows; a failed query keeps them all */
    static char *query = NULL; /* asked once per process: check --all profiles many kernels */
    static char query_ncu[512] = "";
    int st = 0;
    if (strcmp(query_ncu, info->ncu_path)) {
        free(query);
        query = NULL;
        snprintf(query_ncu, sizeof query_ncu, "%s", info->ncu_path);
        char *qargv[] = {info->ncu_path, "--query-metrics", NULL};
        ws_error qerr;
        if (run_ncu(qargv, 120, &query, &st, &qerr) || st != 0 || !query || !strstr(query, "__")) {
            free(query);
            query = NULL;
        }
    }
    char list[8192] = "";
    size_t ll = 0;
    for (int i = 0; rq->metrics[i]; i++) {
        info->requested++;
        if (query && !cu_ncu_metric_listed(query, rq->metrics[i])) {
            size_t nl = strlen(info->not_listed);
            snprintf(info->not_listed + nl, sizeof info->not_listed - nl, "%s%s", nl ? ", " : "", rq->metrics[i]);
            continue;
        }
        int w = snprintf(list + ll, sizeof list - ll, "%s%s", ll ? "," : "", rq->metrics[i]);
        if (w < 0 || (size_t)w >= sizeof list - ll) break;
        ll += (size_t)w;
    }
    if (!ll) {
        ws_error_set(err, "ncu", 0, 0, "none of the requested metrics is known to %s", info->ncu_path);
        return -1;
    }

    char regex[1024];                  /* a mangled template name can run to hundreds of characters */
    snprintf(regex, sizeof regex, "regex:^%s$", rq->entry);
    char *argv[64 + 2 * WS_MAX_PARAMS];
    char dvals[WS_MAX_PARAMS][WS_NAME_MAX + 130];
    int a = 0;
    argv[a++] = info->ncu_path;
    argv[a++] = "--csv";
    argv[a++] = "--print-units";
    argv[a++] = "base";
    argv[a++] = "--clock-control";
    argv[a++] = "none";
    argv[a++] = "--metrics";
    argv[a++] = list;
    argv[a++] = "--kernel-name-base";   /* match the mangled name: one instantiation or overload */
    argv[a++] = "mangled";
    argv[a++] = "--kernel-name";
    argv[a++] = regex;
    argv[a++] = "--launch-count";
    argv[a++] = "1";
    argv[a++] = self;
    argv[a++] = "gpu";
    argv[a++] = (char *)rq->kernel_arg;
    argv[a++] = "--profile-child";
    for (int i = 0; rq->overrides && i < rq->overrides->n; i++) {
        const char *flag; /* -D, --param or --macro, as the user gave it */
        ws_override_arg(rq->overrides, i, &flag, dvals[i], sizeof dvals[i]);
        argv[a++] = (char *)flag;
        argv[a++] = dvals[i];
    }
    argv[a] = NULL;

    char *out = NULL;
    double wall_s;
    if (ws_env_seconds("WARPSCOPE_NCU_TIMEOUT", NCU_DEFAULT_TIMEOUT_S, 86400, &wall_s, err)) return -1;
    if (run_ncu(argv, wall_s, &out, &st, err)) return -1;
    char logpath[700];
    ws_error perr;
    int prc = cu_ncu_parse(out, c, &perr);
    if (prc || st != 0) {
        keep_log(out, logpath, sizeof logpath);
        if (prc)
            ws_error_set(err, "ncu", 0, 0, "%s (exit status %d; full output in %s)", perr.msg, st, logpath);
        else
            ws_error_set(err, "ncu", 0, 0, "ncu exited with status %d%s%s (full output in %s)", st,
                         c->tool_error[0] ? ": " : "", c->tool_error, logpath);
        free(out);
        return -1;
    }
    free(out);
    if (c->dropped) /* a cap below the request is warpscope's bug: say so, keep what was read */
        fprintf(stderr, "warpscope: ncu: %d metrics beyond the first %d (by name) were not kept\n", c->dropped,
                CU_MAX_METRICS);
    info->collected = c->n;
    return 0;
}
