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
param   N = 1<<20
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
param   N = 1<<20
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
