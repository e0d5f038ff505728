/* confidence.c - the notes behind a prediction's confidence and the verdict of a comparison
 * (see confidence.h). Every note names the mechanism, the line and what it does to the number. */
#include "confidence.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../frontend/casloop.h"
#include "pipes.h"

const char *ws_confidence_name(ws_confidence c)
{
    return c == WS_CONF_HIGH ? "high" : c == WS_CONF_MEDIUM ? "medium" : "low";
}

/* Adds a note unless one of the same mechanism is already on that line. */
static void add(ws_notes *o, ws_confidence level, int line, const char *mechanism, const char *fmt, ...)
{
    for (int i = 0; i < o->n; i++)
        if (o->notes[i].line == line && !strcmp(o->notes[i].mechanism, mechanism))
            return;
    if (o->n == WS_NOTES_MAX)
        return;
    ws_note *n = &o->notes[o->n++];
    n->level = level;
    n->line = line;
    n->mechanism = mechanism;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
    if (level > o->level)
        o->level = level;
}

static void instruction_notes(ws_notes *o, const ptx_function *fn, const ws_device *dev)
{
    int cas[WS_NOTES_MAX];
    int ncas = ws_cas_loops(fn, cas, WS_NOTES_MAX);
    for (int i = 0; i < ncas && i < WS_NOTES_MAX; i++)
        add(o, WS_CONF_LOW, fn->insns[cas[i]].src_line, "CAS retry loop",
            "atom.cas in a loop whose exit depends on its result: the GPU retries as often as other threads win "
            "(issue 23: 16,551 ATOM measured vs 8,192 simulated), so its count and time depend on timing");
    int wait[WS_NOTES_MAX];
    int nwait = ws_wait_loops(fn, wait, WS_NOTES_MAX);
    for (int i = 0; i < nwait && i < WS_NOTES_MAX; i++)
        if (ws_wait_blocks(&fn->insns[wait[i]]))   /* docs/timing-model.md "Wait loops" */
            add(o, WS_CONF_MEDIUM, fn->insns[wait[i]].src_line, "wait loop",
                "a loop on an mbarrier try_wait until another warp or a copy gets there: its instruction counts "
                "are this simulation's order of warps; the time counts one pass, as the GPU suspends the warp in "
                "the try_wait (a cuda::pipeline GEMM: 16.0 M instructions simulated, 3.66 M on the H200); retries "
                "past the hardware's time limit are not charged");
        else
            add(o, WS_CONF_MEDIUM, fn->insns[wait[i]].src_line, "wait loop",
                "a loop that spins on an mbarrier test_wait or a polled flag until another warp or a copy gets "
                "there: its instruction counts (and their issue time) are this simulation's order of warps, the "
                "GPU spins as long as what it waits for takes");
    for (int pc = 0; pc < fn->ninsns; pc++) {
        const ptx_insn *in = &fn->insns[pc];
        int line = in->src_line;
        if (in->op == PTX_MMA || in->op == PTX_WMMA_MMA || in->op == PTX_WGMMA_MMA) {
            /* the rate of this form on this profile: measured (H200), or none */
            ws_pipe form = ws_pipe_of_ptx(in);
            if (ptx_mma_type_subbyte(in->tc.atype))
                add(o, WS_CONF_LOW, line, "tensor pipe",
                    "%s with %s inputs: sm_90 has no such tensor-core form, ptxas emulates it (s4/u4 through s8 "
                    "IMMA and bit operations, .xor.popc as two .and.popc BMMA): the SASS counts are ptxas's, the "
                    "rate is the s8 IMMA's, unmeasured for these", ptx_op_info(in->op)->name,
                    ptx_mma_type_name(in->tc.atype));
            else if (dev && dev->tensor_insns_per_cycle[form] > 0)
                add(o, WS_CONF_MEDIUM, line, "tensor pipe",
                    "%s: the tensor pipe at its measured issue rate (results/h200-tensorpipe); its dependence "
                    "latency (29 cycles per mma.sync, 117-213 per wgmma) and the wait for it are not modelled",
                    ptx_op_info(in->op)->name);
            else
                add(o, WS_CONF_LOW, line, "tensor pipe",
                    "%s: no tensor-pipe rate for this device profile (only its issue slot is modelled): on the "
                    "H200 such kernels were predicted 1.3-5.6x too slow without one (issue 23)",
                    ptx_op_info(in->op)->name);
        } else if (in->op == PTX_CP_ASYNC)
            add(o, WS_CONF_LOW, line, "cp.async",
                "cp.async copies run beside compute: the model takes the overlap as complete (its shared writes "
                "are L1/shared wavefronts); the H200 overlapped 0.57-0.96 of the shorter (results/h200-tensorpipe)");
        else if (in->op == PTX_CP_BULK || in->op == PTX_CP_BULK_TENSOR)
            add(o, WS_CONF_LOW, line, "TMA",
                "bulk/tensor copies (TMA) run beside compute: the model takes the overlap as complete; a copy into "
                "shared memory takes no LSU data-path wavefront (the H200: 1.9 per 8 KB, results/h200-tma-cpasync), "
                "one out of it one per 128-B line (its reads of shared memory were not measured)");
    }
}

static void atomic_notes(ws_notes *o, const ws_device *dev, const ws_memstats *ms, const ws_atomic_totals *at,
                         const ws_timing *t)
{
    bool global_bound = t && t->bound == WS_BOUND_ATOMICS;
    bool shared_bound = t && t->bound == WS_BOUND_SHARED_ATOMICS;
    for (int pc = 0; pc < ws_memstats_ninsns(ms); pc++) {
        const ws_pc_stats *p = ws_memstats_pc(ms, pc);
        if (!p || !p->used || !p->atom_lane_ops || p->kind != WS_KIND_PLAIN)
            continue;
        if (p->space == WS_SPACE_GLOBAL) {
            if (global_bound)
                add(o, WS_CONF_LOW, p->src_line, "contended atomics",
                    "same-address contention sets the bound (%llu ops on one address, %llu sector-ops on one "
                    "%d-B slice range, %llu operand bytes into it) at %.3g ns per same-address op and %.3g ns per "
                    "sector-op in a slice (measured on the H200; results/h200-contention-validation.md lists "
                    "where it misses); the real slice hash is not modelled",
                    (unsigned long long)(at ? (at->addr_ops_max > at->addr_float_ops_max ? at->addr_ops_max
                                                                                         : at->addr_float_ops_max) : 0),
                    (unsigned long long)(at ? at->slice_sector_ops_max : 0), dev->atom_slice_bytes,
                    (unsigned long long)(at ? at->slice_operand_bytes_max : 0), dev->atom_same_address_ns,
                    dev->atom_sector_pass_ns);
            else
                add(o, WS_CONF_MEDIUM, p->src_line, "atomics",
                    "global atomics, modelled with the H200's measured rates (up to %u lane(s) of one instruction on one "
                    "address; %llu op(s) on the most updated address); not the bound",
                    p->atom_same_addr_max, (unsigned long long)(at ? at->addr_ops_max : 0));
        } else if (p->space == WS_SPACE_SHARED) {
            double passes = p->executions ? (double)p->atom_passes / (double)p->executions : 0;
            add(o, shared_bound ? WS_CONF_LOW : WS_CONF_MEDIUM, p->src_line, "shared atomics",
                "shared atomics: %.1f wavefronts per instruction (lanes on one bank go in turn, lanes on one word "
                "combine) at %.2g cycle(s) each%s; contention between warps on one word is not modelled",
                passes, dev->shared_atom_cycles_per_pass, shared_bound ? ", which sets the bound" : "");
        }
    }
}

void ws_notes_build(ws_notes *out, const ws_device *dev, const ws_memstats *ms, const ws_atomic_totals *at,
                    const ws_timing *t, const ptx_function *fn, const ws_launch *launch)
{
    memset(out, 0, sizeof *out);
    out->level = WS_CONF_HIGH;
    if (fn)
        instruction_notes(out, fn, dev);
    if (ms)
        atomic_notes(out, dev, ms, at, t);
    if (launch && !(dev->block_launch_cycles > 0)) {
        uint64_t threads = ws_launch_threads_per_block(launch);
        uint64_t blocks = ws_launch_blocks(launch);
        uint64_t per_sm = dev->sm_count > 0 ? (blocks + (uint64_t)dev->sm_count - 1) / (uint64_t)dev->sm_count : 0;
        if (threads <= 64 && per_sm >= 8) /* many small blocks: the launch rate, not the work, may set the pace */
            add(out, WS_CONF_MEDIUM, 0, "block launch rate",
                "%llu blocks per SM of %llu threads: the block launch rate is not calibrated for this profile "
                "(block_launch_cycles = 0), so the prediction may be too fast",
                (unsigned long long)per_sm, (unsigned long long)threads);
    }
}

static bool launch_dominates(const ws_timing *t)
{
    return t->t_launch_us > 0 && t->t_launch_us >= t->t_kernel_us - t->t_launch_us;
}

void ws_compare_verdict_of(const ws_timing *a, const ws_notes *na, const ws_timing *b, const ws_notes *nb,
                           ws_compare_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->ratio = b->t_kernel_us > 0 ? a->t_kernel_us / b->t_kernel_us : 0;
    v->b_faster = v->ratio > 1;
    double r = v->ratio >= 1 ? v->ratio : v->ratio > 0 ? 1 / v->ratio : INFINITY;
    ws_confidence c = na && nb ? (na->level > nb->level ? na->level : nb->level) : WS_CONF_MEDIUM;
    const double e = WS_TIMING_KNOWN_ERROR;
    const char *why;
    if (r < 1 + e) {
        c = WS_CONF_LOW;
        why = "the two predictions differ by less than the model's known error (25%)";
    } else if (r < (1 + e) * (1 + e)) {
        if (c < WS_CONF_MEDIUM)
            c = WS_CONF_MEDIUM;
        why = "the margin is less than twice the model's known error (25%)";
    } else {
        why = "the margin is well beyond the model's known error (25%)";
    }
    v->launch_dominates_both = launch_dominates(a) && launch_dominates(b);
    v->limiter_a = launch_dominates(a) ? "launch" : ws_bound_class(a->bound);
    v->limiter_b = launch_dominates(b) ? "launch" : ws_bound_class(b->bound);
    v->level = c;
    /* the note that lowers the confidence most, of the variant it belongs to */
    const ws_notes *worst = na && (!nb || na->level >= nb->level) ? na : nb;
    const char *who = worst == na ? "A" : "B", *what = NULL;
    for (int i = 0; worst && i < worst->n && !what; i++)
        if (worst->notes[i].level == worst->level)
            what = worst->notes[i].mechanism;
    char rests[96] = "";
    if (what)
        snprintf(rests, sizeof rests, "; %s rests on %s (its notes)", who, what);
    snprintf(v->why, sizeof v->why, "%s%s%s", why, rests,
             v->launch_dominates_both ? "; the launch overhead dominates both: the difference is in the little "
                                        "work beyond it" : "");
}
