/* probes.cu - kernels whose machine code differs from their PTX in one way each, for
 * tests/test_sass.c (PTX: scripts/gen-ptx.sh; SASS: probes.sass, see README.md). */

/*@warpscope
kernel  lds128
note    Four ld.shared.f32 at t[b..b+3], b a multiple of 4: ptxas makes one LDS.128.
buffer  in   float  4096  init=index
buffer  out  float  1024  init=zero  output
grid    4
block   1024
args    in, out
*/
__global__ void lds128(const float *in, float *out)
{
    __shared__ float t[1024];
    int i = threadIdx.x;
    t[i] = in[blockIdx.x * 1024 + i];
    __syncthreads();
    int b = (i & 255) * 4;
    out[blockIdx.x * 256 + (i & 255)] = t[b] + t[b + 1] + t[b + 2] + t[b + 3];
}

/*@warpscope
kernel  sts64
note    Two st.shared.f32 at t[2i], t[2i+1]: ptxas makes one STS.64.
buffer  in   float  512   init=index
buffer  out  float  1024  init=zero  output
grid    2
block   256
args    in, out
*/
__global__ void sts64(const float *in, float *out)
{
    __shared__ float t[512];
    int i = threadIdx.x;
    float x = in[blockIdx.x * 256 + i];
    t[2 * i] = x;
    t[2 * i + 1] = x * 2.0f;
    __syncthreads();
    out[blockIdx.x * 512 + i] = t[i];
    out[blockIdx.x * 512 + 256 + i] = t[i + 256];
}

/*@warpscope
kernel  guarded
note    t[i] = 0, then t[i] = in[..] for i < LIM: ptxas keeps one unconditional STS and predicates the load.
param   LIM = 40
buffer  in   float  512  init=index
buffer  out  float  512  init=zero  output
grid    2
block   256
args    in, out, LIM
*/
__global__ void guarded(const float *in, float *out, int lim)
{
    __shared__ float t[256];
    int i = threadIdx.x;
    t[i] = 0.0f;
    if (i < lim)
        t[i] = in[blockIdx.x * 256 + i];
    __syncthreads();
    out[blockIdx.x * 256 + i] = t[255 - i];
}

/*@warpscope
kernel  atomics
note    A shared histogram (ATOMS) and a global sum whose result is unused (REDG), each after a .loc line.
buffer  in    int  512  init=random(7, 0, 32)
buffer  hist  int  32   init=zero  output
buffer  sum   int  1    init=zero  output
grid    2
block   256
args    in, hist, sum
*/
__global__ void atomics(const int *in, int *hist, int *sum)
{
    __shared__ int h[32];
    int i = threadIdx.x;
    if (i < 32)
        h[i] = 0;
    __syncthreads();
    int v = in[blockIdx.x * 256 + i];
    atomicAdd(&h[v & 31], 1);
    atomicAdd(sum, v);
    __syncthreads();
    if (i < 32)
        atomicAdd(&hist[i], h[i]);
}

/*@warpscope
kernel  generic_ld
note    One load through a pointer that is a shared address in odd lanes and a global one in even lanes.
buffer  in   float  256  init=index
buffer  out  float  256  init=zero  output
grid    1
block   256
args    in, out
*/
__global__ void generic_ld(const float *in, float *out)
{
    __shared__ float t[256];
    int i = threadIdx.x;
    t[i] = in[i];
    __syncthreads();
    const float *p = (i & 1) ? &t[255 - i] : &in[i];
    out[i] = *p;                                 /* a generic ld: the space is known at run time only */
}
