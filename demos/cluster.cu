/* cluster.cu - thread-block clusters (Hopper, sm_90): a group of blocks that run at once on one
 * GPC and read and write each other's shared memory (distributed shared memory, DSMEM). Both
 * kernels sum the inputs of every G consecutive blocks: out[g] = in[g*256*G .. (g+1)*256*G).
 *
 *   variant                      what it changes                                          stars
 *   1  reduce_groups_atomic      each block reduces its 256 inputs, then one global atomic
 *                                per block adds its partial into out[g]: G atomics on one
 *                                word per group, through L2                                  **
 *   2  cluster_dsmem_reduce      the G blocks form a cluster: rank 0 adds the others'
 *                                partial sums straight from their shared memory
 *                                (map_shared_rank, DSMEM) and stores once: no atomics        ***
 *
 * And a second pair: every block needs the same 4 KiB table (out[i] = in[i] * t[j] + t[1023 - j],
 * j = threadIdx.x), brought into shared memory by the TMA unit (cp.async.bulk, mbarrier):
 *   3  table_per_block           each block copies the table for itself: G reads of it from L2
 *                                per group of G blocks                                       **
 *   4  table_multicast           the G blocks are a cluster: rank 0 copies it once with
 *                                .multicast::cluster and it lands in every block's shared
 *                                memory, completing each block's own mbarrier               ***
 *
 * Run one with `warpscope sim cluster_dsmem_reduce` (override with -D N=... -D G=...; G is the
 * cluster size, 1..8). Inputs are integers in [0, 100): the sums are exact. */
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

/* A block's sum of its 256 inputs: warp shuffles, then the 8 warp sums through shared memory. */
__device__ unsigned block_sum(const unsigned *in)
{
    __shared__ unsigned warp_sums[8];
    unsigned v = in[blockIdx.x * 256 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    unsigned s = 0;
    if (threadIdx.x == 0)
        for (int w = 0; w < 8; w++) s += warp_sums[w];
    return s;                                    /* valid in thread 0 */
}

/* ------------------------------------------------------------------------- */
/* 1. Each block's partial sum goes to global memory as an atomic add. */

/*@warpscope
kernel  reduce_groups_atomic
note    Group sums by one global atomicAdd per block: G blocks hit each output word.
stars   2
param   G = 4
param   N = 1<<19
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   uint  N            init=random(7, 0, 100)
buffer  out  uint  N/(256*G)    init=zero  output
grid    N/256
block   256
args    in, out, G
*/
__global__ void reduce_groups_atomic(const unsigned *in, unsigned *out, int g)
{
    unsigned s = block_sum(in);
    if (threadIdx.x == 0) atomicAdd(&out[blockIdx.x / g], s);
}

/* ------------------------------------------------------------------------- */
/* 2. The G blocks of a group are one cluster: rank 0 reads the others' partial sums from their
 *    shared memory and stores the group's sum once. The second cluster.sync() keeps every
 *    block's shared memory alive until rank 0 has read it. */

/*@warpscope
kernel  cluster_dsmem_reduce
note    Group sums in a thread-block cluster: rank 0 adds the others' shared partials (DSMEM), one store.
stars   3
param   G = 4
param   N = 1<<19
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   uint  N            init=random(7, 0, 100)
buffer  out  uint  N/(256*G)    init=zero  output
grid    N/256
block   256
cluster G
args    in, out
*/
__global__ void cluster_dsmem_reduce(const unsigned *in, unsigned *out)
{
    __shared__ unsigned part;
    cg::cluster_group cl = cg::this_cluster();
    unsigned s = block_sum(in);
    if (threadIdx.x == 0) part = s;
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        unsigned sum = 0;
        for (unsigned r = 0; r < cl.num_blocks(); r++) sum += *cl.map_shared_rank(&part, r);
        out[blockIdx.x / cl.num_blocks()] = sum;
    }
    cl.sync();
}

/* ------------------------------------------------------------------------- */
/* 3, 4. The table through the TMA unit. Thread 0 of each block sets up its mbarrier to expect the
 *    table's 4096 bytes; then one copy fills shared memory and completes that mbarrier, and every
 *    thread waits for its phase 0 before reading the table. */

#define TABLE_BYTES 4096

__device__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ void expect_table(unsigned long long *bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(TABLE_BYTES)
                 : "memory");
}

__device__ void wait_table(unsigned long long *bar)
{
    asm volatile("{ .reg .pred P;\n"
                 "WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n"
                 "@!P bra WAIT_%=; }" ::"r"(smem_addr(bar)) : "memory");
}

__device__ unsigned table_use(const unsigned *in, const unsigned *t)
{
    return in[blockIdx.x * 256 + threadIdx.x] * t[threadIdx.x] + t[1023 - threadIdx.x];
}

/*@warpscope
kernel  table_per_block
note    Every block copies the same 4 KiB table into its shared memory (cp.async.bulk): G L2 reads per G blocks.
stars   2
param   G = 4
param   N = 1<<19
realistic N = 1<<25   # in + out: 256 MiB, 4x the L2
buffer  in     uint  N      init=random(7, 0, 100)
buffer  table  uint  1024   init=random(8, 0, 100)
buffer  out    uint  N      init=zero  output
grid    N/256
block   256
target  sm_90a
args    in, table, out
*/
__global__ void table_per_block(const unsigned *in, const unsigned *table, unsigned *out)
{
    __shared__ alignas(128) unsigned t[1024];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) expect_table(&bar);
    __syncthreads();                             /* every warp sees the mbarrier initialised before it waits */
    if (threadIdx.x == 0)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem_addr(t)), "l"(table), "r"(TABLE_BYTES), "r"(smem_addr(&bar)) : "memory");
    wait_table(&bar);
    out[blockIdx.x * 256 + threadIdx.x] = table_use(in, t);
}

/*@warpscope
kernel  table_multicast
note    Rank 0 of each cluster copies the table once with .multicast::cluster: it lands in all G blocks' shared memory.
stars   3
param   G = 4
param   N = 1<<19
realistic N = 1<<25   # in + out: 256 MiB, 4x the L2
buffer  in     uint  N      init=random(7, 0, 100)
buffer  table  uint  1024   init=random(8, 0, 100)
buffer  out    uint  N      init=zero  output
grid    N/256
block   256
cluster G
target  sm_90a
args    in, table, out
*/
__global__ void table_multicast(const unsigned *in, const unsigned *table, unsigned *out)
{
    __shared__ alignas(128) unsigned t[1024];
    __shared__ alignas(8) unsigned long long bar;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) expect_table(&bar);
    cl.sync();                                   /* every block's mbarrier is set up before the copy signals it */
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        unsigned short mask = (unsigned short)((1u << cl.num_blocks()) - 1);   /* every rank of the cluster */
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1], %2, [%3], %4;"
                     ::"r"(smem_addr(t)), "l"(table), "r"(TABLE_BYTES), "r"(smem_addr(&bar)), "h"(mask) : "memory");
    }
    wait_table(&bar);
    out[blockIdx.x * 256 + threadIdx.x] = table_use(in, t);
    cl.sync();                                   /* no block leaves while the cluster's copy may still write */
}
