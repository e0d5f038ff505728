/* viz_model.c - building visualizer steps from the models' verdicts, and the recording.
 * Invariant: every count, group, wavefront, conflict mark, sector and outcome in a step
 * is copied from the verdict (sim/models/models.h); what is computed here is only where things
 * sit on screen (word rows, line slots) and which lanes share a word. */
#include "viz_model.h"

#include <math.h>
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
                                               "shared ld", "shared st", "global atom", "shared atom"};
    return (unsigned)c < VIZ_CAT_COUNT ? names[c] : "?";
}

viz_cat viz_cat_of(ws_space sp, ws_mem_op op)
{
    if (op == WS_MEM_ATOMIC || op == WS_MEM_REDUCE) /* apart from loads and stores, as ncu counts them */
        return sp == WS_SPACE_GLOBAL ? VIZ_CAT_GLOBAL_ATOM : sp == WS_SPACE_SHARED ? VIZ_CAT_SHARED_ATOM : VIZ_CAT_COUNT;
    if (op != WS_MEM_LOAD && op != WS_MEM_STORE)
        return VIZ_CAT_COUNT;
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

viz_outcome viz_outcome_of(int sector_outcome, bool store)
{
    switch (sector_outcome) {
    case WS_SECT_L1_HIT: return VIZ_OUT_L1_HIT;
    case WS_SECT_MERGED: return VIZ_OUT_L2_HIT; /* its data arrives with an L2 request already in flight */
    case WS_SECT_L2_HIT: return VIZ_OUT_L2_HIT;
    case WS_SECT_DRAM: return VIZ_OUT_DRAM;
    case WS_SECT_WRITE: return VIZ_OUT_WRITE;
    case WS_SECT_L2_FAR: return VIZ_OUT_L2_HIT; /* served by L2 (the home partition), no DRAM */
    default: return store ? VIZ_OUT_WRITE : VIZ_OUT_UNKNOWN;
    }
}

/* The bank model's verdict, laid out on the grid: rows are bookkeeping, every count and
 * mark is the model's. */
static void from_banks(viz_step *s, const ws_bank_result *bk)
{
    int nwords = s->width <= 4 ? 1 : s->width / 4;
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        ln->nwords = (uint8_t)nwords;
        for (int k = 0; k < nwords; k++)
            add_row(s, (uint32_t)((ln->addr / 4 + (uint64_t)k) / VIZ_BANKS));
    }
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        ln->row_slot = (uint16_t)row_slot_of(s, (uint32_t)(ln->addr / 128));
        int sharers = 0;
        for (int m = 0; m < VIZ_LANES; m++)
            if (s->lane[m].active && s->lane[m].addr / 4 == ln->addr / 4)
                sharers++;
        ln->sharers = (uint8_t)sharers;
    }
    s->requests = s->active_mask ? 1 : 0;
    if (!bk)
        return;
    s->ngroups = bk->ngroups;
    s->wavefronts = bk->wavefronts;
    s->ideal_wavefronts = bk->ideal;
    s->degree = bk->degree;
    memcpy(s->bank_words, bk->group_words, sizeof s->bank_words);
    if (s->kind == WS_KIND_LDSM || s->kind == WS_KIND_STSM) /* the rule's groups are its phases */
        for (int g = 0; g < VIZ_MAX_PHASES && g < bk->ngroups; g++) {
            for (int l = 0; l < VIZ_LANES; l++)
                if (bk->lane_group[l] == g)
                    s->phase_lanes[g] |= 1u << l;
            for (int b = 0; b < VIZ_BANKS; b++)
                if (bk->group_words[g][b] > s->phase_wavefronts[g])
                    s->phase_wavefronts[g] = bk->group_words[g][b];
            if (s->phase_lanes[g])
                s->nphases = g + 1;
        }
    for (int l = 0; l < VIZ_LANES; l++) {
        viz_lane *ln = &s->lane[l];
        if (!ln->active)
            continue;
        ln->bank = (uint8_t)bk->lane_bank[l];
        ln->group = (uint8_t)bk->lane_group[l];
        ln->wavefront = bk->lane_wavefront[l];
        /* in conflict: a bank one of its words sits in serves its group more than one word */
        for (uint64_t w = ln->addr / 4; w <= (ln->addr + s->width - 1) / 4; w++)
            ln->conflict |= bk->group_words[ln->group & 3][w % VIZ_BANKS] > 1;
    }
}

/* The coalescer's entries as lines of four sectors, with the cache model's outcomes. */
static void from_sectors(viz_step *s, const ws_coalesce_result *co, const ws_cache_access *ca)
{
    if (!co)
        return;
    bool store = s->op == WS_MEM_STORE || s->op == WS_MEM_REDUCE;
    for (int i = 0; i < co->nentries; i++) {
        const ws_sector_entry *e = &co->entries[i];
        int slot = viz_step_line_slot(s, e->sector / 128);
        if (slot < 0)
            continue;
        int k = (int)((e->sector / 32) % 4);
        s->lines[slot].used[k] |= e->byte_mask;
        s->lines[slot].lanes[k] |= e->lanes;
        s->lines[slot].outcome[k] = (uint8_t)viz_outcome_of(ca ? ca->outcome[i] : 0, store);
    }
    for (int l = 0; l < VIZ_LANES; l++) {
        if (!s->lane[l].active || !co->lane_nsectors[l])
            continue;
        uint64_t sec = co->entries[co->lane_sector[l][0]].sector;
        for (int i = 0; i < s->nlines; i++)
            if (s->lines[i].line == sec / 128)
                s->lane[l].line_slot = (uint16_t)i;
        s->lane[l].sector = (uint8_t)((sec / 32) % 4);
    }
    s->requests = co->requests;
    s->sectors = co->sectors;
    s->ideal_sectors = co->ideal_sectors;
}

void viz_step_from_verdict(viz_step *s, const ws_mem_verdict *v)
{
    const ws_mem_event *ev = v->ev;
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
    s->kind = ev->kind;
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
        from_banks(s, v->bk);
    else
        from_sectors(s, v->co, v->ca);
}

void viz_step_from_event(viz_step *s, const ws_mem_event *ev)
{
    static ws_coalesce_result co; /* large: off the stack */
    ws_bank_result bk;
    ws_mem_verdict v;
    ws_models_geometry(ev, 0, &co, &bk, &v);
    viz_step_from_verdict(s, &v);
}

bool viz_step_counts(const viz_step *s)
{
    return s->what == VIZ_STEP_ACCESS;
}

void viz_totals_add(viz_totals *t, const viz_step *s)
{
    if (!viz_step_counts(s))
        return;
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
    r->tp.bytes_moved = r->tp.copy_gbs = r->tp.copy_bytes = r->tp.launch_us = -1;
}

static void free_lines(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void viz_recording_free(viz_recording *r)
{
    free(r->heat);
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

size_t viz_recording_scope(const viz_recording *r, viz_scope sc, uint32_t block_linear, uint32_t warp,
                           size_t *idx, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nsteps; i++) {
        const viz_step *s = &r->steps[i];
        if (sc != VIZ_SCOPE_KERNEL && s->block_linear != block_linear)
            continue;
        if (sc == VIZ_SCOPE_WARP && s->warp != warp)
            continue;
        if (n < cap)
            idx[n] = i;
        n++;
    }
    return n;
}

const char *viz_scope_name(viz_scope s)
{
    static const char *n[VIZ_SCOPE_COUNT] = {"warp", "block", "kernel"};
    return (unsigned)s < VIZ_SCOPE_COUNT ? n[s] : "?";
}

/* ---- the heat map ---------------------------------------------------------------- */

uint64_t viz_heat_units(const viz_line_heat *h)
{
    return h->sectors + h->wavefronts;
}

double viz_heat_waste(const viz_line_heat *h)
{
    return ws_heat_waste(viz_heat_units(h), h->ideal_sectors + h->ideal_wavefronts);
}

double viz_heat_level(const viz_line_heat *h)
{
    return ws_heat_level(viz_heat_waste(h));
}

double viz_heat_lanes_pct(const viz_line_heat *h)
{
    return h->instructions ? 100.0 * (double)h->active_lanes / (32.0 * (double)h->instructions) : 100.0;
}

int viz_recording_heat_add(viz_recording *r, int line, bool shared, uint64_t units, uint64_t ideal, int lanes)
{
    if (line < 0)
        line = 0;
    if (line >= r->nheat) {
        int n = line + 1 > 2 * r->nheat ? line + 1 : 2 * r->nheat;
        viz_line_heat *h = realloc(r->heat, (size_t)n * sizeof *h);
        if (!h)
            return -1;
        memset(h + r->nheat, 0, (size_t)(n - r->nheat) * sizeof *h);
        r->heat = h;
        r->nheat = n;
    }
    viz_line_heat *h = &r->heat[line];
    h->instructions++;
    h->active_lanes += (uint64_t)(lanes < 0 ? 0 : lanes > 32 ? 32 : lanes);
    if (shared) {
        h->wavefronts += units;
        h->ideal_wavefronts += ideal;
    } else {
        h->sectors += units;
        h->ideal_sectors += ideal;
    }
    return 0;
}

int viz_recording_heat_add_step(viz_recording *r, const viz_step *s)
{
    if (!viz_step_counts(s))
        return 0;
    bool shared = s->space == WS_SPACE_SHARED;
    return viz_recording_heat_add(r, s->src_line, shared, (uint64_t)(shared ? s->wavefronts : s->sectors),
                                  (uint64_t)(shared ? s->ideal_wavefronts : s->ideal_sectors),
                                  __builtin_popcount(s->active_mask));
}

int viz_recording_worst_line(const viz_recording *r)
{
    int best = 0;
    uint64_t bu = 0;
    for (int l = 1; l < r->nheat; l++)
        if (viz_heat_units(&r->heat[l]) > bu) {
            bu = viz_heat_units(&r->heat[l]);
            best = l;
        }
    return best;
}

int viz_step_answer(const viz_step *s)
{
    return s->space == WS_SPACE_SHARED ? s->wavefronts : s->sectors;
}

const char *viz_step_unit(const viz_step *s)
{
    return s->space == WS_SPACE_SHARED ? "wavefronts" : "sectors";
}
