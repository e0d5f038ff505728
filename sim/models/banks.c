/* banks.c - wavefronts of one shared-memory warp access (rules in banks.h), without sorting.
 * Shared memory is seen as rows of 32 banks (a row = 128 bytes); a group's distinct words are
 * one bit per (bank, row) - bit r of rows[b] for the word in bank b of row base+r - so identical
 * words merge by themselves, the words a bank serves are popcount(rows[b]), and a word's rank
 * among them (the wavefront that serves it: ranks follow word address order) is the popcount of
 * the lower rows. One pass over the lanes sets the bits and counts them, one more reads the
 * ranks (a popcount only in a bank that serves several words).
 * Expected workload: every shared event of a run, so this is on the hot path (a matmul spends
 * most of its model time here); 32 x 64-bit rows per group cover accesses within 8 KiB, which is
 * every access the catalog makes; a warp whose addresses span more takes the sorting path that
 * was the whole model before (sort_u64 below), which gives the same answer more slowly. */
#include "banks.h"

#include <string.h>

#define MAX_WORDS (32 * 5) /* a 16-B access at a non-word offset spans 5 words */
#define SPAN_ROWS 64       /* rows one bitmap covers */

/* For every active lane n, partner n^x is inactive or reads the same address. */
static int partners_agree(const ws_mem_event *ev, int x)
{
    uint32_t am = ev->active_mask;
    for (uint32_t m = am; m;) {
        int n = __builtin_ctz(m);
        m &= m - 1;
        int p = n ^ x;
        if ((am >> p & 1) && ev->addr[p] != ev->addr[n])
            return 0;
    }
    return 1;
}

static void reset(ws_bank_result *r)
{
    memset(r, 0, sizeof *r);
    memset(r->lane_bank, -1, sizeof r->lane_bank);
    memset(r->lane_group, -1, sizeof r->lane_group);
    memset(r->lane_wavefront, -1, sizeof r->lane_wavefront);
}

static void finish(ws_bank_result *r)
{
    r->ideal = (r->distinct_words * 4 + 127) / 128;
    if (r->ideal < 1)
        r->ideal = 1;
    r->excess = r->wavefronts - r->ideal;
    if (r->excess < 0)
        r->excess = 0; /* cannot happen: each wavefront carries <= 32 words */
    r->ncu_conflicts = r->wavefronts - r->active_groups;
}

/* --- the wide path: sort and de-duplicate (accesses spanning more than SPAN_ROWS rows) --- */

static void sort_u64(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static int uniq_u64(uint64_t *v, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* Rank of word wd among the distinct words of its bank in words[0..n) (sorted, unique). */
static int rank_in(const uint64_t *words, int n, uint64_t wd)
{
    int k = 0;
    for (int i = 0; i < n && words[i] < wd; i++)
        k += (words[i] & (WS_BANKS - 1)) == (wd & (WS_BANKS - 1));
    return k;
}

static int cost_groups_wide(const ws_mem_event *ev, int ngroups, ws_bank_result *r)
{
    int w = ev->width, lpg = 32 / ngroups, base = 0, nall = 0;
    uint64_t all[MAX_WORDS];
    for (int g = 0; g < ngroups; g++) {
        uint64_t words[MAX_WORDS];
        int nw = 0;
        for (int n = g * lpg; n < (g + 1) * lpg; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            for (uint64_t wd = ev->addr[n] >> 2; wd <= (ev->addr[n] + (uint64_t)w - 1) >> 2; wd++)
                words[nw++] = all[nall++] = wd;
        }
        if (!nw)
            continue;
        r->active_groups++;
        sort_u64(words, nw);
        nw = uniq_u64(words, nw);
        int per_bank[WS_BANKS] = {0}, gmax = 0;
        for (int i = 0; i < nw; i++) {
            int b = (int)(words[i] & (WS_BANKS - 1));
            if (++per_bank[b] > gmax)
                gmax = per_bank[b];
            if (per_bank[b] > 1)
                r->conflict_banks |= 1u << b;
        }
        if (gmax > r->degree)
            r->degree = gmax;
        for (int b = 0; b < WS_BANKS; b++) /* <= MAX_WORDS: fits a byte */
            r->group_words[g][b] = (uint8_t)per_bank[b];
        for (int n = g * lpg; n < (g + 1) * lpg; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            int last = 0;
            for (uint64_t wd = ev->addr[n] >> 2; wd <= (ev->addr[n] + (uint64_t)w - 1) >> 2; wd++) {
                int k = rank_in(words, nw, wd);
                if (k > last)
                    last = k;
            }
            r->lane_bank[n] = (int8_t)((ev->addr[n] >> 2) & (WS_BANKS - 1));
            r->lane_group[n] = (int8_t)g;
            r->lane_wavefront[n] = (int8_t)(base + last);
        }
        base += gmax;
    }
    r->wavefronts = base;
    if (!nall)
        return 0;
    sort_u64(all, nall);
    r->distinct_words = uniq_u64(all, nall);
    finish(r);
    return 0;
}

/* --- the bitmap path --------------------------------------------------------------------- */

/* Wavefronts of the lanes of ev in ngroups equal groups of consecutive lanes, each costing
 * the most distinct words one bank serves in it (r's lane fields already reset). */
static int cost_groups(const ws_mem_event *ev, int ngroups, ws_bank_result *r)
{
    uint32_t am = ev->active_mask;
    r->ngroups = ngroups;
    if (!am)
        return 0;
    uint64_t w = ev->width, lo = UINT64_MAX, hi = 0;
    for (uint32_t m = am; m;) {       /* the rows the warp touches */
        int n = __builtin_ctz(m);
        m &= m - 1;
        uint64_t a = ev->addr[n];
        if (a + w - 1 < a)            /* wraps past 2^64: the wide path's arithmetic, as before */
            return cost_groups_wide(ev, ngroups, r);
        if (a >> 7 < lo)
            lo = a >> 7;
        if ((a + w - 1) >> 7 > hi)
            hi = (a + w - 1) >> 7;
    }
    if (hi - lo >= SPAN_ROWS)
        return cost_groups_wide(ev, ngroups, r);
    uint64_t lo_word = lo << 5;
    uint64_t any[WS_BANKS] = {0};     /* over the whole warp, for distinct_words */
    int lpg = 32 / ngroups, base = 0;
    uint32_t gmask = ngroups == 1 ? 0xFFFFFFFFu : (1u << lpg) - 1;
    for (int g = 0; g < ngroups; g++) {
        uint32_t lanes = am & (gmask << (g * lpg));
        if (!lanes)
            continue;
        r->active_groups++;
        uint64_t rows[WS_BANKS] = {0};
        uint8_t *cnt = r->group_words[g]; /* counted as bits are first set: no popcount per bank */
        int gmax = 0;
        for (uint32_t m = lanes; m;) {
            int n = __builtin_ctz(m);
            m &= m - 1;
            uint64_t a = ev->addr[n];
            for (uint64_t wd = (a >> 2) - lo_word; wd <= ((a + w - 1) >> 2) - lo_word; wd++) {
                int b = (int)(wd & (WS_BANKS - 1));
                uint64_t bit = 1ull << (wd >> 5);
                if (rows[b] & bit)
                    continue;             /* the same word: merged */
                rows[b] |= bit;
                if (++cnt[b] > gmax)
                    gmax = cnt[b];
                if (cnt[b] == 2)
                    r->conflict_banks |= 1u << b;
                if (!(any[b] & bit)) {
                    any[b] |= bit;
                    r->distinct_words++;
                }
            }
        }
        if (gmax > r->degree)
            r->degree = gmax;
        for (uint32_t m = lanes; m;) {     /* each lane waits for its last word's wavefront */
            int n = __builtin_ctz(m);
            m &= m - 1;
            uint64_t a = ev->addr[n];
            int last = 0;
            for (uint64_t wd = (a >> 2) - lo_word; wd <= ((a + w - 1) >> 2) - lo_word; wd++) {
                int b = (int)(wd & (WS_BANKS - 1));
                if (cnt[b] < 2)
                    continue;             /* alone in its bank: the first wavefront */
                int k = __builtin_popcountll(rows[b] & ((1ull << (wd >> 5)) - 1));
                if (k > last)
                    last = k;
            }
            r->lane_bank[n] = (int8_t)((a >> 2) & (WS_BANKS - 1));
            r->lane_group[n] = (int8_t)g;
            r->lane_wavefront[n] = (int8_t)(base + last);
        }
        base += gmax;
    }
    r->wavefronts = base;
    finish(r);
    return 0;
}

int ws_banks_ldsm(const ws_mem_event *ev, ws_bank_result *r)
{
    reset(r);
    if (ev->space != WS_SPACE_SHARED || ev->width != 16)
        return -1;
    return cost_groups(ev, 4, r);  /* one phase per 8x8 matrix: lanes 8i..8i+7 give its rows */
}

int ws_banks(const ws_mem_event *ev, ws_bank_result *r)
{
    reset(r);
    int w = ev->width;
    if (ev->space != WS_SPACE_SHARED || w < 1 || w > 16)
        return -1;

    int ngroups = 1;
    if (w == 8 || w == 16) {
        r->pair_mode = partners_agree(ev, 1) || partners_agree(ev, 2);
        if (w == 8)
            ngroups = r->pair_mode ? 1 : 2;
        else
            ngroups = r->pair_mode ? 2 : 4;
    } else if (w > 4) {
        ngroups = w > 8 ? 4 : 2; /* odd widths do not occur in PTX; cost them like the next size */
    }
    return cost_groups(ev, ngroups, r);
}
/* (phase, global line) pairs of an LDGSTS shared write: per phase of the store rule (128 bytes of
 * lanes) with an active lane, its distinct gline values, at least 1 (a phase of zero-filling lanes
 * only); *phases gets the active phases. */
static int ldgsts_line_sets(const ws_mem_event *ev, int *phases)
{
    int per = ev->width >= 4 && ev->width <= 16 ? 128 / ev->width : 32, sets = 0;
    *phases = 0;
    for (int p = 0; p < 32; p += per) {
        uint8_t seen[32];
        int n = 0, any = 0;
        for (int l = p; l < p + per && l < 32; l++) {
            if (!(ev->active_mask >> l & 1)) continue;
            any = 1;
            if (ev->gline[l] == 0xff) continue;
            int k = 0;
            while (k < n && seen[k] != ev->gline[l]) k++;
            if (k == n) seen[n++] = ev->gline[l];
        }
        if (!any) continue;
        (*phases)++;
        sets += n ? n : 1;
    }
    return sets;
}

/* Adds k to keys[0..*n) unless there; 1 when added. */
static int add_key(uint64_t *keys, int *n, uint64_t k)
{
    for (int i = 0; i < *n; i++)
        if (keys[i] == k) return 0;
    keys[(*n)++] = k;
    return 1;
}

/* The .cg form (results/h200-ldgsts-rule*, the corpus: docs/sass.md "LDGSTS"): its data come from
 * L2 a global sector at a time and are written to shared memory a 32-byte shared block at a time, so
 * a sector whose lanes land in k blocks is requested k times; a (phase, global line) group's writes go
 * in passes (pass i: the i-th block, in address order, of each of its sectors), and a pass costs one
 * wavefront per 128-byte shared row it touches. Lanes reading no source byte (zero-fill) join their
 * phase's first group in pass 0 (a phase of them alone is a group) and request nothing. Fills r's
 * wavefronts and the two sector excesses. */
static void ldgsts_cg(const ws_mem_event *ev, ws_bank_result *r)
{
    int per = ev->width >= 4 && ev->width <= 16 ? 128 / ev->width : 32, wf = 0;
    uint64_t pairs[32], secs[32], lblk[32];       /* (sector, block), sectors, (line, block) of the warp */
    int npairs = 0, nsecs = 0, nlblk = 0;
    for (int p = 0; p < 32; p += per) {
        uint32_t left = 0;
        for (int l = p; l < p + per && l < 32; l++)
            if (ev->active_mask >> l & 1) left |= 1u << l;
        uint32_t zero = 0;                        /* lanes that only zero-fill */
        for (uint32_t m = left; m; m &= m - 1)
            if (ev->gline[__builtin_ctz(m)] == 0xff) zero |= 1u << __builtin_ctz(m);
        if (zero != left) left &= ~zero;          /* they go with the phase's first line */
        while (left) {                            /* one (phase, line) group at a time */
            uint8_t line = ev->gline[__builtin_ctz(left)];
            uint32_t grp = 0;
            for (uint32_t m = left; m; m &= m - 1)
                if (ev->gline[__builtin_ctz(m)] == line) grp |= 1u << __builtin_ctz(m);
            left &= ~grp;
            grp |= zero;
            zero = 0;
            uint64_t passrows[32];                /* (pass, 128-byte row) pairs: the group's wavefronts */
            int npr = 0;
            for (uint32_t m = grp; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                uint64_t blk = ev->addr[l] >> 5, below[32];
                int pass = 0;                     /* l's pass: its sector's distinct blocks below blk */
                for (uint32_t o = grp; ev->gline[l] != 0xff && o; o &= o - 1) {
                    int k = __builtin_ctz(o);
                    uint64_t b = ev->addr[k] >> 5;
                    if (ev->gline[k] == ev->gline[l] && ev->gsector[k] == ev->gsector[l] && b < blk)
                        add_key(below, &pass, b);
                }
                add_key(passrows, &npr, (uint64_t)pass << 58 | ev->addr[l] >> 7);
                if (ev->gline[l] == 0xff) continue;   /* zero-fill only: nothing requested */
                uint64_t sec = (uint64_t)line * 4 + ev->gsector[l];
                add_key(pairs, &npairs, sec << 56 | blk);
                add_key(secs, &nsecs, sec);
                add_key(lblk, &nlblk, (uint64_t)line << 56 | blk);
            }
            wf += npr;
        }
    }
    r->wavefronts = wf;
    r->sectors_rerequested = npairs - nsecs;
    r->ld_sectors_extra = nlblk - nsecs;
}

int ws_banks_ldgsts(const ws_mem_event *ev, ws_bank_result *r)
{
    if (ws_banks(ev, r) != 0)
        return -1;
    /* bank conflicts as the H200 counts them (results/h200-ldgsts-rule: 13 probes, and the corpus):
       .ca adds one per global line beyond the first in a phase; .cg counts the store rule's
       wavefronts beyond one per (phase, global line) */
    int phases, sets = ldgsts_line_sets(ev, &phases);
    uint32_t copy = ev->zfill_copy_mask & ev->active_mask;
    if (ev->cache == WS_CACHE_CG) {
        r->ncu_conflicts = r->wavefronts > sets ? r->wavefronts - sets : 0;
        ldgsts_cg(ev, r);
    } else {
        r->ncu_conflicts += sets - phases;
        r->wavefronts += sets - phases;           /* .ca: each further line of a phase, a wavefront */
    }
    if (ev->width == 16 && copy) {
        /* the zero-filling 16-byte form (SASS LDGSTS...128.ZFILL): the copying lanes' writes once
           more (sass_forms.cu's ldgsts_rows 8, ldgsts_row_per_group 64, ldgsts_zfill_half 6) */
        ws_mem_event live = *ev;
        live.active_mask = copy;
        ws_bank_result again;
        if (ev->cache == WS_CACHE_CG) {
            reset(&again);
            ldgsts_cg(&live, &again);
        } else {
            ws_banks(&live, &again);
            int ph, st = ldgsts_line_sets(&live, &ph);
            again.wavefronts += st - ph;
        }
        r->wavefronts += again.wavefronts;
    }
    if (r->ideal > r->wavefronts - r->ncu_conflicts) r->ideal = r->wavefronts - r->ncu_conflicts;
    if (r->ideal < 1) r->ideal = 1;
    r->excess = r->wavefronts > r->ideal ? r->wavefronts - r->ideal : 0;
    return 0;
}
