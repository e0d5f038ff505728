/* report_html.c - `sim --html FILE`: one self-contained HTML page of a launch (or two side by
 * side): the source with the per-line heat map, the per-line table, sector and bank pictures
 * (SVG) of the costliest lines, the totals and the time with its limiter, and the verdict of a
 * comparison. Inline CSS, SVG and a little JS only: the page fetches nothing, so it can be
 * mailed or attached to an issue and opens the same anywhere.
 * Invariants: every number is one the text, JSON and CSV forms print (ws_report_lines, the
 * metric table, the timing); every string that came from the user (source, description, paths,
 * -D text) goes through esc(), and the JS reads only the page's own DOM, never a user string. */
#include "report.h"
#include "report_pictures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/demangle.h"
#include "../../common/heat.h"

static double ratio(double a, double b) { return b ? a / b : 0; }

/* HTML text and attribute values alike: the five special characters as entities, and control
 * bytes (which HTML forbids) as U+FFFD. Bytes >= 0x80 pass: the page is UTF-8, and a browser
 * shows a broken sequence as U+FFFD itself. */
static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        case '\t': fputc('\t', f); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fputs("&#xFFFD;", f);
            else
                fputc(c, f);
        }
    }
}

/* esc() of the first n bytes of s (a source line, not NUL-terminated there). */
static void esc_n(FILE *f, const char *s, size_t n)
{
    char buf[1024];
    while (n) {
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = 0;
        for (size_t i = 0; i < k; i++)
            if (!buf[i]) buf[i] = 1;           /* a NUL byte in the file: shown as U+FFFD, not an end */
        esc(f, buf);
        s += k;
        n -= k;
    }
}

/* Line n (1-based) of text: its start and length without the newline (and a '\r'); NULL past the end. */
static const char *line_at(const char *text, int n, size_t *len)
{
    if (!text || n <= 0)
        return NULL;
    const char *p = text;
    for (int i = 1; i < n; i++) {
        p = strchr(p, '\n');
        if (!p)
            return NULL;
        p++;
    }
    if (!*p)
        return NULL;
    size_t l = strcspn(p, "\n");
    if (l && p[l - 1] == '\r')
        l--;
    *len = l;
    return p;
}

static const char *space_word(ws_space s)
{
    static const char *n[] = {"global", "shared", "local", "const", "param"};
    return (unsigned)s < 5 ? n[s] : "?";
}

static const char *op_word(ws_mem_op o)
{
    static const char *n[] = {"ld", "st", "atom", "red"};
    return (unsigned)o < 4 ? n[o] : "?";
}

/* ---- the heat map: the terminal's and the visualizer's rule (viz/viz_model.h) ------------- */

/* A line's cost and waste, summed over its rows: units = sectors + wavefronts (L1TEX passes),
 * waste = units over their ideal (1 without an ideal), as viz_heat_units / viz_heat_waste. */
typedef struct {
    uint64_t units, ideal, executions, active_lanes;
} line_heat;

static line_heat heat_of(const ws_line_row *rows, int n, int line)
{
    line_heat h = {0};
    for (int i = 0; i < n; i++)
        if (rows[i].line == line) {
            h.units += rows[i].sectors + rows[i].wavefronts;
            h.ideal += rows[i].ideal_sectors + rows[i].ideal_wavefronts;
            h.executions += rows[i].executions;
            h.active_lanes += rows[i].active_lanes;
        }
    return h;
}

static double heat_waste(const line_heat *h)
{
    return ws_heat_waste(h->units, h->ideal);
}

/* The colour from the waste alone, never the cost (common/heat.h, as the visualizer). */
#define HEAT_RED_WASTE WS_HEAT_RED_WASTE
static uint32_t heat_rgb(double waste)
{
    return ws_heat_rgb(ws_heat_level(waste));
}

/* ---- pieces of a variant ------------------------------------------------------------------ */

static void num(FILE *f, double v)
{
    if (v == (double)(long long)v && fabs(v) < 1e15)
        fprintf(f, "%lld", (long long)v);
    else
        fprintf(f, "%.4g", v);
}

static void meta(FILE *f, const ws_report *r)
{
    const ws_launch *L = r->launch;
    const ws_occupancy *o = r->occ;
    fprintf(f, "<dl class=\"meta\">\n<dt>source</dt><dd><code>");
    esc(f, r->source_path ? r->source_path : "?");
    fprintf(f, ":%d</code>", r->kernel_line);
    if (r->entry) {
        char dm[512];
        fprintf(f, " <code>");
        esc(f, ws_demangle(r->entry, dm, sizeof dm));
        fprintf(f, "</code>");
    }
    fprintf(f, "</dd>\n");
    if (r->note && r->note[0]) {
        fprintf(f, "<dt>note</dt><dd>");
        esc(f, r->note);
        fprintf(f, "</dd>\n");
    }
    if (r->overrides && r->overrides[0]) {
        fprintf(f, "<dt>-D</dt><dd><code>");
        esc(f, r->overrides);
        fprintf(f, "</code></dd>\n");
    }
    fprintf(f, "<dt>device</dt><dd>");
    esc(f, r->dev->name);
    fprintf(f, " (profile <code>");
    esc(f, r->dev->key);
    fprintf(f, "</code>, %d SMs), simulated on this CPU</dd>\n", r->dev->sm_count);
    fprintf(f, "<dt>launch</dt><dd>grid (%u,%u,%u) x block (%u,%u,%u), dynamic shared %llu B</dd>\n", L->grid[0],
            L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], (unsigned long long)L->shared_bytes);
    fprintf(f, "<dt>occupancy</dt><dd>%d blocks/SM, %.1f %% theoretical, limited by ", o->blocks_per_sm,
            o->occupancy_pct);
    esc(f, ws_occ_limiter_name(o->limiter));
    fprintf(f, "; %d registers/thread (", r->regs);
    esc(f, r->regs_source ? r->regs_source : "?");
    fprintf(f, ")</dd>\n");
    if (r->counters_level) {
        fprintf(f, "<dt>counters</dt><dd>");
        esc(f, r->counters_level);
        fprintf(f, "</dd>\n");
    }
    if (r->sampling && r->sampling[0]) {
        fprintf(f, "<dt>sampling</dt><dd>");
        esc(f, r->sampling);
        fprintf(f, "</dd>\n");
    }
    if (r->compiler) {
        fprintf(f, "<dt>PTX</dt><dd>");
        esc(f, r->compiler);
        fprintf(f, "</dd>\n");
    }
    fprintf(f, "</dl>\n");
}

/* The predicted time, its terms, what limits it (confidence.h's limiter: the bound's class, or
 * the launch where it is at least the rest), the notes and the recorded GPU run. */
static void timing(FILE *f, const ws_report *r)
{
    const ws_timing *t = r->timing;
    fprintf(f, "<h3>Time</h3>\n<p class=\"time\"><b>%.2f us</b> predicted, bound by ", t->t_kernel_us);
    esc(f, ws_bound_name(t->bound));
    if (r->notes) {
        ws_compare_verdict self;                 /* the limiter rule, the one --compare states */
        ws_compare_verdict_of(t, r->notes, t, r->notes, &self);
        fprintf(f, "; limiter <b class=\"limiter\">");
        esc(f, self.limiter_a);
        fprintf(f, "</b>; confidence <b>");
        esc(f, ws_confidence_name(r->notes->level));
        fprintf(f, "</b>");
    }
    fprintf(f, "</p>\n<table class=\"terms\"><tr><th>DRAM</th><th>L2</th><th>L1/shared</th><th>issue</th>"
               "<th>latency</th><th>launch</th><th>atomics</th><th>shared atomics</th></tr>\n"
               "<tr><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td>"
               "<td>%.2f</td></tr></table>\n",
            t->t_dram_us, t->t_l2_us, t->t_l1_us, t->t_issue_us, t->t_latency_us, t->t_launch_us, t->t_atomics_us,
            t->t_shared_atomics_us);
    fprintf(f, "<p>terms in us (docs/timing-model.md); %.1f GB/s effective (%llu useful bytes / time) = %.1f %% of "
               "the %.0f GB/s DRAM peak</p>\n",
            t->eff_bw_gbs, (unsigned long long)r->launch->bytes_moved, 100.0 * ratio(t->eff_bw_gbs, r->dev->dram_bw_gbs),
            r->dev->dram_bw_gbs);
    if (r->notes && r->notes->n) {
        fprintf(f, "<ul class=\"notes\">\n");
        for (int i = 0; i < r->notes->n; i++) {
            const ws_note *x = &r->notes->notes[i];
            fprintf(f, "<li><b>");
            esc(f, ws_confidence_name(x->level));
            fprintf(f, "</b> ");
            if (x->line > 0)
                fprintf(f, "line %d ", x->line);
            esc(f, x->mechanism);
            fprintf(f, ": ");
            esc(f, x->text);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul>\n");
    }
    const ws_measured *m = r->measured;
    if (m) {
        fprintf(f, "<p class=\"measured\">measured on ");
        esc(f, m->gpu);
        if (m->median_us >= 0)
            fprintf(f, ": %.2f us median", m->median_us);
        fprintf(f, ", %.1f GB/s (", m->gbs);
        esc(f, m->file);
        fprintf(f, ", ");
        esc(f, m->date);
        fprintf(f, ")%s", m->exact ? "" : " with other -D: ");
        if (!m->exact)
            esc(f, m->overrides[0] ? m->overrides : "the description's defaults");
        fprintf(f, "</p>\n");
    }
}

static void totals(FILE *f, const ws_report *r)
{
    ws_metric rows[128];
    int n = ws_memstats_metrics(r->ms, rows, 128);
    fprintf(f, "<details class=\"totals\"><summary>Kernel totals (exact = the counter Nsight Compute reads; model = "
               "cache/DRAM model; ws__ = warpscope's own)</summary>\n<table class=\"num\"><tr><th>metric</th><th>value</th>"
               "<th>basis</th><th>meaning</th></tr>\n");
    for (int i = 0; i < n; i++) {
        if (rows[i].value == 0)
            continue;                              /* what this kernel does, as the text report */
        fprintf(f, "<tr><td><code>");
        esc(f, rows[i].name);
        fprintf(f, "</code></td><td>");
        num(f, rows[i].value);
        fprintf(f, "</td><td>");
        esc(f, ws_basis_name(rows[i].basis));
        fprintf(f, "</td><td>");
        esc(f, rows[i].desc);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></details>\n");
}

/* The kernel's lines, each memory line with its heat cell: xW of ideal and its active lanes. */
static void source_pane(FILE *f, const ws_report *r, const char *id, const ws_line_row *rows, int n)
{
    fprintf(f, "<h3>Source and heat map</h3>\n<p class=\"legend\">colour: sectors + wavefronts over the ideal of the "
               "same bytes (<span style=\"background:#%06x\">x1</span> <span style=\"background:#%06x\">x2</span> "
               "<span style=\"background:#%06x\">x4 and worse</span>); lanes: active lanes per warp instruction. "
               "Click a line for its rows.</p>\n",
            heat_rgb(1), heat_rgb(2), heat_rgb(HEAT_RED_WASTE));
    int lo = r->kernel_line, hi = r->kernel_line, last = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].line > 0) {
            if (lo <= 0 || rows[i].line < lo) lo = rows[i].line;
            if (rows[i].line > last) last = rows[i].line;
        }
    size_t len;
    const char *p;
    /* to the kernel's closing brace (a '}' in column 1), past its last memory line, at most 400 lines */
    for (hi = r->kernel_line > 0 ? r->kernel_line : lo; (p = line_at(r->source_text, hi, &len)) && hi < lo + 400; hi++)
        if (hi >= last && len && p[0] == '}')
            break;
    if (!r->source_text || lo <= 0) {
        fprintf(f, "<p>(no source text)</p>\n");
        return;
    }
    fprintf(f, "<div class=\"scroll\"><table class=\"src\">\n");
    for (int line = lo; line <= hi && (p = line_at(r->source_text, line, &len)); line++) {
        line_heat h = heat_of(rows, n, line);
        if (h.executions) {
            double w = heat_waste(&h);
            fprintf(f, "<tr class=\"mem\" data-line=\"%d\" data-v=\"%s\" id=\"%s-src-%d\"><td class=\"ln\">%d</td>"
                       "<td class=\"heat\" style=\"background:#%06x\" title=\"%llu sectors+wavefronts, ideal %llu\">"
                       "x%.2f</td><td class=\"lanes\">%.0f%%</td>",
                    line, id, id, line, line, heat_rgb(w), (unsigned long long)h.units, (unsigned long long)h.ideal, w,
                    100.0 * ratio((double)h.active_lanes, 32.0 * (double)h.executions));
        } else {
            fprintf(f, "<tr><td class=\"ln\">%d</td><td class=\"heat\"></td><td class=\"lanes\"></td>", line);
        }
        fprintf(f, "<td class=\"code\">");
        esc_n(f, p, len);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></div>\n");
}

/* The rows of ws_report_lines under the JSON per-line names (docs/json-schema.json's "lines"),
 * one row per (line, space, op): a line's loads and its stores apart. */
static void line_table(FILE *f, const ws_report *r, const char *id, const ws_line_row *rows, int n)
{
    fprintf(f, "<h3>Per source line</h3>\n<p class=\"legend\">one row per line, space and operation (loads and stores "
               "apart); the columns are the JSON rows' (<code>lines[]</code>); flagged: over %.2fx the ideal sectors or "
               "wavefronts. Click a column to sort.</p>\n", WS_REPORT_POOR_RATIO);
    fprintf(f, "<div class=\"scroll\"><table class=\"num lines\" id=\"%s-lines\">\n<thead><tr><th>line</th><th>source</th>"
               "<th>space</th><th>op</th><th>instructions</th><th>warp_instructions</th><th>active_lanes_pct</th>"
               "<th>requests</th><th>sectors</th><th>sectors_ideal</th><th>sectors/request</th>"
               "<th>shared_instructions</th><th>wavefronts</th><th>wavefronts_ideal</th><th>bank_conflicts_ncu</th>"
               "<th>flag</th><th>notes</th></tr></thead><tbody>\n", id);
    for (int i = 0; i < n; i++) {
        const ws_line_row *x = &rows[i];
        size_t len = 0;
        const char *src = line_at(r->source_text, x->line, &len);
        while (src && len && (*src == ' ' || *src == '\t'))
            src++, len--;
        fprintf(f, "<tr class=\"%s\" data-line=\"%d\" data-v=\"%s\"><td>%d</td><td class=\"code\">", x->poor ? "poor" : "",
                x->line, id, x->line);
        if (src)
            esc_n(f, src, len);
        fprintf(f, "</td><td>%s</td><td>%s</td><td><code>", space_word(x->space), op_word(x->op));
        esc(f, x->kinds);
        fprintf(f, "</code></td><td>%llu</td><td>%.1f</td><td>%llu</td><td>%llu</td><td>%llu</td>",
                (unsigned long long)x->executions, 100.0 * ratio((double)x->active_lanes, 32.0 * (double)x->executions),
                (unsigned long long)x->requests, (unsigned long long)x->sectors, (unsigned long long)x->ideal_sectors);
        if (x->requests)
            fprintf(f, "<td class=\"spr\">%.2f</td>", ratio((double)x->sectors, (double)x->requests));
        else
            fprintf(f, "<td class=\"spr\"></td>");
        fprintf(f, "<td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>", (unsigned long long)x->shared_insts,
                (unsigned long long)x->wavefronts, (unsigned long long)x->ideal_wavefronts,
                (unsigned long long)x->ncu_conflicts);
        esc(f, x->flag);
        fprintf(f, "</td><td>");
        for (int k = 0, first = 1; r->notes && k < r->notes->n; k++)
            if (x->line > 0 && r->notes->notes[k].line == x->line) {
                fprintf(f, "%s", first ? "" : ", ");
                esc(f, r->notes->notes[k].mechanism);
                first = 0;
            }
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</tbody></table></div>\n");
}

/* ---- the pictures ------------------------------------------------------------------------- */

#define PIC_LANE_W 20                  /* px per lane box */
#define PIC_W (32 * PIC_LANE_W + 20)
#define PIC_MAX_SECTORS 64             /* boxes drawn; more are named in the caption */
#define PIC_MAX_WAVEFRONTS 32

static void pic_caption(FILE *f, const ws_line_pic *p, const ws_line_row *x)
{
    int lanes = __builtin_popcount(p->active_mask);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int l = 0; l < 32; l++)
        if (p->active_mask >> l & 1) {
            if (p->addr[l] < lo) lo = p->addr[l];
            if (p->addr[l] + p->width > hi) hi = p->addr[l] + p->width;
        }
    fprintf(f, "<figcaption><b>line %d, %s.%s", p->line, op_word(p->op), space_word(p->space));
    if (p->kind != WS_KIND_PLAIN) {
        fprintf(f, " (");
        esc(f, ws_mem_kind_name(p->kind));
        fprintf(f, ")");
    }
    fprintf(f, "</b>, %u B per lane, %d of 32 lanes active; its first execution (block (%u,%u,%u), warp %u): its bytes "
               "span %llu B, lowest to highest",
            p->width, lanes, p->block[0], p->block[1], p->block[2], p->warp, (unsigned long long)(hi - lo));
    if (p->has_co)
        fprintf(f, "; %d request%s, %d sectors (ideal %d, %d bytes used)", p->co.requests, p->co.requests == 1 ? "" : "s",
                p->co.sectors, p->co.ideal_sectors, p->co.bytes_used);
    if (p->has_bk)
        fprintf(f, "; %d wavefront%s (ideal %d), %d-way, ncu counts %d bank conflict%s", p->bk.wavefronts,
                p->bk.wavefronts == 1 ? "" : "s", p->bk.ideal, p->bk.degree, p->bk.ncu_conflicts,
                p->bk.ncu_conflicts == 1 ? "" : "s");
    if (x && x->executions > 1) {
        fprintf(f, ". Over all %llu executions of the row:", (unsigned long long)x->executions);
        if (x->requests)
            fprintf(f, " %.2f sectors/request (ideal %.2f)", ratio((double)x->sectors, (double)x->requests),
                    ratio((double)x->ideal_sectors, (double)x->requests));
        if (x->shared_insts)
            fprintf(f, "%s %.2f wavefronts/instruction (ideal %.2f)", x->requests ? "," : "",
                    ratio((double)x->wavefronts, (double)x->shared_insts),
                    ratio((double)x->ideal_wavefronts, (double)x->shared_insts));
    }
    fprintf(f, ".</figcaption>\n");
}

static void lanes_row(FILE *f, const ws_line_pic *p, int y)
{
    for (int l = 0; l < 32; l++) {
        bool on = p->active_mask >> l & 1;
        fprintf(f, "<rect class=\"lane%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\"/>"
                   "<text x=\"%d\" y=\"%d\">%d</text>\n",
                on ? "" : " off", 10 + l * PIC_LANE_W, y, PIC_LANE_W - 2, 10 + l * PIC_LANE_W + (PIC_LANE_W - 2) / 2,
                y + 12, l);
    }
}

/* Global / local: the 32 lanes above, the (request, sector) entries the coalescer counted below
 * (one box each: their number is the sectors counter), a wire from each lane to its sectors. */
static void sector_svg(FILE *f, const ws_line_pic *p)
{
    const ws_coalesce_result *co = &p->co;
    int n = co->nentries < PIC_MAX_SECTORS ? co->nentries : PIC_MAX_SECTORS;
    double bw = n ? (32.0 * PIC_LANE_W) / n : PIC_LANE_W;
    if (bw > 80) bw = 80;
    fprintf(f, "<svg class=\"sectors\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"150\" "
               "viewBox=\"0 0 %d 150\" role=\"img\" aria-label=\"lanes and sectors\">\n", PIC_W, PIC_W);
    fprintf(f, "<text class=\"cap\" x=\"10\" y=\"12\">lanes</text>\n");
    lanes_row(f, p, 16);
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < co->lane_nsectors[l] && k < WS_LANE_MAX_SECTORS; k++) {
            int e = co->lane_sector[l][k];
            if (e >= n)
                continue;
            fprintf(f, "<line class=\"wire\" x1=\"%d\" y1=\"32\" x2=\"%.1f\" y2=\"96\"/>\n",
                    10 + l * PIC_LANE_W + (PIC_LANE_W - 2) / 2, 10 + bw * e + (bw - 2) / 2);
        }
    uint64_t base = n ? co->entries[0].sector : 0;
    for (int e = 0; e < n; e++)
        if (co->entries[e].sector < base) base = co->entries[e].sector;
    for (int e = 0; e < n; e++) {
        const ws_sector_entry *s = &co->entries[e];
        int used = __builtin_popcount(s->byte_mask);
        fprintf(f, "<rect class=\"sector\" x=\"%.1f\" y=\"96\" width=\"%.1f\" height=\"22\" style=\"fill:#%06x\">"
                   "<title>request %u, sector at +%llu B, %d of 32 bytes used</title></rect>\n",
                10 + bw * e, bw - 2, heat_rgb(used ? 32.0 / used : HEAT_RED_WASTE), s->request,
                (unsigned long long)(s->sector - base), used);
        if (bw >= 30)
            fprintf(f, "<text x=\"%.1f\" y=\"111\">+%llu</text>\n", 10 + bw * e + (bw - 2) / 2,
                    (unsigned long long)(s->sector - base));
    }
    fprintf(f, "<text class=\"cap\" x=\"10\" y=\"138\">%d sector%s of 32 B (byte offsets from the lowest; colour: bytes "
               "used of 32)%s</text>\n</svg>\n",
            co->nentries, co->nentries == 1 ? "" : "s", co->nentries > n ? "; the first 64 drawn" : "");
}

/* Shared: a column per bank, a row per wavefront; each active lane in the cell of its first
 * word's bank and the wavefront that serves it (banks.h's lane_bank, lane_wavefront). */
static void bank_svg(FILE *f, const ws_line_pic *p)
{
    const ws_bank_result *bk = &p->bk;
    int rows = bk->wavefronts < 1 ? 1 : bk->wavefronts > PIC_MAX_WAVEFRONTS ? PIC_MAX_WAVEFRONTS : bk->wavefronts;
    int h = 40 + rows * 20 + 24;
    fprintf(f, "<svg class=\"banks\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\" aria-label=\"banks and wavefronts\">\n", PIC_W + 40, h, PIC_W + 40, h);
    fprintf(f, "<text class=\"cap\" x=\"10\" y=\"12\">bank</text>\n");
    for (int b = 0; b < WS_BANKS; b++)
        fprintf(f, "<text class=\"%s\" x=\"%d\" y=\"30\">%d</text>\n", bk->conflict_banks >> b & 1 ? "bad" : "",
                50 + b * PIC_LANE_W + (PIC_LANE_W - 2) / 2, b);
    for (int w = 0; w < rows; w++) {
        fprintf(f, "<text class=\"cap\" x=\"4\" y=\"%d\">wf %d</text>\n", 36 + w * 20 + 13, w);
        for (int b = 0; b < WS_BANKS; b++) {
            int first = -1, k = 0;
            for (int l = 0; l < 32; l++)
                if (bk->lane_bank[l] == b && bk->lane_wavefront[l] == w) {
                    if (first < 0) first = l;
                    k++;
                }
            fprintf(f, "<rect class=\"bankcell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"18\"/>\n",
                    first < 0 ? " empty" : bk->conflict_banks >> b & 1 ? " conflict" : "", 50 + b * PIC_LANE_W,
                    36 + w * 20, PIC_LANE_W - 2);
            if (first >= 0)
                fprintf(f, "<text x=\"%d\" y=\"%d\">%d%s</text>\n", 50 + b * PIC_LANE_W + (PIC_LANE_W - 2) / 2,
                        36 + w * 20 + 13, first, k > 1 ? "+" : "");
        }
    }
    fprintf(f, "<text class=\"cap\" x=\"10\" y=\"%d\">each cell: the first lane of the bank in that wavefront (+: more "
               "lanes, the same word or a wider access); red banks serve more than one word%s</text>\n</svg>\n",
            h - 6, bk->wavefronts > rows ? "; the first 32 wavefronts drawn" : "");
}

/* The costliest lines (most sectors + wavefronts, the heat map's bar), each row with a picture. */
#define PIC_LINES 3
static void pictures(FILE *f, const ws_report *r, const char *id, const ws_line_row *rows, int n)
{
    if (!r->pictures)
        return;
    int best[PIC_LINES] = {0};
    uint64_t cost[PIC_LINES] = {0};
    for (int i = 0; i < n; i++) {
        if (rows[i].line <= 0 || (i > 0 && rows[i - 1].line == rows[i].line))
            continue;
        line_heat h = heat_of(rows, n, rows[i].line);
        for (int k = 0; k < PIC_LINES; k++)
            if (h.units > cost[k]) {               /* insert, the first on a tie staying first */
                memmove(best + k + 1, best + k, (size_t)(PIC_LINES - 1 - k) * sizeof *best);
                memmove(cost + k + 1, cost + k, (size_t)(PIC_LINES - 1 - k) * sizeof *cost);
                best[k] = rows[i].line;
                cost[k] = h.units;
                break;
            }
    }
    fprintf(f, "<h3>Sectors and banks of the costliest lines</h3>\n");
    int shown = 0;
    for (int k = 0; k < PIC_LINES && best[k]; k++)
        for (int i = 0; i < n; i++) {
            if (rows[i].line != best[k])
                continue;
            const ws_line_pic *p = ws_line_pics_find(r->pictures, rows[i].line, rows[i].space, rows[i].op);
            if (!p)
                continue;
            fprintf(f, "<figure class=\"pic\" id=\"%s-pic-%d-%s-%s\" data-line=\"%d\" data-v=\"%s\">\n", id, p->line,
                    op_word(p->op), space_word(p->space), p->line, id);
            if (p->has_co)
                sector_svg(f, p);
            if (p->has_bk)
                bank_svg(f, p);
            pic_caption(f, p, &rows[i]);
            fprintf(f, "</figure>\n");
            shown++;
        }
    if (!shown)
        fprintf(f, "<p>(no global, local or shared access to draw)</p>\n");
}

static void variant(FILE *f, const ws_report *r, const char *id, const char *label)
{
    ws_line_row *rows = NULL;
    int n = ws_report_lines(r, &rows);
    if (n < 0)
        n = 0;
    fprintf(f, "<section class=\"variant\" id=\"%s\">\n<h2>%s%s", id, label ? label : "", label ? " = " : "");
    esc(f, r->kernel);
    fprintf(f, "</h2>\n");
    meta(f, r);
    timing(f, r);
    source_pane(f, r, id, rows, n);
    line_table(f, r, id, rows, n);
    pictures(f, r, id, rows, n);
    totals(f, r);
    fprintf(f, "</section>\n");
    free(rows);
}

static double metric_value(const ws_metric *rows, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return rows[i].value;
    return 0;
}

/* --compare: the verdict (confidence.h) and the totals side by side, as the text's table. */
static void verdict(FILE *f, const ws_report *a, const ws_report *b)
{
    fprintf(f, "<section class=\"verdict\" id=\"verdict\">\n<h2>Verdict</h2>\n");
    if (a->notes && b->notes) {
        ws_compare_verdict cv;
        ws_compare_verdict_of(a->timing, a->notes, b->timing, b->notes, &cv);
        fprintf(f, "<p class=\"big\">B is predicted <b>%s</b> (%.2fx), confidence <b>", cv.ratio == 1 ? "as fast as A"
                : cv.b_faster ? "faster" : "slower", cv.ratio >= 1 ? cv.ratio : ratio(1, cv.ratio));
        esc(f, ws_confidence_name(cv.level));
        fprintf(f, "</b>: ");
        esc(f, cv.why);
        fprintf(f, "</p>\n<p>limited by: A <b>");
        esc(f, cv.limiter_a);
        fprintf(f, "</b>, B <b>");
        esc(f, cv.limiter_b);
        fprintf(f, "</b>%s</p>\n", cv.launch_dominates_both ? "; the launch cost dominates both" : "");
    }
    fprintf(f, "<table class=\"num\"><tr><th></th><th>A</th><th>B</th><th>B/A</th></tr>\n");
    const char *labels[] = {"predicted time, us", "effective bandwidth, GB/s", "theoretical occupancy, %",
                            "warp instructions", "registers per thread"};
    double va[] = {a->timing->t_kernel_us, a->timing->eff_bw_gbs, a->occ->occupancy_pct, (double)a->warp_insns, a->regs};
    double vb[] = {b->timing->t_kernel_us, b->timing->eff_bw_gbs, b->occ->occupancy_pct, (double)b->warp_insns, b->regs};
    for (int i = 0; i < 5; i++) {
        fprintf(f, "<tr><td>%s</td><td>%.2f</td><td>%.2f</td><td>", labels[i], va[i], vb[i]);
        if (va[i])
            fprintf(f, "%.2f", vb[i] / va[i]);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n<details><summary>every counter, A and B</summary>\n<table class=\"num\"><tr><th>metric</th>"
               "<th>A</th><th>B</th><th>B/A</th></tr>\n");
    ws_metric ra[128], rb[128];
    int na = ws_memstats_metrics(a->ms, ra, 128), nb = ws_memstats_metrics(b->ms, rb, 128);
    for (int i = 0; i < na; i++) {
        double x = ra[i].value, y = metric_value(rb, nb, ra[i].name);
        if (x == 0 && y == 0)
            continue;
        fprintf(f, "<tr><td><code>");
        esc(f, ra[i].name);
        fprintf(f, "</code></td><td>");
        num(f, x);
        fprintf(f, "</td><td>");
        num(f, y);
        fprintf(f, "</td><td>");
        if (x)
            fprintf(f, "%.2f", y / x);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></details>\n</section>\n");
}

/* ---- the page ----------------------------------------------------------------------------- */

static const char CSS[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em;background:#10141c;color:#dfe6ef}"
    "h1{font-size:1.3em}h2{font-size:1.15em;border-bottom:1px solid #345}h3{font-size:1em;margin:1.2em 0 .3em}"
    "code,.code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;white-space:pre;tab-size:4}"
    ".variants.two{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}.variant{min-width:0}"
    ".scroll{overflow:auto;max-height:40em;border:1px solid #234}"
    "table{border-collapse:collapse}td,th{padding:1px 6px;border-bottom:1px solid #1c2836;text-align:left}"
    "table.num td{text-align:right}table.num td.code,table.num td:first-child{text-align:left}"
    "table.src td{border:0;padding:0 6px}td.ln{color:#789;text-align:right}td.heat{color:#000;min-width:3.5em}"
    "td.lanes{color:#9ab;text-align:right;min-width:3em}tr.mem{cursor:pointer}"
    "tr.poor td{color:#ffb3c0}tr.hl td{background:#1e3450}figure.hl{outline:2px solid #f2c14e}"
    "th{cursor:pointer;background:#182230;position:sticky;top:0}"
    "dl.meta{display:grid;grid-template-columns:max-content auto;gap:0 1em}dt{color:#89a}dd{margin:0}"
    ".legend{color:#9ab;font-size:.9em}.legend span{color:#000;padding:0 4px}.big{font-size:1.1em}"
    "figure.pic{margin:.6em 0}figcaption{font-size:.9em;color:#bcc}"
    "svg text{font:9px sans-serif;fill:#dfe6ef;text-anchor:middle}svg text.cap{text-anchor:start;fill:#9ab}"
    "svg text.bad{fill:#ff3358}rect.lane{fill:#3fc8e8}rect.lane.off{fill:#333c48}"
    "line.wire{stroke:#9ab;stroke-width:.7}rect.sector{stroke:#000}"
    "rect.bankcell{fill:#2f5d8a}rect.bankcell.empty{fill:#1a222e}rect.bankcell.conflict{fill:#ff3358}"
    "#ws-js{color:#678;font-size:.8em}";

/* Runs after the page is built: clicking a heat-map line marks its table rows and pictures,
 * clicking a column header sorts that table; then it writes "ok" into the page, so a headless
 * browser's DOM says the script ran through (window.onerror writes the error instead). */
static const char JS[] =
    "(function(){\n"
    "var q=function(s,r){return Array.prototype.slice.call((r||document).querySelectorAll(s));};\n"
    "q('tr.mem').forEach(function(tr){tr.addEventListener('click',function(){\n"
    "  var l=tr.getAttribute('data-line'),v=tr.getAttribute('data-v');\n"
    "  q('.hl').forEach(function(e){e.classList.remove('hl');});\n"
    "  var hit=q('[data-v=\"'+v+'\"][data-line=\"'+l+'\"]');\n"
    "  hit.forEach(function(e){e.classList.add('hl');});\n"
    "  var t=hit.filter(function(e){return e.tagName==='TR'&&e!==tr;})[0];\n"
    "  if(t&&t.scrollIntoView)t.scrollIntoView({block:'nearest'});\n"
    "});});\n"
    "q('table.lines').forEach(function(t){q('th',t).forEach(function(th,c){th.addEventListener('click',function(){\n"
    "  var b=t.tBodies[0],rs=q('tr',b),up=th.getAttribute('data-up')!=='1';\n"
    "  th.setAttribute('data-up',up?'1':'0');\n"
    "  var key=function(r){var s=r.cells[c].textContent,x=parseFloat(s);return isNaN(x)?s:x;};\n"
    "  rs.sort(function(a,d){var x=key(a),y=key(d);var o=x<y?-1:x>y?1:0;return up?o:-o;});\n"
    "  rs.forEach(function(r){b.appendChild(r);});\n"
    "});});});\n"
    "var n=q('table.lines tbody tr').length,p=q('figure.pic').length;\n"
    "if(document.body.getAttribute('data-ws-js')==='pending'){document.body.setAttribute('data-ws-js','ok');\n"
    "  document.getElementById('ws-js').textContent='script ran: '+n+' line rows, '+p+' pictures';}\n"
    "})();\n";

/* In the head, before anything else runs: any uncaught error marks the page. */
static const char JS_ONERROR[] =
    "window.onerror=function(m){var b=document.body;if(b)b.setAttribute('data-ws-js','error');"
    "window.wsError=String(m);var e=document.getElementById('ws-js');if(e)e.textContent='script error: '+m;};";

int ws_report_html(FILE *f, const ws_report *a, const ws_report *b)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
               "script-src 'unsafe-inline'; img-src data:\">\n<title>warpscope sim");
    fprintf(f, "%s", b ? " --compare: " : ": ");
    esc(f, a->kernel);
    if (b) {
        fprintf(f, " vs ");
        esc(f, b->kernel);
    }
    fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body data-ws-js=\"pending\">\n", CSS,
            JS_ONERROR);
    fprintf(f, "<h1>warpscope sim%s: ", b ? " --compare" : "");
    esc(f, a->kernel);
    if (b) {
        fprintf(f, " vs ");
        esc(f, b->kernel);
    }
    fprintf(f, "</h1>\n<p>simulated for ");
    esc(f, a->dev->name);
    fprintf(f, " (profile <code>");
    esc(f, a->dev->key);
    fprintf(f, "</code>); sectors and wavefronts are the counters Nsight Compute reads, the time a model "
               "(docs/timing-model.md)</p>\n");
    if (b)
        verdict(f, a, b);
    fprintf(f, "<div class=\"variants%s\">\n", b ? " two" : "");
    variant(f, a, "A", b ? "A" : NULL);
    if (b)
        variant(f, b, "B", "B");
    fprintf(f, "</div>\n<p id=\"ws-js\">script did not run</p>\n<script>%s</script>\n</body>\n</html>\n", JS);
    return ferror(f) ? -1 : 0;
}
