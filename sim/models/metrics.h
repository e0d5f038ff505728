/* metrics.h - the metric table: one row per number warpscope reports or compares, holding
 * every fact about it. It expands (X-macro) into memstats' kernel totals (sim/models/memstats.c),
 * the report's extra and per-line CSV records (sim/report/report.c), check's simulator side
 * (cuda/check_sim.c), ncu's collect list (cuda/cu_counters.c), check's classes and
 * tolerances (cuda/check_compare.c), every output's unit (ws_metric_unit) and the space
 * and op a SASS cause is looked for in (cuda/cu_sass.c).
 * Invariant: a fact about a metric lives in its row, never in its name's spelling or in
 * a list of names elsewhere; tests/test_metrics.c checks the rows.
 * Adding a metric: docs/adding-a-metric.md.
 *
 * Columns:
 *   id     enum suffix (WS_METRIC_<id>)
 *   name   the name in every output: Nsight Compute's where ncu has the counter, else ws__...
 *   unit   SECTOR REQUEST WAVEFRONT CONFLICT INST BYTE US GBS PCT, or COUNT (a plain count,
 *          CSV unit ""); the unit the outputs print (check converts ncu's ns to us)
 *   basis  how the simulator knows it: EXACT (the counter's own rule), MODEL (the cache,
 *          DRAM or timing model, or an assumed rule), MEASURED (a recorded GPU run), NONE
 *          (the simulator has no value)
 *   judge  how `check` compares it with the GPU (cuda/check_compare.h): EXACT equal; CACHE
 *          within 10% of the GPU's value plus slack (a PCT row: within slack points); TIME
 *          within 25%; BOUND gpu >= sim; INFO shown, not judged
 *   slack  CACHE's absolute allowance, in the row's unit
 *   ncu    COLLECT: in ncu's default list (cu_default_metrics: `gpu` collects it, `check` asks
 *          for it first); NAMED: an Nsight Compute name, asked for by `check` where the
 *          simulator reports it; OWN: warpscope's own (ws__...), no hardware counter
 *   space  GLOBAL SHARED LOCAL, op LD ST ATOM RED: the memory instructions the row counts;
 *          NONE where it is no one space or op (a cache level, both sides of a copy)
 *   kind   PLAIN (ld/st/atom/red), or the tensor-era family whose events it counts (event.h)
 *   help   plain language
 *   value  the simulator's value: an expression over its scope's context (below), cast to
 *          double; NAN: no record here (a report or line record that does not apply)
 *
 * Scopes, each its own list, expanded where its context is:
 *   WS_METRICS_KERNEL  memstats' kernel totals, always reported (ws_memstats_metrics):
 *                      c (ws_cache_totals), gl gs ga gr / ll ls / sl ss sa sr (ws_mem_counts
 *                      of global / local / shared ld st atom red), t (ws_mem_totals), l1_hits,
 *                      l1_all, ratio(a, b)
 *   WS_METRICS_TENSOR  memstats' tensor-era totals, where such an instruction ran: k
 *                      (ws_tc_counts), kg ks (cp.async's global and shared sides), lm sm
 *                      (ldmatrix, stmatrix)
 *   WS_METRICS_DSMEM   memstats' distributed shared memory totals, where such an access ran, after
 *                      the tensor-era rows: dl ds da dr (ws_mem_counts)
 *   WS_METRICS_SASS    memstats' machine-code instruction totals, after the distributed shared memory
 *                      rows, only where the counters are the SASS's (ptxas + nvdisasm; a PTX-level run has
 *                      no such rows): si (ws_sass_insns); a count the plan marks approximate is reported
 *                      with basis MODEL and judged by check as CACHE (ws_memstats_metrics, check_sim.h)
 *   WS_METRICS_REPORT  sim's CSV records after the totals: r (const ws_report *)
 *   WS_METRICS_LINE    sim's per-line CSV records: l (const ws_line_row *, the line's rows summed),
 *                      ld st (its loads' and its stores' rows summed; NULL unless the line has both,
 *                      so a line that only loads or only stores gets no ld_ or st_ record)
 *   WS_METRICS_CHECK   check's simulator side only, in no sim output: s (const ws_simulation *) */
#ifndef WS_METRICS_H
#define WS_METRICS_H

#include <math.h>

#include "../interp/event.h"

/* CACHE slack: the background traffic of any launch under ncu; percentages in points */
#define WS_SLACK_L2_SECTORS 64.0
#define WS_SLACK_DRAM_BYTES 65536.0
#define WS_SLACK_PCT_POINTS 10.0

/*  M(id, name, unit, basis, judge, slack, ncu, space, op, kind,
 *    help, value) */
#define WS_METRICS_KERNEL(M) \
    /* global loads, stores, atomics and reductions: the L1TEX coalescer (sim/models/coalesce.c) */ \
    M(GLD_INST, "smsp__sass_inst_executed_op_global_ld.sum", INST, EXACT, EXACT, 0, COLLECT, GLOBAL, LD, PLAIN, \
      "global load instructions (per warp)", gl->inst) \
    M(GLD_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", REQUEST, EXACT, EXACT, 0, COLLECT, GLOBAL, LD, PLAIN, \
      "global load requests to L1 (1 per instruction)", gl->requests) \
    M(GLD_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", SECTOR, EXACT, EXACT, 0, COLLECT, GLOBAL, LD, PLAIN, \
      "32-byte sectors global loads touched", gl->sectors) \
    M(GLD_SECTORS_IDEAL, "ws__t_sectors_ideal_global_op_ld.sum", SECTOR, EXACT, INFO, 0, OWN, GLOBAL, LD, PLAIN, \
      "sectors the bytes actually used would need", gl->ideal_sectors) \
    M(GLD_SECTORS_PER_REQUEST, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", SECTOR, EXACT, INFO, 0, NAMED, GLOBAL, LD, PLAIN, \
      "sectors per global load request (4 = float, fully coalesced)", ratio((double)gl->sectors, (double)gl->requests)) \
    M(GLD_EFFICIENCY, "ws__sector_efficiency_global_op_ld.pct", PCT, EXACT, INFO, 0, OWN, GLOBAL, LD, PLAIN, \
      "global load efficiency: distinct bytes used / bytes in touched sectors, %", 100.0 * ratio((double)gl->bytes_used, 32.0 * (double)gl->sectors)) \
    M(GST_INST, "smsp__sass_inst_executed_op_global_st.sum", INST, EXACT, EXACT, 0, COLLECT, GLOBAL, ST, PLAIN, \
      "global store instructions", gs->inst) \
    M(GST_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", REQUEST, EXACT, EXACT, 0, COLLECT, GLOBAL, ST, PLAIN, \
      "global store requests", gs->requests) \
    M(GST_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", SECTOR, EXACT, EXACT, 0, COLLECT, GLOBAL, ST, PLAIN, \
      "32-byte sectors global stores touched", gs->sectors) \
    M(GST_SECTORS_IDEAL, "ws__t_sectors_ideal_global_op_st.sum", SECTOR, EXACT, INFO, 0, OWN, GLOBAL, ST, PLAIN, \
      "sectors the bytes actually stored would need", gs->ideal_sectors) \
    M(GST_EFFICIENCY, "ws__sector_efficiency_global_op_st.pct", PCT, EXACT, INFO, 0, OWN, GLOBAL, ST, PLAIN, \
      "global store efficiency: distinct bytes used / bytes in touched sectors, %", 100.0 * ratio((double)gs->bytes_used, 32.0 * (double)gs->sectors)) \
    M(GATOM_INST, "smsp__sass_inst_executed_op_global_atom.sum", INST, EXACT, EXACT, 0, NAMED, GLOBAL, ATOM, PLAIN, \
      "global atomic instructions", ga->inst) \
    M(GATOM_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", SECTOR, MODEL, CACHE, 0, NAMED, GLOBAL, ATOM, PLAIN, \
      "sectors global atomics count (per sector its most-hit word's lanes: a rule fitted on the H200, 1.7 % under on random bins; docs/memory-models.md)", ga->sectors) \
    M(GRED_INST, "smsp__sass_inst_executed_op_global_red.sum", INST, EXACT, EXACT, 0, NAMED, GLOBAL, RED, PLAIN, \
      "global reduction instructions (atomics without return)", gr->inst) \
    M(GRED_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", SECTOR, MODEL, CACHE, 0, NAMED, GLOBAL, RED, PLAIN, \
      "sectors global reductions count (the same fitted rule)", gr->sectors) \
    /* local memory (spills, stack arrays) */ \
    M(LLD_INST, "smsp__sass_inst_executed_op_local_ld.sum", INST, EXACT, EXACT, 0, COLLECT, LOCAL, LD, PLAIN, \
      "local loads (spills, stack arrays)", ll->inst) \
    M(LLD_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", REQUEST, EXACT, EXACT, 0, COLLECT, LOCAL, LD, PLAIN, \
      "local load requests (width/4 per instruction)", ll->requests) \
    M(LLD_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", SECTOR, EXACT, EXACT, 0, COLLECT, LOCAL, LD, PLAIN, \
      "sectors local loads touched", ll->sectors) \
    M(LST_INST, "smsp__sass_inst_executed_op_local_st.sum", INST, EXACT, EXACT, 0, COLLECT, LOCAL, ST, PLAIN, \
      "local stores (spills, stack arrays)", ls->inst) \
    M(LST_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", REQUEST, EXACT, EXACT, 0, COLLECT, LOCAL, ST, PLAIN, \
      "local store requests", ls->requests) \
    M(LST_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", SECTOR, EXACT, EXACT, 0, COLLECT, LOCAL, ST, PLAIN, \
      "sectors local stores touched", ls->sectors) \
    /* shared memory: the 32 banks (sim/models/banks.c). The raw L1 data-bank counters (_RAW, CONFLICTS) \
       also count arbitration with other L1 traffic and vary run to run, so the GPU may exceed \
       the lanes' own conflicts (BOUND); the SASS-patched wavefronts do not (EXACT) */ \
    M(SLD_INST, "smsp__sass_inst_executed_op_shared_ld.sum", INST, EXACT, EXACT, 0, COLLECT, SHARED, LD, PLAIN, \
      "shared-memory load instructions", sl->inst) \
    M(SLD_WAVEFRONTS_RAW, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", WAVEFRONT, EXACT, BOUND, 0, COLLECT, SHARED, LD, PLAIN, \
      "shared load wavefronts (cycles of the 32 banks)", sl->wavefronts) \
    M(SLD_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", WAVEFRONT, EXACT, EXACT, 0, COLLECT, SHARED, LD, PLAIN, \
      "shared load wavefronts, as the SASS-patched counter counts them (no arbitration with other traffic)", sl->wavefronts) \
    M(SLD_WAVEFRONTS_IDEAL, "ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_ld.sum", WAVEFRONT, EXACT, INFO, 0, OWN, SHARED, LD, PLAIN, \
      "wavefronts the shared-load data would need (128 B each)", sl->ideal_wavefronts) \
    M(SLD_CONFLICTS, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", CONFLICT, EXACT, BOUND, 0, COLLECT, SHARED, LD, PLAIN, \
      "shared load bank conflicts, ncu convention (wavefronts - lane groups)", sl->ncu_conflicts) \
    M(SLD_CONFLICTS_EXCESS, "ws__data_bank_conflicts_excess_mem_shared_op_ld.sum", CONFLICT, EXACT, INFO, 0, OWN, SHARED, LD, PLAIN, \
      "shared load wavefronts beyond the ideal (true excess)", sl->excess) \
    M(SST_INST, "smsp__sass_inst_executed_op_shared_st.sum", INST, EXACT, EXACT, 0, COLLECT, SHARED, ST, PLAIN, \
      "shared-memory store instructions", ss->inst) \
    M(SST_WAVEFRONTS_RAW, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", WAVEFRONT, EXACT, BOUND, 0, COLLECT, SHARED, ST, PLAIN, \
      "shared store wavefronts", ss->wavefronts) \
    M(SST_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", WAVEFRONT, EXACT, EXACT, 0, COLLECT, SHARED, ST, PLAIN, \
      "shared store wavefronts, as the SASS-patched counter counts them", ss->wavefronts) \
    M(SST_WAVEFRONTS_IDEAL, "ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_st.sum", WAVEFRONT, EXACT, INFO, 0, OWN, SHARED, ST, PLAIN, \
      "wavefronts the shared-store data would need", ss->ideal_wavefronts) \
    M(SST_CONFLICTS, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", CONFLICT, EXACT, BOUND, 0, COLLECT, SHARED, ST, PLAIN, \
      "shared store bank conflicts, ncu convention", ss->ncu_conflicts) \
    M(SST_CONFLICTS_EXCESS, "ws__data_bank_conflicts_excess_mem_shared_op_st.sum", CONFLICT, EXACT, INFO, 0, OWN, SHARED, ST, PLAIN, \
      "shared store wavefronts beyond the ideal (true excess)", ss->excess) \
    M(SATOM_INST, "smsp__sass_inst_executed_op_shared_atom.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, ATOM, PLAIN, \
      "shared atomic instructions (reductions included)", sa->inst + sr->inst) \
    M(SATOM_WAVEFRONTS, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", WAVEFRONT, MODEL, CACHE, 0, NAMED, SHARED, ATOM, PLAIN, \
      "shared atomic wavefronts (the load bank rule; measured on the H200)", sa->wavefronts + sr->wavefronts) \
    M(SATOM_PASSES, "ws__shared_atom_passes.sum", COUNT, MODEL, INFO, 0, OWN, SHARED, ATOM, PLAIN, \
      "shared atomic passes: per instruction its bank wavefronts, lanes on one word combining (contention model, measured on the H200)", \
      t->shared_atom_passes) \
    /* active lanes (SIMT efficiency): the interpreter's PTX-level instruction counts, all \
       instructions (ncu counts SASS ones, so INFO); the memory classes' by their events' masks */ \
    M(THREAD_INST, "smsp__thread_inst_executed.sum", INST, MODEL, INFO, 0, NAMED, NONE, NONE, PLAIN, \
      "thread instructions: active lanes summed over every warp instruction executed (PTX level)", t->thread_insns) \
    M(THREAD_PER_INST, "smsp__average_thread_inst_executed_per_inst_executed.ratio", COUNT, MODEL, INFO, 0, NAMED, NONE, NONE, PLAIN, \
      "active lanes per warp instruction executed (32 = no divergence; PTX level)", ratio((double)t->thread_insns, (double)t->warp_insns)) \
    M(SIMT_EFFICIENCY, "ws__simt_efficiency.pct", PCT, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "SIMT efficiency: active lanes / 32 per warp instruction executed, %", \
      100.0 * ratio((double)t->thread_insns, 32.0 * (double)t->warp_insns)) \
    M(GLD_ACTIVE_LANES, "ws__active_lanes_global_op_ld.pct", PCT, EXACT, INFO, 0, OWN, GLOBAL, LD, PLAIN, \
      "active lanes / 32 per global load instruction, %", 100.0 * ratio((double)gl->active_lanes, 32.0 * (double)gl->inst)) \
    M(GST_ACTIVE_LANES, "ws__active_lanes_global_op_st.pct", PCT, EXACT, INFO, 0, OWN, GLOBAL, ST, PLAIN, \
      "active lanes / 32 per global store instruction, %", 100.0 * ratio((double)gs->active_lanes, 32.0 * (double)gs->inst)) \
    M(SLD_ACTIVE_LANES, "ws__active_lanes_shared_op_ld.pct", PCT, EXACT, INFO, 0, OWN, SHARED, LD, PLAIN, \
      "active lanes / 32 per shared load instruction, %", 100.0 * ratio((double)sl->active_lanes, 32.0 * (double)sl->inst)) \
    M(SST_ACTIVE_LANES, "ws__active_lanes_shared_op_st.pct", PCT, EXACT, INFO, 0, OWN, SHARED, ST, PLAIN, \
      "active lanes / 32 per shared store instruction, %", 100.0 * ratio((double)ss->active_lanes, 32.0 * (double)ss->inst)) \
    /* L1, L2 and DRAM: the cache model (sim/models/cache.c); the L2 and DRAM slack is the background \
       traffic of any launch under ncu */ \
    M(L1_GLD_HIT, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", SECTOR, MODEL, CACHE, 0, NAMED, GLOBAL, LD, PLAIN, \
      "global load sectors that hit in L1", c->l1_global_ld_hit) \
    M(L1_GLD_MISS, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", SECTOR, MODEL, CACHE, 0, NAMED, GLOBAL, LD, PLAIN, \
      "global load sectors that missed L1", c->l1_global_ld_miss) \
    M(L1_GLD_HIT_RATE, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", PCT, MODEL, CACHE, WS_SLACK_PCT_POINTS, COLLECT, GLOBAL, LD, PLAIN, \
      "L1 hit rate of global loads, %", 100.0 * ratio((double)c->l1_global_ld_hit, (double)(c->l1_global_ld_hit + c->l1_global_ld_miss))) \
    M(L1_LLD_HIT, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum", SECTOR, MODEL, CACHE, 0, NAMED, LOCAL, LD, PLAIN, \
      "local load sectors that hit in L1", c->l1_local_ld_hit) \
    M(L1_LLD_MISS, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum", SECTOR, MODEL, CACHE, 0, NAMED, LOCAL, LD, PLAIN, \
      "local load sectors that missed L1", c->l1_local_ld_miss) \
    M(L1_HIT_RATE, "l1tex__t_sector_hit_rate.pct", PCT, MODEL, CACHE, WS_SLACK_PCT_POINTS, NAMED, NONE, NONE, PLAIN, \
      "L1 hit rate of global and local load and store sectors, % (a store hits a sector a load brought in)", 100.0 * ratio(l1_hits, l1_all)) \
    M(L2_READ_REQUESTS, "lts__t_requests_srcunit_tex_op_read.sum", REQUEST, MODEL, CACHE, 0, NAMED, NONE, NONE, PLAIN, \
      "L2 read requests from the SMs (one per 128-B line missing in L1)", c->l2_read_requests) \
    M(L2_READ_SECTORS, "lts__t_sectors_srcunit_tex_op_read.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, COLLECT, NONE, NONE, PLAIN, \
      "sectors the SMs read from L2", c->l2_read_sectors) \
    M(L2_READ_HIT, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, NAMED, NONE, NONE, PLAIN, \
      "of those, found in L2", c->l2_read_hit_sectors) \
    M(L2_READ_MISS, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, NAMED, NONE, NONE, PLAIN, \
      "sectors fetched from DRAM on read misses (promoted to the fetch granularity, as ncu counts them)", c->l2_read_miss_sectors) \
    M(L2_WRITE_REQUESTS, "lts__t_requests_srcunit_tex_op_write.sum", REQUEST, MODEL, CACHE, 0, NAMED, NONE, NONE, PLAIN, \
      "L2 write requests (stores are written through)", c->l2_write_requests) \
    M(L2_WRITE_SECTORS, "lts__t_sectors_srcunit_tex_op_write.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, COLLECT, NONE, NONE, PLAIN, \
      "sectors the SMs wrote to L2", c->l2_write_sectors) \
    M(L2_ATOM_SECTORS, "lts__t_sectors_srcunit_tex_op_atom.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, NAMED, NONE, NONE, PLAIN, \
      "L2 sectors of atomics from the SMs (the H200 counts reductions under op_red, not here: results/h200-pairs)", \
      ga->sectors) \
    /* all sources: the H200 counts 1.5 per L1 sector (the far L2 partition sees half of them again) */ \
    M(L2_ATOM_SECTORS_ALL, "lts__t_sectors_op_atom.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, NAMED, NONE, NONE, PLAIN, \
      "L2 sectors of atomics, all sources (l2_atom_sector_factor x the L1 sectors)", \
      (ms->dev ? ms->dev->l2_atom_sector_factor : 0) * (double)ga->sectors) \
    M(L2_RED_SECTORS_ALL, "lts__t_sectors_op_red.sum", SECTOR, MODEL, CACHE, WS_SLACK_L2_SECTORS, NAMED, NONE, NONE, PLAIN, \
      "L2 sectors of reductions, all sources (l2_atom_sector_factor x the L1 sectors)", \
      (ms->dev ? ms->dev->l2_atom_sector_factor : 0) * (double)gr->sectors) \
    M(L1_MERGED_MISS, "ws__l1_merged_miss_sectors.sum", SECTOR, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "L1 misses merged into an outstanding miss (no new L2 traffic)", c->merged_sectors) \
    M(L1_MERGED_STORE, "ws__l1_merged_store_sectors.sum", SECTOR, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "store sectors merged into a pending write of the same sector (no new L2 sector)", c->st_merged_sectors) \
    M(L2_FAR_MISS, "ws__l2_far_miss_sectors.sum", SECTOR, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "L2 read lookup misses in the SM's partition that the line's home partition served over the L2 fabric (no DRAM)", \
      c->l2_far_miss_sectors) \
    M(DRAM_READ, "dram__bytes_read.sum", BYTE, MODEL, CACHE, WS_SLACK_DRAM_BYTES, COLLECT, NONE, NONE, PLAIN, \
      "bytes read from DRAM (fills at the fetch granularity + ECC reads + the launch's code and constants)", \
      (double)c->dram_read_bytes + (double)t->launch_fetch_bytes) \
    M(DRAM_READ_LAUNCH, "ws__dram_bytes_read_launch.sum", BYTE, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "of which: the launch's machine code (rounded up to the fetch block) and constants, the caches starting empty", \
      t->launch_fetch_bytes) \
    M(DRAM_READ_ECC, "ws__dram_bytes_read_ecc.sum", BYTE, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "of which: sectors read because a store wrote part of them (ECC)", c->ecc_read_bytes) \
    M(DRAM_WRITE, "dram__bytes_write.sum", BYTE, MODEL, CACHE, WS_SLACK_DRAM_BYTES, COLLECT, NONE, NONE, PLAIN, \
      "bytes written to DRAM during the kernel (L2 evictions)", c->dram_write_bytes) \
    M(L2_DISPLACED_WRITE, "ws__l2_displaced_write_bytes", BYTE, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "128 B per line this kernel allocates over an earlier kernel's data (timing only: it charges l2_dirty_fraction of them a write-back)", 128.0 * (double)c->l2_cold_allocations) \
    M(L2_DIRTY_AT_END, "ws__l2_dirty_bytes_at_end", BYTE, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "dirty bytes left in L2 at kernel end (written later, not in dram__bytes_write)", c->dirty_at_end_bytes) \

#define WS_METRICS_TENSOR(M) \
    /* the tensor pipe: HMMA/IMMA/DMMA as the SASS listing has them (else 1 per mma.sync, 2 per wmma.mma m16n16k16) */ \
    M(TENSOR_HMMA, "smsp__inst_executed_pipe_tensor_op_hmma.sum", INST, EXACT, EXACT, 0, NAMED, NONE, NONE, PLAIN, \
      "tensor-pipe HMMA instructions (mma.sync f16/bf16/tf32: 1 each, wmma.mma m16n16k16: 2; the SASS's count where it is read)", \
      k->tensor_inst[1]) \
    M(TENSOR_IMMA, "smsp__inst_executed_pipe_tensor_op_imma.sum", INST, EXACT, EXACT, 0, NAMED, NONE, NONE, PLAIN, \
      "tensor-pipe IMMA instructions (s8/u8 mma)", k->tensor_inst[2]) \
    M(TENSOR_DMMA, "smsp__inst_executed_pipe_tensor_op_dmma.sum", INST, EXACT, EXACT, 0, NAMED, NONE, NONE, PLAIN, \
      "tensor-pipe DMMA instructions (f64 mma)", k->tensor_inst[3]) \
    /* cp.async (LDGSTS): its shared side measured per pattern on the H200 (docs/memory-models.md "LDGSTS") */ \
    M(LDGSTS_INST, "smsp__sass_inst_executed_op_ldgsts.sum", INST, EXACT, EXACT, 0, NAMED, GLOBAL, LD, LDGSTS, \
      "cp.async instructions (LDGSTS, per warp)", kg->inst) \
    M(LDGSTS_CA, "smsp__sass_inst_executed_op_ldgsts_cache_access.sum", INST, EXACT, EXACT, 0, NAMED, GLOBAL, LD, LDGSTS, \
      "of which cp.async.ca (allocating in L1)", k->ldgsts_ca) \
    M(LDGSTS_CG, "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", INST, EXACT, EXACT, 0, NAMED, GLOBAL, LD, LDGSTS, \
      "of which cp.async.cg (bypassing L1)", k->ldgsts_cg) \
    M(LDGSTS_REQUESTS, "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", REQUEST, EXACT, EXACT, 0, NAMED, GLOBAL, LD, LDGSTS, \
      "cp.async global read requests (1 per instruction with a lane reading)", kg->requests) \
    M(LDGSTS_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", SECTOR, EXACT, EXACT, 0, NAMED, GLOBAL, LD, LDGSTS, \
      "32-byte sectors cp.async read (lanes with a source size of 0 read none)", kg->sectors) \
    M(LDGSTS_SECTORS_IDEAL, "ws__t_sectors_ideal_global_op_ldgsts.sum", SECTOR, EXACT, INFO, 0, OWN, GLOBAL, LD, LDGSTS, \
      "sectors the bytes cp.async read would need", kg->ideal_sectors) \
    M(LDGSTS_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", WAVEFRONT, EXACT, EXACT, 0, NAMED, SHARED, ST, LDGSTS, \
      "cp.async shared-write wavefronts (the store rule; twice for a copying lane of a 16-byte zero-filling copy)", ks->wavefronts) \
    M(LDGSTS_CONFLICTS, "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", CONFLICT, EXACT, EXACT, 0, NAMED, SHARED, ST, LDGSTS, \
      "cp.async shared-write bank conflicts, ncu convention (the store rule's)", ks->ncu_conflicts) \
    /* ldmatrix and stmatrix */ \
    M(LDSM_INST, "smsp__sass_inst_executed_op_ldsm.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, LD, LDSM, \
      "ldmatrix instructions (LDSM)", lm->inst) \
    M(LDSM_BYTES, "smsp__sass_data_bytes_mem_shared_op_ldsm.sum", BYTE, EXACT, EXACT, 0, NAMED, SHARED, LD, LDSM, \
      "bytes ldmatrix read (16 per row address)", lm->bytes_used) \
    M(LDSM_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", WAVEFRONT, EXACT, EXACT, 0, NAMED, SHARED, LD, LDSM, \
      "ldmatrix wavefronts (one phase per 8x8 matrix, more where its rows share banks)", lm->wavefronts) \
    M(LDSM_WAVEFRONTS_IDEAL, "ws__data_pipe_lsu_wavefronts_ideal_mem_shared_op_ldsm.sum", WAVEFRONT, EXACT, INFO, 0, OWN, SHARED, LD, LDSM, \
      "wavefronts the ldmatrix data would need (1 per matrix)", lm->ideal_wavefronts) \
    M(LDSM_CONFLICTS, "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", CONFLICT, MODEL, CACHE, 0, NAMED, SHARED, LD, LDSM, \
      "ldmatrix bank conflicts: wavefronts beyond one per phase", lm->ncu_conflicts) \
    M(STSM_INST, "smsp__sass_inst_executed_op_shared_stsm.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, ST, STSM, \
      "stmatrix instructions (STSM)", sm->inst) \
    M(STSM_BYTES, "smsp__sass_data_bytes_mem_shared_op_stsm.sum", BYTE, EXACT, EXACT, 0, NAMED, SHARED, ST, STSM, \
      "bytes stmatrix wrote", sm->bytes_used) \
    M(STSM_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum", WAVEFRONT, EXACT, EXACT, 0, NAMED, SHARED, ST, STSM, \
      "stmatrix wavefronts (one phase per 8x8 matrix)", sm->wavefronts) \
    M(STSM_CONFLICTS, "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum", CONFLICT, MODEL, CACHE, 0, NAMED, SHARED, ST, STSM, \
      "stmatrix bank conflicts: wavefronts beyond one per phase", sm->ncu_conflicts) \
    /* wmma.load/store fragment registers, at PTX level (check leaves a wmma kernel's plain global/shared rows unjudged) */ \
    M(WMMA_GLD_INST, "ws__wmma_inst_global_op_ld.sum", INST, MODEL, INFO, 0, OWN, GLOBAL, LD, WMMA, \
      "wmma.load fragment registers from global memory (PTX level: ptxas picks the SASS widths)", k->wmma_global[0].inst) \
    M(WMMA_GLD_SECTORS, "ws__wmma_sectors_global_op_ld.sum", SECTOR, MODEL, INFO, 0, OWN, GLOBAL, LD, WMMA, \
      "sectors of those register loads", k->wmma_global[0].sectors) \
    M(WMMA_SLD_INST, "ws__wmma_inst_shared_op_ld.sum", INST, MODEL, INFO, 0, OWN, SHARED, LD, WMMA, \
      "wmma.load fragment registers from shared memory", k->wmma_shared[0].inst) \
    M(WMMA_SLD_WAVEFRONTS, "ws__wmma_wavefronts_shared_op_ld.sum", WAVEFRONT, MODEL, INFO, 0, OWN, SHARED, LD, WMMA, \
      "wavefronts of those register loads", k->wmma_shared[0].wavefronts) \
    M(WMMA_GST_INST, "ws__wmma_inst_global_op_st.sum", INST, MODEL, INFO, 0, OWN, GLOBAL, ST, WMMA, \
      "wmma.store fragment registers to global memory", k->wmma_global[1].inst) \
    M(WMMA_GST_SECTORS, "ws__wmma_sectors_global_op_st.sum", SECTOR, MODEL, INFO, 0, OWN, GLOBAL, ST, WMMA, \
      "sectors of those register stores", k->wmma_global[1].sectors) \
    M(WMMA_SST_INST, "ws__wmma_inst_shared_op_st.sum", INST, MODEL, INFO, 0, OWN, SHARED, ST, WMMA, \
      "wmma.store fragment registers to shared memory", k->wmma_shared[1].inst) \
    M(WMMA_SST_WAVEFRONTS, "ws__wmma_wavefronts_shared_op_st.sum", WAVEFRONT, MODEL, INFO, 0, OWN, SHARED, ST, WMMA, \
      "wavefronts of those register stores", k->wmma_shared[1].wavefronts) \
    /* cp.async.bulk and the tensor copies (TMA) */ \
    M(BULK_TO_SHARED, "ws__bulk_copies_to_shared.sum", COUNT, EXACT, INFO, 0, OWN, NONE, NONE, BULK, \
      "cp.async.bulk copies global -> shared (completing on an mbarrier)", k->bulk_inst[0]) \
    M(BULK_TO_SHARED_BYTES, "ws__bulk_bytes_to_shared.sum", BYTE, EXACT, INFO, 0, OWN, SHARED, ST, BULK, \
      "bytes those copies wrote to shared memory", k->bulk_bytes[0]) \
    M(BULK_TO_GLOBAL, "ws__bulk_copies_to_global.sum", COUNT, EXACT, INFO, 0, OWN, NONE, NONE, BULK, \
      "cp.async.bulk copies shared -> global (bulk groups)", k->bulk_inst[1]) \
    M(BULK_GLOBAL_SECTORS, "ws__bulk_sectors_global.sum", SECTOR, MODEL, INFO, 0, OWN, GLOBAL, NONE, BULK, \
      "32-byte sectors of the bulk copies' global sides", k->bulk_global[0].sectors + k->bulk_global[1].sectors) \
    M(TMA_LD_INST, "smsp__sass_inst_executed_op_tma_ld.sum", INST, MODEL, CACHE, 0, NAMED, NONE, NONE, TMA, \
      "copies global -> shared by the TMA unit: tensor (UTMALDG) and plain bulk (UBLKCP) alike, as ncu counts them", \
      k->tma_inst[0] + k->bulk_inst[0]) \
    M(TMA_ST_INST, "smsp__sass_inst_executed_op_tma_st.sum", INST, MODEL, CACHE, 0, NAMED, NONE, NONE, TMA, \
      "copies shared -> global by the TMA unit (tensor and plain bulk; the bulk ones by the loads' rule, unmeasured)", \
      k->tma_inst[1] + k->bulk_inst[1]) \
    M(TMA_TO_SHARED_BYTES, "ws__tma_bytes_to_shared.sum", BYTE, EXACT, INFO, 0, OWN, SHARED, ST, TMA, \
      "bytes the tensor copies wrote to shared memory (boxes, out-of-bound fill included)", k->tma_bytes[0]) \
    M(TMA_LD_READ_BYTES, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", BYTE, MODEL, CACHE, 0, NAMED, GLOBAL, LD, TMA, \
      "bytes of the 32-byte sectors the TMA unit's loads read (tensor: in-bound rows; bulk: the copy's sectors), once per block a copy lands in", \
      32.0 * (double)(k->tma_delivered_sectors + k->bulk_delivered_sectors)) \
    /* wgmma.mma_async: what its matrix descriptors read (exec_wgmma.c); equal to ncu on the H200 for \
     * wgmma_gemm at two sizes and 36 test kernels (results/h200-wgmma/), so judged exactly */ \
    M(GMMA_INST, "smsp__sass_inst_executed_op_shared_gmma.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, LD, GMMA, \
      "wgmma.mma_async warp-level executions (each warp of the warpgroup: HGMMA, IGMMA, QGMMA)", k->gmma.inst) \
    M(GMMA_BYTES, "smsp__sass_data_bytes_mem_shared_op_gmma.sum", BYTE, EXACT, EXACT, 0, NAMED, SHARED, LD, GMMA, \
      "shared bytes the wgmma descriptors read: A (from shared) and B once per warpgroup", (double)k->gmma.bytes_used) \
    M(TENSOR_GMMA, "smsp__inst_executed_pipe_tensor_op_gmma.sum", INST, EXACT, EXACT, 0, NAMED, NONE, NONE, GMMA, \
      "wgmma.mma_async warp-level instructions on the tensor pipe (ncu: equal to the shared gmma count)", k->gmma.inst) \

#define WS_METRICS_REPORT(M) \
    M(PREDICTION_CONFIDENCE, "ws__prediction_confidence", COUNT, NOTE, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "how far the predicted time can be trusted: 0 high, 1 medium, 2 low (docs/timing-model.md \"Confidence\")", \
      r->notes ? (double)r->notes->level : NAN) \
    M(NOTE, "ws__note", COUNT, NOTE, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "one record per note, named ws__note_<mechanism>, its value the note's confidence (written by report.c)", NAN) \
    M(SAMPLE, "ws__sample", COUNT, NOTE, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "block sampling (--sample): ws__sample_blocks_simulated, _blocks_total, _exact_counters_bound, " \
      "_cache_counters_bound (bounds as fractions, -1 = not measurable; written by report.c)", NAN) \
    M(COMPARE_RATIO, "ws__compare_ratio", COUNT, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "sim --compare: A's predicted time over B's (written by ws_report_csv_verdict)", NAN) \
    M(COMPARE_B_FASTER, "ws__compare_b_faster", COUNT, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "sim --compare: 1 when B is predicted faster", NAN) \
    M(COMPARE_CONFIDENCE, "ws__compare_confidence", COUNT, NOTE, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "sim --compare: the verdict's confidence, 0 high, 1 medium, 2 low", NAN) \
    M(PREDICTED_TIME, "ws__predicted_time_us", US, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "kernel time the timing model predicts (docs/timing-model.md)", r->timing->t_kernel_us) \
    M(EFFECTIVE_BANDWIDTH, "ws__effective_bandwidth_gbs", GBS, MODEL, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "useful bytes / predicted time", r->timing->eff_bw_gbs) \
    M(OCCUPANCY, "ws__occupancy_theoretical_pct", PCT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "theoretical occupancy (the CUDA occupancy calculator's rules)", r->occ->occupancy_pct) \
    M(MEASURED_TIME, "ws__measured_time_us", US, MEASURED, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "median time of this launch recorded on the GPU (results/<gpu>.json, same -D)", \
      r->measured && r->measured->exact && r->measured->median_us >= 0 ? r->measured->median_us : NAN) \
    M(MEASURED_BANDWIDTH, "ws__measured_bandwidth_gbs", GBS, MEASURED, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "useful bytes / the recorded time", r->measured && r->measured->exact ? r->measured->gbs : NAN)

#define WS_METRICS_LINE(M) \
    M(LINE_WARP_INST, "warp_instructions", INST, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "warp-level executions of the line's memory instructions", l->executions) \
    M(LINE_REQUESTS, "requests", REQUEST, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "the line's global and local requests", l->requests ? (double)l->requests : NAN) \
    M(LINE_SECTORS, "sectors", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "the line's global and local sectors", l->requests ? (double)l->sectors : NAN) \
    M(LINE_SECTORS_IDEAL, "sectors_ideal", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "sectors the line's used bytes would need", l->requests ? (double)l->ideal_sectors : NAN) \
    M(LINE_WAVEFRONTS, "wavefronts", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "the line's shared wavefronts", l->shared_insts ? (double)l->wavefronts : NAN) \
    M(LINE_WAVEFRONTS_IDEAL, "wavefronts_ideal", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "wavefronts the line's shared data would need", l->shared_insts ? (double)l->ideal_wavefronts : NAN) \
    M(LINE_ACTIVE_LANES, "active_lanes_pct", PCT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "active lanes / 32 per warp execution of the line's memory instructions, %", \
      l->executions ? 100.0 * (double)l->active_lanes / (32.0 * (double)l->executions) : NAN) \
    M(LINE_LD_REQUESTS, "ld_requests", REQUEST, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its loads' global and local requests", ld && ld->requests ? (double)ld->requests : NAN) \
    M(LINE_LD_SECTORS, "ld_sectors", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its loads' global and local sectors", ld && ld->requests ? (double)ld->sectors : NAN) \
    M(LINE_LD_SECTORS_IDEAL, "ld_sectors_ideal", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: sectors its loads' used bytes would need", \
      ld && ld->requests ? (double)ld->ideal_sectors : NAN) \
    M(LINE_LD_WAVEFRONTS, "ld_wavefronts", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its shared loads' wavefronts", ld && ld->shared_insts ? (double)ld->wavefronts : NAN) \
    M(LINE_LD_WAVEFRONTS_IDEAL, "ld_wavefronts_ideal", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: wavefronts its shared loads' data would need", \
      ld && ld->shared_insts ? (double)ld->ideal_wavefronts : NAN) \
    M(LINE_ST_REQUESTS, "st_requests", REQUEST, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its stores' global and local requests", st && st->requests ? (double)st->requests : NAN) \
    M(LINE_ST_SECTORS, "st_sectors", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its stores' global and local sectors", st && st->requests ? (double)st->sectors : NAN) \
    M(LINE_ST_SECTORS_IDEAL, "st_sectors_ideal", SECTOR, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: sectors its stores' used bytes would need", \
      st && st->requests ? (double)st->ideal_sectors : NAN) \
    M(LINE_ST_WAVEFRONTS, "st_wavefronts", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: its shared stores' wavefronts", st && st->shared_insts ? (double)st->wavefronts : NAN) \
    M(LINE_ST_WAVEFRONTS_IDEAL, "st_wavefronts_ideal", WAVEFRONT, EXACT, INFO, 0, OWN, NONE, NONE, PLAIN, \
      "a line with loads and stores: wavefronts its shared stores' data would need", \
      st && st->shared_insts ? (double)st->ideal_wavefronts : NAN)

/* In ncu's default list but in none of sim's outputs (sim reports occupancy and time as
 * ws__ rows above); check fills its simulator side from these. */
#define WS_METRICS_CHECK(M) \
    M(SHARED_CONFLICTS_ARBITRATION, "l1tex__data_bank_conflicts_type_arbitration.sum", CONFLICT, NONE, INFO, 0, COLLECT, SHARED, NONE, PLAIN, \
      "shared bank conflicts from arbitration with other L1 traffic (the simulator models none)", NAN) \
    M(WARPS_ACTIVE, "sm__warps_active.avg.pct_of_peak_sustained_active", PCT, MODEL, INFO, 0, COLLECT, NONE, NONE, PLAIN, \
      "achieved occupancy on the GPU; the simulator's is what the grid allows: the theoretical one, less where " \
      "the launch gives an SM fewer blocks (ws_occupancy_grid_pct)", \
      ws_occupancy_grid_pct(s->dev, &s->occ, ws_launch_blocks(&s->launch))) \
    M(GPU_TIME, "gpu__time_duration.sum", US, MODEL, TIME, 0, COLLECT, NONE, NONE, PLAIN, \
      "kernel duration; the simulator's is the timing model's prediction (check: chk_sim_side.time_ns)", NAN)

/* distributed shared memory (thread-block clusters): ld/st/atom/red .shared::cluster on a block's
   window through a mapa address (event.h's dsmem), counted as ncu's L1TEX ..._mem_dshared rows;
   reported where such an access ran (memstats' dshared counts: dl ds da dr). One instruction is one
   request, as for global accesses; the sectors are the distinct 32-byte sectors its lanes touch (an
   assumed rule: MODEL until the H200 has counted them, scripts/gpu-cluster.sh) */
#define WS_METRICS_DSMEM(M) \
    M(DSLD_INST, "smsp__sass_inst_executed_op_dshared_ld.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, LD, PLAIN, \
      "distributed shared memory load instructions (ld.shared::cluster to a mapa address)", dl->inst) \
    M(DSLD_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum", REQUEST, EXACT, EXACT, 0, NAMED, SHARED, LD, PLAIN, \
      "distributed shared memory load requests (1 per instruction)", dl->requests) \
    M(DSLD_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum", SECTOR, MODEL, CACHE, 0, NAMED, SHARED, LD, PLAIN, \
      "32-byte sectors distributed shared memory loads touched (assumed rule)", dl->sectors) \
    M(DSST_INST, "smsp__sass_inst_executed_op_dshared_st.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, ST, PLAIN, \
      "distributed shared memory store instructions", ds->inst) \
    M(DSST_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_dshared_op_st.sum", REQUEST, EXACT, EXACT, 0, NAMED, SHARED, ST, PLAIN, \
      "distributed shared memory store requests", ds->requests) \
    M(DSST_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum", SECTOR, MODEL, CACHE, 0, NAMED, SHARED, ST, PLAIN, \
      "32-byte sectors distributed shared memory stores touched (assumed rule)", ds->sectors) \
    M(DSATOM_INST, "smsp__sass_inst_executed_op_dshared_atom.sum", INST, EXACT, EXACT, 0, NAMED, SHARED, ATOM, PLAIN, \
      "distributed shared memory atomic instructions (reductions included)", da->inst + dr->inst) \
    M(DSATOM_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_dshared_op_atom.sum", REQUEST, EXACT, INFO, 0, NAMED, SHARED, ATOM, PLAIN, \
      "distributed shared memory atomic requests", da->requests) \
    M(DSRED_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_dshared_op_redas.sum", REQUEST, EXACT, INFO, 0, NAMED, SHARED, RED, PLAIN, \
      "distributed shared memory reduction requests", dr->requests)

/* warp instructions issued, from the SASS listing: each SASS block's instructions times its runs
   (sim/sass/sass_map.h ws_sass_warp_insns), per pipe by opcode (sim/models/pipes.c). Equal to ncu on
   the H200 on 11 of 11 launches, ptxas's unrolled loops included (results/h200-inst). Only the pipes
   the opcode alone decides: alu, and fma = fmaheavy + fmalite (an FFMA goes to either, an IMAD to
   fmaheavy only, so fmaheavy itself is decided at run time: no row); lsu, adu, cbu and uniform
   are not classified (pipes.c gives them WS_PIPE_NONE): no rows */
#define WS_METRICS_SASS(M) \
    M(INST_EXECUTED, "smsp__inst_executed.sum", INST, EXACT, EXACT, 0, COLLECT, NONE, NONE, PLAIN, \
      "warp instructions executed (the SASS listing: each block's instructions times its runs)", si->warp_insns) \
    M(PIPE_ALU_INST, "sm__inst_executed_pipe_alu.sum", INST, EXACT, EXACT, 0, COLLECT, NONE, NONE, PLAIN, \
      "of those, on the ALU pipe (IADD3, LOP3, ISETP, SHF, LEA, SEL, MOV, FSETP ...: sim/models/pipes.c)", \
      si->pipe[WS_PIPE_ALU]) \
    M(PIPE_FMA_INST, "sm__inst_executed_pipe_fma.sum", INST, EXACT, EXACT, 0, COLLECT, NONE, NONE, PLAIN, \
      "of those, on the FMA pipes, heavy and lite (FFMA, FADD, FMUL, HFMA2 but not the HFMA2.MMA move ..., and IMAD, IMUL, VIADD on fma-heavy)", \
      si->pipe[WS_PIPE_FMA] + si->pipe[WS_PIPE_FMAHEAVY])

#define WS_METRICS(M) WS_METRICS_KERNEL(M) WS_METRICS_TENSOR(M) WS_METRICS_DSMEM(M) WS_METRICS_SASS(M) WS_METRICS_REPORT(M) \
    WS_METRICS_LINE(M) WS_METRICS_CHECK(M)

#define WS_METRIC_ENUM(id, ...) WS_METRIC_##id,
typedef enum { WS_METRICS(WS_METRIC_ENUM) WS_METRIC_COUNT } ws_metric_id;
#undef WS_METRIC_ENUM

typedef enum { WS_UNIT_SECTOR, WS_UNIT_REQUEST, WS_UNIT_WAVEFRONT, WS_UNIT_CONFLICT, WS_UNIT_INST, WS_UNIT_BYTE,
               WS_UNIT_US, WS_UNIT_GBS, WS_UNIT_PCT, WS_UNIT_COUNT } ws_unit;
typedef enum { WS_BASIS_EXACT, WS_BASIS_MODEL, WS_BASIS_MEASURED, WS_BASIS_NOTE, WS_BASIS_NONE } ws_basis;
/* check's classes (chk_class is this enum); the order is check_compare.c's name tables'.
 * TIMING_DEP is given at run time (a count that depends on thread order: the atomic rows of an
 * atom.cas retry loop), never by a row. */
typedef enum { WS_JUDGE_EXACT, WS_JUDGE_CACHE, WS_JUDGE_TIME, WS_JUDGE_BOUND, WS_JUDGE_INFO, WS_JUDGE_TIMING_DEP,
               WS_JUDGE_NCLASSES } ws_judge;
typedef enum { WS_NCU_COLLECT, WS_NCU_NAMED, WS_NCU_OWN } ws_ncu;
typedef enum { WS_SCOPE_KERNEL, WS_SCOPE_TENSOR, WS_SCOPE_DSMEM, WS_SCOPE_SASS, WS_SCOPE_REPORT, WS_SCOPE_LINE, WS_SCOPE_CHECK } ws_metric_scope;

/* The row's facts (everything but its value). space and op: a ws_space / ws_mem_op, or -1. */
typedef struct {
    ws_metric_id id;
    const char *name;
    ws_unit unit;
    ws_basis basis;
    ws_judge judge;
    double slack;              /* CACHE allowance in the row's unit (points for a PCT row) */
    ws_ncu ncu;
    int space, op;             /* ws_space, ws_mem_op; -1 = NONE */
    ws_mem_kind kind;
    ws_metric_scope scope;
    const char *help;
} ws_metric_info;

/* Every row, indexed by ws_metric_id (ws_metric_table[WS_METRIC_GLD_INST]). */
extern const ws_metric_info ws_metric_table[WS_METRIC_COUNT];

/* The row named name, NULL when there is none. */
const ws_metric_info *ws_metric_find(const char *name);
/* The CSV/JSON unit of a metric: "sector", "%", "us" ...; "" for a plain count or a name
 * without a row. */
const char *ws_metric_unit(const char *name);
const char *ws_unit_name(ws_unit u);     /* WS_UNIT_SECTOR -> "sector", WS_UNIT_COUNT -> "" */
const char *ws_basis_name(ws_basis b);   /* "exact" */

/* Column tokens -> values, for expansions (paste them: WS_METRIC_SPACE_##space). */
#define WS_METRIC_SPACE_GLOBAL WS_SPACE_GLOBAL
#define WS_METRIC_SPACE_SHARED WS_SPACE_SHARED
#define WS_METRIC_SPACE_LOCAL WS_SPACE_LOCAL
#define WS_METRIC_SPACE_NONE (-1)
#define WS_METRIC_OP_LD WS_MEM_LOAD
#define WS_METRIC_OP_ST WS_MEM_STORE
#define WS_METRIC_OP_ATOM WS_MEM_ATOMIC
#define WS_METRIC_OP_RED WS_MEM_REDUCE
#define WS_METRIC_OP_NONE (-1)

#endif
