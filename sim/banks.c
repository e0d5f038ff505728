/* banks.c - wavefronts of one shared-memory warp access (rules in banks.h).
 * Each group's words are gathered, sorted and de-duplicated; a word's rank among
 * the distinct words of its bank is the wavefront that serves it, so the group
 * costs 1 + the highest rank. Deterministic: ranks follow word address order. */
#include "banks.h"

#include <string.h>

#define MAX_WORDS (32 * 5) /* a 16-B access at a non-word offset spans 5 words */

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

/* For every active lane n, partner n^x is inactive or reads the same address. */
static int partners_agree(const ws_mem_event *ev, int x)
{
    for (int n = 0; n < 32; n++) {
        if (!(ev->active_mask >> n & 1))
            continue;
        int p = n ^ x;
        if ((ev->active_mask >> p & 1) && ev->addr[p] != ev->addr[n])
            return 0;
    }
    return 1;
}

static int rank_of(const uint64_t *words, const int *rank, int n, uint64_t w)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (words[mid] == w)
            return rank[mid];
        if (words[mid] < w)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0; /* not reached: every lane word is in the list */
}

static int cost_groups(const ws_mem_event *ev, int ngroups, ws_bank_result *r);

static void reset(ws_bank_result *r)
{
    memset(r, 0, sizeof *r);
    memset(r->lane_bank, -1, sizeof r->lane_bank);
    memset(r->lane_group, -1, sizeof r->lane_group);
    memset(r->lane_wavefront, -1, sizeof r->lane_wavefront);
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

/* Wavefronts of the lanes of ev in ngroups equal groups of consecutive lanes, each costing
 * the most distinct words one bank serves in it (r's lane fields already reset). */
static int cost_groups(const ws_mem_event *ev, int ngroups, ws_bank_result *r)
{
    int w = ev->width;
    r->ngroups = ngroups;
    int lanes_per_group = 32 / ngroups;

    uint64_t all[32 * 5];
    int nall = 0;
    int base = 0; /* wavefronts used by earlier groups */
    for (int g = 0; g < ngroups; g++) {
        uint64_t words[MAX_WORDS];
        int nw = 0;
        for (int n = g * lanes_per_group; n < (g + 1) * lanes_per_group; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            for (uint64_t wd = ev->addr[n] / 4; wd <= (ev->addr[n] + (uint64_t)w - 1) / 4; wd++) {
                words[nw++] = wd;
                all[nall++] = wd;
            }
        }
        if (!nw)
            continue;
        r->active_groups++;
        sort_u64(words, nw);
        nw = uniq_u64(words, nw);
        int rank[MAX_WORDS];
        int per_bank[WS_BANKS] = {0};
        int gmax = 0;
        for (int i = 0; i < nw; i++) {
            int b = (int)(words[i] % WS_BANKS);
            rank[i] = per_bank[b]++;
            if (per_bank[b] > gmax)
                gmax = per_bank[b];
            if (per_bank[b] > 1)
                r->conflict_banks |= 1u << b;
        }
        if (gmax > r->degree)
            r->degree = gmax;
        for (int b = 0; b < WS_BANKS; b++) /* <= MAX_WORDS: fits a byte */
            r->group_words[g][b] = (uint8_t)per_bank[b];
        for (int n = g * lanes_per_group; n < (g + 1) * lanes_per_group; n++) {
            if (!(ev->active_mask >> n & 1))
                continue;
            int last = 0;
            for (uint64_t wd = ev->addr[n] / 4; wd <= (ev->addr[n] + (uint64_t)w - 1) / 4; wd++) {
                int k = rank_of(words, rank, nw, wd);
                if (k > last)
                    last = k;
            }
            r->lane_bank[n] = (int8_t)(ev->addr[n] / 4 % WS_BANKS);
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
    r->ideal = (r->distinct_words * 4 + 127) / 128;
    if (r->ideal < 1)
        r->ideal = 1;
    r->excess = r->wavefronts - r->ideal;
    if (r->excess < 0)
        r->excess = 0; /* cannot happen: each wavefront carries <= 32 words */
    r->ncu_conflicts = r->wavefronts - r->active_groups;
    return 0;
}

int ws_banks_ldgsts(const ws_mem_event *ev, ws_bank_result *r)
{
    if (ws_banks(ev, r) != 0)
        return -1;
    uint32_t copy = ev->zfill_copy_mask & ev->active_mask;
    if (ev->width != 16 || !copy)
        return 0;
    /* the zero-filling 16-byte form: the copying lanes' write once more (measured, cause unknown) */
    ws_mem_event live = *ev;
    live.active_mask = copy;
    for (int n = 0; n < 32; n++)
        if (!(copy >> n & 1))
            live.addr[n] = 0;
    ws_bank_result again;
    ws_banks(&live, &again);
    r->wavefronts += again.wavefronts;
    r->ideal += again.ideal;
    r->excess = r->wavefronts - r->ideal;
    return 0;
}
