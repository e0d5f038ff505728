// tmap_ptr.cu - a tensor map passed by pointer (`const CUtensorMap *` to 128 bytes of global memory,
// a buffer declared init=tmap(NAME)) against the same map as a __grid_constant__ parameter, for
// tests/test_tmap_ptr.c and the GPU check (`warpscope check tests/data/tmap/tmap_ptr.cu`). Each kernel's
// thread 0 TMA-loads the 32 x 8 box at (16, 8) of a 64 x 32 float tensor, 128-byte swizzle, into a
// 1024-aligned tile; everyone waits on the mbarrier and the raw shared bytes go to out, so both
// kernels' outputs are the same bytes. Regenerate with sh scripts/gen-ptx.sh tests/data/tmap/tmap_ptr.cu.
#include <cuda.h>

// The box at (c0, c1) of the map at generic address map into a shared tile, the tile's bytes to out.
__device__ void load_box(const void *map, unsigned char *out, int c0, int c1, int bytes)
{
    __shared__ __align__(1024) unsigned char tile[1024];
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(tile);
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" :: "l"(map) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                     "[%0], [%1, {%2, %3}], [%4];" :: "r"(d), "l"(map), "r"(c0), "r"(c1), "r"(b) : "memory");
    }
    __syncthreads();
    asm volatile("{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0; @P1 bra DONE; "
                 "bra LAB_WAIT; DONE: }" :: "r"(b) : "memory");
    for (int i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = tile[i];
}

/*@warpscope
kernel  tma_by_value
note    the map as a const __grid_constant__ CUtensorMap parameter
buffer  A    float  64*32  init=randint(5, 1, 1000)
tmap    tA   A  dims=64,32 box=32,8 swizzle=128B
buffer  out  uchar  1024   output
grid    1
block   128
args    tA, out, 16, 8, 1024
*/
__global__ void tma_by_value(const __grid_constant__ CUtensorMap tA, unsigned char *out, int c0, int c1, int bytes)
{
    load_box(&tA, out, c0, c1, bytes);
}

/*@warpscope
kernel  tma_by_pointer
note    the same map passed as const CUtensorMap * to a buffer holding it
param   SKEW = 0
buffer  A    float  64*32  init=randint(5, 1, 1000)
tmap    tA   A  dims=64,32 box=32,8 swizzle=128B
buffer  tA_ptr  uchar  128  init=tmap(tA)
buffer  out  uchar  1024   output
grid    1
block   128
args    tA_ptr, out, 16, 8, 1024, SKEW
*/
__global__ void tma_by_pointer(const CUtensorMap *tA, unsigned char *out, int c0, int c1, int bytes, int skew)
{
    load_box((const char *)tA + skew, out, c0, c1, bytes); /* by-pointer call */ // skew != 0: misaligned (wrong)
}

/*@warpscope
kernel  tma_pointer_no_map
note    wrong: the pointer is to a buffer that holds no tensor map
buffer  A    float  64*32  init=randint(5, 1, 1000)
buffer  junk  uchar  128  init=zero
buffer  out  uchar  1024   output
grid    1
block   128
args    junk, out, 16, 8, 1024, 0
*/
__global__ void tma_pointer_no_map(const CUtensorMap *tA, unsigned char *out, int c0, int c1, int bytes, int skew)
{
    load_box((const char *)tA + skew, out, c0, c1, bytes); /* no-map call */
}
