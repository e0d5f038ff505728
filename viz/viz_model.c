/* viz_model.c - building visualizer steps from memory events, and the recording.
 * Invariant: everything here is geometry and bookkeeping derived from addresses and
 * widths; the memory models' verdicts (exact wavefronts, cache outcomes) are written
 * over these first-principles values by viz_record.c when the models are present. */
#include "viz_model.h"

#include <stdlib.h>
#include <string.h>

const char *viz_outcome_name(viz_outcome o)
{
    static const char *names[VIZ_OUT_COUNT] = {"untouched", "touched", "L1 hit", "L2 hit",
                                               "DRAM", "write to L2"};
    return (unsigned)o < VIZ_OUT_COUNT ? names[o] : "?";
}

const char *viz_cat_name(viz_cat c)
{
    static const char *names[VIZ_CAT_COUNT] = {"global ld", "global st", "local ld", "local st",
                                               "shared ld", "shared st"};
    return (unsigned)c < VIZ_CAT_COUNT ? names[c] : "?";
}

const char *viz_cat_metric(viz_cat c)
{
    static const char *names[VIZ_CAT_COUNT] = {
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
    return (unsigned)c < VIZ_CAT_COUNT ? names[c] : "?";
}

viz_cat viz_cat_of(ws_space sp, ws_mem_op op)
{
    if (op != WS_MEM_LOAD && op != WS_MEM_STORE)
        return VIZ_CAT_COUNT; /* ncu counts atomics and reductions under their own metrics */
    bool st = op == WS_MEM_STORE;
    switch (sp) {
    case WS_SPACE_GLOBAL: return st ? VIZ_CAT_GLOBAL_ST : VIZ_CAT_GLOBAL_LD;
    case WS_SPACE_LOCAL: return st ? VIZ_CAT_LOCAL_ST : VIZ_CAT_LOCAL_LD;
    case WS_SPACE_SHARED: return st ? VIZ_CAT_SHARED_ST : VIZ_CAT_SHARED_LD;
    default: return VIZ_CAT_COUNT;
    }
}

viz_cat viz_step_cat(const viz_step *s)
{
    return viz_cat_of(s->space, s->op);
}

/* ---- shared memory: banks, rows, groups ------------------------------------- */

static int row_slot_of(const viz_step *s, uint32_t row)
{
    for (int i = 0; i < s->nrows; i++)
        if (s->rows[i] == row)
            return i;
    return -1;
}

static void add_row(viz_step *s, uint32_t row)
{
    int i = 0;
    while (i < s->nrows && s->rows[i] < row)
        i++;
    if (i < s->nrows && s->rows[i] == row)
        return;
    if (s->nrows == VIZ_MAX_ROWS)
        return; /* cannot happen for aligned accesses: 32 lanes x 16 B span <= 32 rows */
    memmove(&s->rows[i + 1], &s->rows[i], (size_t)(s->nrows - i) * sizeof s->rows[0]);
    s->rows[i] = row;
    s->nrows++;
}

void viz_step_mark_conflicts(viz_step *s)
{
    /* For each group: the distinct words it needs, in lane order; a bank needing k
     * distinct words costs k wavefronts, and lanes on such a bank are in conflict. */
    int base = 0;
    s->wavefronts = 0;
    s->ideal_wavefronts = 0;
    for (int g = 0; g < s->ngroups; g++) {
        uint32_t words[VIZ_LANES * 4];
        int nw = 0;
        int per_bank[VIZ_BANKS] = {0};
        bool any = false;
        for (int l = 0; l < VIZ_LANES; l++) {
            viz_lane *ln = &s->lane[l];
            if (!ln->active || ln->group != g)
                continue;
            any = true;
            for (int k = 0; k < ln->nwords; k++) {
                uint32_t w = (uint32_t)(ln->addr / 4) + (uint32_t)k;
                bool seen = false;
                for (int j = 0; j < nw; j++)
                    if (words[j] == w) { seen = true; break; }
                if (!seen) {
                    words[nw++] = w;
                    per_bank[w % VIZ_BANKS]++;
                }
            }
        }
        int worst = 0;
        for (int b = 0; b < VIZ_BANKS; b++)
            if (per_bank[b] > worst)
                worst = per_bank[b];
        for (int l = 0; l < VIZ_LANES; l++) {
            viz_lane *ln = &s->lane[l];
            if (!ln->active || ln->group != g)
                continue;
            uint32_t w0 = (uint32_t)(ln->addr / 4);
            ln->conflict = false;
            for (int k = 0; k < ln->nwords; k++)
                if (per_bank[(w0 + (uint32_t)k) % VIZ_BANKS] > 1)
                    ln->conflict = true;
            /* wavefront = rank of its first word among its bank's words, in lane order */
            int rank = 0;
            for (int j = 0; j < nw && words[j] != w0; j++)
                if (words[j] % VIZ_BANKS == w0 % VIZ_BANKS)
                    rank++;
            ln->wavefront = (int8_t)(base + rank);
            int sharers = 0;
            for (int m = 0; m < VIZ_LANES; m++)
                if (s->lane[m].active && s->lane[m].addr / 4 == w0)
                    sharers++;
            ln->sharers = (uint8_t)sharers;
        }
        base += worst;
        s->wavefronts += worst;
        if (any)
            s->ideal_wavefronts++;
    }
}

static void from_shared(viz_step *s)
{
    int nwords = s->width <= 4 ? 1 : s->width / 4;
    s->ngroups = s->width <= 4 ? 1 : (s->width == 8 ? 2 : 4);
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        ln->nwords = (uint8_t)nwords;
        ln->bank = (uint8_t)((ln->addr / 4) % VIZ_BANKS);
        ln->group = (uint8_t)(l / (VIZ_LANES / s->ngroups));
        for (int k = 0; k < nwords; k++)
            add_row(s, (uint32_t)((ln->addr / 4 + (uint64_t)k) / VIZ_BANKS));
    }
    for (int l = 0; l < VIZ_LANES; l++)
        if (s->lane[l].active)
            s->lane[l].row_slot = (uint16_t)row_slot_of(s, (uint32_t)(s->lane[l].addr / 128));
    s->requests = s->active_mask ? 1 : 0;
    viz_step_mark_conflicts(s);
}

/* ---- global and local memory: lines and sectors ----------------------------- */

static uint64_t mapped(const viz_step *s, int lane, uint64_t a)
{
    if (s->space != WS_SPACE_LOCAL)
        return a;
    return (a / 4) * 128 + 4 * (uint64_t)lane + a % 4; /* consecutive words by consecutive lanes */
}

int viz_step_line_slot(viz_step *s, uint64_t line)
{
    int i = 0;
    while (i < s->nlines && s->lines[i].line < line)
        i++;
    if (i < s->nlines && s->lines[i].line == line)
        return i;
    if (s->nlines == VIZ_MAX_LINES)
        return -1;
    memmove(&s->lines[i + 1], &s->lines[i], (size_t)(s->nlines - i) * sizeof s->lines[0]);
    memset(&s->lines[i], 0, sizeof s->lines[i]);
    s->lines[i].line = line;
    s->nlines++;
    return i;
}

static int line_slot_find(const viz_step *s, uint64_t line)
{
    for (int i = 0; i < s->nlines; i++)
        if (s->lines[i].line == line)
            return i;
    return -1;
}

static void from_global(viz_step *s)
{
    bool store = s->op == WS_MEM_STORE || s->op == WS_MEM_REDUCE;
    int nactive = 0;
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        nactive++;
        for (int k = 0; k < s->width; k++) {
            uint64_t m = mapped(s, l, ln->addr + (uint64_t)k);
            int slot = viz_step_line_slot(s, m / 128);
            if (slot < 0)
                continue;
            int sec = (int)((m / 32) % 4);
            s->lines[slot].used[sec] |= 1u << (m % 32);
            s->lines[slot].lanes[sec] |= 1u << l;
            s->lines[slot].outcome[sec] = store ? VIZ_OUT_WRITE : VIZ_OUT_UNKNOWN;
        }
    }
    s->sectors = 0;
    for (int i = 0; i < s->nlines; i++)
        for (int k = 0; k < 4; k++)
            if (s->lines[i].outcome[k] != VIZ_OUT_NONE)
                s->sectors++;
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        uint64_t m = mapped(s, l, ln->addr);
        int slot = line_slot_find(s, m / 128);
        ln->line_slot = (uint16_t)(slot < 0 ? 0 : slot);
        ln->sector = (uint8_t)((m / 32) % 4);
    }
    uint64_t bytes = (uint64_t)nactive * s->width;
    s->ideal_sectors = (int)((bytes + 31) / 32);
    if (s->space == WS_SPACE_LOCAL) /* one request per 32-bit word slot of the access */
        s->requests = nactive ? (s->width < 4 ? 1 : s->width / 4) : 0;
    else
        s->requests = nactive ? 1 : 0;
}

void viz_step_from_event(viz_step *s, const ws_mem_event *ev)
{
    memset(s, 0, sizeof *s);
    s->seq = ev->seq;
    memcpy(s->block, ev->block, sizeof s->block);
    s->block_linear = ev->block_linear;
    s->warp = ev->warp;
    s->pc = ev->pc;
    s->src_line = ev->src_line;
    s->ptx_line = ev->ptx_line;
    s->space = ev->space;
    s->op = ev->op;
    s->width = ev->width ? ev->width : 4;
    s->active_mask = ev->active_mask;
    for (int l = 0; l < VIZ_LANES; l++) {
        s->lane[l].wavefront = -1;
        if (ev->active_mask & (1u << l)) {
            s->lane[l].active = true;
            s->lane[l].addr = ev->addr[l];
        }
    }
    if (s->space == WS_SPACE_SHARED)
        from_shared(s);
    else
        from_global(s);
}

void viz_totals_add(viz_totals *t, const viz_step *s)
{
    t->instructions++;
    viz_cat c = viz_step_cat(s);
    if (c == VIZ_CAT_COUNT)
        return;
    viz_counter *k = &t->cat[c];
    if (s->space == WS_SPACE_SHARED) {
        k->requests += (uint64_t)s->requests;
        k->units += (uint64_t)s->wavefronts;
        k->ideal += (uint64_t)s->ideal_wavefronts;
        k->conflicts += (uint64_t)(s->wavefronts - s->ideal_wavefronts);
        return;
    }
    k->requests += (uint64_t)s->requests;
    k->units += (uint64_t)s->sectors;
    k->ideal += (uint64_t)s->ideal_sectors;
    for (int i = 0; i < s->nlines; i++)
        for (int j = 0; j < 4; j++)
            switch (s->lines[i].outcome[j]) {
            case VIZ_OUT_L1_HIT: t->l1_hit_sectors++; break;
            case VIZ_OUT_L2_HIT: t->l2_hit_sectors++; break;
            case VIZ_OUT_DRAM: t->dram_sectors++; break;
            case VIZ_OUT_WRITE: t->write_sectors++; break;
            default: break;
            }
}

/* ---- recording ----------------------------------------------------------------- */

void viz_recording_init(viz_recording *r)
{
    memset(r, 0, sizeof *r);
    r->tp.measured_gbs = r->tp.predicted_gbs = r->tp.peak_gbs = -1;
    r->tp.measured_us = r->tp.predicted_us = -1;
}

static void free_lines(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void viz_recording_free(viz_recording *r)
{
    free_lines(r->src_lines, r->nsrc);
    free_lines(r->ptx_lines, r->nptx);
    free(r->steps);
    memset(r, 0, sizeof *r);
}

int viz_recording_push(viz_recording *r, const viz_step *s)
{
    if (r->max_steps && r->nsteps >= r->max_steps) {
        r->truncated = true;
        return 0;
    }
    if (r->nsteps == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        viz_step *n = realloc(r->steps, cap * sizeof *n);
        if (!n)
            return -1;
        r->steps = n;
        r->cap = cap;
    }
    r->steps[r->nsteps++] = *s;
    return 0;
}

/* Splits text into malloc'd lines (tabs expanded to 4 spaces, '\r' dropped). */
static int split_lines(const char *text, char ***out, int *n)
{
    int count = 1;
    for (const char *p = text; *p; p++)
        count += *p == '\n';
    char **v = calloc((size_t)count, sizeof *v);
    if (!v)
        return -1;
    int i = 0;
    const char *p = text;
    while (i < count) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t tabs = 0;
        for (size_t k = 0; k < len; k++)
            tabs += p[k] == '\t';
        char *line = malloc(len + tabs * 3 + 1);
        if (!line) {
            free_lines(v, i);
            return -1;
        }
        size_t o = 0;
        for (size_t k = 0; k < len; k++) {
            if (p[k] == '\t') { memcpy(line + o, "    ", 4); o += 4; }
            else if (p[k] != '\r') line[o++] = p[k];
        }
        line[o] = 0;
        v[i++] = line;
        if (!e)
            break;
        p = e + 1;
    }
    *out = v;
    *n = i;
    return 0;
}

int viz_recording_set_source(viz_recording *r, const char *path, const char *text)
{
    free_lines(r->src_lines, r->nsrc);
    r->src_lines = NULL;
    r->nsrc = 0;
    size_t n = strlen(path);
    if (n >= sizeof r->source_path)
        n = sizeof r->source_path - 1;
    memcpy(r->source_path, path, n);
    r->source_path[n] = 0;
    return split_lines(text, &r->src_lines, &r->nsrc);
}

int viz_recording_set_ptx(viz_recording *r, const char *text)
{
    free_lines(r->ptx_lines, r->nptx);
    r->ptx_lines = NULL;
    r->nptx = 0;
    return split_lines(text, &r->ptx_lines, &r->nptx);
}

size_t viz_recording_filter(const viz_recording *r, uint32_t block_linear, int warp, size_t *idx,
                            size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nsteps; i++) {
        const viz_step *s = &r->steps[i];
        if (warp >= 0 && (s->block_linear != block_linear || s->warp != (uint32_t)warp))
            continue;
        if (n < cap)
            idx[n] = i;
        n++;
    }
    return n;
}
