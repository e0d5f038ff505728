/* latency.c - access latencies and per-warp latency epochs (see latency.h). Reads only
 * verdicts: the cache model's sector outcomes and the bank model's wavefronts. */
#include "latency.h"
#include "../frontend/deps.h"
#include "models.h"

#include "../../common/ws_assert.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define MAX_TRACKED_WARPS (64ull << 20) /* beyond this, every load is its own epoch */

/* A warp's current latency epoch: the loads it has in flight together (see step()). */
typedef struct {
    int32_t last_pc;           /* pc of its previous memory instruction, -1 before the first */
    float epoch_cycles;        /* the slowest load of the open epoch */
    float short_cycles;        /* a kernel with barriers: its epochs of shared loads only (close_epoch()) */
    int32_t epoch_wait;        /* the SASS wait count at the open epoch's global/local loads, -1 = none */
    int32_t copy_pc;           /* pc of the open epoch's latest cp.async, -1 = none */
    float copy_cycles;         /* the slowest cp.async of the open epoch */
    float other_cycles;        /* the slowest of its other loads */
    uint8_t epoch_dram;        /* 1: the open epoch has a load with a sector from DRAM */
    uint8_t epoch_global;      /* 1: the open epoch has a load that is not a shared one */
    uint8_t epoch_plain;       /* 1: the open epoch has a global/local load that is not a cp.async copy */
} warp_epoch;

_Static_assert(sizeof(warp_epoch) == 32, "a warp's epoch: 32 bytes, one per warp of the grid");

#define NO_EPOCH(pc) ((warp_epoch){.last_pc = (pc), .epoch_wait = -1, .copy_pc = -1})

struct ws_latency {
    const ws_device *dev;
    int warps_per_block;
    int finished;
    warp_epoch *warps;         /* per warp_global; NULL when too many to track */
    uint64_t nwarps, nblocks;
    ws_deps deps;              /* barriers and dependent loads, from ws_latency_set_function */
    const ptx_function *fn;    /* its wait_groups (ws_latency_set_wait_counts) */
    int32_t *full_wait_after;  /* per pc: the first cp.async.wait_group 0 / wait_all at or after it (ninsns: none) */
    double *sm_cycles;
    double *sm_dram_epochs;    /* epochs with a DRAM load: the DRAM queue waits they count */
    double *sm_short_cycles;   /* of sm_cycles: the blocks' short chains (epochs of shared loads only) */
    double *sm_insn_cycles;    /* of sm_cycles: the warps' own instructions (ws_latency_add_chains) */
    double block_tail_cycles;  /* what a block-wide DRAM epoch adds: its slowest warp (block_tail()) */
    double block_tail_queue;   /* the queue waits a block-wide DRAM epoch counts (block_tail_queue()) */
    bool has_barrier;          /* the function has a block barrier: short chains hold the block */
    int copy_depth;            /* the pipeline's depth N (ws_latency_set_wait_counts; 0: none) */
    bool may_pipeline;         /* the function has a cp.async.wait_group N > 0 */
    double *sm_copy_cycles;    /* epochs of pipelined copies alone, undivided: folded in by ws_latency_finish */
    int *waits;                /* per event pc: the SASS's load waits before it (ws_latency_set_load_waits) */
    int nwaits;
};

/* A DRAM epoch that ends at a barrier or at the block's exit holds every warp of the block (its
 * slot frees when the last warp is done) until the slowest of the block's loads returns: the tail
 * of the DRAM latency distribution. The probe measured the slowest of K random DRAM loads at
 * 1 + dram_tail_per_ln x ln K times one (results/h200-latency: K = 4: 1.32, K = 8: 1.55). */
static double block_tail(const ws_device *dev, int warps_per_block)
{
    return warps_per_block > 1 && dev->dram_tail_per_ln > 0
               ? dev->dram_cycles * dev->dram_tail_per_ln * log((double)warps_per_block) : 0;
}

/* Under load the block's slowest warp also waited longest in the DRAM queue: an M/M/1 queue's wait
 * is exponential, and the largest of K exponential waits of mean q averages q x H_K, the K-th
 * harmonic number (1 + 1/2 + ... + 1/K): 2.72 for the 8 warps of a 256-thread block, 4.06 for 32.
 * So a block-wide DRAM epoch counts H_K queue waits where a warp's own epoch counts one. */
static double block_tail_queue(int warps_per_block)
{
    double h = 0;
    for (int k = 1; k <= warps_per_block; k++)
        h += 1.0 / k;
    return h > 1 ? h : 1;
}

ws_latency *ws_latency_new(const ws_device *dev, const ws_launch *launch)
{
    if (!dev || !launch || dev->sm_count <= 0)
        return NULL;
    ws_latency *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->dev = dev;
    l->warps_per_block = (int)ws_launch_warps_per_block(launch);
    uint64_t nblocks = ws_launch_blocks(launch);
    l->nblocks = nblocks;
    l->nwarps = nblocks * (uint64_t)l->warps_per_block;
    l->block_tail_cycles = block_tail(dev, l->warps_per_block);
    l->block_tail_queue = dev->dram_tail_per_ln > 0 ? block_tail_queue(l->warps_per_block) : 1;
    l->sm_cycles = calloc((size_t)dev->sm_count, sizeof *l->sm_cycles);
    l->sm_dram_epochs = calloc((size_t)dev->sm_count, sizeof *l->sm_dram_epochs);
    l->sm_short_cycles = calloc((size_t)dev->sm_count, sizeof *l->sm_short_cycles);
    l->sm_insn_cycles = calloc((size_t)dev->sm_count, sizeof *l->sm_insn_cycles);
    l->sm_copy_cycles = calloc((size_t)dev->sm_count, sizeof *l->sm_copy_cycles);
    if (!l->sm_cycles || !l->sm_dram_epochs || !l->sm_short_cycles || !l->sm_insn_cycles || !l->sm_copy_cycles) {
        ws_latency_free(l);
        return NULL;
    }
    if (l->nwarps <= MAX_TRACKED_WARPS) {
        l->warps = malloc((size_t)(l->nwarps ? l->nwarps : 1) * sizeof *l->warps);
        if (!l->warps) {
            ws_latency_free(l);
            return NULL;
        }
        for (uint64_t w = 0; w < l->nwarps; w++)
            l->warps[w] = NO_EPOCH(-1);
    }
    return l;
}

int ws_latency_set_function(ws_latency *l, const ptx_function *fn)
{
    ws_deps_free(&l->deps);
    int rc = ws_deps_init(&l->deps, fn);
    l->has_barrier = false;
    for (int pc = 0; pc < l->deps.ninsns; pc++)
        if (l->deps.flags[pc] & WS_DEP_BARRIER)
            l->has_barrier = true;
    /* the pipeline's depth before the run's counts are known (ws_latency_set_wait_counts): N where
       the function's cp.async.wait_group immediates are N alone or N and 0 (the loop's wait and the
       drain after it), else none */
    l->fn = fn;
    free(l->full_wait_after);
    l->full_wait_after = NULL;
    if (fn && fn->ninsns > 0 && (l->full_wait_after = malloc((size_t)fn->ninsns * sizeof *l->full_wait_after))) {
        int32_t next = fn->ninsns;
        for (int pc = fn->ninsns - 1; pc >= 0; pc--) {
            const ptx_insn *in = &fn->insns[pc];
            if (in->op == PTX_CP_WAIT_ALL || (in->op == PTX_CP_WAIT && in->opnd[0].kind == PTX_OPND_IMM && in->opnd[0].imm == 0))
                next = pc;
            l->full_wait_after[pc] = next;
        }
    } else if (fn && fn->ninsns > 0)
        rc = -1;
    l->copy_depth = 0;
    l->may_pipeline = false;
    for (int pc = 0; fn && pc < fn->ninsns; pc++) {
        int64_t n = fn->insns[pc].op == PTX_CP_WAIT ? fn->insns[pc].opnd[0].imm : 0;
        if (n > 0) l->may_pipeline = true;
        if (n > 0 && l->copy_depth >= 0)
            l->copy_depth = l->copy_depth == 0 || l->copy_depth == n ? (int)n : -1;
    }
    if (l->copy_depth < 0)
        l->copy_depth = 0;
    return rc;
}

void ws_latency_set_wait_counts(ws_latency *l, const uint64_t *pc_warp_count, int ninsns)
{
    /* The depth the run kept: the N > 0 of the wait_group its warps executed most. A drain that
       steps down after the loop (wait 2 in the loop, then 1 and 0: Bruce-Lee-LY's Stage4) runs
       its smaller waits once; libcu++'s cuda::pipeline picks the wait from a switch over 0-7 at
       run time, the one executed being the depth it kept. */
    const ptx_function *fn = l->fn;
    if (!fn || !pc_warp_count) return;
    uint64_t best = 0;
    int depth = 0;
    for (int pc = 0; pc < fn->ninsns && pc < ninsns; pc++) {
        if (fn->insns[pc].op != PTX_CP_WAIT || fn->insns[pc].opnd[0].kind != PTX_OPND_IMM) continue;
        int64_t n = fn->insns[pc].opnd[0].imm;
        uint64_t c = pc_warp_count[pc];
        if (n > 0 && n < 64 && (c > best || (c == best && c && n < depth))) {
            best = c;
            depth = (int)n;
        }
    }
    l->copy_depth = depth;
}

void ws_latency_set_load_waits(ws_latency *l, int *waits, int n)
{
    free(l->waits);
    l->waits = waits;
    l->nwaits = waits ? n : 0;
}

void ws_latency_free(ws_latency *l)
{
    if (!l)
        return;
    ws_deps_free(&l->deps);
    free(l->waits);
    free(l->warps);
    free(l->sm_cycles);
    free(l->sm_dram_epochs);
    free(l->sm_short_cycles);
    free(l->sm_insn_cycles);
    free(l->sm_copy_cycles);
    free(l->full_wait_after);
    free(l);
}

/* Memory-level parallelism of one warp. Its loads form epochs: the loads of an epoch
 * are in flight together (ptxas hoists independent loads of a loop body above their
 * first use, and the scoreboard lets a warp issue past outstanding loads), so an epoch
 * costs its slowest load, and epochs follow one another. An epoch ends at a barrier
 * (the block waits for every warp's loads), at a backward jump (the next loop
 * iteration: ptxas does not software-pipeline loads across iterations), and at an
 * access whose address comes from a global/local load (it must wait for that load).
 * lat < 0: an access that costs no latency (a store) but still moves the warp's pc.
 * An epoch with a DRAM sector is counted apart: under load it waits once more for the DRAM
 * queue (its loads queue together), which timing.c solves with the kernel's utilisation. */
static bool from_dram(const ws_mem_verdict *v)
{
    if (!v->co || !v->ca || v->latency < 0)
        return false;
    if (v->ca->l2_hit_inflight_sectors) /* it waits for a DRAM fetch in the queue (cache.h) */
        return true;
    for (int i = 0; i < v->co->nentries; i++)
        if (v->ca->outcome[i] == WS_SECT_DRAM)
            return true;
    return false;
}

/* A kernel with block barriers: an epoch of shared loads only is part of the warp's short chain,
 * which the block's barriers make every warp of the block wait for (ws_latency_finish charges each
 * warp the block's longest). Any other epoch costs the warp itself, as before.
 * A pipeline's copies (cp.async.wait_group N > 0) are waited for N iterations after they were issued:
 * copy t + N goes out as the block waits for copy t, so in a latency-bound steady state N + 1
 * iterations share one copy latency L (S_{t+1} = S_{t-N} + L + work: each iteration waits
 * (L + work) / (N + 1)). An epoch of such copies alone therefore adds L / (N + 1) to the chain (the
 * warps' work is added in full by ws_latency_add_chains). Measured: the other 64-B half of a cold
 * line is a full DRAM latency again (results/h200-halfline: 657-660 cycles, a new line 672-676), so
 * each k-step of a double-buffered GEMM is a DRAM epoch, yet mma_cp_async at 256 blocks took ~430
 * cycles a k-step (results/h200-lrc-sizes/ksweep), not the ~1,230 of a latency a k-step. */
static void close_epoch(ws_latency *l, warp_epoch *w, int sm, bool barrier)
{
    if (l->has_barrier && !w->epoch_global && !w->epoch_dram)
        w->short_cycles += w->epoch_cycles;
    else {
        double tail = barrier && w->epoch_dram ? l->block_tail_cycles : 0;
        double lat = w->epoch_cycles + tail;
        bool copies_alone = w->epoch_global && !w->epoch_plain;
        int32_t upto = w->last_pc;     /* a wait for every copy ends the work the copies fly under */
        if (l->full_wait_after && w->copy_pc >= 0 && w->copy_pc < l->fn->ninsns && l->full_wait_after[w->copy_pc] < upto)
            upto = l->full_wait_after[w->copy_pc];
        if (copies_alone && w->copy_pc >= 0 && upto > w->copy_pc) {
            /* the warp's own instructions after its last copy, up to the wait for it, run while the
               copies fly: a block that copies tile t + 1 before it multiplies tile t waits
               max(L - work, its other loads) */
            double work = (double)(upto - w->copy_pc) * l->dev->insn_chain_cycles;
            double copy = w->copy_cycles + tail - work;
            lat = copy > w->other_cycles ? copy : w->other_cycles;
        }
        /* divided by the depth the run kept once it is known (ws_latency_finish) */
        if (l->may_pipeline && copies_alone) l->sm_copy_cycles[sm] += lat;
        else l->sm_cycles[sm] += lat;
    }
}

void ws_latency_verdict(void *ctx, const ws_mem_verdict *v)
{
    ws_latency *l = ctx;
    if (l->finished || !v->has_latency)
        return;
    const ws_mem_event *ev = v->ev;
    double lat = v->latency;
    double *S = &l->sm_cycles[v->sm];
    warp_epoch *w = l->warps && ev->warp_global < l->nwarps ? &l->warps[ev->warp_global] : NULL;
    bool dram = from_dram(v);
    if (!w) {
        if (lat > 0)
            *S += lat;
        if (dram)
            l->sm_dram_epochs[v->sm] += 1;
        return;
    }
    int pc = (int)ev->pc;
    bool dependent = l->deps.ninsns && pc < l->deps.ninsns && (l->deps.flags[pc] & WS_DEP_ADDR_FROM_LOAD);
    bool barrier = w->last_pc >= 0 && ws_deps_barrier_between(&l->deps, w->last_pc, pc);
    /* One instruction's further events are the same access, not the loop coming round: a copy's
       shared write after its global read (cp.async, bulk, TMA), a wmma fragment's or a copy's later
       parts. Taken as a new epoch, each cp.async of a pipelined GEMM paid a DRAM latency of its own. */
    bool copy_side = (ev->kind == WS_KIND_LDGSTS || ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA) &&
                     ev->space == WS_SPACE_SHARED;
    /* A bulk or tensor copy's global read right after one of the same instruction is in flight with
       it: every lane's cp.async.bulk of one warp instruction is an event of its own, and so is each
       copy of a loop that issues them with no wait between. Taken as an epoch each, cuda-samples'
       per-thread bulk copies (LargeChunkAWBarrier) paid 32 latencies a warp instruction: 109.7 us
       predicted, 20.7 measured (now 32.6). */
    bool bulk_copy = ev->kind == WS_KIND_BULK || ev->kind == WS_KIND_TMA;
    bool same_insn = pc == w->last_pc && (ev->part > 0 || copy_side || bulk_copy);
    if (same_insn)
        barrier = false;
    /* a global/local load the SASS issues after a wait for the open epoch's loads (in-order issue,
       ws_sass_load_waits) is issued once they are back. Loads only: the PTX's order is not the
       SASS's (a tile copy's ld/st pairs are all LDG, then all STS), so the epoch keeps its loads' count */
    bool long_load = lat > 0 && ev->space != WS_SPACE_SHARED && ev->op != WS_MEM_STORE;
    int wait = long_load && pc >= 0 && pc < l->nwaits ? l->waits[pc] : -1;
    bool waited = wait >= 0 && w->epoch_wait >= 0 && wait > w->epoch_wait;
    if (!same_insn && (w->last_pc < 0 || pc <= w->last_pc || dependent || barrier || waited)) {
        close_epoch(l, w, v->sm, barrier);
        l->sm_dram_epochs[v->sm] += w->epoch_dram ? (barrier ? l->block_tail_queue : 1) : 0;
        w->epoch_cycles = 0;
        w->epoch_dram = 0;
        w->epoch_global = 0;
        w->epoch_plain = 0;
        w->epoch_wait = -1;
        w->copy_pc = -1;
        w->copy_cycles = w->other_cycles = 0;
    }
    if (wait > w->epoch_wait)
        w->epoch_wait = wait;
    w->last_pc = pc;
    if (lat > w->epoch_cycles)
        w->epoch_cycles = (float)lat;
    if (ev->kind == WS_KIND_LDGSTS) {
        w->copy_pc = pc;
        if (lat > w->copy_cycles) w->copy_cycles = (float)lat;
    } else if (lat > w->other_cycles)
        w->other_cycles = (float)lat;
    if (dram)
        w->epoch_dram = 1;
    if (lat > 0 && ev->space != WS_SPACE_SHARED) {
        w->epoch_global = 1;
        if (ev->kind != WS_KIND_LDGSTS)
            w->epoch_plain = 1;
    }
}

void ws_latency_finish(ws_latency *l)
{
    if (l->finished)
        return;
    uint64_t K = (uint64_t)l->warps_per_block;
    for (uint64_t b = 0; l->warps && K && b < l->nblocks; b++) {
        int sm = ws_block_sm((uint32_t)b, l->dev->sm_count);
        double longest = 0;
        for (uint64_t w = b * K; w < (b + 1) * K && w < l->nwarps; w++) { /* close every open epoch */
            warp_epoch *e = &l->warps[w];
            close_epoch(l, e, sm, e->epoch_dram); /* the exit: a DRAM epoch waits for the block */
            l->sm_dram_epochs[sm] += e->epoch_dram ? l->block_tail_queue : 0;
            if (e->short_cycles > longest)
                longest = e->short_cycles;
            *e = NO_EPOCH(e->last_pc);
        }
        /* the barriers hold every warp of the block until its longest short chain is done (the
           tree reduction's working warp): each warp is charged that chain, not its own */
        l->sm_cycles[sm] += (double)K * longest;
        l->sm_short_cycles[sm] += (double)K * longest;
    }
    for (int s = 0; s < l->dev->sm_count; s++) {
        l->sm_cycles[s] += l->sm_copy_cycles[s] / (l->copy_depth + 1);
        l->sm_copy_cycles[s] = 0;
    }
    l->finished = 1;
    WS_ASSERT(ws_latency_check(l) == 0);
}

int ws_latency_check(const ws_latency *l)
{
    for (uint64_t w = 0; l->warps && w < l->nwarps; w++)
        if (l->warps[w].epoch_cycles != 0 || l->warps[w].epoch_dram || l->warps[w].short_cycles != 0) return 1;
    for (int s = 0; s < l->dev->sm_count; s++)
        if (!(l->sm_cycles[s] >= 0) || !(l->sm_dram_epochs[s] >= 0) || !(l->sm_short_cycles[s] >= 0) ||
            !(l->sm_insn_cycles[s] >= 0) ||
            l->sm_short_cycles[s] + l->sm_insn_cycles[s] > l->sm_cycles[s] * (1 + 1e-9)) return 2; /* NaN fails too */
    return 0;
}

double ws_latency_sm_cycles(const ws_latency *l, int sm)
{
    return sm >= 0 && sm < l->dev->sm_count ? l->sm_cycles[sm] : 0;
}

double ws_latency_sm_dram_epochs(const ws_latency *l, int sm)
{
    return sm >= 0 && sm < l->dev->sm_count ? l->sm_dram_epochs[sm] : 0;
}

double ws_latency_sm_short_cycles(const ws_latency *l, int sm)
{
    return sm >= 0 && sm < l->dev->sm_count ? l->sm_short_cycles[sm] : 0;
}

double ws_latency_sm_insn_cycles(const ws_latency *l, int sm)
{
    return sm >= 0 && sm < l->dev->sm_count ? l->sm_insn_cycles[sm] : 0;
}

void ws_latency_scale(ws_latency *l, double f)
{
    /* The sampled blocks sit on the SMs unevenly (the lead blocks one per SM, an edge block on
       whichever SM its number gives), so scaling each SM's own sum would put a whole stratum's
       cycles on the one SM its representative ran on. The grid's sum is spread instead as the
       grid's blocks are (ws_blocks_on_sm): a block costs the same on every SM, on average. */
    double cyc = 0, epochs = 0, shrt = 0;
    int n = l->dev->sm_count;
    for (int s = 0; s < n; s++) {
        cyc += l->sm_cycles[s];
        epochs += l->sm_dram_epochs[s];
        shrt += l->sm_short_cycles[s];
    }
    for (int s = 0; s < n; s++) {
        double share = l->nblocks ? (double)ws_blocks_on_sm(l->nblocks, n, s) / (double)l->nblocks : 0;
        l->sm_cycles[s] = cyc * f * share;
        l->sm_dram_epochs[s] = epochs * f * share;
        l->sm_short_cycles[s] = shrt * f * share;
    }
}

void ws_latency_add_chains(ws_latency *l, double warp_insns, const uint64_t *pc_warp_count, int ninsns)
{
    /* Each warp's own instructions and the barriers it passes hold it (docs/timing-model.md
       "Dependent chains and barriers"); they follow the blocks, as the issue term's share does. */
    double passes = 0;
    for (int pc = 0; pc_warp_count && pc < ninsns && pc < l->deps.ninsns; pc++)
        if (l->deps.flags[pc] & WS_DEP_BARRIER)
            passes += (double)pc_warp_count[pc];
    double ic = l->dev->insn_chain_cycles > 0 ? l->dev->insn_chain_cycles : 0;
    /* the barrier takes its block's warps' arrivals one after another (results/h200-stall2) */
    double bc = (l->dev->barrier_cycles > 0 ? l->dev->barrier_cycles : 0) +
                (l->dev->barrier_warp_cycles > 0 ? l->dev->barrier_warp_cycles * l->warps_per_block : 0);
    double insn = warp_insns > 0 ? warp_insns * ic : 0, bar = passes * bc;
    int n = l->dev->sm_count;
    for (int s = 0; s < n && l->nblocks; s++) {
        double share = (double)ws_blocks_on_sm(l->nblocks, n, s) / (double)l->nblocks;
        l->sm_cycles[s] += (insn + bar) * share;
        l->sm_insn_cycles[s] += insn * share;
    }
}
