/* budget.cu - endless loops whose state keeps changing, for tests/test_budget.c: a counter that
 * grows in a register or in memory but never decides whether the loop ends must still be stopped
 * within seconds (docs/interp.md, "Stops"); loops whose counter does decide, through a register
 * or through memory, must run to their end. */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/*@warpscope
kernel  count_in_memory
note    Spins on a flag nobody sets, adding 1 to its own word of memory each turn: memory changes, the loop never ends.
buffer  flag  int  1   init=zero
buffer  out   int  64  init=zero  output
grid    1
block   64
args    flag, out
*/
extern "C" __global__ void count_in_memory(const volatile int *flag, volatile int *out)
{
    int t = threadIdx.x;
    while (flag[0] == 0) out[t] = out[t] + 1;
}

/*@warpscope
kernel  count_in_register
note    Spins on a flag nobody sets, counting its turns in a register: no memory changes, the count does.
buffer  flag  int  1   init=zero
buffer  out   int  64  init=zero  output
grid    1
block   64
args    flag, out
*/
extern "C" __global__ void count_in_register(const volatile int *flag, int *out)
{
    int n = 0;
    while (flag[0] == 0) n++;
    out[threadIdx.x] = n;
}

/*@warpscope
kernel  count_at_grid_sync
note    Cooperative: block 3 spins on a flag nobody sets, counting its turns in memory; the others wait at grid.sync() forever.
buffer  flag   int  1    init=zero
buffer  spins  int  1    init=zero  output
buffer  out    int  256  init=zero  output
grid    4
block   64
cooperative
args    flag, spins, out
*/
extern "C" __global__ void count_at_grid_sync(const volatile int *flag, volatile int *spins, int *out)
{
    cg::grid_group g = cg::this_grid();
    int i = (int)g.thread_rank();
    out[i] = i;
    if (blockIdx.x == 3)
        while (flag[0] == 0) spins[0] = spins[0] + 1;
    g.sync();
    out[i] += out[(i + 64) % 256];
}

/*@warpscope
kernel  count_at_barrier
note    Warp 0 waits at __syncthreads(); warp 1 spins on a shared flag warp 0 sets after it, counting its turns.
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
extern "C" __global__ void count_at_barrier(int *out)
{
    __shared__ volatile int ready;
    int n = 0;
    if (threadIdx.x == 0) ready = 0;
    if (threadIdx.x < 32) {
        __syncthreads();
        ready = 1;
    } else {
        while (ready == 0) n++;
    }
    out[threadIdx.x] = n;
}

/*@warpscope
kernel  count_decides_through_memory
note    The count reaches the loop's test only through memory: each thread stores count >> S, reads it back and stops at 1.
param   S = 18
buffer  box  int  32  init=zero  output
buffer  out  int  32  init=zero  output
grid    1
block   32
args    box, out, S
*/
extern "C" __global__ void count_decides_through_memory(volatile int *box, int *out, int s)
{
    int t = threadIdx.x;
    unsigned n = 0;
    for (;;) {
        box[t] = (int)(n++ >> s);   /* 0 for 2^S turns: a store of what is already there */
        if (box[t] != 0) break;
    }
    out[t] = (int)n;
}

/*@warpscope
kernel  count_read_by_other_warp
note    Warp 0 counts in memory until warp 1, which reads the counts, sees them reach N and raises the flags.
param   N = 200000
buffer  count  int  32  init=zero  output
buffer  flag   int  32  init=zero  output
grid    1
block   64
args    count, flag, N
*/
extern "C" __global__ void count_read_by_other_warp(volatile int *count, volatile int *flag, int n)
{
    int t = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        while (flag[t] == 0) count[t] = count[t] + 1;
    } else {
        while (count[t] < n) { }
        flag[t] = 1;
    }
}

/*@warpscope
kernel  tiny_blocks
note    One thread per block writes its block's number: small enough for any count of blocks but 2^31-1.
param   B = 2147483647
buffer  out  int  1  init=zero  output
grid    B
block   32
args    out
*/
extern "C" __global__ void tiny_blocks(int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (int)gridDim.x;
}

/*@warpscope
kernel  block0_does_all
note    Block 0 does all the work (L turns per thread), the other 63 blocks return at once: the launch fits the budget.
param   L = 1500000
buffer  out  float  64  init=zero  output
grid    64
block   64
args    out, L
*/
extern "C" __global__ void block0_does_all(float *out, int n)
{
    if (blockIdx.x != 0) return;
    float x = threadIdx.x;
    for (int k = 0; k < n; k++) x = x * 0.999f + 1.0f;
    out[threadIdx.x] = x;
}

/*@warpscope
kernel  every_block_works
note    Every block does the same L turns per thread: priced exactly from its first blocks.
param   L = 20000
buffer  out  float  4096  init=zero  output
grid    64
block   64
args    out, L
*/
extern "C" __global__ void every_block_works(float *out, int n)
{
    float x = threadIdx.x;
    for (int k = 0; k < n; k++) x = x * 0.999f + 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

/*@warpscope
kernel  count_in_block_5
note    Of 8 blocks, block 5 spins on a flag nobody sets, counting its turns; the others write and return.
buffer  flag  int  1    init=zero
buffer  out   int  512  init=zero  output
grid    8
block   64
args    flag, out
*/
extern "C" __global__ void count_in_block_5(const volatile int *flag, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, n = 0;
    if (blockIdx.x == 5)
        while (flag[0] == 0) n++;
    out[i] = n + i;
}
