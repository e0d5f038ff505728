/* cache.h - modelled L1 (one per SM), L2 and DRAM for the coalesced sector stream.
 * Invariant: every sector of every global/local access gets exactly one outcome,
 * and the counters are sums of those outcomes (no traffic is invented or lost).
 *
 * Model (rules: ../shared/reference/gpu-memory-rules.md §2.3, §2.5, §2.6, §2.8, §4):
 *  L1  per SM, 128-B lines of 4 sectors, set-associative LRU, misses fill only the
 *      missing sectors. Loads with default/.ca/.lu/.nc caching and local loads look up
 *      and allocate; .cg/.cs/.cv loads neither hit nor allocate (measured for .cg;
 *      assumed for .cs/.cv). A fill is treated as instantaneous, so a re-access
 *      while the miss would still be in flight counts as a hit (as ncu counts it).
 *  In-flight fills: an L2 hit on a sector that an earlier DRAM fetch of the same SM brought
 *      in unasked (the rest of a 64-B fetch), within fill_window of its memory instructions
 *      (one per resident warp: each issues its load of an iteration in far fewer cycles than
 *      the fetch's ~700, so they all find it in flight), is flagged (l2_hit_inflight_sectors):
 *      the latency model charges it the DRAM latency; the counters keep it a hit, as ncu does.
 *  MSHR merge: a sector sent to L2 stays "outstanding" on its SM for the next
 *      `inflight_window` memory instructions of that SM; a non-allocating load that
 *      finds its sector outstanding is an L1 miss but sends nothing to L2 (measured:
 *      two back-to-back .cg loads -> 1 L2 request). This is as far as a sequential
 *      model goes: real merging depends on timing.
 *  Read coalescing (l2_read_coalescing; the Nsight Compute guide's L2 request coalescer, LRC,
 *      "tries to coalesce read requests before forwarding them to the L2 cache"): a load's L2 read
 *      request for one line that asks for exactly the sectors a request for that line asked for,
 *      sent by an SM of the same group (coalesce_group_sms consecutive SMs; block b runs on SM
 *      b % SMs) less than coalesce_window cycles before or after it, reaches L2 once: its sectors
 *      are L1 misses merged (no L2 request, sector or lookup) and fill the L1 as the data comes.
 *      The clocks are the block slots' (ws_cache_set_resident: block b runs in slot
 *      b / SMs % resident of its SM): each counts its blocks' global/local 128-B lines at
 *      l1_lines_per_cycle (the measured l1_wavefronts_per_cycle), from 0, block after block, so
 *      blocks running the same code send the same requests at the same clocks in every wave, apart
 *      by the drift below (a sampled run's lead waves coalesce as the full run's; its edge blocks, run alone, do not,
 *      so sim/sample.c scales by the L1 sectors where coalescing happened). H200 (results/h200-coalesce): 2
 *      and 4 one-warp blocks on 4 SMs reading the same lines coalesced into one stream at up to 500
 *      cycles apart (97 % at 4000), 16 into 10 streams (groups smaller than 16 SMs: the model's
 *      4-SM groups give 4); requests for half a line beside whole ones never coalesced;
 *      results/h200-corpus-detail/lrc.csv: L2 read sectors = the L1's xbar read sectors - the
 *      LRC's coalesced sectors in every corpus kernel. Drift: the coalescer sees each slot at its
 *      clock plus a random walk, one step of +-coalesce_drift x sqrt(dt) per access of dt cycles (the
 *      sign a hash of slot and step: the same at every -j), times sqrt(busy - 1), busy = the blocks an
 *      SM runs at once (min(resident, ceil(grid blocks / SMs))): each other block contending for the
 *      SM's schedulers and L1 delays it by its own amounts. Two slots in step drift apart by
 *      drift x sqrt(2 (busy - 1) t) after t cycles, beyond the window after about
 *      window^2 / (2 (busy - 1) drift^2) cycles (the H200: 320 with 8 blocks per SM, 200 with 12).
 *      Bulk copies (TMA, cp.async.bulk) step by coalesce_drift_bulk: the TMA unit sends a copy's
 *      lines itself, per-thread copies and loads go out as the schedulers pick their warps. Fitted on results/h200-lrc-sizes (share of the L1's
 *      reads coalesced, mma_cp_async / mma_tma at 1024^3 and 2048^3: the GPU 23.6 / 9.6 % and 38 / 24 %,
 *      the model 24.5 / 10.7 % and 37.3 / 24.3 %, without drift 37.5 % at every size). A block alone on
 *      its SM does not drift: the corpus's 1-block-per-SM GEMMs (mmaBaseKernel, mma_direct, ...)
 *      coalesced every duplicate over 16-24 us. A sampled run's lead waves drift sqrt(grid / lead)
 *      times as far (ws_cache_set_drift_scale), as the grid's longer clocks would. Not modelled:
 *      where the GPU's scheduler puts a small grid's blocks, which changes from launch to launch
 *      (2-4-block GEMMs: all coalesced in one run, none in another), and a floor the long kernels
 *      keep (mma_cp_async at 4096^3: 9.2 %, the model 3.7 %); docs/memory-models.md "Read
 *      coalescing". Each sector keeps, per group, its line's last request that went to L2, which
 *      answers at most coalesce_max_requests (its own included; results/h200-lrc-map). A grid of fewer
 *      blocks than SMs has as groups the GPCs its blocks are placed in (placement: ws_device_block_gpc,
 *      results/h200-gemm-lrc), instead of coalesce_group_sms consecutive SMs.
 *  Stores: written through to L2 (one L2 request per 128-B line per request, every
 *      sector). Global stores never allocate in L1 (a present sector stays valid);
 *      local stores allocate full sectors (spills are re-read; an assumption).
 *  Store merging: a global store's sector stays pending on its SM for the next
 *      `inflight_window` memory instructions of that SM (counted from its first write,
 *      not extended by later ones); a global store by the same warp to a pending sector,
 *      writing none of the bytes the pending write carries, merges into it: its bytes
 *      reach L2 but no new L2 sector or request is counted (measured: 16 byte-stores
 *      STG.U8 over one warp's 16 sectors -> 2 L2 writes per sector, 8 -> 1, 4 -> 1;
 *      results/h200-tensorcore, tests/data/tensor/sass_forms.cu). Other warps' writes
 *      (a naive transpose's columns), rewrites of the same bytes and local stores do not
 *      merge (results/h200.json). A rule fitted to those recordings, not documented.
 *      The window is the SM's instructions, which the warps it runs at once (its busy
 *      blocks x ws_cache_set_block_warps) take in turn, while the interpreter runs a warp's
 *      slice alone: a store of the warp d of its own instructions later merges while
 *      d x warps < inflight_window. So a C fragment's second half-sector store, d = 1,
 *      merges at 4 warps (mma_ldmatrix_*, mma_cp_async: half the 4096 sectors written, as
 *      measured) and not at 8 (myHGEMMAlignedV1-5: all 8192 written; div_return_taken's
 *      two stores: all 1280).
 *  Atomics/reductions on global memory are performed at L2 (read-modify-write of
 *      each sector; L1 bypassed).
 *  L2  device size, 128-B lines, sectored, set-associative LRU, write-back. A read
 *      miss fetches the dram_fetch_bytes-aligned block around each missing sector
 *      (32/64/128 B; only sectors not already present). Writes to an absent sector
 *      keep a byte mask: once every byte is written the sector is whole and needs no
 *      read. A sector still only partly written when it is evicted is read from DRAM
 *      first when ECC is on (ecc_read_bytes), then written back: measured on the H200,
 *      4-B-per-sector stores read DRAM when streamed through a 256 MiB buffer (App. F)
 *      but not when the output stays in L2 (stride-2 copy of 2 MB: no extra read).
 *      A read of a partly written sector fetches it and merges. Dirty sectors are
 *      written to DRAM when evicted; what is still dirty at kernel end is counted
 *      separately (ncu does not see it in the kernel).
 *  Dirty limit: the L2 keeps at most l2_dirty_limit bytes of dirty sectors; a write that
 *      goes beyond it writes the line dirtied longest ago back (a partly written sector
 *      read first under ECC, then whole); the line stays, clean. Measured: writing B bytes
 *      wrote B - 0.432 x l2_bytes during the kernel for B = 32..512 MB (results/h200-l2dram).
 *  Partial writes: of the lines that took a partly written sector, in that order, the
 *      newest l2_partial_lines keep byte masks; older ones have those sectors read (ECC,
 *      when on) and become whole, still dirty; those beyond l2_partial_writeback_lines are
 *      written back (fitted on the probe's partial outputs: 0.125 and 0.27 x the L2's lines).
 *  Partitions: with P > 1 L2 partitions each caching what its SMs use, a line homed in
 *      another partition is held twice, so a stream that touches every line fits
 *      l2_bytes x P / (2P - 1) distinct bytes: the LRU structure is that size (a copy of B
 *      bytes kept 21-24 MB dirty at the end where writes alone kept 27.2: 2/3 of 62.9 MB
 *      split between reads and writes is 21.0).
 *  Far lookups (l2_far_lookups): a read from an SM whose partition is not the line's home is
 *      looked up in the SM's partition first, in its copy of the line (far_valid, a subset of
 *      the home's sectors): a hit is a hit; a miss (promoted, counted in the read lookup
 *      misses as a home miss is) goes over the L2 fabric to the home, which hits or fetches
 *      from DRAM as usual, and the copy takes the sectors. So DRAM reads are unchanged; a line
 *      the home side read first and the far side later misses twice (the extra miss counted
 *      in l2_far_miss_sectors), one the far side read first once (its fetch filled the home).
 *      Stores from the home side drop the far copy's sector, atomics (performed at the home)
 *      too. Both maps are stand-ins (undocumented): an SM's partition the parity of its read
 *      coalescer group's number's bits (its TPC's without coalescing), a line's home the parity
 *      of its line number's bits. results/h200-inflight contradicts both (the sides go by GPC,
 *      homes are no parity) and the far-side-first rule (the second side misses again on 81 %
 *      of the lines whichever homes them); the mechanism itself it confirms.
 *  Launch fetches: what a launch reads from DRAM besides its data when the caches
 *      start empty (as under ncu's --cache-control all): the machine code in the profile's
 *      code_fetch_block_bytes blocks plus launch_fetch_base_bytes (constant bank 0 and the
 *      rest), fitted on the H200 (ws_cache_launch_fetch_bytes; not an L1TEX source, so no
 *      lts__t_*_srcunit_tex sector).
 *  DRAM access shape: each DRAM transfer of a line is an access, counted with its bytes, the
 *      bytes it falls short of dram_min_access_bytes, and whether it opens a row: rows are the
 *      aligned dram_row_bytes of addresses, a row's bank its number hashed modulo dram_banks, each
 *      bank holding the row it last opened (a stand-in for the undocumented address map). The
 *      timing model turns these into DRAM time; no ncu counter is changed.
 *  Set index: line number xor-folded, modulo the set count (the real hash is
 *  undocumented; folding avoids power-of-two strides all landing in one set). */
#ifndef WS_CACHE_H
#define WS_CACHE_H

#include <stdint.h>

#include "../../common/device.h"
#include "coalesce.h"
#include "../interp/event.h"

typedef enum {
    WS_SECT_NONE = 0,
    WS_SECT_L1_HIT,    /* served by this SM's L1 */
    WS_SECT_MERGED,    /* L1 miss merged into an outstanding miss: no new L2 traffic */
    WS_SECT_L2_HIT,    /* read (or atomic) found the sector in L2 */
    WS_SECT_DRAM,      /* read (or atomic) missed L2: fetched from DRAM */
    WS_SECT_WRITE,     /* store: written through to L2 */
    WS_SECT_L2_FAR     /* read missed the partition its SM's requests enter, hit the line's home
                          partition over the L2 fabric (no DRAM) */
} ws_sector_outcome;

const char *ws_sector_outcome_name(ws_sector_outcome o); /* "L1 hit" */

typedef struct {
    int sm_count;
    uint32_t l1_bytes;        /* per SM; 0 = no L1 caching */
    int l1_ways;              /* 0 = default (16) */
    uint32_t l2_bytes;
    int l2_ways;              /* 0 = default (16) */
    int dram_fetch_bytes;     /* 32, 64 or 128 */
    int ecc;
    int inflight_window;      /* memory instructions per SM a miss (or a store's sector) stays outstanding */
    int fill_window;          /* memory instructions per SM a DRAM fill stays in flight for the latency (0 = off) */
    double l1_lines_per_cycle; /* the SMs' clocks: 128-B lines of global/local accesses the L1 serves per cycle */
    int read_coalescing;      /* 1: identical read requests of SMs of one group within the window reach L2 once */
    int coalesce_group_sms;   /* read coalescing: consecutive SMs per coalescer group (0 = one group of all) */
    double coalesce_window;   /* read coalescing: block-slot clock cycles two requests may be apart (< 1 = 1) */
    int coalesce_max_requests; /* read coalescing: requests one coalesced request answers, its own included (0 = any) */
    const ws_device *placement; /* read coalescing: a grid of fewer blocks than SMs has the GPCs this profile's
                                 scheduler puts its blocks in as groups (ws_device_block_gpc); NULL = none */
    double coalesce_drift;    /* read coalescing: each block slot's clock drifts by a random walk of this many
                                 cycles per sqrt(cycle) it runs (0 = none); per-thread requests */
    double coalesce_drift_bulk; /* the same for bulk copies (TMA, cp.async.bulk) */
    int atom_sector_rule;     /* WS_ATOM_SECTORS_* (device.h): an atomic's L2 sectors; 0 = distinct */
    uint64_t l2_dirty_limit;  /* dirty L2 bytes kept; beyond, the oldest-dirtied line is written back (0 = none) */
    int l2_partitions;        /* 0/1: one; P: distinct lines held = l2_bytes x P / (2P - 1) (far lines cached twice) */
    int l2_far_lookups;       /* a read from an SM of another partition than the line's home is looked up
                                 there first (cache.h "Partitions"); needs l2_partitions > 1 */
    uint64_t l2_partial_lines;           /* lines keeping partly written sectors as byte masks (0 = no limit) */
    uint64_t l2_partial_writeback_lines; /* lines with partial writes kept before write-back (>= the above) */
    int dram_min_access_bytes;           /* DRAM access shape (device.h): 0 = not counted */
    int dram_row_bytes, dram_banks;      /* 0 = no row model */
} ws_cache_config;

/* Fills cfg from a device profile and an L1 size (see ws_memstats_new): the dirty limit is
 * dev->l2_dirty_fraction x l2_bytes, the partial-write limits dev->l2_partial_*_fraction x the
 * L2's lines (l2_bytes / 128). */
void ws_cache_config_from_device(ws_cache_config *cfg, const ws_device *dev, uint32_t l1_bytes);

/* What one access did. */
typedef struct {
    int l1_hit_sectors, l1_miss_sectors;    /* loads only (global and local) */
    int l1_st_hit_sectors;                  /* stores: sectors found valid in L1 (updated in place) */
    int st_sectors;                         /* stores: sectors looked up (every one, merged or not) */
    int merged_sectors;
    int st_merged_sectors;                  /* stores merged into a pending write (no L2 sector) */
    int l2_requests, l2_sectors;            /* sent to L2: read, write or atomic per op */
    int l2_partial_sectors;                 /* stores: of l2_sectors, those carrying fewer than 32 bytes */
    int l2_hit_inflight_sectors;            /* of the L2 hits: sectors whose DRAM fetch (by this SM, within
                                               fill_window of its memory instructions, brought in
                                               unasked) is still in flight: latency only */
    int l2_hit_sectors, l2_miss_sectors;    /* read/atomic lookups: requested sectors found; sectors
                                               fetched on a miss (promoted to the fetch granularity,
                                               as ncu counts lookup misses, §4.1) */
    int l2_far_miss_sectors;                /* of the misses: far-side lookups the home partition served
                                               over the L2 fabric (no DRAM fetch) */
    uint64_t dram_read_bytes;               /* fills caused by this access (incl. ECC reads of victims) */
    uint64_t ecc_read_bytes;                /* of which: reads of partly written victims (ECC) */
    uint64_t dram_write_bytes;              /* write-backs of dirty victims evicted now */
    uint8_t outcome[WS_COALESCE_MAX_ENTRIES]; /* ws_sector_outcome per coalesce entry */
} ws_cache_access;

typedef struct {
    uint64_t l1_global_ld_hit, l1_global_ld_miss;   /* sectors */
    uint64_t l1_local_ld_hit, l1_local_ld_miss;
    uint64_t merged_sectors;
    uint64_t coalesced_sectors;                     /* of those, coalesced with another SM's request (LRC) */
    uint64_t st_merged_sectors;                     /* store sectors merged into a pending write */
    uint64_t l1_st_sectors, l1_st_hit_sectors;      /* global and local store sectors looked up in L1 */
    uint64_t l2_read_requests, l2_read_sectors;
    uint64_t l2_read_hit_sectors, l2_read_miss_sectors; /* miss = sectors fetched (promoted) */
    uint64_t l2_far_miss_sectors;                   /* of the misses: served by the home partition (fabric) */
    uint64_t l2_write_requests, l2_write_sectors;
    uint64_t l2_write_partial_sectors;              /* of those, sent with fewer than 32 bytes (by the
                                                       store's own bytes; a merged store's added later) */
    uint64_t l2_atom_requests, l2_atom_sectors;     /* atomics and reductions */
    uint64_t dram_read_bytes;        /* read-miss fills + ECC partial-write reads */
    uint64_t dram_fill_bytes;        /* read-miss fills only */
    uint64_t ecc_read_bytes;
    uint64_t dram_write_bytes;       /* write-backs during the kernel (evictions and the dirty limit) */
    uint64_t dirty_limit_write_bytes; /* of which: lines cleaned by the dirty limit (still resident) */
    uint64_t partial_writeback_bytes; /* of which: lines with partial writes cleaned by their limit */
    uint64_t partial_fill_bytes;     /* ECC reads completing lines beyond l2_partial_lines (in ecc_read_bytes) */
    uint64_t dirty_at_end_bytes;     /* still dirty in L2 after ws_cache_finish */
    uint64_t partial_lines;          /* lines that took a partly written sector (the partial-write FIFO's entries) */
    uint64_t partial_pending_bytes;  /* after ws_cache_finish: partly written sectors never read (byte masks) */
    /* DRAM access shape (timing only; docs/timing-model.md "Scattered DRAM access"): every DRAM
     * transfer of one line (a fill, an ECC read, a write-back) is one access */
    uint64_t dram_access_bytes;      /* the bytes of those accesses (read + write, the launch fetch not) */
    uint64_t dram_short_bytes;       /* sum over accesses of dram_min_access_bytes - its bytes, where positive */
    uint64_t dram_accesses;          /* accesses */
    uint64_t dram_row_opens;         /* accesses to a row other than the one open in its bank */
    uint64_t l2_cold_allocations;    /* lines allocated into an empty L2 way: with an L2 left full of
                                        dirty data by an earlier kernel (a memset flush, a pipeline)
                                        each would have written back a 128-B line first */
} ws_cache_totals;

typedef struct ws_cache ws_cache;

/* The distinct bytes the modelled L2 holds: l2_bytes x P / (2P - 1) for P partitions, rounded
 * down to whole lines (62,914,560 and 2 -> 41,943,040). */
uint64_t ws_cache_l2_lru_bytes(uint64_t l2_bytes, int partitions);

/* NULL on a bad configuration or out of memory. */
ws_cache *ws_cache_new(const ws_cache_config *cfg);
void ws_cache_free(ws_cache *c);

/* Runs one coalesced global/local access of SM `sm` through L1, L2 and DRAM.
 * co must come from ws_coalesce(ev, ...). Returns 0; -1 for a bad sm or a space
 * other than global/local (nothing counted). */
int ws_cache_access_event(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                          ws_cache_access *out);

/* ws_cache_access_event in two halves, for threads (sim/split.c): the front is what SM `sm`'s own
 * tables decide (its L1 lookups and fills, its outstanding misses and pending stores, its memory
 * instruction count), the back the rest (the L2 request coalescer, L2, DRAM, the block slots'
 * clocks, the totals) from the front's answer. ws_cache_access_front(e1) ... then ws_cache_access_back(e1) ...
 * give what ws_cache_access_event(e1), ... gives, provided each SM's fronts come in the order its
 * accesses do and the backs in the order of all accesses: a block's L1 traffic depends only on
 * its SM's L1. Fronts of different SMs may run at once on different threads; a back runs alone. */
typedef struct {
    int rc;                  /* 0, or -1: ws_cache_access_event's -1 (the back returns it) */
    uint64_t now;            /* the SM's memory instructions, this one included */
    int ngroups;             /* the access's L2 requests at most: its (request, 128-B line) groups */
    int st_hit, st_merged, st_partial; /* stores: sectors found in L1, merged into a pending write,
                                          sent with fewer than 32 bytes */
    /* per group, in entry order: loads: the sectors L1 hit (bits 0-3) and those that go on to L2
     * (bits 4-7; the rest merged into this SM's outstanding misses); stores: 1 when a sector leaves
     * as a new L2 write; atomics: 0 */
    uint8_t g[WS_COALESCE_MAX_ENTRIES];
    uint8_t gn[WS_COALESCE_MAX_ENTRIES]; /* per group: its entries (1-4: the sectors of one line) */
} ws_cache_front;

int ws_cache_access_front(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co, ws_cache_front *f);
int ws_cache_access_back(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co, const ws_cache_front *f,
                  ws_cache_access *out);

/* A hint to the host's caches for an access whose back (ws_cache_access_back) comes a few accesses
 * later: the replay knows its next records (sim/split.c). Stage 0, the farther, asks for the L2 sets'
 * sig bytes and stamps and a load's request slots; stage 1, nearer, reads those and asks for the L2
 * line each of its lines will use (the one holding it, or the way an allocation would take now).
 * entries, n: the access's coalesced sectors, n ws_sector_entry as ws_coalesce_result.entries holds them
 * (at any alignment: a record's bytes); op: WS_MEM_*. Changes nothing. */
void ws_cache_prefetch(const ws_cache *c, int sm, uint32_t block_linear, int op, const void *entries, int n,
                       int stage);

/* Blocks resident per SM at once (default 1): block b runs in slot b / sm_count % blocks_per_sm of
 * SM b % sm_count, and each slot keeps its own clock for read coalescing (cache.h "Read
 * coalescing"). Call before the first access; the slots' clocks restart at 0. -1: out of memory. */
int ws_cache_set_resident(ws_cache *c, int blocks_per_sm);

/* The launch's blocks (default 0: one per SM): with blocks_per_sm, how many blocks an SM runs at
 * once, which sets read coalescing's drift (cache.h "Read coalescing"). */
void ws_cache_set_grid_blocks(ws_cache *c, uint64_t blocks);

/* Warps per block (default 1): with the blocks an SM runs at once, the warps whose memory
 * instructions interleave on it, which shortens store merging's window (cache.h "Store merging"). */
void ws_cache_set_block_warps(ws_cache *c, int warps);

/* Multiplies read coalescing's drift (default 1): a sampled run of the first L of the grid's G
 * blocks gives sqrt(G / L), so its slots' walks spread as far as the full run's longer clocks'
 * (a random walk's spread is sigma x sqrt(cycles)); it applies from the next access on. */
void ws_cache_set_drift_scale(ws_cache *c, double scale);

/* What reaches the cache model of one block, one call per (access, 128-B line) in the order the
 * accesses come, before L1 (its hits, merges and read coalescing depend on other blocks): the
 * access's pc, the sectors read (loads, atomics) and written (stores, atomics), bytes[s] the bytes of written
 * sector s (0 for a sector not written); rd's bits 4-7 are the sectors of a load that allocates
 * in L1 (global loads but .cg/.cs/.cv, local loads). For block sampling's replays (sim/sample.h). */
typedef void (*ws_cache_trace_fn)(void *ctx, uint32_t block_linear, uint32_t pc, uint64_t line, uint8_t rd,
                                  uint8_t wr, const uint32_t bytes[4]);
/* Calls fn for every access from now on (NULL: none, the default). */
void ws_cache_set_trace(ws_cache *c, ws_cache_trace_fn fn, void *ctx);

/* One access of a replayed stream straight into L2 (no L1, no coalescing, the near side only):
 * reads rd's sectors of `line` (a miss fetches as l2_read does), then writes wr's with bytes[s];
 * write-backs, the dirty limit and partial writes as in a run. For a cache of its own (the
 * replay's end state is what ws_cache_finish counts then). Returns 1 when the line was allocated
 * (absent before), else 0. */
int ws_cache_replay(ws_cache *c, uint64_t line, uint8_t rd, uint8_t wr, const uint32_t bytes[4]);

/* One access of a replayed stream through SM 0's L1 alone (rd, wr as ws_cache_trace_fn gives
 * them): an L1-allocating load's sectors (rd >> 4) hit where valid and fill the rest, an atomic's
 * invalidate, a store changes nothing (write-through: a present sector is updated in place).
 * Returns the sectors that hit. For a cache of its own (block sampling's L1 replay). */
int ws_cache_replay_l1(ws_cache *c, uint64_t line, uint8_t rd, uint8_t wr);

/* Ends the kernel: counts the dirty L2 sectors (dirty_at_end_bytes). Idempotent. */
void ws_cache_finish(ws_cache *c);

const ws_cache_totals *ws_cache_get_totals(const ws_cache *c);

/* The bytes a launch of a kernel with code_bytes of machine code reads from DRAM besides its
 * data, the caches starting empty: code_bytes rounded up to dev->code_fetch_block_bytes, plus
 * dev->launch_fetch_base_bytes. 0 where the profile models none (both 0).
 * Example (H200: 256, 2304): 512 B of SASS -> 2816 B. */
uint64_t ws_cache_launch_fetch_bytes(const ws_device *dev, uint64_t code_bytes);

#endif
