/* probe.cu - the H200 contention probe's kernels (tests/gpu/contention_probe.cu) as descriptions,
 * so that scripts/contention-validate.sh can simulate each configuration the probe timed and put
 * the prediction beside results/h200-contention/contention.csv. The kernels, the hash and the
 * access patterns are the probe's, spelled without templates (one description per variant);
 * THREADS, MODE, K, STRIDE, SPAN and R are set per configuration by the script (-D). The data the
 * probe generates on the GPU (hashed bytes, hashed ints) is written by the script into the
 * folder it copies this file to (init=file(...)): the same bytes the GPU counted. */

// A full-avalanche 32-bit hash (lowbias32), as in the probe.
__device__ static inline unsigned hash32(unsigned x)
{
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

// The probe's modes: 0 one address, 1 one per warp (STRIDE words apart), 2 hash % K, 3 lane % K,
// 4 distinct (STRIDE words apart).
__device__ static inline unsigned gindex(unsigned t, int mode, unsigned K, unsigned stride)
{
    switch (mode) {
    case 0: return 0;
    case 1: return (t >> 5) * stride;
    case 2: return hash32(t) % K;
    case 3: return (t & 31) % K;
    default: return t * stride;
    }
}

/*@warpscope
kernel  probe_g_red
entry   probeGRed
note    k_global<0, int>: one atomicAdd per thread on word gindex(t) (RED: result unused)
param   THREADS = 1<<22
param   MODE = 0
param   K = 1
param   STRIDE = 1
param   SPAN = 1
buffer  bins  int  SPAN  init=zero  output
grid    THREADS/256
block   256
args    bins, MODE, K, STRIDE
*/
__global__ void probeGRed(int *bins, int mode, unsigned K, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = gindex(t, mode, K, stride);
    atomicAdd(&bins[i], (int)1);
}

/*@warpscope
kernel  probe_gf_red
entry   probeGFRed
note    k_global<0, float>: one atomicAdd per thread on word gindex(t) (RED: result unused)
param   THREADS = 1<<22
param   MODE = 0
param   K = 1
param   STRIDE = 1
param   SPAN = 1
buffer  bins  float  SPAN  init=zero  output
grid    THREADS/256
block   256
args    bins, MODE, K, STRIDE
*/
__global__ void probeGFRed(float *bins, int mode, unsigned K, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = gindex(t, mode, K, stride);
    atomicAdd(&bins[i], (float)1);
}

/*@warpscope
kernel  probe_g_atom
entry   probeGAtom
note    k_global<1, int>: one atomicAdd per thread on word gindex(t) (ATOM: the old value stored)
param   THREADS = 1<<22
param   MODE = 0
param   K = 1
param   STRIDE = 1
param   SPAN = 1
buffer  bins  int  SPAN  init=zero  output
buffer  out   int  THREADS  init=zero  output
grid    THREADS/256
block   256
args    bins, out, MODE, K, STRIDE
*/
__global__ void probeGAtom(int *bins, int *out, int mode, unsigned K, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = gindex(t, mode, K, stride);
    out[t] = atomicAdd(&bins[i], (int)1);
}

/*@warpscope
kernel  probe_gf_atom
entry   probeGFAtom
note    k_global<1, float>: one atomicAdd per thread on word gindex(t) (ATOM: the old value stored)
param   THREADS = 1<<22
param   MODE = 0
param   K = 1
param   STRIDE = 1
param   SPAN = 1
buffer  bins  float  SPAN  init=zero  output
buffer  out   float  THREADS  init=zero  output
grid    THREADS/256
block   256
args    bins, out, MODE, K, STRIDE
*/
__global__ void probeGFAtom(float *bins, float *out, int mode, unsigned K, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = gindex(t, mode, K, stride);
    out[t] = atomicAdd(&bins[i], (float)1);
}

/*@warpscope
kernel  probe_g_one_literal_red
entry   probeOneLiteralRed
note    k_one_literal<0>: the catalog's spelling, atomicAdd(&count[0], 1): ptxas aggregates it over the warp.
param   THREADS = 1<<22
buffer  count  int  1  init=zero  output
grid    THREADS/256
block   256
args    count
*/
__global__ void probeOneLiteralRed(int *count)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    (void)t;
    atomicAdd(&count[0], 1);
}

/*@warpscope
kernel  probe_g_one_literal_atom
entry   probeOneLiteralAtom
note    k_one_literal<1>: the catalog's spelling, atomicAdd(&count[0], 1): ptxas aggregates it over the warp.
param   THREADS = 1<<22
buffer  count  int  1  init=zero  output
buffer  out    int  THREADS  init=zero  output
grid    THREADS/256
block   256
args    count, out
*/
__global__ void probeOneLiteralAtom(int *count, int *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = atomicAdd(&count[0], 1);
}

/*@warpscope
kernel  probe_cas_max
entry   probeCasMax
note    k_cas_max: the CAS retry loop over the probe's hashed ints (data file written by the script).
param   THREADS = 1<<22
buffer  data  int  THREADS  init=file(ints-22.i32)
buffer  m     int  1        init=zero  output
grid    THREADS/256
block   256
args    data, m
*/
__global__ void probeCasMax(const int *data, int *m)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = data[t];
    int old = *(volatile int *)m;
    while (v > old) {
        int assumed = old;
        old = atomicCAS(m, assumed, v);
        if (old == assumed) break;
    }
}

/*@warpscope
kernel  probe_atomic_max
entry   probeAtomicMax
note    k_atomic_max: atomicMax of the probe's hashed ints into one word.
param   THREADS = 1<<24
buffer  data  int  THREADS  init=file(ints-24.i32)
buffer  m     int  1        init=zero  output
grid    THREADS/256
block   256
args    data, m
*/
__global__ void probeAtomicMax(const int *data, int *m)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMax(m, data[t]);
}

/*@warpscope
kernel  probe_shared
entry   probeShared
note    k_shared: R shared atomicAdds per thread (MODE 0 block, 1 warp, 2 lane, 3 one bank, 4 hash % K, 5 distinct), then one global add per nonzero word.
param   THREADS = 1<<22
param   MODE = 0
param   K = 1
param   R = 128
buffer  bins  int  1024  init=zero  output
grid    THREADS/256
block   256
args    bins, MODE, K, R
*/
__global__ void probeShared(int *bins, int mode, unsigned K, int R)
{
    __shared__ int s[1024];
    for (int j = threadIdx.x; j < 1024; j += blockDim.x) s[j] = 0;
    __syncthreads();
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    for (int r = 0; r < R; r++) {
        unsigned i;
        switch (mode) {
        case 0: i = 0; break;
        case 1: i = threadIdx.x >> 5; break;
        case 2: i = lane; break;
        case 3: i = lane * 32; break;
        case 4: i = hash32(t * R + r) % K; break;
        default: i = threadIdx.x; break;
        }
        atomicAdd(&s[i], 1);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < 1024; j += blockDim.x)
        if (s[j]) atomicAdd(&bins[j], s[j]);
}

/*@warpscope
kernel  probe_hist_naive_uniform_24
entry   probeHistNaive
note    k_hist_naive over 2^24 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-uniform-24.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_naive_uniform_26
entry   probeHistNaive
note    k_hist_naive over 2^26 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-uniform-26.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_naive_skew_24
entry   probeHistNaive
note    k_hist_naive over 2^24 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-skew-24.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_naive_skew_26
entry   probeHistNaive
note    k_hist_naive over 2^26 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-skew-26.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/
__global__ void probeHistNaive(const unsigned char *in, unsigned n, int *hist)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[in[i]], 1);
}

/*@warpscope
kernel  probe_hist_private_uniform_24
entry   probeHistPrivate
note    k_hist_private over 2^24 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-uniform-24.u8)
buffer  hist  int    256  init=zero  output
grid    264
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_private_uniform_26
entry   probeHistPrivate
note    k_hist_private over 2^26 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-uniform-26.u8)
buffer  hist  int    256  init=zero  output
grid    264
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_private_skew_24
entry   probeHistPrivate
note    k_hist_private over 2^24 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-skew-24.u8)
buffer  hist  int    256  init=zero  output
grid    264
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_private_skew_26
entry   probeHistPrivate
note    k_hist_private over 2^26 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-skew-26.u8)
buffer  hist  int    256  init=zero  output
grid    264
block   256
args    in, N, hist
*/
__global__ void probeHistPrivate(const unsigned char *in, unsigned n, int *hist)
{
    __shared__ int s[256];
    for (int j = threadIdx.x; j < 256; j += blockDim.x) s[j] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[in[i]], 1);
    __syncthreads();
    for (int j = threadIdx.x; j < 256; j += blockDim.x)
        if (s[j]) atomicAdd(&hist[j], s[j]);
}

/*@warpscope
kernel  probe_hist_warpagg_uniform_24
entry   probeHistWarpagg
note    k_hist_warpagg over 2^24 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-uniform-24.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_warpagg_uniform_26
entry   probeHistWarpagg
note    k_hist_warpagg over 2^26 uniform bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-uniform-26.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_warpagg_skew_24
entry   probeHistWarpagg
note    k_hist_warpagg over 2^24 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<24
buffer  in    uchar  N    init=file(bytes-skew-24.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/

/*@warpscope
kernel  probe_hist_warpagg_skew_26
entry   probeHistWarpagg
note    k_hist_warpagg over 2^26 skew bytes (the probe's k_fill_bytes, written by the script).
param   N = 1<<26
buffer  in    uchar  N    init=file(bytes-skew-26.u8)
buffer  hist  int    256  init=zero  output
grid    N/256
block   256
args    in, N, hist
*/
__global__ void probeHistWarpagg(const unsigned char *in, unsigned n, int *hist)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 256u;
    unsigned peers = __match_any_sync(0xffffffffu, v);
    unsigned lane = threadIdx.x & 31;
    if (v < 256 && lane == (unsigned)(__ffs(peers) - 1)) atomicAdd(&hist[v], __popc(peers));
}

/*@warpscope
kernel  probe_empty
entry   probeEmpty
note    k_empty: the block launch rate.
param   BLOCKS = 10000
param   BLOCK = 256
grid    BLOCKS
block   BLOCK
*/
__global__ void probeEmpty() {}
