/* sass_branches.cu - a branch ladder the machine code keeps on one source line (tests/test_sass.c
 * reads sass_branches.sass, made from sass_branches.ptx as tests/data/sass/README.md says):
 *   early_exit   an early return, whose SASS block after the EXIT holds code the PTX runs before it
 *   wait_switch  cp.async copies into shared memory, then a switch on a kernel parameter whose
 *                cases wait for different numbers of copy groups (cuda::pipeline's wait_prior<N>
 *                is such a switch: the corpus's globalToShmemAsyncCopy kernels). The switch is
 *                inlined into one source line, so every block of its compare-and-branch ladder
 *                has that line (the loop is kept rolled, so each case's wait is one instruction); only one path of it runs, as `left` is the same for every warp. */

/*@warpscope
kernel  wait_switch
note    64 threads copy ITERS x 64 float4 through shared memory, waiting as `left` says.
param   ITERS = 4
param   LEFT = 20
buffer  src  float4  ITERS*64  init=random(41, -1, 1)
buffer  dst  float4  64        init=zero  output
grid    1
block   64
args    src, dst, ITERS, LEFT
*/

__device__ __forceinline__ void copy16(void *smem, const void *g)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}

/* Sparse cases: nvcc and ptxas make dense ones (0, 1, 2, ...) a jump table (BRX), which the
 * corpus's ladders are not. */
__device__ __forceinline__ void wait_left(int left)
{
    switch (left) {
    case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
    case 10: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
    case 20: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
    case 30: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
    case 40: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
    }
}

__global__ void wait_switch(const float4 *src, float4 *dst, int iters, int left)
{
    __shared__ float4 buf[64];
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        copy16(&buf[threadIdx.x], &src[i * 64 + threadIdx.x]);
        asm volatile("cp.async.commit_group;" ::: "memory");
        wait_left(left);
        asm volatile("cp.async.wait_all;" ::: "memory"); /* the copy is complete before it is read */
        __syncthreads();
        float4 v = buf[threadIdx.x ^ 1];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
        __syncthreads();
    }
    dst[threadIdx.x] = acc;
}

/*@warpscope
kernel  early_exit
note    4 warps, N = 64 threads in range: 2 warps return at once, the other 2 go on.
param   N = 64
param   K = 3
buffer  a  float  128  init=random(42, -1, 1)
buffer  b  float  128  init=zero  output
grid    1
block   128
args    a, b, N, K
*/
/* An early return: ptxas computes the loop's trip count (line of `w`) after the EXIT that the
 * bounds check became, so the block after `@P0 EXIT` holds code of a line the PTX runs before it. */
__global__ void early_exit(const float *a, float *b, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = k * 7 + 3;
    if (i >= n) return;
    float s = 0.f;
#pragma unroll 1
    for (int j = 0; j < w; j++) s += a[i] * (float)j;
    b[i] = s;
}

/*@warpscope
kernel  bulk_lanes
note    2 warps; LANES lanes of each copy 16 bytes of `in` into shared memory with their own cp.async.bulk.
param   LANES = 5
buffer  in   float  256  init=random(43, -1, 1)
buffer  out  float  256  init=zero  output
grid    1
block   64
args    in, out, LANES
*/
/* bulk_lanes: the SASS serves one lane's copy a pass (ELECT, R2UR, UBLKCP, BRA.U.ANY back while lanes
 * are left): a loop the PTX does not have. */
extern "C" __global__ void bulk_lanes(const float *in, float *out, int lanes)
{
    __shared__ __align__(128) float s[256];
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), t = threadIdx.x, lane = t % 32;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(2 * lanes * 16) : "memory");
    }
    __syncthreads();
    if (lane < (unsigned)lanes) {
        unsigned d = (unsigned)__cvta_generic_to_shared(&s[4 * t]);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                     :: "r"(d), "l"(in + 4 * t), "r"(b) : "memory");
    }
    asm volatile("{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0; @P1 bra DONE; "
                 "bra LAB_WAIT; DONE: }" :: "r"(b) : "memory");
    if (lane < (unsigned)lanes)
        for (int k = 0; k < 4; k++) out[4 * t + k] = s[4 * t + k];
}
