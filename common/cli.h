/* cli.h - the one command-line parser of every warpscope command (getopt_long underneath):
 * each command lists its options as a table of ws_opt rows and parses into its own options
 * struct, whose first member is the ws_cli_common every command shares.
 * Invariant: all parse state lives in the caller's struct (getopt is reset on each call), so
 * two in-process calls of a command never see each other's options. */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "desc.h"
#include "device.h"

/* The one version string: WS_VERSION, plus `git describe` when the build had it. */
#define WS_VERSION "0.1.0"
const char *ws_cli_version(void); /* "0.1.0 (1bb7bd5-dirty)" or "0.1.0" */

#define WS_DEFAULT_ARCH "sm_90"   /* PTX target when a command has to compile the PTX */

/* The options several commands take, parsed and checked once here. */
typedef struct {
    ws_overrides ov;           /* -D NAME=VALUE, in the order given */
    const ws_device *dev;      /* --device KEY (checked to exist), else ws_device_default() */
    const char *arch;          /* --arch sm_XX, else the --device profile's arch */
    const char *results_dir;   /* --results DIR (checked to be a folder), NULL = the default lookup */
    bool json, csv;            /* --json, --csv (refused together) */
} ws_cli_common;

typedef enum {
    WS_OPT_FLAG,    /* bool = true */
    WS_OPT_STRING,  /* const char * = the value (points into argv; an empty value is refused) */
    WS_OPT_INT,     /* int, a whole number within [lo, hi] */
    WS_OPT_U64,     /* uint64_t, a whole number within [lo, hi] (hi 0 = no upper bound) */
    WS_OPT_DEFINE,  /* ws_overrides: one NAME=VALUE added (ws_overrides_add): a parameter or a macro */
    WS_OPT_PARAM,   /* ws_overrides: NAME=EXPR, always a description parameter */
    WS_OPT_MACRO,   /* ws_overrides: NAME[=VALUE], always a preprocessor macro */
    WS_OPT_COMPILE, /* ws_overrides: one compiler option (-I DIR, or --compile-opt -std=c++17) */
    WS_OPT_DEVICE,  /* const ws_device *: the profile of that key; --help lists the keys */
    WS_OPT_FOLDER,  /* const char *: a folder that exists */
    WS_OPT_CALL     /* set(field, value) parses it: 0 ok, -1 bad (the 'needs' text says why) */
} ws_opt_kind;

/* One option. Rows use designated initializers; fields left out are zero. */
typedef struct {
    const char *name;          /* long name without "--" ("budget"); NULL = short form only */
    char letter;               /* short form ('D'), 0 = none */
    ws_opt_kind kind;
    size_t at;                 /* offsetof the field in the command's options struct */
    const char *arg;           /* the value's name in --help: "N", "KEY"; NULL for a flag */
    const char *help;          /* --help text ('\n' continues it); NULL = internal, not listed */
    double lo, hi;             /* WS_OPT_INT / WS_OPT_U64: accepted range, inclusive */
    const char *needs;         /* what the value must be, for errors: "a count from 1 to 100000"
                                  (NULL = "a value") */
    int (*set)(void *field, const char *value); /* WS_OPT_CALL */
} ws_opt;

/* The shared rows: a command lists those it takes. Their fields are in ws_cli_common, which
 * is the first member of every command's options struct (so offset 0 is the struct). */
#define WS_CLI_OPT_DEFINE  {.letter = 'D', .kind = WS_OPT_DEFINE, .at = offsetof(ws_cli_common, ov), \
                            .arg = "NAME=VALUE", .needs = "NAME=VALUE", \
                            .help = "a description parameter if the description declares NAME, else a macro (repeatable)"}, \
                           {.name = "param", .kind = WS_OPT_PARAM, .at = offsetof(ws_cli_common, ov), \
                            .arg = "NAME=EXPR", .needs = "NAME=EXPR", .help = "set a description parameter (repeatable)"}, \
                           {.name = "macro", .kind = WS_OPT_MACRO, .at = offsetof(ws_cli_common, ov), \
                            .arg = "NAME[=V]", .needs = "NAME or NAME=VALUE", \
                            .help = "define a preprocessor macro for the compile (repeatable)"}, \
                           {.letter = 'I', .kind = WS_OPT_COMPILE, .at = offsetof(ws_cli_common, ov), \
                            .arg = "DIR", .needs = "a folder", .help = "add an include folder to the compile (repeatable)"}, \
                           {.name = "compile-opt", .kind = WS_OPT_COMPILE, .at = offsetof(ws_cli_common, ov), \
                            .arg = "OPT", .needs = "a compiler option such as -std=c++17", \
                            .help = "pass one compiler option (-std=, --use_fast_math, -ftz=, ...)"}
/* --realistic: each description's `realistic` line (desc.h) instead of its param defaults. (Not
 * "--size": viz's --size is its window.) */
#define WS_CLI_OPT_REALISTIC    {.name = "realistic", .kind = WS_OPT_FLAG, .at = offsetof(ws_cli_common, ov.realistic), \
                            .help = "run at the description's realistic sizes (beyond the L2, or its stated class;\n" \
                                    "`list` shows them) instead of its param defaults; -D still wins"}
#define WS_CLI_OPT_DEVICE  {.name = "device", .kind = WS_OPT_DEVICE, .at = offsetof(ws_cli_common, dev), \
                            .arg = "KEY", .needs = "a value (a device profile key)", \
                            .help = "device profile for the models (default h200):"}
#define WS_CLI_OPT_ARCH    {.name = "arch", .kind = WS_OPT_STRING, .at = offsetof(ws_cli_common, arch), \
                            .arg = "sm_XX", .needs = "a value such as sm_90", \
                            .help = "PTX and SASS target (default: the --device profile's, " WS_DEFAULT_ARCH " for the default)"}
#define WS_CLI_OPT_RESULTS {.name = "results", .kind = WS_OPT_FOLDER, .at = offsetof(ws_cli_common, results_dir), \
                            .arg = "DIR", .needs = "a folder", \
                            .help = "recorded GPU results folder (default <catalog>/../results, then ./results)"}
#define WS_CLI_OPT_JSON    {.name = "json", .kind = WS_OPT_FLAG, .at = offsetof(ws_cli_common, json), \
                            .help = "one JSON document on stdout"}
#define WS_CLI_OPT_CSV     {.name = "csv", .kind = WS_OPT_FLAG, .at = offsetof(ws_cli_common, csv), \
                            .help = "long-format CSV on stdout: " WS_CSV_COLUMNS " (docs/csv.md)"}

/* A command's command line: its name, its --help text around the generated option list,
 * and its table. -h/--help and --version are added to every command. */
typedef struct {
    const char *command;       /* "sim": errors read "warpscope: sim: ..." */
    const char *usage;         /* the synopsis, "usage: warpscope sim <kernel> ..." (lines) */
    const char *about;         /* paragraph(s) printed after the synopsis; may be NULL */
    const ws_opt *opts;
    int nopts;
    void (*more_help)(FILE *to); /* printed after the options (keys, exit codes); may be NULL */
} ws_cli_spec;

/* A numeric default in a help string: "(default " WS_CLI_STR(CU_DEFAULT_REPS) ")". */
#define WS_CLI_STR(x) WS_CLI_STR_(x)
#define WS_CLI_STR_(x) #x

#define WS_CLI_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

/* What ws_cli_parse returns when the command should go on running. */
#define WS_CLI_RUN (-1)

/* Parses argv[1..] into opts (the command's struct, ws_cli_common first, already holding its
 * defaults; the common part's arch and dev are defaulted here). `--opt value` and `--opt=value`
 * are both accepted, options and operands may be mixed; "--" ends the options. The operands
 * are gathered, in order, at argv[1..*nargs] (argv's pointers are reordered, not the strings).
 * Returns WS_CLI_RUN, or the exit code to return at once: WS_EXIT_OK after --help/--version
 * (printed on stdout), WS_EXIT_USAGE after an error printed on stderr that names the option
 * (an unknown one with the nearest known one suggested). Example:
 *   int rc = ws_cli_parse(&spec, argc, argv, &o, &nargs); if (rc != WS_CLI_RUN) return rc; */
int ws_cli_parse(const ws_cli_spec *spec, int argc, char **argv, void *opts, int *nargs);

/* The spec's --help text (what -h prints), to stdout or, after a usage error, stderr;
 * it ends with ws_cli_exit_table. */
void ws_cli_help(const ws_cli_spec *spec, FILE *to);

/* The one table of exit codes (common/commands.h), as every --help, `warpscope --help`
 * and the README print it: "exit codes:\n  0  ok\n  1  ...". */
extern const char ws_cli_exit_table[];

/* The name in names[0..n) closest to word by edit distance, NULL when none is close enough
 * to be a likely typo. Example: ws_cli_nearest("--budegt", {"--budget", "--json"}, 2). */
const char *ws_cli_nearest(const char *word, const char *const *names, int n);

/* Levenshtein distance (insert, delete, substitute each cost 1). */
int ws_cli_edit_distance(const char *a, const char *b);

#endif
