// abi.cu - the call ABI as nvcc emits it, for tests/test_exec_call.c: __noinline__
// functions with many and mixed arguments (a struct by value), divergence and early
// returns inside a callee, recursion, calls through a table of function addresses,
// a local array passed down to a callee, and recursion that never ends.
// Each kernel writes one value per thread; the test computes it in C.

struct pack {                          /* 32 bytes, 8-aligned: passed as .param .align 8 .b8 [32] */
    double d;
    int i[5];
    char c;
};

/* Odd lanes take the long branch, even lanes return early: divergence in the callee.
 * Every argument comes from memory, so nvcc keeps all eight. */
__device__ __noinline__ double mixed_args(int a, long b, float c, double d, const int *p, pack s, short h,
                                          unsigned char u)
{
    if ((a & 1) == 0)
        return -(double)(a + b) + h;
    return a + b + c + d + p[0] + s.d + s.i[4] + s.c + h * u;
}

/*@warpscope
kernel  many_arguments
buffer  out  double  64  init=zero  output
buffer  p    int     64  init=index
buffer  f    float   64  init=index
grid    1
block   64
args    out, p, f
*/
__global__ void many_arguments(double *out, const int *p, const float *f)
{
    int t = threadIdx.x;
    pack s;
    s.d = f[t] * 0.5;
    for (int k = 0; k < 5; k++)
        s.i[k] = k * p[t];
    s.c = (char)(p[t] % 7);
    out[t] = mixed_args(t, 10L * p[t], f[t] * 0.25f, f[t] + 2.0, p + t, s, (short)(p[t] - 40),
                        (unsigned char)(p[t] * 9));
}

/* Two recursive calls per level: nvcc cannot turn this into a loop. */
__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

/*@warpscope
kernel  recursion
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void recursion(int *out)
{
    int t = threadIdx.x;
    out[t] = fib(t % 12);              /* depth up to 11, a different tree per lane */
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
typedef int (*op_fn)(int, int);
__device__ op_fn op_table[3] = {op_add, op_sub, op_mul};

/*@warpscope
kernel  function_table
buffer  out  int  32  init=zero  output
buffer  sel  int  32  init=index
grid    1
block   32
args    out, sel
*/
__global__ void function_table(int *out, const int *sel)
{
    int t = threadIdx.x;
    op_fn f = op_table[sel[t] % 3];    /* three targets in one warp */
    out[t] = f(t, 3);
}

/* a[] lives in the caller's frame: the pointer is generic, into local memory */
__device__ __noinline__ void fill(int *a, int n, int v)
{
    for (int k = 0; k < n; k++)
        a[k] = v + k;
}

__device__ __noinline__ int sum_filled(int n, int v)
{
    int a[8];
    fill(a, n, v);                     /* a frame above this one, writing into this one's */
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k] * (k + 1);
    return s;
}

/*@warpscope
kernel  local_frames
buffer  out  int  32  init=zero  output
grid    1
block   32
args    out
*/
__global__ void local_frames(int *out)
{
    int t = threadIdx.x;
    int a[4];
    fill(a, 4, t);
    out[t] = sum_filled(t % 8 + 1, 100 * t) + a[t % 4];
}

/* Never ends (stop[] holds no negative value), and not a tail call nvcc could loop. */
__device__ __noinline__ int runaway(const int *stop, int n)
{
    if (stop[n & 31] < 0)
        return n;
    return runaway(stop, n + 1) * 3 - n;
}

/*@warpscope
kernel  unbounded_recursion
buffer  out   int  32  init=zero  output
buffer  stop  int  32  init=index
grid    1
block   32
args    out, stop
*/
__global__ void unbounded_recursion(int *out, const int *stop)
{
    out[threadIdx.x] = runaway(stop, threadIdx.x);
}
