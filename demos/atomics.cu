/* atomics.cu - what contention costs: N threads, one atomicAdd each, onto fewer and fewer words
 * (issue 23). Atomics to one address serialise where the word lives (an L2 slice for global
 * memory, a shared-memory bank for shared), so the time follows the number of lanes per address,
 * not the number of instructions.
 *
 *   variant                 target of each thread's atomicAdd                         stars
 *   atomic_one_counter      one word for the whole grid (RED: result unused); ptxas    *
 *                           sees the address is uniform and aggregates: one RED of
 *                           popc(active lanes) per warp (VOTEU.ANY, POPC, REDG)
 *   atomic_one_counter_ret  the same, the old value used: one ATOM per warp, each      *
 *                           lane's value rebuilt from the warp's (FLO, POPC)
 *   atomic_one_counter_lanes  the same word through an index ptxas cannot prove       **
 *                           uniform (i & zero, zero = 0): 32 lane-ops per warp on one
 *                           address, serialised at L2 - what data-dependent addresses
 *                           that happen to coincide cost
 *   atomic_per_warp         one word per warp (all 32 lanes of a warp on one word)     *
 *   atomic_32_bins          word i % 32: a warp's lanes on 32 words, every warp on     *
 *                           the same 32
 *   atomic_distinct         word i: no two lanes share a word (coalesced, 4 B apart)   *
 *   atomic_distinct_ret     the same with the old value stored (ATOM)                  *
 *   atomic_shared_counter   one shared word per block, then one global add per block   **
 *   atomic_shared_32_bins   32 shared words (i % 32: one per bank), then 32 global     **
 *                           adds per block
 *
 * Sizes. N = 2^20 threads by default; the issue-23 GPU probes used 2^22 (-D N=4194304).
 * On the H200 (results/h200-contention.md; tests/gpu/contention_probe.cu): lanes on one address
 * serialise at 0.73 ns per lane-op (2^22 lanes: 3071 us), where ptxas's aggregated form of the same
 * atomicAdd takes 386 us for 2^24 lanes; distinct coalesced words 42.8 us (RED) and 71.2 us (ATOM)
 * for 2^24. */

/*@warpscope
kernel  atomic_one_counter
note    Every thread adds 1 to one global word: ptxas aggregates the uniform address, one RED per warp.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  count  uint  1  init=zero  output
grid    cdiv(N, 256)
block   256
args    count, N
*/
__global__ void atomic_one_counter(unsigned int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(count, 1u);
}

/*@warpscope
kernel  atomic_one_counter_ret
note    The same counter, the old value used (a ticket): ATOM, aggregated per warp by ptxas too.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  count  uint  1  init=zero  output
buffer  ok     uint  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    count, ok, N
*/
__global__ void atomic_one_counter_ret(unsigned int *count, unsigned int *ok, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ok[i] = atomicAdd(count, 1u) < (unsigned int)n;  /* every ticket is below n */
}

/*@warpscope
kernel  atomic_one_counter_lanes
note    One word, but through i & zero (zero = 0): not provably uniform, so 32 lane-ops per warp on one address.
stars   2
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  count  uint  1  init=zero  output
grid    cdiv(N, 256)
block   256
args    count, 0, N
*/
__global__ void atomic_one_counter_lanes(unsigned int *count, int zero, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&count[i & zero], 1u);   /* zero = 0: every lane on count[0] */
}

/*@warpscope
kernel  atomic_per_warp
note    One word per warp: 32 lanes of one instruction on one address.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  count  uint  cdiv(N, 32)  init=zero  output
grid    cdiv(N, 256)
block   256
args    count, N
*/
__global__ void atomic_per_warp(unsigned int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&count[i / 32], 1u);
}

/*@warpscope
kernel  atomic_32_bins
note    Word i % 32: each warp's lanes on 32 distinct words, but every warp on the same 32.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  bins  uint  32  init=zero  output
grid    cdiv(N, 256)
block   256
args    bins, N
*/
__global__ void atomic_32_bins(unsigned int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[i % 32], 1u);
}

/*@warpscope
kernel  atomic_distinct
note    Word i: no contention; coalesced REDs, one 128-byte line per warp.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  words  uint  N  init=index  output
grid    cdiv(N, 256)
block   256
args    words, N
*/
__global__ void atomic_distinct(unsigned int *words, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&words[i], 1u);
}

/*@warpscope
kernel  atomic_distinct_ret
note    Word i with the old value stored: ATOM instead of RED, still no contention.
stars   1
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  words  uint  N  init=index  output
buffer  old    uint  N  init=zero   output
grid    cdiv(N, 256)
block   256
args    words, old, N
*/
__global__ void atomic_distinct_ret(unsigned int *words, unsigned int *old, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) old[i] = atomicAdd(&words[i], 1u);
}

/*@warpscope
kernel  atomic_shared_counter
note    One shared word per block (all 256 threads on it), then one global add per block.
stars   2
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  count  uint  1  init=zero  output
grid    cdiv(N, 256)
block   256
args    count, N
*/
__global__ void atomic_shared_counter(unsigned int *count, int n)
{
    __shared__ unsigned int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&c, 1u);
    __syncthreads();
    if (threadIdx.x == 0 && c) atomicAdd(count, c);
}

/*@warpscope
kernel  atomic_shared_32_bins
note    32 shared words, lane i % 32 on bank i % 32: conflict-free, 8 warps per word; then 32 global adds.
stars   2
param   N = 1<<20
realistic l2-resident N = 1<<24   # 2^24 threads on a few L2-resident words: contention is the lesson (demos/pairs.txt)
buffer  bins  uint  32  init=zero  output
grid    cdiv(N, 256)
block   256
args    bins, N
*/
__global__ void atomic_shared_32_bins(unsigned int *bins, int n)
{
    __shared__ unsigned int s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[i % 32], 1u);
    __syncthreads();
    if (threadIdx.x < 32 && s[threadIdx.x]) atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}
