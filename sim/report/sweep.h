/* sweep.h - `warpscope sweep`: a spec's jobs (common/sweep_spec.h) run one by one, each writing
 * its record DIR/job-<id>.json, and the records merged into one table (DIR/sweep.csv, sweep.md).
 * Invariant: a record holds only what the job computed (sim's JSON document without its wall-clock
 * seconds, the job's place in the spec, the exit code), so the same spec, binary, inputs and toolchain
 * (ptxas decides the SASS counters) give byte-identical records whichever runner, order or -j ran them;
 * and no spec text reaches a shell: a job
 * is `warpscope sim` called in-process with an argument vector. */
#ifndef WS_SWEEP_H
#define WS_SWEEP_H

#include <stdio.h>

#include "../../common/sweep_spec.h"
#include "../../common/ws_error.h"

#define WS_SWEEP_RECORD_PREFIX "job-"     /* DIR/job-<id>.json */

/* Runs job j (its `warpscope sim --json ...` in this process) and writes its record into dir
 * (created if missing), replacing the file whole. Returns WS_EXIT_OK when the record was written,
 * whatever the simulation's exit code (kept in the record and in *sim_rc: a kernel that faults
 * at one size is a result of the sweep); WS_EXIT_USAGE with err set when the record cannot be
 * written; WS_EXIT_INTERNAL when memory runs out. */
int ws_sweep_run_job(const ws_sweep_spec *s, const ws_sweep_job *j, const char *dir, int *sim_rc, ws_error *err);

/* The table's columns, in order (the CSV header). */
#define WS_SWEEP_COLUMNS "job,variant,size,profile,status,predicted_us,limiter,bound_class,confidence," \
                         "occupancy_pct,thread_instructions,global_ld_sectors_per_request," \
                         "global_st_sectors_per_request,global_sectors,shared_wavefronts,bank_conflicts," \
                         "dram_bytes,effective_bandwidth_gbs,sampled,error"

/* Reads every DIR/job-<id>.json, checks they are one sweep's (one fingerprint, one job count),
 * and writes DIR/sweep.csv and DIR/sweep.md (whole or not at all), one row per job in id order, a
 * job without a record as status "missing"; then prints the markdown (csv: the CSV) on out.
 * Returns WS_EXIT_OK when every job has an ok record; otherwise the largest exit code of a failed
 * job, or WS_EXIT_USAGE for a missing one (the tables are still written) or a folder that holds no
 * records, records of two sweeps, or a file that is no record (err names the file). */
int ws_sweep_merge(const char *dir, bool csv, FILE *out, ws_error *err);

#endif
