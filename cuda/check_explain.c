/* check_explain.c - the mechanisms behind a disagreement (see check_explain.h): one table of
 * rules, tried in order; each reads the row and the kernel's facts and, where its case holds,
 * writes the sentence with the numbers that make it. The fallbacks at the end name, per kind of
 * row, the measurement that would decide a case no rule makes.
 * Why rules and not a fit: each sentence has to stand on counters both sides report, so a
 * reader can check it against the record. */
#include "check_explain.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../sim/models/metrics.h"
#include "check_others.h"

/* ---- facts ------------------------------------------------------------------------------ */

static int metric_id(const chk_row *r)
{
    const ws_metric_info *m = ws_metric_find(r->metric);
    return m ? (int)m->id : -1;
}

/* The run's row of metric id with both values: its sim and gpu values. */
static const chk_row *other(const chk_facts *f, ws_metric_id id, double *sim, double *gpu)
{
    for (int i = 0; f->rows && i < f->nrows; i++) {
        const chk_row *o = &f->rows[i];
        if (o->has_sim && o->has_gpu && metric_id(o) == (int)id) {
            if (sim) *sim = o->sim;
            if (gpu) *gpu = o->gpu;
            return o;
        }
    }
    return NULL;
}

static bool other_agrees(const chk_facts *f, ws_metric_id id)
{
    const chk_row *o = other(f, id, NULL, NULL);
    return o && o->verdict == CHK_AGREE;
}

/* Another GPU run of the kernel (check_others.h) measured metric: the middle of its values in *v.
 * Only a run of the same launch counts: where the runs name their blocks (launch__grid_size) one of as
 * many blocks as this launch, and one of the size-bound counters the record holds (L2 read or write
 * sectors, DRAM bytes read) must be within 10 % of the other runs' (a record of time alone: their ncu
 * time within 25 % of its), so a run at another size is never read as this one's (nor, beside it, keeps
 * this one's from being read). */
static bool other_run(const chk_facts *f, const char *metric, double *v, int *n, const char **file)
{
    static const ws_metric_id size_bound[] = {WS_METRIC_L2_READ_SECTORS, WS_METRIC_L2_WRITE_SECTORS,
                                              WS_METRIC_DRAM_READ};
    double lo, hi, s, g;
    int k;
    const char *fl;
    if (!f->kernel) return false;
    bool same = false, sized = false;
    for (size_t i = 0; i < sizeof size_bound / sizeof *size_bound && !same; i++) {
        const ws_metric_info *m = &ws_metric_table[size_bound[i]];
        if (!other(f, size_bound[i], &s, &g) || g <= 0) continue;
        sized = true;
        if (chk_others_range_of(f->kernel, m->name, (long long)f->blocks, &k, &lo, &hi, &fl))
            same = fabs(lo - g) <= 0.1 * g && fabs(hi - g) <= 0.1 * g;
    }
    /* A run recorded on its time alone has no size-bound counter: runs of as many blocks whose ncu
     * duration is within 25 % of the recorded time are this launch (a grid-stride kernel at another
     * size has as many blocks, but not the time). */
    const chk_row *t = NULL;
    for (int i = 0; !sized && f->rows && i < f->nrows && !t; i++)
        if (f->rows[i].cls == CHK_TIME && f->rows[i].has_gpu && f->rows[i].gpu > 0) t = &f->rows[i];
    if (t && f->blocks > 0 &&
        chk_others_range_of(f->kernel, "gpu__time_duration.sum", (long long)f->blocks, &k, &lo, &hi, &fl))
        same = lo >= 0.75 * t->gpu && hi <= 1.25 * t->gpu;
    if (!same || !chk_others_range_of(f->kernel, metric, (long long)f->blocks, &k, &lo, &hi, &fl)) return false;
    *v = (lo + hi) / 2;
    if (n) *n = k;
    if (file) *file = fl;
    return true;
}

#define WS_LONG_SCOREBOARD "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"

/* Appends fmt with another run's value of metric (other_run) to more (cap bytes), where one measured it. */
static void add_other_run(const chk_facts *f, const char *metric, const char *fmt, char *more, size_t cap)
{
    double v;
    size_t n = strlen(more);
    if (n < cap && other_run(f, metric, &v, NULL, NULL)) snprintf(more + n, cap - n, fmt, v);
}

/* "1.13 MB", "3.0 KB", "512 B" (decimal units, as ncu prints them) */
static const char *bytes(double b, char *buf, size_t cap)
{
    double a = fabs(b);
    if (a >= 1e9) snprintf(buf, cap, "%.2f GB", b / 1e9);
    else if (a >= 1e6) snprintf(buf, cap, "%.2f MB", b / 1e6);
    else if (a >= 1e3) snprintf(buf, cap, "%.1f KB", b / 1e3);
    else snprintf(buf, cap, "%.0f B", b);
    return buf;
}

static bool say(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return true;
}

/* ---- the rules ---------------------------------------------------------------------------- */

typedef bool (*rule_fn)(const chk_row *r, const chk_facts *f, char *out, size_t cap);

/* The GPU's own count varies: another run of the kernel (check_others.h) measured this counter
 * more than 5 % (the L2 goal's tolerance) away from the recorded value. The row stays judged
 * against the record; the sentence says which of the GPU's values the model is near. For the L2
 * reads of a grid of a few coalescer groups' worth of blocks it says why: whether the blocks
 * share a group depends on where the scheduler places them (docs/memory-models.md "Read
 * coalescing"). */
static bool r_gpu_varies(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int n;
    double lo, hi;
    const char *file;
    /* runs of as many blocks only: a 256^3 run of a kernel says nothing of its 2048^3 record's count */
    if (!f->kernel || !r->has_gpu || !chk_others_range_of(f->kernel, r->metric, (long long)f->blocks, &n, &lo, &hi, &file))
        return false;
    double far = fabs(lo - r->gpu) > fabs(hi - r->gpu) ? lo : hi;
    double big = fmax(fmax(fabs(far), fabs(r->gpu)), 1);
    if (fabs(far - r->gpu) <= 0.05 * big) return false;
    /* only where the GPU's runs differ by at least the model's error: a model farther from the
       record than the GPU itself strays has a cause of its own, which the rules after this look for */
    if (!r->has_sim || fabs(far - r->gpu) < fabs(r->sim - r->gpu)) return false;
    char other[96], near[160] = "";
    if (n == 1 || lo == hi) snprintf(other, sizeof other, "%s %.0f", n == 1 ? "another run" : "other runs", lo);
    else snprintf(other, sizeof other, "%d other runs %.0f to %.0f", n, lo, hi);
    bool rec = fabs(r->sim - r->gpu) <= 0.05 * fmax(fabs(r->gpu), 1);
    bool oth = r->sim >= lo - 0.05 * fmax(fabs(lo), 1) && r->sim <= hi + 0.05 * fmax(fabs(hi), 1);
    snprintf(near, sizeof near, "; the model's %.0f is %s", r->sim,
             rec && oth ? "within 5% of both" : rec ? "within 5% of the recorded run's"
                                             : oth ? "within 5% of the other run's, not of the recorded one"
                                                   : "nearer the record than the runs are to each other");
    int id = metric_id(r);
    bool l2_read = id == WS_METRIC_L2_READ_SECTORS || id == WS_METRIC_L2_READ_REQUESTS || id == WS_METRIC_L2_READ_HIT ||
                   id == WS_METRIC_L2_READ_MISS;
    if (l2_read && f->blocks > 0 && f->coalesce_group_sms > 0 && f->blocks <= 4.0 * f->coalesce_group_sms &&
        f->coalesce_groups > 0) {
        return say(out, cap, CHK_VARIES ": recorded %.0f, %s (%.200s)%s. The grid's %.0f blocks "
                   "fill %d coalescer group%s in the model (the GPCs the H200 put such a grid's blocks in, "
                   "results/h200-gemm-lrc); on the GPU whether blocks reading the same lines share one, so that their "
                   "identical requests reach L2 once, and read them in step, changes launch by launch", r->gpu, other,
                   file, near, f->blocks, f->coalesce_groups, f->coalesce_groups > 1 ? "s" : "");
    }
    return say(out, cap, CHK_VARIES ": recorded %.0f, %s (%.200s)%s", r->gpu, other, file, near);
}

/* Exact and bound rows: the machine code differs from the PTX (cu_sass.c words it). */
static bool r_sass(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    return f->ptx && f->sass && cu_sass_cause(r->metric, f->ptx, f->sass, out, cap);
}

/* A CAS retry loop's atomic rows, a wait loop's instruction counts: check_compare.c classed them and said why. */
static bool r_timing_dependent(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    (void)f;
    return r->cls == CHK_TIMING_DEP && r->cause[0] && say(out, cap, "%s", r->cause);
}

/* An instruction count above the GPU's by no more than the part of it that rests on stand-ins:
 * SASS blocks whose runs no fact fixes (no exact anchor, not bounded to one value by the control
 * flow: sim/sass/sass_map.h ws_sass_guess), each counted as often as a PTX instruction of its
 * source line - a remainder loop's code the listing puts at its loop's line, the steps of a
 * ladder no case of which has an anchor of its own. The whole difference may be theirs. */
static bool r_sass_stand_ins(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    const ws_sass_guess *g = f->guess;
    int id = metric_id(r);
    if (!g || !g->blocks || r->sim <= r->gpu) return false;
    double part;
    const char *what;
    if (id == WS_METRIC_INST_EXECUTED) part = (double)g->insns, what = "instructions";
    else if (id == WS_METRIC_PIPE_ALU_INST) part = (double)g->pipe[WS_PIPE_ALU], what = "ALU instructions";
    else if (id == WS_METRIC_PIPE_FMA_INST) part = (double)(g->pipe[WS_PIPE_FMA] + g->pipe[WS_PIPE_FMAHEAVY]),
                                            what = "FMA-pipe instructions";
    else return false;
    if (r->sim - r->gpu > part) return false;
    return say(out, cap, "blocks counted by a stand-in: %.0f of the model's %.0f %s are in %d SASS block%s whose "
               "runs no anchor or control-flow bound fixes (each counted as often as a PTX instruction of its "
               "source line; the largest at line %d, /*%04x*/, %llu runs), which covers the %.0f it counts above "
               "the GPU", part, r->sim, what, g->blocks, g->blocks == 1 ? "" : "s", g->line, (unsigned)g->addr,
               (unsigned long long)g->line_runs, r->sim - r->gpu);
}

/* DRAM reads a little above a kernel that moves little: the GPU fetches the kernel's code and
 * constants (~3 KB measured in kernels with no global traffic, issue 23), the model does not. */
static bool r_code_fetch(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    (void)f;
    double x = r->gpu - r->sim;
    char a[32], b[32];
    if (metric_id(r) != WS_METRIC_DRAM_READ || x <= 0 || x > 128e3 || r->sim > 1e6) return false;
    return say(out, cap, "instruction and constant fetches (~%s) are not modelled: the GPU read %s more from DRAM "
               "than the model's %s of data misses, in a kernel that moves little data",
               bytes(x, a, sizeof a), bytes(x, a, sizeof a), bytes(r->sim, b, sizeof b));
}

/* DRAM reads above by about what the GPU wrote back beyond the model: lines written back while
 * the kernel runs are read first where not all their sectors are written (ECC works on whole
 * granules); the model writes back, and reads for, only the victims it evicts. */
static bool r_writeback_reads(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ws, wg;
    if (metric_id(r) != WS_METRIC_DRAM_READ || r->gpu <= r->sim || !other(f, WS_METRIC_DRAM_WRITE, &ws, &wg))
        return false;
    double rx = r->gpu - r->sim, wx = wg - ws;
    if (wx <= 0 || rx < 0.5 * wx || rx > 2 * wx) return false;
    char a[32], b[32];
    return say(out, cap, "dirty L2 lines written back during the kernel, read before they are written: the GPU read "
               "%s more than the model and wrote %s more back to DRAM (reads %.2fx the extra write-backs); with ECC "
               "on, a line written back before all its sectors are written is read first, and the model writes "
               "back during the kernel only the lines it evicts", bytes(rx, a, sizeof a), bytes(wx, b, sizeof b),
               rx / wx);
}

/* DRAM writes above: the GPU's L2 writes dirty lines back while the kernel runs; the model
 * writes back only what it evicts and leaves the rest dirty at the end (written after the
 * kernel, outside the counter). The rule holds where the model had that much dirty data. */
static bool r_dirty_release(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    if (metric_id(r) != WS_METRIC_DRAM_WRITE || r->gpu <= r->sim) return false;
    double x = r->gpu - r->sim, l2s, l2g;
    char a[32], b[32], c[32];
    if (f->has_dirty_at_end) {
        if (x > 1.1 * f->dirty_at_end_bytes + WS_SLACK_DRAM_BYTES) return false;
        return say(out, cap, "dirty L2 lines written back during the kernel: the GPU wrote %s to DRAM before the "
                   "kernel ended, the model %s; the model writes back only the lines it evicts and leaves %s dirty "
                   "in L2 at the end (written after the kernel, outside the counter)", bytes(r->gpu, a, sizeof a),
                   bytes(r->sim, b, sizeof b), bytes(f->dirty_at_end_bytes, c, sizeof c));
    }
    if (!other(f, WS_METRIC_L2_WRITE_SECTORS, &l2s, &l2g) || x > 1.1 * 32 * l2g + WS_SLACK_DRAM_BYTES) return false;
    return say(out, cap, "dirty L2 lines written back during the kernel: the GPU wrote %s to DRAM before the kernel "
               "ended, the model %s, of the %s the kernel writes to L2; the model writes back only the lines it "
               "evicts and leaves the rest dirty in L2 at the end (written after the kernel, outside the counter)",
               bytes(r->gpu, a, sizeof a), bytes(r->sim, b, sizeof b), bytes(32 * l2g, c, sizeof c));
}

/* The sectors of the four plain global/local ops, both sides (exact rows that agree). */
static double l1_lookups(const chk_facts *f, bool gpu, double *stores)
{
    static const ws_metric_id ld[] = {WS_METRIC_GLD_SECTORS, WS_METRIC_LLD_SECTORS};
    static const ws_metric_id st[] = {WS_METRIC_GST_SECTORS, WS_METRIC_LST_SECTORS};
    double l = 0, s = 0, vs, vg;
    for (int i = 0; i < 2; i++) {
        if (other(f, ld[i], &vs, &vg)) l += gpu ? vg : vs;
        if (other(f, st[i], &vs, &vg)) s += gpu ? vg : vs;
    }
    *stores = s;
    return l + s;
}

/* The L1 hit rate differs while the load hits agree: the difference is in the store sectors,
 * which ncu's rate counts too. The model counts a store hit only on a sector a load brought in
 * and allocates nothing on a global store. */
static bool r_store_lookups(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double hs = 0, hg = 0, ls, lg;
    if (metric_id(r) != WS_METRIC_L1_HIT_RATE || !other(f, WS_METRIC_L1_GLD_HIT, &hs, &hg) ||
        !other_agrees(f, WS_METRIC_L1_GLD_HIT))
        return false;
    if (other(f, WS_METRIC_L1_LLD_HIT, &ls, &lg)) {
        if (!other_agrees(f, WS_METRIC_L1_LLD_HIT)) return false;
        hs += ls;
        hg += lg;
    }
    double st_s, st_g, all_s = l1_lookups(f, false, &st_s), all_g = l1_lookups(f, true, &st_g);
    if (st_g <= 0 || all_g <= 0) return false;
    double sh = r->sim / 100 * all_s - hs, gh = r->gpu / 100 * all_g - hg;
    return say(out, cap, "store lookups: the load hits agree (%.0f vs %.0f sectors), so the difference is in the "
               "%.0f store sectors: the GPU counts ~%.0f of them as L1 hits (%.0f%%), the model %.0f; the model "
               "counts a store hit only on a sector an earlier load brought in and allocates no line on a global "
               "store; the GPU's L1 appears to count a store to a line an earlier access of the SM brought in as a hit "
               "(the per-op split, "
               "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum, would confirm it)",
               hs, hg, st_g, gh > 0 ? gh : 0, 100 * (gh > 0 ? gh : 0) / st_g, sh > 0 ? sh : 0);
}

/* Load hits in L1 differ on a kernel that re-reads: which sectors stay resident depends on the
 * L1 capacity beside shared memory and on the replacement order, which the model approximates. */
static bool r_l1_reuse(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double hs, hg;
    if (id != WS_METRIC_L1_GLD_HIT && id != WS_METRIC_L1_GLD_MISS && id != WS_METRIC_L1_GLD_HIT_RATE &&
        id != WS_METRIC_L1_LLD_HIT && id != WS_METRIC_L1_LLD_MISS && id != WS_METRIC_L1_HIT_RATE)
        return false;
    ws_metric_id hit = id == WS_METRIC_L1_LLD_HIT || id == WS_METRIC_L1_LLD_MISS ? WS_METRIC_L1_LLD_HIT
                                                                                 : WS_METRIC_L1_GLD_HIT;
    if (!other(f, hit, &hs, &hg) || (hs <= 0 && hg <= 0)) return false;
    return say(out, cap, "L1 reuse: the kernel re-reads sectors in L1 (%.0f load hits on the GPU, %.0f in the model, "
               "%.3fx); how many stay resident depends on the L1 capacity left beside shared memory and on its "
               "replacement order, which the model approximates (the profile's L1 size, LRU); the carveout the "
               "driver chose (launch__shared_mem_config_size) would pin the capacity", hg, hs, hs > 0 ? hg / hs : 0);
}

/* L2 read sectors below while the L1 misses agree: a miss to a sector whose fill is already in
 * flight waits in L1 on the GPU instead of going to L2 again. */
static bool r_l1_miss_merging(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ms = 0, mg = 0, s, g, ls = 0, lg = 0;
    int id = metric_id(r);
    if ((id != WS_METRIC_L2_READ_SECTORS && id != WS_METRIC_L2_READ_REQUESTS) || r->gpu >= r->sim) return false;
    if (id == WS_METRIC_L2_READ_REQUESTS && (!other(f, WS_METRIC_L2_READ_SECTORS, &ls, &lg) || lg >= 0.9 * ls))
        return false;
    if (other(f, WS_METRIC_L1_GLD_MISS, &ms, &mg)) {
        if (!other_agrees(f, WS_METRIC_L1_GLD_MISS)) return false;
        if (other(f, WS_METRIC_L1_LLD_MISS, &s, &g)) {
            ms += s;
            mg += g;
        }
    } else { /* a record of L2 counters alone: the model's misses, agreeing with another run's crossbar sectors */
        double xbar;
        if (!f->has_l1_miss || !other_run(f, "l1tex__m_xbar2l1tex_read_sectors.sum", &xbar, NULL, NULL) ||
            fabs(xbar - f->l1_miss_sectors) > 0.05 * f->l1_miss_sectors)
            return false;
        ms = f->l1_miss_sectors;
        mg = xbar;
    }
    if (id == WS_METRIC_L2_READ_REQUESTS) {
        if (lg >= mg) return false;
        return say(out, cap, "misses merged in L1: the requests fall with the sectors sent (the L1 missed %.0f "
                   "sectors on the GPU, sent %.0f to L2 in %.0f requests; the model %.0f in %.0f): a miss whose "
                   "sector's fill is already in flight waits for it (in its L1, or across SMs in the L2 request "
                   "coalescer) instead of making a request", mg, lg, r->gpu, ls, r->sim);
    }
    if (r->gpu >= mg) return false;
    return say(out, cap, "misses merged in L1: the L1 missed %.0f sectors (the model %.0f) but the GPU sent %.0f to "
               "L2, the model %.0f: ~%.0f misses found their sector's fill already in flight and waited for it "
               "(in their L1, or across SMs in the L2 request coalescer) instead of going to L2 again; the model "
               "merges a .cg re-read within 8 memory instructions of its SM and identical requests of the SMs of "
               "one coalescer group within its window", mg, ms, r->gpu, r->sim, mg - r->gpu);
}

/* The mirror: L2 read sectors (requests, hits) above the model's, while the
 * L1 misses agree and the model coalesced identical requests of SMs it kept in step (its slots
 * drift only while an SM runs several blocks, cache.h "Read coalescing"): the GPU's blocks were
 * further apart, or on SMs of other groups, so fewer of their requests arrived together. */
static bool r_coalesced_in_step(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ms, mg, ss, sg, s, g;
    if ((id != WS_METRIC_L2_READ_SECTORS && id != WS_METRIC_L2_READ_REQUESTS && id != WS_METRIC_L2_READ_HIT) ||
        r->gpu <= r->sim || !other(f, WS_METRIC_L2_READ_SECTORS, &ss, &sg) || sg <= ss)
        return false;
    /* the L1's misses: the record's rows, or, a record without them (a --no-sim run of a few
       counters), the model's count beside another run's crossbar sectors below */
    bool rows = other(f, WS_METRIC_L1_GLD_MISS, &ms, &mg) != NULL;
    if (!rows && !f->has_l1_miss) return false;
    if (!rows) ms = f->l1_miss_sectors, mg = 0;
    if (rows && other(f, WS_METRIC_L1_LLD_MISS, &s, &g)) {
        ms += s;
        mg += g;
    }
    /* the L1's misses agree: the load rows, or, where ncu counts the kernel's reads apart from loads
       (cp.async copies), another run's L1 -> crossbar read sectors */
    double xbar;
    const char *via = "";
    if (!rows || !other_agrees(f, WS_METRIC_L1_GLD_MISS)) {
        if (!other_run(f, "l1tex__m_xbar2l1tex_read_sectors.sum", &xbar, NULL, NULL) || fabs(xbar - ms) > 0.05 * ms)
            return false;
        mg = xbar;
        via = "; the GPU's from other runs' l1tex__m_xbar2l1tex_read_sectors.sum, as ncu counts its cp.async copies "
              "apart from load lookups";
    }
    double merged = ms - ss; /* the model's load misses that sent nothing to L2 */
    if (merged < 0.05 * ms)
        return false;
    double achieved;
    char lrc[200] = "; the L2 request coalescer's counters "
                    "(lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum) say how many";
    if (other_run(f, "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", &achieved, NULL, NULL))
        snprintf(lrc, sizeof lrc, "; the GPU's L2 request coalescer merged %.0f (%.0f%% of the misses, other runs' "
                 "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum), the model %.0f%%",
                 achieved, 100 * achieved / mg, 100 * merged / ms);
    return say(out, cap, "requests coalesced in step: the L1 missed %.0f sectors (the model %.0f%s); the model merged "
               "%.0f of them (its block slots drift apart only while an SM runs several blocks, so one coalescer group's "
               "blocks send identical requests within its window) and sent %.0f to L2, the GPU %.0f: its blocks ran "
               "further apart or sat in more groups (an H200's coalescing also differs by machine: "
               "results/h200-coalesce/chain)%s",
               mg, ms, via, merged, ss, sg, lrc);
}

/* L2 read lookups that differ where the model's far lookups missed: a line read from SMs of both
 * L2 partitions is looked up in each, so it misses once per side (the second side's copy is served
 * by the home over the L2 fabric, no DRAM). The GPU's misses beyond its DRAM sectors are that count
 * there; the model's far misses are its own, from stand-in maps of SMs and lines to partitions. */
static bool r_l2_far_misses(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ds, dg, ms, mg, hs, hg;
    if ((id != WS_METRIC_L2_READ_MISS && id != WS_METRIC_L2_READ_HIT) || !f->has_far_miss || f->far_miss_sectors <= 0 ||
        !other(f, WS_METRIC_DRAM_READ, &ds, &dg) || !other(f, WS_METRIC_L2_READ_MISS, &ms, &mg) ||
        !other(f, WS_METRIC_L2_READ_HIT, &hs, &hg))
        return false;
    double fetched = dg / 32, extra = mg - fetched;
    if (extra <= 0.05 * fetched) return false; /* the GPU's misses are its DRAM sectors: no second side */
    return say(out, cap, "misses in both L2 partitions: the GPU counts %.0f L2 read lookup misses for %.0f sectors "
               "read from DRAM, %.0f more: a line read from SMs of both partitions misses in each (the second "
               "side's copy comes from the line's home over the L2 fabric, lts__t_sectors_srcunit_ltcfabric); the "
               "model's far lookups miss %.0f so (misses %.0f, hits %.0f; the GPU's hits %.0f), with stand-ins for "
               "which partition an SM's reads enter and which is a line's home (scripts/gpu-inflight.sh measures "
               "both)", mg, fetched, extra, f->far_miss_sectors, ms, hs, hg);
}

/* L2 read misses beyond the sectors read from DRAM: a lookup that finds its sector's fill
 * still in flight counts as a miss on the GPU; the model fills at once and counts it a hit. */
static bool r_l2_inflight(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ds, dg, ms, mg, hs, hg;
    bool miss_up = id == WS_METRIC_L2_READ_MISS && r->gpu > r->sim;
    bool hit_down = id == WS_METRIC_L2_READ_HIT && r->gpu < r->sim;
    if ((!miss_up && !hit_down) || !other(f, WS_METRIC_DRAM_READ, &ds, &dg) ||
        !other(f, WS_METRIC_L2_READ_MISS, &ms, &mg) || !other(f, WS_METRIC_L2_READ_HIT, &hs, &hg))
        return false;
    double fetched = dg / 32;
    if (mg <= 1.05 * fetched || mg <= ms) return false;
    return say(out, cap, "in-flight L2 misses: the GPU counts %.0f L2 read misses but read only %.0f sectors from "
               "DRAM, so ~%.0f lookups found their sector's fill still in flight and count as misses there; the "
               "model fills at once and counts such a lookup as a hit (hits %.0f in the model, %.0f on the GPU)",
               mg, fetched, mg - fetched, hs, hg);
}

/* L2 hits below while the GPU sent fewer read requests: its L1 sent neighbouring sectors in one
 * request, looked up with the miss; the model looks the second up later, a hit on the fill. */
static bool r_l2_hits_in_one_request(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double qs, qg;
    if (metric_id(r) != WS_METRIC_L2_READ_HIT || r->gpu >= r->sim || !other(f, WS_METRIC_L2_READ_REQUESTS, &qs, &qg) ||
        qg >= 0.9 * qs || !other_agrees(f, WS_METRIC_L2_READ_SECTORS))
        return false;
    return say(out, cap, "sectors of several warps in one request: the GPU sent %.0f L2 read requests, the model "
               "%.0f, for the same sectors; a sector the model looks up in a later request, a hit on the fill of "
               "its neighbour, is looked up with the miss on the GPU (hits %.0f vs the model's %.0f)", qg, qs, r->gpu,
               r->sim);
}

/* L2 hits above by the sectors the GPU never sent to L2: the model's extra lookups are re-reads
 * of sectors whose fill was in flight, which the GPU's L1 merged (they never reached L2) and
 * the model sent to L2, where they hit. */
static bool r_l2_hits_merged_in_l1(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ss, sg;
    if (metric_id(r) != WS_METRIC_L2_READ_HIT || r->gpu >= r->sim || !other(f, WS_METRIC_L2_READ_SECTORS, &ss, &sg) ||
        sg >= ss)
        return false;
    double extra_hits = r->sim - r->gpu, extra_sectors = ss - sg;
    if (extra_hits < 0.8 * extra_sectors || extra_hits > 1.25 * extra_sectors) return false;
    return say(out, cap, "re-reads merged in L1: the model sent %.0f more sectors to L2 than the GPU (%.0f vs %.0f) "
               "and counts %.0f more L2 hits (%.0f vs %.0f): the same sectors, re-read while their fill was in "
               "flight; the GPU waited for the fill (in L1, or across SMs in the L2 request coalescer), the model "
               "looked them up again in L2, where they hit",
               extra_sectors, ss, sg, extra_hits, r->sim, r->gpu);
}

/* The mirror: L2 hits below by the sectors the GPU sent to L2 beyond the model, with the misses
 * agreeing: sectors the GPU's L1 fetched again (the model kept them in L1 or merged the re-read),
 * found in L2 the second time. */
static bool r_l2_hits_of_rereads(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ss, sg;
    if (metric_id(r) != WS_METRIC_L2_READ_HIT || r->gpu <= r->sim || !other(f, WS_METRIC_L2_READ_SECTORS, &ss, &sg) ||
        sg <= ss || !other_agrees(f, WS_METRIC_L2_READ_MISS))
        return false;
    double extra_hits = r->gpu - r->sim, extra_sectors = sg - ss;
    if (extra_hits < 0.8 * extra_sectors || extra_hits > 1.25 * extra_sectors) return false;
    return say(out, cap, "re-reads sent again to L2: the misses agree, and the GPU sent %.0f more read sectors to L2 "
               "than the model (%.0f vs %.0f) and counts %.0f more L2 hits (%.0f vs %.0f): sectors its L1 fetched "
               "again (the model kept them in L1, or merged the re-read with the miss in flight), found in L2 the "
               "second time", extra_sectors, sg, ss, extra_hits, r->gpu, r->sim);
}

/* L1 load lookups in the model where the kernel has no plain global load on either side: they
 * are cp.async's (LDGSTS), which the model counts under the load's lookups and ncu under the
 * ldgsts pipe's own counters. */
static bool r_ldgsts_lookups(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ss, sg;
    if ((id != WS_METRIC_L1_GLD_MISS && id != WS_METRIC_L1_GLD_HIT) || r->gpu != 0 || r->sim <= 0 ||
        !other(f, WS_METRIC_GLD_SECTORS, &ss, &sg) || ss != 0 || sg != 0)
        return false;
    return say(out, cap, "cp.async lookups counted as loads: the kernel has no plain global load (its global load "
               "sectors are 0 on both sides), so the model's %.0f L1 load lookups are its cp.async (LDGSTS) copies; "
               "ncu counts those under the ldgsts pipe (l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts*), not the "
               "load's, and reads 0 here", r->sim);
}

/* near(a, b): within 2% (or both 0): one count is the other, up to a GPU's stray sectors */
static bool near(double a, double b) { return fabs(a - b) <= 0.02 * fmax(fabs(a), fabs(b)); }

/* L1 load lookups that are every load sector on both sides (all misses, or all hits) while the
 * load sectors themselves differ: the lookup row carries the sector row's difference. */
static bool r_lookups_follow_sectors(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ss, sg;
    if ((id != WS_METRIC_L1_GLD_MISS && id != WS_METRIC_L1_GLD_HIT) || !other(f, WS_METRIC_GLD_SECTORS, &ss, &sg) ||
        near(ss, sg) || !near(r->sim, ss) || !near(r->gpu, sg) || ss <= 0)
        return false;
    return say(out, cap, "the lookups follow the load sectors: every global load sector %s L1 on both sides (the "
               "GPU %.0f of %.0f, the model %.0f of %.0f), so this row differs as the load sectors do "
               "(l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: %.0f vs %.0f, %.3fx; its row names why)",
               id == WS_METRIC_L1_GLD_MISS ? "misses" : "hits", r->gpu, sg, r->sim, ss, sg, ss, sg / ss);
}

/* L2 read sectors that follow L1 load misses which already differ: each side sent at most its
 * own misses to L2, in the direction the misses differ. */
static bool r_l2_follows_l1_misses(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ms, mg;
    if (metric_id(r) != WS_METRIC_L2_READ_SECTORS) return false;
    if (!other(f, WS_METRIC_L1_GLD_MISS, &ms, &mg)) {
        /* a record of L2 counters alone (a --no-sim run): the model's misses beside the sectors another
           run of the launch carried from L2 to the L1s, which for plain loads are the L1's misses */
        if (!f->has_l1_miss || !other_run(f, "l1tex__m_xbar2l1tex_read_sectors.sum", &mg, NULL, NULL)) return false;
        ms = f->l1_miss_sectors;
        if (near(ms, mg) || r->gpu > mg * 1.02 || r->sim > ms * 1.02 || (r->gpu - r->sim) * (mg - ms) <= 0)
            return false;
        return say(out, cap, "the L2 reads follow the L1 misses, which differ: another run of this launch carried %.0f "
                   "sectors from L2 to the L1s (l1tex__m_xbar2l1tex_read_sectors.sum), where the model's L1 missed "
                   "%.0f (%s); the GPU sent %.0f to L2, the model %.0f", mg, ms,
                   mg < ms ? "the GPU's L1 kept more of the re-read lines: the model's L1 is the profile's size beside "
                             "shared memory, LRU"
                           : "the crossbar carried more than the model's L1 missed: cp.async copies crossed it at 1.5x "
                             "their missed sectors in the Bruce-Lee-LY GEMMs at 256^3, a cause not yet measured",
                   r->gpu, r->sim);
    }
    if (near(ms, mg) || r->gpu > mg * 1.02 || r->sim > ms * 1.02 || (r->gpu - r->sim) * (mg - ms) <= 0)
        return false;
    return say(out, cap, "the L2 reads follow the L1 load misses, which differ (the GPU missed %.0f sectors, the "
               "model %.0f; that row names why): the GPU sent %.0f of its misses to L2 (%.0f merged in flight), the "
               "model %.0f of its %.0f", mg, ms, r->gpu, mg - r->gpu, r->sim, ms);
}

/* L2 write sectors (or requests) above while the L1 store sectors agree and the GPU's L2 took
 * every one of them: the model joins a warp's stores that add bytes to a write still pending
 * (its rule for byte stores of one loop, measured on the H200); here the GPU's L1 did not. */
static bool r_store_merging(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    double ss, sg, ws = r->sim, wg = r->gpu;
    if ((id != WS_METRIC_L2_WRITE_SECTORS && id != WS_METRIC_L2_WRITE_REQUESTS) || r->gpu <= r->sim ||
        !other(f, WS_METRIC_GST_SECTORS, &ss, &sg) || !other_agrees(f, WS_METRIC_GST_SECTORS))
        return false;
    if (id == WS_METRIC_L2_WRITE_REQUESTS && (!other(f, WS_METRIC_L2_WRITE_SECTORS, &ws, &wg) || !near(r->gpu, wg)))
        return false; /* requests: one per sector on the GPU */
    if (!near(wg, sg) || ws >= wg) return false;
    return say(out, cap, "stores the model merges: the L1 store sectors agree (%.0f) and the GPU wrote every one of "
               "them to L2 (%.0f%s), the model %.0f: it joins a warp's store that adds bytes to a write of the same "
               "sector still pending (its rule for byte stores of one loop, measured), which these stores' GPU did "
               "not do", sg, wg, id == WS_METRIC_L2_WRITE_REQUESTS ? ", one request each" : "", ws);
}

/* A time above the prediction where the GPU kept under half the warps active that the model's
 * occupancy row assumes: fewer warps in flight hide less latency and draw less bandwidth. The row
 * is the grid's (ws_occupancy_grid_pct: the theoretical occupancy, less where the launch gives an SM
 * fewer blocks), so a small grid the model already holds to its few warps is not blamed here. */
static bool r_time_achieved_occupancy(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double os, og;
    if (r->cls != CHK_TIME || !f->has_timing || r->gpu <= r->sim || !other(f, WS_METRIC_WARPS_ACTIVE, &os, &og) ||
        og >= 0.5 * os || og <= 0)
        return false;
    return say(out, cap, "achieved occupancy: the GPU kept %.1f%% of the warps active, the model assumes "
               "%.0f%%; with %.1fx fewer warps in flight the kernel hides less of its memory latency "
               "and keeps less of the %s busy, so it ran %.2fx the predicted time (the model's row is the "
               "occupancy its grid allows: every warp the limits and the launch's blocks per SM allow)", og, os,
               os / og, ws_bound_name(f->timing.bound), r->gpu / r->sim);
}

/* A time above the prediction where the model's instruction count is right but the GPU's schedulers
 * issued only part of the time: the model's issue term (the schedulers' slots the instructions fill)
 * is the same share of the measured time as ncu's issue-active share (within 5 points), so the rest is
 * cycles in which no warp was eligible, stalls the warps in flight did not hide. The model takes the
 * largest of its issue and latency terms; the GPU paid part of both. */
static bool r_time_issue_share(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double act;
    double issue = f->timing.t_issue_slots_us > 0 ? f->timing.t_issue_slots_us : f->timing.t_issue_us;
    if (r->cls != CHK_TIME || !f->has_timing || r->gpu <= r->sim || !(issue > 0) ||
        !other_run(f, "smsp__issue_active.avg.pct_of_peak_sustained_active", &act, NULL, NULL) || act <= 0 ||
        act >= 95)
        return false;
    double share = 100 * issue * 1e3 / r->gpu; /* the row is in ns */
    if (fabs(share - act) > 5) return false;
    char more[320] = "";
    add_other_run(f, "sm__warps_active.avg.pct_of_peak_sustained_active", " with %.1f%% of the warps active", more,
                  sizeof more);
    add_other_run(f, WS_LONG_SCOREBOARD, " (each warp waiting %.1f cycles per issue on a memory result)", more,
                  sizeof more);
    return say(out, cap, "issue slots left idle: the model's instructions fill the schedulers for %.2f us, %.1f%% "
               "of the %.2f us measured, and the GPU's schedulers issued %.1f%% of the time (smsp__issue_active, "
               "other runs of this launch): the instructions are right; the other %.0f%% no warp was eligible%s. "
               "The model takes the larger of its issue (%.2f us) and latency (%.2f us) terms; the GPU paid part "
               "of both", issue, share, r->gpu / 1e3, act, 100 - act, more, issue, f->timing.t_latency_us);
}

/* The model's bound is a bandwidth the GPU did not use up: another run of the same launch measured that
 * resource at under half its peak, so the kernel's time is set by something else, its latency at the
 * warps it kept active. */
static const char *bound_use_metric(ws_bound b)
{
    switch (b) {
    case WS_BOUND_DRAM: return "dram__throughput.avg.pct_of_peak_sustained_elapsed";
    case WS_BOUND_L2: return "lts__t_sectors.avg.pct_of_peak_sustained_elapsed";
    case WS_BOUND_L1: return "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed";
    default: return NULL;
    }
}

static bool r_time_bound_idle(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    const char *metric = f->has_timing ? bound_use_metric(f->timing.bound) : NULL;
    double use, t;
    int n;
    const char *file;
    if (r->cls != CHK_TIME || r->gpu <= r->sim || !metric || !other_run(f, metric, &use, &n, &file) || use >= 50)
        return false;
    char more[320] = "", part[160];
    add_other_run(f, "sm__warps_active.avg.pct_of_peak_sustained_active", "; it kept %.1f%% of the warps active", more,
                  sizeof more);
    add_other_run(f, WS_LONG_SCOREBOARD, ", each waiting %.1f cycles per issue on a memory result (long scoreboard)",
                  more, sizeof more);
    if (other_run(f, "gpu__time_duration.sum", &t, NULL, NULL)) {
        snprintf(part, sizeof part, "; ncu timed the launch at %.2f us", t / 1e3);
        strcat(more, part);
    }
    return say(out, cap, "the bound is not the GPU's limit: the model says %s-bound, but %d other run%s of this launch "
               "(%.200s) measured %s at %.1f%% of peak%s: the time is the latency of too few warps in flight, "
               "which the model's bandwidth term does not see (%.2fx the prediction)",
               ws_bound_class(f->timing.bound), n, n > 1 ? "s" : "", file, metric, use, more, r->gpu / r->sim);
}

/* L2 read hits above the model's where the GPU looked up more sectors than it received: its hits
 * and misses together exceed its read sectors, so some sectors were looked up twice (a lookup that
 * waited on a fill in flight and ran again when it came), each time counted; the model looks a
 * sector up once. The cause holds where the GPU's extra lookups cover the extra hits. */
static bool r_l2_lookups_twice(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    double ss, sg, ms, mg;
    if (metric_id(r) != WS_METRIC_L2_READ_HIT || r->gpu <= r->sim || !other(f, WS_METRIC_L2_READ_SECTORS, &ss, &sg) ||
        !other(f, WS_METRIC_L2_READ_MISS, &ms, &mg) || sg <= 0)
        return false;
    double extra_g = r->gpu + mg - sg, extra_s = r->sim + ms - ss;
    if (extra_g < 0.02 * sg || extra_g - extra_s < 0.8 * (r->gpu - r->sim)) return false;
    return say(out, cap, "sectors looked up twice: the GPU's L2 counted %.0f lookups (%.0f hits, %.0f misses) for the "
               "%.0f sectors it was sent, %.0f more, where the model looks each sector up once (%.0f extra): a "
               "lookup that waits on a fill in flight runs again when it arrives and counts again, a hit; those "
               "cover the %.0f hits beyond the model's", r->gpu + mg, r->gpu, mg, sg, extra_g, extra_s,
               r->gpu - r->sim);
}

/* L2 requests differ while the sectors agree: the GPU's L1 forms requests from what is in
 * flight together, so their number depends on timing; the model sends one per line per
 * instruction. */
static bool r_request_grouping(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    ws_metric_id sec = id == WS_METRIC_L2_READ_REQUESTS ? WS_METRIC_L2_READ_SECTORS
                       : id == WS_METRIC_L2_WRITE_REQUESTS ? WS_METRIC_L2_WRITE_SECTORS : WS_METRIC_COUNT;
    double ss, sg;
    if (sec == WS_METRIC_COUNT || !other(f, sec, &ss, &sg) || !other_agrees(f, sec) || r->sim <= 0 || r->gpu <= 0)
        return false;
    return say(out, cap, "request grouping: the sectors agree (%.0f vs %.0f) but the GPU grouped them into %.0f "
               "requests (%.2f sectors each), the model into %.0f (%.2f: one per 128-B line per instruction); the "
               "GPU's L1 forms requests from the misses in flight together (several warps' to one line in one, or "
               "one instruction's in several), so the count depends on timing", sg, ss, r->gpu, sg / r->gpu, r->sim,
               ss / r->sim);
}

/* L2 requests differ with sectors that differ too: the count is the sectors (their row names
 * why) grouped into requests, the grouping the GPU's L1 makes from what is in flight together. */
static bool r_requests_follow_sectors(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    int id = metric_id(r);
    ws_metric_id sec = id == WS_METRIC_L2_READ_REQUESTS ? WS_METRIC_L2_READ_SECTORS
                       : id == WS_METRIC_L2_WRITE_REQUESTS ? WS_METRIC_L2_WRITE_SECTORS : WS_METRIC_COUNT;
    double ss, sg;
    if (sec == WS_METRIC_COUNT || !other(f, sec, &ss, &sg) || other_agrees(f, sec) || r->sim <= 0 || r->gpu <= 0 ||
        ss <= 0 || sg <= 0)
        return false;
    return say(out, cap, "the requests follow the sectors, which differ (%.0f on the GPU, %.0f in the model; that "
               "row names why), grouped by the GPU's L1 at %.2f sectors per request, by the model at %.2f (one per "
               "128-B line per instruction): the GPU's L1 forms requests from the misses in flight together, so "
               "the grouping depends on timing", sg, ss, sg / r->gpu, ss / r->sim);
}

/* The note of level lv that the prediction rests on, the first one, or NULL. */
static const ws_note *note_of(const chk_facts *f, ws_confidence lv)
{
    for (int i = 0; f->notes && i < f->notes->n; i++)
        if (f->notes->notes[i].level == lv) return &f->notes->notes[i];
    return NULL;
}

static bool cite_note(const ws_note *n, const char *level, char *out, size_t cap)
{
    if (n->line > 0)
        return say(out, cap, "the prediction rests on %s (%s confidence, line %d): %s", n->mechanism, level, n->line,
                   n->text);
    return say(out, cap, "the prediction rests on %s (%s confidence): %s", n->mechanism, level, n->text);
}

static bool r_time_low_confidence(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    const ws_note *n = note_of(f, WS_CONF_LOW);
    return r->cls == CHK_TIME && n && cite_note(n, "low", out, cap);
}

/* The launch cost is at least the modelled work: the error is mostly the constant's. */
static bool r_time_launch(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    if (r->cls != CHK_TIME) return false;
    double launch = f->has_timing ? f->timing.t_launch_us : f->launch_us, sim_us = r->sim / 1e3, gpu_us = r->gpu / 1e3;
    if (!(launch > 0) || launch < 0.5 * sim_us) return false;
    return say(out, cap, "launch overhead dominates: %.2f us of the %.2f us predicted is the launch cost (the "
               "profile's constant, fitted over the catalog), the modelled work %.2f us; the GPU took %.2f us in "
               "all%s", launch, sim_us, sim_us - launch > 0 ? sim_us - launch : 0, gpu_us,
               gpu_us < launch ? ", less than the launch constant alone" : "");
}

static bool r_time_medium_confidence(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    const ws_note *n = note_of(f, WS_CONF_MEDIUM);
    return r->cls == CHK_TIME && n && cite_note(n, "medium", out, cap);
}

/* Bound rows at or above the lanes' own conflicts: L1 arbitration with other traffic adds
 * wavefronts, which is why the class is gpu >= sim. */
static bool r_arbitration(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    if (r->cls != CHK_BOUND || r->gpu <= r->sim) return false;
    const chk_row *arb = NULL; /* the GPU's arbitration count: the simulator has none */
    for (int i = 0; f->rows && i < f->nrows && !arb; i++)
        if (metric_id(&f->rows[i]) == WS_METRIC_SHARED_CONFLICTS_ARBITRATION && f->rows[i].has_gpu) arb = &f->rows[i];
    if (arb)
        return say(out, cap, "L1 arbitration adds wavefronts: the GPU counts %.0f more than the lanes' own conflicts "
                   "need (%.0f arbitration conflicts with other L1 traffic in the kernel)", r->gpu - r->sim, arb->gpu);
    return say(out, cap, "L1 arbitration adds wavefronts: the GPU counts %.0f more than the lanes' own conflicts "
               "need (conflicts with other L1 traffic)", r->gpu - r->sim);
}

typedef struct {
    const char *name;
    unsigned classes;          /* bit (1 << chk_class) per class the rule looks at */
    rule_fn fn;
} rule;

#define C(c) (1u << (c))

static const rule rules[] = {
    {"machine code differs from the PTX", C(CHK_EXACT) | C(CHK_BOUND), r_sass},
    {"timing-dependent count", C(CHK_TIMING_DEP), r_timing_dependent},
    {"blocks counted by a stand-in", C(CHK_CACHE), r_sass_stand_ins},
    {"the GPU's count varies run to run", C(CHK_CACHE), r_gpu_varies},
    {"instruction and constant fetches", C(CHK_CACHE), r_code_fetch},
    {"reads of lines written back during the kernel", C(CHK_CACHE), r_writeback_reads},
    {"dirty L2 lines written back during the kernel", C(CHK_CACHE), r_dirty_release},
    {"store lookups in L1", C(CHK_CACHE), r_store_lookups},
    {"L1 reuse", C(CHK_CACHE), r_l1_reuse},
    {"misses merged in L1", C(CHK_CACHE), r_l1_miss_merging},
    {"requests coalesced in step", C(CHK_CACHE), r_coalesced_in_step},
    {"misses in both L2 partitions", C(CHK_CACHE), r_l2_far_misses},
    {"in-flight L2 misses", C(CHK_CACHE), r_l2_inflight},
    {"sectors of several warps in one request", C(CHK_CACHE), r_l2_hits_in_one_request},
    {"re-reads merged in L1", C(CHK_CACHE), r_l2_hits_merged_in_l1},
    {"re-reads sent again to L2", C(CHK_CACHE), r_l2_hits_of_rereads},
    {"the lookups follow the load sectors", C(CHK_CACHE), r_lookups_follow_sectors},
    {"the L2 reads follow the L1 misses", C(CHK_CACHE), r_l2_follows_l1_misses},
    {"stores the model merges", C(CHK_CACHE), r_store_merging},
    {"the requests follow the sectors", C(CHK_CACHE), r_requests_follow_sectors},
    {"cp.async lookups counted as loads", C(CHK_CACHE), r_ldgsts_lookups},
    {"sectors looked up twice", C(CHK_CACHE), r_l2_lookups_twice},
    {"request grouping", C(CHK_CACHE), r_request_grouping},
    {"low-confidence mechanism", C(CHK_TIME), r_time_low_confidence},
    {"the bound is not the GPU's limit", C(CHK_TIME), r_time_bound_idle},
    {"issue slots left idle", C(CHK_TIME), r_time_issue_share},
    {"achieved occupancy", C(CHK_TIME), r_time_achieved_occupancy},
    {"launch overhead dominates", C(CHK_TIME), r_time_launch},
    {"medium-confidence mechanism", C(CHK_TIME), r_time_medium_confidence},
    {"L1 arbitration", C(CHK_BOUND), r_arbitration},
};

/* ---- the evidence that would decide a case no rule makes ------------------------------------ */

/* What would decide a time no rule explains: the utilisation of the resource the model says
 * bounds the kernel (ncu's names). */
static const char *bound_evidence(ws_bound b)
{
    switch (b) {
    case WS_BOUND_DRAM: return "dram__throughput.avg.pct_of_peak_sustained_elapsed (is DRAM the limit?)";
    case WS_BOUND_L2: return "lts__t_sectors.avg.pct_of_peak_sustained_elapsed (is the L2 the limit?)";
    case WS_BOUND_L1: return "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed (is the L1 data path "
                             "the limit?)";
    case WS_BOUND_ISSUE: return "smsp__issue_active.avg.pct_of_peak_sustained_active (are the schedulers the limit?)";
    case WS_BOUND_LATENCY: return "the warp stall reasons (smsp__average_warps_issue_stalled_long_scoreboard_per_issue_"
                                  "active.ratio) and achieved occupancy (sm__warps_active): which latency is exposed";
    case WS_BOUND_ATOMICS: return "a contention probe of this pattern (tests/gpu/contention_probe.cu) and "
                                  "lts__t_sectors_op_atom/op_red per slice";
    case WS_BOUND_SHARED_ATOMICS: return "a shared-atomic probe of this pattern (tests/gpu/contention_probe.cu)";
    case WS_BOUND_BLOCK_LAUNCH: return "sm__ctas_launched.sum over the kernel's duration (the block launch rate)";
    case WS_BOUND_TENSOR: return "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active (is the "
                                 "tensor pipe the limit?)";
    default: return "the launch cost of an empty kernel of this grid, timed the same way";
    }
}

static void missing(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    const char *why = NULL;
    char buf[320];
    int id = metric_id(r);
    const ws_metric_info *m = id >= 0 ? &ws_metric_table[id] : NULL;
    switch (r->cls) {
    case CHK_EXACT:
    case CHK_BOUND:
        if (f->no_sass) {
            snprintf(buf, sizeof buf, "the machine code to compare with the PTX (%.200s)", f->no_sass);
            why = buf;
        } else if (f->ptx && f->sass) {
            why = "per-instruction executed counts (ncu --set source: smsp__sass_inst_executed per SASS line), "
                  "as the PTX and the machine code hold the same accesses of this space";
        } else {
            why = "the machine code (check with ptxas and nvdisasm installed compares it with the PTX)";
        }
        break;
    case CHK_TIME:
        if (f->has_timing) {
            /* a run recorded with its time alone (check --gpu-only at a size beyond L2) has no other row */
            snprintf(buf, sizeof buf, "%s%s, predicted %s-bound (%s)", bound_evidence(f->timing.bound),
                     f->nrows <= 1 ? " at this size (the run was recorded with its time alone: check --gpu-only)" : "",
                     ws_bound_class(f->timing.bound), ws_bound_name(f->timing.bound));
            why = buf;
        } else {
            why = "the prediction's bound and terms (check --replay re-simulates the run)";
        }
        break;
    default:
        if (strstr(r->metric, "tma"))
            why = "the machine code's bulk copies (nvdisasm: UBLKCP / UTMALDG) beside the PTX's: how many TMA "
                  "operations and bytes the kernel's copies became";
        else if (m && m->unit == WS_UNIT_INST && f->counted_sass)
            why = "per-instruction executed counts (ncu --set source: smsp__sass_inst_executed per SASS line): the "
                  "model counts the machine code's instructions from the executions of the PTX lines each SASS "
                  "line came from, an estimate judged within 10%";
        else if (m && m->unit == WS_UNIT_INST)
            why = "the machine code (ptxas + nvdisasm) to count per SASS line: this count is the model's estimate "
                  "from the PTX (no machine code where this ran), judged within 10%";
        else if (m && (m->op == WS_MEM_ATOMIC || m->op == WS_MEM_REDUCE))
            why = "a microbenchmark of this atomic pattern's sectors (tests/gpu/contention_probe.cu) to measure the "
                  "rule";
        else if (id == WS_METRIC_DRAM_READ)
            why = "the DRAM reads by cause: lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum beside "
                  "dram__sectors_read.sum, and a run with ECC off";
        else if (id == WS_METRIC_DRAM_WRITE)
            why = "dram__bytes_write.sum sampled through the kernel (ncu --pm-sampling) against the model's "
                  "ws__l2_dirty_bytes_at_end";
        else if (m && m->space == WS_SPACE_LOCAL)
            why = "the local-memory lookups by op (l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum) and "
                  "the L1 carveout (launch__shared_mem_config_size)";
        else if (id == WS_METRIC_L1_HIT_RATE || id == WS_METRIC_L1_GLD_HIT || id == WS_METRIC_L1_GLD_MISS ||
                 id == WS_METRIC_L1_GLD_HIT_RATE)
            why = "the L1 lookups by op (l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum) and the L1 "
                  "carveout (launch__shared_mem_config_size)";
        else if ((id == WS_METRIC_L2_READ_SECTORS || id == WS_METRIC_L2_READ_REQUESTS || id == WS_METRIC_L2_READ_HIT) &&
                 f->has_l1_miss && !other(f, WS_METRIC_L1_GLD_MISS, NULL, NULL)) {
            /* a record of a few counters (a --no-sim run): what the GPU's L1 missed decides between the
               coalescer and the L1 (cp.async copies crossed the crossbar at 1.5x their missed sectors in the
               Bruce-Lee-LY GEMMs at 256^3, results/h200-corpus-detail/lrc.csv) */
            snprintf(buf, sizeof buf, "this launch's L1 misses on the GPU beside the model's %.0f "
                     "(l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum, "
                     "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum, "
                     "sm__sass_l1tex_m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_bypass.sum)",
                     f->l1_miss_sectors);
            why = buf;
        } else
            why = "the L2 lookups per request (lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum beside "
                  "lts__t_requests_srcunit_tex_op_read.sum per kernel phase) and the fill latency";
    }
    snprintf(out, cap, CHK_UNEXPLAINED "%s", why);
}

/* ---- entry points ------------------------------------------------------------------------- */

static const rule *explain(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if ((rules[i].classes & C(r->cls)) && rules[i].fn(r, f, out, cap)) return &rules[i];
    return NULL;
}

bool chk_explain_row(const chk_row *r, const chk_facts *f, char *out, size_t cap)
{
    if (!cap) return false;
    out[0] = 0;
    if (!r->has_sim || !r->has_gpu || r->sim == r->gpu) return true;
    if (explain(r, f, out, cap)) return true;
    missing(r, f, out, cap);
    return false;
}

const char *chk_explain_rule(const chk_row *r, const chk_facts *f)
{
    char buf[512];
    if (!r->has_sim || !r->has_gpu || r->sim == r->gpu) return "none";
    const rule *x = explain(r, f, buf, sizeof buf);
    return x ? x->name : "none";
}

const char *chk_shown_cause(const chk_row *r)
{
    if (r->verdict == CHK_DIFFER) return r->cause;
    if (r->verdict != CHK_AGREE) return "";
    return !strncmp(r->cause, CHK_VARIES, strlen(CHK_VARIES)) ||
                   !strncmp(r->cause, CHK_SAMPLED_ESTIMATE, strlen(CHK_SAMPLED_ESTIMATE))
               ? r->cause : "";
}

void chk_explain_rows(chk_row *rows, int n, const chk_facts *f)
{
    for (int i = 0; i < n; i++) {
        chk_row *r = &rows[i];
        char buf[sizeof r->cause];
        /* an agreeing row whose GPU count another run contradicts: said, still judged agreeing */
        if (r->verdict == CHK_AGREE && !r->cause[0] && r->cls == CHK_CACHE && r_gpu_varies(r, f, buf, sizeof buf))
            memcpy(r->cause, buf, sizeof buf);
        if (r->verdict != CHK_DIFFER) continue;
        r->explained = chk_explain_row(r, f, buf, sizeof buf);
        memcpy(r->cause, buf, sizeof buf);
    }
}
