// mixed.cu - one file, kernels the simulator runs beside kernels it refuses, for
// tests/test_exec_call.c: a texture fetch (tex.1d) and the device heap (malloc) are
// not simulated; only the kernels that use them, directly or through a call, are
// refused, each with its construct and line.

/*@warpscope
kernel  healthy
buffer  out  float  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void healthy(float *out)
{
    out[threadIdx.x] = threadIdx.x * 2.0f;
}

/*@warpscope
kernel  uses_a_texture
buffer  out  float  32  init=zero  output
grid    1
block   32
args    0, out
*/
__global__ void uses_a_texture(cudaTextureObject_t tex, float *out)
{
    out[threadIdx.x] = tex1Dfetch<float>(tex, threadIdx.x);
}

__device__ __noinline__ float fetch(cudaTextureObject_t tex, int i)
{
    return tex1Dfetch<float>(tex, i) + 1.0f;
}

/*@warpscope
kernel  calls_a_texture_helper
buffer  out  float  32  init=zero  output
grid    1
block   32
args    0, out
*/
__global__ void calls_a_texture_helper(cudaTextureObject_t tex, float *out)
{
    out[threadIdx.x] = fetch(tex, threadIdx.x);
}

/*@warpscope
kernel  uses_the_heap
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void uses_the_heap(int *out)
{
    int *p = (int *)malloc(sizeof(int));
    *p = threadIdx.x;
    out[threadIdx.x] = *p;
    free(p);
}

/*@warpscope
kernel  also_healthy
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void also_healthy(int *out)
{
    out[threadIdx.x] = warpSize - (int)threadIdx.x;
}
