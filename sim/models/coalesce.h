/* coalesce.h - the L1TEX coalescer for global and local memory (Volta+), exact:
 * which 32-byte sectors and 128-byte lines one warp-level instruction touches.
 * Invariant: a result lists every (request, sector) pair exactly once, sorted by
 * request then address, and every active lane's bytes fall in the sectors it names.
 *
 * Rules (../shared/reference/gpu-memory-rules.md §2.1, §2.2, §2.8):
 *   global: 1 request per instruction, whatever the width or pattern;
 *   local:  max(1, width/4) requests, one per 32-bit word slot; lane t's byte A of
 *           its frame lives at local_warp_base + (A/4)*128 + 4*t + A%4 (the 4-byte
 *           interleave holds for 64- and 128-bit accesses too);
 *   sectors = distinct 32-B sectors touched by the active lanes' byte ranges, per
 *           request (a lane straddling a sector boundary counts both);
 *   no active lane: 0 requests, 0 sectors.
 * Ideal sectors (our definition): per request, ceil(distinct bytes used / 32) -
 * the fewest sectors that could carry the bytes the active lanes actually use.
 * Shared, const and param events are not coalescer traffic: ws_coalesce returns -1. */
#ifndef WS_COALESCE_H
#define WS_COALESCE_H

#include <stdint.h>

#include "../interp/event.h"

#define WS_SECTOR_BYTES 32
#define WS_LINE_BYTES 128
#define WS_MAX_REQUESTS 4          /* local 128-bit: 4 word slots */
#define WS_LANE_MAX_SECTORS 8      /* a 16-B local access misaligned by 1..3: 4 requests x 2 words */
#define WS_COALESCE_MAX_ENTRIES 256 /* 4 requests x 32 lanes x 2 sectors */

typedef struct {
    uint64_t sector;     /* byte address of the sector (multiple of 32) */
    uint8_t request;     /* 0 .. requests-1 */
    uint32_t lanes;      /* lanes whose bytes fall in this sector (for this request) */
    uint32_t byte_mask;  /* bit i: byte sector+i is accessed (stores: partial-sector writes) */
    uint8_t same_addr_max; /* atomics and reductions: the most of these lanes on one address
                              (1..32); 1 for other ops */
} ws_sector_entry;

typedef struct {
    int requests;               /* l1tex__t_requests_* for this instruction */
    int sectors;                /* l1tex__t_sectors_*: sum over requests of distinct sectors */
    int lines;                  /* sum over requests of distinct 128-B lines (L1->L2 requests when all miss) */
    int ideal_sectors;          /* sum over requests of ceil(distinct bytes / 32) */
    int bytes_used;             /* sum over requests of distinct bytes accessed */
    int distinct_sectors;       /* distinct sectors over the whole instruction (viz) */
    int nentries;               /* == sectors */
    ws_sector_entry entries[WS_COALESCE_MAX_ENTRIES];
    /* Per lane: indices into entries[] of the (request, sector) entries that lane
     * touched, in byte order (global: 1 or 2; aligned local: one per request). */
    uint8_t lane_nsectors[32];
    uint16_t lane_sector[32][WS_LANE_MAX_SECTORS];
} ws_coalesce_result;

/* Coalesces one global or local event into *r. local_warp_base is where this
 * warp's interleaved local frame starts (ignored for global). Returns 0, or -1
 * (r zeroed) for a space the coalescer does not handle or a width outside 1..16. On success only
 * entries[0..nentries) and each lane's lane_sector[l][0..lane_nsectors[l]) mean anything (the rest
 * is left as it was: clearing 6.7 KB per access cost more than the coalescing).
 * Example: ws_coalesce(&ev, 0, &r); r.sectors == 8 for a float stride-2 warp load. */
int ws_coalesce(const ws_mem_event *ev, uint64_t local_warp_base, ws_coalesce_result *r);

/* The sectors a global atomic or reduction counts under rule (WS_ATOM_SECTORS_*,
 * common/device.h): DISTINCT = co->sectors; PASS = sum over entries of same_addr_max;
 * LANE = sum over entries of their lanes. Example: 32 lanes adding to one word gives
 * 1, 32, 32; 32 lanes adding to 32 consecutive floats gives 4, 4, 32. */
int ws_coalesce_atom_sectors(const ws_coalesce_result *co, int rule);
/* The same for one entry. */
int ws_coalesce_entry_atom_sectors(const ws_sector_entry *e, int rule);

/* Physical address of byte `a` of lane `lane`'s local frame (the interleaved layout). */
uint64_t ws_local_address(uint64_t local_warp_base, uint64_t a, int lane);

#endif
