/* main.c - the warpscope program: dispatches to one subcommand per module. */
#include <stdio.h>
#include <string.h>

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
};

static void usage(FILE *to)
{
    fprintf(to, "usage: warpscope <command> [options] [kernel...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(to, "  %-6s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\n'warpscope <command> --help' (or 'warpscope help <command>') shows each command's options.\n"
                "exit codes: 0 ok, 1 usage or input error, 2 kernel fault in simulation,\n"
                "            3 check mismatch, 4 no GPU available, 5 internal error\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "help") && argc > 2) { /* "warpscope help sim" = "warpscope sim --help" */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                char *hargv[] = {argv[2], "--help", NULL};
                return commands[i].run(2, hargv);
            }
        fprintf(stderr, "warpscope: help: unknown command '%s'\n", argv[2]);
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return WS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "warpscope: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return WS_EXIT_USAGE;
}
