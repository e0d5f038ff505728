/* report.c - formats one simulated launch (or two side by side) as text, JSON or
 * CSV. Numbers come only from memstats / occupancy / timing (see report.h). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/demangle.h"
#include "../../common/text.h"
#include "../interp/memcheck.h"

#include <cjson/cJSON.h>

static double ratio(double a, double b) { return b ? a / b : 0; }

/* Text of source line n (1-based) into buf, trimmed; "" when unknown. */
static void source_line(const char *text, int n, char *buf, size_t cap)
{
    buf[0] = 0;
    if (!text || n <= 0)
        return;
    const char *p = text;
    for (int i = 1; i < n && *p; i++) {
        p = strchr(p, '\n');
        if (!p)
            return;
        p++;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strcspn(p, "\n");
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\r' || p[len - 1] == '\t'))
        len--;
    char raw[512];
    if (len >= sizeof raw)
        len = sizeof raw - 1;
    memcpy(raw, p, len);
    raw[len] = 0;
    ws_text_visible(raw, buf, cap);          /* a .cu line may hold terminal controls */
}

static const char *space_short(ws_space s)
{
    switch (s) {
    case WS_SPACE_GLOBAL: return "global";
    case WS_SPACE_SHARED: return "shared";
    case WS_SPACE_LOCAL: return "local";
    case WS_SPACE_CONST: return "const";
    default: return "param";
    }
}

static const char *op_short(ws_mem_op o)
{
    switch (o) {
    case WS_MEM_LOAD: return "ld";
    case WS_MEM_STORE: return "st";
    case WS_MEM_ATOMIC: return "atom";
    default: return "red";
    }
}

static int cmp_line(const void *a, const void *b)
{
    const ws_line_row *x = a, *y = b;
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    if (x->space != y->space) /* global, shared, local: the order event.h lists them */
        return (x->space > y->space) - (x->space < y->space);
    return (x->op > y->op) - (x->op < y->op);
}

int ws_report_lines(const ws_report *r, ws_line_row **rows)
{
    int n = ws_memstats_ninsns(r->ms);
    ws_line_row *out = calloc((size_t)(n ? n : 1), sizeof *out);
    if (!out)
        return -1;
    int nrows = 0;
    for (int pc = 0; pc < n; pc++) {
        const ws_pc_stats *p = ws_memstats_pc(r->ms, pc);
        if (!p->used || p->space == WS_SPACE_CONST || p->space == WS_SPACE_PARAM)
            continue;
        ws_line_row *row = NULL;
        for (int i = 0; i < nrows && !row; i++)
            if (out[i].line == p->src_line && out[i].space == p->space && out[i].op == p->op)
                row = &out[i];
        if (!row) {
            row = &out[nrows++];
            row->line = p->src_line;
            row->space = p->space;
            row->op = p->op;
        }
        row->nmem++;
        row->executions += p->executions;
        row->active_lanes += p->active_lanes;
        if (p->space == WS_SPACE_SHARED || p->kind == WS_KIND_LDGSTS) { /* cp.async: its shared side too */
            row->shared_insts += p->executions;
            row->wavefronts += p->wavefronts;
            row->ideal_wavefronts += p->ideal_wavefronts;
            row->ncu_conflicts += p->ncu_conflicts;
        }
        if (p->space != WS_SPACE_SHARED) {
            row->requests += p->requests;
            row->sectors += p->sectors;
            row->ideal_sectors += p->ideal_sectors;
            if (p->op == WS_MEM_LOAD) {
                row->l1_hits += p->l1_hit_sectors;
                row->l1_lookups += p->l1_hit_sectors + p->l1_miss_sectors;
            }
        }
        char k[32];
        if (p->kind != WS_KIND_PLAIN) /* "cp.async.global.16", "ldmatrix.shared.16" */
            snprintf(k, sizeof k, "%s%s.%s.%d", row->kinds[0] ? " " : "", ws_mem_kind_name(p->kind),
                     space_short(p->space), p->width);
        else
            snprintf(k, sizeof k, "%s%s.%s.%d", row->kinds[0] ? " " : "", op_short(p->op), space_short(p->space), p->width);
        if (!strstr(row->kinds, k + (row->kinds[0] ? 1 : 0)) && strlen(row->kinds) + strlen(k) < sizeof row->kinds)
            strcat(row->kinds, k);
    }
    for (int i = 0; i < nrows; i++) {
        ws_line_row *row = &out[i];
        if (row->sectors > WS_REPORT_POOR_RATIO * (double)row->ideal_sectors) {
            row->poor = true;
            snprintf(row->flag, sizeof row->flag, "uncoalesced: x%.1f sectors",
                     ratio((double)row->sectors, (double)row->ideal_sectors));
        } else if (row->wavefronts > WS_REPORT_POOR_RATIO * (double)row->ideal_wavefronts) {
            row->poor = true;
            snprintf(row->flag, sizeof row->flag, "bank conflicts: x%.1f wavefronts",
                     ratio((double)row->wavefronts, (double)row->ideal_wavefronts));
        }
    }
    if (nrows > 1) qsort(out, (size_t)nrows, sizeof *out, cmp_line);
    *rows = out;
    return nrows;
}

static void print_value(FILE *f, double v, int width)
{
    if (v == (double)(long long)v && v < 1e15 && v > -1e15)
        fprintf(f, "%*lld", width, (long long)v);
    else
        fprintf(f, "%*.2f", width, v);
}

static void launch_lines(FILE *f, const ws_report *r)
{
    const ws_launch *L = r->launch;
    const ws_occupancy *o = r->occ;
    uint64_t blocks = ws_launch_blocks(L);
    uint64_t threads = ws_launch_threads_per_block(L);
    fprintf(f, "launch     grid (%u,%u,%u) x block (%u,%u,%u): %llu blocks of %llu threads (%d warps), "
               "dynamic shared %llu B\n",
            L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], (unsigned long long)blocks,
            (unsigned long long)threads, o->warps_per_block, (unsigned long long)L->shared_bytes);
    fprintf(f, "resources  %d registers/thread (%s), static shared %u B, local %llu B/thread\n", r->regs,
            r->regs_source ? r->regs_source : "?", r->static_smem, (unsigned long long)r->local_bytes);
    if (o->blocks_per_sm == 0) {
        fprintf(f, "occupancy  0: the block cannot run on %s: %s\n", r->dev->name, o->reason);
        return;
    }
    char lim[4][24];
    const int vals[4] = {o->limit_warps, o->limit_regs, o->limit_smem, o->limit_blocks};
    for (int i = 0; i < 4; i++) {
        if (vals[i] == WS_OCC_UNLIMITED)
            snprintf(lim[i], sizeof lim[i], "-");
        else
            snprintf(lim[i], sizeof lim[i], "%d", vals[i]);
    }
    fprintf(f, "occupancy  %d blocks/SM = %d of %d warps = %.1f %% theoretical, limited by %s "
               "(limits: warps %s, registers %s, shared %s, blocks %s)\n",
            o->blocks_per_sm, o->warps_per_sm, r->dev->max_warps_per_sm, o->occupancy_pct,
            ws_occ_limiter_name(o->limiter), lim[0], lim[1], lim[2], lim[3]);
    uint64_t per_wave = (uint64_t)o->blocks_per_sm * (uint64_t)r->dev->sm_count;
    fprintf(f, "           %u B shared allocated per block; carve-out %u KB -> L1 %u KB per SM (model); "
               "%.2f waves of %llu blocks\n",
            o->smem_per_block, o->driver_carveout / 1024, o->l1_bytes / 1024, ratio((double)blocks, (double)per_wave),
            (unsigned long long)per_wave);
}

/* "128x40 + 256x232": the registers the warpgroups hold, threads x count, equal counts summed. */
static void nreg_sum_text(const ws_nreg_report *n, char *buf, size_t cap)
{
    size_t k = 0;
    bool seen[WS_MAX_WARPGROUPS] = {false};
    buf[0] = 0;
    for (int g = 0; g < n->nwg && k < cap; g++) {
        if (seen[g]) continue;
        uint32_t threads = 0;
        for (int h = g; h < n->nwg; h++)
            if (n->wg[h] == n->wg[g]) { threads += 32u * n->wg_warps[h]; seen[h] = true; }
        k += (size_t)snprintf(buf + k, cap - k, "%s%ux%u", k ? " + " : "", threads, n->wg[g]);
    }
}

/* setmaxnreg moved registers between warpgroups: what each holds, against the block's pool. */
static void nreg_lines(FILE *f, const ws_report *r)
{
    const ws_nreg_report *n = r->nreg;
    if (!n) return;
    if (!n->used) {
        fprintf(f, "setmaxnreg ignored: the kernel gives no register count at entry (__launch_bounds__(threads, "
                   "blocks) or __maxnreg__), so ptxas drops it (C7508) and so does the simulator\n");
        return;
    }
    char sum[200];
    nreg_sum_text(n, sum, sizeof sum);
    fprintf(f, "setmaxnreg registers/thread per warpgroup at block end:");
    for (int g = 0; g < n->nwg; g++) {          /* 0: unknown (no ptxas count, no setmaxnreg in it) */
        if (n->wg[g]) fprintf(f, " %s%u", g ? "/ " : "", n->wg[g]);
        else fprintf(f, " %s?", g ? "/ " : "");
    }
    if (!n->pool) {
        fprintf(f, "; no ptxas count, so no pool to hold them to: occupancy not checked\n");
        return;
    }
    uint64_t now = 0;
    for (int g = 0; g < n->nwg; g++) now += 32ull * n->wg_warps[g] * n->wg[g];
    fprintf(f, "\n           %s = %llu of the block's pool of %u (%u x %u threads), at most %u held at once: "
               "%s\n", sum, (unsigned long long)now, n->pool, n->regs_per_thread, n->pool / n->regs_per_thread,
            n->peak, n->peak <= n->pool ? "the occupancy above, from ptxas's count, holds"
                                        : "MORE than the pool: the occupancy above does not hold");
}

static void efficiency_lines(FILE *f, const ws_report *r)
{
    const ws_mem_totals *t = ws_memstats_totals(r->ms);
    const char *names[] = {"global loads", "global stores", "local loads", "local stores"};
    const ws_mem_counts *cs[] = {&t->global[WS_MEM_LOAD], &t->global[WS_MEM_STORE], &t->local[WS_MEM_LOAD],
                                 &t->local[WS_MEM_STORE]};
    fprintf(f, "\nefficiency (actual vs ideal)\n");
    for (int i = 0; i < 4; i++) {
        const ws_mem_counts *c = cs[i];
        if (!c->inst)
            continue;
        fprintf(f, "  %-14s %6.2f sectors/request, ideal %6.2f: %5.1f %% of fetched bytes used\n", names[i],
                ratio((double)c->sectors, (double)c->requests), ratio((double)c->ideal_sectors, (double)c->requests),
                100.0 * ratio((double)c->bytes_used, 32.0 * (double)c->sectors));
    }
    const char *snames[] = {"shared loads", "shared stores", "shared atomics"};
    const ws_mem_counts *ss[] = {&t->shared[WS_MEM_LOAD], &t->shared[WS_MEM_STORE], &t->shared[WS_MEM_ATOMIC]};
    for (int i = 0; i < 3; i++) {
        const ws_mem_counts *c = ss[i];
        if (!c->inst)
            continue;
        fprintf(f, "  %-14s %6.2f wavefronts/instruction, ideal %6.2f: %llu excess wavefronts "
                   "(ncu counts %llu bank conflicts)\n",
                snames[i], ratio((double)c->wavefronts, (double)c->inst), ratio((double)c->ideal_wavefronts, (double)c->inst),
                (unsigned long long)c->excess, (unsigned long long)c->ncu_conflicts);
    }
    const ws_tc_counts *tc = &t->tc;            /* the tensor-era families, each on its own line */
    if (tc->ldgsts_global.inst)
        fprintf(f, "  %-14s %6.2f sectors/request, ideal %6.2f; %6.2f shared wavefronts/instruction, ideal %6.2f\n",
                "cp.async", ratio((double)tc->ldgsts_global.sectors, (double)tc->ldgsts_global.requests),
                ratio((double)tc->ldgsts_global.ideal_sectors, (double)tc->ldgsts_global.requests),
                ratio((double)tc->ldgsts_shared.wavefronts, (double)tc->ldgsts_shared.inst),
                ratio((double)tc->ldgsts_shared.ideal_wavefronts, (double)tc->ldgsts_shared.inst));
    const char *mnames[] = {"ldmatrix", "stmatrix"};
    const ws_mem_counts *ms[] = {&tc->ldsm, &tc->stsm};
    for (int i = 0; i < 2; i++)
        if (ms[i]->inst)
            fprintf(f, "  %-14s %6.2f wavefronts/instruction, ideal %6.2f: %llu excess wavefronts (bank conflicts "
                       "between the rows of one 8x8 matrix)\n", mnames[i],
                    ratio((double)ms[i]->wavefronts, (double)ms[i]->inst),
                    ratio((double)ms[i]->ideal_wavefronts, (double)ms[i]->inst), (unsigned long long)ms[i]->excess);
    const ws_cache_totals *k = &t->cache;
    uint64_t look = k->l1_global_ld_hit + k->l1_global_ld_miss + k->l1_local_ld_hit + k->l1_local_ld_miss;
    if (look)
        fprintf(f, "  %-14s %5.1f %% of load sectors hit in L1; L2 hit %5.1f %% of read sectors\n", "caches",
                100.0 * ratio((double)(k->l1_global_ld_hit + k->l1_local_ld_hit), (double)look),
                100.0 * ratio((double)k->l2_read_hit_sectors, (double)k->l2_read_sectors));
}

/* same_line: a further instruction kind on the line just printed: no line text again;
 * width: the source column, as wide as the longest line shown (never cut) */
static void print_row(FILE *f, const ws_report *r, const ws_line_row *row, bool same_line, int width)
{
    char src[512];
    source_line(r->source_text, row->line, src, sizeof src);
    if (same_line)
        fprintf(f, "  %5s  %-*s %10llu", "", width, "", (unsigned long long)row->executions);
    else
        fprintf(f, "  %5d  %-*s %10llu", row->line, width, row->line ? src : "(no line information)",
                (unsigned long long)row->executions);
    if (row->requests)
        fprintf(f, " %9.2f %7.2f", ratio((double)row->sectors, (double)row->requests),
                ratio((double)row->ideal_sectors, (double)row->requests));
    else
        fprintf(f, " %9s %7s", "", "");
    if (row->shared_insts)
        fprintf(f, " %9.2f %7.2f", ratio((double)row->wavefronts, (double)row->shared_insts),
                ratio((double)row->ideal_wavefronts, (double)row->shared_insts));
    else
        fprintf(f, " %9s %7s", "", "");
    /* active lanes: a halo load run by 1 lane of 32 is at its ideal sectors yet wastes 31 lanes */
    fprintf(f, " %6.1f%%", 100.0 * ratio((double)row->active_lanes, 32.0 * (double)row->executions));
    fprintf(f, "  %s%s[%s]\n", row->flag, row->flag[0] ? " " : "", row->kinds);
}

static void line_table(FILE *f, const ws_report *r, bool all_lines)
{
    ws_line_row *rows = NULL;
    int n = ws_report_lines(r, &rows);
    if (n < 0)
        return;
    char shown[3 * WS_PATH_MAX];                 /* a file name may hold terminal controls */
    fprintf(f, "\nper source line (%s; flag: > %.2fx the ideal sectors or wavefronts)\n",
            ws_text_visible(r->source_path ? r->source_path : "?", shown, sizeof shown), WS_REPORT_POOR_RATIO);
    int width = (int)strlen("(no line information)");
    for (int k = 0; k < n; k++) {
        char src[512];
        source_line(r->source_text, rows[k].line, src, sizeof src);
        int w = (int)strlen(src); /* bytes: printf pads by bytes too, so columns line up for ASCII source */
        if (w > width)
            width = w;
    }
    fprintf(f, "  %5s  %-*s %10s %9s %7s %9s %7s %7s  %s\n", "line", width, "source", "warp-instr", "sect/req", "ideal",
            "wf/instr", "ideal", "lanes", "flag [instructions: op.space.bytes]");
    int i = 0;
    while (i < n && rows[i].line == 0) { /* instructions without line information first */
        print_row(f, r, &rows[i], i > 0, width);
        i++;
    }
    if (!all_lines) {
        for (; i < n; i++)
            print_row(f, r, &rows[i], i > 0 && rows[i - 1].line == rows[i].line, width);
    } else if (i < n) {
        int lo = rows[i].line, hi = rows[n - 1].line;
        if (r->kernel_line > 0 && r->kernel_line < lo)
            lo = r->kernel_line;
        for (int line = lo; line <= hi; line++) {
            if (i < n && rows[i].line == line) {
                for (bool first = true; i < n && rows[i].line == line; i++, first = false)
                    print_row(f, r, &rows[i], !first, width);
            } else {
                char src[512];
                source_line(r->source_text, line, src, sizeof src);
                fprintf(f, "  %5d  %s\n", line, src);
            }
        }
    }
    free(rows);
}

/* "5.33 us median (20 runs), 1745.6 GB/s": what the recorded run has. */
static void measured_figures(const ws_measured *m, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    if (m->median_us >= 0)
        n += (size_t)snprintf(buf, cap, "%.2f us median", m->median_us);
    if (m->median_us >= 0 && m->reps > 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, " (%d runs)", m->reps);
    if (n < cap)
        snprintf(buf + n, cap - n, "%s%.1f GB/s", n ? ", " : "", m->gbs);
}

/* The recorded GPU run: its own line when it had this launch's -D, else one line saying
 * which -D it had (its figures belong to another problem size). */
static void measured_line(FILE *f, const char *label, const ws_measured *m)
{
    char fig[96];
    measured_figures(m, fig, sizeof fig);
    if (m->exact) {
        fprintf(f, "%s%s on %s, %s (%s)\n", label, fig, m->gpu, m->date, m->file);
        return;
    }
    char others[sizeof m->others_text + 16] = "";
    if (m->others_text[0]) snprintf(others, sizeof others, " (also %s)", m->others_text);
    fprintf(f, "%son %s only with %s%s%s: %s, %s (%s)\n", label, m->gpu, m->overrides[0] ? "-D " : "",
            m->overrides[0] ? m->overrides : "the description's defaults", others, fig, m->date, m->file);
}

/* The confidence and each note, "line N" where it has one (confidence.h). */
static void notes_lines(FILE *f, const ws_notes *n, const char *indent)
{
    fprintf(f, "%sconfidence %s%s\n", indent, ws_confidence_name(n->level),
            n->n ? ": the prediction rests on what the model does not capture:" : " (no unmodelled mechanism found)");
    for (int i = 0; i < n->n; i++) {
        const ws_note *x = &n->notes[i];
        char where[24] = "kernel";
        if (x->line > 0)
            snprintf(where, sizeof where, "line %d", x->line);
        fprintf(f, "%s  %-6s %-8s %s: %s\n", indent, ws_confidence_name(x->level), where, x->mechanism, x->text);
    }
}

static void timing_lines(FILE *f, const ws_report *r)
{
    const ws_timing *t = r->timing;
    fprintf(f, "\npredicted  %.2f us for %s, bound by %s (model, docs/timing-model.md)\n", t->t_kernel_us,
            r->dev->name, ws_bound_name(t->bound));
    fprintf(f, "           terms: DRAM %.2f, L2 %.2f, L1/shared %.2f, issue %.2f, latency %.2f, launch %.2f us\n",
            t->t_dram_us, t->t_l2_us, t->t_l1_us, t->t_issue_us, t->t_latency_us, t->t_launch_us);
    fprintf(f, "bandwidth  %.1f GB/s effective (%llu useful bytes / time) = %.1f %% of the %.0f GB/s DRAM peak; "
               "DRAM traffic %.1f GB/s\n",
            t->eff_bw_gbs, (unsigned long long)r->launch->bytes_moved, 100.0 * ratio(t->eff_bw_gbs, r->dev->dram_bw_gbs),
            r->dev->dram_bw_gbs, t->dram_bw_gbs);
    if (t->issue_pipe != WS_PIPE_NONE && t->t_pipe_us > t->t_issue_slots_us)
        fprintf(f, "           issue: the %s pipe %.2f us (issue slots %.2f us)\n", ws_pipe_name(t->issue_pipe),
                t->t_pipe_us, t->t_issue_slots_us);
    if (t->t_tensor_us > 0)
        fprintf(f, "           tensor pipe %.2f us (mostly %s)\n", t->t_tensor_us, ws_pipe_name(t->tensor_pipe));
    if (t->t_phase_us > 0 && t->t_phase_us + t->t_launch_us >= t->t_kernel_us - 1e-9)
        fprintf(f, "           phases: a block's load phase and its shared phase (%.2f us on the L1 data path) "
                   "add, overlapped only across the blocks in flight: %.2f us\n", t->t_l1_us, t->t_phase_us);
    if (t->dram_queue_cycles > 0)
        fprintf(f, "           DRAM %.0f %% busy: a DRAM load waits %.0f cycles in its queue\n",
                100.0 * t->dram_utilisation, t->dram_queue_cycles);
    if (t->t_atomics_us > 0 || t->t_shared_atomics_us > 0 || t->t_block_launch_us > 0)
        fprintf(f, "           contention: atomics %.2f, shared atomics %.2f, block launch %.2f us\n", t->t_atomics_us,
                t->t_shared_atomics_us, t->t_block_launch_us);
    if (r->notes)
        notes_lines(f, r->notes, "");
    if (r->measured)
        measured_line(f, "measured   ", r->measured);
}

void ws_report_line_table(FILE *f, const ws_report *r, const char *label, bool all_lines)
{
    if (label)
        fprintf(f, "\n%s = %s", label, r->kernel);
    line_table(f, r, all_lines);
}

void ws_report_text(FILE *f, const ws_report *r, bool all_lines)
{
    /* a simulation runs on this CPU: it is "for" a GPU profile, never "on" the GPU */
    char shown[3 * WS_PATH_MAX];                 /* a file name may hold terminal controls */
    fprintf(f, "warpscope sim: %s (%s:%d) simulated for %s (profile %s, cc %d.%d, %d SMs)\n", r->kernel,
            ws_text_visible(r->source_path ? r->source_path : "?", shown, sizeof shown), r->kernel_line, r->dev->name, r->dev->key, r->dev->cc_major,
            r->dev->cc_minor, r->dev->sm_count);
    if (r->note && r->note[0]) {
        char note[3 * WS_NOTE_MAX];              /* the description's text: no terminal controls */
        fprintf(f, "  %s\n", ws_text_visible(r->note, note, sizeof note));
    }
    launch_lines(f, r);
    nreg_lines(f, r);
    fprintf(f, "simulated  %llu warp instructions (%llu thread instructions), %llu memory instructions in %.2f s\n",
            (unsigned long long)r->warp_insns, (unsigned long long)r->thread_insns,
            (unsigned long long)ws_memstats_totals(r->ms)->events, r->sim_seconds);
    if (r->counters_level)
        fprintf(f, "counters   %s%s\n", r->counters_level,
                r->counters_approximate ? " (the exact rows below are approximate where noted)" : "");
    if (r->sass_warp_insns && !r->spin_warp_insns)
        fprintf(f, "           %llu SASS warp instructions issued (the timing model's issue term)\n",
                (unsigned long long)r->sass_warp_insns);
    else if (r->spin_warp_insns)  /* docs/timing-model.md "Wait loops" */
        fprintf(f, "           %llu %swarp instructions, %llu of them retries of an mbarrier try_wait loop, which "
                   "the GPU suspends instead: the issue term counts %llu\n",
                (unsigned long long)(r->sass_warp_insns ? r->sass_warp_insns : r->warp_insns),
                r->sass_warp_insns ? "SASS " : "", (unsigned long long)r->spin_warp_insns,
                (unsigned long long)((r->sass_warp_insns ? r->sass_warp_insns : r->warp_insns) - r->spin_warp_insns));
    if (r->sampling && r->sampling[0])
        fprintf(f, "sampling   %s%s\n", r->sampling,
                r->sample.sampled ? "; the output buffers are incomplete (--full for every block)" : "");

    ws_metric rows[128];
    int n = ws_memstats_metrics(r->ms, rows, 128);
    fprintf(f, "\nkernel totals (exact = the counter Nsight Compute reads; model = cache/DRAM model; "
               "ws__ = warpscope's own)\n");
    for (int i = 0; i < n; i++) {
        const ws_metric_info *m = rows[i].info;
        bool global_inst = m->kind == WS_KIND_PLAIN && m->space == WS_SPACE_GLOBAL && m->unit == WS_UNIT_INST;
        if (rows[i].value == 0 && !global_inst)
            continue; /* keep the table to what this kernel does (and always say how many global accesses) */
        fprintf(f, "  %-66s ", rows[i].name);
        print_value(f, rows[i].value, 14);
        fprintf(f, "  %-5s  %s\n", ws_basis_name(rows[i].basis), rows[i].desc);
    }
    efficiency_lines(f, r);
    line_table(f, r, all_lines);
    timing_lines(f, r);
}

/* One long-format record: kernel,variant,scope,line,metric,unit,value,basis,verdict,cause (both
 * empty: sim judges nothing, only check explains a difference); the metric's name and unit are
 * its table row's (metrics.h), its basis the row's or, for a kernel total, this run's
 * (ws_metric.basis: an approximate SASS count is "model"). */
static void csv_row_basis(FILE *f, const ws_report *r, const char *variant, int line, const char *name,
                          const ws_metric_info *m, ws_basis basis, double value)
{
    char ln[16] = "", val[40];
    if (line >= 0)
        snprintf(ln, sizeof ln, "%d", line);
    snprintf(val, sizeof val, "%.15g", value); /* the shortest form that reads back the same double */
    if (strtod(val, NULL) != value)
        snprintf(val, sizeof val, "%.17g", value);
    const char *fields[] = {r->kernel, variant, line >= 0 ? "line" : "kernel", ln, name, ws_unit_name(m->unit), val,
                            ws_basis_name(basis), "", ""};
    ws_csv_row(f, WS_CSV_NCOLUMNS, fields);
}

static void csv_row_named(FILE *f, const ws_report *r, const char *variant, int line, const char *name,
                          const ws_metric_info *m, double value)
{
    csv_row_basis(f, r, variant, line, name, m, m->basis, value);
}

static void csv_row(FILE *f, const ws_report *r, const char *variant, int line, const ws_metric_info *m, double value)
{
    csv_row_named(f, r, variant, line, m->name, m, value);
}

/* A REPORT or LINE row's record, where its value column gives one (NAN: none here). */
#define RECORD(id, name, unit, basis, judge, slack, ncu, space, op, kind, help, value) \
    do {                                                                              \
        double v_ = (double)(value);                                                  \
        if (!isnan(v_))                                                               \
            csv_row(f, r, variant, line, &ws_metric_table[WS_METRIC_##id], v_);       \
    } while (0);

/* Adds row x's counts into sum (a line's total, or its loads' or stores'). */
static void line_add(ws_line_row *sum, const ws_line_row *x)
{
    sum->executions += x->executions;
    sum->active_lanes += x->active_lanes;
    sum->requests += x->requests;
    sum->sectors += x->sectors;
    sum->ideal_sectors += x->ideal_sectors;
    sum->shared_insts += x->shared_insts;
    sum->wavefronts += x->wavefronts;
    sum->ideal_wavefronts += x->ideal_wavefronts;
}

void ws_report_csv(FILE *f, const ws_report *r, const char *variant, bool header)
{
    if (header)
        fputs(WS_CSV_HEADER, f);
    ws_metric rows[128];
    int n = ws_memstats_metrics(r->ms, rows, 128);
    int line = -1;
    for (int i = 0; i < n; i++)
        csv_row_basis(f, r, variant, line, rows[i].name, rows[i].info, rows[i].basis, rows[i].value);
    WS_METRICS_REPORT(RECORD)
    if (r->sample.sampled) { /* block sampling: what was run and the bounds, as ws__sample_* records */
        const ws_sample_info *si = &r->sample;
        const ws_metric_info *m = &ws_metric_table[WS_METRIC_SAMPLE];
        csv_row_named(f, r, variant, -1, "ws__sample_blocks_simulated", m, (double)si->blocks_run);
        csv_row_named(f, r, variant, -1, "ws__sample_blocks_total", m, (double)si->blocks_total);
        csv_row_named(f, r, variant, -1, "ws__sample_exact_counters_bound", m, si->exact_bound);
        csv_row_named(f, r, variant, -1, "ws__sample_cache_counters_bound", m, si->cache_bound >= 0 ? si->cache_bound : -1);
    }
    if (r->notes) /* one record per note: ws__note_<mechanism>, the NOTE row's unit and basis */
        for (int i = 0; i < r->notes->n; i++) {
            const ws_note *x = &r->notes->notes[i];
            char metric[64] = "ws__note_";
            size_t k = strlen(metric);
            for (const char *c = x->mechanism; *c && k + 1 < sizeof metric; c++)
                metric[k++] = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c
                            : (*c >= 'A' && *c <= 'Z') ? (char)(*c - 'A' + 'a') : '_';
            metric[k] = 0;
            csv_row_named(f, r, variant, x->line > 0 ? x->line : -1, metric, &ws_metric_table[WS_METRIC_NOTE],
                          (double)x->level);
        }
    ws_line_row *lr = NULL;
    int nl = ws_report_lines(r, &lr);
    /* rows come sorted by line: a line's loads and stores (and spaces) are summed into one
     * record per (line, metric), the way a per-line profile view totals a line; a line with
     * both loads and stores also gets its loads' and its stores' sums as ld_ and st_ records */
    for (int i = 0; i < nl;) {
        ws_line_row sum = {.line = lr[i].line}, lds = {.line = lr[i].line}, sts = {.line = lr[i].line};
        const ws_line_row *l = &sum, *ld = NULL, *st = NULL;
        for (; i < nl && lr[i].line == sum.line; i++) {
            line_add(&sum, &lr[i]);
            if (lr[i].op == WS_MEM_LOAD) line_add(&lds, &lr[i]);
            if (lr[i].op == WS_MEM_STORE) line_add(&sts, &lr[i]);
        }
        if (lds.executions && sts.executions) {
            ld = &lds;
            st = &sts;
        }
        line = sum.line;
        WS_METRICS_LINE(RECORD)
    }
    free(lr);
}
#undef RECORD

static cJSON *idx3(const uint32_t v[3])
{
    return cJSON_CreateIntArray((const int[]){(int)v[0], (int)v[1], (int)v[2]}, 3);
}

/* threadIdx of linear thread t in a block of dims b (x fastest, as CUDA numbers threads) */
static void thread_of(uint32_t t, const uint32_t b[3], uint32_t out[3])
{
    uint32_t bx = b[0] ? b[0] : 1, by = b[1] ? b[1] : 1;
    out[0] = t % bx;
    out[1] = (t / bx) % by;
    out[2] = t / (bx * by);
}

static cJSON *race_access(const ws_race_access *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "threadIdx", idx3(a->tid));
    cJSON_AddNumberToObject(o, "warp", a->warp);
    cJSON_AddNumberToObject(o, "lane", a->lane);
    cJSON_AddNumberToObject(o, "line", a->src_line);
    cJSON_AddStringToObject(o, "access", ws_mem_op_name(a->op));
    return o;
}

/* blockIdx and threadIdx of a fault, threadIdx converted with the launch's block shape; it
 * is null where the fault names a whole warp or block. */
static void add_where(cJSON *f, const ws_fault *x, const ws_launch *L)
{
    uint32_t tid[3];
    cJSON_AddItemToObject(f, "blockIdx", idx3(x->block));
    if (x->warp >= 0 && x->lane >= 0 && L) {
        thread_of((uint32_t)x->warp * 32 + (uint32_t)x->lane, L->block, tid);
        cJSON_AddItemToObject(f, "threadIdx", idx3(tid));
    } else {
        cJSON_AddNullToObject(f, "threadIdx");
    }
}

/* Findings the way compute-sanitizer reports them: tool, kind, the .cu line, blockIdx and
 * threadIdx, how often, and the message the text output prints; a race also names both
 * accesses' warp and lane (earlier, later) and whether it is a warp-level hazard. */
static void add_findings(cJSON *o, const ws_report *r)
{
    cJSON *fa = cJSON_AddArrayToObject(o, "findings");
    char msg[2048];
    for (int i = 0; r->race && i < ws_racecheck_count(r->race); i++) {
        const ws_race *h = ws_racecheck_get(r->race, i);
        cJSON *f = cJSON_CreateObject();
        bool uninit = h->kind == WS_RACE_UNINIT;
        cJSON_AddStringToObject(f, "tool", uninit ? "initcheck" : "racecheck");
        cJSON_AddStringToObject(f, "kind", ws_race_kind_name(h->kind));
        cJSON_AddStringToObject(f, "file", r->source_path ? r->source_path : "");
        cJSON_AddNumberToObject(f, "line", h->second.src_line);
        cJSON_AddItemToObject(f, "blockIdx", idx3(h->block));
        cJSON_AddItemToObject(f, "threadIdx", idx3(h->second.tid));
        cJSON_AddNumberToObject(f, "count", (double)h->count);
        cJSON_AddNumberToObject(f, "shared_offset", (double)h->addr);
        if (!uninit) {
            cJSON_AddBoolToObject(f, "warp_level", h->warp_level);
            cJSON_AddItemToObject(f, "earlier", race_access(&h->first));
            cJSON_AddItemToObject(f, "later", race_access(&h->second));
        }
        ws_racecheck_format(r->race, i, r->source_path, r->kernel, msg, sizeof msg);
        cJSON_AddStringToObject(f, "message", msg);
        cJSON_AddItemToArray(fa, f);
    }
    for (int k = 0; r->result && k < WS_MEMERR_KINDS; k++) {
        if (!r->result->memerr_count[k])
            continue;
        const ws_fault *x = &r->result->memerr_first[k];
        char m[WS_MSG_MAX];
        ws_fault_format(x, m, sizeof m);
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "tool", ws_fault_tool_name(x->tool));
        cJSON_AddStringToObject(f, "kind", ws_memerr_kind_name((ws_memerr_kind)k));
        cJSON_AddStringToObject(f, "file", r->source_path ? r->source_path : "");
        cJSON_AddNumberToObject(f, "line", ws_fault_line(x));
        add_where(f, x, r->launch);
        cJSON_AddNumberToObject(f, "count", (double)r->result->memerr_count[k]);
        cJSON_AddStringToObject(f, "message", m);
        cJSON_AddItemToArray(fa, f);
    }
}

/* The members every document has after the envelope, finished or stopped at a fault
 * (docs/json-schema.json). */
static void report_head(cJSON *o, const ws_report *r)
{
    cJSON_AddStringToObject(o, "kernel", r->kernel);
    cJSON_AddStringToObject(o, "overrides", r->overrides ? r->overrides : "");
    cJSON_AddStringToObject(o, "compiler", r->compiler ? r->compiler : "");
    cJSON *dj = cJSON_AddObjectToObject(o, "device_profile");
    cJSON_AddStringToObject(dj, "key", r->dev->key);
    cJSON_AddStringToObject(dj, "name", r->dev->name);
    cJSON_AddNumberToObject(dj, "sm_count", r->dev->sm_count);
    cJSON_AddStringToObject(o, "source", r->source_path ? r->source_path : "");
    add_findings(o, r);
}

int ws_report_json_members(cJSON *o, const ws_report *r)
{
    report_head(o, r);
    char dm[512];
    cJSON_AddStringToObject(o, "entry", r->entry ? ws_demangle(r->entry, dm, sizeof dm) : ""); /* as C++ spells it */
    cJSON_AddStringToObject(o, "entry_ptx", r->entry ? r->entry : "");
    cJSON_AddStringToObject(o, "device", r->dev->key);
    cJSON_AddStringToObject(o, "device_name", r->dev->name);
    cJSON_AddStringToObject(o, "counters_level", r->counters_level ? r->counters_level : "");
    cJSON_AddBoolToObject(o, "counters_approximate", r->counters_approximate);
    cJSON_AddNumberToObject(o, "sass_warp_insns", (double)r->sass_warp_insns);
    cJSON_AddNumberToObject(o, "wait_retry_warp_insns", (double)r->spin_warp_insns);
    if (r->sampling) { /* block sampling (sim/sample.h): what was run, and the bounds of the scaled counters */
        cJSON *sj = cJSON_AddObjectToObject(o, "sampling");
        const ws_sample_info *si = &r->sample;
        cJSON_AddBoolToObject(sj, "sampled", si->sampled);
        cJSON_AddNumberToObject(sj, "blocks_simulated", (double)si->blocks_run);
        cJSON_AddNumberToObject(sj, "blocks_total", (double)si->blocks_total);
        cJSON_AddNumberToObject(sj, "waves", si->waves);
        cJSON_AddNumberToObject(sj, "edge_blocks", (double)si->edge_blocks);
        cJSON_AddBoolToObject(sj, "exact_counters_exact", si->exact_exact);
        cJSON_AddNumberToObject(sj, "exact_counters_bound", si->exact_bound);
        if (si->cache_bound >= 0) cJSON_AddNumberToObject(sj, "cache_counters_bound", si->cache_bound);
        else cJSON_AddNullToObject(sj, "cache_counters_bound");
        cJSON_AddStringToObject(sj, "text", r->sampling);
    }
    const ws_launch *L = r->launch;
    cJSON *lj = cJSON_AddObjectToObject(o, "launch");
    cJSON_AddItemToObject(lj, "grid", cJSON_CreateIntArray((const int[]){(int)L->grid[0], (int)L->grid[1], (int)L->grid[2]}, 3));
    cJSON_AddItemToObject(lj, "block", cJSON_CreateIntArray((const int[]){(int)L->block[0], (int)L->block[1], (int)L->block[2]}, 3));
    cJSON_AddNumberToObject(lj, "dynamic_shared_bytes", (double)L->shared_bytes);
    cJSON_AddNumberToObject(lj, "bytes_moved", (double)L->bytes_moved);
    cJSON *params = cJSON_AddObjectToObject(lj, "params");
    for (int i = 0; i < L->nparams; i++)
        cJSON_AddNumberToObject(params, L->param_names[i], (double)L->param_values[i]);
    const ws_occupancy *oc = r->occ;
    cJSON *oj = cJSON_AddObjectToObject(o, "occupancy");
    cJSON_AddNumberToObject(oj, "registers", r->regs);
    cJSON_AddStringToObject(oj, "registers_source", r->regs_source ? r->regs_source : "");
    cJSON_AddNumberToObject(oj, "static_shared_bytes", r->static_smem);
    cJSON_AddNumberToObject(oj, "local_bytes", (double)r->local_bytes);
    cJSON_AddNumberToObject(oj, "blocks_per_sm", oc->blocks_per_sm);
    cJSON_AddNumberToObject(oj, "warps_per_sm", oc->warps_per_sm);
    cJSON_AddNumberToObject(oj, "theoretical_pct", oc->occupancy_pct);
    cJSON_AddStringToObject(oj, "limited_by", ws_occ_limiter_name(oc->limiter));
    cJSON_AddNumberToObject(oj, "limit_warps", oc->limit_warps);
    cJSON_AddNumberToObject(oj, "limit_registers", oc->limit_regs);
    cJSON_AddNumberToObject(oj, "limit_shared", oc->limit_smem);
    cJSON_AddNumberToObject(oj, "limit_blocks", oc->limit_blocks);
    cJSON_AddNumberToObject(oj, "l1_bytes", oc->l1_bytes);
    if (r->nreg) {                               /* setmaxnreg's accounting */
        const ws_nreg_report *n = r->nreg;
        cJSON *nj = cJSON_AddObjectToObject(o, "setmaxnreg");
        cJSON_AddBoolToObject(nj, "ignored_by_ptxas", !n->used);
        cJSON *wg = cJSON_AddArrayToObject(nj, "warpgroups");
        for (int g = 0; g < n->nwg; g++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "warpgroup", g);
            cJSON_AddNumberToObject(e, "threads", 32.0 * n->wg_warps[g]);
            if (n->wg[g]) cJSON_AddNumberToObject(e, "registers_per_thread", n->wg[g]);
            else cJSON_AddNullToObject(e, "registers_per_thread");   /* unknown: no ptxas count */
            cJSON_AddItemToArray(wg, e);
        }
        if (n->pool) {
            cJSON_AddNumberToObject(nj, "registers_per_thread_at_launch", n->regs_per_thread);
            cJSON_AddNumberToObject(nj, "pool", n->pool);
            cJSON_AddNumberToObject(nj, "peak_held", n->peak);
            cJSON_AddBoolToObject(nj, "occupancy_holds", n->peak <= n->pool);
        } else {
            cJSON_AddNullToObject(nj, "pool");
            cJSON_AddNullToObject(nj, "occupancy_holds");
        }
    }
    cJSON *sim = cJSON_AddObjectToObject(o, "simulation");
    cJSON_AddNumberToObject(sim, "warp_instructions", (double)r->warp_insns);
    cJSON_AddNumberToObject(sim, "thread_instructions", (double)r->thread_insns);
    cJSON_AddNumberToObject(sim, "seconds", r->sim_seconds);
    cJSON *tot = cJSON_AddArrayToObject(o, "totals");
    ws_metric rows[128];
    int n = ws_memstats_metrics(r->ms, rows, 128);
    for (int i = 0; i < n; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "name", rows[i].name);
        cJSON_AddNumberToObject(m, "value", rows[i].value);
        cJSON_AddStringToObject(m, "basis", ws_basis_name(rows[i].basis));
        cJSON_AddStringToObject(m, "description", rows[i].desc);
        cJSON_AddItemToArray(tot, m);
    }
    cJSON *lines = cJSON_AddArrayToObject(o, "lines");
    ws_line_row *lr = NULL;
    int nl = ws_report_lines(r, &lr);
    for (int i = 0; i < nl; i++) {
        const ws_line_row *x = &lr[i];
        char src[256];
        source_line(r->source_text, x->line, src, sizeof src);
        cJSON *m = cJSON_CreateObject();
        cJSON_AddNumberToObject(m, "line", x->line);
        cJSON_AddStringToObject(m, "source", src);
        cJSON_AddStringToObject(m, "instructions", x->kinds);
        cJSON_AddNumberToObject(m, "warp_instructions", (double)x->executions);
        cJSON_AddNumberToObject(m, "active_lanes_pct", 100.0 * ratio((double)x->active_lanes, 32.0 * (double)x->executions));
        cJSON_AddNumberToObject(m, "requests", (double)x->requests);
        cJSON_AddNumberToObject(m, "sectors", (double)x->sectors);
        cJSON_AddNumberToObject(m, "sectors_ideal", (double)x->ideal_sectors);
        cJSON_AddNumberToObject(m, "shared_instructions", (double)x->shared_insts);
        cJSON_AddNumberToObject(m, "wavefronts", (double)x->wavefronts);
        cJSON_AddNumberToObject(m, "wavefronts_ideal", (double)x->ideal_wavefronts);
        cJSON_AddNumberToObject(m, "bank_conflicts_ncu", (double)x->ncu_conflicts);
        cJSON_AddBoolToObject(m, "poor", x->poor);
        cJSON_AddStringToObject(m, "flag", x->flag);
        cJSON *ln = cJSON_AddArrayToObject(m, "notes"); /* the mechanisms of this line's notes */
        for (int k = 0; r->notes && k < r->notes->n; k++)
            if (r->notes->notes[k].line == x->line && x->line > 0)
                cJSON_AddItemToArray(ln, cJSON_CreateString(r->notes->notes[k].mechanism));
        cJSON_AddItemToArray(lines, m);
    }
    free(lr);
    const ws_timing *t = r->timing;
    cJSON *tj = cJSON_AddObjectToObject(o, "timing");
    cJSON_AddNumberToObject(tj, "predicted_us", t->t_kernel_us);
    cJSON_AddStringToObject(tj, "bound", ws_bound_name(t->bound));
    cJSON_AddNumberToObject(tj, "dram_us", t->t_dram_us);
    cJSON_AddNumberToObject(tj, "l2_us", t->t_l2_us);
    cJSON_AddNumberToObject(tj, "l2_write_us", t->t_l2_write_us);
    cJSON_AddNumberToObject(tj, "l1_us", t->t_l1_us);
    cJSON_AddNumberToObject(tj, "issue_us", t->t_issue_us);
    cJSON_AddNumberToObject(tj, "issue_slots_us", t->t_issue_slots_us);
    cJSON_AddNumberToObject(tj, "pipe_us", t->t_pipe_us);
    cJSON_AddStringToObject(tj, "issue_pipe", ws_pipe_name(t->issue_pipe));
    cJSON_AddNumberToObject(tj, "latency_us", t->t_latency_us);
    cJSON_AddNumberToObject(tj, "shared_us", t->t_shared_us);
    cJSON_AddNumberToObject(tj, "phase_us", t->t_phase_us);
    cJSON_AddNumberToObject(tj, "dram_utilisation", t->dram_utilisation);
    cJSON_AddNumberToObject(tj, "dram_shape_factor", t->dram_shape_factor);
    cJSON_AddNumberToObject(tj, "dram_queue_cycles", t->dram_queue_cycles);
    cJSON_AddNumberToObject(tj, "launch_us", t->t_launch_us);
    cJSON_AddNumberToObject(tj, "atomics_us", t->t_atomics_us);
    cJSON_AddNumberToObject(tj, "shared_atomics_us", t->t_shared_atomics_us);
    cJSON_AddNumberToObject(tj, "block_launch_us", t->t_block_launch_us);
    cJSON_AddNumberToObject(tj, "tensor_us", t->t_tensor_us);
    cJSON_AddStringToObject(tj, "tensor_pipe", ws_pipe_name(t->tensor_pipe));
    cJSON_AddStringToObject(tj, "bound_class", ws_bound_class(t->bound));
    if (r->notes) {
        cJSON_AddStringToObject(tj, "confidence", ws_confidence_name(r->notes->level));
        cJSON *nj = cJSON_AddArrayToObject(tj, "notes");
        for (int i = 0; i < r->notes->n; i++) {
            const ws_note *x = &r->notes->notes[i];
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "confidence", ws_confidence_name(x->level));
            if (x->line > 0)
                cJSON_AddNumberToObject(e, "line", x->line);
            else
                cJSON_AddNullToObject(e, "line");
            cJSON_AddStringToObject(e, "mechanism", x->mechanism);
            cJSON_AddStringToObject(e, "text", x->text);
            cJSON_AddItemToArray(nj, e);
        }
    }
    cJSON_AddNumberToObject(tj, "effective_bandwidth_gbs", t->eff_bw_gbs);
    cJSON_AddNumberToObject(tj, "dram_bandwidth_gbs", t->dram_bw_gbs);
    const ws_measured *m = r->measured;
    if (!m) {
        cJSON_AddNullToObject(o, "measured");
        return 0;
    }
    cJSON *mj = cJSON_AddObjectToObject(o, "measured");
    cJSON_AddStringToObject(mj, "gpu", m->gpu);
    cJSON_AddStringToObject(mj, "device", m->device_key);
    cJSON_AddStringToObject(mj, "date", m->date);
    cJSON_AddStringToObject(mj, "file", m->file);
    cJSON_AddStringToObject(mj, "overrides", m->overrides);
    cJSON_AddBoolToObject(mj, "same_overrides", m->exact);
    cJSON_AddNumberToObject(mj, "runs_with_other_overrides", m->others);
    if (m->median_us >= 0)
        cJSON_AddNumberToObject(mj, "median_us", m->median_us);
    else
        cJSON_AddNullToObject(mj, "median_us");
    cJSON_AddNumberToObject(mj, "reps", m->reps);
    cJSON_AddNumberToObject(mj, "bandwidth_gbs", m->gbs);
    return 0;
}

int ws_report_fault_members(cJSON *o, const ws_report *r, const ws_fault *fault)
{
    report_head(o, r);
    cJSON *fa = cJSON_GetObjectItem(o, "findings");
    cJSON *x = cJSON_CreateObject();
    ws_error e;
    ws_fault_error(fault, &e);
    const char *m = e.msg;
    cJSON_AddStringToObject(x, "tool", ws_fault_tool_name(fault->tool));
    cJSON_AddStringToObject(x, "kind", "fault");
    cJSON_AddStringToObject(x, "file", e.file);
    cJSON_AddNumberToObject(x, "line", e.line);
    add_where(x, fault, r->launch);
    cJSON_AddNumberToObject(x, "count", 1);
    cJSON_AddStringToObject(x, "message", m);
    cJSON_AddItemToArray(fa, x);
    return 0;
}

static double metric_value(const ws_metric *rows, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return rows[i].value;
    return 0;
}

void ws_report_compare(FILE *f, const ws_report *a, const ws_report *b)
{
    fprintf(f, "warpscope sim --compare: simulated for %s (profile %s)\n", a->dev->name, a->dev->key);
    fprintf(f, "  A = %s (%s)\n  B = %s (%s)\n", a->kernel, a->source_path ? a->source_path : "?", b->kernel,
            b->source_path ? b->source_path : "?");
    ws_metric ra[128], rb[128];
    int na = ws_memstats_metrics(a->ms, ra, 128);
    int nb = ws_memstats_metrics(b->ms, rb, 128);
    fprintf(f, "\n  %-66s %14s %14s %8s\n", "metric", "A", "B", "B/A");
    for (int i = 0; i < na; i++) {
        double va = ra[i].value, vb = metric_value(rb, nb, ra[i].name);
        if (va == 0 && vb == 0)
            continue;
        fprintf(f, "  %-66s ", ra[i].name);
        print_value(f, va, 14);
        fputc(' ', f);
        print_value(f, vb, 14);
        if (va)
            fprintf(f, " %8.2f\n", vb / va);
        else
            fprintf(f, " %8s\n", "-");
    }
    const ws_report *v[2] = {a, b};
    fprintf(f, "\n  %-66s %14s %14s\n", "", "A", "B");
    double x[2][6];
    for (int k = 0; k < 2; k++) {
        x[k][0] = v[k]->occ->occupancy_pct;
        x[k][1] = v[k]->timing->t_kernel_us;
        x[k][2] = v[k]->timing->eff_bw_gbs;
        x[k][3] = (double)v[k]->warp_insns;
        x[k][4] = (double)v[k]->regs;
        x[k][5] = (double)v[k]->occ->blocks_per_sm;
    }
    const char *labels[] = {"theoretical occupancy, %", "predicted time, us", "effective bandwidth, GB/s",
                            "warp instructions", "registers per thread", "blocks per SM"};
    for (int i = 0; i < 6; i++) {
        fprintf(f, "  %-66s ", labels[i]);
        print_value(f, x[0][i], 14);
        fputc(' ', f);
        print_value(f, x[1][i], 14);
        fputc('\n', f);
    }
    fprintf(f, "  bound by: A %s; B %s\n", ws_bound_name(a->timing->bound), ws_bound_name(b->timing->bound));
    double speed = ratio(a->timing->t_kernel_us, b->timing->t_kernel_us);
    fprintf(f, "\n  B is predicted %.2fx %s than A\n", speed >= 1 ? speed : ratio(1, speed), speed >= 1 ? "faster" : "slower");
    if (a->notes && b->notes) {
        ws_compare_verdict cv;
        ws_compare_verdict_of(a->timing, a->notes, b->timing, b->notes, &cv);
        fprintf(f, "  verdict: B %s (%.2fx), confidence %s: %s\n",
                cv.ratio == 1 ? "as fast as A" : cv.b_faster ? "faster" : "slower",
                cv.ratio >= 1 ? cv.ratio : ratio(1, cv.ratio), ws_confidence_name(cv.level), cv.why);
        fprintf(f, "  limited by: A %s, B %s\n", cv.limiter_a, cv.limiter_b);
        if (a->notes->n)
            notes_lines(f, a->notes, "  A ");
        if (b->notes->n)
            notes_lines(f, b->notes, "  B ");
    }
    const ws_measured *ma = a->measured, *mb = b->measured;
    if (ma || mb)
        fputc('\n', f);
    if (ma)
        measured_line(f, "  A measured ", ma);
    if (mb)
        measured_line(f, "  B measured ", mb);
    if (ma && mb && ma->exact && mb->exact && ma->median_us > 0 && mb->median_us > 0) {
        double ms = ma->median_us / mb->median_us;
        fprintf(f, "  B measured %.2fx %s than A on %s\n", ms >= 1 ? ms : 1 / ms, ms >= 1 ? "faster" : "slower", mb->gpu);
    }
}

void ws_report_csv_verdict(FILE *f, const ws_report *a, const ws_report *b)
{
    if (!a->notes || !b->notes)
        return;
    ws_compare_verdict cv;
    ws_compare_verdict_of(a->timing, a->notes, b->timing, b->notes, &cv);
    ws_report v = *b;
    char kernel[2 * WS_KERNEL_NAME_MAX + 8];
    snprintf(kernel, sizeof kernel, "%s vs %s", a->kernel, b->kernel);
    v.kernel = kernel;
    csv_row(f, &v, "A vs B", -1, &ws_metric_table[WS_METRIC_COMPARE_RATIO], cv.ratio);
    csv_row(f, &v, "A vs B", -1, &ws_metric_table[WS_METRIC_COMPARE_B_FASTER], cv.b_faster ? 1 : 0);
    csv_row(f, &v, "A vs B", -1, &ws_metric_table[WS_METRIC_COMPARE_CONFIDENCE], (double)cv.level);
}

int ws_report_json_verdict(cJSON *o, const ws_report *a, const ws_report *b)
{
    ws_compare_verdict cv;
    ws_compare_verdict_of(a->timing, a->notes, b->timing, b->notes, &cv);
    cJSON *v = cJSON_AddObjectToObject(o, "verdict");
    if (!v)
        return -1;
    cJSON_AddStringToObject(v, "faster", cv.ratio == 1 ? "same" : cv.b_faster ? "B" : "A");
    cJSON_AddNumberToObject(v, "ratio_a_over_b", cv.ratio);
    cJSON_AddStringToObject(v, "confidence", ws_confidence_name(cv.level));
    cJSON_AddStringToObject(v, "why", cv.why);
    cJSON_AddStringToObject(v, "bound_a", ws_bound_class(a->timing->bound));
    cJSON_AddStringToObject(v, "bound_b", ws_bound_class(b->timing->bound));
    cJSON_AddStringToObject(v, "limiter_a", cv.limiter_a);
    cJSON_AddStringToObject(v, "limiter_b", cv.limiter_b);
    cJSON_AddBoolToObject(v, "launch_dominates_both", cv.launch_dominates_both);
    return 0;
}
