/* cu_types.h - plain records the GPU backend fills and the reports read.
 * No CUDA types here, so reports, results and tests build without CUDA headers.
 * Invariant: every figure carries its unit in its name or its comment. */
#ifndef CU_TYPES_H
#define CU_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

typedef struct {
    char name[256];            /* as the driver names it: "NVIDIA H200" */
    char key[64];              /* file-name key derived from the name: "h200" */
    int ordinal;               /* CUDA device index */
    int cc_major, cc_minor;
    int sm_count;
    int clock_mhz;             /* CU_DEVICE_ATTRIBUTE_CLOCK_RATE / 1000 (boost) */
    int mem_clock_mhz;         /* peak memory clock */
    int bus_width_bits;
    uint64_t l2_bytes;
    uint64_t total_mem_bytes;
    int smem_optin_bytes;      /* max shared memory per block with opt-in */
    int ecc;                   /* 1 when ECC is enabled */
    int driver_api_version;    /* cuDriverGetVersion: 13000 = 13.0 */
    char driver_version[64];   /* kernel module version "580.159.04", or "unknown" */
} cu_device_info;

typedef struct {
    int num_regs;              /* registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS) */
    int local_bytes;           /* local memory per thread: spills and stack */
    int static_shared_bytes;
    int max_threads_per_block;
    int ptx_version, binary_version; /* 90 = 9.0 */
} cu_kernel_attrs;

typedef struct {
    int reps;                  /* timed repetitions after one warm-up */
    double median_ms, min_ms, max_ms;
    uint64_t bytes_moved;      /* launch.bytes_moved */
    double bandwidth_gbs;      /* bytes_moved / median, GB = 1e9 */
    uint64_t flush_bytes;      /* L2 flush buffer memset before every repetition (0 = none) */
    uint64_t copy_bytes;       /* cuMemcpyDtoD size for the ceiling */
    double copy_median_ms;
    double copy_gbs;           /* 2 * copy_bytes / copy median: read + write */
} cu_timing;

/* Lower-case file-name key from a device name: "NVIDIA H200" -> "h200",
 * "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3". Never empty ("gpu"). */
void cu_device_key(const char *name, char *out, size_t cap);

#endif
