/* simulate.h - one kernel through the simulator with every memory model listening: the
 * pipeline `warpscope sim`, the visualizer and `warpscope check` share. Open resolves
 * the kernel (description, -D overrides, PTX, entry, ptxas resources); run derives the
 * occupancy, sizes the cache model for it (L1 left by the shared carve-out, resident
 * blocks per SM, the function's dependent loads), interprets the launch, finishes the
 * models and predicts the time. The one data path it wires:
 *   interpreter -> (racecheck) -> (SASS stage: events as ptxas's machine code makes them)
 *               -> models (one ws_mem_verdict per event)
 *               -> {memstats, latency epochs, the caller's observer} -> timing.
 * Invariant: a kernel with the same -D, device and resources gives the same numbers
 * through every command, because no command repeats a step of this pipeline. */
#ifndef WS_SIMULATE_H
#define WS_SIMULATE_H

#include <stdbool.h>

#include "../common/catalog.h"
#include "../common/device.h"
#include "interp/interp.h"
#include "models/latency.h"
#include "models/memstats.h"
#include "models/models.h"
#include "frontend/occupancy.h"
#include "interp/racecheck.h"
#include "frontend/resources.h"
#include "sample.h"
#include "sass/sass_events.h"
#include "models/timing.h"

typedef struct {
    /* what is simulated */
    const ws_device *dev;
    const ws_desc_file *file;      /* the .cu: the catalog's, owned_file or the caller's */
    const ws_kernel_desc *desc;
    ws_launch launch;              /* resolved with the -D overrides */
    char *ptx;                     /* the PTX text the module was parsed from; NULL when attached */
    ws_ptx_origin ptx_origin;      /* where that text came from */
    const ptx_module *mod;
    const ptx_function *fn;        /* the entry */
    ws_resources resources;        /* registers, static shared and local bytes behind the occupancy */
    /* what ws_simulation_run produced */
    ws_occupancy occ;
    ws_models *models;             /* finished: the cache model's state and totals */
    ws_memstats *ms;               /* finished: totals, per-pc rows, ncu-named metrics */
    ws_latency *latency;           /* finished: per-SM latency cycles behind the latency term */
    ws_sim_result result;          /* instruction counts and the final buffers */
    bool have_result;
    bool have_timing;              /* false: the device profile has no clock or bandwidth */
    ws_timing timing;
    uint64_t spin_warp_insns;      /* of the warp instructions counted (SASS where known), the blocking wait
                                      loops' retries the timing model leaves out (0: none) */
    double seconds;                /* wall time of the interpreter run */
    ws_racecheck *race;            /* the run's hazards when opts.racecheck (print with ws_racecheck_print) */
    ws_sass_session *sass;         /* the machine code's view (issue 12): sass->active, sass->level */
    ws_sampler *sampler;           /* block sampling (issue 25; sim/sample.h); NULL = the run was full */
    char sampling[2048];           /* the report's line: "sampled: N of M blocks ...", or why a launch
                                      that would be sampled ran full; "" = full, nothing to say */
    char arch[16];                 /* the target asked for ("sm_75"); the PTX's .target may differ
                                      when it could not be compiled for it (then an approximation) */
    /* owned, freed by ws_simulation_close */
    ws_desc_file *owned_file;      /* a .cu named outside the catalog */
    ptx_module *owned_mod;
} ws_simulation;

typedef struct {
    ws_verdict_fn observer;        /* each event's verdict, after memstats and latency (the visualizer);
                                      NULL = none */
    void *observer_ctx;
    bool observer_any_blocks;      /* the observer needs no block in particular (sim --html keeps each line's
                                      first execution): block sampling stays as asked */
    const char *progress_label;    /* "warpscope sim": a progress line on stderr once a run passes 1 s;
                                      NULL = silent */
    bool fit_one_block;            /* a block that fits 0 times per SM is simulated as 1 resident block
                                      instead of refused: the GPU backend, whose driver accepted it */
    /* checkers (issue 7; sim/interp/racecheck.h, sim/interp/memcheck.h) */
    bool racecheck;                /* keep shared-memory hazards in s->race */
    bool memory_errors_are_warnings; /* count memory errors per kind and go on (memcheck) */
    uint64_t max_thread_insns;     /* instruction budget; 0 = WS_SIM_DEFAULT_BUDGET */
    int threads;                   /* threads for the blocks (ws_sim_config.threads); 0 = every online core */
    FILE *printf_out;              /* the kernel's printf and failed asserts, as the GPU prints them;
                                      NULL = not printed (ws_sim_config.printf_out) */
    /* SASS (issue 12; sim/sass/sass_events.h): counters as ptxas's machine code executes them */
    bool ptx_level;                /* stay PTX-level even where ptxas and nvdisasm are installed */
    const char *sass_listing;      /* a recorded nvdisasm -c -gi listing to use instead of running the tools */
    const char *ptx_text;          /* the PTX of an attached kernel (ws_simulation_attach keeps none) */
    /* block sampling (issue 25; sim/sample.h): OFF (0, --full) never; AUTO (sim's default)
       launches estimated above WS_SAMPLE_AUTO_THREAD_INSNS; ON (--sample) whenever it saves
       blocks. The final buffers of a sampled run are incomplete. A checker or an observer
       runs full. */
    ws_sample_mode sample;
    int sample_waves;              /* --sample-waves: the sampler's lead is that many whole waves, whatever
                                      they cost (ws_sampler_set_waves); 0 = its default; needs sample ON */
    /* the blocks the caller lets run (the visualizer's shown blocks and their warm-up, issue 25):
       ws_sim_config.block_next / blocks_planned; NULL = every block (or the sampler's). With it
       the run is never sampled, and its counters are those of the blocks run only. */
    ws_block_next_fn block_next;
    ws_blocks_planned_fn blocks_planned;
    void *filter_ctx;
    ws_async_fn on_async;          /* ws_sim_config.on_async: cp.async groups, mbarrier operations (the
                                      visualizer); NULL = none */
    void *async_ctx;
    const volatile int *stop;      /* ws_sim_config.stop: the observer ends the run early (its recording is
                                      full); the models finish on what ran. NULL = to the end */
    bool lazy_fill;                /* ws_sim_config.lazy_fill: the buffers filled where touched; result.buffer_data
                                      is then not the launch's output (the visualizer's shown blocks) */
} ws_simulation_opts;

/* Resolves kernel argument arg ("transpose_naive", "k.cu", "k.cu:name") in cat with the -D
 * overrides ov (may be NULL), parses its PTX for arch (NULL = sm_90; ws_catalog_ptx_text's
 * rule), finds the entry and reads its resources (ws_resources_of). Returns WS_EXIT_OK, or
 * WS_EXIT_USAGE with err naming the file and line at fault, also when the entry holds PTX
 * the simulator cannot run (ws_sim_check_runnable: only that kernel is refused, not the
 * file); close s in either case. */
int ws_simulation_open(ws_simulation *s, ws_catalog *cat, const char *arg, const ws_overrides *ov,
                       const ws_device *dev, const char *arch, ws_error *err);

/* Attaches a kernel the caller already holds (the GPU backend: its PTX parsed, its
 * registers from the driver): launch is copied; file, desc, mod and fn stay the caller's
 * and must outlive s. */
void ws_simulation_attach(ws_simulation *s, const ws_device *dev, const ws_desc_file *file,
                          const ws_kernel_desc *desc, const ws_launch *launch, const ptx_module *mod,
                          const ptx_function *fn, const ws_resources *resources);

/* Occupancy, memory models, the interpreter, the models' end of kernel, the timing model.
 * o may be NULL. Returns WS_EXIT_OK; WS_EXIT_USAGE when the block cannot run on the
 * device or the simulator refuses the launch (arguments that do not fit, a resource
 * limit, an unsupported instruction, PTX of the kernel or a function it calls that the
 * simulator does not run: ws_sim_check_runnable; s->result.stop == WS_SIM_REFUSED);
 * WS_EXIT_KERNEL_FAULT when the kernel faults (err: block, warp, lane, line);
 * WS_EXIT_INTERNAL when memory runs out. After a fault s->result still holds the
 * counts up to the stop (the memcheck summary among them). */
int ws_simulation_run(ws_simulation *s, const ws_simulation_opts *o, ws_error *err);

/* Frees what s owns (the memory models, the final buffers, PTX, an owned .cu) and zeroes it. */
void ws_simulation_close(ws_simulation *s);

#endif
