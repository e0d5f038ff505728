/* sample.h - block sampling (issue 25): which blocks of a big launch are simulated, and how
 * the counters of those blocks are scaled to the whole grid, with a stated bound.
 * The plan: every block has a kind from its position in each grid dimension (first, interior,
 * last: partial tiles and halos sit at the grid's edges); the lead blocks (the first whole
 * waves, or as many blocks as the sample budget allows where 3 waves would cost more)
 * run in linear order, as the GPU dispatches them, so the cache models see a wave's stream,
 * plus one representative of every kind the lead blocks miss. Every counter is estimated per
 * stratum (kind x {first wave, later}) as n/s times the sampled sum: the cold first wave is
 * counted once, not once per wave. A kernel whose blocks interact is never sampled (the
 * caller says why: ws_sample_refusal).
 * Invariant: the blocks chosen depend only on the launch, the wave size and the per-block
 * instruction counts, so a sampled run is reproducible. */
#ifndef WS_SAMPLE_H
#define WS_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/interp.h"
#include "models/memstats.h"

/* OFF (the zero value: callers that need every block, check and viz, get it unasked), AUTO
 * (`sim`'s default), ON (--sample). */
typedef enum { WS_SAMPLE_OFF = 0, WS_SAMPLE_AUTO, WS_SAMPLE_ON } ws_sample_mode;

/* AUTO samples a launch estimated (from its first blocks) above this many thread-instructions,
 * and only with more than this many threads: the catalog's default sizes stay full. */
#define WS_SAMPLE_AUTO_THREAD_INSNS 1000000000ull
#define WS_SAMPLE_AUTO_THREADS (1ull << 20)
/* The lead blocks: at most this many waves, and at most this many thread-instructions. */
#define WS_SAMPLE_WAVES 3
#define WS_SAMPLE_BUDGET 200000000ull
/* Where that budget would not pass the first wave by an eighth of a wave (WS_SAMPLE_LATER_PART), the
 * lead's budget is this instead: the whole first wave and later blocks give the cache counters a
 * per-block bound (2.5e9 is about 7 s at -j 2 on the 2-core build machine when idle, ~340 M/s; a
 * 2048^3 tiled matmul's block is 8 M thread-instructions: 1.17 waves of 264 blocks, where 2e8 gave
 * 0.09 and no bound). */
#define WS_SAMPLE_BUDGET_RAISED 2500000000ull
#define WS_SAMPLE_LATER_PART 8
/* The cache counters' bound from the later blocks' spread needs the kinds with later samples of
 * their own to hold this share of the later blocks' L2 lookups. */
#define WS_SAMPLE_OWN_SHARE 0.9
/* --sample-waves N: at most this many whole lead waves (their L2 sectors are kept per wave). */
#define WS_SAMPLE_MAX_WAVES 64

typedef struct ws_sampler ws_sampler;

/* Why fn (of module m)/launch must run full, or NULL: blocks that interact (a cooperative launch's
 * grid sync, a cluster, global atomics whose returned value steers a branch or an address, so a
 * block's work may depend on others) or global atomics whose results steer nothing (RED, or atom
 * whose result is only stored): their blocks are independent, but the contention terms are the
 * hottest address's and slice's totals over the whole grid, which a sample does not scale to.
 * Global atomics: .global ones and generic ones not proven to address shared memory
 * (sim/frontend/provenance.h), in fn or in a function it reaches through calls (m NULL: fn's
 * alone). Generic atomics proven shared are the block's own, as atom.shared ones. */
const char *ws_sample_refusal(const ptx_module *m, const ptx_function *fn, const ws_launch *L);
/* True when the value a global atom of fn (as above) returns reaches (through registers) a guard
 * predicate (a branch), an address, memory a thread may read back (local, param) or a call. */
bool ws_atom_result_steers(const ptx_function *fn);

/* A sampler for L with `wave` blocks per wave (SMs x resident blocks). ms and res are the run's
 * (res->pc_warp_count is read as the interpreter fills it). NULL on out-of-memory. */
ws_sampler *ws_sampler_new(ws_sample_mode mode, const ws_launch *L, uint64_t wave, ws_memstats *ms,
                           ws_sim_result *res, int ninsns);
/* Before the run: the lead blocks are `waves` whole waves (1..WS_SAMPLE_MAX_WAVES), whatever they
 * cost, instead of WS_SAMPLE_WAVES capped by WS_SAMPLE_BUDGET: a launch whose blocks are so long
 * that the budget allows less than 3 waves gets cache counters with a wave-to-wave bound only so
 * (a 2048^3 tiled matmul's block is 8 M thread-instructions: 1.17 waves in the budget, a per-block bound).
 * Forces sampling (as WS_SAMPLE_ON). */
void ws_sampler_set_waves(ws_sampler *sp, int waves);
/* Called once, when the plan is made after block 0, if the run is sampled: with the multiplier of
 * read coalescing's drift (ws_cache_set_drift_scale) that makes the lead waves' slot clocks spread
 * as the whole grid's: sqrt(grid blocks / the lead's, at least a wave). */
void ws_sampler_on_plan(ws_sampler *sp, void (*fn)(void *ctx, double drift_scale), void *ctx);
/* Hooks it into cfg: block_next, blocks_planned and on_sync (the caller has no other on_sync). */
void ws_sampler_attach(ws_sampler *sp, ws_sim_config *cfg);
/* After the run, before ws_memstats_finish: true when blocks were skipped; then every counter
 * of res and ms is replaced by its estimate for the whole grid. */
bool ws_sampler_scale(ws_sampler *sp);
/* The L2 replay (the split of the written bytes between DRAM write-backs and bytes left dirty at
 * the end, which depends on what the whole grid's stream leaves in the L2, never filled by a
 * sample): the sampler keeps what each sampled block sends the cache model before L1
 * (ws_sampler_trace, a ws_cache_trace_fn: installed with ws_models_set_trace). Where the blocks
 * of the kind of most blocks (the interior one, the template) send the same accesses, each
 * access's line affine in the block's coordinates (line = base + sx x + sy y + sz z, fitted on the
 * kind's first block and the blocks a step from it along each dimension it spans, or its last
 * block for one of them; checked on every block sampled: the lead and the kinds'
 * representatives, the grid's last block among them; an edge kind the fit does not predict, a
 * partial tile, is replayed as the template's where such kinds hold at most 1 -
 * WS_SAMPLE_REPLAY_FIT_SHARE of the grid's blocks, and the line says their share), the grid's last blocks' accesses run
 * through an L2 of the model's geometry of its own (ws_cache_replay), and its dirty bytes at the
 * end are the grid's. The last blocks: enough that they allocate WS_SAMPLE_REPLAY_TURNS times the
 * L2's lines (so what was resident before them is gone: each set's ways taken that many times over
 * on average), found by replaying a tail, then a longer one at the rate of allocations it showed;
 * the whole grid where that is not reached; at most WS_SAMPLE_REPLAY_OPS accesses (a
 * set-associative L2 keeps per set what its set's lines left, which a count of lines does not
 * see: a transpose's columns fall in a sixteenth of the sets). Example: 4096 blocks of a 2048^3
 * tiled matmul, 4128 accesses each: 16.9 M replayed. */
#define WS_SAMPLE_REPLAY_OPS (1ull << 25)
#define WS_SAMPLE_REPLAY_TURNS 8
/* Kinds of edge block whose accesses the fit does not predict (partial tiles) are replayed as the
 * interior's where the kinds it predicts hold this share of the grid's blocks at least. */
#define WS_SAMPLE_REPLAY_FIT_SHARE 0.9
/* A fitted block's accesses kept at most (a block of more gets no replay): 8 MB of each of the 7 blocks kept. */
#define WS_SAMPLE_REPLAY_BLOCK_OPS (1ull << 18)
void ws_sampler_trace(void *ctx, uint32_t block_linear, uint32_t pc, uint64_t line, uint8_t rd, uint8_t wr,
                      const uint32_t bytes[4]);

/* The L1 replay: what an SM's L1 keeps depends on the blocks that SM ran before (block b runs on
 * SM b mod the SMs, after its earlier blocks), which a sample of the first waves does not see where
 * an SM's blocks re-read lines further apart (a 4010^2 x 32 tiled matmul: 126 blocks a row on 132
 * SMs, an SM's blocks of one B column 21 blocks apart: the sample had no L1 hit, the full run
 * 573,198). Under the same fit (above), SMs' whole block streams run through an L1 of the
 * model's geometry each (ws_cache_replay_l1; as many SMs as WS_SAMPLE_REPLAY_L1_OPS accesses
 * allow, evenly spread), and the global loads' L1 hits are theirs, scaled by the grid's blocks
 * over those replayed; the hits a pc gains leave its sampled misses in the shares those had (to
 * L2, merged), one L2 request per (access, line) found whole in L1. Not where the sample has
 * local loads (the trace does not tell them from global ones). */
#define WS_SAMPLE_REPLAY_L1_OPS (1ull << 23)
/* The cache model's totals of the sampled stream for the whole grid: every sum times
 * ws_sampler_factor, but what the L2's capacity bounds (lines allocated into an empty L2, bytes
 * dirty at the end) at most an L2 of l2_bytes (the distinct bytes the model holds,
 * ws_cache_l2_lru_bytes) and dirty_limit (0 = none), the dirty bytes beyond written back; the
 * text then says that split is an estimate (their sum is kept). */
/* The limit on partly written lines (cc's l2_partial_lines with ECC on): only the lines beyond the
 * newest that many of those taking a partly written sector are read (ECC) to complete them, so the
 * whole grid's reads are its lines beyond the limit x the sample's partial bytes per line, not the
 * sample's reads scaled (a sample of fewer lines than the limit read none). The L2's numbers are
 * cc's (ws_cache_config_from_device): l2_bytes the distinct bytes it holds (ws_cache_l2_lru_bytes),
 * dirty_limit its l2_dirty_limit. Where the L2 replay fits (above), the bytes left dirty at the end
 * are the replay's (at most the written sum), the rest of the sum written back, and the ECC reads
 * of partly written lines are the replay's too: a partial sector the neighbouring block completes
 * within the limit is never read, and a sample's block runs without its neighbours (a 4100^2
 * transpose: the sample's partial bytes per line gave 33x the full run's reads); where the replay
 * covers the grid's tail, its reads per line that left the limit x the grid's lines beyond the
 * limit, at the tail's partial lines per block. cc->l1_bytes: the L1 replay's (the run's L1). */
void ws_sampler_scale_cache(ws_sampler *sp, ws_cache_totals *c, const ws_cache_config *cc);
/* The factor a total of the sampled stream (cache model totals, SASS counts) is scaled by. */
double ws_sampler_factor(const ws_sampler *sp);
/* The L1 load sectors' factor (by stratum): with read coalescing in the sample, what the cache
 * totals, the latency sums and the rest scale by instead (an edge block run alone misses its
 * coalescer group's partners, so the L2 sectors' factor overstates the grid; cache.h). */
double ws_sampler_l1_factor(const ws_sampler *sp);
/* The report's line: "sampled: N of M blocks (...)"; "" when the run was full. */
const char *ws_sampler_text(const ws_sampler *sp);
typedef struct {
    bool sampled;
    uint64_t blocks_run, blocks_total, lead_blocks, edge_blocks;
    double waves;                /* lead blocks / wave */
    bool exact_exact;            /* every sampled block of a kind had the same instruction and memory counts */
    int single_kinds;            /* kinds of edge block taken from one block each (assumed alike): the text says
                                    "exact counters exact" only where exact_exact and this is 0 */
    double exact_bound;          /* relative bound (3 standard errors) of the exact counters, worst of them */
    double cache_bound;          /* relative bound of the L2 read hits and misses: the wave-to-wave spread of
                                    the later whole waves (2 at least), else 3 standard errors of the later
                                    blocks' per-block spread (the first wave ran whole); < 0: not measurable */
} ws_sample_info;
void ws_sampler_info(const ws_sampler *sp, ws_sample_info *out);
void ws_sampler_free(ws_sampler *sp);

#endif
