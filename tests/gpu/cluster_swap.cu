/* cluster_swap.cu - the cluster-of-two exchange of tests/data/tensor/hopper.cu (test_tensor's
 * cluster_swap, whose PTX is checked in there for the CPU tests) as a description, so
 * `warpscope check tests/gpu/cluster_swap.cu:cluster_swap` runs it on a GPU against the
 * simulator: outputs, the distributed shared memory rows (..._mem_dshared) and racecheck on a
 * cluster launch. The clusters come from __cluster_dims__ (cuLaunchKernel takes them; the
 * description's `cluster` line, cuLaunchKernelEx, is demos/cluster.cu's way).
 * Each block stores into the other's shared memory through mapa and st.shared::cluster, a
 * cluster barrier publishes it, each reads back its own words (written by the other block) and
 * one word of the other's through ld.shared::cluster, and a last barrier keeps both blocks'
 * shared memory alive until every remote read is done.
 * out[(blockIdx.x*64 + t)*8 ..]: its own word after the exchange (1000 * partner + t), the other
 * block's word t+1 (1000 * blockIdx.x + (t+1) % 64), %cluster_ctarank, %clusterid.x,
 * %cluster_ctaid.x, %nclusterid.x, %cluster_nctarank, %is_explicit_cluster. */

/*@warpscope
kernel  cluster_swap
note    A cluster of two blocks swaps shared words through distributed shared memory (mapa, barrier.cluster).
param   CLUSTERS = 2
buffer  out  uint  CLUSTERS*2*64*8  init=zero  output
grid    CLUSTERS*2
block   64
args    out
*/
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_swap(unsigned *out)
{
    __shared__ unsigned s[64];
    unsigned t = threadIdx.x, rank, cid, cta, ncl, n, expl, mine, theirs;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cta));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncl));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
    s[t] = 0;
    asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[t]), ra, rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(a), "r"(rank ^ 1));
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(ra), "r"(1000 * blockIdx.x + t) : "memory");
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
    mine = s[t];
    unsigned b = (unsigned)__cvta_generic_to_shared(&s[(t + 1) % 64]);
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(b), "r"(rank ^ 1));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(theirs) : "r"(rb) : "memory");
    asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
    unsigned *o = out + (blockIdx.x * 64 + t) * 8;
    o[0] = mine; o[1] = theirs; o[2] = rank; o[3] = cid; o[4] = cta; o[5] = ncl; o[6] = n; o[7] = expl;
}
