// probe.cu - the kernels of tests/gpu/l2dram_probe.cu as descriptions, at the probe's launch shapes,
// so `warpscope sim` can be judged against results/h200-l2dram/l2dram-ncu.csv (one ncu run per
// configuration, caches flushed). Sizes are parameters: -D BYTES=... (and STRIDE, WORDS, ITERS).
// scripts/l2dram-probe-replay.sh runs every configuration of the recording and compares.

/*@warpscope
kernel  k_write
note    float4 stores covering BYTES, grid-stride over 132*16 blocks of 1024 (full sectors, write-only).
param   BYTES = 64 << 20
param   N = BYTES / 16
buffer  out  float4  N  init=zero  output
grid    132 * 16
block   1024
args    out, N
*/
__global__ void k_write(float4 *out, unsigned long n)
{
    for (unsigned long i = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long)gridDim.x * blockDim.x)
        out[i] = make_float4((float)i, 1.f, 2.f, 3.f);
}

/*@warpscope
kernel  k_copy
note    float4 copy of BYTES, grid-stride (reads and writes compete for the L2).
param   BYTES = 64 << 20
param   N = BYTES / 16
buffer  in   float4  N  init=zero
buffer  out  float4  N  init=zero  output
grid    132 * 16
block   1024
args    in, out, N
*/
__global__ void k_copy(const float4 *in, float4 *out, unsigned long n)
{
    for (unsigned long i = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long)gridDim.x * blockDim.x)
        out[i] = in[i];
}

/*@warpscope
kernel  k_partial
note    one 4-byte store every STRIDE bytes of a BYTES output (partial sectors).
param   BYTES = 32 << 20
param   STRIDE = 8
param   N = BYTES / STRIDE
buffer  out  uint  BYTES / 4  init=zero  output
grid    cdiv(N, 1024)
block   1024
args    out, N, STRIDE / 4
*/
__global__ void k_partial(unsigned *out, unsigned long n, unsigned long stride_words)
{
    unsigned long i = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i * stride_words] = (unsigned)i;
}

/*@warpscope
kernel  k_local16
entry   k_local<16>
note    a 16-word per-thread array updated ITERS times at run-time indices (local memory), 2^20 threads.
param   ITERS = 64
param   N = 1 << 20
buffer  seed  uint  N  init=const(117901063)
buffer  out   uint  N  init=zero  output
grid    N / 1024
block   1024
args    seed, out, ITERS
*/
/*@warpscope
kernel  k_local64
entry   k_local<64>
note    the same with 64 words.
param   ITERS = 64
param   N = 1 << 20
buffer  seed  uint  N  init=const(117901063)
buffer  out   uint  N  init=zero  output
grid    N / 1024
block   1024
args    seed, out, ITERS
*/
/*@warpscope
kernel  k_local256
entry   k_local<256>
note    the same with 256 words.
param   ITERS = 64
param   N = 1 << 20
buffer  seed  uint  N  init=const(117901063)
buffer  out   uint  N  init=zero  output
grid    N / 1024
block   1024
args    seed, out, ITERS
*/
template <int WORDS>
__global__ void k_local(const unsigned *seed, unsigned *out, int iters)
{
    unsigned a[WORDS];
    unsigned long i = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x;
    for (int k = 0; k < WORDS; k++)
        a[k] = 0;
    unsigned h = seed[i];
    for (int k = 0; k < iters; k++) {
        h = h * 1664525u + 1013904223u;
        a[h % WORDS] += k + 1; /* run-time index: the array lives in local memory */
    }
    out[i] = a[h % WORDS];
}
