/* local_memory.cu - a per-thread array indexed by run-time values cannot live
 * in registers (registers are not addressable), so the compiler puts it in
 * local memory: per-thread slices of global memory, interleaved so that
 * consecutive 32-bit words belong to consecutive lanes. Each access is a
 * ld.local / st.local through L1 and L2. The fix is to keep only what is
 * needed, in registers. (seeds/004 "寄存器溢出与本地内存": check
 * `nvcc -Xptxas -v` for the stack frame; demos/local_memory.resources holds
 * those numbers for these kernels.)
 *
 *   variant                   what it changes                                       stars
 *   1  local_dynamic_index    a 16-bin per-thread histogram a[h >> 28] += k+1, then
 *                             a[sel[i]]: stores and loads at run-time indices, .local  **
 *   2  register_select        accumulate only bin sel[i] in a register: no local memory **
 *
 * Run with `warpscope sim local_dynamic_index` (override with -D N=...).
 * Both compute, per thread i: h = seed[i]; 16 times: h = h * 1664525 + 1013904223
 * (mod 2^32) and bin h >> 28 gains k+1 (k = 0..15); out[i] = bin sel[i] & 15.
 * Integer arithmetic, so the result is exact.
 * (A write-once array read at one run-time index is not enough: ptxas turns
 * that into a compare/select stream; the read-modify-write histogram is not.) */

#define LOCAL_N 16                     /* bins; h >> 28 picks one of 16 */

/*@warpscope
kernel  local_dynamic_index
note    Per-thread histogram a[16] updated at run-time indices: a 64-byte local-memory frame.
stars   2
param   N = 1<<17
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  seed  uint  N  init=random(31, 0, 1000000)
buffer  sel   int   N  init=random(32, 0, 16)
buffer  out   uint  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    seed, sel, out, N
*/
__global__ void local_dynamic_index(const unsigned int *seed, const int *sel, unsigned int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int a[LOCAL_N];
    for (int k = 0; k < LOCAL_N; k++)
        a[k] = 0;
    unsigned int h = seed[i];
    for (int k = 0; k < LOCAL_N; k++) {
        h = h * 1664525u + 1013904223u;
        a[h >> 28] += k + 1;                       /* ld.local + st.local at a run-time index */
    }
    out[i] = a[sel[i] & (LOCAL_N - 1)];
}

/*@warpscope
kernel  register_select
note    The same answer accumulating only the wanted bin in a register: no local memory.
stars   2
param   N = 1<<17
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  seed  uint  N  init=random(31, 0, 1000000)
buffer  sel   int   N  init=random(32, 0, 16)
buffer  out   uint  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    seed, sel, out, N
*/
__global__ void register_select(const unsigned int *seed, const int *sel, unsigned int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int j = sel[i] & (LOCAL_N - 1);
    unsigned int h = seed[i], v = 0;
    for (int k = 0; k < LOCAL_N; k++) {
        h = h * 1664525u + 1013904223u;
        if ((h >> 28) == j)                        /* selp: stays in registers */
            v += k + 1;
    }
    out[i] = v;
}
