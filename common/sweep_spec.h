/* sweep_spec.h - a sweep's spec: the variants, -D size sets and device profiles whose cross
 * product `warpscope sweep` runs as independent jobs, numbered 1..count, that any job runner
 * (make -j, GNU parallel, a Slurm array) spreads; each job writes its own record.
 *
 * Format (one item list per line; '#' starts a comment at a line's start or after a blank):
 *
 *   variant  transpose_naive transpose_padded   catalog names, path/k.cu or path/k.cu:name
 *   size     W=1024 H=1024                      one -D set per line (NAME=VALUE words, no blanks
 *   size     W=4096 H=4096                      inside a word); `defaults` = no -D; the word
 *   size     realistic                          `realistic` = --realistic (-D words still win)
 *   profile  h200 a100                          device profile keys (warpscope sim --help)
 *   threads  1                                  each job's sim -j (default 1: the runner spreads)
 *   sample   auto                               auto | on (--sample) | off (--full)
 *
 * No size line is one size, the defaults; no profile line is the default profile (h200).
 * Invariant: a parsed spec has at least one variant, names only device profiles that exist and
 * every item once, and ws_sweep_job gives the same job for an id on every machine: ids are
 * variant-major, then size, then profile (id = ((v * S) + s) * P + p + 1). */
#ifndef WS_SWEEP_SPEC_H
#define WS_SWEEP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "ws_error.h"

#define WS_SWEEP_MAX_JOBS 1000000      /* a spec expanding past this is refused (a typo, not a sweep) */
#define WS_SWEEP_MAX_DEFINES 16        /* -D words on one size line */
#define WS_SWEEP_WORD_MAX 256          /* bytes of one word (a variant, a NAME=VALUE) */
#define WS_SWEEP_SPEC_MAX_BYTES (1u << 20)

typedef enum { WS_SWEEP_SAMPLE_AUTO, WS_SWEEP_SAMPLE_ON, WS_SWEEP_SAMPLE_OFF } ws_sweep_sample;

typedef struct {
    char name[WS_SWEEP_WORD_MAX];      /* as sim takes it: "copy_float", "k.cu:scale" */
    int line;                          /* 1-based line of the spec that named it */
} ws_sweep_variant;

typedef struct {
    int ndefines;
    char defines[WS_SWEEP_MAX_DEFINES][WS_SWEEP_WORD_MAX]; /* "NAME=VALUE", in the order given */
    bool realistic;                    /* --realistic */
    char label[WS_SWEEP_MAX_DEFINES * WS_SWEEP_WORD_MAX];  /* the line's words joined by one blank:
                                          "W=1024 H=1024", "realistic", "defaults" */
    int line;                          /* 0 = the implicit defaults (no size line) */
} ws_sweep_size;

typedef struct {
    const ws_device *dev;              /* a profile of common/device.c */
    int line;                          /* 0 = the implicit default profile */
} ws_sweep_profile;

typedef struct {
    char path[WS_PATH_MAX];            /* the spec file as given, for errors and records */
    int nvariants, nsizes, nprofiles;
    ws_sweep_variant *variants;        /* malloc'd arrays: ws_sweep_spec_free */
    ws_sweep_size *sizes;
    ws_sweep_profile *profiles;
    int threads;                       /* each job's -j, 1..1024 */
    ws_sweep_sample sample;
    uint64_t fingerprint;              /* FNV-1a 64 of the spec's bytes: tells one sweep's records
                                          from another's in a folder */
} ws_sweep_spec;

/* One job: borrowed pointers into its spec. */
typedef struct {
    long id;                           /* 1..ws_sweep_count */
    const ws_sweep_variant *variant;
    const ws_sweep_size *size;
    const ws_sweep_profile *profile;
} ws_sweep_job;

/* Parses text[0..len) (path names it in errors). Returns 0, or -1 with err at the offending
 * file:line:col ("sweep.txt:3:9: unknown device profile 'h20'; did you mean 'h200'?"); *out is
 * then empty (nothing to free). Example:
 *   ws_sweep_spec s; if (ws_sweep_spec_parse(txt, n, "sweep.txt", &s, &err)) ws_error_print(&err); */
int ws_sweep_spec_parse(const char *text, size_t len, const char *path, ws_sweep_spec *out, ws_error *err);
/* Reads path (a regular file of at most WS_SWEEP_SPEC_MAX_BYTES) and parses it. */
int ws_sweep_spec_load(const char *path, ws_sweep_spec *out, ws_error *err);
void ws_sweep_spec_free(ws_sweep_spec *s);

/* V x S x P. */
long ws_sweep_count(const ws_sweep_spec *s);
/* Job id (1..count) into *job; -1 when id is out of range. */
int ws_sweep_job_get(const ws_sweep_spec *s, long id, ws_sweep_job *job);

/* The `warpscope sim` argument vector job j runs, argv[0] = "sim", NULL-terminated, pointing into
 * the spec, the job and static strings: --json, -j, --sample/--full, --device, --realistic, -D each,
 * then "--" and the variant, so no spec word can become an option. Returns argc, or -1 when cap
 * (at least WS_SWEEP_ARGV_MAX) is too small. */
#define WS_SWEEP_ARGV_MAX (12 + 2 * WS_SWEEP_MAX_DEFINES)
int ws_sweep_sim_argv(const ws_sweep_spec *s, const ws_sweep_job *j, char *threads_buf, size_t tcap,
                      char **argv, int cap);

/* "auto", "on", "off". */
const char *ws_sweep_sample_name(ws_sweep_sample m);

/* True when s (a path put into a generated Makefile, whose recipes sh runs) has only the bytes
 * [A-Za-z0-9._/+-], does not start with '-' and is not empty: nothing make or sh would read as
 * syntax ($ % : # blanks quotes globs). */
bool ws_sweep_path_is_plain(const char *s);

#endif
