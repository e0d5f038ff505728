/* event.h - the memory event stream: one record per executed warp-level memory
 * instruction. This is the single interface between the warp interpreter and
 * everything that looks at memory (coalescer, banks, caches, reports, viz).
 * Invariant: lanes outside active_mask have addr[lane] == 0 and are ignored. */
#ifndef WS_EVENT_H
#define WS_EVENT_H

#include <stdint.h>

typedef enum { WS_SPACE_GLOBAL, WS_SPACE_SHARED, WS_SPACE_LOCAL, WS_SPACE_CONST, WS_SPACE_PARAM } ws_space;
typedef enum { WS_MEM_LOAD, WS_MEM_STORE, WS_MEM_ATOMIC, WS_MEM_REDUCE } ws_mem_op;
typedef enum { WS_CACHE_DEFAULT, WS_CACHE_CA, WS_CACHE_CG, WS_CACHE_CS, WS_CACHE_NC, WS_CACHE_LU,
               WS_CACHE_CV, WS_CACHE_WB, WS_CACHE_WT } ws_cache_hint;
/* The instruction family behind an event. PLAIN: ld/st/atom/red (and what the plain counters
 * count). The others are the tensor-era instructions, each counted apart (memstats.h):
 *   LDGSTS: cp.async, as two events of one instruction: its global read (op LOAD, the lanes
 *           that read a source byte) and its shared write (op STORE, every copying lane);
 *   LDSM:   ldmatrix, op LOAD, width 16: each active lane supplies one 16-byte row address;
 *   STSM:   stmatrix, op STORE, likewise;
 *   WMMA:   wmma.load/store, one event per fragment register (PTX level: ptxas picks the
 *           SASS widths);
 *   BULK:   cp.async.bulk, TMA: cp.async.bulk.tensor: a copy of any size, in events of up to 32
 *           16-byte "lanes" (part 0, 1, ... of the copy), its global side and its shared side
 *           (op LOAD from the source, STORE to the destination);
 *   GMMA:   wgmma.mma_async, op LOAD, width 16: the shared bytes its matrix descriptors read, one
 *           16-byte chunk per "lane", part 0, 1, ... of one warp's share (exec_wgmma.c). */
typedef enum { WS_KIND_PLAIN = 0, WS_KIND_LDGSTS, WS_KIND_LDSM, WS_KIND_STSM, WS_KIND_WMMA, WS_KIND_BULK,
               WS_KIND_TMA, WS_KIND_GMMA, WS_KIND_COUNT } ws_mem_kind;

typedef struct ws_mem_event {
    uint64_t seq;            /* 0, 1, 2 ... in execution order */
    uint32_t block_linear;   /* ctaid.x + ctaid.y*nctaid.x + ctaid.z*nctaid.x*nctaid.y */
    uint32_t block[3];
    uint32_t warp;           /* warp index inside the block */
    uint32_t warp_global;    /* block_linear * warps_per_block + warp */
    uint32_t pc;             /* instruction index in the function */
    int src_line;            /* .cu line, 0 if unknown */
    int ptx_line;
    ws_space space;
    ws_mem_op op;
    ws_cache_hint cache;
    ws_mem_kind kind;        /* PLAIN, or the tensor-era family (above) */
    uint32_t part;           /* BULK, TMA: this event's place among its copy's events on its side (0 first);
                                WMMA: 8 * fragment register + element (0 for a whole register): 0 starts
                                an execution (sim/sass/sass_events.c regroups a fragment into its SASS);
                                PLAIN from that regrouping: the SASS instruction's place in the execution
                                (0 first), so the latency epochs see one access (sim/models/latency.c) */
    uint8_t width;           /* bytes per lane: elem_size * vec (1..16) */
    uint8_t elem_size;       /* 1, 2, 4, 8, 16 */
    uint8_t vec;             /* 1, 2, 4 */
    uint8_t dsmem;           /* SHARED: 0 = the executing block's own shared memory; 1 + r = distributed
                                shared memory, the shared window of block rank r of its cluster, reached
                                through a .shared::cluster address (mapa); addr[] are offsets in that
                                window. ncu counts these under ..._mem_dshared, not _mem_shared */
    uint8_t copies;          /* BULK, TMA global side of a copy to shared memory: the blocks it lands in
                                (a .multicast::cluster copy's ranks), 0 or 1 for one */
    uint8_t issue_lane;      /* BULK: the lane whose copy this is (every active lane of a cp.async.bulk issues
                                its own copy, exec_bulk.c; the SASS serves them a pass each) */
    uint8_t atom_float;      /* atomics and reductions: 1 for a floating-point add (its same-address
                                rate differs: docs/timing-model.md "Contention"), else 0 */
    uint32_t active_mask;    /* lanes that perform the access */
    uint32_t same_value_mask;/* shared stores: lanes whose bytes already held what they store (in lane
                                order, so of 32 lanes storing one value to one word 31 are here);
                                racecheck does not count such a store as a write. 0 otherwise */
    uint32_t zfill_copy_mask;/* LDGSTS shared write of the zero-filling form (a src-size or ignore-src
                                operand; SASS LDGSTS...ZFILL): the lanes that copy a source byte (the
                                others only write zeros). 0 for every other event (banks.h's LDGSTS rule) */
    uint8_t gline[32];       /* LDGSTS shared write: the global 128-byte line the lane's source is in, numbered
                                0, 1, ... by first appearance in lane order; 0xff for a lane that reads no source
                                byte; read on that event only (banks.h's LDGSTS conflict rule) */
    uint8_t gsector[32];     /* LDGSTS shared write: the 32-byte sector of that line (0..3) the lane's source
                                starts in (a cp.async source is aligned to its size, so it is its only one);
                                0 where gline is 0xff (banks.h's .cg re-requested sectors) */
    /* Per lane address:
     *   GLOBAL: address in the simulated global address space (buffer base + offset);
     *   SHARED: byte offset in the block's shared window;
     *   LOCAL:  byte offset in the thread's own local frame (the coalescer applies
     *           the hardware's interleaved layout);
     *   CONST/PARAM: byte offset in that space. */
    uint64_t addr[32];
} ws_mem_event;

typedef void (*ws_mem_listener)(void *ctx, const ws_mem_event *ev);

const char *ws_space_name(ws_space s);  /* "global" */

/* The header's invariant on one event: 0, or 1 when a lane outside active_mask has an
 * address, 2 when space, op or kind is out of range, 3 when dsmem is set on a space other than shared. Example: WS_ASSERT(ws_mem_event_check(&ev) == 0). */
int ws_mem_event_check(const ws_mem_event *ev);
const char *ws_mem_op_name(ws_mem_op o);/* "load" */
const char *ws_mem_kind_name(ws_mem_kind k); /* "", "cp.async", "ldmatrix", "stmatrix", "wmma" */

#endif
