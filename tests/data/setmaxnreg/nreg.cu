// nreg.cu - setmaxnreg's register pool for tests/test_setmaxnreg.c (sim/interp/exec_nreg.c). Each
// kernel has 256 threads (two warpgroups) and __launch_bounds__(256, 2); ptxas's count for each is in
// nreg.sm_90a.resources, and the block's pool is that count x 256 threads. The PTX ISA: .dec returns
// registers to the pool, .inc takes them and waits until the pool has them. Regenerate with
// sh scripts/gen-ptx.sh tests/data/setmaxnreg/nreg.cu. An .inc below or a .dec above the count
// ptxas refuses itself (C7406), so no kernel here holds one.

/*@warpscope
kernel  nreg_inc_waits
note    warpgroup 0 asks for 64 more registers per thread first; warpgroup 1 stores a flag, then gives 64 back
target  sm_90a
buffer  flag  int  1    init=zero
buffer  seen  int  256  init=zero  output
grid    2
block   256
args    flag, seen
*/
__global__ void __launch_bounds__(256, 2) nreg_inc_waits(volatile int *flag, int *seen)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (threadIdx.x < 128) {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 192;\n" ::: "memory");   /* waits */
        if (blockIdx.x == 0) seen[threadIdx.x] = *flag;   /* 1: the .inc waited for warpgroup 1's .dec */
    } else {
        if (threadIdx.x == 128 && blockIdx.x == 0) *flag = 1;
        __syncwarp();
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");
        if (blockIdx.x == 0) seen[threadIdx.x] = 2;
    }
#endif
}

/*@warpscope
kernel  nreg_overdraw
note    both warpgroups ask for more and none gives any back: the pool never has them
target  sm_90a
buffer  out  int  256  init=zero  output
grid    1
block   256
args    out
*/
__global__ void __launch_bounds__(256, 2) nreg_overdraw(int *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 192;\n" ::: "memory");   /* overdraw */
    out[threadIdx.x] = 1;
#endif
}

/*@warpscope
kernel  nreg_split_warpgroup
note    warp 0 of warpgroup 0 runs another setmaxnreg than its three partners: undefined
target  sm_90a
buffer  out  int  256  init=zero  output
grid    1
block   256
args    out
*/
__global__ void __launch_bounds__(256, 2) nreg_split_warpgroup(int *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (threadIdx.x < 32)
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");   /* warp 0 */
    else
        asm volatile("setmaxnreg.dec.sync.aligned.u32 56;\n" ::: "memory");   /* the others */
    out[threadIdx.x] = 1;
#endif
}

/*@warpscope
kernel  nreg_no_count
note    no launch bounds: ptxas cannot tell the register count at entry and drops the setmaxnreg (C7508)
target  sm_90a
buffer  out  int  128  init=zero  output
grid    1
block   128
args    out
*/
__global__ void nreg_no_count(int *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");   /* dropped */
    out[threadIdx.x] = 1;
#endif
}

/*@warpscope
kernel  nreg_inc_and_spin
note    warpgroup 0 waits in an .inc nobody can meet; warpgroup 1 spins on a flag warpgroup 0 would set after it
target  sm_90a
buffer  flag  int  1    init=zero
buffer  out   int  256  init=zero  output
grid    1
block   256
args    flag, out
*/
__global__ void __launch_bounds__(256, 2) nreg_inc_and_spin(volatile int *flag, int *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (threadIdx.x < 128) {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 192;\n" ::: "memory");   /* never met */
        *flag = 1;
    } else {
        while (*flag == 0) { }           /* spin */
    }
    out[threadIdx.x] = 1;
#endif
}
