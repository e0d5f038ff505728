/* launch_check.h - the checks the CUDA driver makes before a kernel runs, which a launch
 * the simulator accepted must pass too: the launch bounds the PTX records from
 * __launch_bounds__(maxThreads, minBlocks) and __maxnreg__ (.maxntid, .reqntid,
 * .minnctapersm, .maxnreg), and the co-residency a cooperative launch needs.
 * Invariant: a launch these refuse is one the driver refuses (the error named), so a
 * refusal is an input error (exit 1), never a simulated fault. */
#ifndef WS_LAUNCH_CHECK_H
#define WS_LAUNCH_CHECK_H

#include "../../common/desc.h"
#include "../../common/device.h"
#include "../../common/ws_error.h"
#include "../frontend/occupancy.h"
#include "../frontend/ptx.h"

/* The block against fn's .maxntid (its threads, the product of the dimensions, at most the
 * product of the bound's) and .reqntid (exactly its shape): cuLaunchKernel fails with
 * CUDA_ERROR_INVALID_VALUE otherwise. Returns 0, or -1 with err at file:line naming the
 * bound and the launch, e.g. "k: the block (256,1,1) has 256 threads but __launch_bounds__
 * allows at most 128 (.maxntid 128, 1, 1) ...". */
int ws_launch_bounds_check(const ptx_function *fn, const ws_launch *L, const char *kernel, const char *file,
                           int line, ws_error *err);

/* The most registers per thread ptxas can give fn under its bounds on dev: .maxnreg, and
 * what lets .minnctapersm blocks (at least 1) of .maxntid threads share an SM's register
 * file. 0 when fn has no bound. For the occupancy of a kernel without a ptxas report. */
int ws_launch_bounds_reg_cap(const ptx_function *fn, const ws_device *dev);

/* The CTA barriers fn uses as ptxas counts them ("used N barriers"): the highest barrier
 * number named as an immediate, plus one; 16 when a number comes from a register; at least
 * 1 (the occupancy calculator's default). On sm_90 they limit the blocks per SM. */
int ws_barriers_used(const ptx_function *fn);

/* A cooperative launch runs only when every block is resident at once: at most
 * occ->blocks_per_sm on each of dev's SMs (cudaLaunchCooperativeKernel fails with
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE otherwise). 0 for a launch that is not
 * cooperative or fits; -1 with err. */
int ws_cooperative_check(const ws_launch *L, const ws_device *dev, const ws_occupancy *occ, const char *kernel,
                         const char *file, int line, ws_error *err);

/* The launch's thread-block clusters, as the driver takes them: the kernel's __cluster_dims__
 * (.reqnctapercluster) or the description's `cluster` line (cudaLaunchAttributeClusterDimension),
 * which must then agree; each dimension divides the grid's; at most WS_CLUSTER_PORTABLE blocks,
 * or WS_CLUSTER_NONPORTABLE with `nonportable` (cudaFuncAttributeNonPortableClusterSizeAllowed;
 * CUDA C++ Programming Guide, "Thread Block Clusters"); not cooperative as well (the simulator
 * runs one cluster at a time). dims gets {1,1,1} and *explicit_ false for a launch without
 * clusters. Returns 0, or -1 with err at file:line naming the rule. */
#define WS_CLUSTER_PORTABLE 8
#define WS_CLUSTER_NONPORTABLE 16
int ws_cluster_dims(const ptx_function *fn, const ws_launch *L, uint32_t dims[3], bool *explicit_, const char *kernel,
                    const char *file, int line, ws_error *err);

#endif
