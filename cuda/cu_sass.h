/* cu_sass.h - what the final machine code does with memory, beside what the
 * PTX says: static counts of load/store/atomic instructions per memory space
 * and access width, from the PTX text and from `cuobjdump -sass` of a cubin
 * that ptxas built from the same PTX (nvdisasm, else cuobjdump -sass). `check` uses the difference to name the
 * cause of a counter mismatch (e.g. four ld.shared.f32 became one LDS.128;
 * local memory from spills that the PTX does not have).
 * Invariant: summaries count instructions in the program text, not executions. */
#ifndef CU_SASS_H
#define CU_SASS_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/ws_error.h"

typedef enum { CU_SP_GLOBAL, CU_SP_SHARED, CU_SP_LOCAL, CU_SP_GENERIC, CU_SP_COUNT } cu_space;
typedef enum { CU_OP_LD, CU_OP_ST, CU_OP_ATOM, CU_OP_COUNT } cu_op;
#define CU_NWIDTHS 5 /* 1, 2, 4, 8, 16 bytes */

typedef struct {
    bool found;                                   /* the function was in the text */
    int count[CU_SP_COUNT][CU_OP_COUNT][CU_NWIDTHS];
} cu_access_summary;

int cu_width_index(int bytes);                    /* 1->0 2->1 4->2 8->3 16->4, else -1 */
int cu_summary_total(const cu_access_summary *s, cu_space sp, cu_op op);

/* Summarises function `name` (exact PTX name) in cuobjdump -sass output. */
void cu_sass_summarize(const char *sass, const char *name, cu_access_summary *s);
/* Summarises .entry/.func `name` in PTX text (ld/ldu/st/atom/red on global,
 * shared, local or generic addresses; param and const accesses are not LSU traffic). */
void cu_ptx_summarize(const char *ptx, const char *name, cu_access_summary *s);

/* The SASS listing of ptx for arch ("sm_90"), entry alone (NULL = every entry): the simulator's
 * ws_sass_compile (ptxas + nvdisasm), else ptxas + cuobjdump -sass, under common/child.h's
 * limits. Returns malloc'd text, or NULL with err (tool missing, failed, or stopped by a limit). */
char *cu_sass_dump(const char *ptx, const char *arch, const char *entry, ws_error *err);

/* The cause of a disagreeing exact counter, from the two summaries. Writes a
 * sentence into out and returns true when the PTX and the SASS differ for the
 * metric's memory space; returns false (out = "") otherwise, and the caller
 * (cuda/check_explain.h) looks for another mechanism or names the evidence missing.
 * Metric names are ncu's ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
 * "smsp__sass_inst_executed_op_shared_ld.sum", ...). */
bool cu_sass_cause(const char *metric, const cu_access_summary *ptx, const cu_access_summary *sass, char *out,
                   size_t cap);

/* Which space/op a metric counts: its row's space and op columns (sim/models/metrics.h); false
 * when it has no row, counts no one space and op, or counts tensor-era instructions. */
bool cu_metric_space(const char *metric, cu_space *sp, cu_op *op);

#endif
