/* check_others.h - other GPU runs of recorded kernels, for the causes: Nsight Compute CSVs (the
 * long "details" form) with a first column "corpus kernel" naming the kernel, as
 * scripts/gpu-corpus-detail.sh writes them (lrc.csv; repeats.csv with a "repeat" column too).
 * Where another run of a kernel measured a counter well away from the recorded value, the GPU's
 * own count varies from run to run, and check says so beside the row's verdict.
 * Invariant: the table only adds causes: no value, class or verdict is read from it. */
#ifndef CHECK_OTHERS_H
#define CHECK_OTHERS_H

#include <stdbool.h>

#include "../common/ws_error.h"

/* Adds every (kernel, metric, value) row of the CSV at path to the process's table. Returns the
 * rows added, or -1 with err (unreadable, no "corpus kernel" / "Metric Name" / "Metric Value"). */
int chk_others_load(const char *path, ws_error *err);

/* The values other runs measured for kernel's metric: how many, their least and greatest, and the
 * file of the first. false where none did. */
bool chk_others_range(const char *kernel, const char *metric, int *n, double *lo, double *hi, const char **file);

/* The same of the runs that launched `blocks` blocks (their launch__grid_size row; blocks <= 0: every
 * run), so a run at another size is not taken for a repeat. */
bool chk_others_range_of(const char *kernel, const char *metric, long long blocks, int *n, double *lo, double *hi,
                         const char **file);

/* The values other runs measured for kernel's metric, into out[0..cap); where blocks > 0 only
 * those of runs that launched that many blocks (their launch__grid_size row), so a run at another
 * size is not taken for a repeat. Returns how many. */
int chk_others_values(const char *kernel, const char *metric, long long blocks, double *out, int cap);

/* The i-th file loaded (0 ..), in load order, or NULL past the last: reports name their operands. */
const char *chk_others_file(int i);

/* Empties the table (tests). */
void chk_others_clear(void);

#endif
