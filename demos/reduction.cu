/* reduction.cu - parallel sum, the classic sequence (Mark Harris, "Optimizing
 * Parallel Reduction in CUDA"), starting from the seed's kernel. Every kernel
 * writes one partial sum per block: out[b] = sum of the elements block b owns
 * (B of them, or 2B for the kernels that add during the load).
 *
 *   variant                      what it changes                                          stars
 *   0  seed_reduce_sum           the seed's reduceSum (int, verbatim): tid % (2*stride),
 *                                divergent lanes, extern shared                            *
 *   1  reduce_interleaved        the same algorithm on floats: half the lanes idle, then
 *                                3/4 ... every warp still runs every step                  *
 *   2  reduce_strided_index      index = 2*s*tid: no divergence, but lanes 2s words apart
 *                                collide in banks (2-, 4-, then 8-way conflicts)            **
 *   3  reduce_sequential         s = B/2 .. 1, tid < s: contiguous lanes, conflict-free      **
 *   4  reduce_first_add          each thread adds two elements while loading: half the
 *                                blocks, no idle lanes in the first step                    **
 *   5  reduce_unroll_last_warp   the last 6 steps without __syncthreads (volatile, one warp) ***
 *   6  reduce_shuffle            warp shuffles (__shfl_down_sync): registers, not shared   ***
 *
 * Run one with `warpscope sim reduce_sequential` (override with -D N=...).
 * Blocks are 256 threads (the kernels need a power of two, and 5 needs >= 64).
 * Float tolerance: inputs random in [0, 1), all terms positive, so a float sum
 * of n terms in a tree of depth d is within d * 2^-24 relative of the exact
 * sum. d = log2(512) = 9 at most here: 9 * 2^-24 = 5.4e-7; the reference sums
 * in double. tol = 1e-5 leaves a factor of ~18 and still catches a lost element
 * (about 1/256 of a block's sum on average). */

/* ------------------------------------------------------------------------- */
/* 0. The seed (seeds/002), verbatim. int data, so the result is exact. Loads
 *    without a bounds check: N must be a multiple of the block size. */

/*@warpscope
kernel  seed_reduce_sum
entry   reduceSum
note    Seed: interleaved addressing with tid % (2*stride): divergent, modulo-heavy, int.
stars   1
param   N = 1<<18
param   B = 256
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  input   int  N      init=index
buffer  output  int  N/B    init=zero  output
grid    N/B
block   B
shared  B*4
args    input, output
*/
__global__ void reduceSum(int *input, int *output) {
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = input[idx];
    __syncthreads();

    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }

    if (tid == 0) output[blockIdx.x] = sdata[0];
}

/* ------------------------------------------------------------------------- */
/* 1. Interleaved addressing on floats, bounds-checked load. */

/*@warpscope
kernel  reduce_interleaved
note    Interleaved addressing, tid % (2*s): active lanes thin out inside every warp.
stars   1
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,256)  init=zero  output tol=1e-5
grid    cdiv(N, 256)
block   256
shared  256*4
args    in, out, N
*/
__global__ void reduce_interleaved(const float *in, float *out, int n)
{
    extern __shared__ float smem[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = smem[0];
}

/* ------------------------------------------------------------------------- */
/* 2. Strided index: the first threads do the work (no divergence until fewer
 *    than 32 remain), but thread tid touches words 2*s*tid and 2*s*tid + s:
 *    at s = 1 lanes 0 and 16 are both in bank 0 (2-way); s = 2 is 4-way; from
 *    s = 4 on, the 32, 16, 8 active lanes of warp 0 share 4, 2, 1 banks: 8-way. */

/*@warpscope
kernel  reduce_strided_index
note    index = 2*s*tid: contiguous active threads, but 2-, 4- and 8-way bank conflicts.
stars   2
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,256)  init=zero  output tol=1e-5
grid    cdiv(N, 256)
block   256
shared  256*4
args    in, out, N
*/
__global__ void reduce_strided_index(const float *in, float *out, int n)
{
    extern __shared__ float smem[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x)
            smem[index] += smem[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = smem[0];
}

/* ------------------------------------------------------------------------- */
/* 3. Sequential addressing: the active threads read a contiguous run of
 *    words, s apart from the run they write: conflict-free. */

/*@warpscope
kernel  reduce_sequential
note    Sequential addressing (s = B/2 down to 1): conflict-free, whole warps retire.
stars   2
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,256)  init=zero  output tol=1e-5
grid    cdiv(N, 256)
block   256
shared  256*4
args    in, out, N
*/
__global__ void reduce_sequential(const float *in, float *out, int n)
{
    extern __shared__ float smem[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = smem[0];
}

/* ------------------------------------------------------------------------- */
/* 4. First add during load: a block owns 2B elements, [2bB, 2bB + B) and the
 *    next B; each thread adds its pair before the tree. Half the blocks. */

/*@warpscope
kernel  reduce_first_add
note    Each thread adds two elements while loading: half the blocks, no idle first step.
stars   2
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,512)  init=zero  output tol=1e-5
grid    cdiv(N, 512)
block   256
shared  256*4
args    in, out, N
*/
__global__ void reduce_first_add(const float *in, float *out, int n)
{
    extern __shared__ float smem[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    smem[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = smem[0];
}

/* ------------------------------------------------------------------------- */
/* 5. Unrolled last warp: once 64 sums remain, warp 0 finishes alone with no
 *    block barrier. The classic code relied on implicit warp lockstep through a
 *    volatile pointer; since Volta's independent thread scheduling that needs
 *    __syncwarp() between the read and the write of each step (NVIDIA, "Using
 *    CUDA Warp-Level Primitives"), which is what this version does. */

__device__ void warp_reduce(volatile float *smem, unsigned int tid)
{
    float v = smem[tid];
    v += smem[tid + 32]; __syncwarp(); smem[tid] = v; __syncwarp();
    v += smem[tid + 16]; __syncwarp(); smem[tid] = v; __syncwarp();
    v += smem[tid + 8];  __syncwarp(); smem[tid] = v; __syncwarp();
    v += smem[tid + 4];  __syncwarp(); smem[tid] = v; __syncwarp();
    v += smem[tid + 2];  __syncwarp(); smem[tid] = v; __syncwarp();
    v += smem[tid + 1];  __syncwarp(); smem[tid] = v;
}

/*@warpscope
kernel  reduce_unroll_last_warp
note    First add during load, then the last 6 steps in one warp without __syncthreads.
stars   3
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,512)  init=zero  output tol=1e-5
grid    cdiv(N, 512)
block   256
shared  256*4
args    in, out, N
*/
__global__ void reduce_unroll_last_warp(const float *in, float *out, int n)
{
    extern __shared__ float smem[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    smem[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warp_reduce(smem, tid);
    if (tid == 0) out[blockIdx.x] = smem[0];
}

/* ------------------------------------------------------------------------- */
/* 6. Warp shuffles: each warp reduces its 32 values in registers (5 shuffle
 *    steps), lane 0 stores the warp's sum, warp 0 reduces those. Shared memory
 *    only carries B/32 words. */

/*@warpscope
kernel  reduce_shuffle
note    First add during load, then __shfl_down_sync inside warps; shared holds 8 warp sums.
stars   3
param   N = 1<<18
realistic N = 1<<26   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N          init=random(5)
buffer  out  float  cdiv(N,512)  init=zero  output tol=1e-5
grid    cdiv(N, 512)
block   256
args    in, out, N
*/
__global__ void reduce_shuffle(const float *in, float *out, int n)
{
    __shared__ float warp_sums[32];
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid & 31, warp = tid >> 5;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];

    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();

    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
