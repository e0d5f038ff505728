/* cache.c - L1/L2/DRAM model (the rules and assumptions are in cache.h).
 * One sectored set-associative LRU structure serves both levels; lines carry a
 * 4-bit valid mask and a 4-bit dirty mask (a dirty-but-invalid sector is a
 * partial write kept without its other bytes, possible only when ECC is off). */
#include "cache.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SECTORS_PER_LINE 4
#define SCACHE_MEMO_BITS 10
#define SCACHE_MEMO (1u << SCACHE_MEMO_BITS) /* lines the L2 remembers the way of (scache.memo) */
#define PREFETCH_AHEAD 8    /* FIFO entries ahead whose L2 lines are prefetched (partial_prefetch) */
#define PREFETCH_MAX_ENTRIES 8 /* ws_cache_prefetch: accesses of more sectors are left to the host (a column
                                  store's 32 lines come again in the next warps: in the host's caches) */
#define INFLIGHT_SLOTS 1024 /* per SM, direct-mapped by sector */
#define FILL_SLOTS (1u << 20)  /* the read requests sent, direct-mapped by sector and group: 32 MB of
                                  sectors, so a block's requests are still there when the next block
                                  of its group repeats them (blocks run one after another) */

typedef struct {
    uint64_t tag;    /* line number + 1; 0 = none */
    uint64_t idx;    /* the way (an index into lines) holding it */
} memo_entry;

typedef struct {
    uint64_t tag;    /* line number + 1; 0 = empty */
    uint8_t valid;   /* sector bits */
    uint8_t dirty;
    uint8_t far_valid; /* L2: sectors the other partition's copy holds (far lookups; within valid) */
    uint32_t wmask[4]; /* L2: bytes written so far of a dirty sector that is not valid */
    uint32_t epoch;  /* L2: which dirty-FIFO entry is this line's (0 = none) */
    uint32_t pepoch; /* L2: which partial-write FIFO entry is this line's (0 = none) */
    uint32_t fill_at; /* L2: the fetching SM's memory-instruction count at its last DRAM fetch */
    uint16_t fill_sm; /* L2: that SM */
    uint8_t fill_extra; /* L2: sectors that fetch brought in unasked (the fetch granularity) */
} cline;

typedef struct {
    uint32_t nsets, ways;
    uint64_t clock;
    cline *lines;    /* nsets * ways */
    void *mem;       /* the three tables in one zeroed block (table_alloc), NULL when carved
                        from the SMs' arena */
    size_t mem_bytes;
    uint64_t *stamps; /* nsets * ways: each line's last use, for LRU (0: the way is empty), packed:
                        the victim search read one host cache line per way */
    uint8_t *sig;    /* nsets * ways: a byte of each way's tag (tag_sig), 8 compared at once, so a
                        lookup reads the line of a way whose byte matches only: the line it needs
                        on a hit (a packed copy of the tags, read first, cost the replay of a
                        streaming kernel a host cache miss more per lookup; the sig bytes, 320 KB
                        at the H200's L2, stay in the host's caches) */
    memo_entry *memo; /* L2 only (NULL: none): SCACHE_MEMO lines found or allocated lately, by memo_slot
                        of their line number, each with its way, so that a line found again needs no
                        set hash (a division) nor sig compare: a column store's 32 lines come again
                        in each of its block's warps. An entry is dropped when its way is evicted
                        (scache_alloc), so each one names the way that holds its tag */
} scache;

static inline uint32_t memo_slot(uint64_t line) { return (uint32_t)((line * 0xD6E8FEB86659FD93ull) >> (64 - SCACHE_MEMO_BITS)); }

/* The byte of a tag that scache_find compares first (any function of the tag: a match is checked
 * on the tag itself). */
static inline uint8_t tag_sig(uint64_t tag) { return (uint8_t)((tag * 0x9E3779B97F4A7C15ull) >> 56); }

typedef struct {
    uint64_t sector; /* sector number + 1; 0 = empty */
    uint64_t expiry; /* outstanding while the SM's instruction count < expiry */
    uint32_t warp;   /* store merging: the warp (warp_global) whose write is pending */
    uint32_t bytes;  /* store merging: the bytes of the sector that write carries */
} inflight;

/* A read request sent to L2, kept per sector it asked for and per group of SMs (cache.h "Read
 * coalescing"). */
typedef struct {
    uint64_t line;   /* line number + 1; 0 = empty */
    double sent;     /* the sending block slot's clock (cycles) when it went */
    uint32_t group;  /* the coalescer group of the SM that sent it */
    uint16_t sm;     /* the SM that sent it: the coalescer merges only other SMs' requests with it */
    uint8_t mask;    /* the sectors of the line it asked for */
    uint8_t merged;  /* requests the coalescer answered with it since (coalesce_max_requests) */
} fill;

/* A block slot's clock (cache.h "Read coalescing"): the cycles its blocks' L1 lines took, and how
 * far its requests have drifted from that by then (a random walk, one step per access). */
typedef struct {
    double clock;    /* cycles: its blocks' global/local 128-B lines at l1_lines_per_cycle */
    double drift;    /* cycles the coalescer sees it ahead (+) or behind (-) of its clock */
    uint64_t steps;  /* accesses so far: the walk's step number */
} slot_clock;

typedef struct {
    scache l1;
    uint64_t now;    /* memory instructions seen by this SM */
    inflight *mshr;  /* INFLIGHT_SLOTS: load misses outstanding */
    inflight *wpend; /* INFLIGHT_SLOTS: store sectors pending (write merging) */
} sm_state;

typedef struct {
    uint32_t idx, epoch; /* an L2 line slot and the epoch it had when it became dirty */
} dirty_entry;

struct ws_cache {
    ws_cache_config cfg;
    scache l2;
    /* dirty limit: the L2's dirty bytes and its lines in the order they became dirty (a ring;
     * an entry whose line was evicted or cleaned since has a stale epoch and is skipped) */
    uint64_t dirty_bytes;
    dirty_entry *fifo;
    size_t fcap, fhead, fcount;
    uint32_t epoch;
    /* partial writes: lines in the order they first took a partly written sector; the newest
     * l2_partial_lines keep byte masks, older ones are completed (ECC read), those older than
     * l2_partial_writeback_lines written back. Sequence numbers; the ring holds the last
     * l2_partial_writeback_lines + 1 */
    dirty_entry *pfifo;
    uint64_t pcap, ptail, pmid, phead;
    uint32_t pepoch;
    uint64_t *open_row; /* per DRAM bank: the row open there + 1 (0 = none); NULL = no row model */
    sm_state **sms;  /* lazily created */
    unsigned char *sm_arena; /* every SM's tables, zeroed, sm_bytes each (table_alloc); NULL: each
                                SM allocates its own */
    size_t sm_bytes;
    int resident;    /* blocks per SM at once: the block slots whose clocks read coalescing compares */
    int block_warps; /* warps per block (default 1): with the blocks an SM runs at once, the warps whose
                        memory instructions interleave on it (store merging's window) */
    slot_clock *clocks; /* sm_count x resident: each block slot's clock (its blocks' L1 lines in turn) */
    uint64_t grid_blocks; /* the launch's blocks (0 = unknown: one per SM); read coalescing's drift */
    int small_grid;       /* 1: fewer blocks than SMs, placed by cfg.placement: block_gpc holds their GPCs */
    uint8_t block_gpc[256]; /* a small grid's blocks' GPCs (ws_device_block_gpc), set with the grid */
    double drift_scale;   /* the drift's multiplier (1; a sampled run's sqrt(grid / lead blocks)) */
    fill *fills;     /* FILL_SLOTS: the read requests sent, per sector and group (NULL: no coalescing) */
    ws_cache_trace_fn trace; /* ws_cache_set_trace (NULL: none) */
    void *trace_ctx;
    ws_cache_totals t;
    int finished;
};

const char *ws_sector_outcome_name(ws_sector_outcome o)
{
    switch (o) {
    case WS_SECT_L1_HIT: return "L1 hit";
    case WS_SECT_MERGED: return "merged miss";
    case WS_SECT_L2_HIT: return "L2 hit";
    case WS_SECT_DRAM: return "DRAM";
    case WS_SECT_WRITE: return "write";
    case WS_SECT_L2_FAR: return "far L2 miss";
    default: return "none";
    }
}

void ws_cache_config_from_device(ws_cache_config *cfg, const ws_device *dev, uint32_t l1_bytes)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->sm_count = dev->sm_count;
    cfg->l1_bytes = l1_bytes;
    cfg->l2_bytes = dev->l2_bytes;
    cfg->dram_fetch_bytes = dev->dram_fetch_bytes;
    cfg->ecc = dev->ecc;
    cfg->inflight_window = 8;
    cfg->l1_lines_per_cycle = dev->l1_wavefronts_per_cycle > 0 ? dev->l1_wavefronts_per_cycle : 1;
    cfg->read_coalescing = dev->l2_read_coalescing;
    cfg->coalesce_group_sms = dev->l2_coalesce_group_sms;
    cfg->coalesce_window = dev->l2_coalesce_window_cycles;
    cfg->coalesce_max_requests = dev->l2_coalesce_max_requests;
    cfg->placement = dev;
    cfg->coalesce_drift = dev->l2_coalesce_drift;
    cfg->coalesce_drift_bulk = dev->l2_coalesce_drift_bulk;
    cfg->fill_window = dev->max_warps_per_sm > 0 ? dev->max_warps_per_sm : 0;
    cfg->atom_sector_rule = dev->atom_sector_rule;
    cfg->l2_dirty_limit = dev->l2_dirty_fraction > 0 ? (uint64_t)(dev->l2_dirty_fraction * (double)dev->l2_bytes) : 0;
    cfg->l2_partitions = dev->l2_partitions;
    cfg->l2_far_lookups = dev->l2_partitions > 1;
    cfg->dram_min_access_bytes = dev->dram_min_access_bytes;
    cfg->dram_row_bytes = dev->dram_row_bytes;
    cfg->dram_banks = dev->dram_banks;
    if (dev->l2_partial_fraction > 0 && dev->l2_partial_writeback_fraction >= dev->l2_partial_fraction) {
        double lines = (double)(dev->l2_bytes / WS_LINE_BYTES);
        cfg->l2_partial_lines = (uint64_t)(dev->l2_partial_fraction * lines);
        cfg->l2_partial_writeback_lines = (uint64_t)(dev->l2_partial_writeback_fraction * lines);
    }
}

uint64_t ws_cache_l2_lru_bytes(uint64_t l2_bytes, int partitions)
{
    if (partitions <= 1)
        return l2_bytes;
    uint64_t p = (uint64_t)partitions;
    return l2_bytes / WS_LINE_BYTES * p / (2 * p - 1) * WS_LINE_BYTES;
}

/* The models' large tables: zeroed memory that a run touches at random (the L2's 28 MB of lines,
 * stamps and sig bytes at the H200's 50 MB, and 132 SMs' L1s and pending-access tables, 23 MB), and
 * mostly all of it. From the heap each 4-KB page was a fault and a memset: 75% of a small catalog
 * kernel's page faults and a third of the catalog's CPU time in the kernel. Blocks of 2 MB and
 * more are mapped on their own, 2-MB aligned, with transparent huge pages asked for (one fault
 * zeroes 2 MB; where THP is off it is the same 4-KB faults, without the memset). */
#define TABLE_HUGE ((size_t)2 << 20)

static size_t table_round(size_t bytes) { return (bytes + TABLE_HUGE - 1) / TABLE_HUGE * TABLE_HUGE; }

static void *table_alloc(size_t bytes)
{
    if (bytes < TABLE_HUGE)
        return calloc(1, bytes ? bytes : 1);
    size_t len = table_round(bytes);
    unsigned char *p = mmap(NULL, len + TABLE_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t head = (TABLE_HUGE - (size_t)((uintptr_t)p % TABLE_HUGE)) % TABLE_HUGE;
    if (head)
        munmap(p, head);
    if (TABLE_HUGE - head)
        munmap(p + head + len, TABLE_HUGE - head);
#ifdef MADV_HUGEPAGE
    madvise(p + head, len, MADV_HUGEPAGE);
#endif
    return p + head;
}

static void table_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < TABLE_HUGE)
        free(p);
    else
        munmap(p, table_round(bytes));
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* The geometry of a cache of `bytes` (ways: 0 = 16) and the bytes of its three tables. */
static size_t scache_shape(uint64_t bytes, int ways, uint32_t *nsets, uint32_t *nways)
{
    uint64_t nlines = bytes / WS_LINE_BYTES;
    *nsets = *nways = 0;
    if (!nlines)
        return 0; /* no cache: every lookup misses, nothing allocates */
    if (ways <= 0)
        ways = 16;
    if ((uint64_t)ways > nlines)
        ways = (int)nlines;
    *nways = (uint32_t)ways;
    *nsets = (uint32_t)(nlines / (uint64_t)ways);
    size_t n = (size_t)*nsets * *nways;
    return align64(n * sizeof(cline)) + align64(n * sizeof(uint64_t)) + align64(n);
}

/* mem: zeroed storage of scache_shape's bytes to carve the tables from, or NULL to allocate them. */
static int scache_init(scache *s, uint64_t bytes, int ways, unsigned char *mem)
{
    memset(s, 0, sizeof *s);
    size_t need = scache_shape(bytes, ways, &s->nsets, &s->ways);
    if (!need)
        return 0;
    if (!mem) {
        if (!(mem = table_alloc(need)))
            return -1;
        s->mem = mem;
        s->mem_bytes = need;
    }
    size_t n = (size_t)s->nsets * s->ways;
    s->lines = (cline *)mem;
    s->stamps = (uint64_t *)(mem + align64(n * sizeof(cline)));
    s->sig = mem + align64(n * sizeof(cline)) + align64(n * sizeof(uint64_t));
    return 0;
}

static void scache_free(scache *s)
{
    table_free(s->mem, s->mem_bytes);
    free(s->memo);
}

/* The first way of the set that holds `line` (an index into lines, stamps and sig). */
static inline size_t scache_set(const scache *s, uint64_t line)
{
    uint64_t h = line ^ (line >> 17) ^ (line >> 29);
    return (size_t)(h % s->nsets) * s->ways;
}

/* The line holding `line`, or NULL. Touches LRU when found and touch != 0. */
static inline __attribute__((always_inline)) cline *scache_find(scache *s, uint64_t line, int touch)
{
    if (!s->nsets)
        return NULL;
    uint64_t want = line + 1;
    memo_entry *memo = s->memo ? &s->memo[memo_slot(line)] : NULL;
    if (memo && memo->tag == want) {
        if (touch)
            s->stamps[memo->idx] = ++s->clock;
        return &s->lines[memo->idx];
    }
    size_t at = scache_set(s, line);
    cline *set = s->lines + at;
    if (s->ways % 8 == 0) { /* 8 ways' bytes at a time: the ways whose byte is the tag's */
        uint64_t rep = 0x0101010101010101ull * tag_sig(want);
        for (uint32_t base = 0; base < s->ways; base += 8) {
            uint64_t word;
            memcpy(&word, s->sig + at + base, 8);
            uint64_t x = word ^ rep;  /* a zero byte where the way's byte matches */
            /* exact zero-byte flags: (x & 0x7f..) + 0x7f.. sets the high bit of every nonzero low part */
            uint64_t zero = ~(((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x) & 0x8080808080808080ull;
            while (zero) {
                uint32_t i = base + (uint32_t)(__builtin_ctzll(zero) / 8);
                zero &= zero - 1;
                if (set[i].tag == want) {
                    if (touch)
                        s->stamps[at + i] = ++s->clock;
                    if (memo)
                        *memo = (memo_entry){want, at + i};
                    return &set[i];
                }
            }
        }
        return NULL;
    }
    for (uint32_t i = 0; i < s->ways; i++)
        if (set[i].tag == want) {
            if (touch)
                s->stamps[at + i] = ++s->clock;
            if (memo)
                *memo = (memo_entry){want, at + i};
            return &set[i];
        }
    return NULL;
}

/* Allocates `line` (must be absent) evicting the LRU way; *victim gets a copy of
 * what was evicted (tag 0 when the way was empty). NULL when the cache has no lines. */
static cline *scache_alloc(scache *s, uint64_t line, cline *victim)
{
    memset(victim, 0, sizeof *victim);
    if (!s->nsets)
        return NULL;
    size_t at = scache_set(s, line);
    const uint64_t *stamp = s->stamps + at;
    uint32_t w = 0;
    uint64_t oldest = stamp[0];  /* stamp[w], in a register: the loop is one compare per way */
    for (uint32_t i = 0; i < s->ways; i++) {
        if (!stamp[i]) {  /* empty: a way in use has a stamp from 1 on */
            w = i;
            break;
        }
        if (stamp[i] < oldest) {
            oldest = stamp[i];
            w = i;
        }
    }
    cline *v = &s->lines[at + w];
    *victim = *v;
    if (s->memo && v->tag && s->memo[memo_slot(v->tag - 1)].tag == v->tag)
        s->memo[memo_slot(v->tag - 1)].tag = 0;   /* it named this way */
    memset(v, 0, sizeof *v);
    v->tag = line + 1;
    s->sig[at + w] = tag_sig(v->tag);
    s->stamps[at + w] = ++s->clock;
    if (s->memo)
        s->memo[memo_slot(line)] = (memo_entry){v->tag, at + w};
    return v;
}

/* An SM's tables in the arena: its L1's, then the MSHR and pending-write tables. */
static size_t sm_table_bytes(const ws_cache_config *cfg)
{
    uint32_t nsets, nways;
    return align64(scache_shape(cfg->l1_bytes, cfg->l1_ways, &nsets, &nways)) + 2 * align64(INFLIGHT_SLOTS * sizeof(inflight));
}

ws_cache *ws_cache_new(const ws_cache_config *cfg)
{
    if (cfg->sm_count <= 0 || cfg->sm_count > 4096)
        return NULL;
    if (cfg->dram_fetch_bytes != 32 && cfg->dram_fetch_bytes != 64 && cfg->dram_fetch_bytes != 128)
        return NULL;
    ws_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cfg = *cfg;
    c->sms = calloc((size_t)cfg->sm_count, sizeof *c->sms);
    c->sm_bytes = sm_table_bytes(cfg);
    c->sm_arena = table_alloc(c->sm_bytes * (size_t)cfg->sm_count); /* NULL: each SM its own */
    if (cfg->l2_partial_lines && cfg->l2_partial_writeback_lines >= cfg->l2_partial_lines) {
        c->pcap = cfg->l2_partial_writeback_lines + 1;
        c->pfifo = calloc((size_t)c->pcap, sizeof *c->pfifo);
    }
    if (cfg->dram_row_bytes > 0 && cfg->dram_banks > 0)
        c->open_row = calloc((size_t)cfg->dram_banks, sizeof *c->open_row);
    if (cfg->read_coalescing)
        c->fills = table_alloc(FILL_SLOTS * sizeof *c->fills); /* 24 MB at random: huge pages */
    c->resident = 1;
    c->block_warps = 1;
    c->drift_scale = 1;
    c->clocks = calloc((size_t)cfg->sm_count, sizeof *c->clocks);
    if (!c->sms || !c->clocks || (cfg->read_coalescing && !c->fills) || (c->pcap && !c->pfifo) || (cfg->dram_row_bytes > 0 && cfg->dram_banks > 0 && !c->open_row) ||
        scache_init(&c->l2, ws_cache_l2_lru_bytes(cfg->l2_bytes, cfg->l2_partitions), cfg->l2_ways, NULL)) {
        ws_cache_free(c);
        return NULL;
    }
    if (c->l2.nsets)
        c->l2.memo = calloc(SCACHE_MEMO, sizeof *c->l2.memo); /* NULL: none, the same answers */
    return c;
}

void ws_cache_free(ws_cache *c)
{
    if (!c)
        return;
    if (c->sms)
        for (int i = 0; i < c->cfg.sm_count; i++)
            if (c->sms[i]) {
                scache_free(&c->sms[i]->l1);
                if (!c->sm_arena) {
                    free(c->sms[i]->mshr);
                    free(c->sms[i]->wpend);
                }
                free(c->sms[i]);
            }
    free(c->sms);
    table_free(c->sm_arena, c->sm_bytes * (size_t)c->cfg.sm_count);
    if (c->fills)
        table_free(c->fills, FILL_SLOTS * sizeof *c->fills);
    free(c->clocks);
    free(c->open_row);
    scache_free(&c->l2);
    free(c->fifo);
    free(c->pfifo);
    free(c);
}

static sm_state *get_sm(ws_cache *c, int sm)
{
    if (c->sms[sm])
        return c->sms[sm];
    sm_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (c->sm_arena) {
        unsigned char *m = c->sm_arena + (size_t)sm * c->sm_bytes;
        size_t inf = align64(INFLIGHT_SLOTS * sizeof(inflight));
        s->mshr = (inflight *)(m + c->sm_bytes - 2 * inf);
        s->wpend = (inflight *)(m + c->sm_bytes - inf);
        scache_init(&s->l1, c->cfg.l1_bytes, c->cfg.l1_ways, m);
        c->sms[sm] = s;
        return s;
    }
    s->mshr = calloc(INFLIGHT_SLOTS, sizeof *s->mshr);
    s->wpend = calloc(INFLIGHT_SLOTS, sizeof *s->wpend);
    if (!s->mshr || !s->wpend || scache_init(&s->l1, c->cfg.l1_bytes, c->cfg.l1_ways, NULL)) {
        free(s->mshr);
        free(s->wpend);
        scache_free(&s->l1);
        free(s);
        return NULL;
    }
    c->sms[sm] = s;
    return s;
}

static inflight *pend_slot(inflight *tab, uint64_t sector_no)
{
    return &tab[(sector_no ^ (sector_no >> 10)) % INFLIGHT_SLOTS];
}

static int pend_outstanding(const sm_state *s, inflight *tab, uint64_t sector_no)
{
    inflight *f = pend_slot(tab, sector_no);
    return f->sector == sector_no + 1 && s->now < f->expiry;
}

static void pend_add(ws_cache *c, const sm_state *s, inflight *tab, uint64_t sector_no)
{
    inflight *f = pend_slot(tab, sector_no);
    f->sector = sector_no + 1;
    f->expiry = s->now + (uint64_t)c->cfg.inflight_window;
}

static fill *fill_slot(const ws_cache *c, uint64_t sector_no, uint32_t group)
{
    uint64_t h = (sector_no ^ (sector_no >> 16)) + (uint64_t)group * 0x9E3779B97F4A7C15ull;
    return &c->fills[(h ^ (h >> 29)) % FILL_SLOTS];
}

/* The coalescer group of block b on SM sm: in a grid of fewer blocks than SMs, the GPC the device's
 * scheduler puts it in (ws_device_block_gpc: results/h200-gemm-lrc measured where such grids go);
 * otherwise coalesce_group_sms consecutive SMs (0: one group of all), a stand-in: with the GPCs of
 * the block's place in launch order there, the corpus GEMMs of 256-512 blocks coalesced so much that
 * their L2 reads came out 30-37 % under the GPU's (docs/memory-models.md "Read coalescing"). */
static uint32_t lrc_group(const ws_cache *c, int sm, uint32_t b)
{
    if (c->small_grid && b < c->grid_blocks)
        return c->block_gpc[b];
    return c->cfg.coalesce_group_sms > 0 ? (uint32_t)(sm / c->cfg.coalesce_group_sms) : 0;
}

/* One step of a slot's drift walk: dt more cycles on its clock move it sigma x sqrt(dt) ahead or
 * behind, the sign from a hash of (slot, step), so the walk is the same at every -j (the cache model
 * runs on one thread, in block order) and two slots' walks are independent. */
static void slot_drift(const ws_cache *c, slot_clock *k, size_t slot, int bulk, double dt)
{
    double sigma = bulk ? c->cfg.coalesce_drift_bulk : c->cfg.coalesce_drift;
    if (!c->fills || !(sigma > 0) || !(dt > 0))
        return;
    uint64_t h = ((uint64_t)slot << 40) ^ k->steps++;
    h += 0x9E3779B97F4A7C15ull; /* splitmix64 */
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    k->drift += (h & 1 ? sigma : -sigma) * sqrt(dt);
}

/* How far the coalescer sees a slot's walk take it: the walk x sqrt(busy - 1), busy = the blocks an
 * SM runs at once (its slots, or fewer where the grid has fewer blocks per SM): each other block
 * contending for the SM's issue slots and L1 adds its own delays; a block alone stays in step with
 * its partners (cache.h "Read coalescing"). x drift_scale: a sampled run's lead waves stand for
 * the grid's longer span (ws_cache_set_drift_scale). */
static uint64_t busy_blocks(const ws_cache *c)
{
    uint64_t per_sm = c->grid_blocks ? (c->grid_blocks + (uint64_t)c->cfg.sm_count - 1) / (uint64_t)c->cfg.sm_count : 1;
    return per_sm < (uint64_t)c->resident ? per_sm : (uint64_t)c->resident;
}

static double drift_factor(const ws_cache *c)
{
    uint64_t busy = busy_blocks(c);
    return busy > 1 ? sqrt((double)(busy - 1)) * c->drift_scale : 0;
}

/* Store merging's window in the warp's own memory instructions (cache.h "Store merging"): the
 * pending write lasts inflight_window of the SM's, and on the GPU the warps an SM runs at once take
 * turns, so a warp's next instruction is busy x block_warps of the SM's later. The interpreter runs a
 * warp's slice without the others between, so the SM's count here is the warp's own: a later store of
 * the warp d of them on merges while d x warps < inflight_window. */
static uint64_t store_warps(const ws_cache *c)
{
    return busy_blocks(c) * (uint64_t)(c->block_warps > 0 ? c->block_warps : 1);
}

/* warps: store_warps(c), once per access (its divisions were a tenth of a column store's front) */
static int store_pending(const ws_cache *c, const sm_state *s, const inflight *w, uint64_t sector_no, uint64_t warps)
{
    uint64_t win = (uint64_t)c->cfg.inflight_window, at = w->expiry - win;
    return w->sector == sector_no + 1 && s->now < w->expiry && (s->now - at) * warps < win;
}

/* A read request for `want` (sectors of `line`) from an SM of `group` at block-slot time `t` (its
 * clock plus its drift, as the coalescer sees it) is identical to one an SM of the same group sent
 * within the window (|t - sent| < coalesce_window, at least one cycle): the L2 request coalescer
 * forwards the first and answers both. Each block slot's clock counts its blocks' L1 lines from 0,
 * block after block, so blocks running the same code send the same requests at the same clocks in
 * every wave, apart by their slots' drift (slot_drift). A request for other sectors of
 * the line is not coalesced (saxpy_block13's neighbouring blocks share sectors in requests that
 * differ: every one reached L2; the probe's half lines beside whole ones: none coalesced). Each
 * sector keeps, per group, its line's last request that went to L2 (a coalesced one leaves the
 * first's clock: the window counts from the request that went). A request of the SM that sent that
 * one goes to L2 (and becomes the one kept): one SM's requests do not merge with each other here
 * (results/h200-drift: a block's re-reads of its own lines 8 iterations later, none coalesced; the
 * model's slot clocks count only L1 lines, so they came within its window); the re-read one warp
 * sends at once merges in its SM (pend_outstanding). One request answers at most
 * coalesce_max_requests (itself included): the next goes to L2 and is kept instead (results/h200-lrc-map:
 * n SMs of a GPC reading a line together reach L2 ceil(n / 4) times). */
static int coalesced(ws_cache *c, uint64_t line, uint8_t want, uint32_t group, int sm, double t)
{
    if (!c->fills || !want)
        return 0;
    double win = c->cfg.coalesce_window > 1 ? c->cfg.coalesce_window : 1;
    fill *kept[SECTORS_PER_LINE];
    int n = 0;
    for (int s = 0; s < SECTORS_PER_LINE; s++) {
        if (!(want >> s & 1))
            continue;
        fill *f = fill_slot(c, line * SECTORS_PER_LINE + (uint64_t)s, group);
        if (f->line != line + 1 || f->group != group || f->sm == (uint16_t)sm || f->mask != want ||
            !(t - f->sent < win && f->sent - t < win) ||
            (c->cfg.coalesce_max_requests > 0 && f->merged + 1 >= c->cfg.coalesce_max_requests))
            return 0;
        kept[n++] = f;
    }
    while (n)
        kept[--n]->merged++;
    return 1;
}

static void fill_add(ws_cache *c, uint64_t line, uint8_t mask, uint32_t group, int sm, double t)
{
    if (!c->fills)
        return;
    for (int s = 0; s < SECTORS_PER_LINE; s++)
        if (mask >> s & 1)
            *fill_slot(c, line * SECTORS_PER_LINE + (uint64_t)s, group) = (fill){line + 1, t, group, (uint16_t)sm, mask, 0};
}

static int entry_live(const ws_cache *c, dirty_entry e)
{
    const cline *l = &c->l2.lines[e.idx];
    return l->dirty && l->epoch == e.epoch;
}

/* Appends a line that just became dirty to the FIFO; a full ring drops its stale entries first
 * and grows only when most are live (live entries <= lines, so it stays within 4x the lines). */
static void fifo_push(ws_cache *c, cline *l)
{
    if (c->fcount == c->fcap) {
        size_t live = 0;
        for (size_t i = 0; i < c->fcount; i++) {
            dirty_entry e = c->fifo[(c->fhead + i) % c->fcap];
            if (entry_live(c, e))
                c->fifo[(c->fhead + live++) % c->fcap] = e; /* in place, order kept: live <= i */
        }
        c->fcount = live;
        if (live >= c->fcap / 2) {
            size_t ncap = c->fcap ? 2 * c->fcap : 4096;
            dirty_entry *n = malloc(ncap * sizeof *n);
            if (!n)
                return; /* out of memory: this line is only written back at eviction */
            for (size_t i = 0; i < c->fcount; i++)
                n[i] = c->fifo[(c->fhead + i) % c->fcap];
            free(c->fifo);
            c->fifo = n;
            c->fcap = ncap;
            c->fhead = 0;
        }
    }
    if (++c->epoch == 0)
        c->epoch = 1;
    l->epoch = c->epoch;
    c->fifo[(c->fhead + c->fcount++) % c->fcap] = (dirty_entry){(uint32_t)(l - c->l2.lines), c->epoch};
}

/* One DRAM transfer of `bytes` of line `line` (cache.h "DRAM access shape"). */
static void dram_access(ws_cache *c, uint64_t line, uint64_t bytes)
{
    if (!bytes)
        return;
    c->t.dram_accesses++;
    c->t.dram_access_bytes += bytes;
    uint64_t min = c->cfg.dram_min_access_bytes > 0 ? (uint64_t)c->cfg.dram_min_access_bytes : 0;
    if (bytes < min)
        c->t.dram_short_bytes += min - bytes;
    if (!c->open_row)
        return;
    uint64_t row = line * WS_LINE_BYTES / (uint64_t)c->cfg.dram_row_bytes;
    uint64_t h = row * 0x9E3779B97F4A7C15ull; /* the real bank map is undocumented: any spread */
    uint64_t *b = &c->open_row[(h >> 32) % (uint64_t)c->cfg.dram_banks];
    if (*b != row + 1) {
        c->t.dram_row_opens++;
        *b = row + 1;
    }
}

/* Writes a line's dirty sectors to DRAM, keeping it resident and clean; a partly written sector is
 * read first when ECC is on and is whole afterwards. */
static uint64_t l2_clean(ws_cache *c, cline *l, ws_cache_access *out)
{
    uint64_t wb = (uint64_t)__builtin_popcount(l->dirty) * WS_SECTOR_BYTES;
    out->dram_write_bytes += wb;
    c->t.dram_write_bytes += wb;
    uint8_t part = l->dirty & (uint8_t)~l->valid;
    if (c->cfg.ecc) {
        uint64_t rd = (uint64_t)__builtin_popcount(part) * WS_SECTOR_BYTES;
        dram_access(c, l->tag - 1, rd);
        out->dram_read_bytes += rd;
        out->ecc_read_bytes += rd;
        c->t.dram_read_bytes += rd;
        c->t.ecc_read_bytes += rd;
        l->valid |= part;
    } /* without ECC the masked bytes are written alone and the sector stays absent */
    dram_access(c, l->tag - 1, wb);
    for (int s = 0; s < SECTORS_PER_LINE; s++)
        if (part >> s & 1)
            l->wmask[s] = 0;
    c->dirty_bytes -= wb;
    l->dirty = 0;
    l->epoch = 0;
    return wb;
}

/* Marks sectors of a resident L2 line dirty, then holds the L2 to its dirty limit by writing back
 * the lines dirtied longest ago (the one just written included, when it is the oldest). */
static void l2_set_dirty_new(ws_cache *c, cline *l, uint8_t mask, ws_cache_access *out)
{
    uint8_t add = mask & (uint8_t)~l->dirty;
    if (!l->dirty && c->cfg.l2_dirty_limit)
        fifo_push(c, l);
    l->dirty |= mask;
    c->dirty_bytes += (uint64_t)__builtin_popcount(add) * WS_SECTOR_BYTES;
    while (c->dirty_bytes > c->cfg.l2_dirty_limit && c->fcount) {
        if (c->fcount > PREFETCH_AHEAD) /* the line checked a few write-backs on (partial_prefetch's reason) */
            __builtin_prefetch(&c->l2.lines[c->fifo[(c->fhead + PREFETCH_AHEAD) % c->fcap].idx]);
        dirty_entry e = c->fifo[c->fhead];
        c->fhead = (c->fhead + 1) % c->fcap;
        c->fcount--;
        if (entry_live(c, e))
            c->t.dirty_limit_write_bytes += l2_clean(c, &c->l2.lines[e.idx], out);
    }
}

/* l2_set_dirty_new where a sector is new to the dirty mask (a store's sector is mostly dirty already:
 * the call was a tenth of a column store's replay) */
static inline void l2_set_dirty(ws_cache *c, cline *l, uint8_t mask, ws_cache_access *out)
{
    if (mask & (uint8_t)~l->dirty)
        l2_set_dirty_new(c, l, mask, out);
}

/* A line of the partial-write FIFO still holding the residency it had when it entered. */
static cline *partial_entry_line(ws_cache *c, uint64_t seq)
{
    dirty_entry e = c->pfifo[seq % c->pcap];
    cline *l = &c->l2.lines[e.idx];
    return l->pepoch == e.epoch ? l : NULL;
}

/* Brings the line of the partial-write FIFO's entry `seq` towards the host's cache (when queued):
 * each push checks the line queued l2_partial_lines and l2_partial_writeback_lines pushes ago, at
 * random in 16 MB of lines, a host cache miss each (a fifth of a naive transpose's replay); the
 * entries a few pushes on are known now. A hint only: nothing is read. */
static void partial_prefetch(const ws_cache *c, uint64_t seq)
{
    if (seq < c->ptail)
        __builtin_prefetch(&c->l2.lines[c->pfifo[seq % c->pcap].idx]);
}

/* A line just took its first partly written sector: queue it, then complete (ECC read: the sectors
 * become whole, still dirty) the lines beyond the newest l2_partial_lines and write back those
 * beyond l2_partial_writeback_lines (fitted on the probe's partial outputs, cache.h). */
static void partial_push(ws_cache *c, cline *l, ws_cache_access *out)
{
    if (++c->pepoch == 0)
        c->pepoch = 1;
    l->pepoch = c->pepoch;
    c->pfifo[c->ptail % c->pcap] = (dirty_entry){(uint32_t)(l - c->l2.lines), c->pepoch};
    c->ptail++;
    c->t.partial_lines++;
    while (c->ptail - c->pmid > c->cfg.l2_partial_lines) {
        partial_prefetch(c, c->pmid + PREFETCH_AHEAD);
        cline *o = partial_entry_line(c, c->pmid++);
        uint8_t part = o ? (uint8_t)(o->dirty & (uint8_t)~o->valid) : 0;
        if (part && c->cfg.ecc) {
            uint64_t rd = (uint64_t)__builtin_popcount(part) * WS_SECTOR_BYTES;
            dram_access(c, o->tag - 1, rd);
            out->dram_read_bytes += rd;
            out->ecc_read_bytes += rd;
            c->t.dram_read_bytes += rd;
            c->t.ecc_read_bytes += rd;
            c->t.partial_fill_bytes += rd;
            o->valid |= part;
            for (int s = 0; s < SECTORS_PER_LINE; s++)
                if (part >> s & 1)
                    o->wmask[s] = 0;
        }
    }
    while (c->ptail - c->phead > c->cfg.l2_partial_writeback_lines) {
        partial_prefetch(c, c->phead + PREFETCH_AHEAD);
        cline *o = partial_entry_line(c, c->phead++);
        if (!o)
            continue;
        o->pepoch = 0;
        if (o->dirty) /* its dirty-FIFO entry, if any, goes stale (epoch 0) */
            c->t.partial_writeback_bytes += l2_clean(c, o, out);
    }
}

/* Allocates an absent L2 line, counting write-backs of an evicted victim (l2_line's miss: apart, so
 * a hit takes no stack frame for the victim). */
static cline *l2_line_alloc(ws_cache *c, uint64_t line, ws_cache_access *out)
{
    cline v;
    cline *l = scache_alloc(&c->l2, line, &v);
    if (l && !v.tag)
        c->t.l2_cold_allocations++;
    /* write-back: every dirty sector; one only partly written (never filled) must be
     * read first when ECC is on, to recompute the sector's check bits */
    uint64_t wb = (uint64_t)__builtin_popcount(v.dirty) * WS_SECTOR_BYTES;
    out->dram_write_bytes += wb;
    c->t.dram_write_bytes += wb;
    c->dirty_bytes -= wb; /* its FIFO entries are stale now: the slot's new line has epochs 0 */
    if (c->cfg.ecc) {
        uint64_t rd = (uint64_t)__builtin_popcount(v.dirty & (uint8_t)~v.valid) * WS_SECTOR_BYTES;
        dram_access(c, v.tag - 1, rd);
        out->dram_read_bytes += rd;
        out->ecc_read_bytes += rd;
        c->t.dram_read_bytes += rd;
        c->t.ecc_read_bytes += rd;
    }
    dram_access(c, v.tag - 1, wb); /* after its ECC read */
    return l;
}

static inline __attribute__((always_inline)) cline *l2_line(ws_cache *c, uint64_t line, ws_cache_access *out)
{
    cline *l = scache_find(&c->l2, line, 1);
    return l ? l : l2_line_alloc(c, line, out);
}

/* Far lookups (cache.h "Far lookups"): the partition an SM's requests enter and the one a line is
 * homed in. Both maps are undocumented; these are stand-ins, both the parity of an index's bits (an
 * xor-fold, as hardware hashes are). An SM's: of its read coalescer group's number (groups of
 * coalesce_group_sms SMs; a TPC's two SMs without coalescing): the coalescer forwards one request
 * for the SMs it merges, so they enter one partition; the fold, not the number's low bit, because
 * the GPU places blocks in an order the model does not know (block b on SM b is a stand-in too), so
 * the map should not line up with strides of the model's placement. A line's: of its line number. */
static int sm_partition(const ws_cache *c, int sm)
{
    if (c->cfg.l2_partitions <= 1)
        return 0;
    int g = c->cfg.read_coalescing && c->cfg.coalesce_group_sms > 0 ? c->cfg.coalesce_group_sms : 2;
    unsigned n = (unsigned)(sm / g);
    return c->cfg.l2_partitions == 2 ? __builtin_parity(n) : (int)(n % (unsigned)c->cfg.l2_partitions);
}

static int line_home(const ws_cache *c, uint64_t line)
{
    if (c->cfg.l2_partitions <= 1)
        return 0;
    if (c->cfg.l2_partitions == 2)
        return __builtin_parityll(line);
    return (int)((line ^ (line >> 7) ^ (line >> 13)) % (uint64_t)c->cfg.l2_partitions);
}

/* The sectors a miss on `miss` fetches: the dram_fetch_bytes-aligned blocks around them. */
static uint8_t promote(const ws_cache *c, uint8_t miss)
{
    uint8_t fetch = 0;
    int per = c->cfg.dram_fetch_bytes / WS_SECTOR_BYTES; /* 1, 2 or 4 sectors per fetch */
    uint8_t block = (uint8_t)((1u << per) - 1);
    for (int s = 0; s < SECTORS_PER_LINE; s++)
        if (miss >> s & 1)
            fetch |= (uint8_t)(block << (s / per * per));
    return fetch;
}

/* Fetches `fetch` (sectors of `line`, a miss on `miss` promoted) from DRAM into L2 line l (NULL: no
 * L2, the bytes only): the fill that SM smi's miss at its instruction count `now` made. */
static void dram_fill(ws_cache *c, cline *l, uint64_t line, uint8_t fetch, uint8_t miss, uint64_t now, int smi,
                      ws_cache_access *out)
{
    uint64_t bytes = (uint64_t)__builtin_popcount(fetch) * WS_SECTOR_BYTES;
    dram_access(c, line, bytes);
    out->dram_read_bytes += bytes;
    c->t.dram_fill_bytes += bytes;
    c->t.dram_read_bytes += bytes;
    if (!l)
        return;
    l->valid |= fetch;
    l->fill_extra = fetch & (uint8_t)~miss;
    l->fill_at = (uint32_t)now;
    l->fill_sm = (uint16_t)smi;
    for (int s = 0; s < SECTORS_PER_LINE; s++)
        if (fetch >> s & 1)
            l->wmask[s] = 0; /* partial writes merge into the fetched sector */
}

/* Reads the sectors in `want` (bits of one line) through L2: counts hits and
 * misses, fetches the missing ones from DRAM at the fetch granularity.
 * Returns the mask of sectors that missed. With no L2 every sector misses. */
static uint8_t l2_read(ws_cache *c, uint64_t now, int smi, uint64_t line, uint8_t want, int near_only,
                       uint8_t *far_out, ws_cache_access *out)
{
    cline *l = l2_line(c, line, out);
    uint8_t have = l ? l->valid : 0;
    uint8_t miss = want & (uint8_t)~have;
    *far_out = 0;
    /* In-flight fills (latency only; the counters stay ncu's; a lookup on either side): a hit on a
     * sector that an earlier miss of this SM fetched unasked, within fill_window of its memory
     * instructions, waits for that DRAM fetch (a byte histogram's next warp reads the other half of a 64-B fetch).
     * Other SMs' clocks are not comparable here: their hits stay hits. */
    if (l && (want & have & l->fill_extra) && l->fill_sm == (uint16_t)smi &&
        (uint32_t)now - l->fill_at < (uint32_t)c->cfg.fill_window)
        out->l2_hit_inflight_sectors += __builtin_popcount(want & have & l->fill_extra);
    /* A read from an SM of the other partition is looked up in that SM's partition first, in its
     * copy of the line (far_valid): a hit there is a hit; a miss (counted, promoted, as a home miss
     * is) goes over the L2 fabric to the home partition, which hits or fetches from DRAM as a read
     * of its own SMs would, so DRAM sees the same bytes. A line read from both sides misses once in
     * each unless the far side read it first (its miss filled the home too). */
    if (l && c->cfg.l2_far_lookups && !near_only && sm_partition(c, smi) != line_home(c, line)) {
        uint8_t fmiss = want & (uint8_t)~l->far_valid;
        out->l2_hit_sectors += __builtin_popcount(want) - __builtin_popcount(fmiss);
        if (!fmiss)
            return 0;
        uint8_t ffetch = promote(c, fmiss) & (uint8_t)~l->far_valid;
        out->l2_miss_sectors += __builtin_popcount(ffetch);
        uint8_t fetch = miss ? promote(c, miss) & (uint8_t)~have : 0;
        if (fetch)
            dram_fill(c, l, line, fetch, miss, now, smi, out);
        /* the fabric's hits: misses here that no DRAM fetch served */
        out->l2_far_miss_sectors += __builtin_popcount(ffetch & (uint8_t)~fetch);
        *far_out = fmiss & (uint8_t)~miss;
        l->far_valid |= ffetch & l->valid;
        return miss;
    }
    out->l2_hit_sectors += __builtin_popcount(want) - __builtin_popcount(miss);
    if (!miss)
        return 0;
    uint8_t fetch = promote(c, miss) & (uint8_t)~have;
    /* lookup misses count the promoted sectors, not only the requested ones: one u32 per
     * 128-B line read 2,097,152 sectors and counted 4,194,304 misses at the 64-B default
     * (gpu-memory-rules.md §4.1, App. F) */
    out->l2_miss_sectors += __builtin_popcount(fetch);
    dram_fill(c, l, line, fetch, miss, now, smi, out);
    return miss;
}

/* Writes one sector (byte mask `bytes`) into L2. */
/* part: sm_partition of the writing SM (once per access) */
static void l2_write(ws_cache *c, int part, uint64_t line, int sec, uint32_t bytes, ws_cache_access *out)
{
    cline *l = l2_line(c, line, out);
    uint8_t bit = (uint8_t)(1u << sec);
    /* a store from the home side leaves the other partition's copy stale: dropped; one from the
     * far side passes through that copy, which stays (an assumption: not measured) */
    if (l && __builtin_expect((l->far_valid & bit) != 0, 0) && part == line_home(c, line))   /* the home only where there is a copy */
        l->far_valid &= (uint8_t)~bit;
    if (!l) { /* no L2: the write goes straight to DRAM */
        dram_access(c, line, WS_SECTOR_BYTES);
        out->dram_write_bytes += WS_SECTOR_BYTES;
        c->t.dram_write_bytes += WS_SECTOR_BYTES;
        return;
    }
    int first_partial = 0;
    if (!(l->valid & bit)) {
        l->wmask[sec] |= bytes;
        if (l->wmask[sec] == 0xFFFFFFFFu) { /* written whole: no DRAM read ever needed */
            l->valid |= bit;
            l->wmask[sec] = 0;
        } else
            first_partial = c->pcap && !l->pepoch;
    }
    l2_set_dirty(c, l, bit, out); /* may clean this line (then its partial sector is whole) */
    if (first_partial && (l->dirty & (uint8_t)~l->valid))
        partial_push(c, l, out);
}

static int is_allocating_load(const ws_mem_event *ev)
{
    if (ev->space == WS_SPACE_LOCAL)
        return 1;
    return ev->cache != WS_CACHE_CG && ev->cache != WS_CACHE_CS && ev->cache != WS_CACHE_CV;
}

/* The entries of co from i on that are one L2 request: one 128-B line within one request (entries
 * are sorted by request then address). Returns the end of the group. */
static int line_group(const ws_coalesce_result *co, int i)
{
    uint64_t line = co->entries[i].sector / WS_LINE_BYTES;
    int req = co->entries[i].request, j = i + 1;
    while (j < co->nentries && co->entries[j].request == req && co->entries[j].sector / WS_LINE_BYTES == line)
        j++;
    return j;
}

static int entry_sec(const ws_sector_entry *e) { return (int)(e->sector % WS_LINE_BYTES / WS_SECTOR_BYTES); }

int ws_cache_access_front(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co, ws_cache_front *f)
{
    f->rc = -1;
    f->ngroups = 0;
    f->st_hit = f->st_merged = f->st_partial = 0;
    if (sm < 0 || sm >= c->cfg.sm_count)
        return -1;
    if (ev->space != WS_SPACE_GLOBAL && ev->space != WS_SPACE_LOCAL)
        return -1;
    sm_state *s = get_sm(c, sm);
    if (!s)
        return -1;
    s->now++;
    f->now = s->now;
    f->rc = 0;
    int local = ev->space == WS_SPACE_LOCAL;
    int n = co->nentries;
    uint64_t warps = 0;   /* store_warps(c), at a store's first group */
    for (int i = 0; i < n;) {
        uint64_t line = co->entries[i].sector / WS_LINE_BYTES;
        int j = line_group(co, i);
        uint8_t g = 0;
        f->gn[f->ngroups] = (uint8_t)(j - i);
        if (ev->op == WS_MEM_LOAD) {
            int alloc = is_allocating_load(ev);
            cline *l1 = alloc ? scache_find(&s->l1, line, 1) : NULL;
            uint8_t hit = 0, to_l2 = 0;
            for (int k = i; k < j; k++) {
                int sec = entry_sec(&co->entries[k]);
                uint64_t sector_no = co->entries[k].sector / WS_SECTOR_BYTES;
                if (l1 && (l1->valid >> sec & 1)) {
                    hit |= (uint8_t)(1u << sec);
                    continue;
                }
                if (!alloc && pend_outstanding(s, s->mshr, sector_no))
                    continue; /* merged into this SM's outstanding miss */
                to_l2 |= (uint8_t)(1u << sec);
                pend_add(c, s, s->mshr, sector_no);
            }
            /* the sectors that go on fill this L1 when the data comes, whether the L2 request
             * coalescer merges them into another SM's request or sends them (L1 is write-through:
             * never dirty) */
            if (to_l2 && alloc) {
                if (!l1) {
                    cline v;
                    l1 = scache_alloc(&s->l1, line, &v);
                }
                if (l1)
                    l1->valid |= to_l2;
            }
            g = (uint8_t)(hit | to_l2 << 4);
        } else if (ev->op == WS_MEM_STORE) {
            if (!warps)
                warps = store_warps(c);
            cline *l1 = scache_find(&s->l1, line, 0);
            for (int k = i; k < j; k++) {
                const ws_sector_entry *e = &co->entries[k];
                uint8_t bit = (uint8_t)(1u << entry_sec(e));
                uint64_t sector_no = e->sector / WS_SECTOR_BYTES;
                /* the store looks its sector up in L1 too (ncu's l1tex__t_sector_hit_rate counts
                 * it): a sector an earlier load brought in is a hit, updated in place */
                if (l1 && (l1->valid & bit))
                    f->st_hit++;
                if (local && e->byte_mask == 0xFFFFFFFFu) {
                    if (!l1) {
                        cline v;
                        l1 = scache_alloc(&s->l1, line, &v);
                    }
                    if (l1)
                        l1->valid |= bit;
                }
                /* a present sector is updated in place; an absent one stays absent. The same warp
                 * adding bytes the pending write does not carry yet joins it (byte stores of one
                 * loop: measured); another warp's write or a rewrite of the same bytes is a new L2
                 * write (a naive transpose's column stores, results/h200.json); local stores never
                 * merge (a local array's updates at run-time indices: unmerged) */
                inflight *w = pend_slot(s->wpend, sector_no);
                if (!local && store_pending(c, s, w, sector_no, warps) && w->warp == ev->warp_global &&
                    !(w->bytes & e->byte_mask)) {
                    w->bytes |= e->byte_mask;
                    f->st_merged++;
                } else {
                    pend_add(c, s, s->wpend, sector_no);
                    w->warp = ev->warp_global;
                    w->bytes = e->byte_mask;
                    if (e->byte_mask != 0xFFFFFFFFu)
                        f->st_partial++;
                    g = 1; /* a sector of this line leaves as a new L2 write */
                }
            }
        } else { /* atomic or reduction: L1 copies of atomically updated data are stale */
            uint8_t want = 0;
            for (int k = i; k < j; k++)
                want |= (uint8_t)(1u << entry_sec(&co->entries[k]));
            cline *l1 = scache_find(&s->l1, line, 0);
            if (l1)
                l1->valid &= (uint8_t)~want;
        }
        f->g[f->ngroups++] = g;
        i = j;
    }
    return 0;
}

int ws_cache_access_back(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co, const ws_cache_front *f,
                  ws_cache_access *out)
{
    memset(out, 0, sizeof *out);
    if (f->rc)
        return -1;
    /* the block slot's clock (cache.h "Read coalescing"): the blocks of one slot run one after another */
    size_t slot = (size_t)sm * (size_t)c->resident + ev->block_linear / (uint32_t)c->cfg.sm_count % (uint32_t)c->resident;
    slot_clock *clock = &c->clocks[slot];
    double seen = clock->clock + clock->drift * drift_factor(c); /* the time the coalescer sees its requests at */
    uint32_t group = lrc_group(c, sm, ev->block_linear);
    int n = co->nentries;
    int part = ev->op == WS_MEM_STORE ? sm_partition(c, sm) : 0;   /* l2_write's, once */

    for (int i = 0, gi = 0; i < n && gi < f->ngroups; gi++) {
        uint64_t line = co->entries[i].sector / WS_LINE_BYTES;
        int j = i + f->gn[gi];
        uint8_t g = f->g[gi];

        if (c->trace) { /* the block's own stream, before L1 (ws_cache_set_trace) */
            uint8_t want = 0;
            uint32_t bytes[4] = {0, 0, 0, 0};
            for (int k = i; k < j; k++) {
                int sec = entry_sec(&co->entries[k]);
                want |= (uint8_t)(1u << sec);
                if (ev->op != WS_MEM_LOAD)
                    bytes[sec] |= co->entries[k].byte_mask;
            }
            uint8_t l1 = ev->op == WS_MEM_LOAD && is_allocating_load(ev) ? (uint8_t)(want << 4) : 0;
            c->trace(c->trace_ctx, ev->block_linear, ev->pc, line, (uint8_t)((ev->op == WS_MEM_STORE ? 0 : want) | l1),
                     ev->op == WS_MEM_LOAD ? 0 : want, bytes);
        }
        if (ev->op == WS_MEM_LOAD) {
            uint8_t hit = g & 15, to_l2 = g >> 4;
            for (int k = i; k < j; k++) {
                uint8_t bit = (uint8_t)(1u << entry_sec(&co->entries[k]));
                if (hit & bit) {
                    out->outcome[k] = WS_SECT_L1_HIT;
                    out->l1_hit_sectors++;
                    continue;
                }
                out->l1_miss_sectors++;
                if (!(to_l2 & bit)) {
                    out->outcome[k] = WS_SECT_MERGED;
                    out->merged_sectors++;
                }
            }
            if (coalesced(c, line, to_l2, group, sm, seen)) { /* an SM of its group sent it within the window */
                for (int k = i; k < j; k++)
                    if (to_l2 >> entry_sec(&co->entries[k]) & 1) {
                        out->outcome[k] = WS_SECT_MERGED;
                        out->merged_sectors++;
                        c->t.coalesced_sectors++;
                    }
                to_l2 = 0;
            }
            if (to_l2) {
                out->l2_requests++;
                out->l2_sectors += __builtin_popcount(to_l2);
                uint8_t far;
                uint8_t miss = l2_read(c, f->now, sm, line, to_l2, 0, &far, out);
                for (int k = i; k < j; k++) {
                    int sec = entry_sec(&co->entries[k]);
                    if (to_l2 >> sec & 1)
                        out->outcome[k] = (miss >> sec & 1) ? WS_SECT_DRAM : (far >> sec & 1) ? WS_SECT_L2_FAR : WS_SECT_L2_HIT;
                }
                fill_add(c, line, to_l2, group, sm, seen);
            }
        } else if (ev->op == WS_MEM_STORE) {
            for (int k = i; k < j; k++) {
                const ws_sector_entry *e = &co->entries[k];
                out->outcome[k] = WS_SECT_WRITE;
                l2_write(c, part, line, entry_sec(e), e->byte_mask, out);
            }
            if (g)
                out->l2_requests++;
        } else { /* atomic or reduction: read-modify-write at L2 */
            uint8_t want = 0;
            for (int k = i; k < j; k++)
                want |= (uint8_t)(1u << entry_sec(&co->entries[k]));
            out->l2_requests++;
            for (int k = i; k < j; k++) /* lanes on one address: one sector-op each (coalesce.h) */
                out->l2_sectors += ws_coalesce_entry_atom_sectors(&co->entries[k], c->cfg.atom_sector_rule);
            uint8_t far;
            uint8_t miss = l2_read(c, f->now, sm, line, want, 1, &far, out); /* performed at the line's home */
            cline *l2 = scache_find(&c->l2, line, 0);
            if (l2) {
                l2->far_valid &= (uint8_t)~want; /* the other partition's copy is stale now */
                l2_set_dirty(c, l2, want, out);
            }
            for (int k = i; k < j; k++) {
                int sec = entry_sec(&co->entries[k]);
                out->outcome[k] = (miss >> sec & 1) ? WS_SECT_DRAM : WS_SECT_L2_HIT;
            }
        }
        i = j;
    }
    if (ev->op == WS_MEM_STORE) {
        out->st_sectors = n;
        out->l1_st_hit_sectors = f->st_hit;
        out->st_merged_sectors = f->st_merged;
        out->l2_sectors = n - f->st_merged;
        out->l2_partial_sectors = f->st_partial;
    }
    /* the slot's clock: the L1 serves one 128-B line of an access per cycle (l1_lines_per_cycle) */
    double dt = (co->lines > 1 ? co->lines : 1) / (c->cfg.l1_lines_per_cycle > 0 ? c->cfg.l1_lines_per_cycle : 1);
    clock->clock += dt;
    slot_drift(c, clock, slot, ev->kind == WS_KIND_TMA || ev->kind == WS_KIND_BULK, dt);

    ws_cache_totals *t = &c->t;
    t->merged_sectors += (uint64_t)out->merged_sectors;
    t->st_merged_sectors += (uint64_t)out->st_merged_sectors;
    if (ev->op == WS_MEM_LOAD) {
        if (ev->space == WS_SPACE_LOCAL) {
            t->l1_local_ld_hit += (uint64_t)out->l1_hit_sectors;
            t->l1_local_ld_miss += (uint64_t)out->l1_miss_sectors;
        } else {
            t->l1_global_ld_hit += (uint64_t)out->l1_hit_sectors;
            t->l1_global_ld_miss += (uint64_t)out->l1_miss_sectors;
        }
        t->l2_read_requests += (uint64_t)out->l2_requests;
        t->l2_read_sectors += (uint64_t)out->l2_sectors;
        t->l2_read_hit_sectors += (uint64_t)out->l2_hit_sectors;
        t->l2_read_miss_sectors += (uint64_t)out->l2_miss_sectors;
        t->l2_far_miss_sectors += (uint64_t)out->l2_far_miss_sectors;
    } else if (ev->op == WS_MEM_STORE) {
        t->l1_st_sectors += (uint64_t)out->st_sectors;
        t->l1_st_hit_sectors += (uint64_t)out->l1_st_hit_sectors;
        t->l2_write_requests += (uint64_t)out->l2_requests;
        t->l2_write_sectors += (uint64_t)out->l2_sectors;
        t->l2_write_partial_sectors += (uint64_t)out->l2_partial_sectors;
    } else {
        t->l2_atom_requests += (uint64_t)out->l2_requests;
        t->l2_atom_sectors += (uint64_t)out->l2_sectors;
    }
    return 0;
}

/* The L2 way a line is in, or the one its allocation would take now (scache_alloc's choice): reads
 * the memo, or the set's sig bytes and stamps, no line. */
static size_t l2_way_for(const scache *s, uint64_t line)
{
    if (s->memo && s->memo[memo_slot(line)].tag == line + 1)
        return s->memo[memo_slot(line)].idx;
    size_t at = scache_set(s, line);
    uint8_t sig = tag_sig(line + 1);
    const uint64_t *stamp = s->stamps + at;
    for (uint32_t i = 0; i < s->ways; i++)  /* a way in use whose byte matches: most likely the line's */
        if (s->sig[at + i] == sig && stamp[i])
            return at + i;
    uint32_t w = 0;
    uint64_t oldest = stamp[0];
    for (uint32_t i = 0; i < s->ways; i++) {
        if (!stamp[i])
            return at + i;
        if (stamp[i] < oldest) {
            oldest = stamp[i];
            w = i;
        }
    }
    return at + w;
}

void ws_cache_prefetch(const ws_cache *c, int sm, uint32_t block_linear, int op, const void *entries, int n,
                       int stage)
{
    const unsigned char *e = entries;
    const scache *s = &c->l2;
    if (!s->nsets || sm < 0 || sm >= c->cfg.sm_count || n > PREFETCH_MAX_ENTRIES)
        return;
    uint32_t group = op == WS_MEM_LOAD && c->fills ? lrc_group(c, sm, block_linear) : 0;
    uint64_t last = UINT64_MAX;
    for (int k = 0; k < n; k++) {
        uint64_t sector;
        memcpy(&sector, e + (size_t)k * sizeof(ws_sector_entry) + offsetof(ws_sector_entry, sector), sizeof sector);
        uint64_t line = sector / WS_LINE_BYTES;
        if (stage == 0 && op == WS_MEM_LOAD && c->fills)
            __builtin_prefetch(fill_slot(c, sector / WS_SECTOR_BYTES, group));
        if (line == last)
            continue;
        last = line;
        if (stage == 0) {
            size_t at = scache_set(s, line);
            __builtin_prefetch(s->sig + at);
            for (uint32_t i = 0; i < s->ways; i += 8)
                __builtin_prefetch(s->stamps + at + i);
        } else
            __builtin_prefetch(&s->lines[l2_way_for(s, line)]);
    }
}

int ws_cache_access_event(ws_cache *c, int sm, const ws_mem_event *ev, const ws_coalesce_result *co,
                          ws_cache_access *out)
{
    ws_cache_front f;
    if (ws_cache_access_front(c, sm, ev, co, &f)) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return ws_cache_access_back(c, sm, ev, co, &f, out);
}

int ws_cache_set_resident(ws_cache *c, int blocks_per_sm)
{
    int r = blocks_per_sm > 0 ? blocks_per_sm : 1;
    if (r == c->resident)
        return 0;
    slot_clock *n = calloc((size_t)c->cfg.sm_count * (size_t)r, sizeof *n);
    if (!n)
        return -1; /* the old slots stay: the clocks of fewer slots, still in order */
    free(c->clocks);
    c->clocks = n;
    c->resident = r;
    return 0;
}

void ws_cache_set_grid_blocks(ws_cache *c, uint64_t blocks)
{
    c->grid_blocks = blocks;
    c->small_grid = c->cfg.placement && blocks && blocks <= sizeof c->block_gpc &&
                    ws_device_block_gpc(c->cfg.placement, blocks, 0) >= 0;
    for (uint64_t b = 0; c->small_grid && b < blocks; b++)
        c->block_gpc[b] = (uint8_t)ws_device_block_gpc(c->cfg.placement, blocks, b);
}

void ws_cache_set_block_warps(ws_cache *c, int warps) { c->block_warps = warps > 0 ? warps : 1; }

void ws_cache_set_drift_scale(ws_cache *c, double scale) { c->drift_scale = scale > 0 ? scale : 1; }

void ws_cache_set_trace(ws_cache *c, ws_cache_trace_fn fn, void *ctx)
{
    c->trace = fn;
    c->trace_ctx = ctx;
}

int ws_cache_replay(ws_cache *c, uint64_t line, uint8_t rd, uint8_t wr, const uint32_t bytes[4])
{
    ws_cache_access out; /* the counts l2_read and l2_write add to (the outcomes are not used) */
    memset(&out, 0, offsetof(ws_cache_access, outcome));
    int fresh = c->l2.nsets && !scache_find(&c->l2, line, 0);
    rd &= 15; /* the high bits: an L1-allocating load's (ws_cache_trace_fn), not L2's */
    if (rd) {
        uint8_t far;
        l2_read(c, 0, 0, line, rd, 1, &far, &out);
    }
    for (int s = 0; s < SECTORS_PER_LINE; s++)
        if (wr >> s & 1)
            l2_write(c, -1, line, s, bytes[s], &out); /* -1: no partition's side, the far copy untouched */
    return fresh;
}

int ws_cache_replay_l1(ws_cache *c, uint64_t line, uint8_t rd, uint8_t wr)
{
    sm_state *s = get_sm(c, 0);
    if (!s)
        return 0;
    uint8_t alloc = (uint8_t)(rd >> 4), hit = 0;
    if (alloc) { /* as ws_cache_access_front: valid sectors hit, the rest fill when the data comes */
        cline *l1 = scache_find(&s->l1, line, 1);
        hit = l1 ? (uint8_t)(l1->valid & alloc) : 0;
        if (!l1) {
            cline v;
            l1 = scache_alloc(&s->l1, line, &v);
        }
        if (l1)
            l1->valid |= alloc;
    } else if ((rd & 15) && wr) { /* an atomic: L1 copies of the data are stale */
        cline *l1 = scache_find(&s->l1, line, 0);
        if (l1)
            l1->valid &= (uint8_t)~wr;
    } /* a store updates a present sector in place, an absent one stays absent */
    return __builtin_popcount(hit);
}

void ws_cache_finish(ws_cache *c)
{
    if (c->finished)
        return;
    c->finished = 1;
    uint64_t n = (uint64_t)c->l2.nsets * c->l2.ways;
    for (uint64_t i = 0; i < n; i++) {
        if (!c->l2.stamps[i])
            continue; /* never allocated, so clean: the packed stamps, not 16 MB of lines, walked */
        const cline *l = &c->l2.lines[i];
        c->t.dirty_at_end_bytes += (uint64_t)__builtin_popcount(l->dirty) * WS_SECTOR_BYTES;
        c->t.partial_pending_bytes += (uint64_t)__builtin_popcount(l->dirty & (uint8_t)~l->valid) * WS_SECTOR_BYTES;
    }
}

const ws_cache_totals *ws_cache_get_totals(const ws_cache *c) { return &c->t; }

uint64_t ws_cache_launch_fetch_bytes(const ws_device *dev, uint64_t code_bytes)
{
    if (!dev || (dev->code_fetch_block_bytes <= 0 && dev->launch_fetch_base_bytes <= 0))
        return 0;
    uint64_t blk = dev->code_fetch_block_bytes > 0 ? (uint64_t)dev->code_fetch_block_bytes : 1;
    uint64_t base = dev->launch_fetch_base_bytes > 0 ? (uint64_t)dev->launch_fetch_base_bytes : 0;
    return (code_bytes + blk - 1) / blk * blk + base;
}
