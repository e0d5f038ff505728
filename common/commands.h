/* commands.h - the warpscope subcommands and the exit codes they share.
 * Each module owns its subcommand: list (common/), ptx and sim (sim/),
 * gpu and check (cuda/), viz (viz/). Every command parses its options with
 * common/cli.h, so each takes -h/--help and --version and words errors alike. */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

enum {
    WS_EXIT_OK = 0,
    WS_EXIT_USAGE = 1,         /* bad command line, bad description, bad PTX, unknown kernel */
    WS_EXIT_KERNEL_FAULT = 2,  /* the simulated kernel misbehaved: out of bounds, barrier
                                  misuse, race (when asked), runaway loop */
    WS_EXIT_MISMATCH = 3,      /* check: output or an exact counter disagrees */
    WS_EXIT_NO_GPU = 4,        /* gpu/check: no driver, no GPU, or built without CUDA headers */
    WS_EXIT_INTERNAL = 5       /* out of memory, I/O failure, bug */
};

int ws_cmd_list(int argc, char **argv);
int ws_cmd_ptx(int argc, char **argv);
int ws_cmd_sim(int argc, char **argv);
int ws_cmd_gpu(int argc, char **argv);
int ws_cmd_check(int argc, char **argv);
int ws_cmd_viz(int argc, char **argv);

#endif
