/* mixed.cu - one warp making three kinds of memory error, for the memcheck
 * summary test (tests/test_memcheck.c): every lane reads past the end of
 * `in`, lane 5 reads past the shared array, lane 7 loads a float from an
 * address one byte off its alignment. */

/*@warpscope
kernel  mixed_memory_errors
note    Three kinds of memory error in one warp: global, shared, misaligned.
param   N = 32
buffer  in   float  N  init=index
buffer  out  float  N  init=zero  output
grid    1
block   32
args    in, out, N
*/
__global__ void mixed_memory_errors(const float *in, float *out, int n)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = in[t + n];                                    /* bad-global: in[32..63] */
    __syncthreads();
    float v = s[t + (t == 5 ? 32 : 0)];                  /* bad-shared: lane 5 reads s[37] */
    const char *p = (const char *)in;
    v += *(const float *)(p + 4 * t + (t == 7 ? 1 : 0)); /* bad-align: lane 7 at in + 29 bytes */
    out[t] = v;
}
