/* coalesce.c - exact sector/line accounting for one global or local warp access.
 * Works byte-run by byte-run: each lane's bytes are cut into chunks that share
 * (request, sector); chunks are sorted and merged into entries, so the counts
 * are exact for any width, alignment and mask (see coalesce.h for the rules). */
#include "coalesce.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "../../common/device.h"

typedef struct {
    uint64_t sector;
    uint8_t request;
    uint8_t lane;
    uint16_t order;     /* position in production order (lane-major, byte order) */
    uint32_t mask;
} chunk;

static int chunk_before(const chunk *a, const chunk *b)
{
    if (a->request != b->request)
        return a->request < b->request;
    return a->sector < b->sector;
}

uint64_t ws_local_address(uint64_t local_warp_base, uint64_t a, int lane)
{
    return local_warp_base + (a / 4) * 128 + 4u * (uint64_t)lane + (a % 4);
}

static int popcount32(uint32_t x) { return __builtin_popcount(x); }

/* The usual global access in one pass: every lane's bytes aligned to their power-of-two width, so
 * each lane touches one sector, and the lanes' sectors never going down in lane order (rows,
 * columns, broadcasts). Then the byte walk's chunks are the lanes in order, already sorted, and
 * each lane's one entry is the run it joins: the same result, built directly. Returns 0 (r
 * untouched but for what ws_coalesce cleared) where that does not hold; atomics take the walk
 * (their lanes on one address). One pass: a lane that breaks the form resets what it wrote. */
static int coalesce_aligned(const ws_mem_event *ev, int w, ws_coalesce_result *r)
{
    if (ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE)
        return 0;
    uint32_t lanemask = (w >= 32 ? 0xffffffffu : (1u << w) - 1);
    int n = 0, bytes = 0;
    ws_sector_entry *e = NULL;
    for (uint32_t m = ev->active_mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = ev->addr[lane];
        uint64_t sec = a & ~(uint64_t)(WS_SECTOR_BYTES - 1);
        if ((a & (uint64_t)(w - 1)) || (e && sec < e->sector)) { /* not this form: undo what it wrote */
            memset(r->lane_nsectors, 0, sizeof r->lane_nsectors);
            r->lines = 0;
            return 0;
        }
        if (!e || e->sector != sec) {
            if (e) {
                bytes += popcount32(e->byte_mask);
                if (e->sector / WS_LINE_BYTES != sec / WS_LINE_BYTES)
                    r->lines++;
            } else {
                r->lines++;
            }
            e = &r->entries[n++];
            *e = (ws_sector_entry){.sector = sec, .request = 0};
            e->same_addr_max = 1;
        }
        e->lanes |= 1u << lane;
        e->byte_mask |= lanemask << (a - sec);
        r->lane_sector[lane][0] = (uint16_t)(n - 1);
        r->lane_nsectors[lane] = 1;
    }
    bytes += popcount32(e->byte_mask);
    r->nentries = n;
    r->requests = 1;
    r->sectors = n;
    r->bytes_used = bytes;
    r->ideal_sectors = (bytes + WS_SECTOR_BYTES - 1) / WS_SECTOR_BYTES;
    r->distinct_sectors = n;
    return 1;
}

/* The commonest of those forms in closed form: a full warp, lane l at a0 + l x w (a0 aligned to w):
 * the sectors a0's through the last byte's, each holding a run of lanes and of bytes - what
 * coalesce_aligned's lane walk builds, with no test per lane but one vectorised check. Returns 0
 * (r untouched) where the lanes are not so. */
static int coalesce_contiguous(const ws_mem_event *ev, int w, ws_coalesce_result *r)
{
    if (ev->active_mask != 0xffffffffu || ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE)
        return 0;
    const uint64_t *ad = ev->addr;
    uint64_t a0 = ad[0], x = 0, uw = (uint64_t)w;
    int sh = __builtin_ctz((unsigned)w);      /* w is a power of two: a shift the compiler vectorises */
    for (int l = 0; l < 32; l++)
        x |= ad[l] ^ (a0 + ((uint64_t)l << sh));
    if (x || (a0 & (uw - 1)) || a0 >> 62)   /* far from 2^64: no sum below wraps */
        return 0;
    uint64_t end = a0 + 32 * uw;
    int n = 0;
    for (uint64_t sec = a0 & ~(uint64_t)(WS_SECTOR_BYTES - 1); sec < end; sec += WS_SECTOR_BYTES, n++) {
        uint64_t lo = sec > a0 ? sec : a0, hi = sec + WS_SECTOR_BYTES < end ? sec + WS_SECTOR_BYTES : end;
        int l0 = (int)((lo - a0) >> sh), l1 = (int)((hi - a0) >> sh), nb = (int)(hi - lo);
        ws_sector_entry *e = &r->entries[n];
        *e = (ws_sector_entry){.sector = sec, .request = 0};
        e->same_addr_max = 1;
        e->lanes = (l1 - l0 >= 32 ? 0xffffffffu : (1u << (l1 - l0)) - 1) << l0;
        e->byte_mask = (nb >= 32 ? 0xffffffffu : (1u << nb) - 1) << (lo - sec);
        if (!n || sec / WS_LINE_BYTES != r->entries[n - 1].sector / WS_LINE_BYTES)
            r->lines++;
        for (int l = l0; l < l1; l++)
            r->lane_sector[l][0] = (uint16_t)n;
    }
    memset(r->lane_nsectors, 1, sizeof r->lane_nsectors);
    r->nentries = n;
    r->requests = 1;
    r->sectors = n;
    r->bytes_used = 32 * w;
    r->ideal_sectors = w;   /* ceil(32 w / 32) */
    r->distinct_sectors = n;
    return 1;
}

int ws_coalesce(const ws_mem_event *ev, uint64_t local_warp_base, ws_coalesce_result *r)
{
    int local = ev->space == WS_SPACE_LOCAL;
    int w = ev->width;
    if ((!local && ev->space != WS_SPACE_GLOBAL) || w < 1 || w > 16) {
        memset(r, 0, sizeof *r);
        return -1;
    }
    /* the counts and each lane's count only: the result is 6.7 KB, of which an access fills a few
       entries (each zeroed as it is made) and rows (read up to lane_nsectors) - clearing it whole
       was the coalescer's largest cost */
    memset(r, 0, offsetof(ws_coalesce_result, entries));
    memset(r->lane_nsectors, 0, sizeof r->lane_nsectors);
    if (!ev->active_mask)
        return 0;
    int nreq = local ? (w >= 4 ? w / 4 : 1) : 1;
    if (!local && !(w & (w - 1)) && (coalesce_contiguous(ev, w, r) || coalesce_aligned(ev, w, r)))
        return 0;

    /* Produce chunks: a lane's byte range cut at every sector or request change.
     * At most 32 lanes x 16 bytes, but a chunk covers >= 1 byte and global ranges
     * cut at most once, local ones at most twice per request: 256 is enough. */
    chunk ch[WS_COALESCE_MAX_ENTRIES];
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(ev->active_mask >> lane & 1))
            continue;
        if (!local) {
            /* global: one request, so a lane's range cuts only at sector boundaries (the same
               chunks as the byte walk below, a sector at a time) */
            uint64_t a = ev->addr[lane], end = a + (uint64_t)w;
            if (end > a) {                   /* a range wrapping past 2^64 takes the byte walk */
                while (a < end) {
                    uint64_t sec = a & ~(uint64_t)(WS_SECTOR_BYTES - 1);
                    uint64_t stop = sec + WS_SECTOR_BYTES < end && sec + WS_SECTOR_BYTES > sec ? sec + WS_SECTOR_BYTES : end;
                    uint32_t len = (uint32_t)(stop - a);
                    ch[n] = (chunk){sec, 0, (uint8_t)lane, (uint16_t)n,
                                    (len >= 32 ? 0xffffffffu : ((1u << len) - 1)) << (a - sec)};
                    n++;
                    a = stop;
                }
                continue;
            }
        }
        chunk cur = {0};
        int open = 0;
        if (local) {
            /* local: the lane's bytes a run at a time, a run being the bytes of one word of the
               frame (contiguous in the interleaved layout) in one request and one sector: the
               chunks of the byte walk below, a few bytes at a step (the walk was 3/4 of a spilling
               kernel's instructions) */
            for (int b = 0; b < w;) {
                uint64_t a = ev->addr[lane] + (uint64_t)b;
                int req = w >= 4 ? b / 4 : 0;
                int lim = b + 4 - (int)(a % 4);            /* the word's end */
                int rend = w >= 4 ? (req + 1) * 4 : w;     /* the request's end */
                if (lim > rend) lim = rend;
                if (lim > w) lim = w;
                uint64_t p = ws_local_address(local_warp_base, a, lane);
                uint64_t sec = p & ~(uint64_t)(WS_SECTOR_BYTES - 1);
                uint64_t room = sec + WS_SECTOR_BYTES - p;  /* bytes to the sector's end (wraps alike) */
                int len = lim - b;
                if ((uint64_t)len > room) len = (int)room;
                if (open && (cur.sector != sec || cur.request != req)) {
                    ch[n++] = cur;
                    open = 0;
                }
                if (!open) {
                    cur = (chunk){sec, (uint8_t)req, (uint8_t)lane, (uint16_t)n, 0};
                    open = 1;
                }
                cur.mask |= ((1u << len) - 1) << (p - sec);
                b += len;
            }
            if (open)
                ch[n++] = cur;
            continue;
        }
        for (int b = 0; b < w; b++) {
            uint64_t a = ev->addr[lane] + (uint64_t)b;
            uint64_t p = local ? ws_local_address(local_warp_base, a, lane) : a;
            uint8_t req = (uint8_t)(local && w >= 4 ? b / 4 : 0);
            uint64_t sec = p & ~(uint64_t)(WS_SECTOR_BYTES - 1);
            if (open && (cur.sector != sec || cur.request != req)) {
                ch[n++] = cur;
                open = 0;
            }
            if (!open) {
                cur.sector = sec;
                cur.request = req;
                cur.lane = (uint8_t)lane;
                cur.order = (uint16_t)n;
                cur.mask = 0;
                open = 1;
            }
            cur.mask |= 1u << (p - sec);
        }
        if (open)
            ch[n++] = cur;
    }

    /* Several requests (local, 8 and 16 bytes): the chunks come lane by lane, each lane's in
       request order, so a stable split by request first (counting sort); then the stable
       insertion sort by (request, sector), near-linear as lanes usually walk addresses upward
       (it was quadratic on the lane-major order: 128 chunks of a 16-byte spill) */
    if (nreq > 1) {
        chunk tmp[WS_COALESCE_MAX_ENTRIES];
        int start[WS_MAX_REQUESTS + 1] = {0};
        for (int i = 0; i < n; i++)
            start[ch[i].request + 1]++;
        for (int q = 0; q < WS_MAX_REQUESTS; q++)
            start[q + 1] += start[q];
        for (int i = 0; i < n; i++)
            tmp[start[ch[i].request]++] = ch[i];
        memcpy(ch, tmp, (size_t)n * sizeof ch[0]);
    }
    for (int i = 1; i < n; i++) {
        chunk c = ch[i];
        int j = i - 1;
        while (j >= 0 && chunk_before(&c, &ch[j])) {
            ch[j + 1] = ch[j];
            j--;
        }
        ch[j + 1] = c;
    }

    uint16_t entry_of[WS_COALESCE_MAX_ENTRIES]; /* by chunk production order */
    for (int i = 0; i < n; i++) {
        ws_sector_entry *e = r->nentries ? &r->entries[r->nentries - 1] : NULL;
        if (!e || e->sector != ch[i].sector || e->request != ch[i].request) {
            e = &r->entries[r->nentries++];
            *e = (ws_sector_entry){.sector = ch[i].sector, .request = ch[i].request};
        }
        e->lanes |= 1u << ch[i].lane;
        e->byte_mask |= ch[i].mask;
        entry_of[ch[i].order] = (uint16_t)(r->nentries - 1);
    }

    /* atomics: lanes on one address are serialised, each its own pass (docs/memory-models.md) */
    bool rmw = ev->op == WS_MEM_ATOMIC || ev->op == WS_MEM_REDUCE;
    for (int i = 0; i < r->nentries; i++) {
        ws_sector_entry *e = &r->entries[i];
        e->same_addr_max = 1;
        if (!rmw || popcount32(e->lanes) < 2)
            continue;
        for (int a = 0; a < 32; a++) {
            if (!(e->lanes >> a & 1))
                continue;
            int same = 0;
            for (int b = a; b < 32; b++)
                same += (e->lanes >> b & 1) && ev->addr[b] == ev->addr[a];
            if (same > e->same_addr_max)
                e->same_addr_max = (uint8_t)same;
        }
    }

    r->requests = nreq;
    r->sectors = r->nentries;
    int req_bytes[WS_MAX_REQUESTS] = {0};
    for (int i = 0; i < r->nentries; i++) {
        const ws_sector_entry *e = &r->entries[i];
        req_bytes[e->request] += popcount32(e->byte_mask);
        if (i == 0 || e->request != r->entries[i - 1].request ||
            e->sector / WS_LINE_BYTES != r->entries[i - 1].sector / WS_LINE_BYTES)
            r->lines++;
    }
    for (int k = 0; k < nreq; k++) {
        r->bytes_used += req_bytes[k];
        r->ideal_sectors += (req_bytes[k] + WS_SECTOR_BYTES - 1) / WS_SECTOR_BYTES;
    }

    /* Distinct sectors over the whole instruction: only local has >1 request. */
    if (nreq == 1) {
        r->distinct_sectors = r->nentries;
    } else {
        uint64_t seen[WS_COALESCE_MAX_ENTRIES];
        int ns = 0;
        for (int i = 0; i < r->nentries; i++) {
            int dup = 0;
            for (int j = 0; j < ns && !dup; j++)
                dup = seen[j] == r->entries[i].sector;
            if (!dup)
                seen[ns++] = r->entries[i].sector;
        }
        r->distinct_sectors = ns;
    }

    /* Per-lane sector lists, in the order the lane's bytes were produced. */
    int order_lane[WS_COALESCE_MAX_ENTRIES];
    for (int i = 0; i < n; i++)
        order_lane[ch[i].order] = ch[i].lane;
    for (int o = 0; o < n; o++) {
        int lane = order_lane[o];
        uint16_t e = entry_of[o];
        int k = r->lane_nsectors[lane];
        int dup = 0;
        for (int j = 0; j < k && !dup; j++)
            dup = r->lane_sector[lane][j] == e;
        if (!dup && k < WS_LANE_MAX_SECTORS) {
            r->lane_sector[lane][k] = e;
            r->lane_nsectors[lane] = (uint8_t)(k + 1);
        }
    }
    return 0;
}

int ws_coalesce_entry_atom_sectors(const ws_sector_entry *e, int rule)
{
    if (rule == WS_ATOM_SECTORS_PASS)
        return e->same_addr_max ? e->same_addr_max : 1;
    if (rule == WS_ATOM_SECTORS_LANE)
        return popcount32(e->lanes);
    return 1;
}

int ws_coalesce_atom_sectors(const ws_coalesce_result *co, int rule)
{
    int n = 0;
    for (int i = 0; i < co->nentries; i++)
        n += ws_coalesce_entry_atom_sectors(&co->entries[i], rule);
    return n;
}
