/* spills.cu - register spills: when a thread's working set does not fit in the registers
 * ptxas may give it, ptxas stores some values to local memory and loads them back
 * (spill stores / refills: STL / LDL in the machine code, nothing in the PTX). The
 * register budget comes from __launch_bounds__(threads, min blocks per SM): 65536
 * registers per SM / (256 threads x 8 blocks) = 32 registers per thread, so a 40-word
 * working set spills; asking for 1 block per SM lets ptxas use up to 255 and nothing
 * spills. `nvcc -Xptxas -v` reports "bytes spill stores / loads" (demos/spills.resources);
 * `warpscope sim` counts the LDL/STL traffic where ptxas and nvdisasm are installed
 * (docs/sass.md). (seeds/001 "寄存器溢出与本地内存": check lmem, adjust __launch_bounds__.)
 *
 *   variant          what it changes                                                   stars
 *   1  spill_forced  __launch_bounds__(256, 8): 32 registers for 40 live words: spills   ***
 *   2  spill_free    __launch_bounds__(256, 1): the same code in registers               **
 *
 * Run with `warpscope sim spill_forced` and `warpscope sim spill_free`; compare lmem,
 * smsp__sass_inst_executed_op_local_ld/st and the local sectors.
 * Both compute, per thread i: v[k] = in[i + k*n] (k < 40); ITERS rounds of
 * v[k] = v[k] * 1664525 + (v[(k+7) % 40] ^ key[t]) (mod 2^32, k in order, so v[k+7] is
 * still the previous round's for k < 33); out[i] = sum of v[k] * (k+1). Integer
 * arithmetic, so the result is exact. */

#define SPILL_W 40                     /* live words per thread */

/*@warpscope
kernel  spill_forced
note    __launch_bounds__(256, 8) leaves 32 registers for a 40-word working set: ptxas spills to local memory.
stars   3
param   N = 1<<15
param   ITERS = 8
realistic N = 1<<21   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in    uint  N*40   init=random(41, 0, 1000000)
buffer  key   uint  ITERS  init=random(42, 0, 1000000)
buffer  out   uint  N      init=zero  output
grid    cdiv(N, 256)
block   256
args    in, key, out, N, ITERS
*/
__global__ void __launch_bounds__(256, 8)
spill_forced(const unsigned int *in, const unsigned int *key, unsigned int *out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v[SPILL_W];
#pragma unroll
    for (int k = 0; k < SPILL_W; k++)
        v[k] = in[i + k * n];                      /* 40 coalesced loads, 40 live registers */
    for (int t = 0; t < iters; t++) {
        unsigned int c = key[t];                   /* one broadcast load per round */
#pragma unroll
        for (int k = 0; k < SPILL_W; k++)
            v[k] = v[k] * 1664525u + (v[(k + 7) % SPILL_W] ^ c);
    }
    unsigned int s = 0;
#pragma unroll
    for (int k = 0; k < SPILL_W; k++)
        s += v[k] * (unsigned int)(k + 1);
    out[i] = s;
}

/*@warpscope
kernel  spill_free
note    The same code with __launch_bounds__(256, 1): ptxas may use enough registers, nothing spills.
stars   2
param   N = 1<<15
param   ITERS = 8
realistic N = 1<<21   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in    uint  N*40   init=random(41, 0, 1000000)
buffer  key   uint  ITERS  init=random(42, 0, 1000000)
buffer  out   uint  N      init=zero  output
grid    cdiv(N, 256)
block   256
args    in, key, out, N, ITERS
*/
__global__ void __launch_bounds__(256, 1)
spill_free(const unsigned int *in, const unsigned int *key, unsigned int *out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v[SPILL_W];
#pragma unroll
    for (int k = 0; k < SPILL_W; k++)
        v[k] = in[i + k * n];                      /* 40 coalesced loads, 40 live registers */
    for (int t = 0; t < iters; t++) {
        unsigned int c = key[t];                   /* one broadcast load per round */
#pragma unroll
        for (int k = 0; k < SPILL_W; k++)
            v[k] = v[k] * 1664525u + (v[(k + 7) % SPILL_W] ^ c);
    }
    unsigned int s = 0;
#pragma unroll
    for (int k = 0; k < SPILL_W; k++)
        s += v[k] * (unsigned int)(k + 1);
    out[i] = s;
}
