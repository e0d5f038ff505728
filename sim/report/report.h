/* report.h - what `warpscope sim` prints: launch and occupancy, kernel totals under
 * Nsight Compute's names with a plain-language column, a per-source-line table,
 * predicted time and bandwidth, and the time recorded on a real GPU where results/ has
 * it; as text, JSON or CSV, or two variants side by side. The document kinds at the end
 * hand a ws_report to common/emit.h, which picks the form.
 * Invariant: the report only formats; every number comes from memstats, occupancy
 * and timing, so the text, JSON and CSV forms always agree. *
 * Room sim/report/: what sim prints: documents for common/emit.h, built from finished sums; no model runs here. (docs/architecture.md, "The rooms of sim/") */
#ifndef WS_REPORT_H
#define WS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../common/desc.h"
#include "../../common/device.h"
#include "../../common/emit.h"
#include "../../common/measured.h"
#include "../../common/ws_error.h"
#include "../models/confidence.h"
#include "../interp/fault.h"
#include "../models/memstats.h"
#include "../sample.h"
#include "../frontend/occupancy.h"
#include "../interp/racecheck.h"
#include "../models/timing.h"

/* Everything one simulated launch produced; pointers are borrowed. */
typedef struct {
    const char *kernel;          /* description name */
    const char *entry;           /* __global__ function (PTX name) */
    const char *source_path;     /* .cu */
    const char *source_text;     /* whole .cu text, for the line column (may be NULL) */
    int kernel_line;             /* line of the description block */
    const char *note;
    const ws_launch *launch;
    const ws_device *dev;
    int regs;                    /* registers per thread used for occupancy */
    const char *regs_source;     /* "demos/transpose.resources" or "estimate: ..." */
    uint32_t static_smem;
    uint64_t local_bytes;        /* per thread */
    const ws_occupancy *occ;
    const ws_memstats *ms;       /* finished */
    const ws_timing *timing;
    uint64_t warp_insns, thread_insns;
    double sim_seconds;          /* wall time of the simulation */
    const ws_measured *measured; /* the GPU run recorded in results/<device>.json, NULL = none */
    const char *counters_level;  /* "SASS (ptxas ...): ..." / "PTX-level: ..." (sim/sass/sass_events.h), NULL = unsaid */
    bool counters_approximate;   /* some "exact" counter rests on an approximate PTX-to-SASS match */
    uint64_t sass_warp_insns;    /* SASS warp instructions (the issue term's count), 0 = PTX-level */
    uint64_t spin_warp_insns;    /* of the warp instructions (SASS where known), a blocking wait loop's retries
                                    the timing model leaves out (ws_simulation.spin_warp_insns) */
    const char *sampling;        /* "sampled: N of M blocks ..." / "full: not sampled: why"; NULL or "" = full */
    ws_sample_info sample;       /* the numbers behind it (sim/sample.h); zero = unsaid */
    const char *overrides;       /* the -D text as given, "" for none (NULL = unsaid) */
    const char *compiler;        /* ptx_origin.compiler: "compiled with NVRTC 13.0", "checked-in PTX" */
    const ws_racecheck *race;    /* --racecheck's hazards (JSON findings), NULL = not run */
    const ws_nreg_report *nreg;  /* setmaxnreg's register accounting (interp.h), NULL = the kernel has none */
    const ws_sim_result *result; /* memcheck's counts and first messages (JSON findings), NULL = none */
    const ws_notes *notes;       /* what the prediction rests on that is not modelled (confidence.h), NULL = unsaid */
    const struct ws_line_pics *pictures; /* each line's first execution, for --html's pictures
                                            (report_pictures.h), NULL = none kept */
} ws_report;

/* A "poor" line wastes at least this factor over its ideal sectors or wavefronts. */
#define WS_REPORT_POOR_RATIO 1.25

/* One row per (source line, space, op): a line's loads and stores are judged apart. */
typedef struct {
    int line;                    /* .cu line, 0 = unknown */
    ws_space space;
    ws_mem_op op;
    int nmem;                    /* memory instructions (pcs) on the line */
    uint64_t executions;         /* warp-level executions of those instructions */
    uint64_t active_lanes;       /* their active lanes summed (active_lanes / 32 executions = SIMT efficiency) */
    uint64_t requests, sectors, ideal_sectors;       /* global + local */
    uint64_t shared_insts, wavefronts, ideal_wavefronts, ncu_conflicts;
    uint64_t l1_hits, l1_lookups;
    char kinds[96];              /* "ld.global.4 st.shared.4" (space and width of each) */
    bool poor;
    char flag[64];               /* "uncoalesced: 8.0 sectors/req, ideal 4.0" */
} ws_line_row;

/* Per-source-line rows of the memory instructions, sorted by line, space, op; *rows is
 * malloc'd (free it). Returns the count, -1 on out-of-memory. */
int ws_report_lines(const ws_report *r, ws_line_row **rows);

/* Text report. all_lines: the per-line table shows every source line of the kernel
 * function's range, not only lines with memory instructions. */
void ws_report_text(FILE *f, const ws_report *r, bool all_lines);
/* The per-source-line table alone, headed "<label> = <kernel>" when label is set (the two
 * tables of `sim --compare --lines`). */
void ws_report_line_table(FILE *f, const ws_report *r, const char *label, bool all_lines);
/* JSON document (one object, ws_report_kind). Returns 0, -1 on OOM. */
int ws_report_json(FILE *f, const ws_report *r);
/* The JSON document of a run that stopped at a kernel fault (exit 2): schema_version, tool,
 * kernel, compiler, device_profile and the findings so far plus the fault (status "fault").
 * Needs kernel, dev, launch (may be NULL), source_path; 0, or -1 on OOM. */
int ws_report_fault_json(FILE *f, const ws_report *r, const ws_fault *fault);
/* The members of those documents after the envelope (emit.h's ws_json_envelope); 0. */
int ws_report_json_members(struct cJSON *o, const ws_report *r);
int ws_report_fault_members(struct cJSON *o, const ws_report *r, const ws_fault *fault);
/* Long-format CSV (docs/csv.md): kernel,variant,scope,line,metric,unit,value,basis,cause; kernel
 * totals then one record per (source line, metric). variant: the -D text or "A"/"B";
 * header: write the column line first (once per document). Time is in microseconds. */
void ws_report_csv(FILE *f, const ws_report *r, const char *variant, bool header);
/* Two variants side by side: totals, per-instruction efficiency, occupancy, time. */
void ws_report_compare(FILE *f, const ws_report *a, const ws_report *b);
/* The verdict of `sim --compare` as CSV records (variant "A vs B"): ws__compare_ratio
 * (t_A / t_B), ws__compare_b_faster (1/0), ws__compare_confidence (0 high, 1 medium, 2 low). */
void ws_report_csv_verdict(FILE *f, const ws_report *a, const ws_report *b);
/* The same verdict as the JSON member "verdict" of o (the compare document); 0, -1 on OOM. */
int ws_report_json_verdict(struct cJSON *o, const ws_report *a, const ws_report *b);

/* `sim --html FILE` (sim/report/report_html.c): one self-contained HTML page (inline CSS, SVG
 * and JS; it fetches nothing) of a, or of a and b side by side with the verdict (b NULL: one
 * variant): the source with the per-line heat map (waste over ideal, as viz colours it), the
 * per-line rows (the JSON "lines" columns, a line's loads and stores apart), sector and bank
 * pictures of the costliest lines where r->pictures has them, the totals, the time and its
 * limiter. Every user string is HTML-escaped. Returns 0, -1 on a write error. */
int ws_report_html(FILE *f, const ws_report *a, const ws_report *b);

/* `sim`'s documents for ws_emit (sim/report/report_emit.c). ws_report_kind: a alone (text, JSON, CSV
 * with the -D text as the variant); ws_report_compare_kind: a and b side by side (text with both
 * line tables when all_lines, and the verdict lines), JSON {"command": "sim --compare",
 * "variants": [a, b], "verdict": {...}}, CSV with variants "A" and "B" then the "A vs B" verdict
 * records). */
typedef struct {
    const ws_report *a, *b;      /* b: --compare's second variant, else NULL */
    bool all_lines;              /* --lines */
} ws_sim_doc;
extern const ws_doc_kind ws_report_kind, ws_report_compare_kind;
/* A run stopped at a fault: JSON only (status "fault"). */
typedef struct {
    const ws_report *r;
    const ws_fault *fault;       /* the record the interpreter filled (sim/interp/fault.h) */
} ws_sim_fault_doc;
extern const ws_doc_kind ws_report_fault_kind;

/* `warpscope sim` with its document written to out instead of stdout (sweep run keeps each job's
 * JSON in memory; errors still go to stderr, and the kernel's printf to stdout unless --json or --csv
 * is given, then stderr). ws_cmd_sim is ws_cmd_sim_to(argc, argv, stdout). */
int ws_cmd_sim_to(int argc, char **argv, FILE *out);

#endif
