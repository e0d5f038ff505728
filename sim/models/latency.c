/* latency.c - access latencies and per-warp latency epochs (see latency.h). Reads only
 * verdicts: the cache model's sector outcomes and the bank model's wavefronts. */
#include "latency.h"
#include "../frontend/deps.h"

#include "../../common/ws_assert.h"

#include <stdbool.h>
#include <stdlib.h>

#define MAX_TRACKED_WARPS (64ull << 20) /* beyond this, every load is its own epoch */

/* A warp's current latency epoch: the loads it has in flight together (see step()). */
typedef struct {
    int32_t last_pc;           /* pc of its previous memory instruction, -1 before the first */
    float epoch_cycles;        /* the slowest load of the open epoch */
} warp_epoch;

struct ws_latency {
    const ws_device *dev;
    int warps_per_block;
    int finished;
    warp_epoch *warps;         /* per warp_global; NULL when too many to track */
    uint64_t nwarps;
    ws_deps deps;              /* barriers and dependent loads, from ws_latency_set_function */
    double *sm_cycles;
};

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
    l->nwarps = nblocks * (uint64_t)l->warps_per_block;
    l->sm_cycles = calloc((size_t)dev->sm_count, sizeof *l->sm_cycles);
    if (!l->sm_cycles) {
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
            l->warps[w] = (warp_epoch){-1, 0.0f};
    }
    return l;
}

int ws_latency_set_function(ws_latency *l, const ptx_function *fn)
{
    ws_deps_free(&l->deps);
    return ws_deps_init(&l->deps, fn);
}

void ws_latency_free(ws_latency *l)
{
    if (!l)
        return;
    ws_deps_free(&l->deps);
    free(l->warps);
    free(l->sm_cycles);
    free(l);
}

/* Memory-level parallelism of one warp. Its loads form epochs: the loads of an epoch
 * are in flight together (ptxas hoists independent loads of a loop body above their
 * first use, and the scoreboard lets a warp issue past outstanding loads), so an epoch
 * costs its slowest load, and epochs follow one another. An epoch ends at a barrier
 * (the block waits for every warp's loads), at a backward jump (the next loop
 * iteration: ptxas does not software-pipeline loads across iterations), and at an
 * access whose address comes from a global/local load (it must wait for that load).
 * lat < 0: an access that costs no latency (a store) but still moves the warp's pc. */
void ws_latency_verdict(void *ctx, const ws_mem_verdict *v)
{
    ws_latency *l = ctx;
    if (l->finished || !v->has_latency)
        return;
    const ws_mem_event *ev = v->ev;
    double lat = v->latency;
    double *S = &l->sm_cycles[v->sm];
    warp_epoch *w = l->warps && ev->warp_global < l->nwarps ? &l->warps[ev->warp_global] : NULL;
    if (!w) {
        if (lat > 0)
            *S += lat;
        return;
    }
    int pc = (int)ev->pc;
    bool dependent = l->deps.ninsns && pc < l->deps.ninsns && (l->deps.flags[pc] & WS_DEP_ADDR_FROM_LOAD);
    if (w->last_pc < 0 || pc <= w->last_pc || dependent || ws_deps_barrier_between(&l->deps, w->last_pc, pc)) {
        *S += w->epoch_cycles;
        w->epoch_cycles = 0;
    }
    w->last_pc = pc;
    if (lat > w->epoch_cycles)
        w->epoch_cycles = (float)lat;
}

void ws_latency_finish(ws_latency *l)
{
    if (l->finished)
        return;
    for (uint64_t w = 0; l->warps && w < l->nwarps; w++) { /* close every open epoch */
        l->sm_cycles[ws_block_sm((uint32_t)(w / (uint64_t)l->warps_per_block), l->dev->sm_count)] +=
            l->warps[w].epoch_cycles;
        l->warps[w].epoch_cycles = 0;
    }
    l->finished = 1;
    WS_ASSERT(ws_latency_check(l) == 0);
}

int ws_latency_check(const ws_latency *l)
{
    for (uint64_t w = 0; l->warps && w < l->nwarps; w++)
        if (l->warps[w].epoch_cycles != 0) return 1;
    for (int s = 0; s < l->dev->sm_count; s++)
        if (!(l->sm_cycles[s] >= 0)) return 2;      /* NaN fails too */
    return 0;
}

double ws_latency_sm_cycles(const ws_latency *l, int sm)
{
    return sm >= 0 && sm < l->dev->sm_count ? l->sm_cycles[sm] : 0;
}

void ws_latency_scale(ws_latency *l, double f)
{
    for (int s = 0; s < l->dev->sm_count; s++) l->sm_cycles[s] *= f;
}
