// printf.cu - device printf as nvcc lowers it (a vprintf call with the arguments
// packed in a local buffer, each at its own alignment), for tests/test_exec_call.c,
// which formats the same values with the host's printf and compares the text.
// No #include: printf is declared for device code by the CUDA headers nvcc and
// NVRTC put in front of every file.

/*@warpscope
kernel  printf_formats
buffer  v  int    8  init=index
buffer  f  float  8  init=index
grid    1
block   8
args    v, f
*/
__global__ void printf_formats(const int *v, const float *f)
{
    int t = threadIdx.x;
    int i = v[t] * 37 - 100;
    float x = f[t] * 1.25f - 3.0f;
    printf("%d|%i|%u|%x|%X|%#x|%o|%5d|%-5d|%05d|%+d|%hd|%hhu\n", i, i, (unsigned)i * 7u, i, i, i, t, i, i, i, i,
           (short)(i * 1000), (unsigned char)(i + 300));
    printf("%f|%.3f|%e|%.2E|%g|%G|%10.4f|%-10.1f|%a|%%|%c%c\n", x, x, x * 1e6f, (double)x / 7, x * 1e-9f,
           (double)x * 1e20, x, x, (double)x, 'a' + t, '0' + t % 10);
    printf("%s|%.3s|%8s|%-8s|%ld|%lld|%lu|%llx|%*d|%.*f\n", "warp", "scope", "gpu", "sim", -123456789012L * t,
           1LL << (40 + t), 42UL * t, 0xfeedfacecafeULL + t, t + 2, t, t % 4, (double)x);
    if (t & 1)                         /* odd lanes only, still in lane order */
        printf("odd lane %d of block %d\n", t, (int)blockIdx.x);
}

__device__ __noinline__ void say(int t, double d)
{
    printf("from a function: %d %.1f\n", t, d);
}

/*@warpscope
kernel  printf_in_a_function
grid    2
block   4
args
*/
__global__ void printf_in_a_function()
{
    say((int)(blockIdx.x * blockDim.x + threadIdx.x), threadIdx.x * 0.5);
}

/*@warpscope
kernel  printf_edges
grid    1
block   1
args
*/
__global__ void printf_edges()
{
    const char *none = 0;
    printf("[%s] [%5.2s] [%-6c] [%+.3e]\n", none, "abc", 'z', -1234.5);
    /* 33 conversions: CUDA reads 32 arguments and prints the rest of the format as it stands */
    printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d|\n",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
           30, 31, 32, 33);
}

/*@warpscope
kernel  printf_flood
note    32 lanes x 64 lines of 1,000 characters (2,048,000 bytes) pass the GPU's 1 MiB printf FIFO
grid    1
block   32
args
*/
__global__ void printf_flood()
{
    for (int k = 0; k < 64; k++)
        printf("%0999d\n", k);
    printf("%999999999d|%.999999999f\n", (int)threadIdx.x, 1.0);
}
