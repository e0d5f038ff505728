/* occupancy.cu - block size and occupancy: the seeds' 13-thread blocks against
 * 256-thread blocks on the same work (seeds/002, section 3.2). A warp is the
 * unit of execution, so a 13-thread block still occupies a whole warp with 19
 * lanes idle (41% lane utilisation), and an SM holds at most 32 blocks (sm_90),
 * i.e. 32 such warps out of 64: 50% occupancy at best. 256-thread blocks fill
 * every lane and reach 100% theoretical occupancy (8 blocks x 8 warps).
 *
 *   variant          what it changes                                         stars
 *   1  saxpy_block13   the seed's "wrong" launch: 13 threads per block        *
 *   2  saxpy_block256  the seed's fix: 256 threads per block                  *
 *
 * Run with `warpscope sim saxpy_block13` (override with -D N=...).
 * Tolerance: y = a*x + y may be one fused multiply-add or a multiply then an
 * add depending on the compiler: at most one extra rounding, 2^-24 relative
 * for these positive inputs; tol = 1e-6. */

/* One kernel, two launches: y[i] = a * x[i] + y[i]. */

/*@warpscope
kernel  saxpy_block13
entry   saxpy
note    Seed's 13-thread blocks: each warp runs 13 of 32 lanes, at most 32 blocks per SM.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  x  float  N  init=random(21)
buffer  y  float  N  init=random(22)  output tol=1e-6
grid    cdiv(N, 13)
block   13
args    N, 2.0f, x, y
*/
/*@warpscope
kernel  saxpy_block256
entry   saxpy
note    Seed's fix, 256-thread blocks: full warps, full occupancy.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  x  float  N  init=random(21)
buffer  y  float  N  init=random(22)  output tol=1e-6
grid    cdiv(N, 256)
block   256
args    N, 2.0f, x, y
*/
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
