/* coop.cu - cooperative groups as CUDA's headers compile them (barrier.sync, bar.warp.sync
 * and .sync collectives with tile masks, redux, %lanemask, activemask, the grid
 * workspace behind %envreg1:2 and its spin on an atomic), for tests/test_barriers.c and,
 * on a GPU, tests/gpu/barriers.sh. Expected outputs are derived in the test from the
 * group semantics. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

/*@warpscope
kernel  cg_block
note    this_thread_block(): thread_rank over a 16x8 block, size, sync.
buffer  in   int  128  init=index
buffer  out  int  128  init=zero  output
grid    1
block   16, 8
args    in, out
*/
extern "C" __global__ void cg_block(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    __shared__ int s[128];
    unsigned r = b.thread_rank();
    s[r] = in[r] * 2;
    b.sync();
    out[r] = s[b.size() - 1 - r] + (int)b.size() * 1000;
}

/*@warpscope
kernel  cg_tiles
note    tiled_partition<32>, <16>, <4>: reduce (plus, greater), inclusive_scan, exclusive_scan, shfl_down.
buffer  in   int  64   init=random(7, 0, 100)
buffer  out  int  384  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void cg_tiles(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(b);
    int r = b.thread_rank(), v = in[r];
    out[r] = cg::reduce(t32, v, cg::plus<int>());
    out[64 + r] = cg::reduce(t16, v, cg::greater<int>());
    out[128 + r] = cg::reduce(t4, v, cg::plus<int>());
    out[192 + r] = cg::inclusive_scan(t16, v);
    out[256 + r] = cg::exclusive_scan(t4, v);
    out[320 + r] = t4.thread_rank() + 10 * t4.meta_group_rank() + 1000 * t16.shfl_down(v, 1);
}

/*@warpscope
kernel  cg_dynamic
note    tiled_partition(block, k) at run time: ranks, sizes and a tile-wide sync.
param   K = 8
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out, K
*/
extern "C" __global__ void cg_dynamic(const int *in, int *out, int k)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_group t = cg::tiled_partition(b, k);
    __shared__ int s[64];
    int r = b.thread_rank();
    s[r] = in[r] + 1;
    t.sync();
    int base = r - (int)t.thread_rank();
    out[r] = (int)t.thread_rank() + 100 * (int)t.size() + 10000 * s[base + t.size() - 1 - t.thread_rank()];
}

/*@warpscope
kernel  cg_coalesced
note    coalesced_threads() in a branch taken by two lanes in three: reduce, thread_rank, size, shfl.
buffer  in   int  64  init=random(3, 0, 100)
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void cg_coalesced(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    out[t] = -1;
    if (v % 3 != 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int first = g.shfl(v, 0);
        out[t] = cg::reduce(g, v, cg::plus<int>()) * 10000 + (int)g.thread_rank() * 100 + (int)g.size()
                 + (first % 2) * 1000000;
    }
}

/*@warpscope
kernel  cg_grid
note    grid.sync() twice in a cooperative launch of 4 blocks: each block reads what others wrote.
param   N = 256
buffer  in   int  N    init=index
buffer  out  int  2*N  init=zero  output
grid    4
block   64
cooperative
args    in, out, N
*/
extern "C" __global__ void cg_grid(const int *in, int *out, int n)
{
    cg::grid_group g = cg::this_grid();
    int i = (int)g.thread_rank();
    out[i] = in[i] * 2;
    g.sync();
    out[n + i] = out[(i + 64) % n] + out[(i + 130) % n];   /* other blocks' values */
    g.sync();
    out[i] += 1;
}

/*@warpscope
kernel  cg_grid_plain
entry   cg_grid
note    The same kernel launched without 'cooperative': grid.sync() traps on the GPU.
param   N = 256
buffer  in   int  N    init=index
buffer  out  int  2*N  init=zero  output
grid    4
block   64
args    in, out, N
*/

/*@warpscope
kernel  cg_grid_too_big
entry   cg_grid
note    A cooperative launch of 1000 blocks of 1024 threads: at most 2 fit on an SM.
param   N = 1024000
buffer  in   int  N    init=zero
buffer  out  int  2*N  init=zero  output
grid    1000
block   1024
cooperative
args    in, out, N
*/

/*@warpscope
kernel  cg_labeled
note    labeled_partition by in % 4 (match.any), then reduce, rank and size in each label's group; tile votes.
buffer  in   int  64   init=random(5, 0, 100)
buffer  out  int  128  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void cg_labeled(const int *in, int *out)
{
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x, v = in[t];
    cg::coalesced_group g = cg::labeled_partition(w, v % 4);
    out[t] = cg::reduce(g, v, cg::plus<int>()) * 10000 + (int)g.thread_rank() * 100 + (int)g.size();
    out[64 + t] = w.any(v > 90) + 2 * w.all(v >= 0) + 4 * (w.ballot(v & 1) == __ballot_sync(0xffffffffu, v & 1));
}
