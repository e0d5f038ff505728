/* stops.cu - launches that never end, and long ones that do, for tests/test_stops.c: each must
 * be stopped within seconds with its line (docs/interp.md, "Stops"), or run to its end. */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/*@warpscope
kernel  grid_sync_after_return
note    Block 3 returns before grid.sync(): the other blocks wait for it forever (on the GPU too).
buffer  out  int  256  init=zero  output
grid    4
block   64
cooperative
args    out
*/
extern "C" __global__ void grid_sync_after_return(int *out)
{
    cg::grid_group g = cg::this_grid();
    int i = (int)g.thread_rank();
    out[i] = i;
    if (blockIdx.x == 3) return;
    g.sync();
    out[i] += out[(i + 64) % 256];
}

/*@warpscope
kernel  flag_from_later_block
note    Block 0 spins on a flag block 1 sets: blocks run one after another, so it never sees it.
buffer  flag  int  1  init=zero  output
grid    2
block   32
args    flag
*/
extern "C" __global__ void flag_from_later_block(volatile int *flag)
{
    if (blockIdx.x == 1) *flag = 1;
    else while (*flag == 0) { }
}

/*@warpscope
kernel  store_forever
note    Every thread stores the same value forever: memory is touched, nothing changes.
buffer  in   int  64  init=zero
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void store_forever(const int *in, volatile int *out)
{
    int t = threadIdx.x;
    while (in[0] == 0) { out[t] = in[t] + 1; }
}

/*@warpscope
kernel  barrier_and_spin
note    Warp 0 waits at __syncthreads(); warp 1 spins on a shared flag warp 0 sets after it.
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
extern "C" __global__ void barrier_and_spin(int *out)
{
    __shared__ volatile int ready;
    if (threadIdx.x == 0) ready = 0;
    if (threadIdx.x < 32) {
        __syncthreads();
        ready = 1;
    } else {
        while (ready == 0) { }
    }
    out[threadIdx.x] = ready;
}

/*@warpscope
kernel  mbarrier_never_completes
note    An mbarrier that expects 64 arrivals gets 32: the wait never ends.
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
extern "C" __global__ void mbarrier_never_completes(int *out)
{
    __shared__ unsigned long long bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 64;" :: "r"(a));
    __syncthreads();
    unsigned long long state = 0;
    if (threadIdx.x < 32) asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a) : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(a), "l"(0ull));
    out[threadIdx.x] = (int)done;
}

/*@warpscope
kernel  long_but_finite
note    A loop of N iterations per thread: long, legal, within the budget.
param   N = 20000
buffer  out  float  256  init=zero  output
grid    2
block   128
args    out, N
*/
extern "C" __global__ void long_but_finite(float *out, int n)
{
    float x = threadIdx.x;
    for (int k = 0; k < n; k++) x = x * 0.999f + 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
