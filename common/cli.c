/* cli.c - the table-driven command-line parser (see cli.h) on getopt_long, with its
 * messages written here so every command words its errors the same way.
 * Invariant: getopt's globals are reset before each parse and nothing else is kept
 * between calls; every error printed names the command and the option at fault. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"

#ifndef WS_GIT_DESCRIBE
#define WS_GIT_DESCRIBE ""        /* the Makefile passes `git describe` when there is a git tree */
#endif

#define MAX_OPTS 64               /* rows per command, help and version included */
#define OPT_ID(i) (256 + (i))     /* getopt_long's val for row i: beyond every letter */
#define HELP_COL 22               /* the option column of --help */

const char *ws_cli_version(void)
{
    return WS_GIT_DESCRIBE[0] ? WS_VERSION " (" WS_GIT_DESCRIBE ")" : WS_VERSION;
}

int ws_cli_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)                     /* options are short; a long word is no typo */
        return (int)(la > lb ? la : lb);
    int row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];                      /* d[i-1][j-1] */
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

const char *ws_cli_nearest(const char *word, const char *const *names, int n)
{
    const char *best = NULL;
    int bd = 1 << 30;
    for (int i = 0; i < n; i++) {
        int d = ws_cli_edit_distance(word, names[i]);
        if (d < bd) {
            bd = d;
            best = names[i];
        }
    }
    size_t len = strlen(word) - strspn(word, "-");
    /* two edits, or a third of the word: "--jsn", "--budegt", "-budget"; not "--bogus" for "--budget" */
    return best && bd > 0 && (bd <= 2 || (size_t)bd * 3 <= len) ? best : NULL;
}

/* "--budget" or "-D" as the user would type the row. */
static void opt_text(const ws_opt *o, bool as_short, char *out, size_t cap)
{
    if (o->name && !as_short) snprintf(out, cap, "--%s", o->name);
    else snprintf(out, cap, "-%c", o->letter);
}

static void help_row(FILE *to, const char *left, const char *help, bool devices)
{
    int n = fprintf(to, "  %s", left);
    if (n >= HELP_COL) {                        /* a long left part gets its own line */
        fprintf(to, "\n");
        n = 0;
    }
    fprintf(to, "%*s", HELP_COL - n, "");
    for (const char *p = help; *p; p++) {
        fputc(*p, to);
        if (*p == '\n') fprintf(to, "%*s", HELP_COL, "");
    }
    if (devices)
        for (const ws_device *const *d = ws_device_all(); *d; d++) fprintf(to, " %s", (*d)->key);
    fputc('\n', to);
}

const char ws_cli_exit_table[] =
    "exit codes (every command):\n"
    "  0  ok\n"
    "  1  usage or input error: the command line, a description, PTX, a font, an output that cannot\n"
    "     be written (stdout included), arguments that do not fit the kernel's parameters, a launch\n"
    "     beyond the simulator's or the GPU's limits, an instruction the simulator does not run\n"
    "  2  the kernel faulted, in simulation or on the GPU: out of bounds, barrier misuse, a race or\n"
    "     memory error (--racecheck, --memcheck), a loop that never ends\n"
    "  3  check: an output or an exact counter differs\n"
    "  4  no usable GPU: no driver or device, a build without CUDA, or the GPU or its driver failed a\n"
    "     valid request (out of device memory, a driver error)\n"
    "  5  internal error: out of host memory, or a bug in warpscope\n";

void ws_cli_help(const ws_cli_spec *spec, FILE *to)
{
    fputs(spec->usage, to);
    if (spec->about) fprintf(to, "\n%s", spec->about);
    fprintf(to, "\noptions:\n");
    for (int i = 0; i < spec->nopts; i++) {
        const ws_opt *o = &spec->opts[i];
        if (!o->help) continue;
        char left[96];
        if (o->name && o->letter) snprintf(left, sizeof left, "-%c, --%s", o->letter, o->name);
        else opt_text(o, false, left, sizeof left);
        if (o->arg) {
            size_t l = strlen(left);
            snprintf(left + l, sizeof left - l, " %s", o->arg);
        }
        help_row(to, left, o->help, o->kind == WS_OPT_DEVICE);
    }
    help_row(to, "-h, --help", "this text", false);
    help_row(to, "--version", "the warpscope version", false);
    if (spec->more_help) spec->more_help(to);
    fprintf(to, "\n%s", ws_cli_exit_table);
}

/* Known spellings for the suggestion: "--name" of each row, "-D", --help, --version. */
static const char *nearest_option(const ws_cli_spec *spec, const char *word, char (*buf)[40])
{
    const char *names[MAX_OPTS + 2];
    int n = 0;
    for (int i = 0; i < spec->nopts && n < MAX_OPTS; i++) {
        if (!spec->opts[i].help) continue;      /* internal options are not suggested */
        opt_text(&spec->opts[i], false, buf[n], sizeof buf[n]);
        names[n] = buf[n];
        n++;
    }
    names[n++] = "--help";
    names[n++] = "--version";
    return ws_cli_nearest(word, names, n);
}

static int unknown(const ws_cli_spec *spec, const char *element)
{
    char word[64], buf[MAX_OPTS][40];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(element, "="), element);
    const char *near = nearest_option(spec, word, buf);
    if (near) fprintf(stderr, "warpscope: %s: unknown option '%s'; did you mean '%s'?\n", spec->command, word, near);
    else fprintf(stderr, "warpscope: %s: unknown option '%s' ('warpscope %s --help' lists them)\n", spec->command,
                 word, spec->command);
    return WS_EXIT_USAGE;
}

static int needs(const ws_cli_spec *spec, const char *opt, const ws_opt *o)
{
    fprintf(stderr, "warpscope: %s: %s needs %s\n", spec->command, opt, o->needs ? o->needs : "a value");
    return WS_EXIT_USAGE;
}

static int bad_value(const ws_cli_spec *spec, const char *opt, const ws_opt *o, const char *value, const char *why)
{
    fprintf(stderr, "warpscope: %s: %s %s: %s; %s needs %s\n", spec->command, opt, value, why, opt,
            o->needs ? o->needs : "a value");
    return WS_EXIT_USAGE;
}

/* A whole number in [lo, hi] (hi 0 with U64: unbounded); returns NULL or why not. */
static const char *whole_number(const char *v, bool is_signed, double lo, double hi, long long *s,
                                unsigned long long *u)
{
    const char *digits = is_signed && v[0] == '-' ? v + 1 : v;
    if (!(*digits >= '0' && *digits <= '9')) return "expected a whole number";
    char *end;
    errno = 0;
    double x;
    if (is_signed) x = (double)(*s = strtoll(v, &end, 10));
    else x = (double)(*u = strtoull(v, &end, 10));
    if (*end) return "expected a whole number";
    if (errno == ERANGE || x < lo || (hi != 0 && x > hi)) return "out of range";
    return NULL;
}

static int apply(const ws_cli_spec *spec, const ws_opt *o, bool as_short, char *base, const char *v)
{
    char opt[48];
    opt_text(o, as_short, opt, sizeof opt);
    void *field = base + o->at;
    ws_error err;
    const char *why;
    long long s;
    unsigned long long u;
    struct stat st;
    if (o->kind != WS_OPT_FLAG && o->kind != WS_OPT_DEFINE && o->kind != WS_OPT_MACRO && (!v || !*v)) return needs(spec, opt, o);
    switch (o->kind) {
    case WS_OPT_FLAG:
        *(bool *)field = true;
        return 0;
    case WS_OPT_STRING:
        *(const char **)field = v;
        return 0;
    case WS_OPT_INT:
        if ((why = whole_number(v, true, o->lo, o->hi, &s, &u))) return bad_value(spec, opt, o, v, why);
        *(int *)field = (int)s;
        return 0;
    case WS_OPT_U64:
        if ((why = whole_number(v, false, o->lo, o->hi, &s, &u))) return bad_value(spec, opt, o, v, why);
        *(uint64_t *)field = u;
        return 0;
    case WS_OPT_DEFINE:
        if (ws_overrides_add((ws_overrides *)field, v, &err)) {
            ws_error_print(&err);               /* names "<command line>", the column and the text */
            return WS_EXIT_USAGE;
        }
        return 0;
    case WS_OPT_PARAM:
    case WS_OPT_MACRO:
        if (ws_overrides_add_kind((ws_overrides *)field, v, o->kind == WS_OPT_PARAM ? WS_DEF_PARAM : WS_DEF_MACRO,
                                  &err)) {
            ws_error_print(&err);
            return WS_EXIT_USAGE;
        }
        return 0;
    case WS_OPT_COMPILE: {
        char one[WS_COMPILE_OPT_MAX];
        int w = o->letter == 'I' ? snprintf(one, sizeof one, "-I%s", v) : snprintf(one, sizeof one, "%s", v);
        if (w < 0 || (size_t)w >= sizeof one) return bad_value(spec, opt, o, v, "too long");
        if (ws_overrides_add_compile((ws_overrides *)field, one, &err)) {
            ws_error_print(&err);
            return WS_EXIT_USAGE;
        }
        return 0;
    }
    case WS_OPT_DEVICE:
        if (!(*(const ws_device **)field = ws_device_find(v))) {
            fprintf(stderr, "warpscope: %s: unknown device '%s'; known:", spec->command, v);
            for (const ws_device *const *d = ws_device_all(); *d; d++) fprintf(stderr, " %s", (*d)->key);
            fputc('\n', stderr);
            return WS_EXIT_USAGE;
        }
        return 0;
    case WS_OPT_FOLDER:
        /* a mistyped folder would otherwise just hide what it holds */
        if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
            bool exists = stat(v, &st) == 0 || errno != ENOENT;
            fprintf(stderr, "warpscope: %s: %s %s: %s\n", spec->command, opt, v, exists ? "not a folder" : "no such folder");
            return WS_EXIT_USAGE;
        }
        *(const char **)field = v;
        return 0;
    case WS_OPT_CALL:
        return o->set(field, v) ? bad_value(spec, opt, o, v, "not accepted") : 0;
    }
    return WS_EXIT_INTERNAL;
}

int ws_cli_parse(const ws_cli_spec *spec, int argc, char **argv, void *opts, int *nargs)
{
    *nargs = 0;
    if (spec->nopts > MAX_OPTS - 2) {
        fprintf(stderr, "warpscope: %s: internal error: more than %d options\n", spec->command, MAX_OPTS - 2);
        return WS_EXIT_INTERNAL;
    }
    struct option longs[MAX_OPTS + 1];
    /* '-': operands come back in order as 1 (no permuting); ':': a missing value is ':' */
    char shorts[2 * MAX_OPTS + 4] = "-:h";
    int nl = 0, ns = 3;
    for (int i = 0; i < spec->nopts; i++) {
        const ws_opt *o = &spec->opts[i];
        int has_arg = o->kind == WS_OPT_FLAG ? no_argument : required_argument;
        if (o->name) longs[nl++] = (struct option){o->name, has_arg, NULL, OPT_ID(i)};
        if (o->letter) {
            shorts[ns++] = o->letter;
            if (has_arg) shorts[ns++] = ':';
        }
    }
    shorts[ns] = 0;
    const int version_id = OPT_ID(spec->nopts);
    longs[nl++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[nl++] = (struct option){"version", no_argument, NULL, version_id};
    longs[nl] = (struct option){NULL, 0, NULL, 0};

    ws_cli_common *common = opts;
    char *base = opts;
    int n = 0, c;
    optind = 0;                                 /* glibc: 0 re-initialises getopt entirely */
    opterr = 0;
    for (;;) {
        int at = optind ? optind : 1;           /* the element this option starts in */
        if ((c = getopt_long(argc, argv, shorts, longs, NULL)) == -1) break;
        const char *element = at < argc ? argv[at] : "";
        bool as_short = element[0] == '-' && element[1] != '-';
        if (c == 1) {                           /* an operand: gather it at the front */
            argv[1 + n++] = optarg;             /* every index below optind is already read */
            continue;
        }
        if (c == '?') {
            if (optopt >= OPT_ID(0)) {          /* "--json=1": a flag given a value */
                fprintf(stderr, "warpscope: %s: %.*s takes no value\n", spec->command, (int)strcspn(element, "="),
                        element);
                return WS_EXIT_USAGE;
            }
            if (optopt && element[0] == '-' && element[1] != '-' && strlen(element) > 2)
                return unknown(spec, element);  /* "-budget": said as one word */
            if (optopt) {
                char w[3] = {'-', (char)optopt, 0};
                return unknown(spec, w);
            }
            return unknown(spec, element);
        }
        if (c != 'h' && c != ':' && c < OPT_ID(0)) { /* a letter */
            for (int i = 0; i < spec->nopts; i++)
                if (spec->opts[i].letter == c) c = OPT_ID(i);
        }
        if (c == ':') {
            int id = optopt;
            for (int i = 0; i < spec->nopts && id < OPT_ID(0); i++)
                if (spec->opts[i].letter == id) id = OPT_ID(i);
            char opt[48];
            opt_text(&spec->opts[id - OPT_ID(0)], as_short, opt, sizeof opt);
            return needs(spec, opt, &spec->opts[id - OPT_ID(0)]);
        }
        /* getopt_long takes a unique prefix ("--bud"); warpscope wants the whole name, so
         * that a later option cannot change what an old command line means */
        if (!as_short) {
            const char *name = c == 'h' ? "help" : c == version_id ? "version" : spec->opts[c - OPT_ID(0)].name;
            size_t l = strlen(name);
            if (strncmp(element + 2, name, l) || (element[2 + l] && element[2 + l] != '='))
                return unknown(spec, element);
        }
        if (c == 'h') {
            ws_cli_help(spec, stdout);
            return WS_EXIT_OK;
        }
        if (c == version_id) {
            printf("warpscope %s\n", ws_cli_version());
            return WS_EXIT_OK;
        }
        int rc = apply(spec, &spec->opts[c - OPT_ID(0)], as_short, base, optarg);
        if (rc) return rc;
    }
    while (optind < argc)                       /* after "--" */
        argv[1 + n++] = argv[optind++];
    *nargs = n;
    if (!common->dev) common->dev = ws_device_default();
    /* the profile's own architecture: --device t4 compiles for sm_75, not the default's sm_90 */
    if (!common->arch) common->arch = common->dev->arch ? common->dev->arch : WS_DEFAULT_ARCH;
    if (common->json && common->csv) {
        fprintf(stderr, "warpscope: %s: choose one of --json and --csv\n", spec->command);
        return WS_EXIT_USAGE;
    }
    return WS_CLI_RUN;
}
