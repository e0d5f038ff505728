/* warp_order.cu - which warp-level operations order shared memory between the lanes of one
 * warp, for racecheck's warp-level hazards: __syncwarp() does (the CUDA guide: it orders
 * memory among the lanes taking part), a shuffle does not (the guide gives shfl, vote and
 * match no memory ordering; compute-sanitizer's racecheck reports a hazard across one).
 * Each kernel: lane l stores s[l], then reads s[(l + 1) % 32], stored by lane l + 1. */

/*@warpscope
kernel  shfl_orders_no_memory
note    A __shfl_sync between one lane's store and another lane's read: still a warp-level RAW.
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void shfl_orders_no_memory(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = in[lane];                                   /* order-write */
    int v = __shfl_sync(0xffffffffu, lane, 0);            /* every lane gets 0 */
    out[lane] = s[(lane + 1) % 32] + v;                   /* order-read */
}

/*@warpscope
kernel  syncwarp_orders_memory
note    A __syncwarp between the store and the read: no hazard.
buffer  in   int  32  init=index
buffer  out  int  32  init=zero  output
grid    1
block   32
args    in, out
*/
extern "C" __global__ void syncwarp_orders_memory(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = in[lane];
    __syncwarp();
    out[lane] = s[(lane + 1) % 32];
}
