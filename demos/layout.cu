/* layout.cu - data layout decides coalescing: array of structures (AoS) vs
 * structure of arrays (SoA), and a random gather through an index buffer.
 * The particle has three floats (12 bytes), so in AoS a warp reading field x
 * spans 32 x 12 = 384 bytes (12 sectors) for 128 useful bytes; SoA reads the
 * same 128 bytes in 4 sectors.
 *
 *   variant               what it changes                                          stars
 *   1  aos_scale_x        AoS, touch only x: 12 sectors per request for 4 useful     *
 *   2  soa_scale_x        SoA, touch only x: 4 sectors per request                   *
 *   3  aos_sum_xyz        AoS, read all three fields: 3 loads at 12-byte stride; the
 *                         sectors are shared, so L1 hits pay for the 2nd and 3rd     **
 *   4  soa_sum_xyz        SoA, read all three fields: 3 fully coalesced loads        *
 *   5  gather_random      out[i] = in[idx[i]], idx seeded random: ~32 sectors/request **
 *   6  gather_identity    the same kernel with idx[i] = i: 4 sectors/request          *
 *
 * Run one with `warpscope sim aos_scale_x` (override with -D N=...).
 * Every kernel checks i < n. */

struct Particle {
    float x, y, z;
};

/* ------------------------------------------------------------------------- */
/* 1-2. Scale one field in place. */

/*@warpscope
kernel  aos_scale_x
note    AoS: scaling x alone reads and writes 12 sectors per warp for 4 sectors of x.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  p    float  3*N  init=index  output
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    p, N
*/
__global__ void aos_scale_x(Particle *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i].x = p[i].x * 2.0f;
}

/*@warpscope
kernel  soa_scale_x
note    SoA: x is its own array, so scaling it is a perfectly coalesced read and write.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  x    float  N  init=index  output
buffer  y    float  N  init=index
buffer  z    float  N  init=index
grid    cdiv(N, 256)
block   256
bytes   2*N*4
args    x, y, z, N
*/
__global__ void soa_scale_x(float *x, float *y, float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f;
}

/* ------------------------------------------------------------------------- */
/* 3-4. Read every field: out[i] = (x + y) + z, the same order in both. */

/*@warpscope
kernel  aos_sum_xyz
note    AoS: three 12-byte-strided loads; each touches 12 sectors, the later two mostly L1 hits.
stars   2
param   N = 1<<20
realistic N = 1<<24   # scripts/pair-sizes.awk: >= 256 MiB
buffer  p    float  3*N  init=index
buffer  out  float  N    init=zero  output
grid    cdiv(N, 256)
block   256
args    p, out, N
*/
__global__ void aos_sum_xyz(const Particle *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = p[i];
        out[i] = (q.x + q.y) + q.z;
    }
}

/*@warpscope
kernel  soa_sum_xyz
note    SoA: three coalesced loads of 4 sectors each.
stars   1
param   N = 1<<20
realistic N = 1<<24   # scripts/pair-sizes.awk: >= 256 MiB
buffer  x    float  N  init=index
buffer  y    float  N  init=random(11)
buffer  z    float  N  init=random(12)
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    x, y, z, out, N
*/
__global__ void soa_sum_xyz(const float *x, const float *y, const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (x[i] + y[i]) + z[i];
}

/* ------------------------------------------------------------------------- */
/* 5-6. Gather: each lane reads wherever its index points. With random indices
 *      over a 4 MiB array the 32 lanes almost always hit 32 different sectors. */

/*@warpscope
kernel  gather_random
entry   gather
note    Random gather: idx is seeded random in [0, N), so each lane lands in its own sector.
stars   2
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  idx  int    N  init=random(7, 0, N)
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, idx, out, N
*/
/*@warpscope
kernel  gather_identity
entry   gather
note    The same gather with idx[i] = i: as coalesced as the copy, plus the index load.
stars   1
param   N = 1<<20
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   float  N  init=index
buffer  idx  int    N  init=index
buffer  out  float  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, idx, out, N
*/
__global__ void gather(const float *in, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        if (j >= 0 && j < n)            /* a bad index reads nothing rather than out of bounds */
            out[i] = in[j];
    }
}
