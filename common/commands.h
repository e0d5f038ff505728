/* commands.h - the warpscope subcommands and the exit codes they share.
 * Each module owns its subcommand: list (common/), ptx and sim (sim/),
 * gpu and check (cuda/), viz (viz/), sweep (sim/report/). Every command parses its options with
 * common/cli.h, so each takes -h/--help and --version and words errors alike. */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

/* What each code means is written once, in ws_cli_exit_table (common/cli.c), which every
 * --help and the README show. */
enum {
    WS_EXIT_OK = 0,
    WS_EXIT_USAGE = 1,         /* input error: command line, description, PTX, font, an output that
                                  cannot be written (stdout too), arguments that do not fit the
                                  parameters, a launch beyond the simulator's or the GPU's limits,
                                  an instruction the simulator does not run */
    WS_EXIT_KERNEL_FAULT = 2,  /* the kernel misbehaved (in simulation or on the GPU): out of bounds,
                                  barrier misuse, race or memory error (when asked), runaway loop */
    WS_EXIT_MISMATCH = 3,      /* check: output or an exact counter disagrees */
    WS_EXIT_NO_GPU = 4,        /* no usable GPU: no driver or device, built without CUDA headers, or
                                  the GPU or driver failed a valid request (device memory, a driver error) */
    WS_EXIT_INTERNAL = 5       /* out of host memory, a bug in warpscope */
};

int ws_cmd_list(int argc, char **argv);
int ws_cmd_ptx(int argc, char **argv);
int ws_cmd_sim(int argc, char **argv);
int ws_cmd_gpu(int argc, char **argv);
int ws_cmd_check(int argc, char **argv);
int ws_cmd_viz(int argc, char **argv);
int ws_cmd_sweep(int argc, char **argv);

#endif
