/* divergence.cu - where a warp that splits around a branch comes back
 * together. Lanes 0-7 of every warp take a branch that *could* end the thread
 * (a __trap(), a return, a PTX exit); then every lane stores once. ptxas
 * brackets the branch with BSSY/BSYNC and puts the BSYNC where the paths that
 * go on meet, so the store after it is one warp-level instruction per warp:
 * 32 lanes x 4 bytes = 128 bytes = 4 sectors, 32 warps -> 32 st.global, never
 * 64. A lane that does leave just drops out of the warp.
 * (docs/interp.md, "Reconvergence", has the rule the simulator follows.)
 *
 *   variant               what the branch of lanes 0-7 holds                      stars
 *   1  div_copy           nothing that can leave: the baseline                      *
 *   2  div_trap           if (in[i] < 0) __trap();                                  *
 *   3  div_return         if (in[i] < 0) return;                                    *
 *   4  div_exit           if (in[i] < 0) asm("exit;");  (PTX exit)                  *
 *   5  div_return_taken   lanes with i % 4 == 3 store -1 and return, for real:
 *                         that store is one more instruction, the final one still 1 **
 *   6  div_nested         lanes 0-15 { lanes 0-7 { may return } store } store       **
 *   7  div_loop           a loop of (lane % 8) + 1 trips with continue, break and a
 *                         return that never happens; one store after it              **
 *   8  div_syncwarp       a possible trap, then __syncwarp() (ptxas: WARPSYNC.ALL
 *                         instead of BSSY/BSYNC), then the store                     **
 *   9  div_barrier        a possible trap, a shared store, __syncthreads(), then a
 *                         read of another warp's word                                **
 *
 * Variants 1-6, 8 and 9 read in[i] only on lanes 0-7 (8 lanes x 4 bytes = one
 * sector per warp); in = index data is never negative, so nothing traps or
 * returns unless the variant says so. Run one with `warpscope sim div_trap`; `warpscope check
 * div_trap` on a GPU compares every counter with ncu
 * (smsp__sass_inst_executed_op_global_st.sum is one per warp). */

/* Lanes 0-7 of each warp (the block is a multiple of 32 threads). */
__device__ __forceinline__ bool first_eight(void) { return (threadIdx.x & 31) < 8; }

/* ------------------------------------------------------------------------- */
/* 1. baseline: the branch only computes. */

/*@warpscope
kernel  div_copy
note    Lanes 0-7 add in[i] in a branch that cannot leave; every lane stores once.
stars   1
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = i;
    if (first_eight())
        v += in[i];
    out[i] = v;
}

/* ------------------------------------------------------------------------- */
/* 2. a trap that could fire: ptxas puts BSYNC after BPT.TRAP. */

/*@warpscope
kernel  div_trap
note    Lanes 0-7 may __trap(); the store after the branch is one instruction per warp.
stars   1
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_trap(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first_eight()) {
        if (in[i] < 0)
            __trap();
    }
    out[i] = i;
}

/* ------------------------------------------------------------------------- */
/* 3. an early return: in the PTX it branches to the kernel's shared `ret`;
 *    ptxas makes it `@!P0 EXIT` inside the BSSY/BSYNC bracket. */

/*@warpscope
kernel  div_return
note    Lanes 0-7 may return early; the paths that stay meet before the store.
stars   1
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_return(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first_eight()) {
        if (in[i] < 0)
            return;
    }
    out[i] = i;
}

/* ------------------------------------------------------------------------- */
/* 4. the PTX exit instruction itself. */

/*@warpscope
kernel  div_exit
note    Lanes 0-7 may execute PTX exit; the others wait for them only if they stay.
stars   1
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_exit(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first_eight()) {
        if (in[i] < 0)
            asm volatile("exit;");
    }
    out[i] = i;
}

/* ------------------------------------------------------------------------- */
/* 5. lanes that really leave, after a store of their own: 2 of the 8 lanes
 *    (i % 4 == 3) store -1 and return. Their store is one more instruction per
 *    warp, on a path that never comes back; the final store is still one. */

/*@warpscope
kernel  div_return_taken
note    Lanes 3 and 7 of each warp store -1 and return; the final store stays one per warp.
stars   2
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_return_taken(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first_eight()) {
        if (in[i] % 4 == 3) {
            out[i] = -1;
            return;
        }
    }
    out[i] = 2 * i;
}

/* ------------------------------------------------------------------------- */
/* 6. nested: the inner branch may return, the outer one stores on its own. */

/*@warpscope
kernel  div_nested
note    Lanes 0-15 store to aux after lanes 0-7 may return; two levels, each meets again.
stars   2
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  aux  int  N  init=zero  output
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, aux, out, N
*/
__global__ void div_nested(const int *in, int *aux, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if ((threadIdx.x & 31) < 16) {
        if (first_eight()) {
            if (in[i] < 0)
                return;
        }
        aux[i] = i + 1;
    }
    out[i] = i;
}

/* ------------------------------------------------------------------------- */
/* 7. a loop of (lane % 8) + 1 trips over in[i..i+7] with continue (v % 5 == 4),
 *    break (v % 7 == 6) and a return that never happens (v < 0). */

/*@warpscope
kernel  div_loop
note    Lane-dependent trips with continue, break and a possible return; one store after.
stars   2
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N+8  init=index
buffer  out  int  N    init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_loop(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int s = 0, trips = (threadIdx.x & 7) + 1;
    for (int k = 0; k < trips; k++) {
        int v = in[i + k];
        if (v < 0)
            return;
        if (v % 5 == 4)
            continue;
        if (v % 7 == 6)
            break;
        s += v;
    }
    out[i] = s;
}

/* ------------------------------------------------------------------------- */
/* 8. __syncwarp() after the possible trap: ptxas reconverges with
 *    WARPSYNC.ALL, no BSSY at all. */

/*@warpscope
kernel  div_syncwarp
note    A possible trap, then __syncwarp(): the warp stores once, converged.
stars   2
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    cdiv(N, 256)
block   256
args    in, out, N
*/
__global__ void div_syncwarp(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first_eight()) {
        if (in[i] < 0)
            __trap();
    }
    __syncwarp();
    out[i] = i;
}

/* ------------------------------------------------------------------------- */
/* 9. a barrier after the possible trap: every warp arrives converged; each
 *    thread then reads the word of thread blockDim.x - 1 - t. */

/*@warpscope
kernel  div_barrier
note    A possible trap, a shared store, __syncthreads(), then the mirrored word.
stars   2
param   N = 1<<13
realistic N = 1<<25   # scripts/pair-sizes.awk: >= 256 MiB
buffer  in   int  N  init=index
buffer  out  int  N  init=zero  output
grid    N/256
block   256
args    in, out, N
*/
__global__ void div_barrier(const int *in, int *out, int n)
{
    __shared__ int mirror[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (first_eight()) {
        if (in[i] < 0)
            __trap();
    }
    mirror[threadIdx.x] = i;
    __syncthreads();
    out[i] = mirror[blockDim.x - 1 - threadIdx.x];
    (void)n;
}

