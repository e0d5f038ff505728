/* main.c - the warpscope program: dispatches to one subcommand per module.
 * Invariant: every command, help included, parses its options with common/cli.h, and
 * no command's exit code says "ok" when its output did not all reach stdout. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} ws_command;

#ifndef WS_HAVE_SDL
/* Built without SDL2: the command exists and says why it cannot run. */
int ws_cmd_viz(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: viz: this build has no visualizer (SDL2, SDL2_ttf, SDL2_image or "
                    "fontconfig was not found at build time); run scripts/deps.sh and rebuild\n");
    return WS_EXIT_USAGE;
}
#endif

static const ws_command commands[] = {
    {"list", ws_cmd_list, "list the catalog's kernels (or those in given .cu files) and their parameters"},
    {"ptx", ws_cmd_ptx, "show a kernel's parsed PTX beside its source lines, memory instructions marked"},
    {"sim", ws_cmd_sim, "simulate a kernel on the CPU: sectors, wavefronts, caches, DRAM, predicted time"},
    {"gpu", ws_cmd_gpu, "run a kernel on the GPU present: time it, check its output, read counters"},
    {"check", ws_cmd_check, "sim and GPU side by side, counter by counter, with the cause of each difference"},
    {"viz", ws_cmd_viz, "animate a simulated kernel's lanes, banks and sectors (SDL2 window or headless PNGs)"},
    {"sweep", ws_cmd_sweep, "variants x sizes x device profiles as jobs for make -j, GNU parallel or Slurm; one table"},
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *to)
{
    fprintf(to, "usage: warpscope <command> [options] [kernel...]\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(to, "  %-6s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\n'warpscope <command> --help' (or 'warpscope help <command>') shows each command's options;\n"
                "options take their value as '--opt value' or '--opt=value'. 'warpscope --version' (or\n"
                "'warpscope <command> --version') prints the version.\n\n%s", ws_cli_exit_table);
}

/* "unknown command 'sin'; did you mean 'sim'?" */
static void unknown_command(const char *prefix, const char *name)
{
    const char *names[NCOMMANDS + 3];
    for (int i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    names[NCOMMANDS + 1] = "--help";
    names[NCOMMANDS + 2] = "--version";
    const char *near = ws_cli_nearest(name, names, NCOMMANDS + 3);
    fprintf(stderr, "warpscope: %sunknown command '%s'", prefix, name);
    if (near) fprintf(stderr, "; did you mean '%s'?", near);
    fputc('\n', stderr);
    usage(stderr);
}

static const ws_cli_spec help_spec = {
    .command = "help",
    .usage = "usage: warpscope help [command]\n",
    .about = "Lists the commands, or shows one command's options (the same as 'warpscope <command> --help').\n",
};

/* `warpscope help [command]` */
static int cmd_help(int argc, char **argv)
{
    ws_cli_common o = {.json = false};
    int nargs;
    int rc = ws_cli_parse(&help_spec, argc, argv, &o, &nargs);
    if (rc != WS_CLI_RUN) return rc;
    if (nargs == 0) {
        usage(stdout);
        return WS_EXIT_OK;
    }
    if (nargs > 1) {
        fprintf(stderr, "warpscope: help: one command at a time ('%s' and '%s')\n", argv[1], argv[2]);
        return WS_EXIT_USAGE;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            char *hargv[] = {argv[1], "--help", NULL};
            return commands[i].run(2, hargv);
        }
    unknown_command("help: ", argv[1]);
    return WS_EXIT_USAGE;
}

/* Every byte a command printed on stdout must have reached it: a full disk or a closed
 * pipe would otherwise leave a truncated report behind exit 0. A write error is an
 * output the user chose that cannot be written: an input error (exit 1), unless the
 * command already failed for a graver reason. */
static int finish_stdout(int rc)
{
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int why = errno;
    if (failed && !why) {
        /* an earlier write failed (a report longer than the buffer): errno is gone, so one more
           byte on the already incomplete output finds the cause (ENOSPC, EPIPE, ...) */
        clearerr(stdout);
        errno = 0;
        if (fputc('\n', stdout) == EOF || fflush(stdout) != 0) why = errno;
    }
    if (fclose(stdout) != 0 && !failed) {
        failed = true;
        why = errno;
    }
    if (!failed) return rc;
    fprintf(stderr, "warpscope: cannot write the output to stdout%s%s; the output is incomplete\n",
            why ? ": " : "", why ? strerror(why) : "");
    return rc == WS_EXIT_OK || rc == WS_EXIT_MISMATCH ? WS_EXIT_USAGE : rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return WS_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("warpscope %s\n", ws_cli_version());
        return WS_EXIT_OK;
    }
    if (!strcmp(cmd, "help"))
        return cmd_help(argc - 1, argv + 1);
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    unknown_command("", cmd);
    return WS_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    return finish_stdout(dispatch(argc, argv));
}
