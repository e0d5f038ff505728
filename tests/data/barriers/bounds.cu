/* bounds.cu - __launch_bounds__ as the driver enforces them, for tests/test_barriers.c:
 * a block's thread count against .maxntid (the product of its dimensions), and the
 * register cap ptxas derives from (maxThreads, minBlocks). */

/*@warpscope
kernel  bounded_over
entry   bounded
note    __launch_bounds__(128) launched with 256 threads: the driver refuses it.
buffer  out  int  256  init=zero  output
grid    1
block   256
args    out
*/

/*@warpscope
kernel  bounded_2d
entry   bounded
note    The same bound with a 16x8 block: 128 threads, accepted.
buffer  out  int  128  init=zero  output
grid    1
block   16, 8
args    out
*/
__global__ void __launch_bounds__(128) bounded(int *out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    out[t] = t + 1;
}

/*@warpscope
kernel  bounded_min_blocks
note    __launch_bounds__(256, 4): four blocks of 256 threads per SM, so at most 64 registers.
buffer  out  int  256  init=zero  output
grid    1
block   256
args    out
*/
__global__ void __launch_bounds__(256, 4) bounded_min_blocks(int *out)
{
    out[threadIdx.x] = threadIdx.x * 3;
}
