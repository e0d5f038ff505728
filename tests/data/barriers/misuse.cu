/* misuse.cu - barrier and warp-collective misuse that hangs a GPU, is undefined on it, or
 * that compute-sanitizer synccheck reports, for tests/test_barriers.c: each kernel's
 * marker comment names the line the error must point at. */

/*@warpscope
kernel  count_over_block
note    bar.sync 0, 256 in a 128-thread block: the count can never be reached (deadlock).
buffer  out  int  128  init=zero  output
grid    1
block   128
args    out
*/
extern "C" __global__ void count_over_block(int *out)
{
    out[threadIdx.x] = 1;
    asm volatile("bar.sync 0, 256;" ::: "memory");   /* misuse-count */
    out[threadIdx.x] = 2;
}

/*@warpscope
kernel  id_splits_block
note    Barrier number from a register, warp & 1: each half of the block waits for all of it.
buffer  out  int  128  init=zero  output
grid    1
block   128
args    out
*/
extern "C" __global__ void id_splits_block(int *out)
{
    int warp = threadIdx.x / 32;
    asm volatile("bar.sync %0;" :: "r"(warp & 1) : "memory");   /* misuse-split */
    out[threadIdx.x] = warp;
}

/*@warpscope
kernel  id_out_of_range
note    Barrier number 16 from a register (a block has barriers 0..15).
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void id_out_of_range(const int *in, int *out)
{
    asm volatile("bar.sync %0;" :: "r"(in[0] + 16) : "memory");   /* misuse-id */
    out[threadIdx.x] = 1;
}

/*@warpscope
kernel  count_not_warp_multiple
note    Thread count 33 from a register: not a multiple of the warp size.
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void count_not_warp_multiple(const int *in, int *out)
{
    asm volatile("bar.sync 1, %0;" :: "r"(in[0] + 33) : "memory");   /* misuse-count33 */
    out[threadIdx.x] = 1;
}

/*@warpscope
kernel  count_zero
note    Thread count 0 (ptxas accepts the immediate; the PTX ISA asks for a multiple of 32).
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
extern "C" __global__ void count_zero(int *out)
{
    asm volatile("bar.sync 1, 0;" ::: "memory");   /* misuse-count0 */
    out[threadIdx.x] = 1;
}

/*@warpscope
kernel  loop_trip_differs
note    __syncthreads() in a loop that warp w runs w+1 times, then another after the loop.
buffer  out  int  256  init=zero  output
grid    1
block   256
args    out
*/
extern "C" __global__ void loop_trip_differs(int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x, warp = t / 32;
    s[t] = 0;
    for (int i = 0; i <= warp; i++) {
        s[t] += i;
        __syncthreads();   /* misuse-loop */
    }
    __syncthreads();       /* misuse-after */
    out[t] = s[255 - t];
}

/*@warpscope
kernel  unaligned_pass
note    barrier.sync in one arm only: lanes that skip it go on past the branch (unsupported here).
buffer  out  int  64  init=zero  output
grid    1
block   64
args    out
*/
extern "C" __global__ void unaligned_pass(int *out)
{
    int t = threadIdx.x;
    if (t & 1)
        asm volatile("barrier.sync 0;" ::: "memory");   /* misuse-unaligned */
    out[t] = t;
    asm volatile("barrier.sync 0;" ::: "memory");
}

/*@warpscope
kernel  shfl_absent_lanes
note    __shfl_down_sync(0xffffffff, ...) executed by lanes 0..15 only.
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void shfl_absent_lanes(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    if (in[t] < 16)
        v = __shfl_down_sync(0xffffffffu, v, 1);   /* misuse-shfl */
    out[t] = v;
}

/*@warpscope
kernel  syncwarp_outside_mask
note    __syncwarp(mask of lanes 0..15) executed by lanes 0..16 (compute-sanitizer's sample).
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void syncwarp_outside_mask(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffffu, in[t] < 16);
    if (in[t] <= 16) {
        s[t] = t;
        __syncwarp(mask);   /* misuse-syncwarp */
        out[t] = s[(t + 1) % 16];
    }
}

/*@warpscope
kernel  vote_masks_disagree
note    Lane 0 votes with mask 0x3 while lanes 1 and 2 use 0x7: lanes that name each other disagree.
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void vote_masks_disagree(const int *in, int *out)
{
    int t = threadIdx.x;
    unsigned mask = t == 0 ? 0x3u : t < 3 ? 0x7u : 0xfffffff8u;
    out[t] = __ballot_sync(mask, in[t] & 1);   /* misuse-vote */
}

/*@warpscope
kernel  redux_tiles
note    redux.sync with one mask per 8-lane tile: four sums in one instruction (legal).
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void redux_tiles(const int *in, int *out)
{
    int t = threadIdx.x;
    unsigned mask = 0xffu << (t & ~7);
    out[t] = __reduce_add_sync(mask, in[t]) * 100 + __popc(__ballot_sync(mask, in[t] & 1));
}
