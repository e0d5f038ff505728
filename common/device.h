/* device.h - device profiles: the figures the memory and timing models need
 * for one GPU. Every figure carries its source in device.c. The GPU actually
 * present is always read from the driver (cuda/), never assumed from here. */
#ifndef WS_DEVICE_H
#define WS_DEVICE_H

#include <stdint.h>

#define WS_MAX_CARVEOUTS 12

/* The SM's arithmetic pipes the issue term bounds (docs/timing-model.md "Pipes"), by the CUDA C
 * Programming Guide's arithmetic-instruction throughput table (results per clock per SM) and
 * Nsight Compute's pipe names:
 *   ALU       integer add/subtract, logic, shift, compare, min/max, select (IADD3, LOP3, SHF, ISETP)
 *   FMA       FP32 add/multiply/FMA and packed FP16 (FFMA, FADD, HFMA2): fma-heavy + fma-lite
 *   FMAHEAVY  integer multiply / multiply-add (IMAD, IMUL, and ptxas's IMAD.MOV/IMAD.IADD/VIADD):
 *             the fma-heavy half only, which FP32 work shares
 *   FP64      double add/multiply/FMA
 *   XU        transcendentals (MUFU), type conversions, popc / find-leading-one / bit reverse
 * and the tensor pipe's forms (one tensor pipe per SM sub-partition, which all of them share;
 * their rates differ by form, so each is a class of its own; docs/timing-model.md "Tensor pipe"):
 *   HMMA      HMMA.16816 (f16, bf16; f32 or f16 accumulate) and HMMA.1688.F32.TF32
 *   HMMA_K8   HMMA.1688 of f16 (half the k of HMMA.16816), HMMA.884 (sm_70)
 *   IMMA      IMMA.* (8-bit and smaller integer), BMMA
 *   DMMA      DMMA.8x8x4 (f64)
 *   GMMA      HGMMA/QGMMA/IGMMA/BGMMA (wgmma, sm_90): counted in units of 8 columns of its N per
 *             warp instruction (HGMMA.64x128x16 = 16 units), so one rate covers every N */
typedef enum { WS_PIPE_NONE = 0, WS_PIPE_ALU, WS_PIPE_FMA, WS_PIPE_FMAHEAVY, WS_PIPE_FP64, WS_PIPE_XU,
               WS_PIPE_HMMA, WS_PIPE_HMMA_K8, WS_PIPE_IMMA, WS_PIPE_DMMA, WS_PIPE_GMMA,
               WS_PIPE_COUNT } ws_pipe;
#define WS_PIPE_TENSOR_FIRST WS_PIPE_HMMA /* [WS_PIPE_TENSOR_FIRST, WS_PIPE_COUNT): the tensor pipe */

typedef struct ws_device {
    const char *key;              /* "h200", "h100", "a100", "t4", "v100" */
    const char *name;             /* "NVIDIA H200" as the driver names it */
    int cc_major, cc_minor;
    const char *arch;             /* "sm_75": the target sim compiles the PTX, ptxas resources and SASS for */
    int sm_count;
    double sm_clock_mhz;          /* boost clock */
    double dram_bw_gbs;           /* vendor peak, GB/s (1e9) */
    int dram_fetch_bytes;         /* L2 fetch granularity on a read miss (32/64/128) */
    int ecc;                      /* 1: partial-sector writes read the sector first */
    /* What a launch reads from DRAM besides the kernel's data when the caches start empty (as
     * ncu's --cache-control all leaves them): its machine code in code_fetch_block_bytes blocks
     * plus launch_fetch_base_bytes (constant bank 0 and the rest); 0 and 0 = not modelled. */
    int code_fetch_block_bytes;
    int launch_fetch_base_bytes;
    double l2_bw_gbs;             /* modelled L2 read bandwidth, GB/s */
    uint32_t l2_bytes;
    /* Dirty data during a kernel (docs/memory-models.md "Dirty write-back"): the L2 keeps at most
     * l2_dirty_fraction x l2_bytes of dirty sectors, writing the oldest-dirtied line back (it stays,
     * clean) beyond that; 0 = no limit (write-back at eviction only). */
    double l2_dirty_fraction;
    /* L2 partitions that each cache the lines their own SMs use (a line homed in the other one is
     * cached twice): a stream touching every line fills the L2 at l2_partitions / (2 l2_partitions - 1)
     * of l2_bytes in distinct lines (2/3 for two), and a read from an SM of another partition than
     * the line's home is looked up in its own partition's copy first (sim/models/cache.h "Far
     * lookups"). 0 or 1 = one partition. */
    int l2_partitions;
    /* 1: identical L2 read requests (one line, the same sectors) that SMs of one group send close
     * together reach L2 once (the L2 request coalescer, LRC; docs/memory-models.md "Read
     * coalescing"); 0 = no such unit (every request is looked up). */
    int l2_read_coalescing;
    /* Read coalescing's reach: identical requests coalesce when their SMs are of one group of
     * l2_coalesce_group_sms consecutive SMs (0 = all one group; the model places block b on SM
     * b % sm_count) and their block slots' clocks are less than l2_coalesce_window_cycles apart. */
    int l2_coalesce_group_sms;
    double l2_coalesce_window_cycles;
    /* One coalesced request answers at most this many identical requests, its own included (0 = no
     * limit): n SMs reading a line together reach L2 in ceil(n / it) requests. */
    int l2_coalesce_max_requests;
    /* Where the scheduler puts the blocks of a grid of fewer blocks than SMs (ws_device_block_gpc):
     * each GPC's SMs in the order launches fill them (0 ends the list; none = not modelled), of which
     * the first gpc_lead_sms blocks take GPC 0's first SMs. Such a grid's coalescer groups are these
     * GPCs instead of l2_coalesce_group_sms. */
    uint8_t gpc_sms[16];
    int gpc_lead_sms;
    /* Read coalescing's drift (docs/memory-models.md "Read coalescing"): each block slot's clock, as
     * the coalescer compares it, is off by a random walk whose spread grows as
     * l2_coalesce_drift x sqrt(the slot's elapsed cycles); _bulk for TMA / cp.async.bulk copies.
     * 0 = the slots stay in step. */
    double l2_coalesce_drift, l2_coalesce_drift_bulk;
    /* Partly written sectors during a kernel (docs/memory-models.md "Partial-sector writes"): of the
     * lines that took a partial write, in that order, the newest l2_partial_fraction x (l2_bytes /
     * 128) keep byte masks, older ones are completed by an ECC read of those sectors (still dirty),
     * and those beyond l2_partial_writeback_fraction x the lines are written back; 0 = neither. */
    double l2_partial_fraction, l2_partial_writeback_fraction;
    uint32_t l1_unified_bytes;    /* unified L1/shared per SM */
    int ncarveouts;
    uint32_t carveouts_kb[WS_MAX_CARVEOUTS]; /* supported shared-memory carveouts, KB */
    uint32_t smem_per_sm;         /* max shared memory per SM (bytes) */
    uint32_t smem_per_block;      /* static limit, 48 KB */
    uint32_t smem_per_block_optin;
    uint32_t smem_reserved_per_block;
    uint32_t smem_alloc_gran;
    int sector_bytes, line_bytes; /* 32, 128: the geometry the coalescer and caches implement;
                                     sim/models/models.c refuses a profile that differs */
    int banks, bank_bytes;        /* 32, 4: likewise for the bank model */
    int max_warps_per_sm, max_threads_per_sm, max_blocks_per_sm;
    int regs_per_sm, max_regs_per_thread, reg_alloc_gran; /* gran in registers per warp (256) */
    int subpartitions;            /* 4 */
    double l1_hit_cycles, l2_hit_cycles, dram_cycles; /* load-to-use latencies, SM cycles */
    double launch_overhead_us;    /* fixed cost of a launch as seen by events */
    /* Timing-model calibrations (docs/timing-model.md); a profile without its own
     * measurement says which figure it assumes. */
    double dram_efficiency;       /* fraction of dram_bw_gbs a streaming kernel reaches */
    /* DRAM efficiency of scattered access (docs/timing-model.md "Scattered DRAM access"): a DRAM
     * transfer of one line (a fill, an ECC read or a write-back) occupies the DRAM for at least
     * dram_min_access_bytes; a transfer to a row (an aligned dram_row_bytes of addresses) other
     * than the one open in its bank (dram_banks, the row number hashed) opens it, and the opens
     * beyond one per dram_row_bytes moved cost dram_row_open_bytes each. 0 = off (the profile
     * has no measurement: every byte costs the same). */
    int dram_min_access_bytes;
    int dram_row_bytes;
    int dram_banks;
    double dram_row_open_bytes;
    double l2_requests_per_cycle; /* SM->L2 requests (128-B lines) the L2 serves per SM clock */
    /* L2 read requests of fewer than four sectors the L2 serves per SM clock (docs/timing-model.md
     * "L2 reads and the atomics' window"); 0 = not measured: reads count at l2_requests_per_cycle. */
    double l2_read_requests_per_cycle;
    /* L2 writes (docs/timing-model.md "L2 writes"): a write request costs a fixed part and a part
     * per sector it carries, more for a sector carrying fewer than 32 bytes, which add: requests /
     * l2_write_requests_per_cycle + whole sectors / l2_write_sectors_per_cycle + partial sectors /
     * l2_write_partial_sectors_per_cycle SM cycles for the whole GPU. 0 = not modelled (writes
     * then count in the l2_requests_per_cycle term as reads do). */
    double l2_write_requests_per_cycle, l2_write_sectors_per_cycle, l2_write_partial_sectors_per_cycle;
    double dram_queue_cycles;     /* DRAM queueing: a DRAM load waits dram_queue_cycles x u/(1-u) more
                                     than dram_cycles at DRAM utilisation u (M/M/1; timing.c) */
    double dram_tail_per_ln;      /* the slowest of K DRAM loads / one = 1 + this x ln K (a block's
                                     warps waiting at a barrier or its exit; sim/models/latency.c) */
    /* A warp's own chain (docs/timing-model.md "Dependent chains and barriers"; sim/models/latency.c
     * ws_latency_add_chains): each of its warp instructions holds it at least insn_chain_cycles (its
     * issue cycle and the fixed wait ptxas encodes before the next), each block barrier it passes
     * barrier_cycles + barrier_warp_cycles x its block's warps (the arrivals and the release). 0 = not
     * modelled. */
    double insn_chain_cycles;
    double barrier_cycles, barrier_warp_cycles; /* a pass costs barrier_cycles + barrier_warp_cycles x
                                     the block's warps */
    double pipe_lanes_per_cycle[WS_PIPE_COUNT]; /* per SM: lane-operations per cycle of each pipe
                                     (the guide's results/clk/SM); [WS_PIPE_NONE] unused, and
                                     the tensor forms' rates are tensor_insns_per_cycle */
    double tensor_insns_per_cycle[WS_PIPE_COUNT]; /* per SM, all sub-partitions busy: warp
                                     instructions (GMMA: units) of each tensor form per cycle;
                                     0 = not calibrated (the form costs its issue slot only) */
    double tensor_warp_insns_per_cycle[WS_PIPE_COUNT]; /* the most one warp issues of each form per
                                     cycle, however many independent accumulators it has (a few
                                     warps do not fill the pipe); 0 = no such limit */
    /* Atomics and block launch (docs/timing-model.md "Contention"): rates of mechanisms, the
     * H200's measured by tests/gpu/contention_probe.cu (results/h200-contention.md). */
    int atom_sector_rule;         /* WS_ATOM_SECTORS_*: how L1TEX/L2 count a global atomic's sectors */
    double l2_atom_sector_factor; /* lts__t_sectors_op_atom/red (all sources) per L1TEX atomic sector */
    double atom_same_address_ns;  /* ns between two operations on one address (integer, bitwise, min/max, CAS) */
    double atom_same_address_float_ns; /* the same for a floating-point add */
    double atom_sector_pass_ns;   /* ns per sector-op (the sector rule's count) in one L2 slice */
    int atom_slice_bytes;         /* the contiguous bytes one slice owns (a power of two, >= 128) */
    double atom_slices;           /* slices' worth of atomic units working in parallel over the whole L2 */
    /* The units the warps in flight together keep busy (docs/timing-model.md "L2 reads and the
     * atomics' window"): min(atom_slices, atom_window_units_base + atom_window_units_per_doubling x
     * log2 R), R the distinct atom_slice_bytes ranges their atomics touch (or, where more, those
     * ranges active throughout as balls in bins, sim/models/atomics.c). 0, 0 = not measured (every
     * kernel gets all atom_slices units). */
    double atom_window_units_base, atom_window_units_per_doubling;
    double atom_operand_bytes_per_ns; /* operand bytes (lanes x width) one slice takes in per ns */
    double shared_atom_cycles_per_pass; /* SM cycles per wavefront of a shared atomic */
    double l1_wavefronts_per_cycle; /* per SM: wavefronts (shared, by the bank rule, and global/local data
                                     lines) the L1 data path serves per SM cycle; 0 = 1 (the guide's 32
                                     banks of 32 bits per clock: 128 B, one wavefront) */
    double block_launch_cycles;   /* SM cycles to launch one block on an SM; 0 = not calibrated (term off) */
    double warp_launch_cycles;    /* SM cycles per warp of a launched block on an SM (large blocks); 0 = off */
} ws_device;

/* The sectors a global atomic or reduction counts in l1tex__t_sectors_*_op_atom/red and
 * lts__t_sectors_*_op_atom/red (docs/memory-models.md "Atomics"). One switch, which the
 * contention probes confirm:
 *   DISTINCT  distinct 32-B sectors of the active lanes (as loads count them);
 *   PASS      per sector, the most active lanes on any one address in it: lanes on distinct
 *             words of a sector share one pass, lanes on one address need one each
 *             (32 lanes on one word = 32, 32 consecutive floats = 4);
 *   LANE      one per active lane per sector it touches (32 consecutive floats = 32). */
enum { WS_ATOM_SECTORS_DISTINCT = 0, WS_ATOM_SECTORS_PASS = 1, WS_ATOM_SECTORS_LANE = 2 };

/* Profile by key (case-insensitive) or by driver name ("NVIDIA H200"); NULL if none. */
const ws_device *ws_device_find(const char *key_or_name);
/* The GPC (0 ...) d's scheduler puts block b (launch order) of a grid of grid_blocks blocks in, for a
 * grid of fewer blocks than SMs; -1 for a larger grid or a profile without gpc_sms. */
int ws_device_block_gpc(const ws_device *d, uint64_t grid_blocks, uint64_t b);
/* The L2 request coalescer groups a grid of grid_blocks blocks fills in the model: the GPCs of a small
 * grid's blocks (ws_device_block_gpc), else ceil(min(grid, SMs) / l2_coalesce_group_sms); 0 = none. */
int ws_device_grid_groups(const ws_device *d, uint64_t grid_blocks);
/* All profiles, NULL-terminated; the first is the default (H200). */
const ws_device *const *ws_device_all(void);
const ws_device *ws_device_default(void);
/* The profile that lets one block have the most shared memory (smem_per_block_optin): what
 * any GPU could run, so the simulator's bound on a block (ws_sim_config.shared_limit). */
const ws_device *ws_device_most_shared(void);

#endif
