// Hopper forms for tests/test_tensor.c: wgmma (its descriptors into no shared memory), the cluster
// instructions in a launch without clusters (every block a cluster of one), a cluster launch.
// Regenerate (from the repository root): nvcc -ptx -arch=sm_90a -lineinfo -O3 tests/data/tensor/hopper.cu -o
// tests/data/tensor/hopper.ptx, then make its .file 1 path relative (tests/data/tensor/hopper.cu).
#include <cuda_fp16.h>

extern "C" __global__ void wgmma_64x64(float *out, unsigned long long da, unsigned long long db)
{
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 0, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1, 0, 0; }"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 32; i++) out[threadIdx.x * 32 + i] = d[i];
}

// out[t*8..]: cluster rank, cluster size, cluster id x, block id x, elected lane, this thread
// elected, the value at its own shared word through mapa to rank 0 and ld.shared::cluster, and
// the value another warp wrote before barrier.cluster.arrive/wait.
extern "C" __global__ void cluster_of_one(unsigned *out)
{
    __shared__ unsigned s[64];
    unsigned t = threadIdx.x, rank, n, cid, v, other, lead, me;
    s[t] = 100 + t;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[t]), ra;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(ra) : "r"(a));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(ra));
    other = s[(t + 32) % 64];
    asm volatile("{ .reg .pred p; elect.sync %0|p, 0xfffffffe; selp.u32 %1, 1, 0, p; }" : "=r"(lead), "=r"(me));
    unsigned *o = out + (blockIdx.x * blockDim.x + t) * 8;
    o[0] = rank; o[1] = n; o[2] = cid; o[3] = blockIdx.x; o[4] = lead; o[5] = me; o[6] = v; o[7] = other;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_of_two(unsigned *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

// A cluster of two: each block stores into the other's shared memory through mapa and
// st.shared::cluster, a cluster barrier publishes it, each reads back its own words (written by
// the other block) and one word of the other's through ld.shared::cluster, and a last barrier
// keeps both blocks' shared memory alive until every remote read is done.
// out[(blockIdx.x*64 + t)*8 ..]: its own word after the exchange, the other block's word t+1,
// %cluster_ctarank, %clusterid.x, %cluster_ctaid.x, %nclusterid.x, %cluster_nctarank,
// %is_explicit_cluster.
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

// The same exchange without the last barrier: a block may exit while the other still reads its
// shared memory (the simulator names the read).
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_read_after_exit(unsigned *out)
{
    __shared__ unsigned s[64];
    unsigned t = threadIdx.x, rank, v, r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    s[t] = t;
    asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
    if (rank == 1)
        for (int i = 0; i < 64; i++) __nanosleep(1000);   // rank 0 runs ahead and exits
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank ^ 1));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(r) : "memory");
    out[blockIdx.x * 64 + t] = v;
}

// A cluster-wide sum through distributed shared memory, with cooperative groups as CUDA code
// writes it: each block sums its 256 inputs into its shared word, cluster.sync(), rank 0 adds the
// other blocks' words (map_shared_rank), cluster.sync() again before anyone exits. Launched with
// the cluster size at run time (no __cluster_dims__). out[clusterid] = the cluster's sum.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cluster_sum(const unsigned *in, unsigned *out)
{
    __shared__ unsigned part;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) part = 0;
    __syncthreads();
    atomicAdd(&part, in[blockIdx.x * blockDim.x + threadIdx.x]);
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        unsigned sum = 0;
        for (unsigned r = 0; r < cl.num_blocks(); r++) sum += *cl.map_shared_rank(&part, r);
        out[blockIdx.x / cl.num_blocks()] = sum;
    }
    cl.sync();
}
