/* device.c - device profiles for the memory and timing models (see device.h).
 * Every figure carries its source in a trailing comment. Labels:
 *   [MEAS]  measured on the lent H200 (shared/reference/h200-device-properties.txt,
 *           h200-measured.md, gpu-memory-rules.md §9 I)
 *   [RULES §n] shared/reference/gpu-memory-rules.md, which cites the CUDA
 *           Programming Guide and cuda_occupancy.h for each table
 *   [SPEC]  the vendor's datasheet / whitepaper for that board
 *   [GUIDE] the CUDA C Programming Guide, "Arithmetic Instructions" throughput table
 *           (results per clock cycle per multiprocessor) for the profile's compute capability
 *   estimate  a modelling figure with no measurement behind it in this repo
 * Invariant: profiles are constant data; the first is the default (H200). To
 * add a GPU, append a profile and its driver names; nothing else changes. */
#include "device.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* ---------------------------------------------------------------------------- */
static const ws_device h200 = {
    .key = "h200",
    .name = "NVIDIA H200",                  /* [MEAS] cudaDeviceProp.name */
    .cc_major = 9, .cc_minor = 0,           /* [MEAS] cc=9.0 */
    .arch = "sm_90",                       /* compute capability 9.0 */
    .sm_count = 132,                        /* [MEAS] SMs=132 */
    .sm_clock_mhz = 1980,                   /* [SPEC] H200 SXM max boost 1980 MHz (same GH100 clocks as H100 SXM5) */
    .dram_bw_gbs = 4800,                    /* [SPEC] NVIDIA H200 datasheet: 4.8 TB/s HBM3e; measured copy ceiling
                                               4259-4267 GB/s (h200-measured.md) */
    .dram_fetch_bytes = 64,                 /* [MEAS] default cudaLimitMaxL2FetchGranularity=64, honoured [RULES §4.1] */
    .ecc = 1,                               /* [MEAS] ECC on (nvidia-smi); partial-sector writes read DRAM [RULES §4.1] */
    .code_fetch_block_bytes = 256,          /* [MEAS] fitted: dram__bytes_read.sum - the modelled data reads over the 59
                                               recorded kernels whose SASS text size is known (results/h200.json,
                                               h200-pairs, h200-tensorcore) = 2304 + text rounded up to 256 B;
                                               mean |error| 29 B, at most 256 B (docs/memory-models.md) */
    .launch_fetch_base_bytes = 2304,        /* [MEAS] the same fit's constant (the median); a 1-warp kernel reads
                                               3.5-4.6 KB per launch under ncu [RULES §4.1 "Background traffic"] */
    .l2_bw_gbs = 11000,                     /* [MEAS] a lower bound: mma_tma at 4096^3 (results/h200-pairs) moved
                                               8.66 GB from L2 to the SMs (16384 blocks x 512 KB of tiles + C, TMA:
                                               no L1) in 784.7 us = 11.0 TB/s, so the L2 serves at least that (the
                                               earlier 7500 estimate bounded it at 1154 us); docs/timing-model.md */
    .l2_bytes = 62914560,                   /* [MEAS] l2CacheSize=62914560 (60 MiB) [RULES §4.2] */
    .l2_dirty_fraction = 0.432,             /* [MEAS] fitted: k_write of 32-512 MB (results/h200-l2dram) wrote B - 27.2 MB
                                               to DRAM during the kernel (27.06-27.30 MB kept dirty: 0.430-0.434 x
                                               l2_bytes); App. F's 256 MiB stream likewise (25.7 MiB) [RULES §4.1] */
    .l2_partitions = 2,                     /* [DOC] A100 whitepaper (Hopper keeps it): "Each L2 partition localizes
                                               and caches data for memory accesses from SMs in the GPCs directly
                                               connected to the partition" (forums.developer.nvidia.com/t/200725); [MEAS] k_copy of 32-256 MB kept 20.4-23.7 MB dirty,
                                               2/3 x 62.9 MB / 2 = 21.0 with the copies (results/h200-l2dram) */
    .l2_read_coalescing = 1,                /* [DOC] the Nsight Compute guide's L2 Request Coalescer (LRC) "tries to
                                               coalesce read requests before forwarding them to the L2 cache"; [MEAS]
                                               results/h200-coalesce and -corpus-detail/lrc.csv (L2 read sectors = the
                                               L1's xbar sectors - lrc__..._coalescing_achieved_type_hardware) */
    .l2_coalesce_group_sms = 4,             /* [MEAS] results/h200-coalesce: 2 and 4 one-warp blocks, one per SM, reading
                                               the same lines coalesced into one stream (16,384 of 65,536 sectors reached
                                               L2), 16 into 10 streams: a group holds the 4 SMs the probe's first 4 blocks
                                               had; the smallest group that keeps the model's SMs 0-3 (b % SMs) in one
                                               (16 blocks: 4 streams in the model; docs/memory-models.md) */
    .l2_coalesce_window_cycles = 500,       /* [MEAS] results/h200-coalesce: block 1 started 0-500 cycles after block 0:
                                               every request coalesced (16,384 of 16,384); 1000: 16,320, 4000: 15,936 */
    .l2_coalesce_max_requests = 4,          /* [MEAS] results/h200-lrc-map set-ncu.csv: n SMs of one GPC reading the same
                                               lines reached L2 in 1, 1, 1, 2, 2, 2, 3, 3.2, 4.4 streams for n = 2-16 */
    .gpc_sms = {16, 16, 16, 16, 16, 16, 18, 18}, /* [MEAS] results/h200-lrc-map placement.txt: a 132-block launch fills
                                               SMs GPC by GPC in runs of these sizes; pair-ncu.csv: two SMs coalesce
                                               exactly when they share one */
    .gpc_lead_sms = 8,                      /* [MEAS] results/h200-gemm-lrc place-small.txt: launches of 16-64 blocks put
                                               their first 8 on SMs 124-131 (GPC 0), the rest dealt over the GPCs */
    .l2_coalesce_drift = 7.5,               /* [MEAS] fitted: results/h200-lrc-sizes, mma_cp_async's coalesced share at
                                               1024^3 / 2048^3 (23.4-23.8 % / 9.5-9.7 %; the model 24.5 / 10.7 %, 37.5 %
                                               without drift); docs/memory-models.md "Read coalescing" */
    .l2_coalesce_drift_bulk = 1.8,          /* [MEAS] fitted: the same, mma_tma (TMA) at 2048^3 (24.1-24.3 %; the model
                                               24.3 %; 1024^3 38 %, the model 37.3 %) */
    .l2_partial_fraction = 0.125,           /* [MEAS] fitted: k_partial (results/h200-l2dram) left lines with partly
                                               written sectors unread (dram__bytes_read = the rest): 60-61 k at 8 MB,
                                               45-58 k at 32/64 MB, 8-128 B strides; 0.125 x 491,520 = 61,440
                                               (within 10 % of 17 of the 20 larger reads' bytes, 2 of 5 at 8 MB) */
    .l2_partial_writeback_fraction = 0.27,  /* [MEAS] fitted: the same runs kept 87-140 k such lines dirty (median
                                               132 k = 0.27 x the lines): dram__bytes_write = the rest */
    .l1_unified_bytes = 256 * 1024,         /* [RULES §3.1] 9.0: 256 KB unified L1/shared per SM */
    .ncarveouts = 10,
    .carveouts_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, /* [RULES §3.1] 9.0 carveouts */
    .smem_per_sm = 233472,                  /* [MEAS] sharedMemPerMultiprocessor=233472 (228 KB) */
    .smem_per_block = 49152,                /* [MEAS] sharedMemPerBlock=49152 */
    .smem_per_block_optin = 232448,         /* [MEAS] sharedMemPerBlockOptin=232448 (227 KB) */
    .smem_reserved_per_block = 1024,        /* [MEAS] reservedSharedMemPerBlock=1024 */
    .smem_alloc_gran = 128,                 /* [RULES §6.1] 9.0: 128 B */
    .sector_bytes = 32, .line_bytes = 128,  /* [RULES §1] 32-B sectors, 128-B lines */
    .banks = 32, .bank_bytes = 4,           /* [RULES §3.1] */
    .max_warps_per_sm = 64,                 /* [RULES §6.1] 9.0; [MEAS] maxThreadsPerMultiProcessor=2048 */
    .max_threads_per_sm = 2048,             /* [MEAS] */
    .max_blocks_per_sm = 32,                /* [MEAS] maxBlocksPerMultiProcessor=32 */
    .regs_per_sm = 65536,                   /* [MEAS] regsPerMultiprocessor=65536 */
    .max_regs_per_thread = 255,             /* [RULES §6.1] */
    .reg_alloc_gran = 256,                  /* [RULES §6.1] cudaOccRegAllocationGranularity, per warp */
    .subpartitions = 4,                     /* [RULES §6.1] cudaOccSubPartitionsPerMultiprocessor */
    .l1_hit_cycles = 33,                    /* estimate: published Hopper microbenchmarks put L1 hits at ~30-40 cycles */
    .l2_hit_cycles = 276,                   /* [MEAS] tests/gpu/latency_probe.cu (results/h200-latency): a 16 MB
                                               chase, 1-32 warps/SM, 177-183 ns a step; less the L1 chase's
                                               step (51-58 ns), plus the L1 hit: 139 ns */
    .dram_cycles = 715,                     /* [MEAS] same probe, 960 MB chase at 16-32 warps/SM (0.67-1.3 TB/s,
                                               past the L2 the warm-up fills): 406-417 ns a step, 372 ns load-
                                               to-use less its queueing at 16 %: 361 ns */
    .launch_overhead_us = 4.3,              /* [MEAS] fitted: median of (event-timed median - modelled work) over the
                                               8 smallest kernels of demos/coalescing.cu and transpose.cu in
                                               results/h200.json (work <= 1.5 us); ~2.2 us of it is event
                                               overhead (event median - ncu gpu__time_duration). The other 30
                                               small kernels (held out) give 4.06. docs/timing-model.md */
    .dram_efficiency = 0.89,                /* [MEAS] 4267 GB/s for a float4 copy / the 4800 GB/s peak (h200-measured.md) */
    .dram_min_access_bytes = 64,            /* [MEAS] fitted: a one-sector ECC read or write-back costs a 64-B
                                               transfer (stride_copy_s32 at 2^23: 1068 MB in 386 us = 1611 MB
                                               at the streaming rate; results/h200-l2dram partial_64MB_s64 /
                                               _s128 take 17.9 / 17.0 us); docs/timing-model.md */
    .dram_row_bytes = 2048,                 /* estimate: an HBM row (1 KB per pseudo-channel) and its pair */
    .dram_banks = 3072,                     /* estimate: 6 stacks x 32 pseudo-channels x 16 banks (HBM3) */
    .dram_row_open_bytes = 26,              /* [MEAS] fitted: gather_random at 2^25 (events 681.4 us, ncu 1933 MB read,
                                               132 MB written; the model 2010 / 133 MB): a random 64-B fetch costs 90 B */
    .l2_requests_per_cycle = 35.0,          /* [MEAS] fitted: the naive 4096x4096 transpose, 17.3 M L2 requests in
                                               249 us (ncu); docs/timing-model.md */
    .l2_read_requests_per_cycle = 78.1,     /* [MEAS] tests/gpu/local_probe.cu (results/h200-local rd_s1_f1/_f0_b132):
                                               16.7 M and 15.4 M L2-resident one-sector __ldcg requests (4 and 32
                                               lines per instruction) at 78.1 and 78.4 per SM cycle (ncu); the 35
                                               above was fitted on stores, which have their own rates now */
    .l2_write_requests_per_cycle = 81.5,    /* [MEAS] fitted with the next two (least squares) on tests/gpu/local_probe.cu
                                               (results/h200-local): 16.8 M L2-resident store requests of 1, 2, 4
                                               whole or one-word sectors on 132 SMs, 0.0226-0.0674 cycles each,
                                               all six within 5.5 %; docs/timing-model.md "L2 writes" */
    .l2_write_sectors_per_cycle = 101.5,    /* [MEAS] fitted, as above: whole sectors */
    .l2_write_partial_sectors_per_cycle = 72.2, /* [MEAS] fitted, as above: sectors carrying 4 of 32 bytes */
    .dram_queue_cycles = 90,                /* [MEAS] fitted: same probe, 4 and 8 independent chains per warp at
                                               8-32 warps/SM (1.1-3.5 TB/s): 12-122 ns over the unloaded step
                                               = 31-48 ns x u/(1-u) (u against 0.89 x 4800 GB/s): 45 ns */
    .dram_tail_per_ln = 0.25,               /* [MEAS] same probe: a step of 4 / 8 independent chains per warp
                                               (2-4 warps/SM, no queue) 492 / 574 ns against one chain's 372:
                                               1.32 = 1 + 0.23 ln 4, 1.55 = 1 + 0.26 ln 8 */
    .insn_chain_cycles = 3.4,               /* [MEAS] ncu (results/h200-stalls, 8 kernels at realistic sizes): a warp
                                               instruction's selected + wait (fixed-latency) stall cycles, 2.2-4.6 per
                                               instruction, mean 3.4 (ptxas's stall counts: 4.6 per instruction in the
                                               tree loop of reduce_first_add, 3.0 in its prologue) */
    .barrier_cycles = 12.7,                 /* [MEAS] tests/gpu/stall_probe.cu (results/h200-stall2, bar_only: BAR.SYNC
                                               back to back, one block per SM): 14.7, 16.7, 20.7, 28.7, 44.7, 76.7
                                               cycles a pass for 1, 2, 4, 8, 16, 32 warps = 12.7 + 2.0 per warp */
    .barrier_warp_cycles = 2.0,             /* [MEAS] the same rows: 2.0 cycles per warp of the block */
    .pipe_lanes_per_cycle = {[WS_PIPE_ALU] = 64, [WS_PIPE_FMA] = 128, [WS_PIPE_FMAHEAVY] = 64,
                             [WS_PIPE_FP64] = 64, [WS_PIPE_XU] = 16},
                                            /* [GUIDE] 9.0; [MEAS] same probe under ncu (pipes-ncu.csv), warp
                                               instructions per SM cycle: LOP3 1.97, SHF 1.92, IMAD/IMUL 1.97,
                                               FFMA/FADD 3.6 (events; ncu 4.0), MUFU 0.50, DFMA 1.92 */
    .tensor_insns_per_cycle = {[WS_PIPE_HMMA] = 0.658, [WS_PIPE_HMMA_K8] = 0.999, [WS_PIPE_IMMA] = 0.656,
                               [WS_PIPE_DMMA] = 0.250, [WS_PIPE_GMMA] = 1.0},
                                            /* [MEAS] tests/gpu/tensor_pipe_probe.cu (results/h200-tensorpipe/
                                               SUMMARY.md, mma.csv, wgmma.csv): the most warp instructions per
                                               SM cycle over 1-16 warps/SM x 1-16 chains: HMMA.16816.F32 0.658
                                               (bf16 0.658, .F16 0.666, HMMA.1688.F32.TF32 0.658), HMMA.1688.F32
                                               0.999, IMMA.16832.S8.S8 0.656, DMMA.8x8x4 0.250; wgmma m64nNk16
                                               4094 flop/clk/SM for N = 64, 128, 256: N/2 cycles per wgmma =
                                               N/8 per warp instruction = 1 unit (8 columns) per cycle */
    .tensor_warp_insns_per_cycle = {[WS_PIPE_HMMA] = 0.119, [WS_PIPE_HMMA_K8] = 0.178, [WS_PIPE_IMMA] = 0.119,
                                    [WS_PIPE_DMMA] = 0.059, [WS_PIPE_GMMA] = 0.25},
                                            /* [MEAS] same probe, 1 warp/SM, its best over 1-16 independent
                                               chains: HMMA.16816 0.119 (4 warps/SM: 0.477 = 4 x 0.119),
                                               HMMA.1688.F32 0.178, DMMA 0.059; IMMA assumed HMMA's (its 1-warp
                                               rows were void); wgmma: one warpgroup (4 warps) pipelined reaches
                                               the SM's rate (32.0 cycles per m64n64k16), so 1/4 per warp */
    /* Atomics and block launch: tests/gpu/contention_probe.cu on the H200 (results/h200-contention.md,
     * raw data results/h200-contention/contention.csv and contention-ncu.csv; [MEAS] below names the
     * configuration each rate comes from; results/h200-contention-validation.md checks all 84) */
    .atom_sector_rule = WS_ATOM_SECTORS_PASS, /* [MEAS] ncu l1tex__t_sectors_pipe_lsu_mem_global_op_red: exact
                                               for one address (32 per RED), coalesced words (4), the skewed
                                               histogram (-0.01 %); 1.7 % under for 256 uniform bins */
    .l2_atom_sector_factor = 1.5,           /* [MEAS] lts__t_sectors_op_red / L1 sectors = 1.50 in 10 of 12 ncu
                                               configurations (1.61 for lane % 32 bins, 2.58 for a CAS loop) */
    .atom_same_address_ns = 0.732,          /* [MEAS] g_one_red: 2^22 REDs on one int in 3071 us (ATOM 3074);
                                               lane % 2 / % 4: 1537 / 770 us (0.732 per op per address) */
    .atom_same_address_float_ns = 1.756,    /* [MEAS] gf_one_red: 2^22 float adds on one address in 7366 us */
    .atom_sector_pass_ns = 0.732,           /* [MEAS] g_hash2/4_red: 0.732-0.734 ns per sector-op of a hot range
                                               (18.2 / 11.0 PASS sectors per RED x 131072 REDs in 1751 / 1057 us);
                                               hash 8-64 bins 0.69-0.73; float hash256 = int: a unit's rate */
    .atom_slice_bytes = 512,                /* [MEAS] g_hash64_red: 256 B of bins in one unit (13.1 sector-ops per
                                               RED at 0.705 ns); g_hash256_red and the byte histograms: 1 KB in
                                               two (2.96 M sector-ops in 1080 us = 0.365 ns each) */
    .atom_slices = 76,                      /* [MEAS] g_hash1048576_red: 2^24 REDs on 4 MB of bins (16.7 M sector-
                                               ops) in 162.3 us: 0.732 ns x 16.7 M / 162.3 us = 76 units */
    .atom_window_units_base = 3.10,         /* [MEAS] fitted with the next (least squares) on tests/gpu/l2req_probe.cu
                                               (results/h200-l2req, ncu): 2^24 one-word-per-warp REDs, warps 4 B..
                                               512 B apart in launch order or hashed, 8-64 warps per SM: 21.5-70.6
                                               units for 8-3575 ranges in flight, all 8 within 4.5 % */
    .atom_window_units_per_doubling = 5.83, /* [MEAS] fitted, as above */
    .atom_operand_bytes_per_ns = 54.2,      /* [MEAS] g_lane8/16/32_red: 131072 32-lane REDs on one line in 310 us
                                               = 128 B of operands per 2.36 ns (32 B per L2 cycle at 1.709 GHz
                                               would be 54.7); one lane per RED (g_one_literal_red) is not held
                                               to it: 0.737 ns each */
    .shared_atom_cycles_per_pass = 1.0,     /* [MEAS] s_onebank32: 536,990,779 wavefronts (ncu) in 2085 us on 132
                                               SMs = 1.01 cycles each; s_lane32, s_warp: 1.1 per instruction */
    .l1_wavefronts_per_cycle = 1.0,         /* [MEAS] tests/gpu/shared_rate_probe.cu (results/h200-shared-rate/SUMMARY.md):
                                               LDS/STS of 32/64/128 bits at 1-32-way bank conflicts, loads and
                                               stores interleaved, 16-64 warps/SM: 1.000-1.004 SM cycles per
                                               bank-rule wavefront (a 32-way LDS 32.0 cycles) at 1946-1978 MHz;
                                               the guide: 32 banks x 32 bits per clock [RULES §3.1] */
    .block_launch_cycles = 156.6,           /* [MEAS] launch_empty_1000000x32..256: 10^6 empty blocks in 603.6 us
                                               (less the 4.3 us launch overhead): 0.599 ns per block on the GPU
                                               = 7576 blocks per SM x 156.6 cycles */
    .warp_launch_cycles = 5.54,             /* [MEAS] launch_empty_1000000x1024: 682.4 us for 32-warp blocks:
                                               0.678 ns per block, 5.54 SM cycles per warp per SM */
};

static const ws_device h100 = {
    .key = "h100",
    .name = "NVIDIA H100 80GB HBM3",        /* the H100 SXM5 board's driver name */
    .cc_major = 9, .cc_minor = 0,           /* [RULES §4.2] */
    .arch = "sm_90",                       /* compute capability 9.0 */
    .sm_count = 132,                        /* [SPEC] H100 SXM5: 132 SMs (Hopper whitepaper) */
    .sm_clock_mhz = 1980,                   /* [SPEC] H100 SXM5 max boost 1980 MHz */
    .dram_bw_gbs = 3350,                    /* [SPEC] H100 SXM datasheet: 3.35 TB/s HBM3 */
    .dram_fetch_bytes = 64,                 /* estimate: assumed as on H200 (same chip) [RULES §4.1 UNCERTAIN] */
    .ecc = 1,                               /* [SPEC] HBM3 ECC on by default */
    .code_fetch_block_bytes = 256,          /* estimate: the H200 fit assumed */
    .launch_fetch_base_bytes = 2304,        /* estimate: the H200 fit assumed */
    .l2_bw_gbs = 11000,                     /* assumed: the H200's lower bound (same chip's L2, smaller capacity
                                               enabled); not measured on an H100 */
    .l2_bytes = 52428800,                   /* [RULES §4.2] 50 MB */
    .l2_dirty_fraction = 0.432,             /* estimate: the H200 figure assumed (same GH100 chip) */
    .l2_partitions = 2,                     /* estimate: as the H200 (same chip, L2 fabric) */
    .l2_read_coalescing = 1,                /* estimate: as the H200 (the same GH100 chip), not measured here */
    .l2_coalesce_group_sms = 4,             /* estimate: as the H200 */
    .l2_coalesce_window_cycles = 500,       /* estimate: as the H200 */
    .l2_coalesce_max_requests = 4,          /* estimate: as the H200 */
    .gpc_sms = {16, 16, 16, 16, 16, 16, 18, 18}, /* estimate: the H200's (132 SMs as here), not measured here */
    .gpc_lead_sms = 8,                      /* estimate: as the H200 */
    .l2_coalesce_drift = 7.5,               /* estimate: as the H200 */
    .l2_coalesce_drift_bulk = 1.8,          /* estimate: as the H200 */
    .l2_partial_fraction = 0.125,           /* estimate: the H200 fit assumed */
    .l2_partial_writeback_fraction = 0.27,  /* estimate: the H200 fit assumed */
    .l1_unified_bytes = 256 * 1024,         /* [RULES §3.1] 9.0 */
    .ncarveouts = 10,
    .carveouts_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, /* [RULES §3.1] 9.0 */
    .smem_per_sm = 233472,                  /* [RULES §6.1] 9.0: 228 KB */
    .smem_per_block = 49152,                /* [RULES §3.1] 48 KB static limit */
    .smem_per_block_optin = 232448,         /* [RULES §3.1] 227 KB */
    .smem_reserved_per_block = 1024,        /* [RULES §6.1] 1 KB */
    .smem_alloc_gran = 128,                 /* [RULES §6.1] */
    .sector_bytes = 32, .line_bytes = 128,  /* [RULES §1] */
    .banks = 32, .bank_bytes = 4,           /* [RULES §3.1] */
    .max_warps_per_sm = 64,                 /* [RULES §6.1] */
    .max_threads_per_sm = 2048,             /* [RULES §6.1] */
    .max_blocks_per_sm = 32,                /* [RULES §6.1] */
    .regs_per_sm = 65536,                   /* [RULES §6.1] */
    .max_regs_per_thread = 255,             /* [RULES §6.1] */
    .reg_alloc_gran = 256,                  /* [RULES §6.1] */
    .subpartitions = 4,                     /* [RULES §6.1] */
    .l1_hit_cycles = 33,                    /* estimate: as H200 */
    .l2_hit_cycles = 260,                   /* estimate: as H200 */
    .dram_cycles = 650,                     /* estimate: as H200 */
    .launch_overhead_us = 3.0,              /* estimate */
    .dram_efficiency = 0.89,                /* estimate: the H200 figure assumed (same GH100 memory system); not measured */
    .l2_requests_per_cycle = 35.0 * 7500 / 7500, /* estimate: the H200's 35 scaled by l2_bw_gbs / 7500; not measured */
    .l2_read_requests_per_cycle = 78.1,     /* estimate: the H200 measurement assumed (same GH100 L2) */
    .l2_write_requests_per_cycle = 81.5,    /* estimate: the H200 fit assumed (same GH100 L2) */
    .l2_write_sectors_per_cycle = 101.5,    /* estimate: the H200 fit assumed */
    .l2_write_partial_sectors_per_cycle = 72.2, /* estimate: the H200 fit assumed */
    .dram_queue_cycles = 90,                /* estimate: the H200 figure assumed; not measured */
    .dram_tail_per_ln = 0.25,               /* estimate: the H200 figure assumed; not measured */
    .insn_chain_cycles = 3.4,               /* estimate: the H200 figure assumed (same SM) */
    .barrier_cycles = 12.7,                 /* estimate: the H200 figure assumed (same SM) */
    .barrier_warp_cycles = 2.0,             /* estimate: the H200 figure assumed */
    .pipe_lanes_per_cycle = {[WS_PIPE_ALU] = 64, [WS_PIPE_FMA] = 128, [WS_PIPE_FMAHEAVY] = 64,
                             [WS_PIPE_FP64] = 64, [WS_PIPE_XU] = 16}, /* [GUIDE] 9.0 (the H200's chip) */
    .tensor_insns_per_cycle = {[WS_PIPE_HMMA] = 0.658, [WS_PIPE_HMMA_K8] = 0.999, [WS_PIPE_IMMA] = 0.656,
                               [WS_PIPE_DMMA] = 0.250, [WS_PIPE_GMMA] = 1.0},
    .tensor_warp_insns_per_cycle = {[WS_PIPE_HMMA] = 0.119, [WS_PIPE_HMMA_K8] = 0.178, [WS_PIPE_IMMA] = 0.119,
                                    [WS_PIPE_DMMA] = 0.059, [WS_PIPE_GMMA] = 0.25},
                                            /* assumed: the H200's (its chip), not measured on an H100 */
    .atom_sector_rule = WS_ATOM_SECTORS_PASS, /* estimate: the H200 rule assumed */
    .l2_atom_sector_factor = 1.5,           /* estimate: the H200 figure assumed (two L2 partitions) */
    .atom_same_address_ns = 0.732,          /* estimate: the H200 figure assumed */
    .atom_same_address_float_ns = 1.756,    /* estimate: the H200 figure assumed */
    .atom_sector_pass_ns = 0.732,           /* estimate: the H200 figure assumed */
    .atom_slice_bytes = 512,                /* estimate: the H200 figure assumed */
    .atom_slices = 76,                      /* estimate: the H200 figure assumed (same GH100 L2) */
    .atom_window_units_base = 3.10,         /* estimate: the H200 fit assumed (same GH100 L2) */
    .atom_window_units_per_doubling = 5.83, /* estimate: the H200 fit assumed */
    .atom_operand_bytes_per_ns = 54.2,      /* estimate: the H200 figure assumed */
    .shared_atom_cycles_per_pass = 1.0,     /* estimate: the H200 figure assumed (1 wavefront per cycle) */
    .l1_wavefronts_per_cycle = 1.0,         /* the guide: 32 banks x 32 bits per clock (cc 5.x and later) [RULES §3.1] */
    .block_launch_cycles = 156.6,           /* estimate: the H200 figure assumed (same GH100 chip) */
    .warp_launch_cycles = 5.54,             /* estimate: the H200 figure assumed (same GH100 chip) */
};

static const ws_device a100 = {
    .key = "a100",
    .name = "NVIDIA A100-SXM4-40GB",        /* the A100 SXM4 40GB board's driver name */
    .cc_major = 8, .cc_minor = 0,           /* [RULES §4.2] */
    .arch = "sm_80",                       /* compute capability 8.0 */
    .sm_count = 108,                        /* [SPEC] A100: 108 SMs (Ampere GA100 whitepaper) */
    .sm_clock_mhz = 1410,                   /* [SPEC] A100 SXM4 boost 1410 MHz */
    .dram_bw_gbs = 1555,                    /* [SPEC] A100 40GB datasheet: 1555 GB/s HBM2 */
    .dram_fetch_bytes = 64,                 /* estimate: the limit API appeared with A100; 64 B assumed [RULES §4.1 UNCERTAIN] */
    .ecc = 1,                               /* [SPEC] HBM2 ECC on by default */
    .code_fetch_block_bytes = 256,          /* estimate: the H200 fit assumed */
    .launch_fetch_base_bytes = 2304,        /* estimate: the H200 fit assumed */
    .l2_bw_gbs = 4800,                      /* estimate: ~3x DRAM peak (NVIDIA quotes 2.3x V100's L2 bandwidth) */
    .l2_bytes = 41943040,                   /* [RULES §4.2] 40 MB (cudaDeviceProp reports 40 MiB) */
    .l2_dirty_fraction = 0.432,             /* estimate: the H200 figure assumed */
    .l2_partitions = 2,                     /* [DOC] A100 whitepaper: "The L2 cache is divided into two partitions" */
    .l2_read_coalescing = 0,                /* estimate: off (the H200's coalescer is not measured on an A100) */
    .l2_partial_fraction = 0.125,           /* estimate: the H200 fit assumed */
    .l2_partial_writeback_fraction = 0.27,  /* estimate: the H200 fit assumed */
    .l1_unified_bytes = 192 * 1024,         /* [RULES §3.1] 8.0: 192 KB */
    .ncarveouts = 8,
    .carveouts_kb = {0, 8, 16, 32, 64, 100, 132, 164}, /* [RULES §3.1] 8.0 */
    .smem_per_sm = 167936,                  /* [RULES §6.1] 8.0: 164 KB */
    .smem_per_block = 49152,                /* [RULES §3.1] 48 KB static limit */
    .smem_per_block_optin = 166912,         /* [RULES §3.1] 163 KB */
    .smem_reserved_per_block = 1024,        /* [RULES §6.1] 1 KB */
    .smem_alloc_gran = 128,                 /* [RULES §6.1] */
    .sector_bytes = 32, .line_bytes = 128,  /* [RULES §1] */
    .banks = 32, .bank_bytes = 4,           /* [RULES §3.1] */
    .max_warps_per_sm = 64,                 /* [RULES §6.1] */
    .max_threads_per_sm = 2048,             /* [RULES §6.1] */
    .max_blocks_per_sm = 32,                /* [RULES §6.1] */
    .regs_per_sm = 65536,                   /* [RULES §6.1] */
    .max_regs_per_thread = 255,             /* [RULES §6.1] */
    .reg_alloc_gran = 256,                  /* [RULES §6.1] */
    .subpartitions = 4,                     /* [RULES §6.1] */
    .l1_hit_cycles = 33,                    /* estimate: published Ampere microbenchmarks, ~33 cycles */
    .l2_hit_cycles = 200,                   /* estimate: near-partition L2 hit */
    .dram_cycles = 480,                     /* estimate */
    .launch_overhead_us = 3.0,              /* estimate */
    .dram_efficiency = 0.89,                /* estimate: the H200 figure assumed; not measured on an A100 */
    .l2_requests_per_cycle = 35.0 * 4800 / 7500, /* estimate: the H200's 35 scaled by l2_bw_gbs / 7500; not measured */
    .dram_queue_cycles = 90,                /* estimate: the H200 figure assumed; not measured */
    .dram_tail_per_ln = 0.25,               /* estimate: the H200 figure assumed; not measured */
    .insn_chain_cycles = 0,                 /* not measured: a warp's own chain is not modelled */
    .barrier_cycles = 0,                    /* not measured */
    .pipe_lanes_per_cycle = {[WS_PIPE_ALU] = 64, [WS_PIPE_FMA] = 64, [WS_PIPE_FMAHEAVY] = 64,
                             [WS_PIPE_FP64] = 32, [WS_PIPE_XU] = 16}, /* [GUIDE] 8.0 */
    .tensor_insns_per_cycle = {[WS_PIPE_HMMA] = 0.5, [WS_PIPE_HMMA_K8] = 1.0, [WS_PIPE_IMMA] = 0.5,
                               [WS_PIPE_DMMA] = 0.25},
                                            /* [SPEC] A100 whitepaper dense peaks / (108 SMs x 1410 MHz), per SM
                                               cycle: f16 312 TFLOP/s = 2048 flop (HMMA.16816, 4096 flop: 0.5;
                                               HMMA.1688: 1.0), tf32 1024 (HMMA.1688.TF32, 2048: 0.5), int8 4096
                                               op (IMMA.16832, 8192: 0.5), f64 128 (DMMA, 512: 0.25); not measured */
    .atom_sector_rule = WS_ATOM_SECTORS_PASS, /* estimate: the H200 rule assumed */
    .l2_atom_sector_factor = 1.5,           /* estimate: the H200 figure assumed (two L2 partitions) */
    .atom_same_address_ns = 0.732,          /* estimate: the H200 figure assumed */
    .atom_same_address_float_ns = 1.756,    /* estimate: the H200 figure assumed */
    .atom_sector_pass_ns = 0.732,           /* estimate: the H200 figure assumed */
    .atom_slice_bytes = 512,                /* estimate: the H200 figure assumed */
    .atom_slices = 76.0 * 4800 / 7500,      /* estimate: the H200's 76 scaled by l2_bw_gbs / 7500 */
    .atom_operand_bytes_per_ns = 54.2,      /* estimate: the H200 figure assumed */
    .shared_atom_cycles_per_pass = 1.0,     /* estimate: the H200 figure assumed (1 wavefront per cycle) */
    .l1_wavefronts_per_cycle = 1.0,         /* the guide: 32 banks x 32 bits per clock (cc 5.x and later) [RULES §3.1] */
    .block_launch_cycles = 0,               /* not calibrated: the term is off */
    .warp_launch_cycles = 0,                /* not calibrated: the term is off */
};

static const ws_device t4 = {
    .key = "t4",
    .name = "Tesla T4",                     /* driver name (deviceQuery) */
    .cc_major = 7, .cc_minor = 5,           /* [RULES §4.2] */
    .arch = "sm_75",                       /* compute capability 7.5 */
    .sm_count = 40,                         /* [SPEC] T4: 40 SMs (deviceQuery: 40 multiprocessors) */
    .sm_clock_mhz = 1590,                   /* [SPEC] T4 boost 1590 MHz */
    .dram_bw_gbs = 320,                     /* [SPEC] T4 datasheet: 320 GB/s GDDR6 */
    .dram_fetch_bytes = 32,                 /* estimate: pre-Ampere, sector-sized fetches assumed [RULES §4.1 UNCERTAIN] */
    .ecc = 1,                               /* estimate: T4 boards ship with GDDR6 ECC enabled; RMW rule unverified */
    .code_fetch_block_bytes = 256,          /* estimate: the H200 fit assumed */
    .launch_fetch_base_bytes = 2304,        /* estimate: the H200 fit assumed */
    .l2_bw_gbs = 1100,                      /* estimate: ~3.4x DRAM peak */
    .l2_bytes = 4194304,                    /* [RULES §4.2] 4 MiB */
    .l2_dirty_fraction = 0.432,             /* estimate: the H200 figure assumed */
    .l2_partitions = 1,                     /* estimate: no L2 fabric on tu102 (ncu catalogue: no ltcfabric metric) */
    .l2_read_coalescing = 0,                /* estimate: assumed absent (not measured): every request is looked up */
    .l2_partial_fraction = 0.125,           /* estimate: the H200 fit assumed */
    .l2_partial_writeback_fraction = 0.27,  /* estimate: the H200 fit assumed */
    .l1_unified_bytes = 96 * 1024,          /* [RULES §3.1] 7.5: 96 KB */
    .ncarveouts = 2,
    .carveouts_kb = {32, 64},               /* [RULES §3.1] 7.5 */
    .smem_per_sm = 65536,                   /* [RULES §6.1] 7.5: 64 KB */
    .smem_per_block = 49152,                /* [RULES §3.1] 48 KB static limit */
    .smem_per_block_optin = 65536,          /* [RULES §3.1] 64 KB */
    .smem_reserved_per_block = 0,           /* [RULES §6.1] 0 [UNCERTAIN] */
    .smem_alloc_gran = 256,                 /* [RULES §6.1] 7.x: 256 B */
    .sector_bytes = 32, .line_bytes = 128,  /* [RULES §1] */
    .banks = 32, .bank_bytes = 4,           /* [RULES §3.1] */
    .max_warps_per_sm = 32,                 /* [RULES §6.1] 7.5 */
    .max_threads_per_sm = 1024,             /* [RULES §6.1] */
    .max_blocks_per_sm = 16,                /* [RULES §6.1] */
    .regs_per_sm = 65536,                   /* [RULES §6.1] */
    .max_regs_per_thread = 255,             /* [RULES §6.1] */
    .reg_alloc_gran = 256,                  /* [RULES §6.1] */
    .subpartitions = 4,                     /* [RULES §6.1] */
    .l1_hit_cycles = 32,                    /* estimate: published Turing microbenchmarks, ~32 cycles */
    .l2_hit_cycles = 190,                   /* estimate */
    .dram_cycles = 450,                     /* estimate */
    .launch_overhead_us = 4.0,              /* estimate */
    .dram_efficiency = 0.89,                /* estimate: the H200 figure assumed; not measured on a T4 (GDDR6) */
    .l2_requests_per_cycle = 35.0 * 1100 / 7500, /* estimate: the H200's 35 scaled by l2_bw_gbs / 7500; not measured */
    .dram_queue_cycles = 90,                /* estimate: the H200 figure assumed; not measured */
    .dram_tail_per_ln = 0.25,               /* estimate: the H200 figure assumed; not measured */
    .insn_chain_cycles = 0,                 /* not measured: a warp's own chain is not modelled */
    .barrier_cycles = 0,                    /* not measured */
    .pipe_lanes_per_cycle = {[WS_PIPE_ALU] = 64, [WS_PIPE_FMA] = 64, [WS_PIPE_FMAHEAVY] = 64,
                             [WS_PIPE_FP64] = 2, [WS_PIPE_XU] = 16}, /* [GUIDE] 7.5 */
    .atom_sector_rule = WS_ATOM_SECTORS_PASS, /* estimate: the H200 rule assumed */
    .l2_atom_sector_factor = 1.5,           /* estimate: the H200 figure assumed (two L2 partitions) */
    .atom_same_address_ns = 0.732,          /* estimate: the H200 figure assumed */
    .atom_same_address_float_ns = 1.756,    /* estimate: the H200 figure assumed */
    .atom_sector_pass_ns = 0.732,           /* estimate: the H200 figure assumed */
    .atom_slice_bytes = 512,                /* estimate: the H200 figure assumed */
    .atom_slices = 76.0 * 1100 / 7500,      /* estimate: the H200's 76 scaled by l2_bw_gbs / 7500 */
    .atom_operand_bytes_per_ns = 54.2,      /* estimate: the H200 figure assumed */
    .shared_atom_cycles_per_pass = 1.0,     /* estimate: the H200 figure assumed (1 wavefront per cycle) */
    .l1_wavefronts_per_cycle = 1.0,         /* the guide: 32 banks x 32 bits per clock (cc 5.x and later) [RULES §3.1] */
    .block_launch_cycles = 0,               /* not calibrated: the term is off */
    .warp_launch_cycles = 0,                /* not calibrated: the term is off */
};

static const ws_device v100 = {
    .key = "v100",
    .name = "Tesla V100-SXM2-16GB",         /* driver name; the 32GB board differs only in capacity */
    .cc_major = 7, .cc_minor = 0,           /* [RULES §4.2] */
    .arch = "sm_70",                       /* compute capability 7.0 */
    .sm_count = 80,                         /* [SPEC] V100: 80 SMs (Volta whitepaper) */
    .sm_clock_mhz = 1530,                   /* [SPEC] V100 SXM2 boost 1530 MHz */
    .dram_bw_gbs = 900,                     /* [SPEC] V100 SXM2 datasheet: 900 GB/s HBM2 */
    .dram_fetch_bytes = 32,                 /* estimate: pre-Ampere, sector-sized fetches assumed [RULES §4.1 UNCERTAIN] */
    .ecc = 1,                               /* [SPEC] HBM2 ECC on by default */
    .code_fetch_block_bytes = 256,          /* estimate: the H200 fit assumed */
    .launch_fetch_base_bytes = 2304,        /* estimate: the H200 fit assumed */
    .l2_bw_gbs = 2100,                      /* estimate: published Volta microbenchmarks measure ~2.1 TB/s */
    .l2_bytes = 6291456,                    /* [RULES §4.2] 6 MiB */
    .l2_dirty_fraction = 0.432,             /* estimate: the H200 figure assumed */
    .l2_partitions = 1,                     /* estimate: one L2 (no L2 fabric metric before ga100) */
    .l2_read_coalescing = 0,                /* estimate: assumed absent (not measured): every request is looked up */
    .l2_partial_fraction = 0.125,           /* estimate: the H200 fit assumed */
    .l2_partial_writeback_fraction = 0.27,  /* estimate: the H200 fit assumed */
    .l1_unified_bytes = 128 * 1024,         /* [RULES §3.1] 7.0: 128 KB */
    .ncarveouts = 6,
    .carveouts_kb = {0, 8, 16, 32, 64, 96}, /* [RULES §3.1] 7.0 */
    .smem_per_sm = 98304,                   /* [RULES §6.1] 7.0: 96 KB */
    .smem_per_block = 49152,                /* [RULES §3.1] 48 KB static limit */
    .smem_per_block_optin = 98304,          /* [RULES §3.1] 96 KB */
    .smem_reserved_per_block = 0,           /* [RULES §6.1] 0 [UNCERTAIN] */
    .smem_alloc_gran = 256,                 /* [RULES §6.1] 7.x: 256 B */
    .sector_bytes = 32, .line_bytes = 128,  /* [RULES §1] */
    .banks = 32, .bank_bytes = 4,           /* [RULES §3.1] */
    .max_warps_per_sm = 64,                 /* [RULES §6.1] 7.0 */
    .max_threads_per_sm = 2048,             /* [RULES §6.1] */
    .max_blocks_per_sm = 32,                /* [RULES §6.1] */
    .regs_per_sm = 65536,                   /* [RULES §6.1] */
    .max_regs_per_thread = 255,             /* [RULES §6.1] */
    .reg_alloc_gran = 256,                  /* [RULES §6.1] */
    .subpartitions = 4,                     /* [RULES §6.1] */
    .l1_hit_cycles = 28,                    /* estimate: published Volta microbenchmarks, ~28 cycles */
    .l2_hit_cycles = 193,                   /* estimate: same source, ~190 cycles */
    .dram_cycles = 400,                     /* estimate */
    .launch_overhead_us = 4.0,              /* estimate */
    .dram_efficiency = 0.89,                /* estimate: the H200 figure assumed; not measured on a V100 */
    .l2_requests_per_cycle = 35.0 * 2100 / 7500, /* estimate: the H200's 35 scaled by l2_bw_gbs / 7500; not measured */
    .dram_queue_cycles = 90,                /* estimate: the H200 figure assumed; not measured */
    .dram_tail_per_ln = 0.25,               /* estimate: the H200 figure assumed; not measured */
    .insn_chain_cycles = 0,                 /* not measured: a warp's own chain is not modelled */
    .barrier_cycles = 0,                    /* not measured */
    .pipe_lanes_per_cycle = {[WS_PIPE_ALU] = 64, [WS_PIPE_FMA] = 64, [WS_PIPE_FMAHEAVY] = 64,
                             [WS_PIPE_FP64] = 32, [WS_PIPE_XU] = 16}, /* [GUIDE] 7.0 */
    .atom_sector_rule = WS_ATOM_SECTORS_PASS, /* estimate: the H200 rule assumed */
    .l2_atom_sector_factor = 1.5,           /* estimate: the H200 figure assumed (two L2 partitions) */
    .atom_same_address_ns = 0.732,          /* estimate: the H200 figure assumed */
    .atom_same_address_float_ns = 1.756,    /* estimate: the H200 figure assumed */
    .atom_sector_pass_ns = 0.732,           /* estimate: the H200 figure assumed */
    .atom_slice_bytes = 512,                /* estimate: the H200 figure assumed */
    .atom_slices = 76.0 * 2100 / 7500,      /* estimate: the H200's 76 scaled by l2_bw_gbs / 7500 */
    .atom_operand_bytes_per_ns = 54.2,      /* estimate: the H200 figure assumed */
    .shared_atom_cycles_per_pass = 1.0,     /* estimate: the H200 figure assumed (1 wavefront per cycle) */
    .l1_wavefronts_per_cycle = 1.0,         /* the guide: 32 banks x 32 bits per clock (cc 5.x and later) [RULES §3.1] */
    .block_launch_cycles = 0,               /* not calibrated: the term is off */
    .warp_launch_cycles = 0,                /* not calibrated: the term is off */
};

static const ws_device *const all[] = {&h200, &h100, &a100, &t4, &v100, NULL};

/* Driver names each profile answers to. A name matches when it equals one of
 * these or extends it after a space or '-' ("Tesla V100-SXM2-32GB"), unless
 * it is a listed different board of the same family (other SM counts,
 * clocks or memory). */
typedef struct {
    const ws_device *dev;
    const char *names[4];
    const char *not_this[3];
} name_rule;

static const name_rule rules[] = {
    {&h200, {"NVIDIA H200", NULL}, {"NVIDIA H200 NVL", NULL}},
    {&h100, {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5", NULL}, {NULL}},
    {&a100, {"NVIDIA A100-SXM4-40GB", "A100-SXM4-40GB", NULL}, {NULL}},
    {&t4, {"Tesla T4", "NVIDIA T4", NULL}, {NULL}},
    {&v100, {"Tesla V100-SXM2", "NVIDIA V100-SXM2", NULL}, {NULL}},
};

static int starts_with_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix)) return 0;
    return 1;
}

static int name_matches(const char *given, const char *name)
{
    if (!starts_with_ci(given, name)) return 0;
    char next = given[strlen(name)];
    return next == '\0' || next == ' ' || next == '-';
}

/* results/h200-gemm-lrc place-small.txt: the first gpc_lead_sms blocks go to GPC 0; the rest are dealt
 * evenly over the GPCs in launch order (contiguous runs, GPC 0 first); while the grid has at most one
 * block per TPC each GPC takes at most its TPCs left (GPC 0: (its SMs - the lead) / 2), the excess going
 * to the next GPCs with room. 16 blocks: 9 in GPC 0, 1 in each other; 64: 12, 8, 8, 8, 7, 7, 7, 7; 66:
 * 12, 8, 8, 8, 8, 8, 7, 7 (results/h200-lrc-map), as measured. */
int ws_device_block_gpc(const ws_device *d, uint64_t grid_blocks, uint64_t b)
{
    int n = 0;
    while (n < 16 && d->gpc_sms[n]) n++;
    if (!n || grid_blocks >= (uint64_t)d->sm_count || b >= grid_blocks)
        return -1;
    uint64_t lead = (uint64_t)(d->gpc_lead_sms > 0 ? d->gpc_lead_sms : 0);
    if (b < lead)
        return 0;
    uint64_t rest = grid_blocks > lead ? grid_blocks - lead : 0, share[16], over = 0;
    int spread = grid_blocks <= (uint64_t)d->sm_count / 2;
    for (int g = 0; g < n; g++) {
        share[g] = rest / (uint64_t)n + ((uint64_t)g < rest % (uint64_t)n);
        uint64_t room = (d->gpc_sms[g] - (g ? 0 : lead)) / 2;
        if (spread && share[g] > room) {
            over += share[g] - room;
            share[g] = room;
        }
    }
    while (over) { /* the excess, to the next GPCs with room, one each in turn */
        uint64_t before = over;
        for (int g = 1; over && g < n; g++)
            if (share[g] < d->gpc_sms[g] / 2u) {
                share[g]++;
                over--;
            }
        if (over == before) /* no GPC has room: the rest stay with the last (below) */
            break;
    }
    uint64_t i = b - lead;
    for (int g = 0; g < n; g++) {
        if (i < share[g]) return g;
        i -= share[g];
    }
    return n - 1;
}

int ws_device_grid_groups(const ws_device *d, uint64_t grid_blocks)
{
    if (!d || !d->l2_read_coalescing || !grid_blocks)
        return 0;
    if (ws_device_block_gpc(d, grid_blocks, 0) >= 0) {
        uint32_t seen = 0;
        for (uint64_t b = 0; b < grid_blocks; b++) seen |= 1u << ws_device_block_gpc(d, grid_blocks, b);
        return __builtin_popcount(seen);
    }
    uint64_t on = grid_blocks < (uint64_t)d->sm_count ? grid_blocks : (uint64_t)d->sm_count;
    int g = d->l2_coalesce_group_sms > 0 ? d->l2_coalesce_group_sms : d->sm_count;
    return (int)((on + (uint64_t)g - 1) / (uint64_t)g);
}

const ws_device *ws_device_find(const char *key_or_name)
{
    if (!key_or_name || !*key_or_name) return NULL;
    for (int i = 0; all[i]; i++)
        if (strlen(key_or_name) == strlen(all[i]->key) && starts_with_ci(key_or_name, all[i]->key)) return all[i];
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        int excluded = 0;
        for (int k = 0; rules[r].not_this[k] && !excluded; k++) excluded = name_matches(key_or_name, rules[r].not_this[k]);
        if (excluded) continue;
        for (int k = 0; rules[r].names[k]; k++)
            if (name_matches(key_or_name, rules[r].names[k])) return rules[r].dev;
    }
    return NULL;
}

const ws_device *const *ws_device_all(void) { return all; }

const ws_device *ws_device_default(void) { return all[0]; }

const ws_device *ws_device_most_shared(void)
{
    const ws_device *most = all[0];
    for (const ws_device *const *d = all; *d; d++)
        if ((*d)->smem_per_block_optin > most->smem_per_block_optin) most = *d;
    return most;
}
