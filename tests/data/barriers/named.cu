/* named.cu - legal uses of the 16 CTA barriers with their ids and thread counts, for
 * tests/test_barriers.c (and, on a GPU, tests/gpu/barriers.sh). Each kernel writes an
 * output that only comes out right when its barrier held: a thread reads what another
 * warp wrote before the barrier. Markers name the lines the tests look for. */

/*@warpscope
kernel  named_groups_imm
note    Two warp groups synchronise separately on barriers 1 and 2 (64 threads each).
buffer  in   int  128  init=index
buffer  out  int  128  init=zero  output
grid    1
block   128
args    in, out
*/
extern "C" __global__ void named_groups_imm(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x, g = t / 64, base = g * 64, local = t - base;
    s[t] = in[t] * 10 + g;
    if (g == 0)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s[base + 63 - local];   /* reads the other warp of its group */
}

/*@warpscope
kernel  named_groups_reg
note    The same with the barrier number in a register (1 + t/64), then a second round on 1 and 2.
buffer  in   int  128  init=index
buffer  out  int  128  init=zero  output
grid    1
block   128
args    in, out
*/
extern "C" __global__ void named_groups_reg(const int *in, int *out)
{
    __shared__ int s[128], s2[128];
    int t = threadIdx.x, g = t / 64, base = g * 64, local = t - base;
    s[t] = in[t] * 10 + g;
    asm volatile("bar.sync %0, 64;" :: "r"(1 + g) : "memory");
    s2[t] = s[base + 63 - local] + 1 + g;
    if (g == 0)                                               /* both groups wait at once, */
        asm volatile("bar.sync 1, 64;" ::: "memory");         /* at two instructions */
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s2[base + 63 - local];
}

/*@warpscope
kernel  one_warp_named
note    Warp 0 synchronises alone on bar.sync 1, 32 while warp 1 does so on bar.sync 2, 32.
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void one_warp_named(const int *in, int *out)
{
    __shared__ int s[32], s2[32];
    int t = threadIdx.x, lane = t % 32;
    if (t < 32) {
        s[lane] = in[t] + 1000;
        asm volatile("bar.sync 1, 32;" ::: "memory");
        out[t] = s[31 - lane];
    } else {
        s2[lane] = -in[t];
        asm volatile("bar.sync 2, 32;" ::: "memory");
        out[t] = s2[31 - lane];
    }
}

/*@warpscope
kernel  producer_consumer
note    Warp 0 produces and signals with bar.arrive 1, 64; warp 1 waits with bar.sync 1, 64.
buffer  in   int  32  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void producer_consumer(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = in[t] * in[t];
        asm volatile("bar.arrive 1, 64;" ::: "memory");     /* producer: count, do not wait */
        out[t] = 1;
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");       /* consumer: wait for the producer */
        out[t] = s[63 - t];
    }
}

/*@warpscope
kernel  sync_count
note    __syncthreads_count, _and and _or over 96 threads (3 warps), each both ways.
buffer  in   int  96   init=index
buffer  out  int  480  init=zero  output
grid    1
block   96
args    in, out
*/
extern "C" __global__ void sync_count(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    out[t] = __syncthreads_count(v % 3 == 0);
    out[96 + t] = __syncthreads_and(v < 96);
    out[192 + t] = __syncthreads_and(v != 50);
    out[288 + t] = __syncthreads_or(v == 77);
    out[384 + t] = __syncthreads_or(v > 95);
}

/*@warpscope
kernel  unaligned_divergent
note    barrier.sync without .aligned in both arms of a branch that splits every warp (legal PTX).
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void unaligned_divergent(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t & 1) {
        s[t] = in[t] * 3;
        asm volatile("barrier.sync 0;" ::: "memory");       /* odd lanes meet here */
        out[t] = s[63 - t] + 1;
    } else {
        s[t] = in[t] * 5;
        asm volatile("barrier.sync 0;" ::: "memory");       /* even lanes here */
        out[t] = s[63 - t] + 2;
    }
}

/*@warpscope
kernel  unaligned_join
note    Both arms of a diverging branch end in barrier.sync; the warp reconverges right after it.
buffer  in   int  64  init=index
buffer  out  int  64  init=zero  output
grid    1
block   64
args    in, out
*/
extern "C" __global__ void unaligned_join(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t & 1) {
        s[t] = in[t] * 3;
        asm volatile("barrier.sync 0;" ::: "memory");
    } else {
        s[t] = in[t] * 5;
        asm volatile("barrier.sync 0;" ::: "memory");
    }
    out[t] = s[63 - t];   /* join-store */
}
