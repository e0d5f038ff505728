/* check_explain.h - why a simulator row and a GPU row differ: a table of mechanisms, each a
 * test on the row (its class, metric, direction) and on the kernel's other facts (its other
 * rows, the prediction's bound and terms, the confidence notes, the PTX and SASS summaries),
 * and a sentence with the numbers that make the case. The first rule that applies names the
 * cause; where none does, the sentence is CHK_UNEXPLAINED ("unexplained: missing ") and the
 * measurement that would decide it, so a report can count such rows. Never the bare word.
 * Every fact is optional: `check` and `check --replay` know the prediction (bound, terms,
 * notes, bytes left dirty in L2), `check --markdown` knows only the recorded rows, and a rule
 * that needs an unknown fact does not apply.
 * Invariant: explaining writes causes only; no value, class or verdict changes here. */
#ifndef CHECK_EXPLAIN_H
#define CHECK_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "../sim/models/confidence.h"
#include "../sim/models/timing.h"
#include "../sim/sass/sass_map.h"
#include "check_compare.h"
#include "cu_sass.h"

typedef struct {
    const chk_row *rows;        /* the run's judged rows: the other counters a rule compares with */
    int nrows;
    bool has_timing;            /* the prediction's terms are known (a simulation ran now) */
    ws_timing timing;
    double launch_us;           /* the device profile's launch overhead, 0 = unknown (used without timing) */
    const ws_notes *notes;      /* what the prediction rests on (sim/models/confidence.h), NULL = unknown */
    bool has_dirty_at_end;
    double dirty_at_end_bytes;  /* the model's L2 bytes still dirty after the kernel (ws__l2_dirty_bytes_at_end) */
    bool has_l1_miss;           /* the model's L1 load lookup misses (global + local) are known: a record without
                                   those rows (a --no-sim run of a few counters) still has the model's count */
    double l1_miss_sectors;
    bool has_far_miss;
    double far_miss_sectors;    /* the model's read lookup misses a far partition's copy took and the home served
                                   over the L2 fabric (ws__l2_far_miss_sectors.sum) */
    const cu_access_summary *ptx, *sass; /* static PTX / SASS access counts, NULL = no machine code */
    const char *no_sass;        /* why there is no SASS to compare, NULL = not asked for */
    bool counted_sass;          /* the simulation counted the machine code's instructions (ptxas + nvdisasm) */
    const ws_sass_guess *guess; /* then the part of those counts resting on stand-in anchors, NULL = unknown */
    const char *kernel;         /* the kernel's name, for other GPU runs of it (check_others.h); NULL = none */
    double blocks;              /* the launch's blocks, 0 = unknown */
    int coalesce_group_sms;     /* the profile's L2 request coalescer group (SMs), 0 = none or unknown */
    int coalesce_groups;        /* the coalescer groups the grid's blocks fill in the model (ws_device_grid_groups) */
} chk_facts;

#define CHK_UNEXPLAINED "unexplained: missing "
#define CHK_VARIES "the GPU's count varies run to run" /* where another run contradicts the record */
/* An exact row of a sampled simulation whose exact counters are estimates (check --replay of a
 * --no-sim run): judged within the cache tolerance, its cause opens with this sentence (no ';'
 * in it), "sampled: an estimate from N of M blocks (...), judged within the cache tolerance". */
#define CHK_SAMPLED_ESTIMATE "sampled: an estimate from "

/* The cause a report shows for row r: a differing row's; an agreeing row's only where it says
 * CHK_VARIES or CHK_SAMPLED_ESTIMATE; "" otherwise. */
const char *chk_shown_cause(const chk_row *r);

/* The cause of row r (any verdict: the validation report explains its worst rows) into out.
 * Returns true when a mechanism applies, false when out says CHK_UNEXPLAINED "...". A row
 * whose values are equal gets "" and true. */
bool chk_explain_row(const chk_row *r, const chk_facts *f, char *out, size_t cap);

/* Sets cause and explained of every DIFFER row of rows[0..n) (f->rows may be rows itself), and the
 * cause of an AGREE cache row whose GPU count another run of the kernel contradicts (check_others.h:
 * "the GPU's count varies run to run ..."; its verdict stays). */
void chk_explain_rows(chk_row *rows, int n, const chk_facts *f);

/* The rule chk_explain_row applied to r last: its name in the table ("dram write-back during
 * the kernel", ...), "none" where no rule applied. For tests and the validation report. */
const char *chk_explain_rule(const chk_row *r, const chk_facts *f);

#endif
