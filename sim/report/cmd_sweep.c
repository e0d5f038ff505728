/* cmd_sweep.c - `warpscope sweep plan|run|merge|makefile`: variants x sizes x device profiles as
 * independent jobs numbered 1..N, so any job runner spreads them (make -j on the generated
 * Makefile, GNU parallel over `plan --ids`, a Slurm array over $SLURM_ARRAY_TASK_ID).
 * Invariant: the generated Makefile's recipes name only job ids and paths checked to hold no byte
 * make or sh would interpret; spec words reach sim as argv, in this process (sweep_run.c). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/catalog.h"
#include "../../common/cli.h"
#include "../../common/commands.h"
#include "../../common/sweep_spec.h"
#include "../../common/text.h"
#include "sweep.h"

static const char sweep_about[] =
    "Runs variants x sizes x device profiles as independent jobs, numbered 1..N, that any job runner\n"
    "spreads; each job writes DIR/job-<id>.json and `merge` makes one table of them.\n"
    "\n"
    "  warpscope sweep plan SPEC [--count | --ids]   the jobs, one per line: id, variant, size, profile\n"
    "  warpscope sweep run SPEC DIR [ID...]          run jobs (no ID: every job, in order), a record each\n"
    "  warpscope sweep merge DIR [--csv]             DIR/sweep.csv and DIR/sweep.md, printed as markdown\n"
    "  warpscope sweep makefile SPEC DIR             a Makefile for `make -j N -f FILE` (jobs, then merge)\n"
    "\n"
    "SPEC, one item list per line ('#' starts a comment):\n"
    "  variant  transpose_naive transpose_padded    catalog names, k.cu or k.cu:name\n"
    "  size     W=1024 H=1024                       one -D set per line ('defaults': none;\n"
    "  size     W=4096 H=4096                       'realistic': --realistic, -D still wins)\n"
    "  profile  h200 a100                           device profiles (default h200)\n"
    "  threads  1                                   each job's sim -j (default 1)\n"
    "  sample   auto                                auto | on (--sample) | off (--full)\n"
    "\n"
    "Runners (README \"Sweeps\"):\n"
    "  warpscope sweep makefile s.sweep out > sweep.mk && make -j 8 -f sweep.mk\n"
    "  warpscope sweep plan s.sweep --ids | parallel -j 8 warpscope sweep run s.sweep out {}\n"
    "  sbatch --array=1-$(warpscope sweep plan s.sweep --count) --wrap 'warpscope sweep run s.sweep out \"$SLURM_ARRAY_TASK_ID\"'\n"
    "  then: warpscope sweep merge out\n"
    "\n"
    "A job whose simulation fails still writes its record (status failed, exit code, the error) and\n"
    "`run` exits 0; `merge` marks it and exits with the largest such code (a missing record: 1).\n";

static void sweep_help(FILE *to)
{
    fprintf(to, "usage: warpscope sweep <plan|run|merge|makefile> ...\n\n%s\n%s", sweep_about, ws_cli_exit_table);
}

typedef struct {
    ws_cli_common c;
    bool count, ids, csv;
} sweep_opts;

static const ws_opt plan_options[] = {
    {.name = "count", .kind = WS_OPT_FLAG, .at = offsetof(sweep_opts, count),
     .help = "print only the number of jobs (for a Slurm array's range)"},
    {.name = "ids", .kind = WS_OPT_FLAG, .at = offsetof(sweep_opts, ids),
     .help = "print only the job ids, one per line (for GNU parallel, xargs)"},
};
static const ws_opt merge_options[] = {
    {.name = "csv", .kind = WS_OPT_FLAG, .at = offsetof(sweep_opts, csv),
     .help = "print the table as CSV instead of markdown (both files are written either way)"},
};

static const ws_cli_spec plan_spec = {
    .command = "sweep plan",
    .usage = "usage: warpscope sweep plan SPEC [--count | --ids]\n",
    .about = "Checks SPEC (every variant found, every profile known) and prints its jobs, one per line:\n"
             "id, variant, size, profile, separated by tabs. Ids run 1..N, variant-major, then size, then profile.\n",
    .opts = plan_options,
    .nopts = WS_CLI_COUNT(plan_options),
};
static const ws_cli_spec run_spec = {
    .command = "sweep run",
    .usage = "usage: warpscope sweep run SPEC DIR [ID...]\n",
    .about = "Runs each job ID of SPEC (none: every job, in order) as `warpscope sim --json` would, and writes\n"
             "its record DIR/job-<ID>.json (DIR is created if missing). Exit 0 when every record was written,\n"
             "whatever the simulations did: the record holds each one's status, exit code and error.\n",
};
static const ws_cli_spec merge_spec = {
    .command = "sweep merge",
    .usage = "usage: warpscope sweep merge DIR [--csv]\n",
    .about = "Merges the records in DIR into one table: DIR/sweep.csv (columns " WS_SWEEP_COLUMNS ";\n"
             "values exactly as sim's JSON holds them) and DIR/sweep.md, and prints the markdown (or, --csv, the\n"
             "CSV). Exit 0 when every job has an ok record, else the largest exit code of a failed job, or 1 for\n"
             "a missing one.\n",
    .opts = merge_options,
    .nopts = WS_CLI_COUNT(merge_options),
};
static const ws_cli_spec makefile_spec = {
    .command = "sweep makefile",
    .usage = "usage: warpscope sweep makefile SPEC DIR > sweep.mk && make -j N -f sweep.mk\n",
    .about = "Prints a Makefile whose targets are DIR/job-<id>.json (each `warpscope sweep run SPEC DIR id`,\n"
             "remade when SPEC changes) and DIR/sweep.csv (the merge), the default goal. Run make in this\n"
             "folder; SPEC and DIR may hold only A-Z a-z 0-9 . _ / + - (the recipes go through sh).\n"
             "make WARPSCOPE=path picks another warpscope.\n",
};

/* The spec, with every variant found as sim would find it (err at the variant's line). */
static int load_checked(const char *path, ws_sweep_spec *s, bool check_variants)
{
    ws_error err;
    if (ws_sweep_spec_load(path, s, &err)) {
        ws_error_print(&err);
        return WS_EXIT_USAGE;
    }
    if (!check_variants) return WS_EXIT_OK;
    const char **names = malloc((size_t)s->nvariants * sizeof *names);
    if (!names) {
        ws_sweep_spec_free(s);
        return WS_EXIT_INTERNAL;
    }
    for (int i = 0; i < s->nvariants; i++) names[i] = s->variants[i].name;
    ws_catalog *cat = NULL;
    int rc = WS_EXIT_OK;
    if (ws_catalog_load_for(names, s->nvariants, &cat, &err)) {
        ws_error_print(&err);
        rc = WS_EXIT_USAGE;
    }
    for (int i = 0; rc == WS_EXIT_OK && i < s->nvariants; i++) {
        const ws_desc_file *file;
        const ws_kernel_desc *desc;
        ws_desc_file *owned = NULL;
        if (ws_catalog_resolve(cat, names[i], &file, &desc, &owned, &err)) {
            char why[WS_MSG_MAX + WS_PATH_MAX + 16];
            if (!strcmp(err.file, "<command line>")) snprintf(why, sizeof why, "%s", err.msg);
            else if (err.line > 0) snprintf(why, sizeof why, "%s:%d: %s", err.file, err.line, err.msg); /* a .cu's */
            else snprintf(why, sizeof why, "%s: %s", err.file, err.msg);
            ws_error e2;
            ws_error_set(&e2, s->path, s->variants[i].line, 0, "variant '%s': %s", names[i], why);
            ws_error_print(&e2);
            rc = WS_EXIT_USAGE;
        }
        if (owned) ws_desc_free(owned);
    }
    ws_catalog_free(cat);
    free(names);
    if (rc) ws_sweep_spec_free(s);
    return rc;
}

static int cmd_plan(int argc, char **argv)
{
    sweep_opts o = {.count = false};
    int nargs;
    int rc = ws_cli_parse(&plan_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs != 1 || (o.count && o.ids)) {
        fprintf(stderr, nargs != 1 ? "warpscope: sweep plan: give one SPEC file\n"
                                   : "warpscope: sweep plan: --count and --ids contradict each other; give one\n");
        return WS_EXIT_USAGE;
    }
    ws_sweep_spec s;
    if ((rc = load_checked(argv[1], &s, true))) return rc;
    long n = ws_sweep_count(&s);
    if (o.count) printf("%ld\n", n);
    for (long id = 1; !o.count && id <= n; id++) {
        ws_sweep_job j;
        ws_sweep_job_get(&s, id, &j);
        if (o.ids) printf("%ld\n", id);
        else printf("%ld\t%s\t%s\t%s\n", id, j.variant->name, j.size->label, j.profile->dev->key);
    }
    ws_sweep_spec_free(&s);
    return WS_EXIT_OK;
}

/* A job id as a runner passes it ("7"; $SLURM_ARRAY_TASK_ID): digits only, 1..n. */
static int parse_id(const char *text, long n, long *id)
{
    char *end = NULL;
    errno = 0;
    long v = text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : 0;
    if (!end || *end || errno || v < 1 || v > n) {
        char shown[96];
        fprintf(stderr, "warpscope: sweep run: job id '%s' is not a number from 1 to %ld (warpscope sweep plan "
                        "lists them)\n", ws_text_visible(text, shown, sizeof shown), n);
        return -1;
    }
    *id = v;
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    sweep_opts o = {.count = false};
    int nargs;
    int rc = ws_cli_parse(&run_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs < 2) {
        fprintf(stderr, "warpscope: sweep run: give SPEC, DIR and the job ids (none: every job)\n");
        return WS_EXIT_USAGE;
    }
    ws_sweep_spec s;
    /* sim finds the variant itself; a wrong one is that job's failed record, not every job's */
    if ((rc = load_checked(argv[1], &s, false))) return rc;
    long n = ws_sweep_count(&s), nids = nargs > 2 ? nargs - 2 : n;
    long *ids = malloc((size_t)nids * sizeof *ids);
    if (!ids) rc = WS_EXIT_INTERNAL;
    for (long k = 0; rc == WS_EXIT_OK && k < nids; k++) {
        if (nargs == 2) ids[k] = k + 1;
        else if (parse_id(argv[3 + k], n, &ids[k])) rc = WS_EXIT_USAGE;
    }
    for (long k = 0; rc == WS_EXIT_OK && k < nids; k++) {
        ws_sweep_job j;
        ws_sweep_job_get(&s, ids[k], &j);
        ws_error err;
        int sim_rc = WS_EXIT_OK;
        rc = ws_sweep_run_job(&s, &j, argv[2], &sim_rc, &err);
        if (rc) ws_error_print(&err);
        else if (sim_rc)
            fprintf(stderr, "warpscope: sweep run: job %ld (%s, %s, %s) failed with exit code %d; its record says so\n",
                    j.id, j.variant->name, j.size->label, j.profile->dev->key, sim_rc);
    }
    free(ids);
    ws_sweep_spec_free(&s);
    return rc;
}

static int cmd_merge(int argc, char **argv)
{
    sweep_opts o = {.count = false};
    int nargs;
    int rc = ws_cli_parse(&merge_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs != 1) {
        fprintf(stderr, "warpscope: sweep merge: give one records folder\n");
        return WS_EXIT_USAGE;
    }
    ws_error err;
    memset(&err, 0, sizeof err);
    rc = ws_sweep_merge(argv[1], o.csv, stdout, &err);
    if (err.msg[0]) ws_error_print(&err);
    return rc;
}

static int plain_or_refuse(const char *what, const char *path)
{
    if (ws_sweep_path_is_plain(path)) return 0;
    char shown[3 * WS_PATH_MAX];
    fprintf(stderr, "warpscope: sweep makefile: %s '%s' holds a byte make or sh would read as syntax (or starts with "
                    "'-'); use a name of A-Z a-z 0-9 . _ / + - only\n", what, ws_text_visible(path, shown, sizeof shown));
    return -1;
}

static int cmd_makefile(int argc, char **argv)
{
    sweep_opts o = {.count = false};
    int nargs;
    int rc = ws_cli_parse(&makefile_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs != 2) {
        fprintf(stderr, "warpscope: sweep makefile: give SPEC and DIR\n");
        return WS_EXIT_USAGE;
    }
    const char *spec = argv[1], *dir = argv[2];
    if (plain_or_refuse("the spec path", spec) || plain_or_refuse("the records folder", dir)) return WS_EXIT_USAGE;
    ws_sweep_spec s;
    if ((rc = load_checked(spec, &s, true))) return rc;
    char exe[WS_PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    bool exe_plain = len > 0 && ws_sweep_path_is_plain(exe);
    long n = ws_sweep_count(&s);
    printf("# warpscope sweep: %ld jobs = %d variant(s) x %d size(s) x %d profile(s) of %s, records in %s.\n"
           "# Made by `warpscope sweep makefile %s %s`; run it from the folder it was made in:\n"
           "#   make -j 8 -f THIS_FILE            (make WARPSCOPE=path picks another warpscope)\n"
           "# Each job is `warpscope sweep run %s %s <id>`; the table is %s/sweep.csv and %s/sweep.md.\n",
           n, s.nvariants, s.nsizes, s.nprofiles, spec, dir, spec, dir, spec, dir, dir, dir);
    if (exe_plain) printf("WARPSCOPE ?= %s\n", exe);
    else {
        printf("WARPSCOPE ?= warpscope\n");
        fprintf(stderr, "warpscope: sweep makefile: this warpscope's path is not plain enough for a Makefile; the "
                        "Makefile runs 'warpscope' from PATH (make WARPSCOPE=... to change)\n");
    }
    printf("SWEEP_SPEC := %s\nSWEEP_DIR := %s\nSWEEP_RECORDS :=", spec, dir);
    for (long id = 1; id <= n; id++) printf("%s $(SWEEP_DIR)/" WS_SWEEP_RECORD_PREFIX "%ld.json", id % 8 == 1 ? " \\\n " : "", id);
    printf("\n\n.PHONY: sweep\n"
           "sweep: $(SWEEP_DIR)/sweep.csv\n\n"
           "$(SWEEP_DIR)/sweep.csv: $(SWEEP_RECORDS)\n"
           "\t$(WARPSCOPE) sweep merge $(SWEEP_DIR)\n\n"
           "$(SWEEP_DIR)/" WS_SWEEP_RECORD_PREFIX "%%.json: $(SWEEP_SPEC)\n"
           "\t$(WARPSCOPE) sweep run $(SWEEP_SPEC) $(SWEEP_DIR) $*\n");
    ws_sweep_spec_free(&s);
    return WS_EXIT_OK;
}

int ws_cmd_sweep(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        sweep_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? WS_EXIT_USAGE : WS_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("warpscope %s\n", ws_cli_version());
        return WS_EXIT_OK;
    }
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subs[] = {{"plan", cmd_plan}, {"run", cmd_run}, {"merge", cmd_merge}, {"makefile", cmd_makefile}};
    const char *names[4];
    for (int i = 0; i < 4; i++) {
        if (!strcmp(argv[1], subs[i].name)) return subs[i].run(argc - 1, argv + 1);
        names[i] = subs[i].name;
    }
    const char *near = ws_cli_nearest(argv[1], names, 4);
    char shown[96];
    fprintf(stderr, "warpscope: sweep: unknown subcommand '%s'%s%s%s (plan, run, merge, makefile)\n",
            ws_text_visible(argv[1], shown, sizeof shown), near ? "; did you mean '" : "", near ? near : "",
            near ? "'?" : "");
    return WS_EXIT_USAGE;
}
