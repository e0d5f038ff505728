/* contention.cu - atomics for the contention model's tests (tests/test_cmd_sim.c): one address
 * (ptxas aggregates the literal one over the warp, not the masked one), distinct words, with and
 * without a return value, a CAS retry loop, and shared-memory bins whose lanes share no bank,
 * one bank, or one word. Expectations follow from the access patterns. */

/*@warpscope
kernel  red_one_address
entry   redOneAddress
note    Every thread adds 1 to one counter (RED, no return): N serialised operations on one address.
param   N = 1<<14
buffer  ctr  int  1  init=zero  output
grid    N/256
block   256
args    ctr
*/
__global__ void redOneAddress(int *ctr) { atomicAdd(&ctr[0], 1); }

/*@warpscope
kernel  red_one_word_masked
entry   redOneWordMasked
note    Every thread adds 1 to ctr[threadIdx.x & MASK] with MASK = 0: one word, but an address ptxas cannot see is uniform, so it does not aggregate the warp's adds (as atomicAdd(&ctr[0], 1)): N serialised operations.
param   N = 1<<14
param   MASK = 0
buffer  ctr  int  MASK+1  init=zero  output
grid    N/256
block   256
args    ctr, MASK
*/
__global__ void redOneWordMasked(int *ctr, unsigned mask) { atomicAdd(&ctr[threadIdx.x & mask], 1); }

/*@warpscope
kernel  red_distinct
entry   redDistinct
note    Every thread adds 1 to its own word (RED): no two lanes share an address.
param   N = 1<<14
buffer  out  int  N  init=zero  output
grid    N/256
block   256
args    out
*/
__global__ void redDistinct(int *out) { atomicAdd(&out[blockIdx.x * blockDim.x + threadIdx.x], 1); }

/*@warpscope
kernel  atom_one_address
entry   atomOneAddress
note    Every thread takes a ticket from one counter (ATOM: the old value is stored).
param   N = 1<<14
buffer  ctr  int  1  init=zero
buffer  out  int  N  init=zero  output
grid    N/256
block   256
args    ctr, out
*/
__global__ void atomOneAddress(int *ctr, int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(&ctr[0], 1);
}

/*@warpscope
kernel  cas_max
entry   casMax
note    A float maximum by an atomicCAS retry loop: its ATOM count depends on who wins each race.
param   N = 1<<12
buffer  in   float  N  init=index
buffer  mx   float  1  init=zero  output
grid    N/256
block   256
args    in, mx
*/
__global__ void casMax(const float *in, float *mx)
{
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int *p = (int *)mx;
    int old = *p, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(p, assumed, __float_as_int(v));
    } while (assumed != old);
}

/*@warpscope
kernel  shared_bins_lanes
entry   sharedBinsLanes
note    32 shared bins, lane i adds to bin i: 32 banks, one lane each, no serialisation.
param   N = 1<<14
buffer  out  int  N/256*32  init=zero  output
grid    N/256
block   256
args    out
*/
__global__ void sharedBinsLanes(int *out)
{
    __shared__ int bins[32];
    if (threadIdx.x < 32) bins[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&bins[threadIdx.x % 32], 1);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = bins[threadIdx.x];
}

/*@warpscope
kernel  shared_bins_one_bank
entry   sharedBinsOneBank
note    32 shared bins 128 bytes apart: all in bank 0, 32 lanes on 32 words of one bank (32-way).
param   N = 1<<14
buffer  out  int  N/256*32  init=zero  output
grid    N/256
block   256
args    out
*/
__global__ void sharedBinsOneBank(int *out)
{
    __shared__ int bins[32 * 32];
    if (threadIdx.x < 32) bins[threadIdx.x * 32] = 0;
    __syncthreads();
    atomicAdd(&bins[(threadIdx.x % 32) * 32], 1);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = bins[threadIdx.x * 32];
}

/*@warpscope
kernel  shared_one_word
entry   sharedOneWord
note    Every lane adds to one shared word: a load would broadcast, an atomic goes lane by lane (32 passes).
param   N = 1<<14
buffer  out  int  N/256  init=zero  output
grid    N/256
block   256
args    out
*/
__global__ void sharedOneWord(int *out)
{
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = c;
}

/*@warpscope
kernel  hist_global
entry   histGlobal
note    256-bin byte histogram, one global atomicAdd per byte (issue 23's pair, A).
param   N = 1<<20
buffer  in    uchar  N    init=random(5, 0, 256)
buffer  bins  int    256  init=zero  output
grid    N/256
block   256
args    in, bins
*/
__global__ void histGlobal(const unsigned char *in, int *bins)
{
    atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x]], 1);
}

/*@warpscope
kernel  hist_private
entry   histPrivate
note    The same histogram with bins privatised in shared memory, 264 blocks grid-striding, one global add per bin per block (B).
param   N = 1<<20
buffer  in    uchar  N    init=random(5, 0, 256)
buffer  bins  int    256  init=zero  output
grid    264
block   256
args    in, bins, N
*/
__global__ void histPrivate(const unsigned char *in, int *bins, int n)
{
    __shared__ int local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
