/* timing.c - the bound-and-bottleneck timing model (see timing.h and
 * docs/timing-model.md). Pure arithmetic on the traffic the models counted. */
#include "timing.h"

#include <math.h>
#include <string.h>

const char *ws_pipe_name(ws_pipe p)
{
    switch (p) {
    case WS_PIPE_ALU: return "ALU";
    case WS_PIPE_FMA: return "FMA";
    case WS_PIPE_FMAHEAVY: return "FMA-heavy";
    case WS_PIPE_FP64: return "FP64";
    case WS_PIPE_XU: return "XU";
    case WS_PIPE_HMMA: return "HMMA";
    case WS_PIPE_HMMA_K8: return "HMMA.1688";
    case WS_PIPE_IMMA: return "IMMA";
    case WS_PIPE_DMMA: return "DMMA";
    case WS_PIPE_GMMA: return "GMMA";
    default: return "";
    }
}

void ws_timing_input_add_pipes(ws_timing_input *in, const uint64_t pipe_insns[WS_PIPE_COUNT])
{
    for (int p = 0; p < WS_PIPE_COUNT; p++)
        in->pipe_insns_max[p] = pipe_insns ? (double)pipe_insns[p] * in->issue_share_max : 0;
}

const char *ws_bound_name(ws_bound b)
{
    switch (b) {
    case WS_BOUND_DRAM: return "DRAM bandwidth";
    case WS_BOUND_L2: return "L2 bandwidth";
    case WS_BOUND_L1: return "L1/shared wavefronts";
    case WS_BOUND_ISSUE: return "instruction issue";
    case WS_BOUND_LATENCY: return "memory latency (too few warps in flight)";
    case WS_BOUND_ATOMICS: return "atomics (same-address contention)";
    case WS_BOUND_SHARED_ATOMICS: return "shared atomics";
    case WS_BOUND_BLOCK_LAUNCH: return "block launch rate";
    case WS_BOUND_TENSOR: return "tensor pipe";
    default: return "launch overhead";
    }
}

const char *ws_bound_class(ws_bound b)
{
    switch (b) {
    case WS_BOUND_DRAM: return "DRAM";
    case WS_BOUND_L2: return "L2";
    case WS_BOUND_L1: return "shared";
    case WS_BOUND_ISSUE: return "issue";
    case WS_BOUND_LATENCY: return "latency";
    case WS_BOUND_ATOMICS: return "atomics";
    case WS_BOUND_SHARED_ATOMICS: return "shared atomics";
    case WS_BOUND_TENSOR: return "tensor"; /* check_validate.c's class name */
    default: return "launch";
    }
}

void ws_timing_input_add_atomics(ws_timing_input *in, const ws_atomic_totals *at)
{
    if (!at)
        return;
    in->atom_addr_ops_max = (double)at->addr_ops_max;
    in->atom_addr_float_ops_max = (double)at->addr_float_ops_max;
    in->atom_slice_sector_ops_max = (double)at->slice_sector_ops_max;
    in->atom_slice_operand_bytes_max = (double)at->slice_operand_bytes_max;
    in->atom_sector_ops = (double)at->global_sector_ops;
    in->atom_window_unit_ops = at->window_unit_ops;
    in->shared_atom_passes_max = (double)at->shared_passes_sm_max;
}

/* The request term's share of n requests of s sectors: the request rates were measured on
 * one-sector requests (reads: 78 per cycle, results/h200-local; the 35 of profiles without a read
 * rate was fitted on the naive transpose's stores), while full-line requests ran faster than that
 * on the H200 (mma_tma: 69 M four-sector requests at >= 44.5 per cycle, the byte term's 11 TB/s):
 * a full line is the byte term's. Each request is taken as one sector or four, so (4n - s) / 3 of
 * them are partial. */
static double partial_requests(double n, double s)
{
    double p = (4.0 * n - s) / 3.0;
    return p < 0 ? 0 : p > n ? n : p;
}

void ws_timing_input_from_memstats(const ws_memstats *ms, const ws_latency *lat, const ws_occupancy *occ,
                                   uint64_t warp_insns, uint64_t bytes_moved, ws_timing_input *in)
{
    memset(in, 0, sizeof *in);
    const ws_mem_totals *t = ws_memstats_totals(ms);
    const ws_cache_totals *c = &t->cache;
    in->dram_bytes = (double)(c->dram_read_bytes + c->dram_write_bytes);
    in->dram_access_bytes = (double)c->dram_access_bytes;
    in->dram_short_bytes = (double)c->dram_short_bytes;
    in->dram_row_opens = (double)c->dram_row_opens;
    /* The kernel does not find L2 clean: what ran before (check's memset flush of twice the
     * L2, or the previous kernel of a pipeline) left dirty lines, and a line this kernel
     * allocates over one writes it back first (ws_timing_predict, docs/timing-model.md). */
    in->l2_displaced_lines = (double)c->l2_cold_allocations;
    in->l2_bytes = 32.0 * (double)(c->l2_read_sectors + c->l2_write_sectors + c->l2_atom_sectors);
    /* atomics' requests are the contention terms' (their whole-L2 rate was measured: 76 units,
     * results/h200-contention.md); the request rate here was fitted on loads and stores */
    in->l2_requests = partial_requests((double)c->l2_read_requests, (double)c->l2_read_sectors);
    in->l2_write_requests = (double)c->l2_write_requests;
    in->l2_write_sectors = (double)c->l2_write_sectors;
    in->l2_write_partial_sectors = (double)c->l2_write_partial_sectors;
    in->bytes_moved = (double)bytes_moved;
    { /* the L1-hit share of the data lines: the hit rate is per load sector, taken per load line */
        double all = 0, ld = (double)(t->global[WS_MEM_LOAD].lines + t->local[WS_MEM_LOAD].lines);
        for (int op = 0; op < 4; op++)
            all += (double)(t->global[op].lines + t->local[op].lines);
        double hit = (double)(c->l1_global_ld_hit + c->l1_local_ld_hit);
        double looked = hit + (double)(c->l1_global_ld_miss + c->l1_local_ld_miss);
        in->l1_hit_line_share = all > 0 && looked > 0 ? ld * hit / looked / all : 0;
    }

    int nsm = ws_memstats_sm_count(ms);
    uint64_t nblocks = 0;
    for (int s = 0; s < nsm; s++) {
        nblocks += ws_memstats_sm(ms, s)->blocks;
    }
    int wpb = occ && occ->warps_per_block ? occ->warps_per_block : 1;
    in->warps_per_block = wpb;
    double resident = occ && occ->warps_per_sm ? occ->warps_per_sm : wpb;
    for (int s = 0; s < nsm; s++) {
        const ws_sm_stats *S = ws_memstats_sm(ms, s);
        if ((double)S->blocks > in->blocks_max)
            in->blocks_max = (double)S->blocks;
        if ((double)S->l1_wavefronts > in->l1_wavefronts_max)
            in->l1_wavefronts_max = (double)S->l1_wavefronts;
        if ((double)S->shared_wavefronts > in->shared_wavefronts_max)
            in->shared_wavefronts_max = (double)S->shared_wavefronts;
        /* instructions follow the blocks: all blocks run the same code on average */
        double issue = warp_insns && nblocks ? (double)warp_insns * (double)S->blocks / (double)nblocks
                                             : (double)S->mem_inst;
        if (issue > in->issue_insns_max)
            in->issue_insns_max = issue;
        double warps = (double)S->blocks * wpb;
        double conc = warps < resident ? warps : resident;
        if (nblocks && (double)S->blocks / (double)nblocks > in->issue_share_max) {
            in->issue_share_max = (double)S->blocks / (double)nblocks;
            in->warps_in_flight_max = conc;
        }
        double cycles = lat ? ws_latency_sm_cycles(lat, s) : 0;
        if (conc > 0 && cycles / conc > in->latency_cycles_per_warp_max) {
            in->latency_cycles_per_warp_max = cycles / conc;
            in->latency_dram_epochs_per_warp_max = ws_latency_sm_dram_epochs(lat, s) / conc;
            in->latency_short_cycles_per_warp_max = ws_latency_sm_short_cycles(lat, s) / conc;
            in->latency_insn_cycles_per_warp_max = ws_latency_sm_insn_cycles(lat, s) / conc;
        }
    }
}

double ws_timing_dram_shape_factor(const ws_device *dev, const ws_timing_input *in)
{
    if (!(in->dram_access_bytes > 0))
        return 1;
    /* a stream of whole rows opens one row per dram_row_bytes (in dram_efficiency already);
       only the opens beyond that cost more (scattered rows), and an access shorter than the
       minimum costs the minimum (docs/timing-model.md "Scattered DRAM access") */
    double extra = in->dram_short_bytes > 0 ? in->dram_short_bytes : 0;
    if (dev->dram_row_bytes > 0 && dev->dram_row_open_bytes > 0) {
        double beyond = in->dram_row_opens - in->dram_access_bytes / dev->dram_row_bytes;
        if (beyond > 0)
            extra += beyond * dev->dram_row_open_bytes;
    }
    return 1 + extra / in->dram_access_bytes;
}

double ws_timing_l1_us(const ws_device *dev, double wavefronts)
{
    /* results/h200-shared-rate: 1.000-1.004 cycles per wavefront at 1-32-way conflicts, 32-128-bit
       accesses, stores and loads alike; what limits a conflicted kernel beyond that is not this rate */
    double rate = dev->l1_wavefronts_per_cycle > 0 ? dev->l1_wavefronts_per_cycle : 1.0;
    return dev->sm_clock_mhz > 0 ? wavefronts / rate / dev->sm_clock_mhz : 0;
}

double ws_timing_phase_us(double t_lat_us, double t_sh_us, double blocks_in_flight)
{
    /* tests/gpu/phase_probe.cu (results/h200-phase): one block per SM takes the load phase plus
       the shared phase; more blocks hide part of one under the other, the fixed point of a block's
       shared phase being stretched by the others' in proportion to the time they spend in theirs */
    if (!(t_sh_us > 0))
        return t_lat_us > 0 ? t_lat_us : 0;
    if (!(t_lat_us > 0))
        return t_sh_us;
    double B = blocks_in_flight > 1 ? blocks_in_flight : 1;
    double d = t_lat_us - t_sh_us;
    return 0.5 * ((t_lat_us + t_sh_us) + sqrt(d * d + 4.0 * t_lat_us * t_sh_us / B));
}

int ws_timing_predict(const ws_device *dev, const ws_timing_input *in, ws_timing *out)
{
    memset(out, 0, sizeof *out);
    if (dev->sm_clock_mhz <= 0 || dev->dram_bw_gbs <= 0 || dev->l2_bw_gbs <= 0 || dev->subpartitions <= 0 ||
        !(dev->dram_efficiency > 0) || !(dev->l2_requests_per_cycle > 0))
        return -1;
    double cycle_us = 1.0 / dev->sm_clock_mhz;             /* MHz -> us per cycle */
    out->t_launch_us = dev->launch_overhead_us > 0 ? dev->launch_overhead_us : 0;
    /* Earlier work's dirty lines: the L2 holds at most l2_dirty_fraction of its bytes dirty (it
     * writes the oldest back beyond that: results/h200-l2dram), so that is the share of the lines
     * it held that a new allocation must write back first (none beyond the dirty limit) */
    double dirty_share = dev->l2_dirty_fraction > 0 && dev->l2_dirty_fraction < 1 ? dev->l2_dirty_fraction : 1;
    out->dram_shape_factor = ws_timing_dram_shape_factor(dev, in);
    double dram_bytes = in->dram_bytes * out->dram_shape_factor +
                        WS_LINE_BYTES * dirty_share * in->l2_displaced_lines;
    out->t_dram_us = dram_bytes / (dev->dram_bw_gbs * dev->dram_efficiency * 1e3); /* GB/s = 1e3 B/us */
    /* L2: the slower of its byte rate and its request rate (scattered partial writes
     * cost one request per 4-byte sector) */
    out->t_l2_us = in->l2_bytes / (dev->l2_bw_gbs * 1e3);
    /* reads at their own measured request rate where the profile has one (docs/timing-model.md
     * "L2 reads"), else with the writes at l2_requests_per_cycle */
    double reqs = 0, t_read_req = 0;
    if (dev->l2_read_requests_per_cycle > 0)
        t_read_req = in->l2_requests / dev->l2_read_requests_per_cycle * cycle_us;
    else
        reqs = in->l2_requests;
    if (dev->l2_write_requests_per_cycle > 0 && dev->l2_write_sectors_per_cycle > 0 &&
        dev->l2_write_partial_sectors_per_cycle > 0) {
        /* writes (docs/timing-model.md "L2 writes"): a fixed part per request plus a part per
         * sector, more for a partly written one, added (results/h200-local: 44 one-sector and 19
         * full-line requests per cycle, 4.8 TB/s of full lines against 8-11 of reads) */
        double part = in->l2_write_partial_sectors < in->l2_write_sectors ? in->l2_write_partial_sectors
                                                                           : in->l2_write_sectors;
        out->t_l2_write_us = (in->l2_write_requests / dev->l2_write_requests_per_cycle +
                              (in->l2_write_sectors - part) / dev->l2_write_sectors_per_cycle +
                              part / dev->l2_write_partial_sectors_per_cycle) * cycle_us;
    } else
        reqs += partial_requests(in->l2_write_requests, in->l2_write_sectors);
    double t_req = reqs / dev->l2_requests_per_cycle * cycle_us;
    if (t_read_req > t_req)
        t_req = t_read_req;
    if (t_req > out->t_l2_us)
        out->t_l2_us = t_req;
    if (out->t_l2_write_us > out->t_l2_us)
        out->t_l2_us = out->t_l2_write_us;
    /* The L1 data path: its shared wavefronts and the global/local lines filled from L2 take its
       cycles one after another, and so do lines that hit in L1 (matmul_naive, wmma_gemm_naive: their
       sum); but hits run beside the shared wavefronts (results/h200-phase/rate.csv: LDS + an L1-hit
       LDG, 2.0 per cycle; a 32-way LDS + LDG, the LDS's 32 cycles alone). */
    double lines = in->l1_wavefronts_max - in->shared_wavefronts_max;
    if (lines < 0) lines = 0;
    double hit_share = in->l1_hit_line_share > 0 ? (in->l1_hit_line_share < 1 ? in->l1_hit_line_share : 1) : 0;
    double hits = lines * hit_share;
    double path = lines - hits + (in->shared_wavefronts_max > hits ? in->shared_wavefronts_max : hits);
    out->t_l1_us = ws_timing_l1_us(dev, path);
    /* issue: the schedulers' slots, or the busiest pipe at the guide's lanes per cycle (a
     * warp instruction takes its 32 lanes' slots, active or not). FP32 runs on fma-heavy and
     * fma-lite, integer multiply-adds on fma-heavy only: together they share the FMA pipe. */
    out->t_issue_slots_us = in->issue_insns_max / (double)dev->subpartitions * cycle_us;
    const double *r = dev->pipe_lanes_per_cycle;
    out->issue_pipe = WS_PIPE_NONE;
    for (int p = WS_PIPE_NONE + 1; p < WS_PIPE_TENSOR_FIRST; p++) {
        if (!(r[p] > 0))
            continue;
        double lanes = 32.0 * in->pipe_insns_max[p];
        if (p == WS_PIPE_FMA)
            lanes += 32.0 * in->pipe_insns_max[WS_PIPE_FMAHEAVY];
        double t = lanes / r[p] * cycle_us;
        if (t > out->t_pipe_us) {
            out->t_pipe_us = t;
            out->issue_pipe = (ws_pipe)p;
        }
    }
    out->t_issue_us = out->t_pipe_us > out->t_issue_slots_us ? out->t_pipe_us : out->t_issue_slots_us;

    /* The tensor pipe (docs/timing-model.md "Tensor pipe"): every form runs on the one tensor
     * core of each sub-partition, so their times add. A form's rate is the SM's with every
     * sub-partition fed (results/h200-tensorpipe: 0.658 HMMA.16816 per cycle), or what the warps
     * in flight can issue if less (one warp alone: 0.119, so 4 warps reach 0.477). */
    out->tensor_pipe = WS_PIPE_NONE;
    double tensor_worst = 0;
    for (int p = WS_PIPE_TENSOR_FIRST; p < WS_PIPE_COUNT; p++) {
        double rate = dev->tensor_insns_per_cycle[p];
        if (!(rate > 0) || !(in->pipe_insns_max[p] > 0))
            continue;
        double warp_rate = dev->tensor_warp_insns_per_cycle[p];
        if (warp_rate > 0 && in->warps_in_flight_max > 0 && in->warps_in_flight_max * warp_rate < rate)
            rate = in->warps_in_flight_max * warp_rate;
        double t = in->pipe_insns_max[p] / rate * cycle_us;
        out->t_tensor_us += t;
        if (t > tensor_worst) {
            tensor_worst = t;
            out->tensor_pipe = (ws_pipe)p;
        }
    }

    /* Contention (docs/timing-model.md "Contention"): L2 applies the operations on one
     * address one after another; a slice's atomic unit applies its range's sector-ops one at
     * a time and takes its operands at atom_operand_bytes_per_ns; all of them share the
     * atom_slices units. The rates are in ns (measured on the H200). */
    double t_addr = in->atom_addr_ops_max * dev->atom_same_address_ns;
    double t_faddr = in->atom_addr_float_ops_max * dev->atom_same_address_float_ns;
    double t_slice = in->atom_slice_sector_ops_max * dev->atom_sector_pass_ns;
    double t_line = dev->atom_operand_bytes_per_ns > 0 ? in->atom_slice_operand_bytes_max / dev->atom_operand_bytes_per_ns : 0;
    double t_all = dev->atom_slices > 0 ? in->atom_sector_ops * dev->atom_sector_pass_ns / dev->atom_slices : 0;
    /* the units the warps in flight together keep busy: fewer than atom_slices when their atomics
     * fall in few slice ranges (one word per warp, warps 4 B apart: 38 of 76; results/h200-l2req) */
    double t_window = in->atom_window_unit_ops * dev->atom_sector_pass_ns;
    if (t_window > t_all)
        t_all = t_window;
    double t_atom = t_addr;
    if (t_faddr > t_atom) t_atom = t_faddr;
    if (t_slice > t_atom) t_atom = t_slice;
    if (t_line > t_atom) t_atom = t_line;
    if (t_all > t_atom) t_atom = t_all;
    out->t_atomics_us = t_atom > 0 ? t_atom / 1000.0 : 0;   /* ns -> us */
    out->t_shared_atomics_us = in->shared_atom_passes_max * dev->shared_atom_cycles_per_pass * cycle_us;
    /* a block costs the distributor block_launch_cycles, a large one its warps' cost */
    double per_block = dev->block_launch_cycles > 0 ? dev->block_launch_cycles : 0;
    double wpb = in->warps_per_block > 0 ? in->warps_per_block : 1;
    if (per_block > 0 && wpb * dev->warp_launch_cycles > per_block)
        per_block = wpb * dev->warp_launch_cycles;
    out->t_block_launch_us = in->blocks_max * per_block * cycle_us;

    /* Latency (docs/timing-model.md "DRAM under load"): the epochs cost a = their unloaded
     * latencies; each DRAM epoch waits q = dram_queue_cycles x u/(1-u) more (M/M/1), u = t_dram/t
     * the DRAM's utilisation over the kernel's time t = max(every other term, a + b u/(1-u)).
     * With b = DRAM epochs x dram_queue_cycles, t = a + b D/(t-D) has one root above D. */
    double others = 0;
    const double rest[] = {out->t_dram_us, out->t_l2_us, out->t_l1_us, out->t_issue_us,
                           out->t_atomics_us, out->t_shared_atomics_us, out->t_block_launch_us, out->t_tensor_us};
    for (int i = 0; i < 8; i++)
        if (rest[i] > others) others = rest[i];
    double a = in->latency_cycles_per_warp_max * cycle_us;
    /* A block slot stays empty while the distributor launches its next block (one at a time per
     * SM, per_block each: 10^6 empty blocks of 32 or 256 threads took the same time, so it is the
     * distributor, not the slots, that sets the launch rate), so each wave of blocks on an SM adds
     * per_block to its latency chain: blocks placed / blocks in flight waves. Below t_block_launch
     * (the distributor's own rate) for a kernel without loads; for a streaming kernel with many
     * waves it is 10-20 % of its time (docs/timing-model.md "Realistic sizes: the slot's launch"). */
    if (per_block > 0 && in->warps_in_flight_max > 0)
        a += in->blocks_max * wpb / in->warps_in_flight_max * per_block * cycle_us;
    double b = in->latency_dram_epochs_per_warp_max * (dev->dram_queue_cycles > 0 ? dev->dram_queue_cycles : 0) * cycle_us;
    double D = out->t_dram_us;
    double queue_us = 0, t_chain = a; /* t_chain: the chain at its own utilisation (the phase term's) */
    if (b > 0 && D > 0) {
        double t = 0.5 * ((a + D) + sqrt((a - D) * (a - D) + 4.0 * b * D));
        t_chain = t;
        if (t < others) t = others;  /* another term sets the time: u = D / it */
        queue_us = b * D / (t - D);
        out->dram_utilisation = D / t;
    } else if (D > 0) {
        out->dram_utilisation = D / (others > a ? others : a);
    }
    out->t_latency_us = a + queue_us;
    /* The shared phase does not hide under the block's own load phase (docs/timing-model.md
       "Phases that add"): a block waits for its loads, then for its shared work, and only other
       blocks in flight overlap the two. The load phase is the latency chain less what runs in the
       shared phase: its short chains (epochs of shared loads only) and the warps' own instructions
       (they issue beside the other warps' wavefronts); the shared phase is the longer of those and
       the SM's time on the L1 data path (t_l1: the shared wavefronts, the lines filled from L2, the
       hits beside them), which the blocks in flight share. A kernel without shared wavefronts has
       the phase too: its global lines come back through the same data path after the latency its
       warps wait (NVIDIA's wmma samples, fragments loaded from global memory: "Phases that add").
       A pipeline's copies in flight (a wait_group N > 0) hide its load phase under the shared one:
       no term. The latency term keeps the u solved above. */
    out->t_shared_us = ws_timing_l1_us(dev, in->shared_wavefronts_max);
    double in_flight = in->warps_in_flight_max / wpb;
    double t_busy = (in->latency_short_cycles_per_warp_max + in->latency_insn_cycles_per_warp_max) * cycle_us;
    double phase_load = 0, phase_sh = 0;
    if (t_busy > a) t_busy = a;
    if (out->t_l1_us > 0 && out->t_latency_us > 0 && in_flight > 0 && !(in->copies_in_flight > 0)) {
        /* the load phase queues at the DRAM as the chain alone would: its DRAM traffic comes in the
           load phases, not spread over the shared ones (and so the term never falls when another does) */
        phase_load = t_chain - t_busy;
        phase_sh = out->t_l1_us > t_busy ? out->t_l1_us : t_busy;
        out->t_phase_us = ws_timing_phase_us(phase_load, phase_sh, in_flight);
    }
    double u = out->dram_utilisation;
    out->dram_queue_cycles = u < 1 ? dev->dram_queue_cycles * u / (1 - u) : 0;

    /* the first five in their old order: ties go to them, so a kernel without atomics is
     * bound (and timed) as before; the phase term last (a tie leaves the bound its single term's),
     * named, where it sets the time, by the longer of its two phases */
    const double terms[] = {out->t_dram_us, out->t_l2_us, out->t_l1_us, out->t_issue_us, out->t_latency_us,
                            out->t_atomics_us, out->t_shared_atomics_us, out->t_block_launch_us, out->t_tensor_us,
                            out->t_phase_us};
    const ws_bound names[] = {WS_BOUND_DRAM, WS_BOUND_L2, WS_BOUND_L1, WS_BOUND_ISSUE, WS_BOUND_LATENCY,
                              WS_BOUND_ATOMICS, WS_BOUND_SHARED_ATOMICS, WS_BOUND_BLOCK_LAUNCH, WS_BOUND_TENSOR,
                              phase_sh >= phase_load ? WS_BOUND_L1 : WS_BOUND_LATENCY};
    double worst = 0;
    out->bound = WS_BOUND_LAUNCH;
    for (int i = 0; i < 10; i++)
        if (terms[i] > worst) {
            worst = terms[i];
            out->bound = names[i];
        }
    /* latency that is mostly the DRAM queue is bandwidth: the DRAM is nearly saturated */
    if (out->bound == WS_BOUND_LATENCY && queue_us > a)
        out->bound = WS_BOUND_DRAM;
    out->t_kernel_us = out->t_launch_us + worst;
    if (out->t_kernel_us > 0) {
        out->eff_bw_gbs = in->bytes_moved / out->t_kernel_us / 1e3;
        out->dram_bw_gbs = dram_bytes / out->t_kernel_us / 1e3;
    }
    return 0;
}
