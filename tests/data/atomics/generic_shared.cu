/* generic_shared.cu - atomics with no state space (generic addresses), for block sampling's
 * provenance rule (sim/frontend/provenance.h, tests/test_sample_atomics.c): on a __shared__
 * counter through a generic pointer (sampled), through a kernel parameter (global: refused),
 * through a pointer shared in odd blocks and global in even ones (refused), libcu++'s
 * cuda::pipeline_shared_state (its counter is shared behind a generic pointer: sampled), and a
 * shared pointer moved onto a global buffer by an offset the proof cannot bound (proven, wrongly:
 * the sampled run must fail). nvcc turns atomicAdd on a pointer it can see is shared into
 * atom.shared, so the generic atomic is spelled as libcu++ spells it: inline PTX on a generic
 * pointer ("l"). Each block's counter ends at blockDim.x. */
#include <cuda/pipeline>
#include <cooperative_groups.h>

// the shared state is initialised by make_pipeline, not by a constructor (as libcu++ documents)
#pragma nv_diag_suppress static_var_with_dynamic_init

// atom.add with no state space: the hardware resolves the generic address per lane
__device__ static inline unsigned generic_add(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/*@warpscope
kernel  generic_shared_counter
entry   genericSharedCounter
note    Every thread adds 1 to its block's __shared__ counter through a generic pointer; the last to arrive (by the atom's result) stores the count: the result steers a branch, the block's own business.
param   BLOCKS = 4096
buffer  out  uint  BLOCKS  init=zero  output
grid    BLOCKS
block   256
args    out
*/
__global__ void genericSharedCounter(unsigned *out)
{
    __shared__ unsigned ctr;
    if (threadIdx.x == 0) ctr = 0;
    __syncthreads();
    unsigned old = generic_add(&ctr, 1);
    if (old == blockDim.x - 1) out[blockIdx.x] = old + 1;
}

/*@warpscope
kernel  generic_param_counter
entry   genericParamCounter
note    Every thread adds 1 to out[blockIdx.x] through the kernel parameter's generic pointer: a global atomic.
param   BLOCKS = 8
buffer  out  uint  BLOCKS  init=zero  output
grid    BLOCKS
block   256
args    out
*/
__global__ void genericParamCounter(unsigned *out) { generic_add(&out[blockIdx.x], 1); }

/*@warpscope
kernel  generic_either_counter
entry   genericEitherCounter
note    Odd blocks add to a __shared__ counter, even ones to out[blockIdx.x], through one pointer: nvcc 13 writes both into one register (two definitions, one shared, one from the parameter).
param   BLOCKS = 8
buffer  out  uint  BLOCKS  init=zero  output
grid    BLOCKS
block   256
args    out
*/
__global__ void genericEitherCounter(unsigned *out)
{
    __shared__ unsigned ctr;
    if (threadIdx.x == 0) ctr = 0;
    __syncthreads();
    generic_add(blockIdx.x & 1 ? &ctr : &out[blockIdx.x], 1);
    __syncthreads();
    if ((blockIdx.x & 1) && threadIdx.x == 0) out[blockIdx.x] = ctr;
}

/*@warpscope
kernel  generic_pipeline_counter
entry   genericPipelineCounter
note    A two-stage cuda::pipeline over a block (libcu++): its threads count their arrivals in a cuda::pipeline_shared_state through generic pointers into shared memory; each sums its two staged floats.
param   BLOCKS = 4096
buffer  out  float  BLOCKS*256  init=zero  output
buffer  in   float  BLOCKS*512  init=random(1, -1, 1)
grid    BLOCKS
block   256
args    out, in
*/
__global__ void genericPipelineCounter(float *out, const float *in)
{
    __shared__ float buf[2][256];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cooperative_groups::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    for (int s = 0; s < 2; s++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[s], in + blockIdx.x * 512 + s * 256, sizeof(float) * 256, pipe);
        pipe.producer_commit();
    }
    float acc = 0;
    for (int s = 0; s < 2; s++) {
        pipe.consumer_wait();
        acc += buf[s][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

/*@warpscope
kernel  generic_shared_escape
entry   genericSharedEscape
note    A generic pointer to a __shared__ counter plus (out - that pointer), hidden from the compiler: the proof sees a shared pointer and an integer offset, the lanes reach out[0] in global memory (C++ forbids that step).
param   BLOCKS = 4096
buffer  out  uint  1  init=zero  output
grid    BLOCKS
block   256
args    out
*/
__global__ void genericSharedEscape(unsigned *out)
{
    __shared__ unsigned ctr;
    unsigned *s = &ctr;
    long long delta;
    asm("sub.s64 %0, %1, %2;" : "=l"(delta) : "l"(out), "l"(s)); // out - s, opaque to the compiler
    generic_add((unsigned *)((char *)s + delta), 1);
}
